// What the tests of the editor's Run Benchmark flow share: the extension's side of a plan (paths, version, size) and
// progress reports of a run.
import type { PlanInput } from '../../client/src/eval/run-flow.js';
import type { RunProgress } from '../../server/src/eval/runs/runner.js';

/** An installed extension at /ext, runs under /runs, the quick size. */
export const AT_EXTENSION: Pick<PlanInput, 'size' | 'runsRoot' | 'cli' | 'matricesFolder' | 'extensionVersion'> = {
  size: 'quick',
  runsRoot: '/runs',
  cli: '/ext/dist/cli.js',
  matricesFolder: '/ext/matrices',
  extensionVersion: '0.1.0',
};

/** A progress report of a run of `total` samples, nothing done unless `fields` say otherwise. */
export function runProgress(total: number, fields: Partial<RunProgress>): RunProgress {
  return { total, done: 0, answered: 0, failed: 0, doneThisSession: 0, rate: 0, etaSeconds: null, elapsedMs: 0, ...fields };
}
