// What every verdict of the checker carries (plain data), and the phrases the rules' messages share: which pin says
// which versions, the versions concerned, the tracked span. Pure.
import { describeOrigin, type Pin } from '../pin.js';
import type { SourceRange } from '../source-range.js';
import { describeVersionRuns, type StateAtVersion } from '../version-state.js';

/** The facts of a library's matrix a message names. */
export interface MatrixFacts {
  /** Import name, e.g. "numpy". */
  library: string;
  /** Distribution name, e.g. "numpy" or "scikit-learn". */
  distribution: string;
  /** Tracked versions, ascending. */
  versions: readonly string[];
  /** Each tracked version stands for a release series (Python's minors): nothing lies between two of them. */
  versionSeries?: boolean;
}

export interface VerdictBase {
  range: SourceRange;
  api: string;
  parameter: string | null;
  matrix: MatrixFacts;
  pin: Pin;
  /** Tracked versions that do have the API (or accept the parameter, or take that many positional arguments). */
  availableIn: string[];
  replacement: string | null;
}

export function pinText(pin: Pin, matrix: MatrixFacts): string {
  return `${matrix.distribution}${pin.specifier}`;
}

/** Which pin selects the versions concerned, in words: "requirements.txt:1 pins numpy==1.24.2". */
export function pinClause(pin: Pin, matrix: MatrixFacts, states: readonly StateAtVersion[]): string {
  const where =
    pin.origin.line !== null ? `${describeOrigin(pin.origin)} pins ${pinText(pin, matrix)}`
    : pin.kind === 'installed' ? `which ${describeOrigin(pin.origin)} has installed`
    : pin.kind === 'assumed' ? `which ${describeOrigin(pin.origin)} assumes`
    : `which --pin ${pinText(pin, matrix)} selects`;
  const first = states[0];
  if (pin.exactVersion === null || !first) return `which ${pinText(pin, matrix)} allows (${describeOrigin(pin.origin)})`;
  if (first.basis === 'extrapolated' && first.cell) {
    const side = first.cell.version === matrix.versions[0] ? 'older' : 'newer';
    return `${where}; ${first.version} is ${side} than every tracked version, so ${first.cell.version} stands in for it`;
  }
  return where;
}

/** The versions concerned: runs of tracked versions ("numpy 1.19.5–1.24.2"), else each version as pinned. */
export function versionList(states: readonly StateAtVersion[], matrix: MatrixFacts): string {
  const chosen = new Set(states.map((s) => s.version));
  // a release answered for as the tracked one with its surface (matrix same_surface) is named as itself
  const tracked = states.every((s) => s.basis === 'tracked' && matrix.versions.includes(s.version));
  if (tracked) return `${matrix.library} ${describeVersionRuns(matrix.versions, (i) => chosen.has(matrix.versions[i]!))}`;
  return `${matrix.library} ${states.map((s) => s.version).join(', ')}`;
}

/** Runs of the tracked versions in `versions`: "1.24.2–2.4.6". */
export function trackedRuns(matrix: MatrixFacts, versions: readonly string[]): string {
  const keep = new Set(versions);
  return describeVersionRuns(matrix.versions, (i) => keep.has(matrix.versions[i]!));
}

export function trackedSpan(matrix: MatrixFacts): string {
  const v = matrix.versions;
  return v.length === 1 ? v[0]! : `${v[0]}–${v[v.length - 1]}, ${v.length} versions`;
}

/** An error where every version concerned is tracked; a warning where some state was inferred. */
export function errorUnlessInferred(states: readonly StateAtVersion[]): 'error' | 'warning' {
  return states.every((s) => s.basis === 'tracked') ? 'error' : 'warning';
}

/** A verdict that the pinned versions lack what another tracked version has (an API, a keyword, an arity). */
export interface LackingVerdict extends VerdictBase {
  /** The pinned versions that lack it. */
  lacking: StateAtVersion[];
}

/** What the rules of such verdicts share: an error unless inferred, and another version can make the code right. */
export const PINNED_VERSIONS_LACK = {
  defaultSeverity: 'error',
  versionBound: true,
  severity: (v: LackingVerdict) => errorUnlessInferred(v.lacking),
} as const;

/** "numpy 1.24.2, requirements.txt:1 pins numpy==1.24.2": the versions that lack it, and which pin selects them. */
export function lackingAt(v: LackingVerdict): string {
  return `${versionList(v.lacking, v.matrix)}, ${pinClause(v.pin, v.matrix, v.lacking)}`;
}

/** How a message names an API: Python's builtins by their own names (`zip`, not `builtins.zip`). */
export function shownApi(api: string): string {
  return api.startsWith('builtins.') ? api.slice('builtins.'.length) : api;
}

/** "between 1.24.2 and 2.2.4"; where versions are whole series (Python's), nothing lies between: "in 3.11". */
export function betweenVersions(matrix: MatrixFacts, [before, after]: [string, string]): string {
  return matrix.versionSeries ? `in ${after}` : `between ${before} and ${after}`;
}

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
