// A run killed with SIGKILL mid-way loses nothing it recorded and duplicates nothing when resumed: the resumed
// session sends exactly the samples without a record. The run executes in a child process (this file, started with
// ANACHRON_BENCH_KILL_CHILD set to the run database).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { BuiltinProvider } from '../server/src/eval/models/builtin.js';
import { OpenAICompatibleProvider } from '../server/src/eval/models/openai-compatible.js';
import { startLocalModelServer } from '../server/src/eval/local-server/server.js';
import type { RunConfig } from '../server/src/eval/runs/config.js';
import { executeRun } from '../server/src/eval/runs/run.js';
import { RunStore } from '../server/src/eval/runs/store.js';
import { syntheticSamples } from '../server/src/eval/runs/synthetic.js';

const SAMPLES = 1500;
const config: RunConfig = {
  suite: 'synthetic',
  libraries: ['synthlib'],
  tasks: ['API-C', 'API-I', 'SR'],
  levels: ['L0', 'L1', 'L2', 'L3'],
  seed: 4,
  concurrency: 8,
  model: { provider: 'builtin', model: 'echo', faults: { delayMs: 2 }, retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 } },
};
const dataset = () => syntheticSamples(SAMPLES, { seed: 4 });
const userText = (prompt: { role: string; content: string }[]) => prompt.find((m) => m.role === 'user')!.content;

function recordedCount(db: string): number {
  try {
    const d = new Database(db, { readonly: true, fileMustExist: true });
    try {
      return (d.prepare('SELECT COUNT(*) AS n FROM results').get() as { n: number }).n;
    } finally {
      d.close();
    }
  } catch {
    return 0; // not created yet
  }
}

const childDatabase = process.env.ANACHRON_BENCH_KILL_CHILD;
if (childDatabase) {
  executeRun({ config, database: childDatabase, dataset: dataset() }).then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
} else {
  describe('kill -9 mid-run, then resume', () => {
    test('nothing recorded is lost, nothing is sent or recorded twice', async () => {
      const db = join(mkdtempSync(join(tmpdir(), 'anachron-kill-')), 'run.sqlite');
      const child = spawn(process.execPath, ['--import', 'tsx', __filename], { env: { ...process.env, ANACHRON_BENCH_KILL_CHILD: db }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
      const deadline = Date.now() + 30_000;
      while (recordedCount(db) < 300) {
        if (Date.now() > deadline) assert.fail(`the child recorded too little in 30 s: ${stderr}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      child.kill('SIGKILL');
      assert.equal(await exited, 'SIGKILL');
      const before = recordedCount(db);
      assert.ok(before >= 300 && before < SAMPLES, `recorded ${before} before the kill`);

      const raw = new Database(db, { readonly: true });
      assert.equal(raw.pragma('integrity_check', { simple: true }), 'ok');
      const doneBefore = new Set((raw.prepare('SELECT sample_id FROM results').all() as { sample_id: string }[]).map((r) => r.sample_id));
      assert.ok(raw.prepare("SELECT value FROM meta WHERE key = 'lock'").get(), 'the dead process left its lock');
      raw.close();

      // Resume in this process through a local server that records what it receives.
      const server = await startLocalModelServer({ models: { echo: new BuiltinProvider('echo') }, recordPrompts: true });
      const client = new OpenAICompatibleProvider({ baseUrl: server.baseUrl, model: 'echo' });
      try {
        const summary = await executeRun({ config, database: db, dataset: dataset(), provider: { id: 'builtin:echo', complete: (r, s) => client.complete(r, s) } });
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
        client.close();
        await server.close();
      }
      const store = RunStore.open(db, { readonly: true });
      const entries = [...store.entries()];
      assert.equal(entries.length, SAMPLES);
      for (const { sample, result } of entries) assert.equal(result?.response, userText(sample.prompt), sample.id);
      const sessions = store.sessions();
      store.close();
      assert.equal(sessions.length, 2);
      assert.equal(sessions[0]!.outcome, null, 'the killed session never ended');
      assert.equal(sessions[1]!.outcome, 'completed');
    });
  });
}
