// An API key never appears in a log line, an error, or a stored record — not even when the server echoes it back.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BuiltinProvider } from '../server/src/eval/builtin-models.js';
import { ConfigError, validateModelConfig } from '../server/src/eval/models/config.js';
import { apiKeyFromEnvironment, OpenAICompatibleProvider } from '../server/src/eval/models/openai-compatible.js';
import { ModelError } from '../server/src/eval/models/provider.js';
import { encodedForms, makeRedactor } from '../server/src/eval/models/redact.js';
import { executeDriftRun } from '../server/src/eval/drift/run.js';
import { readDriftRun, writeDriftReport } from '../server/src/eval/drift/report-files.js';
import { executeSample } from '../server/src/environments/sandbox.js';
import { FAKE_TASKS, makeDriftFixture } from './support/drift-fixture.js';
import { mixedFaults } from '../server/src/eval/local-server/faults.js';
import { startLocalModelServer, type LocalModelServer } from '../server/src/eval/local-server/server.js';
import type { RunConfig } from '../server/src/eval/suites.js';
import { executeRun } from '../server/src/eval/libevobench/run.js';
import { RunStore } from '../server/src/eval/runs/store.js';
import { syntheticSamples } from '../server/src/eval/libevobench/synthetic.js';
import { syntheticConfig } from './support/run-config.js';

const RIGHT = `sk-right-${randomBytes(16).toString('hex')}`;
const WRONG = `sk-wrong-${randomBytes(16).toString('hex')}`;
const request = { messages: [{ role: 'user' as const, content: 'hi' }], maxTokens: 8, temperature: 0 };

/** The key, the head and tail fragments a server might echo, and the key in every encoding a body can carry. */
function assertNoKey(text: string, where: string): void {
  for (const key of [RIGHT, WRONG]) {
    for (const fragment of [key, key.slice(0, 12), key.slice(-12), key.slice(9), ...encodedForms(key)]) {
      assert.ok(!text.includes(fragment), `${where} contains (part of) the API key: ${fragment}`);
    }
  }
}

function everyFileIn(dir: string): string {
  return readdirSync(dir).map((f) => readFileSync(join(dir, f)).toString('latin1')).join('\n');
}

let server: LocalModelServer;

describe('API key redaction', () => {
  before(async () => {
    server = await startLocalModelServer({ models: { echo: new BuiltinProvider('echo') }, apiKey: RIGHT, echoKeyOnAuthError: true });
  });
  after(() => server.close());

  test('a server that quotes the wrong key back: the error, its body, its JSON and the log hold no key', async () => {
    const logs: string[] = [];
    const c = new OpenAICompatibleProvider({ baseUrl: server.baseUrl, model: 'echo', apiKey: WRONG, log: (l) => logs.push(l) });
    const direct = await fetch(`${server.baseUrl}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${WRONG}` }, body: '{}' });
    assert.ok((await direct.text()).includes(WRONG), 'the server really echoes the key');
    const e = await c.complete(request).then(() => assert.fail('should fail'), (x: unknown) => x as ModelError);
    assert.ok(e instanceof ModelError && e.kind === 'auth');
    assert.ok(e.body && e.body.includes('Incorrect API key provided'));
    assertNoKey([e.message, e.body, JSON.stringify(e), String(e), e.stack ?? '', c.id, ...logs].join('\n'), 'the error or log');
    assert.ok(logs.length > 0);
    c.close();
  });

  test('runs: records, run database and log lines hold no key (successful run with retries, and a run refused for its key)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-redact-'));
    const logs: string[] = [];
    server.setFaults(mixedFaults(0.3, { retryAfterSeconds: 0, seed: 5 }));
    const config = (env: string, timeoutMs: number): RunConfig =>
      syntheticConfig({ provider: 'openai-compatible', baseUrl: server.baseUrl, model: 'echo', apiKeyEnv: env, timeoutMs, retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 } }, { concurrency: 8 });
    const env = { ANACHRON_TEST_KEY: RIGHT, ANACHRON_WRONG_KEY: WRONG };
    const dataset = syntheticSamples(120);
    const ok = await executeRun({ config: config('ANACHRON_TEST_KEY', 1000), database: join(dir, 'ok.sqlite'), dataset, environment: { env, log: (l) => logs.push(l) } });
    assert.equal(ok.pending, 0);
    assert.ok(ok.answered > 0);
    server.setFaults(undefined);
    const refused = await executeRun({ config: config('ANACHRON_WRONG_KEY', 10_000), database: join(dir, 'refused.sqlite'), dataset, environment: { env, log: (l) => logs.push(l) } });
    assert.equal(refused.failed, 120);
    const store = RunStore.open(join(dir, 'refused.sqlite'), { readonly: true });
    const records = [...store.entries()].map((e) => e.result!);
    store.close();
    assert.ok(records.every((r) => r.errorKind === 'auth' && r.attempts === 1 && (r.errorBody ?? '').includes('Incorrect API key provided')));
    assert.ok(logs.some((l) => /retrying/.test(l)), 'the faults produced retry lines');
    assertNoKey(everyFileIn(dir), 'a run database file');
    assertNoKey(JSON.stringify(records), 'a stored record');
    assertNoKey(logs.join('\n'), 'a log line');
  });

  test('a drift run against an endpoint that echoes the key into its answers and errors: nothing written holds it', async () => {
    const hostile = await startLocalModelServer({
      models: { aware: new BuiltinProvider('version-aware', { driftTasks: [FAKE_TASKS] }) },
      apiKey: RIGHT,
      echoKeyOnAuthError: true,
      echoKeyInAnswers: true,
    });
    try {
      const fx = makeDriftFixture();
      const dir = mkdtempSync(join(tmpdir(), 'anachron-redact-drift-'));
      const logs: string[] = [];
      const config = fx.config('version-aware', { samplesPerPrompt: 1, repairRounds: 1 });
      config.model = { provider: 'openai-compatible', baseUrl: hostile.baseUrl, model: 'aware', apiKeyEnv: 'ANACHRON_TEST_KEY', timeoutMs: 10_000, retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 2 } };
      const summary = await executeDriftRun({
        config, database: join(dir, 'run.sqlite'), tasks: [FAKE_TASKS], environments: fx.environments, execute: executeSample, notes: null,
        environment: { env: { ANACHRON_TEST_KEY: RIGHT }, log: (l) => logs.push(l) }, log: (l) => logs.push(l),
      });
      assert.equal(summary.generations.answered, 4);
      const read = readDriftRun(join(dir, 'run.sqlite'));
      // The key the endpoint put in the code was replaced before the code was stored or run.
      assert.ok(read.executions.length > 0 && read.executions.every((e) => e.errorType === 'SystemExit' && e.message === '[REDACTED]'), JSON.stringify(read.executions[0]));
      writeDriftReport(dir, read);
      // A second run whose key the endpoint refuses, quoting it (raw and escaped) in the error body.
      const refused = { ...config, model: { ...config.model, apiKeyEnv: 'ANACHRON_WRONG_KEY' } };
      await executeDriftRun({
        config: refused, database: join(dir, 'refused.sqlite'), tasks: [FAKE_TASKS], environments: fx.environments, execute: executeSample, notes: null,
        environment: { env: { ANACHRON_WRONG_KEY: WRONG }, log: (l) => logs.push(l) }, log: (l) => logs.push(l),
      });
      assertNoKey(everyFileIn(dir), 'a drift run file (run.sqlite, executions.jsonl, results, tables, charts)');
      assertNoKey(logs.join('\n'), 'a log line');
    } finally {
      await hostile.close();
    }
  });

  test('keys are never read from a config; a missing variable is an auth error that names only the variable', () => {
    assert.throws(
      () => validateModelConfig({ provider: 'openai-compatible', baseUrl: 'https://api.example.com/v1', model: 'm', apiKey: RIGHT }),
      (e) => e instanceof ConfigError && /environment variable/.test(e.message) && !e.message.includes(RIGHT),
    );
    assert.throws(() => validateModelConfig({ provider: 'openai-compatible', baseUrl: `https://user:${RIGHT}@api.example.com/v1`, model: 'm' }), ConfigError);
    assert.throws(() => apiKeyFromEnvironment('ANACHRON_UNSET_VARIABLE', {}), (e) => e instanceof ModelError && e.kind === 'auth' && /ANACHRON_UNSET_VARIABLE/.test(e.message));
    assert.equal(apiKeyFromEnvironment('K', { K: RIGHT }), RIGHT);
  });

  test('the redactor finds a key in every encoding a JSON or HTTP body carries, mixed and at any base64 alignment', () => {
    const r = makeRedactor([RIGHT]);
    for (const form of encodedForms(RIGHT)) assertNoKey(r(`{"error": "bad key ${form}."}`), `redacted ${form}`);
    const mixed = Array.from(RIGHT).map((c, i) => (i % 3 ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`)).join('');
    assertNoKey(r(mixed), 'mixed escapes');
    for (let shift = 0; shift < 3; shift++) assertNoKey(r(Buffer.from(`${'x'.repeat(shift)}user:${RIGHT}`).toString('base64')), `base64 at shift ${shift}`);
    const answer = 'def f():\n    return {"key-value-pairs": 1}\n';
    assert.equal(makeRedactor([RIGHT], { keyShapes: false })(answer), answer, 'an answer keeps its key-shaped strings');
  });

  test('the redactor removes keys, echoed fragments, bearer tokens and key-shaped strings', () => {
    const r = makeRedactor([RIGHT]);
    const text = `key ${RIGHT}; head ${RIGHT.slice(0, 10)}…; tail …${RIGHT.slice(-10)}; Authorization: Bearer abc.def; other sk-ABCDEFGHIJKLMNOP`;
    const out = r(text);
    assertNoKey(out, 'redacted text');
    assert.ok(!out.includes('abc.def') && !out.includes('sk-ABCDEFGHIJKLMNOP'));
    assert.match(out, /\[REDACTED\]/);
  });
});
