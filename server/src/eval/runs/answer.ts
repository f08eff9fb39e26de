// Asking the model for a run's samples, for every suite: the provider a run config describes (created on first use,
// unless one is given, and closed with the run), the request settings every sample is sent with, and one round of
// sending the samples among a set that have no final record yet.
import { DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE, type ModelConfig } from '../models/config.js';
import { createProvider, type OwnedProvider, type ProviderEnvironment } from '../models/factory.js';
import { ConcurrencyLimiter } from '../models/limiter.js';
import type { ModelProvider } from '../models/provider.js';
import { runPending, type RunnerOutcome, type RunProgress } from './runner.js';
import type { RunCounts, RunStore } from './store.js';

/** What every sample of a run is sent with: the model config's settings and their defaults. */
export function requestSettings(model: ModelConfig): { maxTokens: number; temperature: number; stop?: string[] } {
  return {
    maxTokens: model.maxTokens ?? DEFAULT_MAX_TOKENS,
    temperature: model.temperature ?? DEFAULT_TEMPERATURE,
    ...(model.stop ? { stop: model.stop } : {}),
  };
}

/** The model of a run: the one given (not closed here), else the config's, created when first needed. */
export class RunModel {
  private created: OwnedProvider | undefined;

  constructor(
    private readonly config: ModelConfig,
    private readonly concurrency: number,
    private readonly given: ModelProvider | undefined,
    private readonly environment: Omit<ProviderEnvironment, 'limiter'>,
  ) {}

  /** The provider's id once known: the given one's, or the created one's. */
  get id(): string | undefined {
    return this.given?.id ?? this.created?.id;
  }

  get transport(): string | undefined {
    return this.created?.transport;
  }

  async provider(): Promise<ModelProvider> {
    if (this.given) return this.given;
    this.created ??= await createProvider(this.config, { ...this.environment, limiter: new ConcurrencyLimiter(this.concurrency) });
    return this.created;
  }

  async close(): Promise<void> {
    await this.created?.close();
  }
}

export interface AnswerOptions {
  concurrency: number;
  request: { maxTokens: number; temperature: number; stop?: string[] };
  /** Send the samples recorded as failed again (their old records are kept in table superseded). */
  retryFailed?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  progressIntervalMs?: number;
}

/** Sends the samples among `ids` that have no final record; the counts before, and what this round did. */
export async function answerPending(store: RunStore, ids: ReadonlySet<string>, model: RunModel, options: AnswerOptions): Promise<{ before: RunCounts; outcome: RunnerOutcome }> {
  if (options.retryFailed) store.supersedeFailures(ids);
  const before = store.counts(ids);
  const pending = store.pending(ids);
  const idle: RunnerOutcome = { sent: 0, answered: 0, failed: 0, cancelled: false, elapsedMs: 0 };
  if (pending.length === 0) return { before, outcome: idle };
  const outcome = await runPending({
    store,
    provider: await model.provider(),
    pending,
    before: { total: before.samples, answered: before.answered, failed: before.failed },
    request: options.request,
    concurrency: options.concurrency,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.progressIntervalMs !== undefined ? { progressIntervalMs: options.progressIntervalMs } : {}),
  });
  return { before, outcome };
}
