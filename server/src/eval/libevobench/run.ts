// LibEvoBench's solve step, shared by the CLI (`anachron bench run`) and the editor: config + dataset in, a run
// database out. The dataset builder supplies the samples; scoring reads the database.
import type { ModelProvider } from '../models/provider.js';
import { DEFAULT_CONCURRENCY } from '../runs/config.js';
import { answerPending, requestSettings, RunModel } from '../runs/answer.js';
import type { RunProgress } from '../runs/runner.js';
import { selectSamples, type BenchSample } from '../runs/samples.js';
import { RunStore, type RunCounts } from '../runs/store.js';
import { libevobenchBuiltins, type ReferenceKnowledge } from './builtin-models.js';
import { LIBEVOBENCH_IDENTITY, type LibEvoBenchConfig } from './config.js';

export interface ExecuteRunOptions {
  config: LibEvoBenchConfig;
  /** The run database: created when new, resumed when it exists (same identity and shard, else RunMismatchError). */
  database: string;
  /** The whole dataset, in the builder's deterministic order; limit and shard are applied here. */
  dataset: readonly BenchSample[];
  /** A provider to use instead of the one the config describes (the editor's vscode.lm provider, tests). Not closed here. */
  provider?: ModelProvider;
  /** For the provider the config describes: the matrices of the reference models, the environment, the log. */
  environment?: { matricesFolder?: string; knowledge?: ReferenceKnowledge; env?: NodeJS.ProcessEnv; log?: (line: string) => void };
  /** Send the samples recorded as failed again (their old records are kept in table superseded). */
  retryFailed?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  progressIntervalMs?: number;
}

export interface RunSummary extends RunCounts {
  database: string;
  provider: string;
  /** How requests reached the model, when the provider says (a built-in model behind the local HTTP server). */
  transport?: string;
  /** Samples this session sent / recorded. */
  sent: number;
  recorded: number;
  /** Samples that already had a final record when the session started. */
  resumedFrom: number;
  cancelled: boolean;
  elapsedMs: number;
}

export async function executeRun(options: ExecuteRunOptions): Promise<RunSummary> {
  const { config } = options;
  const selection = selectSamples(options.dataset, { ...(config.limit !== undefined ? { limit: config.limit } : {}), shard: config.shard ?? null });
  const ids = new Set(selection.samples.map((s) => s.id));
  const store = RunStore.open(options.database, { config, identity: LIBEVOBENCH_IDENTITY });
  const { matricesFolder, knowledge, ...environment } = options.environment ?? {};
  const concurrency = config.concurrency ?? DEFAULT_CONCURRENCY;
  const model = new RunModel(config.model, concurrency, options.provider, {
    ...environment,
    builtins: libevobenchBuiltins({ ...(matricesFolder ? { matricesFolder } : {}), ...(knowledge ? { knowledge } : {}) }),
  });
  try {
    store.registerSamples(selection.samples, selection.ordinals);
    const { before, outcome } = await answerPending(store, ids, model, {
      concurrency,
      request: requestSettings(config.model),
      ...(options.retryFailed ? { retryFailed: true } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.progressIntervalMs !== undefined ? { progressIntervalMs: options.progressIntervalMs } : {}),
    });
    const after = store.counts(ids);
    return {
      ...after,
      database: options.database,
      provider: model.id ?? '(none needed)',
      ...(model.transport ? { transport: model.transport } : {}),
      sent: outcome.sent,
      recorded: outcome.answered + outcome.failed,
      resumedFrom: before.answered + before.failed,
      cancelled: outcome.cancelled,
      elapsedMs: outcome.elapsedMs,
    };
  } finally {
    await model.close();
    store.close();
  }
}
