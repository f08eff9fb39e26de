// `anachron bench run|merge|report`: benchmark runs from the command line, the same for every suite (eval/suite.ts):
// `run` reads the config, lets its suite build the dataset and solve it against the configured model with a progress
// bar, resumably, then scores it and writes the report; `merge` joins shard databases and reports on the whole;
// `report` re-scores runs and compares them.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { registryEnvironments, type EnvironmentSource } from '../environments/registry-source.js';
import { ConfigError, VSCODE_LM_NEEDS_EDITOR } from '../eval/models/config.js';
import { attachRunToParent, IpcModelProvider } from '../eval/models/ipc-provider.js';
import type { RunProgress } from '../eval/runs/runner.js';
import { parseShard } from '../eval/runs/samples.js';
import { RunStore } from '../eval/runs/store.js';
import type { ReportContext, Suite } from '../eval/suite.js';
import { suiteNamed, validateRunConfig, type RunConfig } from '../eval/suites.js';
import { defaultMatricesFolder } from '../store/matrices-folder.js';
import { InputError } from '../core/errors.js';
import type { JobKindName } from './worker-jobs.js';
import { runJobs } from './worker-pool.js';

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
  (SEUS weights, default 0.5), --seus-std paper|bias-corrected (SEUS's Std_v(E_v): the paper's plug-in, default, or
  with the per-version sampling noise taken off), --seed S (bootstrap seed; default the run's seed), --quiet (no
  progress bar).
`;

const SCORING_OPTIONS = {
  matrices: { type: 'string' },
  bootstrap: { type: 'string' },
  lambda: { type: 'string' },
  gamma: { type: 'string' },
  seed: { type: 'string' },
  'seus-std': { type: 'string' },
  quiet: { type: 'boolean', default: false },
  verbose: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function numberOption(value: string | undefined, name: string, check: (n: number) => boolean): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || !check(n)) throw new InputError(`--${name}: invalid value "${value}"`);
  return n;
}

export async function runBench(argv: string[], out: Out, err: Out, environments?: EnvironmentSource): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'run':
      return await benchRun(rest, out, err, environments ?? registryEnvironments(err));
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
      throw new InputError(`unknown bench command "${sub}" (run, merge or report)`);
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

/** One progress line: the suite's word and the stage, a bar, done/total, percent, failed, rate, ETA. */
export function progressLine(label: string, p: RunProgress, width = 24): string {
  const ratio = p.total > 0 ? p.done / p.total : 1;
  const filled = Math.round(ratio * width);
  const bar = '#'.repeat(filled) + '-'.repeat(width - filled);
  return `${label}${p.phase ? ` ${p.phase}` : ''} [${bar}] ${p.done}/${p.total} ${(ratio * 100).toFixed(1)}% failed ${p.failed} ${p.rate.toFixed(1)}/s ETA ${clock(p.etaSeconds)}`;
}

/**
 * The progress bar on stderr: redrawn in place on a terminal (a stage that ends keeps its last line), else a line
 * every 2 s, at each new stage and at the end of one.
 */
function progressReporter(label: string, err: Out, quiet: boolean): { onProgress: (p: RunProgress) => void; finish: () => void } {
  const tty = process.stderr.isTTY === true;
  let last: RunProgress | undefined;
  let lastPrinted = 0;
  let printed = '';
  const line = (p: RunProgress) => progressLine(label, p);
  return {
    onProgress: (p) => {
      const newStage = last !== undefined && p.phase !== last.phase;
      if (!quiet && tty && newStage) process.stderr.write(`\r\x1b[K${line(last!)}\n`);
      last = p;
      if (quiet) return;
      const now = Date.now();
      if (tty) process.stderr.write(`\r\x1b[K${line(p)}`);
      else if (now - lastPrinted >= 2000 || newStage || p.done === p.total) {
        lastPrinted = now;
        printed = line(p);
        err(printed);
      }
    },
    finish: () => {
      if (quiet || !last) return;
      if (tty) process.stderr.write(`\r\x1b[K${line(last)}\n`);
      else if (line(last) !== printed) err(line(last));
    },
  };
}

// ---- run ------------------------------------------------------------------------------------------------------------

function readConfig(file: string): RunConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new InputError(`cannot read the config ${file}: ${(e as Error).message}`);
  }
  try {
    return validateRunConfig(raw);
  } catch (e) {
    if (e instanceof ConfigError) throw new InputError(`${file}: ${e.message}`);
    throw e;
  }
}

function reportContext(values: { matrices?: string; bootstrap?: string; lambda?: string; gamma?: string; seed?: string; 'seus-std'?: string }, err: Out): ReportContext {
  const { bootstrap, lambda, gamma, seed, 'seus-std': seusStd } = values;
  return {
    matricesFolder: values.matrices ? resolve(values.matrices) : defaultMatricesFolder(),
    flags: { ...(bootstrap !== undefined ? { bootstrap } : {}), ...(lambda !== undefined ? { lambda } : {}), ...(gamma !== undefined ? { gamma } : {}), ...(seed !== undefined ? { seed } : {}), ...(seusStd !== undefined ? { seusStd } : {}) },
    err,
  };
}

const RUN_OPTIONS = {
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
} as const;

type RunValues = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof RUN_OPTIONS }>>['values'];

/** The run's config with the command line's overrides (--limit, --shard, --concurrency), checked before any work. */
function runConfigOf(configFile: string, values: RunValues) {
  const config = readConfig(configFile);
  // A vscode.lm model exists only in the editor, which serves it over IPC as the run's only model.
  if (config.model.provider === 'vscode-lm' && values['model-ipc'] === undefined) throw new InputError(`${basename(configFile)}: ${VSCODE_LM_NEEDS_EDITOR}`);
  if (config.model.provider !== 'vscode-lm' && values['model-ipc'] !== undefined) {
    throw new InputError(`--model-ipc serves the config's vscode-lm model; this config's model is ${config.model.provider} (answers would be recorded under the wrong model)`);
  }
  const limit = numberOption(values.limit, 'limit', (n) => Number.isInteger(n) && n >= 1);
  if (limit !== undefined) config.limit = limit;
  if (values.shard !== undefined) {
    try {
      config.shard = parseShard(values.shard);
    } catch (e) {
      throw new InputError(`--shard: ${(e as Error).message}`);
    }
  }
  const concurrency = numberOption(values.concurrency, 'concurrency', (n) => Number.isInteger(n) && n >= 1 && n <= 1024);
  if (concurrency !== undefined) config.concurrency = concurrency;
  return config;
}

/** The editor's vscode.lm model, served over the IPC channel (--model-ipc), as the run's provider. */
function ipcProviderFor(values: RunValues, config: ReturnType<typeof readConfig>, log: ((line: string) => void) | undefined): IpcModelProvider | undefined {
  if (values['model-ipc'] === undefined) return undefined;
  return new IpcModelProvider({
    id: values['model-ipc'],
    concurrency: config.concurrency ?? 8,
    ...(config.model.retry ? { retry: config.model.retry } : {}),
    ...(config.model.timeoutMs !== undefined ? { timeoutMs: config.model.timeoutMs } : {}),
    ...(log ? { log } : {}),
  });
}

/** Ctrl-C (or SIGTERM) cancels the run; a second one exits at once. */
function interruptible(): { signal: AbortSignal; interrupt: () => void; release: () => void } {
  const controller = new AbortController();
  const interrupt = () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  return {
    signal: controller.signal,
    interrupt,
    release: () => {
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
    },
  };
}

async function benchRun(argv: string[], out: Out, err: Out, environments: EnvironmentSource): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: RUN_OPTIONS });
  if (values.help) {
    out(BENCH_USAGE);
    return 0;
  }
  if (positionals.length !== 1) throw new InputError('bench run takes one CONFIG file');
  if (values['model-ipc'] !== undefined && typeof process.send !== 'function') throw new InputError('--model-ipc needs an IPC channel to the process that serves the model (the editor starts the CLI with one)');
  const configFile = resolve(positionals[0]!);
  const config = runConfigOf(configFile, values);
  const context = reportContext(values, err);
  const suite = suiteNamed(config.suite);
  const defaultDir = join('bench-runs', basename(configFile, extname(configFile)) + (config.shard ? `-shard-${config.shard.index}-of-${config.shard.count}` : ''));
  const dir = resolve(values.out ?? defaultDir);
  const database = join(dir, 'run.sqlite');
  // Suites that run generated code run it only behind the OS sandbox, unless the user says otherwise.
  const allowUnsandboxed = values['allow-unsandboxed'] || process.env.ANACHRON_ALLOW_UNSANDBOXED === '1';
  const plan = await suite.dataset(config, {
    configFile,
    allowUnsandboxed,
    matricesFolder: context.matricesFolder,
    runDir: dir,
    ...(values.samples ? { samplesFile: resolve(values.samples) } : {}),
    ...(values.corpus ? { corpus: resolve(values.corpus) } : {}),
    exampleCorpus: values['example-corpus'],
    environments,
    runFileJobs: (kind, setup, jobs, bytes) => runJobs(kind as JobKindName, setup as never, jobs as never, { bytes }),
    err,
  });
  mkdirSync(dir, { recursive: true });
  const interrupt = interruptible();
  const label = suite.progressLabel;
  const progress = progressReporter(label, err, values.quiet);
  // Started by the editor (an IPC channel): progress goes to it, and its stop request cancels like Ctrl-C.
  const parent = attachRunToParent(interrupt.interrupt);
  const log = values.verbose ? (line: string) => err(`bench: ${line}`) : undefined;
  const ipcProvider = ipcProviderFor(values, config, log);
  let outcome;
  try {
    err(suite.describe(plan as never, config, configFile, database));
    outcome = await suite.solve(plan as never, config, {
      database,
      matricesFolder: context.matricesFolder,
      ...(ipcProvider ? { provider: ipcProvider } : {}),
      retryFailed: values['retry-failed'],
      allowUnsandboxed,
      signal: interrupt.signal,
      onProgress: parent ? (p) => (progress.onProgress(p), parent.onProgress(p)) : progress.onProgress,
      ...(log ? { log } : {}),
      err,
    });
  } finally {
    ipcProvider?.close();
    parent?.detach();
    progress.finish();
    interrupt.release();
  }
  for (const line of outcome.notes) err(line);
  for (const line of outcome.lines) out(line);
  if (!values['no-report']) for (const line of report(suite, database, dir, context)) out(line);
  if (outcome.cancelled) {
    err(`${label}: interrupted; run the same command again to resume`);
    return 130;
  }
  return outcome.exitCode;
}

function report(suite: Suite, database: string, dir: string, context: ReportContext): string[] {
  return suite.report(dir, suite.score(database, context), context);
}

// ---- merge and report -----------------------------------------------------------------------------------------------

/** A run given on the command line: a folder holding run.sqlite, or the database file itself. */
function runDatabase(path: string): string {
  const p = resolve(path);
  if (existsSync(p) && statSync(p).isDirectory()) {
    const db = join(p, 'run.sqlite');
    if (!existsSync(db)) throw new InputError(`${path}: no run.sqlite in this folder`);
    return db;
  }
  if (!existsSync(p)) throw new InputError(`${path}: no such run`);
  return p;
}

/** The suite of the run a database holds. */
function suiteOfRun(database: string): Suite {
  const store = RunStore.open(database, { readonly: true });
  try {
    return suiteNamed(store.meta.config.suite);
  } finally {
    store.close();
  }
}

function benchMerge(argv: string[], out: Out, err: Out): number {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...SCORING_OPTIONS, out: { type: 'string' }, 'no-report': { type: 'boolean', default: false } } });
  if (values.help) {
    out(BENCH_USAGE);
    return 0;
  }
  if (positionals.length === 0) throw new InputError('bench merge needs the runs to merge: bench merge A B… --out DIR');
  if (!values.out) throw new InputError('bench merge needs --out DIR');
  const inputs = positionals.map(runDatabase);
  const dir = resolve(values.out);
  mkdirSync(dir, { recursive: true });
  const database = join(dir, 'run.sqlite');
  const suite = suiteOfRun(inputs[0]!);
  const merged = suite.merge(inputs, database);
  for (const line of merged.lines) out(line);
  for (const line of merged.warnings) err(line);
  if (!values['no-report']) for (const line of report(suite, database, dir, reportContext(values, err))) out(line);
  return 0;
}

function benchReport(argv: string[], out: Out, err: Out): number {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...SCORING_OPTIONS, out: { type: 'string' } } });
  if (values.help) {
    out(BENCH_USAGE);
    return 0;
  }
  if (positionals.length === 0) throw new InputError('bench report needs at least one run (a folder with run.sqlite, or the file)');
  const databases = positionals.map(runDatabase);
  const suites = databases.map(suiteOfRun);
  const suite = suites[0]!;
  if (suites.some((s) => s !== suite)) {
    throw new InputError(`bench report compares runs of one suite: ${[...new Set(suites.map((s) => s.title))].join(' runs with ')} runs cannot be compared`);
  }
  const context = reportContext(values, err);
  const lines =
    databases.length === 1
      ? report(suite, databases[0]!, values.out ? resolve(values.out) : resolve(databases[0]!, '..'), context)
      : suite.compare(databases, resolve(values.out ?? 'bench-report'), context);
  for (const line of lines) out(line);
  return 0;
}
