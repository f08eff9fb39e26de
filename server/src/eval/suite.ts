// What a benchmark suite is: the rules of its run configs, and four steps — dataset (what a run asks: samples from
// the matrices, a corpus or task files), solve (ask the model, in each arm, and record every answer; a suite may do
// more with it, as the drift suite runs the code), score (a run database to the suite's results) and report (the
// results as files, and the lines the CLI prints). The CLI (`anachron bench`) and the editor drive every suite the
// same way through this interface; the machinery the suites share (run store, sharding, runner, providers, retries)
// lives in eval/runs/ and eval/models/ and knows no suite.
import type { EnvironmentSource } from '../environments/registry-source.js';
import type { ModelProvider } from './models/provider.js';
import type { RunConfigBase, SuiteConfigRules } from './runs/config.js';
import type { RunProgress } from './runs/runner.js';

type Out = (line: string) => void;

/** What the dataset step may read besides the config. */
export interface DatasetInputs {
  configFile: string;
  matricesFolder: string;
  /** Where the run's files go (the dataset's summary, for suites that write one). */
  runDir: string;
  /** `bench run`'s flags that pick the dataset: --samples FILE, --corpus DIR, --example-corpus. */
  samplesFile?: string;
  corpus?: string;
  exampleCorpus?: boolean;
  /** Interpreters per (library, version), for suites that run code. */
  environments: EnvironmentSource;
  /** The user's choice to run generated code where the OS cannot give the sandbox's boundary (--allow-unsandboxed). */
  allowUnsandboxed: boolean;
  /**
   * Runs per-file work over the command line's worker threads (cli/worker-pool.ts): the job kind (cli/worker-jobs.ts),
   * its setup, one job a file, the input's size in bytes (threads only pay off on large inputs); results in job order.
   * Absent: the suite does the work in this thread.
   */
  runFileJobs?: (kind: string, setup: unknown, jobs: readonly unknown[], bytes: number) => Promise<unknown[]>;
  err: Out;
}

/** What the solve step gets besides the plan. */
export interface SolveContext {
  database: string;
  matricesFolder: string;
  /** The model to use instead of the one the config describes (the editor's, over IPC). Not closed here. */
  provider?: ModelProvider;
  retryFailed: boolean;
  /** As in DatasetInputs. */
  allowUnsandboxed: boolean;
  signal: AbortSignal;
  onProgress: (progress: RunProgress) => void;
  /** Redacted transport lines (--verbose), and notes of the run. */
  log?: Out;
  err: Out;
}

export interface SolveOutcome {
  /** What the session did, for the CLI to print. */
  lines: string[];
  /** Lines for stderr (notes, problems that did not stop the run). */
  notes: string[];
  cancelled: boolean;
  /** The exit code when the run ended normally (a drift run with executions that could not run: 1). */
  exitCode: number;
}

/** How `bench report|merge` score: bootstrap resamples, SEUS weights, the seed (suites that do not use them ignore them). */
export interface ScoringFlags {
  bootstrap?: string;
  lambda?: string;
  gamma?: string;
  seed?: string;
  /** SEUS's Std_v(E_v) estimator: 'paper' (default) or 'bias-corrected'. */
  seusStd?: string;
}

export interface ReportContext {
  matricesFolder: string;
  flags: ScoringFlags;
  err: Out;
}

export interface Suite<Plan = unknown, Results = unknown> {
  /** How messages name it: "LibEvoBench", "drift". */
  title: string;
  /** The word the progress line and the run's notes start with. */
  progressLabel: string;
  config: SuiteConfigRules;
  /** What a run asks, from the config (which it may complete: the corpus read, the versions found) and the inputs. */
  dataset(config: RunConfigBase, inputs: DatasetInputs): Promise<Plan>;
  /** The line `bench run` prints before the work: what the plan holds and where it goes. */
  describe(plan: Plan, config: RunConfigBase, configFile: string, database: string): string;
  /** Asks the model for the plan's prompts (each arm), recording every answer and what the suite does with it. */
  solve(plan: Plan, config: RunConfigBase, context: SolveContext): Promise<SolveOutcome>;
  /** A run database to the suite's results (labelled `label` in comparisons). */
  score(database: string, context: ReportContext, label?: string): Results;
  /** Writes the report of one run into `dir`; returns the lines the CLI prints. */
  report(dir: string, results: Results, context: ReportContext): string[];
  /** Writes the comparison of several runs into `dir` (each run's report under dir/runs/LABEL); returns the lines. */
  compare(databases: readonly string[], dir: string, context: ReportContext): string[];
  /** Joins shard databases into `output`; returns the lines and the warnings. */
  merge(inputs: readonly string[], output: string): { lines: string[]; warnings: string[] };
}
