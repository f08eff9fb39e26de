// LibEvoBench as a suite (eval/suite.ts): the dataset from the matrices (API-C from a corpus), synthetic samples or a
// samples file, with the grounded arm's twins; the model asked for every sample; each answer scored against the
// matrices (SEUS, the taxonomy); the paper's tables and figures, and comparisons of runs (SEUS leaderboard).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { InputError } from '../../core/errors.js';
import { versionsEqual } from '../../core/versions.js';
import { ApiKnowledge } from '../../knowledge/api-lookup.js';
import { loadPythonParser } from '../../parser/python-parser.js';
import { listMatrixApis } from '../../store/api-listing.js';
import { openMatrixCatalog } from '../../store/catalog.js';
import { labelFolder, uniqueLabel } from '../reports/labels.js';
import { pct, pctCi } from '../reports/tables.js';
import { runArms } from '../runs/config.js';
import { mergeRuns } from '../runs/merge.js';
import { formatShard } from '../runs/samples.js';
import { RunStore } from '../runs/store.js';
import type { DatasetInputs, ReportContext, ScoringFlags, Suite } from '../suite.js';
import { describeCorpus, LIBEVOBENCH_CONFIG, type CorpusIdentity, type LibEvoBenchConfig } from './config.js';
import { apiCFileOrder, harvestApiCFile, type ApiCFileHarvest } from './datasets/api-c.js';
import { DatasetError, finishDataset, planDataset, type DatasetPlan } from './datasets/build.js';
import { harvestSetupOf } from './datasets/harvest-setup.js';
import { corpusDigest, type CorpusFile } from './datasets/corpus.js';
import { readCorpusFolder } from './datasets/corpus-reader.js';
import { exampleNumpyCorpus } from './datasets/example-corpus.js';
import { formatTable1 } from './datasets/summary.js';
import { groundingFor, withArms } from './grounding.js';
import { BENCH_TASKS, CORPUS_TASKS, type LibEvoBenchSample } from './prompt-contract.js';
import { matrixSource, scoreRunDatabase, writeComparisonReport, writeScoredReport, type ScoredRun } from './reports/run-report.js';
import { executeRun } from './run.js';
import { aggregateResults } from './scoring/aggregate.js';
import { runCoverage } from './scoring/compare.js';
import { DEFAULT_SCORING_OPTIONS, STD_ESTIMATORS, type RunResults, type ScoringOptions, type StdEstimator } from './scoring/types.js';
import { syntheticSamples } from './synthetic.js';

// ---- dataset --------------------------------------------------------------------------------------------------------

const SAMPLE_FIELDS = ['id', 'task', 'library', 'version', 'api', 'prompt'] as const;

/** A JSONL file of samples, one a line. */
export function readSamplesFile(file: string): LibEvoBenchSample[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read ${file}: ${(e as Error).message}`);
  }
  const samples: LibEvoBenchSample[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let s: LibEvoBenchSample;
    try {
      s = JSON.parse(line) as LibEvoBenchSample;
    } catch (e) {
      throw new InputError(`${file}:${i + 1}: not JSON: ${(e as Error).message}`);
    }
    for (const f of SAMPLE_FIELDS) if ((s as unknown as Record<string, unknown>)[f] === undefined) throw new InputError(`${file}:${i + 1}: a sample needs ${SAMPLE_FIELDS.join(', ')}; "${f}" is missing`);
    if (!BENCH_TASKS.includes(s.task)) throw new InputError(`${file}:${i + 1}: unknown task "${String(s.task)}"`);
    samples.push({ ...s, level: s.level ?? null, evolving: s.evolving === true, groundTruth: s.groundTruth ?? null });
  });
  return samples;
}

/**
 * The corpus a run reads becomes part of its identity (config.ts), so that a changed corpus never resumes into the
 * run of the old one. A config that already names a digest (e.g. copied from a run's config) runs on that corpus only.
 */
function corpusIdentity(stated: CorpusIdentity | undefined, read: CorpusIdentity): CorpusIdentity {
  if (stated && stated.digest !== read.digest) {
    throw new InputError(`the config is for ${describeCorpus(stated)}, but ${describeCorpus(read)} is another corpus: its API-C samples would differ. Drop "corpus" from the config to run on this one`);
  }
  return read;
}

/** What API-C finds in each corpus file (in order): over the CLI's worker threads when it offers them, else here. */
async function harvestCorpus(apiC: NonNullable<DatasetPlan['apiC']>, files: CorpusFile[], inputs: DatasetInputs): Promise<ApiCFileHarvest[]> {
  if (inputs.runFileJobs) {
    return (await inputs.runFileJobs('api-c-harvest', harvestSetupOf(apiC), files, files.reduce((n, f) => n + f.text.length, 0))) as ApiCFileHarvest[];
  }
  const parser = await loadPythonParser();
  return files.map((f) => harvestApiCFile(f, parser, apiC.libraries, apiC.selected));
}

/** Suite "libevobench": the dataset builder over the matrices, and a corpus for API-C. */
async function builtDataset(config: LibEvoBenchConfig, inputs: DatasetInputs): Promise<LibEvoBenchSample[]> {
  const catalog = openMatrixCatalog(inputs.matricesFolder);
  try {
    let corpus: CorpusFile[] | undefined;
    if (config.tasks.some((t) => CORPUS_TASKS.includes(t))) {
      let files: CorpusFile[] | undefined;
      let source = '';
      if (inputs.corpus) {
        files = readCorpusFolder(inputs.corpus);
        source = `the folder ${inputs.corpus}`;
      } else if (inputs.exampleCorpus) {
        const numpy = catalog.matrices.find((m) => m.library === 'numpy');
        if (!numpy) throw new InputError('--example-corpus writes numpy projects: it needs the numpy matrix');
        const versions = config.versions?.numpy ?? numpy.benchmarkVersions();
        files = exampleNumpyCorpus({ versions, seed: config.seed });
        source = 'the example corpus';
      } else inputs.err('bench: note: no corpus for API-C (--corpus DIR or --example-corpus): the dataset has no API-C samples');
      if (files) {
        config.corpus = corpusIdentity(config.corpus, { digest: corpusDigest(files), source, files: files.length });
        corpus = files;
      }
    }
    let plan;
    try {
      plan = planDataset(config, catalog.matrices);
    } catch (e) {
      if (e instanceof DatasetError) throw new InputError(e.message);
      throw e;
    }
    const dataset = finishDataset(plan, plan.apiC && corpus ? await harvestCorpus(plan.apiC, apiCFileOrder(corpus), inputs) : null);
    mkdirSync(inputs.runDir, { recursive: true });
    writeFileSync(join(inputs.runDir, 'dataset.md'), `# Dataset (Table 1)\n\n${formatTable1(dataset.summary)}`);
    writeFileSync(join(inputs.runDir, 'dataset.json'), JSON.stringify(dataset.summary, null, 2) + '\n');
    return dataset.samples;
  } finally {
    catalog.close();
  }
}

/** The run's dataset: the samples file when given, else the suite's builder. Samples outside the config are left out. */
async function runDataset(config: LibEvoBenchConfig, inputs: DatasetInputs): Promise<LibEvoBenchSample[]> {
  let dataset: LibEvoBenchSample[];
  if (inputs.samplesFile) dataset = readSamplesFile(inputs.samplesFile);
  else if (config.suite === 'synthetic') {
    const library = config.libraries[0]!;
    dataset = syntheticSamples(config.limit ?? 600, { seed: config.seed, library, ...(config.versions?.[library] ? { versions: config.versions[library] } : {}) });
  } else if (config.suite === 'libevobench') {
    dataset = await builtDataset(config, inputs);
  } else {
    throw new InputError(`suite "${config.suite}" has no dataset builder (known: libevobench, synthetic); pass the samples with --samples FILE.jsonl`);
  }
  const versionAllowed = (s: LibEvoBenchSample) => {
    const wanted = config.versions?.[s.library];
    return !wanted || wanted.some((v) => versionsEqual(v, s.version));
  };
  const selected = dataset.filter(
    (s) => config.libraries.includes(s.library) && config.tasks.includes(s.task) && (s.task !== 'API-C' || (s.level !== null && config.levels.includes(s.level))) && versionAllowed(s),
  );
  const arms = runArms(config);
  if (arms.length === 1 && arms[0] === 'plain') return selected;
  // The grounded arm: anachron's answer for each prompt, from the same matrices (grounding.ts).
  const catalog = openMatrixCatalog(inputs.matricesFolder);
  try {
    const knowledge = new ApiKnowledge(catalog, listMatrixApis);
    // A limited run takes the first N samples of the armed dataset: they come from the first N plain ones at most.
    const plain = config.limit !== undefined ? selected.slice(0, config.limit) : selected;
    return withArms(plain, arms, (sample) => groundingFor(knowledge, sample));
  } finally {
    catalog.close();
  }
}

// ---- scoring and reports --------------------------------------------------------------------------------------------

function numberFlag(value: string | undefined, name: string, check: (n: number) => boolean): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || !check(n)) throw new InputError(`--${name}: invalid value "${value}"`);
  return n;
}

function stdFlag(value: string | undefined): StdEstimator | undefined {
  if (value === undefined) return undefined;
  const known = STD_ESTIMATORS.find((e) => e === value);
  if (!known) throw new InputError(`--seus-std: invalid value "${value}" (one of ${STD_ESTIMATORS.join(', ')})`);
  return known;
}

function scoringOptions(flags: ScoringFlags, runSeed: number | undefined): ScoringOptions {
  return {
    bootstrap: numberFlag(flags.bootstrap, 'bootstrap', (n) => Number.isInteger(n) && n >= 0) ?? DEFAULT_SCORING_OPTIONS.bootstrap,
    lambda: numberFlag(flags.lambda, 'lambda', (n) => n >= 0) ?? DEFAULT_SCORING_OPTIONS.lambda,
    gamma: numberFlag(flags.gamma, 'gamma', (n) => n >= 0) ?? DEFAULT_SCORING_OPTIONS.gamma,
    seed: numberFlag(flags.seed, 'seed', Number.isInteger) ?? runSeed ?? DEFAULT_SCORING_OPTIONS.seed,
    std: stdFlag(flags.seusStd) ?? DEFAULT_SCORING_OPTIONS.std,
  };
}

/** Scores a run database against the matrices (closed again before returning). */
function scoreRun(database: string, context: ReportContext, label?: string): ScoredRun {
  const catalog = openMatrixCatalog(context.matricesFolder);
  try {
    const scored = scoreRunDatabase(database, matrixSource(catalog.matrices), label);
    const missing = [...new Set(scored.records.map((r) => r.library))].filter((lib) => !catalog.matrices.some((m) => m.library === lib));
    if (missing.length) context.err(`anachron: note: no matrix for ${missing.join(', ')} in ${context.matricesFolder}: no taxonomy for those samples`);
    return scored;
  } finally {
    catalog.close();
  }
}

/** The run's own seed (the bootstrap's default seed). */
function runSeedOf(database: string): number | undefined {
  const store = RunStore.open(database, { readonly: true });
  try {
    return store.meta.config.seed;
  } finally {
    store.close();
  }
}

/** The grounded arm in short: SEUS of both arms, and per task the evolving APIs' difference with its interval. */
function armsLines(results: RunResults): string[] {
  const arms = results.arms!;
  const lib = results.libraries.length > 1 ? 'all' : results.libraries[0];
  const points = (x: number) => `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)}`;
  const perTask = arms.rows
    .filter((r) => r.library === lib && r.group === 'evolving' && r.delta.mean !== null)
    .map((r) => `${r.unit} ${points(r.delta.mean!)}${r.delta.ci ? ` [${points(r.delta.ci[0])}, ${points(r.delta.ci[1])}]` : ''}`);
  return [
    `with anachron (grounded arm): SEUS ${pctCi(arms.seus.grounded, arms.seus.groundedCi)} vs ${pctCi(arms.seus.plain, arms.seus.plainCi)} plain`,
    `  evolving APIs, grounded − plain (points): ${perTask.join('; ') || 'no pairs scored'}`,
  ];
}

/** The perfect model's ceiling per task, its lowest version: 100 everywhere when the scorer reads the ground truth right. */
function ceilingLines(results: RunResults): string[] {
  const lowest = new Map<string, number>();
  for (const r of results.ceiling ?? []) {
    if (r.version === null || r.ceiling === null) continue;
    lowest.set(r.unit, Math.min(lowest.get(r.unit) ?? Infinity, r.ceiling));
  }
  if (lowest.size === 0) return [];
  return [`perfect-model ceiling (its lowest version): ${[...lowest].map(([unit, v]) => `${unit} ${pct(v)}`).join(', ')}`];
}

function summaryLines(results: RunResults, dir: string): string[] {
  const s = results.seus;
  const h = s.headline;
  const c = results.counts;
  return [
    `scored: ${c.answered} answered (${c.extractionFailures} extraction failures), ${c.modelFailures} model failures, ${c.pending} pending${c.unanswerable ? `; ${c.unanswerable} questions with no correct answer left out` : ''}`,
    ...ceilingLines(results),
    s.value === null
      ? `SEUS: not available (${s.excluded.map((e) => `${e.library} ${e.unit}: ${e.reason}`).join('; ') || 'no SEUS task scored'})`
      : `SEUS ${pctCi(s.value, s.ci)}${runCoverage(results).subset ? ` (${runCoverage(results).subset})` : ''}  stable ${pct(h.stable)}  evolving ${pct(h.evolving)}  retention ${pct(h.retention)}  penalties: stability ${pct(h.stabilityPenalty)}, anachronism ${pct(h.anachronismPenalty)}`,
    ...(results.arms ? armsLines(results) : []),
    `report: ${join(dir, 'report.html')}`,
  ];
}

interface Scored {
  scored: ScoredRun;
  results: RunResults;
}

function score(database: string, context: ReportContext, label?: string): Scored {
  const scored = scoreRun(database, context, label);
  return { scored, results: aggregateResults(scored.records, scoringOptions(context.flags, runSeedOf(database)), scored.info) };
}

// ---- the suite ------------------------------------------------------------------------------------------------------

export const LIBEVOBENCH_SUITE: Suite<LibEvoBenchSample[], Scored> = {
  title: 'LibEvoBench',
  progressLabel: 'bench',
  config: LIBEVOBENCH_CONFIG,

  async dataset(config, inputs) {
    const dataset = await runDataset(config as LibEvoBenchConfig, inputs);
    if (dataset.length === 0) throw new InputError('the dataset is empty for this config (libraries, tasks and levels select no sample)');
    return dataset;
  },

  describe(dataset, config, configFile, database) {
    return `bench: ${config.name ?? basename(configFile)}: ${dataset.length} samples in the dataset${config.limit !== undefined ? `, limit ${config.limit}` : ''}${config.shard ? `, shard ${formatShard(config.shard)}` : ''} → ${database}`;
  },

  async solve(dataset, config, context) {
    const summary = await executeRun({
      config: config as LibEvoBenchConfig,
      database: context.database,
      dataset,
      environment: { matricesFolder: context.matricesFolder, ...(context.log ? { log: context.log } : {}) },
      ...(context.provider ? { provider: context.provider } : {}),
      retryFailed: context.retryFailed,
      signal: context.signal,
      onProgress: context.onProgress,
      progressIntervalMs: 200,
    });
    const lines = [
      `run: ${summary.samples} samples, ${summary.answered} answered, ${summary.failed} failed, ${summary.pending} pending; this session sent ${summary.sent} (${summary.resumedFrom} recorded before) with ${summary.provider}${summary.transport ? ` over ${summary.transport}` : ''}`,
    ];
    if (summary.failed > 0) lines.push(`note: ${summary.failed} samples failed at the model (see failures.csv); --retry-failed sends them again`);
    return { lines, notes: [], cancelled: summary.cancelled, exitCode: 0 };
  },

  score,

  report(dir, { scored, results }) {
    writeScoredReport(dir, scored, results);
    return summaryLines(results, dir);
  },

  compare(databases, dir, context) {
    const used = new Set<string>();
    const runs: RunResults[] = [];
    for (const db of databases) {
      const scored = scoreRun(db, context);
      scored.info.label = uniqueLabel(scored.info.label, used);
      const results = aggregateResults(scored.records, scoringOptions(context.flags, runSeedOf(db)), scored.info);
      runs.push(writeScoredReport(join(dir, 'runs', labelFolder(scored.info.label)), scored, results).results);
    }
    const options = scoringOptions(context.flags, undefined);
    const { comparison } = writeComparisonReport(dir, runs, options.lambda, options.gamma);
    const lines = [`compared ${runs.length} runs (λ = ${options.lambda}, γ = ${options.gamma}):`];
    for (const t of comparison.tables) {
      // Runs over other libraries, versions or tasks are ranked apart (their SEUS values do not compare).
      if (comparison.tables.length > 1) lines.push(` table ${t.table}: ${t.coverage}`);
      for (const r of comparison.leaderboard.filter((x) => x.table === t.table)) lines.push(`  ${r.rank}. ${r.label}: SEUS ${pctCi(r.seus, r.ci)}${r.subset ? ` (${r.subset})` : ''} (stable ${pct(r.stable)}, evolving ${pct(r.evolving)})`);
    }
    if (comparison.minSpearman !== null) lines.push(`  rank correlation with the default weights over the (λ, γ) grid: min Spearman ${comparison.minSpearman.toFixed(3)}`);
    lines.push(`report: ${join(dir, 'report.html')}`);
    return lines;
  },

  merge(inputs, output) {
    const summary = mergeRuns(inputs, output);
    return {
      lines: [`merged ${inputs.length} runs into ${output}: ${summary.samples} samples, ${summary.answered} answered, ${summary.failed} failed, ${summary.pending} pending${summary.duplicatesSkipped ? `, ${summary.duplicatesSkipped} duplicate records kept once` : ''}`],
      warnings: summary.missingShards.length ? [`anachron: warning: shards missing from the merge: ${summary.missingShards.join(', ')}`] : [],
    };
  },
};

