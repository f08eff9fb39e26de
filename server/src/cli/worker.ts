// Entry of a worker thread (bundled as dist/worker.js): starts the job kind named in workerData, then takes jobs from
// the shared counter until none are left, answering each with its result. See worker-pool.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { JOB_KINDS } from './worker-jobs.js';
import type { WorkerStart } from './worker-pool.js';

const { kind, setup, jobs, order, taken } = workerData as WorkerStart;
const port = parentPort!;
const counter = new Int32Array(taken);

JOB_KINDS[kind].start(setup as never).then(
  (runner) => {
    for (let i = Atomics.add(counter, 0, 1); i < jobs.length; i = Atomics.add(counter, 0, 1)) {
      const id = order[i]!;
      try {
        port.postMessage({ id, result: runner.run(jobs[id] as never) });
      } catch (e) {
        port.postMessage({ id, error: (e as Error).stack ?? String(e) });
        break;
      }
    }
    runner.close();
  },
  (e: Error) => port.postMessage({ failed: e.message }),
);
