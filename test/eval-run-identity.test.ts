// What a run is, beyond its config file: (1) a vscode-lm model is a provider of its own, chosen by a selector that
// the run's identity records; only the editor can serve it, and the CLI says so before doing any work; (2) API-C built
// from a corpus carries the corpus digest in the identity: a changed corpus never resumes into the old run (a clear
// message), the same corpus resumes wherever it lies. Real CLI, real SQLite, the built-in model over the local HTTP
// server on 127.0.0.1.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { ConfigError, modelConfigLabel, modelIdentity, validateModelConfig } from '../server/src/eval/models/config.js';
import { describeCorpus } from '../server/src/eval/libevobench/config.js';
import { identityDifferences, RUN_IDENTITY, runIdentity, validateRunConfig, type RunConfig } from '../server/src/eval/suites.js';
import { executeRun } from '../server/src/eval/libevobench/run.js';
import { RunMismatchError, RunStore } from '../server/src/eval/runs/store.js';
import { syntheticSamples } from '../server/src/eval/libevobench/synthetic.js';
import { REPO_ROOT, runCli } from './support/cli.js';

const work = mkdtempSync(join(tmpdir(), 'anachron-run-identity-'));

const base = { suite: 'libevobench', libraries: ['numpy'], tasks: ['API-C'], levels: ['L0', 'L1', 'L2', 'L3'], seed: 1 };

describe('vscode-lm models in run configs', () => {
  // [model config, the error it gets (undefined: accepted)]
  const cases: [string, Record<string, unknown>, RegExp | undefined][] = [
    ['vendor and family', { provider: 'vscode-lm', vendor: 'copilot', family: 'gpt-4o' }, undefined],
    ['the full selector, a name and client settings', { provider: 'vscode-lm', vendor: 'copilot', family: 'gpt-4o', id: 'gpt-4o', version: '2024-11-20', name: 'GPT-4o', timeoutMs: 90_000, retry: { maxAttempts: 3 }, maxTokens: 256 }, undefined],
    ['an id alone', { provider: 'vscode-lm', id: 'claude-sonnet-4' }, undefined],
    ['no selector', { provider: 'vscode-lm' }, /needs a selector: vendor, family, id, version/],
    ['only a name', { provider: 'vscode-lm', name: 'GPT-4o' }, /needs a selector/],
    ['"model" instead of a selector', { provider: 'vscode-lm', model: 'gpt-4o' }, /chosen by vendor, family, id, version .* not by "model"/],
    ['an empty vendor', { provider: 'vscode-lm', vendor: '' }, /model\.vendor must be a non-empty string/],
    ['a numeric version', { provider: 'vscode-lm', vendor: 'copilot', version: 4 }, /model\.version must be a non-empty string/],
    ['a key in the config', { provider: 'vscode-lm', vendor: 'copilot', apiKey: 'x' }, /never read from a config file/],
    ['an unknown provider', { provider: 'vscode' }, /"openai-compatible", "builtin" or "vscode-lm"/],
  ];
  for (const [what, model, error] of cases) {
    test(`${error ? 'refused' : 'accepted'}: ${what}`, () => {
      if (error) assert.throws(() => validateModelConfig(model), (e: Error) => e instanceof ConfigError && error.test(e.message));
      else assert.deepEqual(validateRunConfig({ ...base, model }).model, model);
    });
  }

  test('the selector is the identity: vendor, family, id and version count, the name and client settings do not', () => {
    const a = { provider: 'vscode-lm', vendor: 'copilot', family: 'gpt-4o', id: 'gpt-4o', version: '1' } as const;
    const id = (model: Record<string, unknown>) => runIdentity(validateRunConfig({ ...base, model }));
    for (const field of ['vendor', 'family', 'id', 'version'] as const) assert.notEqual(id({ ...a, [field]: 'other' }), id(a), field);
    assert.equal(id({ ...a, name: 'GPT-4o', timeoutMs: 5000, retry: { maxAttempts: 2 } }), id(a));
    // Not the same measurement as an OpenAI-compatible model of the same name.
    assert.notEqual(id(a), id({ provider: 'openai-compatible', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o' }));
    assert.deepEqual(modelIdentity(validateModelConfig({ provider: 'vscode-lm', vendor: 'copilot' })), { provider: 'vscode-lm', vendor: 'copilot', family: null, id: null, version: null, temperature: 0, maxTokens: 512, stop: [] });
    assert.equal(modelConfigLabel(validateModelConfig(a)), 'vscode-lm:copilot/gpt-4o/gpt-4o/1');
  });

  test('the CLI refuses a vscode-lm config before any work, saying why; --model-ipc only serves vscode-lm models', async () => {
    const config = join(work, 'lm.json');
    writeFileSync(config, JSON.stringify({ ...base, tasks: ['API-I', 'SR'], model: { provider: 'vscode-lm', vendor: 'copilot', family: 'gpt-4o' } }));
    const out = join(work, 'lm-run');
    const r = runCli(['bench', 'run', config, '--out', out]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /lm\.json: vscode-lm models are only available when the run starts from the editor/);
    assert.match(r.stderr, /give it an "openai-compatible" or "builtin" model/);
    assert.ok(!existsSync(out), 'nothing built or written');
    // The same for a drift config (its own branch of `bench run`).
    const drift = join(work, 'lm-drift.json');
    writeFileSync(drift, JSON.stringify({ suite: 'drift', libraries: ['numpy'], seed: 1, model: { provider: 'vscode-lm', vendor: 'copilot' } }));
    const d = runCli(['bench', 'run', drift, '--out', join(work, 'lm-drift')]);
    assert.equal(d.code, 2, d.stderr);
    assert.match(d.stderr, /vscode-lm models are only available when the run starts from the editor/);
    // --model-ipc with another provider: the answers would be recorded under the wrong model. (Run with an IPC
    // channel, as the editor starts it, so that the flag itself is allowed.)
    const builtin = join(work, 'builtin.json');
    writeFileSync(builtin, JSON.stringify({ ...base, tasks: ['SR'], model: { provider: 'builtin', model: 'reference-pinned' } }));
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'anachron.js'), 'bench', 'run', builtin, '--out', join(work, 'ipc-builtin'), '--model-ipc', 'vscode-lm:x/y'], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 2, stderr);
    assert.match(stderr, /--model-ipc serves the config's vscode-lm model; this config's model is builtin/);
  });

  test('executeRun without the editor\'s provider fails with the same message, and records nothing', async () => {
    const db = join(work, 'lm-direct.sqlite');
    const config: RunConfig = { suite: 'synthetic', libraries: ['synthlib'], tasks: ['SR'], levels: [], seed: 1, model: { provider: 'vscode-lm', vendor: 'copilot' } };
    await assert.rejects(executeRun({ config, database: db, dataset: syntheticSamples(10, { library: 'synthlib' }).filter((s) => s.task === 'SR') }), (e: Error) => e instanceof ConfigError && /only available when the run starts from the editor/.test(e.message));
    const store = RunStore.open(db, { readonly: true });
    try {
      assert.equal(store.counts().answered + store.counts().failed, 0);
    } finally {
      store.close();
    }
  });
});

describe('the corpus digest in the run identity', () => {
  const corpus = join(work, 'corpus');
  const file = join(corpus, 'app', 'stats.py');
  const original = [
    'import numpy as np',
    '',
    '',
    'def summary(values):',
    '    arr = np.asarray(values, dtype=float)',
    '    mean = np.mean(arr)',
    '    spread = np.std(arr)',
    '    uniq = np.unique(arr, return_counts=True)',
    '    area = np.trapz(arr, dx=0.5)',
    '    return mean, spread, uniq, area',
    '',
  ].join('\n');
  const config = join(work, 'corpus-run.json');
  const out = join(work, 'corpus-run');
  const run = (extra: string[] = [], configFile = config, folder = corpus) => runCli(['bench', 'run', configFile, '--corpus', folder, '--out', out, '--bootstrap', '0', '--quiet', ...extra]);
  const recorded = () => {
    const store = RunStore.open(join(out, 'run.sqlite'), { readonly: true });
    try {
      return { samples: store.counts().samples, corpus: (store.meta.config as RunConfig).corpus };
    } finally {
      store.close();
    }
  };

  before(() => {
    mkdirSync(join(corpus, 'app'), { recursive: true });
    writeFileSync(join(corpus, 'requirements.txt'), 'numpy==1.24.2\n');
    writeFileSync(file, original);
    writeFileSync(config, JSON.stringify({ ...base, versions: { numpy: ['1.24.2'] }, model: { provider: 'builtin', model: 'reference-pinned' }, concurrency: 4 }));
  });

  test('identity: the digest counts with API-C only; identityDifferences names it', () => {
    const c = validateRunConfig({ ...base, model: { provider: 'builtin', model: 'reference-pinned' } });
    const withCorpus = (digest: string, extra: Partial<RunConfig> = {}): RunConfig => ({ ...c, ...extra, corpus: { digest, source: 'the folder /x', files: 3 } });
    assert.notEqual(runIdentity(withCorpus('aaa')), runIdentity(withCorpus('bbb')));
    assert.notEqual(runIdentity(withCorpus('aaa')), runIdentity(c));
    // Where the corpus lies and how many files it has are descriptions, not identity.
    assert.equal(runIdentity(withCorpus('aaa')), runIdentity({ ...c, corpus: { digest: 'aaa', source: 'the folder /elsewhere' } }));
    // No API-C, no corpus read: the identity is what it was without one.
    const noApiC = { tasks: ['API-I', 'SR'] as RunConfig['tasks'] };
    assert.equal(runIdentity(withCorpus('aaa', noApiC)), runIdentity({ ...c, ...noApiC }));
    assert.deepEqual(identityDifferences(withCorpus('aaa'), withCorpus('bbb')), ['corpus']);
    assert.deepEqual(identityDifferences(withCorpus('aaa'), { ...withCorpus('bbb'), seed: 2 }).sort(), ['corpus', 'seed']);
    assert.equal(describeCorpus(withCorpus('aaa').corpus), 'the folder /x (digest aaa, 3 Python files)');
    // A config may state the digest (copied from a run); it is checked, never trusted blindly.
    assert.throws(() => validateRunConfig({ ...c, corpus: { digest: '' } }), /corpus must be an object with the corpus digest/);
    assert.throws(() => validateRunConfig({ ...c, corpus: { digest: 'a', path: '/x' } }), /corpus: unknown field "path"/);
    assert.throws(() => validateRunConfig({ suite: 'drift', libraries: ['numpy'], seed: 1, model: c.model, corpus: { digest: 'a' } }), /drift suite has no corpus/);
  });

  // Each step: what to do to the corpus, then the run's exit code and what it must say.
  const steps: { what: string; before?: () => void; args?: () => Parameters<typeof run>; code: number; says: RegExp; samples?: 'same' }[] = [
    { what: 'a first run records every sample', code: 0, says: /this session sent (\d+) \(0 recorded before\) with builtin:reference-pinned over the local OpenAI-compatible server \(http:\/\/127\.0\.0\.1:\d+\/v1\)/ },
    { what: 'the same corpus resumes: nothing sent again', code: 0, says: /this session sent 0 \(\d+ recorded before\)/, samples: 'same' },
    {
      what: 'an edited file: refused, naming both corpora',
      before: () => writeFileSync(file, original.replace('    return mean', '    peak = np.max(arr)\n    return mean')),
      code: 2,
      says: /belongs to a different run: it was built from another corpus, the folder .*corpus \(digest [0-9a-f]{24}, 1 Python file\); this run reads the folder .*corpus \(digest [0-9a-f]{24}, 1 Python file\)\. The code changed since the run started/,
      samples: 'same',
    },
    // Pins are part of the corpus: another pin in force changes what the code means.
    { what: 'another pin: refused as well', before: () => (writeFileSync(file, original), writeFileSync(join(corpus, 'requirements.txt'), 'numpy==1.24.2\nscipy==1.10.1\n')), code: 2, says: /built from another corpus/, samples: 'same' },
    { what: 'the corpus restored: resumes', before: () => writeFileSync(join(corpus, 'requirements.txt'), 'numpy==1.24.2\n'), code: 0, says: /this session sent 0 \(\d+ recorded before\)/, samples: 'same' },
    {
      what: 'the same code in another folder: the same corpus, resumes',
      before: () => cpSync(corpus, join(work, 'moved-corpus'), { recursive: true }),
      args: () => [[], config, join(work, 'moved-corpus')],
      code: 0,
      says: /this session sent 0 \(\d+ recorded before\)/,
      samples: 'same',
    },
    {
      what: 'a config stating another corpus digest: refused before anything runs',
      before: () => writeFileSync(join(work, 'stated.json'), JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), corpus: { digest: '0123456789abcdef01234567', source: 'the team corpus' } })),
      args: () => [[], join(work, 'stated.json')],
      code: 2,
      says: /the config is for the team corpus \(digest 0123456789abcdef01234567\), but the folder .* \(digest [0-9a-f]{24}, 1 Python file\) is another corpus/,
      samples: 'same',
    },
  ];

  test('a run resumes on the same corpus only', () => {
    let first: { samples: number; corpus: RunConfig['corpus'] } | undefined;
    for (const step of steps) {
      step.before?.();
      const r = step.args ? run(...step.args()) : run();
      assert.equal(r.code, step.code, `${step.what}: ${r.stderr}${r.stdout}`);
      assert.match(r.code === 0 ? r.stdout : r.stderr, step.says, step.what);
      const now = recorded();
      if (!first) {
        first = now;
        assert.ok(now.samples >= 8, `API-C samples from the corpus: ${now.samples}`);
        assert.match(now.corpus!.digest, /^[0-9a-f]{24}$/);
        assert.equal(now.corpus!.files, 1);
      } else if (step.samples === 'same') assert.deepEqual(now, first, `${step.what}: the run database is untouched`);
    }
  });

  test('RunStore refuses the other corpus itself (shards and library callers get the same message)', () => {
    const stored = recorded();
    const config = validateRunConfig({ ...JSON.parse(readFileSync(join(work, 'corpus-run.json'), 'utf8')), corpus: { ...stored.corpus!, digest: 'ffffffffffffffffffffffff' } });
    assert.throws(() => RunStore.open(join(out, 'run.sqlite'), { config, identity: RUN_IDENTITY }), (e: Error) => e instanceof RunMismatchError && /built from another corpus/.test(e.message));
    const same = validateRunConfig({ ...JSON.parse(readFileSync(join(work, 'corpus-run.json'), 'utf8')), corpus: stored.corpus });
    RunStore.open(join(out, 'run.sqlite'), { config: same, identity: RUN_IDENTITY }).close();
  });
});
