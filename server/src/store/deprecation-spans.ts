// The deprecations table of a matrix: what each version's deprecations surface says, as runs of consecutive
// versions (ordinals) in which a path, a keyword of it, or a module's members are deprecated. A version with no
// deprecations surface (a runtime-only column) neither starts nor breaks a run: it lies inside one only when the
// versions read on both sides of it agree.
import type { DeprecationEvidence, SurfaceDeprecation } from './deprecations-surface.js';
import type { VersionEvidence } from './version-evidence.js';

export interface DeprecationSpan {
  path: string;
  /** The keyword; '' for the API itself; '*' for a module's members. */
  parameter: string;
  firstOrdinal: number;
  lastOrdinal: number;
  evidence: DeprecationEvidence;
  /** The newest version's words in the run. */
  message: string | null;
  source: string;
}

export function parameterKey(d: Pick<SurfaceDeprecation, 'parameter' | 'members'>): string {
  return d.members ? '*' : (d.parameter ?? '');
}

/** Runs in path, parameter, first-ordinal order (evidence ordered by version, as the builder has it). */
export function deprecationSpans(evidence: readonly VersionEvidence[]): DeprecationSpan[] {
  const read = evidence.map((e, ordinal) => ({ ordinal, found: e.deprecations ? new Map(e.deprecations.deprecations.map((d) => [`${d.path}\0${parameterKey(d)}`, d])) : null }))
    .filter((r) => r.found !== null) as { ordinal: number; found: Map<string, SurfaceDeprecation> }[];
  const spans: DeprecationSpan[] = [];
  const open = new Map<string, DeprecationSpan>();
  for (const { ordinal, found } of read) {
    for (const [key, span] of open) {
      if (!found.has(key)) {
        spans.push(span);
        open.delete(key);
      }
    }
    for (const [key, d] of found) {
      const span = open.get(key);
      if (span) Object.assign(span, { lastOrdinal: ordinal, evidence: d.evidence, message: d.message, source: d.source });
      else open.set(key, { path: d.path, parameter: parameterKey(d), firstOrdinal: ordinal, lastOrdinal: ordinal, evidence: d.evidence, message: d.message, source: d.source });
    }
  }
  spans.push(...open.values());
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return spans.sort((a, b) => order(a.path, b.path) || order(a.parameter, b.parameter) || a.firstOrdinal - b.firstOrdinal);
}
