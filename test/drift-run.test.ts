// The drift suite end to end on a fake library at two versions (test/support/drift-fixture.ts), through the real
// sandbox with the host's python3 and the built-in reference models over the local HTTP server: the drift matrices
// the two models must produce, repair, samples that misbehave (contained, classified, the run goes on), the CLI with
// its report, every figure of results.json recomputed from the stored executions with independent code, report
// regeneration, shards merged, and the config's validation.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { validateRunConfig } from '../server/src/eval/suites.js';
import type { ModelProvider } from '../server/src/eval/models/provider.js';
import { runBench } from '../server/src/cli/bench-command.js';
import { resolveDriftEnvironments } from '../server/src/eval/drift/suite.js';
import { InputError } from '../server/src/core/errors.js';
import { loadRunTasks, TaskFileError } from '../server/src/eval/drift/task-files.js';
import { readDriftRun } from '../server/src/eval/drift/report-files.js';
import type { DriftResults } from '../server/src/eval/drift/report.js';
import { executeDriftRun } from '../server/src/eval/drift/run.js';
import { wilsonInterval } from '../server/src/eval/drift/metrics.js';
import { executeSample } from '../server/src/environments/sandbox.js';
import { FAKE_TASKS, makeDriftFixture, PYTHON, type DriftFixture } from './support/drift-fixture.js';

const SKIP = existsSync(PYTHON) ? false : `${PYTHON} not found`;

let fx: DriftFixture;
before(() => {
  fx = makeDriftFixture();
});

const tmp = (name: string) => join(mkdtempSync(join(tmpdir(), `anachron-drift-${name}-`)), 'run.sqlite');
const matrixOf = (r: DriftResults, library = 'fakelib') => r.results.find((l) => l.library === library)!.matrix.cells.map((row) => row.map((c) => c?.pass.value ?? null));

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runBench(args, (s) => (stdout += s + '\n'), (s) => (stderr += s + '\n'));
  return { code, stdout, stderr };
}

describe('a drift run on a fake library', { skip: SKIP }, () => {
  test('version-aware: a perfect diagonal, every newer version breaks, every repair succeeds in one round', async () => {
    const db = tmp('aware');
    const summary = await executeDriftRun({ config: fx.config('version-aware'), database: db, tasks: [FAKE_TASKS], environments: fx.environments, execute: executeSample, notes: null });
    assert.deepEqual(summary.generations, { samples: 8, answered: 8, failed: 0, pending: 0, sent: 8 });
    assert.equal(summary.executions.done, 8 * 2 + 4);
    assert.equal(summary.executions.errors, 0, summary.executions.firstError);
    const { results, executions } = readDriftRun(db);
    assert.deepEqual(matrixOf(results), [[1, 0], [0, 1]]);
    const lib = results.results[0]!;
    // Prompted 1.0.0, run on 2.0.0: area soft-fails (trapz deprecated), avg hard-fails (old_mean removed).
    const byPrompted = Object.fromEntries(lib.taxonomy.byPrompted.map((r) => [r.key, r.counts]));
    assert.deepEqual(byPrompted['1.0.0'], { Pass: 4, AttributeError: 2, 'Soft-fail': 2 });
    assert.deepEqual(byPrompted['2.0.0'], { Pass: 4, AttributeError: 4 });
    // Lenient: the soft fails count as passing.
    assert.equal(lib.lenient.cells[0]![1]!.pass.value, 0.5);
    const all = lib.repair.find((f) => f.target === 'all')!;
    assert.equal(all.attempts, 4);
    assert.deepEqual(all.byRound.map((r) => r.repaired.value), [1, 1]);
    assert.equal(executions.filter((e) => e.kind === 'repair').length, 4);
    assert.match(executions.find((e) => e.kind === 'repair')!.code, /trapezoid|mean/);
  });

  test('version-oblivious: newest code everywhere, so version 1 fails its own version and nothing is repaired', async () => {
    const db = tmp('oblivious');
    await executeDriftRun({ config: fx.config('version-oblivious'), database: db, tasks: [FAKE_TASKS], environments: fx.environments, execute: executeSample, notes: null });
    const { results } = readDriftRun(db);
    assert.deepEqual(matrixOf(results), [[0, 1], [0, 1]]);
    const m = results.results[0]!.matrix;
    assert.deepEqual([m.forward.value, m.backward.value], [1, 0]);
    assert.deepEqual(m.largestForwardDrop, { prompted: '1.0.0', environment: '2.0.0', drop: -1 });
    assert.equal(results.counts.repairCases, 0);
  });

  test('cancelled mid-execution: nothing in flight is recorded, the resumed run ends like an uninterrupted one', async () => {
    const db = tmp('cancel');
    const controller = new AbortController();
    const config = fx.config('version-aware', { executionConcurrency: 2 });
    const first = await executeDriftRun({
      config,
      database: db,
      tasks: [FAKE_TASKS],
      environments: fx.environments,
      execute: executeSample,
      notes: null,
      signal: controller.signal,
      progressIntervalMs: 0,
      onProgress: (p) => {
        if (p.phase === 'execute' && p.doneThisSession >= 3) controller.abort();
      },
    });
    assert.equal(first.cancelled, true);
    assert.ok(first.executions.done >= 3 && first.executions.done < 16, `${first.executions.done} executions before the cancel`);
    let ran = 0;
    const second = await executeDriftRun({ config, database: db, tasks: [FAKE_TASKS], environments: fx.environments, execute: (r) => (ran++, executeSample(r)), notes: null });
    assert.equal(second.cancelled, false);
    assert.equal(ran, 20 - first.executions.done);
    assert.deepEqual(matrixOf(readDriftRun(db).results), [[1, 0], [0, 1]]);
  });

  test('samples that sleep forever, open sockets, fork without bound or write outside their folder are contained and classified; the run goes on', async () => {
    const bad: Record<string, string> = {
      area: 'import time\n\ndef area(y):\n    time.sleep(3600)\n',
      avg: 'import socket\n\ndef avg(xs):\n    socket.create_connection(("93.184.216.34", 80), timeout=2)\n    return 2\n',
    };
    const sneaky = 'import os\n\ndef avg(xs):\n    open("/tmp/anachron-drift-escape-" + str(os.getpid()), "w").write("x")\n    while True:\n        os.fork()\n';
    let calls = 0;
    const provider: ModelProvider = {
      id: 'test:misbehaving',
      complete: async (request) => {
        calls++;
        const user = request.messages[1]!.content;
        const entry = user.includes('area(y)') ? 'area' : 'avg';
        const code = entry === 'avg' && user.includes('v2.0.0') ? sneaky : bad[entry]!;
        return { text: '```python\n' + code + '```', latencyMs: 0 };
      },
    };
    const db = tmp('misbehaving');
    const summary = await executeDriftRun({
      config: fx.config('version-aware', { samplesPerPrompt: 1, timeoutMs: 2500, repairRounds: 0 }),
      database: db,
      tasks: [FAKE_TASKS],
      environments: fx.environments,
      execute: executeSample,
      notes: null,
      provider,
    });
    assert.equal(calls, 4);
    assert.equal(summary.executions.done, 8, 'every sample ran in both environments');
    const { executions } = readDriftRun(db);
    for (const e of executions.filter((x) => x.task === 'fakelib/area')) assert.equal(e.outcome, 'timeout');
    for (const e of executions.filter((x) => x.task === 'fakelib/avg')) {
      assert.equal(e.outcome, 'hard-fail', `${e.sampleId}: ${e.errorType} ${e.message}`);
      assert.ok(e.errorType, 'an exception type is recorded');
    }
  });
});

/** Every figure of results.json from the database's rows, with code independent of the suite's. */
function recompute(database: string, k: number): { d: Record<string, number>; passAtK: Record<string, number>; wilson: Record<string, [number, number]>; taxonomy: Record<string, number>; repair: Record<string, number> } {
  const db = new Database(database, { readonly: true });
  try {
    const samples = new Map((db.prepare('SELECT id, ground_truth FROM samples').all() as { id: string; ground_truth: string }[]).map((r) => [r.id, JSON.parse(r.ground_truth) as Record<string, unknown>]));
    const rows = db.prepare('SELECT sample_id, environment, outcome, error_type FROM drift_executions').all() as { sample_id: string; environment: string; outcome: string; error_type: string | null }[];
    const d: Record<string, number> = {};
    const counts: Record<string, [number, number]> = {};
    const prompts: Record<string, [number, number]> = {};
    const taxonomy: Record<string, number> = {};
    const repairs: Record<string, { round: number; pass: boolean }[]> = {};
    for (const r of rows) {
      const t = samples.get(r.sample_id)!;
      if (t.kind === 'repair') {
        (repairs[`${t.generation}>${t.target}`] ??= []).push({ round: t.round as number, pass: r.outcome === 'pass' });
        continue;
      }
      const cell = `${t.version}>${r.environment}`;
      counts[cell] ??= [0, 0];
      counts[cell]![1]++;
      if (r.outcome === 'pass') counts[cell]![0]++;
      const prompt = `${cell}|${t.task}`;
      prompts[prompt] ??= [0, 0];
      prompts[prompt]![1]++;
      if (r.outcome === 'pass') prompts[prompt]![0]++;
      const label = r.outcome === 'pass' ? 'Pass' : r.outcome === 'soft-fail' ? 'Soft-fail' : r.outcome === 'timeout' ? 'Timeout' : r.error_type ?? 'Hard-fail (unknown)';
      taxonomy[label] = (taxonomy[label] ?? 0) + 1;
    }
    const wilson: Record<string, [number, number]> = {};
    for (const [cell, [s, n]] of Object.entries(counts)) {
      d[cell] = s / n;
      const z = 1.959963984540054;
      const p = s / n;
      const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
      const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
      wilson[cell] = [Math.max(0, centre - half), Math.min(1, centre + half)];
    }
    // Pass@k: 1 − C(n−c, k)/C(n, k) per prompt, averaged per cell.
    const choose = (n: number, r: number): number => (r < 0 || r > n ? 0 : r === 0 ? 1 : (choose(n - 1, r - 1) * n) / r);
    const passAtK: Record<string, number> = {};
    const perCell: Record<string, number[]> = {};
    for (const [prompt, [c, n]] of Object.entries(prompts)) (perCell[prompt.split('|')[0]!] ??= []).push(1 - choose(n - c, k) / choose(n, k));
    for (const [cell, values] of Object.entries(perCell)) passAtK[cell] = values.reduce((a, b) => a + b, 0) / values.length;
    const repair: Record<string, number> = {};
    const cases = Object.values(repairs);
    for (let r = 1; r <= 2; r++) repair[`round${r}`] = cases.filter((c) => c.some((x) => x.round <= r && x.pass)).length / cases.length;
    return { d, passAtK, wilson, taxonomy, repair };
  } finally {
    db.close();
  }
}

describe('the CLI and the report', { skip: SKIP }, () => {
  let dir = '';
  let aware: DriftResults;

  test('bench run CONFIG: a drift config runs, resumes as a no-op, and writes the report', async () => {
    dir = mkdtempSync(join(tmpdir(), 'anachron-drift-cli-'));
    const config = fx.writeConfig(join(fx.dir, 'aware.json'), fx.config('version-aware', {}, 'aware'));
    const r = await cli(['run', config, '--out', join(dir, 'aware'), '--quiet']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^run: 8 samples, 8 answered, 0 failed, 0 pending; 20 executions/m);
    assert.match(r.stdout, /^drift fakelib: fidelity 100\.0% \(mean of the diagonal\), pooled 100\.0% \[/m);
    for (const f of ['run.sqlite', 'results.json', 'executions.jsonl', 'tables.md', 'report.html', 'drift-matrix.csv', 'fidelity.csv', 'taxonomy.csv', 'categories.csv', 'repair.csv', 'compatibility.csv', 'drift-heatmap.svg', 'fidelity-fakelib.svg', 'forward-drop.svg', 'error-taxonomy.svg', 'repair.svg', 'pass-at-k.svg']) {
      assert.ok(existsSync(join(dir, 'aware', f)), f);
    }
    aware = JSON.parse(readFileSync(join(dir, 'aware', 'results.json'), 'utf8')) as DriftResults;
    // Samples of one prompt are correlated: the fidelity table gives Pass@1 with its Wilson interval over prompts
    // (n = prompts) beside the execution-level one, hand-computed here from the counts.
    const fid = aware.results[0]!.matrix.fidelity[0]!;
    const prompts = fid.passAtK[0]!.prompts;
    assert.ok(prompts > 0 && prompts < fid.pass.n, `${prompts} prompts, ${fid.pass.n} executions`);
    const byPrompt = wilsonInterval(fid.passAtK[0]!.value! * prompts, prompts)!;
    const text = readFileSync(join(dir, 'aware', 'tables.md'), 'utf8');
    assert.match(text, /\| version \| Pass@1 \| Pass@1, prompts as units \| Pass@2 \| executions \| prompts \|/);
    const pc = (x: number) => (x * 100).toFixed(1);
    assert.ok(text.includes(`| ${fid.version} | ${pc(fid.pass.value!)} [${pc(fid.pass.ci![0])}, ${pc(fid.pass.ci![1])}] | ${pc(fid.passAtK[0]!.value!)} [${pc(byPrompt[0])}, ${pc(byPrompt[1])}] |`), 'the by-prompt interval in the fidelity table');
    assert.ok(byPrompt[0] < fid.pass.ci![0], 'fewer units: a wider interval');
    const again = await cli(['run', config, '--out', join(dir, 'aware'), '--quiet']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /; 0 this session\).*this session sent 0/);
    const html = readFileSync(join(dir, 'aware', 'report.html'), 'utf8');
    assert.ok(!/<script/i.test(html));
    assert.match(html, /<svg/);
  });

  test('every figure of results.json recomputes from the stored executions', () => {
    const k = aware.settings.samplesPerPrompt;
    const x = recompute(join(dir, 'aware', 'run.sqlite'), k);
    const lib = aware.results[0]!;
    for (const row of lib.matrix.cells) {
      for (const c of row) {
        if (!c) continue;
        const cell = `${c.prompted}>${c.environment}`;
        assert.equal(c.pass.value, x.d[cell], cell);
        assert.deepEqual(c.pass.ci!.map((v) => v.toFixed(12)), x.wilson[cell]!.map((v) => v.toFixed(12)), cell);
        assert.ok(Math.abs(c.passAtK[k - 1]!.value! - x.passAtK[cell]!) < 1e-12, `${cell} pass@${k}`);
      }
    }
    assert.deepEqual(lib.taxonomy.overall.counts, Object.fromEntries(Object.entries(x.taxonomy).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))));
    const all = lib.repair.find((f) => f.target === 'all')!;
    assert.deepEqual(all.byRound.map((r) => r.repaired.value), [x.repair.round1, x.repair.round2]);
    // And the suite's own aggregation over the database gives results.json again.
    assert.deepEqual(JSON.parse(JSON.stringify(readDriftRun(join(dir, 'aware', 'run.sqlite')).results)), aware);
  });

  test('bench report: one run rewrites the same results; two runs are compared', async () => {
    const before = readFileSync(join(dir, 'aware', 'results.json'), 'utf8');
    const one = await cli(['report', join(dir, 'aware')]);
    assert.equal(one.code, 0, one.stderr);
    assert.equal(readFileSync(join(dir, 'aware', 'results.json'), 'utf8'), before);
    const obliviousConfig = fx.writeConfig(join(fx.dir, 'oblivious.json'), fx.config('version-oblivious', {}, 'oblivious'));
    const r = await cli(['run', obliviousConfig, '--out', join(dir, 'oblivious'), '--quiet']);
    assert.equal(r.code, 0, r.stderr);
    const cmp = await cli(['report', join(dir, 'aware'), join(dir, 'oblivious'), '--out', join(dir, 'compare')]);
    assert.equal(cmp.code, 0, cmp.stderr);
    assert.match(cmp.stdout, /compared 2 drift runs/);
    for (const f of ['comparison.json', 'leaderboard.csv', 'tables.md', 'report.html', 'drift-heatmap.svg', 'runs/aware/results.json', 'runs/oblivious/results.json']) assert.ok(existsSync(join(dir, 'compare', f)), f);
    const csv = readFileSync(join(dir, 'compare', 'leaderboard.csv'), 'utf8');
    assert.match(csv, /^aware,builtin:version-aware,fakelib,1,/m);
    assert.match(csv, /^oblivious,builtin:version-oblivious,fakelib,0\.5,/m);
  });

  test('shards merged equal the unsharded run', async () => {
    const config = fx.writeConfig(join(fx.dir, 'aware-sharded.json'), fx.config('version-aware', {}, 'aware'));
    for (const shard of ['1/2', '2/2']) {
      const r = await cli(['run', config, '--shard', shard, '--out', join(dir, `shard-${shard[0]}`), '--quiet']);
      assert.equal(r.code, 0, r.stderr);
    }
    const m = await cli(['merge', join(dir, 'shard-1'), join(dir, 'shard-2'), '--out', join(dir, 'merged')]);
    assert.equal(m.code, 0, m.stderr);
    assert.match(m.stdout, /merged 2 drift runs .* 20 executions/);
    const merged = JSON.parse(readFileSync(join(dir, 'merged', 'results.json'), 'utf8')) as DriftResults;
    assert.deepEqual(merged.results, aware.results);
    assert.deepEqual(merged.counts, aware.counts);
  });

  test('--limit counts generated samples', async () => {
    const config = fx.writeConfig(join(fx.dir, 'aware-limit.json'), fx.config('version-aware', { repairRounds: 0 }, 'aware limited'));
    const r = await cli(['run', config, '--limit', '3', '--out', join(dir, 'limited'), '--quiet']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^run: 3 samples, 3 answered, 0 failed, 0 pending; 6 executions/m);
  });
});

describe('drift configs', () => {
  const base = { suite: 'drift', libraries: ['numpy'], model: { provider: 'builtin', model: 'version-aware' }, seed: 1 };

  test('the paper\'s sampling by default; every field checked', () => {
    const c = validateRunConfig(base);
    assert.deepEqual([c.model.temperature, c.model.maxTokens, c.tasks, c.levels], [0.8, 1024, [], []]);
    assert.equal(validateRunConfig({ ...base, model: { ...base.model, temperature: 0 } }).model.temperature, 0);
    assert.throws(() => validateRunConfig({ ...base, tasks: ['SR'] }), /takes no tasks/);
    assert.throws(() => validateRunConfig({ ...base, drift: { samples: 3 } }), /unknown field "samples" in drift/);
    assert.throws(() => validateRunConfig({ ...base, drift: { samplesPerPrompt: 0 } }), /samplesPerPrompt/);
    assert.throws(() => validateRunConfig({ ...base, drift: { environments: { numpy: { '1.24.2': { argv: [] } } } } }), /argv/);
    assert.throws(() => validateRunConfig({ ...base, drift: { taskFiles: [{ file: 'x.jsonl' }] } }), /library/);
    assert.throws(() => validateRunConfig({ suite: 'libevobench', libraries: ['numpy'], tasks: ['SR'], model: base.model, seed: 1, drift: {} }), /need suite "drift"/);
    const ok = validateRunConfig({ ...base, drift: { taskFiles: ['a.json', { file: 'he.jsonl', library: 'qiskit' }], samplesPerPrompt: 5, repairRounds: 0, migrationNotes: false } });
    assert.equal(ok.drift!.samplesPerPrompt, 5);
  });

  test('task files: the bundled sets by default, HumanEval-style files with their library, task ids kept', () => {
    const config = validateRunConfig(base);
    const [numpy] = loadRunTasks(config, '.');
    assert.equal(numpy!.library, 'numpy');
    assert.ok(numpy!.tasks.length >= 40);
    const dir = mkdtempSync(join(tmpdir(), 'anachron-drift-tasks-'));
    const he = join(dir, 'qiskit.jsonl');
    writeFileSync(he, [
      JSON.stringify({ task_id: 'qiskit/0', prompt: 'def bell():\n    """A Bell circuit."""\n', entry_point: 'bell', test: 'def check(candidate):\n    assert candidate() is not None\n' }),
      JSON.stringify({ task_id: 'qiskit/1', prompt: 'def ghz(n):\n    """A GHZ circuit."""\n', entry_point: 'ghz', test: 'def check(candidate):\n    assert candidate(3) is not None\n' }),
    ].join('\n'));
    const qiskit = validateRunConfig({ ...base, libraries: ['qiskit'], drift: { taskFiles: [{ file: 'qiskit.jsonl', library: 'qiskit' }], taskIds: ['qiskit/1'] } });
    const [set] = loadRunTasks(qiskit, dir);
    assert.deepEqual(set!.tasks.map((t) => [t.id, t.entryPoint]), [['qiskit/1', 'ghz']]);
    assert.match(set!.tasks[0]!.prompt, /\{library\}.*\{version\}/s);
    assert.throws(() => loadRunTasks(validateRunConfig({ ...base, libraries: ['qiskit'], drift: { taskFiles: [{ file: 'qiskit.jsonl', library: 'qiskit' }], taskIds: ['qiskit/9'] } }), dir), TaskFileError);
    assert.throws(() => loadRunTasks(validateRunConfig({ ...base, libraries: ['numpy', 'qiskit'], drift: { taskFiles: [{ file: 'qiskit.jsonl', library: 'qiskit' }] } }), dir), /no task file is for numpy/);
    assert.throws(() => loadRunTasks(validateRunConfig({ ...base, libraries: ['nolib'] }), dir), /no bundled drift tasks/);
  });

  test('environments: the config\'s interpreters first, then the registry; every version needs one', () => {
    const sets = [{ library: 'numpy', distribution: 'numpy', tasks: [] }];
    const registry = new Map([['numpy', new Map([['1.24.2', { argv: ['/envs/a/python'] }], ['2.2.4', { argv: ['/envs/b/python'] }]])]]);
    const config = validateRunConfig({ ...base, drift: { environments: { numpy: { '2.2.4': { argv: ['/mine/python'] } } } } });
    const envs = resolveDriftEnvironments(config, sets, registry);
    assert.deepEqual(config.versions, { numpy: ['1.24.2', '2.2.4'] }, 'every available version when the config names none');
    assert.deepEqual(envs.get('numpy')!.get('2.2.4'), { argv: ['/mine/python'] });
    assert.deepEqual(envs.get('numpy')!.get('1.24.2'), { argv: ['/envs/a/python'] });
    const wanting = validateRunConfig({ ...base, versions: { numpy: ['1.19.5', '1.24.2'] } });
    assert.throws(() => resolveDriftEnvironments(wanting, sets, registry), (e: Error) => e instanceof InputError && /no environment for numpy 1\.19\.5 \(available: 1\.24\.2, 2\.2\.4\)/.test(e.message));
    assert.throws(() => resolveDriftEnvironments(validateRunConfig(base), sets, new Map()), /no environments for numpy/);
  });
});
