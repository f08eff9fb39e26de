// A hostile project on disk, checked the way a user would (the built CLI, a real process): FIFOs where manifests and
// sources should be, a source that is a symlink to /dev/zero, includes of /dev/zero, /proc/self/environ and files
// outside the project, symlink loops, a chain of includes thousands deep, a requirement line of junk and control
// characters. The run must end, read no special file, quote nothing of the environment, report each file once, and
// say what it skipped and why.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { MAX_PROBLEM_MESSAGE } from '../../server/src/core/excerpt.js';
import { EnvironmentRegistry, RegistryError } from '../../server/src/environments/registry.js';
import { readBoundedText } from '../../server/src/workspace/bounded-read.js';
import { MAX_INCLUDE_DEPTH, pinsForFile } from '../../server/src/workspace/manifests.js';
import { walkFiles } from '../../server/src/workspace/python-files.js';
import { REPO_ROOT } from '../support/cli.js';

const SECRET = `anachron-secret-${randomUUID()}`;
const TRAPEZOID = 'import numpy as np\ny = np.trapezoid([1, 2, 3])\n';

function mkfifo(path: string): void {
  const r = spawnSync('mkfifo', [path]);
  assert.equal(r.status, 0, `mkfifo ${path}: ${r.stderr}`);
}

/** The CLI in a child process; a run that hangs is killed (and fails the test) instead of hanging the suite. */
function check(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'anachron.js'), 'check', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(r.signal, null, `the CLI was killed (${r.signal}): it hung or grew without bound\n${r.stderr?.slice(0, 2000)}`);
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function hostileProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-hostile-'));
  // fifo/: the manifest and a source are FIFOs nobody writes to.
  mkdirSync(join(dir, 'fifo'));
  mkfifo(join(dir, 'fifo', 'requirements.txt'));
  mkfifo(join(dir, 'fifo', 'pipe.py'));
  writeFileSync(join(dir, 'fifo', 'real.py'), TRAPEZOID);
  // devices/: a source that is a symlink to /dev/zero, a manifest including /dev/zero.
  mkdirSync(join(dir, 'devices'));
  symlinkSync('/dev/zero', join(dir, 'devices', 'zero.py'));
  writeFileSync(join(dir, 'devices', 'requirements.txt'), 'numpy==1.24.2\n-r /dev/zero\n');
  writeFileSync(join(dir, 'devices', 'a.py'), TRAPEZOID);
  // secrets/: includes of the process's environment, of /etc/shadow and, through a symlink, of a file outside.
  mkdirSync(join(dir, 'secrets'));
  writeFileSync(join(dir, 'secrets', 'requirements.txt'), 'numpy==1.24.2\n-r /proc/self/environ\n-c ../../../../../../etc/shadow\n-r linked.txt\n');
  symlinkSync('/proc/self/environ', join(dir, 'secrets', 'linked.txt'));
  writeFileSync(join(dir, 'secrets', 'a.py'), TRAPEZOID);
  // loops/: a link to its own parent and two links to each other.
  mkdirSync(join(dir, 'loops', 'p', 'q'), { recursive: true });
  writeFileSync(join(dir, 'loops', 'requirements.txt'), 'numpy==1.24.2\n');
  writeFileSync(join(dir, 'loops', 'p', 'a.py'), TRAPEZOID);
  symlinkSync('..', join(dir, 'loops', 'p', 'up'));
  symlinkSync('../q2', join(dir, 'loops', 'p', 'q', 'to-q2'));
  mkdirSync(join(dir, 'loops', 'p', 'q2'));
  symlinkSync('../q', join(dir, 'loops', 'p', 'q2', 'to-q'));
  writeFileSync(join(dir, 'loops', 'p', 'q', 'b.py'), TRAPEZOID);
  return dir;
}

describe('a hostile project through the CLI', () => {
  const dir = hostileProject();

  test('FIFOs are skipped with a word, never opened for reading; the real file is still checked', () => {
    const r = check(['fifo', '--pin', 'numpy==1.24.2'], dir);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /skipped fifo\/pipe\.py: a FIFO, not a regular file/);
    assert.match(r.stderr, /fifo\/requirements\.txt:1: cannot read fifo\/requirements\.txt: a FIFO, not a regular file/);
    assert.match(r.stdout, /fifo\/real\.py:2:\d+: .*`numpy\.trapezoid` needs numpy ≥ 2\.0 \(pinned 1\.24\.2\)/);
  });

  test('a source that is /dev/zero is skipped, an include of /dev/zero is refused; the pin still counts', () => {
    const r = check(['devices'], dir);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /skipped devices\/zero\.py: a character device, not a regular file/);
    assert.match(r.stderr, /devices\/requirements\.txt:2: cannot read .*dev\/zero, included with -r: it lies outside the project/);
    assert.match(r.stdout, /devices\/a\.py:2:\d+: .*`numpy\.trapezoid` needs numpy ≥ 2\.0 \(pinned 1\.24\.2\)/);
  });

  test('includes of /proc/self/environ and /etc/shadow (also behind a symlink) are refused; nothing of either is shown', () => {
    const r = check(['secrets', '--format', 'json'], dir, { ANACHRON_TEST_SECRET: SECRET });
    assert.equal(r.code, 1, r.stderr);
    for (const line of [2, 3, 4]) assert.match(r.stderr, new RegExp(`secrets/requirements\\.txt:${line}: cannot read .*: it lies outside the project`));
    assert.ok(!(r.stdout + r.stderr).includes(SECRET), 'the environment was quoted');
    assert.doesNotMatch(r.stdout + r.stderr, /PATH=|root:/);
    // Named by the user, the folder may be read: the include is followed (and quoted only as a short excerpt).
    const allowed = check(['secrets'], dir, { ANACHRON_TEST_SECRET: SECRET, ANACHRON_INCLUDE_PATHS: '/proc' });
    assert.doesNotMatch(allowed.stderr, /requirements\.txt:2: cannot read .*environ.*outside the project/);
    for (const line of allowed.stderr.split('\n')) assert.ok(line.length <= MAX_PROBLEM_MESSAGE + 200, `a warning quotes too much: ${line.slice(0, 300)}…`);
  });

  test('symlink loops end, and a file reached through them is reported once', () => {
    const r = check(['loops', '--format', 'json'], dir);
    assert.equal(r.code, 1, r.stderr);
    const files = (JSON.parse(r.stdout) as { findings: { file: string }[] }).findings.map((f) => f.file).sort();
    assert.deepEqual(files, ['loops/p/a.py', 'loops/p/q/b.py']);
  });
});

describe('what cannot be read is named, and the run exits 2', () => {
  test('a file that fails to read (EIO) and a folder without permission: results for the rest, then exit 2 naming both', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-unreadable-'));
    chmodSync(dir, 0o755);
    // The folders above (the test run's scratch folder) traversable for the unprivileged uid, not listable.
    for (let d = dirname(dir); d !== dirname(d); d = dirname(d)) {
      const mode = statSync(d).mode;
      if ((mode & 0o001) === 0) chmodSync(d, (mode & 0o7777) | 0o001);
    }
    writeFileSync(join(dir, 'requirements.txt'), 'numpy==1.24.2\n');
    writeFileSync(join(dir, 'a.py'), TRAPEZOID);
    symlinkSync('/proc/self/mem', join(dir, 'mem.py')); // a regular file to stat, EIO to read at offset 0
    mkdirSync(join(dir, 'locked'));
    writeFileSync(join(dir, 'locked', 'b.py'), TRAPEZOID);
    chmodSync(join(dir, 'locked'), 0o000);
    // Root reads any folder: the CLI then runs as root without the capabilities that override file permissions
    // (setpriv, util-linux), so `locked` is unreadable as it is to a user, while the checkout (which may sit in a
    // folder only its owner can enter, as CI's clone does) stays readable to its owner.
    const noOverride = '-dac_override,-dac_read_search';
    const asUser = process.getuid?.() === 0 ? ['setpriv', `--bounding-set=${noOverride}`, `--inh-caps=${noOverride}`] : [];
    const argv = [...asUser, process.execPath, join(REPO_ROOT, 'bin', 'anachron.js'), 'check', '.'];
    const r = spawnSync(argv[0]!, argv.slice(1), { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.signal, null, r.stderr);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.match(r.stdout, /a\.py:2:\d+: .*`numpy\.trapezoid` needs numpy ≥ 2\.0 \(pinned 1\.24\.2\)/);
    assert.match(r.stderr, /skipped locked: cannot read the folder: EACCES/);
    assert.match(r.stderr, /cannot read mem\.py: EIO/);
    assert.match(r.stderr, /anachron: error: could not read 2 files or folders: locked, mem\.py/);
  });

  test('a pyproject.toml with a broken table header is reported, not dropped without a word', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-broken-toml-'));
    writeFileSync(join(dir, 'pyproject.toml'), '[project\nname = "x"\ndependencies = ["numpy==1.24.2"]\n');
    const pins = pinsForFile(join(dir, 'a.py'), { displayBase: dir });
    assert.deepEqual(pins.manifests, [join(dir, 'pyproject.toml')]);
    assert.match(pins.problems[0]?.message ?? '', /^invalid TOML/);
    assert.equal(pins.problems[0]?.line, 1);
  });
});

describe('odd version spellings', () => {
  test('== compares PEP 440 normal forms: v1.24.2 and 0!1.24.2 pin 1.24.2, and are shown so; === stays text', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-pep440-'));
    writeFileSync(join(dir, 'requirements.txt'), 'numpy==v1.24.2\nscipy==0!1.10.0\npandas===2.0.3\nattrs==1.0.00\n');
    const { pins } = pinsForFile(join(dir, 'a.py'), { displayBase: dir });
    assert.deepEqual([...pins.values()].map((p) => [p.distribution, p.specifier, p.exactVersion]), [
      ['numpy', '==v1.24.2', '1.24.2'],
      ['scipy', '==0!1.10.0', '1.10.0'],
      ['pandas', '===2.0.3', '2.0.3'],
      ['attrs', '==1.0.00', '1.0.0'],
    ]);
    writeFileSync(join(dir, 'a.py'), TRAPEZOID);
    const r = check(['a.py'], dir);
    assert.match(r.stdout, /`numpy\.trapezoid` needs numpy ≥ 2\.0 \(pinned 1\.24\.2\) — requirements\.txt:1 pins numpy==v1\.24\.2;/);
  });
});

describe('odd line ends', () => {
  test('lone CRs end lines in manifests and sources, as pip and Python read them: the lines reported are the editor\'s', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-cr-'));
    writeFileSync(join(dir, 'requirements.txt'), 'scipy==1.10.0\rnumpy==1.24.2\r');
    writeFileSync(join(dir, 'a.py'), 'import numpy as np\r\r\ry = np.trapezoid([1, 2])\r');
    const r = check(['.', '--format', 'json'], dir);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr, '');
    const [finding] = (JSON.parse(r.stdout) as { findings: { line: number; column: number; message: string }[] }).findings;
    assert.equal(finding?.line, 4);
    assert.equal(finding?.column, 5);
    assert.match(finding?.message ?? '', /requirements\.txt:2 pins numpy==1\.24\.2/);
  });
});

describe('bounds on what a project can make anachron read', () => {
  test('only regular files are read, and never past the cap', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-bounded-'));
    mkfifo(join(dir, 'pipe'));
    assert.deepEqual(readBoundedText(join(dir, 'pipe'), 1024), { skipped: 'a FIFO, not a regular file' });
    assert.deepEqual(readBoundedText('/dev/zero', 1024), { skipped: 'a character device, not a regular file' });
    assert.deepEqual(readBoundedText(dir, 1024), { skipped: 'a folder, not a regular file' });
    writeFileSync(join(dir, 'big.txt'), 'x'.repeat(5000));
    assert.deepEqual(readBoundedText(join(dir, 'big.txt'), 4096), { skipped: 'larger than 4096 bytes (5000 bytes)' });
    assert.equal(readBoundedText(join(dir, 'big.txt'), 5000).text?.length, 5000);
    // A file whose size the system does not report (0 for /proc files) is read up to the cap only.
    assert.match(readBoundedText('/proc/self/maps', 16).skipped ?? '', /^larger than 16 bytes$/);
    assert.match(readBoundedText(join(dir, 'missing.txt'), 16).error ?? '', /ENOENT/);
  });

  test('the environment registry (ANACHRON_ENVIRONMENTS) that is /dev/zero or a FIFO is refused, not read forever', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-registry-'));
    mkfifo(join(dir, 'fifo.json'));
    assert.throws(() => EnvironmentRegistry.load('/dev/zero'), (e: Error) => e instanceof RegistryError && /cannot read the environment registry \/dev\/zero: a character device, not a regular file/.test(e.message));
    assert.throws(() => EnvironmentRegistry.load(join(dir, 'fifo.json')), (e: Error) => e instanceof RegistryError && /a FIFO, not a regular file/.test(e.message));
    assert.equal(EnvironmentRegistry.load(join(dir, 'absent.json')).file, join(dir, 'absent.json'));
  });

  test('a walk enters each folder once by its real path, lists each file once, and names what it skipped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-walk-'));
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    writeFileSync(join(dir, 'a', 'b', 'x.py'), '');
    writeFileSync(join(dir, 'z.py'), '');
    symlinkSync(join(dir, 'a'), join(dir, 'a', 'b', 'back'));
    symlinkSync(join(dir, 'z.py'), join(dir, 'a', 'also-z.py'));
    mkfifo(join(dir, 'a', 'fifo.py'));
    symlinkSync('/dev/null', join(dir, 'null.py'));
    const skipped: string[] = [];
    const files = walkFiles(dir, (name) => name.endsWith('.py'), [], (s) => skipped.push(`${s.path.slice(dir.length + 1)}: ${s.reason}`));
    assert.deepEqual(files.map((f) => f.path.slice(dir.length + 1)), ['a/also-z.py', 'a/b/x.py']);
    assert.deepEqual(skipped, ['a/fifo.py: a FIFO, not a regular file', 'null.py: a character device, not a regular file']);
  });

  test(`includes nest at most ${MAX_INCLUDE_DEPTH} deep: a chain of 5,000 files is cut there with a problem, not a stack overflow`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-chain-'));
    const n = 5000;
    writeFileSync(join(dir, 'requirements.txt'), 'numpy==1.24.2\n-r r1.txt\n');
    for (let i = 1; i < n; i++) writeFileSync(join(dir, `r${i}.txt`), `scipy==1.${i}.0\n-r r${i + 1}.txt\n`);
    writeFileSync(join(dir, `r${n}.txt`), 'pandas==2.0.3\n');
    const pins = pinsForFile(join(dir, 'a.py'), { displayBase: dir });
    assert.equal(pins.pins.get('numpy')?.specifier, '==1.24.2');
    assert.equal(pins.manifests.length, MAX_INCLUDE_DEPTH);
    assert.deepEqual(
      pins.problems.filter((p) => /deeper/.test(p.message)),
      [{ file: `r${MAX_INCLUDE_DEPTH - 1}.txt`, line: 2, message: `-r r${MAX_INCLUDE_DEPTH}.txt not read: includes nest deeper than ${MAX_INCLUDE_DEPTH} files` }],
    );
    assert.equal(pins.pins.has('pandas'), false);
  });

  test('a problem quotes a short excerpt on one line, whatever the line holds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-excerpt-'));
    const junk = `!!${'\u0000PATH=/secret\u001b[2J'.repeat(500)}`;
    writeFileSync(join(dir, 'requirements.txt'), `${junk}\nnumpy==${'9'.repeat(3000)}x\n`);
    const { problems } = pinsForFile(join(dir, 'a.py'), { displayBase: dir });
    assert.equal(problems.length, 2, JSON.stringify(problems).slice(0, 500));
    for (const p of problems) {
      assert.ok(p.message.length <= 120, p.message);
      assert.doesNotMatch(p.message, /[\u0000-\u001f]/);
    }
  });
});
