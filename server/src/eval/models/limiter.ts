// A counting semaphore: at most `limit` calls in flight. One limiter is shared by everything a run sends, so a run's
// concurrency setting bounds the requests in flight whatever the number of workers or providers.
import { abortError } from './provider.js';

export class ConcurrencyLimiter {
  private active = 0;
  private readonly waiting: { resolve: () => void; reject: (e: Error) => void; signal?: AbortSignal; onAbort?: () => void }[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrency must be a positive integer, got ${limit}`);
  }

  get inFlight(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Waits for a slot; rejects with an AbortError when the signal fires first. Call the returned function once to release. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw abortError(signal);
    if (this.active < this.limit) {
      this.active++;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const entry: (typeof this.waiting)[number] = { resolve, reject };
      if (signal) {
        entry.signal = signal;
        entry.onAbort = () => {
          const i = this.waiting.indexOf(entry);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(abortError(signal));
        };
        signal.addEventListener('abort', entry.onAbort, { once: true });
      }
      this.waiting.push(entry);
    });
    return this.releaser();
  }

  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) {
        // Hand the slot over directly: `active` stays the same.
        if (next.signal && next.onAbort) next.signal.removeEventListener('abort', next.onAbort);
        next.resolve();
      } else {
        this.active--;
      }
    };
  }
}
