// The drift suite in "anachron: Run Benchmark…" (the pure parts, client/src/eval/run-flow.ts): the libraries it offers
// (bundled tasks and environments), the config the CLI accepts, the run folder (the same choices resume), the
// confirmation text before generated code runs, progress across the stages, and the outcome lines.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ARMS_CHOICES, DRIFT_SIZES, driftConfirmation, driftLibraryChoices, envAddArgs, environmentCreationConfirmation, missingDriftEnvironments, overallPercent, planRun, progressMessage, readOutcome, type PlanInput } from '../client/src/eval/run-flow.js';
import { validateRunConfig } from '../server/src/eval/suites.js';
import type { RunProgress } from '../server/src/eval/runs/runner.js';
import { AT_EXTENSION, runProgress } from './support/run-flow.js';
import { compareVersions, versionsEqual } from '../server/src/core/versions.js';
import { bundledTaskLibraries, readTaskFile } from '../server/src/eval/drift/task-files.js';

const base: PlanInput = {
  suite: { kind: 'drift' },
  libraries: [{ library: 'numpy', versions: ['1.24.2', '2.2.4'], source: 'bundled' }],
  model: { kind: 'builtin', model: 'version-aware' },
  ...AT_EXTENSION,
};
const p = (x: Partial<RunProgress>): RunProgress => runProgress(100, x);

describe('the drift suite in the Run Benchmark flow', () => {
  test('libraries: bundled tasks with at least one environment, versions ascending', () => {
    const envs = [
      { library: 'numpy', version: '2.2.4' },
      { library: 'numpy', version: '1.19.5' },
      { library: 'scipy', version: '1.10.1' },
      { library: 'pandas', version: '2.0.0' },
    ];
    assert.deepEqual(driftLibraryChoices(['numpy', 'scipy', 'torch'], envs, compareVersions), [
      { library: 'numpy', versions: ['1.19.5', '2.2.4'] },
      { library: 'scipy', versions: ['1.10.1'] },
    ]);
  });

  test("environments to make: the versions a task file names that no environment has (qiskit.json's three), as env add commands", () => {
    const folder = join(__dirname, '..', 'tasks', 'drift');
    assert.ok(bundledTaskLibraries(folder).includes('qiskit'));
    const declared = new Map([['qiskit', readTaskFile(join(folder, 'qiskit.json')).versions!], ['numpy', ['1.24.2']]]);
    assert.deepEqual(declared.get('qiskit'), ['0.43.3', '1.3.0', '2.0.0']);
    const envs = [{ library: 'qiskit', version: '1.3' }, { library: 'numpy', version: '1.24.2' }];
    const gaps = missingDriftEnvironments(declared, envs, versionsEqual);
    assert.deepEqual(gaps, [{ library: 'qiskit', missing: ['0.43.3', '2.0.0'] }]);
    assert.deepEqual(envAddArgs('qiskit', '0.43.3', '/store/environments', '/store/wheels'), ['env', 'add', 'qiskit==0.43.3', '--venv', join('/store/environments', 'qiskit-0.43.3'), '--create', '--wheel-cache', '/store/wheels']);
    const text = environmentCreationConfirmation(gaps, '/store/environments');
    assert.match(text, /^anachron makes 2 virtual environments \(qiskit 0\.43\.3, 2\.0\.0\) in \/store\/environments, installed from the package index/);
    assert.match(text, /Make them\?$/);
  });

  test('a plan: a drift config the CLI accepts, the environments\' versions, one folder per choice', () => {
    const plan = planRun(base);
    const config = validateRunConfig(JSON.parse(JSON.stringify(plan.config)));
    assert.equal(config.suite, 'drift');
    assert.deepEqual(config.versions, { numpy: ['1.24.2', '2.2.4'] });
    assert.deepEqual(config.drift, { samplesPerPrompt: 1 });
    assert.equal(config.limit, 40);
    assert.deepEqual(config.model, { provider: 'builtin', model: 'version-aware', temperature: 0.8, maxTokens: 1024 });
    assert.deepEqual(plan.args, ['/ext/dist/cli.js', 'bench', 'run', join(plan.dir, 'config.json'), '--out', plan.dir, '--matrices', '/ext/matrices', '--quiet']);
    assert.ok(plan.dir.startsWith('/runs/drift-numpy-version-aware-quick-'), plan.dir);
    assert.equal(plan.label, 'drift · numpy · version-aware · quick');
    assert.equal(planRun(base).dir, plan.dir, 'the same choices resume the same run');
    const others = [
      planRun({ ...base, size: 'full' }),
      planRun({ ...base, model: { kind: 'builtin', model: 'version-oblivious' } }),
      planRun({ ...base, libraries: [{ library: 'numpy', versions: ['1.24.2', '2.2.4', '2.4.6'], source: 'bundled' }] }),
    ];
    assert.equal(new Set([plan.dir, ...others.map((o) => o.dir)]).size, 4);
    assert.equal(others[0]!.config.limit, undefined);
    assert.equal(others[0]!.config.drift!.samplesPerPrompt, 3);
    assert.ok(planRun({ ...base, resume: true }).args.includes('--retry-failed'));
    const lm = planRun({ ...base, model: { kind: 'lm', vendor: 'copilot', id: 'gpt-4o', family: 'gpt-4o', version: '1', name: 'GPT-4o' } });
    assert.deepEqual(lm.args.slice(-2), ['--model-ipc', 'vscode-lm:copilot/gpt-4o']);
    assert.equal(DRIFT_SIZES.length, 3);
  });

  test('arms: plain keeps the plan as it was; plain + grounded sets config.arms in both suites, in a folder of its own', () => {
    const libevobench: PlanInput = { ...base, suite: { kind: 'libevobench', corpus: 'none' }, libraries: [{ library: 'numpy', versions: ['1.24.2', '2.2.4'], source: 'bundled' }], model: { kind: 'builtin', model: 'reference-newest' } };
    for (const input of [base, libevobench]) {
      const plain = planRun(input);
      assert.deepEqual(planRun({ ...input, arms: 'plain' }), plain);
      assert.equal(plain.config.arms, undefined);
      const both = planRun({ ...input, arms: 'plain+grounded' });
      assert.deepEqual(validateRunConfig(JSON.parse(JSON.stringify(both.config))).arms, ['plain', 'grounded']);
      assert.notEqual(both.dir, plain.dir);
      assert.match(both.label, / · \+ grounded$/);
    }
    assert.deepEqual(ARMS_CHOICES.map((a) => a.id), ['plain', 'plain+grounded']);
  });

  test('the confirmation names the model and where its code runs', () => {
    const text = driftConfirmation({ kind: 'openai', baseUrl: 'https://api.example.com/v1', model: 'gpt-4.1', withKey: true }, [{ library: 'numpy', versions: ['1.24.2', '2.2.4'] }]);
    assert.match(text, /runs the code gpt-4\.1 @ https:\/\/api\.example\.com\/v1 generates on this machine/);
    assert.match(text, /numpy 1\.24\.2, 2\.2\.4/);
    assert.match(text, /Run generated code\?$/);
  });

  test('progress moves forward across the stages; the message names the stage', () => {
    const stages = [
      p({ phase: 'generate', done: 0 }),
      p({ phase: 'generate', done: 100 }),
      p({ phase: 'execute', done: 50 }),
      p({ phase: 'execute', done: 100 }),
      p({ phase: 'repair 1/2', done: 10 }),
      p({ phase: 'repair 1/2: execute', done: 100 }),
      p({ phase: 'repair 2/2: execute', done: 100 }),
    ].map(overallPercent);
    assert.deepEqual(stages.map((x) => Math.round(x * 1000) / 1000), [0, 20, 50, 80, 80.5, 90, 100]);
    assert.equal(progressMessage(p({ phase: 'execute', done: 5 })), 'execute: 5/100 done · 0 failed · ETA –');
  });

  test('the outcome: the run line, a headline per library, the report', () => {
    const o = readOutcome('run: 40 samples, 40 answered\ndrift numpy: fidelity 100.0%\ndrift scipy: fidelity 90.0%\nreport: /r/report.html\n');
    assert.deepEqual(o, { runLine: '40 samples, 40 answered', driftLines: ['numpy: fidelity 100.0%', 'scipy: fidelity 90.0%'], report: '/r/report.html' });
  });
});
