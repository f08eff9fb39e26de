// A full garbage collection once the server has rested after checking. V8 collects its old generation when that
// grows, not when the process is idle, so between bursts of edits the heap keeps the garbage of every analysis since
// the last major collection: with every bundled matrix in use the server rested at ~240 MB resident, ~100 MB of it
// garbage (perf/server-memory.mjs). Collected after IDLE_MS without a check, it gives those pages back; a check
// that comes meanwhile postpones it, so typing never waits for it.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How long the server rests before collecting: longer than a pause in typing, so an edit rarely meets a collection. */
const IDLE_MS = 2000;

/** V8's full collection, where the runtime lets a running process turn it on (else none: nothing is collected early). */
function fullCollection(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

export class IdleCollection {
  private timer: NodeJS.Timeout | undefined;
  private gc: (() => void) | undefined | null = null;

  /** `busy`: whether a check is scheduled or under way (then the collection waits for the next rest). */
  constructor(
    private readonly busy: () => boolean,
    private readonly collected?: (millis: number) => void,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** A check finished: collect once the server has rested `idleMs` from now. */
  checked(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.collect(), this.idleMs);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private collect(): void {
    this.timer = undefined;
    if (this.busy()) return; // that check calls checked() again when it is done
    if (this.gc === null) this.gc = fullCollection();
    if (!this.gc) return;
    const started = performance.now();
    this.gc();
    this.collected?.(performance.now() - started);
  }
}
