// One declarative file per library (libraries/NAME.toml, format in libraries/README.md): its names, where its
// releases and documentation are read, how its runtimes are made. Pure: a parsed TOML table in, a checked
// definition out; python-probe/anachron_probe/libraries.py reads the same files the same way.
import { normalizeDistributionName } from './library-names.js';
import { isValidVersion } from './versions.js';
import { InputError } from './errors.js';
import { isTable, type TomlTable } from './manifests/toml.js';

/** git: release tags of a repository; pypi: the files each release published on the package index; typeshed:
 * Python's standard library from typeshed's stubs (no tags; scripts/python-matrix.sh). */
export type StaticSource = 'git' | 'pypi' | 'typeshed';
export type DocsSource = 'git' | 'sdist';

export interface LibraryReleases {
  /** Oldest release tracked (a minor's `.0`). */
  first: string | null;
  /** Newest release tracked; null: the newest published. */
  last: string | null;
  /** Also every patch release whose public surface differs from its minor's `.0`. */
  patches: boolean;
  /** Further versions (runtime cross-checks such as Debian's). */
  extra: string[];
  /** Versions left out (yanked, broken uploads). */
  skip: string[];
  /** Tag version -> release version, where the repository's numbers are another package's (qiskit-terra). */
  tagVersions: Record<string, string>;
}

export interface LibraryStatic {
  from: StaticSource;
  /** `github:owner/name` (from = "git"); "pypi": the files each release published on the package index. */
  repository: string | null;
  /** Tag of a release, `{version}` standing for it. */
  tag: string;
  /** Folder of the package inside the tree; null: found (the folder holding NAME/__init__.py). */
  packageDir: string | null;
  /** Libraries whose names this one re-exports, read at the newest minor released before each release. */
  reexports: string[];
  /** Import names every release needs at import time, beyond what its files declare (a build that computes its
   *  install requirements: scikit-learn 0.24–1.1 reads them from sklearn/_min_dependencies.py). */
  requires: string[];
  /** Decorators whose result's `__signature__` adds parameters to the function they wrap, by dotted path:
   *  the parameters added, as a parameter list (`backend=None, **backend_kwargs`: keyword-only ones go in front of
   *  the function's `**kwargs`, a `**name` is added where it has none). networkx 3.2+'s `_dispatchable`. */
  decoratorParameters: Record<string, string>;
}

export interface LibraryDocs {
  from: DocsSource;
  /** Repository of the documentation sources (from = "git", or where an sdist carries no reference pages);
   *  null: the static source's. */
  repository: string | null;
  /** Tag pattern at the documentation repository; null: the static source's. */
  tag: string | null;
  /** Subject of the commit of a release the docs repository did not tag (`RLS: {version}`); null: tags only. */
  releaseCommit: string | null;
  /** Folder an absolute `.. include:: /x.rst` starts from. */
  root: string;
  /** Groups of globs (`**` any folders, `*` within a name): the first group that matches a file is read. */
  pages: string[][];
  /** Globs of `__init__.py` files whose module docstrings are reference pages too. */
  moduleDocstrings: string[];
  /** Globs of Python files whose `API_REFERENCE` dict literal generates the reference pages (module -> sections
   *  with `autosummary` lists; scikit-learn 1.6 and later). */
  referenceDicts: string[];
}

export interface LibraryRuntime {
  /** Probe every tracked release in a virtual environment made from its published wheels. */
  venv: boolean;
  /** Release line (`1.0`) -> Python (`3.8`) for its environments; lines not named: the newest Python the
   *  release's wheels are built for, or (pure releases) the newest released before it. */
  python: Record<string, string>;
  /** Distributions installed in every venv beside the release's own requirements, bounded to the release's time
   *  like them: optional requirements whose presence changes the public surface (networkx 2.0–2.5 exports its
   *  spectral functions only where scipy imports). */
  venvRequirements: string[];
  debianPackage: string | null;
  debianSuites: string[];
  debianExtraPackages: string[];
  /** Python source that must run without an exception in a new environment of any release (beyond importing it):
   *  `anachron env add` runs it before registering the environment; null: the import check alone. */
  smokeTest: string | null;
}

export interface LibraryDefinition {
  /** The matrix's name (matrices/NAME.sqlite, surfaces/NAME/): the library's top-level module. */
  name: string;
  /** PEP 503 normalised distribution name, as pins write it. */
  distribution: string;
  /** Other distributions that install the same modules (qiskit-terra), normalised. */
  otherDistributions: string[];
  /** Top-level modules the distribution installs (the first is `name`). */
  modules: string[];
  summary: string;
  /** python-probe's knowledge module for what cannot be data (static/knowledge/NAME.py); null: none. */
  knowledge: string | null;
  releases: LibraryReleases | null;
  static: LibraryStatic | null;
  docs: LibraryDocs | null;
  runtime: LibraryRuntime;
}

export class LibraryDefinitionError extends InputError {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'LibraryDefinitionError';
  }
}

type Table = TomlTable;

class Reader {
  constructor(readonly file: string) {}

  fail(key: string, message: string): never {
    throw new LibraryDefinitionError(this.file, `${key}: ${message}`);
  }

  table(parent: Table, key: string, where: string, allowed: readonly string[]): Table | null {
    const v = parent[key];
    if (v === undefined) return null;
    if (!isTable(v)) this.fail(`${where}${key}`, 'must be a table');
    this.only(v, allowed, `${where}${key}.`);
    return v;
  }

  only(t: Table, allowed: readonly string[], where: string): void {
    for (const k of Object.keys(t)) if (!allowed.includes(k)) this.fail(`${where}${k}`, `unknown key (known: ${allowed.join(', ')})`);
  }

  string(t: Table, key: string, where: string): string | null {
    const v = t[key];
    if (v === undefined) return null;
    if (typeof v !== 'string' || v.trim() === '') this.fail(`${where}${key}`, 'must be a non-empty string');
    return v;
  }

  required(t: Table, key: string, where: string): string {
    return this.string(t, key, where) ?? this.fail(`${where}${key}`, 'is required');
  }

  bool(t: Table, key: string, where: string, fallback: boolean): boolean {
    const v = t[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') this.fail(`${where}${key}`, 'must be true or false');
    return v;
  }

  strings(t: Table, key: string, where: string): string[] {
    const v = t[key];
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.some((s) => typeof s !== 'string' || s.trim() === '')) this.fail(`${where}${key}`, 'must be an array of non-empty strings');
    return v as string[];
  }

  stringMap(t: Table, key: string, where: string): Record<string, string> {
    const v = t[key];
    if (v === undefined) return {};
    if (!isTable(v) || Object.values(v).some((s) => typeof s !== 'string')) this.fail(`${where}${key}`, 'must be a table of strings');
    return { ...(v as Record<string, string>) };
  }

  version(v: string | null, key: string): string | null {
    if (v !== null && !isValidVersion(v)) this.fail(key, `"${v}" is not a PEP 440 version`);
    return v;
  }

  choice<T extends string>(v: string | null, key: string, options: readonly T[], fallback: T): T {
    if (v === null) return fallback;
    if (!(options as readonly string[]).includes(v)) this.fail(key, `must be one of ${options.map((o) => `"${o}"`).join(', ')} (got "${v}")`);
    return v as T;
  }
}

const TOP_KEYS = ['name', 'distribution', 'other-distributions', 'modules', 'summary', 'knowledge', 'releases', 'static', 'docs', 'runtime'] as const;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const REPOSITORY = /^github:[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Checks a parsed library file (`fileStem`: its name without `.toml`, which must be the library's `name`). */
export function parseLibraryDefinition(data: unknown, file: string, fileStem: string): LibraryDefinition {
  const r: Reader = new Reader(file);
  if (!isTable(data)) r.fail('(document)', 'must be a table');
  r.only(data, TOP_KEYS, '');
  const name = r.required(data, 'name', '');
  if (!NAME.test(name)) r.fail('name', `"${name}" is not a module name`);
  if (name !== fileStem) r.fail('name', `"${name}" must match the file name (${fileStem}.toml)`);
  const modules = r.strings(data, 'modules', '');
  for (const m of modules) if (!NAME.test(m)) r.fail('modules', `"${m}" is not a module name`);
  if (modules.length > 0 && modules[0] !== name) r.fail('modules', `the first module must be the library's name (${name})`);

  const rel = r.table(data, 'releases', '', ['first', 'last', 'patches', 'extra', 'skip', 'tag-versions']);
  const releases: LibraryReleases | null = rel && {
    first: r.version(r.string(rel, 'first', 'releases.'), 'releases.first'),
    last: r.version(r.string(rel, 'last', 'releases.'), 'releases.last'),
    patches: r.bool(rel, 'patches', 'releases.', true),
    extra: r.strings(rel, 'extra', 'releases.').map((v) => r.version(v, 'releases.extra')!),
    skip: r.strings(rel, 'skip', 'releases.').map((v) => r.version(v, 'releases.skip')!),
    tagVersions: r.stringMap(rel, 'tag-versions', 'releases.'),
  };

  const st = r.table(data, 'static', '', ['from', 'repository', 'tag', 'package-dir', 'reexports', 'requires', 'decorator-parameters']);
  let staticSource: LibraryStatic | null = null;
  if (st) {
    const from = r.choice(r.string(st, 'from', 'static.'), 'static.from', ['git', 'pypi', 'typeshed'] as const, 'pypi');
    const repository = r.string(st, 'repository', 'static.');
    if (repository !== null && !REPOSITORY.test(repository)) r.fail('static.repository', `"${repository}" is not github:owner/name`);
    if (from !== 'pypi' && repository === null) r.fail('static.repository', `is required with from = "${from}"`);
    const tag = r.string(st, 'tag', 'static.') ?? 'v{version}';
    if (!tag.includes('{version}')) r.fail('static.tag', 'must contain {version}');
    if (from === 'pypi' && (st.repository !== undefined || st.tag !== undefined)) r.fail('static.from', 'releases read from the package index have no repository or tag');
    staticSource = { from, repository, tag, packageDir: r.string(st, 'package-dir', 'static.'), reexports: r.strings(st, 'reexports', 'static.'), requires: r.strings(st, 'requires', 'static.'), decoratorParameters: r.stringMap(st, 'decorator-parameters', 'static.') };
  }
  if (releases && !staticSource && !data.runtime) r.fail('releases', 'needs a [static] or [runtime] section to read them from');

  const dc = r.table(data, 'docs', '', ['from', 'repository', 'tag', 'release-commit', 'root', 'pages', 'module-docstrings', 'reference-dicts']);
  let docs: LibraryDocs | null = null;
  if (dc) {
    const from = r.choice(r.string(dc, 'from', 'docs.'), 'docs.from', ['git', 'sdist'] as const, 'git');
    const repository = r.string(dc, 'repository', 'docs.');
    if (repository !== null && !REPOSITORY.test(repository)) r.fail('docs.repository', `"${repository}" is not github:owner/name`);
    if (from === 'git' && repository === null && !staticSource?.repository) r.fail('docs.repository', 'is required with from = "git" when [static] names no repository');
    const pages = dc.pages;
    if (!Array.isArray(pages) || pages.length === 0 || pages.some((g) => !Array.isArray(g) || g.length === 0 || g.some((p) => typeof p !== 'string' || p === '')))
      r.fail('docs.pages', 'must be a non-empty array of non-empty arrays of globs, e.g. [["doc/source/reference/**/*.rst"]]');
    const tag = r.string(dc, 'tag', 'docs.');
    if (tag !== null && !tag.includes('{version}')) r.fail('docs.tag', 'must contain {version}');
    const releaseCommit = r.string(dc, 'release-commit', 'docs.');
    if (releaseCommit !== null && !releaseCommit.includes('{version}')) r.fail('docs.release-commit', 'must contain {version}');
    docs = { from, repository, tag, releaseCommit, root: r.string(dc, 'root', 'docs.') ?? 'doc', pages: pages as string[][], moduleDocstrings: r.strings(dc, 'module-docstrings', 'docs.'), referenceDicts: r.strings(dc, 'reference-dicts', 'docs.') };
  }

  const rt = r.table(data, 'runtime', '', ['venv', 'python', 'venv-requirements', 'debian-package', 'debian-suites', 'debian-extra-packages', 'smoke-test']) ?? {};
  const python = r.stringMap(rt, 'python', 'runtime.');
  for (const [line, py] of Object.entries(python)) {
    if (!/^\d+\.\d+$/.test(line)) r.fail('runtime.python', `"${line}" is not a release line such as "1.0"`);
    if (!/^3\.\d+$/.test(py)) r.fail('runtime.python', `"${py}" is not a Python such as "3.8"`);
  }
  const runtime: LibraryRuntime = {
    venv: r.bool(rt, 'venv', 'runtime.', false),
    python,
    venvRequirements: r.strings(rt, 'venv-requirements', 'runtime.'),
    debianPackage: r.string(rt, 'debian-package', 'runtime.'),
    debianSuites: r.strings(rt, 'debian-suites', 'runtime.'),
    debianExtraPackages: r.strings(rt, 'debian-extra-packages', 'runtime.'),
    smokeTest: r.string(rt, 'smoke-test', 'runtime.'),
  };
  if (runtime.debianSuites.length > 0 && !runtime.debianPackage) r.fail('runtime.debian-suites', 'needs runtime.debian-package');

  const knowledge = r.string(data, 'knowledge', '');
  if (knowledge !== null && !NAME.test(knowledge)) r.fail('knowledge', `"${knowledge}" is not a module name`);
  return {
    name,
    distribution: normalizeDistributionName(r.required(data, 'distribution', '')),
    otherDistributions: r.strings(data, 'other-distributions', '').map(normalizeDistributionName),
    modules: modules.length > 0 ? modules : [name],
    summary: r.string(data, 'summary', '') ?? '',
    knowledge,
    releases,
    static: staticSource,
    docs,
    runtime,
  };
}

/** libraries/distributions.toml: `[import-names]` distribution -> top-level module, for distributions without a
 *  library file. */
export function parseDistributionNames(data: unknown, file: string): Map<string, string> {
  const r: Reader = new Reader(file);
  if (!isTable(data)) r.fail('(document)', 'must be a table');
  r.only(data, ['import-names'], '');
  const names = r.stringMap(data, 'import-names', '');
  const out = new Map<string, string>();
  for (const [dist, mod] of Object.entries(names)) {
    if (!NAME.test(mod)) r.fail(`import-names.${dist}`, `"${mod}" is not a module name`);
    out.set(normalizeDistributionName(dist), mod);
  }
  return out;
}

/** The tag of `version` under a tag pattern (`v{version}`), through a library's tag-versions map. */
export function tagOf(pattern: string, version: string, tagVersions: Record<string, string> = {}): string {
  const tagVersion = Object.entries(tagVersions).find(([, v]) => v === version)?.[0] ?? version;
  return pattern.replace('{version}', tagVersion);
}
