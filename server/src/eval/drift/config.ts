// The `drift` block of a run config (suite "drift"): where the tasks come from, how many samples per prompt, the
// sandbox's limits, repair rounds, and optional interpreters per (library, version). Validated from untrusted JSON;
// the parts that change the measurement enter the run's identity (eval/runs/config.ts).
import { ConfigError } from '../models/config.js';
import { isObject } from '../../core/json-value.js';
import { identityFrom, runArms, sharedIdentityParts, type RunConfigBase, type SuiteConfigRules } from '../runs/config.js';
import { SANDBOX_DEFAULTS } from '../../environments/sandbox.js';
import { DRIFT_GROUNDING_VERSION, DRIFT_PROMPT_VERSION } from './prompts.js';

export interface DriftEnvironmentOverride {
  /** The command that runs Python with exactly this version importable, e.g. ["/opt/np124/bin/python"]. */
  argv: string[];
  env?: Record<string, string>;
}

/** A HumanEval-style task file (JSON array or JSON Lines of task_id, prompt, entry_point, test): humaneval.ts. */
export interface HumanEvalTaskFile {
  file: string;
  /** The import name the tasks are for ({library} in the prompts). */
  library: string;
  distribution?: string;
  /** The version anchor put before each record's prompt (default: humaneval.ts's DEFAULT_ANCHOR). */
  anchor?: string;
  /** Category of records without one. */
  category?: string;
}

export interface DriftSettings {
  /**
   * Task files, relative to the config file's folder or absolute: drift task files (the format of
   * tasks/drift/LIBRARY.json) as paths, HumanEval-style files as {file, library, …}. Default: the bundled task file of
   * each library in the config.
   */
  taskFiles?: (string | HumanEvalTaskFile)[];
  /** Only these task ids (default: every task of the files). */
  taskIds?: string[];
  /** Samples generated per prompt, n (paper: 3). Pass@k is reported for every k ≤ n. Default 3. */
  samplesPerPrompt?: number;
  /** Wall-clock limit per execution (default 30 000 ms, as the paper). */
  timeoutMs?: number;
  /** Address-space limit per execution in MiB (default: the sandbox's, 4096). */
  memoryMb?: number;
  /** Processes a sample may start (default: the sandbox's, 8). */
  maxProcesses?: number;
  /** Repair: rounds per failing (sample, newer version), 0 for none (default 3: round 1 is the paper's single shot). */
  repairRounds?: number;
  /** Put the matrices' migration notes in repair prompts (default true; false measures repair from the trace alone). */
  migrationNotes?: boolean;
  /** Executions in parallel (default: one per CPU). Not part of the identity. */
  executionConcurrency?: number;
  /** Interpreters per library and version instead of the environment registry's. Not part of the identity. */
  environments?: Record<string, Record<string, DriftEnvironmentOverride>>;
  /** Set when the run starts: a digest of the tasks the run uses (prompts, harnesses, categories). */
  tasksDigest?: string;
}

export const DRIFT_DEFAULTS = {
  samplesPerPrompt: 3,
  timeoutMs: 30_000,
  memoryMb: SANDBOX_DEFAULTS.memoryMb,
  maxProcesses: SANDBOX_DEFAULTS.maxProcesses,
  repairRounds: 3,
  migrationNotes: true,
  /** The paper's sampling settings for drift runs when the model config says nothing. */
  temperature: 0.8,
  maxTokens: 1024,
} as const;

function integer(v: unknown, where: string, min: number, max: number): void {
  if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)) throw new ConfigError(`${where} must be an integer from ${min} to ${max}`);
}

function strings(v: unknown, where: string): void {
  if (v !== undefined && (!Array.isArray(v) || v.length === 0 || !v.every((s) => typeof s === 'string' && s.length > 0))) throw new ConfigError(`${where} must be a non-empty list of strings`);
}

const FIELDS = ['taskFiles', 'taskIds', 'samplesPerPrompt', 'timeoutMs', 'memoryMb', 'maxProcesses', 'repairRounds', 'migrationNotes', 'executionConcurrency', 'environments', 'tasksDigest', 'comment'];

/** Checks the drift block (absent: every default); throws ConfigError naming the field. */
export function validateDriftSettings(raw: unknown): DriftSettings {
  if (raw === undefined) return {};
  if (!isObject(raw)) throw new ConfigError('drift must be an object');
  for (const k of Object.keys(raw)) if (!FIELDS.includes(k)) throw new ConfigError(`unknown field "${k}" in drift (known: ${FIELDS.filter((f) => f !== 'comment').join(', ')})`);
  if (raw.taskFiles !== undefined) {
    if (!Array.isArray(raw.taskFiles) || raw.taskFiles.length === 0) throw new ConfigError('drift.taskFiles must be a non-empty list');
    raw.taskFiles.forEach((f, i) => {
      const where = `drift.taskFiles[${i}]`;
      if (typeof f === 'string') {
        if (f === '') throw new ConfigError(`${where} must not be empty`);
        return;
      }
      if (!isObject(f)) throw new ConfigError(`${where} must be a path, or {file, library} for a HumanEval-style file`);
      for (const k of Object.keys(f)) if (!['file', 'library', 'distribution', 'anchor', 'category'].includes(k)) throw new ConfigError(`${where}: unknown field "${k}"`);
      for (const k of ['file', 'library']) if (typeof f[k] !== 'string' || f[k] === '') throw new ConfigError(`${where}.${k} must be a non-empty string`);
      for (const k of ['distribution', 'anchor', 'category']) if (f[k] !== undefined && typeof f[k] !== 'string') throw new ConfigError(`${where}.${k} must be a string`);
    });
  }
  strings(raw.taskIds, 'drift.taskIds');
  integer(raw.samplesPerPrompt, 'drift.samplesPerPrompt', 1, 100);
  integer(raw.timeoutMs, 'drift.timeoutMs', 100, 3_600_000);
  integer(raw.memoryMb, 'drift.memoryMb', 64, 1_048_576);
  integer(raw.maxProcesses, 'drift.maxProcesses', 1, 100_000);
  integer(raw.repairRounds, 'drift.repairRounds', 0, 20);
  integer(raw.executionConcurrency, 'drift.executionConcurrency', 1, 256);
  if (raw.migrationNotes !== undefined && typeof raw.migrationNotes !== 'boolean') throw new ConfigError('drift.migrationNotes must be true or false');
  if (raw.tasksDigest !== undefined && typeof raw.tasksDigest !== 'string') throw new ConfigError('drift.tasksDigest must be a string');
  if (raw.environments !== undefined) {
    if (!isObject(raw.environments)) throw new ConfigError('drift.environments must map a library to {version: {argv}}');
    for (const [lib, versions] of Object.entries(raw.environments)) {
      if (!isObject(versions)) throw new ConfigError(`drift.environments.${lib} must map a version to {argv}`);
      for (const [version, env] of Object.entries(versions)) {
        const where = `drift.environments.${lib}.${version}`;
        if (!isObject(env)) throw new ConfigError(`${where} must be {argv: [...], env?: {...}}`);
        strings(env.argv, `${where}.argv`);
        if (env.env !== undefined && (!isObject(env.env) || !Object.values(env.env).every((v) => typeof v === 'string'))) throw new ConfigError(`${where}.env must map names to strings`);
      }
    }
  }
  return raw as DriftSettings;
}

/** The settings with their defaults filled in. */
export function resolvedDriftSettings(settings: DriftSettings | undefined): Required<Pick<DriftSettings, 'samplesPerPrompt' | 'timeoutMs' | 'memoryMb' | 'maxProcesses' | 'repairRounds' | 'migrationNotes'>> & DriftSettings {
  const s = settings ?? {};
  return {
    ...s,
    samplesPerPrompt: s.samplesPerPrompt ?? DRIFT_DEFAULTS.samplesPerPrompt,
    timeoutMs: s.timeoutMs ?? DRIFT_DEFAULTS.timeoutMs,
    memoryMb: s.memoryMb ?? DRIFT_DEFAULTS.memoryMb,
    maxProcesses: s.maxProcesses ?? DRIFT_DEFAULTS.maxProcesses,
    repairRounds: s.repairRounds ?? DRIFT_DEFAULTS.repairRounds,
    migrationNotes: s.migrationNotes ?? DRIFT_DEFAULTS.migrationNotes,
  };
}

/** What of the drift block changes the measurement: everything but file locations, parallelism and interpreter paths. */
export function driftIdentity(settings: DriftSettings | undefined): Record<string, unknown> {
  const s = resolvedDriftSettings(settings);
  return {
    prompts: DRIFT_PROMPT_VERSION,
    taskIds: s.taskIds ? [...s.taskIds].sort() : null,
    samplesPerPrompt: s.samplesPerPrompt,
    timeoutMs: s.timeoutMs,
    memoryMb: s.memoryMb,
    maxProcesses: s.maxProcesses,
    repairRounds: s.repairRounds,
    migrationNotes: s.migrationNotes,
    tasksDigest: s.tasksDigest ?? null,
  };
}

/** A drift run's config: the shared fields and the drift block (tasks and levels stay empty: its tasks are files). */
export type DriftRunConfig = RunConfigBase & { drift?: DriftSettings; tasks?: string[]; levels?: string[] };

const emptyOrAbsent = (v: unknown) => v === undefined || (Array.isArray(v) && v.length === 0);

export const DRIFT_CONFIG: SuiteConfigRules = {
  fields: ['drift', 'tasks', 'levels', 'sampling', 'corpus'],
  builtinModels: ['version-aware', 'version-oblivious'],
  validate(raw, base) {
    const config = base as DriftRunConfig;
    if (!emptyOrAbsent(raw.tasks) || !emptyOrAbsent(raw.levels) || raw.sampling !== undefined) {
      throw new ConfigError('suite "drift" takes no tasks, levels or sampling: its tasks come from drift.taskFiles');
    }
    if (raw.corpus !== undefined) throw new ConfigError('corpus applies to the LibEvoBench suites (API-C); the drift suite has no corpus');
    config.tasks = [];
    config.levels = [];
    config.drift = validateDriftSettings(raw.drift);
  },
  // The drift suite samples like the paper (T = 0.8, 1,024 tokens) unless the model config says otherwise.
  modelDefaults: { temperature: DRIFT_DEFAULTS.temperature, maxTokens: DRIFT_DEFAULTS.maxTokens },
  identityParts(base) {
    const config = base as DriftRunConfig;
    return {
      ...sharedIdentityParts(config),
      drift: driftIdentity(config.drift),
      // Runs without a grounded arm keep the identity they had before arms existed.
      ...(runArms(config).includes('grounded') ? { arms: [...runArms(config)].sort(), grounding: DRIFT_GROUNDING_VERSION } : {}),
    };
  },
  mustMatch: 'suite, libraries, versions, model, seed, the drift settings (tasks, samples per prompt, limits, repair rounds, notes) and the arms',
};

export const DRIFT_IDENTITY = identityFrom(() => DRIFT_CONFIG);
