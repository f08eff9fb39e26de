// The dataset's figures in the shape of the paper's Table 1 (samples, APIs, stable/evolving ratio, coverage Ω per
// library and task), with the docstring tiers of Tables 12–13 and the API-C levels. Computed from the samples alone
// (plus each library's surface size), so anyone holding a dataset can recompute them. Pure.
import { BENCH_LEVELS, BENCH_TASKS, type BenchLevel, type BenchTask } from '../prompt-contract.js';
import type { LibEvoBenchSample } from '../prompt-contract.js';
import type { QualityTier } from './docstrings.js';
import { compareStrings } from './seeded.js';

export interface TaskFigures {
  /** Prompts (for API-C: every level of every snippet). */
  samples: number;
  /** Instances: snippets for API-C (the paper's API-C "samples"), prompts for API-I and SR. */
  instances: number;
  apis: number;
  stableApis: number;
  evolvingApis: number;
  /** S/E: stable APIs per evolving API; null without evolving APIs. */
  stableToEvolving: number | null;
  /** Ω: APIs covered / the library's surface (APIs present in at least one covered version). */
  coverage: number | null;
  /** Instances per docstring tier (API-I: every query; API-C: snippets shown with a description, as Table 12). */
  tiers: Record<QualityTier, number>;
}

export interface LibraryFigures {
  library: string;
  versions: string[];
  surface: number;
  tasks: Partial<Record<BenchTask, TaskFigures>>;
  /** API-C prompts per level. */
  levels: Partial<Record<BenchLevel, number>>;
}

export interface SurfaceSize {
  library: string;
  versions: readonly string[];
  /** APIs present in at least one of `versions`. */
  surface: number;
}

export interface DatasetFigures {
  libraries: LibraryFigures[];
  totals: Partial<Record<BenchTask, { samples: number; instances: number; apis: number }>>;
}

function tierOf(sample: LibEvoBenchSample): QualityTier | null {
  const gt = sample.groundTruth as { description?: { tier?: QualityTier } } | null;
  return gt?.description?.tier ?? null;
}

function instanceOf(sample: LibEvoBenchSample): string {
  const gt = sample.groundTruth as { snippet?: string } | null;
  return sample.task === 'API-C' ? `${sample.library}\0${sample.version}\0${sample.api}\0${gt?.snippet ?? sample.id}` : sample.id;
}

export function summarizeSamples(samples: readonly LibEvoBenchSample[], surfaces: readonly SurfaceSize[]): DatasetFigures {
  const libraries: LibraryFigures[] = [];
  const totals: DatasetFigures['totals'] = {};
  const totalApis = new Map<BenchTask, Set<string>>();
  for (const { library, versions, surface } of [...surfaces].sort((a, b) => compareStrings(a.library, b.library))) {
    const mine = samples.filter((s) => s.library === library);
    const figures: LibraryFigures = { library, versions: [...versions], surface, tasks: {}, levels: {} };
    for (const task of BENCH_TASKS) {
      const of = mine.filter((s) => s.task === task);
      if (of.length === 0) continue;
      const evolvingOf = new Map<string, boolean>();
      for (const s of of) evolvingOf.set(s.api, s.evolving);
      const stableApis = [...evolvingOf.values()].filter((e) => !e).length;
      const evolvingApis = evolvingOf.size - stableApis;
      const tiers: Record<QualityTier, number> = { rich: 0, good: 0, medium: 0, short: 0 };
      const instances = new Map<string, QualityTier | null>();
      for (const s of of) {
        const key = instanceOf(s);
        const tier = tierOf(s);
        if (!instances.has(key) || (instances.get(key) === null && tier !== null)) instances.set(key, tier);
      }
      for (const tier of instances.values()) if (tier) tiers[tier]++;
      figures.tasks[task] = {
        samples: of.length,
        instances: instances.size,
        apis: evolvingOf.size,
        stableApis,
        evolvingApis,
        stableToEvolving: evolvingApis > 0 ? stableApis / evolvingApis : null,
        coverage: surface > 0 ? evolvingOf.size / surface : null,
        tiers,
      };
      const total = (totals[task] ??= { samples: 0, instances: 0, apis: 0 });
      total.samples += of.length;
      total.instances += instances.size;
      const apis = totalApis.get(task) ?? new Set<string>();
      for (const api of evolvingOf.keys()) apis.add(`${library}\0${api}`);
      totalApis.set(task, apis);
      total.apis = apis.size;
    }
    for (const level of BENCH_LEVELS) {
      const n = mine.filter((s) => s.task === 'API-C' && s.level === level).length;
      if (n > 0) figures.levels[level] = n;
    }
    libraries.push(figures);
  }
  return { libraries, totals };
}

function pct(x: number | null): string {
  return x === null ? '–' : `${Math.round(x * 100)}%`;
}

function ratio(x: number | null): string {
  return x === null ? '–' : x.toFixed(2);
}

/** Table 1 as Markdown: per library and task, samples (API-C: snippets), APIs, S/E and Ω. */
export function formatTable1(figures: DatasetFigures): string {
  const tasks = BENCH_TASKS.filter((t) => figures.libraries.some((l) => l.tasks[t]));
  const head = ['Library', 'Versions', ...tasks.flatMap((t) => [`${t} samples`, `${t} APIs`, `${t} S/E`, `${t} Ω`])];
  const rows = figures.libraries.map((l) => [
    l.library,
    String(l.versions.length),
    ...tasks.flatMap((t) => {
      const f = l.tasks[t];
      return f ? [f.instances.toLocaleString('en-US'), f.apis.toLocaleString('en-US'), ratio(f.stableToEvolving), pct(f.coverage)] : ['–', '–', '–', '–'];
    }),
  ]);
  const total = ['Total', '', ...tasks.flatMap((t) => [String(figures.totals[t]?.instances.toLocaleString('en-US') ?? '–'), String(figures.totals[t]?.apis.toLocaleString('en-US') ?? '–'), '', ''])];
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map((_, i) => (i < 2 ? '---' : '---:'))), ...rows.map(line), line(total)].join('\n') + '\n';
}
