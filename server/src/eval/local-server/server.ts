// A local OpenAI-compatible HTTP server (POST /v1/chat/completions, GET /v1/models) on 127.0.0.1 serving models that
// run in-process (the built-in reference models, echo, constant — any ModelProvider), with fault injection. Runs and
// tests reach the built-in models through it over real HTTP, with the same client as a remote endpoint.
import { setMaxListeners } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { abortError, type ChatMessage, type CompletionRequest, type ModelProvider } from '../models/provider.js';
import { encodedForms } from '../models/redact.js';
import { FaultPlan, FAULT_KINDS, type FaultConfig, type FaultKind } from './faults.js';

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

export async function startLocalModelServer(options: LocalServerOptions): Promise<LocalModelServer> {
  let plan = new FaultPlan(options.faults);
  const stats: LocalServerStats = { requests: 0, answered: 0, faults: Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>, rejected: 0, maxInFlight: 0 };
  let inFlight = 0;
  const received: string[] = [];
  const sockets = new Set<Socket>();
  const closing = new AbortController();
  setMaxListeners(0, closing.signal);
  let serial = 0;

  const handleCompletion = async (req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<void> => {
    let body: { model?: unknown; messages?: unknown; max_tokens?: unknown; max_completion_tokens?: unknown; temperature?: unknown; stop?: unknown; stream?: unknown };
    try {
      body = JSON.parse(raw);
    } catch {
      stats.rejected++;
      return sendJson(res, 400, errorBody('the request body is not JSON', 'invalid_request_error'));
    }
    if (!Array.isArray(body.messages) || !body.messages.every(isMessage)) {
      stats.rejected++;
      return sendJson(res, 400, errorBody('messages must be a list of {role, content}', 'invalid_request_error'));
    }
    if (body.stream === true) {
      stats.rejected++;
      return sendJson(res, 400, errorBody('streaming is not supported by the local server', 'invalid_request_error'));
    }
    const modelName = typeof body.model === 'string' ? body.model : '';
    const model = options.models[modelName];
    if (!model) {
      stats.rejected++;
      return sendJson(res, 404, errorBody(`The model \`${modelName}\` does not exist`, 'invalid_request_error', 'model_not_found'));
    }
    const messages = body.messages as ChatMessage[];
    const user = [...messages].reverse().find((m) => m.role === 'user');
    if (user && options.recordPrompts) received.push(user.content);

    const draw = plan.draw();
    const fault = draw?.kind ?? null;
    if (fault) stats.faults[fault]++;
    switch (fault) {
      case 'timeout':
        // Hang: the client's timeout ends the exchange (or close() does).
        return;
      case 'rate-limit': {
        const cfg = plan.config;
        const headers: http.OutgoingHttpHeaders = { 'retry-after': String(cfg.retryAfterSeconds ?? 1) };
        if (cfg.retryAfterMs !== undefined) headers['retry-after-ms'] = String(cfg.retryAfterMs);
        return sendJson(res, 429, errorBody('Rate limit reached (injected fault)', 'rate_limit_error', 'rate_limit_exceeded'), headers);
      }
      case 'server-error':
        return sendJson(res, 500, errorBody('The server had an error while processing your request (injected fault)', 'server_error'));
      case 'malformed': {
        if (draw!.variant === 'truncated') {
          const text = '{"id":"chatcmpl-broken","object":"chat.completion","choices":[{"index":0,"message":{"role":"assis';
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
          return void res.end(text);
        }
        return sendJson(res, 200, { id: 'chatcmpl-empty', object: 'chat.completion', model: modelName, choices: [] });
      }
      case 'drop': {
        if (draw!.variant === 'before-response') return void req.socket.destroy();
        const text = JSON.stringify({ id: 'chatcmpl-dropped', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'never arrives' } }] });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.write(text.slice(0, text.length >> 1), () => req.socket.destroy());
        return;
      }
    }

    const delay = plan.config.delayMs ?? 0;
    if (delay > 0) {
      await new Promise<void>((resolve) => {
        const onClose = () => {
          clearTimeout(t);
          resolve();
        };
        const t = setTimeout(() => {
          closing.signal.removeEventListener('abort', onClose);
          resolve();
        }, delay);
        closing.signal.addEventListener('abort', onClose, { once: true });
      });
      if (closing.signal.aborted) return;
    }
    const maxTokens = typeof body.max_completion_tokens === 'number' ? body.max_completion_tokens : typeof body.max_tokens === 'number' ? body.max_tokens : 256;
    const request: CompletionRequest = {
      messages,
      maxTokens,
      temperature: typeof body.temperature === 'number' ? body.temperature : 1,
      ...(Array.isArray(body.stop) ? { stop: body.stop.filter((s): s is string => typeof s === 'string') } : typeof body.stop === 'string' ? { stop: [body.stop] } : {}),
    };
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort(abortError());
    });
    let result;
    try {
      result = await model.complete(request, gone.signal);
    } catch (e) {
      if (gone.signal.aborted) return;
      return sendJson(res, 500, errorBody(`the model failed: ${(e as Error).message}`, 'server_error'));
    }
    stats.answered++;
    const key = presentedKey(req);
    if (options.echoKeyInAnswers && key) {
      const forms = encodedForms(key);
      const text = result.text.replace(/```(?:python)?\n/, (fence) => `${fence}raise SystemExit(${JSON.stringify(key)})  # ${forms.slice(1, 3).join(' ')}\n`);
      result = { ...result, text: `${text}\n\n(your key: ${forms.join(' ')})` };
    }
    const promptTokens = result.usage?.promptTokens ?? 0;
    const completionTokens = result.usage?.completionTokens ?? 0;
    sendJson(res, 200, {
      id: `chatcmpl-local-${++serial}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: modelName,
      choices: [{ index: 0, message: { role: 'assistant', content: result.text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    });
  };

  const server = http.createServer((req, res) => {
    stats.requests++;
    const url = new URL(req.url ?? '/', 'http://local');
    const path = url.pathname.replace(/\/+$/, '');
    if (options.apiKey !== undefined && (path === '/v1/chat/completions' || path === '/v1/models')) {
      const key = presentedKey(req);
      if (key !== options.apiKey) {
        stats.rejected++;
        req.resume();
        const shown = options.echoKeyOnAuthError && key ? `Incorrect API key provided: ${key}.${options.echoKeyInAnswers ? ` (${encodedForms(key).slice(1).join(' ')})` : ''}` : 'Incorrect API key provided.';
        return sendJson(res, 401, errorBody(shown, 'invalid_request_error', 'invalid_api_key'));
      }
    }
    if (req.method === 'GET' && path === '/v1/models') {
      req.resume();
      return sendJson(res, 200, { object: 'list', data: Object.keys(options.models).map((id) => ({ id, object: 'model', created: 0, owned_by: 'anachron' })) });
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
      // 'finish' (the response handed to the OS, before the client can see it) or 'close' (never answered).
      let counted = true;
      const leave = () => {
        if (counted) inFlight--;
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
        handleCompletion(req, res, Buffer.concat(chunks).toString('utf8')).catch((e) => {
          if (!res.headersSent) sendJson(res, 500, errorBody(`internal error: ${(e as Error).message}`, 'server_error'));
        });
      });
      return;
    }
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
      plan = new FaultPlan(faults);
    },
    stats: () => ({ ...stats, faults: { ...stats.faults } }),
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
