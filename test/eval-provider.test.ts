// The OpenAI-compatible client against the local server over real HTTP: each injected fault is retried and
// classified, attempts are bounded, Retry-After is honoured, non-retryable errors are not retried, the concurrency
// limit holds, cancellation is not a failure.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BuiltinProvider } from '../server/src/eval/builtin-models.js';
import { ConcurrencyLimiter } from '../server/src/eval/models/limiter.js';
import { OpenAICompatibleProvider, type OpenAICompatibleOptions } from '../server/src/eval/models/openai-compatible.js';
import { isAbortError, ModelError, type ModelErrorKind } from '../server/src/eval/models/provider.js';
import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter } from '../server/src/eval/models/retry.js';
import { FaultPlan, mixedFaults, type ScriptedFault } from '../server/src/eval/local-server/faults.js';
import { startLocalModelServer, type LocalModelServer } from '../server/src/eval/local-server/server.js';

const request = { messages: [{ role: 'user' as const, content: 'hello' }], maxTokens: 16, temperature: 0 };
let server: LocalModelServer;
const clients: OpenAICompatibleProvider[] = [];

function client(options: Partial<OpenAICompatibleOptions> = {}): OpenAICompatibleProvider {
  // Generous by default so a loaded machine does not turn slow answers into timeouts; tests of timeouts set their own.
  const c = new OpenAICompatibleProvider({ baseUrl: server.baseUrl, model: 'echo', timeoutMs: 10_000, retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5 }, ...options });
  clients.push(c);
  return c;
}

async function failureOf(p: Promise<unknown>): Promise<ModelError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ModelError, `expected a ModelError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected the call to fail');
}

describe('OpenAI-compatible client against the local server', () => {
  before(async () => {
    server = await startLocalModelServer({ models: { echo: new BuiltinProvider('echo'), constant: new BuiltinProvider('constant', { text: 'np.mean(x)' }) } });
  });
  after(async () => {
    for (const c of clients) c.close();
    await server.close();
  });

  test('a plain completion: text, usage, one attempt; GET /v1/models lists the models', async () => {
    server.setFaults(undefined);
    const r = await client().complete(request);
    assert.equal(r.text, 'hello');
    assert.equal(r.attempts, 1);
    assert.ok(r.usage && r.usage.totalTokens! > 0);
    assert.ok(r.latencyMs >= 0);
    const models = (await (await fetch(`${server.baseUrl}/models`)).json()) as { data: { id: string }[] };
    assert.deepEqual(models.data.map((m) => m.id), ['echo', 'constant']);
  });

  const cases: { fault: ScriptedFault; kind: ModelErrorKind; status?: number }[] = [
    { fault: 'timeout', kind: 'timeout' },
    { fault: 'rate-limit', kind: 'rate-limited', status: 429 },
    { fault: 'server-error', kind: 'server', status: 500 },
    { fault: 'malformed:truncated', kind: 'malformed', status: 200 },
    { fault: 'malformed:no-choices', kind: 'malformed', status: 200 },
    { fault: 'drop:before-response', kind: 'network' },
    { fault: 'drop:mid-body', kind: 'network' },
  ];
  for (const c of cases) {
    test(`${c.fault}: classified as ${c.kind}, retried, then answered`, async () => {
      server.setFaults({ script: [c.fault, c.fault], retryAfterSeconds: 0 });
      const r = await client(c.fault === 'timeout' ? { timeoutMs: 400 } : {}).complete(request);
      assert.equal(r.text, 'hello');
      assert.equal(r.attempts, 3);
      assert.deepEqual(r.attemptLog!.map((a) => a.kind), [c.kind, c.kind]);
      if (c.status !== undefined) assert.equal(r.attemptLog![0]!.status, c.status);
      assert.ok(r.attemptLog!.every((a) => typeof a.waitMs === 'number'));
    });
  }

  test('attempts are bounded: the last error comes back with the attempt count', async () => {
    server.setFaults({ script: Array(10).fill('server-error') });
    const before = server.stats().requests;
    const e = await failureOf(client({ retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 } }).complete(request));
    assert.equal(e.kind, 'server');
    assert.equal(e.status, 500);
    assert.equal(e.retryable, true);
    assert.equal(e.attempts, 3);
    assert.equal(e.attemptLog.length, 3);
    assert.match(e.body ?? '', /injected fault/);
    assert.equal(server.stats().requests - before, 3, 'exactly three requests reached the server');
  });

  test('429: Retry-After (seconds) and retry-after-ms are honoured as a floor', async () => {
    server.setFaults({ script: ['rate-limit'], retryAfterSeconds: 1 });
    let t = performance.now();
    let r = await client().complete(request);
    assert.equal(r.attempts, 2);
    assert.ok(performance.now() - t >= 990, `waited ${performance.now() - t} ms`);
    assert.ok(r.attemptLog![0]!.waitMs! >= 1000);
    server.setFaults({ script: ['rate-limit'], retryAfterSeconds: 5, retryAfterMs: 150 });
    t = performance.now();
    r = await client().complete(request);
    const waited = performance.now() - t;
    assert.ok(waited >= 145 && waited < 1000, `waited ${waited} ms`);
  });

  test('auth and refused errors are not retried', async () => {
    server.setFaults(undefined);
    const e = await failureOf(client({ model: 'no-such-model' }).complete(request));
    assert.equal(e.kind, 'refused');
    assert.equal(e.status, 404);
    assert.equal(e.attempts, 1);
    assert.equal(e.retryable, false);
    const secured = await startLocalModelServer({ models: { echo: new BuiltinProvider('echo') }, apiKey: 'sk-right-key-0123456789' });
    try {
      const wrong = new OpenAICompatibleProvider({ baseUrl: secured.baseUrl, model: 'echo', apiKey: 'sk-wrong-key-0123456789', retry: { maxAttempts: 5 } });
      const a = await failureOf(wrong.complete(request));
      assert.equal(a.kind, 'auth');
      assert.equal(a.status, 401);
      assert.equal(a.attempts, 1);
      wrong.close();
      for (const authHeader of ['authorization', 'api-key'] as const) {
        const right = new OpenAICompatibleProvider({ baseUrl: secured.baseUrl, model: 'echo', apiKey: 'sk-right-key-0123456789', authHeader });
        assert.equal((await right.complete(request)).text, 'hello');
        right.close();
      }
    } finally {
      await secured.close();
    }
  });

  test('a refused connection is a network error, retried and bounded', async () => {
    const gone = await startLocalModelServer({ models: {} });
    const url = gone.baseUrl;
    await gone.close();
    const c = new OpenAICompatibleProvider({ baseUrl: url, model: 'echo', retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    const e = await failureOf(c.complete(request));
    assert.equal(e.kind, 'network');
    assert.equal(e.attempts, 2);
    c.close();
  });

  test('cancelling rejects with an AbortError, during a request and during a backoff wait', async () => {
    server.setFaults({ script: ['timeout'] });
    const slow = client({ timeoutMs: 10_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const t = performance.now();
    await assert.rejects(slow.complete(request, controller.signal), (e) => isAbortError(e));
    assert.ok(performance.now() - t < 2000);
    server.setFaults({ script: ['server-error'] });
    const waiting = client({ retry: { maxAttempts: 3, baseDelayMs: 10_000, maxDelayMs: 10_000 } });
    const c2 = new AbortController();
    setTimeout(() => c2.abort(), 100);
    await assert.rejects(waiting.complete(request, c2.signal), (e) => isAbortError(e));
  });

  test('a shared limiter bounds the requests in flight', async () => {
    const limiter = new ConcurrencyLimiter(3);
    const fresh = await startLocalModelServer({ models: { echo: new BuiltinProvider('echo'), constant: new BuiltinProvider('constant') }, faults: { delayMs: 20 } });
    try {
      const ca = new OpenAICompatibleProvider({ baseUrl: fresh.baseUrl, model: 'echo', limiter });
      const cb = new OpenAICompatibleProvider({ baseUrl: fresh.baseUrl, model: 'constant', limiter });
      await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? ca : cb).complete(request)));
      assert.equal(fresh.stats().maxInFlight, 3);
      assert.equal(fresh.stats().answered, 24);
      ca.close();
      cb.close();
    } finally {
      await fresh.close();
    }
  });

  test('mixed faults at 20%: every call ends answered or with a classified error', async () => {
    server.setFaults(mixedFaults(0.2, { retryAfterSeconds: 0, seed: 3 }));
    const c = client({ timeoutMs: 250, retry: { maxAttempts: 6, baseDelayMs: 1, maxDelayMs: 4 } });
    const results = await Promise.allSettled(Array.from({ length: 200 }, (_, i) => c.complete({ ...request, messages: [{ role: 'user', content: `m${i}` }] })));
    results.forEach((r, i) => {
      if (r.status === 'fulfilled') assert.equal(r.value.text, `m${i}`);
      else assert.ok(r.reason instanceof ModelError);
    });
    const f = server.stats().faults;
    assert.ok(f.timeout > 0 && f['rate-limit'] > 0 && f['server-error'] > 0 && f.malformed > 0 && f.drop > 0, JSON.stringify(f));
  });
});

describe('retry policy', () => {
  test('exponential backoff with equal jitter, capped; Retry-After is a floor', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
    const e = new ModelError('server', 'x');
    assert.equal(backoffDelay(policy, 1, e, () => 0), 50);
    assert.equal(backoffDelay(policy, 1, e, () => 1), 100);
    assert.equal(backoffDelay(policy, 3, e, () => 1), 400);
    assert.equal(backoffDelay(policy, 10, e, () => 1), 1000);
    assert.equal(backoffDelay(policy, 1, new ModelError('rate-limited', 'x', { retryAfterMs: 3000 }), () => 0), 3000);
    assert.equal(backoffDelay({ ...policy, maxRetryAfterMs: 2000 }, 1, new ModelError('rate-limited', 'x', { retryAfterMs: 9000 }), () => 0), 2000);
  });

  test('Retry-After headers: seconds, HTTP dates, retry-after-ms', () => {
    assert.equal(parseRetryAfter({ 'retry-after': '2' }), 2000);
    assert.equal(parseRetryAfter({ 'retry-after': '0.5' }), 500);
    assert.equal(parseRetryAfter({ 'retry-after-ms': '120', 'retry-after': '9' }), 120);
    assert.equal(parseRetryAfter({ 'retry-after': new Date(10_000).toUTCString() }, 4_000), 6000);
    assert.equal(parseRetryAfter({ 'retry-after': 'soon' }), undefined);
    assert.equal(parseRetryAfter({}), undefined);
  });

  test('fault plans: probabilities are checked, scripts come first, draws are seeded', () => {
    assert.throws(() => new FaultPlan({ timeout: 0.7, drop: 0.5 }), /more than 1/);
    const plan = new FaultPlan({ script: ['drop:mid-body', null], serverError: 1 });
    assert.deepEqual(plan.draw(), { kind: 'drop', variant: 'mid-body' });
    assert.equal(plan.draw(), null);
    assert.deepEqual(plan.draw(), { kind: 'server-error', variant: null });
    const a = new FaultPlan(mixedFaults(0.5, { seed: 9 }));
    const b = new FaultPlan(mixedFaults(0.5, { seed: 9 }));
    const seq = (p: FaultPlan) => Array.from({ length: 50 }, () => p.draw()?.kind ?? null);
    assert.deepEqual(seq(a), seq(b));
  });
});
