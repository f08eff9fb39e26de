// VS Code's Language Model API (vscode.lm, e.g. Copilot's models) as the model of a benchmark run started from the
// editor. The run itself is a child process; each of its completion requests arrives over the IPC channel
// (serveModelOverIpc) and is answered here with model.sendRequest, under a cancellation token tied to the request.
// Failures become the benchmark's error kinds (mapLanguageModelError in run-flow.ts).
import { CancellationTokenSource, LanguageModelChatMessage, lm, type LanguageModelChat } from 'vscode';
import type { ModelHandler } from '../../../server/src/eval/models/ipc-provider.js';
import { abortError } from '../../../server/src/eval/models/provider.js';
import { mapLanguageModelError, toLanguageModelMessages } from './run-flow.js';

/** Every chat model VS Code offers now (none where no extension provides one, e.g. in code-server without Copilot). */
export async function availableChatModels(): Promise<LanguageModelChat[]> {
  try {
    return typeof lm?.selectChatModels === 'function' ? await lm.selectChatModels() : [];
  } catch {
    return [];
  }
}

export interface LanguageModelHandlerOptions {
  /** Called once when the run cannot go on with this model (no permission, the model is gone), with the reason. */
  onFatal: (message: string) => void;
  justification?: string;
}

/**
 * Answers the child's requests with `model`. The first request goes alone, so that VS Code's consent dialog is
 * shown once; the others wait for it.
 */
export function languageModelHandler(model: LanguageModelChat, options: LanguageModelHandlerOptions): ModelHandler {
  let first: Promise<unknown> | undefined;
  let fatal = false;
  const justification = options.justification ?? 'anachron sends the benchmark prompts you started with "anachron: Run Benchmark…" to this model and records its answers.';

  const call = async (request: Parameters<ModelHandler>[0], signal: AbortSignal): Promise<{ text: string }> => {
    if (signal.aborted) throw abortError(signal);
    const source = new CancellationTokenSource();
    const onAbort = () => source.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const messages = toLanguageModelMessages(request.messages).map((m) => (m.role === 'assistant' ? LanguageModelChatMessage.Assistant(m.content) : LanguageModelChatMessage.User(m.content)));
      const response = await model.sendRequest(messages, { justification }, source.token);
      let text = '';
      for await (const chunk of response.text) {
        text += chunk;
        // The rest of the answer is cut at the stop sequence anyway: stop generating.
        if (request.stop?.some((s) => s !== '' && text.includes(s))) {
          source.cancel();
          break;
        }
      }
      if (signal.aborted) throw abortError(signal);
      return { text };
    } catch (e) {
      if (signal.aborted) throw abortError(signal);
      const mapped = mapLanguageModelError(e, model.name);
      if (mapped.fatal && !fatal) {
        fatal = true;
        options.onFatal(mapped.error.message);
      }
      throw mapped.error;
    } finally {
      signal.removeEventListener('abort', onAbort);
      source.dispose();
    }
  };

  return async (request, signal) => {
    if (first) await first.catch(() => undefined);
    const result = call(request, signal);
    first ??= result;
    return result;
  };
}
