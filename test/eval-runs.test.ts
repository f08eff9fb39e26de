// Runs: every sample ends answered or failed exactly once under injected faults; resuming sends only what has no
// record; cancellation keeps what is done; shards merge into exactly the unsharded run; merges refuse conflicts.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { BuiltinProvider } from '../server/src/eval/builtin-models.js';
import { ConfigError } from '../server/src/eval/models/config.js';
import type { ModelProvider } from '../server/src/eval/models/provider.js';
import { mixedFaults } from '../server/src/eval/local-server/faults.js';
import { RUN_IDENTITY, validateRunConfig, type RunConfig } from '../server/src/eval/suites.js';
import { mergeRuns } from '../server/src/eval/runs/merge.js';
import { executeRun } from '../server/src/eval/libevobench/run.js';
import { parseShard, selectSamples, shardOf } from '../server/src/eval/runs/samples.js';
import { DuplicateResultError, RunLockedError, RunMismatchError, RunStore, SampleConflictError } from '../server/src/eval/runs/store.js';
import { syntheticSamples } from '../server/src/eval/libevobench/synthetic.js';
import type { RunProgress } from '../server/src/eval/runs/runner.js';
import { syntheticConfig } from './support/run-config.js';

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'anachron-runs-'));
}

function baseConfig(extra: Partial<RunConfig> = {}): RunConfig {
  return syntheticConfig({ provider: 'builtin', model: 'echo', timeoutMs: 2000, retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5 } }, { concurrency: 16, ...extra });
}

function userText(prompt: { role: string; content: string }[]): string {
  return prompt.find((m) => m.role === 'user')!.content;
}

/** Everything a run recorded that does not depend on timing. */
function outcomes(file: string): string[] {
  const store = RunStore.open(file, { readonly: true });
  try {
    return [...store.entries()].map(({ sample, result }) => JSON.stringify([sample.id, result?.status ?? null, result?.response ?? null, result?.errorKind ?? null]));
  } finally {
    store.close();
  }
}

describe('runs', () => {
  test('2,000 samples, 20% mixed faults over HTTP: each sample answered or failed exactly once, each answer its own', async () => {
    const db = join(tmp(), 'run.sqlite');
    const dataset = syntheticSamples(2000);
    const config = baseConfig({
      concurrency: 32,
      model: { provider: 'builtin', model: 'echo', faults: mixedFaults(0.2, { retryAfterSeconds: 0, seed: 11 }), timeoutMs: 250, retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 10 } },
    });
    const progress: RunProgress[] = [];
    const t = performance.now();
    const summary = await executeRun({ config, database: db, dataset, onProgress: (p) => progress.push(p), progressIntervalMs: 0, environment: { log: () => {} } });
    const seconds = (performance.now() - t) / 1000;
    assert.equal(summary.samples, 2000);
    assert.equal(summary.pending, 0);
    assert.equal(summary.answered + summary.failed, 2000);
    assert.equal(summary.recorded, 2000);
    assert.ok(summary.failed > 0, 'with 3 attempts some samples exhaust them (0.2³ ≈ 0.8%)');
    assert.ok(seconds < 60, `took ${seconds.toFixed(1)} s`);

    const store = RunStore.open(db, { readonly: true });
    const entries = [...store.entries()];
    store.close();
    assert.equal(entries.length, 2000);
    assert.equal(new Set(entries.map((e) => e.sample.id)).size, 2000);
    const kinds = new Set<string>();
    for (const { sample, result } of entries) {
      assert.ok(result, `${sample.id} has a record`);
      if (result.status === 'answered') {
        assert.equal(result.response, userText(sample.prompt), 'the answer recorded is the one to this sample');
        assert.equal(result.errorKind, null);
      } else {
        assert.ok(result.errorKind && result.errorMessage && result.attempts === 3, JSON.stringify(result));
        kinds.add(result.errorKind);
      }
      for (const a of result.attemptLog) kinds.add(a.kind);
    }
    assert.deepEqual([...kinds].sort(), ['malformed', 'network', 'rate-limited', 'server', 'timeout']);
    const last = progress.at(-1)!;
    assert.equal(last.done, 2000);
    assert.equal(last.total, 2000);
    assert.ok(progress.every((p, i) => i === 0 || p.done >= progress[i - 1]!.done));
    assert.ok(progress.some((p) => p.etaSeconds !== null && p.rate > 0));

    // Resuming a finished run sends nothing.
    const again = await executeRun({ config, database: db, dataset });
    assert.equal(again.sent, 0);
    assert.equal(again.resumedFrom, 2000);
  });

  test('cancelling keeps what is recorded; resuming sends exactly the rest', async () => {
    const db = join(tmp(), 'run.sqlite');
    const dataset = syntheticSamples(300);
    const config = baseConfig({ concurrency: 4, model: { provider: 'builtin', model: 'echo', faults: { delayMs: 3 } } });
    const controller = new AbortController();
    const first = await executeRun({
      config,
      database: db,
      dataset,
      signal: controller.signal,
      progressIntervalMs: 0,
      onProgress: (p) => {
        if (p.done >= 60) controller.abort();
      },
    });
    assert.ok(first.cancelled);
    assert.ok(first.recorded >= 60 && first.recorded < 300, String(first.recorded));
    assert.equal(first.answered, first.recorded);
    assert.equal(first.pending, 300 - first.recorded);

    const sent: string[] = [];
    const echo = new BuiltinProvider('echo');
    const recording: ModelProvider = { id: echo.id, complete: (r, s) => (sent.push(userText(r.messages)), echo.complete(r, s)) };
    const done = new Set(outcomes(db).filter((o) => JSON.parse(o)[1] !== null).map((o) => JSON.parse(o)[0] as string));
    const second = await executeRun({ config, database: db, dataset, provider: recording });
    assert.equal(second.sent, 300 - first.recorded);
    assert.equal(second.answered, 300);
    const byText = new Map(dataset.map((s) => [userText(s.prompt), s.id]));
    assert.ok(sent.every((t) => !done.has(byText.get(t)!)), 'nothing recorded before was sent again');
    const store = RunStore.open(db, { readonly: true });
    assert.deepEqual(store.sessions().map((s) => s.outcome), ['cancelled', 'completed']);
    store.close();
  });

  test('shards are disjoint, cover the run, and merge into exactly the unsharded run (with --limit too)', async () => {
    const dir = tmp();
    const dataset = syntheticSamples(400, { seed: 3 });
    for (const limit of [undefined, 250]) {
      const tag = limit ?? 'all';
      const config = baseConfig(limit ? { limit } : {});
      await executeRun({ config, database: join(dir, `full-${tag}.sqlite`), dataset });
      const shardFiles: string[] = [];
      let total = 0;
      for (let i = 1; i <= 3; i++) {
        const file = join(dir, `shard-${tag}-${i}.sqlite`);
        const s = await executeRun({ config: { ...config, shard: { index: i, count: 3 } }, database: file, dataset });
        total += s.samples;
        shardFiles.push(file);
      }
      assert.equal(total, limit ?? 400);
      const merged = mergeRuns(shardFiles, join(dir, `merged-${tag}.sqlite`));
      assert.deepEqual(merged.missingShards, []);
      assert.deepEqual(merged.shards, ['1/3', '2/3', '3/3']);
      assert.equal(merged.samples, limit ?? 400);
      assert.deepEqual(outcomes(join(dir, `merged-${tag}.sqlite`)), outcomes(join(dir, `full-${tag}.sqlite`)));
      // The merged run is a run: resuming it with the unsharded config sends nothing.
      const resumed = await executeRun({ config, database: join(dir, `merged-${tag}.sqlite`), dataset });
      assert.equal(resumed.sent, 0);
    }
    const split = selectSamples(dataset, { shard: parseShard('2/3') }).samples;
    assert.ok(split.every((s) => shardOf(s.id, 3) === 2));
  });

  test('merge refuses other runs and conflicting duplicates, keeps identical duplicates once, reports missing shards', async () => {
    const dir = tmp();
    const dataset = syntheticSamples(90);
    const config = baseConfig({ shard: { index: 1, count: 2 } });
    const a = join(dir, 'a.sqlite');
    await executeRun({ config, database: a, dataset });
    copyFileSync(a, join(dir, 'a-copy.sqlite'));
    const same = mergeRuns([a, join(dir, 'a-copy.sqlite')], join(dir, 'same.sqlite'));
    assert.equal(same.duplicatesSkipped, same.answered);
    assert.deepEqual(same.missingShards, ['2/2']);

    const constant = new BuiltinProvider('constant', { text: 'something else' });
    const b = join(dir, 'b.sqlite');
    await executeRun({ config, database: b, dataset, provider: constant });
    assert.throws(() => mergeRuns([a, b], join(dir, 'conflict.sqlite')), DuplicateResultError);

    const other = join(dir, 'other.sqlite');
    await executeRun({ config: { ...config, seed: 2 }, database: other, dataset });
    assert.throws(() => mergeRuns([a, other], join(dir, 'mixed.sqlite')), RunMismatchError);
    const thirds = join(dir, 'thirds.sqlite');
    await executeRun({ config: { ...config, shard: { index: 1, count: 3 } }, database: thirds, dataset });
    assert.throws(() => mergeRuns([a, thirds], join(dir, 'mixed2.sqlite')), /split the run differently/);
    assert.throws(() => mergeRuns([a], a), /exists/);
    // A failed merge leaves nothing behind.
    assert.throws(() => RunStore.open(join(dir, 'conflict.sqlite'), { readonly: true }), /no such run database/);
  });

  test('a run database is resumed only by its own run, one process at a time, with the same samples', async () => {
    const dir = tmp();
    const db = join(dir, 'run.sqlite');
    const dataset = syntheticSamples(30);
    const config = baseConfig();
    await executeRun({ config, database: db, dataset });
    await assert.rejects(executeRun({ config: { ...config, seed: 9 }, database: db, dataset }), RunMismatchError);
    await assert.rejects(executeRun({ config: { ...config, shard: { index: 1, count: 2 } }, database: db, dataset }), RunMismatchError);
    // Settings that do not change the measurement may change between sessions.
    const resumed = await executeRun({ config: { ...config, concurrency: 2, name: 'renamed', model: { ...config.model, timeoutMs: 999 } }, database: db, dataset });
    assert.equal(resumed.sent, 0);

    const held = RunStore.open(db, { config, identity: RUN_IDENTITY });
    assert.throws(() => RunStore.open(db, { config, identity: RUN_IDENTITY }), RunLockedError);
    held.close();
    RunStore.open(db, { config, identity: RUN_IDENTITY }).close();

    const changed = dataset.map((s, i) => (i === 3 ? { ...s, groundTruth: { api: 'something.else' } } : s));
    await assert.rejects(executeRun({ config, database: db, dataset: changed }), SampleConflictError);
    assert.throws(() => selectSamples([...dataset, dataset[0]!]), /two samples with id/);
  });

  test('failures are final until retried on purpose; the old records are kept aside', async () => {
    const db = join(tmp(), 'run.sqlite');
    const dataset = syntheticSamples(40);
    const failing = baseConfig({ concurrency: 1, model: { provider: 'builtin', model: 'echo', faults: { script: Array(10).fill('server-error') }, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } } });
    const first = await executeRun({ config: failing, database: db, dataset });
    assert.equal(first.failed, 5);
    const plain = baseConfig();
    const again = await executeRun({ config: plain, database: db, dataset });
    assert.equal(again.sent, 0, 'a failed record is final');
    const retried = await executeRun({ config: plain, database: db, dataset, retryFailed: true });
    assert.equal(retried.sent, 5);
    assert.equal(retried.answered, 40);
    assert.equal(retried.failed, 0);
    const raw = new Database(db, { readonly: true });
    assert.deepEqual(raw.prepare('SELECT status, error_kind AS kind, COUNT(*) AS n FROM superseded GROUP BY 1, 2').all(), [{ status: 'failed', kind: 'server', n: 5 }]);
    raw.close();
  });

  test('run configs are validated', () => {
    const ok = validateRunConfig({ ...baseConfig(), shard: '2/5' });
    assert.deepEqual(ok.shard, { index: 2, count: 5 });
    for (const bad of [
      { ...baseConfig(), tasks: ['API-X'] },
      { ...baseConfig(), levels: ['L4'] },
      { ...baseConfig(), shard: '6/5' },
      { ...baseConfig(), seed: 'x' },
      { ...baseConfig(), limit: 0 },
      { ...baseConfig(), extra: true },
      { ...baseConfig(), model: { provider: 'builtin', model: 'gpt' } },
      { ...baseConfig(), model: { provider: 'builtin', model: 'echo', transport: 'direct', faults: { drop: 0.1 } } },
      { ...baseConfig(), model: { provider: 'openai-compatible', baseUrl: 'ftp://x', model: 'm' } },
    ]) {
      assert.throws(() => validateRunConfig(bad), ConfigError, JSON.stringify(bad));
    }
  });
});
