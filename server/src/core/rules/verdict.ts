// What every verdict of the checker carries (plain data), and the phrases the rules' messages share: which pin says
// which versions, the versions concerned, the tracked span. Pure.
import { describeOrigin, type Pin } from '../pin.js';
import { excerpt } from '../excerpt.js';
import type { SourceRange } from '../source-range.js';
import { compareVersions } from '../versions.js';
import type { FindingNote } from './rule.js';
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
  return `${matrix.distribution}${pin.specifier.replace(/\s+/g, '')}`;
}

/** How a short message ends: "pinned 1.24.2", "installed 1.24.2", "assumed 1.24.2"; for a range "allowed >=1.21,<2". */
export function pinnedAs(pin: Pin): string {
  if (pin.exactVersion === null) return `allowed ${pin.specifier.replace(/\s+/g, '') || 'any version'}`;
  const word = pin.kind === 'installed' ? 'installed' : pin.kind === 'assumed' ? 'assumed' : 'pinned';
  return `${word} ${pin.exactVersion}`;
}

/**
 * The note naming the pin (the editor's related information points at its line): "requirements.txt:1 pins
 * numpy==1.24.2", with the versions a range allows, or the tracked version that stands in for an untracked one.
 */
export function pinDetail(pin: Pin, matrix: MatrixFacts, states: readonly StateAtVersion[]): string {
  const text = pinText(pin, matrix);
  const where =
    (pin.origin.line !== null ? `${describeOrigin(pin.origin)} pins ${text}`
    : pin.kind === 'installed' ? `${describeOrigin(pin.origin)} has ${text} installed`
    : pin.kind === 'assumed' ? `${describeOrigin(pin.origin)} assumes ${text}`
    : pin.origin.file === '--upgrade-to' ? `--upgrade-to ${text}`
    : `--pin ${text}`) + (pin.undecided && pin.marker ? ` where ${excerpt(pin.marker, 80)}` : '');
  const first = states[0];
  if (pin.exactVersion === null) return states.length ? `${where}, which allows ${versionList(states, matrix)}` : where;
  if (first?.basis === 'extrapolated' && first.cell) {
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

/** The pin's note for a verdict that the pinned versions lack something. */
export function lackingPinNote(v: LackingVerdict): FindingNote {
  return { text: pinDetail(v.pin, v.matrix, v.lacking), at: 'pin' };
}

/** "1.17" where the tracked version before it is of another minor series (1.16.6, 1.17.0), else the version itself. */
function shownBound(matrix: MatrixFacts, version: string): string {
  const i = matrix.versions.indexOf(version);
  const series = (v: string) => v.split('.').slice(0, 2).join('.');
  const before = i > 0 ? matrix.versions[i - 1] : undefined;
  const m = /^(\d+\.\d+)\.0$/.exec(version);
  return m && before !== undefined && series(before) !== series(version) ? m[1]! : version;
}

/**
 * When what the pinned versions lack exists, as the short message says it: "needs numpy ≥ 1.17" (every version
 * with it is newer), "was removed in numpy 1.24" (every one is older: the tracked version after the last with it); null when versions on both sides have it.
 */
export function whenAvailable(v: LackingVerdict): string | null {
  const lacking = v.lacking.map((s) => s.version).sort(compareVersions);
  const available = [...v.availableIn].sort(compareVersions);
  if (lacking.length === 0 || available.length === 0) return null;
  if (available.every((a) => compareVersions(a, lacking[lacking.length - 1]!) > 0)) return `needs ${v.matrix.library} ≥ ${shownBound(v.matrix, available[0]!)}`;
  if (available.every((a) => compareVersions(a, lacking[0]!) < 0)) {
    const last = available[available.length - 1]!;
    const next = v.matrix.versions[v.matrix.versions.indexOf(last) + 1];
    return next !== undefined ? `was removed in ${v.matrix.library} ${shownBound(v.matrix, next)}` : `was removed after ${v.matrix.library} ${last}`;
  }
  return null;
}

/** The history note: "in numpy 1.17.0–2.4.6". */
export function availableNote(v: VerdictBase, verb = 'in'): FindingNote {
  return { text: `${verb} ${v.matrix.library} ${trackedRuns(v.matrix, v.availableIn)}`, at: 'code' };
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
