// Python pinned like a library: where its pins come from (docs/pins.md, "Python itself"), which tracked series a pin
// selects, and which pin wins.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseManifest } from '../server/src/core/manifests/index.js';
import { pythonVersionsAllowed } from '../server/src/core/manifests/python-pins.js';
import { choosePins, type Pin } from '../server/src/core/pins.js';
import { seriesAllowedBy, seriesOf } from '../server/src/core/version-series.js';

const SERIES = ['3.8', '3.9', '3.10', '3.11', '3.12', '3.13', '3.14'];

const python = (file: string, text: string) => parseManifest(file, text, file).pins.filter((p) => p.distribution === 'python');

describe('the series a Python pin selects', () => {
  const cases: [string, string][] = [
    ['>=3.9', '3.9 3.10 3.11 3.12 3.13 3.14'],
    ['>=3.9.2', '3.9 3.10 3.11 3.12 3.13 3.14'],
    ['>=3.8, <3.13', '3.8 3.9 3.10 3.11 3.12'],
    ['~=3.10', '3.10 3.11 3.12 3.13 3.14'],
    ['==3.11.*', '3.11'],
    ['!=3.9.*,>=3.8', '3.8 3.10 3.11 3.12 3.13 3.14'],
    ['>3.9.5,<3.9.7', '3.9'],
    ['>=3.10,<4.0', '3.10 3.11 3.12 3.13 3.14'],
    ['<3.8', ''],
  ];
  for (const [spec, expected] of cases) test(spec, () => assert.equal(seriesAllowedBy(spec, SERIES).join(' '), expected));
  test('an exact version belongs to its series', () => {
    assert.equal(seriesOf('3.11.7', SERIES), '3.11');
    assert.equal(seriesOf('3.1.4', SERIES), null);
    assert.equal(seriesOf('3.10', SERIES), '3.10');
  });
});

describe('where Python pins come from', () => {
  const cases: [string, string, string, string][] = [
    // file, text, specifier, kind
    ['pyproject.toml', '[project]\nname = "a"\nrequires-python = ">=3.9"\n', '>=3.9', 'requirement'],
    ['pyproject.toml', '[tool.poetry]\nname = "a"\n[tool.poetry.dependencies]\npython = "^3.9"\nnumpy = "^1.24"\n', '>=3.9,<4.0', 'requirement'],
    ['setup.cfg', '[metadata]\nname = a\n[options]\npython_requires = >=3.8\n', '>=3.8', 'requirement'],
    ['setup.py', 'from setuptools import setup\nsetup(name="a", python_requires=">=3.7")\n', '>=3.7', 'requirement'],
    ['setup.py', "setup(**{'python_requires': '>=3.10'})\n", '>=3.10', 'requirement'],
    ['environment.yml', 'dependencies:\n  - python=3.10\n  - numpy=1.24\n', '==3.10.*', 'requirement'],
    ['Pipfile', '[packages]\nnumpy = "*"\n[requires]\npython_version = "3.11"\n', '==3.11.*', 'requirement'],
    ['Pipfile.lock', '{"_meta": {"requires": {"python_full_version": "3.11.4"}}, "default": {}}', '==3.11.4', 'requirement'],
    ['uv.lock', 'version = 1\nrequires-python = ">=3.10"\n', '>=3.10', 'lock'],
    ['pylock.toml', 'lock-version = "1.0"\nrequires-python = ">=3.11"\n', '>=3.11', 'lock'],
    ['.python-version', '3.12\n', '==3.12.*', 'installed'],
    ['.python-version', '# pinned by pyenv\n3.11.7\n3.12.1\n', '==3.11.7', 'installed'],
    ['.python-version', 'cpython-3.13\n', '==3.13.*', 'installed'],
    ['.python-version', '3.13t\n', '==3.13.*', 'installed'],
  ];
  for (const [file, text, specifier, kind] of cases) {
    test(`${file}: ${text.split('\n').find((l) => /python|3\./.test(l))?.trim()}`, () => {
      const pins = python(file, text);
      assert.deepEqual(pins.map((p) => [p.specifier, p.kind]), [[specifier, kind]]);
    });
  }
  test('nothing to pin: a bare conda python, system, another implementation, a computed python_requires', () => {
    assert.deepEqual(python('environment.yml', 'dependencies:\n  - python\n'), []);
    assert.deepEqual(python('.python-version', 'system\n'), []);
    assert.deepEqual(python('.python-version', 'pypy3.10\n'), []);
    assert.deepEqual(python('setup.py', 'setup(python_requires=REQUIRES)\n'), []);
  });
  test('bad values are problems at their line, the rest still counts', () => {
    const parsed = parseManifest('pyproject.toml', '[project]\nname = "a"\nrequires-python = ">=three"\ndependencies = ["numpy==1.24.2"]\n', 'pyproject.toml');
    assert.deepEqual(parsed.problems.map((p) => p.line), [3]);
    assert.deepEqual(parsed.pins.map((p) => p.distribution), ['numpy']);
    assert.deepEqual(parseManifest('.python-version', 'three\n', '.python-version').problems.map((p) => [p.line, p.message]), [[1, '"three" is not a Python version such as 3.12 or 3.11.7']]);
  });
});

describe('which Python pin wins', () => {
  const pinsOf = (...files: [string, string][]): Pin[] => files.flatMap(([f, t]) => python(f, t));
  test('what the project declares beats the interpreter it selects', () => {
    const chosen = choosePins(pinsOf(['.python-version', '3.12\n'], ['pyproject.toml', '[project]\nname = "a"\nrequires-python = ">=3.9"\n']));
    assert.equal(chosen.pins.get('python')?.specifier, '>=3.9');
    assert.deepEqual(pythonVersionsAllowed(chosen.pins, SERIES), ['3.9', '3.10', '3.11', '3.12', '3.13', '3.14']);
  });
  test('with nothing declared, the selected interpreter decides', () => {
    const chosen = choosePins(pinsOf(['.python-version', '3.11.7\n']));
    assert.deepEqual(pythonVersionsAllowed(chosen.pins, SERIES), ['3.11']);
  });
  test('no Python pin: null', () => assert.equal(pythonVersionsAllowed(new Map(), SERIES), null));
});
