// Runs one generated code sample against a test harness in an interpreter of the environment under test, behind an OS
// boundary (bubblewrap.ts: namespaces, a root of its own with the interpreter read-only, a size-limited tmpfs as
// working folder, no network, an unprivileged uid, a seccomp filter), in cgroups for pids and memory where the OS
// lets us make them (cgroups.ts), with a scrubbed environment, output caps, and a detached process group killed as a
// whole on timeout or abort. Where the OS cannot give the boundary, it refuses (SandboxUnavailableError: why, and how
// to enable it) unless the caller opts in explicitly (allowUnsandboxed, ANACHRON_ALLOW_UNSANDBOXED=1). Inside the
// interpreter, python-probe/sandbox_run.py adds resource limits and an audit hook, runs the sample and classifies the
// outcome. What is enforced where: python-probe/README.md, "Sandbox: what is enforced where".
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { type Boundary, bubblewrapArgv, detectBoundary, refusalText, runUid, SANDBOX_RUNNER, SANDBOX_WORK, syntheticEtc, SYSTEM_PATH } from './bubblewrap.js';
import { type CgroupBases, detectCgroups, type RunCgroups, joinCgroupsArgv, makeRunCgroups, memoryLimitHit, sweepRunCgroups, sweepStaleCgroups } from './cgroups.js';
import { interpreterPaths } from './interpreter-paths.js';
import { probeFolder } from './python-probe-runner.js';
import { seccompArch, seccompFilter } from './seccomp.js';
import { InputError } from '../core/errors.js';

import type { PythonCommand } from './python-command.js';
import { sampleOutcome, type ExecutionOutcome, type ExecutionWarning } from './sample-outcome.js';
import { FIRST_DATA_FD, runSampleProcess, type Launch } from './sample-process.js';

export type { ExecutionOutcome, ExecutionWarning, PythonCommand };

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
    if (caps.boundary) launch = boundaryLaunch(caps.boundary, req, await interpreterPaths(req.python), disabled, isolation);
    else {
      hostWork = mkdtempSync(join(tmpdir(), `anachron-sbx-${process.pid}-`));
      launch = unsandboxedLaunch(req, hostWork, isolation);
    }
    if (!disabled.has('cgroup')) cgroups = confineInCgroups(launch, caps.cgroups, req, isolation);
    if (!caps.boundary && caps.setpriv) {
      // Should this process die without cleaning up, the kernel kills the run's first process. (bwrap has its own.)
      launch.argv = [caps.setpriv, '--pdeathsig', 'KILL', '--', ...launch.argv];
      isolation.push('pdeathsig');
    }
    let outOfMemory = false;
    const run = await runSampleProcess(launch, runnerRequest(req, disabled), { timeoutMs, signal: req.signal, outputHeadBytes: SANDBOX_DEFAULTS.outputHeadBytes, outputTailBytes: SANDBOX_DEFAULTS.outputTailBytes, resultLimitBytes: SANDBOX_DEFAULTS.resultLimitBytes }, async () => {
      outOfMemory = cgroups ? memoryLimitHit(cgroups) : false;
      if (cgroups) await sweepRunCgroups(cgroups);
    });
    if (run.aborted && req.signal) throw abortError(req.signal);
    if (run.exit.error) throw new SandboxError(`cannot run ${req.python.argv.join(' ')}: ${run.exit.error.message}`);
    const memoryMb = req.memoryMb ?? SANDBOX_DEFAULTS.memoryMb;
    const outcome = sampleOutcome(run, { python: req.python.argv.join(' '), timeoutMs, memoryMb, outOfMemory, withheld: launch.withheld, unreadable: launch.unreadable, isolation });
    if ('notStarted' in outcome) throw new SandboxError(outcome.notStarted);
    return outcome;
  } finally {
    if (cgroups) await sweepRunCgroups(cgroups);
    if (hostWork) removeTree(hostWork);
  }
}

/** Without the boundary: the interpreter in a temporary folder of the host, with the scrubbed environment. */
function unsandboxedLaunch(req: ExecutionRequest, hostWork: string, isolation: string[]): Launch {
  mkdirSync(join(hostWork, 'tmp'));
  const argv = [...req.python.argv, '-B', '-s', join(probeFolder(), 'sandbox_run.py')];
  isolation.push('unsandboxed', 'tmpdir');
  return { argv, cwd: hostWork, env: scrubbedEnvironment(req.python, argv[0]!, hostWork), data: [], withheld: [], unreadable: [] };
}

/** The run's cgroups for pids and memory, where the OS lets us make them; the launch joins them first. */
function confineInCgroups(launch: Launch, bases: SandboxCapabilities['cgroups'], req: ExecutionRequest, isolation: string[]): RunCgroups {
  const cgroups = makeRunCgroups(bases, {
    pids: (req.maxProcesses ?? SANDBOX_DEFAULTS.maxProcesses) + SANDBOX_DEFAULTS.threadAllowance + 8,
    // Every process together, the working folder and /dev/shm (tmpfs pages count), and the wrappers.
    memoryBytes: ((req.memoryMb ?? SANDBOX_DEFAULTS.memoryMb) + (req.workDirMb ?? SANDBOX_DEFAULTS.workDirMb) + SANDBOX_DEFAULTS.shmMb + 128) * MIB,
  });
  launch.argv = joinCgroupsArgv(cgroups, launch.argv);
  isolation.push(...cgroups.enforced);
  return cgroups;
}

/** What python-probe/sandbox_run.py reads on stdin: the sample, its harness and the limits it enforces itself. */
function runnerRequest(req: ExecutionRequest, disabled: ReadonlySet<SandboxLayer>): string {
  const timeoutMs = req.timeoutMs ?? SANDBOX_DEFAULTS.timeoutMs;
  return JSON.stringify({
    code: req.code,
    harness: req.harness,
    entryPoint: req.entryPoint,
    memoryMb: req.memoryMb ?? SANDBOX_DEFAULTS.memoryMb,
    cpuSeconds: req.cpuSeconds ?? Math.ceil(timeoutMs / 1000),
    maxProcesses: req.maxProcesses ?? SANDBOX_DEFAULTS.maxProcesses,
    maxFileMb: req.maxFileMb ?? SANDBOX_DEFAULTS.maxFileMb,
    library: req.library,
    auditHook: !disabled.has('audit-hook'),
    resultFd: 3,
    readyFd: 4,
  });
}
