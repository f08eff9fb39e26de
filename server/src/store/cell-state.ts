// The paper's presence rule (LibEvoBench §2.2), which is the benchmark's ground truth. An API is present at a
// version when the documentation lists it and resolution (runtime introspection, or static extraction where no
// runtime exists) finds it. Listed but not resolvable: the sources disagree irreconcilably, na. Resolvable but not
// listed, cell by cell (decideState, the stored `cells` view): absent. Without documentation evidence for a version,
// resolution decides alone; without resolution evidence (the module failed to import there) the cell is na.
// decideStates adds the paper's deprecation pass over an API's versions: resolvable but not listed is na unless it
// trails the API's last present cell. The checker never uses this verdict: it asks "would this call work", which is
// the resolution bit alone.
export type StoredState = 'present' | 'absent' | 'na';

export function decideState(resolved: boolean | null, documented: boolean | null): StoredState {
  if (resolved === null) return 'na';
  if (documented === null) return resolved ? 'present' : 'absent';
  if (resolved && documented) return 'present';
  if (!resolved && documented) return 'na';
  return 'absent';
}

/** A cell's two bits of evidence: resolution and documentation (null: no evidence of that kind at the version). */
export interface CellEvidence {
  resolved: boolean | null;
  documented: boolean | null;
}

/**
 * The states of one API's cells across the tracked versions (ascending), with the paper's deprecation pass
 * (LibEvoBench §2.2 / Appendix D: "when only one source reports the API, the cell is marked na […]; if an API was
 * Present at some version but its documentation disappears in all subsequent versions while the runtime symbol
 * persists, the trailing na cells are converted to Absent"). A cell resolved but not documented is absent only when
 * it trails: a present cell comes before it and none after. A leading cell (before the API is first documented) or a
 * gap (undocumented between documented versions) is na: one source only, not evidence of absence (issue 22, point 1).
 * Computed when the ground truth is read, so matrices need no rebuild.
 */
export function decideStates(cells: readonly CellEvidence[]): StoredState[] {
  const states = cells.map((c) => decideState(c.resolved, c.documented));
  const firstPresent = states.indexOf('present');
  const lastPresent = states.lastIndexOf('present');
  // Trailing: after the last present cell (and some present cell exists). Everything else undocumented is na.
  return states.map((state, i) =>
    cells[i]!.resolved === true && cells[i]!.documented === false && (firstPresent < 0 || i < lastPresent) ? 'na' : state);
}
