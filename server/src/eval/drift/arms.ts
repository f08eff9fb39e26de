// The model with and without anachron in the drift suite: each execution of a grounded sample against the execution
// of its plain twin in the same environment (grounding.ts), pooled over scopes of the drift matrix — the diagonal
// (version fidelity: the documentation is about the prompted version), split into the prompts whose task drifted
// from its newest release and the others, each prompted version, and the off-diagonal cells (forward and backward) —
// with each arm's Pass@1 and Wilson interval, the difference with Newcombe's interval, the pairs grounding turned to
// passing or to failing, and Pass@k per arm. Pure: execution facts in, rows out.
import { plainIdOf } from '../runs/arms.js';
import { compareVersions } from '../../core/versions.js';
import { differenceInterval, passAtKOver, passes, proportion, type ExecutionFact, type PassAtKFigure, type Proportion } from './metrics.js';

/** The cells a row pools. */
export type DriftArmScope = 'fidelity' | 'fidelity, drifted prompts' | 'fidelity, other prompts' | 'fidelity at version' | 'off-diagonal' | 'forward' | 'backward';

export interface DriftArmRow {
  /** A library, or "all" (pooled) when the run has several. */
  library: string;
  scope: DriftArmScope;
  /** The prompted version, for "fidelity at version". */
  version: string | null;
  /** Executions in both arms: a plain sample and its grounded twin, run in the same environment. */
  pairs: number;
  plain: Proportion;
  grounded: Proportion;
  /** grounded − plain in Pass@1, with Newcombe's 95% interval. */
  delta: { value: number | null; ci: [number, number] | null };
  /** Pairs that pass grounded and not plain, and the reverse. */
  improved: number;
  worsened: number;
  /** Pass@k for k = 1..n per arm over the row's pairs (per prompt: library, task, prompted version, environment). */
  passAtK: { plain: PassAtKFigure[]; grounded: PassAtKFigure[] };
}

interface Pair {
  plain: ExecutionFact;
  grounded: ExecutionFact;
}

export const ALL_LIBRARIES = 'all';

/** The pairs of executions: each grounded execution with its plain twin's in the same environment. */
export function pairExecutions(facts: readonly ExecutionFact[]): Pair[] {
  const plain = new Map<string, ExecutionFact>();
  for (const f of facts) if (f.arm !== 'grounded') plain.set(`${f.sampleId}\u0000${f.environment}`, f);
  const pairs: Pair[] = [];
  for (const g of facts) {
    if (g.arm !== 'grounded') continue;
    const p = plain.get(`${plainIdOf(g.sampleId)}\u0000${g.environment}`);
    if (p) pairs.push({ plain: p, grounded: g });
  }
  return pairs;
}

function row(library: string, scope: DriftArmScope, version: string | null, pairs: readonly Pair[], kMax: number): DriftArmRow {
  const plain = proportion(pairs.filter((x) => passes(x.plain.outcome)).length, pairs.length);
  const grounded = proportion(pairs.filter((x) => passes(x.grounded.outcome)).length, pairs.length);
  return {
    library,
    scope,
    version,
    pairs: pairs.length,
    plain,
    grounded,
    delta: { value: plain.value === null || grounded.value === null ? null : grounded.value - plain.value, ci: differenceInterval(plain, grounded) },
    improved: pairs.filter((x) => passes(x.grounded.outcome) && !passes(x.plain.outcome)).length,
    worsened: pairs.filter((x) => passes(x.plain.outcome) && !passes(x.grounded.outcome)).length,
    passAtK: { plain: passAtKOver(pairs.map((x) => x.plain), kMax), grounded: passAtKOver(pairs.map((x) => x.grounded), kMax) },
  };
}

/** Rows for every library with pairs (and "all" when there are several), every scope that has pairs. */
export function compareDriftArms(facts: readonly ExecutionFact[], kMax: number): DriftArmRow[] {
  const pairs = pairExecutions(facts);
  const libraries = [...new Set(pairs.map((x) => x.plain.library))];
  const keys = libraries.length > 1 ? [...libraries, ALL_LIBRARIES] : libraries;
  const rows: DriftArmRow[] = [];
  for (const library of keys) {
    const mine = pairs.filter((x) => library === ALL_LIBRARIES || x.plain.library === library);
    const diagonal = mine.filter((x) => x.plain.prompted === x.plain.environment);
    const direction = (x: Pair) => compareVersions(x.plain.environment, x.plain.prompted);
    const scopes: [DriftArmScope, string | null, Pair[]][] = [
      ['fidelity', null, diagonal],
      ['fidelity, drifted prompts', null, diagonal.filter((x) => x.grounded.drifted === true)],
      ['fidelity, other prompts', null, diagonal.filter((x) => x.grounded.drifted === false)],
      ...(library === ALL_LIBRARIES
        ? []
        : [...new Set(diagonal.map((x) => x.plain.prompted))].sort(compareVersions).map((v): [DriftArmScope, string | null, Pair[]] => ['fidelity at version', v, diagonal.filter((x) => x.plain.prompted === v)])),
      ['off-diagonal', null, mine.filter((x) => direction(x) !== 0)],
      ['forward', null, mine.filter((x) => direction(x) > 0)],
      ['backward', null, mine.filter((x) => direction(x) < 0)],
    ];
    for (const [scope, version, list] of scopes) if (list.length > 0) rows.push(row(library, scope, version, list, kMax));
  }
  return rows;
}
