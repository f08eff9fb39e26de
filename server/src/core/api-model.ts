// Plain data shared by the store, the checker, the CLI and the server: what the matrix says about one API.

export type ParameterKind =
  | 'positional_only'
  | 'positional_or_keyword'
  | 'var_positional'
  | 'keyword_only'
  | 'var_keyword';

export interface Parameter {
  name: string;
  kind: ParameterKind;
  /** Stable text of the default; null when the parameter has none; "..." when it has one of unknown value. */
  default: string | null;
  /**
   * On a `**kwargs` that the callable only reads by name and hands on to callables of the same library: every keyword
   * it accepts besides the named parameters, resolved by the extractors (python-probe forwarded_kwargs.py). Absent
   * where that is not known: the `**kwargs` may take anything.
   */
  keywords?: readonly string[];
}

export interface Signature {
  parameters: Parameter[];
}

/** Where a signature was read: the callable introspected, its docstring, a stub, its source read statically, or the C
 * argument parser a compiled callable runs (its keyword lists, read from the release's C sources). */
export type SignatureSource = 'inspect' | 'docstring' | 'stub' | 'static' | 'parser';

/** A signature that lists every keyword the callable takes: introspected, stubbed, or its C argument parser's. */
export function listsEveryKeyword(source: SignatureSource | null | undefined): boolean {
  return source === 'inspect' || source === 'stub' || source === 'parser';
}

/** A signature whose positional parameters are the callable's own count: introspected, or its C argument parser's. */
export function countsPositionals(source: SignatureSource | null | undefined): boolean {
  return source === 'inspect' || source === 'parser';
}

export type ApiKind = 'module' | 'class' | 'function' | 'method' | 'property' | 'attribute';

/** State of an API at one tracked version, as the checker sees it ("would this work"). */
export type CellState = 'present' | 'absent' | 'unknown';

export interface VersionCell {
  version: string;
  state: CellState;
  kind: ApiKind | null;
  signature: Signature | null;
  signatureSource: SignatureSource | null;
  /** Return annotation text, where the evidence records one (stubs, annotations, numpydoc "Returns"). */
  returns: string | null;
  doc: string | null;
  /** In the module's __all__, so a star import brings it; null where unknown. */
  exported?: boolean | null;
}

export interface ApiHistory {
  api: string;
  library: string;
  /** Kind at the newest version where the API is present. */
  kind: ApiKind;
  /** One cell per tracked version, ascending. */
  versions: VersionCell[];
}

/** A run of tracked versions (both ends included) in which the library itself deprecates something. */
export interface DeprecationRun {
  since: string;
  through: string;
  /** How the library says so: warning, decorator, directive, table, getattr (every member of a module), module. */
  evidence: string;
  /** Its own words, when it has any ("`trapz` is deprecated. Use `trapezoid` instead, …"). */
  message: string | null;
  /** Where in its tree: "numpy/lib/_function_base_impl.py:5095". */
  source: string;
}

/** Read access to one library's compatibility matrix. Implementations may do I/O; the core only calls this. */
export interface LibraryMatrix {
  /** Import name of the top-level package, e.g. "numpy". */
  readonly library: string;
  /** Distribution name as manifests spell it, e.g. "numpy", "scikit-learn". */
  readonly distribution: string;
  /** Tracked versions, ascending (PEP 440). */
  readonly versions: readonly string[];
  /**
   * Top-level import names the matrix answers for when they are not just `library`: the standard library's
   * modules (os, sys, builtins, tomllib…). Each is then an API of its own, which a version may lack.
   */
  readonly importRoots?: readonly string[];
  /** Each tracked version stands for a release series: Python's "3.12" is every 3.12.x (versionsUnderPin). */
  readonly versionSeries?: boolean;
  lookup(api: string): ApiHistory | undefined;
  /**
   * True when the path, or a module above it, failed to import in some tracked version: the matrix cannot say
   * the API is missing there, only that it could not look.
   */
  isUnresolved(api: string): boolean;
  /** APIs whose documentation summary, in some version, is exactly `doc` (renamed APIs usually keep their doc). */
  apisWithDoc(doc: string): string[];
  /** The library's own note on the removal of `api` ("Use `np.inf` instead."), when it recorded one. */
  removalNote?(api: string): { note: string; version: string } | null;
  /**
   * Whether any member of `api` is recorded: false for a module only seen as another module's attribute and never
   * walked (scipy 1.6's scipy.sparse.linalg.utils), whose names the matrix therefore does not know.
   */
  hasMembers?(api: string): boolean;
  /**
   * Where the library deprecates `api` itself (parameter null), one keyword of it, or ('*') every member of the
   * module `api`: runs of tracked versions, ascending. Empty where the matrix records no deprecations.
   */
  deprecations?(api: string, parameter: string | null): readonly DeprecationRun[];
}

/** The import names a matrix answers for. */
export function importRootsOf(matrix: LibraryMatrix): readonly string[] {
  return matrix.importRoots ?? [matrix.library];
}

/** Whether the top-level module `root` is itself a versioned API of `matrix` (tomllib), not the library (numpy). */
export function rootIsVersioned(matrix: LibraryMatrix, root: string): boolean {
  return root !== matrix.library && matrix.importRoots !== undefined;
}

/**
 * Matrices by the import names they answer for. A library's own name wins over another matrix's root of the same
 * name (a library is never shadowed by a standard-library module of the same name, nor the other way round).
 */
export function matricesByRoot(matrices: readonly LibraryMatrix[]): Map<string, LibraryMatrix> {
  const byRoot = new Map<string, LibraryMatrix>();
  for (const m of matrices) for (const root of importRootsOf(m)) if (root !== m.library && !byRoot.has(root)) byRoot.set(root, m);
  for (const m of matrices) byRoot.set(m.library, m);
  return byRoot;
}

/** All matrices available, keyed by import name of the top-level package. */
export interface MatrixCatalog {
  forImportRoot(root: string): LibraryMatrix | undefined;
  libraries(): readonly LibraryMatrix[];
  /** Where a column of the user's own matrices came from (index, file, sha256; or python), when it is one. */
  userColumnSource?(library: string, version: string): Record<string, string> | undefined;
}

/** Whether a call may pass KEYWORD: a named parameter, or a `**kwargs` that takes it (or anything: not resolved). */
export function acceptsKeyword(signature: Signature, keyword: string): boolean {
  return signature.parameters.some(
    (p) => (p.kind === 'var_keyword' && (p.keywords === undefined || p.keywords.includes(keyword))) ||
      (p.name === keyword && (p.kind === 'positional_or_keyword' || p.kind === 'keyword_only')),
  );
}

export function formatSignature(name: string, signature: Signature): string {
  const parts: string[] = [];
  let sawKeywordOnlyMarker = false;
  signature.parameters.forEach((p, i) => {
    const next = signature.parameters[i + 1];
    if (p.kind === 'keyword_only' && !sawKeywordOnlyMarker) {
      parts.push('*');
      sawKeywordOnlyMarker = true;
    }
    if (p.kind === 'var_positional') sawKeywordOnlyMarker = true;
    const prefix = p.kind === 'var_positional' ? '*' : p.kind === 'var_keyword' ? '**' : '';
    parts.push(prefix + p.name + (p.default !== null ? `=${p.default}` : ''));
    if (p.kind === 'positional_only' && next?.kind !== 'positional_only') parts.push('/');
  });
  return `${name}(${parts.join(', ')})`;
}
