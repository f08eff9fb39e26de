// A drift run killed with SIGKILL mid-way loses nothing it recorded and repeats nothing when resumed: the resumed
// session generates exactly the samples without an answer and executes exactly the (sample, environment) pairs
// without an execution, and the finished run equals one that was never interrupted. The run executes in a child
// process (this file, started with ANACHRON_DRIFT_KILL_CHILD set to the run database), through the real sandbox.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { BuiltinProvider } from '../server/src/eval/models/builtin.js';
import type { ModelProvider } from '../server/src/eval/models/provider.js';
import { readDriftRun } from '../server/src/eval/drift/report-files.js';
import { executeDriftRun, type Executor } from '../server/src/eval/drift/run.js';
import { executeSample } from '../server/src/environments/sandbox.js';
import { FAKE_TASKS, makeDriftFixture, PYTHON } from './support/drift-fixture.js';

const SKIP = existsSync(PYTHON) ? false : `${PYTHON} not found`;
// 2 tasks × 2 versions × 3 samples = 12 generations, 24 executions, 6 repair cases (prompted 1.0.0, broken on 2.0.0).
const settings = { samplesPerPrompt: 3, repairRounds: 1, executionConcurrency: 1 };

function count(db: string, sql: string): number {
  try {
    const d = new Database(db, { readonly: true, fileMustExist: true });
    try {
      return (d.prepare(sql).get() as { n: number }).n;
    } finally {
      d.close();
    }
  } catch {
    return 0; // not created yet
  }
}

const childDatabase = process.env.ANACHRON_DRIFT_KILL_CHILD;
if (childDatabase) {
  const fx = makeDriftFixture();
  executeDriftRun({
    config: fx.config('version-aware', { ...settings, environments: undefined } as never),
    database: childDatabase,
    tasks: [FAKE_TASKS],
    environments: fx.environments,
    execute: executeSample,
    notes: null,
  }).then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
} else {
  describe('kill -9 mid-run, then resume', { skip: SKIP }, () => {
    test('nothing recorded is lost; nothing is generated or executed twice', { timeout: 300_000 }, async () => {
      const fx = makeDriftFixture();
      const db = join(mkdtempSync(join(tmpdir(), 'anachron-drift-kill-')), 'run.sqlite');
      const child = spawn(process.execPath, ['--import', 'tsx', __filename], { env: { ...process.env, ANACHRON_DRIFT_KILL_CHILD: db }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      // Kill once a few executions are recorded, while the rest are still running.
      const deadline = Date.now() + 120_000;
      while (count(db, 'SELECT COUNT(*) AS n FROM drift_executions') < 5) {
        if (Date.now() > deadline) throw new Error(`the child recorded too little in time: ${stderr}`);
        if (child.exitCode !== null) throw new Error(`the child exited early (${child.exitCode}): ${stderr}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      child.kill('SIGKILL');
      await exited;
      const generatedBefore = count(db, 'SELECT COUNT(*) AS n FROM results');
      const executedBefore = count(db, 'SELECT COUNT(*) AS n FROM drift_executions');
      assert.ok(executedBefore >= 5 && executedBefore < 24, `killed mid-run: ${executedBefore} executions recorded`);

      // Resume with counting wrappers around the model and the sandbox.
      let sent = 0;
      const builtin = new BuiltinProvider('version-aware', { driftTasks: [FAKE_TASKS] });
      const provider: ModelProvider = { id: builtin.id, complete: (r, s) => (sent++, builtin.complete(r, s)) };
      const ran: string[] = [];
      const execute: Executor = (req) => {
        ran.push(req.code);
        return executeSample(req);
      };
      const config = fx.config('version-aware', { ...settings, environments: undefined } as never);
      const summary = await executeDriftRun({ config, database: db, tasks: [FAKE_TASKS], environments: fx.environments, execute, notes: null, provider });
      // 12 generations and 6 repairs in all; 24 + 6 executions.
      assert.equal(sent, 12 + 6 - generatedBefore, 'exactly the unanswered prompts were sent');
      assert.equal(ran.length, 30 - executedBefore, 'exactly the missing executions ran');
      assert.equal(summary.executions.done, 30);
      assert.equal(count(db, 'SELECT COUNT(*) AS n FROM results'), 18);
      assert.equal(count(db, 'SELECT COUNT(*) AS n FROM (SELECT DISTINCT sample_id, environment FROM drift_executions)'), 30);

      // The same figures as a run that was never interrupted.
      const fresh = join(mkdtempSync(join(tmpdir(), 'anachron-drift-fresh-')), 'run.sqlite');
      await executeDriftRun({ config, database: fresh, tasks: [FAKE_TASKS], environments: fx.environments, execute: executeSample, notes: null });
      const a = readDriftRun(db).results;
      const b = readDriftRun(fresh).results;
      assert.deepEqual(a.results, b.results);
      assert.deepEqual(a.counts, b.counts);
    });
  });
}
