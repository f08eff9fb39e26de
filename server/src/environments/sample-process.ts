// The process a sample runs in, from start to exit: started detached (a process group of its own) with the request on
// stdin and the launch's data on file descriptors 5, 6, …, its output capped, the runner's result line and readiness
// collected, and the group killed at the timeout, on abort and once the first process exits (whatever the sample left
// behind goes with it). What the run means is sample-outcome.ts's business.
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

/** File descriptor of the launch's first data buffer (3 carries the result, 4 the runner's "ready"). */
export const FIRST_DATA_FD = 5;
const RESULT_FD = 3;
const READY_FD = 4;

export interface Launch {
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

export interface SampleProcessLimits {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Kept of each of stdout and stderr: this many bytes from the start and from the end. */
  outputHeadBytes: number;
  outputTailBytes: number;
  resultLimitBytes: number;
}

/** What a finished sample process left behind. */
export interface SampleRun {
  exit: { code: number | null; signal: NodeJS.Signals | null; error?: Error };
  durationMs: number;
  stdout: string;
  stderr: string;
  /** What the runner wrote on its result descriptor (capped). */
  resultText: string;
  /** The runner said it was ready (it started inside the boundary). */
  ready: boolean;
  timedOut: boolean;
  aborted: boolean;
}

/** Keeps the first `head` and the last `tail` bytes of a stream, and counts the rest. */
export class CappedOutput {
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

export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Resolves when the stream ends, closes or fails; its data goes to `onData` meanwhile. */
function collect(stream: Readable | null | undefined, onData: (b: Buffer) => void): Promise<void> {
  if (!stream) return Promise.resolve();
  return new Promise((resolve) => {
    stream.on('data', onData);
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', () => resolve());
  });
}

/**
 * Runs the launch to its exit. `afterExit` runs once the group is killed and before the output is drained (the
 * caller reads the cgroups' verdict there, before they are swept).
 */
export async function runSampleProcess(launch: Launch, request: string, limits: SampleProcessLimits, afterExit: () => Promise<void>): Promise<SampleRun> {
  const started = Date.now();
  const child = spawn(launch.argv[0]!, launch.argv.slice(1), {
    cwd: launch.cwd,
    env: launch.env,
    detached: true,
    stdio: Array.from({ length: FIRST_DATA_FD + launch.data.length }, () => 'pipe' as const),
  });
  const stdout = new CappedOutput(limits.outputHeadBytes, limits.outputTailBytes);
  const stderr = new CappedOutput(limits.outputHeadBytes, limits.outputTailBytes);
  const result: Buffer[] = [];
  let resultLength = 0;
  const state = { ready: false, timedOut: false, aborted: false };
  const streams = child.stdio as unknown as (Readable | Writable | null)[];
  const ended = [
    collect(child.stdout, (b) => stdout.push(b)),
    collect(child.stderr, (b) => stderr.push(b)),
    collect(streams[RESULT_FD] as Readable | null, (b) => {
      if (resultLength >= limits.resultLimitBytes) return;
      result.push(b);
      resultLength += b.length;
    }),
    collect(streams[READY_FD] as Readable | null, (b) => {
      if (b.toString('utf8').includes('ready')) state.ready = true;
    }),
  ];
  launch.data.forEach((buffer, i) => {
    const stream = streams[FIRST_DATA_FD + i] as Writable | null;
    stream?.on('error', () => undefined);
    stream?.end(buffer);
  });
  child.stdin?.on('error', () => undefined); // the interpreter may exit before reading everything
  child.stdin?.end(request);

  const exit = await exitOf(child, limits, state);
  const durationMs = Date.now() - started;
  await afterExit();
  await Promise.race([Promise.all(ended), new Promise((r) => setTimeout(r, 2000))]);
  for (const s of streams) s?.destroy();
  return { exit, durationMs, stdout: stdout.text(), stderr: stderr.text(), resultText: Buffer.concat(result).toString('utf8'), ...state };
}

/** Waits for the first process's exit, killing the group at the timeout or on abort, and after the exit. */
async function exitOf(child: ReturnType<typeof spawn>, limits: SampleProcessLimits, state: { timedOut: boolean; aborted: boolean }): Promise<SampleRun['exit']> {
  const onAbort = () => {
    state.aborted = true;
    killGroup(child.pid);
  };
  limits.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    state.timedOut = true;
    killGroup(child.pid);
  }, limits.timeoutMs);
  const exit = await new Promise<SampleRun['exit']>((resolve) => {
    child.on('error', (error) => resolve({ code: null, signal: null, error }));
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  clearTimeout(timer);
  limits.signal?.removeEventListener('abort', onAbort);
  // Whatever the sample left behind goes with the group (and the pid namespace with its first process).
  killGroup(child.pid);
  return exit;
}
