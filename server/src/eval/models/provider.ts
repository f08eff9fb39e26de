// The model provider contract of the benchmark: plain data in, plain data out. Every model the benchmark can run
// (a remote OpenAI-compatible endpoint, a built-in reference model, later VS Code's Language Model API) implements
// ModelProvider; the runner knows nothing else about models.
import { InputError } from '../../core/errors.js';

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export interface CompletionRequest {
  messages: ChatMessage[];
  maxTokens: number;
  temperature: number;
  stop?: string[];
}

export interface CompletionUsage {
  promptTokens?: number;
  completionTokens?: number;
  totalTokens?: number;
}

export interface CompletionResponse {
  text: string;
  usage?: CompletionUsage;
  /** Wall time of the call that produced the text (the successful attempt for remote providers). */
  latencyMs: number;
  /** How many attempts the provider made (1 when the first one succeeded). Absent for providers that never retry. */
  attempts?: number;
  /** One entry per failed attempt before the success, in order. */
  attemptLog?: AttemptRecord[];
}

export interface ModelProvider {
  /** Stable name recorded with every result, e.g. "openai-compatible:gpt-4.1@https://api.example.com/v1" or "builtin:reference-pinned". */
  readonly id: string;
  /**
   * Sends one request. Resolves with the text, or rejects with a ModelError (after the provider's own retries), or
   * with an AbortError when `signal` is aborted: an aborted call is not a failure of the model and is never recorded.
   */
  complete(request: CompletionRequest, signal?: AbortSignal): Promise<CompletionResponse>;
  /** Releases sockets, files and caches. Optional. */
  close?(): void | Promise<void>;
}

/**
 * Why a call failed:
 * - timeout: no complete response within the per-request timeout;
 * - rate-limited: HTTP 429;
 * - server: HTTP 5xx;
 * - malformed: a 2xx response whose body is not a chat completion (bad JSON, no choices, no content);
 * - network: the connection failed or was dropped before a complete response;
 * - auth: HTTP 401/403 (the key is missing, wrong, or not allowed to use the model);
 * - refused: any other 4xx, a content-filter finish, or a request the provider will not send (e.g. no key configured).
 */
export type ModelErrorKind = 'timeout' | 'rate-limited' | 'server' | 'malformed' | 'network' | 'auth' | 'refused';

export const MODEL_ERROR_KINDS: readonly ModelErrorKind[] = ['timeout', 'rate-limited', 'server', 'malformed', 'network', 'auth', 'refused'];

/** Kinds worth retrying: the same request may well succeed a moment later. */
export function isRetryableKind(kind: ModelErrorKind): boolean {
  return kind === 'timeout' || kind === 'rate-limited' || kind === 'server' || kind === 'malformed' || kind === 'network';
}

export interface AttemptRecord {
  kind: ModelErrorKind;
  status?: number;
  latencyMs: number;
  /** Milliseconds waited before the next attempt. */
  waitMs?: number;
}

export interface ModelErrorDetails {
  status?: number;
  retryable?: boolean;
  /** Server-requested wait before retrying (Retry-After / retry-after-ms), in milliseconds. */
  retryAfterMs?: number;
  /** The (redacted, truncated) body of the failing response, kept for the run record. */
  body?: string;
  attempts?: number;
  attemptLog?: AttemptRecord[];
  latencyMs?: number;
}

/**
 * A failed model call. Messages and bodies are redacted by whoever constructs the error; never put secrets in them.
 * One that stops a run (no key, an endpoint that refuses every request) is the user's to fix: an input error.
 */
export class ModelError extends InputError {
  override readonly name: string = 'ModelError';
  readonly kind: ModelErrorKind;
  readonly retryable: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly body?: string;
  attempts: number;
  attemptLog: AttemptRecord[];
  latencyMs: number;

  constructor(kind: ModelErrorKind, message: string, details: ModelErrorDetails = {}) {
    super(message);
    this.kind = kind;
    this.retryable = details.retryable ?? isRetryableKind(kind);
    if (details.status !== undefined) this.status = details.status;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
    if (details.body !== undefined) this.body = details.body;
    this.attempts = details.attempts ?? 1;
    this.attemptLog = details.attemptLog ?? [];
    this.latencyMs = details.latencyMs ?? 0;
  }

  /** Plain data for records and logs. */
  toJSON(): { kind: ModelErrorKind; message: string; status?: number; retryable: boolean; attempts: number } {
    return { kind: this.kind, message: this.message, ...(this.status !== undefined ? { status: this.status } : {}), retryable: this.retryable, attempts: this.attempts };
  }
}

export function isModelError(e: unknown): e is ModelError {
  return e instanceof ModelError;
}

/** The error a provider rejects with when the caller's signal is aborted. */
export function abortError(signal?: AbortSignal): Error {
  const reason = signal?.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const e = new Error('the request was cancelled');
  e.name = 'AbortError';
  return e;
}

export function isAbortError(e: unknown): boolean {
  return e instanceof Error && e.name === 'AbortError';
}
