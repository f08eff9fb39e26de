// What a finished sample process means: the runner's own verdict where it reported one, else what the exit says (a
// timeout, running out of memory, a crash by signal, an exit without a result), or that the runner never started.
// Plain data in and out; executeSample (sandbox.ts) runs the process and throws where the runner never started.
import { constants as osConstants } from 'node:os';
import type { SampleRun } from './sample-process.js';

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

/** What the run was started with, for the messages. */
export interface SampleContext {
  /** The interpreter's command line, as text. */
  python: string;
  timeoutMs: number;
  memoryMb: number;
  /** The memory cgroup's limit was hit. */
  outOfMemory: boolean;
  withheld: readonly string[];
  unreadable: readonly string[];
  /** The layers enforced from outside the interpreter; the runner's own are added. */
  isolation: readonly string[];
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

function signalName(signal: number): string | undefined {
  for (const [name, value] of Object.entries(osConstants.signals)) if (value === signal) return name;
  return undefined;
}

type Base = Pick<ExecutionOutcome, 'durationMs' | 'stdout' | 'stderr' | 'exitCode' | 'exitSignal'>;

/** The outcome of the run, or why the runner never started (a broken environment, not the sample's doing). */
export function sampleOutcome(run: SampleRun, context: SampleContext): ExecutionOutcome | { notStarted: string } {
  const base: Base = { durationMs: run.durationMs, stdout: run.stdout, stderr: run.stderr, exitCode: run.exit.code, exitSignal: run.exit.signal };
  const result = parseResult(run.resultText);
  if (result) return reportedOutcome(base, result, context.isolation);
  const isolation = [...context.isolation];
  if (run.timedOut) {
    if (!run.ready) return { notStarted: `${context.python} did not start within ${context.timeoutMs} ms` };
    return { ...base, outcome: 'timeout', errorType: 'Timeout', message: `no result within ${context.timeoutMs} ms; the process group was killed`, warnings: [], isolation };
  }
  const stderrText = run.stderr.trim();
  if (!run.ready) {
    const why = [
      ...(context.withheld.length ? [`not shown to the sandbox: ${context.withheld.join(', ')}`] : []),
      ...(context.unreadable.length ? [`not readable by other users, and the sandbox runs as an unprivileged uid of its own: ${context.unreadable.join(', ')} (make the environment world-readable, e.g. chmod -R a+rX)`] : []),
    ];
    return { notStarted: `${context.python} did not start the sandbox runner (exit ${run.exit.code ?? run.exit.signal})${why.length ? ` (${why.join('; ')})` : ''}:\n${stderrText.slice(-2000)}` };
  }
  return unreportedOutcome(base, run, stderrText, context, isolation);
}

/** The runner's verdict, with the limits it says it enforced. */
function reportedOutcome(base: Base, result: RunnerResult, outside: readonly string[]): ExecutionOutcome {
  const enforced = result.enforced ?? [];
  const isolation = [...outside, ...(enforced.some((e) => e.startsWith('rlimit-')) ? ['rlimits'] : []), ...enforced];
  return {
    ...base,
    outcome: result.errorType === 'CpuTimeLimit' ? 'timeout' : result.outcome,
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

/** Killed or crashed before reporting. Through bwrap (or a shell) a signal shows as exit status 128 + N. */
function unreportedOutcome(base: Base, run: SampleRun, stderrText: string, context: SampleContext, isolation: string[]): ExecutionOutcome {
  const { exit } = run;
  let signal = exit.signal ?? undefined;
  if (!signal && exit.code !== null && exit.code > 128 && exit.code < 128 + 65) signal = signalName(exit.code - 128) as NodeJS.Signals | undefined;
  const tail = stderrText.split('\n').slice(-20).join('\n');
  if (context.outOfMemory || /\bMemoryError\b|Cannot allocate memory|std::bad_alloc|out of memory/i.test(stderrText)) {
    const limit = context.outOfMemory ? 'the memory cgroup\'s limit' : `limit ${context.memoryMb} MiB`;
    return { ...base, outcome: 'hard-fail', errorType: 'MemoryError', errorBase: 'MemoryError', message: `the interpreter ran out of memory (${limit})${signal ? ` and died of ${signal}` : ''}`, trace: tail, phase: 'check', warnings: [], isolation };
  }
  if (signal === 'SIGXCPU') {
    return { ...base, outcome: 'timeout', errorType: 'CpuTimeLimit', message: 'the CPU-time limit was reached', trace: tail, warnings: [], isolation };
  }
  if (signal) {
    return { ...base, outcome: 'hard-fail', errorType: `Crash:${signal}`, message: `the interpreter was killed by ${signal}`, trace: tail, phase: 'check', warnings: [], isolation };
  }
  return { ...base, outcome: 'hard-fail', errorType: 'ProcessExit', message: `the interpreter exited with status ${exit.code} without reporting a result`, trace: tail, phase: 'check', warnings: [], isolation };
}
