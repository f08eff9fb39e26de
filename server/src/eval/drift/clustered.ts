// The effective sample size of a mean over drift-matrix cells when the executions of one task are one cluster
// (issue 22, point 11). A task's samples share its prompt, and its code at one version is much like its code at the
// next, so 264 prompts × 3 identical samples are not 792 observations: the Wilson interval of the pooled executions
// reads "100.0 [99.5, 100.0]" where the tasks say far less. A seeded bootstrap that resamples whole tasks gives the
// mean's variance; the effective size is the n a binomial proportion of that variance has (Kish's design effect), and
// the interval is Wilson's at that n. Where every task agrees (all pass, all fail, or each the same rate in each cell)
// the bootstrap has no variance to read, and each task counts once. Pure.
import { seededRandom } from '../../core/random.js';

/** One task's executions in each cell of the mean: `successes[i]` of `counts[i]` in cell i. */
export interface TaskCounts {
  successes: readonly number[];
  counts: readonly number[];
}

export interface ClusteredSize {
  /** Tasks (clusters) with an execution in some cell. */
  tasks: number;
  /** Every execution in the cells. */
  executions: number;
  /** The n of a binomial proportion with the bootstrap's variance, within [1, executions]; `tasks` where it has none. */
  effectiveN: number;
}

/** The mean of the cells' pass rates (cells without an execution left out); null when none has one. */
export function meanOfCells(successes: ArrayLike<number>, counts: ArrayLike<number>): number | null {
  let sum = 0;
  let cells = 0;
  for (let i = 0; i < counts.length; i++) {
    if (counts[i]! === 0) continue;
    sum += successes[i]! / counts[i]!;
    cells++;
  }
  return cells > 0 ? sum / cells : null;
}

/** The effective size of the mean of cells over `tasks`, from `replicates` resamples of whole tasks (seeded). */
export function clusteredSize(tasks: readonly TaskCounts[], seed: number, replicates = 1000): ClusteredSize | null {
  const used = tasks.filter((t) => t.counts.some((c) => c > 0));
  const width = used[0]?.counts.length ?? 0;
  const successes = new Float64Array(width);
  const counts = new Float64Array(width);
  const add = (t: TaskCounts) => {
    for (let i = 0; i < width; i++) {
      successes[i]! += t.successes[i]!;
      counts[i]! += t.counts[i]!;
    }
  };
  used.forEach(add);
  const estimate = meanOfCells(successes, counts);
  if (estimate === null) return null;
  const executions = counts.reduce((a, b) => a + b, 0);
  const random = seededRandom(seed);
  let squares = 0;
  for (let r = 0; r < replicates; r++) {
    successes.fill(0);
    counts.fill(0);
    for (let k = 0; k < used.length; k++) add(used[Math.floor(random() * used.length)]!);
    squares += ((meanOfCells(successes, counts) ?? estimate) - estimate) ** 2;
  }
  const variance = squares / replicates;
  const binomial = estimate * (1 - estimate);
  const effectiveN = binomial === 0 || variance === 0 ? used.length : Math.min(executions, Math.max(1, binomial / variance));
  return { tasks: used.length, executions, effectiveN };
}
