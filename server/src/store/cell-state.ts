// The paper's presence rule (LibEvoBench §2.2): an API is present when the documentation lists it and the
// runtime resolves it; it is na when the evidence disagrees irreconcilably. Without documentation evidence
// for a version the runtime decides alone; with none from the runtime (its module failed to import) it is na.
export type StoredState = 'present' | 'absent' | 'na';

export function decideState(runtime: boolean | null, documented: boolean | null): StoredState {
  if (runtime === null) return 'na';
  if (documented === null) return runtime ? 'present' : 'absent';
  if (runtime && documented) return 'present';
  if (!runtime && !documented) return 'absent';
  // Documented but not resolvable, or resolvable but undocumented: the two sources disagree.
  return 'na';
}
