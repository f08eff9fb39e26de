// The pure parts of "anachron: Run Benchmark…" (client/src/eval/run-flow.ts): what the flow offers, the config and
// folder of a run (the same choices resume the same folder), the child's arguments and environment (a key never on
// the command line), progress text, and VS Code Language Model errors mapped onto the benchmark's error kinds.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  API_KEY_ENV,
  checkBaseUrl,
  childEnvironment,
  inspectSamplesFile,
  isInside,
  libraryChoices,
  mapLanguageModelError,
  matricesFor,
  planRun,
  progressMessage,
  ProgressTracker,
  readOutcome,
  finishedSentence,
  requestedWaitMs,
  toLanguageModelMessages,
  type LibraryChoice,
  type PlanInput,
} from '../client/src/eval/run-flow.js';
import type { VscodeLmModelConfig } from '../server/src/eval/models/config.js';
import { runIdentity, validateRunConfig } from '../server/src/eval/suites.js';
import type { RunProgress } from '../server/src/eval/runs/runner.js';
import { AT_EXTENSION, runProgress } from './support/run-flow.js';

const numpy: LibraryChoice = { library: 'numpy', versions: ['1.19.5', '1.24.2', '2.2.4', '2.4.6'], source: 'bundled' };
const toylib: LibraryChoice = { library: 'toylib', versions: ['1.0'], source: 'user' };

const base: PlanInput = {
  suite: { kind: 'libevobench', corpus: 'none' },
  libraries: [numpy],
  model: { kind: 'builtin', model: 'reference-pinned' },
  ...AT_EXTENSION,
};

const progress = (p: Partial<RunProgress>): RunProgress => runProgress(200, p);

describe('the Run Benchmark flow', () => {
  test('libraries: the bundled matrix of a library, else the user\'s own; their extra columns are not benchmarked', () => {
    const choices = libraryChoices([
      { library: 'toylib', versions: ['1.0'], userVersions: ['1.0'] },
      { library: 'numpy', versions: ['1.19.5', '1.24.2', '1.26.4', '2.2.4'], userVersions: ['1.26.4'] },
      { library: 'empty', versions: [], userVersions: [] },
    ]);
    assert.deepEqual(choices, [
      { library: 'numpy', versions: ['1.19.5', '1.24.2', '2.2.4'], source: 'bundled' },
      { library: 'toylib', versions: ['1.0'], source: 'user' },
    ]);
    const folders = { bundled: '/ext/matrices', user: '/storage/matrices' };
    assert.deepEqual(matricesFor([numpy], folders), { folder: '/ext/matrices' });
    assert.deepEqual(matricesFor([toylib], folders), { folder: '/storage/matrices' });
    assert.deepEqual(matricesFor([numpy, toylib], folders), { files: [join('/ext/matrices', 'numpy.sqlite'), join('/storage/matrices', 'toylib.sqlite')] });
  });

  test('a samples file: its samples per library, its tasks, the lines that are not samples', () => {
    const line = (library: string, task: string, id: string) => JSON.stringify({ id, task, library, version: '1', api: 'x', prompt: [] });
    const s = inspectSamplesFile([line('numpy', 'SR', 'a'), '', line('numpy', 'API-I', 'b'), 'not json', line('scipy', 'SR', 'c'), '{"library": 3}'].join('\n'));
    assert.equal(s.samples, 3);
    assert.deepEqual(s.libraries, { numpy: 2, scipy: 1 });
    assert.deepEqual(s.tasks, ['API-I', 'SR']);
    assert.deepEqual(s.badLines, [4, 6]);
    assert.match(s.digest, /^[0-9a-f]{16}$/);
    assert.notEqual(inspectSamplesFile(line('numpy', 'SR', 'a')).digest, s.digest);
  });

  test('a plan: a config the CLI accepts, the same folder for the same choices, another for anything that changes the run', () => {
    const plan = planRun(base);
    const config = validateRunConfig(JSON.parse(JSON.stringify(plan.config)));
    assert.deepEqual(config.tasks, ['API-I', 'SR'], 'no corpus: API-I and SR only');
    assert.equal(config.limit, 200);
    assert.equal(config.suite, 'libevobench');
    assert.deepEqual(config.model, { provider: 'builtin', model: 'reference-pinned' });
    assert.equal(plan.label, 'numpy · reference-pinned · quick');
    assert.equal(plan.dir, planRun(base).dir);
    assert.ok(plan.dir.startsWith('/runs/numpy-reference-pinned-matrices-quick-'), plan.dir);
    assert.deepEqual(plan.args, ['/ext/dist/cli.js', 'bench', 'run', join(plan.dir, 'config.json'), '--out', plan.dir, '--matrices', '/ext/matrices', '--quiet']);
    const others = [
      planRun({ ...base, size: 'standard' }),
      planRun({ ...base, size: 'full' }),
      planRun({ ...base, model: { kind: 'builtin', model: 'reference-newest' } }),
      planRun({ ...base, suite: { kind: 'libevobench', corpus: 'example' } }),
      planRun({ ...base, extensionVersion: '0.2.0' }),
      planRun({ ...base, libraries: [numpy, toylib], matricesFolder: undefined }),
    ];
    assert.equal(new Set([plan.dir, ...others.map((p) => p.dir)]).size, 7);
    assert.equal(others[1]!.config.limit, undefined, 'full: no limit');
    assert.equal(others[0]!.config.limit, 2000);
    assert.deepEqual(others[3]!.config.tasks, ['API-C', 'API-I', 'SR']);
    assert.ok(others[3]!.args.includes('--example-corpus'));
    // Libraries from two matrices folders: the run reads copies in its own folder.
    assert.equal(others[5]!.matricesFolder, join(others[5]!.dir, 'matrices'));
    assert.ok(!plan.args.includes('--retry-failed'));
    assert.ok(planRun({ ...base, resume: true }).args.includes('--retry-failed'), 'resuming sends the model failures again');
    assert.equal(planRun({ ...base, resume: true }).dir, plan.dir);
  });

  test('suites: a workspace folder as the API-C corpus, or a samples file', () => {
    const ws = planRun({ ...base, suite: { kind: 'libevobench', corpus: 'workspace', folder: '/work/proj', folderName: 'proj' } });
    assert.deepEqual(ws.args.slice(-2), ['--corpus', '/work/proj']);
    assert.equal(ws.config.suite, 'libevobench');
    assert.match(ws.dir, /numpy-reference-pinned-ws-proj-quick-/);
    const samples = planRun({ ...base, suite: { kind: 'samples', file: '/data/s.jsonl', digest: 'abc', libraries: ['numpy'] } });
    assert.deepEqual(samples.args.slice(-2), ['--samples', '/data/s.jsonl']);
    assert.equal(samples.config.suite, 'samples');
    assert.notEqual(planRun({ ...base, suite: { kind: 'samples', file: '/data/s.jsonl', digest: 'abd', libraries: ['numpy'] } }).dir, samples.dir, 'another file content, another run');
  });

  test('an OpenAI-compatible endpoint: the config names the key\'s variable; the key is in the environment only', () => {
    const plan = planRun({ ...base, model: { kind: 'openai', baseUrl: 'https://api.example.com/v1/', model: 'gpt-4.1', withKey: true } });
    const config = validateRunConfig(JSON.parse(JSON.stringify(plan.config)));
    assert.deepEqual(config.model, { provider: 'openai-compatible', baseUrl: 'https://api.example.com/v1', model: 'gpt-4.1', apiKeyEnv: API_KEY_ENV });
    assert.equal(plan.apiKeyEnv, API_KEY_ENV);
    assert.equal(plan.config.concurrency, 4);
    const env = childEnvironment({ PATH: '/bin' }, plan, 'sk-secret-value-123456');
    assert.equal(env[API_KEY_ENV], 'sk-secret-value-123456');
    assert.equal(env.ELECTRON_RUN_AS_NODE, '1');
    assert.ok(!JSON.stringify(plan).includes('sk-secret'), 'not in the plan, its args or its config');
    // No key: none passed on, not even one the parent's environment happens to hold.
    const noKey = planRun({ ...base, model: { kind: 'openai', baseUrl: 'http://localhost:8080/v1', model: 'llama', withKey: false } });
    assert.equal((noKey.config.model as { apiKeyEnv?: string }).apiKeyEnv, undefined);
    assert.equal(childEnvironment({ [API_KEY_ENV]: 'stale' }, noKey, 'sk-secret-value-123456')[API_KEY_ENV], undefined);
    assert.equal(checkBaseUrl('https://api.openai.com/v1'), undefined);
    assert.match(checkBaseUrl('ftp://x')!, /http/);
    assert.match(checkBaseUrl('https://user:pw@host/v1')!, /No credentials/);
    assert.match(checkBaseUrl('not a url')!, /Not a URL/);
  });

  test('a vscode.lm model: served over IPC, its selector in the config and the run identity', () => {
    const plan = planRun({ ...base, model: { kind: 'lm', vendor: 'copilot', id: 'gpt-4o', family: 'gpt-4o', version: '2024-05-13', name: 'GPT-4o' } });
    assert.equal(plan.ipcModelId, 'vscode-lm:copilot/gpt-4o');
    assert.deepEqual(plan.args.slice(-2), ['--model-ipc', 'vscode-lm:copilot/gpt-4o']);
    const config = validateRunConfig(JSON.parse(JSON.stringify(plan.config)));
    assert.deepEqual(config.model, { provider: 'vscode-lm', vendor: 'copilot', family: 'gpt-4o', id: 'gpt-4o', version: '2024-05-13', name: 'GPT-4o' });
    assert.equal(config.concurrency, 2);
    assert.equal(plan.label, 'numpy · GPT-4o (copilot) · quick');
    const other = planRun({ ...base, model: { kind: 'lm', vendor: 'copilot', id: 'claude-sonnet', family: 'claude', version: '1', name: 'Claude' } });
    assert.notEqual(other.dir, plan.dir);
    // A new version of the same model is another measurement: another identity, another folder.
    const newer = planRun({ ...base, model: { kind: 'lm', vendor: 'copilot', id: 'gpt-4o', family: 'gpt-4o', version: '2024-11-20', name: 'GPT-4o' } });
    assert.notEqual(runIdentity(newer.config), runIdentity(plan.config));
    assert.notEqual(newer.dir, plan.dir);
    // The name VS Code shows is not part of it.
    assert.equal(runIdentity({ ...plan.config, model: { ...(config.model as VscodeLmModelConfig), name: 'GPT-4o (preview)' } }), runIdentity(plan.config));
  });

  test('progress: done/total, failed, ETA; increments add up to 100', () => {
    assert.equal(progressMessage(progress({ done: 50, failed: 2, etaSeconds: 75 })), '50/200 done · 2 failed · ETA 1:15');
    assert.equal(progressMessage(progress({ done: 0 })), '0/200 done · 0 failed · ETA –');
    assert.equal(progressMessage(progress({ total: 2000, done: 1500, etaSeconds: 3725, lastFailure: { sampleId: 'x', kind: 'rate-limited', message: 'm' } })), '1,500/2,000 done · 0 failed · ETA 1:02:05 · last failure: rate-limited');
    assert.equal(progressMessage(progress({ done: 200 })), '200/200 done · 0 failed');
    const t = new ProgressTracker();
    const steps = [0, 20, 20, 110, 90, 200].map((done) => t.increment(progress({ done })));
    assert.deepEqual(steps, [0, 10, 0, 45, 0, 45]);
  });

  test("the CLI's closing lines", () => {
    const o = readOutcome('run: 200 samples, 200 answered, 0 failed, 0 pending; this session sent 200 (0 recorded before) with builtin:reference-pinned\nscored: …\nSEUS 41.2% [38.0%, 44.1%]  stable …\nreport: /runs/x/report.html\n');
    assert.equal(o.runLine, '200 samples, 200 answered, 0 failed, 0 pending; this session sent 200 (0 recorded before) with builtin:reference-pinned');
    assert.match(o.seusLine!, /^SEUS 41.2%/);
    assert.equal(o.report, '/runs/x/report.html');
  });

  test('the finished notification is one sentence: the headline figure, the samples and how many were recorded before', () => {
    const W = "the extension's global storage (Restricted Mode: nothing is written into this workspace)";
    const o = readOutcome('run: 200 samples, 200 answered, 0 failed, 0 pending; this session sent 200 (0 recorded before) with builtin:reference-pinned\nSEUS 41.2% [38.0%, 44.1%]  stable 90.0%  evolving 12.0%\n');
    assert.equal(finishedSentence(o, 'x', W), `anachron: benchmark finished — SEUS 41.2% [38.0%, 44.1%] on 200 samples (0 recorded before); the run is in ${W}.`);
    const drift = readOutcome('drift numpy: fidelity 80.0% (mean of the diagonal), pooled 79.0%, forward 60.0%\n');
    assert.equal(finishedSentence(drift, '12 of 12 samples recorded', W), `anachron: benchmark finished — numpy: fidelity 80.0% on 12 of 12 samples recorded; the run is in ${W}.`);
    assert.equal(finishedSentence({}, 'nothing recorded yet', W), `anachron: benchmark finished on nothing recorded yet; the run is in ${W}.`);
    assert.equal(finishedSentence({ seusLine: 'SEUS: not available (numpy API-I: no SEUS task scored. See the report.)' }, '3 of 3 samples recorded', W), `anachron: benchmark finished — SEUS not available on 3 of 3 samples recorded; the run is in ${W}.`);
    for (const sentence of [finishedSentence(o, 'x', W), finishedSentence(drift, 'y', W)]) assert.equal(sentence.split(/[.!?](?:\s|$)/).filter((t) => t.trim()).length, 1, sentence);
  });

  test('Restricted Mode: files inside the workspace are recognised', () => {
    assert.equal(isInside('/work/proj/data/s.jsonl', ['/work/proj']), true);
    assert.equal(isInside('/work/proj', ['/work/proj']), true);
    assert.equal(isInside('/work/project2/s.jsonl', ['/work/proj']), false);
    assert.equal(isInside('/tmp/s.jsonl', []), false);
  });
});

describe("VS Code's Language Model API errors as benchmark errors", () => {
  const lmError = (code: string, message: string, cause?: Error) => Object.assign(new Error(message), { code, name: `${code} (LanguageModelError)`, ...(cause ? { cause } : {}) });

  test('no permission or consent: auth, not retried, fatal for the run, with what to do', () => {
    const m = mapLanguageModelError(lmError('NoPermissions', 'Access denied'), 'GPT-4o');
    assert.equal(m.error.kind, 'auth');
    assert.equal(m.error.retryable, false);
    assert.equal(m.fatal, true);
    assert.match(m.error.message, /VS Code has not allowed anachron to use GPT-4o/);
    assert.match(m.error.message, /Manage Language Model Access/);
  });

  test('rate limits and quota: rate-limited, retried, waiting what the message asks for', () => {
    const blocked = mapLanguageModelError(lmError('Blocked', 'quota exceeded'), 'GPT-4o');
    assert.deepEqual([blocked.error.kind, blocked.error.retryable, blocked.fatal], ['rate-limited', true, false]);
    const copilot = mapLanguageModelError(lmError('Unknown', 'Request Failed', new Error('Sorry, your request was rate-limited. Please wait 89 seconds before trying again.')), 'GPT-4o');
    assert.equal(copilot.error.kind, 'rate-limited');
    assert.equal(copilot.error.retryAfterMs, 89_000);
    assert.equal(mapLanguageModelError(new Error('Server Error: rate limit exceeded Error Code: rate_limited'), 'm').error.kind, 'rate-limited');
    assert.equal(mapLanguageModelError(new Error('429 Too Many Requests'), 'm').error.kind, 'rate-limited');
    assert.equal(requestedWaitMs('Please wait 9 hours 23 minutes and try again!'), 9 * 3_600_000 + 23 * 60_000);
    assert.equal(requestedWaitMs('try again in 2 minutes'), 120_000);
    assert.equal(requestedWaitMs('rate limited'), undefined);
  });

  test('a model that is gone is fatal; a filtered answer is refused; anything else is a server error, retried', () => {
    const gone = mapLanguageModelError(lmError('NotFound', 'no such model'), 'GPT-4o');
    assert.deepEqual([gone.error.kind, gone.error.retryable, gone.fatal], ['refused', false, true]);
    const filtered = mapLanguageModelError(new Error('Response got filtered.'), 'GPT-4o');
    assert.deepEqual([filtered.error.kind, filtered.error.retryable, filtered.fatal], ['refused', false, false]);
    const other = mapLanguageModelError(lmError('Unknown', 'socket hang up'), 'GPT-4o');
    assert.deepEqual([other.error.kind, other.error.retryable, other.fatal], ['server', true, false]);
    assert.equal(mapLanguageModelError('a string', 'm').error.kind, 'server');
  });

  test('messages: the system message goes as a user message, first', () => {
    assert.deepEqual(
      toLanguageModelMessages([
        { role: 'system', content: 'rules' },
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a' },
      ]),
      [
        { role: 'user', content: 'rules' },
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a' },
      ],
    );
  });
});
