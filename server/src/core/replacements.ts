// A version-correct alternative for a missing API. Renames usually keep their documentation (numpy.trapz ->
// numpy.trapezoid, numpy.product -> numpy.prod), so an API with the same doc summary that exists at the pinned
// version is a strong candidate.
import type { ApiHistory, LibraryMatrix } from './api-model.js';
import { stateAt } from './version-state.js';

/** Docs shared by more APIs than this are boilerplate ("Scalar method identical to …"), not evidence. */
const MAX_SHARED_DOC = 4;

function leafOf(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}

function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf('.'));
}

export function suggestReplacement(matrix: LibraryMatrix, missing: ApiHistory, pinnedVersions: readonly string[]): string | null {
  const docs = new Set(missing.versions.map((c) => c.doc).filter((d): d is string => !!d && d.length >= 20));
  const candidates = new Set<string>();
  for (const doc of docs) {
    const sharing = matrix.apisWithDoc(doc).filter((p) => p !== missing.api);
    // One function is often public under several paths (numpy.trapz, numpy.lib.function_base.trapz): count names.
    if (new Set(sharing.map(leafOf)).size > MAX_SHARED_DOC) continue;
    sharing.forEach((p) => candidates.add(p));
  }
  const usable = [...candidates].filter((path) => {
    const history = matrix.lookup(path);
    if (!history || (history.kind !== missing.kind && !(history.kind === 'function' && missing.kind === 'class'))) return false;
    return pinnedVersions.every((v) => stateAt(history, v, matrix.versions).state === 'present');
  });
  const parent = parentOf(missing.api);
  usable.sort((a, b) => Number(parentOf(b) === parent) - Number(parentOf(a) === parent) || a.length - b.length || (a < b ? -1 : 1));
  return usable[0] ?? null;
}
