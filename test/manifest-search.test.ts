// The manifest search (workspace/manifest-search.ts) and how pinsForFile uses it: manifests where projects keep them
// when nothing beside or above a file pins a library; [tool.anachron] manifests and the editor's paths instead.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, matchesGlob, relative } from 'node:path';
import { describe, test } from 'node:test';
import { diskReader, pinsForFile } from '../server/src/workspace/manifests.js';
import { MANIFEST_GLOB } from '../server/src/core/manifests/names.js';
import { searchManifests, SEARCHED_MANIFEST_GLOBS } from '../server/src/workspace/manifest-search.js';
import { writeProject } from './support/project.js';

const pinsOf = (r: ReturnType<typeof pinsForFile>) => [...r.pins.values()].map((p) => `${p.distribution}${p.specifier} ${p.origin.file}:${p.origin.line}`);

describe('manifest search', () => {
  test('finds the usual layouts, ranks what the project runs first; skips environments, build output, docs, examples, sub-projects', () => {
    const dir = writeProject({
      'requirements/base.txt': 'numpy==1.24.2\n',
      'requirements/test.txt': 'pytest\n',
      'requirements/notes.md': 'numpy==1\n',
      'ci/requirements-py39.txt': 'numpy==1.19.5\n',
      'ci/azure.yml': 'jobs: []\n',
      'docker/requirements.txt': 'numpy==1.24.2\n',
      'envs/py310.yml': 'dependencies:\n  - numpy=1.26\n',
      'binder/environment.yml': 'dependencies:\n  - numpy=1.26\n',
      'dev-requirements.txt': 'ruff\n',
      '.venv/requirements.txt': 'numpy==2.0\n',
      'venv2/pyvenv.cfg': 'home = /usr\n',
      'venv2/requirements.txt': 'numpy==2.0\n',
      'node_modules/x/requirements.txt': 'numpy==2.0\n',
      'a/b/c/d/requirements.txt': 'numpy==2.0\n',
      'sub/pyproject.toml': '[project]\nname="sub"\n',
      'sub/requirements.txt': 'numpy==2.0\n',
      'examples/demo/requirements.txt': 'numpy==2.0\n',
      'docs/requirements.txt': 'sphinx\nnumpy==2.0\n',
      'tools/deps/py39.txt': 'numpy==1.19.5\n',
      'tools/other/requirements.txt': 'numpy==2.0\n',
    });
    const found = searchManifests(dir, diskReader).map((c) => `${relative(dir, c.file)} ${c.format} ${c.rank}`);
    assert.deepEqual(found, [
      'binder/environment.yml conda 0',
      'docker/requirements.txt requirements 0',
      'requirements/base.txt requirements 0',
      'ci/azure.yml conda 1',
      'ci/requirements-py39.txt requirements 1',
      'envs/py310.yml conda 1',
      'tools/deps/py39.txt requirements 1',
      'requirements/test.txt requirements 2',
    ]);
    // The language server's and the extension's file watchers see each of them change.
    const globs = [MANIFEST_GLOB, ...SEARCHED_MANIFEST_GLOBS];
    for (const c of searchManifests(dir, diskReader)) {
      const file = relative(dir, c.file);
      assert.ok(globs.some((g) => matchesGlob(file, g)), `${file} is watched by none of ${globs.join(' ')}`);
    }
  });

  test('only when the folders at and above the file pin no library; the best candidate that pins one is read with its includes', () => {
    const dir = writeProject({
      '.git/HEAD': '',
      'pyproject.toml': '[project]\nname = "x"\nrequires-python = ">=3.9"\n',
      'ci/azure.yml': 'jobs: []\n',
      'requirements/requirements.txt': '-r common.txt\nscipy==1.10.1\n',
      'requirements/common.txt': 'numpy==1.24.2\n',
      'src/x/a.py': '',
    });
    const got = pinsForFile(join(dir, 'src', 'x', 'a.py'), { displayBase: dir });
    // requirements.txt, which includes common.txt, is read (common.txt sorts first by path, but is part of it).
    assert.deepEqual(pinsOf(got), ['scipy==1.10.1 requirements/requirements.txt:2', 'numpy==1.24.2 requirements/common.txt:1', 'python>=3.9 pyproject.toml:3']);
    assert.equal(got.found?.how, 'searched');
    assert.equal(got.found?.ambiguous, false, 'common.txt is read with requirements.txt: no rival');
    assert.equal(got.found?.searchRoot, dir, 'the git repository, as the CLI has no workspace folder');

    const pinned = writeProject({ 'requirements.txt': 'numpy==2.2.4\n', 'requirements/base.txt': 'numpy==1.24.2\n', 'a.py': '' });
    const near = pinsForFile(join(pinned, 'a.py'), { root: pinned, displayBase: pinned });
    assert.deepEqual(pinsOf(near), ['numpy==2.2.4 requirements.txt:1']);
    assert.equal(near.found, null);
  });

  test('[tool.anachron] manifests names them (confined to the project); the editor\'s paths win over it', () => {
    const outside = writeProject({ 'secret.txt': 'numpy==1.0\n' });
    const dir = writeProject({
      'pyproject.toml': `[project]\nname = "x"\n\n[tool.anachron]\nmanifests = ["deps/run.txt", "${join(outside, 'secret.txt')}"]\n`,
      'deps/run.txt': 'numpy==1.24.2\n',
      'deps/other.txt': 'numpy==2.2.4\n',
      'a.py': '',
    });
    mkdirSync(join(dir, '.git'));
    const got = pinsForFile(join(dir, 'a.py'), { displayBase: dir });
    assert.deepEqual(pinsOf(got), ['numpy==1.24.2 deps/run.txt:1']);
    assert.equal(got.found?.how, 'configured');
    assert.match(got.problems.map((p) => p.message).join('\n'), /lies outside the project/);
    assert.deepEqual(got.settings.manifests, ['deps/run.txt', join(outside, 'secret.txt')]);

    const editor = pinsForFile(join(dir, 'a.py'), { displayBase: dir, manifestPaths: [join(dir, 'deps', 'other.txt')] });
    assert.deepEqual(pinsOf(editor), ['numpy==2.2.4 deps/other.txt:1']);
    assert.deepEqual(editor.found?.chosen, [join(dir, 'deps', 'other.txt')]);
  });
});
