// API knowledge for agents: what the matrices say about one API at the project's pins — whether it exists there,
// its signature and documentation summary at that version, how it changes across the tracked versions around the
// pin, and the version-correct alternative — or, from a module and a description, the APIs at the pinned version
// that match it. The answer is plain data; render.ts turns it into text short enough for a model's context. The
// same functions as the editor: the hover's timeline bands and changes (core/hover.ts), the state at an untracked
// version (core/version-state.ts), the versions a pin allows and the checker's alternative (core/checker.ts,
// core/replacements.ts), the reference models' TF-IDF (core/tfidf.ts). Pure: matrices and pins come in as arguments.
import { formatSignature, type ApiHistory, type ApiKind, type CellState, type LibraryMatrix, type MatrixCatalog, type VersionCell } from '../core/api-model.js';
import { versionsUnderPin } from '../core/checker.js';
import { bands, timelineChanges, type Band } from '../core/hover.js';
import { normalizeDistributionName } from '../core/library-names.js';
import { describeOrigin, type Pin } from '../core/pins.js';
import { abbreviates, versionCorrectAlternative, type Alternative } from '../core/replacements.js';
import { TfIdfIndex, tokenize } from '../core/tfidf.js';
import { describeVersionRuns, stateAt, type StateBasis } from '../core/version-state.js';
import { placeVersion } from '../core/versions.js';
import { cellAt, isPrivatePath, leafName, parentPath } from '../core/api-path.js';

/** Every API path a library's matrix records (any version): the SQLite store's apiPaths(). */
export type ApiListing = (matrix: LibraryMatrix) => readonly string[];

/**
 * Per tracked version, whether that version's documentation lists the API: false for an API that imports but is not
 * documented there (dropped from the docs: deprecated), null where the matrix has no documentation evidence. Null
 * when the matrix cannot say at all.
 */
export type DocumentedVersions = (matrix: LibraryMatrix, api: string) => ReadonlyMap<string, boolean | null> | null;

/** The documentation bits of a matrix that also holds the benchmark's ground truth (the SQLite store does). */
export const documentedInMatrix: DocumentedVersions = (matrix, api) => {
  // The presence rule cell by cell: the benchmark's ground truth also marks a documentation gap na, but here a
  // version whose documentation does not list the API says just that.
  const states = (matrix as LibraryMatrix & { cellStates?: (api: string) => { version: string; state: string }[] | undefined }).cellStates?.(api);
  if (!states) return null;
  return new Map(states.map((c) => [c.version, c.state === 'present' ? true : c.state === 'absent' ? false : null]));
};

export interface LookupQuery {
  /** A fully qualified API ("numpy.trapezoid"); the library's usual alias is accepted ("np.trapezoid"). */
  api?: string;
  /** With a description: the module (or class) to search, or just the library ("numpy"). */
  module?: string;
  /** What the API does, in words: the best matches at the pinned version are returned. */
  description?: string;
  /** "members": direct members of `module` (default); "library": every public function and class under it. */
  scope?: 'members' | 'library';
  /** Matches to return for a description (default 5, at most 20). */
  limit?: number;
}

/** The pin in force for the library, as the answer states it. */
export interface PinView {
  /** "numpy==1.24.2". */
  requirement: string;
  /** Where it is written: "requirements.txt:2", "command line". */
  origin: string;
  exact: string | null;
  /** The versions the answer is about: the exact version, or the tracked versions a range allows. */
  versions: string[];
}

export interface AtVersion {
  version: string;
  state: CellState;
  basis: StateBasis;
  /** The signature there, written as `name(…)`; null when absent or unknown. */
  signature: string | null;
  doc: string | null;
}

export interface ApiAnswer {
  kind: 'api';
  api: string;
  library: string;
  distribution: string;
  apiKind: ApiKind;
  /** Null when nothing pins the library: the answer is then about the newest tracked version. */
  pin: PinView | null;
  /** The state at each version the answer is about. */
  at: AtVersion[];
  /** present / absent at every such version, mixed when they differ, unknown when the matrix cannot say. */
  verdict: 'present' | 'absent' | 'mixed' | 'unknown';
  /** The timeline in bands of versions that say the same thing (the hover's). */
  bands: Band[];
  /** Changes between tracked versions up to the pin (the nearest last) and after it. */
  changesBefore: string[];
  changesAfter: string[];
  /** Where it exists, as runs of tracked versions: "1.16.6–2.3.5". */
  presentIn: string;
  /**
   * It imports at the pin, but the documentation of that version no longer lists it: the last tracked version whose
   * documentation did (a deprecated API). Null otherwise.
   */
  undocumentedSince: { lastDocumented: string } | null;
  /** Where the pinned versions lack it: what to use instead (the checker's rule). */
  alternative: AlternativeView | null;
  /** APIs sharing its documentation in some version: likely renames or aliases. */
  related: string[];
  tracked: { count: number; first: string; last: string };
}

export interface AlternativeView {
  api: string | null;
  basis: Alternative['basis'];
  note: string | null;
  /** The alternative's signature at the (first) pinned version. */
  signature: string | null;
}

export interface Match {
  api: string;
  apiKind: ApiKind | null;
  /** Importable at the version, but its documentation no longer lists it. */
  deprecated: boolean;
  signature: string | null;
  doc: string | null;
  score: number;
}

export interface MatchesAnswer {
  kind: 'matches';
  library: string;
  distribution: string;
  module: string;
  description: string;
  scope: 'members' | 'library';
  pin: PinView | null;
  /** The tracked version searched: the pinned one (or the nearest tracked one at or below it). */
  version: string;
  matches: Match[];
}

export interface NotFoundAnswer {
  kind: 'not-found';
  query: string;
  library: string | null;
  distribution: string | null;
  pin: PinView | null;
  reason: string;
  /** APIs present at the pinned version with similar names (or the tracked libraries, when none matched). */
  suggestions: Match[];
}

export type LookupAnswer = ApiAnswer | MatchesAnswer | NotFoundAnswer;

const MAX_MATCHES = 20;

/**
 * Answers questions about APIs at a project's pins. Holds caches (member lists, search indexes) over one catalog;
 * create one per catalog and reuse it.
 */
export class ApiKnowledge {
  private readonly children = new Map<string, Map<string, string[]>>();
  private readonly indexes = new Map<string, { docs: TfIdfIndex<string>; names: TfIdfIndex<string> }>();
  private readonly listed = new Map<LibraryMatrix, readonly string[]>();

  constructor(
    readonly catalog: MatrixCatalog,
    readonly listing?: ApiListing,
    private readonly documentation: DocumentedVersions = documentedInMatrix,
  ) {}

  private readonly documented = new Map<string, ReadonlyMap<string, boolean | null> | null>();

  /** Whether the documentation of `version` lists the API (false: it imports there but is not documented). */
  private documentedAt(matrix: LibraryMatrix, api: string, version: string): boolean | null {
    const key = `${matrix.library}\0${api}`;
    let docs = this.documented.get(key);
    if (docs === undefined) this.documented.set(key, (docs = this.documentation(matrix, api)));
    return docs?.get(version) ?? null;
  }

  /** Documented in a tracked version before `version`, and not at it: the last version that documented it. */
  private deprecatedSince(matrix: LibraryMatrix, api: string, version: string): string | null {
    if (this.documentedAt(matrix, api, version) !== false) return null;
    const before = matrix.versions.slice(0, matrix.versions.indexOf(version)).reverse();
    return before.find((v) => this.documentedAt(matrix, api, v) === true) ?? null;
  }

  /** The matrix for an API path or module: its import root, or a library the root abbreviates (np → numpy). */
  resolve(path: string): { matrix: LibraryMatrix; path: string } | undefined {
    const trimmed = path.trim().replace(/\(\)$/, '');
    const [root, ...rest] = trimmed.split('.');
    if (!root) return undefined;
    const direct = this.catalog.forImportRoot(root) ?? this.catalog.libraries().find((m) => normalizeDistributionName(m.distribution) === normalizeDistributionName(root));
    if (direct) return { matrix: direct, path: [direct.library, ...rest].join('.') };
    const abbreviated = this.catalog.libraries().filter((m) => abbreviates(root, m.library));
    if (abbreviated.length === 1) return { matrix: abbreviated[0]!, path: [abbreviated[0]!.library, ...rest].join('.') };
    return undefined;
  }

  pinView(matrix: LibraryMatrix, pins: ReadonlyMap<string, Pin>): PinView | null {
    const pin = pins.get(normalizeDistributionName(matrix.distribution));
    if (!pin) return null;
    const versions = versionsUnderPin(pin, matrix);
    if (versions.length === 0) return null;
    return { requirement: `${matrix.distribution}${pin.specifier}`, origin: describeOrigin(pin.origin), exact: pin.exactVersion, versions };
  }

  lookup(query: LookupQuery, pins: ReadonlyMap<string, Pin>): LookupAnswer {
    const description = query.description?.trim();
    if (description) return this.search(query.module?.trim() || query.api?.trim() || '', description, query.scope, query.limit, pins);
    const api = query.api?.trim() || query.module?.trim();
    if (!api) return this.notFound('', null, null, 'name an API (e.g. numpy.trapezoid), or give a module and a description');
    return this.describe(api, pins);
  }

  /** What the matrix says about one API at the pins. */
  describe(requested: string, pins: ReadonlyMap<string, Pin>): ApiAnswer | NotFoundAnswer {
    const resolved = this.resolve(requested);
    if (!resolved) return this.notFound(requested, null, null, `no tracked library provides ${requested.split('.')[0]}`);
    const { matrix, path } = resolved;
    const pin = this.pinView(matrix, pins);
    const history = matrix.lookup(path);
    if (!history || !history.versions.some((c) => c.state === 'present')) {
      const reason = `\`${path}\` is in no tracked version of ${matrix.distribution} (${trackedSpan(matrix)}): possibly a hallucinated or misspelled name`;
      return this.notFound(path, matrix, pin, reason);
    }
    const newest = matrix.versions[matrix.versions.length - 1]!;
    const versions = pin?.versions ?? [newest];
    const short = leafName(path);
    const at: AtVersion[] = versions.map((version) => {
      const s = stateAt(history, version, matrix.versions);
      const cell = s.cell;
      const sig = s.state === 'present' && cell?.signature ? formatSignature(short, cell.signature) : null;
      return { version, state: s.state, basis: s.basis, signature: sig, doc: (s.state === 'present' ? cell?.doc : null) ?? null };
    });
    const states = new Set(at.map((a) => a.state));
    const verdict = states.size === 1 ? [...states][0]! : states.has('unknown') && !states.has('absent') ? 'unknown' : 'mixed';
    const pinned = new Set(pin ? versions : []);
    const first = versions[0]!;
    const place = placeVersion(first, matrix.versions);
    const pinIndex = place.kind === 'exact' ? place.index : place.below ?? -1;
    const lastPinned = versions[versions.length - 1]!;
    const lastPlace = placeVersion(lastPinned, matrix.versions);
    const lastIndex = lastPlace.kind === 'exact' ? lastPlace.index : lastPlace.below ?? -1;
    const changes = timelineChanges(history);
    const indexOf = (v: string) => matrix.versions.indexOf(v);
    const changesBefore = changes.filter((c) => indexOf(c.version) <= pinIndex).map((c) => c.text);
    const changesAfter = changes.filter((c) => indexOf(c.version) > lastIndex).map((c) => c.text);
    let alternative: AlternativeView | null = null;
    const missing = at.find((a) => a.state === 'absent');
    if (missing) {
      const firstMissing = stateAt(history, missing.version, matrix.versions).cell?.version ?? missing.version;
      const alt = versionCorrectAlternative(matrix, history, versions, firstMissing, this.catalog);
      if (alt.replacement || alt.note) {
        const altHistory = alt.replacement ? matrix.lookup(alt.replacement) : undefined;
        const altCell = altHistory ? stateAt(altHistory, first, matrix.versions).cell : null;
        alternative = {
          api: alt.replacement,
          basis: alt.basis,
          note: alt.note?.note ?? null,
          signature: alt.replacement && altCell?.signature ? formatSignature(leafName(alt.replacement), altCell.signature) : null,
        };
      }
    }
    const pinnedTracked = at[at.length - 1]!.basis === 'tracked' ? at[at.length - 1]!.version : null;
    const lastDocumented = verdict === 'present' && pinnedTracked ? this.deprecatedSince(matrix, path, pinnedTracked) : null;
    const undocumentedSince: ApiAnswer['undocumentedSince'] = lastDocumented ? { lastDocumented } : null;
    const docs = [...new Set(history.versions.map((c) => c.doc).filter((d): d is string => !!d && d.length >= 20))];
    const related = [...new Set(docs.flatMap((d) => matrix.apisWithDoc(d)))].filter((a) => a !== path && a !== alternative?.api);
    // Doc summaries shared by many APIs are boilerplate: only a few related names are evidence.
    return {
      kind: 'api',
      api: path,
      library: matrix.library,
      distribution: matrix.distribution,
      apiKind: history.kind,
      pin,
      at,
      verdict,
      bands: bands(history, short, pinned),
      changesBefore,
      changesAfter,
      presentIn: describeVersionRuns(matrix.versions, (i) => history.versions[i]!.state === 'present'),
      undocumentedSince,
      alternative,
      related: related.length <= 6 ? related : [],
      tracked: { count: matrix.versions.length, first: matrix.versions[0]!, last: newest },
    };
  }

  /** The tracked version a search runs at: the (newest) pinned version, or the nearest tracked one at or below it. */
  searchVersion(matrix: LibraryMatrix, pin: PinView | null): string {
    const newest = matrix.versions[matrix.versions.length - 1]!;
    if (!pin) return newest;
    const wanted = pin.versions[pin.versions.length - 1]!;
    const place = placeVersion(wanted, matrix.versions);
    if (place.kind === 'exact') return matrix.versions[place.index]!;
    return matrix.versions[place.below ?? place.above ?? matrix.versions.length - 1]!;
  }

  /** The APIs at the pinned version whose documentation (and name) best match a description. */
  search(module: string, description: string, scope: 'members' | 'library' | undefined, limit: number | undefined, pins: ReadonlyMap<string, Pin>): MatchesAnswer | NotFoundAnswer {
    const resolved = this.resolve(module || description.split(/\s+/)[0] || '');
    if (!resolved) {
      const known = this.catalog.libraries().map((m) => m.library).join(', ');
      return this.notFound(module, null, null, module ? `no tracked library provides ${module.split('.')[0]} (tracked: ${known})` : `name the module or library to search (tracked: ${known})`);
    }
    const { matrix } = resolved;
    const base = module ? resolved.path : matrix.library;
    const pin = this.pinView(matrix, pins);
    const version = this.searchVersion(matrix, pin);
    const chosenScope = scope ?? 'members';
    const index = this.index(matrix, base, chosenScope, version);
    const n = Math.max(1, Math.min(limit ?? 5, MAX_MATCHES));
    const query = tokenize(description.replace(/\[API\]/g, ' '));
    // Ranked by the documentation summary; an API its version's documentation no longer lists (deprecated) counts
    // half. Ties go to the one whose name shares words with the description, then to the shorter path (one function
    // is often public under several). APIs without a summary are found by their name, after the documented ones.
    const docScores = new Map(index.docs.search(query).map((h) => [h.key, h.score] as const));
    const nameScores = new Map(index.names.search(query).map((h) => [h.key, h.score] as const));
    const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;
    const candidates = [...new Set([...docScores.keys(), ...nameScores.keys()])]
      .map((key) => ({ key, doc: docScores.get(key) ?? 0, name: nameScores.get(key) ?? 0 }))
      .filter((x) => x.doc > 1e-12 || x.name > 1e-12)
      .sort((a, b) => b.doc - a.doc || b.name - a.name);
    // The documentation bit is read for the leading candidates only (a search may touch thousands of APIs).
    const scored = candidates.slice(0, 4 * n + 10).map((x) => (this.documentedAt(matrix, x.key, version) === false ? { ...x, doc: x.doc / 2 } : x));
    scored.sort((a, b) => (close(a.doc, b.doc) ? 0 : b.doc - a.doc) || (close(a.name, b.name) ? 0 : b.name - a.name) || a.key.split('.').length - b.key.split('.').length || a.key.length - b.key.length || (a.key < b.key ? -1 : 1));
    const matches = scored.slice(0, n).map((s) => this.match(matrix, s.key, version, s.doc || s.name));
    return { kind: 'matches', library: matrix.library, distribution: matrix.distribution, module: base, description, scope: chosenScope, pin, version, matches };
  }

  private match(matrix: LibraryMatrix, api: string, version: string, score: number): Match {
    const history = matrix.lookup(api);
    const cell = cellAt(history, version);
    const kind = cell?.kind ?? history?.kind ?? null;
    const deprecated = cell?.state === 'present' && this.deprecatedSince(matrix, api, version) !== null;
    return { api, apiKind: kind, deprecated, signature: cell?.signature ? formatSignature(leafName(api), cell.signature) : null, doc: cell?.doc ?? null, score: Math.round(score * 1000) / 1000 };
  }

  private notFound(query: string, matrix: LibraryMatrix | null, pin: PinView | null, reason: string): NotFoundAnswer {
    let suggestions: Match[] = [];
    if (matrix && query) {
      // Similar names at the pinned version: members of the nearest parent the matrix knows, by the name's words.
      let parent = parentPath(query);
      while (parent.includes('.') && !matrix.lookup(parent)) parent = parentPath(parent);
      if (!parent) parent = matrix.library;
      const version = this.searchVersion(matrix, pin);
      const words = tokenize(leafName(query));
      const sameLeaf = this.paths(matrix).filter((p) => leafName(p) === leafName(query) && !isPrivatePath(p) && cellAt(matrix.lookup(p), version)?.state === 'present');
      const byWords = words.length ? this.index(matrix, parent, 'members', version).names.search(words).slice(0, 5).map((s) => s.key) : [];
      suggestions = [...new Set([...sameLeaf.slice(0, 3), ...byWords])].slice(0, 5).map((api) => this.match(matrix, api, version, 0));
    }
    return { kind: 'not-found', query, library: matrix?.library ?? null, distribution: matrix?.distribution ?? null, pin, reason, suggestions };
  }

  private paths(matrix: LibraryMatrix): readonly string[] {
    let paths = this.listed.get(matrix);
    if (!paths) this.listed.set(matrix, (paths = this.listing ? this.listing(matrix) : []));
    return paths;
  }

  private childrenOf(matrix: LibraryMatrix, parent: string): string[] {
    let byParent = this.children.get(matrix.library);
    if (!byParent) {
      byParent = new Map();
      for (const path of this.paths(matrix)) {
        const p = parentPath(path);
        if (!p) continue;
        let list = byParent.get(p);
        if (!list) byParent.set(p, (list = []));
        list.push(path);
      }
      this.children.set(matrix.library, byParent);
    }
    return byParent.get(parent) ?? [];
  }

  /**
   * TF-IDF indexes of the APIs present at `version` — of their documentation summaries and of their names — over the
   * direct members of `base`, or every public function and class under it.
   */
  private index(matrix: LibraryMatrix, base: string, scope: 'members' | 'library', version: string): { docs: TfIdfIndex<string>; names: TfIdfIndex<string> } {
    const key = `${matrix.library}\0${base}\0${scope}\0${version}`;
    let index = this.indexes.get(key);
    if (index) return index;
    index = { docs: new TfIdfIndex<string>(), names: new TfIdfIndex<string>() };
    const candidates = scope === 'members' ? this.childrenOf(matrix, base) : this.paths(matrix).filter((p) => p.startsWith(base + '.') && !isPrivatePath(p));
    for (const path of candidates) {
      if (leafName(path).startsWith('_')) continue;
      const cell = cellAt(matrix.lookup(path), version);
      if (cell?.state !== 'present') continue;
      if (scope === 'library' && cell.kind !== 'function' && cell.kind !== 'class') continue;
      const doc = tokenize(cell.doc ?? '');
      if (doc.length) index.docs.add(path, doc);
      const name = tokenize(leafName(path));
      if (name.length) index.names.add(path, name);
    }
    this.indexes.set(key, index);
    return index;
  }
}

function trackedSpan(matrix: LibraryMatrix): string {
  const v = matrix.versions;
  return v.length === 1 ? v[0]! : `${v[0]}–${v[v.length - 1]}, ${v.length} versions`;
}
