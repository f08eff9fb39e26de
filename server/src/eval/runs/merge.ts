// Joins shard databases (or any run databases of the same run) into one. All inputs must share the run identity;
// a sample defined differently, or recorded with different outcomes, in two inputs stops the merge, which then
// leaves no output behind. Identical duplicates (the same shard merged twice) are kept once.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { knownIdentity } from './config.js';
import { RunMismatchError, RunStore, type RunCounts } from './store.js';
import { InputError } from '../../core/errors.js';

export interface MergeSummary extends RunCounts {
  output: string;
  inputs: string[];
  shards: string[];
  /** Shards of an i/n split that none of the inputs hold. */
  missingShards: string[];
  duplicatesSkipped: number;
}

export function mergeRuns(inputs: readonly string[], output: string): MergeSummary {
  if (inputs.length === 0) throw new InputError('merge needs at least one run database');
  if (existsSync(output)) throw new InputError(`${output} exists: merge writes a new file`);
  const stores = inputs.map((file) => RunStore.open(file, { readonly: true }));
  const temp = `${output}.partial-${process.pid}`;
  let merged: RunStore | undefined;
  try {
    const first = stores[0]!;
    const counts = new Set<number>();
    for (const [i, s] of stores.entries()) {
      if (s.meta.identity !== first.meta.identity) {
        throw new RunMismatchError(`${inputs[i]} is a different run (identity ${s.meta.identity}) from ${inputs[0]} (${first.meta.identity})`);
      }
      const m = /^(\d+)\/(\d+)$/.exec(s.meta.shard);
      if (m) counts.add(Number(m[2]));
    }
    if (counts.size > 1) throw new RunMismatchError(`the inputs split the run differently (${[...counts].map((n) => `/${n}`).join(', ')})`);
    for (const f of [temp, `${temp}-wal`, `${temp}-shm`]) rmSync(f, { force: true });
    const { shard: _shard, limit: _limit, ...config } = first.meta.config;
    merged = RunStore.open(temp, { config, identity: knownIdentity(first.meta.identity) });
    let duplicatesSkipped = 0;
    const target = merged;
    for (const [i, s] of stores.entries()) {
      const from = basename(inputs[i]!);
      target.transaction(() => {
        const offset = target.importSessions(s);
        for (const row of s.rawSamples()) target.importSample(row, from);
        for (const row of s.rawResults()) if (target.importResult(row, from, offset) === 'same') duplicatesSkipped++;
      });
    }
    merged.setMergedFrom(inputs.map((f) => basename(f)));
    const summaryCounts = merged.counts();
    merged.close();
    merged = undefined;
    renameSync(temp, output);
    for (const f of [`${temp}-wal`, `${temp}-shm`]) rmSync(f, { force: true });
    const shards = [...new Set(stores.map((s) => s.meta.shard).filter((x) => x !== ''))].sort();
    const n = [...counts][0];
    const missingShards = n === undefined || stores.some((s) => s.meta.shard === '') ? [] : Array.from({ length: n }, (_, k) => `${k + 1}/${n}`).filter((x) => !shards.includes(x));
    return { ...summaryCounts, output, inputs: [...inputs], shards, missingShards, duplicatesSkipped };
  } catch (e) {
    merged?.close();
    for (const f of [temp, `${temp}-wal`, `${temp}-shm`]) rmSync(f, { force: true });
    throw e;
  } finally {
    for (const s of stores) s.close();
  }
}
