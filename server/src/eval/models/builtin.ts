// Built-in models that need no network: the reference models (documentation retrieval over the matrices, pinned or
// newest column), the drift suite's reference models (version-aware and version-oblivious, over the task files'
// solutions: drift/reference-models.ts) and trivial baselines for tests (echo, constant). They implement
// ModelProvider like any remote model and answer from the prompt text alone.
import { performance } from 'node:perf_hooks';
import type { MatrixCatalog } from '../../core/api-model.js';
import { abortError, type CompletionRequest, type CompletionResponse, type ModelProvider } from './provider.js';
import { DriftReferenceModel, type ReferenceTaskSet } from '../drift/reference-models.js';
import { ReferenceModel, type ApiListing } from '../libevobench/reference-models.js';

export type BuiltinModelName = 'reference-pinned' | 'reference-newest' | 'version-aware' | 'version-oblivious' | 'echo' | 'constant';
export const BUILTIN_MODELS: readonly BuiltinModelName[] = ['reference-pinned', 'reference-newest', 'version-aware', 'version-oblivious', 'echo', 'constant'];
/** The built-in models of the drift suite: they answer from its task files. */
export const DRIFT_BUILTIN_MODELS: readonly BuiltinModelName[] = ['version-aware', 'version-oblivious'];

export interface BuiltinOptions {
  /** Needed by the reference models. */
  catalog?: MatrixCatalog;
  listing?: ApiListing;
  /** The drift suite's tasks, needed by version-aware and version-oblivious. */
  driftTasks?: readonly ReferenceTaskSet[];
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
  private readonly drift?: DriftReferenceModel;

  constructor(readonly model: BuiltinModelName, private readonly options: BuiltinOptions = {}) {
    if (!BUILTIN_MODELS.includes(model)) throw new Error(`unknown built-in model "${String(model)}" (known: ${BUILTIN_MODELS.join(', ')})`);
    this.id = `builtin:${model}`;
    if (model === 'reference-pinned' || model === 'reference-newest') {
      if (!options.catalog || !options.listing) throw new Error(`the ${model} model needs the matrices (a catalog and an API listing)`);
      this.reference = new ReferenceModel(options.catalog, options.listing, model === 'reference-pinned' ? 'pinned' : 'newest');
    }
    if (model === 'version-aware' || model === 'version-oblivious') {
      if (!options.driftTasks) throw new Error(`the ${model} model answers drift prompts: it needs the drift suite's tasks`);
      this.drift = new DriftReferenceModel(options.driftTasks, model);
    }
  }

  /** The answer, synchronously: the local server calls this directly. */
  answer(request: Pick<CompletionRequest, 'messages'>): string {
    switch (this.model) {
      case 'echo':
        return [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      case 'constant':
        return this.options.text ?? 'None';
      case 'version-aware':
      case 'version-oblivious':
        return this.drift!.answer(request.messages);
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
