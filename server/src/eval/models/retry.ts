// Retry policy of remote providers: bounded attempts, exponential backoff with jitter, server-requested waits honoured.
import { performance } from 'node:perf_hooks';
import type { ConcurrencyLimiter } from './limiter.js';
import { abortError, isAbortError, ModelError, type AttemptRecord } from './provider.js';

export interface RetryPolicy {
  /** Total attempts, first included (≥ 1). */
  maxAttempts: number;
  /** Backoff before the second attempt; doubles each time. */
  baseDelayMs: number;
  /** Cap of one backoff. */
  maxDelayMs: number;
  /** Cap of a server-requested wait (Retry-After); a longer request is still honoured up to this cap. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 6, baseDelayMs: 500, maxDelayMs: 30_000, maxRetryAfterMs: 120_000 };

/**
 * Wait before attempt `attempt + 1` after `error` on attempt `attempt` (1-based). Backoff is "equal jitter":
 * half the exponential delay fixed, half random, so concurrent clients spread out but never retry instantly.
 * A Retry-After from the server is a floor.
 */
export function backoffDelay(policy: RetryPolicy, attempt: number, error: ModelError, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const jittered = exp / 2 + random() * (exp / 2);
  if (error.retryAfterMs !== undefined) return Math.max(Math.min(error.retryAfterMs, policy.maxRetryAfterMs), jittered);
  return jittered;
}

/** Parses Retry-After (seconds or an HTTP date) and retry-after-ms headers into milliseconds. */
export function parseRetryAfter(headers: { [name: string]: string | string[] | undefined }, now = Date.now()): number | undefined {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const ms = one(headers['retry-after-ms']);
  if (ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.max(0, Number(ms));
  const value = one(headers['retry-after']);
  if (value === undefined) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Sleeps, or rejects with an AbortError as soon as the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface RetryLoop<T> {
  /** Provider id, for log lines. */
  id: string;
  policy: RetryPolicy;
  limiter: ConcurrencyLimiter;
  signal?: AbortSignal;
  random: () => number;
  log?: (line: string) => void;
  /** One attempt; it holds a limiter slot while it runs (the waits between attempts do not). */
  attempt: () => Promise<T>;
  /** Turns a failure that is not a ModelError into one. */
  asModelError: (e: unknown) => ModelError;
}

/**
 * Runs attempts until one succeeds, the error is not retryable, or the policy's attempts are spent; every attempt
 * is recorded. The one retry loop of the remote providers (HTTP and IPC).
 */
export async function withRetries<T>(loop: RetryLoop<T>): Promise<{ value: T; latencyMs: number; attempts: number; attemptLog: AttemptRecord[] }> {
  const attemptLog: AttemptRecord[] = [];
  for (let attempt = 1; ; attempt++) {
    if (loop.signal?.aborted) throw abortError(loop.signal);
    let started = performance.now();
    try {
      const value = await loop.limiter.run(() => {
        started = performance.now();
        return loop.attempt();
      }, loop.signal);
      return { value, latencyMs: performance.now() - started, attempts: attempt, attemptLog };
    } catch (e) {
      if (isAbortError(e)) throw e;
      const latencyMs = performance.now() - started;
      const error = e instanceof ModelError ? e : loop.asModelError(e);
      const record: AttemptRecord = { kind: error.kind, latencyMs, ...(error.status !== undefined ? { status: error.status } : {}) };
      if (!error.retryable || attempt >= loop.policy.maxAttempts) {
        attemptLog.push(record);
        error.attempts = attempt;
        error.attemptLog = attemptLog;
        error.latencyMs = latencyMs;
        loop.log?.(`${loop.id}: giving up after ${attempt} attempt${attempt === 1 ? '' : 's'}: ${error.kind}: ${error.message}`);
        throw error;
      }
      const waitMs = backoffDelay(loop.policy, attempt, error, loop.random);
      attemptLog.push({ ...record, waitMs });
      loop.log?.(`${loop.id}: attempt ${attempt} failed (${error.kind}${error.status ? ` ${error.status}` : ''}): ${error.message}; retrying in ${Math.round(waitMs)} ms`);
      await sleep(waitMs, loop.signal);
    }
  }
}
