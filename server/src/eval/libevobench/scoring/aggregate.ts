// From prediction records to a run's results: metrics per (library, unit, group[, version]) with bootstrap
// intervals, the taxonomy tables, extraction and model failures, the L0–L3 staircase, the stable/evolving
// progression over normalised versions, and SEUS. Pure, and a function of the records alone: results.json can be
// recomputed from predictions.jsonl.
import { compareVersions } from '../../../core/versions.js';
import { bootstrapMean, mean, Resampler } from './bootstrap.js';
import { plainIdOf } from '../../runs/arms.js';
import { compareArms } from './arms.js';
import { computeSeus } from './seus.js';
import {
  ALL,
  PRIMARY_METRIC,
  PROGRESSION_UNITS,
  SCORING_UNITS,
  UNIT_METRICS,
  isAnswerable,
  type ApiTaxonomyRow,
  type CeilingRow,
  type FailureRow,
  type Group,
  type MetricName,
  type MetricRow,
  type ParameterTaxonomyRow,
  type PredictionRecord,
  type ProgressionSeries,
  type RunResults,
  type ScoringOptions,
  type ScoringUnit,
  type StaircaseRow,
} from './types.js';
import { BENCH_LEVELS } from '../prompt-contract.js';

const GROUPS: readonly (Group | typeof ALL)[] = ['stable', 'evolving', ALL];
const API_LEVEL_UNITS: readonly ScoringUnit[] = ['API-C@L0', 'API-C@L1', 'API-C@L2', 'API-C@L3', 'API-I'];
const PARAMETER_LEVEL_UNITS: readonly ScoringUnit[] = ['API-C@L3', 'SR'];

/** The library keys rows are reported for: each library, and "all" when there are several. */
function libraryKeys(libraries: readonly string[]): string[] {
  return libraries.length > 1 ? [...libraries, ALL] : [...libraries];
}

const METRIC_NAMES: readonly MetricName[] = ['exact', 'recall', 'precision', 'f1'];

/**
 * Numeric keys of the (library, unit, metric, group, version) cells: each record counts in a handful of cells, and a
 * run may hold 100,000 records, so cells are numbers rather than strings.
 */
class CellIndex {
  readonly lib = new Map<string, number>();
  readonly version = new Map<string, number>();
  readonly unit = new Map<string, number>(SCORING_UNITS.map((u, i) => [u, i]));
  readonly metric = new Map<string, number>(METRIC_NAMES.map((m, i) => [m, i]));
  readonly group = new Map<string, number>(GROUPS.map((g, i) => [g, i]));
  constructor(libKeys: readonly string[], versions: Record<string, string[]>) {
    libKeys.forEach((l, i) => this.lib.set(l, i));
    for (const lib of Object.keys(versions)) for (const v of versions[lib]!) if (!this.version.has(v)) this.version.set(v, this.version.size + 1);
  }
  /** Version index 0 stands for "all versions". */
  key(lib: number, unit: number, metric: number, group: number, version: number): number {
    return (((lib * SCORING_UNITS.length + unit) * METRIC_NAMES.length + metric) * GROUPS.length + group) * (this.version.size + 1) + version;
  }
  keyOf(lib: string, unit: ScoringUnit, metric: MetricName | null, group: Group | typeof ALL, version: string | null): number {
    return this.key(this.lib.get(lib)!, this.unit.get(unit)!, metric === null ? 0 : this.metric.get(metric)!, this.group.get(group)!, version === null ? 0 : this.version.get(version)!);
  }
}

/** Every (library, group, version) cell a record counts in, as indexes: its own and the pooled ones. */
function cellsOf(r: PredictionRecord, cells: CellIndex, pooledLibrary: boolean): [number, number, number][] {
  const lib = cells.lib.get(r.library)!;
  const all = cells.lib.get(ALL);
  const g = cells.group.get(r.group)!;
  const gAll = cells.group.get(ALL)!;
  const v = cells.version.get(r.version)!;
  const out: [number, number, number][] = [
    [lib, g, 0],
    [lib, g, v],
    [lib, gAll, 0],
    [lib, gAll, v],
  ];
  if (pooledLibrary && all !== undefined) out.push([all, g, 0], [all, gAll, 0]);
  return out;
}

export interface RunInfo {
  label: string;
  name?: string | null;
  identity?: string | null;
  model?: string | null;
  suite?: string | null;
  shard?: string | null;
  mergedFrom?: string[] | null;
}

/**
 * A run's results. With both arms (runs/arms.ts), the results are the plain arm's, and `arms` compares them with the
 * grounded arm's, pair by pair; a run of one arm is reported as it is.
 */
export function aggregateResults(records: readonly PredictionRecord[], options: ScoringOptions, run: RunInfo): RunResults {
  const grounded = records.filter((r) => r.arm === 'grounded');
  if (grounded.length === 0 || grounded.length === records.length) return aggregateArm(records, options, run);
  const plain = records.filter((r) => r.arm !== 'grounded');
  const results = aggregateArm(plain, options, run);
  const groundedResults = aggregateArm(grounded, options, { ...run, label: `${run.label} · grounded` });
  const twins = new Set(grounded.map((r) => plainIdOf(r.id)));
  results.arms = {
    arms: ['plain', 'grounded'],
    rows: compareArms(records.filter(isAnswerable), options),
    seus: { plain: results.seus.value, plainCi: results.seus.ci, grounded: groundedResults.seus.value, groundedCi: groundedResults.seus.ci },
    ungrounded: plain.filter((r) => !twins.has(r.id)).length,
    grounded: groundedResults,
  };
  return results;
}

/**
 * The perfect model's ceiling per (library, unit) and per version: the mean of the records' `ceiling` over the
 * questions asked (answerable ones, 1 each when the scorer reads the ground truth right), and over every question
 * including those with no correct answer (what the ceiling was before they were left out).
 */
export function ceilingRows(records: readonly PredictionRecord[]): CeilingRow[] {
  const cells = new Map<string, { library: string; unit: ScoringUnit; version: string | null; asked: number[]; unanswerable: number; unknown: number }>();
  for (const r of records) {
    for (const version of [null, r.version]) {
      const key = `${r.library}\0${r.unit}\0${version ?? ''}`;
      let c = cells.get(key);
      if (!c) cells.set(key, (c = { library: r.library, unit: r.unit, version, asked: [], unanswerable: 0, unknown: 0 }));
      if (!isAnswerable(r)) c.unanswerable++;
      else if (r.ceiling === undefined || r.ceiling === null) c.unknown++;
      else c.asked.push(r.ceiling);
    }
  }
  const units = new Map(SCORING_UNITS.map((u, i) => [u, i]));
  return [...cells.values()]
    .sort((a, b) => a.library.localeCompare(b.library) || units.get(a.unit)! - units.get(b.unit)! || (a.version === null ? -1 : b.version === null ? 1 : compareVersions(a.version, b.version)))
    .map((c) => ({
      library: c.library,
      unit: c.unit,
      version: c.version,
      questions: c.asked.length,
      ceiling: mean(c.asked),
      unanswerable: c.unanswerable,
      unknown: c.unknown,
      withUnanswerable: c.asked.length + c.unanswerable > 0 ? c.asked.reduce((s, v) => s + v, 0) / (c.asked.length + c.unanswerable) : null,
    }));
}

/** The records a run's rows are made of, with the cells they count in. */
interface ArmCells {
  /** The answerable records (isAnswerable): questions no answer gets right are left out of every score. */
  readonly records: readonly PredictionRecord[];
  readonly libraries: string[];
  /** Whether rows for "all" libraries are reported too. */
  readonly pooled: boolean;
  readonly libKeys: string[];
  readonly versions: Record<string, string[]>;
  readonly cells: CellIndex;
}

type MetricLookup = (lib: string, unit: ScoringUnit, metric: MetricName, group: Group | typeof ALL, version: string | null) => MetricRow | undefined;

function aggregateArm(all: readonly PredictionRecord[], options: ScoringOptions, run: RunInfo): RunResults {
  const arm = armCells(all.filter(isAnswerable));
  const { records, libraries, versions } = arm;
  const metrics = metricRows(arm, options);
  const metricRowsByKey = new Map(metrics.map((m) => [arm.cells.keyOf(m.library, m.unit, m.metric, m.group, m.version), m] as const));
  const metricMean: MetricLookup = (lib, unit, metric, group, version) => metricRowsByKey.get(arm.cells.keyOf(lib, unit, metric, group, version));
  const answered = records.filter((r) => r.status === 'answered');
  return {
    schema: 'anachron-bench-results/1',
    run: {
      label: run.label,
      name: run.name ?? null,
      identity: run.identity ?? null,
      model: run.model ?? null,
      suite: run.suite ?? null,
      shard: run.shard ?? null,
      mergedFrom: run.mergedFrom ?? null,
    },
    options: { ...options },
    counts: {
      samples: records.length,
      unanswerable: all.length - records.length,
      answered: answered.length,
      modelFailures: records.filter((r) => r.status === 'failed').length,
      pending: records.filter((r) => r.status === 'pending').length,
      extractionFailures: answered.filter((r) => r.failure !== null).length,
      scored: records.filter((r) => r.score !== null).length,
    },
    libraries,
    versions,
    metrics,
    taxonomy: taxonomyRows(arm),
    failures: failureRows(arm),
    staircase: staircaseRows(arm, metricMean),
    progression: progressionSeries(arm, metricMean),
    seus: computeSeus(records, options),
    ceiling: ceilingRows(all),
  };
}

function armCells(records: readonly PredictionRecord[]): ArmCells {
  const libraries = [...new Set(records.map((r) => r.library))].sort();
  const libKeys = libraryKeys(libraries);
  const versions: Record<string, string[]> = {};
  const seen = new Map<string, Set<string>>(libraries.map((l) => [l, new Set<string>()]));
  for (const r of records) seen.get(r.library)!.add(r.version);
  for (const lib of libraries) versions[lib] = [...seen.get(lib)!].sort(compareVersions);
  return { records, libraries, pooled: libraries.length > 1, libKeys, versions, cells: new CellIndex(libKeys, versions) };
}

/** Every (library, unit, group) and each of its versions with "all versions" first, in the order rows are reported. */
function* rowCells(arm: ArmCells): Generator<{ lib: string; unit: ScoringUnit; group: Group | typeof ALL; version: string | null }> {
  for (const lib of arm.libKeys) {
    for (const unit of SCORING_UNITS) {
      for (const group of GROUPS) {
        for (const version of [null, ...(lib === ALL ? [] : arm.versions[lib] ?? [])]) yield { lib, unit, group, version };
      }
    }
  }
}

/** The mean of each metric per cell, with a bootstrap interval for a unit's primary metric over all versions. */
function metricRows(arm: ArmCells, options: ScoringOptions): MetricRow[] {
  const { cells, pooled } = arm;
  const values = new Map<number, number[]>();
  for (const r of arm.records) {
    if (r.status !== 'answered' || r.scores === null) continue;
    const unit = cells.unit.get(r.unit)!;
    const recordCells = cellsOf(r, cells, pooled);
    for (const metric of UNIT_METRICS[r.unit]) {
      const v = r.scores[metric];
      if (v === null || v === undefined) continue;
      const m = cells.metric.get(metric)!;
      for (const [lib, g, ver] of recordCells) {
        const key = cells.key(lib, unit, m, g, ver);
        let list = values.get(key);
        if (!list) values.set(key, (list = []));
        list.push(v);
      }
    }
  }
  const metrics: MetricRow[] = [];
  // Metrics vary inside the unit, so the row order is (library, unit, metric, group, version).
  for (const lib of arm.libKeys) {
    for (const unit of SCORING_UNITS) {
      for (const metric of UNIT_METRICS[unit]) {
        for (const group of GROUPS) {
          for (const version of [null, ...(lib === ALL ? [] : arm.versions[lib] ?? [])]) {
            const list = values.get(cells.keyOf(lib, unit, metric, group, version));
            if (!list) continue;
            const withCi = version === null && metric === PRIMARY_METRIC[unit];
            metrics.push({
              library: lib,
              unit,
              metric,
              group,
              version,
              n: list.length,
              mean: mean(list),
              ci: withCi ? bootstrapMean(list, options.bootstrap, new Resampler(options.seed, [lib, unit, metric, group, version ?? ''].join('\u0000'))) : null,
            });
          }
        }
      }
    }
  }
  return metrics;
}

/** The API and parameter taxonomy shares per cell. */
function taxonomyRows(arm: ArmCells): { api: ApiTaxonomyRow[]; parameters: ParameterTaxonomyRow[] } {
  const { cells, pooled } = arm;
  const apiCounts = new Map<number, { n: number; correct: number; invalid: number; anachronistic: number; unknown: number; failed: number }>();
  const parameterCounts = new Map<number, { samples: number; parameters: number; correct: number; anachronistic: number; unknown: number }>();
  for (const r of arm.records) {
    if (r.status !== 'answered' || r.taxonomy === null) continue;
    const unit = cells.unit.get(r.unit)!;
    const apiCategory = API_LEVEL_UNITS.includes(r.unit) ? (r.failure ? 'failed' : r.taxonomy.api) : null;
    const parameters = PARAMETER_LEVEL_UNITS.includes(r.unit) ? r.taxonomy.parameters : null;
    if (apiCategory === null && parameters === null) continue;
    for (const [lib, g, ver] of cellsOf(r, cells, pooled)) {
      const key = cells.key(lib, unit, 0, g, ver);
      if (apiCategory !== null) {
        let c = apiCounts.get(key);
        if (!c) apiCounts.set(key, (c = { n: 0, correct: 0, invalid: 0, anachronistic: 0, unknown: 0, failed: 0 }));
        c.n++;
        c[apiCategory]++;
      }
      if (parameters !== null) {
        let c = parameterCounts.get(key);
        if (!c) parameterCounts.set(key, (c = { samples: 0, parameters: 0, correct: 0, anachronistic: 0, unknown: 0 }));
        c.samples++;
        for (const p of parameters) {
          c.parameters++;
          c[p.category]++;
        }
      }
    }
  }
  const api: ApiTaxonomyRow[] = [];
  const parameters: ParameterTaxonomyRow[] = [];
  for (const { lib, unit, group, version } of rowCells(arm)) {
    const key = cells.keyOf(lib, unit, null, group, version);
    const a = apiCounts.get(key);
    if (a && a.n > 0) {
      api.push({ library: lib, unit, group, version, n: a.n, correct: a.correct / a.n, invalid: a.invalid / a.n, anachronistic: a.anachronistic / a.n, unknown: a.unknown / a.n, failed: a.failed / a.n });
    }
    const p = parameterCounts.get(key);
    if (p) {
      const d = p.parameters;
      parameters.push({ library: lib, unit, group, version, samples: p.samples, parameters: d, correct: d ? p.correct / d : 0, anachronistic: d ? p.anachronistic / d : 0, unknown: d ? p.unknown / d : 0 });
    }
  }
  return { api, parameters };
}

/** Extraction failures per (library, unit) (Table 14), and the model's own failures apart. */
function failureRows(arm: ArmCells): FailureRow[] {
  const rowsByKey = new Map<string, FailureRow>();
  const failureRow = (lib: string, unit: ScoringUnit): FailureRow => {
    const key = `${lib}\u0000${unit}`;
    let row = rowsByKey.get(key);
    if (!row) rowsByKey.set(key, (row = { library: lib, unit, samples: 0, answered: 0, extraction: 0, extractionKinds: {}, extractionRate: null, model: 0, modelKinds: {}, pending: 0 }));
    return row;
  };
  // Rows per (library, unit), found through the records' own strings once per distinct pair.
  const rowsByLibrary = new Map<string, Map<string, FailureRow[]>>();
  for (const r of arm.records) {
    let byUnit = rowsByLibrary.get(r.library);
    if (!byUnit) rowsByLibrary.set(r.library, (byUnit = new Map()));
    let rows = byUnit.get(r.unit);
    if (!rows) byUnit.set(r.unit, (rows = arm.pooled ? [failureRow(r.library, r.unit), failureRow(ALL, r.unit)] : [failureRow(r.library, r.unit)]));
    for (const row of rows) countFailure(row, r);
  }
  const failures: FailureRow[] = [];
  for (const lib of arm.libKeys) {
    for (const unit of SCORING_UNITS) {
      const row = rowsByKey.get(`${lib}\u0000${unit}`);
      if (!row) continue;
      row.extractionRate = row.answered > 0 ? row.extraction / row.answered : null;
      failures.push(row);
    }
  }
  return failures;
}

function countFailure(row: FailureRow, r: PredictionRecord): void {
  row.samples++;
  if (r.status === 'pending') row.pending++;
  else if (r.status === 'failed') {
    row.model++;
    const k = r.failure?.kind ?? 'unknown';
    row.modelKinds[k] = (row.modelKinds[k] ?? 0) + 1;
  } else {
    row.answered++;
    if (r.failure) {
      row.extraction++;
      row.extractionKinds[r.failure.kind] = (row.extractionKinds[r.failure.kind] ?? 0) + 1;
    }
  }
}

/** The L0–L3 staircase (Figure 3): exact match per level, and recall at L3. */
function staircaseRows(arm: ArmCells, metricMean: MetricLookup): StaircaseRow[] {
  const staircase: StaircaseRow[] = [];
  for (const lib of arm.libKeys) {
    for (const group of GROUPS) {
      for (const level of BENCH_LEVELS) {
        const unit = `API-C@${level}` as ScoringUnit;
        const exact = metricMean(lib, unit, 'exact', group, null);
        if (!exact) continue;
        const recall = level === 'L3' ? metricMean(lib, unit, 'recall', group, null) : undefined;
        staircase.push({ library: lib, group, level, exact: exact.mean, recall: recall?.mean ?? null, n: exact.n });
      }
    }
  }
  return staircase;
}

/** Stable vs evolving over normalised versions (Figure 2). */
function progressionSeries(arm: ArmCells, metricMean: MetricLookup): ProgressionSeries[] {
  const progression: ProgressionSeries[] = [];
  for (const lib of arm.libraries) {
    const vs = arm.versions[lib] ?? [];
    for (const group of ['stable', 'evolving'] as const) {
      const points = vs.map((version, i) => {
        const unitMeans = PROGRESSION_UNITS.map((u) => metricMean(lib, u, PRIMARY_METRIC[u], group, version)).filter((m): m is MetricRow => !!m && m.n > 0);
        return { version, x: vs.length > 1 ? i / (vs.length - 1) : 0, value: mean(unitMeans.map((m) => m.mean!)), n: unitMeans.reduce((s, m) => s + m.n, 0) };
      });
      if (points.some((p) => p.n > 0)) progression.push({ library: lib, group, points });
    }
  }
  return progression;
}
