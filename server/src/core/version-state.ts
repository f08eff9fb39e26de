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
