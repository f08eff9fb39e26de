// Time to score benchmark predictions: N samples (default 100,000) over the bundled numpy matrix, every task and
// level, answered by a simulated model (right, anachronistic, invalid, made up, prose) in the dataset builder's
// ground-truth shapes. Measures, as the median of RUNS runs:
//   1. extraction + metrics + taxonomy (scoreEntry over the run's entries, matrix lookups included);
//   2. aggregation without intervals, and with 1,000-resample bootstrap intervals (metrics and SEUS);
//   3. the whole report from a run database on disk: read, score, aggregate, write predictions.jsonl and the rest.
// Usage: node --import tsx perf/scoring-time.ts [SAMPLES=100000] [RUNS=3]   (KEEP_SCORING_DB=1 keeps the run database)
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatSignature, type Parameter } from '../server/src/core/api-model.js';
import type { GroundTruthHistory } from '../server/src/core/ground-truth.js';
import { seededRandom } from '../server/src/core/random.js';
import { LIBEVOBENCH_IDENTITY } from '../server/src/eval/libevobench/config.js';
import { BENCH_LEVELS, renderPrompt, type LibEvoBenchSample, type PromptSpec } from '../server/src/eval/libevobench/prompt-contract.js';
import type { RunConfig } from '../server/src/eval/suites.js';
import { RunStore, type ResultRecord } from '../server/src/eval/runs/store.js';
import { matrixSource, scoreRunDatabase, writeRunReport } from '../server/src/eval/libevobench/reports/run-report.js';
import { aggregateResults } from '../server/src/eval/libevobench/scoring/aggregate.js';
import { scoreEntry } from '../server/src/eval/libevobench/scoring/score.js';
import { TruthLookup } from '../server/src/eval/libevobench/scoring/taxonomy.js';
import { DEFAULT_SCORING_OPTIONS } from '../server/src/eval/libevobench/scoring/types.js';
import { openMatrixCatalog } from '../server/src/store/catalog.js';
import { defaultMatricesFolder } from '../server/src/store/matrices-folder.js';

const leaf = (p: string) => p.slice(p.lastIndexOf('.') + 1);
const parent = (p: string) => p.slice(0, p.lastIndexOf('.'));

function callText(callee: string, params: readonly Parameter[]): string {
  const args = params.filter((p) => p.name !== 'self' && p.name !== 'cls' && p.kind !== 'var_positional' && p.kind !== 'var_keyword').slice(0, 3);
  return `${callee}(${args.map((p, i) => (p.default === null && p.kind !== 'keyword_only' ? `v${i}` : `${p.name}=${p.default ?? 'None'}`)).join(', ')})`;
}

function main(): void {
  const count = Number(process.argv[2] ?? 100_000);
  const runs = Number(process.argv[3] ?? 3);
  const catalog = openMatrixCatalog(defaultMatricesFolder());
  const matrix = catalog.matrices.find((m) => m.library === 'numpy');
  if (!matrix) throw new Error(`no numpy matrix in ${defaultMatricesFolder()}`);
  const histories: GroundTruthHistory[] = matrix.apiPaths().map((p) => matrix.groundTruth(p)!).filter((h) => h && (h.kind === 'function' || h.kind === 'class' || h.kind === 'method'));
  const cells = histories.flatMap((h) => h.versions.map((c, i) => ({ h, i, c })).filter((x) => x.c.state === 'present' && x.c.signature));
  const random = seededRandom(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const byVersion = matrix.versions.map((_, i) => histories.filter((h) => h.versions[i]!.state === 'present').map((h) => h.api));
  const otherVersionOnly = matrix.versions.map((_, i) => histories.filter((h) => h.versions[i]!.state !== 'present' && h.versions.some((c) => c.state === 'present')).map((h) => h.api));

  // ---- the simulated run ----
  const entries: { sample: LibEvoBenchSample; result: ResultRecord }[] = [];
  for (let n = 0; n < count; n++) {
    const { h, i, c } = pick(cells);
    const version = matrix.versions[i]!;
    const kind = n % 6;
    const draw = random();
    const wrongApi = draw < 0.75 ? h.api : draw < 0.85 ? pick(otherVersionOnly[i]!.length ? otherVersionOnly[i]! : byVersion[i]!) : draw < 0.95 ? pick(byVersion[i]!) : `${parent(h.api)}.made_up_${n}`;
    const otherSignature = h.versions.find((x, k) => k !== i && x.signature)?.signature ?? c.signature!;
    const params = (draw < 0.85 ? c.signature! : otherSignature).parameters;
    const prose = draw > 0.98;
    let spec: PromptSpec;
    let groundTruth: unknown;
    let response: string;
    if (kind === 0) {
      spec = { task: 'API-I', library: 'numpy', version, module: parent(h.api), description: c.doc ?? 'Does something useful with an array.' };
      groundTruth = { api: h.api, name: leaf(h.api), module: parent(h.api), state: 'present', equivalents: [] };
      response = prose ? `I believe the answer is ${leaf(wrongApi)}.` : leaf(wrongApi);
    } else if (kind === 1) {
      spec = { task: 'SR', library: 'numpy', version, api: h.api };
      groundTruth = { api: h.api, name: leaf(h.api), kind: h.kind, parameters: c.signature!.parameters, signature: formatSignature(leaf(h.api), c.signature!) };
      response = prose ? 'It takes an array and some options.' : `def ${formatSignature(leaf(h.api), { parameters: params })}:`;
    } else {
      const level = BENCH_LEVELS[kind - 2]!;
      const callee = `np${h.api.slice('numpy'.length)}`;
      const prefix = `import numpy as np\n\nv0 = np.arange(10)\nv1 = v0 * 2\nresult = `;
      const suffix = '\nprint(result)\n';
      spec = {
        task: 'API-C', level, library: 'numpy', prefix, suffix,
        ...(level === 'L2' || level === 'L3' ? { version } : {}),
        ...(level === 'L1' || level === 'L2' ? { description: c.doc ?? 'Does something useful with an array.' } : {}),
        ...(level === 'L3' ? { api: h.api } : {}),
      };
      groundTruth = { api: h.api, call: callText(callee, c.signature!.parameters), callee, parameters: c.signature!.parameters.map((p) => p.name) };
      response = prose ? 'You could compute this with a loop.' : '```python\n' + `result = ${callText(`np${wrongApi.slice('numpy'.length)}`, params)}` + '\n```';
    }
    const id = `${n}`;
    entries.push({
      sample: { id, task: spec.task, level: spec.task === 'API-C' ? spec.level : null, library: 'numpy', version, api: h.api, evolving: h.evolution === 'evolving', prompt: renderPrompt(spec), groundTruth },
      result: {
        sampleId: id, status: 'answered', response, errorKind: null, errorMessage: null, httpStatus: null, errorBody: null, attempts: 1, attemptLog: [], latencyMs: 1, elapsedMs: 1,
        usage: null, provider: 'bench:simulated', request: { maxTokens: 512, temperature: 0 }, completedAt: '', session: 1,
      },
    });
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const time = <T>(f: () => T): [T, number] => {
    const t = performance.now();
    const v = f();
    return [v, (performance.now() - t) / 1000];
  };
  const source = matrixSource(catalog.matrices);
  const scoring: number[] = [];
  const plain: number[] = [];
  const withCis: number[] = [];
  let records = [] as ReturnType<typeof scoreEntry>[];
  for (let r = 0; r < runs; r++) {
    const lookup = new TruthLookup(source); // a fresh memo each run: matrix lookups are part of the cost
    [records, scoring[r]] = time(() => entries.map((e, k) => scoreEntry(e.sample as LibEvoBenchSample, e.result, k, lookup)));
    plain[r] = time(() => aggregateResults(records, { ...DEFAULT_SCORING_OPTIONS, bootstrap: 0 }, { label: 'bench' }))[1];
    withCis[r] = time(() => aggregateResults(records, DEFAULT_SCORING_OPTIONS, { label: 'bench' }))[1];
  }
  const fmt = (s: number) => `${s.toFixed(2)} s (${Math.round(count / s).toLocaleString('en-US')} predictions/s)`;
  const extractionFailures = records.filter((x) => x.failure).length;
  console.log(`scoring ${count.toLocaleString('en-US')} predictions (numpy matrix, ${matrix.versions.length} versions; ${extractionFailures} extraction failures), median of ${runs} runs:`);
  console.log(`  extraction + metrics + taxonomy: ${fmt(median(scoring))}`);
  console.log(`  aggregation, no intervals:       ${median(plain).toFixed(2)} s`);
  console.log(`  aggregation, 1,000-resample bootstrap (metrics and SEUS): ${median(withCis).toFixed(2)} s`);
  console.log(`  total in memory: ${fmt(median(scoring) + median(withCis))}`);

  // ---- from a run database on disk, as `anachron bench report` does ----
  const dir = mkdtempSync(join(tmpdir(), 'anachron-perf-scoring-'));
  try {
    const database = join(dir, 'run.sqlite');
    const config: RunConfig = { suite: 'bench', libraries: ['numpy'], tasks: ['API-C', 'API-I', 'SR'], levels: [...BENCH_LEVELS], model: { provider: 'builtin', model: 'constant' }, seed: 1 };
    const store = RunStore.open(database, { config, identity: LIBEVOBENCH_IDENTITY });
    store.registerSamples(entries.map((e) => e.sample), new Map(entries.map((e, k) => [e.sample.id, k])));
    const session = store.beginSession('bench:simulated', count);
    store.transaction(() => {
      for (const e of entries) store.record(e.result, session);
    });
    store.close();
    const [, total] = time(() => writeRunReport(join(dir, 'report'), scoreRunDatabase(database, source), DEFAULT_SCORING_OPTIONS));
    const size = statSync(join(dir, 'report', 'predictions.jsonl')).size;
    console.log(`  end to end from run.sqlite (read, score, aggregate with intervals, write ${(size / 1e6).toFixed(0)} MB predictions.jsonl, tables, charts, report.html): ${fmt(total)}`);
  } finally {
    if (process.env.KEEP_SCORING_DB) console.log(`kept ${dir}`); else rmSync(dir, { recursive: true, force: true });
    catalog.close();
  }
}

main();
