// The grounded arm of a LibEvoBench run (runs/arms.ts): the same prompts with anachron's answer for them, asked in
// one run next to the plain ones and reported side by side per task with intervals. With the built-in models: the
// version-oblivious reference model, which reads documentation when a prompt gives it, improves on evolving APIs
// and loses its anachronisms, while the version-aware one gains little — asserted as directions, not as figures.
// And the grounding is honest: built from the prompt and the pinned version only, read from the text by the model.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { listMatrixApis } from '../server/src/store/api-listing.js';
import { parsePrompt, renderPrompt, type SrPrompt } from '../server/src/eval/libevobench/prompt-contract.js';
import { ReferenceModel } from '../server/src/eval/libevobench/reference-models.js';
import { groundingFor, groundingQuery, withArms } from '../server/src/eval/libevobench/grounding.js';
import { runIdentity, validateRunConfig } from '../server/src/eval/suites.js';
import type { LibEvoBenchSample as BenchSample } from '../server/src/eval/libevobench/prompt-contract.js';
import { readPredictions } from '../server/src/eval/libevobench/reports/run-report.js';
import { aggregateResults } from '../server/src/eval/libevobench/scoring/aggregate.js';
import type { ArmRow, RunResults } from '../server/src/eval/libevobench/scoring/types.js';
import { runCli } from './support/cli.js';
import { bundledKnowledge } from './support/knowledge.js';

const VERSIONS = ['1.19.0', '1.22.0', '1.24.2', '2.0.0', '2.2.4', '2.4.0'];

function config(model: string): object {
  return {
    name: `${model} arms`,
    suite: 'libevobench',
    libraries: ['numpy'],
    versions: { numpy: VERSIONS },
    tasks: ['API-C', 'API-I', 'SR'],
    levels: ['L1', 'L3'],
    model: { provider: 'builtin', model },
    arms: ['plain', 'grounded'],
    sampling: { stableApis: 60, versionsPerApi: 3, snippetsPerCell: 1 },
    seed: 7,
  };
}

function run(model: string): { results: RunResults; dir: string; stdout: string } {
  const dir = mkdtempSync(join(tmpdir(), `anachron-arms-${model}-`));
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config(model)));
  const r = runCli(['bench', 'run', file, '--example-corpus', '--limit', '2400', '--out', join(dir, 'out'), '--bootstrap', '300', '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  return { results: JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as RunResults, dir: join(dir, 'out'), stdout: r.stdout };
}

const row = (results: RunResults, unit: string, group: string): ArmRow => {
  const found = results.arms!.rows.find((r) => r.library === 'numpy' && r.unit === unit && r.group === group);
  assert.ok(found, `no ${unit} ${group} row`);
  return found;
};

describe('the grounded arm with the built-in models', () => {
  let oblivious: ReturnType<typeof run>;
  let aware: ReturnType<typeof run>;
  before(() => {
    oblivious = run('reference-newest');
    aware = run('reference-pinned');
  });

  test('the version-oblivious model improves on evolving APIs with anachron\'s answer, per task, intervals above zero', () => {
    const { results, stdout } = oblivious;
    assert.ok(results.arms, 'the run reports both arms');
    for (const unit of ['SR', 'API-I', 'API-C@L1']) {
      const r = row(results, unit, 'evolving');
      assert.ok(r.pairs >= 20, `${unit}: ${r.pairs} pairs`);
      assert.ok(r.grounded.mean! > r.plain.mean!, `${unit}: grounded ${r.grounded.mean} vs plain ${r.plain.mean}`);
      assert.ok(r.delta.ci && r.delta.ci[0] > 0, `${unit}: the paired interval ${JSON.stringify(r.delta.ci)} excludes zero`);
      assert.ok(r.improved > r.worsened, `${unit}: ${r.improved} turned right, ${r.worsened} wrong`);
    }
    // Its anachronisms go away where anachron states the version's signature.
    const sr = row(results, 'SR', 'evolving');
    assert.ok(sr.anachronistic.plain! > 0 && sr.anachronistic.grounded! < sr.anachronistic.plain!, JSON.stringify(sr.anachronistic));
    // Stable APIs: nothing version-specific to learn, and grounding does not hurt.
    for (const unit of ['SR', 'API-I']) {
      const r = row(results, unit, 'stable');
      assert.ok(r.delta.mean! >= -0.02, `${unit} stable: Δ ${r.delta.mean}`);
      assert.ok(r.worsened <= 1, `${unit} stable: ${r.worsened} turned wrong`);
    }
    // The effect is larger where the API evolved.
    assert.ok(row(results, 'SR', 'evolving').delta.mean! > row(results, 'SR', 'stable').delta.mean!);
    assert.ok(results.arms!.seus.grounded! > results.arms!.seus.plain!);
    assert.match(stdout, /with anachron \(grounded arm\): SEUS .* vs .* plain/);
    assert.match(stdout, /evolving APIs, grounded − plain \(points\): .*SR \+\d/);
    const tables = readFileSync(join(oblivious.dir, 'tables.md'), 'utf8');
    assert.match(tables, /## With and without anachron \(grounded arm\)/);
    assert.match(readFileSync(join(oblivious.dir, 'arms.csv'), 'utf8'), /^library,unit,group,metric,pairs,plain,/);
    assert.match(readFileSync(join(oblivious.dir, 'arms.svg'), 'utf8'), /^<svg /);
  });

  test('the version-aware model gains less than the oblivious one: grounding helps what the model lacks', () => {
    for (const unit of ['SR', 'API-I']) {
      const a = row(aware.results, unit, 'evolving');
      const o = row(oblivious.results, unit, 'evolving');
      assert.ok(a.delta.mean! < o.delta.mean!, `${unit}: aware Δ ${a.delta.mean} vs oblivious Δ ${o.delta.mean}`);
      assert.ok(a.delta.mean! > -0.05, `${unit}: grounding does not hurt the aware model (Δ ${a.delta.mean})`);
    }
  });

  test('the arms comparison is recomputed from predictions.jsonl alone', () => {
    const records = readPredictions(join(oblivious.dir, 'predictions.jsonl'));
    assert.ok(records.some((r) => r.arm === 'grounded') && records.some((r) => r.arm === 'plain'));
    const again = aggregateResults(records, { ...oblivious.results.options }, { label: oblivious.results.run.label, name: oblivious.results.run.name, identity: oblivious.results.run.identity, model: oblivious.results.run.model, suite: oblivious.results.run.suite, shard: oblivious.results.run.shard, mergedFrom: oblivious.results.run.mergedFrom });
    assert.deepEqual(JSON.parse(JSON.stringify(again.arms!.rows)), oblivious.results.arms!.rows);
    assert.deepEqual(JSON.parse(JSON.stringify(again.metrics)), oblivious.results.metrics);
  });
});

describe('honest grounding', () => {
  const bundled = bundledKnowledge();

  const srSample = (api: string, version: string, truth: unknown): BenchSample => ({
    id: `sr:${api}@${version}`,
    task: 'SR',
    level: null,
    library: 'numpy',
    version,
    api,
    evolving: true,
    prompt: renderPrompt({ task: 'SR', library: 'numpy', version, api }),
    groundTruth: truth,
  });

  test('the tool is asked only what the prompt says and the version the project pins: never the ground truth', () => {
    const a = groundingFor(bundled.knowledge, srSample('numpy.unique', '1.24.2', { parameters: ['ar'] }));
    const b = groundingFor(bundled.knowledge, { ...srSample('numpy.unique', '1.24.2', { parameters: ['nonsense'] }), api: 'numpy.nothing', evolving: false });
    assert.equal(a, b);
    assert.match(a!, /Signature at 1\.24\.2:\*\* `unique\(ar, .*equal_nan=True\)`/);
    // API-I: the module and the redacted description; API-C@L0: nothing to ask.
    assert.deepEqual(groundingQuery({ task: 'API-I', library: 'numpy', version: '1.24.2', module: 'numpy.linalg', description: 'Compute the [API] of a matrix.' }), { module: 'numpy.linalg', description: 'Compute the of a matrix.', scope: 'members', limit: 5 });
    assert.equal(groundingQuery({ task: 'API-C', level: 'L0', library: 'numpy', prefix: 'import numpy as np\n', suffix: '' }), null);
  });

  test('grounded twins keep the plain samples as they were, and the run identity without arms as it was', () => {
    const plain = [srSample('numpy.unique', '1.24.2', null)];
    const armed = withArms(plain, ['plain', 'grounded'], (s) => groundingFor(bundled.knowledge, s));
    assert.deepEqual(armed[0], plain[0]);
    assert.equal(armed[1]!.id, 'sr:numpy.unique@1.24.2~grounded');
    assert.equal((parsePrompt(armed[1]!.prompt) as SrPrompt).grounding !== undefined, true);
    assert.match(armed[1]!.prompt[0]!.content, /Documentation section holds the answer of anachron/);
    const base = { suite: 'libevobench', libraries: ['numpy'], tasks: ['SR'], model: { provider: 'builtin', model: 'reference-newest' }, seed: 1 };
    assert.equal(runIdentity(validateRunConfig(base)), runIdentity(validateRunConfig({ ...base, arms: ['plain'] })));
    assert.notEqual(runIdentity(validateRunConfig(base)), runIdentity(validateRunConfig({ ...base, arms: ['plain', 'grounded'] })));
    assert.throws(() => validateRunConfig({ ...base, arms: ['docs'] }), /unknown arm "docs"/);
  });

  test('the built-in model reads the documentation it is given — even wrong documentation — not the matrices behind it', () => {
    const model = new ReferenceModel(bundled.catalog, listMatrixApis, 'newest');
    const spec: SrPrompt = { task: 'SR', library: 'numpy', version: '1.24.2', api: 'numpy.unique' };
    assert.match(model.answer(spec), /sorted=True/, 'alone, the oblivious model answers from the newest version');
    const told = model.answer({ ...spec, grounding: groundingFor(bundled.knowledge, srSample('numpy.unique', '1.24.2', null))! });
    assert.doesNotMatch(told, /sorted/);
    assert.match(told, /equal_nan=True/);
    const misled = model.answer({ ...spec, grounding: '### `numpy.unique` (function) — numpy==1.24.2 (x)\n**Exists at numpy 1.24.2:** yes.\n**Signature at 1.24.2:** `unique(ar, made_up=1)`\n' });
    assert.equal(misled, 'unique(ar, made_up=1)');
  });
});
