// Builds the provider a run config describes. The only place that reads the API key from the environment.
import { startLocalModelServer } from '../local-server/server.js';
import { BuiltinProvider } from './builtin.js';
import { ConfigError, VSCODE_LM_NEEDS_EDITOR, type ModelConfig } from './config.js';
import { ConcurrencyLimiter } from './limiter.js';
import { openReferenceKnowledge, type ReferenceKnowledge } from './matrix-listing.js';
import { apiKeyFromEnvironment, OpenAICompatibleProvider } from './openai-compatible.js';
import type { ModelProvider } from './provider.js';
import type { ReferenceTaskSet } from '../drift/reference-models.js';

export interface ProviderEnvironment {
  /** Shared by the run: bounds the requests in flight. */
  limiter: ConcurrencyLimiter;
  /** Where apiKeyEnv is looked up (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Redacted retry and failure lines. */
  log?: (line: string) => void;
  /** Matrices folder for the reference models (opened on demand and closed with the provider). */
  matricesFolder?: string;
  /** Already-open matrices for the reference models (left open). */
  knowledge?: ReferenceKnowledge;
  /** The drift suite's tasks, for its built-in models (version-aware, version-oblivious). */
  driftTasks?: readonly ReferenceTaskSet[];
}

export interface OwnedProvider extends ModelProvider {
  close(): Promise<void>;
  /** How requests reach the model when that is not plain from the id, e.g. a built-in model behind the local server. */
  readonly transport?: string;
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

  let knowledge = environment.knowledge;
  let ownKnowledge: ReferenceKnowledge | undefined;
  if (!knowledge && (config.model === 'reference-pinned' || config.model === 'reference-newest')) {
    if (!environment.matricesFolder) throw new Error(`the ${config.model} model needs a matrices folder`);
    knowledge = ownKnowledge = openReferenceKnowledge(environment.matricesFolder);
  }
  const builtin = new BuiltinProvider(config.model, {
    ...(knowledge ? { catalog: knowledge.catalog, listing: knowledge.listing } : {}),
    ...(environment.driftTasks ? { driftTasks: environment.driftTasks } : {}),
    ...(config.text !== undefined ? { text: config.text } : {}),
  });
  if (config.transport === 'direct') {
    return {
      id: builtin.id,
      complete: (r, s) => environment.limiter.run(() => builtin.complete(r, s), s),
      close: async () => ownKnowledge?.close(),
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
      ownKnowledge?.close();
    },
  };
}
