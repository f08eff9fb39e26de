// A range that allows no version at all (numpy>=2.0,<1.0, numpy<0) is a manifest problem at its line: before, it
// passed silently apart from a "not checked" coverage line, and min-versions called it ok, also in a manifest of
// lower precedence than the one in force.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseManifest } from '../server/src/core/manifests/index.js';
import { allowsNoVersion } from '../server/src/core/versions.js';
import { runCli } from './support/cli.js';
import { writeProject } from './support/project.js';

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

test('min-versions: a declaration that allows no version is wrong, in the manifest in force and in one of lower precedence beside it', () => {
  // pyproject.toml is in force for numpy; setup.cfg beside it declares numpy too, and is the only one to name scipy.
  const dir = writeProject({
    'pyproject.toml': '[project]\nname = "x"\ndependencies = ["numpy>=2.0"]\n',
    'setup.cfg': '[options]\ninstall_requires =\n    numpy>=2.0,<1.0\n    scipy<0\n',
    'a.py': 'import numpy as np\nimport scipy.integrate\ny = np.trapezoid([1])\n',
  });
  const r = runCli(['min-versions', '.', '--format', 'json'], dir);
  assert.equal(r.code, 1, r.stderr);
  const verdicts = (JSON.parse(r.stdout) as { declared: { requirement: string; source: string } | null; verdict: string }[]).map((x) => [x.declared?.requirement, x.declared?.source, x.verdict]);
  assert.deepEqual(verdicts, [
    ['numpy>=2.0', 'pyproject.toml:3', 'ok'],
    ['numpy>=2.0,<1.0', 'setup.cfg:3', 'allows-nothing'],
    ['scipy<0', 'setup.cfg:4', 'allows-nothing'],
  ]);
  const text = runCli(['min-versions', '.'], dir);
  assert.match(text.stdout, /declared: scipy<0 \(setup\.cfg:4\): ALLOWS NO VERSION AT ALL, so nothing can be installed; require scipy>=1\.0\.0/);
  assert.match(text.stdout, /2 declared requirements are wrong for the code: numpy>=2\.0,<1\.0, scipy<0\./);
});
