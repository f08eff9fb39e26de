// A pool of workers over a list of jobs, for every stage of a run that does one thing per item (asking the model for
// each pending sample, executing each generated sample): at most `concurrency` in flight, each job taken once, in
// order; an abort stops taking jobs; a job that throws stops the pool (what the others finished stays done) and the
// error is rethrown once they have settled.

export async function runPool<T>(jobs: readonly T[], concurrency: number, work: (job: T) => Promise<void>, stop: AbortController): Promise<void> {
  let next = 0;
  let fatal: unknown;
  const worker = async () => {
    while (!stop.signal.aborted && next < jobs.length) {
      const job = jobs[next++]!;
      try {
        await work(job);
      } catch (e) {
        fatal ??= e;
        stop.abort(e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, jobs.length)) }, worker));
  if (fatal !== undefined) throw fatal;
}

/** How far a stage is, for its progress callbacks: done so far (earlier sessions included), the rate and the ETA. */
export interface ProgressCount {
  total: number;
  done: number;
  doneThisSession: number;
  rate: number;
  etaSeconds: number | null;
  elapsedMs: number;
}

/** Counts a stage's completions and says how far it is; `due(force)` limits callbacks to one per `intervalMs`. */
export class ProgressClock {
  private readonly started = performance.now();
  private last = -Infinity;

  constructor(
    /** Items of the stage this session works on. */
    private readonly items: number,
    /** Items done before this session. */
    private readonly doneBefore: number,
    private readonly intervalMs: number,
  ) {}

  /** Whether a callback is due now (always when forced), and if so, marks it given. */
  due(force: boolean): boolean {
    const now = performance.now();
    if (!force && now - this.last < this.intervalMs) return false;
    this.last = now;
    return true;
  }

  count(doneThisSession: number): ProgressCount {
    const elapsedMs = performance.now() - this.started;
    const rate = elapsedMs > 0 ? doneThisSession / (elapsedMs / 1000) : 0;
    return {
      total: this.doneBefore + this.items,
      done: this.doneBefore + doneThisSession,
      doneThisSession,
      rate,
      etaSeconds: doneThisSession > 0 && rate > 0 ? (this.items - doneThisSession) / rate : null,
      elapsedMs,
    };
  }
}
