// A model served by the parent process over the child's IPC channel (process.send). The editor runs a benchmark in
// a child process (`anachron bench run … --model-ipc ID`, on the language server's runtime), but VS Code's
// Language Model API (vscode.lm) lives only in the extension host: so each completion request travels to the parent,
// which calls the model with a cancellation token and answers with the text or a typed error. Both halves of that
// protocol are here, in plain Node (no VS Code API):
//
// - child:  IpcModelProvider (a ModelProvider: retries, per-attempt timeout, cancellation) and attachRunToParent
//           (progress to the parent; the parent's stop request and its disconnection cancel the run);
// - parent: serveModelOverIpc (answers the child's requests with a handler; forwards progress).
//
// Messages (JSON over the channel):
//   child → parent  {type: 'bench:complete', id, request}  {type: 'bench:cancel', id}  {type: 'bench:progress', progress}
//   parent → child  {type: 'bench:result', id, text, usage?}  {type: 'bench:error', id, error}  {type: 'bench:stop'}
// A request the child gives up on (cancelled, timed out) is followed by 'bench:cancel'; any later answer is ignored.
import type { RunProgress } from '../runs/runner.js';
import type { VscodeLmModelConfig } from './config.js';
import { ConcurrencyLimiter } from './limiter.js';
import { abortError, MODEL_ERROR_KINDS, ModelError } from './provider.js';
import type { CompletionRequest, CompletionResponse, CompletionUsage, ModelErrorKind, ModelProvider } from './provider.js';
import { truncate } from './redact.js';
import { DEFAULT_RETRY_POLICY, withRetries, type RetryPolicy } from './retry.js';
import { isObject } from '../../core/json-value.js';

// ---- the protocol ---------------------------------------------------------------------------------------------------

/** A failed call as it travels over the channel: the ModelError's kind and details. */
export interface IpcError {
  kind: ModelErrorKind;
  message: string;
  /** Default: by kind (rate-limited, server, timeout, malformed, network are retried). */
  retryable?: boolean;
  status?: number;
  /** A wait the model asked for (e.g. "try again in 40 seconds"), a floor on the backoff. */
  retryAfterMs?: number;
}

export type ChildMessage =
  | { type: 'bench:complete'; id: number; request: CompletionRequest }
  | { type: 'bench:cancel'; id: number }
  | { type: 'bench:progress'; progress: RunProgress };

export type ParentMessage =
  | { type: 'bench:result'; id: number; text: string; usage?: CompletionUsage }
  | { type: 'bench:error'; id: number; error: IpcError }
  | { type: 'bench:stop' };

/** The side of an IPC channel a child sees: `process` when started with one (stdio 'ipc' / fork). */
export interface IpcEndpoint {
  send?: (message: unknown) => boolean;
  connected?: boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'disconnect', listener: () => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'disconnect', listener: () => void): unknown;
}


/** Sends when the channel is open; false when it is closed. (send's own false only means a backlog: still sent.) */
function send(endpoint: IpcEndpoint, message: ChildMessage | ParentMessage): boolean {
  if (typeof endpoint.send !== 'function' || endpoint.connected === false) return false;
  try {
    endpoint.send(message);
    return true;
  } catch {
    return false; // the channel closed under us
  }
}

/** Cuts the text at the first stop sequence (the parent's models have no stop parameter). */
function cutAtStop(text: string, stop: readonly string[] | undefined): string {
  let end = text.length;
  for (const s of stop ?? []) {
    const i = s === '' ? -1 : text.indexOf(s);
    if (i >= 0 && i < end) end = i;
  }
  return text.slice(0, end);
}

/**
 * The `model` part of a run config for a model served over IPC: VS Code's language model chosen by its selector
 * (vendor and id, and family and version when known). The selector is part of the run's identity, so two models never
 * share a run database; run from the CLI without the editor, such a config is refused with a clear message.
 */
export function ipcModelConfig(vendor: string, id: string, more: { family?: string; version?: string; name?: string } = {}): VscodeLmModelConfig {
  return {
    provider: 'vscode-lm',
    vendor,
    ...(more.family ? { family: more.family } : {}),
    id,
    ...(more.version ? { version: more.version } : {}),
    ...(more.name ? { name: more.name } : {}),
  };
}

// ---- the child: a ModelProvider over the channel ------------------------------------------------------------------

export interface IpcProviderOptions {
  /** Recorded with every result, e.g. "vscode-lm:copilot/gpt-4o". */
  id: string;
  /** Default: this process (started with an IPC channel). */
  endpoint?: IpcEndpoint;
  /** Per-attempt limit before the request is cancelled and retried as a timeout. Default 120 s. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Requests in flight (attempts, not backoff waits). Default 8. */
  concurrency?: number;
  log?: (line: string) => void;
  random?: () => number;
}

export const IPC_DEFAULT_TIMEOUT_MS = 120_000;

interface Waiting {
  resolve: (answer: { text: string; usage?: CompletionUsage }) => void;
  reject: (error: Error) => void;
}

function toModelError(e: unknown): ModelError {
  if (!isObject(e) || typeof e.message !== 'string') return new ModelError('malformed', 'the parent answered with an error that is not one');
  const kind = MODEL_ERROR_KINDS.includes(e.kind as ModelErrorKind) ? (e.kind as ModelErrorKind) : 'server';
  return new ModelError(kind, truncate(e.message, 1000), {
    ...(typeof e.retryable === 'boolean' ? { retryable: e.retryable } : {}),
    ...(typeof e.status === 'number' ? { status: e.status } : {}),
    ...(typeof e.retryAfterMs === 'number' && e.retryAfterMs >= 0 ? { retryAfterMs: e.retryAfterMs } : {}),
  });
}

export class IpcModelProvider implements ModelProvider {
  readonly id: string;
  private readonly endpoint: IpcEndpoint;
  private readonly policy: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly limiter: ConcurrencyLimiter;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private disconnected = false;
  private closed = false;

  private readonly onMessage = (message: unknown): void => {
    if (!isObject(message) || typeof message.id !== 'number') return;
    const w = this.waiting.get(message.id);
    if (!w) return; // given up on (cancelled or timed out): ignore the late answer
    if (message.type === 'bench:result') {
      this.waiting.delete(message.id);
      if (typeof message.text === 'string') w.resolve({ text: message.text, ...(isObject(message.usage) ? { usage: message.usage as CompletionUsage } : {}) });
      else w.reject(new ModelError('malformed', 'the parent answered without text'));
    } else if (message.type === 'bench:error') {
      this.waiting.delete(message.id);
      w.reject(toModelError(message.error));
    }
  };

  private readonly onDisconnect = (): void => {
    this.disconnected = true;
    // The parent is gone: the requests in flight are abandoned, not failures of the model (they stay pending).
    for (const w of this.waiting.values()) w.reject(Object.assign(new Error('the process serving the model went away'), { name: 'AbortError' }));
    this.waiting.clear();
  };

  constructor(private readonly options: IpcProviderOptions) {
    this.id = options.id;
    this.endpoint = options.endpoint ?? (process as unknown as IpcEndpoint);
    if (typeof this.endpoint.send !== 'function') throw new Error('a model over IPC needs an IPC channel to the process that serves it');
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? IPC_DEFAULT_TIMEOUT_MS;
    this.limiter = new ConcurrencyLimiter(options.concurrency ?? 8);
    this.endpoint.on('message', this.onMessage);
    this.endpoint.on('disconnect', this.onDisconnect);
  }

  async complete(request: CompletionRequest, signal?: AbortSignal): Promise<CompletionResponse> {
    const { value: answer, latencyMs, attempts, attemptLog } = await withRetries({
      id: this.id,
      policy: this.policy,
      limiter: this.limiter,
      signal,
      random: this.options.random ?? Math.random,
      log: this.options.log,
      attempt: () => this.attempt(request, signal),
      asModelError: (e) => new ModelError('server', `the model failed: ${(e as Error)?.message ?? String(e)}`),
    });
    return { text: cutAtStop(answer.text, request.stop), ...(answer.usage ? { usage: answer.usage } : {}), latencyMs, attempts, attemptLog };
  }

  /** One request to the parent: its answer, a ModelError, or an AbortError (cancelled, or the parent went away). */
  private attempt(request: CompletionRequest, signal?: AbortSignal): Promise<{ text: string; usage?: CompletionUsage }> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(abortError(signal));
      if (this.closed || this.disconnected || this.endpoint.connected === false) {
        return reject(Object.assign(new Error('no process serves the model any more'), { name: 'AbortError' }));
      }
      const id = this.nextId++;
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const giveUp = (error: Error) => {
        if (!this.waiting.delete(id)) return;
        done();
        send(this.endpoint, { type: 'bench:cancel', id });
        reject(error);
      };
      const onAbort = () => giveUp(abortError(signal));
      const timer = setTimeout(() => giveUp(new ModelError('timeout', `no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(id, {
        resolve: (a) => {
          done();
          resolve(a);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
      const message: ChildMessage = { type: 'bench:complete', id, request: { messages: request.messages, maxTokens: request.maxTokens, temperature: request.temperature, ...(request.stop ? { stop: request.stop } : {}) } };
      if (!send(this.endpoint, message)) {
        this.waiting.delete(id);
        done();
        reject(Object.assign(new Error('the IPC channel is closed'), { name: 'AbortError' }));
      }
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.endpoint.off('message', this.onMessage);
    this.endpoint.off('disconnect', this.onDisconnect);
    for (const [id, w] of this.waiting) {
      send(this.endpoint, { type: 'bench:cancel', id });
      w.reject(Object.assign(new Error('the provider was closed'), { name: 'AbortError' }));
    }
    this.waiting.clear();
  }
}

// ---- the child: the run and its parent --------------------------------------------------------------------------

export interface ParentLink {
  /** Sends the run's progress to the parent. */
  onProgress(progress: RunProgress): void;
  /** Stops listening; the channel no longer keeps this process alive. */
  detach(): void;
}

/**
 * When this process has an IPC channel: progress goes to the parent, and the parent's 'bench:stop' or its going away
 * call `stop` (the run is cancelled, keeping what is recorded, as on Ctrl-C). Undefined without a channel.
 */
export function attachRunToParent(stop: () => void, endpoint: IpcEndpoint = process as unknown as IpcEndpoint): ParentLink | undefined {
  if (typeof endpoint.send !== 'function') return undefined;
  let stopped = false;
  const stopOnce = () => {
    if (stopped) return;
    stopped = true;
    stop();
  };
  const onMessage = (message: unknown) => {
    if (isObject(message) && message.type === 'bench:stop') stopOnce();
  };
  endpoint.on('message', onMessage);
  endpoint.on('disconnect', stopOnce);
  if (endpoint.connected === false) queueMicrotask(stopOnce); // gone before the run started
  return {
    onProgress: (progress) => void send(endpoint, { type: 'bench:progress', progress }),
    detach: () => {
      endpoint.off('message', onMessage);
      endpoint.off('disconnect', stopOnce);
      if (endpoint === (process as unknown as IpcEndpoint)) process.channel?.unref();
    },
  };
}

// ---- the parent: serving the child's requests ---------------------------------------------------------------------

/** What the parent sees of the child: a ChildProcess started with an IPC channel. */
export interface IpcChild {
  send(message: unknown): boolean;
  connected: boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit' | 'disconnect', listener: () => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'exit' | 'disconnect', listener: () => void): unknown;
}

/** Answers one request: the text, or throws a ModelError (its kind travels); an AbortError when `signal` fires. */
export type ModelHandler = (request: CompletionRequest, signal: AbortSignal) => Promise<{ text: string; usage?: CompletionUsage }>;

export interface ServeOptions {
  /** Answers the child's completion requests. Without one, every request is refused (the child's model is its own). */
  handler?: ModelHandler;
  onProgress?: (progress: RunProgress) => void;
  /** Called with every error a request ended with, after it was sent to the child (e.g. to stop at a permission error). */
  onError?: (error: IpcError) => void;
}

export interface ModelServer {
  /** Asks the child to stop the run (it keeps what is recorded). False when the channel is closed. */
  stop(): boolean;
  /** Requests being answered now. */
  readonly inFlight: number;
  dispose(): void;
}

/** The IpcError a handler's failure becomes: a ModelError keeps its kind; anything else is a server error (retried). */
export function ipcErrorOf(e: unknown): IpcError {
  if (e instanceof ModelError) {
    return { kind: e.kind, message: e.message, retryable: e.retryable, ...(e.status !== undefined ? { status: e.status } : {}), ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}) };
  }
  if (isObject(e) && MODEL_ERROR_KINDS.includes(e.kind as ModelErrorKind) && typeof e.message === 'string') return e as unknown as IpcError;
  return { kind: 'server', message: `the model failed: ${(e as Error)?.message ?? String(e)}`, retryable: true };
}

export function serveModelOverIpc(child: IpcChild, options: ServeOptions): ModelServer {
  const inFlight = new Map<number, AbortController>();
  const answer = (message: ParentMessage) => {
    if (child.connected) send(child as unknown as IpcEndpoint, message);
  };
  const onMessage = (message: unknown) => {
    if (!isObject(message)) return;
    if (message.type === 'bench:progress' && isObject(message.progress)) {
      options.onProgress?.(message.progress as unknown as RunProgress);
      return;
    }
    if (typeof message.id !== 'number') return;
    const id = message.id;
    if (message.type === 'bench:cancel') {
      inFlight.get(id)?.abort();
      inFlight.delete(id);
      return;
    }
    if (message.type !== 'bench:complete' || !isObject(message.request) || !Array.isArray(message.request.messages)) return;
    const request = message.request as unknown as CompletionRequest;
    if (!options.handler) {
      const error: IpcError = { kind: 'refused', message: 'this run has no model served over IPC', retryable: false };
      answer({ type: 'bench:error', id, error });
      return;
    }
    const controller = new AbortController();
    inFlight.set(id, controller);
    let call: Promise<{ text: string; usage?: CompletionUsage }>;
    try {
      call = options.handler(request, controller.signal);
    } catch (e) {
      call = Promise.reject(e);
    }
    call.then(
      (r) => {
        if (inFlight.get(id) !== controller) return; // cancelled meanwhile
        inFlight.delete(id);
        answer({ type: 'bench:result', id, text: String(r.text), ...(r.usage ? { usage: r.usage } : {}) });
      },
      (e: unknown) => {
        if (inFlight.get(id) !== controller) return;
        inFlight.delete(id);
        if (controller.signal.aborted) return;
        const error = ipcErrorOf(e);
        answer({ type: 'bench:error', id, error });
        options.onError?.(error);
      },
    );
  };
  const abortAll = () => {
    for (const c of inFlight.values()) c.abort();
    inFlight.clear();
  };
  child.on('message', onMessage);
  child.on('disconnect', abortAll);
  child.on('exit', abortAll);
  return {
    stop: () => child.connected && send(child as unknown as IpcEndpoint, { type: 'bench:stop' }),
    get inFlight() {
      return inFlight.size;
    },
    dispose: () => {
      child.off('message', onMessage);
      child.off('disconnect', abortAll);
      child.off('exit', abortAll);
      abortAll();
    },
  };
}
