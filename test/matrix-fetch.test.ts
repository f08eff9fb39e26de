// Version columns from a package index, end to end through the real CLI: a PEP 691/503 index on 127.0.0.1 serving
// wheels and sdists built here for toylib at six releases (new_api added at 1.2.0, scale's keyword factor renamed
// ratio at 2.0.0, old_api removed at 3.0.0); `check` says what it cannot judge, `check --fetch` and `matrix fetch`
// cover it statically (nothing of the release run), bisection finds the exact boundaries; the index's faults give
// clear messages and leave nothing wrong in the cache or the store; `matrix cache` lists and prunes.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCliAsync } from './support/cli.js';
import { indexForTests, startPackageIndex, toylibCode, type FakeRelease } from './support/package-index.js';

const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';
const RELEASES = ['1.0.0', '1.1.0', '1.2.0', '2.0.0', '2.1.0', '3.0.0'];

const USE = 'import toylib\ntoylib.new_api()\ntoylib.scale(2, ratio=3)\ntoylib.old_api()\n';

function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `anachron-${prefix}-`));
}

function project(files: Record<string, string>): string {
  const dir = tempDir('fetch-project');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** A user with nothing configured: their own (empty) store, cache and home; pip and uv files of the machine not read. */
function user(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const home = tempDir('fetch-home');
  return {
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    PIP_CONFIG_FILE: '/dev/null',
    PIP_INDEX_URL: '',
    PIP_EXTRA_INDEX_URL: '',
    UV_INDEX_URL: '',
    UV_DEFAULT_INDEX: '',
    UV_INDEX: '',
    UV_EXTRA_INDEX_URL: '',
    UV_NO_CONFIG: '1',
    NETRC: join(home, 'no-netrc'),
    ANACHRON_USER_MATRICES: join(home, 'matrices'),
    ANACHRON_CACHE: join(home, 'cache'),
    ANACHRON_OFFLINE: '',
    ...extra,
  };
}

interface CacheListing {
  files: { filename: string; column: unknown }[];
  columns: { distribution: string; version: string; provenance: Record<string, string> }[];
}

async function cacheListing(env: NodeJS.ProcessEnv): Promise<CacheListing> {
  const r = await runCliAsync(['matrix', 'cache', 'list', '--json'], undefined, env);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as CacheListing;
}

describe('columns from a package index on 127.0.0.1', () => {
  const served = indexForTests(PYTHON, 'fetch-index', () => RELEASES.map((version) => ({ name: 'toylib', version, code: toylibCode(version) })));

  test('not checked, then fetched with the exact boundaries, then checked at each pin', async () => {
    const env = user({ PIP_INDEX_URL: served.index.url });
    const dir = project({ 'requirements.txt': 'toylib==1.0.0\n', 'use.py': USE });
    const before = await runCliAsync(['check', '.'], dir, env);
    assert.equal(before.code, 0, before.stderr);
    assert.match(before.stdout, /^not checked: toylib==1\.0\.0 \(requirements\.txt:1\) — no matrix; anachron matrix fetch toylib==1\.0\.0$/m);

    const fetched = await runCliAsync(['check', '--fetch', '.'], dir, env);
    assert.equal(fetched.code, 1, fetched.stderr);
    assert.match(fetched.stderr, /toylib 1\.0\.0: toylib-1\.0\.0-py3-none-any\.whl \(pure-Python wheel\) from http:\/\/127\.0\.0\.1:\d+\/simple/);
    assert.match(fetched.stderr, /bisecting where toylib\.new_api was added \(between 1\.0\.0 and 3\.0\.0, 4 releases between\): 1\.2\.0/);
    assert.match(fetched.stdout, /`toylib\.new_api` needs toylib ≥ 1\.2 \(pinned 1\.0\.0\) — requirements\.txt:1 pins toylib==1\.0\.0; in toylib 1\.2\.0–3\.0\.0 \(added between 1\.1\.0 and 1\.2\.0\)/);
    assert.match(fetched.stdout, /`toylib\.scale\(ratio=\)` needs toylib ≥ 2\.0 \(pinned 1\.0\.0\) — requirements\.txt:1 pins toylib==1\.0\.0; accepted by toylib 2\.0\.0–3\.0\.0/);
    assert.doesNotMatch(fetched.stdout, /old_api|not checked/);
    // Only the columns bisection needed: 2.1.0 was never fetched.
    const listing = await cacheListing(env);
    assert.deepEqual(listing.columns.map((c) => c.version), ['1.0.0', '1.1.0', '1.2.0', '2.0.0', '3.0.0']);
    assert.equal(listing.columns[0]!.provenance.file, 'toylib-1.0.0-py3-none-any.whl');
    assert.equal(listing.columns[0]!.provenance.sha256, served.index.files.get('toylib-1.0.0-py3-none-any.whl'));

    // The other pins, from the store: no more fetching (the fetch-free check is enough).
    const at = async (pin: string) => (await runCliAsync(['check', '.', '--pin', pin, '--format', 'json'], dir, env)).stdout;
    const apis = (json: string) => (JSON.parse(json) as { findings: { api: string; parameter: string | null }[] }).findings.map((f) => `${f.api}${f.parameter ? `(${f.parameter}=)` : ''}`);
    assert.deepEqual(apis(await at('toylib==2.0.0')), []);
    assert.deepEqual(apis(await at('toylib==3.0.0')), ['toylib.old_api']);
    assert.deepEqual(apis(await at('toylib==1.2.0')), ['toylib.scale(ratio=)']);

    const history = await runCliAsync(['history', 'toylib.new_api'], dir, env);
    assert.match(history.stdout, /1\.0\.0–1\.1\.0 \(2\)\s+absent/);
    assert.match(history.stdout, /1\.2\.0: your column, toylib-1\.2\.0-py3-none-any\.whl from http:\/\/127\.0\.0\.1:\d+\/simple \(sha256 [0-9a-f]{12}\)/);
    const coverage = await runCliAsync(['coverage'], dir, env);
    assert.equal(coverage.code, 0, coverage.stdout);
    assert.match(coverage.stdout, /^toylib\s+==1\.0\.0\s+requirements\.txt:1\s+5 versions, 1\.0\.0–3\.0\.0\s+checked/m);
  });

  test('matrix fetch over a PEP 503 (HTML only) index, the newest release with it; offline from the cache', async () => {
    const html = await startPackageIndex(PYTHON, join(served.work, 'html'), [{ name: 'toylib', version: '2.1.0', code: toylibCode('2.1.0') }, { name: 'toylib', version: '3.0.0', code: toylibCode('3.0.0') }], { json: false });
    try {
      const env = user();
      const r = await runCliAsync(['matrix', 'fetch', 'toylib==2.1.0', '--index-url', html.url], undefined, env);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^toylib 2\.1\.0: toylib from http:\/\/127\.0\.0\.1:\d+\/simple toylib-2\.1\.0-py3-none-any\.whl \(sha256 [0-9a-f]{12}\)/m);
      assert.match(r.stdout, /^toylib 3\.0\.0: /m);
      assert.deepEqual([...new Set(html.requests)], ['html']);
      // Offline: what the store holds is used; what it does not is reported, not fetched.
      const dir = project({ 'requirements.txt': 'toylib==2.1.0\n', 'use.py': USE });
      const offline = await runCliAsync(['check', '--fetch', '--offline', '.', '--format', 'json'], dir, env);
      assert.deepEqual((JSON.parse(offline.stdout) as { findings: { api: string }[] }).findings.map((f) => f.api), []);
      const hits = html.hits.length;
      const missing = await runCliAsync(['matrix', 'fetch', 'toylib==1.0.0', '--offline', '--index-url', html.url], undefined, env);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /toylib 1\.0\.0 is not on http:\/\/127\.0\.0\.1:\d+\/simple|offline/);
      assert.equal(html.hits.length, hits, 'offline: the index is not asked');
    } finally {
      await html.close();
    }
  });

  test("matrix fetch in a project folder asks the index its requirements file names, as check --fetch does", async () => {
    const env = user();
    const dir = project({ 'requirements.txt': `--index-url ${served.index.url}\ntoylib==1.0.0\n`, 'use.py': USE });
    const before = await runCliAsync(['check', '.'], dir, env);
    const hint = /anachron matrix fetch (toylib==1\.0\.0)$/m.exec(before.stdout);
    assert.ok(hint, before.stdout);
    const r = await runCliAsync(['matrix', 'fetch', hint[1]!, '--no-newest'], dir, env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^anachron: index: http:\/\/127\.0\.0\.1:\d+\/simple \(\S*requirements\.txt:1\)/m);
    assert.match(r.stdout, /^toylib 1\.0\.0: toylib from http:\/\/127\.0\.0\.1:\d+\/simple /m);
  });

  test('HTTP_PROXY from the environment: pages and files go through it, its credentials never shown', async () => {
    const seen: { url: string; auth: string | null }[] = [];
    // A forward proxy on 127.0.0.1, as a company's would be: absolute URLs in, the index asked on the client's behalf.
    const proxy = createServer((req, res) => {
      seen.push({ url: req.url ?? '', auth: req.headers['proxy-authorization'] ?? null });
      const target = new URL(req.url ?? '');
      const { 'proxy-authorization': _, ...headers } = req.headers;
      const up = httpRequest({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers: { ...headers, host: target.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      up.on('error', () => res.writeHead(502).end());
      up.end();
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const port = (proxy.address() as AddressInfo).port;
      // Both spellings (lower case wins where both are set, as with pip): a machine's own proxy variables do not count.
      const via = `http://corp:pr0xy-pw@127.0.0.1:${port}`;
      const env = user({ PIP_INDEX_URL: served.index.url, HTTP_PROXY: via, http_proxy: via, NO_PROXY: '', no_proxy: '' });
      const r = await runCliAsync(['matrix', 'fetch', 'toylib==2.1.0', '--no-newest'], undefined, env);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(seen.some((h) => /^http:\/\/127\.0\.0\.1:\d+\/simple\/toylib\/$/.test(h.url)), JSON.stringify(seen));
      assert.ok(seen.some((h) => h.url.endsWith('/files/toylib-2.1.0-py3-none-any.whl')), JSON.stringify(seen));
      assert.ok(seen.every((h) => h.auth === `Basic ${Buffer.from('corp:pr0xy-pw').toString('base64')}`));
      assert.doesNotMatch(r.stdout + r.stderr + JSON.stringify(await cacheListing(env)), /pr0xy-pw/);
    } finally {
      await new Promise((r) => proxy.close(r));
    }
  });

  test('matrix cache prune removes the files, the columns stay', async () => {
    const env = user({ PIP_INDEX_URL: served.index.url });
    assert.equal((await runCliAsync(['matrix', 'fetch', 'toylib==2.1.0', '--no-newest'], undefined, env)).code, 0);
    const listed = await runCliAsync(['matrix', 'cache', 'list'], undefined, env);
    assert.match(listed.stdout, /toylib-2\.1\.0-py3-none-any\.whl\s+\d+ kB\s+used \d{4}-\d\d-\d\d\s+from http:\/\/127\.0\.0\.1:\d+\/simple\s+-> column toylib 2\.1\.0 \(toylib\)/);
    const pruned = await runCliAsync(['matrix', 'cache', 'prune', '--all'], undefined, env);
    assert.match(pruned.stdout, /^removed 1 file \(\d+ kB\) and the cached index pages from .*; your matrices' columns stay$/m);
    const after = await cacheListing(env);
    assert.deepEqual([after.files.length, after.columns.map((c) => c.version)], [0, ['2.1.0']]);
    assert.equal((await runCliAsync(['matrix', 'cache', 'prune', '--max-size', 'lots'], undefined, env)).code, 2);
  });

  test('the cache keeps to its size limit: a download evicts the least recently used file, the columns stay', async () => {
    const unlimited = user({ PIP_INDEX_URL: served.index.url });
    assert.equal((await runCliAsync(['matrix', 'fetch', 'toylib==1.0.0', '--no-newest'], undefined, unlimited)).code, 0);
    const one = await runCliAsync(['matrix', 'cache', 'list', '--json'], undefined, unlimited);
    const listing = JSON.parse(one.stdout) as { files: { bytes: number }[]; pagesBytes: number };
    const first = listing.files[0]!;
    const oneFileAndPages = first.bytes + listing.pagesBytes;
    // Room for what one fetch leaves (its file and the index page) and half a file more: the second file must evict the first.
    const limitMb = (oneFileAndPages + first.bytes / 2) / 1024 ** 2;
    const env = { ...unlimited, ANACHRON_CACHE_MAX_MB: String(limitMb) };
    const second = await runCliAsync(['matrix', 'fetch', 'toylib==2.1.0', '--no-newest'], undefined, env);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout + second.stderr, /^anachron: cache: removed 1 least recently used file to stay under \d+ kB$/m);
    const after = await cacheListing(env);
    assert.deepEqual(after.files.map((f) => f.filename), ['toylib-2.1.0-py3-none-any.whl']);
    assert.deepEqual(after.columns.map((c) => c.version).sort(), ['1.0.0', '2.1.0']);
    // `prune --max-size` applies a smaller limit at once; the file fetched last is the one kept longest.
    const pruned = await runCliAsync(['matrix', 'cache', 'prune', '--max-size', '0'], undefined, env);
    assert.equal(pruned.code, 0, pruned.stderr);
    assert.match(pruned.stdout, /^removed 1 file \(\d+ kB\) from .*; your matrices' columns stay$/m);
    assert.equal((await cacheListing(env)).files.length, 0);
  });
});

describe('a release with two top-level packages, one re-exporting the other (attrs ships attr and attrs)', () => {
  // twinlib installs `twinlib` and `twins`; `twins` re-exports twinlib's names, one from a private module, as attrs
  // does with attr._next_gen. 1.0's wheel has no top_level.txt (hatchling's do not), 2.0's lists both.
  const twinlib = (v: string) => `__version__ = "${v}"\n` + (v === '1.0' ? 'def define(cls, slots=True):\n    return cls\n' : 'def define(cls, slots=True, frozen=False):\n    return cls\n');
  const twins = (v: string) =>
    ['from twinlib import define', ...(v === '1.0' ? [] : ['from twinlib._next import asdict']), 'from . import validators', '', `__all__ = ["define", "validators"${v === '1.0' ? '' : ', "asdict"'}]`, ''].join('\n');
  const releases: FakeRelease[] = ['1.0', '2.0'].map((version) => ({
    name: 'twinlib',
    version,
    code: twinlib(version),
    modules: version === '1.0' ? {} : ({ '_next.py': 'def asdict(inst, recurse=True):\n    return {}\n' } as Record<string, string>),
    rootFiles: { 'twins/__init__.py': twins(version), 'twins/validators.py': 'def instance_of(type):\n    return type\n' },
    topLevel: version === '1.0' ? null : ['twinlib', 'twins'],
  }));
  const served = indexForTests(PYTHON, 'fetch-twins', () => releases);

  test('both packages are columns, what one takes from the other keeps its kind and signature', async () => {
    const env = user({ PIP_INDEX_URL: served.index.url });
    const r = await runCliAsync(['matrix', 'fetch', 'twinlib==1.0', 'twinlib==2.0', '--no-newest'], undefined, env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^twinlib 1\.0: twinlib, twins from /m);
    assert.match(r.stdout, /^twinlib 2\.0: twinlib, twins from /m);
    assert.doesNotMatch(r.stderr, /left out/);
    const dir = project({ 'use.py': 'import twins\nfrom twins.validators import instance_of\ntwins.define(int, frozen=True)\ntwins.asdict(1, recurse=False)\ntwins.define(int, slotz=True)\n' });
    const at = async (pin: string) => {
      const out = await runCliAsync(['check', '.', '--pin', pin, '--format', 'json'], dir, env);
      const report = JSON.parse(out.stdout) as { findings: { api: string; parameter: string | null; code: string }[]; coverage: { library: string; state: string }[] };
      return { findings: report.findings.map((f) => `${f.code} ${f.api}${f.parameter ? `(${f.parameter}=)` : ''}`).sort(), coverage: report.coverage.map((c) => `${c.library} ${c.state}`) };
    };
    assert.deepEqual(await at('twinlib==1.0'), {
      findings: ['anachronistic-api twins.asdict', 'anachronistic-parameter twins.define(frozen=)', 'unknown-parameter twins.define(slotz=)'],
      coverage: ['twins checked'],
    });
    assert.deepEqual((await at('twinlib==2.0')).findings, ['unknown-parameter twins.define(slotz=)']);
  });
});

describe('index faults: a clear message, nothing wrong kept', () => {
  const FAULTY: FakeRelease[] = [
    { name: 'tampered', version: '1.0', code: 'def f():\n    pass\n', fault: 'hash-mismatch' },
    { name: 'truncated', version: '1.0', code: 'def f():\n    pass\n' + '# padding\n'.repeat(400), fault: 'truncated' },
    { name: 'broken', version: '1.0', code: 'x = 1\n', fault: 'status-500' },
    { name: 'slow', version: '1.0', code: 'x = 1\n', fault: 'hang' },
    { name: 'yanky', version: '1.0', code: 'def old():\n    pass\n' },
    { name: 'yanky', version: '1.1', code: 'def new():\n    pass\n', yanked: 'broken build' },
  ];
  const markerIn = (work: string) => join(work, 'setup-py-ran');
  const served = indexForTests(PYTHON, 'fetch-faults', (work) => {
    const setupPy = `import pathlib\npathlib.Path(${JSON.stringify(markerIn(work))}).write_text("ran")\nfrom setuptools import setup\nsetup(name="sdistlib", version="1.0", packages=["sdistlib"])\n`;
    return [...FAULTY, { name: 'sdistlib', version: '1.0', code: 'def from_sdist(a, b=2):\n    return a\n', dist: 'sdist', setupPy }];
  });

  const fetch = (env: NodeJS.ProcessEnv, ...args: string[]) => runCliAsync(['matrix', 'fetch', '--no-newest', '--index-url', served.index.url, ...args], undefined, env);

  test('404: the distribution is not on the index', async () => {
    const r = await fetch(user(), 'nosuch==1.0');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^anachron: nosuch is not on http:\/\/127\.0\.0\.1:\d+\/simple \(HTTP 404\)$/m);
  });

  test('500 on the page, and on the file', async () => {
    const down = await startPackageIndex(PYTHON, join(served.work, 'down'), [{ name: 'toylib', version: '1.0.0', code: 'x = 1\n' }], { pagesFail: true });
    try {
      const r = await runCliAsync(['matrix', 'fetch', 'toylib==1.0.0', '--index-url', down.url], undefined, user());
      assert.equal(r.code, 2);
      assert.match(r.stderr, /HTTP 500/);
    } finally {
      await down.close();
    }
    const env = user();
    const r = await fetch(env, 'broken==1.0');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /broken-1\.0-py3-none-any\.whl|HTTP 500/);
    assert.deepEqual((await cacheListing(env)).files, []);
  });

  test('a timeout on the page and on the file', async () => {
    const hanging = await startPackageIndex(PYTHON, join(served.work, 'hang'), [{ name: 'toylib', version: '1.0.0', code: 'x = 1\n' }], { pagesHang: true });
    try {
      const r = await runCliAsync(['matrix', 'fetch', 'toylib==1.0.0', '--index-url', hanging.url], undefined, user({ PIP_TIMEOUT: '1' }));
      assert.equal(r.code, 2);
      assert.match(r.stderr, /no answer|timed out|in 1 s/);
    } finally {
      await hanging.close();
    }
    const env = user({ PIP_TIMEOUT: '1' });
    const r = await fetch(env, 'slow==1.0');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no answer|timed out|in 1 s/);
    assert.deepEqual((await cacheListing(env)).files, []);
  });

  test('a file whose sha256 is not the one the index gives is deleted, not used', async () => {
    const env = user();
    const r = await fetch(env, 'tampered==1.0');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /tampered-1\.0-py3-none-any\.whl from http:\/\/127\.0\.0\.1:\d+\/simple: its sha256 is [0-9a-f]{64}, the index says [0-9a-f]{64}; the file was deleted, not used/);
    const listing = await cacheListing(env);
    assert.deepEqual([listing.files, listing.columns], [[], []]);
  });

  test('a truncated wheel (whose hash the index vouches for) is removed from the cache, no column made', async () => {
    const env = user();
    const r = await fetch(env, 'truncated==1.0');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /truncated-1\.0-py3-none-any\.whl cannot be read: .*; it was removed from the cache/);
    const listing = await cacheListing(env);
    assert.deepEqual([listing.files, listing.columns], [[], []]);
  });

  test('an sdist is read, its setup.py never run', async () => {
    const env = user();
    const r = await fetch(env, 'sdistlib==1.0');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /sdistlib-1\.0\.tar\.gz \(sdist/);
    assert.equal(existsSync(markerIn(served.work)), false, 'setup.py was run');
    const dir = project({ 'use.py': 'import sdistlib\nsdistlib.from_sdist(1, c=3)\n' });
    const check = await runCliAsync(['check', '.', '--pin', 'sdistlib==1.0'], dir, env);
    assert.match(check.stdout, /`sdistlib\.from_sdist` takes no keyword `c` in any tracked version of sdistlib — tracked: sdistlib 1\.0/);
  });

  test('a yanked version (PEP 592): an exact pin gets its column, said; a range and the newest pass it over', async () => {
    const env = user();
    const exact = await fetch(env, 'yanky==1.1');
    assert.equal(exact.code, 0, exact.stderr);
    assert.match(exact.stderr, /yanky 1\.1: yanked on http:\/\/127\.0\.0\.1:\d+\/simple \(broken build\)/);
    const range = await runCliAsync(['matrix', 'fetch', 'yanky>=1.0', '--index-url', served.index.url], undefined, user());
    assert.equal(range.code, 0, range.stderr);
    assert.match(range.stdout, /^yanky 1\.0: /m);
    assert.doesNotMatch(range.stdout, /yanky 1\.1/);
  });

  test('credentials in the index URL are sent, and never shown', async () => {
    const secret = await startPackageIndex(PYTHON, join(served.work, 'auth'), [{ name: 'toylib', version: '1.0.0', code: toylibCode('1.0.0') }], { auth: { login: 'me', password: 's3cr3t-pw' } });
    try {
      const url = secret.url.replace('http://', 'http://me:s3cr3t-pw@');
      const env = user({ PIP_INDEX_URL: url });
      const r = await runCliAsync(['matrix', 'fetch', 'toylib==1.0.0', '--no-newest'], undefined, env);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stdout + r.stderr, /s3cr3t-pw/);
      const stored = readFileSync(join(env.ANACHRON_USER_MATRICES!, 'columns.json'), 'utf8') + JSON.stringify(await cacheListing(env));
      assert.doesNotMatch(stored, /s3cr3t-pw/);
      const wrong = await runCliAsync(['matrix', 'fetch', 'toylib==1.0.0', '--no-newest', '--refresh'], undefined, user({ PIP_INDEX_URL: secret.url.replace('http://', 'http://me:wrong@') }));
      assert.equal(wrong.code, 2);
      assert.match(wrong.stderr, /401/);
      assert.doesNotMatch(wrong.stderr, /me:wrong/);
    } finally {
      await secret.close();
    }
  });

  test('usage: a requirement that does not parse', async () => {
    const r = await runCliAsync(['matrix', 'fetch', 'not a requirement!'], undefined, user());
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not a requirement!/);
    assert.equal((await runCliAsync(['matrix', 'fetch'], undefined, user())).code, 2);
  });
});
