// The drawing primitives of the benchmark reports' SVG charts, shared by the suites: the frame, axes, legends, line and
// grouped bar charts, an empty chart with a message. Pure: numbers in, SVG text out; no scripts, no external resources.

export const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif"';

/**
 * The colours of a chart's furniture, by role. Each is written as its colour on a light page (an .svg file opened on
 * its own) with a class that a page showing the chart maps to its theme (CHART_THEME_CSS: the editor's --vscode-*
 * colours in a webview; a stylesheet outranks presentation attributes). Data colours (series, cells) are the same in
 * every theme, and text drawn on them is `onData`.
 */
export type Ink = 'paper' | 'text' | 'muted' | 'grid' | 'frame' | 'axis' | 'onData';
const INK_COLOUR: Record<Ink, string> = { paper: '#ffffff', text: '#333', muted: '#555', grid: '#e5e5e5', frame: '#999', axis: '#333', onData: '#111' };

/** `fill="…" class="fill-INK"`: an element filled in a furniture colour. */
export function inkFill(ink: Ink): string {
  return `fill="${INK_COLOUR[ink]}" class="fill-${ink}"`;
}

/** `stroke="…" class="stroke-INK"`: an element outlined in a furniture colour. */
export function inkStroke(ink: Ink): string {
  return `stroke="${INK_COLOUR[ink]}" class="stroke-${ink}"`;
}

/**
 * The page's rules for the inks: the theme's background, text and secondary text, grid and frame lines mixed from the
 * two (visible in dark, light and high-contrast themes alike); outside an editor the light colours above.
 */
export const CHART_THEME_CSS = (() => {
  const fg = 'var(--vscode-foreground, #333)';
  const bg = 'var(--vscode-editor-background, #fff)';
  const mix = (share: number) => `color-mix(in srgb, ${fg} ${share}%, ${bg})`;
  const fills: Record<Ink, string> = { paper: bg, text: fg, muted: 'var(--vscode-descriptionForeground, #555)', grid: mix(20), frame: mix(50), axis: fg, onData: INK_COLOUR.onData };
  return (Object.keys(fills) as Ink[]).map((ink) => `svg .fill-${ink} { fill: ${fills[ink]}; } svg .stroke-${ink} { stroke: ${fills[ink]}; }`).join('\n');
})();

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A coordinate as SVG text: rounded to a tenth. */
export function n(x: number): string {
  return (Math.round(x * 10) / 10).toString();
}

export function svg(chartWidth: number, height: number, title: string, body: string[]): string {
  // Wide enough for the title (about 7.6 px a character at 14 px): a long title is never clipped.
  const width = Math.max(chartWidth, Math.ceil(title.length * 7.6) + 40);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(title)}" ${FONT} font-size="12">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${width}" height="${height}" ${inkFill('paper')}/>`,
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="14" font-weight="600" ${inkFill('text')}>${escapeXml(title)}</text>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

export interface Frame {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Y axis 0–100 % with grid lines; returns the y mapping. */
export function yAxis(f: Frame, body: string[], label: string): (v: number) => number {
  const y = (v: number) => f.top + f.height - (Math.max(0, Math.min(1, v)) * f.height);
  for (let t = 0; t <= 100; t += 20) {
    const yy = y(t / 100);
    body.push(`<line x1="${n(f.left)}" y1="${n(yy)}" x2="${n(f.left + f.width)}" y2="${n(yy)}" ${inkStroke('grid')}/>`);
    body.push(`<text x="${n(f.left - 6)}" y="${n(yy + 4)}" text-anchor="end" ${inkFill('muted')}>${t}</text>`);
  }
  body.push(`<line x1="${n(f.left)}" y1="${n(f.top)}" x2="${n(f.left)}" y2="${n(f.top + f.height)}" ${inkStroke('axis')}/>`);
  body.push(`<line x1="${n(f.left)}" y1="${n(f.top + f.height)}" x2="${n(f.left + f.width)}" y2="${n(f.top + f.height)}" ${inkStroke('axis')}/>`);
  body.push(`<text transform="translate(${n(f.left - 38)} ${n(f.top + f.height / 2)}) rotate(-90)" text-anchor="middle" ${inkFill('text')}>${escapeXml(label)}</text>`);
  return y;
}

/** Horizontal grid lines at FROM..TO percent every STEP across a plot LEFT..LEFT+WIDTH, each labelled at its left. */
export function yGrid(body: string[], left: number, width: number, y: (v: number) => number, from: number, to: number, step: number, line: (t: number) => Ink = () => 'grid'): void {
  for (let t = from; t <= to; t += step) {
    body.push(`<line x1="${left}" y1="${n(y(t / 100))}" x2="${left + width}" y2="${n(y(t / 100))}" ${inkStroke(line(t))}/>`);
    body.push(`<text x="${left - 6}" y="${n(y(t / 100) + 4)}" text-anchor="end" ${inkFill('muted')}>${t}</text>`);
  }
}

export function legend(body: string[], x: number, y: number, items: { label: string; color: string; dashed?: boolean; box?: boolean }[]): void {
  items.forEach((item, i) => {
    const yy = y + i * 16;
    if (item.box) body.push(`<rect x="${x}" y="${yy - 9}" width="12" height="10" fill="${item.color}"/>`);
    else body.push(`<line x1="${x}" y1="${yy - 4}" x2="${x + 18}" y2="${yy - 4}" stroke="${item.color}" stroke-width="2"${item.dashed ? ' stroke-dasharray="5 3"' : ''}/>`);
    body.push(`<text x="${x + 24}" y="${yy}" ${inkFill('text')}>${escapeXml(item.label)}</text>`);
  });
}

/** Width a legend needs: the swatch and the longest label at about 7 px a character. */
export function legendWidth(labels: readonly string[]): number {
  return 40 + 7 * Math.max(0, ...labels.map((l) => l.length));
}

/** A chart's size with its plot (PLOT_W × PLOT_H) at (64, 44), the legend of LABELS to its right and BOTTOM pixels
 * under it for the axis labels. */
export function legendFrame(plotW: number, plotH: number, labels: readonly string[], bottom: number): { left: number; top: number; width: number; height: number } {
  const left = 64;
  const top = 44;
  return { left, top, width: left + plotW + 24 + legendWidth(labels), height: top + plotH + bottom };
}

export function emptyChart(title: string, message: string): string {
  return svg(480, 120, title, [`<text x="240" y="70" text-anchor="middle" ${inkFill('muted')}>${escapeXml(message)}</text>`]);
}

// ---- lines ----------------------------------------------------------------------------------------------------------

export interface LineSeries {
  label: string;
  color: string;
  dashed: boolean;
  points: { x: number; y: number | null; tip?: string }[];
}

export function lineChart(title: string, series: readonly LineSeries[], xLabel: string, yLabel: string): string {
  if (!series.some((s) => s.points.some((p) => p.y !== null))) return emptyChart(title, 'no scored samples');
  const legendRows = series.length;
  const height = 380 + Math.max(0, legendRows - 18) * 16;
  const f: Frame = { left: 64, top: 40, width: 460, height: 280 };
  const width = Math.max(720, f.left + f.width + 24 + legendWidth(series.map((s) => s.label)));
  const body: string[] = [];
  const y = yAxis(f, body, yLabel);
  const x = (v: number) => f.left + v * f.width;
  for (let t = 0; t <= 4; t++) {
    const xx = x(t / 4);
    body.push(`<text x="${n(xx)}" y="${n(f.top + f.height + 16)}" text-anchor="middle" ${inkFill('muted')}>${(t / 4).toFixed(2)}</text>`);
  }
  body.push(`<text x="${n(f.left + f.width / 2)}" y="${n(f.top + f.height + 34)}" text-anchor="middle" ${inkFill('text')}>${escapeXml(xLabel)}</text>`);
  for (const s of series) {
    const pts = s.points.filter((p) => p.y !== null);
    if (pts.length === 0) continue;
    const path = pts.map((p, i) => `${i === 0 ? 'M' : 'L'}${n(x(p.x))} ${n(y(p.y!))}`).join(' ');
    body.push(`<path d="${path}" fill="none" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    for (const p of pts) {
      body.push(`<circle cx="${n(x(p.x))}" cy="${n(y(p.y!))}" r="3" ${s.dashed ? inkFill('paper') : `fill="${s.color}"`} stroke="${s.color}" stroke-width="1.5"><title>${escapeXml(`${s.label}${p.tip ? ` ${p.tip}` : ''}: ${(p.y! * 100).toFixed(1)}`)}</title></circle>`);
    }
  }
  legend(body, f.left + f.width + 24, f.top + 10, series.map((s) => ({ label: s.label, color: s.color, dashed: s.dashed })));
  return svg(width, height, title, body);
}

// ---- bars -----------------------------------------------------------------------------------------------------------

export interface BarSeries {
  label: string;
  color: string;
  values: (number | null)[];
  /** Optional 95% intervals per value, drawn as error bars. */
  intervals?: ([number, number] | null)[];
}

export function groupedBarChart(title: string, categories: readonly string[], series: readonly BarSeries[], yLabel: string): string {
  if (!series.some((s) => s.values.some((v) => v !== null))) return emptyChart(title, 'no scored samples');
  const height = 380 + Math.max(0, series.length - 18) * 16;
  // Each category gets room for its bars and its label (about 6.5 px a character at 12 px).
  const minSlot = Math.max(60, series.length * 24 + 16, 6.5 * Math.max(0, ...categories.map((c) => c.length)) + 12);
  const f: Frame = { left: 64, top: 40, width: Math.max(460, categories.length * minSlot), height: 280 };
  const width = Math.max(720, f.left + f.width + 24 + legendWidth(series.map((s) => s.label)));
  const body: string[] = [];
  const y = yAxis(f, body, yLabel);
  const slot = f.width / categories.length;
  const barWidth = Math.min(36, (slot * 0.8) / Math.max(1, series.length));
  categories.forEach((cat, ci) => {
    const start = f.left + ci * slot + (slot - barWidth * series.length) / 2;
    series.forEach((s, si) => {
      const v = s.values[ci];
      if (v === null || v === undefined) return;
      const x0 = start + si * barWidth;
      const interval = s.intervals?.[ci] ?? null;
      body.push(`<rect x="${n(x0)}" y="${n(y(v))}" width="${n(barWidth - 2)}" height="${n(f.top + f.height - y(v))}" fill="${s.color}"><title>${escapeXml(`${s.label} ${cat}: ${(v * 100).toFixed(1)}${interval ? ` [${(interval[0] * 100).toFixed(1)}, ${(interval[1] * 100).toFixed(1)}]` : ''}`)}</title></rect>`);
      if (interval) {
        const cx = x0 + (barWidth - 2) / 2;
        body.push(`<line x1="${n(cx)}" y1="${n(y(interval[0]))}" x2="${n(cx)}" y2="${n(y(interval[1]))}" ${inkStroke('axis')} stroke-width="1"/>`);
        for (const end of interval) body.push(`<line x1="${n(cx - 3)}" y1="${n(y(end))}" x2="${n(cx + 3)}" y2="${n(y(end))}" ${inkStroke('axis')} stroke-width="1"/>`);
      }
      body.push(`<text x="${n(x0 + (barWidth - 2) / 2)}" y="${n((interval ? Math.min(y(v), y(interval[1])) : y(v)) - 3)}" text-anchor="middle" font-size="10" ${inkFill('text')}>${(v * 100).toFixed(0)}</text>`);
    });
    body.push(`<text x="${n(f.left + ci * slot + slot / 2)}" y="${n(f.top + f.height + 16)}" text-anchor="middle" ${inkFill('text')}>${escapeXml(cat)}</text>`);
  });
  legend(body, f.left + f.width + 24, f.top + 10, series.map((s) => ({ label: s.label, color: s.color, box: true })));
  return svg(width, height, title, body);
}
