// One entry point for running (or resuming) a benchmark run, shared by the CLI (`anachron bench run`) and the editor:
// config + dataset in, a run database out. The dataset builder supplies the samples; scoring reads the database.
import { createProvider, type OwnedProvider, type ProviderEnvironment } from '../models/factory.js';
import { DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE } from '../models/config.js';
import { ConcurrencyLimiter } from '../models/limiter.js';
import type { ModelProvider } from '../models/provider.js';
import { DEFAULT_CONCURRENCY, type RunConfig } from './config.js';
import { runPending, type RunProgress } from './runner.js';
import { selectSamples, type BenchSample } from './samples.js';
import { RunStore, type RunCounts } from './store.js';

export interface ExecuteRunOptions {
  config: RunConfig;
  /** The run database: created when new, resumed when it exists (same identity and shard, else RunMismatchError). */
  database: string;
  /** The whole dataset, in the builder's deterministic order; limit and shard are applied here. */
  dataset: readonly BenchSample[];
  /** A provider to use instead of the one the config describes (the editor's vscode.lm provider, tests). Not closed here. */
  provider?: ModelProvider;
  /** For the provider the config describes: matrices for the reference models, environment, log. */
  environment?: Omit<ProviderEnvironment, 'limiter'>;
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
  const store = RunStore.open(options.database, { config });
  let provider: ModelProvider | undefined;
  let owned: OwnedProvider | undefined;
  try {
    store.registerSamples(selection.samples, selection.ordinals);
    if (options.retryFailed) store.supersedeFailures(ids);
    const before = store.counts(ids);
    const pending = store.pending(ids);
    const concurrency = config.concurrency ?? DEFAULT_CONCURRENCY;
    if (options.provider) provider = options.provider;
    else if (pending.length > 0) {
      const created = await createProvider(config.model, { ...options.environment, limiter: new ConcurrencyLimiter(concurrency) });
      provider = owned = created;
    }
    const outcome = pending.length === 0 || !provider
      ? { sent: 0, answered: 0, failed: 0, cancelled: false, elapsedMs: 0 }
      : await runPending({
          store,
          provider,
          pending,
          before: { total: before.samples, answered: before.answered, failed: before.failed },
          request: {
            maxTokens: config.model.maxTokens ?? DEFAULT_MAX_TOKENS,
            temperature: config.model.temperature ?? DEFAULT_TEMPERATURE,
            ...(config.model.stop ? { stop: config.model.stop } : {}),
          },
          concurrency,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.onProgress ? { onProgress: options.onProgress } : {}),
          ...(options.progressIntervalMs !== undefined ? { progressIntervalMs: options.progressIntervalMs } : {}),
        });
    const after = store.counts(ids);
    return {
      ...after,
      database: options.database,
      provider: provider?.id ?? '(none needed)',
      ...(owned?.transport ? { transport: owned.transport } : {}),
      sent: outcome.sent,
      recorded: outcome.answered + outcome.failed,
      resumedFrom: before.answered + before.failed,
      cancelled: outcome.cancelled,
      elapsedMs: outcome.elapsedMs,
    };
  } finally {
    await owned?.close();
    store.close();
  }
}
