// A version-correct alternative for a missing API. Renames usually keep their documentation (numpy.trapz ->
// numpy.trapezoid, numpy.product -> numpy.prod), so an API with the same doc summary that exists at the pinned
// version is a strong candidate.
import type { ApiHistory, LibraryMatrix, MatrixCatalog } from './api-model.js';
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

/** Whether Python's builtins (the `builtins` module of the catalog's Python matrix) have `name` in some tracked version. */
export function isBuiltinName(catalog: MatrixCatalog | undefined, name: string): boolean {
  const history = catalog?.forImportRoot('builtins')?.lookup(`builtins.${name}`);
  return history?.versions.some((c) => c.state === 'present') ?? false;
}

/**
 * The library's own note on a removed API ("Use `np.inf` instead.") and the name it points to, when that is a plain
 * swap: the name its first advice ("use `float` by itself") gives, when that sentence names exactly one usable name
 * (a dotted name of the library present at every pinned version, or one of Python's builtins); a note that advises
 * nothing counts when it names exactly one. numpy's note on `np.float` advises the builtin `float` first and
 * `np.float64` only "if you specifically wanted the numpy scalar type": the builtin it is. Notes that name an
 * expression (`np.asarray(arr, dtype=dtype)`, `-np.inf`) are quoted, never turned into an edit.
 */
export function replacementFromNote(matrix: LibraryMatrix, missing: ApiHistory, pinnedVersions: readonly string[], catalog?: MatrixCatalog): { note: string; version: string; replacement: string | null } | null {
  const recorded = matrix.removalNote?.(missing.api);
  if (!recorded) return null;
  const usable = (ref: string): string | null => {
    if (/^[A-Za-z_]\w*$/.test(ref)) return isBuiltinName(catalog, ref) ? `builtins.${ref}` : null;
    if (!/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/.test(ref)) return null;
    const [head, ...rest] = ref.split('.');
    if (!abbreviates(head!, matrix.library)) return null;
    const path = [matrix.library, ...rest].join('.');
    const history = path === missing.api ? undefined : matrix.lookup(path);
    return history !== undefined && pinnedVersions.every((v) => stateAt(history, v, matrix.versions).state === 'present') ? path : null;
  };
  const namedIn = (text: string) => [...new Set([...text.matchAll(/`([^`]+)`/g)].map((m) => usable(m[1]!)).filter((p): p is string => p !== null))];
  const advice = sentences(recorded.note.replace(/\s+/g, ' ')).find((s) => /\b[Uu]se\s+`/.test(s));
  const names = advice !== undefined ? namedIn(advice) : namedIn(recorded.note);
  return { note: condenseNote(recorded.note), version: recorded.version, replacement: names.length === 1 ? names[0]! : null };
}

/** A text's sentences (not split after "e.g." or "i.e."). */
function sentences(text: string): string[] {
  return text.split(/(?<!\be\.g\.)(?<!\bi\.e\.)(?<=[.!?])\s+(?=[A-Z`])/);
}

/**
 * A note short enough for a diagnostic: whitespace collapsed, the AttributeError preamble ("module 'numpy' has no
 * attribute 'int'.") dropped, whole sentences up to about 240 characters.
 */
export function condenseNote(note: string): string {
  const text = note.replace(/\s+/g, ' ').trim().replace(/^module '[^']+' has no attribute '[^']+'\.\s*/, '');
  let out = '';
  for (const s of sentences(text)) {
    if (out && out.length + s.length > 240) break;
    out = out ? `${out} ${s}` : s;
  }
  return out.length > 300 ? `${out.slice(0, 297)}…` : out;
}

/** The version-correct alternative to an API the pinned versions lack, and the evidence for it. */
export interface Alternative {
  /** The API to use instead (present at every pinned version); null when the matrix knows none. */
  replacement: string | null;
  /**
   * "documentation": an API with the same documentation; "removal-note": named by the library's own note;
   * "older-spelling": where the pinned versions spell a name a newer module re-homes (rehomedName).
   */
  basis: 'documentation' | 'removal-note' | 'older-spelling' | null;
  /** The library's note on the removal, condensed, and the version that recorded it. */
  note: { note: string; version: string } | null;
}

/**
 * What the checker suggests for a missing API (one rule for the diagnostics, the quick fix and the lookup tool): an
 * API with the same documentation that exists at every pinned version; else, when the API was removed (present in a
 * tracked version before `firstMissing`), the library's own removal note and the name it points to.
 */
export function versionCorrectAlternative(matrix: LibraryMatrix, history: ApiHistory, pinnedVersions: readonly string[], firstMissing: string, catalog?: MatrixCatalog): Alternative {
  const sameDoc = suggestReplacement(matrix, history, pinnedVersions);
  if (sameDoc) return { replacement: sameDoc, basis: 'documentation', note: null };
  const index = matrix.versions.indexOf(firstMissing);
  const removed = history.versions.some((c, i) => c.state === 'present' && (index < 0 || i < index));
  const noted = removed ? replacementFromNote(matrix, history, pinnedVersions, catalog) : null;
  if (!noted) return { replacement: null, basis: null, note: null };
  return { replacement: noted.replacement, basis: noted.replacement ? 'removal-note' : null, note: { note: noted.note, version: noted.version } };
}

/**
 * The older spelling of a name a newer module re-homes: `member` (numpy.exceptions.AxisError) is read from a module
 * the pinned versions lack (numpy.exceptions, 1.25); the name they have for it is an API with the same
 * documentation present at every pinned version, else the same name under one of the module's parents
 * (numpy.AxisError), nearest first, present at every pinned version. Null when the pinned versions have neither.
 */
export function rehomedName(matrix: LibraryMatrix, member: ApiHistory, pinnedVersions: readonly string[]): string | null {
  const sameDoc = suggestReplacement(matrix, member, pinnedVersions);
  if (sameDoc) return sameDoc;
  const leaf = leafName(member.api);
  const segments = member.api.split('.');
  for (let n = segments.length - 2; n >= 1; n--) {
    const path = `${segments.slice(0, n).join('.')}.${leaf}`;
    if (path === member.api) continue;
    const history = matrix.lookup(path);
    if (history && history.kind === member.kind && pinnedVersions.every((v) => stateAt(history, v, matrix.versions).state === 'present')) return path;
  }
  return null;
}

/**
 * "Did you mean": a name no tracked version of its library has, under another tracked library at the same place
 * (numpy.linalg.pinvh -> scipy.linalg.pinvh), present in that library's newest tracked version. Only when exactly
 * one library has it; null otherwise. It does not depend on the other library's pin (the checker remembers a
 * reference's verdicts per pin of its own library): a fix that uses it is then checked against that pin.
 */
export function elsewhereInCatalog(catalog: MatrixCatalog, matrix: LibraryMatrix, api: string): string | null {
  const rest = api.split('.').slice(1);
  if (rest.length === 0) return null;
  const found = new Set<string>();
  for (const other of catalog.libraries()) {
    if (other.library === matrix.library || other.versionSeries) continue;
    const path = [other.library, ...rest].join('.');
    const history = other.lookup(path);
    const newest = other.versions[other.versions.length - 1];
    if (history && newest !== undefined && stateAt(history, newest, other.versions).state === 'present') found.add(path);
  }
  return found.size === 1 ? [...found][0]! : null;
}
