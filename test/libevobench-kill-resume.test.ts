// A run killed with SIGKILL mid-way loses nothing it recorded and duplicates nothing when resumed: the resumed
// session sends exactly the samples without a record. On each SQLite store (better-sqlite3, and the WebAssembly
// SQLite the editor uses where the native module does not load): the run and its resumption execute in child
// processes (this file again, support/child-phase.ts), the resumed one asking a local model server that records
// what it receives.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { BuiltinProvider } from '../server/src/eval/builtin-models.js';
import type { RunProgress } from '../server/src/eval/runs/runner.js';
import { OpenAICompatibleProvider } from '../server/src/eval/models/openai-compatible.js';
import { startLocalModelServer } from '../server/src/eval/local-server/server.js';
import type { RunConfig } from '../server/src/eval/suites.js';
import { executeRun } from '../server/src/eval/libevobench/run.js';
import { RunStore } from '../server/src/eval/runs/store.js';
import { syntheticSamples } from '../server/src/eval/libevobench/synthetic.js';
import { childPhase, report, startPhase } from './support/child-phase.js';
import { syntheticConfig } from './support/run-config.js';

const SAMPLES = 1500;
const config: RunConfig = syntheticConfig({ provider: 'builtin', model: 'echo', faults: { delayMs: 2 }, retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 } }, { seed: 4, concurrency: 8 });
const dataset = () => syntheticSamples(SAMPLES, { seed: 4 });
const userText = (prompt: { role: string; content: string }[]) => prompt.find((m) => m.role === 'user')!.content;

/** Counted once the run's process is gone (a native reader must not share a file the WebAssembly SQLite writes). */
function recordedCount(db: string): number {
  const d = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return (d.prepare('SELECT COUNT(*) AS n FROM results').get() as { n: number }).n;
  } finally {
    d.close();
  }
}

type Phase = { run: 'killed'; database: string } | { run: 'resumed'; database: string; baseUrl: string };

void childPhase<Phase>().then(async (phase) => {
  if (!phase) return tests();
  try {
    if (phase.run === 'killed') {
      await executeRun({ config, database: phase.database, dataset: dataset(), progressIntervalMs: 0, onProgress: (p: RunProgress) => report({ done: p.done }) });
    } else {
      const client = new OpenAICompatibleProvider({ baseUrl: phase.baseUrl, model: 'echo' });
      try {
        const summary = await executeRun({ config, database: phase.database, dataset: dataset(), provider: { id: 'builtin:echo', complete: (r, s) => client.complete(r, s) } });
        report({ summary });
      } finally {
        client.close();
      }
    }
    process.exit(0);
  } catch (e) {
    console.error(e);
    process.exit(1);
  }
});

function tests(): void {
  describe('kill -9 mid-run, then resume', () => {
    for (const store of ['native', 'wasm'] as const) {
      test(`nothing recorded is lost, nothing is sent or recorded twice (${store} SQLite)`, async () => {
        const db = join(mkdtempSync(join(tmpdir(), 'anachron-kill-')), 'run.sqlite');
        const killed = startPhase<{ done: number }>(__filename, { run: 'killed', database: db }, store);
        await killed.until((r) => r.done >= 300, 30_000);
        await killed.kill();
        const before = recordedCount(db);
        assert.ok(before >= 300 && before < SAMPLES, `recorded ${before} before the kill`);

        const raw = new Database(db, { readonly: true });
        assert.equal(raw.pragma('integrity_check', { simple: true }), 'ok');
        const doneBefore = new Set((raw.prepare('SELECT sample_id FROM results').all() as { sample_id: string }[]).map((r) => r.sample_id));
        assert.ok(raw.prepare("SELECT value FROM meta WHERE key = 'lock'").get(), 'the dead process left its lock');
        raw.close();

        const server = await startLocalModelServer({ models: { echo: new BuiltinProvider('echo') }, recordPrompts: true });
        try {
          const { summary } = await startPhase<{ summary: Awaited<ReturnType<typeof executeRun>> }>(__filename, { run: 'resumed', database: db, baseUrl: server.baseUrl }, store).finished();
          assert.equal(summary.resumedFrom, before);
          assert.equal(summary.sent, SAMPLES - before);
          assert.equal(summary.answered, SAMPLES);
          assert.equal(summary.pending, 0);
          const byText = new Map(dataset().map((s) => [userText(s.prompt), s.id]));
          const resent = server.received().map((t) => byText.get(t)!);
          assert.equal(resent.length, SAMPLES - before);
          assert.ok(resent.every((id) => !doneBefore.has(id)), 'a sample recorded before the kill was sent again');
          assert.equal(new Set(resent).size, resent.length);
        } finally {
          await server.close();
        }
        const finished = RunStore.open(db, { readonly: true });
        const entries = [...finished.entries()];
        assert.equal(entries.length, SAMPLES);
        for (const { sample, result } of entries) assert.equal(result?.response, userText(sample.prompt), sample.id);
        const sessions = finished.sessions();
        finished.close();
        assert.equal(sessions.length, 2);
        assert.equal(sessions[0]!.outcome, null, 'the killed session never ended');
        assert.equal(sessions[1]!.outcome, 'completed');
      });
    }
  });
}
