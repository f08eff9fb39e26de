// `anachron bench` end to end, through the built CLI (bin/anachron.js over dist/cli.js; run `npm run build` first):
// the built-in reference models served by the local HTTP server answer ~2,000 samples of a synthetic library whose
// APIs were renamed, added, removed and changed signature across three versions. The version-aware model must beat
// the version-oblivious one on evolving APIs, tie with it on stable ones, and the oblivious one must make
// anachronistic errors. Then: every figure of results.json recomputed from predictions.jsonl alone; resume; SIGINT
// and resume; shards and merge; comparison reports; usage errors.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { Parameter } from '../server/src/core/api-model.js';
import { renderPrompt, type PromptSpec } from '../server/src/eval/libevobench/prompt-contract.js';
import type { LibEvoBenchSample as BenchSample } from '../server/src/eval/libevobench/prompt-contract.js';
import { RunStore } from '../server/src/eval/runs/store.js';
import { readPredictions } from '../server/src/eval/libevobench/reports/run-report.js';
import { aggregateResults } from '../server/src/eval/libevobench/scoring/aggregate.js';
import type { Comparison } from '../server/src/eval/libevobench/scoring/compare.js';
import { ALL, PRIMARY_METRIC, PROGRESSION_UNITS, SEUS_UNITS, UNIT_METRICS, type PredictionRecord, type RunResults, type ScoringUnit } from '../server/src/eval/libevobench/scoring/types.js';
import { compareVersions } from '../server/src/core/versions.js';
import { openMatrixCatalog } from '../server/src/store/catalog.js';
import { REPO_ROOT, runCli } from './support/cli.js';
import { api, buildSyntheticMatrices, p, surface } from './support/synthetic-matrix.js';

// ---- a library that evolves ---------------------------------------------------------------------------------------

const LIB = 'evolib';
const VERSIONS = ['1.0.0', '1.5.0', '2.0.0'];
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra', 'tango'];

type Kind = 'stable' | 'renamed-old' | 'renamed-new' | 'added' | 'removed' | 'signature';
interface Def {
  name: string;
  kind: Kind;
  doc: string;
  /** Versions (indexes) where the API is present. */
  at: number[];
  signature: (v: number) => Parameter[];
  words: [string, string];
}

function library(): Def[] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < WORDS.length; i++) for (let j = i + 1; j < WORDS.length; j++) pairs.push([WORDS[i]!, WORDS[j]!]);
  const plain = () => [p('x'), p('axis', 'poskw', 'None')];
  const defs: Def[] = [];
  let k = 0;
  const take = () => pairs[k++]!;
  const doc = ([a, b]: [string, string]) => `Return the ${a} ${b} of the input array.`;
  for (let i = 0; i < 80; i++) {
    const w = take();
    defs.push({ name: `${w[0]}_${w[1]}`, kind: 'stable', doc: doc(w), at: [0, 1, 2], signature: plain, words: w });
  }
  for (let i = 0; i < 12; i++) {
    const w = take();
    defs.push({ name: `${w[0]}_${w[1]}`, kind: 'renamed-old', doc: doc(w), at: [0, 1], signature: plain, words: w });
    defs.push({ name: `${w[1]}_${w[0]}`, kind: 'renamed-new', doc: doc(w), at: [2], signature: plain, words: w });
  }
  for (let i = 0; i < 12; i++) {
    const w = take();
    defs.push({ name: `${w[0]}_${w[1]}`, kind: 'added', doc: doc(w), at: [1, 2], signature: plain, words: w });
  }
  for (let i = 0; i < 12; i++) {
    const w = take();
    defs.push({ name: `${w[0]}_${w[1]}`, kind: 'removed', doc: doc(w), at: [0, 1], signature: plain, words: w });
  }
  for (let i = 0; i < 12; i++) {
    const w = take();
    const signature = (v: number) =>
      v === 0
        ? [p('x'), p('order', 'poskw', 'None'), p('axis', 'poskw', 'None')]
        : v === 1
          ? [p('x'), p('order', 'poskw', 'None'), p('axis', 'poskw', 'None'), p('keepdims', 'poskw', 'False')]
          : [p('x'), p('ord', 'poskw', 'None'), p('axis', 'poskw', 'None'), p('keepdims', 'poskw', 'False')];
    defs.push({ name: `${w[0]}_${w[1]}`, kind: 'signature', doc: doc(w), at: [0, 1, 2], signature, words: w });
  }
  return defs;
}

function matricesFor(defs: Def[]): string {
  return buildSyntheticMatrices(
    VERSIONS.map((version, v) =>
      surface(LIB, version, [api(LIB, 'module'), ...defs.filter((d) => d.at.includes(v)).map((d) => api(`${LIB}.${d.name}`, 'function', d.signature(v), d.doc))]),
    ),
  );
}

/** The samples of every present (API, version) cell: API-I, SR and API-C at four levels, rendered with the contract. */
function samplesFor(defs: Def[]): BenchSample[] {
  const out: BenchSample[] = [];
  for (const d of defs) {
    for (const v of d.at) {
      const version = VERSIONS[v]!;
      const path = `${LIB}.${d.name}`;
      const evolving = d.kind !== 'stable';
      const base = { library: LIB, version, api: path, evolving };
      const lines = ['import evolib as ev', '', 'x = [1.0, 2.0, 3.0]'];
      let call = `ev.${d.name}(x)`;
      if (d.kind === 'signature') {
        lines.push('axis = 0', v < 2 ? 'order = 2' : 'ord = 2', 'keepdims = True');
        call = v === 0 ? `ev.${d.name}(x, order=order, axis=axis)` : v === 1 ? `ev.${d.name}(x, order=order, axis=axis, keepdims=keepdims)` : `ev.${d.name}(x, ord=ord, axis=axis, keepdims=keepdims)`;
      }
      const variable = `${d.words[0]}_${d.words[1]}_value`;
      const prefix = `${lines.join('\n')}\n${variable} = `;
      const suffix = `\nprint(${variable})\n`;
      const specs: [string, PromptSpec, unknown][] = [
        ['API-I', { task: 'API-I', library: LIB, version, module: LIB, description: d.doc }, { api: path }],
        ['SR', { task: 'SR', library: LIB, version, api: path }, { api: path, parameters: d.signature(v) }],
        ['API-C@L0', { task: 'API-C', level: 'L0', library: LIB, prefix, suffix }, { api: path, call }],
        ['API-C@L1', { task: 'API-C', level: 'L1', library: LIB, description: d.doc, prefix, suffix }, { api: path, call }],
        ['API-C@L2', { task: 'API-C', level: 'L2', library: LIB, version, description: d.doc, prefix, suffix }, { api: path, call }],
        ['API-C@L3', { task: 'API-C', level: 'L3', library: LIB, version, api: path, prefix, suffix }, { api: path, call }],
      ];
      for (const [unit, spec, groundTruth] of specs) {
        out.push({ id: `${unit}:${path}@${version}`, task: spec.task, level: spec.task === 'API-C' ? spec.level : null, ...base, prompt: renderPrompt(spec), groundTruth });
      }
    }
  }
  return out;
}

// ---- helpers --------------------------------------------------------------------------------------------------------

const work = mkdtempSync(join(tmpdir(), 'anachron-bench-cli-'));
let matrices: string;
let samplesFile: string;
let sampleCount = 0;

function configFile(name: string, model: object, extra: object = {}): string {
  const file = join(work, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({ name, suite: 'samples', libraries: [LIB], tasks: ['API-C', 'API-I', 'SR'], levels: ['L0', 'L1', 'L2', 'L3'], model, seed: 1, concurrency: 16, ...extra }, null, 2),
  );
  return file;
}

function readResults(dir: string): RunResults {
  return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
}

function metric(results: RunResults, unit: ScoringUnit, group: string, version: string | null = null): number {
  const row = results.metrics.find((m) => m.library === LIB && m.unit === unit && m.metric === PRIMARY_METRIC[unit] && m.group === group && m.version === version);
  assert.ok(row && row.mean !== null, `no ${unit} ${group} metric`);
  return row.mean;
}

const near = (a: number | null | undefined, b: number | null | undefined, what: string) => {
  if (a === null || a === undefined || b === null || b === undefined) assert.equal(a ?? null, b ?? null, what);
  else assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} vs ${b}`);
};
const avg = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);

/**
 * Every figure of results.json from the records alone, computed here independently of the scoring module: counts,
 * metric means, taxonomy shares, failures, the staircase, the progression, SEUS and its components and sweep.
 */
function recompute(records: PredictionRecord[], results: RunResults): void {
  const answered = records.filter((r) => r.status === 'answered');
  assert.equal(results.counts.samples, records.length);
  assert.equal(results.counts.answered, answered.length);
  assert.equal(results.counts.modelFailures, records.filter((r) => r.status === 'failed').length);
  assert.equal(results.counts.pending, records.filter((r) => r.status === 'pending').length);
  assert.equal(results.counts.extractionFailures, answered.filter((r) => r.failure).length);
  const inCell = (r: PredictionRecord, lib: string, group: string, version: string | null) =>
    (lib === ALL || r.library === lib) && (group === ALL || r.group === group) && (version === null || r.version === version);

  // Metrics: every row, and no cell left out.
  let cells = 0;
  for (const row of results.metrics) {
    const values = answered.filter((r) => r.unit === row.unit && inCell(r, row.library, row.group, row.version)).map((r) => r.scores?.[row.metric]).filter((v): v is number => typeof v === 'number');
    assert.equal(row.n, values.length, `n of ${JSON.stringify(row)}`);
    near(row.mean, avg(values), `mean of ${row.unit} ${row.metric} ${row.group} ${row.version}`);
    if (row.ci) assert.ok(row.ci[0] <= row.mean! + 1e-12 && row.mean! <= row.ci[1] + 1e-12);
  }
  const versions = [...new Set(records.map((r) => r.version))];
  for (const unit of new Set(records.map((r) => r.unit))) for (const m of UNIT_METRICS[unit]) for (const g of ['stable', 'evolving', ALL]) for (const v of [null, ...versions]) {
    if (answered.some((r) => r.unit === unit && inCell(r, LIB, g, v) && typeof r.scores?.[m] === 'number')) cells++;
  }
  assert.equal(results.metrics.length, cells, 'one row per cell with values');

  // Taxonomy shares.
  for (const row of results.taxonomy.api) {
    const rs = answered.filter((r) => r.unit === row.unit && r.taxonomy && inCell(r, row.library, row.group, row.version));
    assert.equal(row.n, rs.length);
    for (const c of ['correct', 'invalid', 'anachronistic', 'unknown'] as const) near(row[c], rs.filter((r) => !r.failure && r.taxonomy!.api === c).length / rs.length, `${row.unit} ${c}`);
    near(row.failed, rs.filter((r) => r.failure).length / rs.length, `${row.unit} failed`);
  }
  for (const row of results.taxonomy.parameters) {
    const ps = answered.filter((r) => r.unit === row.unit && r.taxonomy?.parameters && inCell(r, row.library, row.group, row.version)).flatMap((r) => r.taxonomy!.parameters!);
    assert.equal(row.parameters, ps.length);
    for (const c of ['correct', 'anachronistic', 'unknown'] as const) near(row[c], ps.length ? ps.filter((x) => x.category === c).length / ps.length : 0, `${row.unit} parameters ${c}`);
  }
  // Failures.
  for (const row of results.failures) {
    const rs = records.filter((r) => r.unit === row.unit && (row.library === ALL || r.library === row.library));
    assert.equal(row.samples, rs.length);
    assert.equal(row.extraction, rs.filter((r) => r.status === 'answered' && r.failure).length);
    assert.equal(row.model, rs.filter((r) => r.status === 'failed').length);
  }
  // Staircase and progression, from the records.
  for (const row of results.staircase) {
    const rs = answered.filter((r) => r.unit === `API-C@${row.level}` && inCell(r, row.library, row.group, null));
    near(row.exact, avg(rs.map((r) => r.scores!.exact!)), `staircase ${row.level}`);
    if (row.level === 'L3') near(row.recall, avg(rs.map((r) => r.scores!.recall).filter((x): x is number => typeof x === 'number')), 'staircase L3 recall');
  }
  for (const series of results.progression) {
    const vs = [...new Set(records.filter((r) => r.library === series.library).map((r) => r.version))].sort(compareVersions);
    for (const point of series.points) {
      const means = PROGRESSION_UNITS.map((u) => avg(answered.filter((r) => r.unit === u && r.library === series.library && r.group === series.group && r.version === point.version && r.score !== null).map((r) => r.score!))).filter((x): x is number => x !== null);
      near(point.value, avg(means), `progression ${series.group} ${point.version}`);
      near(point.x, vs.length > 1 ? vs.indexOf(point.version) / (vs.length - 1) : 0, 'normalised version');
    }
  }
  // SEUS: mean over (library, task) of E_v[B_v] − λ·Std_v(E_v) − γ·A.
  const { lambda, gamma } = results.options;
  const terms: number[] = [];
  for (const unit of SEUS_UNITS) {
    const rs = answered.filter((r) => r.unit === unit && r.score !== null);
    if (rs.length === 0) continue;
    const vs = [...new Set(rs.map((r) => r.version))].sort(compareVersions);
    const S = vs.map((v) => avg(rs.filter((r) => r.version === v && r.group === 'stable').map((r) => r.score!)));
    const E = vs.map((v) => avg(rs.filter((r) => r.version === v && r.group === 'evolving').map((r) => r.score!)));
    const both = vs.map((_, i) => i).filter((i) => S[i] !== null && E[i] !== null);
    const B = both.map((i) => (S[i]! + E[i]! > 0 ? (2 * S[i]! * E[i]!) / (S[i]! + E[i]!) : 0));
    const Es = E.filter((e): e is number => e !== null);
    const mE = avg(Es)!;
    const std = Math.sqrt(Es.reduce((s, e) => s + (e - mE) ** 2, 0) / Es.length);
    let an = 0;
    let cl = 0;
    for (const r of rs.filter((x) => x.group === 'evolving' && x.taxonomy)) {
      if (unit === 'API-C@L2' || unit === 'API-I') {
        an += r.taxonomy!.api === 'anachronistic' ? 1 : 0;
        cl += 1;
      } else if (r.taxonomy!.parameters) {
        an += r.taxonomy!.parameters.filter((x) => x.category === 'anachronistic').length;
        cl += r.taxonomy!.parameters.length;
      }
    }
    const A = cl > 0 ? an / cl : 0;
    const term = avg(B)! - lambda * std - gamma * A;
    const c = results.seus.components.find((x) => x.unit === unit)!;
    near(c.balanced, avg(B), `${unit} E_v[B_v]`);
    near(c.evolvingStd, std, `${unit} Std_v(E_v)`);
    near(c.anachronism, A, `${unit} A`);
    near(c.stable, avg(both.map((i) => S[i]!)), `${unit} stable`);
    near(c.evolving, avg(both.map((i) => E[i]!)), `${unit} evolving`);
    near(c.term, term, `${unit} term`);
    terms.push(term);
  }
  assert.equal(results.seus.components.length, terms.length);
  near(results.seus.value, avg(terms), 'SEUS');
  for (const s of results.seus.sweep) {
    near(s.seus, avg(results.seus.components.map((c) => c.balanced - s.lambda * c.evolvingStd - s.gamma * (c.anachronism ?? 0))), `sweep ${s.lambda} ${s.gamma}`);
  }
  if (results.seus.ci) assert.ok(results.seus.ci[0] <= results.seus.value! + 1e-12 && results.seus.value! <= results.seus.ci[1] + 1e-12);
  // And the scoring module itself gives exactly results.json again from the records alone (intervals included).
  assert.deepEqual(JSON.parse(JSON.stringify(aggregateResults(records, results.options, results.run))), results);
}

function runAsync(args: string[], onStderr?: (text: string, child: ReturnType<typeof spawn>) => void): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'anachron.js'), ...args], { cwd: work });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      onStderr?.(stderr, child);
    });
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}

// ---- tests ----------------------------------------------------------------------------------------------------------

describe('anachron bench (built CLI)', () => {
  const out = { pinned: join(work, 'pinned'), newest: join(work, 'newest') };
  const cli: Record<string, ReturnType<typeof runCli>> = {};
  const results: Record<string, RunResults> = {};

  before(() => {
    assert.ok(existsSync(join(REPO_ROOT, 'dist', 'cli.js')), 'build first: npm run build');
    const defs = library();
    matrices = matricesFor(defs);
    const samples = samplesFor(defs);
    sampleCount = samples.length;
    samplesFile = join(work, 'samples.jsonl');
    writeFileSync(samplesFile, samples.map((s) => JSON.stringify(s)).join('\n') + '\n');
    // The matrix agrees with the construction about which APIs are stable.
    const catalog = openMatrixCatalog(matrices);
    try {
      const m = catalog.matrices[0]!;
      for (const s of samples.filter((_, i) => i % 97 === 0)) assert.equal(m.groundTruth(s.api)?.evolution, s.evolving ? 'evolving' : 'stable', s.api);
    } finally {
      catalog.close();
    }
    for (const model of ['pinned', 'newest'] as const) {
      const config = configFile(`reference-${model}`, { provider: 'builtin', model: `reference-${model}` });
      cli[model] = runCli(['bench', 'run', config, '--samples', samplesFile, '--matrices', matrices, '--out', out[model]], work);
      assert.equal(cli[model]!.code, 0, cli[model]!.stderr + cli[model]!.stdout);
      results[model] = readResults(out[model]);
    }
  });

  test('≥ 2,000 samples over the local HTTP server: every sample answered once', () => {
    assert.ok(sampleCount >= 2000, `${sampleCount} samples`);
    for (const model of ['pinned', 'newest'] as const) {
      const r = results[model]!;
      assert.deepEqual([r.counts.samples, r.counts.answered, r.counts.modelFailures, r.counts.pending], [sampleCount, sampleCount, 0, 0]);
      assert.equal(r.run.model, `builtin:reference-${model}`);
      assert.match(cli[model]!.stdout, new RegExp(`run: ${sampleCount} samples, ${sampleCount} answered, 0 failed, 0 pending; this session sent ${sampleCount}`));
      assert.match(cli[model]!.stdout, /SEUS \d+\.\d \[\d+\.\d, \d+\.\d\]/);
    }
  });

  test('the version-aware model beats the version-oblivious one on evolving APIs and ties on stable ones', () => {
    const { pinned, newest } = results as { pinned: RunResults; newest: RunResults };
    for (const unit of ['API-I', 'SR', 'API-C@L2', 'API-C@L3'] as const) {
      assert.ok(metric(pinned, unit, 'evolving') > metric(newest, unit, 'evolving'), `${unit}: pinned ${metric(pinned, unit, 'evolving')} > newest ${metric(newest, unit, 'evolving')}`);
    }
    for (const unit of ['API-C@L0', 'API-C@L1', 'API-C@L2', 'API-C@L3', 'API-I', 'SR'] as const) {
      assert.equal(metric(pinned, unit, 'stable'), metric(newest, unit, 'stable'), `${unit}: a tie on stable APIs`);
    }
    // Without the version (L0, L1) the pinned model has nothing to pin to: a tie on evolving APIs too.
    for (const unit of ['API-C@L0', 'API-C@L1'] as const) assert.equal(metric(pinned, unit, 'evolving'), metric(newest, unit, 'evolving'));
    // At the newest version both answer from the same column.
    assert.equal(metric(pinned, 'API-I', 'evolving', '2.0.0'), metric(newest, 'API-I', 'evolving', '2.0.0'));
    assert.ok(pinned.seus.value! > newest.seus.value!, `SEUS ${pinned.seus.value} > ${newest.seus.value}`);
    assert.ok(pinned.seus.headline.anachronismPenalty! < newest.seus.headline.anachronismPenalty!);
  });

  test('the version-oblivious model makes anachronistic errors; the version-aware one does not', () => {
    const { pinned, newest } = results as { pinned: RunResults; newest: RunResults };
    const apiShare = (r: RunResults, unit: ScoringUnit) => r.taxonomy.api.find((t) => t.library === LIB && t.unit === unit && t.group === 'evolving' && t.version === null)!.anachronistic;
    const parameterShare = (r: RunResults, unit: ScoringUnit) => r.taxonomy.parameters.find((t) => t.library === LIB && t.unit === unit && t.group === 'evolving' && t.version === null)!.anachronistic;
    for (const unit of ['API-I', 'API-C@L2'] as const) {
      assert.ok(apiShare(newest, unit) > 0, `${unit} newest anachronistic`);
      assert.equal(apiShare(pinned, unit), 0, `${unit} pinned anachronistic`);
    }
    for (const unit of ['SR', 'API-C@L3'] as const) {
      assert.ok(parameterShare(newest, unit) > 0, `${unit} newest anachronistic parameters`);
      assert.equal(parameterShare(pinned, unit), 0);
    }
    // At the newest version there is nothing to confuse.
    assert.equal(newest.taxonomy.api.find((t) => t.unit === 'API-I' && t.group === ALL && t.version === '2.0.0')!.anachronistic, 0);
    // An example: the renamed API asked at 1.0.0.
    const records = readPredictions(join(out.newest, 'predictions.jsonl'));
    const renamed = records.find((r) => r.unit === 'API-I' && r.version === '1.0.0' && r.taxonomy?.api === 'anachronistic')!;
    assert.ok(renamed, 'an anachronistic API-I answer');
    assert.notEqual(renamed.prediction?.task === 'API-I' && renamed.prediction.api, renamed.expected.api);
  });

  test('results.json is recomputed from predictions.jsonl alone', () => {
    for (const model of ['pinned', 'newest'] as const) {
      const records = readPredictions(join(out[model], 'predictions.jsonl'));
      assert.equal(records.length, sampleCount);
      recompute(records, results[model]!);
    }
  });

  test('the run folder: predictions, results, CSV and Markdown tables, SVG charts, report.html', () => {
    const files = readdirSync(out.pinned).sort();
    for (const f of ['run.sqlite', 'predictions.jsonl', 'results.json', 'metrics.csv', 'taxonomy-api.csv', 'taxonomy-parameters.csv', 'failures.csv', 'seus.csv', 'seus-versions.csv', 'sweep.csv', 'tables.md', 'figure2-progression.svg', 'figure3-staircase.svg', 'figure5-taxonomy.svg', 'leaderboard.svg', 'report.html']) {
      assert.ok(files.includes(f), `${f} in ${files.join(', ')}`);
    }
    const [first] = readPredictions(join(out.pinned, 'predictions.jsonl'));
    for (const field of ['task', 'level', 'library', 'version', 'api', 'group', 'prompt', 'response', 'prediction', 'groundTruth', 'score', 'taxonomy', 'failure']) assert.ok(field in first!, field);
    const html = readFileSync(join(out.pinned, 'report.html'), 'utf8');
    assert.equal((html.match(/<svg /g) ?? []).length, 4, 'the four charts inline');
    assert.match(html, /<table>/);
    assert.match(readFileSync(join(out.pinned, 'tables.md'), 'utf8'), /\| evolib \| API-I exact \|/);
  });

  test('progress on stderr: done/total, failed, rate, ETA', () => {
    assert.match(cli.pinned!.stderr, new RegExp(`bench \\[#+\\] ${sampleCount}/${sampleCount} 100\\.0% failed 0 \\d+\\.\\d/s ETA \\d+:\\d\\d`));
  });

  test('re-running the same command resumes: nothing is sent again, the report is the same', () => {
    const before = readFileSync(join(out.pinned, 'predictions.jsonl'), 'utf8');
    const again = runCli(['bench', 'run', join(work, 'reference-pinned.json'), '--samples', samplesFile, '--matrices', matrices, '--out', out.pinned], work);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, new RegExp(`this session sent 0 \\(${sampleCount} recorded before\\)`));
    assert.equal(readFileSync(join(out.pinned, 'predictions.jsonl'), 'utf8'), before);
  });

  test('bench report compares runs: the SEUS leaderboard and the (λ, γ) sweep', () => {
    const dir = join(work, 'comparison');
    const r = runCli(['bench', 'report', out.newest, out.pinned, '--matrices', matrices, '--out', dir, '--bootstrap', '200'], work);
    assert.equal(r.code, 0, r.stderr);
    const comparison = JSON.parse(readFileSync(join(dir, 'comparison.json'), 'utf8')) as Comparison;
    assert.deepEqual(comparison.leaderboard.map((x) => x.label), ['reference-pinned', 'reference-newest']);
    assert.equal(comparison.sweep.length, 25);
    assert.equal(comparison.minSpearman, 1, 'with two runs this far apart, every setting keeps the order');
    assert.match(r.stdout, /1\. reference-pinned: SEUS/);
    for (const f of ['leaderboard.svg', 'leaderboard.csv', 'sweep.csv', 'tables.md', 'report.html', 'figure2-progression.svg', 'figure3-staircase.svg']) assert.ok(existsSync(join(dir, f)), f);
    assert.ok(existsSync(join(dir, 'runs', 'reference-pinned', 'results.json')));
    // The runs are re-scored the same way (only the bootstrap differs).
    const again = readResults(join(dir, 'runs', 'reference-pinned'));
    assert.equal(again.seus.value, results.pinned!.seus.value);
  });

  test('bench report --seus-std picks the Std estimator; another value is refused by name', () => {
    const dir = join(work, 'corrected');
    const r = runCli(['bench', 'report', out.pinned, '--matrices', matrices, '--out', dir, '--bootstrap', '0', '--seus-std', 'bias-corrected'], work);
    assert.equal(r.code, 0, r.stderr);
    const corrected = readResults(dir);
    assert.equal(corrected.seus.std, 'bias-corrected');
    assert.equal(results.pinned!.seus.std, 'paper');
    const bad = runCli(['bench', 'report', out.pinned, '--matrices', matrices, '--out', join(work, 'bad-std'), '--seus-std', 'unbiased'], work);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /--seus-std: invalid value "unbiased" \(one of paper, bias-corrected\)/);
  });

  test('shards merged through the CLI equal the unsharded run (with --limit)', () => {
    const config = configFile('constant', { provider: 'builtin', model: 'constant', text: 'ev.alpha_bravo(x)', transport: 'direct' });
    const common = ['--samples', samplesFile, '--matrices', matrices, '--limit', '300', '--bootstrap', '50'];
    const whole = runCli(['bench', 'run', config, ...common, '--out', join(work, 'whole')], work);
    assert.equal(whole.code, 0, whole.stderr);
    for (const shard of ['1/3', '2/3', '3/3']) {
      const r = runCli(['bench', 'run', config, ...common, '--shard', shard, '--out', join(work, `shard-${shard[0]}`)], work);
      assert.equal(r.code, 0, r.stderr);
    }
    const merged = runCli(['bench', 'merge', join(work, 'shard-1'), join(work, 'shard-2'), join(work, 'shard-3', 'run.sqlite'), '--out', join(work, 'merged'), '--matrices', matrices, '--bootstrap', '50'], work);
    assert.equal(merged.code, 0, merged.stderr);
    assert.match(merged.stdout, /merged 3 runs .*: 300 samples, 300 answered/);
    const strip = (dir: string) => readPredictions(join(dir, 'predictions.jsonl')).map(({ ordinal: _o, ...r }) => r);
    assert.deepEqual(strip(join(work, 'merged')), strip(join(work, 'whole')));
    const a = readResults(join(work, 'merged'));
    const b = readResults(join(work, 'whole'));
    assert.deepEqual({ ...a.metrics }, { ...b.metrics });
    assert.equal(a.seus.value, b.seus.value);
    // A missing shard is reported.
    const partial = runCli(['bench', 'merge', join(work, 'shard-1'), '--out', join(work, 'partial'), '--matrices', matrices, '--no-report'], work);
    assert.equal(partial.code, 0, partial.stderr);
    assert.match(partial.stderr, /shards missing from the merge: 2\/3, 3\/3/);
  });

  test('interrupted with SIGINT, the same command continues where it stopped', async () => {
    const config = configFile('slow', { provider: 'builtin', model: 'reference-pinned', faults: { delayMs: 15 } }, { concurrency: 4 });
    const args = ['bench', 'run', config, '--samples', samplesFile, '--matrices', matrices, '--limit', '400', '--out', join(work, 'slow'), '--bootstrap', '50'];
    let sent = false;
    const first = await runAsync(args, (_text, child) => {
      if (!sent) {
        sent = true;
        setTimeout(() => child.kill('SIGINT'), 1200);
      }
    });
    assert.equal(first.code, 130, first.stderr);
    assert.match(first.stderr, /interrupted; run the same command again to resume/);
    const store = RunStore.open(join(work, 'slow', 'run.sqlite'), { readonly: true });
    const recorded = store.counts();
    store.close();
    assert.ok(recorded.answered > 0 && recorded.answered < 400, `recorded ${recorded.answered} before the interrupt`);
    const second = await runAsync(args);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, new RegExp(`run: 400 samples, 400 answered, 0 failed, 0 pending; this session sent ${400 - recorded.answered} \\(${recorded.answered} recorded before\\)`));
    const r = readResults(join(work, 'slow'));
    assert.equal(r.counts.answered, 400);
  });

  test('a synthetic suite needs no samples file; usage errors exit with 2', () => {
    const synthetic = join(work, 'synthetic.json');
    writeFileSync(synthetic, JSON.stringify({ suite: 'synthetic', libraries: ['synthlib'], tasks: ['API-I', 'SR', 'API-C'], levels: ['L2'], model: { provider: 'builtin', model: 'echo', transport: 'direct' }, seed: 2, limit: 60 }));
    const r = runCli(['bench', 'run', synthetic, '--out', join(work, 'synthetic'), '--quiet', '--bootstrap', '20'], work);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr.includes('bench ['), false, '--quiet: no progress bar');
    assert.match(r.stderr, /no matrix for synthlib/);
    assert.equal(readResults(join(work, 'synthetic')).counts.samples, 30, 'API-C at L2 only, with API-I and SR');

    const cases: [string[], RegExp][] = [
      [['bench', 'run'], /one CONFIG file/],
      [['bench', 'run', join(work, 'nope.json')], /cannot read the config/],
      [['bench', 'run', join(work, 'reference-pinned.json'), '--shard', '3/2'], /--shard/],
      [['bench', 'run', join(work, 'reference-pinned.json'), '--limit', '0'], /--limit/],
      [['bench', 'run', join(work, 'reference-pinned.json'), '--matrices', matrices], /suite "samples" has no dataset builder/],
      [['bench', 'merge', join(work, 'pinned')], /needs --out/],
      [['bench', 'report'], /at least one run/],
      [['bench', 'report', join(work, 'nowhere')], /no such run/],
      [['bench', 'frobnicate'], /unknown bench command/],
    ];
    for (const [args, message] of cases) {
      const x = runCli(args, work);
      assert.equal(x.code, 2, `${args.join(' ')}: ${x.stderr}`);
      assert.match(x.stderr, message, args.join(' '));
    }
    const bad = join(work, 'bad.json');
    writeFileSync(bad, JSON.stringify({ suite: 'synthetic', libraries: ['x'], tasks: ['API-Z'], model: { provider: 'builtin', model: 'echo' }, seed: 1 }));
    assert.match(runCli(['bench', 'run', bad], work).stderr, /tasks: unknown task "API-Z"/);
  });
});
