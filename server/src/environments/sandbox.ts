// Runs one generated code sample against a test harness in an interpreter of the environment under test, contained:
// a separate process per sample in a fresh temporary working directory (removed afterwards, always), a scrubbed
// environment, a detached process group killed as a whole on timeout or abort, output caps, and, where the OS allows,
// network/pid/mount namespaces (`unshare`) and a pids cgroup. Inside the interpreter, python-probe/sandbox_run.py adds
// resource limits and an audit hook, runs the sample and classifies the outcome. What is enforced where:
// python-probe/README.md, "Sandbox: what is enforced where".
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import type { Readable } from 'node:stream';
import { probeFolder } from './python-probe-runner.js';

/** The argv prefix that runs a Python interpreter (e.g. ['/usr/bin/python3'] or a Debian root's run-python), with
 *  environment variables it needs (PYTHONPATH, …); they are added to the sandbox's scrubbed environment. */
export interface PythonCommand {
  argv: string[];
  env?: Record<string, string>;
}

/** An isolation layer a request may switch off (tests of the remaining layers, diagnosis on odd machines). */
export type SandboxLayer = 'namespaces' | 'cgroup' | 'audit-hook';

export interface ExecutionRequest {
  python: PythonCommand;
  /** The sample: a Python module that defines `entryPoint`. */
  code: string;
  /** Python code defining `check(candidate)`; it raises (AssertionError, …) when the candidate is wrong. */
  harness: string;
  entryPoint: string;
  /** Wall-clock limit for the whole run; default 30000. */
  timeoutMs?: number;
  /** Address-space limit (RLIMIT_AS) in MiB; default 4096. */
  memoryMb?: number;
  /** Processes the sample may start (audit hook; RLIMIT_NPROC when not root; the pids cgroup adds an allowance for
   *  threads); default 8. */
  maxProcesses?: number;
  signal?: AbortSignal;
  /** Import name of the library under test (numpy): imported before the sample, so its import-time warnings do not
   *  count, and its folder counts as the library's when deciding whether a deprecation warning came from it. */
  library?: string;
  /** CPU-time limit (RLIMIT_CPU) in seconds; default: the wall-clock limit, rounded up. Reaching it is a timeout. */
  cpuSeconds?: number;
  /** Largest file the sample may write (RLIMIT_FSIZE), MiB; default 64. */
  maxFileMb?: number;
  /** Layers to leave out (default: none). */
  disable?: SandboxLayer[];
}

export interface ExecutionWarning {
  category: string;
  message: string;
  filename?: string;
  lineno?: number;
  /** Raised by the library under test (its files, a category it defines, or native code the sample called). */
  fromLibrary?: boolean;
  /** The nearest of the sample's or the harness's frames around the warning ('other' when neither). */
  caller?: 'sample' | 'harness' | 'other';
  /** How many times it was raised. */
  count?: number;
}

export interface ExecutionOutcome {
  outcome: 'pass' | 'soft-fail' | 'hard-fail' | 'timeout';
  /** The exception's type name (ImportError, AttributeError, …), "SandboxViolation", "MemoryError",
   *  "Crash:SIGSEGV" (killed by a signal), "ProcessExit" (exited without a result), "Timeout", "CpuTimeLimit". */
  errorType?: string;
  /** The nearest built-in exception class of errorType (numpy's AxisError → ValueError). */
  errorBase?: string;
  message?: string;
  /** The traceback without the sandbox runner's own frames, trimmed. */
  trace?: string;
  phase?: string;
  warnings: ExecutionWarning[];
  durationMs: number;
  /** What was enforced for this run: process-group, tmpdir, scrubbed-env, netns, pidns, mountns-ro, userns,
   *  cgroup-pids, pdeathsig, rlimits (and each rlimit-…), audit-hook. */
  isolation: string[];
  /** Operations the audit hook refused. */
  violations?: { event: string; detail: string }[];
  /** The Python version that ran the sample. */
  python?: string;
  /** Heads and tails of the sample's output (capped). */
  stdout?: string;
  stderr?: string;
  exitCode?: number | null;
  exitSignal?: string | null;
}

/** The sandbox could not run the interpreter at all (a broken environment, not the sample's doing). */
export class SandboxError extends Error {
  override name = 'SandboxError';
}

export const SANDBOX_DEFAULTS = Object.freeze({
  timeoutMs: 30_000,
  memoryMb: 4096,
  maxProcesses: 8,
  maxFileMb: 64,
  /** Tasks the pids cgroup allows beyond maxProcesses: the wrappers and the interpreter's threads. */
  threadAllowance: 64,
  /** Kept of each of stdout and stderr: this many bytes from the start and from the end. */
  outputHeadBytes: 16 * 1024,
  outputTailBytes: 16 * 1024,
  resultLimitBytes: 4 * 1024 * 1024,
});

const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

// Runs inside the namespaces as their pid 1 (it stays, so the interpreter is an ordinary process and the namespace
// dies with this shell): bind the working directory onto itself, then remount every other mount read-only.
// $1 working directory, $2 1 = read-only remount, the rest the command.
const NAMESPACE_PRELUDE = `w="$1"; ro="$2"; shift 2
if [ "$ro" = 1 ]; then
  mount --bind "$w" "$w" || exit 125
  while read -r _ _ _ _ mp _; do
    case "$mp" in *\\\\*) mp="$(printf '%b' "$mp")";; esac
    case "$mp" in "$w"|"$w"/*) continue;; esac
    mount -o remount,bind,ro "$mp" 2>/dev/null || true
  done < /proc/self/mountinfo
fi
cd "$w" || exit 125
unset OLDPWD PWD
"$@"
exit $?`;

// ---------------------------------------------------------------------------------------------------------------
// Capabilities: detected once per process

export interface SandboxCapabilities {
  platform: string;
  root: boolean;
  /** The unshare(1) used, or null. */
  unshare: string | null;
  /** unshare needs a user namespace (--user --map-root-user): not root. */
  userNamespace: boolean;
  networkNamespace: boolean;
  pidNamespace: boolean;
  /** A mount namespace in which everything but the working directory is remounted read-only. */
  readOnlyFilesystem: boolean;
  /** A pids cgroup folder runs can be put in (cgroup v1 or v2), or null. */
  cgroupPids: string | null;
  /** setpriv(1) that gives the sandbox's first process SIGKILL when this process dies (PR_SET_PDEATHSIG), or null. */
  setpriv: string | null;
  /** Why a layer is missing. */
  notes: string[];
}

let capabilities: Promise<SandboxCapabilities> | undefined;

/** What this machine lets the sandbox enforce (detected on first use and cached; `refresh` detects again).
 *  ANACHRON_SANDBOX_NAMESPACES=0 turns namespaces off, ANACHRON_SANDBOX_CGROUP=0 the cgroup. */
export function sandboxCapabilities(options: { refresh?: boolean } = {}): Promise<SandboxCapabilities> {
  if (!capabilities || options.refresh) capabilities = detectCapabilities();
  return capabilities;
}

function findExecutable(name: string): string | null {
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), ...SYSTEM_PATH.split(':')]) {
    if (!dir) continue;
    const full = join(dir, name);
    try {
      if (statSync(full).isFile()) return full;
    } catch {
      // not there
    }
  }
  return null;
}

async function detectCapabilities(): Promise<SandboxCapabilities> {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const caps: SandboxCapabilities = {
    platform: process.platform, root, unshare: null, userNamespace: false, networkNamespace: false,
    pidNamespace: false, readOnlyFilesystem: false, cgroupPids: null, setpriv: null, notes: [],
  };
  if (process.platform !== 'linux') {
    caps.notes.push(`no namespaces or cgroups on ${process.platform}: rlimits, the audit hook and the process group only`);
    return caps;
  }
  if (process.env.ANACHRON_SANDBOX_CGROUP === '0') caps.notes.push('cgroup turned off (ANACHRON_SANDBOX_CGROUP=0)');
  else caps.cgroupPids = detectPidsCgroup(caps.notes);
  await removeStale(caps.cgroupPids);
  const setpriv = findExecutable('setpriv');
  if (setpriv && spawnSync(setpriv, ['--pdeathsig', 'KILL', '--', '/bin/sh', '-c', 'true'], { timeout: 10_000, stdio: 'ignore' }).status === 0) caps.setpriv = setpriv;
  else caps.notes.push('no setpriv --pdeathsig (util-linux): a sample outlives this process if it is killed');
  if (process.env.ANACHRON_SANDBOX_NAMESPACES === '0') {
    caps.notes.push('namespaces turned off (ANACHRON_SANDBOX_NAMESPACES=0)');
    return caps;
  }
  const unshare = findExecutable('unshare');
  if (!unshare) {
    caps.notes.push('unshare(1) not found (util-linux): no network, pid or mount namespace');
    return caps;
  }
  const scratch = mkdtempSync(join(tmpdir(), 'anachron-sbx-probe-'));
  try {
    const work = join(scratch, 'work');
    mkdirSync(work);
    const outside = join(scratch, 'outside');
    // Only loopback in /proc/net/dev: a fresh network namespace.
    const netCheck = `[ "$(grep -c : /proc/net/dev)" = 1 ]`;
    const variants = root ? [[], ['--user', '--map-root-user']] : [['--user', '--map-root-user']];
    for (const userFlags of variants) {
      const full = spawnSync(unshare, [...userFlags, '--net', '--pid', '--fork', '--kill-child', '--mount', '--',
        '/bin/sh', '-c', NAMESPACE_PRELUDE, 'sh', work, '1',
        '/bin/sh', '-c', `${netCheck} && : > "$0/inside" && ! (: > "$1") 2>/dev/null`, work, outside],
      { cwd: work, timeout: 10_000, stdio: 'ignore', env: { PATH: SYSTEM_PATH } });
      if (full.status === 0 && existsSync(join(work, 'inside')) && !existsSync(outside)) {
        Object.assign(caps, { unshare, userNamespace: userFlags.length > 0, networkNamespace: true, pidNamespace: true, readOnlyFilesystem: true });
        return caps;
      }
      rmSync(outside, { force: true });
      const netPid = spawnSync(unshare, [...userFlags, '--net', '--pid', '--fork', '--kill-child', '--', '/bin/sh', '-c', netCheck],
        { timeout: 10_000, stdio: 'ignore', env: { PATH: SYSTEM_PATH } });
      if (netPid.status === 0) {
        Object.assign(caps, { unshare, userNamespace: userFlags.length > 0, networkNamespace: true, pidNamespace: true });
        caps.notes.push('no read-only mount namespace: writes outside the working directory are stopped by the audit hook only');
        return caps;
      }
      const net = spawnSync(unshare, [...userFlags, '--net', '--', '/bin/sh', '-c', netCheck],
        { timeout: 10_000, stdio: 'ignore', env: { PATH: SYSTEM_PATH } });
      if (net.status === 0) {
        Object.assign(caps, { unshare, userNamespace: userFlags.length > 0, networkNamespace: true });
        caps.notes.push('no pid namespace: stray processes are killed through the process group (and the cgroup) only');
        return caps;
      }
    }
    caps.notes.push(root
      ? 'unshare --net failed (a container without CAP_SYS_ADMIN?): no namespaces'
      : 'unshare --user --map-root-user --net failed (unprivileged user namespaces disabled?): no namespaces');
    return caps;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function detectPidsCgroup(notes: string[]): string | null {
  let own: string | undefined;
  let v2: string | undefined;
  try {
    for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
      const [, controllers, path] = line.split(':');
      if (controllers === undefined || path === undefined) continue;
      if (controllers.split(',').includes('pids')) own = path;
      if (controllers === '' && line.startsWith('0::')) v2 = path;
    }
  } catch {
    notes.push('no /proc/self/cgroup: no pids cgroup');
    return null;
  }
  const candidates: string[] = [];
  if (own !== undefined) candidates.push(join('/sys/fs/cgroup/pids', own));
  if (v2 !== undefined) {
    try {
      if (readFileSync(join('/sys/fs/cgroup', v2, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('pids')) {
        candidates.push(join('/sys/fs/cgroup', v2));
      }
    } catch {
      // no unified hierarchy at /sys/fs/cgroup, or pids not delegated
    }
  }
  for (const base of candidates) {
    const probe = join(base, `anachron-probe-${process.pid}`);
    try {
      mkdirSync(probe);
      try {
        writeFileSync(join(probe, 'pids.max'), '8');
        return base;
      } finally {
        rmdirSync(probe);
      }
    } catch {
      // not writable
    }
  }
  notes.push('no writable pids cgroup: forks are bounded by RLIMIT_NPROC (not for root) and the audit hook');
  return null;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Working directories and cgroups that runs of processes no longer alive (killed before they could clean up) left. */
async function removeStale(cgroupBase: string | null): Promise<void> {
  const stale = (name: string, prefix: RegExp) => {
    const m = prefix.exec(name);
    return m !== null && Number(m[1]) !== process.pid && !pidAlive(Number(m[1]));
  };
  try {
    for (const name of readdirSync(tmpdir())) {
      if (stale(name, /^anachron-sbx-(\d+)-/)) removeTree(join(tmpdir(), name));
    }
  } catch {
    // best effort
  }
  if (!cgroupBase) return;
  try {
    for (const name of readdirSync(cgroupBase)) if (stale(name, /^anachron-(\d+)-\d+$/)) await sweepCgroup(join(cgroupBase, name));
  } catch {
    // best effort
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Running one sample

/** Keeps the first `head` and the last `tail` bytes of a stream, and counts the rest. */
class CappedOutput {
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;
  private tailChunks: Buffer[] = [];
  private tailLength = 0;
  total = 0;
  constructor(private readonly head: number, private readonly tail: number) {}
  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.headLength < this.head) {
      const take = chunk.subarray(0, this.head - this.headLength);
      this.headChunks.push(take);
      this.headLength += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0 || this.tail === 0) return;
    this.tailChunks.push(chunk);
    this.tailLength += chunk.length;
    if (this.tailLength > 2 * this.tail) {
      const all = Buffer.concat(this.tailChunks);
      this.tailChunks = [all.subarray(all.length - this.tail)];
      this.tailLength = this.tail;
    }
  }
  text(): string {
    const head = Buffer.concat(this.headChunks).toString('utf8');
    let tail = Buffer.concat(this.tailChunks);
    const dropped = this.total - this.headLength - Math.min(tail.length, this.tail);
    if (tail.length > this.tail) tail = tail.subarray(tail.length - this.tail);
    return dropped > 0 ? `${head}\n… (${dropped} bytes left out) …\n${tail.toString('utf8')}` : head + tail.toString('utf8');
  }
}

let cgroupCounter = 0;

function signalName(signal: number): string | undefined {
  for (const [name, value] of Object.entries(osConstants.signals)) if (value === signal) return name;
  return undefined;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

async function sweepCgroup(dir: string | undefined): Promise<void> {
  if (!dir) return;
  for (let round = 0; round < 50; round++) {
    let pids: number[] = [];
    try {
      pids = readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
    } catch {
      return;
    }
    if (pids.length === 0) {
      try {
        rmdirSync(dir);
        return;
      } catch {
        // tasks still exiting
      }
    }
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  try {
    rmdirSync(dir);
  } catch {
    // left for the OS; empty cgroups cost nothing
  }
}

function removeTree(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    return;
  } catch {
    // a folder the sample made unreadable: give the permissions back, then again
  }
  const restore = (d: string) => {
    try {
      chmodSync(d, 0o700);
      for (const e of readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) restore(join(d, e.name));
    } catch {
      // best effort
    }
  };
  restore(dir);
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

function scrubbedEnvironment(python: PythonCommand, work: string): Record<string, string> {
  const exe = python.argv[0] ?? '';
  const path = isAbsolute(exe) ? `${dirname(exe)}:${SYSTEM_PATH}` : SYSTEM_PATH;
  return {
    PATH: path,
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    HOME: work,
    TMPDIR: join(work, 'tmp'),
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONHASHSEED: '0',
    PYTHONNOUSERSITE: '1',
    // One thread per BLAS/OpenMP pool: reproducible timings and a bounded task count.
    OMP_NUM_THREADS: '1',
    OPENBLAS_NUM_THREADS: '1',
    MKL_NUM_THREADS: '1',
    ...(python.env ?? {}),
  };
}

interface RunnerResult {
  outcome: 'pass' | 'soft-fail' | 'hard-fail';
  errorType?: string;
  errorBase?: string;
  message?: string;
  trace?: string;
  phase?: string;
  warnings?: ExecutionWarning[];
  violations?: { event: string; detail: string }[];
  enforced?: string[];
  python?: string;
}

function parseResult(text: string): RunnerResult | undefined {
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const value = JSON.parse(line) as RunnerResult;
      if (value && typeof value === 'object' && typeof value.outcome === 'string') return value;
    } catch {
      // not the result line
    }
  }
  return undefined;
}

function abortError(signal: AbortSignal): Error {
  const reason = signal.reason as unknown;
  if (reason instanceof Error) return reason;
  const e = new Error('the execution was aborted');
  e.name = 'AbortError';
  return e;
}

/**
 * Runs one sample: `check(namespace[entryPoint])` from the harness, in a separate, contained process. Resolves with
 * the outcome (pass, soft-fail, hard-fail with the error type, timeout) whatever the sample does; rejects with a
 * SandboxError when the interpreter could not be started at all, and with an AbortError when `signal` aborts it.
 */
export async function executeSample(req: ExecutionRequest): Promise<ExecutionOutcome> {
  if (req.python.argv.length === 0) throw new SandboxError('empty python command');
  if (req.signal?.aborted) throw abortError(req.signal);
  const timeoutMs = req.timeoutMs ?? SANDBOX_DEFAULTS.timeoutMs;
  const memoryMb = req.memoryMb ?? SANDBOX_DEFAULTS.memoryMb;
  const maxProcesses = req.maxProcesses ?? SANDBOX_DEFAULTS.maxProcesses;
  const disabled = new Set(req.disable ?? []);
  const caps = await sandboxCapabilities();
  const isolation = ['process-group', 'tmpdir', 'scrubbed-env'];

  const work = mkdtempSync(join(tmpdir(), `anachron-sbx-${process.pid}-`));
  let cgroup: string | undefined;
  try {
    mkdirSync(join(work, 'tmp'));
    const runner = join(probeFolder(), 'sandbox_run.py');
    let argv = [...req.python.argv, '-B', '-s', runner];
    const useNamespaces = !disabled.has('namespaces') && caps.unshare !== null && caps.networkNamespace;
    if (useNamespaces) {
      const flags = [...(caps.userNamespace ? ['--user', '--map-root-user'] : []), '--net'];
      if (caps.pidNamespace) flags.push('--pid', '--fork', '--kill-child');
      if (caps.readOnlyFilesystem) flags.push('--mount');
      argv = [caps.unshare!, ...flags, '--', '/bin/sh', '-c', NAMESPACE_PRELUDE, 'sh', work, caps.readOnlyFilesystem ? '1' : '0', ...argv];
      if (caps.userNamespace) isolation.push('userns');
      isolation.push('netns');
      if (caps.pidNamespace) isolation.push('pidns');
      if (caps.readOnlyFilesystem) isolation.push('mountns-ro');
    }
    if (!disabled.has('cgroup') && caps.cgroupPids) {
      const dir = join(caps.cgroupPids, `anachron-${process.pid}-${++cgroupCounter}`);
      try {
        mkdirSync(dir);
        writeFileSync(join(dir, 'pids.max'), String(maxProcesses + SANDBOX_DEFAULTS.threadAllowance + 4));
        cgroup = dir;
        // The first process joins the cgroup before anything else starts, so nothing forks outside it.
        argv = ['/bin/sh', '-c', 'unset PWD OLDPWD; echo $$ > "$0" && exec "$@"', join(dir, 'cgroup.procs'), ...argv];
        isolation.push('cgroup-pids');
      } catch {
        await sweepCgroup(dir);
      }
    }
    if (caps.setpriv) {
      // Should this process die without cleaning up, the kernel kills the sandbox's first process, and with it the
      // pid namespace.
      argv = [caps.setpriv, '--pdeathsig', 'KILL', '--', ...argv];
      isolation.push('pdeathsig');
    }

    const request = JSON.stringify({
      code: req.code,
      harness: req.harness,
      entryPoint: req.entryPoint,
      memoryMb,
      cpuSeconds: req.cpuSeconds ?? Math.ceil(timeoutMs / 1000),
      maxProcesses,
      maxFileMb: req.maxFileMb ?? SANDBOX_DEFAULTS.maxFileMb,
      library: req.library,
      auditHook: !disabled.has('audit-hook'),
      resultFd: 3,
      readyFd: 4,
    });

    const started = Date.now();
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: work,
      env: scrubbedEnvironment(req.python, work),
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe', 'pipe', 'pipe'],
    });
    const stdout = new CappedOutput(SANDBOX_DEFAULTS.outputHeadBytes, SANDBOX_DEFAULTS.outputTailBytes);
    const stderr = new CappedOutput(SANDBOX_DEFAULTS.outputHeadBytes, SANDBOX_DEFAULTS.outputTailBytes);
    const resultChunks: Buffer[] = [];
    let resultLength = 0;
    let ready = false;
    let timedOut = false;
    let aborted = false;

    const streams = child.stdio as unknown as (Readable | null)[];
    const ended: Promise<void>[] = [];
    const collect = (stream: Readable | null | undefined, onData: (b: Buffer) => void) => {
      if (!stream) return;
      ended.push(new Promise((resolve) => {
        stream.on('data', onData);
        stream.on('end', resolve);
        stream.on('close', resolve);
        stream.on('error', () => resolve());
      }));
    };
    collect(child.stdout, (b) => stdout.push(b));
    collect(child.stderr, (b) => stderr.push(b));
    collect(streams[3], (b) => {
      if (resultLength < SANDBOX_DEFAULTS.resultLimitBytes) {
        resultChunks.push(b);
        resultLength += b.length;
      }
    });
    collect(streams[4], (b) => {
      if (b.toString('utf8').includes('ready')) ready = true;
    });
    child.stdin?.on('error', () => undefined); // the interpreter may exit before reading everything
    child.stdin?.end(request);

    const onAbort = () => {
      aborted = true;
      killGroup(child.pid);
    };
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);

    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
      child.on('error', (error) => resolve({ code: null, signal: null, error }));
      child.on('exit', (code, signal) => resolve({ code, signal }));
    });
    const durationMs = Date.now() - started;
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onAbort);
    // Whatever the sample left behind goes with the group (and the pid namespace with its first process).
    killGroup(child.pid);
    await sweepCgroup(cgroup);
    cgroup = undefined;
    await Promise.race([Promise.all(ended), new Promise((r) => setTimeout(r, 2000))]);
    for (const s of streams) s?.destroy();

    if (aborted && req.signal) throw abortError(req.signal);
    if (exit.error) throw new SandboxError(`cannot run ${req.python.argv.join(' ')}: ${exit.error.message}`);

    const base = {
      durationMs,
      stdout: stdout.text(),
      stderr: stderr.text(),
      exitCode: exit.code,
      exitSignal: exit.signal,
    };
    const result = parseResult(Buffer.concat(resultChunks).toString('utf8'));
    if (result) {
      const enforced = result.enforced ?? [];
      if (enforced.some((e) => e.startsWith('rlimit-'))) isolation.push('rlimits');
      isolation.push(...enforced);
      const timeout = result.errorType === 'CpuTimeLimit';
      return {
        ...base,
        outcome: timeout ? 'timeout' : result.outcome,
        errorType: result.errorType,
        errorBase: result.errorBase,
        message: result.message,
        trace: result.trace,
        phase: result.phase,
        warnings: result.warnings ?? [],
        violations: result.violations ?? [],
        python: result.python,
        isolation,
      };
    }
    if (timedOut) {
      if (!ready) throw new SandboxError(`${req.python.argv.join(' ')} did not start within ${timeoutMs} ms`);
      return { ...base, outcome: 'timeout', errorType: 'Timeout', message: `no result within ${timeoutMs} ms; the process group was killed`, warnings: [], isolation };
    }
    const stderrText = base.stderr.trim();
    if (!ready) {
      throw new SandboxError(`${req.python.argv.join(' ')} did not start the sandbox runner (exit ${exit.code ?? exit.signal}):\n${stderrText.slice(-2000)}`);
    }
    // Killed or crashed before reporting. Through the namespace shell a signal shows as exit status 128 + N.
    let signal = exit.signal ?? undefined;
    if (!signal && useNamespaces && exit.code !== null && exit.code > 128 && exit.code < 128 + 65) signal = signalName(exit.code - 128) as NodeJS.Signals | undefined;
    const tail = stderrText.split('\n').slice(-20).join('\n');
    if (/\bMemoryError\b|Cannot allocate memory|std::bad_alloc|out of memory/i.test(stderrText)) {
      return { ...base, outcome: 'hard-fail', errorType: 'MemoryError', errorBase: 'MemoryError', message: `the interpreter ran out of memory (limit ${memoryMb} MiB)${signal ? ` and died of ${signal}` : ''}`, trace: tail, phase: 'check', warnings: [], isolation };
    }
    if (signal === 'SIGXCPU') {
      return { ...base, outcome: 'timeout', errorType: 'CpuTimeLimit', message: 'the CPU-time limit was reached', trace: tail, warnings: [], isolation };
    }
    if (signal) {
      return { ...base, outcome: 'hard-fail', errorType: `Crash:${signal}`, message: `the interpreter was killed by ${signal}`, trace: tail, phase: 'check', warnings: [], isolation };
    }
    return { ...base, outcome: 'hard-fail', errorType: 'ProcessExit', message: `the interpreter exited with status ${exit.code} without reporting a result`, trace: tail, phase: 'check', warnings: [], isolation };
  } finally {
    await sweepCgroup(cgroup);
    removeTree(work);
  }
}
