// Runs a batch of jobs (one per file) over this thread and worker threads, each with its own parser and read-only
// matrix store, and returns the results in the order of the jobs whatever order they finish in, so output stays
// deterministic. Small batches run in this thread alone: starting a worker costs more than it saves. The same job
// code runs either way (worker-jobs.ts).
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { addressSpaceLimit, threadsWithinAddressSpace } from '../wasm-memory.js';
import { JOB_KINDS, type JobKindName, type JobOf, type ResultOf, type SetupOf } from './worker-jobs.js';

/** Below this much input (bytes of source), one thread does it all. */
const PARALLEL_FROM_BYTES = 256 * 1024;

export interface PoolOptions {
  /** Threads to use, this one included: a number, or undefined to decide from the input's size and the machine's cores. */
  threads?: number;
  /** Size of all the jobs' input in bytes, to decide whether threads pay off. */
  bytes?: number;
  /** Size of each job (bytes of its file), in the order of the jobs: the largest are handed out first, so no thread is left with a big one at the end. */
  weights?: readonly number[];
}

export function threadsFor(jobs: number, options: PoolOptions, fitting = threadsWithinAddressSpace(addressSpaceLimit())): number {
  // Under a cap on virtual memory no more threads than their isolates and WebAssembly memories fit in (a thread that
  // cannot reserve its code range aborts the process), --jobs or not.
  const most = Math.min(jobs, fitting ?? Infinity);
  if (options.threads !== undefined) return Math.max(1, Math.min(options.threads, most));
  if (jobs < 2 || (options.bytes ?? 0) < PARALLEL_FROM_BYTES) return 1;
  return Math.max(1, Math.min(availableParallelism(), most));
}

/** What a worker thread is started with: every job, the order they are taken in, and the counter of jobs taken. */
export interface WorkerStart {
  kind: JobKindName;
  setup: unknown;
  jobs: readonly unknown[];
  order: Int32Array;
  /** One Int32 on shared memory: how many jobs of `order` the threads have taken (Atomics.add). */
  taken: SharedArrayBuffer;
}

/** A worker thread running the bundle's worker (dist/worker.js), or, run from source, the source file through tsx. */
function startWorker(workerData: WorkerStart): Worker {
  const bundled = join(__dirname, 'worker.js');
  if (existsSync(bundled)) return new Worker(bundled, { workerData });
  const source = join(__dirname, 'worker.ts');
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(source)});`, { eval: true, workerData });
}

export type Reply<R> = { id: number; result: R } | { id: number; error: string } | { failed: string };

/** The order jobs are taken in: by weight, largest first (ties in the jobs' order), or the jobs' order. */
function orderOf(count: number, weights: readonly number[] | undefined): Int32Array {
  const order = Int32Array.from({ length: count }, (_, i) => i);
  if (weights) order.sort((a, b) => (weights[b] ?? 0) - (weights[a] ?? 0) || a - b);
  return order;
}

/**
 * Runs the jobs over `threads` threads: this one and threads - 1 workers. Each thread takes the next job from a
 * counter in shared memory when it is free (no thread waits for a message to get work), and the results land at
 * their job's place, so the output is the same whichever thread ran what.
 */
export async function runJobs<K extends JobKindName>(kind: K, setup: SetupOf<K>, jobs: readonly JobOf<K>[], options: PoolOptions = {}): Promise<ResultOf<K>[]> {
  const threads = threadsFor(jobs.length, options);
  if (threads <= 1) {
    const runner = await JOB_KINDS[kind].start(setup as never);
    try {
      return jobs.map((job) => runner.run(job as never) as ResultOf<K>);
    } finally {
      runner.close();
    }
  }
  const results: ResultOf<K>[] = new Array(jobs.length);
  const order = orderOf(jobs.length, options.weights);
  const taken = new SharedArrayBuffer(4);
  const counter = new Int32Array(taken);
  let done = 0;
  let failure: Error | undefined;
  let settle: (() => void) | undefined;
  const check = () => {
    if (settle && (failure || done === jobs.length)) settle();
  };
  const fail = (e: Error) => {
    failure ??= e;
    // Nothing more is taken: the threads stop at their next job.
    Atomics.store(counter, 0, jobs.length);
    check();
  };
  const workers: Worker[] = [];
  try {
    for (let t = 1; t < threads; t++) {
      const worker = startWorker({ kind, setup, jobs, order, taken });
      workers.push(worker);
      worker.on('message', (reply: Reply<ResultOf<K>>) => {
        if ('failed' in reply) fail(new Error(reply.failed));
        else if ('error' in reply) fail(new Error(`internal error in a worker thread: ${reply.error}`));
        else {
          results[reply.id] = reply.result;
          done++;
          check();
        }
      });
      worker.on('error', (e) => fail(new Error(`internal error in a worker thread: ${e.stack ?? e.message}`)));
      worker.on('exit', (code) => {
        if (done < jobs.length && code !== 0) fail(new Error(`a worker thread exited with code ${code} before its jobs were done`));
      });
    }
    // This thread takes its share while the workers start and run.
    const runner = await JOB_KINDS[kind].start(setup as never);
    try {
      for (let i = Atomics.add(counter, 0, 1); i < jobs.length; i = Atomics.add(counter, 0, 1)) {
        const id = order[i]!;
        results[id] = runner.run(jobs[id] as never) as ResultOf<K>;
        done++;
      }
    } finally {
      runner.close();
    }
    await new Promise<void>((resolve) => {
      settle = resolve;
      check();
    });
    if (failure) throw failure;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results;
}
