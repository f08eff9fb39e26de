// `anachron matrix add` on a small library written here at two versions, probed through real interpreters.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from './support/cli.js';

const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';

/** Writes toylib at `version` and an interpreter wrapper that has it importable. */
function toylib(root: string, version: string, body: string): string {
  const site = join(root, `site-${version}`);
  mkdirSync(join(site, 'toylib'), { recursive: true });
  writeFileSync(join(site, 'toylib', '__init__.py'), `__version__ = "${version}"\n__all__ = ["area", "Shape"${body.includes('def volume') ? ', "volume"' : ''}]\n${body}`);
  const wrapper = join(root, `python-${version}`);
  writeFileSync(wrapper, `#!/bin/sh\nPYTHONPATH="${site}" exec ${PYTHON} "$@"\n`);
  chmodSync(wrapper, 0o755);
  return wrapper;
}

describe('anachron matrix add', () => {
  test('adds version columns from interpreters, and the checker uses them at once', () => {
    const root = mkdtempSync(join(tmpdir(), 'anachron-add-'));
    const matrices = join(root, 'matrices');
    const v1 = toylib(root, '1.0', 'def area(r):\n    """Area of a circle."""\n    return 3.14 * r * r\n\nclass Shape:\n    def scale(self, k):\n        return k\n');
    const v2 = toylib(root, '2.0', 'def area(r, *, precise=False):\n    """Area of a circle."""\n    return 3.14 * r * r\n\ndef volume(r):\n    return r\n\nclass Shape:\n    def scale(self, k):\n        return k\n');

    const first = runCli(['matrix', 'add', 'toylib==1.0', '--python', v1, '--matrices', matrices]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /added toylib 1\.0: \d+ APIs/);
    assert.ok(existsSync(join(matrices, 'surfaces', 'toylib', 'toylib-1.0.runtime.json.gz')));
    assert.equal(runCli(['matrix', 'add', 'toylib==2.0', '--python', v2, '--matrices', matrices]).code, 0);

    const history = JSON.parse(runCli(['history', 'toylib.volume', 'toylib.area', '--format', 'json', '--matrices', matrices]).stdout);
    assert.deepEqual(history[0].versions.map((v: { state: string }) => v.state), ['absent', 'present']);
    assert.deepEqual(history[1].versions[1].signature.parameters.map((p: { name: string }) => p.name), ['r', 'precise']);

    writeFileSync(join(root, 'use.py'), 'import toylib\ntoylib.volume(1)\ntoylib.area(1, precise=True)\n');
    const r = runCli(['check', 'use.py', '--pin', 'toylib==1.0', '--matrices', matrices, '--format', 'json'], root);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).findings.map((f: { code: string; api: string }) => `${f.code} ${f.api}`), ['anachronistic-api toylib.volume', 'anachronistic-parameter toylib.area']);
    assert.match(runCli(['history', 'toylib.area', '--matrices', matrices]).stdout, /1\.0\s+present\s+area\(r\)/);
  });

  test('an interpreter with another version is refused and the matrix is unchanged', () => {
    const root = mkdtempSync(join(tmpdir(), 'anachron-add-'));
    const v1 = toylib(root, '1.0', 'def area(r):\n    return r\nclass Shape:\n    pass\n');
    const r = runCli(['matrix', 'add', 'toylib==3.0', '--python', v1, '--matrices', join(root, 'm')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /has toylib 1\.0, not 3\.0; the matrix is unchanged/);
    assert.ok(!existsSync(join(root, 'm', 'toylib.sqlite')));
  });

  test('usage errors name what is missing', () => {
    assert.match(runCli(['matrix', 'add', 'toylib']).stderr, /give one exact version/);
    assert.match(runCli(['matrix', 'add', 'toylib==1.0']).stderr, /--python PATH .* or --source DIR/);
    assert.match(runCli(['matrix', 'add', 'toylib==1.0', '--python', '/nonexistent/python']).stderr, /cannot run \/nonexistent\/python/);
  });
});
