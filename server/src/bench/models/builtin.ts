// Built-in models that need no network: the reference models (documentation retrieval over the matrices, pinned or
// newest column) and trivial baselines for tests (echo, constant). They implement ModelProvider like any remote model
// and answer from the prompt text alone.
import { performance } from 'node:perf_hooks';
import type { MatrixCatalog } from '../../core/api-model.js';
import { abortError, type CompletionRequest, type CompletionResponse, type ModelProvider } from './provider.js';
import { ReferenceModel, type ApiListing } from './reference.js';

export type BuiltinModelName = 'reference-pinned' | 'reference-newest' | 'echo' | 'constant';
export const BUILTIN_MODELS: readonly BuiltinModelName[] = ['reference-pinned', 'reference-newest', 'echo', 'constant'];

export interface BuiltinOptions {
  /** Needed by the reference models. */
  catalog?: MatrixCatalog;
  listing?: ApiListing;
  /** The text `constant` answers (default "None"). */
  text?: string;
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

export class BuiltinProvider implements ModelProvider {
  readonly id: string;
  private readonly reference?: ReferenceModel;

  constructor(readonly model: BuiltinModelName, private readonly options: BuiltinOptions = {}) {
    if (!BUILTIN_MODELS.includes(model)) throw new Error(`unknown built-in model "${String(model)}" (known: ${BUILTIN_MODELS.join(', ')})`);
    this.id = `builtin:${model}`;
    if (model === 'reference-pinned' || model === 'reference-newest') {
      if (!options.catalog || !options.listing) throw new Error(`the ${model} model needs the matrices (a catalog and an API listing)`);
      this.reference = new ReferenceModel(options.catalog, options.listing, model === 'reference-pinned' ? 'pinned' : 'newest');
    }
  }

  /** The answer, synchronously: the local server calls this directly. */
  answer(request: Pick<CompletionRequest, 'messages'>): string {
    switch (this.model) {
      case 'echo':
        return [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      case 'constant':
        return this.options.text ?? 'None';
      default:
        return this.reference!.answerPrompt(request.messages);
    }
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
