// Every manifest format anachron reads: one pure entry point that parses any of them (which files are manifests,
// and in which order they are read, is names.ts's).
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
import { manifestFormatOf, type ManifestFormat } from './names.js';

export { compareManifestNames, isCompanionFormat, isLockFormat, isManifestName, manifestFormatOf, type ManifestFormat } from './names.js';

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

/** The parser of each manifest format (names.ts says which file is in which). */
const PARSERS: Record<ManifestFormat, (text: string, file: string) => ParsedAnyManifest> = {
  'uv.lock': parseUvLock,
  'poetry.lock': parsePoetryOrPdmLock,
  'pdm.lock': parsePoetryOrPdmLock,
  'pylock.toml': parsePylock,
  'Pipfile.lock': parsePipfileLock,
  requirements: parseRequirementsFile,
  conda: parseCondaEnvironment,
  Pipfile: parsePipfile,
  'pyproject.toml': parsePyproject,
  'setup.cfg': parseSetupCfg,
  '.python-version': parsePythonVersionFile,
  'setup.py': parseSetupPy,
};

function parseByFormat(format: ManifestFormat | undefined, text: string, file: string): ParsedAnyManifest {
  return format === undefined ? { pins: [], problems: [] } : PARSERS[format](text, file);
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
