// A range that allows no version at all (numpy>=2.0,<1.0, numpy<0) is a manifest problem at its line: before, it
// passed silently apart from a "not checked" coverage line (and min-versions' verdict on it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseManifest } from '../server/src/core/manifests/index.js';
import { allowsNoVersion } from '../server/src/core/versions.js';

test('allowsNoVersion: crossing bounds, <0, two == pins, wildcards and ~= ranges; satisfiable ranges are not flagged', () => {
  for (const empty of ['>=2.0,<1.0', '<0', '>1.0,<1.0', '>1.0,<=1.0', '==1.2,==1.3', '==1.2.*,>=1.3', '~=1.4.2,<1.4', '>=3.12,<3.10', '<0.0', '<=1.0,>=1.0.1']) {
    assert.equal(allowsNoVersion(empty), true, empty);
  }
  for (const fine of ['>=1.0,<2.0', '<=0', '>=1.0,<=1.0', '==1.2.*', '~=1.4.2', '!=1.0', '>=2.0,!=2.1', '===foo', '>=1.0,<1.0.1', '~=2.2,<2.3', '']) {
    assert.equal(allowsNoVersion(fine), false, fine);
  }
});

test('a requirements line and requires-python that allow no version are problems at their lines; satisfiable lines are not', () => {
  const req = parseManifest('requirements.txt', 'numpy>=2.0,<1.0\nscipy<0\npandas>=1.5,<3\nrequests==2.31.0\n', 'requirements.txt');
  assert.deepEqual(req.problems.map((p) => [p.line, p.message]), [
    [1, 'numpy>=2.0,<1.0 allows no version at all: nothing can be installed or checked for it'],
    [2, 'scipy<0 allows no version at all: nothing can be installed or checked for it'],
  ]);
  const pyproject = parseManifest('pyproject.toml', '[project]\nname = "x"\nrequires-python = ">=3.12,<3.10"\ndependencies = ["numpy>=1.21"]\n', 'pyproject.toml');
  assert.deepEqual(pyproject.problems.map((p) => [p.line, p.message]), [[3, 'python>=3.12,<3.10 allows no version at all: nothing can be installed or checked for it']]);
});
