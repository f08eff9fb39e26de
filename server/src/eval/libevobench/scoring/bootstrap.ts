// Seeded percentile bootstrap and small statistics (means, population std, Spearman rank correlation). Every
// interval is drawn from a generator seeded by the scoring seed and the interval's own key, so results do not depend
// on the order in which intervals are computed. Pure. The generator is mulberry32, as seededRandom
// (core/random.ts), inlined in the resampling loop: a bootstrap of 100,000 predictions draws ~10^8 indexes.
import { seedFor } from '../../../core/random.js';

export { seedFor };

export function mean(values: ArrayLike<number>): number | null {
  if (values.length === 0) return null;
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i]!;
  return s / values.length;
}

/** Population standard deviation (divides by n); 0 for a single value, null for none. */
export function populationStd(values: ArrayLike<number>): number | null {
  const m = mean(values);
  if (m === null) return null;
  let s = 0;
  for (let i = 0; i < values.length; i++) s += (values[i]! - m) ** 2;
  return Math.sqrt(s / values.length);
}

/** Quantile of sorted values with linear interpolation between order statistics (type 7). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** The central interval of a set of replicate statistics (95% by default), by percentiles. */
export function percentileInterval(replicates: Float64Array, confidence = 0.95): [number, number] {
  const sorted = Float64Array.from(replicates).sort();
  const tail = (1 - confidence) / 2;
  return [quantile(sorted, tail), quantile(sorted, 1 - tail)];
}

/**
 * The basic (reverse-percentile) bootstrap interval [2θ̂ − q_hi, 2θ̂ − q_lo]: right where the replicates sit to one
 * side of the estimate by about as much as the estimate sits from the true value, as SEUS's do (its Std_v(E_v) term
 * grows with every resample's noise).
 */
export function basicInterval(estimate: number, replicates: Float64Array, confidence = 0.95): [number, number] {
  const [lo, hi] = percentileInterval(replicates, confidence);
  return [2 * estimate - hi, 2 * estimate - lo];
}

/**
 * The draws of a bootstrap: mulberry32 (the same generator as seededRandom) with its state held here, so the
 * resampling loops draw indexes without a call per draw. Seeded like randomFor.
 */
export class Resampler {
  private state: number;
  constructor(seed: number, key: string) {
    this.state = seedFor(seed, key);
  }

  /** A uniform index in [0, n). */
  index(n: number): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296 * n) | 0;
  }

  /** Mean of n values drawn with replacement. */
  mean(values: ArrayLike<number>): number {
    const n = values.length;
    let a = this.state;
    let s = 0;
    for (let i = 0; i < n; i++) {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      s += values[(((t ^ (t >>> 14)) >>> 0) / 4294967296 * n) | 0]!;
    }
    this.state = a;
    return s / n;
  }
}

/** 95% percentile-bootstrap interval of a mean; null with no values or no resamples. */
export function bootstrapMean(values: ArrayLike<number>, iterations: number, resampler: Resampler, confidence = 0.95): [number, number] | null {
  if (values.length === 0 || iterations <= 0) return null;
  const data = Float64Array.from(values as ArrayLike<number>);
  const replicates = new Float64Array(iterations);
  for (let b = 0; b < iterations; b++) replicates[b] = resampler.mean(data);
  return percentileInterval(replicates, confidence);
}

/** Ranks 1..n with ties sharing their average rank. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]![1]] = rank;
    i = j + 1;
  }
  return ranks;
}

/** Spearman's rank correlation (Pearson on average ranks); null with fewer than 2 pairs or a constant side. */
export function spearman(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length || xs.length < 2) return null;
  const rx = averageRanks(xs);
  const ry = averageRanks(ys);
  const mx = mean(rx)!;
  const my = mean(ry)!;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < rx.length; i++) {
    sxy += (rx[i]! - mx) * (ry[i]! - my);
    sxx += (rx[i]! - mx) ** 2;
    syy += (ry[i]! - my) ** 2;
  }
  if (sxx === 0 || syy === 0) return null;
  return sxy / Math.sqrt(sxx * syy);
}
