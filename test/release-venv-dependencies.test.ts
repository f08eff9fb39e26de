// The venv a release is probed in has the dependencies of its time, its requirements' requirements included: a real
// index on 127.0.0.1 serves toplib 1.0 (2020), which requires midlib; midlib 1.0 (2020) requires leaflib, whose 2.0
// (2021, after toplib) dropped the `old` midlib imports. Bounding only toplib's own requirements would install
// leaflib 2.0 and toplib would not import (Flask 1.1's Jinja2 2.10 against MarkupSafe 2.1); the venv gets leaflib 1.0.
// An optional requirement the library file names (runtime.venv-requirements) is installed beside the release, bounded
// the same way: optlib 1.0 exports `spectral` only where optdep imports (networkx 2.0-2.5 and scipy).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { startPackageIndex, type FakeIndex } from './support/package-index.js';

const PROBE = join(__dirname, '..', 'python-probe');
const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';
const work = mkdtempSync(join(tmpdir(), 'anachron-venv-deps-'));
const libraries = join(work, 'libraries');
mkdirSync(libraries);
let index: FakeIndex;

before(async () => {
  writeFileSync(join(libraries, 'optlib.toml'), 'name = "optlib"\ndistribution = "optlib"\n\n[releases]\nfirst = "1.0"\n\n[static]\nfrom = "pypi"\n\n[runtime]\nvenv = true\nvenv-requirements = ["optdep"]\n');
  writeFileSync(join(libraries, 'toplib.toml'), 'name = "toplib"\ndistribution = "toplib"\n\n[releases]\nfirst = "1.0"\n\n[static]\nfrom = "pypi"\n\n[runtime]\nvenv = true\n');
  index = await startPackageIndex(PYTHON, join(work, 'index'), [
    { name: 'toplib', version: '1.0', requires: ['midlib'], requiresPython: '>=3.8', uploadedAt: '2020-06-01T00:00:00Z', code: 'from midlib import helper\n\ndef twice(x):\n    return helper(x) * 2\n' },
    { name: 'midlib', version: '1.0', requires: ['leaflib'], uploadedAt: '2020-01-01T00:00:00Z', code: 'from leaflib import old as helper\n' },
    { name: 'leaflib', version: '1.0', uploadedAt: '2019-01-01T00:00:00Z', code: 'def old(x):\n    return x\n' },
    { name: 'leaflib', version: '2.0', uploadedAt: '2021-01-01T00:00:00Z', code: 'def new(x):\n    return x\n' },
    { name: 'optlib', version: '1.0', requiresPython: '>=3.8', uploadedAt: '2020-06-01T00:00:00Z', code: 'from optlib.spectra import *\n', modules: { 'spectra.py': 'try:\n    from optdep import eigh\n    __all__ = ["spectral"]\nexcept ImportError:\n    __all__ = []\n\ndef spectral(G):\n    return eigh(G)\n' } },
    { name: 'optdep', version: '1.0', uploadedAt: '2020-01-01T00:00:00Z', code: 'def eigh(x):\n    return x\n' },
    { name: 'optdep', version: '2.0', uploadedAt: '2021-01-01T00:00:00Z', code: 'def eigvals(x):\n    return x\n' },
  ]);
});
after(async () => {
  await index?.close();
  rmSync(work, { recursive: true, force: true });
});

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(PYTHON, args, { cwd: PROBE, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (status) => resolve({ status, out }));
  });
}

type Surface = { provenance: Record<string, string>; apis: { path: string }[] };

/** The runtime probe of LIB 1.0 in a venv of its time, from the index: its output and the surface it wrote. */
async function probeRelease(lib: string, name: string): Promise<{ r: { status: number | null; out: string }; s: Surface }> {
  const out = join(work, name);
  mkdirSync(out);
  const r = await run(['-m', 'anachron_probe.releases.runtime', lib, '--out-dir', out, '--versions', '1.0', '--venvs', join(work, `venvs-${name}`)], {
    ANACHRON_PACKAGE_INDEX: index.url, ANACHRON_RELEASE_CACHE: join(work, 'cache'), ANACHRON_LIBRARIES: libraries, ANACHRON_PYTHONS: PYTHON, PIP_FIND_LINKS: '', PIP_NO_INDEX: '',
  });
  assert.equal(r.status, 0, r.out);
  const s = JSON.parse(gunzipSync(readFileSync(join(out, `${lib}-1.0.runtime.json.gz`))).toString('utf8')) as Surface;
  return { r, s };
}

describe('the dependencies of a probed release', () => {
  test("a requirement's requirement newer than the release is brought back to the release's time", async () => {
    const { r, s } = await probeRelease('toplib', 'runtime');
    assert.match(r.out, /brought back to the release's time: leaflib<=1\.0/);
    assert.match(r.out, /toplib 1\.0 .* probed/);
    assert.match(s.provenance.packages!, /(^| )leaflib==1\.0( |$)/);
    assert.match(s.provenance.packages!, /(^| )midlib==1\.0( |$)/);
    assert.ok(s.apis.some((a) => a.path === 'toplib.twice'));
    assert.deepEqual(readdirSync(join(work, 'venvs-runtime')), []);
  });

  test('an optional requirement the library file names is installed, bounded to the release\'s time', async () => {
    const { s } = await probeRelease('optlib', 'runtime-opt');
    assert.match(s.provenance.packages!, /(^| )optdep==1\.0( |$)/);
    const paths = s.apis.map((a) => a.path);
    assert.ok(paths.includes('optlib.spectral'), paths.join(' '));  // star-imported only where optdep imports
  });
});
