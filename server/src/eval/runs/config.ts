// A run config: what a benchmark run measures (suite, libraries, versions, model, seed, arms and the suite's own
// settings), with which model, and how much of it (limit, shard, concurrency). This module validates the parts every
// suite shares and leaves the rest to the suite's rules (eval/<suite>/config.ts); a suite also says what makes two of
// its runs the same measurement (the run's identity), which decides whether a run database may be resumed or merged.
import { createHash } from 'node:crypto';
import { ConfigError, modelIdentity, validateModelConfig, type ModelConfig } from '../models/config.js';
import { ARMS, type Arm } from './arms.js';
import { canonicalJson, checkShard, parseShard, type ShardSpec } from './samples.js';
import { isObject } from '../../core/json-value.js';

/** What every run config says; a suite's config type adds its own fields. */
export interface RunConfigBase {
  /** Free text shown in reports. */
  name?: string;
  /** The suite that runs it (eval/suites.ts names them), e.g. "libevobench" or "drift". */
  suite: string;
  /** Import names, e.g. ["numpy"]. */
  libraries: string[];
  /** Versions per library; a library not listed uses every version the suite can run. */
  versions?: Record<string, string[]>;
  model: ModelConfig;
  seed: number;
  /** Only the first N samples of the dataset (quick runs). */
  limit?: number;
  /** This process's share of the samples. */
  shard?: ShardSpec;
  /** Requests in flight (default 8). */
  concurrency?: number;
  /**
   * "plain" (the default) asks the prompts as they are; "grounded" asks them with anachron's answer included
   * (each suite's grounding.ts); both, and the report sets the model's scores with and without anachron side by side.
   */
  arms?: Arm[];
}

export const DEFAULT_CONCURRENCY = 8;

/** What a suite says about its configs: the fields it reads, how they are checked, and what identifies a run. */
export interface SuiteConfigRules {
  /** Top-level fields of a run config this suite reads besides the shared ones. */
  fields: readonly string[];
  /** Names of the built-in models valid in the suite's configs (model.provider "builtin"). */
  builtinModels: readonly string[];
  /** Checks the suite's fields of `raw` and writes them (with their defaults) into `config`; throws ConfigError. */
  validate(raw: Record<string, unknown>, config: RunConfigBase): void;
  /** The suite's defaults for what the model config leaves out (written into the config: its identity says them). */
  modelDefaults?: { temperature?: number; maxTokens?: number };
  /** What makes two runs of the suite the same measurement, by name (hashed into the identity). */
  identityParts(config: RunConfigBase): Record<string, unknown>;
  /** The fields a resume needs to match, for the message when it cannot: "suite, libraries, …". */
  mustMatch: string;
  /** A suite's own account of why a stored run is not this one, given the parts that differ; null for the usual one. */
  explainMismatch?(file: string, stored: RunConfigBase, given: RunConfigBase, differs: readonly string[]): string | null;
}

export function stringList(v: unknown, where: string): string[] {
  if (!Array.isArray(v) || v.length === 0 || !v.every((s) => typeof s === 'string' && s.length > 0)) throw new ConfigError(`${where} must be a non-empty list of strings`);
  return v as string[];
}

const SHARED_FIELDS = ['name', 'suite', 'libraries', 'versions', 'model', 'seed', 'limit', 'shard', 'concurrency', 'arms', '$schema', 'comment'];

/**
 * Checks a run config from JSON (shard may be "i/n" or {index, count}) with the rules of its suite (`rulesOf` gives
 * them by the config's "suite"); throws ConfigError naming the field.
 */
export function validateRunConfigWith(raw: unknown, rulesOf: (suite: string) => SuiteConfigRules): RunConfigBase {
  if (!isObject(raw)) throw new ConfigError('the run config must be a JSON object');
  if (typeof raw.suite !== 'string' || raw.suite === '') throw new ConfigError('suite must name the dataset family, e.g. "libevobench"');
  const rules = rulesOf(raw.suite);
  const fields = new Set([...SHARED_FIELDS, ...rules.fields]);
  for (const k of Object.keys(raw)) if (!fields.has(k)) throw new ConfigError(`unknown field "${k}" in the run config`);
  if (raw.name !== undefined && typeof raw.name !== 'string') throw new ConfigError('name must be a string');
  const libraries = stringList(raw.libraries, 'libraries');
  if (raw.versions !== undefined) {
    if (!isObject(raw.versions)) throw new ConfigError('versions must map a library to a list of versions');
    for (const [lib, list] of Object.entries(raw.versions)) stringList(list, `versions.${lib}`);
  }
  const config = { ...raw, libraries } as unknown as RunConfigBase;
  rules.validate(raw, config);
  if (raw.arms !== undefined) {
    const arms = stringList(raw.arms, 'arms');
    for (const a of arms) if (!ARMS.includes(a as Arm)) throw new ConfigError(`arms: unknown arm "${a}" (known: ${ARMS.join(', ')})`);
    if (new Set(arms).size !== arms.length) throw new ConfigError('arms: each arm once');
  }
  config.model = validateModelConfig(raw.model, 'model', rules.builtinModels);
  // Written into the config, so that its identity states what was used.
  const defaults = rules.modelDefaults ?? {};
  if (defaults.temperature !== undefined) config.model.temperature ??= defaults.temperature;
  if (defaults.maxTokens !== undefined) config.model.maxTokens ??= defaults.maxTokens;
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
      } else throw new ConfigError('shard must be "i/n" or {index, count}');
    } catch (e) {
      throw new ConfigError((e as Error).message);
    }
  }
  if (shard) config.shard = shard;
  else delete config.shard;
  return config;
}

/** What makes two runs the same measurement, as the run store checks it on resume and merge. */
export interface RunIdentity {
  of(config: RunConfigBase): string;
  /** Why the run stored in `file` is not the one `given` describes, when their identities differ. */
  mismatch(file: string, stored: { identity: string; config: RunConfigBase }, given: RunConfigBase): string;
  /** The parts of the identity in which two configs differ (names as the suite gives them: "model", "corpus", …). */
  differences(a: RunConfigBase, b: RunConfigBase): string[];
}

/** A suite's identity rules as the run store uses them: a hash of its identity parts, and its mismatch message. */
export function identityFrom(rulesOf: (config: RunConfigBase) => SuiteConfigRules): RunIdentity {
  const differences = (a: RunConfigBase, b: RunConfigBase): string[] => {
    const pa = rulesOf(a).identityParts(a);
    const pb = rulesOf(b).identityParts(b);
    return [...new Set([...Object.keys(pa), ...Object.keys(pb)])].filter((k) => canonicalJson(pa[k] ?? null) !== canonicalJson(pb[k] ?? null));
  };
  const identity: RunIdentity = {
    of: (config) => createHash('sha256').update(canonicalJson(rulesOf(config).identityParts(config))).digest('hex').slice(0, 24),
    differences,
    mismatch: (file, stored, given) => {
      const differs = differences(stored.config, given);
      const rules = rulesOf(given);
      const own = rules.explainMismatch?.(file, stored.config, given, differs);
      if (own) return own;
      return `${file} belongs to a different run (identity ${stored.identity}, this config ${identity.of(given)}${differs.length ? `; they differ in ${differs.join(', ')}` : ''}): ${rules.mustMatch} must match to resume`;
    },
  };
  return identity;
}

/** The arms a run asks: the config's, else the plain prompts only. */
export function runArms(config: Pick<RunConfigBase, 'arms'>): Arm[] {
  return config.arms && config.arms.length > 0 ? [...config.arms] : ['plain'];
}

/** A run's identity parts that every suite has. */
export function sharedIdentityParts(config: RunConfigBase): Record<string, unknown> {
  return { suite: config.suite, libraries: [...config.libraries].sort(), versions: config.versions ?? {}, model: modelIdentity(config.model), seed: config.seed };
}

/** The identity of a run that already has one (its shards being merged): whatever the config, that identity. */
export function knownIdentity(identity: string): RunIdentity {
  return { of: () => identity, differences: () => [], mismatch: (file) => `${file} belongs to a different run (identity ${identity})` };
}
