// The deprecation tier: what works at the pinned version but the library itself deprecates there, from the runs the
// matrix records (python-probe/deprecations.py), and the API or keyword its own words point to instead. Pure.
import type { ApiHistory, DeprecationRun, LibraryMatrix } from './api-model.js';
import { acceptsKeyword, listsEveryKeyword } from './api-model.js';
import { abbreviates, condenseNote } from './replacements.js';
import { leafName, parentPath } from './api-path.js';
import { stateAt } from './version-state.js';
import { compareVersions, placeVersion } from './versions.js';

/** The run that covers `version`: its own where tracked; between two tracked versions, one run covering both. */
export function runAt(runs: readonly DeprecationRun[], version: string, tracked: readonly string[]): DeprecationRun | null {
  const place = placeVersion(version, tracked);
  const covers = (run: DeprecationRun, v: string) => compareVersions(run.since, v) <= 0 && compareVersions(v, run.through) <= 0;
  if (place.kind === 'exact') return runs.find((r) => covers(r, tracked[place.index]!)) ?? null;
  if (place.below === null || place.above === null) return null; // outside the tracked span: not stretched
  return runs.find((r) => covers(r, tracked[place.below!]!) && covers(r, tracked[place.above!]!)) ?? null;
}

export interface DeprecationFound {
  /** The pinned versions at which it is deprecated. */
  at: string[];
  run: DeprecationRun;
  /** The path the run is recorded for: the API, or the module whose members are deprecated. */
  recordedFor: string;
}

/** Whether `api` (or, with `parameter`, that keyword of it) is deprecated at some of `versions`. */
export function deprecationOf(matrix: LibraryMatrix, api: string, parameter: string | null, versions: readonly string[]): DeprecationFound | null {
  if (!matrix.deprecations) return null;
  const candidates: [string, readonly DeprecationRun[]][] = parameter !== null
    ? [[api, matrix.deprecations(api, parameter)]]
    : [[api, matrix.deprecations(api, null)], [parentPath(api), api.includes('.') ? matrix.deprecations(parentPath(api), '*') : []]];
  for (const [recordedFor, runs] of candidates) {
    if (runs.length === 0) continue;
    const found = versions.map((v) => ({ v, run: runAt(runs, v, matrix.versions) })).filter((x) => x.run !== null);
    if (found.length > 0) return { at: found.map((x) => x.v), run: found[found.length - 1]!.run!, recordedFor };
  }
  return null;
}

/** The first tracked version after `after` whose cell lacks the API (or rejects the keyword): its removal. */
export function removedIn(history: ApiHistory, after: string, parameter: string | null): string | null {
  const reliable = (c: ApiHistory['versions'][number]) => listsEveryKeyword(c.signatureSource);
  for (const c of history.versions) {
    if (compareVersions(c.version, after) <= 0) continue;
    if (parameter === null && c.state === 'absent') return c.version;
    if (parameter !== null && c.state === 'present' && c.signature && reliable(c) && !acceptsKeyword(c.signature, parameter)) return c.version;
    if (parameter !== null && c.state === 'absent') return null; // the API went: reported as such, not the keyword
  }
  return null;
}

/** Names the library's words put in backticks or after "use": `np.trapezoid`, tobytes(), `shape=...`. */
function namedIn(message: string): string[] {
  const out: string[] = [];
  for (const m of message.matchAll(/`([^`]+)`|\b[Uu]se\s+([A-Za-z_][\w.]*)(?:\(\))?/g)) {
    const text = (m[1] ?? m[2]!).trim().replace(/\(\)$|\(\.\.\.\)$|\(.*\)$/, '');
    if (text) out.push(text);
  }
  return out;
}

/**
 * The API to use instead, when the message names one plain dotted name (other than the API) that is present at
 * every pinned version and not itself deprecated there: `trapezoid` -> numpy.trapezoid, `np.isin` -> numpy.isin.
 */
export function apiReplacement(matrix: LibraryMatrix, api: string, message: string | null, versions: readonly string[]): string | null {
  if (!message) return null;
  const found: string[] = [];
  for (const name of namedIn(message)) {
    if (!/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/.test(name)) continue;
    const [head, ...rest] = name.split('.');
    const paths = rest.length > 0 && abbreviates(head!, matrix.library) ? [[matrix.library, ...rest].join('.')]
      : rest.length === 0 ? [`${parentPath(api)}.${name}`, `${matrix.library}.${name}`] : [];
    const path = paths.find((p) => {
      if (p === api || leafName(p) === leafName(api)) return false;
      const history = matrix.lookup(p);
      return history !== undefined && versions.every((v) => stateAt(history, v, matrix.versions).state === 'present') && deprecationOf(matrix, p, null, versions) === null;
    });
    if (path && !found.includes(path)) found.push(path);
  }
  return found.length === 1 ? found[0]! : null;
}

/** The keyword to pass instead (`shape=...` for numpy.reshape's newshape=): one the API takes at every pinned version. */
export function keywordReplacement(matrix: LibraryMatrix, history: ApiHistory, parameter: string, message: string | null, versions: readonly string[]): string | null {
  if (!message) return null;
  const found = new Set<string>();
  for (const name of namedIn(message)) {
    const keyword = /^([A-Za-z_]\w*)\s*=/.exec(name)?.[1] ?? (/^\*?([A-Za-z_]\w*)\*?$/.exec(name)?.[1] ?? null);
    if (!keyword || keyword === parameter) continue;
    const takes = versions.every((v) => {
      const sig = stateAt(history, v, matrix.versions).cell?.signature;
      return sig !== undefined && sig !== null && sig.parameters.some((p) => p.name === keyword && (p.kind === 'positional_or_keyword' || p.kind === 'keyword_only'));
    });
    if (takes && deprecationOf(matrix, history.api, keyword, versions) === null) found.add(keyword);
  }
  return found.size === 1 ? [...found][0]! : null;
}

/** The library's words as a diagnostic quotes them. */
export function deprecationNote(run: DeprecationRun): string | null {
  return run.message ? condenseNote(run.message) : null;
}
