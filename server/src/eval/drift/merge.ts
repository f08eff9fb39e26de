// Joins drift shard databases: the run store's part with mergeRuns (identity, samples, model records, sessions), then
// every stored execution. The same (sample, environment) recorded with a different outcome or code in two inputs
// stops the merge; identical duplicates are kept once. A failed merge leaves no output behind.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { mergeRuns, type MergeSummary } from '../runs/merge.js';
import { DriftStore } from './store.js';
import { InputError } from '../../core/errors.js';

export interface DriftMergeSummary extends MergeSummary {
  executions: number;
  executionDuplicates: number;
}

export function mergeDriftRuns(inputs: readonly string[], output: string): DriftMergeSummary {
  if (existsSync(output)) throw new InputError(`${output} exists: merge writes a new file`);
  const temp = `${output}.drift-partial-${process.pid}`;
  const cleanup = () => {
    for (const f of [temp, `${temp}-wal`, `${temp}-shm`]) rmSync(f, { force: true });
  };
  cleanup();
  let target: DriftStore | undefined;
  try {
    const summary = mergeRuns(inputs, temp);
    target = DriftStore.open(temp);
    let executions = 0;
    let executionDuplicates = 0;
    for (const input of inputs) {
      const source = DriftStore.open(input, { readonly: true });
      try {
        const from = basename(input);
        target.transaction(() => {
          for (const row of source.rawExecutions()) {
            if (target!.importExecution(row, from) === 'same') executionDuplicates++;
            else executions++;
          }
        });
      } finally {
        source.close();
      }
    }
    target.close();
    target = undefined;
    renameSync(temp, output);
    for (const f of [`${temp}-wal`, `${temp}-shm`]) rmSync(f, { force: true });
    return { ...summary, output, executions, executionDuplicates };
  } catch (e) {
    target?.close();
    cleanup();
    throw e;
  }
}
