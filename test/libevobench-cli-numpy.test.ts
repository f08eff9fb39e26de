// `anachron bench run` with suite "libevobench": the dataset builder over the bundled numpy matrix, API-C from the
// generated example corpus, the built-in reference models over the local HTTP server. On real numpy history the
// version-aware model must still beat the version-oblivious one on evolving APIs, and tie with it on stable ones.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { readPredictions } from '../server/src/eval/libevobench/reports/run-report.js';
import { SEUS_UNITS, type RunResults } from '../server/src/eval/libevobench/scoring/types.js';
import { REPO_ROOT, runCli } from './support/cli.js';

const work = mkdtempSync(join(tmpdir(), 'anachron-bench-libevobench-'));

describe('anachron bench run, suite libevobench (bundled numpy matrix, example corpus)', () => {
  const results: Record<string, RunResults> = {};
  const stdout: Record<string, string> = {};

  before(() => {
    assert.ok(existsSync(join(REPO_ROOT, 'dist', 'cli.js')), 'build first: npm run build');
    for (const model of ['pinned', 'newest'] as const) {
      const config = join(work, `${model}.json`);
      writeFileSync(
        config,
        JSON.stringify({
          name: `numpy ${model}`, suite: 'libevobench', libraries: ['numpy'], tasks: ['API-C', 'API-I', 'SR'], levels: ['L0', 'L1', 'L2', 'L3'],
          model: { provider: 'builtin', model: `reference-${model}` }, sampling: { stableApis: 60 }, seed: 3, concurrency: 8,
        }),
      );
      const r = runCli(['bench', 'run', config, '--example-corpus', '--limit', '2400', '--bootstrap', '200', '--out', join(work, model)], work);
      assert.equal(r.code, 0, r.stderr + r.stdout);
      stdout[model] = r.stdout;
      results[model] = JSON.parse(readFileSync(join(work, model, 'results.json'), 'utf8')) as RunResults;
    }
  });

  test('the builder made every task and level; the dataset is described like Table 1', () => {
    const records = readPredictions(join(work, 'pinned', 'predictions.jsonl'));
    assert.equal(records.length, 2400);
    const units = new Set(records.map((r) => r.unit));
    for (const unit of ['API-C@L0', 'API-C@L1', 'API-C@L2', 'API-C@L3', 'API-I', 'SR']) assert.ok(units.has(unit as never), `${unit} in ${[...units].join(', ')}`);
    assert.ok(records.some((r) => r.group === 'stable') && records.some((r) => r.group === 'evolving'));
    assert.match(readFileSync(join(work, 'pinned', 'dataset.md'), 'utf8'), /\| numpy \| 21 \|/);
    assert.equal(results.pinned!.counts.answered, 2400);
    // Every API-C record's ground truth carried the masked call, and its parameters were read.
    assert.ok(records.filter((r) => r.unit === 'API-C@L3').every((r) => r.expected.keys !== null));
  });

  test('version-aware beats version-oblivious on evolving numpy APIs; they tie on stable ones', () => {
    const { pinned, newest } = results as { pinned: RunResults; newest: RunResults };
    const mean = (r: RunResults, unit: string, group: string) => r.metrics.find((m) => m.library === 'numpy' && m.unit === unit && m.metric === (unit === 'SR' ? 'f1' : unit === 'API-C@L3' ? 'recall' : 'exact') && m.group === group && m.version === null)?.mean ?? null;
    for (const unit of ['API-I', 'SR']) assert.ok(mean(pinned, unit, 'evolving')! > mean(newest, unit, 'evolving')!, `${unit} evolving: ${mean(pinned, unit, 'evolving')} vs ${mean(newest, unit, 'evolving')}`);
    for (const unit of SEUS_UNITS) {
      const a = mean(pinned, unit, 'stable');
      const b = mean(newest, unit, 'stable');
      if (a !== null && b !== null) assert.ok(Math.abs(a - b) < 0.02, `${unit} stable: ${a} vs ${b}`);
    }
    assert.ok(pinned.seus.headline.evolving! > newest.seus.headline.evolving!);
    assert.ok(newest.seus.headline.anachronismPenalty! > pinned.seus.headline.anachronismPenalty!);
    assert.ok(pinned.seus.value! > newest.seus.value!, `SEUS ${pinned.seus.value} > ${newest.seus.value}`);
    // trapz / trapezoid: the oblivious model names the numpy 2 API for numpy 1.x.
    const newestRecords = readPredictions(join(work, 'newest', 'predictions.jsonl'));
    assert.ok(newestRecords.some((r) => r.taxonomy?.api === 'anachronistic'), 'API-level anachronisms');
    assert.ok(newestRecords.some((r) => r.taxonomy?.parameters?.some((p) => p.category === 'anachronistic')), 'parameter-level anachronisms');
  });
});
