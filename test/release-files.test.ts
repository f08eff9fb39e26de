// Releases read from the files a package index published: a real PEP 691 index on 127.0.0.1 serving a small
// library's sdists and wheels (built here), the static planner over them (every minor, the patch releases whose
// surface differs, provenance naming the file and its sha256), a file whose hash is wrong refused, the documented
// surface read from an sdist, static extraction of an archive or a wheel, and a runtime surface probed in a venv
// that pip fills from the same index.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';

const PROBE = join(__dirname, '..', 'python-probe');
const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';
const work = mkdtempSync(join(tmpdir(), 'anachron-release-files-'));
const files = join(work, 'files');
const libraries = join(work, 'libraries');
mkdirSync(files);
mkdirSync(libraries);

// relib's history: 1.0.0; 1.0.1 changes nothing public; 1.0.2 adds `extra` (and imports numpy, which its
// requires.txt names under a marker); 1.1.0 renames `scale`'s keyword.
const SOURCES: Record<string, string> = {
  '1.0.0': 'def scale(x, factor=2):\n    """Multiply."""\n    return x * factor\n',
  '1.0.1': 'def scale(x, factor=2):\n    """Multiply (faster)."""\n    return factor * x\n',
  '1.0.2': 'import numpy as _np\n\ndef scale(x, factor=2):\n    """Multiply."""\n    return x * factor\n\ndef extra():\n    return 1\n',
  '1.1.0': 'def scale(x, by=2):\n    """Multiply."""\n    return x * by\n\ndef extra():\n    return 1\n',
};
const DOCS = '.. module:: relib\n\n.. autofunction:: relib.scale\n';

/** Writes relib-VERSION.tar.gz (an sdist with PKG-INFO and docs) and a pure wheel, with Python's own archivers. */
function buildArchives(version: string, body: string): void {
  const code = `
import io, sys, tarfile, zipfile
v, body, docs, out = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
meta = "Metadata-Version: 2.1\\nName: relib\\nVersion: %s\\nRequires-Python: >=3.8\\nClassifier: Programming Language :: Python :: 3.11\\n\\n" % v
def add(tf, name, text):
    data = text.encode(); info = tarfile.TarInfo("relib-%s/%s" % (v, name)); info.size = len(data); info.mtime = 0
    tf.addfile(info, io.BytesIO(data))
with tarfile.open("%s/relib-%s.tar.gz" % (out, v), "w:gz") as tf:
    add(tf, "PKG-INFO", meta); add(tf, "setup.py", "from setuptools import setup\\nsetup(name='relib')\\n")
    add(tf, "relib/__init__.py", body); add(tf, "doc/api.rst", docs)
    # a requirement conditional on the environment (a [:marker] section) is still one: numpy is importable
    add(tf, "relib.egg-info/requires.txt", "[:python_version >= '3.8']\\nnumpy\\n\\n[test]\\npytest\\n")
with zipfile.ZipFile("%s/relib-%s-py3-none-any.whl" % (out, v), "w") as zf:
    zf.writestr("relib/__init__.py", body)
    zf.writestr("relib-%s.dist-info/METADATA" % v, meta)
    zf.writestr("relib-%s.dist-info/WHEEL" % v, "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
    zf.writestr("relib-%s.dist-info/RECORD" % v, "")
`;
  const r = spawnSync(PYTHON, ['-c', code, version, body, DOCS, files], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

/** Runs a command without blocking the event loop (the index is served by this process). */
function run(cmd: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
let server: Server;
let indexUrl = '';
/** Filenames whose listed hash is wrong (a tampered mirror). */
const tampered = new Set<string>();

before(async () => {
  for (const [v, body] of Object.entries(SOURCES)) buildArchives(v, body);
  buildArchives('0.9.0', SOURCES['1.0.0']!);
  tampered.add('relib-0.9.0.tar.gz');
  writeFileSync(join(libraries, 'relib.toml'), ['name = "relib"', 'distribution = "relib"', '', '[releases]', 'first = "1.0.0"', '', '[static]', 'from = "pypi"', '', '[docs]', 'from = "sdist"', 'pages = [["doc/*.rst"]]', '', '[runtime]', 'venv = true', ''].join('\n'));
  server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/simple/relib/') {
      const listed = readdirSync(files).sort().map((filename) => ({
        filename,
        url: `../../files/${filename}`,
        hashes: { sha256: tampered.has(filename) ? '0'.repeat(64) : sha256(join(files, filename)) },
        'requires-python': '>=3.8',
        'upload-time': `2024-0${filename.includes('1.1.0') ? 6 : filename.includes('0.9') ? 1 : 3}-01T00:00:00.000000Z`,
        yanked: false,
      }));
      res.writeHead(200, { 'Content-Type': 'application/vnd.pypi.simple.v1+json' });
      res.end(JSON.stringify({ meta: { 'api-version': '1.1' }, name: 'relib', files: listed }));
    } else if (url.startsWith('/files/') && existsSync(join(files, url.slice('/files/'.length)))) {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.end(readFileSync(join(files, url.slice('/files/'.length))));
    } else {
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  indexUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/simple`;
});
after(() => {
  server?.close();
  rmSync(work, { recursive: true, force: true });
});

const envFor = (cache: string) => ({ ...process.env, ANACHRON_PACKAGE_INDEX: indexUrl, ANACHRON_RELEASE_CACHE: cache, ANACHRON_LIBRARIES: libraries });
const readGz = (path: string) => JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as {
  version: string;
  provenance: Record<string, string>;
  apis: { path: string; signature: { parameters: { name: string }[] } | null }[];
  documented?: string[];
};
const paramsOf = (s: ReturnType<typeof readGz>, path: string) => s.apis.find((a) => a.path === path)?.signature?.parameters.map((p) => p.name);

describe('releases from a package index', () => {
  test('the static plan: every minor, the patch releases whose surface differs, each with the file it was read from', async () => {
    const out = join(work, 'surfaces', 'relib');
    const cache = join(work, 'cache');
    const r = await run(PYTHON, ['-m', 'anachron_probe.static.batch', 'relib', '--plan', '--out-dir', out, '--cache-dir', join(work, 'scratch')], { cwd: PROBE, env: envFor(cache) });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /relib 1\.0\.1 .* same surface as 1\.0\.0: left out/);
    assert.match(r.stdout, /relib 1\.0\.2 .* kept: differs from 1\.0\.0 \(\+1 -0 paths/);
    assert.deepEqual(readdirSync(out).sort(), ['relib-1.0.0.static.json.gz', 'relib-1.0.2.static.json.gz', 'relib-1.1.0.static.json.gz', 'relib.same-surface.json']);
    // what the matrix answers for 1.0.1 with
    assert.deepEqual(JSON.parse(readFileSync(join(out, 'relib.same-surface.json'), 'utf8')), { '1.0.1': '1.0.0' });
    assert.deepEqual(paramsOf(readGz(join(out, 'relib-1.0.2.static.json.gz')), 'relib.extra'), []);
    const s110 = readGz(join(out, 'relib-1.1.0.static.json.gz'));
    assert.deepEqual(paramsOf(s110, 'relib.scale'), ['x', 'by']);
    assert.equal(s110.provenance.file, 'relib-1.1.0.tar.gz');
    assert.equal(s110.provenance.sha256, sha256(join(files, 'relib-1.1.0.tar.gz')));
    assert.equal(s110.provenance.index, indexUrl);
    // downloaded once, into the cache, by name
    assert.ok(existsSync(join(cache, 'relib', 'relib-1.1.0.tar.gz')));
  });

  test('a file whose sha256 is not the one the index lists is refused, and nothing is kept of it', async () => {
    const cache = join(work, 'cache-tampered');
    const r = await run(PYTHON, ['-m', 'anachron_probe.static.batch', 'relib', '--index-project', 'relib', '--tags', '0.9.0', '--out-dir', join(work, 'tampered')], { cwd: PROBE, env: envFor(cache) });
    assert.equal(r.status, 3);
    assert.match(r.stdout, /relib 0\.9\.0 +failed: .*relib-0\.9\.0\.tar\.gz: sha256 [0-9a-f]{64}, the index says 0{64}/);
    assert.ok(!existsSync(join(cache, 'relib', 'relib-0.9.0.tar.gz')));
  });

  test('--jobs 2 reads the same plan into the same files; a release that fails is reported, the others are read, a rerun reads only what is missing', async () => {
    const one = join(work, 'surfaces', 'relib');
    const out = join(work, 'jobs', 'relib');
    const cache = join(work, 'cache-jobs');
    const plan = ['-m', 'anachron_probe.static.batch', 'relib', '--plan', '--tags', '0.9.0', '--out-dir', out, '--cache-dir', join(work, 'scratch-jobs'), '--jobs', '2'];
    const r = await run(PYTHON, plan, { cwd: PROBE, env: envFor(cache) });
    assert.equal(r.status, 3, r.stdout + r.stderr);
    assert.match(r.stdout, /relib 0\.9\.0 +failed: .*sha256/);
    assert.match(r.stdout, /^relib: failed: 0\.9\.0$/m);
    assert.match(r.stdout, /relib 1\.0\.1 .* same surface as 1\.0\.0: left out/);
    assert.match(r.stdout, /relib 1\.0\.2 .* kept: differs from 1\.0\.0 \(\+1 -0 paths/);
    // progress: each release of the first waves as it finishes, out of how many
    assert.match(r.stdout, /\[2\/3\]/);
    // the one-job plan's files, byte for byte (gzip without a time stamp)
    const files = readdirSync(one).sort();
    assert.deepEqual(readdirSync(out).sort(), files);
    for (const f of files) assert.ok(readFileSync(join(out, f)).equals(readFileSync(join(one, f))), f);
    // rerun: what was read is cached, the failed release is tried again
    const again = await run(PYTHON, plan, { cwd: PROBE, env: envFor(cache) });
    assert.equal(again.status, 3);
    assert.match(again.stdout, /relib 1\.1\.0 .* cached/);
    assert.doesNotMatch(again.stdout, /extracted/);
  });

  test('--jobs below 1 is refused', async () => {
    const r = await run(PYTHON, ['-m', 'anachron_probe.static.batch', 'relib', '--plan', '--out-dir', join(work, 'jobs0'), '--jobs', '0'], { cwd: PROBE, env: envFor(join(work, 'cache')) });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--jobs must be at least 1, not 0/);
  });

  test('an unknown project is a clear error', async () => {
    const r = await run(PYTHON, ['-m', 'anachron_probe.static.batch', 'nolib', '--index-project', 'nolib', '--tags', '1.0', '--out-dir', join(work, 'none')], { cwd: PROBE, env: envFor(join(work, 'cache')) });
    assert.notEqual(r.status, 0);
    assert.match(r.stdout + r.stderr, /simple\/nolib\/: HTTP 404 \(no such project\)/);
  });

  test('static extraction of one archive, an sdist or a wheel, is the same surface', async () => {
    const surfaces: string[][] = [];
    for (const name of ['relib-1.1.0.tar.gz', 'relib-1.1.0-py3-none-any.whl']) {
      const r = await run(PYTHON, [join(PROBE, 'static.py'), 'relib', '--source', join(files, name), '--version', '1.1.0'], { env: envFor(join(work, 'cache')) });
      assert.equal(r.status, 0, r.stderr);
      const s = JSON.parse(r.stdout) as ReturnType<typeof readGz>;
      assert.equal(s.provenance.file, name);
      surfaces.push(s.apis.map((a) => `${a.path}(${a.signature?.parameters.map((p) => p.name).join(',') ?? ''})`).sort());
    }
    assert.deepEqual(surfaces[0], surfaces[1]);
    assert.ok(surfaces[0]!.includes('relib.scale(x,by)'));
  });

  test('the documented surface of a release, read from its sdist', async () => {
    const out = join(work, 'relib-1.1.0.docs.json.gz');
    const r = await run(PYTHON, [join(PROBE, 'docs.py'), 'relib', '--release', '--version', '1.1.0', '--out', out], { env: envFor(join(work, 'cache')) });
    assert.equal(r.status, 0, r.stderr);
    const doc = readGz(out);
    assert.deepEqual(doc.documented, ['relib', 'relib.scale']);
    assert.equal(doc.provenance.file, 'relib-1.1.0.tar.gz');
  });

  test('a runtime surface probed in a venv pip fills from the index, with the environment in its provenance', async () => {
    const out = join(work, 'runtime');
    mkdirSync(out);
    // two at once, and a version the index never published: reported and left out, the others probed
    const r = await run(PYTHON, ['-m', 'anachron_probe.releases.runtime', 'relib', '--out-dir', out, '--versions', '1.1.0', '7.0.0', '1.0.0', '--venvs', join(work, 'venvs'), '--jobs', '2'], {
      cwd: PROBE,
      env: { ...envFor(join(work, 'cache')), ANACHRON_PYTHONS: PYTHON, PIP_FIND_LINKS: '', PIP_NO_INDEX: '' },
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /relib 1\.1\.0 .* probed/);
    assert.match(r.stdout, /relib 7\.0\.0 +left out: /);
    assert.match(r.stdout, /^relib: 2 probed, left out: 7\.0\.0$/m);
    assert.deepEqual(paramsOf(readGz(join(out, 'relib-1.0.0.runtime.json.gz')), 'relib.scale'), ['x', 'factor']);
    const s = readGz(join(out, 'relib-1.1.0.runtime.json.gz'));
    assert.equal(s.version, '1.1.0');
    assert.deepEqual(paramsOf(s, 'relib.scale'), ['x', 'by']);
    assert.equal(s.provenance.source, 'venv-runtime');
    assert.match(s.provenance.packages!, /(^| )relib==1\.1\.0( |$)/);
    // the venv is removed once probed: the provenance is what makes it again
    assert.deepEqual(readdirSync(join(work, 'venvs')), []);
  });
});
