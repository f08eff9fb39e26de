// `anachron bench run|merge|report`: benchmark runs from the command line. `run` builds (or reads) the dataset, runs
// it against the configured model with a progress bar, resumably, then scores it and writes the report; `merge`
// joins shard databases and reports on the whole; `report` re-scores runs and compares them (SEUS leaderboard).
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { apiCFileOrder } from '../eval/libevobench/datasets/api-c.js';
import { DatasetError, finishDataset, planDataset } from '../eval/libevobench/datasets/build.js';
import { corpusDigest, type CorpusFile } from '../eval/libevobench/datasets/corpus.js';
import { readCorpusFolder } from '../eval/libevobench/datasets/corpus-reader.js';
import { exampleNumpyCorpus } from '../eval/libevobench/datasets/example-corpus.js';
import { formatTable1 } from '../eval/libevobench/datasets/summary.js';
import { ConfigError, VSCODE_LM_NEEDS_EDITOR } from '../eval/models/config.js';
import { attachRunToParent, IpcModelProvider } from '../eval/models/ipc-provider.js';
import { BENCH_TASKS } from '../eval/libevobench/prompt-contract.js';
import { groundingFor, withArms } from '../eval/runs/arms.js';
import { describeCorpus, runArms, validateRunConfig, type CorpusIdentity, type RunConfig } from '../eval/runs/config.js';
import { listMatrixApis } from '../eval/models/matrix-listing.js';
import { ApiKnowledge } from '../knowledge/api-lookup.js';
import { mergeRuns } from '../eval/runs/merge.js';
import { executeRun } from '../eval/runs/run.js';
import type { RunProgress } from '../eval/runs/runner.js';
import { formatShard, parseShard, type BenchSample } from '../eval/runs/samples.js';
import { RunStore } from '../eval/runs/store.js';
import { syntheticSamples } from '../eval/runs/synthetic.js';
import { matrixSource, scoreRunDatabase, writeComparisonReport, writeRunReport, type ScoredRun } from '../eval/libevobench/reports/run-report.js';
import { pct, pctCi } from '../eval/libevobench/reports/tables.js';
import { DEFAULT_SCORING_OPTIONS, type RunResults, type ScoringOptions } from '../eval/libevobench/scoring/types.js';
import { openMatrixCatalog } from '../store/catalog.js';
import { defaultMatricesFolder } from '../store/matrices-folder.js';
import { versionsEqual } from '../core/versions.js';
import { harvestLibraryOf } from './worker-jobs.js';
import { runJobs } from './worker-pool.js';
import { UsageError } from './usage-error.js';
import { benchRunDrift, compareDriftRuns, registryEnvironments, reportDriftRun, type EnvironmentSource } from './drift-command.js';
import { isDriftRun } from '../eval/drift/report-files.js';
import { mergeDriftRuns } from '../eval/drift/merge.js';

type Out = (s: string) => void;

export const BENCH_USAGE = `usage: anachron bench <run|merge|report> …

  bench run CONFIG [--limit N] [--shard i/n] [--out DIR] [--samples FILE.jsonl] [--retry-failed] [--model-ipc ID]
      Run a benchmark config (suite, libraries, versions, tasks, levels, model, sampling, seed) and write
      DIR/run.sqlite and the report (predictions.jsonl, results.json, tables, charts, report.html). Re-running
      the same command resumes. Suite "libevobench" builds the dataset from the matrices (API-C from --corpus DIR,
      a folder of pinned Python code, or --example-corpus, generated numpy projects); suite "synthetic" makes
      synthetic samples; --samples FILE.jsonl reads the samples instead of building them. --model-ipc ID: the
      model is served by the parent process over the IPC channel (the editor's vscode.lm models), recorded as ID.
      Suite "drift" generates code for each task at each version, runs every sample in every environment of its
      library (sandboxed; environments from the config or anachron env), repairs what breaks in newer versions,
      and reports drift matrices, Pass@k, the error taxonomy and repair rates (docs/benchmark-drift.md); --limit
      counts generated samples. Generated code runs behind an OS sandbox (bubblewrap: namespaces, an unprivileged
      uid, no network, a read-only root, seccomp); where this machine cannot give it, the run is refused, saying
      why and how to enable it. --allow-unsandboxed (ANACHRON_ALLOW_UNSANDBOXED=1) runs without it, at your risk.
  bench merge A B… --out DIR
      Join shard runs (folders or run.sqlite files) into DIR/run.sqlite and write its report.
  bench report RUN… [--out DIR]
      Re-score runs and write their reports; with several runs, compare them (SEUS leaderboard, sweep).

  Common: --matrices DIR (default: the bundled matrices), --bootstrap N (default 1000), --lambda L, --gamma G
  (SEUS weights, default 0.5), --seed S (bootstrap seed; default the run's seed), --quiet (no progress bar).
`;

const SCORING_OPTIONS = {
  matrices: { type: 'string' },
  bootstrap: { type: 'string' },
  lambda: { type: 'string' },
  gamma: { type: 'string' },
  seed: { type: 'string' },
  quiet: { type: 'boolean', default: false },
  verbose: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function numberOption(value: string | undefined, name: string, check: (n: number) => boolean): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || !check(n)) throw new UsageError(`--${name}: invalid value "${value}"`);
  return n;
}

function scoringOptions(values: { bootstrap?: string; lambda?: string; gamma?: string; seed?: string }, runSeed: number | undefined): ScoringOptions {
  return {
    bootstrap: numberOption(values.bootstrap, 'bootstrap', (n) => Number.isInteger(n) && n >= 0) ?? DEFAULT_SCORING_OPTIONS.bootstrap,
    lambda: numberOption(values.lambda, 'lambda', (n) => n >= 0) ?? DEFAULT_SCORING_OPTIONS.lambda,
    gamma: numberOption(values.gamma, 'gamma', (n) => n >= 0) ?? DEFAULT_SCORING_OPTIONS.gamma,
    seed: numberOption(values.seed, 'seed', Number.isInteger) ?? runSeed ?? DEFAULT_SCORING_OPTIONS.seed,
  };
}

export async function runBench(argv: string[], out: Out, err: Out, environments?: EnvironmentSource): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'run':
      return await benchRun(rest, out, err, environments);
    case 'merge':
      return benchMerge(rest, out, err);
    case 'report':
      return benchReport(rest, out, err);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      out(BENCH_USAGE);
      return sub === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown bench command "${sub}" (run, merge or report)`);
  }
}

// ---- datasets -------------------------------------------------------------------------------------------------------

const SAMPLE_FIELDS = ['id', 'task', 'library', 'version', 'api', 'prompt'] as const;

/** A JSONL file of BenchSample objects, one a line. */
export function readSamplesFile(file: string): BenchSample[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
  const samples: BenchSample[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let s: BenchSample;
    try {
      s = JSON.parse(line) as BenchSample;
    } catch (e) {
      throw new UsageError(`${file}:${i + 1}: not JSON: ${(e as Error).message}`);
    }
    for (const f of SAMPLE_FIELDS) if ((s as unknown as Record<string, unknown>)[f] === undefined) throw new UsageError(`${file}:${i + 1}: a sample needs ${SAMPLE_FIELDS.join(', ')}; "${f}" is missing`);
    if (!BENCH_TASKS.includes(s.task)) throw new UsageError(`${file}:${i + 1}: unknown task "${String(s.task)}"`);
    samples.push({ ...s, level: s.level ?? null, evolving: s.evolving === true, groundTruth: s.groundTruth ?? null });
  });
  return samples;
}

export interface DatasetOptions {
  samplesFile?: string;
  matricesFolder: string;
  /** API-C corpus: a folder of Python code with its manifests (exact pins). */
  corpus?: string;
  /** API-C corpus: the generated example numpy projects, at the config's numpy versions. */
  exampleCorpus?: boolean;
  /** Where the dataset's Table 1 is written (libevobench). */
  summaryDir?: string;
}

/** The libevobench suite: the dataset builder over the matrices, and a corpus for API-C. */
async function libevobenchDataset(config: RunConfig, options: DatasetOptions, err: Out): Promise<BenchSample[]> {
  const catalog = openMatrixCatalog(options.matricesFolder);
  try {
    let corpus: CorpusFile[] | undefined;
    if (config.tasks.includes('API-C')) {
      let files: CorpusFile[] | undefined;
      let source = '';
      if (options.corpus) {
        files = readCorpusFolder(options.corpus);
        source = `the folder ${options.corpus}`;
      } else if (options.exampleCorpus) {
        const numpy = catalog.matrices.find((m) => m.library === 'numpy');
        if (!numpy) throw new UsageError('--example-corpus writes numpy projects: it needs the numpy matrix');
        const versions = config.versions?.numpy ?? numpy.benchmarkVersions();
        files = exampleNumpyCorpus({ versions, seed: config.seed });
        source = 'the example corpus';
      } else err('bench: note: no corpus for API-C (--corpus DIR or --example-corpus): the dataset has no API-C samples');
      if (files) {
        config.corpus = corpusIdentity(config.corpus, { digest: corpusDigest(files), source, files: files.length });
        corpus = files;
      }
    }
    let plan;
    try {
      plan = planDataset(config, catalog.matrices);
    } catch (e) {
      if (e instanceof DatasetError) throw new UsageError(e.message);
      throw e;
    }
    // The corpus is read file by file over worker threads when it is large (cli/worker-pool.ts).
    let harvests = null;
    if (plan.apiC && corpus) {
      const files = apiCFileOrder(corpus);
      const setup = { libraries: [...plan.apiC.libraries.values()].map(harvestLibraryOf), selected: [...plan.apiC.selected].map(([l, v]) => [l, [...v]] as [string, string[]]) };
      harvests = await runJobs('api-c-harvest', setup, files, { bytes: files.reduce((n, f) => n + f.text.length, 0) });
    }
    const dataset = finishDataset(plan, harvests);
    if (options.summaryDir) {
      mkdirSync(options.summaryDir, { recursive: true });
      writeFileSync(join(options.summaryDir, 'dataset.md'), `# Dataset (Table 1)\n\n${formatTable1(dataset.summary)}`);
      writeFileSync(join(options.summaryDir, 'dataset.json'), JSON.stringify(dataset.summary, null, 2) + '\n');
    }
    return dataset.samples;
  } finally {
    catalog.close();
  }
}

/**
 * The corpus a run reads becomes part of its identity (runs/config.ts), so that a changed corpus never resumes into
 * the run of the old one. A config that already names a digest (e.g. copied from a run's config) runs on that corpus only.
 */
function corpusIdentity(stated: CorpusIdentity | undefined, read: CorpusIdentity): CorpusIdentity {
  if (stated && stated.digest !== read.digest) {
    throw new UsageError(`the config is for ${describeCorpus(stated)}, but ${describeCorpus(read)} is another corpus: its API-C samples would differ. Drop "corpus" from the config to run on this one`);
  }
  return read;
}

/** The run's dataset: the samples file when given, else the suite's builder. Samples outside the config are left out. */
async function buildRunDataset(config: RunConfig, options: DatasetOptions, err: Out): Promise<BenchSample[]> {
  let dataset: BenchSample[];
  if (options.samplesFile) dataset = readSamplesFile(options.samplesFile);
  else if (config.suite === 'synthetic') {
    const library = config.libraries[0]!;
    dataset = syntheticSamples(config.limit ?? 600, { seed: config.seed, library, ...(config.versions?.[library] ? { versions: config.versions[library] } : {}) });
  } else if (config.suite === 'libevobench') {
    dataset = await libevobenchDataset(config, options, err);
  } else {
    throw new UsageError(`suite "${config.suite}" has no dataset builder (known: libevobench, synthetic); pass the samples with --samples FILE.jsonl`);
  }
  const versionAllowed = (s: BenchSample) => {
    const wanted = config.versions?.[s.library];
    return !wanted || wanted.some((v) => versionsEqual(v, s.version));
  };
  const selected = dataset.filter(
    (s) => config.libraries.includes(s.library) && config.tasks.includes(s.task) && (s.task !== 'API-C' || (s.level !== null && config.levels.includes(s.level))) && versionAllowed(s),
  );
  const arms = runArms(config);
  if (arms.length === 1 && arms[0] === 'plain') return selected;
  // The grounded arm: anachron's answer for each prompt, from the same matrices (runs/arms.ts).
  const catalog = openMatrixCatalog(options.matricesFolder);
  try {
    const knowledge = new ApiKnowledge(catalog, listMatrixApis);
    // A limited run takes the first N samples of the armed dataset: they come from the first N plain ones at most.
    const plain = config.limit !== undefined ? selected.slice(0, config.limit) : selected;
    return withArms(plain, arms, (sample) => groundingFor(knowledge, sample));
  } finally {
    catalog.close();
  }
}

// ---- progress -------------------------------------------------------------------------------------------------------

function clock(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '–';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}` : `${m}:${String(sec).padStart(2, '0')}`;
}

/** One progress line: bar, done/total, percent, failed, rate, ETA. */
export function progressLine(p: RunProgress, width = 24): string {
  const ratio = p.total > 0 ? p.done / p.total : 1;
  const filled = Math.round(ratio * width);
  const bar = '#'.repeat(filled) + '-'.repeat(width - filled);
  return `bench [${bar}] ${p.done}/${p.total} ${(ratio * 100).toFixed(1)}% failed ${p.failed} ${p.rate.toFixed(1)}/s ETA ${clock(p.etaSeconds)}`;
}

function progressReporter(err: Out, quiet: boolean): { onProgress: (p: RunProgress) => void; finish: () => void } {
  const tty = process.stderr.isTTY === true;
  let last: RunProgress | undefined;
  let lastPrinted = 0;
  let printed = '';
  return {
    onProgress: (p) => {
      last = p;
      if (quiet) return;
      const now = Date.now();
      if (tty) process.stderr.write(`\r\x1b[K${progressLine(p)}`);
      else if (now - lastPrinted >= 2000) {
        lastPrinted = now;
        printed = progressLine(p);
        err(printed);
      }
    },
    finish: () => {
      if (quiet || !last) return;
      if (tty) process.stderr.write(`\r\x1b[K${progressLine(last)}\n`);
      else if (progressLine(last) !== printed) err(progressLine(last));
    },
  };
}

// ---- run ------------------------------------------------------------------------------------------------------------

function readConfig(file: string): RunConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read the config ${file}: ${(e as Error).message}`);
  }
  try {
    return validateRunConfig(raw);
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(`${file}: ${e.message}`);
    throw e;
  }
}

function summaryLines(results: RunResults, dir: string): string[] {
  const s = results.seus;
  const h = s.headline;
  const c = results.counts;
  return [
    `scored: ${c.answered} answered (${c.extractionFailures} extraction failures), ${c.modelFailures} model failures, ${c.pending} pending`,
    s.value === null
      ? `SEUS: not available (${s.excluded.map((e) => `${e.library} ${e.unit}: ${e.reason}`).join('; ') || 'no SEUS task scored'})`
      : `SEUS ${pctCi(s.value, s.ci)}  stable ${pct(h.stable)}  evolving ${pct(h.evolving)}  retention ${pct(h.retention)}  penalties: stability ${pct(h.stabilityPenalty)}, anachronism ${pct(h.anachronismPenalty)}`,
    ...(results.arms ? armsLines(results) : []),
    `report: ${join(dir, 'report.html')}`,
  ];
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

/** Scores a run database against the matrices (closed again before returning). */
function scoreRun(database: string, matricesFolder: string, err: Out): ScoredRun {
  const catalog = openMatrixCatalog(matricesFolder);
  try {
    const scored = scoreRunDatabase(database, matrixSource(catalog.matrices));
    const missing = [...new Set(scored.records.map((r) => r.library))].filter((lib) => !catalog.matrices.some((m) => m.library === lib));
    if (missing.length) err(`anachron: note: no matrix for ${missing.join(', ')} in ${matricesFolder}: no taxonomy for those samples`);
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

type ScoringFlags = { bootstrap?: string; lambda?: string; gamma?: string; seed?: string };

/** Scores a run and writes its report into `dir`. */
function reportRun(database: string, dir: string, matricesFolder: string, flags: ScoringFlags, err: Out): RunResults {
  const scored = scoreRun(database, matricesFolder, err);
  return writeRunReport(dir, scored, scoringOptions(flags, runSeedOf(database))).results;
}

async function benchRun(argv: string[], out: Out, err: Out, environments?: EnvironmentSource): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...SCORING_OPTIONS,
      limit: { type: 'string' },
      shard: { type: 'string' },
      out: { type: 'string' },
      samples: { type: 'string' },
      corpus: { type: 'string' },
      'example-corpus': { type: 'boolean', default: false },
      'retry-failed': { type: 'boolean', default: false },
      'no-report': { type: 'boolean', default: false },
      concurrency: { type: 'string' },
      'model-ipc': { type: 'string' },
      'allow-unsandboxed': { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    out(BENCH_USAGE);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('bench run takes one CONFIG file');
  if (values['model-ipc'] !== undefined && typeof process.send !== 'function') throw new UsageError('--model-ipc needs an IPC channel to the process that serves the model (the editor starts the CLI with one)');
  const configFile = resolve(positionals[0]!);
  const config = readConfig(configFile);
  // Before any work: a vscode.lm model exists only in the editor, which serves it over IPC as the run's only model.
  if (config.model.provider === 'vscode-lm' && values['model-ipc'] === undefined) throw new UsageError(`${basename(configFile)}: ${VSCODE_LM_NEEDS_EDITOR}`);
  if (config.model.provider !== 'vscode-lm' && values['model-ipc'] !== undefined) {
    throw new UsageError(`--model-ipc serves the config's vscode-lm model; this config's model is ${config.model.provider} (answers would be recorded under the wrong model)`);
  }
  const limit = numberOption(values.limit, 'limit', (n) => Number.isInteger(n) && n >= 1);
  if (limit !== undefined) config.limit = limit;
  if (values.shard !== undefined) {
    try {
      config.shard = parseShard(values.shard);
    } catch (e) {
      throw new UsageError(`--shard: ${(e as Error).message}`);
    }
  }
  const concurrency = numberOption(values.concurrency, 'concurrency', (n) => Number.isInteger(n) && n >= 1 && n <= 1024);
  if (concurrency !== undefined) config.concurrency = concurrency;
  const matricesFolder = values.matrices ? resolve(values.matrices) : defaultMatricesFolder();
  if (config.suite === 'drift') {
    if (values.samples || values.corpus || values['example-corpus']) throw new UsageError('suite "drift" takes its tasks from drift.taskFiles: --samples, --corpus and --example-corpus do not apply');
    return await benchRunDrift(
      config,
      configFile,
      {
        matrices: matricesFolder,
        ...(values.out ? { out: values.out } : {}),
        quiet: values.quiet,
        verbose: values.verbose,
        retryFailed: values['retry-failed'],
        noReport: values['no-report'],
        ...(values['model-ipc'] !== undefined ? { modelIpc: values['model-ipc'] } : {}),
        allowUnsandboxed: values['allow-unsandboxed'],
      },
      environments ?? registryEnvironments(err),
      out,
      err,
    );
  }
  const defaultDir = join('bench-runs', basename(configFile, extname(configFile)) + (config.shard ? `-shard-${config.shard.index}-of-${config.shard.count}` : ''));
  const dir = resolve(values.out ?? defaultDir);
  const database = join(dir, 'run.sqlite');

  const dataset = await buildRunDataset(
    config,
    {
      ...(values.samples ? { samplesFile: resolve(values.samples) } : {}),
      matricesFolder,
      ...(values.corpus ? { corpus: resolve(values.corpus) } : {}),
      exampleCorpus: values['example-corpus'],
      summaryDir: dir,
    },
    err,
  );
  if (dataset.length === 0) throw new UsageError('the dataset is empty for this config (libraries, tasks and levels select no sample)');
  mkdirSync(dir, { recursive: true });

  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  const progress = progressReporter(err, values.quiet);
  // Started by the editor (an IPC channel): progress goes to it, and its stop request cancels like Ctrl-C.
  const parent = attachRunToParent(onSigint);
  const ipcProvider =
    values['model-ipc'] !== undefined
      ? new IpcModelProvider({
          id: values['model-ipc'],
          concurrency: config.concurrency ?? 8,
          ...(config.model.retry ? { retry: config.model.retry } : {}),
          ...(config.model.timeoutMs !== undefined ? { timeoutMs: config.model.timeoutMs } : {}),
          ...(values.verbose ? { log: (line: string) => err(`bench: ${line}`) } : {}),
        })
      : undefined;
  let summary;
  try {
    err(`bench: ${config.name ?? basename(configFile)}: ${dataset.length} samples in the dataset${config.limit !== undefined ? `, limit ${config.limit}` : ''}${config.shard ? `, shard ${formatShard(config.shard)}` : ''} → ${database}`);
    summary = await executeRun({
      config,
      database,
      dataset,
      environment: { matricesFolder, ...(values.verbose ? { log: (line: string) => err(`bench: ${line}`) } : {}) },
      ...(ipcProvider ? { provider: ipcProvider } : {}),
      retryFailed: values['retry-failed'],
      signal: controller.signal,
      onProgress: parent ? (p) => (progress.onProgress(p), parent.onProgress(p)) : progress.onProgress,
      progressIntervalMs: 200,
    });
  } finally {
    ipcProvider?.close();
    parent?.detach();
    progress.finish();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
  out(`run: ${summary.samples} samples, ${summary.answered} answered, ${summary.failed} failed, ${summary.pending} pending; this session sent ${summary.sent} (${summary.resumedFrom} recorded before) with ${summary.provider}${summary.transport ? ` over ${summary.transport}` : ''}`);
  if (summary.failed > 0) out(`note: ${summary.failed} samples failed at the model (see failures.csv); --retry-failed sends them again`);
  if (!values['no-report']) {
    const results = reportRun(database, dir, matricesFolder, values, err);
    for (const line of summaryLines(results, dir)) out(line);
  }
  if (summary.cancelled) {
    err('bench: interrupted; run the same command again to resume');
    return 130;
  }
  return 0;
}

// ---- merge and report -----------------------------------------------------------------------------------------------

/** A run given on the command line: a folder holding run.sqlite, or the database file itself. */
function runDatabase(path: string): string {
  const p = resolve(path);
  if (existsSync(p) && statSync(p).isDirectory()) {
    const db = join(p, 'run.sqlite');
    if (!existsSync(db)) throw new UsageError(`${path}: no run.sqlite in this folder`);
    return db;
  }
  if (!existsSync(p)) throw new UsageError(`${path}: no such run`);
  return p;
}

function benchMerge(argv: string[], out: Out, err: Out): number {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...SCORING_OPTIONS, out: { type: 'string' }, 'no-report': { type: 'boolean', default: false } } });
  if (values.help) {
    out(BENCH_USAGE);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('bench merge needs the runs to merge: bench merge A B… --out DIR');
  if (!values.out) throw new UsageError('bench merge needs --out DIR');
  const inputs = positionals.map(runDatabase);
  const dir = resolve(values.out);
  mkdirSync(dir, { recursive: true });
  const database = join(dir, 'run.sqlite');
  if (isDriftRun(inputs[0]!)) {
    const merged = mergeDriftRuns(inputs, database);
    out(`merged ${inputs.length} drift runs into ${database}: ${merged.samples} samples, ${merged.answered} answered, ${merged.failed} failed, ${merged.pending} pending; ${merged.executions} executions${merged.duplicatesSkipped + merged.executionDuplicates ? `, ${merged.duplicatesSkipped + merged.executionDuplicates} duplicate records kept once` : ''}`);
    if (merged.missingShards.length) err(`anachron: warning: shards missing from the merge: ${merged.missingShards.join(', ')}`);
    if (!values['no-report']) reportDriftRun(database, dir, out);
    return 0;
  }
  const summary = mergeRuns(inputs, database);
  out(`merged ${inputs.length} runs into ${database}: ${summary.samples} samples, ${summary.answered} answered, ${summary.failed} failed, ${summary.pending} pending${summary.duplicatesSkipped ? `, ${summary.duplicatesSkipped} duplicate records kept once` : ''}`);
  if (summary.missingShards.length) err(`anachron: warning: shards missing from the merge: ${summary.missingShards.join(', ')}`);
  if (!values['no-report']) {
    const matricesFolder = values.matrices ? resolve(values.matrices) : defaultMatricesFolder();
    const results = reportRun(database, dir, matricesFolder, values, err);
    for (const line of summaryLines(results, dir)) out(line);
  }
  return 0;
}

function benchReport(argv: string[], out: Out, err: Out): number {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...SCORING_OPTIONS, out: { type: 'string' } } });
  if (values.help) {
    out(BENCH_USAGE);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('bench report needs at least one run (a folder with run.sqlite, or the file)');
  const databases = positionals.map(runDatabase);
  const drift = databases.map(isDriftRun);
  if (drift.some(Boolean)) {
    if (!drift.every(Boolean)) throw new UsageError('bench report compares runs of one kind: drift runs with drift runs, LibEvoBench runs with LibEvoBench runs');
    if (databases.length === 1) reportDriftRun(databases[0]!, values.out ? resolve(values.out) : resolve(databases[0]!, '..'), out);
    else compareDriftRuns(databases, resolve(values.out ?? 'bench-report'), out);
    return 0;
  }
  const matricesFolder = values.matrices ? resolve(values.matrices) : defaultMatricesFolder();
  if (databases.length === 1) {
    const dir = values.out ? resolve(values.out) : resolve(databases[0]!, '..');
    const results = reportRun(databases[0]!, dir, matricesFolder, values, err);
    for (const line of summaryLines(results, dir)) out(line);
    return 0;
  }
  const dir = resolve(values.out ?? 'bench-report');
  const used = new Set<string>();
  const runs: RunResults[] = [];
  for (const db of databases) {
    const scored = scoreRun(db, matricesFolder, err);
    const base = scored.info.label;
    let label = base;
    for (let k = 2; used.has(label); k++) label = `${base} (${k})`;
    used.add(label);
    scored.info.label = label;
    const folder = join(dir, 'runs', label.replace(/[^\w.-]+/g, '_'));
    runs.push(writeRunReport(folder, scored, scoringOptions(values, runSeedOf(db))).results);
  }
  const options = scoringOptions(values, undefined);
  const { comparison } = writeComparisonReport(dir, runs, options.lambda, options.gamma);
  out(`compared ${runs.length} runs (λ = ${options.lambda}, γ = ${options.gamma}):`);
  for (const r of comparison.leaderboard) out(`  ${r.rank}. ${r.label}: SEUS ${pctCi(r.seus, r.ci)} (stable ${pct(r.stable)}, evolving ${pct(r.evolving)})`);
  if (comparison.minSpearman !== null) out(`  rank correlation with the default weights over the (λ, γ) grid: min Spearman ${comparison.minSpearman.toFixed(3)}`);
  out(`report: ${join(dir, 'report.html')}`);
  return 0;
}
