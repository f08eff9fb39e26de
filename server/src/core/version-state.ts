// What the matrix says about an API at a version the project uses, which may or may not be a tracked version.
import type { ApiHistory, CellState, VersionCell } from './api-model.js';
import { placeVersion } from './versions.js';

export type StateBasis =
  /** The version is tracked. */
  | 'tracked'
  /** Between two tracked versions that agree. */
  | 'interpolated'
  /** Outside the tracked span: the nearest tracked version's state is assumed. */
  | 'extrapolated';

export interface StateAtVersion {
  version: string;
  state: CellState;
  basis: StateBasis;
  /** The tracked cell whose signature applies at this version, when one does. */
  cell: VersionCell | null;
  /** For an unknown state between tracked versions: the neighbours that disagree. */
  neighbours: VersionCell[];
}

function sameSignature(a: VersionCell, b: VersionCell): boolean {
  return JSON.stringify(a.signature) === JSON.stringify(b.signature);
}

export function stateAt(history: ApiHistory, version: string, tracked: readonly string[]): StateAtVersion {
  const place = placeVersion(version, tracked);
  const cells = history.versions;
  if (place.kind === 'exact') {
    const cell = cells[place.index]!;
    return { version, state: cell.state, basis: 'tracked', cell, neighbours: [] };
  }
  const below = place.below === null ? null : cells[place.below]!;
  const above = place.above === null ? null : cells[place.above]!;
  if (below && above) {
    if (below.state === above.state && below.state !== 'unknown') {
      return { version, state: below.state, basis: 'interpolated', cell: sameSignature(below, above) ? below : null, neighbours: [below, above] };
    }
    return { version, state: 'unknown', basis: 'interpolated', cell: null, neighbours: [below, above] };
  }
  const nearest = below ?? above;
  if (!nearest) return { version, state: 'unknown', basis: 'extrapolated', cell: null, neighbours: [] };
  return { version, state: nearest.state, basis: 'extrapolated', cell: nearest, neighbours: [nearest] };
}

const SOURCE_RANK: Record<string, number> = { inspect: 3, parser: 3, stub: 2, static: 1, docstring: 0 };

/** Of two cells, the one whose signature is the weaker evidence (a docstring's before an introspected one). */
function weaker(a: VersionCell, b: VersionCell): VersionCell {
  return (SOURCE_RANK[b.signatureSource ?? ''] ?? -1) < (SOURCE_RANK[a.signatureSource ?? ''] ?? -1) ? b : a;
}

/**
 * The tracked cell that answers one question (`fact`: does the signature take this keyword, this many positional
 * arguments, what does the callable return) at a version: its own cell where it has one; between two tracked versions
 * whose cells differ in something else, a neighbour when both give the same answer, the weaker evidence of the two.
 * Each fact is decided by whether the neighbours agree on it, not on the whole signature. `fact` returns null where a
 * cell cannot answer.
 */
export function cellDeciding(s: StateAtVersion, fact: (cell: VersionCell) => string | null): VersionCell | null {
  if (s.cell) return s.cell;
  if (s.basis !== 'interpolated' || s.state !== 'present' || s.neighbours.length !== 2) return null;
  const [below, above] = s.neighbours as [VersionCell, VersionCell];
  const answer = fact(below);
  return answer !== null && answer === fact(above) ? weaker(below, above) : null;
}

/** Groups tracked versions (ascending) into runs of consecutive entries that satisfy `keep`: "1.19.5–1.24.2, 2.4.6". */
export function describeVersionRuns(versions: readonly string[], keep: (index: number) => boolean): string {
  const runs: string[] = [];
  let start: string | null = null;
  let last: string | null = null;
  const flush = () => {
    if (start !== null) runs.push(start === last ? start : `${start}–${last}`);
    start = last = null;
  };
  versions.forEach((version, i) => {
    if (keep(i)) {
      if (start === null) start = version;
      last = version;
    } else flush();
  });
  flush();
  return runs.join(', ');
}
