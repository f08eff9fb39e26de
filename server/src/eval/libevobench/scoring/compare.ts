// Comparing runs: the SEUS leaderboard (Table 7) and the penalty-calibration sweep (Appendix C): SEUS of every run at
// each (λ, γ) of the grid, and the Spearman rank correlation of each setting's ranking with the default one. Pure.
import { spearman } from './bootstrap.js';
import { seusAt, SWEEP_GRID } from './seus.js';
import type { RunResults } from './types.js';

export interface LeaderboardRow {
  rank: number;
  label: string;
  model: string | null;
  seus: number | null;
  ci: [number, number] | null;
  stable: number | null;
  evolving: number | null;
  retention: number | null;
  stabilityPenalty: number | null;
  anachronismPenalty: number | null;
  samples: number;
}

export interface SweepSetting {
  lambda: number;
  gamma: number;
  /** SEUS of each run at this setting, in leaderboard order. */
  seus: (number | null)[];
  /** Spearman correlation of the runs' ranking here with the ranking at the default setting (null: fewer than 2 runs). */
  spearman: number | null;
}

export interface Comparison {
  schema: 'anachron-bench-comparison/1';
  lambda: number;
  gamma: number;
  leaderboard: LeaderboardRow[];
  sweep: SweepSetting[];
  /** The lowest correlation over the grid (Appendix C reports ≥ 0.995). */
  minSpearman: number | null;
}

/** Ranks runs by SEUS (highest first; runs without a SEUS last) and sweeps the penalty weights. */
export function compareRuns(runs: readonly RunResults[], lambda = 0.5, gamma = 0.5): Comparison {
  const scored = runs.map((r) => ({ r, seus: seusAt(r.seus.components, lambda, gamma) }));
  const order = scored.map((_, i) => i).sort((a, b) => (scored[b]!.seus ?? -Infinity) - (scored[a]!.seus ?? -Infinity) || a - b);
  const leaderboard: LeaderboardRow[] = order.map((i, k) => {
    const { r, seus } = scored[i]!;
    const h = r.seus.headline;
    const sameWeights = r.seus.lambda === lambda && r.seus.gamma === gamma;
    return {
      rank: k + 1,
      label: r.run.label,
      model: r.run.model,
      seus,
      ci: sameWeights ? r.seus.ci : null,
      stable: h.stable,
      evolving: h.evolving,
      retention: h.retention,
      stabilityPenalty: r.seus.components.length ? r.seus.components.reduce((s, c) => s + lambda * c.evolvingStd, 0) / r.seus.components.length : null,
      anachronismPenalty: r.seus.components.length ? r.seus.components.reduce((s, c) => s + gamma * (c.anachronism ?? 0), 0) / r.seus.components.length : null,
      samples: r.counts.samples,
    };
  });
  const ranked = order.map((i) => runs[i]!);
  const reference = ranked.map((r) => seusAt(r.seus.components, lambda, gamma));
  const comparable = reference.every((x) => x !== null);
  const sweep: SweepSetting[] = SWEEP_GRID.flatMap((l) =>
    SWEEP_GRID.map((g) => {
      const values = ranked.map((r) => seusAt(r.seus.components, l, g));
      const rho = comparable && values.every((x) => x !== null) ? spearman(reference as number[], values as number[]) : null;
      return { lambda: l, gamma: g, seus: values, spearman: rho };
    }),
  );
  const rhos = sweep.map((s) => s.spearman).filter((x): x is number => x !== null);
  return { schema: 'anachron-bench-comparison/1', lambda, gamma, leaderboard, sweep, minSpearman: rhos.length ? Math.min(...rhos) : null };
}
