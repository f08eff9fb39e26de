// A client for OpenAI-compatible chat completions endpoints (OpenAI, Azure-style gateways, vLLM, llama.cpp, Ollama,
// LiteLLM, our own local server …) over node:http/https: a per-request timeout, bounded retries with backoff on
// 429 (Retry-After honoured), 5xx, timeouts, dropped connections and malformed bodies, and a shared concurrency limit.
// The API key is passed in by the caller (read from an environment variable named in the run config) and is redacted
// from every message, log line and body this module produces.
import http from 'node:http';
import https from 'node:https';
import { ConcurrencyLimiter } from './limiter.js';
import { abortError, ModelError } from './provider.js';
import type { CompletionRequest, CompletionResponse, CompletionUsage, ModelErrorKind, ModelProvider } from './provider.js';
import { displayUrl, makeRedactor, truncate, type Redactor } from './redact.js';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, withRetries, type RetryPolicy } from './retry.js';

export interface OpenAICompatibleOptions {
  /** Base URL up to and including the version segment, e.g. "https://api.openai.com/v1"; "/chat/completions" is appended. */
  baseUrl: string;
  model: string;
  /** The key itself (never a setting): callers read it from the environment, see apiKeyFromEnvironment. */
  apiKey?: string;
  /** "authorization" sends `Authorization: Bearer KEY` (default); "api-key" sends `api-key: KEY` (Azure OpenAI). */
  authHeader?: 'authorization' | 'api-key';
  /** Per-attempt limit on the whole exchange, connection to last byte. Default 60 s. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Shared by a run: bounds requests in flight (attempts, not backoff waits). Default: a private limiter of 8. */
  limiter?: ConcurrencyLimiter;
  /** Name of the request field for the token cap: "max_tokens" (default) or "max_completion_tokens" (newer OpenAI models). */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Receives one line per retry and per final failure, already redacted. */
  log?: (line: string) => void;
  /** Jitter source, for reproducible tests. */
  random?: () => number;
}

export const DEFAULT_TIMEOUT_MS = 60_000;

/** Reads the key from the environment variable the config names. Throws a ModelError (auth) when it is not set. */
export function apiKeyFromEnvironment(variable: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (variable === undefined || variable === '') return undefined;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) {
    throw new ModelError('auth', `apiKeyEnv must name an environment variable (letters, digits, underscores), got something else`, { retryable: false });
  }
  const value = env[variable];
  if (value === undefined || value === '') throw new ModelError('auth', `environment variable ${variable} is not set: it should hold the API key`, { retryable: false });
  return value;
}

interface AttemptResult {
  text: string;
  usage?: CompletionUsage;
}

export class OpenAICompatibleProvider implements ModelProvider {
  readonly id: string;
  private readonly endpoint: URL;
  private readonly redact: Redactor;
  /** For answers: the key in any encoding, not every key-shaped string (code may hold "key-value" strings). */
  private readonly redactAnswer: Redactor;
  private readonly policy: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly limiter: ConcurrencyLimiter;
  private readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;
  private readonly apiKey: string | undefined;

  constructor(private readonly options: OpenAICompatibleOptions) {
    this.apiKey = options.apiKey;
    this.redact = makeRedactor([options.apiKey]);
    this.redactAnswer = makeRedactor([options.apiKey], { keyShapes: false });
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new ModelError('refused', `baseUrl is not a URL: ${this.redact(options.baseUrl)}`, { retryable: false });
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new ModelError('refused', `baseUrl must be http(s), got ${base.protocol}`, { retryable: false });
    this.endpoint = new URL(base.pathname.replace(/\/+$/, '') + '/chat/completions' + base.search, base);
    this.id = `openai-compatible:${options.model}@${displayUrl(options.baseUrl)}`;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    if (!(this.policy.maxAttempts >= 1)) throw new Error('retry.maxAttempts must be at least 1');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.limiter = options.limiter ?? new ConcurrencyLimiter(8);
    this.transport = base.protocol === 'https:' ? https : http;
    this.agent = new this.transport.Agent({ keepAlive: true, maxSockets: this.limiter.limit, maxFreeSockets: this.limiter.limit });
  }

  async complete(request: CompletionRequest, signal?: AbortSignal): Promise<CompletionResponse> {
    const body = JSON.stringify({
      model: this.options.model,
      messages: request.messages,
      temperature: request.temperature,
      [this.options.maxTokensField ?? 'max_tokens']: request.maxTokens,
      ...(request.stop && request.stop.length > 0 ? { stop: request.stop } : {}),
    });
    const { value: result, latencyMs, attempts, attemptLog } = await withRetries({
      id: this.id,
      policy: this.policy,
      limiter: this.limiter,
      signal,
      random: this.options.random ?? Math.random,
      log: this.options.log ? (line) => this.options.log!(this.redact(line)) : undefined,
      attempt: () => this.attempt(body, signal),
      asModelError: (e) => new ModelError('network', this.redact(`request failed: ${(e as Error).message ?? String(e)}`)),
    });
    return { text: result.text, ...(result.usage ? { usage: result.usage } : {}), latencyMs, attempts, attemptLog };
  }

  close(): void {
    this.agent.destroy();
  }

  /** One HTTP exchange. Resolves with the completion or rejects with a ModelError / AbortError. */
  private attempt(body: string, signal?: AbortSignal): Promise<AttemptResult> {
    return new Promise<AttemptResult>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError(signal));
      const headers: http.OutgoingHttpHeaders = {
        'content-type': 'application/json',
        accept: 'application/json',
        'content-length': Buffer.byteLength(body),
      };
      if (this.apiKey !== undefined) {
        if (this.options.authHeader === 'api-key') headers['api-key'] = this.apiKey;
        else headers.authorization = `Bearer ${this.apiKey}`;
      }
      let settled = false;
      let timedOut = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const req = this.transport.request(this.endpoint, { method: 'POST', headers, agent: this.agent });
      const timer = setTimeout(() => {
        timedOut = true;
        req.destroy();
        finish(() => reject(new ModelError('timeout', `no complete response within ${this.timeoutMs} ms`)));
      }, this.timeoutMs);
      const onAbort = () => {
        req.destroy();
        finish(() => reject(abortError(signal)));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (timedOut || signal?.aborted) return;
        finish(() => reject(new ModelError('network', this.redact(`connection failed: ${err.code ?? ''} ${err.message}`.trim()))));
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('aborted', () => finish(() => reject(new ModelError('network', 'the connection closed before the response was complete'))));
        res.on('error', (err) => finish(() => reject(new ModelError('network', this.redact(`response failed: ${err.message}`)))));
        res.on('end', () => {
          if (!res.complete) {
            finish(() => reject(new ModelError('network', 'the connection closed before the response was complete')));
            return;
          }
          const text = Buffer.concat(chunks).toString('utf8');
          finish(() => {
            try {
              resolve(this.interpret(res.statusCode ?? 0, res.headers, text));
            } catch (e) {
              reject(e);
            }
          });
        });
      });
      req.end(body);
    });
  }

  private interpret(status: number, headers: http.IncomingHttpHeaders, text: string): AttemptResult {
    const body = this.redact(truncate(text));
    if (status >= 200 && status < 300) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new ModelError('malformed', `HTTP ${status} with a body that is not JSON`, { status, body });
      }
      const choice = (parsed as { choices?: unknown[] } | null)?.choices?.[0] as { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown } | undefined;
      if (!choice || typeof choice !== 'object') throw new ModelError('malformed', `HTTP ${status}: the body has no choices`, { status, body });
      const content = choice.message?.content;
      if (typeof content !== 'string') {
        if (choice.finish_reason === 'content_filter' || typeof choice.message?.refusal === 'string') {
          throw new ModelError('refused', `the model refused (${String(choice.finish_reason ?? 'refusal')})`, { status, body, retryable: false });
        }
        throw new ModelError('malformed', `HTTP ${status}: the first choice has no message content`, { status, body });
      }
      const u = (parsed as { usage?: Record<string, unknown> }).usage;
      const usage: CompletionUsage | undefined = u && typeof u === 'object'
        ? {
            ...(typeof u.prompt_tokens === 'number' ? { promptTokens: u.prompt_tokens } : {}),
            ...(typeof u.completion_tokens === 'number' ? { completionTokens: u.completion_tokens } : {}),
            ...(typeof u.total_tokens === 'number' ? { totalTokens: u.total_tokens } : {}),
          }
        : undefined;
      // An endpoint that echoes the key into its answer must not get it stored with the code, nor executed.
      return { text: this.redactAnswer(content), ...(usage ? { usage } : {}) };
    }
    const detail = errorDetail(text);
    const message = this.redact(`HTTP ${status}${detail ? `: ${truncate(detail, 300)}` : ''}`);
    let kind: ModelErrorKind;
    let retryable: boolean | undefined;
    if (status === 401 || status === 403) kind = 'auth';
    else if (status === 408) kind = 'timeout';
    else if (status === 429) {
      kind = 'rate-limited';
      // A spent quota does not come back by waiting.
      if (/insufficient_quota/.test(text)) retryable = false;
    } else if (status >= 500) kind = 'server';
    else kind = 'refused';
    const retryAfterMs = parseRetryAfter(headers);
    throw new ModelError(kind, message, { status, body, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}), ...(retryable !== undefined ? { retryable } : {}) });
  }
}

/** The human part of an OpenAI-style error body ({"error": {"message": …}}), if any. */
function errorDetail(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
    if (parsed.error && typeof parsed.error.message === 'string') return parsed.error.message;
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON
  }
  const trimmed = text.trim();
  return trimmed.length > 0 ? trimmed.split('\n')[0] : undefined;
}
