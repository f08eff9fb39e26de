// The one list of manifest names (core/manifests/names.ts) and everything that watches manifests by name: the
// language server's file watchers, the extension's document selector, file watchers and activation events. A name
// the server reads is matched by the glob; a name it does not read (Cargo.lock, yarn.lock) is not. (What the
// manifest search finds below a project is watched too: manifest-search.test.ts.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, matchesGlob } from 'node:path';
import { describe, test } from 'node:test';
import { isManifestName, MANIFEST_GLOB, manifestFormatOf } from '../server/src/core/manifests/names.js';

const REPO = join(__dirname, '..');

/** File names and the format anachron reads each in (undefined: not a manifest). */
const NAMES: [string, string | undefined][] = [
  ['uv.lock', 'uv.lock'],
  ['poetry.lock', 'poetry.lock'],
  ['pdm.lock', 'pdm.lock'],
  ['pylock.toml', 'pylock.toml'],
  ['pylock.dev.toml', 'pylock.toml'],
  ['Pipfile.lock', 'Pipfile.lock'],
  ['Pipfile', 'Pipfile'],
  ['requirements.txt', 'requirements'],
  ['requirements-dev.txt', 'requirements'],
  ['requirements.in', 'requirements'],
  ['constraints.txt', 'requirements'],
  ['environment.yml', 'conda'],
  ['environment-py39.yaml', 'conda'],
  ['.python-version', '.python-version'],
  ['pyproject.toml', 'pyproject.toml'],
  ['setup.cfg', 'setup.cfg'],
  ['setup.py', 'setup.py'],
  ['Cargo.lock', undefined],
  ['yarn.lock', undefined],
  ['package.json', undefined],
  ['README.md', undefined],
  ['tox.ini', undefined],
];

describe('manifest names', () => {
  test('each name has its format, and the manifest glob matches exactly the names that are manifests', () => {
    for (const [name, format] of NAMES) {
      assert.equal(manifestFormatOf(name), format, name);
      assert.equal(isManifestName(join('proj', 'sub', name)), format !== undefined, name);
      assert.equal(matchesGlob(`proj/sub/${name}`, MANIFEST_GLOB), format !== undefined, `${name} against ${MANIFEST_GLOB}`);
    }
  });

  test('the extension activates on a workspace holding any manifest, with the same glob', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { activationEvents: string[] };
    assert.deepEqual(pkg.activationEvents.filter((e) => e.startsWith('workspaceContains:')), [`workspaceContains:${MANIFEST_GLOB}`]);
  });
});
