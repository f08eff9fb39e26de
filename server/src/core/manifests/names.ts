// The one list of manifest file names: which files anachron reads as manifests, in which format, the fixed order in
// which they are read (which breaks ties between pins of equal precedence), and the same names as globs for what
// watches them (the language server's file watchers, the extension's document selector and watchers).
export type ManifestFormat = 'uv.lock' | 'poetry.lock' | 'pdm.lock' | 'pylock.toml' | 'Pipfile.lock' | 'requirements' | 'conda' | '.python-version' | 'Pipfile' | 'pyproject.toml' | 'setup.cfg' | 'setup.py';

/**
 * The fixed file order: lock files, then the files that set up an environment (requirements, constraints, conda),
 * then the files that declare what a package accepts. Within one entry, files sort by name. Each entry's globs match
 * (at least) the names its pattern does, for file watchers and document selectors.
 */
const FILE_ORDER: { pattern: RegExp; format: ManifestFormat; globs: string[] }[] = [
  { pattern: /^uv\.lock$/i, format: 'uv.lock', globs: ['uv.lock'] },
  { pattern: /^poetry\.lock$/i, format: 'poetry.lock', globs: ['poetry.lock'] },
  { pattern: /^pdm\.lock$/i, format: 'pdm.lock', globs: ['pdm.lock'] },
  { pattern: /^pylock\.toml$/i, format: 'pylock.toml', globs: ['pylock.toml'] },
  { pattern: /^pylock\.[^.\\/]+\.toml$/i, format: 'pylock.toml', globs: ['pylock.*.toml'] },
  { pattern: /^Pipfile\.lock$/i, format: 'Pipfile.lock', globs: ['Pipfile.lock'] },
  { pattern: /^requirements\.txt$/i, format: 'requirements', globs: ['requirements.txt'] },
  { pattern: /^requirements.*\.txt$/i, format: 'requirements', globs: ['requirements*.txt'] },
  { pattern: /^requirements.*\.in$/i, format: 'requirements', globs: ['requirements*.in'] },
  { pattern: /^constraints.*\.txt$/i, format: 'requirements', globs: ['constraints*.txt'] },
  { pattern: /^environment.*\.ya?ml$/i, format: 'conda', globs: ['environment*.yml', 'environment*.yaml'] },
  { pattern: /^\.python-version$/, format: '.python-version', globs: ['.python-version'] },
  { pattern: /^Pipfile$/i, format: 'Pipfile', globs: ['Pipfile'] },
  { pattern: /^pyproject\.toml$/i, format: 'pyproject.toml', globs: ['pyproject.toml'] },
  { pattern: /^setup\.cfg$/i, format: 'setup.cfg', globs: ['setup.cfg'] },
  { pattern: /^setup\.py$/, format: 'setup.py', globs: ['setup.py'] },
];

/** The base name of a path, with either separator. */
function baseName(file: string): string {
  return file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
}

function rankOf(name: string): number {
  return FILE_ORDER.findIndex((e) => e.pattern.test(name));
}

/** The format of a manifest file by its name, or undefined when anachron does not read it. */
export function manifestFormatOf(fileName: string): ManifestFormat | undefined {
  const i = rankOf(baseName(fileName));
  return i < 0 ? undefined : FILE_ORDER[i]!.format;
}

export function isManifestName(fileName: string): boolean {
  return manifestFormatOf(fileName) !== undefined;
}

/** Sorts manifest file names into the fixed file order. */
export function compareManifestNames(a: string, b: string): number {
  const na = baseName(a);
  const nb = baseName(b);
  return rankOf(na) - rankOf(nb) || (na < nb ? -1 : na > nb ? 1 : 0);
}

/** Formats read with the manifests of a project folder that never make a folder a project on their own. */
export function isCompanionFormat(format: ManifestFormat | undefined): boolean {
  return format === '.python-version';
}

export function isLockFormat(format: ManifestFormat | undefined): boolean {
  return format === 'uv.lock' || format === 'poetry.lock' || format === 'pdm.lock' || format === 'pylock.toml' || format === 'Pipfile.lock';
}

/** Every manifest name as one glob below any folder: `**` + `/{uv.lock,poetry.lock,…}`, in the file order. */
export const MANIFEST_GLOB = `**/{${[...new Set(FILE_ORDER.flatMap((e) => e.globs))].join(',')}}`;
