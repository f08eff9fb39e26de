// Sends a run's pending samples to a provider, `concurrency` at a time, and records each final outcome in the run
// store the moment it completes. Cancellation (AbortSignal) stops sending, abandons the calls in flight without
// recording them, and keeps everything already recorded.
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { isAbortError, isModelError, ModelError, type ModelProvider } from '../models/provider.js';
import { ProgressClock, runPool } from './pool.js';
import type { BenchSample } from './samples.js';
import type { NewResult, RunStore } from './store.js';

export interface RunProgress {
  /** Samples in the run (or shard). */
  total: number;
  /** Samples with a final record, earlier sessions included. */
  done: number;
  answered: number;
  failed: number;
  /** Samples recorded by this session. */
  doneThisSession: number;
  /** Samples per second completed by this session. */
  rate: number;
  /** Seconds to go at the current rate; null before the first completion. */
  etaSeconds: number | null;
  elapsedMs: number;
  /** The most recent failure, for a status line. */
  lastFailure?: { sampleId: string; kind: string; message: string };
  /** What the run is doing, for runs with several stages (the drift suite: "generate", "execute", "repair 1/3" …). */
  phase?: string;
}

export interface RunnerOptions {
  store: RunStore;
  provider: ModelProvider;
  /** Samples to send (those without a final record, typically store.pending(selection)). */
  pending: readonly BenchSample[];
  /** The run's totals before this session, for progress: samples in the run, answered, failed. */
  before: { total: number; answered: number; failed: number };
  request: { maxTokens: number; temperature: number; stop?: string[] };
  concurrency: number;
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  /** Minimum interval between progress callbacks (the last one always comes). Default 100 ms. */
  progressIntervalMs?: number;
}

export interface RunnerOutcome {
  sent: number;
  answered: number;
  failed: number;
  cancelled: boolean;
  elapsedMs: number;
}

export async function runPending(options: RunnerOptions): Promise<RunnerOutcome> {
  const { store, provider, pending, request } = options;
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new Error('concurrency must be a positive integer');
  const session = store.beginSession(provider.id, pending.length);
  const started = performance.now();
  // Our own controller: the caller's signal, or a fatal store error, stops every worker.
  const stop = new AbortController();
  // Every call in flight listens to it.
  setMaxListeners(0, stop.signal);
  const onOuterAbort = () => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) stop.abort(options.signal.reason);
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });

  let sent = 0;
  let answered = 0;
  let failed = 0;
  let lastFailure: RunProgress['lastFailure'];
  const clock = new ProgressClock(pending.length, options.before.answered + options.before.failed, options.progressIntervalMs ?? 100);

  const progress = (force: boolean) => {
    if (!options.onProgress || !clock.due(force)) return;
    options.onProgress({
      ...clock.count(answered + failed),
      answered: options.before.answered + answered,
      failed: options.before.failed + failed,
      ...(lastFailure ? { lastFailure } : {}),
    });
  };

  const handle = async (sample: BenchSample): Promise<void> => {
    const t0 = performance.now();
    let result: NewResult;
    const base = { sampleId: sample.id, provider: provider.id, request: { maxTokens: request.maxTokens, temperature: request.temperature, ...(request.stop ? { stop: request.stop } : {}) } };
    try {
      sent++;
      const r = await provider.complete({ messages: sample.prompt, maxTokens: request.maxTokens, temperature: request.temperature, ...(request.stop ? { stop: request.stop } : {}) }, stop.signal);
      result = {
        ...base,
        status: 'answered',
        response: r.text,
        errorKind: null,
        errorMessage: null,
        httpStatus: null,
        errorBody: null,
        attempts: r.attempts ?? 1,
        attemptLog: r.attemptLog ?? [],
        latencyMs: r.latencyMs,
        elapsedMs: performance.now() - t0,
        usage: r.usage ?? null,
      };
    } catch (e) {
      if (isAbortError(e) || stop.signal.aborted) return; // not a model failure: the sample stays pending
      // A provider that throws something other than a ModelError has a bug or met a prompt it cannot handle: the
      // sample is recorded as refused rather than stopping the run (and coming back on every resume).
      const err = isModelError(e) ? e : new ModelError('refused', `the provider failed: ${(e as Error)?.message ?? String(e)}`, { retryable: false });
      result = {
        ...base,
        status: 'failed',
        response: null,
        errorKind: err.kind,
        errorMessage: err.message,
        httpStatus: err.status ?? null,
        errorBody: err.body ?? null,
        attempts: err.attempts,
        attemptLog: err.attemptLog,
        latencyMs: err.latencyMs,
        elapsedMs: performance.now() - t0,
        usage: null,
      };
      lastFailure = { sampleId: sample.id, kind: err.kind, message: err.message };
    }
    store.record(result, session);
    if (result.status === 'answered') answered++;
    else failed++;
    progress(false);
  };

  progress(true);
  let fatal: unknown;
  try {
    // A sample the store could not record (disk full, a duplicate) stops everything; what is recorded stays.
    await runPool(pending, options.concurrency, handle, stop).catch((e: unknown) => {
      fatal = e;
    });
  } finally {
    options.signal?.removeEventListener('abort', onOuterAbort);
    const cancelled = fatal === undefined && stop.signal.aborted;
    store.endSession(session, answered, failed, fatal !== undefined ? `error: ${(fatal as Error).message ?? String(fatal)}` : cancelled ? 'cancelled' : 'completed');
    progress(true);
  }
  if (fatal !== undefined) throw fatal;
  return { sent, answered, failed, cancelled: stop.signal.aborted, elapsedMs: performance.now() - started };
}
