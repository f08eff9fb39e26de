// Plain data of benchmark scoring: what one scored sample says (a line of predictions.jsonl) and what a run's results
// are (results.json). Everything here is JSON; results can be recomputed from the prediction records alone.
import type { ExtractedParameter } from '../../python-text/signature.js';
import type { BenchLevel, BenchTask } from '../prompt-contract.js';
import type { ChatMessage } from '../../models/provider.js';

export type { ExtractedParameter };

/**
 * What one sample is scored as: a task, and for API-C its level. Each unit has one primary metric: exact match for
 * API-I and API-C@L0–L2, parameter recall for API-C@L3, parameter F1 for SR.
 */
export type ScoringUnit = 'API-C@L0' | 'API-C@L1' | 'API-C@L2' | 'API-C@L3' | 'API-I' | 'SR';
export const SCORING_UNITS: readonly ScoringUnit[] = ['API-C@L0', 'API-C@L1', 'API-C@L2', 'API-C@L3', 'API-I', 'SR'];

/** The four task-level metrics SEUS averages (paper §2.4): API-C@L2 exact, API-C@L3 recall, API-I exact, SR F1. */
export const SEUS_UNITS: readonly ScoringUnit[] = ['API-C@L2', 'API-C@L3', 'API-I', 'SR'];

/** The units Figure 2 averages (API-C@L1, API-I, SR). */
export const PROGRESSION_UNITS: readonly ScoringUnit[] = ['API-C@L1', 'API-I', 'SR'];

export type MetricName = 'exact' | 'recall' | 'precision' | 'f1';

export const PRIMARY_METRIC: Record<ScoringUnit, MetricName> = {
  'API-C@L0': 'exact',
  'API-C@L1': 'exact',
  'API-C@L2': 'exact',
  'API-C@L3': 'recall',
  'API-I': 'exact',
  SR: 'f1',
};

/** Metrics recorded per unit (the primary one first). */
export const UNIT_METRICS: Record<ScoringUnit, readonly MetricName[]> = {
  'API-C@L0': ['exact'],
  'API-C@L1': ['exact'],
  'API-C@L2': ['exact'],
  'API-C@L3': ['recall', 'precision', 'f1', 'exact'],
  'API-I': ['exact'],
  SR: ['f1', 'precision', 'recall', 'exact'],
};

/** Which taxonomy a unit's anachronism rate (SEUS's A) is read from. */
export const ANACHRONISM_LEVEL: Record<ScoringUnit, 'api' | 'parameter'> = {
  'API-C@L0': 'api',
  'API-C@L1': 'api',
  'API-C@L2': 'api',
  'API-C@L3': 'parameter',
  'API-I': 'api',
  SR: 'parameter',
};

export function unitOf(task: BenchTask, level: BenchLevel | null): ScoringUnit {
  if (task === 'API-C') return `API-C@${level ?? 'L0'}` as ScoringUnit;
  return task;
}

export type Group = 'stable' | 'evolving';

/** API-level taxonomy (paper Table 4). */
export type ApiCategory = 'correct' | 'invalid' | 'anachronistic' | 'unknown';
export const API_CATEGORIES: readonly ApiCategory[] = ['correct', 'invalid', 'anachronistic', 'unknown'];
/** Parameter-level taxonomy (paper Table 4). */
export type ParameterCategory = 'correct' | 'anachronistic' | 'unknown';
export const PARAMETER_CATEGORIES: readonly ParameterCategory[] = ['correct', 'anachronistic', 'unknown'];

/** A parameter as scoring compares them: its name, `*name` for *args, `**name` for **kwargs, `#i` for an unmapped position. */
export type ParameterKey = string;


/** What extraction read from an answer. */
export type ExtractedPrediction =
  | { task: 'API-I'; name: string; api: string }
  | { task: 'SR'; name: string | null; parameters: ExtractedParameter[]; keys: ParameterKey[] }
  | {
      task: 'API-C';
      /** The call as extracted (the fill). */
      call: string;
      callee: string;
      /** The fully qualified API the callee resolves to in the snippet; null when it resolves to nothing known. */
      api: string | null;
      arguments: { kind: 'positional' | 'keyword' | 'star' | 'double-star'; name?: string; value: string }[];
      /** The parameters the arguments bind, mapped through the signature at the target version. */
      keys: ParameterKey[];
    };

/** Why a sample has no score: the model never answered (F.5), or no prediction could be extracted (Table 14). */
export interface Failure {
  stage: 'model' | 'extraction';
  /** model: the ModelError kind (timeout, rate-limited, …); extraction: empty, no-call, incomplete-call, not-identifier, no-parameter-list. */
  kind: string;
  message: string;
}

/** The ground truth as scoring reads it, whatever shape the builder wrote. */
export interface ExpectedAnswer {
  api: string;
  /** The API paths that count as correct (the API unless absent at the version, and its listed equivalents). */
  accepted: string[];
  /** SR: the signature's parameters; API-C: the parameters the masked call binds. Null when unknown. */
  keys: ParameterKey[] | null;
  /** API-C: the masked call's callee as written in the snippet, when known. */
  callee: string | null;
}

export interface SampleScores {
  exact?: number | null;
  recall?: number | null;
  precision?: number | null;
  f1?: number | null;
}

export interface ParameterVerdict {
  key: ParameterKey;
  category: ParameterCategory;
}

export interface SampleTaxonomy {
  /** API level: the predicted API's category (null: no matrix for the library, or nothing extracted). */
  api: ApiCategory | null;
  /** Parameter level (SR, API-C@L3): each predicted parameter's category; null when not classified. */
  parameters: ParameterVerdict[] | null;
}

/** One line of predictions.jsonl. */
export interface PredictionRecord {
  id: string;
  /** "grounded": the prompt held anachron's answer (runs/arms.ts); absent in records written before arms existed. */
  arm?: 'plain' | 'grounded';
  /** Position in the dataset. */
  ordinal: number;
  task: BenchTask;
  level: BenchLevel | null;
  unit: ScoringUnit;
  library: string;
  version: string;
  api: string;
  group: Group;
  status: 'answered' | 'failed' | 'pending';
  prompt: ChatMessage[];
  response: string | null;
  prediction: ExtractedPrediction | null;
  groundTruth: unknown;
  expected: ExpectedAnswer;
  failure: Failure | null;
  /** Every metric of the unit (null where it does not apply); absent for samples not scored (model failure, pending). */
  scores: SampleScores | null;
  /** The unit's primary metric, the value SEUS and the tables use; null when not scored. */
  score: number | null;
  taxonomy: SampleTaxonomy | null;
  /**
   * What a perfect model's answer (the ground truth written as an answer) earns on the primary metric: 1 for an
   * answerable question, 0 where no answer is correct (isAnswerable); null where the ground truth holds no answer to
   * write (and in records scored before the ceiling existed).
   */
  ceiling?: number | null;
}

/**
 * A question some answer gets right. API-I and API-C ask for an API: with none accepted at the version (an API-I
 * question at a cell where the API is absent and nothing took its place), no answer is correct, and the question is
 * left out of every score (issue 22, point 2). SR always has its signature.
 */
export function isAnswerable(record: Pick<PredictionRecord, 'task' | 'expected'>): boolean {
  return record.task === 'SR' || record.expected.accepted.length > 0;
}

export interface ScoringOptions {
  /** SEUS stability penalty weight (default 0.5). */
  lambda: number;
  /** SEUS anachronism penalty weight (default 0.5). */
  gamma: number;
  /** Bootstrap resamples for the 95% intervals (default 1000; 0 leaves them out). */
  bootstrap: number;
  /** Seed of the bootstrap (default 1). */
  seed: number;
  /** How SEUS's Std_v(E_v) is estimated (default 'paper'; see evolvingStdOf in seus.ts). */
  std: StdEstimator;
}

/** 'paper': population std of the per-version evolving means; 'bias-corrected': their sampling noise taken off. */
export type StdEstimator = 'paper' | 'bias-corrected';
export const STD_ESTIMATORS: readonly StdEstimator[] = ['paper', 'bias-corrected'];

export const DEFAULT_SCORING_OPTIONS: ScoringOptions = { lambda: 0.5, gamma: 0.5, bootstrap: 1000, seed: 1, std: 'paper' };

export const ALL = 'all';

/** A mean with its interval: one cell of Table 3 (library × unit × group, optionally one version). */
export interface MetricRow {
  library: string;
  unit: ScoringUnit;
  metric: MetricName;
  group: Group | typeof ALL;
  version: string | null;
  n: number;
  mean: number | null;
  /** 95% percentile-bootstrap interval; null when not computed (per-version rows, bootstrap 0, n = 0). */
  ci: [number, number] | null;
}

export interface ApiTaxonomyRow {
  library: string;
  unit: ScoringUnit;
  group: Group | typeof ALL;
  version: string | null;
  /** Answered samples classified (the matrix knew the library). */
  n: number;
  /** Shares of n; failed = extraction failures. They add up to 1. */
  correct: number;
  invalid: number;
  anachronistic: number;
  unknown: number;
  failed: number;
}

export interface ParameterTaxonomyRow {
  library: string;
  unit: ScoringUnit;
  group: Group | typeof ALL;
  version: string | null;
  /** Samples classified, and the predicted parameters they hold. */
  samples: number;
  parameters: number;
  /** Shares of the predicted parameters; they add up to 1 (when parameters > 0). */
  correct: number;
  anachronistic: number;
  unknown: number;
}

export interface FailureRow {
  library: string;
  unit: ScoringUnit;
  samples: number;
  answered: number;
  /** Answered, but nothing could be extracted (Table 14), by kind. */
  extraction: number;
  extractionKinds: Record<string, number>;
  /** extraction / answered. */
  extractionRate: number | null;
  /** The model never answered (failed records), by kind. */
  model: number;
  modelKinds: Record<string, number>;
  pending: number;
}

export interface SeusVersionPoint {
  version: string;
  stable: number | null;
  evolving: number | null;
  balanced: number | null;
  nStable: number;
  nEvolving: number;
}

/** One (library, task) term of SEUS. */
export interface SeusComponent {
  library: string;
  unit: ScoringUnit;
  versions: SeusVersionPoint[];
  /** E_v[B_v] over the versions with both groups. */
  balanced: number;
  /** Std_v(E_v), population, over the versions with evolving samples. */
  evolvingStd: number;
  /** Anachronistic error rate on evolving APIs (null: no taxonomy, counted as 0). */
  anachronism: number | null;
  stable: number;
  evolving: number;
  /** mean_v E_v/S_v over versions with S_v > 0; null when none. */
  retention: number | null;
  /** balanced − λ·evolvingStd − γ·anachronism. */
  term: number;
}

export interface SeusResult {
  /** Clipped to SEUS's range (seusRange): the bias-corrected Std can push an estimate near the ceiling past 1. */
  value: number | null;
  /** 95% bootstrap interval, clipped to SEUS's range: basic with the paper's Std, percentile with the corrected one. */
  ci: [number, number] | null;
  /** The Std_v(E_v) estimator (absent in older results: 'paper'). */
  std?: StdEstimator;
  lambda: number;
  gamma: number;
  /** Means over the components (Table 7's columns; penalties already weighted). */
  headline: {
    stable: number | null;
    evolving: number | null;
    retention: number | null;
    balanced: number | null;
    stabilityPenalty: number | null;
    anachronismPenalty: number | null;
  };
  components: SeusComponent[];
  /** (library, unit) pairs with samples but no version holding both groups: left out of N. */
  excluded: { library: string; unit: ScoringUnit; reason: string }[];
  /** SEUS at every (λ, γ) of the Appendix C grid. */
  sweep: { lambda: number; gamma: number; seus: number | null }[];
}

export interface ProgressionPoint {
  version: string;
  /** Position in the library's versions, 0 = oldest, 1 = newest. */
  x: number;
  value: number | null;
  n: number;
}

export interface ProgressionSeries {
  library: string;
  group: Group;
  points: ProgressionPoint[];
}

export interface StaircaseRow {
  library: string;
  group: Group | typeof ALL;
  level: BenchLevel;
  /** Exact match (API name) at every level; at L3 the parameter recall too. */
  exact: number | null;
  recall: number | null;
  n: number;
}

/** A mean with its 95% bootstrap interval. */
export interface MeanCi {
  mean: number | null;
  ci: [number, number] | null;
}

/** One (library, unit, group) cell of the arms comparison, over the samples scored in both arms. */
export interface ArmRow {
  library: string;
  unit: ScoringUnit;
  group: Group | typeof ALL;
  metric: MetricName;
  /** Samples with a score in both arms. */
  pairs: number;
  plain: MeanCi;
  grounded: MeanCi;
  /** grounded − plain, with a paired bootstrap interval (pairs resampled together). */
  delta: MeanCi;
  /** Pairs where grounding turned a wrong answer right, and a right one wrong (primary metric 1 vs below 1). */
  improved: number;
  worsened: number;
  /** Anachronistic share in each arm (API level, or the share of predicted parameters): SEUS's A. */
  anachronistic: { plain: number | null; grounded: number | null };
}

/** The model with and without anachron: present when a run asked both arms. */
export interface ArmsResult {
  arms: ['plain', 'grounded'];
  rows: ArmRow[];
  /** SEUS of each arm (the grounded arm's from its own records). */
  seus: { plain: number | null; plainCi: [number, number] | null; grounded: number | null; groundedCi: [number, number] | null };
  /** Samples asked without a grounded twin (API-C@L0: the prompt gives the tool nothing to look up). */
  ungrounded: number;
  /** The grounded arm's results, in full (metrics, taxonomy, SEUS). */
  grounded: RunResults;
}

export interface RunResults {
  schema: 'anachron-bench-results/1';
  run: {
    label: string;
    name: string | null;
    identity: string | null;
    model: string | null;
    suite: string | null;
    shard: string | null;
    mergedFrom: string[] | null;
  };
  options: ScoringOptions;
  counts: {
    /** Questions scored: the answerable ones (isAnswerable). */
    samples: number;
    /** Questions no answer gets right, left out of every score and of `samples` (absent in older results). */
    unanswerable?: number;
    answered: number;
    modelFailures: number;
    pending: number;
    extractionFailures: number;
    /** Samples with a score (answered; extraction failures score 0). */
    scored: number;
  };
  libraries: string[];
  /** Versions per library in PEP 440 order (those the samples target). */
  versions: Record<string, string[]>;
  metrics: MetricRow[];
  taxonomy: { api: ApiTaxonomyRow[]; parameters: ParameterTaxonomyRow[] };
  failures: FailureRow[];
  staircase: StaircaseRow[];
  progression: ProgressionSeries[];
  seus: SeusResult;
  /** With both arms: the plain arm above, and here the comparison with the grounded one. */
  arms?: ArmsResult;
  /** The perfect model's ceiling per (library, unit) and version (absent in older results). */
  ceiling?: CeilingRow[];
}

/** What a perfect model scores on one (library, unit[, version]) cell. */
export interface CeilingRow {
  library: string;
  unit: ScoringUnit;
  /** null: every version. */
  version: string | null;
  /** Answerable questions whose ceiling is known. */
  questions: number;
  /** Mean primary score of the perfect answer over them: 1 (100%) when the scorer reads the ground truth right. */
  ceiling: number | null;
  /** Questions with no correct answer, left out of the scores. */
  unanswerable: number;
  /** Answerable questions whose ground truth holds no answer to write (no call text, no signature). */
  unknown: number;
  /** The ceiling had the unanswerable questions been scored (0 each). */
  withUnanswerable: number | null;
}
