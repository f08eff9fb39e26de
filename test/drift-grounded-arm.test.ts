// The drift suite's grounded arm (drift/grounding.ts): every generation prompt asked again with anachron's lookup
// answers for the task's APIs at the prompted version. Data-driven over the shipped numpy and scipy tasks with the
// bundled matrices: the grounded prompt is the plain one byte for byte plus the section, and the section is what
// the anachron_lookup tool returns. Then a small real run — the fake library of test/support/drift-fixture.ts with a
// matrix built for it, the host's python3 in the real sandbox, the built-in models over the local HTTP server, the
// CLI — in which the version-oblivious model fixes its code on the drifted versions from the documentation alone,
// the report sets both arms side by side with intervals, and a resumed run registers and runs nothing twice.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { listMatrixApis } from '../server/src/store/api-listing.js';
import { projectPins } from '../server/src/eval/runs/arms.js';
import { runIdentity, validateRunConfig, type RunConfig } from '../server/src/eval/suites.js';
import { runBench } from '../server/src/cli/bench-command.js';
import type { AnalysisContext } from '../server/src/core/analyze.js';
import { compareDriftArms } from '../server/src/eval/drift/arms.js';
import { tasksDigest } from '../server/src/eval/drift/dataset.js';
import { driftGrounding, groundingApis, isDrifted } from '../server/src/eval/drift/grounding.js';
import { differenceInterval, proportion } from '../server/src/eval/drift/metrics.js';
import { generationPrompt, groundedGenerationPrompt, splitDocumentation } from '../server/src/eval/drift/prompts.js';
import { DriftReferenceModel } from '../server/src/eval/drift/reference-models.js';
import { readDriftRun } from '../server/src/eval/drift/report-files.js';
import type { DriftResults } from '../server/src/eval/drift/report.js';
import { executeDriftRun } from '../server/src/eval/drift/run.js';
import { readTaskFile } from '../server/src/eval/drift/task-files.js';
import type { DriftTaskSet } from '../server/src/eval/drift/tasks.js';
import { executeSample } from '../server/src/environments/sandbox.js';
import { ApiKnowledge } from '../server/src/knowledge/api-lookup.js';
import { runLookupTool } from '../server/src/knowledge/tools.js';
import { openMatrixCatalog, type LoadedCatalog } from '../server/src/store/catalog.js';
import { FAKE_TASKS, makeDriftFixture, PYTHON, VERSIONS, type DriftFixture } from './support/drift-fixture.js';
import { api, buildSyntheticMatrices, p, surface } from './support/synthetic-matrix.js';
import { bundledKnowledge } from './support/knowledge.js';

// The Debian environments of the reference figures (docs/benchmark-drift.md).
const VERSIONS_OF: Record<string, string[]> = { numpy: ['1.19.5', '1.24.2', '2.2.4', '2.4.6'], scipy: ['1.6.0', '1.10.1', '1.15.3', '1.17.1'] };

describe('grounded prompts on the shipped tasks and the bundled matrices', () => {
  const bundled = bundledKnowledge();

  for (const library of ['numpy', 'scipy']) {
    test(`${library}: each grounded prompt is the plain one byte for byte plus a Documentation section holding the lookup tool's answers`, () => {
      const set = readTaskFile(join('tasks', 'drift', `${library}.json`));
      let checked = 0;
      for (const task of set.tasks) {
        for (const version of VERSIONS_OF[library]!) {
          const documentation = driftGrounding(bundled.knowledge, library, version, task);
          assert.ok(documentation, `${task.id}: every shipped task names its APIs`);
          const plain = generationPrompt(task, library, version);
          const grounded = groundedGenerationPrompt(plain, library, version, documentation);
          assert.equal(grounded.length, plain.length);
          assert.deepEqual(grounded[0], plain[0], 'the system message is the same');
          const user = grounded[1]!.content;
          assert.ok(user.startsWith(plain[1]!.content), `${task.id}@${version}: the task text comes first, unchanged`);
          assert.match(user.slice(plain[1]!.content.length), /^\n\nDocumentation:\n[^\n]+\n```markdown\n/);
          assert.deepEqual(splitDocumentation(user), { task: plain[1]!.content, documentation });
          assert.deepEqual(splitDocumentation(plain[1]!.content), { task: plain[1]!.content, documentation: null });
          // The same text the anachron_lookup tool (editor, MCP) returns for each API at the project's pin.
          const pins = projectPins(bundled.knowledge, library, version);
          const env = { knowledge: bundled.knowledge, parser: () => Promise.reject(new Error('unused')), contextFor: () => ({ pins }) as unknown as AnalysisContext };
          assert.equal(documentation, groundingApis(task).map((a) => runLookupTool({ api: a }, env).text).join('\n\n'));
          checked++;
        }
      }
      assert.equal(checked, set.tasks.length * 4);
    });
  }

  test('the version-oblivious model uses what the documentation says the pinned version has instead; the version-aware one has nothing to change', () => {
    const numpy = readTaskFile(join('tasks', 'drift', 'numpy.json'));
    const oblivious = new DriftReferenceModel([numpy], 'version-oblivious');
    const aware = new DriftReferenceModel([numpy], 'version-aware');
    const cases: [string, string, RegExp, RegExp][] = [
      // task, version, what the plain answer writes, what the grounded one writes instead
      ['numpy/integrate-trapezoid', '1.24.2', /np\.trapezoid\(/, /np\.trapz\(/],
      ['numpy/concat', '1.24.2', /np\.concat\(/, /np\.concatenate\(/],
      ['numpy/mean-where', '1.19.5', /where=mask/, /np\.mean\(values\)/],
    ];
    for (const [id, version, plainWrites, groundedWrites] of cases) {
      const task = numpy.tasks.find((t) => t.id === id)!;
      assert.equal(isDrifted(task, version), true, id);
      const plain = generationPrompt(task, 'numpy', version);
      const grounded = groundedGenerationPrompt(plain, 'numpy', version, driftGrounding(bundled.knowledge, 'numpy', version, task)!);
      assert.match(oblivious.answer(plain), plainWrites, id);
      assert.match(oblivious.answer(grounded), groundedWrites, id);
      assert.doesNotMatch(oblivious.answer(grounded), plainWrites, id);
      assert.equal(aware.answer(grounded), aware.answer(plain), `${id}: the version-aware code is what the documentation describes`);
      // At the newest version the documentation agrees with the newest code: nothing changes.
      const newest = generationPrompt(task, 'numpy', '2.4.6');
      assert.equal(oblivious.answer(groundedGenerationPrompt(newest, 'numpy', '2.4.6', driftGrounding(bundled.knowledge, 'numpy', '2.4.6', task)!)), oblivious.answer(newest));
    }
  });
});

test('Newcombe\'s interval for a difference of proportions (Newcombe 1998, Table II, example (a): 56/70 − 48/80)', () => {
  const ci = differenceInterval(proportion(48, 80), proportion(56, 70))!;
  assert.deepEqual(ci.map((x) => x.toFixed(4)), ['0.0524', '0.3339']);
  assert.equal(differenceInterval(proportion(0, 0), proportion(1, 2)), null);
});

test('pairs: each grounded execution against its plain twin in the same environment, per scope', () => {
  const fact = (id: string, prompted: string, environment: string, outcome: 'pass' | 'hard-fail', grounded: boolean, drifted = true) => ({
    sampleId: grounded ? `${id}~grounded` : id,
    library: 'x',
    taskId: 't',
    category: 'c',
    prompted,
    environment,
    outcome,
    errorType: outcome === 'pass' ? null : 'AttributeError',
    ...(grounded ? { arm: 'grounded' as const, drifted } : {}),
  });
  const facts = [
    fact('a', '1', '1', 'hard-fail', false), fact('a', '1', '1', 'pass', true),
    fact('a', '1', '2', 'pass', false), fact('a', '1', '2', 'hard-fail', true),
    fact('b', '2', '2', 'pass', false, false), fact('b', '2', '2', 'pass', true, false),
    fact('b', '2', '1', 'hard-fail', false, false),
    // A plain execution without a grounded twin is in no pair.
  ];
  const rows = compareDriftArms(facts, 1);
  const at = (scope: string, version: string | null = null) => rows.find((r) => r.scope === scope && r.version === version)!;
  assert.deepEqual([at('fidelity').pairs, at('fidelity').plain.successes, at('fidelity').grounded.successes, at('fidelity').improved], [2, 1, 2, 1]);
  assert.equal(at('fidelity, drifted prompts').delta.value, 1);
  assert.equal(at('fidelity, other prompts').delta.value, 0);
  assert.equal(at('fidelity at version', '1').pairs, 1);
  assert.deepEqual([at('forward').pairs, at('forward').worsened, at('forward').delta.value], [1, 1, -1]);
  assert.equal(rows.find((r) => r.scope === 'backward'), undefined, 'no backward pair');
});

// ---- a small real run ------------------------------------------------------------------------------------------------

const SKIP = existsSync(PYTHON) ? false : `${PYTHON} not found`;

/** The fixture's tasks naming both spellings of what changed, as the shipped tasks do. */
const TASKS: DriftTaskSet = {
  ...FAKE_TASKS,
  tasks: FAKE_TASKS.tasks.map((t) => ({ ...t, apis: t.id === 'fakelib/area' ? ['fakelib.trapz', 'fakelib.trapezoid'] : ['fakelib.old_mean', 'fakelib.mean'] })),
};

/** A matrix of fakelib as its two versions define it: the renamed functions share their documentation. */
function fakeMatrices(): string {
  const trapz = 'Integrate the samples y along the axis with the composite trapezoidal rule.';
  const mean = 'Compute the arithmetic mean of the values, the sum divided by their count.';
  return buildSyntheticMatrices([
    surface('fakelib', '1.0.0', [api('fakelib', 'module'), api('fakelib.trapz', 'function', [p('y')], trapz), api('fakelib.old_mean', 'function', [p('xs')], mean)]),
    surface('fakelib', '2.0.0', [api('fakelib', 'module'), api('fakelib.trapz', 'function', [p('y')], trapz), api('fakelib.trapezoid', 'function', [p('y')], trapz), api('fakelib.mean', 'function', [p('xs')], mean)]),
  ]);
}

describe('a run with both arms on a fake library', { skip: SKIP }, () => {
  let fx: DriftFixture;
  let matrices: string;
  let catalog: LoadedCatalog;
  let knowledge: ApiKnowledge;
  let taskFile: string;
  before(() => {
    fx = makeDriftFixture();
    matrices = fakeMatrices();
    catalog = openMatrixCatalog(matrices);
    knowledge = new ApiKnowledge(catalog, listMatrixApis);
    taskFile = join(fx.dir, 'fakelib-apis.json');
    writeFileSync(taskFile, JSON.stringify(TASKS, null, 2));
  });
  after(() => catalog.close());

  const config = (model: 'version-aware' | 'version-oblivious', name: string, extra: Partial<RunConfig> = {}): RunConfig => {
    const c = fx.config(model, { taskFiles: [taskFile], repairRounds: 1 }, name);
    return { ...c, arms: ['plain', 'grounded'], drift: { ...c.drift, tasksDigest: tasksDigest([TASKS], { apis: true }) }, ...extra };
  };
  const tmp = (name: string) => join(mkdtempSync(join(tmpdir(), `anachron-drift-arms-${name}-`)), 'run.sqlite');
  const matrixOf = (l: DriftResults['results'][number]) => l.matrix.cells.map((row) => row.map((c) => c?.pass.value ?? null));

  test('the version-oblivious model passes its drifted versions once the documentation names the old API; the version-aware one is unchanged', async () => {
    const results: Record<string, DriftResults> = {};
    for (const model of ['version-oblivious', 'version-aware'] as const) {
      const db = tmp(model);
      const summary = await executeDriftRun({ config: config(model, model), database: db, tasks: [TASKS], environments: fx.environments, execute: executeSample, notes: null, knowledge });
      assert.equal(summary.executions.errors, 0, summary.executions.firstError);
      // 2 tasks × 2 versions × 2 samples, each in both arms.
      assert.equal(summary.generations.samples, 16);
      results[model] = readDriftRun(db).results;
    }
    const oblivious = results['version-oblivious']!;
    assert.ok(oblivious.arms, 'both arms are reported');
    assert.deepEqual(matrixOf(oblivious.results[0]!), [[0, 1], [0, 1]], 'plain: newest code everywhere');
    assert.deepEqual(matrixOf(oblivious.arms.grounded[0]!), [[1, 0], [0, 1]], 'grounded: the 1.0.0 prompts get 1.0.0 code');
    const row = (r: DriftResults, scope: string) => r.arms!.rows.find((x) => x.library === 'fakelib' && x.scope === scope)!;
    const drifted = row(oblivious, 'fidelity, drifted prompts');
    assert.deepEqual([drifted.pairs, drifted.plain.value, drifted.grounded.value, drifted.improved, drifted.worsened], [4, 0, 1, 4, 0]);
    assert.ok(drifted.delta.ci![0] > 0, `the interval ${JSON.stringify(drifted.delta.ci)} excludes zero`);
    assert.equal(row(oblivious, 'fidelity, other prompts').delta.value, 0, 'at the newest version the documentation changes nothing');
    // Its grounded 1.0.0 code is 1.0.0 code: it breaks forward, as the version-aware model's does.
    assert.equal(row(oblivious, 'forward').delta.value, -1);
    assert.deepEqual(row(oblivious, 'fidelity').passAtK.grounded.map((x) => x.value), [1, 1]);
    const aware = results['version-aware']!;
    assert.deepEqual(matrixOf(aware.arms!.grounded[0]!), matrixOf(aware.results[0]!));
    assert.equal(row(aware, 'fidelity').delta.value, 0);
  });

  test('the CLI: a run with both arms reports them side by side; resuming it, and a limited run resumed, send and run nothing twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-drift-arms-cli-'));
    const file = fx.writeConfig(join(fx.dir, 'arms.json'), config('version-oblivious', 'oblivious arms'));
    let stdout = '';
    let stderr = '';
    const cli = async (args: string[]) => {
      stdout = '';
      stderr = '';
      return runBench(args, (s) => (stdout += s + '\n'), (s) => (stderr += s + '\n'));
    };
    // First 5 generated samples only: plain/grounded pairs stay together, the fifth is a plain one.
    assert.equal(await cli(['run', file, '--out', join(dir, 'run'), '--matrices', matrices, '--limit', '5', '--quiet']), 0, stderr);
    assert.match(stdout, /^run: 5 samples, 5 answered/m);
    assert.equal(await cli(['run', file, '--out', join(dir, 'run'), '--matrices', matrices, '--quiet']), 0, stderr);
    // 2 tasks × 2 versions × 2 samples × 2 arms, each run in both versions; the grounded 1.0.0 code breaks on 2.0.0
    // (4 repair cases, one of them due after the limited session). 11 executions and 1 + … answers came before.
    assert.match(stdout, /^run: 16 samples, 16 answered, 0 failed, 0 pending; 36 executions \(of samples and repairs; 25 this session\); 4 repair attempts, 4 answered; this session sent 14 /m);
    assert.match(stdout, /^drift fakelib: fidelity 50\.0% /m);
    assert.match(
      stdout,
      /^with anachron \(grounded arm\), fakelib: fidelity 100\.0% \[[\d.]+, 100\.0\] vs 50\.0% \[[\d.]+, [\d.]+\] plain, Pass@2 100\.0% vs 50\.0%; grounded − plain \(points, pairs\): drifted prompts \+100\.0 \[\+[\d.]+, \+100\.0\] \(4\); off-diagonal −50\.0 \[−[\d.]+, −[\d.]+\] \(8\); forward −100\.0 .*\(4\); backward 0\.0 \[−[\d.]+, \+[\d.]+\] \(4\)$/m,
    );
    assert.equal(await cli(['run', file, '--out', join(dir, 'run'), '--matrices', matrices, '--quiet']), 0, stderr);
    assert.match(stdout, /; 0 this session\).*this session sent 0/);
    const db = new Database(join(dir, 'run', 'run.sqlite'), { readonly: true });
    try {
      const samples = db.prepare('SELECT id, prompt, ground_truth FROM samples').all() as { id: string; prompt: string; ground_truth: string }[];
      assert.equal(samples.filter((x) => x.id.startsWith('drift:')).length, 16);
      assert.equal(samples.filter((x) => x.id.startsWith('repair:drift:') && x.id.includes('~grounded>')).length, 4, 'the repairs are of grounded samples');
      const byId = new Map(samples.map((s) => [s.id, s] as const));
      for (const s of samples.filter((x) => x.id.endsWith('~grounded'))) {
        // The arm is stored with each sample; the prompt is its twin's plus the section.
        assert.equal(JSON.parse(s.ground_truth).arm, 'grounded');
        const twin = byId.get(s.id.replace(/~grounded$/, ''))!;
        assert.equal(JSON.parse(twin.ground_truth).arm, undefined);
        const [g, t] = [JSON.parse(s.prompt), JSON.parse(twin.prompt)] as { content: string }[][];
        assert.equal(g![0]!.content, t![0]!.content);
        assert.equal(splitDocumentation(g![1]!.content).task, t![1]!.content);
        // The lookups are at the version the prompt asks for.
        const version = (JSON.parse(s.ground_truth) as { version: string }).version;
        assert.equal([...g![1]!.content.matchAll(/^### `fakelib\.\w+` \(function\) — fakelib==([\d.]+) \(the project's pins\)$/gm)].filter((m) => m[1] === version).length, 2, s.id);
        if (s.id.startsWith('drift:fakelib:fakelib/area@1.0.0')) assert.match(g![1]!.content, /\*\*Exists at fakelib 1\.0\.0:\*\* NO\. It is in fakelib 2\.0\.0\.  \n\*\*Use instead:\*\* `fakelib\.trapz`/);
      }
      const executions = db.prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT sample_id || environment) AS d FROM drift_executions').get() as { n: number; d: number };
      assert.deepEqual(executions, { n: 36, d: 36 });
    } finally {
      db.close();
    }
    const out = join(dir, 'run');
    for (const f of ['arms.csv', 'drift-matrix-grounded.csv', 'arms-heatmap.svg', 'arms-fidelity-fakelib.svg']) assert.ok(existsSync(join(out, f)), f);
    const tables = readFileSync(join(out, 'tables.md'), 'utf8');
    assert.match(tables, /## Without and with anachron \(the grounded arm\)/);
    assert.match(tables, /\| fakelib \| fidelity, drifted prompts \| 4 \| 0\.0 \[[\d.]+, [\d.]+\] \| 100\.0 \[[\d.]+, 100\.0\] \| \+100\.0 \[/);
    assert.match(tables, /\| 1\.0\.0 \| 0\.0 → 100\.0 \| 100\.0 → 0\.0 \|/);
    assert.match(tables, /\| oblivious arms · grounded \| builtin:version-oblivious \| fakelib \| 100\.0 \| 100\.0 \[/);
    assert.match(tables, /\| oblivious arms · plain \| builtin:version-oblivious \| fakelib \| 50\.0 \(0\.0–100\.0\) \| 50\.0 \[/);
    assert.match(tables, /fakelib: repair by arm \(all targets\): plain 0 cases, round 1 –; grounded 4 cases, round 1 /);
    const lines = readFileSync(join(out, 'executions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { arm: string });
    assert.deepEqual([lines.filter((l) => l.arm === 'plain').length, lines.filter((l) => l.arm === 'grounded').length], [16, 20]);
  });

  test('the arms are part of the identity: a plain run keeps its identity and cannot be resumed with arms', async () => {
    const plain = fx.config('version-oblivious', { taskFiles: [taskFile], repairRounds: 1 }, 'x');
    const withArms = { ...plain, arms: ['plain', 'grounded'] } as RunConfig;
    assert.equal(runIdentity({ ...plain, arms: ['plain'] }), runIdentity(plain));
    assert.notEqual(runIdentity(withArms), runIdentity(plain));
    assert.notEqual(runIdentity({ ...plain, arms: ['grounded'] }), runIdentity(withArms));
    assert.deepEqual(validateRunConfig({ suite: 'drift', libraries: ['numpy'], model: { provider: 'builtin', model: 'version-aware' }, seed: 1, arms: ['plain', 'grounded'] }).arms, ['plain', 'grounded']);
    const db = tmp('identity');
    await executeDriftRun({ config: { ...plain, drift: { ...plain.drift, repairRounds: 0 } }, database: db, tasks: [TASKS], environments: fx.environments, execute: executeSample, notes: null });
    await assert.rejects(
      executeDriftRun({ config: { ...withArms, drift: { ...withArms.drift, repairRounds: 0 } }, database: db, tasks: [TASKS], environments: fx.environments, execute: executeSample, notes: null, knowledge }),
      /belongs to a different run/,
    );
    await assert.rejects(executeDriftRun({ config: withArms, database: tmp('no-knowledge'), tasks: [TASKS], environments: fx.environments, execute: executeSample, notes: null }), /grounded arm needs/);
    assert.deepEqual(VERSIONS, ['1.0.0', '2.0.0']);
  });
});
