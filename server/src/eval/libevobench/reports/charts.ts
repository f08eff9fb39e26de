// Hand-written SVG charts of benchmark results, after the paper's figures: stable vs evolving over normalised
// versions (Figure 2), the API-C L0–L3 staircase (Figure 3), per-version taxonomy bars (Figure 5) and the SEUS
// leaderboard (Table 7). Pure: results in, SVG text out; no scripts, no external resources.
import type { Comparison } from '../scoring/compare.js';
import { ALL, PRIMARY_METRIC, type ProgressionPoint, type RunResults, type ScoringUnit } from '../scoring/types.js';
import { emptyChart, escapeXml, groupedBarChart, inkFill, inkStroke, legend, legendWidth, lineChart, n, PALETTE, svg, yAxis, type BarSeries, type Frame, type LineSeries } from '../../reports/svg.js';

const CATEGORY_COLORS: Record<string, string> = {
  correct: '#2e7d32',
  invalid: '#ef6c00',
  anachronistic: '#c62828',
  unknown: '#757575',
  failed: '#c9c9c9',
};

function seriesFromPoints(points: readonly ProgressionPoint[]): LineSeries['points'] {
  return points.map((p) => ({ x: p.x, y: p.value, tip: p.version }));
}

/** Figure 2 for one run: a line per library and group (stable dashed, evolving solid). */
export function progressionSvg(results: RunResults): string {
  const series: LineSeries[] = results.progression.map((s) => {
    const color = PALETTE[results.libraries.indexOf(s.library) % PALETTE.length]!;
    return { label: `${s.library} ${s.group}`, color, dashed: s.group === 'stable', points: seriesFromPoints(s.points) };
  });
  return lineChart('Stable vs evolving APIs across versions (mean of API-C@L1, API-I, SR)', series, 'normalised version (0 = oldest, 1 = newest)', 'score (%)');
}

/** A run's progression averaged over its libraries, on the union of their normalised positions (linear interpolation). */
export function pooledProgression(results: RunResults, group: 'stable' | 'evolving'): { x: number; y: number | null }[] {
  const lines = results.progression.filter((s) => s.group === group).map((s) => s.points.filter((p) => p.value !== null).map((p) => ({ x: p.x, y: p.value! })));
  const usable = lines.filter((l) => l.length > 0);
  if (usable.length === 0) return [];
  const xs = [...new Set(usable.flatMap((l) => l.map((p) => p.x)))].sort((a, b) => a - b);
  const at = (line: { x: number; y: number }[], x: number): number => {
    if (line.length === 1 || x <= line[0]!.x) return line[0]!.y;
    for (let i = 1; i < line.length; i++) {
      const a = line[i - 1]!;
      const b = line[i]!;
      if (x <= b.x) return a.y + ((x - a.x) / (b.x - a.x || 1)) * (b.y - a.y);
    }
    return line[line.length - 1]!.y;
  };
  return xs.map((x) => ({ x, y: usable.reduce((s, l) => s + at(l, x), 0) / usable.length }));
}

/** Figure 2 across runs: a colour per run, stable dashed and evolving solid, averaged over libraries. */
export function comparisonProgressionSvg(runs: readonly RunResults[]): string {
  const series: LineSeries[] = runs.flatMap((r, i) =>
    (['stable', 'evolving'] as const).map((group) => ({
      label: `${r.run.label} ${group}`,
      color: PALETTE[i % PALETTE.length]!,
      dashed: group === 'stable',
      points: pooledProgression(r, group),
    })),
  );
  return lineChart('Stable vs evolving APIs across versions, by run', series, 'normalised version (0 = oldest, 1 = newest)', 'score (%)');
}

// ---- bars -----------------------------------------------------------------------------------------------------------

const STAIRCASE_CATEGORIES = ['L0 code', 'L1 +doc', 'L2 +version', 'L3 name+version'];

function staircaseValues(results: RunResults, library: string, group: string): (number | null)[] {
  return ['L0', 'L1', 'L2', 'L3'].map((level) => {
    const row = results.staircase.find((s) => s.library === library && s.group === group && s.level === level);
    if (!row) return null;
    return level === 'L3' ? row.recall : row.exact;
  });
}

/** Figure 3 for one run: L0–L2 API exact match and L3 parameter recall, stable and evolving, over all libraries. */
export function staircaseSvg(results: RunResults): string {
  const lib = results.libraries.length > 1 ? ALL : results.libraries[0] ?? ALL;
  const series: BarSeries[] = [
    { label: 'stable', color: '#90caf9', values: staircaseValues(results, lib, 'stable') },
    { label: 'evolving', color: '#1565c0', values: staircaseValues(results, lib, 'evolving') },
    { label: 'all', color: '#616161', values: staircaseValues(results, lib, ALL) },
  ];
  return groupedBarChart('API-C levels: exact match (L0–L2), parameter recall (L3)', STAIRCASE_CATEGORIES, series, 'score (%)');
}

export function comparisonStaircaseSvg(runs: readonly RunResults[]): string {
  const series: BarSeries[] = runs.map((r, i) => ({
    label: r.run.label,
    color: PALETTE[i % PALETTE.length]!,
    values: staircaseValues(r, r.libraries.length > 1 ? ALL : r.libraries[0] ?? ALL, ALL),
  }));
  return groupedBarChart('API-C levels by run: exact match (L0–L2), parameter recall (L3)', STAIRCASE_CATEGORIES, series, 'score (%)');
}

// ---- Figure 5: taxonomy per version ---------------------------------------------------------------------------------

const TAXONOMY_PANELS: { unit: ScoringUnit; level: 'api' | 'parameter'; title: string }[] = [
  { unit: 'API-C@L2', level: 'api', title: 'API-C@L2 (API)' },
  { unit: 'API-I', level: 'api', title: 'API-I (API)' },
  { unit: 'API-C@L3', level: 'parameter', title: 'API-C@L3 (parameters)' },
  { unit: 'SR', level: 'parameter', title: 'SR (parameters)' },
];

/**
 * Figure 5: per library (rows) and task (columns), a stacked bar per version of the taxonomy shares, API level for
 * API-C@L2 and API-I, parameter level for API-C@L3 and SR; the API-C@L3 panel carries its parameter recall as a line.
 */
export function taxonomySvg(results: RunResults): string {
  const title = 'Taxonomy per version';
  const libs = results.libraries.filter((lib) => results.taxonomy.api.some((t) => t.library === lib) || results.taxonomy.parameters.some((t) => t.library === lib));
  if (libs.length === 0) return emptyChart(title, 'no taxonomy (no matrix for these libraries)');
  const panelW = 240;
  const panelH = 170;
  const left = 56;
  const top = 56;
  const width = left + TAXONOMY_PANELS.length * (panelW + 20) + legendWidth(['extraction failure', 'API-C@L3 recall']);
  const height = top + libs.length * (panelH + 70) + 10;
  const body: string[] = [];
  libs.forEach((lib, li) => {
    const versions = results.versions[lib] ?? [];
    TAXONOMY_PANELS.forEach((panel, pi) => {
      const f: Frame = { left: left + pi * (panelW + 20), top: top + li * (panelH + 70), width: panelW, height: panelH };
      body.push(`<text x="${n(f.left + f.width / 2)}" y="${n(f.top - 8)}" text-anchor="middle" font-weight="600" ${inkFill('text')}>${escapeXml(`${lib} · ${panel.title}`)}</text>`);
      const y = (v: number) => f.top + f.height - Math.max(0, Math.min(1, v)) * f.height;
      for (let t = 0; t <= 100; t += 25) {
        body.push(`<line x1="${n(f.left)}" y1="${n(y(t / 100))}" x2="${n(f.left + f.width)}" y2="${n(y(t / 100))}" ${inkStroke('grid')}/>`);
        if (pi === 0) body.push(`<text x="${n(f.left - 4)}" y="${n(y(t / 100) + 4)}" text-anchor="end" font-size="10" ${inkFill('muted')}>${t}</text>`);
      }
      body.push(`<rect x="${n(f.left)}" y="${n(f.top)}" width="${f.width}" height="${f.height}" fill="none" ${inkStroke('frame')}/>`);
      const slot = f.width / Math.max(1, versions.length);
      const bar = Math.min(40, slot * 0.7);
      const recallPoints: string[] = [];
      versions.forEach((version, vi) => {
        const x0 = f.left + vi * slot + (slot - bar) / 2;
        let stack: { category: string; share: number }[] = [];
        if (panel.level === 'api') {
          const row = results.taxonomy.api.find((t) => t.library === lib && t.unit === panel.unit && t.group === ALL && t.version === version);
          if (row) stack = (['correct', 'invalid', 'anachronistic', 'unknown', 'failed'] as const).map((c) => ({ category: c, share: row[c] }));
        } else {
          const row = results.taxonomy.parameters.find((t) => t.library === lib && t.unit === panel.unit && t.group === ALL && t.version === version);
          if (row && row.parameters > 0) stack = (['correct', 'anachronistic', 'unknown'] as const).map((c) => ({ category: c, share: row[c] }));
        }
        let acc = 0;
        for (const s of stack) {
          if (s.share <= 0) continue;
          body.push(`<rect x="${n(x0)}" y="${n(y(acc + s.share))}" width="${n(bar)}" height="${n(y(acc) - y(acc + s.share))}" fill="${CATEGORY_COLORS[s.category]}"><title>${escapeXml(`${lib} ${version} ${panel.unit} ${s.category}: ${(s.share * 100).toFixed(1)}%`)}</title></rect>`);
          acc += s.share;
        }
        body.push(`<text x="${n(f.left + vi * slot + slot / 2)}" y="${n(f.top + f.height + 14)}" text-anchor="middle" font-size="10" ${inkFill('text')}>${escapeXml(version)}</text>`);
        if (panel.unit === 'API-C@L3') {
          const m = results.metrics.find((r) => r.library === lib && r.unit === 'API-C@L3' && r.metric === PRIMARY_METRIC['API-C@L3'] && r.group === ALL && r.version === version);
          if (m?.mean !== null && m?.mean !== undefined) recallPoints.push(`${n(f.left + vi * slot + slot / 2)} ${n(y(m.mean))}`);
        }
      });
      if (recallPoints.length) {
        body.push(`<polyline points="${recallPoints.join(' ')}" fill="none" stroke="#1e88e5" stroke-width="2"/>`);
        for (const p of recallPoints) {
          const [cx, cy] = p.split(' ');
          body.push(`<circle cx="${cx}" cy="${cy}" r="3" fill="#1e88e5"/>`);
        }
      }
    });
  });
  legend(body, left + TAXONOMY_PANELS.length * (panelW + 20), top + 10, [
    ...Object.entries(CATEGORY_COLORS).map(([label, color]) => ({ label: label === 'failed' ? 'extraction failure' : label, color, box: true })),
    { label: 'API-C@L3 recall', color: '#1e88e5' },
  ]);
  return svg(width, height, title, body);
}

// ---- leaderboard ----------------------------------------------------------------------------------------------------

/** SEUS per run as horizontal bars with their 95% intervals, best first. */
/**
 * The SEUS leaderboard as bars with their intervals, one panel per table of like runs (compareRuns' tables): runs
 * over other libraries, versions or tasks are never drawn on one scale of ranks (issue 22, point 8).
 */
export function leaderboardSvg(comparison: Comparison): string {
  const title = `SEUS leaderboard (λ = ${comparison.lambda}, γ = ${comparison.gamma})`;
  const rows = comparison.leaderboard;
  if (!rows.some((r) => r.seus !== null)) return emptyChart(title, 'no run has a SEUS (each needs stable and evolving samples)');
  const panels = comparison.tables.length > 1;
  const left = Math.max(140, 24 + 7 * Math.max(...rows.map((r) => `${r.rank}. ${r.label}`.length)));
  const barArea = 420;
  const rowH = 26;
  const headerH = panels ? 22 : 0;
  const top = 44;
  const width = left + barArea + 90;
  // Rows in table order, a heading above each table when there are several.
  const lines: ({ heading: string } | { row: (typeof rows)[number] })[] = [];
  for (const t of comparison.tables) {
    if (panels) lines.push({ heading: `Table ${t.table}: ${t.coverage}` });
    for (const r of rows) if (r.table === t.table) lines.push({ row: r });
  }
  const yOf: number[] = [];
  let bottom = top;
  for (const l of lines) {
    yOf.push(bottom);
    bottom += 'heading' in l ? headerH : rowH;
  }
  const height = bottom + 40;
  const body: string[] = [];
  const lo = Math.min(0, ...rows.map((r) => Math.min(r.seus ?? 0, r.ci?.[0] ?? 0)));
  const x = (v: number) => left + ((v - lo) / (1 - lo)) * barArea;
  for (let t = 0; t <= 100; t += 20) {
    if (t / 100 < lo) continue;
    body.push(`<line x1="${n(x(t / 100))}" y1="${top - 6}" x2="${n(x(t / 100))}" y2="${bottom}" ${inkStroke('grid')}/>`);
    body.push(`<text x="${n(x(t / 100))}" y="${bottom + 16}" text-anchor="middle" font-size="10" ${inkFill('muted')}>${t}</text>`);
  }
  let i = 0;
  lines.forEach((l, k) => {
    const yy = yOf[k]!;
    if ('heading' in l) {
      body.push(`<text x="8" y="${yy + 15}" font-weight="bold" ${inkFill('text')}>${escapeXml(l.heading)}</text>`);
      return;
    }
    const r = l.row;
    body.push(`<text x="${left - 8}" y="${yy + 16}" text-anchor="end" ${inkFill('text')}>${escapeXml(`${r.rank}. ${r.label}`)}</text>`);
    if (r.seus === null) {
      body.push(`<text x="${left + 4}" y="${yy + 16}" ${inkFill('muted')}>no SEUS</text>`);
      return;
    }
    const x0 = x(Math.min(0, r.seus));
    const x1 = x(Math.max(0, r.seus));
    body.push(`<rect x="${n(x0)}" y="${yy + 4}" width="${n(Math.max(1, x1 - x0))}" height="${rowH - 10}" fill="${PALETTE[i++ % PALETTE.length]}"><title>${escapeXml(`${r.label}: SEUS ${(r.seus * 100).toFixed(1)}`)}</title></rect>`);
    if (r.ci) {
      const cy = yy + rowH / 2;
      body.push(`<line x1="${n(x(r.ci[0]))}" y1="${cy}" x2="${n(x(r.ci[1]))}" y2="${cy}" ${inkStroke('axis')} stroke-width="1.5"/>`);
      body.push(`<line x1="${n(x(r.ci[0]))}" y1="${cy - 5}" x2="${n(x(r.ci[0]))}" y2="${cy + 5}" ${inkStroke('axis')}/>`);
      body.push(`<line x1="${n(x(r.ci[1]))}" y1="${cy - 5}" x2="${n(x(r.ci[1]))}" y2="${cy + 5}" ${inkStroke('axis')}/>`);
    }
    body.push(`<text x="${n(Math.max(x1, r.ci ? x(r.ci[1]) : x1) + 6)}" y="${yy + 16}" ${inkFill('text')}>${(r.seus * 100).toFixed(1)}</text>`);
  });
  return svg(width, height, title, body);
}

// ---- the grounded arm -------------------------------------------------------------------------------------------------

/** Per task, the evolving APIs' score without and with anachron's answer in the prompt, with 95% intervals. */
export function armsSvg(results: RunResults): string {
  const title = 'Evolving APIs with and without anachron (grounded arm)';
  const arms = results.arms;
  if (!arms) return emptyChart(title, 'the run asked one arm only');
  const lib = results.libraries.length > 1 ? ALL : results.libraries[0] ?? ALL;
  const rows = arms.rows.filter((r) => r.library === lib && r.group === 'evolving');
  const categories = rows.map((r) => `${r.unit.replace('API-C@', 'API-C ')} (${PRIMARY_METRIC[r.unit]})`);
  return groupedBarChart(title, categories, [
    { label: 'plain', color: '#9e9e9e', values: rows.map((r) => r.plain.mean), intervals: rows.map((r) => r.plain.ci) },
    { label: 'with anachron', color: '#2e7d32', values: rows.map((r) => r.grounded.mean), intervals: rows.map((r) => r.grounded.ci) },
  ], 'score (%)');
}
