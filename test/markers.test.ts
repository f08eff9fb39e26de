// Environment markers (PEP 508) evaluated against the project's Python: the pin whose marker holds is the one in
// force, a pin whose marker holds nowhere the project runs is not, and where the project's Python range or the
// platform leaves several pins possible, each is checked and the CLI says so. A marker that is not PEP 508 is a
// problem at its line; nesting and length are capped, never recursed into without bound.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluateMarker, markerAcross, MAX_MARKER_DEPTH, parseMarker, type MarkerNode } from '../server/src/core/markers.js';
import { parseManifest } from '../server/src/core/manifests/index.js';
import { choosePins, markerEnvironments, parseRequirement, type Pin } from '../server/src/core/pins.js';
import { pythonPin } from '../server/src/core/manifests/python-pins.js';
import { runCli } from './support/cli.js';
import { writeProject } from './support/project.js';

function tree(text: string): MarkerNode {
  const got = parseMarker(text);
  assert.ok(!('error' in got), `${text}: ${'error' in got ? got.error : ''}`);
  return got;
}

const at = (minor: string, full: string | null = null) => ({ pythonVersion: minor, pythonFullVersion: full });

function req(text: string, line: number, file = 'requirements.txt'): Pin {
  const pin = parseRequirement(text, { file, line });
  assert.ok(!('error' in pin), text);
  return pin;
}

function python(specifier: string): Pin {
  const pin = pythonPin(specifier, { file: 'pyproject.toml', line: 3 });
  assert.ok(!('error' in pin));
  return pin;
}

/** The specifiers in force for numpy: the winner, then its alternatives; [] when none is. */
function inForce(pins: Pin[], name = 'numpy'): string[] {
  const winner = choosePins(pins).pins.get(name);
  return winner ? [winner, ...(winner.alternatives ?? [])].map((p) => p.specifier) : [];
}

const ISSUE = ['numpy==1.26.4; python_version < "3.12"', 'numpy==2.1.0; python_version >= "3.12"'];

describe('reading markers', () => {
  test('PEP 508 forms: and/or precedence, parentheses, either quote, the variable on either side, in / not in, legacy names', () => {
    assert.equal(evaluateMarker(tree('python_version < "3.12"'), at('3.11')).value, true);
    assert.equal(evaluateMarker(tree("'3.12' <= python_version"), at('3.11')).value, false);
    assert.equal(evaluateMarker(tree('python_version in "3.10 3.11"'), at('3.11')).value, true);
    assert.equal(evaluateMarker(tree('python_version not in "3.10 3.11"'), at('3.11')).value, false);
    // and binds tighter than or: false or (true and true)
    assert.equal(evaluateMarker(tree('python_version < "3.8" or python_version >= "3.10" and python_version < "3.12"'), at('3.11')).value, true);
    assert.equal(evaluateMarker(tree('(python_version < "3.8" or python_version >= "3.10") and python_version < "3.11"'), at('3.11')).value, false);
    assert.deepEqual(evaluateMarker(tree('sys.platform == "win32"'), at('3.11')), { value: 'undecided', on: ['sys_platform'] });
    // Kleene: false and unknown is false; true or unknown is true
    assert.equal(evaluateMarker(tree('python_version < "3" and sys_platform == "win32"'), at('3.11')).value, false);
    assert.equal(evaluateMarker(tree('python_version >= "3" or sys_platform == "win32"'), at('3.11')).value, true);
  });

  test('python_full_version: decided where every patch release of the minor agrees, exactly with a known release', () => {
    assert.equal(evaluateMarker(tree('python_full_version >= "3.11.0"'), at('3.11')).value, true);
    assert.equal(evaluateMarker(tree('python_full_version < "3.12"'), at('3.11')).value, true);
    assert.deepEqual(evaluateMarker(tree('python_full_version >= "3.11.5"'), at('3.11')), { value: 'undecided', on: ['python_full_version'] });
    assert.equal(evaluateMarker(tree('python_full_version >= "3.11.5"'), at('3.11', '3.11.7')).value, true);
    assert.equal(evaluateMarker(tree('python_full_version == "3.10.2"'), at('3.11')).value, false);
  });

  test('what is not PEP 508 is an error, never a throw; nesting and length are capped', () => {
    for (const bad of ['', 'python_version <', 'python_version ~ "3"', 'os == "nt"', '"a" == "b"', 'python_version < "3.9" and', '(python_version < "3.9"', 'python_version < "3.9")', 'python_version < "3.9', 'not python_version']) {
      const got = parseMarker(bad);
      assert.ok('error' in got, `${JSON.stringify(bad)} should not read`);
    }
    const deep = (n: number) => `${'('.repeat(n)}python_version < "3.9"${')'.repeat(n)}`;
    assert.ok(!('error' in parseMarker(deep(MAX_MARKER_DEPTH))));
    const tooDeep = parseMarker(deep(100_000));
    assert.ok('error' in tooDeep && /longer than|deeper than/.test(tooDeep.error));
    const nested = parseMarker(deep(MAX_MARKER_DEPTH + 1));
    assert.ok('error' in nested && /deeper than/.test(nested.error));
    const long = parseMarker(Array.from({ length: 2000 }, () => 'extra == "x"').join(' or '));
    assert.ok('error' in long && /longer than/.test(long.error));
  });

  test('across the Pythons a range allows: true, false, or undecided naming the Python variable', () => {
    const envs = markerEnvironments(python('>=3.9'));
    assert.deepEqual(envs.slice(0, 3).map((e) => e.pythonVersion), ['3.9', '3.10', '3.11']);
    assert.deepEqual(markerAcross(tree('python_version >= "3.8"'), envs), { value: true });
    assert.deepEqual(markerAcross(tree('python_version < "3.9"'), envs), { value: false });
    assert.deepEqual(markerAcross(tree('python_version < "3.12"'), envs), { value: 'undecided', on: ['python_version'] });
    assert.deepEqual(markerAcross(tree('python_version < "3.12" and platform_system == "Linux"'), envs), { value: 'undecided', on: ['platform_system', 'python_version'] });
  });
});

describe('markers decide which pin is in force', () => {
  test("the issue's pair: the project's Python picks one; a range spanning both checks both", () => {
    const pins = ISSUE.map((t, i) => req(t, i + 1));
    assert.deepEqual(inForce([...pins, python('>=3.12')]), ['==2.1.0']); // before: ==1.26.4, the first
    assert.deepEqual(inForce([...pins, python('==3.11.*')]), ['==1.26.4']);
    assert.deepEqual(inForce([...pins, python('>=3.9,<3.12')]), ['==1.26.4']);
    assert.deepEqual(inForce([...pins, python('>=3.9')]), ['==1.26.4', '==2.1.0']);
    assert.deepEqual(inForce(pins), ['==1.26.4', '==2.1.0']); // nothing pins Python: any Python 3
    const winner = choosePins([...pins, python('>=3.9')]).pins.get('numpy')!;
    assert.deepEqual(winner.undecided, ['python_version']);
    assert.deepEqual(winner.alternatives?.map((p) => p.undecided), [['python_version']]);
    // the interpreter the editor selected, below the declared range, does not narrow it (precedence: range first)
    const installed: Pin = { distribution: 'python', kind: 'installed', specifier: '==3.13.1', exactVersion: '3.13.1', origin: { file: 'interpreter', line: null } };
    assert.deepEqual(inForce([...pins, installed]), ['==2.1.0']);
  });

  test('a pin whose marker holds nowhere the project runs is not in force; one that always holds is unconditional', () => {
    assert.deepEqual(inForce([req('tomli>=1.1; python_version < "3.11"', 1), python('>=3.11')], 'tomli'), []);
    assert.deepEqual(inForce([req('tomli>=1.1; python_version < "3.11"', 1), python('>=3.9')], 'tomli'), ['>=1.1']);
    // two ranges of one file whose markers always hold are one range, their intersection
    assert.deepEqual(inForce([req('numpy>=1.20; python_version >= "3.8"', 1), req('numpy<2; python_version >= "3"', 2), python('>=3.9')]), ['>=1.20,<2']);
    // a lock entry that does not apply leaves the requirement in force
    const lock: Pin = { distribution: 'numpy', kind: 'lock', specifier: '==1.26.4', exactVersion: '1.26.4', origin: { file: 'uv.lock', line: 9 }, marker: "python_full_version < '3.12'" };
    assert.deepEqual(inForce([lock, req('numpy>=2', 1), python('>=3.12')]), ['>=2']);
    assert.deepEqual(inForce([lock, req('numpy>=2', 1), python('>=3.10,<3.12')]), ['==1.26.4']);
  });

  test('platform markers stay undecided: every alternative is checked, saying what it depends on', () => {
    const pins = [req('numpy==1.26.4; sys_platform == "win32"', 1), req('numpy==2.1.0; sys_platform != "win32"', 2), python('>=3.9')];
    assert.deepEqual(inForce(pins), ['==1.26.4', '==2.1.0']);
    assert.deepEqual(choosePins(pins).pins.get('numpy')!.undecided, ['sys_platform']);
    // a pin alone is in force wherever it applies, with nothing to say
    const alone = choosePins([req('pywin32==306; sys_platform == "win32"', 1)]).pins.get('pywin32')!;
    assert.equal(alone.undecided, undefined);
    assert.equal(alone.alternatives, undefined);
  });

  test('a marker that is not PEP 508 is a problem at its line, and its pin may apply', () => {
    const parsed = parseManifest('requirements.txt', 'numpy==1.26.4; python_version <\nscipy==1.11.0; os == "nt"\npandas==2.0.3; python_version >= "3.9"\n', 'requirements.txt');
    assert.deepEqual(parsed.problems.map((p) => p.line), [1, 2]);
    assert.match(parsed.problems[0]!.message, /^environment marker of numpy not read \(.+\): "python_version <"; the pin counts as one that may apply$/);
    assert.deepEqual(inForce([...parsed.pins, req('numpy==2.1.0', 9)]), ['==1.26.4', '==2.1.0']);
  });
});

describe('the CLI on markers', () => {
  const files = (requiresPython: string) => ({
    'requirements.txt': `${ISSUE.join('\n')}\n`,
    'pyproject.toml': `[project]\nname = "x"\nrequires-python = "${requiresPython}"\n`,
    'a.py': 'import numpy as np\ny = np.trapezoid([1, 2])\n',
  });

  test('a range spanning both pins: the finding under 1.26.4 names its marker, and both pins are said to be undecided', () => {
    const r = runCli(['check'], writeProject(files('>=3.9')));
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /a\.py:2:5: error \[anachronistic-api\] `numpy\.trapezoid` needs numpy ≥ 2\.0 \(pinned 1\.26\.4\) — requirements\.txt:1 pins numpy==1\.26\.4 where python_version < "3\.12"/);
    assert.match(r.stdout, /^undecided: numpy==1\.26\.4 \(requirements\.txt:1\) where python_version < "3\.12" — the marker depends on which Python of those the project allows \(python_version\); checked at 1\.26\.4, like the other pins of numpy$/m);
    assert.match(r.stdout, /^undecided: numpy==2\.1\.0 \(requirements\.txt:2\) where python_version >= "3\.12"/m);
  });

  test('requires-python >=3.12: only numpy 2.1.0 is in force, and numpy.trapezoid is fine there', () => {
    const r = runCli(['check', '--format', 'json'], writeProject(files('>=3.12')));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout) as { findings: unknown[]; coverage: { specifier: string; marker: string | null }[] };
    assert.deepEqual(report.findings, []);
    assert.deepEqual(report.coverage.map((c) => [c.specifier, c.marker]), [['==2.1.0', null]]);
  });
});
