// `check` and `min-versions` split files over worker threads (cli/worker-pool.ts): the output must be what one thread
// gives, byte for byte and in the same order, warnings included (an unreadable file, a manifest problem), with either
// SQLite (each worker chooses its own as the main thread does), run from the bundle (bin/anachron.js over dist/).
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { REPO_ROOT, runCli } from './support/cli.js';

/** A project of many files in a few folders, each folder with its own pins, one of them with a problem. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-workers-'));
  const folders: Record<string, string> = { old: 'numpy==1.24.2\n', new: 'numpy==2.2.4\nscipy==1.15.3\n', range: 'numpy>=1.19,<2\nnot a requirement ===\n' };
  const body = [
    'import numpy as np',
    'from numpy import linalg as la',
    'import scipy.integrate as si',
    '',
    'def f{i}(x):',
    '    y = np.trapezoid(x, dx=2) + np.trapz(x)',
    '    z = np.unique(x, equal_nan=True, return_counts=True)',
    '    w = la.norm(np.asarray(x), ord=2, axis=0)',
    '    return si.simps(y), np.in1d(z, w), np.row_stack([y])',
  ].join('\n');
  for (const [folder, requirements] of Object.entries(folders)) {
    mkdirSync(join(dir, folder));
    writeFileSync(join(dir, folder, 'requirements.txt'), requirements);
    for (let i = 0; i < 6; i++) {
      const text = Array.from({ length: 6 }, (_, k) => body.replaceAll('{i}', `${i}_${k}`)).join('\n\n') + '\n';
      writeFileSync(join(dir, folder, `m${String(i).padStart(2, '0')}.py`), text);
    }
  }
  const unreadable = join(dir, 'old', 'locked.py');
  writeFileSync(unreadable, 'import numpy as np\n');
  chmodSync(unreadable, 0o000);
  return dir;
}

describe('worker threads', () => {
  const dir = project();
  const isRoot = process.getuid?.() === 0; // root reads a file whatever its mode

  for (const args of [['check', '.', '--format', 'json'], ['check', '.'], ['check', '.', '--format', 'sarif'], ['min-versions', '.', '--format', 'json'], ['min-versions', '.']]) {
    test(`${args.join(' ')}: two threads print what one does`, () => {
      const one = runCli([...args, '--jobs', '1'], dir);
      const two = runCli([...args, '--jobs', '2'], dir);
      assert.equal(two.code, one.code, two.stderr);
      assert.equal(two.stdout, one.stdout);
      assert.equal(two.stderr, one.stderr);
      assert.ok(one.stdout.length > 1000, one.stdout);
      assert.match(one.stderr, /range\/requirements\.txt:2/);
      if (!isRoot) assert.match(one.stderr, /cannot read .*locked\.py/);
    });
  }

  test('three threads (this one and two workers taking jobs from one counter, largest files first) print what one does', () => {
    const args = ['check', '.', '--format', 'json'];
    const one = runCli([...args, '--jobs', '1'], dir);
    const three = runCli([...args, '--jobs', '3'], dir);
    assert.equal(three.code, one.code, three.stderr);
    assert.equal(three.stdout, one.stdout);
    assert.equal(three.stderr, one.stderr);
  });

  test('two threads over the WebAssembly SQLite print what one thread over the native one does', () => {
    const args = ['check', '.', '--format', 'json'];
    const native = runCli([...args, '--jobs', '1'], dir, { ANACHRON_SQLITE: 'native' });
    const wasm = runCli([...args, '--jobs', '2'], dir, { ANACHRON_SQLITE: 'wasm' });
    assert.equal(wasm.code, native.code, wasm.stderr);
    assert.equal(wasm.stdout, native.stdout);
    assert.equal(wasm.stderr, native.stderr);
  });

  test('--jobs takes a whole number of threads', () => {
    const r = runCli(['check', '.', '--jobs', '0'], dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--jobs takes a whole number of threads, 1 or more, not 0/);
  });
});

// A real project: this repository's own Python (python-probe, some 17,000 lines in 60-odd files, written for every
// Python from 3.8), judged against the Python matrix: per library, the files that use it, in order, and what forces each
// version.
describe('worker threads on a real multi-file project', () => {
  const project = 'python-probe';
  for (const [args, sqlite, jobs] of [
    [['min-versions', project, '--format', 'json'], 'native', '3'],
    [['min-versions', project, '--format', 'json'], 'wasm', '2'],
  ] as const) {
    test(`${args.join(' ')}: ${jobs} threads over the ${sqlite} SQLite print what one thread over the native one does`, () => {
      const one = runCli([...args, '--jobs', '1'], REPO_ROOT, { ANACHRON_SQLITE: 'native' });
      const many = runCli([...args, '--jobs', jobs], REPO_ROOT, { ANACHRON_SQLITE: sqlite });
      assert.equal(many.code, one.code, many.stderr);
      assert.equal(many.stdout, one.stdout);
      assert.equal(many.stderr, one.stderr);
      assert.match(one.stdout, /python-probe\/anachron_probe\/static\/cli\.py/);
    });
  }
});
