// A drift run killed with SIGKILL mid-way loses nothing it recorded and repeats nothing when resumed: the resumed
// session generates exactly the samples without an answer and executes exactly the (sample, environment) pairs
// without an execution, and the finished run equals one that was never interrupted. On each SQLite store
// (better-sqlite3, and the WebAssembly SQLite the editor uses where the native module does not load): the run and
// its resumption execute in child processes (this file again, support/child-phase.ts), through the real sandbox.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { BuiltinProvider } from '../server/src/eval/builtin-models.js';
import type { ModelProvider } from '../server/src/eval/models/provider.js';
import { readDriftRun } from '../server/src/eval/drift/report-files.js';
import { executeDriftRun, type Executor } from '../server/src/eval/drift/run.js';
import type { RunProgress } from '../server/src/eval/runs/runner.js';
import { executeSample } from '../server/src/environments/sandbox.js';
import { childPhase, report, startPhase } from './support/child-phase.js';
import { FAKE_TASKS, makeDriftFixture, PYTHON } from './support/drift-fixture.js';

const SKIP = existsSync(PYTHON) ? false : `${PYTHON} not found`;
// 2 tasks × 2 versions × 3 samples = 12 generations, 24 executions, 6 repair cases (prompted 1.0.0, broken on 2.0.0).
const settings = { samplesPerPrompt: 3, repairRounds: 1, executionConcurrency: 1 };

/** Counted once the run's process is gone (a native reader must not share a file the WebAssembly SQLite writes). */
function count(db: string, sql: string): number {
  const d = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return (d.prepare(sql).get() as { n: number }).n;
  } finally {
    d.close();
  }
}

type Phase = { run: 'killed' | 'resumed'; database: string };
interface Resumed {
  sent: number;
  ran: number;
  executionsDone: number;
}

void childPhase<Phase>().then(async (phase) => {
  if (!phase) return tests();
  try {
    const fx = makeDriftFixture();
    const config = fx.config('version-aware', { ...settings, environments: undefined } as never);
    if (phase.run === 'killed') {
      await executeDriftRun({
        config, database: phase.database, tasks: [FAKE_TASKS], environments: fx.environments, execute: executeSample, notes: null,
        progressIntervalMs: 0, onProgress: (p: RunProgress & { phase?: string }) => report({ phase: p.phase, done: p.done }),
      });
    } else {
      // Resume with counting wrappers around the model and the sandbox.
      let sent = 0;
      const builtin = new BuiltinProvider('version-aware', { driftTasks: [FAKE_TASKS] });
      const provider: ModelProvider = { id: builtin.id, complete: (r, s) => (sent++, builtin.complete(r, s)) };
      let ran = 0;
      const execute: Executor = (req) => {
        ran++;
        return executeSample(req);
      };
      const summary = await executeDriftRun({ config, database: phase.database, tasks: [FAKE_TASKS], environments: fx.environments, execute, notes: null, provider });
      report({ sent, ran, executionsDone: summary.executions.done } satisfies Resumed);
    }
    process.exit(0);
  } catch (e) {
    console.error(e);
    process.exit(1);
  }
});

let fresh: Promise<ReturnType<typeof readDriftRun>['results']> | undefined;

/** The results of the same run never interrupted (made once, in this process). */
function uninterrupted(): Promise<ReturnType<typeof readDriftRun>['results']> {
  fresh ??= (async () => {
    const fx = makeDriftFixture();
    const config = fx.config('version-aware', { ...settings, environments: undefined } as never);
    const database = join(mkdtempSync(join(tmpdir(), 'anachron-drift-fresh-')), 'run.sqlite');
    await executeDriftRun({ config, database, tasks: [FAKE_TASKS], environments: fx.environments, execute: executeSample, notes: null });
    return readDriftRun(database).results;
  })();
  return fresh;
}

function tests(): void {
  describe('kill -9 mid-run, then resume', { skip: SKIP }, () => {
    for (const store of ['native', 'wasm'] as const) {
      test(`nothing recorded is lost; nothing is generated or executed twice (${store} SQLite)`, { timeout: 300_000 }, async () => {
        const db = join(mkdtempSync(join(tmpdir(), 'anachron-drift-kill-')), 'run.sqlite');
        // Kill once a few executions are recorded, while the rest are still running.
        const killed = startPhase<{ phase: string; done: number }>(__filename, { run: 'killed', database: db }, store);
        await killed.until((r) => r.phase === 'execute' && r.done >= 5, 120_000);
        await killed.kill();
        const generatedBefore = count(db, 'SELECT COUNT(*) AS n FROM results');
        const executedBefore = count(db, 'SELECT COUNT(*) AS n FROM drift_executions');
        assert.ok(executedBefore >= 5 && executedBefore < 24, `killed mid-run: ${executedBefore} executions recorded`);

        const resumed = await startPhase<Resumed>(__filename, { run: 'resumed', database: db }, store).finished();
        // 12 generations and 6 repairs in all; 24 + 6 executions.
        assert.equal(resumed.sent, 12 + 6 - generatedBefore, 'exactly the unanswered prompts were sent');
        assert.equal(resumed.ran, 30 - executedBefore, 'exactly the missing executions ran');
        assert.equal(resumed.executionsDone, 30);
        assert.equal(count(db, 'SELECT COUNT(*) AS n FROM results'), 18);
        assert.equal(count(db, 'SELECT COUNT(*) AS n FROM (SELECT DISTINCT sample_id, environment FROM drift_executions)'), 30);

        // The same figures as a run that was never interrupted.
        const a = readDriftRun(db).results;
        const b = await uninterrupted();
        assert.deepEqual(a.results, b.results);
        assert.deepEqual(a.counts, b.counts);
      });
    }
  });
}
