// The LibEvoBench part of a run config: tasks, API-C levels, the paper's sampling sizes, and the corpus API-C was
// built from; what identifies a LibEvoBench run. Validated from untrusted JSON.
import { ConfigError } from '../models/config.js';
import { isObject } from '../../core/json-value.js';
import { identityFrom, runArms, sharedIdentityParts, stringList, type RunConfigBase, type SuiteConfigRules } from '../runs/config.js';
import { BENCH_LEVELS, BENCH_TASKS, PROMPT_CONTRACT_VERSION, type BenchLevel, type BenchTask } from './prompt-contract.js';

export interface SamplingConfig {
  /** Stable control group: at most this many stable APIs per library (paper: C = 1,000). */
  stableApis?: number;
  /** Versions per stable API (paper: m = 5). */
  versionsPerApi?: number;
  /** API-C snippets per (stable API, version) cell (paper: n = 3). */
  snippetsPerCell?: number;
  /** API-C raw pool cap per (API, version) cell (paper: 50). */
  apiCPerCell?: number;
}

/**
 * The code API-C was built from, as whoever read it (the CLI) describes it: part of the run's identity, since
 * another corpus gives other API-C samples. Absent when no corpus was read.
 */
export interface CorpusIdentity {
  /** corpusDigest of the files read: paths, pins and texts. */
  digest: string;
  /** What it was, for messages, e.g. "the folder /work/app" or "the example corpus". */
  source?: string;
  /** Python files read. */
  files?: number;
}

export const DEFAULT_SAMPLING: Required<SamplingConfig> = { stableApis: 1000, versionsPerApi: 5, snippetsPerCell: 3, apiCPerCell: 50 };

export interface LibEvoBenchFields {
  /** LibEvoBench tasks ([] for the drift suite). */
  tasks: BenchTask[];
  /** API-C levels (ignored by API-I and SR). */
  levels: BenchLevel[];
  sampling?: SamplingConfig;
  /**
   * With API-C: the corpus it was built from. Set by the CLI from the corpus it reads; a config that already states a
   * digest is only run on that corpus.
   */
  corpus?: CorpusIdentity;
}

export type LibEvoBenchConfig = RunConfigBase & LibEvoBenchFields;

/** A corpus as messages name it. */
export function describeCorpus(corpus: CorpusIdentity | undefined): string {
  if (!corpus) return 'no corpus';
  const files = corpus.files !== undefined ? `, ${corpus.files} Python file${corpus.files === 1 ? '' : 's'}` : '';
  return `${corpus.source ?? 'a corpus'} (digest ${corpus.digest}${files})`;
}

export const LIBEVOBENCH_CONFIG: SuiteConfigRules = {
  // "drift" is read only to say where it belongs.
  fields: ['tasks', 'levels', 'sampling', 'corpus', 'drift'],
  builtinModels: ['reference-pinned', 'reference-newest'],
  validate(raw, base) {
    const config = base as LibEvoBenchConfig;
    if (raw.drift !== undefined) throw new ConfigError('drift settings need suite "drift"');
    const tasks = stringList(raw.tasks, 'tasks');
    for (const t of tasks) if (!BENCH_TASKS.includes(t as BenchTask)) throw new ConfigError(`tasks: unknown task "${t}" (known: ${BENCH_TASKS.join(', ')})`);
    const levels = raw.levels === undefined ? [...BENCH_LEVELS] : stringList(raw.levels, 'levels');
    for (const l of levels) if (!BENCH_LEVELS.includes(l as BenchLevel)) throw new ConfigError(`levels: unknown level "${l}" (known: ${BENCH_LEVELS.join(', ')})`);
    config.tasks = tasks as BenchTask[];
    config.levels = levels as BenchLevel[];
    if (raw.corpus !== undefined) {
      const c = raw.corpus;
      if (!isObject(c) || typeof c.digest !== 'string' || c.digest === '') throw new ConfigError('corpus must be an object with the corpus digest: {"digest": "…"}');
      for (const k of Object.keys(c)) if (!['digest', 'source', 'files'].includes(k)) throw new ConfigError(`corpus: unknown field "${k}"`);
      if (c.source !== undefined && typeof c.source !== 'string') throw new ConfigError('corpus.source must be a string');
      if (c.files !== undefined && (typeof c.files !== 'number' || !Number.isInteger(c.files) || c.files < 0)) throw new ConfigError('corpus.files must be a count');
    }
    if (raw.sampling !== undefined) {
      if (!isObject(raw.sampling)) throw new ConfigError('sampling must be an object');
      for (const [k, v] of Object.entries(raw.sampling)) {
        if (!(k in DEFAULT_SAMPLING)) throw new ConfigError(`sampling: unknown field "${k}"`);
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new ConfigError(`sampling.${k} must be a positive integer`);
      }
    }
  },
  identityParts(base) {
    const config = base as LibEvoBenchConfig;
    const apiC = config.tasks.includes('API-C');
    return {
      contract: PROMPT_CONTRACT_VERSION,
      ...sharedIdentityParts(config),
      tasks: [...config.tasks].sort(),
      levels: apiC ? [...config.levels].sort() : [],
      sampling: { ...DEFAULT_SAMPLING, ...config.sampling },
      // Runs without a grounded arm keep the identity they had before arms existed; so do runs that read no corpus.
      ...(runArms(config).includes('grounded') ? { arms: [...runArms(config)].sort() } : {}),
      ...(apiC && config.corpus ? { corpus: config.corpus.digest } : {}),
    };
  },
  mustMatch: 'suite, libraries, versions, tasks, levels, model, sampling, seed and corpus',
  explainMismatch(file, stored, given, differs) {
    if (!differs.includes('corpus')) return null;
    // The code under the corpus changed (or another corpus was given): its API-C samples are not this run's.
    return `${file} belongs to a different run: it was built from another corpus, ${describeCorpus((stored as LibEvoBenchConfig).corpus)}; this run reads ${describeCorpus((given as LibEvoBenchConfig).corpus)}. The code changed since the run started, so its API-C samples would differ. Restore that code to resume, or start a new run (another --out folder)`;
  },
};

export const LIBEVOBENCH_IDENTITY = identityFrom(() => LIBEVOBENCH_CONFIG);
