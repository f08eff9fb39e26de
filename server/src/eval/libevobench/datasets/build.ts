// The dataset builder: a run config's libraries, versions, tasks, levels, sampling caps and seed, the matrices'
// ground truth and (for API-C) a pinned corpus in; LibEvoBenchSample[] out, in a deterministic order with stable ids and
// prompts rendered by the prompt contract, with the Table 1 figures and the counts of every filtering step. Same
// inputs and seed, byte-identical dataset. Pure: the matrices are read through GroundTruthMatrix, the corpus arrives
// as text with its parser. Documented in docs/benchmark-datasets.md.
import type { GroundTruthHistory, GroundTruthMatrix } from '../../../core/ground-truth.js';
import { normalizeDistributionName } from '../../../core/library-names.js';
import { versionsEqual } from '../../../core/versions.js';
import { BENCH_LEVELS, BENCH_TASKS, type BenchLevel, type BenchTask, type LibEvoBenchSample } from '../prompt-contract.js';
import { DEFAULT_SAMPLING, type SamplingConfig } from '../config.js';
import { apiCDrafts, apiCFileOrder, harvestApiCFile, poolFromHarvests, sampleApiC, type ApiCFileHarvest, type ApiCLevelSkips, type ApiCPoolStats, type ApiCSamplingStats } from './api-c.js';
import type { TrackedLibrary } from './call-sites.js';
import type { Corpus } from './corpus.js';
import { DescriptionIndex } from './descriptions.js';
import type { DescriptionRejection, QualityTier } from './docstrings.js';
import { finalizeDraft, levelOf, type SampleDraft } from './drafts.js';
import { apiIDrafts, emptyApiISkips, srDrafts, type ApiISkips, type LibraryData } from './matrix-tasks.js';
import { relabelOver, selectApis, type SamplingCaps } from './sampling.js';
import { compareStrings, rankKey } from './seeded.js';
import { summarizeSamples, type DatasetFigures, type SurfaceSize } from './summary.js';
import { InputError } from '../../../core/errors.js';

/** What the builder reads of a run config (a RunConfig is one). */
export interface DatasetConfig {
  /** Import names, e.g. ["numpy"]. */
  libraries: readonly string[];
  /** Versions per library; a library not listed covers every tracked version. */
  versions?: Readonly<Record<string, readonly string[]>>;
  tasks: readonly BenchTask[];
  /** API-C levels (default all four). */
  levels?: readonly BenchLevel[];
  sampling?: SamplingConfig;
  seed: number;
}

/** A library's ground truth; `distribution` names it in manifests when that differs from the import name. */
export interface DatasetMatrix extends GroundTruthMatrix {
  readonly distribution?: string;
}

export interface DatasetInputs {
  matrices: readonly DatasetMatrix[];
  /** The code API-C is built from; without one, API-C has no samples. */
  corpus?: Corpus;
}

export interface LibraryBuildReport {
  library: string;
  /** The documented, present cells of the library through the docstring pipeline. */
  descriptions: { accepted: Record<QualityTier, number>; rejected: Record<DescriptionRejection, number> };
  evolvingApis: number;
  stableGroup: number;
  apiI: ApiISkips;
}

export interface DatasetSummary extends DatasetFigures {
  seed: number;
  sampling: SamplingCaps;
  build: {
    libraries: LibraryBuildReport[];
    /** Null when no API-C was built (not requested, or no corpus). */
    apiC: { pool: ApiCPoolStats; sampling: ApiCSamplingStats; levels: ApiCLevelSkips } | null;
  };
}

export interface Dataset {
  samples: LibEvoBenchSample[];
  summary: DatasetSummary;
}

export class DatasetError extends InputError {
  override readonly name: string = 'DatasetError';
}

function resolveVersions(matrix: DatasetMatrix, wanted: readonly string[] | undefined): string[] {
  if (!wanted) return matrix.benchmarkVersions?.() ?? [...matrix.versions];
  const out: string[] = [];
  for (const w of wanted) {
    const tracked = matrix.versions.find((v) => versionsEqual(v, w));
    if (!tracked) throw new DatasetError(`${matrix.library} ${w} is not a tracked version (tracked: ${matrix.versions.join(', ')})`);
    if (!out.includes(tracked)) out.push(tracked);
  }
  return matrix.versions.filter((v) => out.includes(v));
}

const TASK_ORDER = new Map(BENCH_TASKS.map((t, i) => [t, i]));
const LEVEL_ORDER = new Map(BENCH_LEVELS.map((l, i) => [l, i]));

/**
 * The order of the dataset: (library, version, API) cells in a seeded random order, so the first N samples of a
 * limited run spread over the whole dataset; within a cell, by task, level and snippet. All prompts of one cell are
 * adjacent, so a limited run compares the tasks and levels on the same cells.
 */
function orderDrafts(drafts: SampleDraft[], seed: number): SampleDraft[] {
  const keyed = drafts.map((d) => ({ d, cell: rankKey(seed, 'order', d.library, d.version, d.api) }));
  keyed.sort(
    (a, b) =>
      compareStrings(a.cell, b.cell) ||
      compareStrings(`${a.d.library}\0${a.d.version}\0${a.d.api}`, `${b.d.library}\0${b.d.version}\0${b.d.api}`) ||
      TASK_ORDER.get(a.d.spec.task)! - TASK_ORDER.get(b.d.spec.task)! ||
      (LEVEL_ORDER.get(levelOf(a.d.spec) ?? 'L0') ?? 0) - (LEVEL_ORDER.get(levelOf(b.d.spec) ?? 'L0') ?? 0) ||
      compareStrings(a.d.snippet, b.d.snippet),
  );
  return keyed.map((k) => k.d);
}

export function samplingCaps(sampling: SamplingConfig | undefined): SamplingCaps {
  return { ...DEFAULT_SAMPLING, ...sampling };
}

/**
 * The dataset before API-C's pool is read: each library's data, the API-I and SR drafts, and what reading the corpus
 * needs (the tracked libraries and the versions selected), so that the corpus can be read file by file elsewhere (the
 * CLI's worker threads) and the dataset finished from what they found.
 */
export interface DatasetPlan {
  config: DatasetConfig;
  caps: SamplingCaps;
  levels: BenchLevel[];
  data: Map<string, LibraryData>;
  surfaces: SurfaceSize[];
  reports: LibraryBuildReport[];
  drafts: SampleDraft[];
  /** Null when the config asks for no API-C. */
  apiC: { libraries: Map<string, TrackedLibrary>; selected: Map<string, Set<string>> } | null;
}

/** Plans the dataset. Throws DatasetError for a library without a matrix or an untracked version. */
export function planDataset(config: DatasetConfig, matrices: readonly DatasetMatrix[]): DatasetPlan {
  const caps = samplingCaps(config.sampling);
  const tasks = new Set(config.tasks);
  const levels = BENCH_LEVELS.filter((l) => (config.levels ?? BENCH_LEVELS).includes(l));
  const libraries = [...new Set(config.libraries)].sort(compareStrings);
  const data = new Map<string, LibraryData>();
  const tracked = new Map<string, TrackedLibrary>();
  const surfaces: SurfaceSize[] = [];
  const reports: LibraryBuildReport[] = [];
  const drafts: SampleDraft[] = [];

  for (const library of libraries) {
    const matrix = matrices.find((m) => m.library === library);
    if (!matrix) throw new DatasetError(`no matrix for ${library} (have: ${matrices.map((m) => m.library).join(', ') || 'none'})`);
    const selected = resolveVersions(matrix, config.versions?.[library]);
    // Stable and evolving over the selected versions (the matrix's label is over every tracked one).
    const histories = new Map<string, GroundTruthHistory>();
    for (const api of matrix.apiPaths()) {
      const history = matrix.groundTruth(api);
      if (history) histories.set(api, relabelOver(history, selected));
    }
    const distribution = matrix.distribution ?? library;
    const descriptions = new DescriptionIndex(histories, [...new Set([library, distribution])]);
    const selection = selectApis(library, [...histories.values()], selected, caps, config.seed);
    const lib: LibraryData = { library, versions: matrix.versions, selected, histories, descriptions, selection };
    data.set(library, lib);
    tracked.set(library, { library, distribution: normalizeDistributionName(distribution), versions: matrix.versions, histories });
    const selectedSet = new Set(selected);
    surfaces.push({ library, versions: selected, surface: [...histories.values()].filter((h) => h.versions.some((c) => c.state === 'present' && selectedSet.has(c.version))).length });
    const apiI: ApiISkips = emptyApiISkips();
    if (tasks.has('API-I')) drafts.push(...apiIDrafts(lib, apiI));
    if (tasks.has('SR')) drafts.push(...srDrafts(lib));
    reports.push({ library, descriptions: descriptions.counts(), evolvingApis: selection.evolving.length, stableGroup: selection.stable.length, apiI });
  }
  const apiC = tasks.has('API-C') && levels.length > 0 ? { libraries: tracked, selected: new Map([...data].map(([l, d]) => [l, new Set(d.selected)] as const)) } : null;
  return { config, caps, levels, data, surfaces, reports, drafts, apiC };
}

/** The dataset from its plan and, for API-C, the harvests of the corpus's files in apiCFileOrder (null: no corpus). */
export function finishDataset(plan: DatasetPlan, harvests: readonly ApiCFileHarvest[] | null): Dataset {
  const { config, caps, levels, data, surfaces, reports } = plan;
  const drafts = [...plan.drafts];
  let apiC: DatasetSummary['build']['apiC'] = null;
  if (plan.apiC && harvests) {
    const pool = poolFromHarvests(harvests);
    const sampled = sampleApiC(pool.instances, data, caps, config.seed);
    const levelSkips: ApiCLevelSkips = { noDescription: 0 };
    drafts.push(...apiCDrafts(sampled.kept, data, levels, levelSkips));
    apiC = { pool: pool.stats, sampling: sampled.stats, levels: levelSkips };
  }

  const samples = orderDrafts(drafts, config.seed).map(finalizeDraft);
  const ids = new Set<string>();
  for (const s of samples) {
    if (ids.has(s.id)) throw new Error(`dataset builder produced the id ${s.id} twice`);
    ids.add(s.id);
  }
  const figures = summarizeSamples(samples, surfaces);
  return { samples, summary: { ...figures, seed: config.seed, sampling: caps, build: { libraries: reports, apiC } } };
}

/** Builds the dataset, reading the corpus in this thread. Throws DatasetError as planDataset does. */
export function buildDataset(config: DatasetConfig, inputs: DatasetInputs): Dataset {
  const plan = planDataset(config, inputs.matrices);
  const { corpus } = inputs;
  const harvests = plan.apiC && corpus ? apiCFileOrder(corpus.files).map((f) => harvestApiCFile(f, corpus.parser, plan.apiC!.libraries, plan.apiC!.selected)) : null;
  return finishDataset(plan, harvests);
}
