// The model with and without anachron: each grounded sample against its plain twin (runs/arms.ts), per library,
// scoring unit and group, with bootstrap intervals for each arm and a paired bootstrap interval for the difference,
// the pairs grounding turned right or wrong, and the anachronistic share in each arm. Pure, from prediction records.
import { plainIdOf } from '../../runs/arms.js';
import { bootstrapMean, mean, Resampler } from './bootstrap.js';
import { ALL, ANACHRONISM_LEVEL, PRIMARY_METRIC, SCORING_UNITS, type ArmRow, type Group, type PredictionRecord, type ScoringOptions, type ScoringUnit } from './types.js';

interface Pair {
  plain: PredictionRecord;
  grounded: PredictionRecord;
}

function anachronisticShare(records: readonly PredictionRecord[], unit: ScoringUnit): number | null {
  if (ANACHRONISM_LEVEL[unit] === 'api') {
    const classified = records.filter((r) => r.taxonomy && (r.taxonomy.api !== null || r.failure));
    if (classified.length === 0) return null;
    return classified.filter((r) => r.taxonomy!.api === 'anachronistic').length / classified.length;
  }
  let all = 0;
  let anachronistic = 0;
  for (const r of records) {
    for (const p of r.taxonomy?.parameters ?? []) {
      all++;
      if (p.category === 'anachronistic') anachronistic++;
    }
  }
  return all > 0 ? anachronistic / all : null;
}

/** Rows for every (library, unit, group) with pairs; libraries pooled under "all" when there are several. */
export function compareArms(records: readonly PredictionRecord[], options: ScoringOptions): ArmRow[] {
  const plainById = new Map<string, PredictionRecord>();
  for (const r of records) if (r.arm !== 'grounded') plainById.set(r.id, r);
  const pairs: Pair[] = [];
  for (const g of records) {
    if (g.arm !== 'grounded') continue;
    const p = plainById.get(plainIdOf(g.id));
    if (p && p.score !== null && g.score !== null) pairs.push({ plain: p, grounded: g });
  }
  const libraries = [...new Set(pairs.map((x) => x.plain.library))].sort();
  const libKeys = libraries.length > 1 ? [...libraries, ALL] : libraries;
  const rows: ArmRow[] = [];
  for (const library of libKeys) {
    for (const unit of SCORING_UNITS) {
      for (const group of ['stable', 'evolving', ALL] as const) {
        const cell = pairs.filter((x) => (library === ALL || x.plain.library === library) && x.plain.unit === unit && (group === ALL || x.plain.group === (group as Group)));
        if (cell.length === 0) continue;
        const p = cell.map((x) => x.plain.score!);
        const g = cell.map((x) => x.grounded.score!);
        const d = cell.map((x) => x.grounded.score! - x.plain.score!);
        const key = [library, unit, group].join('\u0000');
        const ci = (values: number[], which: string) => bootstrapMean(values, options.bootstrap, new Resampler(options.seed, `arms\u0000${which}\u0000${key}`));
        rows.push({
          library,
          unit,
          group,
          metric: PRIMARY_METRIC[unit],
          pairs: cell.length,
          plain: { mean: mean(p), ci: ci(p, 'plain') },
          grounded: { mean: mean(g), ci: ci(g, 'grounded') },
          // Resampling the differences resamples the pairs: the paired bootstrap.
          delta: { mean: mean(d), ci: ci(d, 'delta') },
          improved: cell.filter((x) => x.plain.score! < 1 && x.grounded.score! >= 1).length,
          worsened: cell.filter((x) => x.plain.score! >= 1 && x.grounded.score! < 1).length,
          anachronistic: { plain: anachronisticShare(cell.map((x) => x.plain), unit), grounded: anachronisticShare(cell.map((x) => x.grounded), unit) },
        });
      }
    }
  }
  return rows;
}
