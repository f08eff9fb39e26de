// The Software Evolution Understanding Score (paper §2.4, Appendix C), its components, its (λ, γ) sweep and its
// stratified bootstrap interval. Pure: computed from prediction records alone.
//
//   SEUS = 1/N Σ_(ℓ,t) ( E_v[B_v] − λ·Std_v(E_v) − γ·A_ℓ,t ),   B_v = 2·S_v·E_v / (S_v + E_v)
//
// t ranges over the four task-level metrics (API-C@L2 exact, API-C@L3 recall, API-I exact, SR F1); S_v and E_v are
// the mean primary score on stable and evolving APIs at version v; A is the anachronistic error rate on evolving APIs.
import { compareVersions } from '../../../core/versions.js';
import { basicInterval, mean, percentileInterval, populationStd, Resampler } from './bootstrap.js';
import { ANACHRONISM_LEVEL, SEUS_UNITS, type StdEstimator, type PredictionRecord, type ScoringOptions, type ScoringUnit, type SeusComponent, type SeusResult } from './types.js';

export const SWEEP_GRID: readonly number[] = [0, 0.25, 0.5, 0.75, 1];

/** A record's contribution to the anachronism rate: anachronistic predictions / predictions classified. Null: none. */
export function anachronismOf(record: PredictionRecord): { anachronistic: number; classified: number } | null {
  if (record.status !== 'answered' || record.taxonomy === null) return null;
  if (ANACHRONISM_LEVEL[record.unit] === 'api') {
    return { anachronistic: record.taxonomy.api === 'anachronistic' ? 1 : 0, classified: 1 };
  }
  const ps = record.taxonomy.parameters;
  if (ps === null) return null;
  let a = 0;
  for (const p of ps) if (p.category === 'anachronistic') a++;
  return { anachronistic: a, classified: ps.length };
}

/** The scored samples of one (library, unit, version, group) stratum (typed arrays once complete). */
interface Stratum {
  scores: number[] | Float64Array;
  /** Evolving strata: each sample's anachronistic and classified counts, aligned with scores. */
  anachronistic: number[] | Float64Array;
  classified: number[] | Float64Array;
}

interface ComponentInput {
  library: string;
  unit: ScoringUnit;
  versions: string[];
  stable: Map<string, Stratum>;
  evolving: Map<string, Stratum>;
  /** Whether any evolving sample carried a taxonomy. */
  hasTaxonomy: boolean;
}

function newStratum(): Stratum {
  return { scores: [], anachronistic: [], classified: [] };
}

/** Groups the scored records of the SEUS units into strata, in a fixed order. */
function strata(records: readonly PredictionRecord[], units: readonly ScoringUnit[]): ComponentInput[] {
  const byKey = new Map<string, ComponentInput>();
  for (const r of records) {
    if (r.score === null || !units.includes(r.unit)) continue;
    const key = `${r.library}\u0000${r.unit}`;
    let c = byKey.get(key);
    if (!c) byKey.set(key, (c = { library: r.library, unit: r.unit, versions: [], stable: new Map(), evolving: new Map(), hasTaxonomy: false }));
    const side = r.group === 'stable' ? c.stable : c.evolving;
    let s = side.get(r.version);
    if (!s) side.set(r.version, (s = newStratum()));
    (s.scores as number[]).push(r.score);
    if (r.group === 'evolving') {
      const a = anachronismOf(r);
      if (a) c.hasTaxonomy = true;
      (s.anachronistic as number[]).push(a?.anachronistic ?? 0);
      (s.classified as number[]).push(a?.classified ?? 0);
    }
  }
  const out = [...byKey.values()];
  for (const c of out) {
    c.versions = [...new Set([...c.stable.keys(), ...c.evolving.keys()])].sort(compareVersions);
    // Typed arrays: the bootstrap reads them ~10^8 times, always through one array type.
    for (const s of [...c.stable.values(), ...c.evolving.values()]) {
      s.scores = Float64Array.from(s.scores);
      s.anachronistic = Float64Array.from(s.anachronistic);
      s.classified = Float64Array.from(s.classified);
    }
  }
  const libraries = [...new Set(out.map((c) => c.library))].sort();
  return out.sort((a, b) => libraries.indexOf(a.library) - libraries.indexOf(b.library) || units.indexOf(a.unit) - units.indexOf(b.unit));
}

interface Means {
  stable: Map<string, number>;
  evolving: Map<string, number>;
  /** Per version, the estimated sampling variance of E_v: s²/n (s² with n − 1); 0 from a single sample. */
  evolvingNoise: Map<string, number>;
  anachronistic: number;
  classified: number;
}

/** The estimated variance of a mean of n scores from their sum and sum of squares: s²/n with s² divided by n − 1. */
function noiseOfMean(sum: number, squares: number, n: number): number {
  if (n < 2) return 0;
  return Math.max(0, (squares - (sum * sum) / n) / (n - 1)) / n;
}

/**
 * Std_v(E_v) over the versions' evolving means. 'paper': the population std of the estimates Ê_v, as the paper
 * computes it; each Ê_v's sampling noise σ²_v inflates it (by (1 − 1/V)·mean σ²_v in variance, in expectation), so
 * SEUS comes out low by up to λ times that noise. 'bias-corrected': that expected inflation, estimated from the
 * samples (s²/n), is taken off the variance, and the signed square root is kept: flooring at 0 would bias the
 * penalty up again exactly where E_v is flat. A negative value says the means vary less than their noise explains.
 */
export function evolvingStdOf(means: readonly number[], noises: readonly number[], estimator: StdEstimator): number {
  const std = populationStd(means) ?? 0;
  if (estimator === 'paper' || means.length < 2) return std;
  const variance = std * std - (1 - 1 / means.length) * mean(noises)!;
  return Math.sign(variance) * Math.sqrt(Math.abs(variance));
}

/** SEUS's range: at most 1 (B ≤ 1, Std and A ≥ 0), at least −(λ·½ + γ) (a std of values in [0, 1] is at most ½). */
export function seusRange(lambda: number, gamma: number): [number, number] {
  return [-(lambda / 2 + gamma), 1];
}

const clip = (x: number, [lo, hi]: [number, number]) => Math.min(hi, Math.max(lo, x));

/** One component from stratum means (the same code serves the estimate and every bootstrap replicate). */
function component(input: ComponentInput, m: Means, lambda: number, gamma: number, estimator: StdEstimator): Omit<SeusComponent, 'library' | 'unit'> | null {
  const versions = input.versions.map((version) => {
    const S = m.stable.get(version) ?? null;
    const E = m.evolving.get(version) ?? null;
    const balanced = S !== null && E !== null ? (S + E > 0 ? (2 * S * E) / (S + E) : 0) : null;
    return { version, stable: S, evolving: E, balanced, nStable: input.stable.get(version)?.scores.length ?? 0, nEvolving: input.evolving.get(version)?.scores.length ?? 0 };
  });
  const both = versions.filter((v) => v.balanced !== null);
  if (both.length === 0) return null;
  const balanced = mean(both.map((v) => v.balanced!))!;
  const withEvolving = versions.filter((v) => v.evolving !== null);
  const evolvingStd = evolvingStdOf(withEvolving.map((v) => v.evolving!), withEvolving.map((v) => m.evolvingNoise.get(v.version) ?? 0), estimator);
  const anachronism = input.hasTaxonomy ? (m.classified > 0 ? m.anachronistic / m.classified : 0) : null;
  const ratios = both.filter((v) => v.stable! > 0).map((v) => v.evolving! / v.stable!);
  return {
    versions,
    balanced,
    evolvingStd,
    anachronism,
    stable: mean(both.map((v) => v.stable!))!,
    evolving: mean(both.map((v) => v.evolving!))!,
    retention: mean(ratios),
    term: balanced - lambda * evolvingStd - gamma * (anachronism ?? 0),
  };
}

/**
 * Stratum means, each evolving sample taken as `pick(n, i)` says: itself for the estimate, a draw with replacement for a
 * bootstrap replicate (scores and anachronism counts of the same sample together). Versions in order, so a replicate
 * draws the same sequence whatever the maps' insertion order.
 */
function meansOf(input: ComponentInput, pick: (n: number, i: number) => number, meanOfScores: (scores: Stratum["scores"]) => number): Means {
  const m: Means = { stable: new Map(), evolving: new Map(), evolvingNoise: new Map(), anachronistic: 0, classified: 0 };
  for (const v of input.versions) {
    const s = input.stable.get(v);
    if (s) m.stable.set(v, meanOfScores(s.scores));
    const e = input.evolving.get(v);
    if (!e) continue;
    const n = e.scores.length;
    let sum = 0;
    let squares = 0;
    for (let i = 0; i < n; i++) {
      const k = pick(n, i);
      sum += e.scores[k]!;
      squares += e.scores[k]! * e.scores[k]!;
      m.anachronistic += e.anachronistic[k]!;
      m.classified += e.classified[k]!;
    }
    m.evolving.set(v, sum / n);
    m.evolvingNoise.set(v, noiseOfMean(sum, squares, n));
  }
  return m;
}

const pointMeans = (input: ComponentInput): Means => meansOf(input, (_n, i) => i, (scores) => mean(scores)!);

const resampledMeans = (input: ComponentInput, resampler: Resampler): Means =>
  meansOf(input, (n) => resampler.index(n), (scores) => resampler.mean(scores));

/** SEUS as a function of (λ, γ) from components: linear in both weights. */
export function seusAt(components: readonly Pick<SeusComponent, 'balanced' | 'evolvingStd' | 'anachronism'>[], lambda: number, gamma: number): number | null {
  return mean(components.map((c) => c.balanced - lambda * c.evolvingStd - gamma * (c.anachronism ?? 0)));
}

export function computeSeus(records: readonly PredictionRecord[], options: ScoringOptions, units: readonly ScoringUnit[] = SEUS_UNITS): SeusResult {
  const inputs = strata(records, units);
  const components: SeusComponent[] = [];
  const used: ComponentInput[] = [];
  const excluded: SeusResult['excluded'] = [];
  for (const input of inputs) {
    const c = component(input, pointMeans(input), options.lambda, options.gamma, options.std);
    if (!c) {
      excluded.push({ library: input.library, unit: input.unit, reason: input.stable.size === 0 ? 'no stable samples' : input.evolving.size === 0 ? 'no evolving samples' : 'no version has both stable and evolving samples' });
      continue;
    }
    components.push({ library: input.library, unit: input.unit, ...c });
    used.push(input);
  }
  for (const unit of units) {
    const unscored = records.filter((r) => r.unit === unit && r.status === 'answered' && r.score === null);
    for (const library of [...new Set(unscored.map((r) => r.library))].sort()) {
      if (!inputs.some((i) => i.library === library && i.unit === unit)) excluded.push({ library, unit, reason: 'no scorable samples (the ground truth lacks what the metric needs)' });
    }
  }
  const value = mean(components.map((c) => c.term));
  let ci: [number, number] | null = null;
  if (value !== null && options.bootstrap > 0) {
    const resampler = new Resampler(options.seed, 'seus');
    const replicates = new Float64Array(options.bootstrap);
    for (let b = 0; b < options.bootstrap; b++) {
      let total = 0;
      for (const input of used) total += component(input, resampledMeans(input, resampler), options.lambda, options.gamma, options.std)!.term;
      replicates[b] = total / used.length;
    }
    // Which interval (issue 22, point 7; figures from perf/seus-coverage.ts in docs/benchmark-scoring.md): with the
    // paper's Std each resample adds its strata's noise to the E_v again, so the replicates sit below the estimate
    // about as far as the estimate sits below the truth, and the basic interval (reflected about the estimate)
    // corrects that. With the bias-corrected Std the noise is taken off in every replicate as in the estimate, and
    // the percentile interval covers. Both are clipped to SEUS's range: a bound past it says nothing more.
    const range = seusRange(options.lambda, options.gamma);
    const [lo, hi] = options.std === 'paper' ? basicInterval(value, replicates) : percentileInterval(replicates);
    ci = [clip(lo, range), clip(hi, range)];
  }
  const avg = (f: (c: SeusComponent) => number | null) => mean(components.map(f).filter((x): x is number => x !== null));
  return {
    value: value === null ? null : clip(value, seusRange(options.lambda, options.gamma)),
    ci,
    std: options.std,
    lambda: options.lambda,
    gamma: options.gamma,
    headline: {
      stable: avg((c) => c.stable),
      evolving: avg((c) => c.evolving),
      retention: avg((c) => c.retention),
      balanced: avg((c) => c.balanced),
      stabilityPenalty: components.length ? avg((c) => options.lambda * c.evolvingStd) : null,
      anachronismPenalty: components.length ? avg((c) => options.gamma * (c.anachronism ?? 0)) : null,
    },
    components,
    excluded,
    sweep: SWEEP_GRID.flatMap((lambda) => SWEEP_GRID.map((gamma) => ({ lambda, gamma, seus: seusAt(components, lambda, gamma) }))),
  };
}
