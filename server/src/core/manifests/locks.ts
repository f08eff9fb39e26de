// Lock files: every entry names an exact version. uv.lock, poetry.lock, pdm.lock and PEP 751 pylock.toml are
// TOML; Pipfile.lock is JSON.
import type { ManifestProblem, ParsedManifest, Pin } from '../pin.js';
import { isValidVersion } from '../versions.js';
import { JsonSyntaxError, parseJsonWithLines } from './json-lines.js';
import { PYTHON_DISTRIBUTION, pythonPin, specifierForPythonVersion } from './python-pins.js';
import { exactVersionOf, lockPin, makePin } from './requirement.js';
import { isTable, parseTomlManifest, type LocatedToml } from './toml.js';

export interface ParsedLock extends ParsedManifest {
  /** uv.lock: folders (relative to the lock's folder, "/"-separated) of the workspace members it was locked for. */
  workspaceMembers?: string[];
}

/** The entries of an array of tables (`[[package]]`), each with the pin it gives or nothing. */
function readPackages(
  toml: LocatedToml,
  file: string,
  key: 'package' | 'packages',
  read: (entry: Record<string, unknown>, index: number) => { name: string; version: string; marker?: string } | 'skip',
): { pins: Pin[]; problems: ManifestProblem[] } {
  const pins: Pin[] = [];
  const problems: ManifestProblem[] = [...toml.problems];
  const entries = toml.data[key];
  if (entries === undefined) return { pins, problems };
  if (!Array.isArray(entries)) {
    problems.push({ file, line: toml.lineOf([key]), message: `${key} must be an array of tables ([[${key}]])` });
    return { pins, problems };
  }
  entries.forEach((entry, i) => {
    const at = toml.lineOf([key, i, 'name']);
    if (!isTable(entry) || typeof entry['name'] !== 'string') {
      if (toml.problems.length > 0) return; // the name was on a line that did not parse: already reported
      problems.push({ file, line: toml.lineOf([key, i]), message: `[[${key}]] entry without a name` });
      return;
    }
    const got = read(entry, i);
    if (got === 'skip') return;
    if (!isValidVersion(got.version)) {
      problems.push({ file, line: toml.lineOf([key, i, 'version']), message: `"${got.version}" is not a valid PEP 440 version for ${got.name}` });
      return;
    }
    pins.push(lockPin(got.name, got.version, { file, line: at }, got.marker));
  });
  return { pins, problems };
}

const stringOf = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The top-level `requires-python` of uv.lock and pylock.toml: the Python versions the lock was resolved for. */
function lockedPython(toml: LocatedToml, file: string, pins: Pin[], problems: ManifestProblem[]): void {
  const value = toml.data['requires-python'];
  if (value === undefined) return;
  const line = toml.lineOf(['requires-python']);
  if (typeof value !== 'string') {
    problems.push({ file, line, message: 'requires-python must be a version specifier string' });
    return;
  }
  const pin = pythonPin(value, { file, line }, 'lock');
  if ('error' in pin) problems.push({ file, line, message: pin.error });
  else pins.push(pin);
}

/**
 * uv.lock: `[[package]]` with name, version and source. Workspace members (source `editable` or `virtual`) are
 * the project itself, not libraries: they give no pin and are listed in `workspaceMembers`. Forked resolutions
 * give several entries for one name, each with its `resolution-markers` as the marker.
 */
export function parseUvLock(text: string, file: string): ParsedLock {
  const toml = parseTomlManifest(text, file);
  const workspaceMembers: string[] = [];
  const { pins, problems } = readPackages(toml, file, 'package', (entry) => {
    const source = entry['source'];
    if (isTable(source)) {
      const local = stringOf(source['editable']) ?? stringOf(source['virtual']);
      if (local !== undefined) {
        workspaceMembers.push(local.replace(/\\/g, '/').replace(/\/+$/, '') || '.');
        return 'skip';
      }
    }
    const version = stringOf(entry['version']);
    if (version === undefined) return 'skip';
    const markers = entry['resolution-markers'];
    const marker = Array.isArray(markers) && markers.every((m) => typeof m === 'string') && markers.length > 0 ? markers.map((m) => (markers.length > 1 ? `(${m})` : m)).join(' or ') : undefined;
    return { name: entry['name'] as string, version, marker };
  });
  lockedPython(toml, file, pins, problems);
  return { pins, problems, workspaceMembers };
}

/** poetry.lock and pdm.lock: `[[package]]` with name and version. */
export function parsePoetryOrPdmLock(text: string, file: string): ParsedLock {
  const toml = parseTomlManifest(text, file);
  return readPackages(toml, file, 'package', (entry) => {
    const version = stringOf(entry['version']);
    return version === undefined ? 'skip' : { name: entry['name'] as string, version };
  });
}

/** PEP 751 pylock.toml: `[[packages]]` with name, version (absent for some VCS and directory entries) and marker. */
export function parsePylock(text: string, file: string): ParsedLock {
  const toml = parseTomlManifest(text, file);
  const read = readPackages(toml, file, 'packages', (entry) => {
    const version = stringOf(entry['version']);
    return version === undefined ? 'skip' : { name: entry['name'] as string, version, marker: stringOf(entry['marker']) };
  });
  lockedPython(toml, file, read.pins, read.problems);
  return read;
}

/**
 * Pipfile.lock: JSON with `default` and `develop` (and any other category) mapping names to
 * {version: "==1.2.3", markers, hashes}. Entries without a version (VCS, editable paths) give no pin.
 */
export function parsePipfileLock(text: string, file: string): ParsedLock {
  const pins: Pin[] = [];
  const problems: ManifestProblem[] = [];
  let located;
  try {
    located = parseJsonWithLines(text);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    return { pins, problems: [{ file, line: e.line, message: `invalid JSON: ${e.message}` }] };
  }
  for (const e of located.errors) problems.push({ file, line: e.line, message: `invalid JSON: ${e.message}` });
  const root = located.value;
  if (!isTable(root)) return { pins, problems: [...problems, { file, line: 1, message: 'Pipfile.lock must be a JSON object' }] };
  pipenvPython(root['_meta'], (path) => located.lineOf(['_meta', ...path]), file, pins, problems);
  for (const [category, packages] of Object.entries(root)) {
    if (category.startsWith('_') || !isTable(packages)) continue;
    for (const [name, entry] of Object.entries(packages)) {
      const line = located.lineOf([category, name]);
      if (!isTable(entry)) {
        problems.push({ file, line, message: `${category}.${name} must be an object` });
        continue;
      }
      const version = stringOf(entry['version']);
      if (version === undefined) continue;
      const exact = exactVersionOf(version);
      if (exact === null) {
        problems.push({ file, line: located.lineOf([category, name, 'version']), message: `"${version}" is not an exact version for ${name}` });
        continue;
      }
      pins.push(makePin(name, version.trim(), { file, line }, 'lock', stringOf(entry['markers'])));
    }
  }
  return { pins, problems };
}

/**
 * Pipfile's [requires] (and Pipfile.lock's _meta.requires): python_full_version "3.9.1" or python_version "3.9",
 * the interpreter the environment is made with.
 */
export function pipenvPython(section: unknown, lineOf: (path: string[]) => number, file: string, pins: Pin[], problems: ManifestProblem[]): void {
  const requires = isTable(section) && 'requires' in section ? section['requires'] : section;
  if (!isTable(requires)) return;
  const prefix = isTable(section) && 'requires' in section ? ['requires'] : [];
  for (const key of ['python_full_version', 'python_version']) {
    const value = requires[key];
    if (value === undefined) continue;
    const line = lineOf([...prefix, key]);
    const specifier = typeof value === 'string' ? specifierForPythonVersion(value) : null;
    if (!specifier) problems.push({ file, line, message: `${key} must be a Python version such as "3.11", not ${JSON.stringify(value)}` });
    else pins.push(makePin(PYTHON_DISTRIBUTION, specifier, { file, line }));
    return;
  }
}
