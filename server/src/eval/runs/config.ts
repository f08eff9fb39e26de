// A run config: what a benchmark run measures (suite, libraries, versions, tasks, levels, sampling, seed), with which
// model, and how much of it (limit, shard). Validated from untrusted JSON; its identity decides whether a run
// database may be resumed or merged with another.
import { createHash } from 'node:crypto';
import { ConfigError, modelIdentity, validateModelConfig, type ModelConfig } from '../models/config.js';
import { BENCH_LEVELS, BENCH_TASKS, PROMPT_CONTRACT_VERSION, type BenchLevel, type BenchTask } from '../libevobench/prompt-contract.js';
import { ARMS, type Arm } from './arms.js';
import { canonicalJson, checkShard, parseShard, type ShardSpec } from './samples.js';
import { DRIFT_DEFAULTS, driftIdentity, validateDriftSettings, type DriftSettings } from '../drift/config.js';
import { DRIFT_GROUNDING_VERSION } from '../drift/prompts.js';

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

export interface RunConfig {
  /** Free text shown in reports. */
  name?: string;
  /**
   * The dataset family, e.g. "libevobench" (matrices' libraries), "workspace" (API-C from the user's code) or "drift"
   * (the execution-based drift suite: generated code run in every version environment; docs/benchmark-drift.md).
   */
  suite: string;
  /** Import names, e.g. ["numpy"]. */
  libraries: string[];
  /** Versions per library; a library not listed uses every tracked version (drift: every environment available). */
  versions?: Record<string, string[]>;
  /** LibEvoBench tasks ([] for the drift suite). */
  tasks: BenchTask[];
  /** API-C levels (ignored by API-I and SR). */
  levels: BenchLevel[];
  /** The drift suite's settings (suite "drift" only). */
  drift?: DriftSettings;
  model: ModelConfig;
  sampling?: SamplingConfig;
  seed: number;
  /** Only the first N samples of the dataset (quick runs). */
  limit?: number;
  /** This process's share of the samples. */
  shard?: ShardSpec;
  /** Requests in flight (default 8). */
  concurrency?: number;
  /**
   * "plain" (the default) asks the prompts as they are; "grounded" asks them with anachron's answer included
   * (runs/arms.ts; the drift suite: drift/grounding.ts); both, and the report sets the model's scores with and
   * without anachron side by side.
   */
  arms?: Arm[];
  /**
   * LibEvoBench with API-C: the corpus it was built from. Set by the CLI from the corpus it reads; a config that
   * already states a digest is only run on that corpus.
   */
  corpus?: CorpusIdentity;
}

export const DEFAULT_CONCURRENCY = 8;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringList(v: unknown, where: string): string[] {
  if (!Array.isArray(v) || v.length === 0 || !v.every((s) => typeof s === 'string' && s.length > 0)) throw new ConfigError(`${where} must be a non-empty list of strings`);
  return v as string[];
}

/** Checks a run config from JSON (shard may be "i/n" or {index, count}); throws ConfigError naming the field. */
export function validateRunConfig(raw: unknown): RunConfig {
  if (!isObject(raw)) throw new ConfigError('the run config must be a JSON object');
  const known = new Set(['name', 'suite', 'libraries', 'versions', 'tasks', 'levels', 'model', 'sampling', 'seed', 'limit', 'shard', 'concurrency', 'drift', 'arms', 'corpus', '$schema', 'comment']);
  for (const k of Object.keys(raw)) if (!known.has(k)) throw new ConfigError(`unknown field "${k}" in the run config`);
  if (raw.name !== undefined && typeof raw.name !== 'string') throw new ConfigError('name must be a string');
  if (typeof raw.suite !== 'string' || raw.suite === '') throw new ConfigError('suite must name the dataset family, e.g. "libevobench"');
  const libraries = stringList(raw.libraries, 'libraries');
  if (raw.versions !== undefined) {
    if (!isObject(raw.versions)) throw new ConfigError('versions must map a library to a list of versions');
    for (const [lib, list] of Object.entries(raw.versions)) stringList(list, `versions.${lib}`);
  }
  const isDrift = raw.suite === 'drift';
  const emptyOrAbsent = (v: unknown) => v === undefined || (Array.isArray(v) && v.length === 0);
  if (isDrift && (!emptyOrAbsent(raw.tasks) || !emptyOrAbsent(raw.levels) || raw.sampling !== undefined)) {
    throw new ConfigError('suite "drift" takes no tasks, levels or sampling: its tasks come from drift.taskFiles');
  }
  if (!isDrift && raw.drift !== undefined) throw new ConfigError('drift settings need suite "drift"');
  const tasks = isDrift ? [] : stringList(raw.tasks, 'tasks');
  for (const t of tasks) if (!BENCH_TASKS.includes(t as BenchTask)) throw new ConfigError(`tasks: unknown task "${t}" (known: ${BENCH_TASKS.join(', ')})`);
  const levels = isDrift ? [] : raw.levels === undefined ? [...BENCH_LEVELS] : stringList(raw.levels, 'levels');
  for (const l of levels) if (!BENCH_LEVELS.includes(l as BenchLevel)) throw new ConfigError(`levels: unknown level "${l}" (known: ${BENCH_LEVELS.join(', ')})`);
  if (raw.arms !== undefined) {
    const arms = stringList(raw.arms, 'arms');
    for (const a of arms) if (!ARMS.includes(a as Arm)) throw new ConfigError(`arms: unknown arm "${a}" (known: ${ARMS.join(', ')})`);
    if (new Set(arms).size !== arms.length) throw new ConfigError('arms: each arm once');
  }
  if (raw.corpus !== undefined) {
    if (isDrift) throw new ConfigError('corpus applies to the LibEvoBench suites (API-C); the drift suite has no corpus');
    const c = raw.corpus;
    if (!isObject(c) || typeof c.digest !== 'string' || c.digest === '') throw new ConfigError('corpus must be an object with the corpus digest: {"digest": "…"}');
    for (const k of Object.keys(c)) if (!['digest', 'source', 'files'].includes(k)) throw new ConfigError(`corpus: unknown field "${k}"`);
    if (c.source !== undefined && typeof c.source !== 'string') throw new ConfigError('corpus.source must be a string');
    if (c.files !== undefined && (typeof c.files !== 'number' || !Number.isInteger(c.files) || c.files < 0)) throw new ConfigError('corpus.files must be a count');
  }
  const model = validateModelConfig(raw.model);
  const drift = isDrift ? validateDriftSettings(raw.drift) : undefined;
  // The drift suite samples like the paper (T = 0.8, 1,024 tokens) unless the model config says otherwise; written
  // into the config so that its identity states what was used.
  if (isDrift) {
    model.temperature ??= DRIFT_DEFAULTS.temperature;
    model.maxTokens ??= DRIFT_DEFAULTS.maxTokens;
  }
  if (raw.sampling !== undefined) {
    if (!isObject(raw.sampling)) throw new ConfigError('sampling must be an object');
    for (const [k, v] of Object.entries(raw.sampling)) {
      if (!(k in DEFAULT_SAMPLING)) throw new ConfigError(`sampling: unknown field "${k}"`);
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new ConfigError(`sampling.${k} must be a positive integer`);
    }
  }
  if (typeof raw.seed !== 'number' || !Number.isInteger(raw.seed)) throw new ConfigError('seed must be an integer');
  if (raw.limit !== undefined && (typeof raw.limit !== 'number' || !Number.isInteger(raw.limit) || raw.limit < 1)) throw new ConfigError('limit must be a positive integer');
  if (raw.concurrency !== undefined && (typeof raw.concurrency !== 'number' || !Number.isInteger(raw.concurrency) || raw.concurrency < 1 || raw.concurrency > 1024)) {
    throw new ConfigError('concurrency must be an integer from 1 to 1024');
  }
  let shard: ShardSpec | undefined;
  if (raw.shard !== undefined) {
    try {
      if (typeof raw.shard === 'string') shard = parseShard(raw.shard);
      else if (isObject(raw.shard)) {
        shard = { index: raw.shard.index as number, count: raw.shard.count as number };
        checkShard(shard);
      } else throw new Error('shard must be "i/n" or {index, count}');
    } catch (e) {
      throw new ConfigError((e as Error).message);
    }
  }
  const config: RunConfig = { ...(raw as unknown as RunConfig), libraries, tasks: tasks as BenchTask[], levels: levels as BenchLevel[], model, ...(drift ? { drift } : {}) };
  if (shard) config.shard = shard;
  else delete config.shard;
  return config;
}

/**
 * What makes two runs the same measurement: everything but limit, shard, concurrency, name and transport settings
 * (timeouts, retries, faults, the key's variable), plus the corpus API-C was built from. A run database is resumed,
 * and shards are merged, only under the same identity.
 */
export function runIdentity(config: RunConfig): string {
  return createHash('sha256').update(canonicalJson(identityParts(config))).digest('hex').slice(0, 24);
}

/** The parts runIdentity hashes, by name. */
function identityParts(config: RunConfig): Record<string, unknown> {
  if (config.suite === 'drift') {
    return {
      suite: config.suite,
      libraries: [...config.libraries].sort(),
      versions: config.versions ?? {},
      model: modelIdentity(config.model),
      seed: config.seed,
      drift: driftIdentity(config.drift),
      // Runs without a grounded arm keep the identity they had before arms existed.
      ...(runArms(config).includes('grounded') ? { arms: [...runArms(config)].sort(), grounding: DRIFT_GROUNDING_VERSION } : {}),
    };
  }
  const apiC = config.tasks.includes('API-C');
  return {
    contract: PROMPT_CONTRACT_VERSION,
    suite: config.suite,
    libraries: [...config.libraries].sort(),
    versions: config.versions ?? {},
    tasks: [...config.tasks].sort(),
    levels: apiC ? [...config.levels].sort() : [],
    model: modelIdentity(config.model),
    sampling: { ...DEFAULT_SAMPLING, ...config.sampling },
    seed: config.seed,
    // Runs without a grounded arm keep the identity they had before arms existed; so do runs that read no corpus.
    ...(runArms(config).includes('grounded') ? { arms: [...runArms(config)].sort() } : {}),
    ...(apiC && config.corpus ? { corpus: config.corpus.digest } : {}),
  };
}

/** The parts of the identity in which two configs differ (names as in runIdentity: "model", "corpus", …). */
export function identityDifferences(a: RunConfig, b: RunConfig): string[] {
  const pa = identityParts(a);
  const pb = identityParts(b);
  return [...new Set([...Object.keys(pa), ...Object.keys(pb)])].filter((k) => canonicalJson(pa[k] ?? null) !== canonicalJson(pb[k] ?? null));
}

/** A corpus as messages name it. */
export function describeCorpus(corpus: CorpusIdentity | undefined): string {
  if (!corpus) return 'no corpus';
  const files = corpus.files !== undefined ? `, ${corpus.files} Python file${corpus.files === 1 ? '' : 's'}` : '';
  return `${corpus.source ?? 'a corpus'} (digest ${corpus.digest}${files})`;
}

/** The arms a run asks: the config's, else the plain prompts only. */
export function runArms(config: Pick<RunConfig, 'arms'>): Arm[] {
  return config.arms && config.arms.length > 0 ? [...config.arms] : ['plain'];
}
