// Hostile shapes and sizes, each fed for real: matrices that open but hold the wrong shapes (signatures that are no
// lists, meta that is no list of names, parents in a cycle), names of 50,000 segments, a 100,000-segment attribute chain
// checked by the CLI under a 512 MB heap, 10,000 nested calls, lock files nested 10,000 deep, a requirements file of
// 150,000 lines. Each must give an answer or a problem
// that names the file, never a raw JS error, a stack overflow or an out-of-memory abort.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteMatrix } from '../../server/src/store/sqlite-matrix.js';
import { pinsForFile } from '../../server/src/workspace/manifests.js';
import { REPO_ROOT } from '../support/cli.js';
import { api, buildSyntheticMatrices, p, surface } from '../support/synthetic-matrix.js';

function toyMatrices(): string {
  const apis = (withKeyword: boolean) => [api('toy', 'module'), api('toy.f', 'function', withKeyword ? [p('x'), p('y', 'kw', 'None')] : [p('x')], 'Adds things.'), api('toy.g', 'function', [p('x')])];
  return buildSyntheticMatrices([surface('toy', '1.0', apis(false)), surface('toy', '2.0', apis(true))], [surface('other', '1.0', [api('other', 'module'), api('other.h', 'function', [])]), surface('other', '2.0', [api('other', 'module')])]);
}

function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'anachron.js'), ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 300_000 });
  assert.equal(r.signal, null, `the CLI was killed (${r.signal})\n${r.stderr?.slice(0, 2000)}`);
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function project(code: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-shapes-'));
  writeFileSync(join(dir, 'requirements.txt'), 'toy==1.0\nother==1.0\n');
  writeFileSync(join(dir, 'a.py'), code);
  return dir;
}

describe('matrices that open but hold the wrong shapes', () => {
  test('signatures that are no lists of parameters give no signature; the rest of the matrix still answers', () => {
    const matrices = toyMatrices();
    const db = new Database(join(matrices, 'toy.sqlite'));
    assert.ok(db.prepare(`UPDATE signatures SET parameters = '{"name": 1}' WHERE parameters LIKE '%"y"%'`).run().changes > 0);
    db.prepare(`UPDATE signatures SET parameters = '[{"name": "x", "kind": 3}]' WHERE parameters NOT LIKE '{%'`).run();
    db.close();
    const dir = project('import toy\nimport other\ntoy.f(1, y=2)\ntoy.g(1)\nother.h()\ntoy.gone()\n');
    const r = cli(['check', '.', '--matrices', matrices, '--format', 'json'], dir);
    assert.doesNotMatch(r.stderr, /internal error|is not a function|TypeError/, r.stderr);
    assert.equal(r.code, 1, r.stderr);
    const findings = (JSON.parse(r.stdout) as { findings: { line: number; api?: string }[] }).findings;
    assert.deepEqual(findings.map((f) => f.line), [6], JSON.stringify(findings));
  });

  test('meta that is no list of names makes the matrix unusable: it is reported, named, skipped; the other matrix still works', () => {
    const matrices = toyMatrices();
    const db = new Database(join(matrices, 'toy.sqlite'));
    db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('import_roots', '{"toy": 1}')`).run();
    db.close();
    assert.throws(() => new SqliteMatrix(join(matrices, 'toy.sqlite')), /toy\.sqlite: not a usable anachron matrix: meta import_roots is not a list of names/);
    const dir = project('import toy\nimport other\nother.h()\n');
    writeFileSync(join(dir, 'requirements.txt'), 'toy==1.0\nother==2.0\n');
    const r = cli(['check', '.', '--matrices', matrices], dir);
    assert.doesNotMatch(r.stderr, /internal error/, r.stderr);
    assert.match(r.stderr, /toy\.sqlite: not a usable anachron matrix: meta import_roots is not a list of names/);
    assert.match(r.stdout, /a\.py:3:\d+: .*`other\.h` was removed in other 2\.0 \(pinned 2\.0\)/);
  });

  test('parents in a cycle are a problem naming the matrix, not a stack overflow', () => {
    const matrices = toyMatrices();
    const file = join(matrices, 'toy.sqlite');
    const db = new Database(file);
    const f = db.prepare(`SELECT id FROM apis WHERE name = 'f'`).get() as { id: number };
    const root = db.prepare(`SELECT id FROM apis WHERE parent_id = 0`).get() as { id: number };
    db.prepare('UPDATE apis SET parent_id = ? WHERE id = ?').run(f.id, root.id);
    db.close();
    const matrix = new SqliteMatrix(file);
    try {
      assert.throws(() => matrix.apisWithDoc('Adds things.'), (e: Error) => !(e instanceof RangeError) && /toy\.sqlite: not a usable anachron matrix: the parents of API \d+ form a cycle/.test(e.message));
    } finally {
      matrix.close();
    }
  });

  test('a name of 50,000 segments is looked up without recursion', () => {
    const matrices = toyMatrices();
    const matrix = new SqliteMatrix(join(matrices, 'toy.sqlite'));
    try {
      assert.equal(matrix.lookup(`toy.${Array(50_000).fill('a').join('.')}`), undefined);
      assert.equal(matrix.lookup(`toy.f.${Array(50_000).fill('a').join('.')}`), undefined);
      assert.equal(matrix.lookup('toy.f')?.kind, 'function');
    } finally {
      matrix.close();
    }
  });
});

describe('pathological sizes', () => {
  test('a 100,000-segment attribute chain is checked in a 512 MB heap, its first segments still judged', () => {
    const dir = project(`import toy\ntoy.${Array(100_000).fill('a').join('.')}\n`);
    const r = cli(['check', '.', '--matrices', toyMatrices(), '--jobs', '1'], dir, { NODE_OPTIONS: '--max-old-space-size=512' });
    assert.doesNotMatch(r.stderr, /internal error|heap out of memory/, r.stderr);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /a\.py:2:1: .*`toy\.a` is in no tracked version of toy/);
  });

  test('10,000 nested calls are checked to the innermost, and the code after them too', () => {
    const depth = 10_000;
    const dir = project(`import toy\ny = ${'toy.g('.repeat(depth)}toy.gone()${')'.repeat(depth)}\ntoy.gone()\n`);
    const r = cli(['check', '.', '--matrices', toyMatrices(), '--jobs', '1', '--format', 'json'], dir);
    assert.doesNotMatch(r.stderr, /internal error|Maximum call stack/, r.stderr);
    assert.equal(r.code, 1, r.stderr);
    const findings = (JSON.parse(r.stdout) as { findings: { line: number; column: number }[] }).findings;
    assert.deepEqual(findings.map((f) => [f.line, f.column]), [[2, 5 + depth * 'toy.g('.length], [3, 1]]);
  });

  test('lock files and environments nested 10,000 deep are a problem naming the file, never a stack overflow', () => {
    const n = 10_000;
    const nested = (open: string, close: string) => `${open.repeat(n)}${close.repeat(n)}`;
    const cases: [string, string, RegExp][] = [
      ['Pipfile.lock', `{"default": {"numpy": {"version": "==1.24.2"}}, "x": ${nested('[', ']')}}`, /^invalid JSON: nested deeper than \d+ levels$/],
      ['uv.lock', `version = 1\n[[package]]\nname = "numpy"\nversion = "1.24.2"\nx = ${nested('{a = ', '}')}\n`, /^invalid TOML/],
      ['poetry.lock', `[[package]]\nname = "numpy"\nversion = "1.24.2"\nx = ${nested('[', ']')}\n`, /^invalid TOML/],
      ['pyproject.toml', `[project]\nname = "x"\ndependencies = ["numpy==1.24.2"]\nx = ${nested('[', ']')}\n`, /^invalid TOML/],
      ['environment.yml', `name: x\ndependencies:\n  - numpy=1.24.2\nnested: ${nested('[', ']')}\n`, /^invalid YAML: nested deeper than 256 levels$/],
    ];
    // Brackets in quotes and comments are no nesting: such a file is read as usual.
    const quoted = mkdtempSync(join(tmpdir(), 'anachron-deep-'));
    writeFileSync(join(quoted, 'environment.yml'), `name: "${'['.repeat(300)}"\n# ${'{'.repeat(300)}\ndependencies:\n  - numpy=1.24.2\n  - pip:\n    - 'x${'['.repeat(300)}'\n`);
    const read = pinsForFile(join(quoted, 'a.py'), { displayBase: quoted });
    assert.equal(read.pins.get('numpy')?.specifier, '==1.24.2');
    assert.deepEqual(read.problems.filter((p) => /nested/.test(p.message)), []);
    for (const [name, text, problem] of cases) {
      const dir = mkdtempSync(join(tmpdir(), 'anachron-deep-'));
      writeFileSync(join(dir, name), text);
      const pins = pinsForFile(join(dir, 'a.py'), { displayBase: dir });
      assert.equal(pins.problems.length, 1, `${name}: ${JSON.stringify(pins.problems)}`);
      assert.equal(pins.problems[0]!.file, name);
      assert.match(pins.problems[0]!.message, problem, name);
    }
  });

  test('a requirements file of 150,000 lines gives its pins, no stack overflow', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-long-'));
    mkdirSync(join(dir, 'p'));
    const lines = ['numpy==1.24.2'];
    for (let i = 0; i < 150_000; i++) lines.push(`pkg${i}==1.${i}`);
    writeFileSync(join(dir, 'p', 'requirements.txt'), lines.join('\n') + '\n');
    const pins = pinsForFile(join(dir, 'p', 'a.py'), { displayBase: dir });
    assert.equal(pins.pins.size, 150_001);
    assert.equal(pins.pins.get('numpy')?.specifier, '==1.24.2');
    assert.equal(pins.pins.get('pkg149999')?.origin.line, 150_001);
  });
});
