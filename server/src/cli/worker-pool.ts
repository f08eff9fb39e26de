// Runs a batch of jobs (one per file) over worker threads, each with its own parser and read-only matrix store, and
// returns the results in the order of the jobs whatever order they finish in, so output stays deterministic. Small
// batches run in this thread: starting a worker costs more than it saves. The same job code runs either way
// (worker-jobs.ts).
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { JOB_KINDS, type JobKindName, type JobOf, type ResultOf, type SetupOf } from './worker-jobs.js';

/** Below this much input (bytes of source), one thread does it all. */
const PARALLEL_FROM_BYTES = 256 * 1024;
/** Jobs a worker holds at once: one running, one waiting, so it never idles between messages. */
const IN_FLIGHT = 2;

export interface PoolOptions {
  /** Threads to use: a number, or undefined to decide from the input's size and the machine's cores. */
  threads?: number;
  /** Size of all the jobs' input in bytes, to decide whether threads pay off. */
  bytes?: number;
}

export function threadsFor(jobs: number, options: PoolOptions): number {
  if (options.threads !== undefined) return Math.max(1, Math.min(options.threads, jobs));
  if (jobs < 2 || (options.bytes ?? 0) < PARALLEL_FROM_BYTES) return 1;
  return Math.max(1, Math.min(availableParallelism(), jobs));
}

/** A worker thread running the bundle's worker (dist/worker.js), or, run from source, the source file through tsx. */
function startWorker(workerData: unknown): Worker {
  const bundled = join(__dirname, 'worker.js');
  if (existsSync(bundled)) return new Worker(bundled, { workerData });
  const source = join(__dirname, 'worker.ts');
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(source)});`, { eval: true, workerData });
}

type Reply<R> = { id: number; result: R } | { id: number; error: string } | { ready: true } | { failed: string };

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
  let next = 0;
  let done = 0;
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const feed = (worker: Worker) => {
        if (next < jobs.length) {
          const id = next++;
          worker.postMessage({ id, job: jobs[id] });
        }
      };
      for (let t = 0; t < threads; t++) {
        const worker = startWorker({ kind, setup });
        workers.push(worker);
        worker.on('message', (reply: Reply<ResultOf<K>>) => {
          if ('ready' in reply) {
            for (let i = 0; i < IN_FLIGHT; i++) feed(worker);
          } else if ('failed' in reply) {
            reject(new Error(reply.failed));
          } else if ('error' in reply) {
            reject(new Error(`internal error in a worker thread: ${reply.error}`));
          } else {
            results[reply.id] = reply.result;
            done++;
            if (done === jobs.length) resolve();
            else feed(worker);
          }
        });
        worker.on('error', (e) => reject(new Error(`internal error in a worker thread: ${e.stack ?? e.message}`)));
        worker.on('exit', (code) => {
          if (done < jobs.length && code !== 0) reject(new Error(`a worker thread exited with code ${code} before its jobs were done`));
        });
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results;
}
