// Runs one generated code sample against a test harness in an interpreter of the environment under test, behind an OS
// boundary (bubblewrap.ts: namespaces, a root of its own with the interpreter read-only, a size-limited tmpfs as
// working folder, no network, an unprivileged uid, a seccomp filter), in cgroups for pids and memory where the OS
// lets us make them (cgroups.ts), with a scrubbed environment, output caps, and a detached process group killed as a
// whole on timeout or abort. Where the OS cannot give the boundary, it refuses (SandboxUnavailableError: why, and how
// to enable it) unless the caller opts in explicitly (allowUnsandboxed, ANACHRON_ALLOW_UNSANDBOXED=1). Inside the
// interpreter, python-probe/sandbox_run.py adds resource limits and an audit hook, runs the sample and classifies the
// outcome. What is enforced where: python-probe/README.md, "Sandbox: what is enforced where".
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { type Boundary, bubblewrapArgv, detectBoundary, refusalText, runUid, SANDBOX_RUNNER, SANDBOX_WORK, syntheticEtc, SYSTEM_PATH } from './bubblewrap.js';
import { type CgroupBases, detectCgroups, type RunCgroups, joinCgroupsArgv, makeRunCgroups, memoryLimitHit, sweepRunCgroups, sweepStaleCgroups } from './cgroups.js';
import { interpreterPaths } from './interpreter-paths.js';
import { probeFolder } from './python-probe-runner.js';
import { seccompArch, seccompFilter } from './seccomp.js';
import { InputError } from '../core/errors.js';

import type { PythonCommand } from './python-command.js';

export type { PythonCommand };

/** An isolation layer a request may switch off (tests of the remaining layers, diagnosis on odd machines). */
export type SandboxLayer = 'seccomp' | 'cgroup' | 'audit-hook';

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
  /** Size of the working folder (a tmpfs behind the boundary: every file the sample writes, together), MiB; default 128. */
  workDirMb?: number;
  /** Layers to leave out (default: none). The boundary itself is never left out; see allowUnsandboxed. */
  disable?: SandboxLayer[];
  /** Run even where the OS cannot give the boundary, with the in-process layers only (rlimits, the audit hook, the
   *  scrubbed environment, the process group, cgroups where possible): the user's explicit choice, never a default.
   *  ANACHRON_ALLOW_UNSANDBOXED=1 says the same. Where the boundary works, it is used anyway. */
  allowUnsandboxed?: boolean;
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
  /** The class names of the warning's MRO, most derived first (builtins bare, others module-qualified). */
  mro?: string[];
  /** DeprecationWarning is in its MRO: what makes a soft fail (quantum-api-drift §2.5), where the library raised it
   *  and the harness was not the caller. */
  deprecation?: boolean;
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
  /** What was enforced for this run: bubblewrap with userns (caller not root) or uid-drop (caller root), pidns, netns,
   *  mountns, ipcns, utsns, seccomp, tmpfs-workdir; or, unsandboxed, tmpdir and pdeathsig; always process-group and
   *  scrubbed-env; cgroup-pids, cgroup-memory where made; rlimits (and each rlimit-…), audit-hook. */
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
export class SandboxError extends InputError {
  override name = 'SandboxError';
}

/** This machine cannot give the OS boundary and the caller did not opt out of it: the message says why and how. */
export class SandboxUnavailableError extends SandboxError {
  override name = 'SandboxUnavailableError';
}

export const SANDBOX_DEFAULTS = Object.freeze({
  timeoutMs: 30_000,
  memoryMb: 4096,
  maxProcesses: 8,
  maxFileMb: 64,
  workDirMb: 128,
  /** /dev/shm (a tmpfs of its own), MiB. */
  shmMb: 64,
  /** Tasks the pids cgroup allows beyond maxProcesses: the wrappers and the interpreter's threads. */
  threadAllowance: 64,
  /** Kept of each of stdout and stderr: this many bytes from the start and from the end. */
  outputHeadBytes: 16 * 1024,
  outputTailBytes: 16 * 1024,
  resultLimitBytes: 4 * 1024 * 1024,
});


// ---------------------------------------------------------------------------------------------------------------
// Capabilities: detected once per process

export interface SandboxCapabilities {
  platform: string;
  root: boolean;
  /** The OS boundary (bubblewrap), or null: then runs are refused unless the caller opts in (allowUnsandboxed). */
  boundary: Boundary | null;
  /** Why there is no boundary, and how to enable it. */
  refusal?: string;
  /** Where runs' pids and memory cgroups go. */
  cgroups: CgroupBases;
  /** setpriv(1) that gives an unsandboxed run's first process SIGKILL when this process dies, or null. */
  setpriv: string | null;
  /** Why a layer is missing. */
  notes: string[];
}

let capabilities: Promise<SandboxCapabilities> | undefined;

/** What this machine lets the sandbox enforce (detected on first use and cached; `refresh` detects again).
 *  ANACHRON_SANDBOX_CGROUP=0 turns the cgroups off; ANACHRON_SANDBOX_BOUNDARY=0 the boundary (runs are then refused). */
export function sandboxCapabilities(options: { refresh?: boolean } = {}): Promise<SandboxCapabilities> {
  if (!capabilities || options.refresh) capabilities = detectCapabilities();
  return capabilities;
}

/** The reason runs are refused here, or null when the boundary works. */
export async function sandboxRefusal(): Promise<string | null> {
  const caps = await sandboxCapabilities();
  return caps.boundary ? null : (caps.refusal ?? refusalText('no OS boundary'));
}

function findSetpriv(): string | null {
  for (const dir of SYSTEM_PATH.split(':')) {
    const full = join(dir, 'setpriv');
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
  const notes: string[] = [];
  const caps: SandboxCapabilities = { platform: process.platform, root, boundary: null, cgroups: { pids: null, memory: null, unified: false }, setpriv: null, notes };
  if (process.platform !== 'linux') {
    caps.refusal = detectBoundary().refusal;
    notes.push(`no namespaces or cgroups on ${process.platform}`);
    return caps;
  }
  if (process.env.ANACHRON_SANDBOX_CGROUP === '0') notes.push('cgroups turned off (ANACHRON_SANDBOX_CGROUP=0)');
  else caps.cgroups = detectCgroups(notes);
  await removeStale(caps.cgroups);
  const boundary = detectBoundary();
  caps.boundary = boundary.boundary;
  if (boundary.refusal) caps.refusal = boundary.refusal;
  notes.push(...boundary.notes);
  const setpriv = findSetpriv();
  if (setpriv && spawnSync(setpriv, ['--pdeathsig', 'KILL', '--', '/bin/sh', '-c', 'true'], { timeout: 10_000, stdio: 'ignore' }).status === 0) caps.setpriv = setpriv;
  return caps;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Working folders (unsandboxed runs) and cgroups that runs of processes no longer alive left behind. */
async function removeStale(cgroups: CgroupBases): Promise<void> {
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
  await sweepStaleCgroups(cgroups, (name) => stale(name, /^anachron-(\d+)-\d+$/));
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

let runnerText: Buffer | undefined;

function runnerScript(): Buffer {
  runnerText ??= readFileSync(join(probeFolder(), 'sandbox_run.py'));
  return runnerText;
}

function scrubbedEnvironment(python: PythonCommand, exe: string, home: string): Record<string, string> {
  return {
    PATH: isAbsolute(exe) ? `${dirname(exe)}:${SYSTEM_PATH}` : SYSTEM_PATH,
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    HOME: home,
    TMPDIR: join(home, 'tmp'),
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

/** How one run is started: the command line, where, with what, and the data its extra file descriptors carry. */
interface Launch {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** Written to file descriptors 5, 6, … of the first process (bwrap reads them). */
  data: Buffer[];
  /** Paths the interpreter named that the sandbox does not show. */
  withheld: string[];
  /** Shown paths the sandbox's user cannot read (uid-drop: it is not the caller). */
  unreadable: string[];
}

/** Binds other users cannot read or enter (the uid-drop sandbox's user is one of them). */
function notWorldReadable(paths: string[]): string[] {
  return paths.filter((p) => {
    try {
      const st = statSync(p);
      const need = st.isDirectory() ? 0o005 : 0o004;
      return (st.mode & need) !== need;
    } catch {
      return false;
    }
  });
}

const FIRST_DATA_FD = 5;
const MIB = 1024 * 1024;

function boundaryLaunch(boundary: Boundary, req: ExecutionRequest, paths: { argv: string[]; binds: string[]; withheld: string[] }, disabled: Set<SandboxLayer>, isolation: string[]): Launch {
  const uid = boundary.mode === 'uid-drop' ? runUid() : (process.getuid?.() ?? 0);
  const data: [string, Buffer][] = [[SANDBOX_RUNNER, runnerScript()], ...Object.entries(syntheticEtc(uid)).map(([dest, text]): [string, Buffer] => [dest, Buffer.from(text)])];
  const dataFds = data.map(([dest], i) => ({ dest, fd: FIRST_DATA_FD + i }));
  const buffers = data.map(([, b]) => b);
  const arch = seccompArch();
  let seccompFd: number | undefined;
  if (boundary.seccomp && arch && !disabled.has('seccomp')) {
    seccompFd = FIRST_DATA_FD + buffers.length;
    buffers.push(seccompFilter(arch));
  }
  const argv = bubblewrapArgv({
    boundary,
    binds: paths.binds,
    env: scrubbedEnvironment(req.python, paths.argv[0] ?? '', SANDBOX_WORK),
    workBytes: (req.workDirMb ?? SANDBOX_DEFAULTS.workDirMb) * MIB,
    shmBytes: SANDBOX_DEFAULTS.shmMb * MIB,
    dataFds,
    ...(seccompFd !== undefined ? { seccompFd } : {}),
    uid,
    command: [...paths.argv, '-B', '-s', SANDBOX_RUNNER],
  });
  isolation.push('bubblewrap', boundary.mode, 'pidns', 'netns', 'mountns', 'ipcns', 'utsns', 'tmpfs-workdir');
  if (seccompFd !== undefined) isolation.push('seccomp');
  const unreadable = boundary.mode === 'uid-drop' ? notWorldReadable(paths.binds) : [];
  return { argv, cwd: tmpdir(), env: { PATH: SYSTEM_PATH }, data: buffers, withheld: paths.withheld, unreadable };
}

/**
 * Runs one sample: `check(namespace[entryPoint])` from the harness, in a separate, contained process. Resolves with
 * the outcome (pass, soft-fail, hard-fail with the error type, timeout) whatever the sample does; rejects with a
 * SandboxUnavailableError when this machine cannot give the OS boundary (and the caller did not opt out of it), with a
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
  if (!caps.boundary && !(req.allowUnsandboxed || process.env.ANACHRON_ALLOW_UNSANDBOXED === '1')) {
    throw new SandboxUnavailableError(caps.refusal ?? refusalText('no OS boundary'));
  }
  const isolation = ['process-group', 'scrubbed-env'];

  let hostWork: string | undefined;
  let cgroups: RunCgroups | undefined;
  try {
    let launch: Launch;
    if (caps.boundary) {
      launch = boundaryLaunch(caps.boundary, req, await interpreterPaths(req.python), disabled, isolation);
    } else {
      hostWork = mkdtempSync(join(tmpdir(), `anachron-sbx-${process.pid}-`));
      mkdirSync(join(hostWork, 'tmp'));
      const argv = [...req.python.argv, '-B', '-s', join(probeFolder(), 'sandbox_run.py')];
      launch = { argv, cwd: hostWork, env: scrubbedEnvironment(req.python, argv[0]!, hostWork), data: [], withheld: [], unreadable: [] };
      isolation.push('unsandboxed', 'tmpdir');
    }
    if (!disabled.has('cgroup')) {
      cgroups = makeRunCgroups(caps.cgroups, {
        pids: maxProcesses + SANDBOX_DEFAULTS.threadAllowance + 8,
        // Every process together, the working folder and /dev/shm (tmpfs pages count), and the wrappers.
        memoryBytes: (memoryMb + (req.workDirMb ?? SANDBOX_DEFAULTS.workDirMb) + SANDBOX_DEFAULTS.shmMb + 128) * MIB,
      });
      launch.argv = joinCgroupsArgv(cgroups, launch.argv);
      isolation.push(...cgroups.enforced);
    }
    if (!caps.boundary && caps.setpriv) {
      // Should this process die without cleaning up, the kernel kills the run's first process. (bwrap has its own.)
      launch.argv = [caps.setpriv, '--pdeathsig', 'KILL', '--', ...launch.argv];
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
    const child = spawn(launch.argv[0]!, launch.argv.slice(1), {
      cwd: launch.cwd,
      env: launch.env,
      detached: true,
      stdio: Array.from({ length: FIRST_DATA_FD + launch.data.length }, () => 'pipe' as const),
    });
    const stdout = new CappedOutput(SANDBOX_DEFAULTS.outputHeadBytes, SANDBOX_DEFAULTS.outputTailBytes);
    const stderr = new CappedOutput(SANDBOX_DEFAULTS.outputHeadBytes, SANDBOX_DEFAULTS.outputTailBytes);
    const resultChunks: Buffer[] = [];
    let resultLength = 0;
    let ready = false;
    let timedOut = false;
    let aborted = false;

    const streams = child.stdio as unknown as (Readable | Writable | null)[];
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
    collect(streams[3] as Readable | null, (b) => {
      if (resultLength < SANDBOX_DEFAULTS.resultLimitBytes) {
        resultChunks.push(b);
        resultLength += b.length;
      }
    });
    collect(streams[4] as Readable | null, (b) => {
      if (b.toString('utf8').includes('ready')) ready = true;
    });
    launch.data.forEach((buffer, i) => {
      const stream = streams[FIRST_DATA_FD + i] as Writable | null;
      stream?.on('error', () => undefined);
      stream?.end(buffer);
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
    const outOfMemory = cgroups ? memoryLimitHit(cgroups) : false;
    if (cgroups) await sweepRunCgroups(cgroups);
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
      const why = [
        ...(launch.withheld.length ? [`not shown to the sandbox: ${launch.withheld.join(', ')}`] : []),
        ...(launch.unreadable.length ? [`not readable by other users, and the sandbox runs as an unprivileged uid of its own: ${launch.unreadable.join(', ')} (make the environment world-readable, e.g. chmod -R a+rX)`] : []),
      ];
      throw new SandboxError(`${req.python.argv.join(' ')} did not start the sandbox runner (exit ${exit.code ?? exit.signal})${why.length ? ` (${why.join('; ')})` : ''}:\n${stderrText.slice(-2000)}`);
    }
    // Killed or crashed before reporting. Through bwrap (or a shell) a signal shows as exit status 128 + N.
    let signal = exit.signal ?? undefined;
    if (!signal && exit.code !== null && exit.code > 128 && exit.code < 128 + 65) signal = signalName(exit.code - 128) as NodeJS.Signals | undefined;
    const tail = stderrText.split('\n').slice(-20).join('\n');
    if (outOfMemory || /\bMemoryError\b|Cannot allocate memory|std::bad_alloc|out of memory/i.test(stderrText)) {
      const limit = outOfMemory ? 'the memory cgroup\'s limit' : `limit ${memoryMb} MiB`;
      return { ...base, outcome: 'hard-fail', errorType: 'MemoryError', errorBase: 'MemoryError', message: `the interpreter ran out of memory (${limit})${signal ? ` and died of ${signal}` : ''}`, trace: tail, phase: 'check', warnings: [], isolation };
    }
    if (signal === 'SIGXCPU') {
      return { ...base, outcome: 'timeout', errorType: 'CpuTimeLimit', message: 'the CPU-time limit was reached', trace: tail, warnings: [], isolation };
    }
    if (signal) {
      return { ...base, outcome: 'hard-fail', errorType: `Crash:${signal}`, message: `the interpreter was killed by ${signal}`, trace: tail, phase: 'check', warnings: [], isolation };
    }
    return { ...base, outcome: 'hard-fail', errorType: 'ProcessExit', message: `the interpreter exited with status ${exit.code} without reporting a result`, trace: tail, phase: 'check', warnings: [], isolation };
  } finally {
    if (cgroups) await sweepRunCgroups(cgroups);
    if (hostWork) removeTree(hostWork);
  }
}
