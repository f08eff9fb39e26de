// Running (or resuming) a drift run: the same machinery as a LibEvoBench run (run store, runner, providers, limit,
// shard, progress, cancellation), in stages:
//   1. generate: n samples per prompt (a task at one version), each answer recorded as it completes;
//   2. execute: every answered sample's code in every environment of its library, each execution recorded as it
//      completes (drift_executions);
//   3. repair, round 1..R: for each sample that passes on its prompted version and fails on a newer one, a repair
//      prompt (code, error, task, migration notes from the matrices), the answer recorded, then run in the target
//      environment; each attempt that still fails gets the next round with its own error and notes.
// Every stage plans from what the database holds, so a run killed at any point resumes with exactly the work it has
// not recorded: nothing is generated or executed twice.
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Tree } from 'web-tree-sitter';
import type { ProviderEnvironment } from '../models/factory.js';
import type { ModelProvider } from '../models/provider.js';
import { answerPending, requestSettings, RunModel } from '../runs/answer.js';
import { ProgressClock, runPool } from '../runs/pool.js';
import { GROUNDED_SUFFIX } from '../runs/arms.js';
import { DEFAULT_CONCURRENCY, runArms } from '../runs/config.js';
import type { RunProgress } from '../runs/runner.js';
import { selectSamples, type BenchSample } from '../runs/samples.js';
import { RunStore } from '../runs/store.js';
import type { LibraryMatrix, MatrixCatalog } from '../../core/api-model.js';
import type { ApiKnowledge } from '../../knowledge/api-lookup.js';
import { driftBuiltins } from './builtin-models.js';
import { DRIFT_IDENTITY, resolvedDriftSettings, type DriftRunConfig } from './config.js';
import {
  codeOf,
  errorText,
  executionKey,
  executionRecord,
  generationJobs,
  generationSamples,
  plannedRepairs,
  repairJobs,
  REPAIR_TASK,
  type DriftTaskInput,
  type DriftTaskSetInput,
  type ExecutionJob,
  type RepairTruth,
} from './dataset.js';
import { driftGrounding, withDriftArms } from './grounding.js';
import { migrationNotes } from '../../knowledge/migration-notes.js';
import { renderTaskText, repairPrompt } from './prompts.js';
import { DriftStore, type ExecutionRecord } from './store.js';
import type { ExecutionOutcome, ExecutionRequest, PythonCommand } from '../../environments/sandbox.js';

export type { PythonCommand };

/** Runs one sample against its harness in a sandbox: environments/sandbox.ts's executeSample (tests may wrap it). */
export type Executor = (request: ExecutionRequest) => Promise<ExecutionOutcome>;

export interface NotesSource {
  parse(text: string): Tree;
  catalog: MatrixCatalog;
  listing?: (matrix: LibraryMatrix) => readonly string[];
}

export interface DriftRunOptions {
  /** Suite "drift", with the versions of every library given (the environments). */
  config: DriftRunConfig;
  database: string;
  tasks: readonly DriftTaskSetInput[];
  /** library → version → the command of its environment; every version of the config needs one. */
  environments: ReadonlyMap<string, ReadonlyMap<string, PythonCommand>>;
  execute: Executor;
  /** Parser and matrices for the migration notes; null leaves the notes out (the prompts say nothing then). */
  notes: NotesSource | null;
  /** anachron's knowledge of the matrices, for the grounded arm's Documentation sections (config.arms). */
  knowledge?: ApiKnowledge | null;
  /** A provider instead of the one the config describes (the editor's vscode.lm provider, tests). Not closed here. */
  provider?: ModelProvider;
  environment?: Omit<ProviderEnvironment, 'limiter' | 'builtins'>;
  retryFailed?: boolean;
  /** Run generated code even where the OS cannot give the sandbox's boundary (the user's explicit choice). */
  allowUnsandboxed?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  progressIntervalMs?: number;
  log?: (line: string) => void;
}

export interface DriftRunSummary {
  database: string;
  provider: string;
  generations: { samples: number; answered: number; failed: number; pending: number; sent: number };
  executions: { done: number; thisSession: number; errors: number; firstError?: string };
  repairs: { samples: number; answered: number; failed: number; pending: number; sent: number };
  cancelled: boolean;
  elapsedMs: number;
}

function versionsOf(config: DriftRunConfig, tasks: readonly DriftTaskSetInput[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const set of tasks) {
    const vs = config.versions?.[set.library];
    if (!vs || vs.length === 0) throw new Error(`the drift run needs the versions of ${set.library} (config.versions.${set.library})`);
    out.set(set.library, [...vs]);
  }
  return out;
}

function commandText(python: PythonCommand): string {
  return python.argv.join(' ');
}

type DriftSettings = ReturnType<typeof resolvedDriftSettings>;
type TaskOf = (library: string, id: string) => DriftTaskInput;

/** What a run needs before it touches the database, checked: the settings, each library's versions with an environment each, the tasks by id. */
interface DriftPlan {
  settings: DriftSettings;
  versions: Map<string, string[]>;
  taskOf: TaskOf;
  arms: ReturnType<typeof runArms>;
  knowledge: ApiKnowledge | null;
}

function planDriftRun(options: DriftRunOptions): DriftPlan {
  const { config, tasks } = options;
  if (config.suite !== 'drift') throw new Error(`executeDriftRun runs suite "drift", not "${config.suite}"`);
  const settings = resolvedDriftSettings(config.drift);
  const versions = versionsOf(config, tasks);
  for (const [library, vs] of versions) {
    for (const v of vs) if (!options.environments.get(library)?.get(v)) throw new Error(`no environment for ${library} ${v}`);
  }
  const taskIndex = new Map<string, DriftTaskInput>();
  for (const set of tasks) for (const t of set.tasks) taskIndex.set(`${set.library}\u0000${t.id}`, t);
  const taskOf: TaskOf = (library, id) => {
    const t = taskIndex.get(`${library}\u0000${id}`);
    if (!t) throw new Error(`no task ${library} ${id}`);
    return t;
  };
  const arms = runArms(config);
  const knowledge = options.knowledge ?? null;
  if (arms.includes('grounded') && !knowledge) throw new Error('the grounded arm needs anachron\'s knowledge of the matrices (options.knowledge)');
  return { settings, versions, taskOf, arms, knowledge };
}

/** The generation samples of every arm (grounded prompts already registered kept as they are), and the shard's selection of them. */
function selectGenerations(options: DriftRunOptions, plan: DriftPlan, store: RunStore): { dataset: BenchSample[]; selection: ReturnType<typeof selectSamples> } {
  const { config, tasks } = options;
  let dataset = generationSamples(tasks, plan.versions, plan.settings.samplesPerPrompt);
  if (plan.arms.length !== 1 || plan.arms[0] !== 'plain') {
    // The grounded arm (grounding.ts): the lookup answers per (library, task, version), computed once for its n samples.
    const registered = new Map<string, BenchSample>();
    for (const e of store.entries()) if (e.sample.id.endsWith(GROUNDED_SUFFIX)) registered.set(e.sample.id, e.sample);
    const answers = new Map<string, string | null>();
    const ground = (library: string, task: DriftTaskInput, version: string): string | null => {
      const key = `${library}\u0000${task.id}\u0000${version}`;
      if (!answers.has(key)) answers.set(key, driftGrounding(plan.knowledge!, library, version, task));
      return answers.get(key)!;
    };
    dataset = withDriftArms(dataset, plan.arms, plan.taskOf, ground, (id) => registered.get(id));
  }
  const selection = selectSamples(dataset, { ...(config.limit !== undefined ? { limit: config.limit } : {}), shard: config.shard ?? null });
  return { dataset, selection };
}

export async function executeDriftRun(options: DriftRunOptions): Promise<DriftRunSummary> {
  const started = performance.now();
  const plan = planDriftRun(options);
  const store = RunStore.open(options.database, { config: options.config, identity: DRIFT_IDENTITY });
  let generations: ReturnType<typeof selectGenerations>;
  try {
    generations = selectGenerations(options, plan, store);
  } catch (e) {
    store.close();
    throw e;
  }
  const run = new DriftRun(options, plan, store, generations.dataset, generations.selection);
  try {
    return await run.stages(started);
  } finally {
    await run.close();
  }
}

/** One run's stages over its stores, its model and its cancellation. */
class DriftRun {
  private readonly stop = new AbortController();
  private readonly onAbort = () => this.stop.abort(this.options.signal?.reason);
  private readonly concurrency: number;
  private readonly request: ReturnType<typeof requestSettings>;
  private readonly model: RunModel;
  private readonly generationIds: Set<string>;
  private drift: DriftStore | undefined;
  readonly summary: DriftRunSummary;

  constructor(
    private readonly options: DriftRunOptions,
    private readonly plan: DriftPlan,
    private readonly store: RunStore,
    private readonly dataset: readonly BenchSample[],
    private readonly selection: ReturnType<typeof selectSamples>,
  ) {
    const { config, signal } = options;
    this.generationIds = new Set(selection.samples.map((s) => s.id));
    if (signal?.aborted) this.stop.abort(signal.reason);
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.concurrency = config.concurrency ?? DEFAULT_CONCURRENCY;
    this.request = requestSettings(config.model);
    this.model = new RunModel(config.model, this.concurrency, options.provider, { ...options.environment, builtins: driftBuiltins(options.tasks) });
    this.summary = {
      database: options.database,
      provider: options.provider?.id ?? '(none needed)',
      generations: { samples: 0, answered: 0, failed: 0, pending: 0, sent: 0 },
      executions: { done: 0, thisSession: 0, errors: 0 },
      repairs: { samples: 0, answered: 0, failed: 0, pending: 0, sent: 0 },
      cancelled: false,
      elapsedMs: 0,
    };
  }

  async stages(started: number): Promise<DriftRunSummary> {
    const { store, selection, plan, summary } = this;
    store.registerSamples(selection.samples, selection.ordinals);
    const drift = (this.drift = DriftStore.open(this.options.database));
    // 1. generate
    summary.generations.sent = await this.generate(this.generationIds, 'generate');
    // 2. execute every answered sample in every environment of its library
    const { jobs, already } = generationJobs(selection.samples, drift.responses(), drift.executedKeys(), plan.versions);
    if (jobs.length && !this.stop.signal.aborted) await this.executeAll(jobs, 'execute', already);
    // 3. repair rounds
    for (let round = 1; round <= plan.settings.repairRounds && !this.stop.signal.aborted; round++) {
      if (!(await this.repairRound(round))) break;
    }
    const gen = store.counts(this.generationIds);
    summary.generations = { ...summary.generations, samples: gen.samples, answered: gen.answered, failed: gen.failed, pending: gen.pending };
    const rep = store.counts(drift.sampleIds('repair:'));
    summary.repairs = { ...summary.repairs, samples: rep.samples, answered: rep.answered, failed: rep.failed, pending: rep.pending };
    summary.executions.done = drift.executedKeys().size;
    summary.cancelled = this.stop.signal.aborted;
    summary.elapsedMs = performance.now() - started;
    return summary;
  }

  async close(): Promise<void> {
    this.options.signal?.removeEventListener('abort', this.onAbort);
    await this.model.close();
    this.drift?.close();
    this.store.close();
  }

  /** Asks the model for the given samples' answers; how many requests were sent. */
  private async generate(ids: ReadonlySet<string>, phase: string): Promise<number> {
    const { options, store, stop } = this;
    if (stop.signal.aborted) {
      if (options.retryFailed) store.supersedeFailures(ids);
      return 0;
    }
    const { outcome } = await answerPending(store, ids, this.model, {
      concurrency: this.concurrency,
      request: this.request,
      ...(options.retryFailed ? { retryFailed: true } : {}),
      signal: stop.signal,
      ...(options.onProgress ? { onProgress: (x: RunProgress) => options.onProgress!({ ...x, phase }) } : {}),
      ...(options.progressIntervalMs !== undefined ? { progressIntervalMs: options.progressIntervalMs } : {}),
    });
    if (this.model.id) this.summary.provider = this.model.id;
    return outcome.sent;
  }

  /**
   * Round `round`: registers the repair attempts now due (each with its prompt), asks for them, and runs each answer
   * in its target environment. False when the round had nothing to do or the run was cancelled.
   */
  private async repairRound(round: number): Promise<boolean> {
    const { store, selection, plan, options } = this;
    const drift = this.drift!;
    const executed = new Map(drift.executions().map((e) => [executionKey(e.sampleId, e.environment), e] as const));
    const known = drift.sampleIds('repair:');
    const responses = drift.responses();
    // Samples whose attempts can be due: the shard's generation samples, and the repair samples registered so far.
    const candidates = [...selection.samples, ...[...store.entries()].map((e) => e.sample).filter((s) => s.task === REPAIR_TASK)];
    const planned = plannedRepairs(round, candidates, executed, plan.versions);
    const fresh: BenchSample[] = [];
    const ordinals = new Map<string, number>();
    for (const p of planned) {
      if (known.has(p.id)) continue;
      const sample = buildRepairSample(p.id, p.truth, responses, executed, plan.taskOf(p.truth.library, p.truth.task), options.notes, plan.settings);
      if (!sample) continue;
      fresh.push(sample);
      ordinals.set(p.id, this.dataset.length * round + (selection.ordinals.get(p.truth.generation) ?? 0));
    }
    if (fresh.length) store.registerSamples(fresh, ordinals);
    const roundIds = new Set(planned.map((p) => p.id).filter((id) => known.has(id) || fresh.some((s) => s.id === id)));
    if (roundIds.size === 0) return false;
    const rounds = plan.settings.repairRounds;
    this.summary.repairs.sent += await this.generate(roundIds, `repair ${round}/${rounds}`);
    if (this.stop.signal.aborted) return false;
    const { jobs, already } = repairJobs([...store.entries()].map((e) => e.sample), roundIds, drift.responses(), drift.executedKeys());
    if (jobs.length) await this.executeAll(jobs, `repair ${round}/${rounds}: execute`, already);
    return true;
  }

  /** Runs the given (sample, environment) pairs, recording each as it completes. */
  private async executeAll(jobs: readonly ExecutionJob[], phase: string, doneBefore: number): Promise<void> {
    const { options } = this;
    const workers = Math.max(1, this.plan.settings.executionConcurrency ?? availableParallelism());
    const clock = new ProgressClock(jobs.length, doneBefore, options.progressIntervalMs ?? 100);
    let done = 0;
    const progress = (force: boolean) => {
      if (!options.onProgress || !clock.due(force)) return;
      const count = clock.count(done);
      options.onProgress({ ...count, answered: count.done, failed: this.summary.executions.errors, phase });
    };
    progress(true);
    await runPool(jobs, workers, async (job) => {
      if (!(await this.executeOne(job))) return;
      done++;
      progress(false);
    }, this.stop);
    progress(true);
  }

  /** Runs one job and records its execution; false when it could not run or the run was cancelled meanwhile. */
  private async executeOne(job: ExecutionJob): Promise<boolean> {
    const { options, stop, summary } = this;
    const { settings } = this.plan;
    const python = options.environments.get(job.library)!.get(job.environment)!;
    const extracted = codeOf(job.response, job.entryPoint);
    let outcome: ExecutionOutcome | null = null;
    if (extracted.kind !== 'empty') {
      try {
        outcome = await options.execute({
          python,
          code: extracted.code,
          harness: this.plan.taskOf(job.library, job.taskId).harness,
          entryPoint: job.entryPoint,
          library: job.library,
          timeoutMs: settings.timeoutMs,
          memoryMb: settings.memoryMb,
          maxProcesses: settings.maxProcesses,
          ...(options.allowUnsandboxed ? { allowUnsandboxed: true } : {}),
          signal: stop.signal,
        });
      } catch (e) {
        if (stop.signal.aborted) return false;
        const where = `${job.sample.id} in ${job.library} ${job.environment}`;
        summary.executions.errors++;
        summary.executions.firstError ??= `${where}: ${(e as Error).message}`;
        options.log?.(`drift: cannot execute ${where}: ${(e as Error).message}`);
        return false;
      }
      if (stop.signal.aborted) return false; // killed by the cancellation: not an outcome of the code
    }
    this.drift!.record(executionRecord(job, commandText(python), extracted, outcome, new Date().toISOString()));
    summary.executions.thisSession++;
    return true;
  }
}

/** The repair prompt of one planned attempt, from the code and the execution the database holds; null when absent. */
function buildRepairSample(
  id: string,
  truth: RepairTruth,
  responses: ReadonlyMap<string, string>,
  executions: ReadonlyMap<string, ExecutionRecord>,
  task: DriftTaskInput,
  notesSource: NotesSource | null,
  settings: DriftSettings,
): BenchSample | null {
  const response = responses.get(truth.previous);
  const failed = executions.get(executionKey(truth.previous, truth.target));
  if (response === undefined || !failed) return null;
  const code = codeOf(response, truth.entryPoint).code;
  let notes: string | null = null;
  if (settings.migrationNotes && notesSource) {
    let tree: Tree | undefined;
    try {
      tree = notesSource.parse(code);
      notes = migrationNotes({ tree, code, catalog: notesSource.catalog, library: truth.library, from: truth.version, to: truth.target, ...(notesSource.listing ? { listing: notesSource.listing } : {}) }).text;
    } finally {
      tree?.delete();
    }
  }
  return {
    id,
    task: REPAIR_TASK,
    level: null,
    library: truth.library,
    version: truth.target,
    api: truth.task,
    evolving: true,
    prompt: repairPrompt({
      library: truth.library,
      from: truth.version,
      to: truth.target,
      round: truth.round,
      task: renderTaskText(task, truth.library, truth.target),
      entryPoint: truth.entryPoint,
      code,
      error: errorText(failed, settings.timeoutMs),
      notes,
    }),
    groundTruth: truth,
  };
}
