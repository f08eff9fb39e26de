// A version-correct alternative for a missing API. Renames usually keep their documentation (numpy.trapz ->
// numpy.trapezoid, numpy.product -> numpy.prod), so an API with the same doc summary that exists at the pinned
// version is a strong candidate.
import type { ApiHistory, LibraryMatrix } from './api-model.js';
import { stateAt } from './version-state.js';
import { leafName, parentPath } from './api-path.js';

/** Docs shared by more APIs than this are boilerplate ("Scalar method identical to …"), not evidence. */
const MAX_SHARED_DOC = 4;

export function suggestReplacement(matrix: LibraryMatrix, missing: ApiHistory, pinnedVersions: readonly string[]): string | null {
  const docs = new Set(missing.versions.map((c) => c.doc).filter((d): d is string => !!d && d.length >= 20));
  const candidates = new Set<string>();
  for (const doc of docs) {
    const sharing = matrix.apisWithDoc(doc).filter((p) => p !== missing.api);
    // One function is often public under several paths (numpy.trapz, numpy.lib.function_base.trapz): count names.
    if (new Set(sharing.map(leafName)).size > MAX_SHARED_DOC) continue;
    sharing.forEach((p) => candidates.add(p));
  }
  const usable = [...candidates].filter((path) => {
    const history = matrix.lookup(path);
    if (!history || (history.kind !== missing.kind && !(history.kind === 'function' && missing.kind === 'class'))) return false;
    return pinnedVersions.every((v) => stateAt(history, v, matrix.versions).state === 'present');
  });
  const parent = parentPath(missing.api);
  usable.sort((a, b) => Number(parentPath(b) === parent) - Number(parentPath(a) === parent) || a.length - b.length || (a < b ? -1 : 1));
  return usable[0] ?? null;
}

/** Whether `alias` abbreviates `library` (np → numpy, sp → scipy): its letters appear in order, the first first. */
export function abbreviates(alias: string, library: string): boolean {
  if (alias === library) return true;
  if (alias[0] !== library[0]) return false;
  let at = 0;
  for (const ch of alias) {
    at = library.indexOf(ch, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}

/**
 * The library's own note on a removed API ("Use `np.inf` instead.") and, when the note names exactly one plain
 * dotted name that exists at every pinned version, that name as a replacement. Notes that name an expression
 * (`np.asarray(arr, dtype=dtype)`, `-np.inf`) are quoted, never turned into an edit.
 */
export function replacementFromNote(matrix: LibraryMatrix, missing: ApiHistory, pinnedVersions: readonly string[]): { note: string; version: string; replacement: string | null } | null {
  const recorded = matrix.removalNote?.(missing.api);
  if (!recorded) return null;
  const names = new Set<string>();
  for (const m of recorded.note.matchAll(/`([^`]+)`/g)) {
    const ref = m[1]!;
    if (!/^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)+$/.test(ref)) continue;
    const [head, ...rest] = ref.split('.');
    if (abbreviates(head!, matrix.library)) names.add([matrix.library, ...rest].join('.'));
  }
  const usable = [...names].filter((path) => {
    const history = matrix.lookup(path);
    return history !== undefined && pinnedVersions.every((v) => stateAt(history, v, matrix.versions).state === 'present');
  });
  return { note: condenseNote(recorded.note), version: recorded.version, replacement: usable.length === 1 ? usable[0]! : null };
}

/**
 * A note short enough for a diagnostic: whitespace collapsed, the AttributeError preamble ("module 'numpy' has no
 * attribute 'int'.") dropped, whole sentences up to about 240 characters.
 */
export function condenseNote(note: string): string {
  const text = note.replace(/\s+/g, ' ').trim().replace(/^module '[^']+' has no attribute '[^']+'\.\s*/, '');
  const sentences = text.split(/(?<!\be\.g\.)(?<!\bi\.e\.)(?<=[.!?])\s+(?=[A-Z`])/);
  let out = '';
  for (const s of sentences) {
    if (out && out.length + s.length > 240) break;
    out = out ? `${out} ${s}` : s;
  }
  return out.length > 300 ? `${out.slice(0, 297)}…` : out;
}

/** The version-correct alternative to an API the pinned versions lack, and the evidence for it. */
export interface Alternative {
  /** The API to use instead (present at every pinned version); null when the matrix knows none. */
  replacement: string | null;
  /** "documentation": an API with the same documentation; "removal-note": named by the library's own note. */
  basis: 'documentation' | 'removal-note' | null;
  /** The library's note on the removal, condensed, and the version that recorded it. */
  note: { note: string; version: string } | null;
}

/**
 * What the checker suggests for a missing API (one rule for the diagnostics, the quick fix and the lookup tool): an
 * API with the same documentation that exists at every pinned version; else, when the API was removed (present in a
 * tracked version before `firstMissing`), the library's own removal note and the name it points to.
 */
export function versionCorrectAlternative(matrix: LibraryMatrix, history: ApiHistory, pinnedVersions: readonly string[], firstMissing: string): Alternative {
  const sameDoc = suggestReplacement(matrix, history, pinnedVersions);
  if (sameDoc) return { replacement: sameDoc, basis: 'documentation', note: null };
  const index = matrix.versions.indexOf(firstMissing);
  const removed = history.versions.some((c, i) => c.state === 'present' && (index < 0 || i < index));
  const noted = removed ? replacementFromNote(matrix, history, pinnedVersions) : null;
  if (!noted) return { replacement: null, basis: null, note: null };
  return { replacement: noted.replacement, basis: noted.replacement ? 'removal-note' : null, note: { note: noted.note, version: noted.version } };
}
