// Python itself is pinned like a library, as the distribution "python": requires-python (PEP 621, uv.lock,
// pylock.toml), python_requires (setup.cfg, a literal in setup.py), Poetry's `python` dependency, conda's
// `python=3.x`, Pipfile's [requires], and .python-version. Each reader here is pure: text in, pins out.
import type { ManifestProblem, ParsedManifest, Pin, PinKind, PinOrigin } from '../pins.js';
import { isValidSpecifier } from '../versions.js';
import { makePin } from './requirement.js';
import { seriesAllowedBy, seriesOf } from '../version-series.js';

export const PYTHON_DISTRIBUTION = 'python';

/** A pin of Python from a specifier as written (">=3.9", "~=3.10", "==3.11.*"), or the problem with it. */
export function pythonPin(specifier: string, origin: PinOrigin, kind: PinKind = 'requirement'): Pin | { error: string } {
  const spec = specifier.trim();
  if (spec === '' || !isValidSpecifier(spec)) return { error: `"${specifier}" is not a valid PEP 440 specifier for the Python version` };
  return makePin(PYTHON_DISTRIBUTION, spec, origin, kind);
}

/** "3.11" -> "==3.11.*", "3.11.7" -> "==3.11.7": a version naming a minor means any of its releases. */
export function specifierForPythonVersion(version: string): string | null {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?$/.exec(version.trim());
  if (!m) return null;
  return m[3] !== undefined ? `==${m[1]}.${m[2]}.${m[3]}` : `==${m[1]}.${m[2]}.*`;
}

/**
 * .python-version (pyenv, uv, rye): the interpreter the project selects, first line that names a CPython
 * version ("3.12", "3.11.7", "cpython-3.12", "3.13t" for the free-threaded build). "system" and other
 * implementations (pypy3.10) pin nothing. Kind "installed": it selects the interpreter, below the range a project
 * declares (docs/pins.md).
 */
export function parsePythonVersionFile(text: string, file: string): ParsedManifest {
  const pins: Pin[] = [];
  const problems: ManifestProblem[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.replace(/#.*$/, '').trim();
    if (raw === '') continue;
    if (raw === 'system' || /^(pypy|graalpy|jython|ironpython|micropython)/i.test(raw)) break;
    const m = /^(?:cpython-|python-?)?(\d+\.\d+(?:\.\d+)?)(?:t|[a-z]+\d*)?(?:[-+].*)?$/i.exec(raw);
    const specifier = m ? specifierForPythonVersion(m[1]!) : null;
    if (!specifier) problems.push({ file, line: i + 1, message: `"${raw}" is not a Python version such as 3.12 or 3.11.7` });
    else pins.push(makePin(PYTHON_DISTRIBUTION, specifier, { file, line: i + 1 }, 'installed'));
    break;
  }
  return { pins, problems, describesProject: pins.length > 0 };
}

/**
 * setup.py is code, not data: only a literal `python_requires=">=3.8"` (or with single quotes, in a setup() call
 * or a dict) is read; anything computed is not a pin. The file makes its folder a project only when it says one.
 */
export function parseSetupPy(text: string, file: string): ParsedManifest {
  const pins: Pin[] = [];
  const problems: ManifestProblem[] = [];
  const m = /\bpython_requires['"]?\s*[=:]\s*[rRuU]?(['"])([^'"\n]*)\1/.exec(text);
  if (m) {
    const line = text.slice(0, m.index).split('\n').length;
    const pin = pythonPin(m[2]!, { file, line });
    if ('error' in pin) problems.push({ file, line, message: pin.error });
    else pins.push(pin);
  }
  return { pins, problems, describesProject: pins.length > 0 };
}

/** The Python pin among a file's pins, when it has one. */
export function pythonPinOf(pins: ReadonlyMap<string, Pin>): Pin | undefined {
  return pins.get(PYTHON_DISTRIBUTION);
}

/**
 * The Python versions a file's pins allow, as the given series (the python matrix's tracked versions, "3.8" …
 * "3.14"): an exact pin gives its series, a range every series it allows. null when no pin names Python. For
 * whatever needs the project's Python: environment markers, the checker (through versionsUnderPin).
 */
export function pythonVersionsAllowed(pins: ReadonlyMap<string, Pin>, series: readonly string[]): string[] | null {
  const pin = pythonPinOf(pins);
  if (!pin) return null;
  if (pin.exactVersion !== null) {
    const own = seriesOf(pin.exactVersion, series);
    return own ? [own] : [];
  }
  return pin.specifier === '' ? [...series] : seriesAllowedBy(pin.specifier, series);
}
