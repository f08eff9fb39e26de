// Entry of a worker thread (bundled as dist/worker.js): starts the job kind named in workerData, then answers each
// job message with its result. See worker-pool.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { JOB_KINDS, type JobKindName } from './worker-jobs.js';

const { kind, setup } = workerData as { kind: JobKindName; setup: never };
const port = parentPort!;

JOB_KINDS[kind].start(setup).then(
  (runner) => {
    port.on('message', ({ id, job }: { id: number; job: never }) => {
      try {
        port.postMessage({ id, result: runner.run(job) });
      } catch (e) {
        port.postMessage({ id, error: (e as Error).stack ?? String(e) });
      }
    });
    port.postMessage({ ready: true });
  },
  (e: Error) => port.postMessage({ failed: e.message }),
);
