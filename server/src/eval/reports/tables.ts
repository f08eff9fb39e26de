// The text primitives of the benchmark reports, shared by the suites: CSV fields and files, Markdown tables,
// percentages with intervals, the marker where the report page puts its figures. Pure.

/** Where the report page puts its figures (an HTML comment: invisible in Markdown viewers). */
export const FIGURES_MARKER = '<!-- figures -->';

export function csvField(v: unknown): string {
  const s = v === null || v === undefined ? '' : typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [header.map(csvField).join(','), ...rows.map((r) => r.map(csvField).join(','))].join('\n') + '\n';
}

/** Percentage with one decimal, "–" for nothing. */
export function pct(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '–' : (x * 100).toFixed(1);
}

/**
 * "90.4 [89.1, 91.2]": the estimate and its interval's bounds, in percent. Never "± half-width": a percentile bootstrap
 * interval need not be symmetric about the estimate, and a symmetric reading would misplace both bounds.
 */
export function pctCi(meanValue: number | null | undefined, ci: [number, number] | null | undefined): string {
  if (meanValue === null || meanValue === undefined) return '–';
  return ci ? `${pct(meanValue)} [${pct(ci[0])}, ${pct(ci[1])}]` : pct(meanValue);
}

function mdEscape(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[], align?: readonly ('l' | 'r')[]): string {
  const sep = header.map((_, i) => ((align?.[i] ?? 'l') === 'r' ? '---:' : '---'));
  return [header, sep, ...rows].map((r) => `| ${r.map((c) => mdEscape(c)).join(' | ')} |`).join('\n') + '\n';
}
