// The execution sandbox with the machine's /usr/bin/python3: outcomes (pass, soft-fail, hard-fail with its type,
// timeout), and samples that open sockets, write outside their folder, fork or allocate without bound, sleep forever
// or flood stdout are contained and classified, with no process left behind.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { randomUUID } from 'node:crypto';
import {
  executeSample,
  SandboxError,
  SandboxUnavailableError,
  sandboxCapabilities,
  type ExecutionOutcome,
  type ExecutionRequest,
  type SandboxCapabilities,
} from '../server/src/environments/sandbox.js';

const PYTHON = process.env.ANACHRON_SANDBOX_PYTHON ?? '/usr/bin/python3';
const SKIP = existsSync(PYTHON) ? false : `${PYTHON} not found`;
const CALL = 'def check(candidate):\n    candidate()\n';

let scratch = '';
let site = '';
let plainDir = '';
let caps: SandboxCapabilities;

/** Processes whose environment holds `marker` (the sample's and any it started). */
function processesWithMarker(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`).includes(marker)) found.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

async function noProcessesLeft(marker: string): Promise<number[]> {
  let left = processesWithMarker(marker);
  for (let i = 0; i < 40 && left.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 50));
    left = processesWithMarker(marker);
  }
  return left;
}

function run(code: string, extra: Partial<ExecutionRequest> & { marker?: string; pythonEnv?: Record<string, string> } = {}): Promise<ExecutionOutcome> {
  const { marker, pythonEnv, ...rest } = extra;
  return executeSample({
    python: { argv: [PYTHON], env: { PYTHONPATH: site, ...(marker ? { ANACHRON_TEST_MARKER: marker } : {}), ...pythonEnv } },
    code,
    harness: CALL,
    entryPoint: 'f',
    timeoutMs: 20_000,
    memoryMb: 1024,
    ...rest,
  });
}

describe('sandbox', { skip: SKIP }, () => {
  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'anachron-sandbox-test-'));
    // A fake library that deprecates old() in favour of new(), installed the way pip would.
    site = join(scratch, 'site-packages');
    mkdirSync(join(site, 'fakelib'), { recursive: true });
    writeFileSync(join(site, 'fakelib', '__init__.py'), [
      'import warnings',
      '__version__ = "2.0"',
      'def old(x):',
      '    warnings.warn("old() is deprecated, use new()", DeprecationWarning, stacklevel=2)',
      '    return x',
      'def later(x):',
      '    warnings.warn("later() will change", FutureWarning)',
      '    return x',
      'class LibDeprecation(DeprecationWarning):',
      '    pass',
      'def gone_soon(x):',
      '    warnings.warn("gone_soon() is deprecated", LibDeprecation, stacklevel=2)',
      '    return x',
      'def pending(x):',
      '    warnings.warn("pending() will be deprecated", PendingDeprecationWarning, stacklevel=2)',
      '    return x',
      'def new(x):',
      '    return x',
      '',
    ].join('\n'));
    // The same library in a folder that is not a site-packages: known as the library only through `library`.
    plainDir = join(scratch, 'plain');
    mkdirSync(join(plainDir, 'fakelib'), { recursive: true });
    writeFileSync(join(plainDir, 'fakelib', '__init__.py'), readFileSync(join(site, 'fakelib', '__init__.py')));
    caps = await sandboxCapabilities();
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  test('capabilities are detected once and reported per run', async () => {
    assert.equal(await sandboxCapabilities(), caps);
    assert.ok(caps.boundary, `this machine gives the OS boundary (CI installs bubblewrap): ${caps.refusal}`);
    assert.equal(caps.boundary.mode, process.getuid?.() === 0 ? 'uid-drop' : 'userns');
    const r = await run('def f():\n    return 1\n');
    assert.equal(r.outcome, 'pass');
    for (const layer of ['process-group', 'scrubbed-env', 'bubblewrap', 'pidns', 'netns', 'mountns', 'ipcns', 'tmpfs-workdir', 'rlimits', 'rlimit-as', 'rlimit-nproc', 'audit-hook']) assert.ok(r.isolation.includes(layer), layer);
    assert.equal(r.isolation.includes('seccomp'), caps.boundary.seccomp);
    assert.equal(r.isolation.includes('cgroup-pids'), caps.cgroups.pids !== null);
    assert.equal(r.isolation.includes('cgroup-memory'), caps.cgroups.memory !== null);
    // A layer the machine lacks is explained.
    if (!caps.boundary.seccomp || caps.cgroups.pids === null || caps.cgroups.memory === null) assert.ok(caps.notes.length > 0, JSON.stringify(caps));
    const without = await run('def f():\n    return 1\n', { disable: ['seccomp', 'cgroup', 'audit-hook'] });
    assert.equal(without.outcome, 'pass');
    assert.deepEqual(without.isolation.filter((l) => ['seccomp', 'cgroup-pids', 'cgroup-memory', 'audit-hook'].includes(l)), []);
    assert.ok(without.isolation.includes('bubblewrap'), 'the boundary is never left out');
  });

  test('no boundary: refused with why and how to enable it, unless the caller opts in', async () => {
    process.env.ANACHRON_SANDBOX_BOUNDARY = '0';
    try {
      const none = await sandboxCapabilities({ refresh: true });
      assert.equal(none.boundary, null);
      await assert.rejects(run('def f():\n    return 1\n'), (e: Error) => {
        assert.ok(e instanceof SandboxUnavailableError && e instanceof SandboxError);
        assert.match(e.message, /runs only inside an OS sandbox/);
        assert.match(e.message, /apt install bubblewrap/);
        assert.match(e.message, /--allow-unsandboxed/);
        return true;
      });
      const r = await run('import os\ndef f():\n    print(os.getcwd())\n', { allowUnsandboxed: true });
      assert.equal(r.outcome, 'pass', JSON.stringify(r));
      assert.ok(r.isolation.includes('unsandboxed') && !r.isolation.includes('bubblewrap'), r.isolation.join(','));
      assert.match(r.stdout ?? '', /anachron-sbx-/);
      assert.equal(existsSync((r.stdout ?? '').trim()), false, 'the working folder is removed afterwards');
    } finally {
      delete process.env.ANACHRON_SANDBOX_BOUNDARY;
      caps = await sandboxCapabilities({ refresh: true });
    }
  });

  test('pass, and the return value of check does not matter unless it is False', async () => {
    const r = await run('def add(a, b):\n    return a + b\n', { entryPoint: 'add', harness: 'def check(candidate):\n    assert candidate(2, 3) == 5\n    return None\n' });
    assert.equal(r.outcome, 'pass', JSON.stringify(r));
    assert.equal(r.phase, 'check');
    assert.deepEqual(r.warnings, []);
    assert.ok(r.durationMs > 0);
    const no = await run('def f():\n    return 1\n', { harness: 'def check(candidate):\n    return candidate() == 2\n' });
    assert.equal(no.outcome, 'hard-fail');
    assert.equal(no.errorType, 'AssertionError');
  });

  test('soft-fail: a deprecation warning raised by the library under test', async () => {
    const r = await run('import fakelib\ndef f():\n    return fakelib.old(1)\n');
    assert.equal(r.outcome, 'soft-fail', JSON.stringify(r));
    assert.equal(r.warnings.length, 1);
    assert.equal(r.warnings[0]!.category, 'DeprecationWarning');
    assert.equal(r.warnings[0]!.message, 'old() is deprecated, use new()');
    assert.equal(r.warnings[0]!.filename, 'sample.py'); // stacklevel=2 names the caller; the library raised it
    assert.equal(r.warnings[0]!.fromLibrary, true);
    assert.equal(r.warnings[0]!.caller, 'sample');

    assert.deepEqual(r.warnings[0]!.mro, ['DeprecationWarning', 'Warning', 'Exception', 'BaseException', 'object']);
    assert.equal(r.warnings[0]!.deprecation, true);

    // A class of the library's own with DeprecationWarning in its MRO is a DeprecationWarning (paper §2.5).
    const sub = await run('import fakelib\ndef f():\n    return fakelib.gone_soon(1)\n');
    assert.equal(sub.outcome, 'soft-fail', JSON.stringify(sub));
    assert.deepEqual(sub.warnings[0]!.mro, ['fakelib.LibDeprecation', 'DeprecationWarning', 'Warning', 'Exception', 'BaseException', 'object']);

    // Outside any site-packages, the library is known by name.
    const named = await run('import fakelib\ndef f():\n    return fakelib.old(1)\n', { library: 'fakelib', pythonEnv: { PYTHONPATH: plainDir } });
    assert.equal(named.outcome, 'soft-fail', JSON.stringify(named));
    const unnamed = await run('import fakelib\ndef f():\n    return fakelib.old(1)\n', { pythonEnv: { PYTHONPATH: plainDir } });
    assert.equal(unnamed.outcome, 'pass', 'without `library`, a folder that is not a site-packages is not a library');
  });

  test('not a soft-fail: FutureWarning and PendingDeprecationWarning from the library pass, recorded with their MRO', async () => {
    const future = await run('import fakelib\ndef f():\n    return fakelib.later(1)\n');
    assert.equal(future.outcome, 'pass', JSON.stringify(future));
    assert.equal(future.warnings[0]!.category, 'FutureWarning');
    assert.match(future.warnings[0]!.filename ?? '', /site-packages\/fakelib\/__init__\.py$/);
    assert.equal(future.warnings[0]!.fromLibrary, true);
    assert.equal(future.warnings[0]!.deprecation, false);
    assert.deepEqual(future.warnings[0]!.mro, ['FutureWarning', 'Warning', 'Exception', 'BaseException', 'object']);
    const pending = await run('import fakelib\ndef f():\n    return fakelib.pending(1)\n');
    assert.equal(pending.outcome, 'pass', JSON.stringify(pending));
    assert.equal(pending.warnings[0]!.category, 'PendingDeprecationWarning');
    assert.equal(pending.warnings[0]!.fromLibrary, true);
    assert.equal(pending.warnings[0]!.deprecation, false);
    // Both at once with a DeprecationWarning: the DeprecationWarning decides.
    const both = await run('import fakelib\ndef f():\n    return fakelib.old(fakelib.later(1))\n');
    assert.equal(both.outcome, 'soft-fail', JSON.stringify(both));
    assert.deepEqual(both.warnings.map((w) => [w.category, w.deprecation]), [['FutureWarning', false], ['DeprecationWarning', true]]);
  });

  test('not a soft-fail: the sample\'s own warnings, the harness\'s, other categories, the new API', async () => {
    const own = await run('import warnings\ndef f():\n    warnings.warn("mine", DeprecationWarning)\n');
    assert.equal(own.outcome, 'pass', JSON.stringify(own));
    assert.equal(own.warnings[0]?.fromLibrary, false);
    const harness = await run('def f():\n    return 1\n', { harness: 'import fakelib\ndef check(candidate):\n    assert fakelib.old(candidate()) == 1\n' });
    assert.equal(harness.outcome, 'pass', JSON.stringify(harness));
    assert.equal(harness.warnings[0]?.caller, 'harness');
    const user = await run('import warnings\ndef f():\n    warnings.warn("just so", UserWarning)\n');
    assert.equal(user.outcome, 'pass');
    assert.equal(user.warnings[0]?.category, 'UserWarning');
    const fresh = await run('import fakelib\ndef f():\n    return fakelib.new(1)\n');
    assert.equal(fresh.outcome, 'pass');
    assert.deepEqual(fresh.warnings, []);
  });

  test('hard-fail keeps the exception type and the phase', async () => {
    const cases: [string, string, string, RegExp?][] = [
      ['import fakelib_missing\ndef f():\n    pass\n', 'ModuleNotFoundError', 'import', /fakelib_missing/],
      ['from fakelib import gone\ndef f():\n    pass\n', 'ImportError', 'import', /cannot import name 'gone'/],
      ['import fakelib\ndef f():\n    return fakelib.gone(1)\n', 'AttributeError', 'check', /has no attribute 'gone'/],
      ['import fakelib\nOLD = fakelib.gone\ndef f():\n    pass\n', 'AttributeError', 'define'],
      ['import fakelib\ndef f():\n    return fakelib.new(1, precise=True)\n', 'TypeError', 'check', /unexpected keyword argument 'precise'/],
      ['def f():\n    return int("x")\n', 'ValueError', 'check'],
      ['def f(:\n    pass\n', 'SyntaxError', 'define'],
      ['def g():\n    pass\n', 'NameError', 'define', /defines no 'f'/],
      ['def f():\n    return undefined_name\n', 'NameError', 'check'],
      ['import sys\ndef f():\n    sys.exit(3)\n', 'SystemExit', 'check'],
    ];
    for (const [code, errorType, phase, message] of cases) {
      const r = await run(code);
      assert.equal(r.outcome, 'hard-fail', code);
      assert.equal(r.errorType, errorType, code);
      assert.equal(r.phase, phase, code);
      if (message) assert.match(r.message ?? '', message, code);
    }
    const r = await run('import fakelib\ndef f():\n    return fakelib.gone(1)\n');
    assert.match(r.trace ?? '', /File "sample\.py", line 3, in f\n\s+return fakelib\.gone\(1\)/);
    assert.doesNotMatch(r.trace ?? '', /sandbox_run\.py/, 'the runner\'s own frames are left out');
    const harness = await run('def f():\n    return 1\n', { harness: 'def nope(:\n' });
    assert.equal(harness.errorType, 'HarnessError');
  });

  test('timeout: a sample that sleeps forever is killed within its budget, with its process group', async () => {
    const marker = randomUUID();
    const started = Date.now();
    // A child in its own session leaves the process group: the pid namespace (and the cgroup) catch it.
    const code = 'import os, time\ndef f():\n    if os.fork() == 0:\n        os.setsid()\n        time.sleep(1000)\n    time.sleep(1000)\n';
    const r = await run(code, { timeoutMs: 2000, marker });
    assert.equal(r.outcome, 'timeout', JSON.stringify(r));
    assert.equal(r.errorType, 'Timeout');
    assert.ok(Date.now() - started < 8000, `took ${Date.now() - started} ms`);
    assert.deepEqual(await noProcessesLeft(marker), [], 'the sample and its child are gone');
  });

  test('CPU-time limit: a busy loop is stopped by RLIMIT_CPU as a timeout', async () => {
    const r = await run('def f():\n    while True:\n        pass\n', { cpuSeconds: 1, timeoutMs: 20_000 });
    assert.equal(r.outcome, 'timeout', JSON.stringify(r));
    assert.equal(r.errorType, 'CpuTimeLimit');
    assert.ok(r.durationMs < 10_000);
  });

  test('network: a socket is contained (no connection reaches the host) and classified', async () => {
    let connections = 0;
    const server = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const code = `import socket\ndef f():\n    s = socket.create_connection(("127.0.0.1", ${port}), timeout=5)\n    s.sendall(b"hello")\n`;
      const r = await run(code);
      assert.equal(r.outcome, 'hard-fail');
      assert.equal(r.errorType, 'SandboxViolation');
      assert.match(r.message ?? '', /socket\.connect refused/);
      assert.equal(r.violations?.[0]?.event, 'socket.connect');
      // Caught by the sample: still contained, still a violation.
      const caught = await run(`import socket\ndef f():\n    try:\n        socket.create_connection(("127.0.0.1", ${port}), timeout=5)\n    except OSError:\n        pass\n`);
      assert.equal(caught.errorType, 'SandboxViolation');
      const dns = await run('import socket\ndef f():\n    socket.getaddrinfo("example.com", 80)\n');
      assert.equal(dns.errorType, 'SandboxViolation');
      // Without the audit hook the network namespace alone stops it.
      const bare = await run(code, { disable: ['audit-hook'] });
      assert.equal(bare.outcome, 'hard-fail');
      assert.match(bare.errorType ?? '', /^(ConnectionRefusedError|OSError|TimeoutError)$/, JSON.stringify(bare));
      assert.equal(connections, 0, 'no connection reached the test server');
    } finally {
      server.close();
    }
  });

  test('files: writes outside the working directory are refused, inside are fine; the folder is removed', async () => {
    const target = join(scratch, 'escaped.txt');
    const r = await run(`def f():\n    with open(${JSON.stringify(target)}, "w") as fh:\n        fh.write("x")\n`);
    assert.equal(r.outcome, 'hard-fail');
    assert.equal(r.errorType, 'SandboxViolation');
    assert.equal(existsSync(target), false);
    const viaChdir = await run(`import os\ndef f():\n    os.chdir(${JSON.stringify(scratch)})\n    open("escaped.txt", "w").close()\n`);
    assert.equal(viaChdir.errorType, 'SandboxViolation');
    const viaLink = await run(`import os\ndef f():\n    os.symlink(${JSON.stringify(scratch)}, "out")\n    open("out/escaped.txt", "w").close()\n`);
    assert.equal(viaLink.errorType, 'SandboxViolation');
    const remove = await run(`import os\ndef f():\n    os.remove(${JSON.stringify(join(site, 'fakelib', '__init__.py'))})\n`);
    assert.equal(remove.errorType, 'SandboxViolation');
    assert.ok(existsSync(join(site, 'fakelib', '__init__.py')));
    // Without the audit hook: the host's folders are not there, the system folders are read-only.
    const bare = await run(`def f():\n    open(${JSON.stringify(target)}, "w").close()\n`, { disable: ['audit-hook'] });
    assert.ok(bare.errorType === 'FileNotFoundError' || /Read-only file system/.test(bare.message ?? ''), JSON.stringify(bare));
    const system = await run('def f():\n    open("/usr/lib/escaped.txt", "w").close()\n', { disable: ['audit-hook'] });
    assert.equal(system.errorType, 'OSError');
    assert.match(system.message ?? '', /Read-only file system/);
    assert.equal(existsSync(target), false);

    const inside = await run('import os, tempfile\ndef f():\n    os.mkdir("d")\n    with open("d/out.txt", "w") as fh:\n        fh.write("x")\n    with tempfile.NamedTemporaryFile() as t:\n        t.write(b"y")\n    with open(os.path.expanduser("~/.cache-like"), "w") as fh:\n        fh.write("z")\n    print(os.getcwd())\n');
    assert.equal(inside.outcome, 'pass', JSON.stringify(inside));
    assert.equal((inside.stdout ?? '').trim(), '/sandbox', 'a tmpfs of its own, gone with the sandbox');
    assert.deepEqual(readdirSync(tmpdir()).filter((n) => n.startsWith(`anachron-sbx-${process.pid}-`)), [], 'nothing on the host\'s disk');
  });

  test('processes: a fork bomb is contained, the run goes on, nothing is left behind', async () => {
    const marker = randomUUID();
    const started = Date.now();
    const r = await run('import os\ndef f():\n    while True:\n        os.fork()\n', { marker, maxProcesses: 4 });
    assert.equal(r.outcome, 'hard-fail', JSON.stringify(r));
    assert.equal(r.errorType, 'SandboxViolation');
    assert.ok(Date.now() - started < 10_000);
    assert.deepEqual(await noProcessesLeft(marker), []);

    const spawns = await run('import subprocess\ndef f():\n    for _ in range(10):\n        subprocess.run(["true"])\n', { maxProcesses: 3 });
    assert.equal(spawns.errorType, 'SandboxViolation');
    assert.match(spawns.message ?? '', /process limit/);
    const few = await run('import subprocess\ndef f():\n    assert subprocess.run(["true"]).returncode == 0\n', { maxProcesses: 3 });
    assert.equal(few.outcome, 'pass', JSON.stringify(few));
    const viaCtypes = await run('import ctypes\ndef f():\n    ctypes.CDLL(None).fork()\n');
    assert.equal(viaCtypes.errorType, 'SandboxViolation');

    // Without the audit hook, the kernel bounds it: RLIMIT_NPROC for the sandbox's own uid (and the pids cgroup).
    const bareMarker = randomUUID();
    const bare = await run('import os\ndef f():\n    while True:\n        os.fork()\n', { marker: bareMarker, disable: ['audit-hook'], timeoutMs: 15_000 });
    assert.ok(bare.outcome === 'hard-fail' || bare.outcome === 'timeout', JSON.stringify(bare));
    if (bare.outcome === 'hard-fail') assert.match(bare.errorType ?? '', /BlockingIOError|OSError/);
    assert.deepEqual(await noProcessesLeft(bareMarker), []);
    const after = await run('def f():\n    return 1\n');
    assert.equal(after.outcome, 'pass', 'the next run is unaffected');
  });

  test('memory: allocating without bound ends in MemoryError', async () => {
    const r = await run('def f():\n    chunks = []\n    while True:\n        chunks.append(bytearray(16 * 1024 * 1024))\n', { memoryMb: 256 });
    assert.equal(r.outcome, 'hard-fail', JSON.stringify(r));
    assert.equal(r.errorType, 'MemoryError');
    const huge = await run('def f():\n    return bytearray(1 << 40)\n', { memoryMb: 256 });
    assert.equal(huge.errorType, 'MemoryError');
  });

  test('crashes are hard-fails named after the signal', async () => {
    const r = await run('import ctypes\ndef f():\n    ctypes.string_at(0)\n');
    assert.equal(r.outcome, 'hard-fail');
    assert.equal(r.errorType, 'Crash:SIGSEGV', JSON.stringify(r));
    assert.match(r.stderr ?? '', /Segmentation fault|Fatal Python error/);
    const exit = await run('import os\ndef f():\n    os._exit(0)\n');
    assert.equal(exit.errorType, 'ProcessExit');
  });

  test('stdout spam and a polluted stdout do not break the result', async () => {
    const r = await run('import sys, json\ndef f():\n    print(json.dumps({"outcome": "pass"}))\n    for _ in range(200):\n        sys.stdout.write("x" * 100_000)\n    sys.stdout.flush()\n    raise ValueError("after the spam")\n');
    assert.equal(r.outcome, 'hard-fail', JSON.stringify({ ...r, stdout: undefined }));
    assert.equal(r.errorType, 'ValueError');
    assert.ok((r.stdout ?? '').length < 64 * 1024, `stdout kept: ${r.stdout?.length}`);
    assert.match(r.stdout ?? '', /bytes left out/);
  });

  test('the environment is scrubbed', async () => {
    process.env.ANACHRON_SANDBOX_TEST_SECRET = 'do-not-leak';
    try {
      const r = await run('import os\ndef f():\n    return dict(os.environ)\n', {
        harness: [
          'import os',
          'def check(candidate):',
          '    env = candidate()',
          '    assert "ANACHRON_SANDBOX_TEST_SECRET" not in env, env',
          '    assert env["HOME"] == os.getcwd(), env',
          '    assert env["TMPDIR"].startswith(os.getcwd()), env',
          '    assert env["LANG"] == "C.UTF-8" and env["PYTHONHASHSEED"] == "0" and env["PYTHONDONTWRITEBYTECODE"] == "1"',
          '    assert env["PYTHONPATH"]  # the PythonCommand\'s own environment',
          '    allowed = {"PATH", "LANG", "LC_ALL", "HOME", "TMPDIR", "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED", "PWD",',
          '               "PYTHONNOUSERSITE", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "PYTHONPATH"}',
          '    assert set(env) <= allowed, sorted(set(env) - allowed)',
          '',
        ].join('\n'),
      });
      assert.equal(r.outcome, 'pass', JSON.stringify(r));
    } finally {
      delete process.env.ANACHRON_SANDBOX_TEST_SECRET;
    }
  });

  test('abort: the signal stops the run, kills the group and rejects', async () => {
    const marker = randomUUID();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    await assert.rejects(run('import time\ndef f():\n    time.sleep(1000)\n', { marker, signal: controller.signal }), { name: 'AbortError' });
    assert.deepEqual(await noProcessesLeft(marker), []);
  });

  test('the runner killed mid-run: the sample dies with it, and its cgroups go on the next start', { skip: process.platform !== 'linux' }, async (t) => {
    const marker = randomUUID();
    const script = join(scratch, 'killed-runner.ts');
    writeFileSync(script, [
      `import { executeSample } from ${JSON.stringify(join(__dirname, '..', 'server', 'src', 'environments', 'sandbox.ts'))};`,
      `executeSample({ python: { argv: [${JSON.stringify(PYTHON)}], env: { ANACHRON_TEST_MARKER: ${JSON.stringify(marker)} } },`,
      `  code: 'import time\\ndef f():\\n    time.sleep(1000)\\n', harness: 'def check(c):\\n    c()\\n', entryPoint: 'f', timeoutMs: 600000 });`,
      '',
    ].join('\n'));
    const runner = spawn(process.execPath, ['--import', 'tsx', script], { stdio: 'ignore' });
    // A failed assertion must not leave the runner (and its sleeping sample) holding the test file open.
    t.after(() => { if (runner.exitCode === null && runner.signalCode === null) runner.kill('SIGKILL'); });
    // Seen once is enough: the processes carrying the marker change while the sandbox starts, so a second look can miss.
    let started = false;
    for (let i = 0; i < 200 && !started; i++) {
      started = processesWithMarker(marker).length > 0;
      if (!started) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(started, 'the sample started');
    await new Promise((r) => setTimeout(r, 300));
    const cgroupBase = caps.cgroups.pids;
    const leftover = cgroupBase ? readdirSync(cgroupBase).filter((n) => n.startsWith(`anachron-${runner.pid}-`)) : [];
    if (cgroupBase) assert.equal(leftover.length, 1, 'the run has its cgroup');
    runner.kill('SIGKILL');
    await new Promise((r) => runner.on('exit', r));
    assert.deepEqual(await noProcessesLeft(marker), [], 'the sample died with its runner');
    if (cgroupBase) {
      assert.ok(existsSync(join(cgroupBase, leftover[0]!)), 'a killed runner cannot clean up');
      await sandboxCapabilities({ refresh: true });
      assert.ok(!existsSync(join(cgroupBase, leftover[0]!)), 'the next start removes what a dead runner left');
    }
  });

  test('an interpreter that does not start is a SandboxError, not the sample\'s failure', async () => {
    await assert.rejects(executeSample({ python: { argv: [join(scratch, 'no-such-python')] }, code: '', harness: CALL, entryPoint: 'f' }), SandboxError);
    const shown = join(scratch, 'bin');
    mkdirSync(shown, { mode: 0o755 });
    const fake = join(shown, 'not-python');
    writeFileSync(fake, '#!/bin/sh\necho broken >&2\nexit 3\n', { mode: 0o755 });
    await assert.rejects(executeSample({ python: { argv: [fake] }, code: '', harness: CALL, entryPoint: 'f' }), /did not start the sandbox runner[\s\S]*broken/);
    if (caps.boundary?.mode === 'uid-drop') {
      // The sandbox's user is not the caller: an interpreter only root can read is said to be so.
      const hidden = join(scratch, 'hidden');
      mkdirSync(hidden, { mode: 0o700 });
      writeFileSync(join(hidden, 'python3'), '#!/bin/sh\nexit 3\n', { mode: 0o755 });
      await assert.rejects(executeSample({ python: { argv: [join(hidden, 'python3')] }, code: '', harness: CALL, entryPoint: 'f' }), /not readable by other users[\s\S]*hidden/);
    }
  });

  test('runs in parallel stay apart', async () => {
    const rs = await Promise.all([1, 2, 3, 4].map((i) => run(`import os\ndef f():\n    open("mine.txt", "w").write("${i}")\n    return os.getcwd()\n`, { harness: `def check(candidate):\n    import os\n    candidate()\n    assert open("mine.txt").read() == "${i}"\n    assert os.listdir(".") == ["mine.txt", "tmp"] or sorted(os.listdir(".")) == ["mine.txt", "tmp"], os.listdir(".")\n` })));
    for (const r of rs) assert.equal(r.outcome, 'pass', JSON.stringify(r));
  });
});
