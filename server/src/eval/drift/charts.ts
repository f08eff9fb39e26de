// The drift suite's charts, after the paper's figures: the drift heatmap per model and library (Figure 2), version
// fidelity bars with Wilson intervals (Figure 1), the forward-compatibility drop (Figure 3), the error taxonomy
// (Figure 4), repair success per target and round (Figure 5), and Pass@1 against Pass@k (Figure 6). Pure: results in,
// SVG text out, built on the LibEvoBench report's primitives (eval/libevobench/reports/charts.ts); no scripts.
import { emptyChart, escapeXml, groupedBarChart, inkFill, inkStroke, legend, legendFrame, legendWidth, n, PALETTE, svg, yGrid, type BarSeries } from '../reports/svg.js';
import { OTHER_WARNING_LABEL, type DriftMatrix } from './metrics.js';
import type { DriftResults, LibraryResults } from './report.js';

function pct(v: number | null | undefined, digits = 0): string {
  return v === null || v === undefined ? '–' : (v * 100).toFixed(digits);
}

/** White (0) to green (1), through a light yellow: readable with black text everywhere. */
function heatColor(v: number): string {
  const t = Math.max(0, Math.min(1, v));
  const from = [255, 255, 255];
  const mid = [255, 236, 160];
  const to = [56, 142, 60];
  const [a, b, u] = t < 0.5 ? [from, mid, t / 0.5] : [mid, to, (t - 0.5) / 0.5];
  const c = a.map((x, i) => Math.round(x + (b[i]! - x) * u));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

// ---- Figure 2: drift heatmaps ---------------------------------------------------------------------------------------

/** One heatmap panel: rows the prompted version, columns the environment, Pass@1 in each cell (n in the tooltip). */
function heatmapPanel(body: string[], x0: number, y0: number, title: string, m: DriftMatrix, cell: number): { width: number; height: number } {
  const labelW = 64;
  const vs = m.versions;
  body.push(`<text x="${n(x0 + labelW + (vs.length * cell) / 2)}" y="${n(y0)}" text-anchor="middle" font-weight="600" ${inkFill('text')}>${escapeXml(title)}</text>`);
  const top = y0 + 30;
  vs.forEach((t, j) => body.push(`<text x="${n(x0 + labelW + j * cell + cell / 2)}" y="${n(top - 6)}" text-anchor="middle" font-size="11" ${inkFill('text')}>${escapeXml(t)}</text>`));
  vs.forEach((s, i) => {
    body.push(`<text x="${n(x0 + labelW - 6)}" y="${n(top + i * cell + cell / 2 + 4)}" text-anchor="end" font-size="11" ${inkFill('text')}>${escapeXml(s)}</text>`);
    vs.forEach((t, j) => {
      const c = m.cells[i]![j];
      const x = x0 + labelW + j * cell;
      const y = top + i * cell;
      const v = c?.pass.value ?? null;
      const tip = c ? `prompted ${s}, executed ${t}: Pass@1 ${pct(v, 1)}% (${c.pass.successes}/${c.pass.n})${c.pass.ci ? ` [${pct(c.pass.ci[0], 1)}, ${pct(c.pass.ci[1], 1)}]` : ''}` : `prompted ${s}, executed ${t}: nothing ran`;
      body.push(`<rect x="${n(x)}" y="${n(y)}" width="${cell}" height="${cell}" fill="${v === null ? '#f2f2f2' : heatColor(v)}" stroke="${i === j ? '#222' : '#d0d0d0'}" stroke-width="${i === j ? 2 : 1}"><title>${escapeXml(tip)}</title></rect>`);
      body.push(`<text x="${n(x + cell / 2)}" y="${n(y + cell / 2 + 4)}" text-anchor="middle" font-size="12" ${inkFill('onData')}>${v === null ? '–' : (v * 100).toFixed(0)}</text>`);
    });
  });
  body.push(`<text x="${n(x0 + labelW + (vs.length * cell) / 2)}" y="${n(top + vs.length * cell + 18)}" text-anchor="middle" font-size="11" ${inkFill('muted')}>executed in</text>`);
  body.push(`<text transform="translate(${n(x0 + 10)} ${n(top + (vs.length * cell) / 2)}) rotate(-90)" text-anchor="middle" font-size="11" ${inkFill('muted')}>prompted for</text>`);
  return { width: labelW + vs.length * cell, height: 30 + vs.length * cell + 26 };
}

/** The drift matrices of one or more runs: a panel per (run, library); the diagonal outlined. */
export function heatmapSvg(runs: readonly DriftResults[], title = 'Drift matrices D[s][t], Pass@1 (%)'): string {
  const panels = runs.flatMap((r) => r.results.filter((l) => l.executions > 0).map((l) => ({ title: runs.length > 1 ? `${r.run.label} · ${l.library}` : l.library, matrix: l.matrix })));
  if (panels.length === 0) return emptyChart(title, 'nothing executed yet');
  const cell = 46;
  const perRow = Math.max(1, Math.min(3, panels.length));
  // A column is as wide as its grid or its title (about 7.4 px a character, bold).
  const widths = panels.map((p) => Math.max(64 + p.matrix.versions.length * cell, p.title.length * 7.4));
  const colW = Math.max(...widths) + 40;
  const rowH = Math.max(...panels.map((p) => 30 + p.matrix.versions.length * cell + 26)) + 30;
  const width = Math.max(480, 20 + perRow * colW);
  const height = 40 + Math.ceil(panels.length / perRow) * rowH;
  const body: string[] = [];
  panels.forEach((p, i) => heatmapPanel(body, 20 + (i % perRow) * colW, 50 + Math.floor(i / perRow) * rowH, p.title, p.matrix, cell));
  return svg(width, height, title, body);
}

// ---- Figure 1: fidelity -------------------------------------------------------------------------------------------

/** Version fidelity per version of one library: Pass@1 and Pass@k of each run, with Wilson intervals. */
export function fidelitySvg(runs: readonly DriftResults[], library: string): string {
  const title = `Version fidelity: ${library} (Pass@1, Pass@k; 95% Wilson intervals)`;
  const libs = runs.map((r) => r.results.find((l) => l.library === library)).filter((l): l is LibraryResults => l !== undefined);
  const versions = [...new Set(libs.flatMap((l) => l.versions))];
  if (versions.length === 0) return emptyChart(title, `no ${library} executions`);
  const series: BarSeries[] = [];
  runs.forEach((r, i) => {
    const l = r.results.find((x) => x.library === library);
    if (!l) return;
    const k = r.settings.samplesPerPrompt;
    const at = (v: string) => l.matrix.fidelity.find((f) => f.version === v);
    series.push({ label: `${r.run.label} Pass@1`, color: PALETTE[i % PALETTE.length]!, values: versions.map((v) => at(v)?.pass.value ?? null), intervals: versions.map((v) => at(v)?.pass.ci ?? null) });
    if (k > 1) {
      series.push({
        label: `${r.run.label} Pass@${k}`,
        color: lighten(PALETTE[i % PALETTE.length]!),
        values: versions.map((v) => at(v)?.passAtK[k - 1]?.value ?? null),
        intervals: versions.map((v) => at(v)?.passAtK[k - 1]?.ci ?? null),
      });
    }
  });
  return groupedBarChart(title, versions, series, 'Pass (%)');
}

function lighten(hex: string): string {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${c.map((x) => Math.round(x + (255 - x) * 0.5)).join(',')})`;
}

// ---- Figure 3: forward drop ---------------------------------------------------------------------------------------

/** D[s][s] − D[s][t] for every s < t: bars on a −100..100 axis (positive: the code breaks in the newer version). */
export function forwardDropSvg(runs: readonly DriftResults[]): string {
  const title = 'Forward-compatibility drop D[s][s] − D[s][t] (points)';
  const rows = runs.flatMap((r, ri) => r.results.flatMap((l) => l.matrix.forwardDrops.map((d) => ({ run: r.run.label, ri, library: l.library, ...d }))));
  if (rows.length === 0) return emptyChart(title, 'no version has both its own and a newer environment measured');
  const categories = [...new Set(rows.map((r) => `${r.library} ${r.prompted}→${r.environment}`))];
  const runLabels = [...new Set(rows.map((r) => r.run))];
  const slot = 34 * Math.max(1, runLabels.length) + 14;
  const plotH = 300;
  const plotW = Math.max(360, categories.length * slot);
  const { left, top, width, height } = legendFrame(plotW, plotH, runLabels, 110);
  const y = (v: number) => top + plotH / 2 - (Math.max(-1, Math.min(1, v)) * plotH) / 2;
  const body: string[] = [];
  yGrid(body, left, plotW, y, -100, 100, 25, (t) => (t === 0 ? 'axis' : 'grid'));
  body.push(`<text transform="translate(${left - 40} ${n(top + plotH / 2)}) rotate(-90)" text-anchor="middle" ${inkFill('text')}>drop (points)</text>`);
  const barW = Math.min(30, (slot - 14) / Math.max(1, runLabels.length));
  categories.forEach((cat, ci) => {
    const x0 = left + ci * slot + 7;
    for (const r of rows.filter((x) => `${x.library} ${x.prompted}→${x.environment}` === cat)) {
      const ri = runLabels.indexOf(r.run);
      const x = x0 + ri * barW;
      const y0 = y(0);
      const y1 = y(r.drop);
      body.push(`<rect x="${n(x)}" y="${n(Math.min(y0, y1))}" width="${n(barW - 2)}" height="${n(Math.max(1, Math.abs(y1 - y0)))}" fill="${PALETTE[r.ri % PALETTE.length]}"><title>${escapeXml(`${r.run} ${r.library}: prompted ${r.prompted}, executed ${r.environment}: ${(r.drop * 100).toFixed(1)} points`)}</title></rect>`);
      body.push(`<text x="${n(x + (barW - 2) / 2)}" y="${n(r.drop >= 0 ? y1 - 3 : y1 + 11)}" text-anchor="middle" font-size="10" ${inkFill('text')}>${(r.drop * 100).toFixed(0)}</text>`);
    }
    body.push(`<text transform="translate(${n(left + ci * slot + slot / 2)} ${top + plotH + 12}) rotate(35)" font-size="10" ${inkFill('text')}>${escapeXml(cat)}</text>`);
  });
  legend(body, left + plotW + 24, top + 10, runLabels.map((label, i) => ({ label, color: PALETTE[i % PALETTE.length]!, box: true })));
  return svg(width, height, title, body);
}

// ---- Figure 4: error taxonomy ---------------------------------------------------------------------------------------

const OUTCOME_COLORS: Record<string, string> = { Pass: '#2e7d32', 'Soft-fail': '#f9a825', Timeout: '#6d4c41' };
const PASS_WARNING_COLORS = ['#81c784', '#aed581', '#c5e1a5'];
const ERROR_COLORS = ['#c62828', '#ad1457', '#6a1b9a', '#283593', '#00838f', '#ef6c00', '#5d4037', '#546e7a'];
const TOP_LABELS = 8;

/** Stacked shares of Pass, passes with other warnings, Soft-fail, Timeout and the most frequent exception types: a bar per run and prompted version. */
export function taxonomySvg(runs: readonly DriftResults[]): string {
  const title = 'Error taxonomy by prompted version (share of executions)';
  const bars = runs.flatMap((r) =>
    r.results.flatMap((l) => [
      ...l.taxonomy.byPrompted.map((row) => ({ label: `${runs.length > 1 ? `${r.run.label} · ` : ''}${l.library} ${row.key}`, row })),
      { label: `${runs.length > 1 ? `${r.run.label} · ` : ''}${l.library} all`, row: l.taxonomy.overall },
    ]),
  ).filter((b) => b.row.n > 0);
  if (bars.length === 0) return emptyChart(title, 'nothing executed yet');
  const totals = new Map<string, number>();
  // Passes with another warning class than DeprecationWarning: their own shade of the pass colour, beside Pass.
  const passWarnings = [...new Set(bars.flatMap((b) => Object.keys(b.row.counts)).filter((k) => k.startsWith(OTHER_WARNING_LABEL)))].sort();
  for (const b of bars) for (const [k, c] of Object.entries(b.row.counts)) if (!(k in OUTCOME_COLORS) && !passWarnings.includes(k)) totals.set(k, (totals.get(k) ?? 0) + c);
  const errors = [...totals.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k]) => k);
  const shown = errors.slice(0, TOP_LABELS);
  const labels = ['Pass', ...passWarnings, 'Soft-fail', 'Timeout', ...shown, ...(errors.length > TOP_LABELS ? ['other errors'] : [])];
  const color = (label: string) => OUTCOME_COLORS[label] ?? (passWarnings.includes(label) ? PASS_WARNING_COLORS[passWarnings.indexOf(label) % PASS_WARNING_COLORS.length]! : label === 'other errors' ? '#9e9e9e' : ERROR_COLORS[shown.indexOf(label) % ERROR_COLORS.length]!);
  const plotH = 280;
  const slot = 44;
  const plotW = Math.max(300, bars.length * slot);
  const { left, top, width, height } = legendFrame(plotW, plotH, labels, 120);
  const body: string[] = [];
  const y = (v: number) => top + plotH - v * plotH;
  yGrid(body, left, plotW, y, 0, 100, 20);
  bars.forEach((b, i) => {
    const x = left + i * slot + 8;
    let acc = 0;
    for (const label of labels) {
      const count = label === 'other errors' ? errors.slice(TOP_LABELS).reduce((s, k) => s + (b.row.counts[k] ?? 0), 0) : b.row.counts[label] ?? 0;
      if (count === 0) continue;
      const share = count / b.row.n;
      body.push(`<rect x="${n(x)}" y="${n(y(acc + share))}" width="${slot - 16}" height="${n(y(acc) - y(acc + share))}" fill="${color(label)}"><title>${escapeXml(`${b.label}: ${label} ${count}/${b.row.n} (${(share * 100).toFixed(1)}%)`)}</title></rect>`);
      acc += share;
    }
    body.push(`<text transform="translate(${n(x + (slot - 16) / 2)} ${top + plotH + 12}) rotate(40)" font-size="10" ${inkFill('text')}>${escapeXml(b.label)}</text>`);
  });
  legend(body, left + plotW + 24, top + 10, labels.map((label) => ({ label, color: color(label), box: true })));
  return svg(width, height, title, body);
}

// ---- Figure 5: repair -----------------------------------------------------------------------------------------------

/** Repair success per target version (and overall), cumulative by round, with Wilson intervals. */
export function repairSvg(runs: readonly DriftResults[]): string {
  const title = 'Repair success by target, cumulative by round (95% Wilson)';
  const figures = runs.flatMap((r) => r.results.flatMap((l) => l.repair.filter((f) => f.attempts > 0).map((f) => ({ run: r.run.label, library: l.library, f, rounds: r.settings.repairRounds }))));
  if (figures.length === 0) return emptyChart(title, 'no repair was attempted (nothing passed on its version and failed on a newer one)');
  const categories = figures.map((x) => `${runs.length > 1 ? `${x.run} · ` : ''}${x.library} ${x.f.target === 'all' ? 'all' : `→${x.f.target}`} (${x.f.attempts})`);
  const rounds = Math.max(...figures.map((x) => x.rounds));
  const series: BarSeries[] = Array.from({ length: rounds }, (_, i) => ({
    label: i === 0 ? 'round 1 (single shot)' : `within ${i + 1} rounds`,
    color: ['#90caf9', '#42a5f5', '#1565c0', '#0d47a1', '#002171'][Math.min(i, 4)]!,
    values: figures.map((x) => x.f.byRound[i]?.repaired.value ?? null),
    intervals: figures.map((x) => x.f.byRound[i]?.repaired.ci ?? null),
  }));
  return groupedBarChart(title, categories, series, 'repaired (%)');
}

// ---- Figure 6: Pass@1 vs Pass@k -------------------------------------------------------------------------------------

/** A point per run, library and version (the diagonal cell): Pass@1 against Pass@k, with the y = x line. */
export function passAtKScatterSvg(runs: readonly DriftResults[]): string {
  const k = Math.max(1, ...runs.map((r) => r.settings.samplesPerPrompt));
  const title = `Pass@1 vs Pass@${k} on the prompted version`;
  const points = runs.flatMap((r, ri) =>
    r.results.flatMap((l) =>
      l.matrix.fidelity
        .map((f) => ({ run: r.run.label, ri, label: `${l.library} ${f.version}`, x: f.passAtK[0]?.value ?? null, y: f.passAtK[r.settings.samplesPerPrompt - 1]?.value ?? null }))
        .filter((p) => p.x !== null && p.y !== null),
    ),
  );
  if (points.length === 0 || k < 2) return emptyChart(title, k < 2 ? 'one sample per prompt: Pass@k needs samplesPerPrompt ≥ 2' : 'nothing executed yet');
  const left = 64;
  const top = 44;
  const size = 320;
  const runLabels = [...new Set(points.map((p) => p.run))];
  const width = left + size + 24 + legendWidth([...runLabels, 'y = x']);
  const height = top + size + 60;
  const body: string[] = [];
  const X = (v: number) => left + v * size;
  const Y = (v: number) => top + size - v * size;
  for (let t = 0; t <= 100; t += 20) {
    body.push(`<line x1="${n(X(t / 100))}" y1="${top}" x2="${n(X(t / 100))}" y2="${top + size}" ${inkStroke('grid')}/>`);
    body.push(`<line x1="${left}" y1="${n(Y(t / 100))}" x2="${left + size}" y2="${n(Y(t / 100))}" ${inkStroke('grid')}/>`);
    body.push(`<text x="${n(X(t / 100))}" y="${top + size + 16}" text-anchor="middle" font-size="10" ${inkFill('muted')}>${t}</text>`);
    body.push(`<text x="${left - 6}" y="${n(Y(t / 100) + 4)}" text-anchor="end" font-size="10" ${inkFill('muted')}>${t}</text>`);
  }
  body.push(`<rect x="${left}" y="${top}" width="${size}" height="${size}" fill="none" ${inkStroke('axis')}/>`);
  body.push(`<line x1="${X(0)}" y1="${Y(0)}" x2="${X(1)}" y2="${Y(1)}" ${inkStroke('frame')} stroke-dasharray="5 4"/>`);
  body.push(`<text x="${left + size / 2}" y="${top + size + 34}" text-anchor="middle" ${inkFill('text')}>Pass@1 (%)</text>`);
  body.push(`<text transform="translate(${left - 40} ${top + size / 2}) rotate(-90)" text-anchor="middle" ${inkFill('text')}>Pass@${k} (%)</text>`);
  for (const p of points) {
    body.push(`<circle cx="${n(X(p.x!))}" cy="${n(Y(p.y!))}" r="5" fill="${PALETTE[p.ri % PALETTE.length]}" fill-opacity="0.8" ${inkStroke('paper')}><title>${escapeXml(`${p.run} ${p.label}: Pass@1 ${(p.x! * 100).toFixed(1)}, Pass@${k} ${(p.y! * 100).toFixed(1)}`)}</title></circle>`);
  }
  legend(body, left + size + 24, top + 10, [...runLabels.map((label, i) => ({ label, color: PALETTE[i % PALETTE.length]!, box: true })), { label: 'y = x', color: '#888', dashed: true }]);
  return svg(width, height, title, body);
}
