// The built-in reference models: honest retrieval over the matrices, answering from the rendered prompt text.
// `reference-pinned` answers from the stated version's column, `reference-newest` from the newest tracked version.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BuiltinProvider } from '../server/src/eval/builtin-models.js';
import { openReferenceKnowledge, type ReferenceKnowledge } from '../server/src/eval/libevobench/builtin-models.js';
import { renderPrompt, type PromptSpec } from '../server/src/eval/libevobench/prompt-contract.js';
import { calleeExpression, importBindings } from '../server/src/eval/python-text/imports.js';
import { executeRun } from '../server/src/eval/libevobench/run.js';
import type { LibEvoBenchSample as BenchSample } from '../server/src/eval/libevobench/prompt-contract.js';
import { RunStore } from '../server/src/eval/runs/store.js';
import { api, buildSyntheticMatrices, p, surface } from './support/synthetic-matrix.js';

const TRAPZ_DOC = 'Integrate along the given axis using the composite trapezoidal rule.';
const MEAN_DOC = 'Compute the arithmetic mean along the specified axis.';
const common = [
  api('lib', 'module'),
  api('lib.core', 'module'),
  api('lib.core.fromnumeric', 'module'),
  api('lib.linalg', 'module'),
  api('lib.mean', 'function', [p('a'), p('axis', 'poskw', 'None')], MEAN_DOC),
  api('lib.core.fromnumeric.mean', 'function', [p('a'), p('axis', 'poskw', 'None')], MEAN_DOC),
  api('lib.sum', 'function', [p('a'), p('axis', 'poskw', 'None'), p('keepdims', 'kw', 'False')], 'Sum of array elements over a given axis.'),
  api('lib.Array', 'class', [p('data')], 'A multidimensional container of items of the same type and size.'),
  api('lib.Array.transpose', 'method', [p('self'), p('axes', 'varpos')], 'Returns a view of the array with axes transposed.'),
];
const v1 = surface('lib', '1.0.0', [
  ...common,
  api('lib.trapz', 'function', [p('y'), p('x', 'poskw', 'None'), p('dx', 'poskw', '1.0'), p('axis', 'poskw', '-1')], TRAPZ_DOC),
  api('lib.linalg.norm', 'function', [p('x'), p('ord', 'poskw', 'None'), p('axis', 'poskw', 'None')], 'Matrix or vector norm.'),
]);
const v2 = surface('lib', '2.0.0', [
  ...common,
  api('lib.trapezoid', 'function', [p('y'), p('x', 'poskw', 'None'), p('dx', 'poskw', '1.0'), p('axis', 'poskw', '-1')], TRAPZ_DOC),
  api('lib.linalg.norm', 'function', [p('x'), p('ord', 'poskw', 'None'), p('axis', 'poskw', 'None'), p('keepdims', 'poskw', 'False')], 'Matrix or vector norm.'),
]);

let knowledge: ReferenceKnowledge;
let matricesFolder: string;
let pinned: BuiltinProvider;
let newest: BuiltinProvider;

function ask(model: BuiltinProvider, spec: PromptSpec): string {
  return model.answer({ messages: renderPrompt(spec) });
}

describe('reference models on a synthetic matrix', () => {
  before(() => {
    matricesFolder = buildSyntheticMatrices([v1, v2]);
    knowledge = openReferenceKnowledge(matricesFolder);
    pinned = new BuiltinProvider('reference-pinned', { catalog: knowledge.catalog, listing: knowledge.listing });
    newest = new BuiltinProvider('reference-newest', { catalog: knowledge.catalog, listing: knowledge.listing });
  });
  after(() => knowledge.close());

  test('API-I: pinned names the API of the stated version, newest the one of the newest version', () => {
    const at1: PromptSpec = { task: 'API-I', library: 'lib', version: '1.0.0', module: 'lib', description: TRAPZ_DOC };
    assert.equal(ask(pinned, at1), 'trapz');
    assert.equal(ask(newest, at1), 'trapezoid', 'version-oblivious: an API that does not exist at 1.0.0 (anachronistic)');
    const at2: PromptSpec = { ...at1, version: '2.0.0' };
    assert.equal(ask(pinned, at2), 'trapezoid');
    assert.equal(ask(newest, at2), 'trapezoid');
    // A stable API: both agree at every version.
    for (const version of ['1.0.0', '2.0.0']) {
      const mean: PromptSpec = { task: 'API-I', library: 'lib', version, module: 'lib', description: 'Compute the arithmetic [API] along the specified axis.' };
      assert.equal(ask(pinned, mean), 'mean');
      assert.equal(ask(newest, mean), 'mean');
    }
    // An untracked version answers from the nearest tracked one at or below it.
    assert.equal(ask(pinned, { ...at1, version: '1.5' }), 'trapz');
  });

  test('SR: the signature recorded at the chosen version, methods without self', () => {
    const sr: PromptSpec = { task: 'SR', library: 'lib', version: '1.0.0', api: 'lib.linalg.norm' };
    assert.equal(ask(pinned, sr), 'norm(x, ord=None, axis=None)');
    assert.equal(ask(newest, sr), 'norm(x, ord=None, axis=None, keepdims=False)');
    assert.equal(ask(pinned, { ...sr, version: '2.0.0' }), 'norm(x, ord=None, axis=None, keepdims=False)');
    assert.equal(ask(pinned, { task: 'SR', library: 'lib', version: '1.0.0', api: 'lib.Array.transpose' }), 'transpose(*axes)');
    assert.equal(ask(pinned, { task: 'SR', library: 'lib', version: '1.0.0', api: 'lib.nothing' }), '');
    // Asked about 1.0.0 for an API only 2.0.0 has, pinned answers from the nearest version that has it.
    assert.equal(ask(pinned, { task: 'SR', library: 'lib', version: '1.0.0', api: 'lib.trapezoid' }), 'trapezoid(y, x=None, dx=1.0, axis=-1)');
  });

  test('API-C: retrieval by description, the import alias, arguments from the snippet', () => {
    const code = { prefix: 'import lib as lb\n\ny = load()\narea = ', suffix: '\nprint(area)\n' };
    const l2: PromptSpec = { task: 'API-C', level: 'L2', library: 'lib', version: '1.0.0', description: TRAPZ_DOC, ...code };
    assert.equal(ask(pinned, l2), 'lb.trapz(y)');
    assert.equal(ask(newest, l2), 'lb.trapezoid(y)');
    // Without the version (L1) the pinned model has nothing to pin to: both answer from the newest version.
    const l1: PromptSpec = { task: 'API-C', level: 'L1', library: 'lib', description: TRAPZ_DOC, ...code };
    assert.equal(ask(pinned, l1), 'lb.trapezoid(y)');
    assert.equal(ask(newest, l1), 'lb.trapezoid(y)');
    // Aliases with the same documentation: the shortest public path wins.
    const mean: PromptSpec = { task: 'API-C', level: 'L1', library: 'lib', description: MEAN_DOC, prefix: 'from lib import mean\nimport lib\nv = [1]\nm = ', suffix: '\n' };
    assert.equal(ask(pinned, mean), 'mean(v)');
    // L0: the words around the mask.
    const l0: PromptSpec = { task: 'API-C', level: 'L0', library: 'lib', prefix: 'import lib\nvalues = [1, 2]\nmean_value = ', suffix: '\n' };
    assert.equal(ask(pinned, l0), 'lib.mean(values)');
  });

  test('API-C L3: the named API with arguments its version accepts', () => {
    const code = { prefix: 'import lib as lb\nx = load()\naxis = 1\ns = lb.sum(x, keepdims=True)\nn = ', suffix: '\n' };
    const l3: PromptSpec = { task: 'API-C', level: 'L3', library: 'lib', version: '1.0.0', api: 'lib.linalg.norm', ...code };
    assert.equal(ask(pinned, l3), 'lb.linalg.norm(x, axis=axis)');
    assert.equal(ask(newest, l3), 'lb.linalg.norm(x, axis=axis, keepdims=True)', 'newest passes a keyword 1.0.0 does not accept');
  });

  test('baselines and prompts outside the contract', async () => {
    const echo = new BuiltinProvider('echo');
    const messages = renderPrompt({ task: 'SR', library: 'lib', version: '1.0.0', api: 'lib.mean' });
    const r = await echo.complete({ messages, maxTokens: 10, temperature: 0 });
    assert.equal(r.text, messages[1]!.content);
    assert.equal((await new BuiltinProvider('constant', { text: 'numpy.mean' }).complete({ messages, maxTokens: 10, temperature: 0 })).text, 'numpy.mean');
    assert.equal((await echo.complete({ messages, maxTokens: 10, temperature: 0, stop: ['\n'] })).text, 'Task: SR');
    assert.equal(pinned.answer({ messages: [{ role: 'user', content: 'hello' }] }), '');
    assert.equal(ask(pinned, { task: 'SR', library: 'otherlib', version: '1.0.0', api: 'otherlib.f' }), '');
    assert.throws(() => new BuiltinProvider('reference-pinned'), /needs the matrices/);
  });

  test('through a run over the local HTTP server (with faults), from a matrices folder', async () => {
    const specs: [string, PromptSpec][] = [
      ['i-trapz-1', { task: 'API-I', library: 'lib', version: '1.0.0', module: 'lib', description: TRAPZ_DOC }],
      ['i-mean-1', { task: 'API-I', library: 'lib', version: '1.0.0', module: 'lib', description: MEAN_DOC }],
      ['sr-norm-1', { task: 'SR', library: 'lib', version: '1.0.0', api: 'lib.linalg.norm' }],
      ['c-trapz-1', { task: 'API-C', level: 'L2', library: 'lib', version: '1.0.0', description: TRAPZ_DOC, prefix: 'import lib\ny = 1\nz = ', suffix: '\n' }],
    ];
    const dataset: BenchSample[] = specs.map(([id, spec]) => ({
      id, task: spec.task, level: spec.task === 'API-C' ? spec.level : null, library: 'lib', version: '1.0.0', api: '', evolving: true, prompt: renderPrompt(spec), groundTruth: null,
    }));
    const answers: Record<string, Record<string, string | null>> = {};
    for (const model of ['reference-pinned', 'reference-newest'] as const) {
      const database = join(mkdtempSync(join(tmpdir(), 'anachron-ref-')), 'run.sqlite');
      const summary = await executeRun({
        config: {
          suite: 'synthetic', libraries: ['lib'], tasks: ['API-I', 'SR', 'API-C'], levels: ['L2'], seed: 1,
          model: { provider: 'builtin', model, faults: { script: ['drop', 'malformed', 'server-error'] }, retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 2 } },
        },
        database,
        dataset,
        environment: { matricesFolder },
      });
      assert.equal(summary.answered, 4);
      assert.equal(summary.provider, `builtin:${model}`);
      const store = RunStore.open(database, { readonly: true });
      answers[model] = Object.fromEntries([...store.entries()].map((e) => [e.sample.id, e.result?.response ?? null]));
      store.close();
    }
    assert.deepEqual(answers['reference-pinned'], { 'i-trapz-1': 'trapz', 'i-mean-1': 'mean', 'sr-norm-1': 'norm(x, ord=None, axis=None)', 'c-trapz-1': 'lib.trapz(y)' });
    assert.deepEqual(answers['reference-newest'], { 'i-trapz-1': 'trapezoid', 'i-mean-1': 'mean', 'sr-norm-1': 'norm(x, ord=None, axis=None, keepdims=False)', 'c-trapz-1': 'lib.trapezoid(y)' });
  });

  test('import bindings and callee expressions', () => {
    const b = importBindings('import lib.linalg\nimport lib as L, os\nfrom lib.linalg import (norm,\n  inv as inverse)\nfrom lib.core import *\nfrom other import x\n', 'lib');
    assert.deepEqual(b, [
      { local: 'lib', target: 'lib' },
      { local: 'L', target: 'lib' },
      { local: 'norm', target: 'lib.linalg.norm' },
      { local: 'inverse', target: 'lib.linalg.inv' },
      { local: '*', target: 'lib.core', star: true },
    ]);
    assert.equal(calleeExpression('lib.linalg.norm', b), 'norm');
    assert.equal(calleeExpression('lib.linalg.inv', b), 'inverse');
    assert.equal(calleeExpression('lib.core.zeros', b), 'zeros');
    assert.equal(calleeExpression('lib.fft.fft', b), 'lib.fft.fft');
    assert.equal(calleeExpression('other.f', []), 'other.f');
  });
});

describe('reference models on the bundled numpy matrix', () => {
  test('numpy.trapz at 1.24.2: pinned says trapz, newest says trapezoid (added in 2.x)', () => {
    const k = openReferenceKnowledge(join(__dirname, '..', 'matrices'));
    try {
      const pin = new BuiltinProvider('reference-pinned', { catalog: k.catalog, listing: k.listing });
      const neu = new BuiltinProvider('reference-newest', { catalog: k.catalog, listing: k.listing });
      const spec: PromptSpec = { task: 'API-I', library: 'numpy', version: '1.24.2', module: 'numpy', description: TRAPZ_DOC };
      assert.equal(ask(pin, spec), 'trapz');
      assert.equal(ask(neu, spec), 'trapezoid');
      assert.equal(ask(pin, { task: 'SR', library: 'numpy', version: '1.24.2', api: 'numpy.trapz' }), 'trapz(y, x=None, dx=1.0, axis=-1)');
    } finally {
      k.close();
    }
  });
});
