// Every manifest format anachron reads, by file name: which files are manifests, the fixed order in which they
// are read (which breaks ties between pins of equal precedence), and one pure entry point that parses any of them.
import type { ParsedManifest } from '../pin.js';
import type { ProjectSettings } from '../settings.js';
import { parseCondaEnvironment } from './conda.js';
import { parsePipfileLock, parsePoetryOrPdmLock, parsePylock, parseUvLock } from './locks.js';
import { parsePipfile } from './pipfile.js';
import { parsePyproject } from './pyproject.js';
import { parseRequirementsFile } from './requirements-txt.js';
import { parseSetupCfg } from './setup-cfg.js';
import { parsePythonVersionFile, parseSetupPy } from './python-pins.js';
import { parseMarker } from '../markers.js';
import { allowsNoVersion } from '../versions.js';
import { excerpt } from '../excerpt.js';

export type ManifestFormat = 'uv.lock' | 'poetry.lock' | 'pdm.lock' | 'pylock.toml' | 'Pipfile.lock' | 'requirements' | 'conda' | '.python-version' | 'Pipfile' | 'pyproject.toml' | 'setup.cfg' | 'setup.py';

/**
 * The fixed file order: lock files, then the files that set up an environment (requirements, constraints, conda),
 * then the files that declare what a package accepts. Within one entry, files sort by name.
 */
const FILE_ORDER: { pattern: RegExp; format: ManifestFormat }[] = [
  { pattern: /^uv\.lock$/i, format: 'uv.lock' },
  { pattern: /^poetry\.lock$/i, format: 'poetry.lock' },
  { pattern: /^pdm\.lock$/i, format: 'pdm.lock' },
  { pattern: /^pylock\.toml$/i, format: 'pylock.toml' },
  { pattern: /^pylock\.[^.\\/]+\.toml$/i, format: 'pylock.toml' },
  { pattern: /^Pipfile\.lock$/i, format: 'Pipfile.lock' },
  { pattern: /^requirements\.txt$/i, format: 'requirements' },
  { pattern: /^requirements.*\.txt$/i, format: 'requirements' },
  { pattern: /^requirements.*\.in$/i, format: 'requirements' },
  { pattern: /^constraints.*\.txt$/i, format: 'requirements' },
  { pattern: /^environment.*\.ya?ml$/i, format: 'conda' },
  { pattern: /^\.python-version$/, format: '.python-version' },
  { pattern: /^Pipfile$/i, format: 'Pipfile' },
  { pattern: /^pyproject\.toml$/i, format: 'pyproject.toml' },
  { pattern: /^setup\.cfg$/i, format: 'setup.cfg' },
  { pattern: /^setup\.py$/, format: 'setup.py' },
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

export type ParsedAnyManifest = ParsedManifest & { settings?: ProjectSettings };

/**
 * Parses any supported manifest, chosen by `fileName` (only its base name counts). Pins and problems name
 * `displayName` as their file. Pure: includes (-r, -c) are reported, not followed. An unknown file name gives
 * nothing.
 */
export function parseManifest(fileName: string, text: string, displayName: string): ParsedAnyManifest {
  return parseManifestAs(manifestFormatOf(fileName), text, displayName);
}

/** Parses a manifest in a known format, whatever its name (a file pulled in with -r is a requirements file). */
export function parseManifestAs(format: ManifestFormat | undefined, text: string, displayName: string): ParsedAnyManifest {
  const parsed = parseByFormat(format, withLoneCrAsNewline(text), displayName);
  // A marker that is not PEP 508 is said at its line; the pin then counts where it may apply (core/pins.ts).
  for (const pin of parsed.pins) {
    // A range that allows no version at all is never installable: said at its line (it checks nothing).
    if (pin.exactVersion === null && pin.specifier !== '' && allowsNoVersion(pin.specifier)) {
      parsed.problems.push({ file: displayName, line: pin.origin.line ?? 1, message: `${pin.distribution}${excerpt(pin.specifier.replace(/\s+/g, ''), 80)} allows no version at all: nothing can be installed or checked for it` });
    }
    if (!pin.marker) continue;
    const tree = parseMarker(pin.marker);
    if ('error' in tree) {
      parsed.problems.push({ file: displayName, line: pin.origin.line ?? 1, message: `environment marker of ${pin.distribution} not read (${excerpt(tree.error, 80)}): "${excerpt(pin.marker)}"; the pin counts as one that may apply` });
    }
  }
  parsed.pins.sort((a, b) => (a.origin.line ?? 0) - (b.origin.line ?? 0));
  parsed.problems.sort((a, b) => a.line - b.line);
  return parsed;
}

function parseByFormat(format: ManifestFormat | undefined, text: string, file: string): ParsedAnyManifest {
  switch (format) {
    case 'uv.lock':
      return parseUvLock(text, file);
    case 'poetry.lock':
    case 'pdm.lock':
      return parsePoetryOrPdmLock(text, file);
    case 'pylock.toml':
      return parsePylock(text, file);
    case 'Pipfile.lock':
      return parsePipfileLock(text, file);
    case 'requirements':
      return parseRequirementsFile(text, file);
    case 'conda':
      return parseCondaEnvironment(text, file);
    case 'Pipfile':
      return parsePipfile(text, file);
    case 'pyproject.toml':
      return parsePyproject(text, file);
    case 'setup.cfg':
      return parseSetupCfg(text, file);
    case '.python-version':
      return parsePythonVersionFile(text, file);
    case 'setup.py':
      return parseSetupPy(text, file);
    case undefined:
      return { pins: [], problems: [] };
  }
}

export { condaSpec } from './conda.js';
export { poetryToPep440 } from './poetry-constraint.js';

/**
 * A lone CR (old Mac line ends) ends a line, as pip and Python read it; as LF, every offset stays where it was
 * (the same length), so lines are numbered as the user's editor numbers them instead of merged into one.
 */
export function withLoneCrAsNewline(text: string): string {
  return text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
}
