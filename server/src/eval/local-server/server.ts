// A local OpenAI-compatible HTTP server (POST /v1/chat/completions, GET /v1/models) on 127.0.0.1 serving models that
// run in-process (the built-in reference models, echo, constant — any ModelProvider), with fault injection. Runs and
// tests reach the built-in models through it over real HTTP, with the same client as a remote endpoint.
import { setMaxListeners } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { abortError, type ChatMessage, type CompletionRequest, type CompletionResponse, type ModelProvider } from '../models/provider.js';
import { encodedForms } from '../models/redact.js';
import { FaultPlan, FAULT_KINDS, type FaultConfig, type FaultDraw, type FaultKind } from './faults.js';

export interface LocalServerOptions {
  /** Model name (as requests send it in "model") → the provider that answers. */
  models: Record<string, ModelProvider>;
  faults?: FaultConfig;
  /** When set, requests must authenticate with it (Authorization: Bearer KEY, or api-key: KEY). */
  apiKey?: string;
  /**
   * Answer 401 with a body that quotes the key the client sent, as some real APIs do ("Incorrect API key provided:
   * sk-…"). For testing that clients redact keys; never on by default.
   */
  echoKeyOnAuthError?: boolean;
  /**
   * A hostile endpoint: every answer carries the key the client sent, in the encodings a body can hold it in (raw, JSON
   * escapes, percent-encoding, HTML references, base64, hex), and its first code block starts by raising SystemExit
   * with the key (so executions would record it too). For testing that clients redact keys; never on by default.
   */
  echoKeyInAnswers?: boolean;
  /** Keep every user message received, for received() (tests); off by default so long runs do not grow memory. */
  recordPrompts?: boolean;
  host?: string;
  /** 0 (default): an ephemeral port. */
  port?: number;
}

export interface LocalServerStats {
  requests: number;
  answered: number;
  faults: Record<FaultKind, number>;
  rejected: number;
  /** Most chat completion requests in progress at once (hanging ones included). */
  maxInFlight: number;
}

export interface LocalModelServer {
  /** e.g. http://127.0.0.1:43123/v1 — what an OpenAI-compatible client takes as its base URL. */
  readonly baseUrl: string;
  readonly port: number;
  /** Replaces the fault plan (the PRNG restarts from the new seed). */
  setFaults(faults: FaultConfig | undefined): void;
  stats(): LocalServerStats;
  /** With recordPrompts: every user message received with a chat completion request, in arrival order. */
  received(): readonly string[];
  close(): Promise<void>;
}

const MAX_BODY = 16 * 1024 * 1024;

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function errorBody(message: string, type: string, code: string | null = null): unknown {
  return { error: { message, type, param: null, code } };
}

function presentedKey(req: http.IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^Bearer\s+/i.test(auth)) return auth.replace(/^Bearer\s+/i, '');
  const k = req.headers['api-key'];
  return typeof k === 'string' ? k : undefined;
}

function isMessage(m: unknown): m is ChatMessage {
  const x = m as ChatMessage;
  return typeof x === 'object' && x !== null && (x.role === 'system' || x.role === 'user' || x.role === 'assistant') && typeof x.content === 'string';
}

/** What a chat completion request asks, or the error that answers it. */
type CompletionPlan =
  | { readonly ok: false; readonly status: number; readonly body: unknown }
  | { readonly ok: true; readonly modelName: string; readonly model: ModelProvider; readonly lastUser: string | null; readonly request: CompletionRequest };

/** Reads a chat completion request's body: the model that answers and what it is asked. */
export function planCompletion(raw: string, models: Readonly<Record<string, ModelProvider>>): CompletionPlan {
  let body: { model?: unknown; messages?: unknown; max_tokens?: unknown; max_completion_tokens?: unknown; temperature?: unknown; stop?: unknown; stream?: unknown };
  try {
    body = JSON.parse(raw);
  } catch {
    return { ok: false, status: 400, body: errorBody('the request body is not JSON', 'invalid_request_error') };
  }
  if (!Array.isArray(body.messages) || !body.messages.every(isMessage)) {
    return { ok: false, status: 400, body: errorBody('messages must be a list of {role, content}', 'invalid_request_error') };
  }
  if (body.stream === true) return { ok: false, status: 400, body: errorBody('streaming is not supported by the local server', 'invalid_request_error') };
  const modelName = typeof body.model === 'string' ? body.model : '';
  const model = models[modelName];
  if (!model) return { ok: false, status: 404, body: errorBody(`The model \`${modelName}\` does not exist`, 'invalid_request_error', 'model_not_found') };
  const messages = body.messages as ChatMessage[];
  const maxTokens = typeof body.max_completion_tokens === 'number' ? body.max_completion_tokens : typeof body.max_tokens === 'number' ? body.max_tokens : 256;
  const request: CompletionRequest = {
    messages,
    maxTokens,
    temperature: typeof body.temperature === 'number' ? body.temperature : 1,
    ...(Array.isArray(body.stop) ? { stop: body.stop.filter((s): s is string => typeof s === 'string') } : typeof body.stop === 'string' ? { stop: [body.stop] } : {}),
  };
  return { ok: true, modelName, model, lastUser: [...messages].reverse().find((m) => m.role === 'user')?.content ?? null, request };
}

/** How an injected fault answers: not at all, with JSON, with raw bytes, or by breaking the connection. */
type FaultAnswer =
  | { readonly kind: 'hang' }
  | { readonly kind: 'json'; readonly status: number; readonly body: unknown; readonly headers?: http.OutgoingHttpHeaders }
  | { readonly kind: 'raw'; readonly text: string }
  | { readonly kind: 'destroy' }
  | { readonly kind: 'half'; readonly text: string };

export function faultAnswer(draw: FaultDraw, config: FaultConfig, modelName: string): FaultAnswer {
  switch (draw.kind) {
    case 'timeout':
      // Hang: the client's timeout ends the exchange (or close() does).
      return { kind: 'hang' };
    case 'rate-limit': {
      const headers: http.OutgoingHttpHeaders = { 'retry-after': String(config.retryAfterSeconds ?? 1) };
      if (config.retryAfterMs !== undefined) headers['retry-after-ms'] = String(config.retryAfterMs);
      return { kind: 'json', status: 429, body: errorBody('Rate limit reached (injected fault)', 'rate_limit_error', 'rate_limit_exceeded'), headers };
    }
    case 'server-error':
      return { kind: 'json', status: 500, body: errorBody('The server had an error while processing your request (injected fault)', 'server_error') };
    case 'malformed':
      if (draw.variant === 'truncated') return { kind: 'raw', text: '{"id":"chatcmpl-broken","object":"chat.completion","choices":[{"index":0,"message":{"role":"assis' };
      return { kind: 'json', status: 200, body: { id: 'chatcmpl-empty', object: 'chat.completion', model: modelName, choices: [] } };
    case 'drop':
      if (draw.variant === 'before-response') return { kind: 'destroy' };
      return { kind: 'half', text: JSON.stringify({ id: 'chatcmpl-dropped', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'never arrives' } }] }) };
  }
}

function sendFaultAnswer(req: http.IncomingMessage, res: http.ServerResponse, answer: FaultAnswer): void {
  switch (answer.kind) {
    case 'hang':
      return;
    case 'json':
      return sendJson(res, answer.status, answer.body, answer.headers);
    case 'raw':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer.text) });
      return void res.end(answer.text);
    case 'destroy':
      return void req.socket.destroy();
    case 'half':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer.text) });
      res.write(answer.text.slice(0, answer.text.length >> 1), () => req.socket.destroy());
  }
}

/** A hostile endpoint's answer (echoKeyInAnswers): the key in every encoding, and raised by the first code block. */
export function withEchoedKey(text: string, key: string): string {
  const forms = encodedForms(key);
  const raised = text.replace(/```(?:python)?\n/, (fence) => `${fence}raise SystemExit(${JSON.stringify(key)})  # ${forms.slice(1, 3).join(' ')}\n`);
  return `${raised}\n\n(your key: ${forms.join(' ')})`;
}

function completionBody(id: string, modelName: string, result: CompletionResponse): unknown {
  const promptTokens = result.usage?.promptTokens ?? 0;
  const completionTokens = result.usage?.completionTokens ?? 0;
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: modelName,
    choices: [{ index: 0, message: { role: 'assistant', content: result.text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}

/** Waits `ms`, or less where the signal aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const onClose = () => {
      clearTimeout(t);
      resolve();
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onClose);
      resolve();
    }, ms);
    signal.addEventListener('abort', onClose, { once: true });
  });
}

/** The answer to a request the key does not authenticate, or null where it does (or none is asked for). */
function authFailure(req: http.IncomingMessage, path: string, options: LocalServerOptions): unknown | null {
  if (options.apiKey === undefined || (path !== '/v1/chat/completions' && path !== '/v1/models')) return null;
  const key = presentedKey(req);
  if (key === options.apiKey) return null;
  const shown = options.echoKeyOnAuthError && key ? `Incorrect API key provided: ${key}.${options.echoKeyInAnswers ? ` (${encodedForms(key).slice(1).join(' ')})` : ''}` : 'Incorrect API key provided.';
  return errorBody(shown, 'invalid_request_error', 'invalid_api_key');
}

/** What the server's handlers share: its options, the fault plan in force, and its counters. */
interface ServerState {
  readonly options: LocalServerOptions;
  plan: FaultPlan;
  readonly stats: LocalServerStats;
  inFlight: number;
  serial: number;
  readonly received: string[];
  /** Aborted by close(): delayed answers stop waiting. */
  readonly closing: AbortSignal;
}

async function answerCompletion(state: ServerState, req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<void> {
  const { options, stats } = state;
  const asked = planCompletion(raw, options.models);
  if (!asked.ok) {
    stats.rejected++;
    return sendJson(res, asked.status, asked.body);
  }
  if (asked.lastUser !== null && options.recordPrompts) state.received.push(asked.lastUser);
  const draw = state.plan.draw();
  if (draw) {
    stats.faults[draw.kind]++;
    return sendFaultAnswer(req, res, faultAnswer(draw, state.plan.config, asked.modelName));
  }
  const delay = state.plan.config.delayMs ?? 0;
  if (delay > 0) {
    await pause(delay, state.closing);
    if (state.closing.aborted) return;
  }
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort(abortError());
  });
  let result;
  try {
    result = await asked.model.complete(asked.request, gone.signal);
  } catch (e) {
    if (gone.signal.aborted) return;
    return sendJson(res, 500, errorBody(`the model failed: ${(e as Error).message}`, 'server_error'));
  }
  stats.answered++;
  const key = presentedKey(req);
  if (options.echoKeyInAnswers && key) result = { ...result, text: withEchoedKey(result.text, key) };
  sendJson(res, 200, completionBody(`chatcmpl-local-${++state.serial}`, asked.modelName, result));
}

/** Reads a chat completion request's body (at most MAX_BODY), counted in flight until it is answered or dropped. */
function receiveCompletion(state: ServerState, req: http.IncomingMessage, res: http.ServerResponse): void {
  const { stats } = state;
  state.inFlight++;
  stats.maxInFlight = Math.max(stats.maxInFlight, state.inFlight);
  // 'finish' (the response handed to the OS, before the client can see it) or 'close' (never answered).
  let counted = true;
  const leave = () => {
    if (counted) state.inFlight--;
    counted = false;
  };
  res.on('finish', leave);
  res.on('close', leave);
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size > MAX_BODY) {
      stats.rejected++;
      sendJson(res, 413, errorBody('request body too large', 'invalid_request_error'));
      req.destroy();
      return;
    }
    chunks.push(c);
  });
  req.on('end', () => {
    if (size > MAX_BODY) return;
    answerCompletion(state, req, res, Buffer.concat(chunks).toString('utf8')).catch((e) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(`internal error: ${(e as Error).message}`, 'server_error'));
    });
  });
}

export async function startLocalModelServer(options: LocalServerOptions): Promise<LocalModelServer> {
  const stats: LocalServerStats = { requests: 0, answered: 0, faults: Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>, rejected: 0, maxInFlight: 0 };
  const sockets = new Set<Socket>();
  const closing = new AbortController();
  setMaxListeners(0, closing.signal);
  const state: ServerState = { options, plan: new FaultPlan(options.faults), stats, inFlight: 0, serial: 0, received: [], closing: closing.signal };

  const server = http.createServer((req, res) => {
    stats.requests++;
    const url = new URL(req.url ?? '/', 'http://local');
    const path = url.pathname.replace(/\/+$/, '');
    const refused = authFailure(req, path, options);
    if (refused !== null) {
      stats.rejected++;
      req.resume();
      return sendJson(res, 401, refused);
    }
    if (req.method === 'GET' && path === '/v1/models') {
      req.resume();
      return sendJson(res, 200, { object: 'list', data: Object.keys(options.models).map((id) => ({ id, object: 'model', created: 0, owned_by: 'anachron' })) });
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') return receiveCompletion(state, req, res);
    req.resume();
    stats.rejected++;
    sendJson(res, 404, errorBody(`no route for ${req.method} ${path}`, 'invalid_request_error'));
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host ?? '127.0.0.1';

  return {
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}/v1`,
    port,
    setFaults: (faults) => {
      state.plan = new FaultPlan(faults);
    },
    stats: () => ({ ...stats, faults: { ...stats.faults } }),
    received: () => state.received,
    close: () =>
      new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
