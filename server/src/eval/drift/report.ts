// A drift run's results (results.json) from its facts alone: per library the drift matrix (strict and lenient), the
// error taxonomy, Table 5 by category and repair success per target and round; across runs, the rows the comparison
// charts and tables read. Pure: facts in, plain JSON out (drift/report-files.ts reads the database and writes files).
import type { Arm } from '../runs/arms.js';
import { compareDriftArms, type DriftArmRow } from './arms.js';
import type { DriftFacts, GenerationCounts } from './dataset.js';
import { categoryTable, driftMatrix, errorTaxonomy, repairFigures, type CategoryRow, type DriftMatrix, type ExecutionFact, type RepairCase, type RepairFigure, type Taxonomy } from './metrics.js';

export const DRIFT_RESULTS_SCHEMA = 'anachron-drift-results/1';

export interface DriftRunInfo {
  label: string;
  name: string | null;
  identity: string;
  /** The provider that answered (its id), else the config's model. */
  model: string;
  shard: string | null;
  mergedFrom: string[] | null;
}

export interface DriftRunSettings {
  samplesPerPrompt: number;
  timeoutMs: number;
  repairRounds: number;
  migrationNotes: boolean;
  temperature: number;
  maxTokens: number;
  /** The arms the run asked (config.arms); absent for plain runs. */
  arms?: Arm[];
}

export interface LibraryResults {
  library: string;
  versions: string[];
  /** Pass = the outcome "pass" (a soft fail is warning-level drift, as in the paper). */
  matrix: DriftMatrix;
  /** The same with soft fails counted as passing. */
  lenient: DriftMatrix;
  taxonomy: Taxonomy;
  categories: CategoryRow[];
  repair: RepairFigure[];
  executions: number;
}

/** The model with and without anachron (grounding.ts, arms.ts): present when a run asked both arms. */
export interface DriftArmsResult {
  arms: ['plain', 'grounded'];
  /** Generation samples per arm; `ungrounded`: plain samples without a twin (nothing to look up for their task). */
  counts: { plain: GenerationCounts; grounded: GenerationCounts; ungrounded: number };
  /** The grounded arm's figures per library, laid out as `results` (which holds the plain arm's). */
  grounded: LibraryResults[];
  /** Plain against grounded over the executions run in both, per library and scope. */
  rows: DriftArmRow[];
}

export interface DriftResults {
  schema: typeof DRIFT_RESULTS_SCHEMA;
  suite: 'drift';
  run: DriftRunInfo;
  settings: DriftRunSettings;
  libraries: string[];
  /** The whole run (both arms, when it has two). */
  counts: DriftFacts['generations'] & { executions: number; repairCases: number; repairAttempts: number };
  /** Per library; with arms, the plain arm's (the grounded arm's only when the run asked no plain one). */
  results: LibraryResults[];
  arms?: DriftArmsResult;
}

function libraryResults(library: string, executions: readonly ExecutionFact[], repairs: readonly RepairCase[], versions: readonly string[] | undefined, settings: DriftRunSettings): LibraryResults {
  const mine = executions.filter((f) => f.library === library);
  const kMax = settings.samplesPerPrompt;
  const matrix = driftMatrix(library, mine, { ...(versions ? { versions } : {}), kMax });
  return {
    library,
    versions: matrix.versions,
    matrix,
    lenient: driftMatrix(library, mine, { ...(versions ? { versions } : {}), kMax, rule: 'lenient' }),
    taxonomy: errorTaxonomy(mine),
    categories: categoryTable(mine),
    repair: repairFigures(repairs.filter((r) => r.library === library), settings.repairRounds),
    executions: mine.length,
  };
}

export function aggregateDrift(facts: DriftFacts, info: DriftRunInfo, settings: DriftRunSettings, versions: Readonly<Record<string, readonly string[]>>): DriftResults {
  const libraries = [...new Set([...Object.keys(versions), ...facts.executions.map((f) => f.library)])];
  const vs = (library: string) => (versions[library] ? [...versions[library]!] : undefined);
  const groundedOnly = settings.arms !== undefined && !settings.arms.includes('plain');
  const ofArm = (grounded: boolean) => ({
    executions: facts.executions.filter((f) => (f.arm === 'grounded') === grounded),
    repairs: facts.repairs.filter((r) => (r.arm === 'grounded') === grounded),
  });
  const primary = ofArm(groundedOnly);
  const results = libraries.map((library) => libraryResults(library, primary.executions, primary.repairs, vs(library), settings));
  const out: DriftResults = {
    schema: DRIFT_RESULTS_SCHEMA,
    suite: 'drift',
    run: info,
    settings,
    libraries,
    counts: {
      ...facts.generations,
      executions: facts.executions.length,
      repairCases: facts.repairs.length,
      repairAttempts: facts.repairs.reduce((s, r) => s + r.rounds.length, 0),
    },
    results,
  };
  if (facts.arms && !groundedOnly) {
    const grounded = ofArm(true);
    out.arms = {
      arms: ['plain', 'grounded'],
      counts: facts.arms,
      grounded: libraries.map((library) => libraryResults(library, grounded.executions, grounded.repairs, vs(library), settings)),
      rows: compareDriftArms(facts.executions, settings.samplesPerPrompt),
    };
  }
  return out;
}

/** The results as if the run had asked one arm: the grounded arm's figures in `results`, labelled so (charts, tables). */
export function armView(results: DriftResults, arm: Arm): DriftResults {
  const { arms: _arms, ...rest } = results;
  const label = `${results.run.label} · ${arm}`;
  return { ...rest, run: { ...results.run, label }, results: arm === 'grounded' && results.arms ? results.arms.grounded : results.results };
}

/** The run's headline per library: mean fidelity, forward compatibility, the largest forward drop, repair within 1 round and within all. */
export interface DriftHeadline {
  run: string;
  model: string;
  library: string;
  /** Mean version fidelity: the mean of the diagonal cells' Pass@1 (the paper's average), and their range. */
  fidelity: number | null;
  fidelityRange: [number, number] | null;
  /** The diagonal's executions pooled, with its Wilson interval (a different figure when the cells' sizes differ). */
  fidelityPooled: number | null;
  fidelityPooledCi: [number, number] | null;
  /** Mean fidelity's interval with each task one cluster (CellMean.byTask). */
  fidelityByTaskCi: [number, number] | null;
  /** Means of the off-diagonal cells with t newer than s (forward) and older (backward); pooled beside them. */
  forward: number | null;
  backward: number | null;
  forwardPooled: number | null;
  backwardPooled: number | null;
  largestDrop: { prompted: string; environment: string; drop: number } | null;
  passAt1: number | null;
  passAtK: number | null;
  k: number;
  repairSingleShot: number | null;
  repairAll: number | null;
  repairAttempts: number;
}

export function headlines(results: DriftResults): DriftHeadline[] {
  return results.results.map((r) => {
    const all = r.repair.find((f) => f.target === 'all');
    const k = results.settings.samplesPerPrompt;
    // Pass@1 and Pass@k pooled over the diagonal: the mean of the per-version figures, weighted by prompts.
    let p1 = 0;
    let pk = 0;
    let n1 = 0;
    let nk = 0;
    for (const f of r.matrix.fidelity) {
      const a = f.passAtK[0];
      const b = f.passAtK[k - 1];
      if (a?.value !== null && a?.value !== undefined) {
        p1 += a.value * a.prompts;
        n1 += a.prompts;
      }
      if (b?.value !== null && b?.value !== undefined) {
        pk += b.value * b.prompts;
        nk += b.prompts;
      }
    }
    return {
      run: results.run.label,
      model: results.run.model,
      library: r.library,
      fidelity: r.matrix.meanFidelity.value,
      fidelityRange: r.matrix.meanFidelity.range,
      fidelityPooled: r.matrix.meanFidelity.pooled.value,
      fidelityPooledCi: r.matrix.meanFidelity.pooled.ci,
      fidelityByTaskCi: r.matrix.meanFidelity.byTask?.ci ?? null,
      forward: r.matrix.forward.value,
      backward: r.matrix.backward.value,
      forwardPooled: r.matrix.forward.pooled.value,
      backwardPooled: r.matrix.backward.pooled.value,
      largestDrop: r.matrix.largestForwardDrop,
      passAt1: n1 ? p1 / n1 : null,
      passAtK: nk ? pk / nk : null,
      k,
      repairSingleShot: all?.byRound[0]?.repaired.value ?? null,
      repairAll: all?.byRound[all.byRound.length - 1]?.repaired.value ?? null,
      repairAttempts: all?.attempts ?? 0,
    };
  });
}

/** The headlines of a run, one per arm when it has two (labelled "RUN · plain", "RUN · grounded"). */
export function allHeadlines(results: DriftResults): DriftHeadline[] {
  return results.arms ? [...headlines(armView(results, 'plain')), ...headlines(armView(results, 'grounded'))] : headlines(results);
}
