// Comparing runs: the SEUS leaderboard (Table 7) and the penalty-calibration sweep (Appendix C): SEUS of every run at
// each (λ, γ) of the grid, and the Spearman rank correlation of each setting's ranking with the default one. Pure.
import { spearman } from './bootstrap.js';
import { seusAt, SWEEP_GRID } from './seus.js';
import { SEUS_UNITS, type RunResults, type ScoringUnit } from './types.js';

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
  /** The leaderboard table of runs that cover the same libraries, versions and SEUS tasks (1 = the best run's). */
  table: number;
  /** What the run's SEUS is computed over (runCoverage). */
  coverage: string;
  /** Set when the SEUS leaves out some of the paper's four tasks: "of API-I, SR only". */
  subset: string | null;
}

export interface SweepSetting {
  lambda: number;
  gamma: number;
  /** SEUS of each run at this setting, in leaderboard order. */
  seus: (number | null)[];
  /** Spearman correlation of the runs' ranking here with the ranking at the default setting, within each table of
   *  like runs, the lowest over the tables (null: no table of 2 runs with a SEUS). */
  spearman: number | null;
}

export interface Comparison {
  schema: 'anachron-bench-comparison/1';
  lambda: number;
  gamma: number;
  /** Rows by table, then rank within the table: runs are ranked only against runs that cover the same. */
  leaderboard: LeaderboardRow[];
  /** One per coverage, in the order of their best runs. */
  tables: { table: number; coverage: string; runs: number }[];
  sweep: SweepSetting[];
  /** The lowest correlation over the grid (Appendix C reports ≥ 0.995). */
  minSpearman: number | null;
}

/**
 * What a run's SEUS is computed over: its libraries with the versions its samples target, and the SEUS tasks it has
 * samples for (its components and the pairs left out for want of both groups), and a Std_v(E_v) estimator other
 * than the paper's. Runs compare only when these agree (issue 22, point 8): a SEUS over fewer tasks or other
 * versions, or with its stability term estimated otherwise, is another quantity.
 */
export function runCoverage(r: RunResults): { text: string; units: ScoringUnit[]; subset: string | null } {
  const present = new Set<ScoringUnit>([...r.seus.components.map((c) => c.unit), ...r.seus.excluded.map((e) => e.unit)]);
  const units = SEUS_UNITS.filter((u) => present.has(u));
  const libraries = [...r.libraries].sort().map((l) => `${l} ${(r.versions[l] ?? []).join(', ')}`.trim());
  const subset = units.length > 0 && units.length < SEUS_UNITS.length ? `of ${units.join(', ')} only` : null;
  const std = r.seus.std && r.seus.std !== 'paper' ? ` · Std ${r.seus.std}` : '';
  return { text: `${libraries.join('; ')} · ${units.length ? units.join(', ') : 'no SEUS task'}${std}`, units, subset };
}

/**
 * Ranks runs by SEUS (highest first; runs without a SEUS last) within tables of runs of the same coverage, and sweeps
 * the penalty weights (each setting's rank correlation within each table; the lowest over the tables).
 */
export function compareRuns(runs: readonly RunResults[], lambda = 0.5, gamma = 0.5): Comparison {
  const scored = runs.map((r) => ({ r, seus: seusAt(r.seus.components, lambda, gamma), coverage: runCoverage(r) }));
  const best = scored.map((_, i) => i).sort((a, b) => (scored[b]!.seus ?? -Infinity) - (scored[a]!.seus ?? -Infinity) || a - b);
  const tableOf = new Map<string, number>();
  for (const i of best) if (!tableOf.has(scored[i]!.coverage.text)) tableOf.set(scored[i]!.coverage.text, tableOf.size + 1);
  const table = (i: number) => tableOf.get(scored[i]!.coverage.text)!;
  const order = [...best].sort((a, b) => table(a) - table(b));
  const rankInTable = new Map<number, number>();
  const leaderboard: LeaderboardRow[] = order.map((i) => {
    const { r, seus, coverage } = scored[i]!;
    const k = (rankInTable.get(table(i)) ?? 0) + 1;
    rankInTable.set(table(i), k);
    const h = r.seus.headline;
    const sameWeights = r.seus.lambda === lambda && r.seus.gamma === gamma;
    return {
      rank: k,
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
      table: table(i),
      coverage: coverage.text,
      subset: coverage.subset,
    };
  });
  const ranked = order.map((i) => runs[i]!);
  const tableOfRanked = order.map(table);
  const reference = ranked.map((r) => seusAt(r.seus.components, lambda, gamma));
  const tableNumbers = [...tableOf.values()];
  const sweep: SweepSetting[] = SWEEP_GRID.flatMap((l) =>
    SWEEP_GRID.map((g) => {
      const values = ranked.map((r) => seusAt(r.seus.components, l, g));
      const rhos: number[] = [];
      for (const t of tableNumbers) {
        const at = tableOfRanked.map((x, j) => (x === t ? j : -1)).filter((j) => j >= 0);
        const ref = at.map((j) => reference[j] ?? null);
        const now = at.map((j) => values[j] ?? null);
        const rho = at.length >= 2 && ref.every((x) => x !== null) && now.every((x) => x !== null) ? spearman(ref as number[], now as number[]) : null;
        if (rho !== null) rhos.push(rho);
      }
      return { lambda: l, gamma: g, seus: values, spearman: rhos.length ? Math.min(...rhos) : null };
    }),
  );
  const rhos = sweep.map((s) => s.spearman).filter((x): x is number => x !== null);
  const tables = [...tableOf.entries()].map(([coverage, t]) => ({ table: t, coverage, runs: tableOfRanked.filter((x) => x === t).length }));
  return { schema: 'anachron-bench-comparison/1', lambda, gamma, leaderboard, tables, sweep, minSpearman: rhos.length ? Math.min(...rhos) : null };
}
