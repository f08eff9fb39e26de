// Built-in models that need no network. They implement ModelProvider like any remote model and answer from the
// prompt text alone: the shared trivial baselines (echo, constant) here, and each suite's reference models, which a
// suite gives a run's provider factory (eval/<suite>/builtin-models.ts; eval/builtin-models.ts names them all).
import { performance } from 'node:perf_hooks';
import { abortError, type ChatMessage, type CompletionRequest, type CompletionResponse, type ModelProvider } from './provider.js';

/** A built-in model: the answer to a prompt, from its text. */
export type Answer = (messages: readonly ChatMessage[]) => string;

/** The built-in models every suite offers. */
export const SHARED_BUILTIN_MODELS: readonly string[] = ['echo', 'constant'];

/** A suite's built-in model opened for a run: its answer, and what to release when the run ends. */
export interface OpenedModel {
  answer: Answer;
  close?(): void;
}

/** Opens the built-in model a config names, when the suite defines it (undefined: not one of the suite's). */
export type BuiltinOpener = (config: { model: string; text?: string }) => OpenedModel | undefined;

/** echo (the last user message) and constant (a fixed text, default "None"). */
export function sharedAnswer(model: string, text?: string): Answer | undefined {
  if (model === 'echo') return (messages) => [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  if (model === 'constant') return () => text ?? 'None';
  return undefined;
}

/** Cuts the text at the first stop sequence, as an OpenAI-compatible server does. */
export function applyStop(text: string, stop: readonly string[] | undefined): string {
  let end = text.length;
  for (const s of stop ?? []) {
    if (s === '') continue;
    const i = text.indexOf(s);
    if (i >= 0 && i < end) end = i;
  }
  return text.slice(0, end);
}

/** Rough token count (4 characters a token) for the usage figures of built-in models. */
export function approximateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** A built-in model as a provider: id "builtin:NAME", usage estimated, stop sequences applied. */
export class AnswerProvider implements ModelProvider {
  readonly id: string;

  constructor(readonly model: string, private readonly respond: Answer) {
    this.id = `builtin:${model}`;
  }

  /** The answer, synchronously: the local server calls this directly. */
  answer(request: Pick<CompletionRequest, 'messages'>): string {
    return this.respond(request.messages);
  }

  async complete(request: CompletionRequest, signal?: AbortSignal): Promise<CompletionResponse> {
    if (signal?.aborted) throw abortError(signal);
    const started = performance.now();
    const text = applyStop(this.answer(request), request.stop);
    const promptTokens = approximateTokens(request.messages.map((m) => m.content).join('\n'));
    const completionTokens = approximateTokens(text);
    return { text, usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens }, latencyMs: performance.now() - started, attempts: 1 };
  }
}
