// What a run config says about its model, validated from untrusted JSON. API keys never appear here: a remote model
// names the environment variable that holds its key (apiKeyEnv).
import type { FaultConfig } from '../local-server/faults.js';
import { SHARED_BUILTIN_MODELS } from './builtin.js';
import type { RetryPolicy } from './retry.js';
import { isObject } from '../../core/json-value.js';
import { InputError } from '../../core/errors.js';

export interface RequestSettings {
  /** Default 0. */
  temperature?: number;
  /** Default 512. */
  maxTokens?: number;
  stop?: string[];
}

export interface RemoteModelConfig extends RequestSettings {
  provider: 'openai-compatible';
  /** e.g. "https://api.openai.com/v1". */
  baseUrl: string;
  model: string;
  /** Name of the environment variable that holds the API key (omit for endpoints without auth). */
  apiKeyEnv?: string;
  authHeader?: 'authorization' | 'api-key';
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Per-attempt timeout, default 60 000 ms. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
}

export interface BuiltinModelConfig extends RequestSettings {
  provider: 'builtin';
  /** echo, constant, or a built-in model of the run's suite (its reference models). */
  model: string;
  /**
   * "http" (default): served by the local OpenAI-compatible server and called through the same client as a remote
   * model, faults included; "direct": called in-process.
   */
  transport?: 'http' | 'direct';
  /** Fault injection on the local server (http transport only). */
  faults?: FaultConfig;
  /** The answer of the `constant` model. */
  text?: string;
  /** Client settings for the http transport. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
}

/**
 * VS Code's Language Model API (vscode.lm, e.g. Copilot's models): only the editor can call it, so a run with this
 * model starts from the editor, which serves the model to the `bench run` process over IPC (ipc-provider.ts). The
 * selector names the model as vscode.lm.selectChatModels does; it is part of the run's identity, so a config file
 * says which model answered and the same choices resume the same run.
 */
export interface VscodeLmModelConfig extends RequestSettings {
  provider: 'vscode-lm';
  /** e.g. "copilot". */
  vendor?: string;
  /** e.g. "gpt-4o". */
  family?: string;
  /** The model's id as vscode.lm gives it. */
  id?: string;
  /** The model's version as vscode.lm gives it: a new version is another measurement. */
  version?: string;
  /** The name VS Code shows, for reports; not part of the identity. */
  name?: string;
  /** Never set: vscode.lm models are chosen by the selector (vendor, family, id, version). */
  model?: undefined;
  /** Per-attempt timeout of a request over IPC (default 120 000 ms). */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
}

export type ModelConfig = RemoteModelConfig | BuiltinModelConfig | VscodeLmModelConfig;

/** The selector fields of a vscode-lm model config, in the order vscode.lm lists them. */
export const VSCODE_LM_SELECTOR_FIELDS = ['vendor', 'family', 'id', 'version'] as const;

/** Why a vscode-lm model cannot run here: said by the CLI and by createProvider when no editor serves the model. */
export const VSCODE_LM_NEEDS_EDITOR =
  'vscode-lm models are only available when the run starts from the editor ("anachron: Run Benchmark…" serves VS Code\'s language models to the run over IPC); to run this config from the CLI, give it an "openai-compatible" or "builtin" model';

export const DEFAULT_TEMPERATURE = 0;
export const DEFAULT_MAX_TOKENS = 512;

export class ConfigError extends InputError {
  override readonly name: string = 'ConfigError';
}

const SECRET_FIELDS = ['apiKey', 'api_key', 'key', 'token', 'secret', 'password', 'authorization'];

function optionalNumber(o: Record<string, unknown>, field: string, where: string, check: (n: number) => boolean, what: string): void {
  const v = o[field];
  if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || !check(v))) throw new ConfigError(`${where}.${field} must be ${what}`);
}

function checkRetry(v: unknown, where: string): void {
  if (v === undefined) return;
  if (!isObject(v)) throw new ConfigError(`${where}.retry must be an object`);
  optionalNumber(v, 'maxAttempts', `${where}.retry`, (n) => Number.isInteger(n) && n >= 1 && n <= 100, 'an integer from 1 to 100');
  for (const f of ['baseDelayMs', 'maxDelayMs', 'maxRetryAfterMs']) optionalNumber(v, f, `${where}.retry`, (n) => n >= 0, 'a number ≥ 0');
}

/** Checks a model config from JSON; throws ConfigError with the field at fault. `suiteModels`: the suite's built-in models. */
export function validateModelConfig(raw: unknown, where = 'model', suiteModels: readonly string[] = []): ModelConfig {
  if (!isObject(raw)) throw new ConfigError(`${where} must be an object`);
  for (const f of SECRET_FIELDS) {
    if (f in raw) throw new ConfigError(`${where}.${f}: API keys are never read from a config file; put the key in an environment variable and name it in ${where}.apiKeyEnv`);
  }
  optionalNumber(raw, 'temperature', where, (n) => n >= 0 && n <= 2, 'a number from 0 to 2');
  optionalNumber(raw, 'maxTokens', where, (n) => Number.isInteger(n) && n >= 1, 'a positive integer');
  optionalNumber(raw, 'timeoutMs', where, (n) => n > 0, 'a positive number');
  if (raw.stop !== undefined && (!Array.isArray(raw.stop) || !raw.stop.every((s) => typeof s === 'string'))) throw new ConfigError(`${where}.stop must be a list of strings`);
  checkRetry(raw.retry, where);
  if (raw.provider === 'openai-compatible') {
    if (typeof raw.baseUrl !== 'string' || !/^https?:\/\//.test(raw.baseUrl)) throw new ConfigError(`${where}.baseUrl must be an http(s) URL`);
    try {
      const u = new URL(raw.baseUrl);
      if (u.username || u.password) throw new ConfigError(`${where}.baseUrl must not carry credentials; use apiKeyEnv`);
    } catch (e) {
      if (e instanceof ConfigError) throw e;
      throw new ConfigError(`${where}.baseUrl is not a URL`);
    }
    if (typeof raw.model !== 'string' || raw.model === '') throw new ConfigError(`${where}.model must name the model`);
    if (raw.apiKeyEnv !== undefined && (typeof raw.apiKeyEnv !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(raw.apiKeyEnv))) {
      throw new ConfigError(`${where}.apiKeyEnv must be the name of an environment variable`);
    }
    if (raw.authHeader !== undefined && raw.authHeader !== 'authorization' && raw.authHeader !== 'api-key') throw new ConfigError(`${where}.authHeader must be "authorization" or "api-key"`);
    if (raw.maxTokensField !== undefined && raw.maxTokensField !== 'max_tokens' && raw.maxTokensField !== 'max_completion_tokens') {
      throw new ConfigError(`${where}.maxTokensField must be "max_tokens" or "max_completion_tokens"`);
    }
    return raw as unknown as RemoteModelConfig;
  }
  if (raw.provider === 'builtin') {
    const builtins = [...suiteModels, ...SHARED_BUILTIN_MODELS];
    if (!builtins.includes(raw.model as string)) throw new ConfigError(`${where}.model must be one of ${builtins.join(', ')}`);
    if (raw.transport !== undefined && raw.transport !== 'http' && raw.transport !== 'direct') throw new ConfigError(`${where}.transport must be "http" or "direct"`);
    if (raw.faults !== undefined) {
      if (!isObject(raw.faults)) throw new ConfigError(`${where}.faults must be an object`);
      for (const f of ['timeout', 'rateLimit', 'serverError', 'malformed', 'drop']) optionalNumber(raw.faults, f, `${where}.faults`, (n) => n >= 0 && n <= 1, 'a probability from 0 to 1');
      for (const f of ['retryAfterSeconds', 'retryAfterMs', 'delayMs', 'seed']) optionalNumber(raw.faults, f, `${where}.faults`, (n) => n >= 0, 'a number ≥ 0');
      if (raw.transport === 'direct') throw new ConfigError(`${where}.faults needs the http transport`);
    }
    if (raw.text !== undefined && typeof raw.text !== 'string') throw new ConfigError(`${where}.text must be a string`);
    return raw as unknown as BuiltinModelConfig;
  }
  if (raw.provider === 'vscode-lm') {
    if (raw.model !== undefined) throw new ConfigError(`${where}.model: vscode-lm models are chosen by ${VSCODE_LM_SELECTOR_FIELDS.join(', ')} (e.g. {"provider": "vscode-lm", "vendor": "copilot", "family": "gpt-4o"}), not by "model"`);
    for (const f of [...VSCODE_LM_SELECTOR_FIELDS, 'name']) {
      if (raw[f] !== undefined && (typeof raw[f] !== 'string' || raw[f] === '')) throw new ConfigError(`${where}.${f} must be a non-empty string`);
    }
    // Without a selector the run would be recorded under whichever model the editor happened to offer.
    if (!VSCODE_LM_SELECTOR_FIELDS.some((f) => raw[f] !== undefined)) throw new ConfigError(`${where}: a vscode-lm model needs a selector: ${VSCODE_LM_SELECTOR_FIELDS.join(', ')} (at least one)`);
    return raw as unknown as VscodeLmModelConfig;
  }
  throw new ConfigError(`${where}.provider must be "openai-compatible", "builtin" or "vscode-lm"`);
}

/** How a model config reads in reports and messages when no answer has named the provider yet. */
export function modelConfigLabel(config: ModelConfig): string {
  if (config.provider === 'vscode-lm') return `vscode-lm:${VSCODE_LM_SELECTOR_FIELDS.map((f) => config[f]).filter(Boolean).join('/')}`;
  return `${config.provider}:${config.model}`;
}

/** The parts of a model config that change its answers (not how they are fetched): part of a run's identity. */
export function modelIdentity(config: ModelConfig): Record<string, unknown> {
  const common = { temperature: config.temperature ?? DEFAULT_TEMPERATURE, maxTokens: config.maxTokens ?? DEFAULT_MAX_TOKENS, stop: config.stop ?? [] };
  if (config.provider === 'openai-compatible') return { provider: config.provider, baseUrl: config.baseUrl.replace(/\/+$/, ''), model: config.model, ...common };
  if (config.provider === 'vscode-lm') return { provider: config.provider, ...Object.fromEntries(VSCODE_LM_SELECTOR_FIELDS.map((f) => [f, config[f] ?? null])), ...common };
  return { provider: config.provider, model: config.model, ...(config.model === 'constant' ? { text: config.text ?? null } : {}), ...common };
}
