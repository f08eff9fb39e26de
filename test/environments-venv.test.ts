// Virtual environments made for a release: which interpreter (the newest one found that the release declares, with
// the reason), which dependencies (those published by the end of its upload day), the metadata and upload times read
// from a real package index on 127.0.0.1, environments made from it with real pip and checked (version, metapackage
// versions, the library file's smoke test), kept when they already exist, and refused with a clear message when the
// release does not import.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runEnv } from '../server/src/cli/env-command.js';
import { candidatePaths, discoverInterpreters, type PythonInterpreter } from '../server/src/environments/interpreters.js';
import { checkEnvironment } from '../server/src/environments/registry.js';
import { choosePython, minorsText } from '../server/src/environments/python-choice.js';
import {
  dependencyCutoff,
  fileVersion,
  metadataFromPipReport,
  pythonMinorsOf,
  uploadTimeFromProjectPage,
  type ReleaseMetadata,
} from '../server/src/environments/release-metadata.js';
import { planVenv, venvEnvironment } from '../server/src/environments/venv.js';
import { startPackageIndex, type FakeIndex } from './support/package-index.js';

const PYTHON = process.env.ANACHRON_SANDBOX_PYTHON ?? '/usr/bin/python3';
const SKIP = existsSync(PYTHON) ? false : `${PYTHON} not found`;

const interpreter = (version: string, extra: Partial<PythonInterpreter> = {}): PythonInterpreter => ({
  path: `/opt/python/${version}/bin/python3`, realPath: `/opt/python/${version}/bin/python3`, version,
  minor: version.split('.').slice(0, 2).join('.'), implementation: 'cpython', canVenv: true, source: 'test', ...extra,
});
const MACHINE = ['3.13.0', '3.12.1', '3.11.7', '3.10.13', '3.9.18', '3.8.18'].map((v) => interpreter(v));
const release = (requiresPython: string | null, pythonClassifiers: string[]): ReleaseMetadata => ({ name: 'lib', version: '1.0', requiresPython, pythonClassifiers, uploadedAt: null });

describe('choosing the interpreter of a release', () => {
  const cases: { what: string; release: ReleaseMetadata; wanted?: string; machine?: PythonInterpreter[]; picks?: string; reason?: RegExp; error?: RegExp }[] = [
    { what: 'the newest its classifiers name (qiskit 0.43.3: 3.7–3.10)', release: release('>=3.7', ['3.7', '3.8', '3.9', '3.10']), picks: '3.10.13', reason: /released for \(its classifiers name Python 3\.7–3\.10; Requires-Python >=3\.7\)/ },
    { what: 'the newest its classifiers name (qiskit 1.3.0: 3.9–3.13)', release: release('>=3.9', ['3.9', '3.10', '3.11', '3.12', '3.13']), picks: '3.13.0' },
    { what: 'Requires-Python bounds what the classifiers name', release: release('>=3.8,<3.12', ['3.8', '3.9', '3.10', '3.11', '3.12']), picks: '3.11.7' },
    { what: 'no classifiers: the newest Requires-Python allows', release: release('<3.12', []), picks: '3.11.7', reason: /names no Python versions in its classifiers; the newest interpreter its Requires-Python <3\.12 allows/ },
    { what: 'none of the named versions here: the nearest one allowed', release: release(null, ['3.5', '3.6']), picks: '3.8.18', reason: /none of the Pythons lib 1\.0's classifiers name \(3\.5, 3\.6\) was found; the nearest/ },
    { what: 'an interpreter that cannot make a venv is never chosen', release: release('>=3.8', ['3.12', '3.13']), machine: [interpreter('3.13.0', { canVenv: false }), ...MACHINE.slice(1)], picks: '3.12.1' },
    { what: 'a version asked for', release: release('>=3.7', ['3.7', '3.8', '3.9', '3.10']), wanted: '3.11', picks: '3.11.7', reason: /Python 3\.11 as asked .*classifiers name 3\.7–3\.10, not 3\.11/ },
    { what: 'an exact version asked for', release: release(null, []), wanted: '3.9.18', picks: '3.9.18' },
    { what: 'a version not on the machine', release: release(null, []), wanted: '3.14', error: /no interpreter 3\.14 .* was found \(found: 3\.13\.0, 3\.12\.1/ },
    { what: 'a version the release excludes', release: release('>=3.9', []), wanted: '3.8', error: /lib 1\.0 does not run on Python 3\.8 \(Requires-Python >=3\.9\)/ },
    { what: 'nothing the release allows', release: release('>=3.14', ['3.14']), error: /no interpreter found satisfies lib 1\.0's Requires-Python >=3\.14 \(found: 3\.13\.0.*\); install one/ },
  ];
  for (const c of cases) {
    test(c.what, () => {
      const choice = choosePython(c.machine ?? MACHINE, c.release, c.wanted);
      if (c.error) {
        assert.ok('error' in choice && c.error.test(choice.error), JSON.stringify(choice));
        return;
      }
      assert.ok(!('error' in choice), JSON.stringify(choice));
      assert.equal(choice.interpreter.version, c.picks);
      if (c.reason) assert.match(choice.reason, c.reason);
    });
  }
  test('minor ranges are written as ranges when consecutive', () => {
    assert.equal(minorsText(['3.7', '3.8', '3.9', '3.10']), '3.7–3.10');
    assert.equal(minorsText(['3.8', '3.10']), '3.8, 3.10');
    assert.equal(minorsText(['3.11', '3.12']), '3.11, 3.12');
  });
});

describe("what a release declares, read from pip's report and the index's pages", () => {
  test("pip's report: Requires-Python and the Python minors of the classifiers of the release asked for", () => {
    const report = JSON.stringify({ install: [
      { metadata: { name: 'Qiskit', version: '0.43.3', requires_python: '>=3.7', classifier: ['Programming Language :: Python :: 3 :: Only', 'Programming Language :: Python :: 3.10', 'Programming Language :: Python :: 3.7', 'Programming Language :: Python :: 3.9', 'License :: OSI Approved'] } },
    ] });
    assert.deepEqual(metadataFromPipReport(`warning first\n${report}`, 'qiskit', '0.43.3'), { name: 'qiskit', version: '0.43.3', requiresPython: '>=3.7', pythonClassifiers: ['3.7', '3.9', '3.10'] });
    assert.throws(() => metadataFromPipReport(report, 'qiskit', '1.0'), /has no qiskit 1\.0/);
    assert.deepEqual(pythonMinorsOf(['Programming Language :: Python :: 3', 'Programming Language :: Python :: 3.12', 'Programming Language :: Python :: 2.7']), ['3.12']);
  });

  test("a release's upload time is its newest file's (wheels come after the sdist); other releases' files do not count", () => {
    assert.equal(fileVersion('qiskit_terra-0.24.2-cp310-cp310-manylinux_2_17_x86_64.whl', 'qiskit-terra'), '0.24.2');
    assert.equal(fileVersion('qiskit-1.3.0rc1.tar.gz', 'qiskit'), '1.3.0rc1');
    assert.equal(fileVersion('qiskit_aer-0.12.2-cp310-cp310-linux_x86_64.whl', 'qiskit'), null);
    const page = { files: [
      { filename: 'qiskit-1.3.0.tar.gz', 'upload-time': '2024-11-28T22:37:11.384727Z' },
      { filename: 'qiskit-1.3.0-cp39-abi3-manylinux_2_17_aarch64.whl', 'upload-time': '2024-11-29T08:34:46.993829Z' },
      { filename: 'qiskit-1.3.0rc1.tar.gz', 'upload-time': '2024-12-30T00:00:00Z' },
      { filename: 'qiskit-1.3.0-cp39-abi3-win_amd64.whl' },
    ] };
    assert.equal(uploadTimeFromProjectPage(page, 'qiskit', '1.3.0'), '2024-11-29T08:34:46.993829Z');
    assert.equal(uploadTimeFromProjectPage(page, 'qiskit', '2.0.0'), null);
    assert.equal(uploadTimeFromProjectPage({ files: 'nope' }, 'qiskit', '1.3.0'), null);
    assert.equal(dependencyCutoff('2024-11-29T08:34:46.993829Z'), '2024-11-29T23:59:59Z');
  });
});

describe('interpreters on this machine', { skip: SKIP }, () => {
  test('found where installers put them (here: ANACHRON_PYTHONS), asked for their version, one per interpreter', async () => {
    const home = mkdtempSync(join(tmpdir(), 'anachron-pythons-'));
    try {
      const env = { ANACHRON_PYTHONS: PYTHON, PATH: '', HOME: home };
      assert.equal(candidatePaths({ env })[0]!.source, 'ANACHRON_PYTHONS');
      const own = spawnSync(PYTHON, ['-c', 'import sys; print(sys.version.split()[0])'], { encoding: 'utf8' }).stdout.trim();
      const found = await discoverInterpreters({ env });
      const mine = found.find((i) => i.source === 'ANACHRON_PYTHONS');
      assert.ok(mine, JSON.stringify(found));
      assert.equal(mine.version, own);
      assert.equal(new Set(found.map((i) => i.realPath)).size, found.length);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('environments made from a package index on 127.0.0.1', { skip: SKIP }, () => {
  const scratch = mkdtempSync(join(tmpdir(), 'anachron-venv-'));
  const saved = { ...process.env };
  let withTimes: FakeIndex;
  let withoutTimes: FakeIndex;
  let host: PythonInterpreter;
  let hostMinor: string;
  after(async () => {
    await withTimes?.close();
    await withoutTimes?.close();
    process.env = saved;
    rmSync(scratch, { recursive: true, force: true });
  });
  before(async () => {
    // pip sees only the test's index: no configuration files, find-links or caches of the machine.
    delete process.env.PIP_FIND_LINKS;
    delete process.env.PIP_INDEX_URL;
    delete process.env.PIP_EXTRA_INDEX_URL;
    process.env.PIP_CONFIG_FILE = '/dev/null';
    process.env.PIP_CACHE_DIR = join(scratch, 'pip-cache');
    // The library files with one more: fakedrift, whose smoke test asks it to work.
    const libraries = join(scratch, 'libraries');
    cpSync(join(__dirname, '..', 'libraries'), libraries, { recursive: true });
    writeFileSync(join(libraries, 'fakedrift.toml'), 'name = "fakedrift"\ndistribution = "fakedrift"\nsummary = "a test library"\n\n[runtime]\nsmoke-test = """\nimport fakedrift\nassert fakedrift.works(), "fakedrift does not work"\n"""\n');
    process.env.ANACHRON_LIBRARIES = libraries;
    const [version, minor] = spawnSync(PYTHON, ['-c', 'import sys; print(sys.version.split()[0]); print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' }).stdout.trim().split('\n');
    host = { path: PYTHON, realPath: PYTHON, version: version!, minor: minor!, implementation: 'cpython', canVenv: true, source: 'test' };
    hostMinor = minor!;
    const classifiers = [`Programming Language :: Python :: ${hostMinor}`];
    const releases = [
      // fakedrift 1.0 (mid-2020) works with fakedep 1.x only; fakedep 2.0 came a year later.
      { name: 'fakedep', version: '1.0', uploadedAt: '2020-01-02T10:00:00Z', code: '__version__ = "1.0"\n' },
      { name: 'fakedep', version: '2.0', uploadedAt: '2021-06-01T10:00:00Z', code: '__version__ = "2.0"\n' },
      { name: 'fakedrift', version: '1.0', requires: ['fakedep'], requiresPython: '>=3.6', classifiers, uploadedAt: '2020-06-01T08:00:00Z',
        code: 'import fakedep\nif not fakedep.__version__.startswith("1."):\n    raise ImportError("fakedrift 1.0 needs fakedep 1.x, not " + fakedep.__version__)\n__version__ = "1.0"\ndef works():\n    return True\n' },
      // fakedrift 2.0 is a metapackage whose module says another version (as qiskit 0.43.3's says terra's 0.24.2).
      { name: 'fakedrift', version: '2.0', requires: ['fakedep>=2'], classifiers, uploadedAt: '2021-07-01T08:00:00Z', code: '__version__ = "0.9.2"\ndef works():\n    return True\n' },
      { name: 'fakedrift', version: '3.0', classifiers, uploadedAt: '2022-01-01T08:00:00Z', code: '__version__ = "3.0"\ndef works():\n    return False\n' },
    ];
    withTimes = await startPackageIndex(PYTHON, join(scratch, 'index-json'), releases);
    withoutTimes = await startPackageIndex(PYTHON, join(scratch, 'index-html'), releases, { json: false });
  });

  test('the plan: the interpreter the release declares, and dependencies bounded by its upload day', async () => {
    const lines: string[] = [];
    const plan = await planVenv({ dir: join(scratch, 'planned'), library: 'fakedrift', version: '1.0', uv: null, indexUrl: withTimes.url, interpreters: [host], onOutput: (l) => lines.push(l) });
    assert.equal(plan.basePython, PYTHON);
    assert.match(plan.pythonReason, new RegExp(`released for \\(its classifiers name Python ${hostMinor.replace('.', '\\.')}; Requires-Python >=3\\.6\\)`));
    assert.equal(plan.cutoff, '2020-06-01T23:59:59Z');
    assert.match(plan.dependencyReason, /published by 2020-06-01T23:59:59Z, the end of the day fakedrift 1\.0 was uploaded/);
    assert.deepEqual(plan.commands.map((c) => c.argv.slice(-3)), [
      [PYTHON, '-m', 'venv', join(scratch, 'planned')].slice(-3),
      ['--index-url', withTimes.url, 'pip>=26'],
      ['--uploaded-prior-to', '2020-06-01T23:59:59Z', 'fakedrift==1.0'],
    ]);
    assert.ok(withTimes.requests.includes('json'));
    assert.equal(existsSync(join(scratch, 'planned')), false, 'planning makes nothing');
    const newest = await planVenv({ dir: join(scratch, 'planned'), library: 'fakedrift', version: '1.0', uv: null, indexUrl: withTimes.url, interpreters: [host], dependencies: 'newest' });
    assert.equal(newest.cutoff, null);
    assert.equal(newest.commands.length, 2);
    const untimed = await planVenv({ dir: join(scratch, 'planned'), library: 'fakedrift', version: '1.0', uv: null, indexUrl: withoutTimes.url, interpreters: [host] });
    assert.equal(untimed.cutoff, null);
    assert.match(untimed.dependencyReason, /the newest dependencies: http:\/\/127\.0\.0\.1:\d+\/simple gives no upload times/);
    const uv = await planVenv({ dir: join(scratch, 'planned'), library: 'fakedrift', version: '1.0', uv: '/opt/uv', indexUrl: withTimes.url, interpreters: [host] });
    assert.deepEqual(uv.commands[1]!.argv.slice(-3), ['--exclude-newer', '2020-06-01T23:59:59Z', 'fakedrift==1.0']);
  });

  test('a release that does not import with the dependencies it got is not registered, and says why', async () => {
    const file = join(scratch, 'environments.json');
    const out: string[] = [];
    const err: string[] = [];
    process.env.ANACHRON_PYTHONS = PYTHON;
    // Without upload times on the index, fakedrift 1.0 meets fakedep 2.0 and its import refuses it.
    const code = await runEnv(['add', 'fakedrift==1.0', '--venv', join(scratch, 'fakedrift-1.0'), '--create', '--index-url', withoutTimes.url, '--base-python', PYTHON, '--file', file], (s) => out.push(s), (s) => err.push(s));
    assert.equal(code, 1, err.join('\n'));
    assert.match(err.join('\n'), /fakedrift does not import: ImportError: fakedrift 1\.0 needs fakedep 1\.x, not 2\.0; nothing was registered/);
    assert.equal(existsSync(file), false);
  });

  test('the CLI: add makes it, says which Python and which dependencies and what it cost, then keeps it', async () => {
    const file = join(scratch, 'environments-cli.json');
    const dir = join(scratch, 'fakedrift-2.0');
    const out: string[] = [];
    const err: string[] = [];
    const code = await runEnv(['add', 'fakedrift==2.0', '--venv', dir, '--create', '--index-url', withoutTimes.url, '--base-python', PYTHON, '--file', file], (s) => out.push(s), (s) => err.push(s));
    assert.equal(code, 0, err.join('\n'));
    assert.match(out.join('\n'), /^added fakedrift 2\.0 \(venv, python \S+\): .*fakedrift-2\.0/m);
    assert.match(out.join('\n'), /made in \d+ s, \d+ MB; python: as given \(--base-python\); the newest dependencies: .* gives no upload times/);
    assert.match(out.join('\n'), /smoke test passed \(fakedrift 2\.0, its module says 0\.9\.2\)/);
    assert.ok(err.some((l) => l.includes(`python ${host.version} (${PYTHON}): as given (--base-python)`)), err.join('\n'));
    const entry = JSON.parse(readFileSync(file, 'utf8')).environments[0];
    assert.equal(entry.created.basePython, PYTHON);
    assert.ok(entry.created.bytes > 100_000 && entry.created.seconds > 0, JSON.stringify(entry.created));
    const again: string[] = [];
    assert.equal(await runEnv(['add', 'fakedrift==2.0', '--venv', dir, '--create', '--index-url', withoutTimes.url, '--file', file], () => {}, (s) => again.push(s)), 0);
    assert.ok(again.some((l) => /already has fakedrift 2\.0 .*kept as it is/.test(l)), again.join('\n'));
    assert.ok(!again.some((l) => l.includes('$ ')), 'nothing installed again');
    await assert.rejects(runEnv(['add', 'fakedrift==2.0', '--venv', join(scratch, 'x'), '--newest-dependencies', '--file', file], () => {}, () => {}), /go with --venv DIR --create/);
  });

  test('the wheel cache: the first install keeps its wheels, the next one installs from them without any index', async () => {
    const cache = join(scratch, 'wheels');
    const first = join(scratch, 'cached-first');
    const lines: string[] = [];
    const entry = await venvEnvironment({ dir: first, library: 'fakedrift', version: '2.0', create: true, uv: null, indexUrl: withoutTimes.url, interpreters: [host], wheelCache: cache, onOutput: (l) => lines.push(l) });
    const folder = join(cache, `fakedrift-2.0-py${hostMinor}`);
    assert.ok(lines.some((l) => l.includes('pip wheel') || / wheel .*--wheel-dir/.test(l)), lines.join('\n'));
    assert.match(entry.created!.dependencyReason, new RegExp(`the wheels kept in ${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.ok(readdirSync(folder).some((f) => f.startsWith('fakedep-2.0-')), readdirSync(folder).join(', '));
    const record = JSON.parse(readFileSync(join(folder, '.anachron-complete'), 'utf8'));
    assert.equal(record.requirement, 'fakedrift==2.0');
    // No index at all now (a closed port): the plan and the install come from the kept wheels.
    const again: string[] = [];
    const second = await venvEnvironment({ dir: join(scratch, 'cached-second'), library: 'fakedrift', version: '2.0', create: true, uv: null, indexUrl: 'http://127.0.0.1:9/simple', interpreters: [host], wheelCache: cache, onOutput: (l) => again.push(l) });
    assert.equal(second.lastCheck?.ok, true);
    assert.match(second.created!.dependencyReason, /installed from the wheels an earlier install kept in /);
    assert.ok(again.some((l) => l.includes('--no-index') && l.includes(folder)), again.join('\n'));
    assert.ok(!again.some((l) => l.includes('asking the package index')), again.join('\n'));
  });

  test("the check: a metapackage's version, not its module's; the library file's smoke test", async () => {
    // No venv needed: the host interpreter with releases laid out on PYTHONPATH (module + distribution metadata).
    const layout = (version: string, moduleVersion: string, works: boolean) => {
      const site = join(scratch, `site-${version}`);
      mkdirSync(join(site, 'fakedrift'), { recursive: true });
      mkdirSync(join(site, `fakedrift-${version}.dist-info`), { recursive: true });
      writeFileSync(join(site, 'fakedrift', '__init__.py'), `__version__ = "${moduleVersion}"\ndef works():\n    return ${works ? 'True' : 'False'}\n`);
      writeFileSync(join(site, `fakedrift-${version}.dist-info`, 'METADATA'), `Metadata-Version: 2.1\nName: fakedrift\nVersion: ${version}\n`);
      return { argv: [PYTHON], env: { PYTHONPATH: site } };
    };
    const meta = await checkEnvironment({ library: 'fakedrift', version: '0.43.3', provider: 'interpreter', python: layout('0.43.3', '0.24.2', true), addedAt: '' });
    assert.deepEqual([meta.ok, meta.found, meta.reported, meta.smokeTest], [true, '0.43.3', '0.24.2', 'passed']);
    const other = await checkEnvironment({ library: 'fakedrift', version: '0.44.0', provider: 'interpreter', python: layout('0.43.3', '0.24.2', true), addedAt: '' });
    assert.equal(other.ok, false);
    assert.match(other.error!, /has fakedrift 0\.43\.3 \(its module says 0\.24\.2\), not 0\.44\.0/);
    const broken = await checkEnvironment({ library: 'fakedrift', version: '3.0', provider: 'interpreter', python: layout('3.0', '3.0', false), addedAt: '' });
    assert.equal(broken.ok, false);
    assert.match(broken.error!, /fakedrift 3\.0 imports, but its smoke test \(libraries\/fakedrift\.toml\) fails: AssertionError: fakedrift does not work/);
    const skipped = await checkEnvironment({ library: 'fakedrift', version: '3.0', provider: 'interpreter', python: layout('3.0', '3.0', false), addedAt: '' }, { smokeTest: false });
    assert.equal(skipped.ok, true);
  });
});
