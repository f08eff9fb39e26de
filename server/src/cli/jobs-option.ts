// `--jobs N`: how many threads a many-file command may use (1: this thread only). Without it, the command decides from
// the input's size and the machine's cores (worker-pool.ts).
import { InputError } from '../core/errors.js';

export function jobsOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InputError(`--jobs takes a whole number of threads, 1 or more, not ${value}`);
  return n;
}
