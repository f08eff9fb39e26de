// Builds the provider a run config describes. The only place that reads the API key from the environment.
import { startLocalModelServer } from '../local-server/server.js';
import { AnswerProvider, sharedAnswer, type BuiltinOpener, type OpenedModel } from './builtin.js';
import { ConfigError, VSCODE_LM_NEEDS_EDITOR, type BuiltinModelConfig, type ModelConfig } from './config.js';
import { ConcurrencyLimiter } from './limiter.js';
import { apiKeyFromEnvironment, OpenAICompatibleProvider } from './openai-compatible.js';
import type { ModelProvider } from './provider.js';

export interface ProviderEnvironment {
  /** Shared by the run: bounds the requests in flight. */
  limiter: ConcurrencyLimiter;
  /** Where apiKeyEnv is looked up (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Redacted retry and failure lines. */
  log?: (line: string) => void;
  /** The suite's built-in models (its reference models); echo and constant need none. */
  builtins?: BuiltinOpener;
}

export interface OwnedProvider extends ModelProvider {
  close(): Promise<void>;
  /** How requests reach the model when that is not plain from the id, e.g. a built-in model behind the local server. */
  readonly transport?: string;
}

function openBuiltin(config: BuiltinModelConfig, builtins: BuiltinOpener | undefined): OpenedModel {
  const shared = sharedAnswer(config.model, config.text);
  if (shared) return { answer: shared };
  const opened = builtins?.(config);
  if (!opened) throw new ConfigError(`the built-in model "${config.model}" belongs to another suite`);
  return opened;
}

export async function createProvider(config: ModelConfig, environment: ProviderEnvironment): Promise<OwnedProvider> {
  // Only the editor can call vscode.lm; it hands the run an IPC provider instead of asking for one here.
  if (config.provider === 'vscode-lm') throw new ConfigError(VSCODE_LM_NEEDS_EDITOR);
  if (config.provider === 'openai-compatible') {
    const apiKey = apiKeyFromEnvironment(config.apiKeyEnv, environment.env ?? process.env);
    const client = new OpenAICompatibleProvider({
      baseUrl: config.baseUrl,
      model: config.model,
      ...(apiKey !== undefined ? { apiKey } : {}),
      ...(config.authHeader ? { authHeader: config.authHeader } : {}),
      ...(config.maxTokensField ? { maxTokensField: config.maxTokensField } : {}),
      ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
      ...(config.retry ? { retry: config.retry } : {}),
      limiter: environment.limiter,
      ...(environment.log ? { log: environment.log } : {}),
    });
    return { id: client.id, complete: (r, s) => client.complete(r, s), close: async () => client.close() };
  }

  const opened = openBuiltin(config, environment.builtins);
  const builtin = new AnswerProvider(config.model, opened.answer);
  if (config.transport === 'direct') {
    return {
      id: builtin.id,
      complete: (r, s) => environment.limiter.run(() => builtin.complete(r, s), s),
      close: async () => opened.close?.(),
    };
  }
  const server = await startLocalModelServer({ models: { [config.model]: builtin }, ...(config.faults ? { faults: config.faults } : {}) });
  const client = new OpenAICompatibleProvider({
    baseUrl: server.baseUrl,
    model: config.model,
    timeoutMs: config.timeoutMs ?? 30_000,
    ...(config.retry ? { retry: config.retry } : {}),
    limiter: environment.limiter,
    ...(environment.log ? { log: environment.log } : {}),
  });
  return {
    id: builtin.id,
    transport: `the local OpenAI-compatible server (${server.baseUrl})`,
    complete: (r, s) => client.complete(r, s),
    close: async () => {
      client.close();
      await server.close();
      opened.close?.();
    },
  };
}
