// Coverage as the CLI shows it: the summary's "not checked" lines under `check`, and the table of `anachron
// coverage`. Both read core/coverage.ts's entries; the JSON formats print the entries themselves.
import type { CoverageEntry, FileCoverageEntry } from '../core/coverage.js';
import { coverageRequirement, describeCoverageReason, describeUndecided } from '../core/coverage-text.js';
import { excerpt } from '../core/excerpt.js';

/** The command that covers an entry, when one would. */
export function fetchHint(e: CoverageEntry): string | null {
  return e.fetch ? `anachron matrix fetch ${e.fetch}` : null;
}

function where(e: CoverageEntry): string {
  return (e.pinSource ? ` (${e.pinSource})` : '') + (e.marker ? ` where ${excerpt(e.marker, 80)}` : '');
}

/**
 * One line per library the code was not (exactly) checked against: "not checked: pandas==2.0.3
 * (requirements.txt:3) — no matrix; anachron matrix fetch pandas==2.0.3". Checked libraries give no line.
 */
export function coverageSummaryLines(entries: readonly CoverageEntry[]): string[] {
  const lines: string[] = [];
  for (const e of entries) {
    // One of several pins that environment markers leave possible: said, and checked like the others.
    if (e.state === 'checked' && e.marker) lines.push(`undecided: ${coverageRequirement(e)}${where(e)} — the marker depends on ${describeUndecided(e.undecided)}; checked at ${e.checkedVersions.join(', ')}, like the other pins of ${e.distribution}`);
    if (e.state === 'checked') continue;
    const hint = fetchHint(e) ?? (e.reason === 'unpinned' ? `pin it, or --pin ${e.distribution}==VERSION` : null);
    const label = e.state === 'inferred' ? 'not tracked' : 'not checked';
    lines.push(`${label}: ${coverageRequirement(e)}${where(e)} — ${describeCoverageReason(e)}${hint ? `; ${hint}` : ''}`);
  }
  return lines;
}

const span = (versions: readonly string[]) =>
  versions.length === 0 ? 'none' : versions.length === 1 ? versions[0]! : `${versions.length} versions, ${versions[0]}–${versions[versions.length - 1]}`;

const STATE_LABEL: Record<CoverageEntry['state'], string> = { checked: 'checked', inferred: 'inferred', 'not-checked': 'NOT CHECKED' };

/** The `anachron coverage` table: library, pin, source, matrix, state (with why, and what would cover it). */
export function coverageTable(entries: readonly FileCoverageEntry[]): string[] {
  const rows = entries.map((e) => [e.library, `${e.specifier ?? '(unpinned)'}${e.marker ? ` where ${excerpt(e.marker, 60)}` : ''}`, e.pinSource ?? '—', span(e.trackedVersions), STATE_LABEL[e.state], `${describeCoverageReason(e)}${fetchHint(e) ? `; ${fetchHint(e)}` : ''}`]);
  const header = ['library', 'pin', 'source', 'matrix', 'state', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  const counts = (['checked', 'inferred', 'not-checked'] as const).map((s) => [s, entries.filter((e) => e.state === s).length] as const).filter(([, n]) => n > 0);
  return [line(header), ...rows.map(line), `${entries.length} librar${entries.length === 1 ? 'y' : 'ies'} imported: ${counts.map(([s, n]) => `${n} ${STATE_LABEL[s].toLowerCase()}`).join(', ') || 'none pinned or tracked'}`];
}
