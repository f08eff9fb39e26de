// The editor's benchmark runs: the built CLI (`dist/cli.js bench run`, run `npm run build` first) in a real child
// process, with this test as the parent on the other end of its IPC channel, as the extension host is. Models served
// over IPC (the vscode.lm path, with a handler standing in for model.sendRequest): answers, stop sequences, progress,
// error kinds (rate limits retried, no permission not), cancellation from the parent and the parent going away, then
// resume. The flow's plans run for real: a built-in reference model on the bundled numpy matrix at the quick size
// (and resumed), and an OpenAI-compatible endpoint whose key reaches the child only in an environment variable.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { childEnvironment, mapLanguageModelError, planRun, type LibraryChoice, type PlanInput } from '../client/src/eval/run-flow.js';
import { BuiltinProvider } from '../server/src/eval/builtin-models.js';
import { IpcModelProvider, ipcModelConfig, serveModelOverIpc, type ModelHandler } from '../server/src/eval/models/ipc-provider.js';
import { startLocalModelServer } from '../server/src/eval/local-server/server.js';
import { isAbortError, ModelError, type CompletionRequest } from '../server/src/eval/models/provider.js';
import type { RunProgress } from '../server/src/eval/runs/runner.js';
import { RunStore, type ResultRecord } from '../server/src/eval/runs/store.js';
import { syntheticSamples } from '../server/src/eval/libevobench/synthetic.js';
import { REPO_ROOT, runCli } from './support/cli.js';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const MODEL_ID = 'vscode-lm:test/stand-in';

interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
  progress: RunProgress[];
  ms: number;
}

/** Starts `node dist/cli.js ARGS` with an IPC channel and serves it like the extension host does. */
function runChild(
  args: string[],
  options: { handler?: ModelHandler; env?: NodeJS.ProcessEnv; cwd?: string; onProgress?: (p: RunProgress, child: ChildProcess) => void; onStart?: (child: ChildProcess, stop: () => boolean) => void } = {},
): Promise<ChildRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? REPO_ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    const run: ChildRun = { code: null, stdout: '', stderr: '', progress: [], ms: 0 };
    child.stdout!.on('data', (d) => (run.stdout += d));
    child.stderr!.on('data', (d) => (run.stderr += d));
    const server = serveModelOverIpc(child, {
      ...(options.handler ? { handler: options.handler } : {}),
      onProgress: (p) => {
        run.progress.push(p);
        options.onProgress?.(p, child);
      },
    });
    options.onStart?.(child, () => server.stop());
    child.on('error', reject);
    // 'close' does not come after the parent disconnected the channel: the exit, once the output is read, ends it.
    const output = Promise.all([child.stdout!, child.stderr!].map((s) => new Promise((r) => s.once('close', r))));
    child.on('exit', (code) => {
      void Promise.race([output, new Promise((r) => setTimeout(r, 2000))]).then(() => {
        server.dispose();
        run.code = code;
        run.ms = Date.now() - started;
        resolve(run);
      });
    });
  });
}

function writeConfig(dir: string, extra: Record<string, unknown> = {}): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'config.json');
  const model = { ...ipcModelConfig('test', 'stand-in'), retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 50 }, ...((extra.model as object) ?? {}) };
  writeFileSync(file, JSON.stringify({ name: 'ipc test', suite: 'synthetic', libraries: ['synthlib'], tasks: ['API-C', 'API-I', 'SR'], seed: 1, limit: 60, concurrency: 4, ...extra, model }));
  return file;
}

const ipcArgs = (config: string, dir: string) => ['bench', 'run', config, '--out', dir, '--quiet', '--bootstrap', '0', '--model-ipc', MODEL_ID];

function records(dir: string): { prompt: string; result: ResultRecord | null }[] {
  const store = RunStore.open(join(dir, 'run.sqlite'), { readonly: true });
  try {
    return [...store.entries()].map((e) => ({ prompt: e.sample.prompt.map((m) => m.content).join('\n'), result: e.result }));
  } finally {
    store.close();
  }
}

function sessions(dir: string) {
  const store = RunStore.open(join(dir, 'run.sqlite'), { readonly: true });
  try {
    return store.sessions();
  } finally {
    store.close();
  }
}

const promptOf = (r: CompletionRequest) => r.messages.map((m) => m.content).join('\n');
const scratch = () => mkdtempSync(join(tmpdir(), 'anachron-bench-ipc-'));

describe('benchmark runs from the editor: a model served over the IPC channel', () => {
  test('answers travel back and are recorded under the IPC model id, cut at stop sequences, with progress', async () => {
    const dir = scratch();
    const config = writeConfig(dir, { model: { stop: ['\n\n'] } });
    const seen: CompletionRequest[] = [];
    const run = await runChild(ipcArgs(config, dir), {
      handler: async (request) => {
        seen.push(request);
        await new Promise((r) => setTimeout(r, 2));
        return { text: 'sl.mean(values)\n\nand some explanation', usage: { promptTokens: 10, completionTokens: 3, totalTokens: 13 } };
      },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(seen.length, 60);
    for (const r of seen) {
      assert.deepEqual(r.messages.map((m) => m.role), ['system', 'user']);
      assert.equal(r.maxTokens, 512);
      assert.equal(r.temperature, 0);
      assert.deepEqual(r.stop, ['\n\n']);
    }
    const recs = records(dir);
    assert.equal(recs.length, 60);
    for (const { result } of recs) {
      assert.equal(result?.status, 'answered');
      assert.equal(result?.response, 'sl.mean(values)');
      assert.equal(result?.provider, MODEL_ID);
      assert.equal(result?.attempts, 1);
      assert.equal(result?.usage?.totalTokens, 13);
    }
    const last = run.progress.at(-1)!;
    assert.equal(last.total, 60);
    assert.equal(last.done, 60);
    assert.ok(run.progress.length >= 2, 'progress comes over the channel');
    assert.match(run.stdout, /this session sent 60 \(0 recorded before\) with vscode-lm:test\/stand-in/);
    console.log(`  60 samples over IPC in ${run.ms} ms (child start, dataset, run, report)`);
  });

  test('errors keep their kinds: rate limits are retried, no permission is not, other failures are server errors', async () => {
    const dir = scratch();
    const config = writeConfig(dir);
    const classOf = new Map<string, 'ok' | 'rate' | 'blocked' | 'auth' | 'boom'>();
    const calls = new Map<string, number>();
    const classes = ['ok', 'rate', 'blocked', 'auth', 'boom'] as const;
    const run = await runChild(ipcArgs(config, dir), {
      handler: async (request) => {
        const key = promptOf(request);
        if (!classOf.has(key)) classOf.set(key, classes[classOf.size % classes.length]!);
        const n = (calls.get(key) ?? 0) + 1;
        calls.set(key, n);
        switch (classOf.get(key)) {
          case 'rate':
            // Copilot's wording; mapped as the editor maps a LanguageModelError.
            if (n === 1) throw mapLanguageModelError(Object.assign(new Error('Sorry, your request was rate-limited. Please wait 1 seconds before trying again.'), { code: 'Unknown' }), 'Stand-in').error;
            break;
          case 'blocked':
            if (n === 1) throw mapLanguageModelError(Object.assign(new Error('quota exceeded'), { code: 'Blocked' }), 'Stand-in').error;
            break;
          case 'auth':
            throw mapLanguageModelError(Object.assign(new Error('consent was not given'), { code: 'NoPermissions' }), 'Stand-in').error;
          case 'boom':
            throw new Error('the stream broke');
        }
        return { text: 'sl.sum(values)' };
      },
    });
    assert.equal(run.code, 0, run.stderr);
    const recs = records(dir);
    const seen = { ok: 0, rate: 0, blocked: 0, auth: 0, boom: 0 };
    for (const { prompt, result } of recs) {
      const cls = classOf.get(prompt)!;
      seen[cls]++;
      if (cls === 'ok') assert.deepEqual([result?.status, result?.attempts], ['answered', 1]);
      if (cls === 'rate' || cls === 'blocked') {
        assert.deepEqual([result?.status, result?.attempts], ['answered', 2], cls);
        assert.equal(result?.attemptLog[0]?.kind, 'rate-limited');
        // "Please wait 1 seconds" is a floor on the backoff, capped by maxRetryAfterMs (50 ms here).
        if (cls === 'rate') assert.ok(result!.attemptLog[0]!.waitMs! >= 50 - 1, `waited ${result!.attemptLog[0]!.waitMs} ms`);
      }
      if (cls === 'auth') {
        assert.deepEqual([result?.status, result?.errorKind, result?.attempts], ['failed', 'auth', 1]);
        assert.match(result!.errorMessage!, /VS Code has not allowed anachron to use Stand-in/);
        assert.equal(calls.get(prompt), 1, 'no permission is never retried');
      }
      if (cls === 'boom') {
        assert.deepEqual([result?.status, result?.errorKind, result?.attempts], ['failed', 'server', 3]);
        assert.match(result!.errorMessage!, /the stream broke/);
      }
    }
    assert.ok(Object.values(seen).every((n) => n >= 10), JSON.stringify(seen));
    assert.match(run.stdout, /24 failed/);
  });

  test('the parent cancels: requests in flight are cancelled and not recorded; running again resumes', async () => {
    const dir = scratch();
    const config = writeConfig(dir);
    let answered = 0;
    let hanging = 0;
    let aborted = 0;
    let stop: () => boolean = () => false;
    const firstSession = new Set<string>();
    const run = await runChild(ipcArgs(config, dir), {
      onStart: (_child, stopRun) => (stop = stopRun),
      handler: (request, signal) => {
        if (answered < 10) {
          answered++;
          firstSession.add(promptOf(request));
          return Promise.resolve({ text: 'sl.sum(values)' });
        }
        // The model hangs; once every worker waits on it (concurrency 4), the user cancels.
        if (++hanging === 4) setTimeout(() => assert.ok(stop()), 20);
        return new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted++;
            reject(Object.assign(new Error('cancelled'), { name: 'AbortError' }));
          });
        });
      },
    });
    assert.equal(run.code, 130, run.stderr);
    assert.equal(aborted, 4, 'each request in flight was cancelled through its signal');
    let recs = records(dir);
    assert.equal(recs.filter((r) => r.result).length, 10);
    assert.equal(recs.filter((r) => r.result?.status === 'failed').length, 0, 'a cancelled request is no failure');
    assert.equal(sessions(dir).at(-1)?.outcome, 'cancelled');
    assert.ok(readdirSync(dir).includes('report.html'), 'the partial report is written');

    const resent: string[] = [];
    const again = await runChild(ipcArgs(config, dir), {
      handler: async (request) => {
        resent.push(promptOf(request));
        return { text: 'sl.sum(values)' };
      },
    });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(resent.length, 50);
    assert.ok(resent.every((p) => !firstSession.has(p)), 'nothing recorded is sent again');
    recs = records(dir);
    assert.equal(recs.filter((r) => r.result?.status === 'answered').length, 60);
    assert.match(again.stdout, /this session sent 50 \(10 recorded before\)/);
  });

  test('the parent going away stops the run; nothing in flight is recorded', async () => {
    const dir = scratch();
    const config = writeConfig(dir);
    let inFlight = 0;
    let disconnected = false;
    const run = await runChild(ipcArgs(config, dir), {
      handler: () => {
        inFlight++;
        return new Promise(() => undefined); // never answers
      },
      onProgress: (_p, child) => {
        if (!disconnected) {
          disconnected = true;
          setTimeout(() => child.disconnect(), 100);
        }
      },
    });
    assert.equal(run.code, 130, run.stderr);
    assert.ok(inFlight >= 1);
    assert.equal(records(dir).filter((r) => r.result).length, 0);
    assert.equal(sessions(dir).at(-1)?.outcome, 'cancelled');
  });

  test('--model-ipc without an IPC channel is a usage error', () => {
    const dir = scratch();
    const r = runCli(ipcArgs(writeConfig(dir), dir));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--model-ipc needs an IPC channel/);
  });

  test('in-process: a timed-out request is cancelled at the parent and retried; a late answer is ignored', async () => {
    // Two ends of a channel: what the provider sends arrives at `parent`, and the other way round.
    const child = new EventEmitter() as EventEmitter & { send: (m: unknown) => boolean; connected: boolean };
    const parent = new EventEmitter() as EventEmitter & { send: (m: unknown) => boolean; connected: boolean };
    child.connected = parent.connected = true;
    child.send = (m) => (setImmediate(() => parent.emit('message', m)), true);
    parent.send = (m) => (setImmediate(() => child.emit('message', m)), true);
    let calls = 0;
    const cancelled: number[] = [];
    parent.on('message', (m: { type: string; id: number }) => {
      if (m.type === 'bench:cancel') cancelled.push(m.id);
    });
    const first = serveModelOverIpc(parent, {
      handler: async () => {
        calls++;
        if (calls === 1) {
          await new Promise((r) => setTimeout(r, 150)); // too late: the provider gave up after 40 ms
          return { text: 'late' };
        }
        return { text: 'in time' };
      },
    });
    const provider = new IpcModelProvider({ id: MODEL_ID, endpoint: child, timeoutMs: 40, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    const r = await provider.complete({ messages: [{ role: 'user', content: 'q' }], maxTokens: 5, temperature: 0 });
    assert.equal(r.text, 'in time');
    assert.equal(r.attempts, 2);
    assert.equal(r.attemptLog?.[0]?.kind, 'timeout');
    assert.deepEqual(cancelled, [1]);

    // The caller's signal: an AbortError (never a ModelError), and the parent hears of it.
    const controller = new AbortController();
    const pending = provider.complete({ messages: [{ role: 'user', content: 'q2' }], maxTokens: 5, temperature: 0 }, controller.signal);
    controller.abort();
    await assert.rejects(pending, (e) => isAbortError(e));
    // The parent disconnecting: AbortError too, so the sample stays pending.
    first.dispose();
    serveModelOverIpc(parent, { handler: () => new Promise(() => undefined) });
    const hanging = provider.complete({ messages: [{ role: 'user', content: 'q3' }], maxTokens: 5, temperature: 0 });
    await new Promise((r) => setTimeout(r, 10));
    child.connected = false;
    child.emit('disconnect');
    await assert.rejects(hanging, (e) => isAbortError(e) && !(e instanceof ModelError));
    provider.close();
  });
});

describe("the flow's plans through the real CLI", () => {
  const numpy: LibraryChoice = { library: 'numpy', versions: ['1.19.5', '1.24.2', '2.2.4', '2.4.6'], source: 'bundled' };

  test('built-in reference-pinned at the quick size on the bundled matrix: progress, a report; running again resumes', async () => {
    const root = scratch();
    const input = {
      suite: { kind: 'libevobench', corpus: 'none' } as const,
      libraries: [numpy],
      model: { kind: 'builtin', model: 'reference-pinned' } as const,
      size: 'quick' as const,
      runsRoot: root,
      cli: CLI,
      matricesFolder: join(REPO_ROOT, 'matrices'),
      extensionVersion: '0.1.0',
    };
    const plan = planRun(input);
    mkdirSync(plan.dir, { recursive: true });
    writeFileSync(join(plan.dir, 'config.json'), JSON.stringify(plan.config));
    const run = await runChild(plan.args.slice(1), { env: childEnvironment(process.env, plan, undefined), cwd: plan.dir });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.progress.at(-1)?.total, 200);
    assert.equal(run.progress.at(-1)?.done, 200);
    for (const f of ['report.html', 'results.json', 'predictions.jsonl', 'run.sqlite']) assert.ok(readdirSync(plan.dir).includes(f), f);
    assert.match(readFileSync(join(plan.dir, 'report.html'), 'utf8'), /Benchmark results: numpy · reference-pinned · quick/);
    assert.match(run.stdout, /200 answered, 0 failed/);
    console.log(`  quick run (200 samples, reference-pinned, numpy) in ${run.ms} ms`);

    const again = planRun({ ...input, resume: true });
    assert.equal(again.dir, plan.dir, 'the same choices give the same folder');
    const resumed = await runChild(again.args.slice(1), { env: childEnvironment(process.env, again, undefined), cwd: again.dir });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /this session sent 0 \(200 recorded before\)/);
    console.log(`  resumed (nothing to send) in ${resumed.ms} ms`);
  });

  test('an OpenAI-compatible endpoint: the key reaches the child in the variable the config names, and nowhere else', async () => {
    const KEY = 'sk-test-0123456789abcdefSECRETSECRET';
    const server = await startLocalModelServer({ models: { echo: new BuiltinProvider('echo') }, apiKey: KEY });
    try {
      const root = scratch();
      const samplesFile = join(root, 'samples.jsonl');
      writeFileSync(samplesFile, syntheticSamples(30, { library: 'synthlib' }).map((s) => JSON.stringify(s)).join('\n') + '\n');
      const input: PlanInput = {
        suite: { kind: 'samples', file: samplesFile, digest: 'd1', libraries: ['synthlib'] },
        libraries: [{ library: 'synthlib', versions: [], source: 'bundled' }],
        model: { kind: 'openai', baseUrl: server.baseUrl, model: 'echo', withKey: true },
        size: 'quick',
        runsRoot: root,
        cli: CLI,
        matricesFolder: join(REPO_ROOT, 'matrices'),
        extensionVersion: '0.1.0',
      };
      const plan = planRun(input);
      assert.equal(plan.apiKeyEnv, 'ANACHRON_BENCH_API_KEY');
      assert.equal((plan.config.model as { apiKeyEnv?: string }).apiKeyEnv, 'ANACHRON_BENCH_API_KEY');
      mkdirSync(plan.dir, { recursive: true });
      writeFileSync(join(plan.dir, 'config.json'), JSON.stringify(plan.config));
      const env = childEnvironment({ ...process.env, ANACHRON_BENCH_API_KEY: 'a stale value' }, plan, KEY);
      const run = await runChild([...plan.args.slice(1), '--bootstrap', '0'], { env, cwd: plan.dir });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /30 answered, 0 failed/);
      assert.ok(!plan.args.join(' ').includes(KEY), 'not on the command line');
      for (const name of readdirSync(plan.dir)) {
        if (name === 'matrices') continue;
        assert.ok(!readFileSync(join(plan.dir, name)).includes(KEY), `not in ${name}`);
      }
      assert.ok(!run.stdout.includes(KEY) && !run.stderr.includes(KEY));
      // Without the variable there is no key: the variable really is how it got there.
      const bare = planRun({ ...input, runsRoot: scratch() });
      mkdirSync(bare.dir, { recursive: true });
      writeFileSync(join(bare.dir, 'config.json'), JSON.stringify(bare.config));
      const refused = await runChild([...bare.args.slice(1), '--bootstrap', '0'], { env: childEnvironment({ ...process.env, ANACHRON_BENCH_API_KEY: KEY }, bare, undefined), cwd: bare.dir });
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /environment variable ANACHRON_BENCH_API_KEY is not set/);
      assert.ok(!refused.stderr.includes(KEY));
    } finally {
      await server.close();
    }
  });
});
