// The paper's presence rule (LibEvoBench §2.2), which is the benchmark's ground truth. An API is present at a
// version when the documentation lists it and resolution (runtime introspection, or static extraction where no
// runtime exists) finds it. Listed but not resolvable: the sources disagree irreconcilably, na. Resolvable but not
// listed: not part of the documented surface (this includes APIs dropped from the docs, which the paper counts as
// deprecated), absent. Without documentation evidence for a version, resolution decides alone; without resolution
// evidence (the module failed to import there) the cell is na. The checker never uses this verdict: it asks "would
// this call work", which is the resolution bit alone.
export type StoredState = 'present' | 'absent' | 'na';

export function decideState(resolved: boolean | null, documented: boolean | null): StoredState {
  if (resolved === null) return 'na';
  if (documented === null) return resolved ? 'present' : 'absent';
  if (resolved && documented) return 'present';
  if (!resolved && documented) return 'na';
  return 'absent';
}
