// The library files (libraries/*.toml): every one checks, the Python stages read each exactly as the TypeScript
// reader does, a broken file is an error naming the key, and the stages that used to keep their own tables
// (distribution of a matrix, import and Debian names of an environment, docs pages, release plans) answer from them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { LibraryDefinitionError, parseLibraryDefinition, tagOf } from '../server/src/core/library-definition.js';
import { debianPackagesFor } from '../server/src/environments/providers.js';
import { defaultImportName } from '../server/src/environments/registry.js';
import { readLibraryDefinitions } from '../server/src/libraries/definitions.js';
import { runCli } from './support/cli.js';

const FOLDER = join(__dirname, '..', 'libraries');
const PROBE = join(__dirname, '..', 'python-probe');
const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';
const work = mkdtempSync(join(tmpdir(), 'anachron-libraries-'));
after(() => rmSync(work, { recursive: true, force: true }));

const definitions = readLibraryDefinitions(FOLDER);

describe('the library files', () => {
  test('every file checks and is named after its library', () => {
    const files = readdirSync(FOLDER).filter((n) => n.endsWith('.toml') && n !== 'distributions.toml');
    assert.deepEqual(definitions.all.map((d) => `${d.name}.toml`).sort(), files.sort());
  });

  for (const d of definitions.all) {
    test(`${d.name}: the Python stages read it as the TypeScript reader does`, () => {
      const r = spawnSync(PYTHON, ['-m', 'anachron_probe.libraries', d.name], { cwd: PROBE, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout), JSON.parse(JSON.stringify(d)));
    });
  }
});

describe('checking a library file', () => {
  const bad = (data: unknown, stem = 'lib') => () => parseLibraryDefinition(data, `${stem}.toml`, stem);
  test('unknown keys, bad versions, missing sources and a misnamed file are errors naming the key', () => {
    assert.throws(bad({ name: 'lib', distribution: 'lib', sumary: 'x' }), /lib\.toml: sumary: unknown key/);
    assert.throws(bad({ name: 'lib', distribution: 'lib', releases: { first: 'one' }, static: {} }), /releases\.first: "one" is not a PEP 440 version/);
    assert.throws(bad({ name: 'lib', distribution: 'lib', static: { from: 'git' } }), /static\.repository: is required/);
    assert.throws(bad({ name: 'lib', distribution: 'lib', static: { from: 'pypi', tag: 'v{version}' } }), /static\.from: releases read from the package index have no repository or tag/);
    assert.throws(bad({ name: 'lib', distribution: 'lib', static: { from: 'svn' } }), /static\.from: must be one of "git", "pypi", "typeshed" \(got "svn"\)/);
    assert.throws(bad({ name: 'lib', distribution: 'lib', runtime: { python: { '1.0': '3' } } }), /runtime\.python: "3" is not a Python/);
    assert.throws(bad({ name: 'lib', distribution: 'lib', docs: { from: 'sdist', pages: [['d/*.rst']], 'release-commit': 'RLS' } }), /docs\.release-commit: must contain \{version\}/);
    assert.throws(bad({ name: 'lib', distribution: 'lib', static: { from: 'git', repository: 'github:a/b', tag: 'v1' } }), /static\.tag: must contain \{version\}/);
    assert.throws(bad({ name: 'other', distribution: 'lib' }), /name: "other" must match the file name \(lib\.toml\)/);
    assert.throws(bad({ name: 'lib', distribution: 'lib', docs: { pages: 'doc/*.rst' }, static: { from: 'git', repository: 'github:a/b' } }), /docs\.pages: must be a non-empty array/);
    assert.throws(bad({ name: 'lib', distribution: 'lib', runtime: { 'debian-suites': ['sid'] } }), /runtime\.debian-suites: needs runtime\.debian-package/);
    assert.throws(bad({ name: 'lib' }), LibraryDefinitionError);
  });

  test('a file that is not TOML is reported with its line', () => {
    const dir = mkdtempSync(join(work, 'broken-'));
    writeFileSync(join(dir, 'lib.toml'), 'name = "lib"\ndistribution = \n');
    assert.throws(() => readLibraryDefinitions(dir), /lib\.toml: line 2/);
  });

  test('two files claiming one distribution are refused', () => {
    const dir = mkdtempSync(join(work, 'twice-'));
    writeFileSync(join(dir, 'a.toml'), 'name = "a"\ndistribution = "same"\n');
    writeFileSync(join(dir, 'b.toml'), 'name = "b"\ndistribution = "Same"\n');
    assert.throws(() => readLibraryDefinitions(dir), /distribution same is also a's/);
  });

  test('tags follow the pattern and the tag-versions map', () => {
    assert.equal(tagOf('v{version}', '1.24.2'), 'v1.24.2');
    assert.equal(tagOf('{version}', '0.43.0', { '0.24.0': '0.43.0' }), '0.24.0');
  });
});

describe('the stages answer from the library files', () => {
  test('import names and Debian packages of environments', () => {
    assert.equal(defaultImportName('qiskit-terra'), 'qiskit');
    assert.equal(defaultImportName('Pillow'), 'PIL');
    assert.equal(defaultImportName('some-new-lib'), 'some_new_lib');
    assert.deepEqual(debianPackagesFor('torch'), ['python3-torch', 'python3-setuptools']);
    assert.deepEqual(debianPackagesFor('numpy'), ['python3-numpy']);
  });

  test('the Python stages map requirements to modules with the same tables', () => {
    const r = spawnSync(PYTHON, ['-c', 'from anachron_probe.libraries import import_name_of as f; print(f("qiskit-terra"), f("python-dateutil"), f("Some.Lib"))'], { cwd: PROBE, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'qiskit dateutil some_lib');
  });

  test('the static planner takes the release plan from the file', () => {
    const code = [
      'import argparse, json',
      'from anachron_probe.static import batch',
      "a = argparse.Namespace(library='scipy', git_dir=None, tags=[], minors=None, patches=False, external=[], version_map=[])",
      "import os; os.makedirs('" + join(work, 'mirrors', 'scipy+scipy', 'repo') + "', exist_ok=True); os.makedirs('" + join(work, 'mirrors', 'numpy+numpy', 'repo') + "', exist_ok=True)",
      'batch.apply_plan(a); print(json.dumps(vars(a)))',
    ].join('\n');
    const r = spawnSync(PYTHON, ['-c', code], { cwd: PROBE, encoding: 'utf8', env: { ...process.env, ANACHRON_MIRRORS: join(work, 'mirrors') } });
    assert.equal(r.status, 0, r.stderr);
    const plan = JSON.parse(r.stdout) as { minors: string[]; patches: boolean; tags: string[]; external: string[]; git_dir: string };
    assert.deepEqual(plan.minors, ['v1.0.0', 'v1.18.0']);
    assert.equal(plan.patches, true);
    assert.deepEqual(plan.tags, ['v1.6.0', 'v1.10.1', 'v1.15.3', 'v1.17.1']);
    assert.deepEqual(plan.external, [`numpy=${join(work, 'mirrors', 'numpy+numpy', 'repo')}`]);
  });

  test('anachron libraries lists them with what the bundled matrices track', () => {
    const r = runCli(['libraries'], process.cwd());
    assert.equal(r.code, 0, r.stderr);
    for (const d of definitions.all) assert.match(r.stdout, new RegExp(`^${d.name} \\(${d.distribution}\\): `, 'm'));
    const json = runCli(['libraries', 'qiskit-terra', '--json'], process.cwd());
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual((JSON.parse(json.stdout) as { name: string }[]).map((d) => d.name), ['qiskit']);
    const unknown = runCli(['libraries', 'nosuch'], process.cwd());
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no library file for nosuch \(known: /);
  });
});
