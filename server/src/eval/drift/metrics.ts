// The drift suite's statistics (quantum-api-drift §2.6–2.9, generalised): Pass@k with the unbiased estimator, Wilson
// score intervals, the drift matrix D[s][t] with version fidelity, forward and backward compatibility and forward
// drops, the error taxonomy, Pass@1 per task category (Table 5) and repair success per target version and per round.
// Pure: plain execution facts in, plain figures out; no I/O.
import { compareVersions } from '../../core/versions.js';
import { seedFor } from '../../core/random.js';
import { clusteredSize, type TaskCounts } from './clustered.js';

export type Outcome = 'pass' | 'soft-fail' | 'hard-fail' | 'timeout';
export const OUTCOMES: readonly Outcome[] = ['pass', 'soft-fail', 'hard-fail', 'timeout'];

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

// ---- Pass@k ---------------------------------------------------------------------------------------------------------

/**
 * The unbiased estimator of Pass@k for one prompt with n samples of which c pass: 1 − C(n−c, k) / C(n, k), written
 * as the product 1 − ∏_{i=n−c+1}^{n} (1 − k/i) (Chen et al. 2021), which never forms a binomial coefficient and so
 * stays exact for any n. Throws unless 0 ≤ c ≤ n and 1 ≤ k ≤ n.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k)) throw new RangeError('pass@k takes integers');
  if (n < 1 || c < 0 || c > n) throw new RangeError(`pass@k needs 0 ≤ c ≤ n and n ≥ 1 (n = ${n}, c = ${c})`);
  if (k < 1 || k > n) throw new RangeError(`pass@k needs 1 ≤ k ≤ n (n = ${n}, k = ${k})`);
  if (n - c < k) return 1;
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - k / i;
  return 1 - fail;
}

// ---- proportions with Wilson intervals ------------------------------------------------------------------------------

/**
 * The Wilson score interval of a proportion: successes out of n (successes may be fractional, e.g. Pass@k × prompts),
 * at confidence z (default 95%). Null for n = 0. Bounds are clamped to [0, 1].
 */
export function wilsonInterval(successes: number, n: number, z = Z95): [number, number] | null {
  if (!(n > 0)) return null;
  if (successes < 0 || successes > n) throw new RangeError(`wilson: successes ${successes} outside 0..${n}`);
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export interface Proportion {
  successes: number;
  n: number;
  /** successes / n; null for n = 0. */
  value: number | null;
  /** Wilson 95% score interval; null for n = 0. */
  ci: [number, number] | null;
}

export function proportion(successes: number, n: number): Proportion {
  return { successes, n, value: n > 0 ? successes / n : null, ci: wilsonInterval(successes, n) };
}

/**
 * A 95% interval for the difference b − a of two proportions: Newcombe's hybrid score interval (1998, method 10),
 * built from each proportion's Wilson interval, so that it behaves near 0 and 1 as they do. It treats the two as
 * independent; for paired samples (the grounded arm's twins) that errs on the wide side. Null when either is empty.
 */
export function differenceInterval(a: Proportion, b: Proportion): [number, number] | null {
  if (a.value === null || b.value === null || !a.ci || !b.ci) return null;
  const d = b.value - a.value;
  const lower = d - Math.sqrt((b.value - b.ci[0]) ** 2 + (a.ci[1] - a.value) ** 2);
  const upper = d + Math.sqrt((b.ci[1] - b.value) ** 2 + (a.value - a.ci[0]) ** 2);
  return [Math.max(-1, lower), Math.min(1, upper)];
}

// ---- execution facts ------------------------------------------------------------------------------------------------

/** One execution of a generated sample in one environment (what every figure is computed from). */
export interface ExecutionFact {
  /** The generated sample (one of the n samples of a prompt). */
  sampleId: string;
  library: string;
  taskId: string;
  category: string;
  /** The version the sample was prompted for (s). */
  prompted: string;
  /** The version of the environment it ran in (t). */
  environment: string;
  outcome: Outcome;
  /** The exception's type for hard fails (ImportError, AttributeError, …); null otherwise. */
  errorType: string | null;
  /** Passes only: the class of a warning other than DeprecationWarning the library raised (FutureWarning,
   *  PendingDeprecationWarning, numpy's VisibleDeprecationWarning, …); absent when none (dataset.ts otherWarningOf). */
  warning?: string;
  /** Set on the grounded arm's executions only (drift/grounding.ts); absent: the plain arm. */
  arm?: 'grounded';
  /** Grounded executions: whether the task's code at the prompted version differs from its newest (null: unknown). */
  drifted?: boolean | null;
}

/** How a sample counts as passing: strictly (paper: warnings are drift), or also when it only warns. */
export type PassRule = 'strict' | 'lenient';

export function passes(outcome: Outcome, rule: PassRule = 'strict'): boolean {
  return outcome === 'pass' || (rule === 'lenient' && outcome === 'soft-fail');
}

function sortedVersions(versions: Iterable<string>): string[] {
  return [...new Set(versions)].sort(compareVersions);
}

function group<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

function passProportion(facts: readonly ExecutionFact[], rule: PassRule): Proportion {
  let s = 0;
  for (const f of facts) if (passes(f.outcome, rule)) s++;
  return proportion(s, facts.length);
}

// ---- Pass@k over prompts --------------------------------------------------------------------------------------------

export interface PassAtKFigure {
  k: number;
  /** Macro average over the prompts with at least k samples; null when none has. */
  value: number | null;
  /** Prompts averaged (those with n ≥ k). */
  prompts: number;
  /** Wilson 95% interval with p̂ = value and n = prompts (as the paper reports every proportion). */
  ci: [number, number] | null;
}

/**
 * Pass@k for k = 1..kMax over the prompts in `facts` (a prompt: library, task, prompted version; each prompt's n
 * samples in one environment), macro-averaged (paper eq. 2). A prompt with fewer than k samples (model failures)
 * is left out of Pass@k for that k.
 */
export function passAtKOver(facts: readonly ExecutionFact[], kMax: number, rule: PassRule = 'strict'): PassAtKFigure[] {
  const prompts = [...group(facts, (f) => `${f.library}\u0000${f.taskId}\u0000${f.prompted}\u0000${f.environment}`).values()].map((list) => ({
    n: list.length,
    c: list.filter((f) => passes(f.outcome, rule)).length,
  }));
  const out: PassAtKFigure[] = [];
  for (let k = 1; k <= kMax; k++) {
    const usable = prompts.filter((p) => p.n >= k);
    if (usable.length === 0) {
      out.push({ k, value: null, prompts: 0, ci: null });
      continue;
    }
    const value = usable.reduce((s, p) => s + passAtK(p.n, p.c, k), 0) / usable.length;
    out.push({ k, value, prompts: usable.length, ci: wilsonInterval(value * usable.length, usable.length) });
  }
  return out;
}

// ---- the drift matrix -----------------------------------------------------------------------------------------------

export interface DriftCell {
  prompted: string;
  environment: string;
  /** Pass@1: the share of executions that pass (every sample counts once). */
  pass: Proportion;
  /** Pass@k for k = 1..samples per prompt. */
  passAtK: PassAtKFigure[];
}

export interface ForwardDrop {
  prompted: string;
  environment: string;
  /** D[s][s] − D[s][t]: positive when the code breaks in the newer version, negative when it runs better there. */
  drop: number;
}

/**
 * A mean over drift-matrix cells as the paper averages them: every measured cell weighs the same, whatever its number
 * of executions. The pooled rate (every execution once, with its Wilson interval) is kept beside it, named so; the two
 * differ when the cells' sizes differ (samples the model failed to give, tasks missing at a version).
 */
export interface CellMean {
  /** The mean of the cells' Pass@1; null when no cell is measured. */
  value: number | null;
  /** Cells averaged. */
  cells: number;
  /** The lowest and highest cell (the paper's range in parentheses, Table 6); null when no cell is measured. */
  range: [number, number] | null;
  /** Pooled over the cells' executions. */
  pooled: Proportion;
  /**
   * The mean's Wilson 95% interval with each task's executions one cluster (clustered.ts: at the effective size of a
   * bootstrap over tasks); null without per-task counts or executions.
   */
  byTask: { tasks: number; effectiveN: number; ci: [number, number] | null } | null;
}

/**
 * The mean of `cells`' Pass@1 (cells with no execution are skipped), their pooled rate and, given each task's
 * executions in the same cells (`tasks`), the interval clustered by task (bootstrap seeded by `seed`).
 */
export function cellMean(cells: readonly (DriftCell | null | undefined)[], tasks: readonly TaskCounts[] = [], seed = 0): CellMean {
  const measured = cells.filter((c): c is DriftCell => !!c && c.pass.value !== null);
  const values = measured.map((c) => c.pass.value!);
  const successes = measured.reduce((s, c) => s + c.pass.successes, 0);
  const n = measured.reduce((s, c) => s + c.pass.n, 0);
  const value = values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
  const size = value === null ? null : clusteredSize(tasks, seed);
  return {
    value,
    cells: values.length,
    range: values.length ? [Math.min(...values), Math.max(...values)] : null,
    pooled: proportion(successes, n),
    byTask: size && value !== null ? { tasks: size.tasks, effectiveN: size.effectiveN, ci: wilsonInterval(value * size.effectiveN, size.effectiveN) } : null,
  };
}

/** Each task's executions and passes in each of `cells` (prompted, environment), in that order. */
function taskCounts(facts: readonly ExecutionFact[], cells: readonly [string, string][], rule: PassRule): TaskCounts[] {
  const index = new Map(cells.map(([s, t], i) => [`${s}\u0000${t}`, i] as const));
  const out = new Map<string, { successes: number[]; counts: number[] }>();
  for (const f of facts) {
    const i = index.get(`${f.prompted}\u0000${f.environment}`);
    if (i === undefined) continue;
    let t = out.get(f.taskId);
    if (!t) out.set(f.taskId, (t = { successes: cells.map(() => 0), counts: cells.map(() => 0) }));
    t.counts[i]!++;
    if (passes(f.outcome, rule)) t.successes[i]!++;
  }
  return [...out.values()];
}

export interface DriftMatrix {
  library: string;
  /** Ascending; rows (prompted) and columns (environments) both follow it. */
  versions: string[];
  /** cells[i][j]: prompted versions[i], executed in versions[j]; null where nothing ran. */
  cells: (DriftCell | null)[][];
  /** The diagonal, per version: version fidelity. */
  fidelity: { version: string; pass: Proportion; passAtK: PassAtKFigure[] }[];
  /** Mean version fidelity: the mean of the diagonal cells' Pass@1 (paper §4, Tables 6 and 8), pooled beside it. */
  meanFidelity: CellMean;
  /** Mean forward and backward compatibility: the mean of the cells with t newer than s, and with t older (Table 9). */
  forward: CellMean;
  backward: CellMean;
  /** Every s < t with both cells measured. */
  forwardDrops: ForwardDrop[];
  /** The largest of forwardDrops (null when there is none). */
  largestForwardDrop: ForwardDrop | null;
  /** D[s][s] − D[s][newest] for each s older than the newest version (the paper's Figure 3). */
  dropToNewest: ForwardDrop[];
}

/** The drift matrix of one library from its execution facts; `versions` fixes the order (default: those seen). */
export function driftMatrix(library: string, facts: readonly ExecutionFact[], options: { versions?: readonly string[]; kMax?: number; rule?: PassRule } = {}): DriftMatrix {
  const rule = options.rule ?? 'strict';
  const mine = facts.filter((f) => f.library === library);
  const versions = options.versions ? sortedVersions(options.versions) : sortedVersions(mine.flatMap((f) => [f.prompted, f.environment]));
  const kMax = options.kMax ?? Math.max(1, ...[...group(mine, (f) => `${f.taskId}\u0000${f.prompted}\u0000${f.environment}`).values()].map((l) => l.length));
  const byCell = group(mine, (f) => `${f.prompted}\u0000${f.environment}`);
  const cells = versions.map((s) =>
    versions.map((t): DriftCell | null => {
      const list = byCell.get(`${s}\u0000${t}`);
      if (!list || list.length === 0) return null;
      return { prompted: s, environment: t, pass: passProportion(list, rule), passAtK: passAtKOver(list, kMax, rule) };
    }),
  );
  const diagonal = versions.map((v, i) => ({ v, cell: cells[i]![i]! })).filter((d) => d.cell !== null);
  const mean = (scope: string, pick: (i: number, j: number) => boolean): CellMean => {
    const picked = cells.flatMap((row, i) => row.filter((c, j): c is DriftCell => c !== null && pick(i, j)));
    const tasks = taskCounts(mine, picked.map((c) => [c.prompted, c.environment]), rule);
    return cellMean(picked, tasks, seedFor(0, `drift-by-task\u0000${library}\u0000${scope}\u0000${rule}`));
  };
  const forwardDrops: ForwardDrop[] = [];
  versions.forEach((s, i) => {
    const own = cells[i]![i]?.pass.value;
    if (own === null || own === undefined) return;
    for (let j = i + 1; j < versions.length; j++) {
      const other = cells[i]![j]?.pass.value;
      if (other === null || other === undefined) continue;
      forwardDrops.push({ prompted: s, environment: versions[j]!, drop: own - other });
    }
  });
  const newest = versions[versions.length - 1];
  return {
    library,
    versions,
    cells,
    fidelity: diagonal.map((d) => ({ version: d.v, pass: d.cell.pass, passAtK: d.cell.passAtK })),
    meanFidelity: mean('fidelity', (i, j) => i === j),
    forward: mean('forward', (i, j) => j > i),
    backward: mean('backward', (i, j) => j < i),
    forwardDrops,
    largestForwardDrop: forwardDrops.reduce<ForwardDrop | null>((best, d) => (best === null || d.drop > best.drop ? d : best), null),
    dropToNewest: forwardDrops.filter((d) => d.environment === newest),
  };
}

// ---- error taxonomy -------------------------------------------------------------------------------------------------

/** The taxonomy's label of a pass with another warning class than DeprecationWarning from the library. */
export const OTHER_WARNING_LABEL = 'Pass, other warning';

/**
 * An execution's taxonomy label: Pass, "Pass, other warning (CLASS)" (a pass whose library raised a warning that is
 * not a DeprecationWarning: a category of its own, not a soft fail), Soft-fail (a DeprecationWarning), Timeout, or the
 * exception type of a hard fail.
 */
export function taxonomyLabel(fact: Pick<ExecutionFact, 'outcome' | 'errorType' | 'warning'>): string {
  switch (fact.outcome) {
    case 'pass':
      return fact.warning ? `${OTHER_WARNING_LABEL} (${fact.warning})` : 'Pass';
    case 'soft-fail':
      return 'Soft-fail';
    case 'timeout':
      return 'Timeout';
    case 'hard-fail':
      return fact.errorType && fact.errorType.trim() ? fact.errorType.trim() : 'Hard-fail (unknown)';
  }
}

export interface TaxonomyRow {
  /** What the row is about: "all", a prompted version, a category or an environment. */
  key: string;
  n: number;
  /** Counts per label. */
  counts: Record<string, number>;
  /** Share per label with its Wilson interval. */
  shares: Record<string, Proportion>;
  /** Outcome counts (pass, soft-fail, hard-fail, timeout). */
  outcomes: Record<Outcome, number>;
}

function taxonomyRow(key: string, facts: readonly ExecutionFact[]): TaxonomyRow {
  const counts: Record<string, number> = {};
  const outcomes: Record<Outcome, number> = { pass: 0, 'soft-fail': 0, 'hard-fail': 0, timeout: 0 };
  for (const f of facts) {
    const label = taxonomyLabel(f);
    counts[label] = (counts[label] ?? 0) + 1;
    outcomes[f.outcome]++;
  }
  const sorted = Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
  return { key, n: facts.length, counts: sorted, shares: Object.fromEntries(Object.entries(sorted).map(([k, c]) => [k, proportion(c, facts.length)])), outcomes };
}

export interface Taxonomy {
  overall: TaxonomyRow;
  byPrompted: TaxonomyRow[];
  byEnvironment: TaxonomyRow[];
  byCategory: TaxonomyRow[];
}

export function errorTaxonomy(facts: readonly ExecutionFact[]): Taxonomy {
  const rows = (key: (f: ExecutionFact) => string, order: (a: string, b: string) => number) =>
    [...group(facts, key).entries()].sort((a, b) => order(a[0], b[0])).map(([k, list]) => taxonomyRow(k, list));
  const alpha = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    overall: taxonomyRow('all', facts),
    byPrompted: rows((f) => f.prompted, compareVersions),
    byEnvironment: rows((f) => f.environment, compareVersions),
    byCategory: rows((f) => f.category, alpha),
  };
}

// ---- categories (Table 5) -------------------------------------------------------------------------------------------

export interface CategoryRow {
  category: string;
  tasks: number;
  /** Pass@1 over every execution of the category's samples (all prompted versions, all environments). */
  pass: Proportion;
  /** The lowest and highest per-task Pass@1 (pooled over versions and environments). */
  minTask: number | null;
  maxTask: number | null;
  /** Version fidelity per version (prompted = executed). */
  fidelity: { version: string; pass: Proportion }[];
}

export function categoryTable(facts: readonly ExecutionFact[], rule: PassRule = 'strict'): CategoryRow[] {
  return [...group(facts, (f) => f.category).entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([category, list]) => {
      const perTask = [...group(list, (f) => `${f.library}\u0000${f.taskId}`).values()].map((l) => passProportion(l, rule).value!);
      const diagonal = list.filter((f) => f.prompted === f.environment);
      return {
        category,
        tasks: perTask.length,
        pass: passProportion(list, rule),
        minTask: perTask.length ? Math.min(...perTask) : null,
        maxTask: perTask.length ? Math.max(...perTask) : null,
        fidelity: [...group(diagonal, (f) => f.prompted).entries()].sort((a, b) => compareVersions(a[0], b[0])).map(([version, l]) => ({ version, pass: passProportion(l, rule) })),
      };
    });
}

// ---- repair ---------------------------------------------------------------------------------------------------------

/** One repair case: a sample that passed on its prompted version and failed on a newer target. */
export interface RepairCase {
  library: string;
  sampleId: string;
  taskId: string;
  category: string;
  prompted: string;
  target: string;
  /** The executions of the repaired code in the target environment, round 1 first, up to the first pass. */
  rounds: { round: number; outcome: Outcome; errorType: string | null }[];
  /** The model failed to answer at some round (infrastructure, not skill): the case stops there. */
  modelFailed: boolean;
  /** Repairs of the grounded arm's samples; absent: the plain arm. */
  arm?: 'grounded';
}

export interface RepairFigure {
  /** "all" or a target version. */
  target: string;
  /** Cases whose first repair was executed (model failures before any execution are left out, as F.5 does). */
  attempts: number;
  /** Cumulative success by round: byRound[r-1] = cases repaired within r rounds. */
  byRound: { round: number; repaired: Proportion }[];
  /** Cases where the model failed to answer. */
  modelFailures: number;
}

/** Repair success per target version (and overall), cumulative per round up to `rounds`. */
export function repairFigures(cases: readonly RepairCase[], rounds: number, rule: PassRule = 'strict'): RepairFigure[] {
  const figure = (target: string, list: readonly RepairCase[]): RepairFigure => {
    const attempted = list.filter((c) => c.rounds.length > 0);
    return {
      target,
      attempts: attempted.length,
      byRound: Array.from({ length: rounds }, (_, i) => {
        const r = i + 1;
        const repaired = attempted.filter((c) => c.rounds.some((x) => x.round <= r && passes(x.outcome, rule))).length;
        return { round: r, repaired: proportion(repaired, attempted.length) };
      }),
      modelFailures: list.filter((c) => c.modelFailed).length,
    };
  };
  const byTarget = [...group(cases, (c) => c.target).entries()].sort((a, b) => compareVersions(a[0], b[0]));
  return [figure('all', cases), ...byTarget.map(([t, list]) => figure(t, list))];
}
