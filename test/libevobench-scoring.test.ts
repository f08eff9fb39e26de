// Benchmark scoring: response extraction per task (Appendix F.4), the taxonomy by matrix lookup (Table 4) on a
// synthetic matrix, metrics per sample, SEUS on a hand-computed example, bootstrap determinism, the sweep and rank
// correlation, and the report renderers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Parameter } from '../server/src/core/api-model.js';
import type { GroundTruthHistory, GroundTruthMatrix, GroundTruthState } from '../server/src/core/ground-truth.js';
import { seededRandom } from '../server/src/core/random.js';
import { renderPrompt, type PromptSpec } from '../server/src/eval/libevobench/prompt-contract.js';
import type { LibEvoBenchSample as BenchSample } from '../server/src/eval/libevobench/prompt-contract.js';
import type { ResultRecord } from '../server/src/eval/runs/store.js';
import { aggregateResults } from '../server/src/eval/libevobench/scoring/aggregate.js';
import { averageRanks, bootstrapMean, percentileInterval, populationStd, quantile, Resampler, seedFor, spearman } from '../server/src/eval/libevobench/scoring/bootstrap.js';
import { compareRuns } from '../server/src/eval/libevobench/scoring/compare.js';
import { extractCall, extractIdentifier, extractSignature } from '../server/src/eval/libevobench/scoring/extract.js';
import { callKeys, setScores } from '../server/src/eval/libevobench/scoring/parameters.js';
import { firstCall, looksLikeExpression, splitTopLevel, topLevelAssignment } from '../server/src/eval/python-text/scan.js';
import { resolveCallee, scoreEntry } from '../server/src/eval/libevobench/scoring/score.js';
import { computeSeus, evolvingStdOf, seusRange } from '../server/src/eval/libevobench/scoring/seus.js';
import { TruthLookup } from '../server/src/eval/libevobench/scoring/taxonomy.js';
import { ALL, DEFAULT_SCORING_OPTIONS, STD_ESTIMATORS, type PredictionRecord, type ScoringUnit } from '../server/src/eval/libevobench/scoring/types.js';
import { armsSvg, comparisonProgressionSvg, comparisonStaircaseSvg, leaderboardSvg, progressionSvg, staircaseSvg, taxonomySvg } from '../server/src/eval/libevobench/reports/charts.js';
import { emptyChart } from '../server/src/eval/reports/svg.js';
import { assertThemedInks } from './support/chart-inks.js';
import { renderMarkdown, reportHtml } from '../server/src/eval/reports/html.js';
import { pctCi, toCsv } from '../server/src/eval/reports/tables.js';
import { comparisonMarkdown, runCsvFiles, runMarkdown } from '../server/src/eval/libevobench/reports/tables.js';

// ---- a synthetic matrix -------------------------------------------------------------------------------------------

function prm(name: string, kind: Parameter['kind'] = 'positional_or_keyword', def: string | null = null): Parameter {
  return { name, kind, default: def };
}

type Row = { states: GroundTruthState[]; signatures?: (Parameter[] | null)[]; kind?: GroundTruthHistory['kind'] };

class MemoryMatrix implements GroundTruthMatrix {
  lookups = 0;
  constructor(readonly library: string, readonly versions: readonly string[], private readonly rows: Record<string, Row>) {}
  apiPaths(): string[] {
    return Object.keys(this.rows).sort();
  }
  groundTruth(api: string): GroundTruthHistory | undefined {
    this.lookups++;
    const row = this.rows[api];
    if (!row) return undefined;
    const stable = row.states.every((s) => s === 'present') && new Set((row.signatures ?? []).map((s) => JSON.stringify(s))).size <= 1;
    return {
      api,
      kind: row.kind ?? 'function',
      evolution: stable ? 'stable' : 'evolving',
      documentedEver: true,
      versions: this.versions.map((version, i) => ({ version, state: row.states[i]!, signature: row.signatures?.[i] ? { parameters: row.signatures[i]! } : null, doc: null })),
    };
  }
}

const V = ['1.0', '1.5', '2.0'];
const normV1 = [prm('x'), prm('order', 'positional_or_keyword', 'None'), prm('axis', 'positional_or_keyword', 'None')];
const normV15 = [...normV1, prm('keepdims', 'positional_or_keyword', 'False')];
const normV2 = [prm('x'), prm('ord', 'positional_or_keyword', 'None'), prm('axis', 'positional_or_keyword', 'None'), prm('keepdims', 'positional_or_keyword', 'False')];
const matrix = new MemoryMatrix('lib', V, {
  lib: { states: ['present', 'present', 'present'], kind: 'module' },
  'lib.linalg': { states: ['present', 'present', 'present'], kind: 'module' },
  'lib.trapz': { states: ['present', 'present', 'absent'], signatures: [[prm('y'), prm('x', 'positional_or_keyword', 'None')], [prm('y'), prm('x', 'positional_or_keyword', 'None')], null] },
  'lib.trapezoid': { states: ['absent', 'absent', 'present'], signatures: [null, null, [prm('y'), prm('x', 'positional_or_keyword', 'None')]] },
  'lib.mean': { states: ['present', 'present', 'present'], signatures: [[prm('a'), prm('axis', 'positional_or_keyword', 'None')], [prm('a'), prm('axis', 'positional_or_keyword', 'None')], [prm('a'), prm('axis', 'positional_or_keyword', 'None')]] },
  'lib.linalg.norm': { states: ['present', 'present', 'present'], signatures: [normV1, normV15, normV2] },
  'lib.murky': { states: ['na', 'absent', 'absent'] },
  'lib.private_thing': { states: ['absent', 'absent', 'absent'] },
  'lib.Array.reshape': { states: ['present', 'present', 'present'], kind: 'method', signatures: [[prm('self'), prm('shape'), prm('order', 'positional_or_keyword', "'C'")], [prm('self'), prm('shape'), prm('order', 'positional_or_keyword', "'C'")], [prm('self'), prm('shape'), prm('order', 'positional_or_keyword', "'C'"), prm('copy', 'keyword_only', 'None')]] },
});

function lookup(): TruthLookup {
  return new TruthLookup((lib) => (lib === 'lib' ? matrix : undefined));
}

function sample(id: string, spec: PromptSpec, api: string, groundTruth: unknown, evolving = true): BenchSample {
  return {
    id,
    task: spec.task,
    level: spec.task === 'API-C' ? spec.level : null,
    library: spec.library,
    version: spec.task === 'API-C' ? spec.version ?? '2.0' : spec.version,
    api,
    evolving,
    prompt: renderPrompt(spec),
    groundTruth,
  };
}

function answered(sampleId: string, response: string): ResultRecord {
  return {
    sampleId, status: 'answered', response, errorKind: null, errorMessage: null, httpStatus: null, errorBody: null, attempts: 1, attemptLog: [],
    latencyMs: 1, elapsedMs: 1, usage: null, provider: 'test', request: { maxTokens: 10, temperature: 0 }, completedAt: '', session: 1,
  };
}

const CODE = { prefix: 'import lib as lb\nfrom lib.linalg import norm\n\ny = load()\nx = grid()\narea = ', suffix: '\nprint(area)\n' };

describe('python text', () => {
  test('splitting, assignments, calls and prose', () => {
    assert.deepEqual(splitTopLevel('a, f(b, c), "x,y", [1, 2], k=v'), ['a', 'f(b, c)', '"x,y"', '[1, 2]', 'k=v']);
    assert.deepEqual(splitTopLevel('a, b,'), ['a', 'b']);
    assert.equal(topLevelAssignment('y = f(a == b)'), 2);
    assert.equal(topLevelAssignment('f(a=1)'), -1);
    assert.equal(topLevelAssignment('a == b'), -1);
    assert.equal(topLevelAssignment('x += 1'), 3);
    const c = firstCall('np.sum(np.abs(x), axis=0).item()');
    assert.ok(c && 'call' in c);
    assert.equal(c.call.callee, 'np.sum');
    assert.deepEqual(c.call.arguments, [{ kind: 'positional', value: 'np.abs(x)' }, { kind: 'keyword', name: 'axis', value: '0' }]);
    const s = firstCall('f(*xs, **kw)');
    assert.ok(s && 'call' in s);
    assert.deepEqual(s.call.arguments.map((a) => a.kind), ['star', 'double-star']);
    assert.deepEqual(firstCall('np.mean(x'), { incomplete: true });
    assert.equal(firstCall('"np.mean(x)"'), null, 'a call inside a string is not a call');
    assert.equal(firstCall('(a + b).sum()'), null, 'a method of an expression is no dotted name');
    assert.equal(looksLikeExpression('np.mean(x, axis=0) * 2'), true);
    assert.equal(looksLikeExpression('x if y else np.mean(z)'), true);
    assert.equal(looksLikeExpression('Use np.mean(x) here'), false);
  });
});

describe('extraction (Appendix F.4)', () => {
  test('API-C: fences, backticks, echo, assignments, verbose answers; failures counted by kind', () => {
    const ok = (r: string) => {
      const x = extractCall(r, CODE);
      assert.ok(x.ok, `${JSON.stringify(r)}: ${JSON.stringify(x)}`);
      return x.value;
    };
    assert.equal(ok('lb.trapz(y, x=x)').callee, 'lb.trapz');
    assert.equal(ok('```python\narea = lb.trapz(y)\n```').text, 'lb.trapz(y)');
    assert.equal(ok('`lb.trapz(y)`').callee, 'lb.trapz');
    // The whole snippet echoed with the fill, and partial echoes of the import lines.
    assert.equal(ok(`${CODE.prefix}lb.trapz(y)${CODE.suffix}`).text, 'lb.trapz(y)');
    assert.equal(ok('import lib as lb\nlb.trapz(y)').text, 'lb.trapz(y)');
    // The line around the mask repeated: the fill is isolated.
    assert.equal(ok('area = lb.trapz(y)  # integrate').text, 'lb.trapz(y)');
    // Verbose: a sentence, then the expression; a call over several lines.
    assert.equal(ok('Here is the completion:\nlb.trapz(y)\nIt integrates y.').text, 'lb.trapz(y)');
    assert.equal(ok('norm(\n    x,\n    axis=1,\n)').arguments.length, 2);
    assert.equal(ok('return lb.mean(x);').callee, 'lb.mean');
    const failure = (r: string) => {
      const x = extractCall(r, CODE);
      assert.ok(!x.ok, `${JSON.stringify(r)} should fail`);
      return x.failure.kind;
    };
    assert.equal(failure(''), 'empty');
    assert.equal(failure('   \n'), 'empty');
    assert.equal(failure('I would integrate it with the trapezoidal rule.'), 'no-call');
    assert.equal(failure('The answer is `lb.trapz(y)`.'), 'no-call', 'prose around a call is not a completion');
    assert.equal(failure('lb.trapz(y, x=x'), 'incomplete-call');
    assert.equal(failure('area'), 'no-call');
  });

  test('API-I: one identifier joined with the module; explanations fail', () => {
    const ok = (r: string) => {
      const x = extractIdentifier(r, 'lib.linalg');
      assert.ok(x.ok, r);
      return x.value;
    };
    assert.deepEqual(ok('norm'), { name: 'norm', api: 'lib.linalg.norm' });
    assert.deepEqual(ok('  `lib.linalg.norm`  \n'), { name: 'norm', api: 'lib.linalg.norm' });
    assert.equal(ok('norm()').name, 'norm');
    assert.equal(ok('norm.').name, 'norm');
    assert.equal(ok('**norm**').name, 'norm');
    assert.equal(ok('```\nnorm\n```').name, 'norm');
    assert.equal(ok('norm\nIt computes a norm.').name, 'norm', 'the first line');
    for (const [r, kind] of [['', 'empty'], ['The answer is norm', 'not-identifier'], ['class', 'not-identifier'], ['norm(x)', 'not-identifier'], ['2norm', 'not-identifier']] as const) {
      const x = extractIdentifier(r, 'lib.linalg');
      assert.ok(!x.ok, r);
      assert.equal(x.failure.kind, kind, r);
    }
  });

  test('SR: def, annotations, return annotations, markers, wrapped lines; failures', () => {
    const ok = (r: string) => {
      const x = extractSignature(r);
      assert.ok(x.ok, r);
      return x.value;
    };
    const names = (r: string) => ok(r).parameters.map((p) => p.name);
    assert.deepEqual(names('norm(x, ord=None, axis=None, keepdims=False)'), ['x', 'ord', 'axis', 'keepdims']);
    assert.deepEqual(names('def norm(x: ArrayLike, ord: int | None = None, *, axis: tuple[int, int] = (0, 1)) -> ndarray:'), ['x', 'ord', 'axis']);
    const marked = ok('```python\nlib.mean(a, /, axis=None, *args, dtype=None, **kwargs)\n```');
    assert.equal(marked.name, 'mean');
    assert.deepEqual(marked.parameters.map((p) => [p.name, p.kind]), [['a', 'positional_only'], ['axis', 'positional_or_keyword'], ['args', 'var_positional'], ['dtype', 'keyword_only'], ['kwargs', 'var_keyword']]);
    assert.deepEqual(ok('f(x, sep=",", end="\\n")').parameters.map((p) => p.default), [null, '","', '"\\n"']);
    assert.deepEqual(names('async def reshape(\n    self,\n    shape,\n    order="C",\n):'), ['self', 'shape', 'order']);
    assert.deepEqual(names('f()'), []);
    for (const [r, kind] of [['', 'empty'], ['No idea.', 'no-parameter-list'], ['norm(x, ord=None', 'no-parameter-list'], ['norm(the input array)', 'no-parameter-list']] as const) {
      const x = extractSignature(r);
      assert.ok(!x.ok, r);
      assert.equal(x.failure.kind, kind, r);
    }
  });
});

describe('parameters', () => {
  test('call arguments map to parameters through the target signature, then other versions', () => {
    const args = (text: string) => {
      const c = firstCall(text);
      assert.ok(c && 'call' in c);
      return c.call.arguments;
    };
    assert.deepEqual(callKeys(args('norm(v, 2, 0)'), normV1), ['x', 'order', 'axis']);
    assert.deepEqual(callKeys(args('norm(v, axis=0, keepdims=True)'), normV1), ['x', 'axis', 'keepdims']);
    assert.deepEqual(callKeys(args('f(a, b, c)'), [prm('a'), prm('rest', 'var_positional')]), ['a', '*rest']);
    assert.deepEqual(callKeys(args('f(a, b)'), [prm('a')], [[prm('a'), prm('b')]]), ['a', 'b'], 'a position another version takes');
    assert.deepEqual(callKeys(args('f(a, b)'), null), ['#0', '#1']);
    assert.deepEqual(callKeys(args('f(*xs, b, k=1, **kw)'), [prm('a')]), ['k']);
    assert.deepEqual(callKeys(args('arr.reshape(s)'), [prm('self'), prm('shape')]), ['shape'], 'the receiver is implicit');
  });

  test('set scores, with empty sets', () => {
    assert.deepEqual(setScores(['a', 'b'], ['a', 'c', 'd']), { precision: 0.5, recall: 1 / 3, f1: 0.4, exact: 0 });
    assert.deepEqual(setScores([], []), { precision: 1, recall: 1, f1: 1, exact: 1 });
    assert.deepEqual(setScores(['a'], []), { precision: 0, recall: 0, f1: 0, exact: 0 });
    assert.deepEqual(setScores([], ['a']), { precision: 0, recall: 0, f1: 0, exact: 0 });
    assert.equal(setScores(['b', 'a'], ['a', 'b']).exact, 1);
  });
});

describe('taxonomy by matrix lookup (Table 4)', () => {
  test('API level: correct, invalid, anachronistic, unknown; na is not absence', () => {
    const t = lookup();
    const truth = ['lib.trapz'];
    assert.equal(t.classifyApi('lib', '1.0', 'lib.trapz', truth), 'correct');
    assert.equal(t.classifyApi('lib', '1.0', 'lib.mean', truth), 'invalid', 'a real API at 1.0, the wrong one');
    assert.equal(t.classifyApi('lib', '1.0', 'lib.trapezoid', truth), 'anachronistic', 'exists at 2.0 only');
    assert.equal(t.classifyApi('lib', '2.0', 'lib.trapz', ['lib.trapezoid']), 'anachronistic', 'removed before 2.0');
    assert.equal(t.classifyApi('lib', '1.0', 'lib.integrate_trapezoid', truth), 'unknown');
    assert.equal(t.classifyApi('lib', '1.0', null, truth), 'unknown', 'an unresolved callee');
    assert.equal(t.classifyApi('lib', '1.0', 'lib.private_thing', truth), 'unknown', 'in the matrix but present nowhere');
    assert.equal(t.classifyApi('lib', '1.0', 'lib.murky', truth), 'invalid', 'na at the target: not evidence of absence');
    assert.equal(t.classifyApi('lib', '1.5', 'lib.murky', truth), 'unknown');
    assert.equal(t.classifyApi('lib', '1.0', 'lib.trapz_alias', ['lib.trapz', 'lib.trapz_alias']), 'correct');
    assert.equal(t.classifyApi('other', '1.0', 'other.f', ['other.g']), null, 'no matrix, no taxonomy');
    assert.equal(t.classifyApi('lib', '1.00', 'lib.trapezoid', truth), 'anachronistic', 'versions compare by PEP 440');
  });

  test('parameter level: correct at the target, anachronistic elsewhere in the history, unknown', () => {
    const t = lookup();
    const verdicts = t.classifyParameters('lib', 'lib.linalg.norm', '1.0', ['x', 'order', 'keepdims', 'ord', 'dim', '#4'], ['x', 'order', 'axis']);
    assert.deepEqual(verdicts.map((v) => v.category), ['correct', 'correct', 'anachronistic', 'anachronistic', 'unknown', 'unknown']);
    assert.deepEqual(t.classifyParameters('lib', 'lib.linalg.norm', '2.0', ['order', 'ord'], ['x', 'ord', 'axis', 'keepdims']).map((v) => v.category), ['anachronistic', 'correct']);
    assert.deepEqual(t.classifyParameters('lib', 'lib.Array.reshape', '1.0', ['copy', 'self'], ['shape', 'order']).map((v) => v.category), ['anachronistic', 'unknown']);
  });

  test('lookups are memoised', () => {
    const t = lookup();
    const before = matrix.lookups;
    for (let i = 0; i < 50; i++) t.classifyApi('lib', '1.0', 'lib.trapezoid', ['lib.trapz']);
    assert.equal(matrix.lookups - before, 1);
  });
});

describe('scoring samples', () => {
  const t = lookup();
  test('API-I: exact match on the joined path; taxonomy of the answer', () => {
    const s = sample('i1', { task: 'API-I', library: 'lib', version: '1.0', module: 'lib', description: 'Integrate along the given axis.' }, 'lib.trapz', { api: 'lib.trapz' });
    const right = scoreEntry(s, answered('i1', 'trapz'), 0, t);
    assert.equal(right.score, 1);
    assert.equal(right.taxonomy?.api, 'correct');
    const anachronistic = scoreEntry(s, answered('i1', 'lib.trapezoid'), 0, t);
    assert.equal(anachronistic.score, 0);
    assert.deepEqual(anachronistic.prediction, { task: 'API-I', name: 'trapezoid', api: 'lib.trapezoid' });
    assert.equal(anachronistic.taxonomy?.api, 'anachronistic');
    const failed = scoreEntry(s, answered('i1', 'I think it is trapz.'), 0, t);
    assert.equal(failed.score, 0);
    assert.equal(failed.failure?.kind, 'not-identifier');
    assert.equal(failed.failure?.stage, 'extraction');
    const groundTruthAsString = scoreEntry({ ...s, groundTruth: 'lib.trapz' }, answered('i1', 'trapz'), 0, t);
    assert.equal(groundTruthAsString.score, 1);
  });

  test('SR: parameter F1 against the ground truth parameters; anachronistic parameters', () => {
    const s = sample('s1', { task: 'SR', library: 'lib', version: '1.0', api: 'lib.linalg.norm' }, 'lib.linalg.norm', { api: 'lib.linalg.norm', parameters: normV1 });
    const pinned = scoreEntry(s, answered('s1', 'norm(x, order=None, axis=None)'), 0, t);
    assert.equal(pinned.score, 1);
    assert.equal(pinned.scores?.exact, 1);
    const newest = scoreEntry(s, answered('s1', 'norm(x, ord=None, axis=None, keepdims=False)'), 0, t);
    // predicted {x, ord, axis, keepdims} vs expected {x, order, axis}: P = 2/4, R = 2/3, F1 = 4/7.
    assert.ok(Math.abs(newest.score! - 4 / 7) < 1e-12);
    assert.deepEqual(newest.taxonomy?.parameters?.map((p) => p.category), ['correct', 'anachronistic', 'correct', 'anachronistic']);
    // The ground truth as a signature string or names; methods without self on both sides.
    const method = sample('s2', { task: 'SR', library: 'lib', version: '2.0', api: 'lib.Array.reshape' }, 'lib.Array.reshape', { signature: "reshape(self, shape, order='C', *, copy=None)" });
    assert.equal(scoreEntry(method, answered('s2', 'reshape(shape, order="C", *, copy=None)'), 0, t).score, 1);
    const names = sample('s3', { task: 'SR', library: 'lib', version: '1.0', api: 'lib.mean' }, 'lib.mean', { parameters: ['a', 'axis'] });
    assert.equal(scoreEntry(names, answered('s3', 'mean(a, axis=None, out=None)'), 0, t).scores?.recall, 1);
    // No ground truth parameters: the matrix's signature at the version.
    const fromMatrix = sample('s4', { task: 'SR', library: 'lib', version: '1.5', api: 'lib.linalg.norm' }, 'lib.linalg.norm', {});
    assert.equal(scoreEntry(fromMatrix, answered('s4', 'norm(x, order=None, axis=None, keepdims=False)'), 0, t).score, 1);
    const failed = scoreEntry(s, answered('s1', ''), 0, t);
    assert.equal(failed.score, 0);
    assert.equal(failed.failure?.kind, 'empty');
    assert.deepEqual(failed.taxonomy?.parameters, []);
  });

  test('SR: a signature that says the same to a caller is right at either version; a changed one is not (issue 22, point 4)', () => {
    // ma.all read as the forwarding wrapper at 1.0 and as its target's parameters at 1.5 and 2.0; sum gains axis at 2.0.
    const wrapper = [prm('a'), prm('args', 'var_positional'), prm('params', 'var_keyword')];
    const target = [prm('a'), prm('axis', 'positional_or_keyword', 'None'), prm('out', 'positional_or_keyword', 'None'), prm('keepdims', 'positional_or_keyword', 'False')];
    const own = new TruthLookup(() => new MemoryMatrix('lib', V, {
      'lib.ma.all': { states: ['present', 'present', 'present'], signatures: [wrapper, target, target] },
      'lib.sum': { states: ['present', 'present', 'present'], signatures: [[prm('a')], [prm('a')], [prm('a'), prm('axis', 'positional_or_keyword', 'None')]] },
    }));
    const sr = (id: string, version: string, api: string, parameters: Parameter[]) => sample(id, { task: 'SR', library: 'lib', version, api }, api, { api, parameters });
    const at1 = sr('w1', '1.0', 'lib.ma.all', wrapper);
    const at2 = sr('w2', '2.0', 'lib.ma.all', target);
    // The other reading's parameters: F1 1 and exact at both versions, every parameter correct (by the names alone,
    // {a, axis, out, keepdims} against {a, *args, **params}: P = 1/4, R = 1/3, F1 = 2/7).
    const targetAt1 = scoreEntry(at1, answered('w1', 'all(a, axis=None, out=None, keepdims=False)'), 0, own);
    assert.deepEqual([targetAt1.score, targetAt1.scores?.exact], [1, 1]);
    assert.deepEqual(targetAt1.taxonomy?.parameters?.map((p) => p.category), ['correct', 'correct', 'correct', 'correct']);
    assert.deepEqual([scoreEntry(at2, answered('w2', 'all(a, *args, **params)'), 0, own).score, scoreEntry(at1, answered('w1', 'all(a, *args, **params)'), 0, own).score], [1, 1]);
    // A partial answer takes the reading it fits best: {a, axis} against {a, axis, out, keepdims} P = 1, R = 1/2,
    // F1 = 2/3 (against the wrapper's keys P = 1/2, R = 1/3, F1 = 2/5).
    const partial = scoreEntry(at1, answered('w1', 'all(a, axis=None)'), 0, own);
    assert.ok(Math.abs(partial.score! - 2 / 3) < 1e-12);
    assert.equal(partial.scores?.exact, 0);
    // sum's axis is an added parameter, not another reading: at 1.0 {a, axis} against {a}: P = 1/2, R = 1, F1 = 2/3.
    const added = scoreEntry(sr('s1', '1.0', 'lib.sum', [prm('a')]), answered('s1', 'sum(a, axis=None)'), 0, own);
    assert.ok(Math.abs(added.score! - 2 / 3) < 1e-12);
    assert.deepEqual(added.taxonomy?.parameters?.map((p) => p.category), ['correct', 'anachronistic']);
  });

  test('API-C: the callee resolved through the imports; L3 recall and precision', () => {
    const l2 = sample('c2', { task: 'API-C', level: 'L2', library: 'lib', version: '1.0', description: 'Integrate.', ...CODE }, 'lib.trapz', { api: 'lib.trapz', call: 'lb.trapz(y, x=x)' });
    const right = scoreEntry(l2, answered('c2', 'lb.trapz(y, x)'), 0, t);
    assert.equal(right.score, 1);
    assert.equal(right.prediction?.task === 'API-C' && right.prediction.api, 'lib.trapz');
    const wrong = scoreEntry(l2, answered('c2', 'lb.trapezoid(y)'), 0, t);
    assert.equal(wrong.score, 0);
    assert.equal(wrong.taxonomy?.api, 'anachronistic');
    assert.equal(scoreEntry(l2, answered('c2', 'lib.mean(y)'), 0, t).taxonomy?.api, 'invalid', 'the library root written out');
    assert.equal(scoreEntry(l2, answered('c2', 'scipy.integrate.trapz(y)'), 0, t).taxonomy?.api, 'unknown', 'another library: resolves to nothing');
    const l3 = sample('c3', { task: 'API-C', level: 'L3', library: 'lib', version: '1.0', api: 'lib.linalg.norm', ...CODE }, 'lib.linalg.norm', { api: 'lib.linalg.norm', call: 'norm(x, order=2, axis=0)' });
    const pinned = scoreEntry(l3, answered('c3', 'norm(x, 2, axis=0)'), 0, t);
    assert.equal(pinned.score, 1);
    assert.equal(pinned.scores?.precision, 1);
    assert.equal(pinned.scores?.exact, 1, 'norm resolves through from lib.linalg import norm');
    const newest = scoreEntry(l3, answered('c3', 'norm(x, axis=0, keepdims=True)'), 0, t);
    assert.ok(Math.abs(newest.score! - 2 / 3) < 1e-12, 'recall: x and axis of x, order, axis');
    assert.ok(Math.abs(newest.scores!.precision! - 2 / 3) < 1e-12);
    assert.deepEqual(newest.taxonomy?.parameters, [{ key: 'x', category: 'correct' }, { key: 'axis', category: 'correct' }, { key: 'keepdims', category: 'anachronistic' }]);
    // Arguments given as a list, or as counts; ground truth without arguments leaves L3 unscored.
    const listed = { ...l3, groundTruth: { api: 'lib.linalg.norm', arguments: [{ name: null, value: 'x' }, { name: 'axis', value: '0' }] } };
    assert.equal(scoreEntry(listed, answered('c3', 'norm(x, axis=1)'), 0, t).score, 1);
    const counted = { ...l3, groundTruth: { api: 'lib.linalg.norm', arguments: { positional: 2, keywords: ['axis'] } } };
    assert.equal(scoreEntry(counted, answered('c3', 'norm(v, 2, axis=1)'), 0, t).score, 1);
    assert.equal(scoreEntry({ ...l3, groundTruth: { api: 'lib.linalg.norm' } }, answered('c3', 'norm(x)'), 0, t).score, null);
    const failed = scoreEntry(l3, answered('c3', 'Sorry, I cannot.'), 0, t);
    assert.deepEqual([failed.score, failed.scores?.precision, failed.failure?.kind], [0, 0, 'no-call']);
  });

  test('API-C@L3: a call of another API scores 0 on the parameters, its arguments read through its own signature (issue 22, point 5)', () => {
    const t = lookup();
    const l3 = sample('cw', { task: 'API-C', level: 'L3', library: 'lib', version: '1.0', api: 'lib.linalg.norm', ...CODE }, 'lib.linalg.norm', { api: 'lib.linalg.norm', call: 'norm(x, order=2)' });
    // lib.mean(a, axis) called with (x, 2): through norm's signature these would be x and order, the expected keys
    // exactly (recall 1, precision 1); through mean's own they are a and axis, and the API is wrong: 0.
    const wrong = scoreEntry(l3, answered('cw', 'lb.mean(x, 2)'), 0, t);
    assert.equal(wrong.prediction?.task === 'API-C' && wrong.prediction.api, 'lib.mean');
    assert.deepEqual(wrong.prediction?.task === 'API-C' && wrong.prediction.keys, ['a', 'axis']);
    assert.deepEqual([wrong.score, wrong.scores?.recall, wrong.scores?.precision, wrong.scores?.f1, wrong.scores?.exact], [0, 0, 0, 0, 0]);
    assert.deepEqual(wrong.taxonomy?.parameters, [], 'no parameter verdicts about another API');
    // An unresolved callee: positions only, and 0.
    const unresolved = scoreEntry(l3, answered('cw', 'other.norm(x, 2)'), 0, t);
    assert.deepEqual([unresolved.prediction?.task === 'API-C' && unresolved.prediction.keys, unresolved.score], [['#0', '#1'], 0]);
    // The right API still maps positions through its signature: recall 1.
    assert.equal(scoreEntry(l3, answered('cw', 'norm(x, 2)'), 0, t).score, 1);
  });

  test('API-C extraction reads the whole chained call from the answer alone', () => {
    const ctx = { prefix: 'import numpy as np\nv = ', suffix: '\n' };
    const x = extractCall('np.random.default_rng(0).normal(size=3)', ctx);
    assert.ok(x.ok);
    assert.deepEqual([x.value.callee, x.value.arguments, x.value.text], ['np.random.default_rng(0).normal', [{ kind: 'keyword', name: 'size', value: '3' }], 'np.random.default_rng(0).normal(size=3)']);
    const y = extractCall('v = np.asarray(a) . sum(axis=0).round(2)', ctx);
    assert.ok(y.ok);
    assert.deepEqual([y.value.callee, y.value.text], ['np.asarray(a).sum(axis=0).round', 'np.asarray(a) . sum(axis=0).round(2)']);
    const plain = extractCall('np.sort(values)', ctx);
    assert.ok(plain.ok);
    assert.equal(plain.value.callee, 'np.sort');
  });

  test("the dataset builder's ground truth: absent API-I cells, equivalents, API-C call arguments", () => {
    // API-I asked at a version where the API is absent: only its equivalent present there is right.
    const absent = sample('ia', { task: 'API-I', library: 'lib', version: '1.0', module: 'lib', description: 'Integrate along the given axis.' }, 'lib.trapezoid', {
      api: 'lib.trapezoid', name: 'trapezoid', module: 'lib', kind: 'function', state: 'absent', presentIn: ['2.0'], equivalents: ['lib.trapz'],
    });
    assert.equal(scoreEntry(absent, answered('ia', 'trapz'), 0, t).score, 1);
    const named = scoreEntry(absent, answered('ia', 'trapezoid'), 0, t);
    assert.deepEqual([named.score, named.taxonomy?.api], [0, 'anachronistic']);
    assert.deepEqual(named.expected.accepted, ['lib.trapz']);
    // SR with Parameter objects (a method's self included) and the recorded signature string.
    const sr = sample('sb', { task: 'SR', library: 'lib', version: '2.0', api: 'lib.Array.reshape' }, 'lib.Array.reshape', {
      api: 'lib.Array.reshape', name: 'reshape', kind: 'method', parameters: matrix.groundTruth('lib.Array.reshape')!.versions[2]!.signature!.parameters, signature: "reshape(shape, order='C', *, copy=None)",
    });
    assert.equal(scoreEntry(sr, answered('sb', "reshape(shape, order='C')"), 0, t).scores?.recall, 2 / 3);
    // API-C: the call's text after its callee; `parameters` there is the signature, not the call.
    const l3 = sample('cb', { task: 'API-C', level: 'L3', library: 'lib', version: '1.0', api: 'lib.linalg.norm', ...CODE }, 'lib.linalg.norm', {
      snippet: 'k', api: 'lib.linalg.norm', name: 'norm', kind: 'function', call: 'norm(x, 2, axis=0)', callee: 'norm', positional: ['x', '2'], keywords: [{ name: 'axis', value: '0' }], unpacking: [], direct: true,
      parameters: ['x', 'order', 'axis'],
    });
    const scored = scoreEntry(l3, answered('cb', 'norm(x, order=2)'), 0, t);
    assert.deepEqual(scored.expected.keys, ['x', 'order', 'axis']);
    assert.ok(Math.abs(scored.score! - 2 / 3) < 1e-12);
    assert.equal(scored.scores?.precision, 1);
    // The fields alone (no call text) give the same.
    const { call: _call, ...fields } = l3.groundTruth as Record<string, unknown>;
    assert.deepEqual(scoreEntry({ ...l3, groundTruth: fields }, answered('cb', 'norm(x, order=2)'), 0, t).expected.keys, ['x', 'order', 'axis']);
    // A callee that is not a dotted name: the answer that starts with it is that call.
    const chained = sample('cc', { task: 'API-C', level: 'L2', library: 'lib', version: '1.0', description: 'Mean.', prefix: 'import lib as lb\nv = ', suffix: '\n' }, 'lib.Array.mean', {
      api: 'lib.Array.mean', call: 'lb.asarray(x).mean(axis=0)', callee: 'lb.asarray(x).mean',
    });
    const c = scoreEntry(chained, answered('cc', 'lb.asarray(x).mean(axis=1)'), 0, t);
    assert.deepEqual([c.score, c.prediction?.task === 'API-C' && c.prediction.callee], [1, 'lb.asarray(x).mean']);
  });

  test('resolution: same callee, same receiver, imports, star imports, the root name', () => {
    const code = 'import lib as lb\nfrom lib.linalg import *\nimport lib.linalg as la\n';
    const truth = { api: 'lib.Array.sum', callee: 'arr.sum' };
    assert.equal(resolveCallee('arr.sum', code, 'lib', truth), 'lib.Array.sum');
    assert.equal(resolveCallee('arr.mean', code, 'lib', truth), 'lib.Array.mean', 'a sibling on the same receiver');
    assert.equal(resolveCallee('lb.linalg.norm', code, 'lib', truth), 'lib.linalg.norm');
    assert.equal(resolveCallee('la.norm', code, 'lib', truth), 'lib.linalg.norm');
    assert.equal(resolveCallee('norm', code, 'lib', truth), 'lib.linalg.norm', 'from the star import');
    assert.equal(resolveCallee('lib.mean', code, 'lib', truth), 'lib.mean');
    assert.equal(resolveCallee('other.mean', code, 'lib', truth), null);
  });

  test('model failures and pending samples are not scored; extraction failures score 0', () => {
    const s = sample('i9', { task: 'API-I', library: 'lib', version: '1.0', module: 'lib', description: 'Integrate.' }, 'lib.trapz', { api: 'lib.trapz' });
    const failedResult: ResultRecord = { ...answered('i9', ''), status: 'failed', response: null, errorKind: 'timeout', errorMessage: 'no answer within 60000 ms' };
    const failed = scoreEntry(s, failedResult, 0, t);
    assert.deepEqual([failed.status, failed.score, failed.failure?.stage, failed.failure?.kind, failed.taxonomy], ['failed', null, 'model', 'timeout', null]);
    const pending = scoreEntry(s, null, 0, t);
    assert.deepEqual([pending.status, pending.score, pending.failure], ['pending', null, null]);
  });

  test('a question with no correct answer is left out of the scores; the perfect-model ceiling is 100 per task and version (issue 22, point 2)', () => {
    const description = 'Integrate along the given axis.';
    const apiI = (id: string, version: string, api: string, truth: Record<string, unknown>) =>
      sample(id, { task: 'API-I', library: 'lib', version, module: 'lib', description }, api, { api, module: 'lib', ...truth });
    const samples = [
      apiI('q1', '1.0', 'lib.trapz', { state: 'present' }),
      // absent at 1.0, its equivalent present there: answerable
      apiI('q2', '1.0', 'lib.trapezoid', { state: 'absent', equivalents: ['lib.trapz'] }),
      // absent at 1.5 and nothing in its place: no answer is right
      apiI('q3', '1.5', 'lib.trapezoid', { state: 'absent', equivalents: [] }),
      sample('q4', { task: 'SR', library: 'lib', version: '1.5', api: 'lib.linalg.norm' }, 'lib.linalg.norm', { api: 'lib.linalg.norm', parameters: normV15 }),
      sample('q5', { task: 'SR', library: 'lib', version: '2.0', api: 'lib.Array.reshape' }, 'lib.Array.reshape', { api: 'lib.Array.reshape' }),
      sample('q6', { task: 'API-C', level: 'L3', library: 'lib', version: '1.0', api: 'lib.linalg.norm', ...CODE }, 'lib.linalg.norm', {
        api: 'lib.linalg.norm', call: 'norm(x, 2, axis=0)', callee: 'norm',
      }),
      sample('q7', { task: 'API-C', level: 'L2', library: 'lib', version: '1.0', description: 'Integrate.', ...CODE }, 'lib.trapz', { api: 'lib.trapz', call: 'lb.trapz(y, x=x)' }),
      // default texts a matrix recorded malformed (numpy's Generator.standard_gamma, standard_normal): the perfect answer writes them `...`
      sample('q8', { task: 'SR', library: 'lib', version: '1.0', api: 'lib.mean' }, 'lib.mean', {
        api: 'lib.mean', parameters: [prm('a'), prm('dtype', 'positional_or_keyword', "'piglet']"), prm('where', 'keyword_only', '_masked, e')],
      }),
    ];
    // The model: right on q1, wrong on q2, and on q3 it names the API the question is about (wrong: it is absent).
    const responses: Record<string, string> = { q1: 'trapz', q2: 'trapezoid', q3: 'trapezoid', q4: 'norm(x, order=None)', q5: 'reshape(shape)', q6: 'norm(x, 2)', q7: 'lb.mean(y)', q8: 'mean(a)' };
    const scored = samples.map((s, i) => scoreEntry(s, answered(s.id, responses[s.id]!), i, t));
    // The perfect answer of each question: trapz, trapz, none, the signatures at the version, the masked calls.
    assert.deepEqual(scored.map((r) => r.ceiling), [1, 1, 0, 1, 1, 1, 1, 1]);
    const results = aggregateResults(scored, { ...DEFAULT_SCORING_OPTIONS, bootstrap: 0 }, { label: 'ceiling' });
    assert.equal(results.counts.unanswerable, 1);
    assert.equal(results.counts.samples, 7);
    // API-I over the two answerable questions: 1 of 2 right (with q3 scored it would be 1 of 3).
    const apiIAll = results.metrics.find((m) => m.unit === 'API-I' && m.group === ALL && m.version === null)!;
    assert.deepEqual([apiIAll.n, apiIAll.mean], [2, 0.5]);
    assert.equal(results.metrics.find((m) => m.unit === 'API-I' && m.version === '1.5'), undefined, 'no API-I row at 1.5: nothing answerable was asked there');
    const ceiling = (unit: ScoringUnit, version: string | null) => {
      const row = results.ceiling!.find((r) => r.unit === unit && r.version === version)!;
      return [row.questions, row.ceiling, row.unanswerable, row.withUnanswerable];
    };
    assert.deepEqual(ceiling('API-I', null), [2, 1, 1, 2 / 3]);
    assert.deepEqual(ceiling('API-I', '1.0'), [2, 1, 0, 1]);
    assert.deepEqual(ceiling('API-I', '1.5'), [0, null, 1, 0]);
    assert.deepEqual(ceiling('SR', '1.5'), [1, 1, 0, 1]);
    assert.deepEqual(ceiling('SR', '2.0'), [1, 1, 0, 1]);
    assert.deepEqual(ceiling('SR', '1.0'), [1, 1, 0, 1]);
    assert.deepEqual(ceiling('API-C@L3', '1.0'), [1, 1, 0, 1]);
    assert.deepEqual(ceiling('API-C@L2', null), [1, 1, 0, 1]);
    const markdown = runMarkdown(results);
    assert.match(markdown, /7 samples \(and 1 with no correct answer at their version, left out of every score\)/);
    assert.match(markdown, /## Perfect-model ceiling/);
    assert.match(markdown, /\| lib \| API-I exact \| all \| 2 \| 100\.0 \| 1 \| 66\.7 \| 0 \|/);
    assert.match(runCsvFiles(results)['ceiling.csv']!, /^library,unit,version,questions,ceiling,unanswerable,unknown,ceiling_with_unanswerable\n/);
  });
});

// ---- SEUS on a hand-computed example --------------------------------------------------------------------------------

let counter = 0;
function rec(unit: ScoringUnit, version: string, group: 'stable' | 'evolving', score: number, anachronism?: { api?: boolean; parameters?: string[] }, library = 'lib'): PredictionRecord {
  const task = unit.startsWith('API-C') ? 'API-C' : (unit as 'API-I' | 'SR');
  const level = unit.startsWith('API-C@') ? (unit.slice(6) as 'L0') : null;
  const parameters = anachronism?.parameters?.map((c, i) => ({ key: `p${i}`, category: c as 'correct' })) ?? null;
  return {
    id: `r${counter++}`, ordinal: counter, task, level, unit, library, version, api: 'lib.f', group, status: 'answered', prompt: [], response: 'x', prediction: null,
    groundTruth: null, expected: { api: 'lib.f', accepted: ['lib.f'], keys: null, callee: null }, failure: null,
    scores: { [unit === 'SR' ? 'f1' : unit === 'API-C@L3' ? 'recall' : 'exact']: score }, score,
    taxonomy: anachronism ? { api: anachronism.api === undefined ? null : anachronism.api ? 'anachronistic' : 'invalid', parameters } : null,
  };
}

// API-I: S = 0.5 (v1), 0.75 (v2); E = 0.5 (v1), 0.25 (v2); 2 of 6 evolving answers anachronistic.
// SR: S = 1.0, 0.8; E = 0.6 (v1), 0.6 (v2); 1 of 4 predicted parameters on evolving APIs anachronistic.
const records: PredictionRecord[] = [
  ...[1, 1, 0, 0].map((s) => rec('API-I', '1.0', 'stable', s)),
  ...[1, 1, 1, 0].map((s) => rec('API-I', '2.0', 'stable', s)),
  rec('API-I', '1.0', 'evolving', 1, { api: false }),
  rec('API-I', '1.0', 'evolving', 0, { api: true }),
  rec('API-I', '2.0', 'evolving', 0, { api: true }),
  rec('API-I', '2.0', 'evolving', 0, { api: false }),
  rec('API-I', '2.0', 'evolving', 0, { api: false }),
  rec('API-I', '2.0', 'evolving', 1, { api: false }),
  rec('SR', '1.0', 'stable', 1),
  ...[0.6, 1].map((s) => rec('SR', '2.0', 'stable', s)),
  rec('SR', '1.0', 'evolving', 0.6, { parameters: ['correct', 'anachronistic'] }),
  rec('SR', '2.0', 'evolving', 0.6, { parameters: ['correct', 'unknown'] }),
  // Not a SEUS task: ignored by SEUS.
  rec('API-C@L0', '1.0', 'evolving', 0),
];

describe('SEUS', () => {
  test('the interval covers a known true SEUS: the basic bootstrap, since the replicates sit below the estimate (issue 22, point 7)', () => {
    // True S_v = 0.8 and E_v = 0.6 at four versions: SEUS = HM(0.8, 0.6) − 0.5·Std(E) − 0 = 0.685714…. Datasets of 30
    // stable and 40 evolving Bernoulli answers per version, drawn with a seeded generator; each gets a 200-replicate
    // bootstrap. The percentile interval of these replicates misses the truth too often (they sit below the estimate:
    // the noise of E*_v adds to Std), the basic one does not.
    let state = 7;
    const draw = () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    const truth = (2 * 0.8 * 0.6) / 1.4;
    let basic = 0;
    let percentile = 0;
    for (let k = 0; k < 80; k++) {
      const recs: PredictionRecord[] = [];
      for (const v of ['1.0', '2.0', '3.0', '4.0']) {
        for (let j = 0; j < 30; j++) recs.push(rec('API-I', v, 'stable', draw() < 0.8 ? 1 : 0));
        for (let j = 0; j < 40; j++) recs.push(rec('API-I', v, 'evolving', draw() < 0.6 ? 1 : 0, { api: false }));
      }
      const seus = computeSeus(recs, { ...DEFAULT_SCORING_OPTIONS, bootstrap: 200, seed: k + 1 });
      const [lo, hi] = seus.ci!;
      if (lo <= truth && truth <= hi) basic++;
      // The percentile interval of the same replicates: the basic one reflected about the estimate.
      const v = seus.value!;
      if (2 * v - hi <= truth && truth <= 2 * v - lo) percentile++;
    }
    // A 95% interval should cover ~76 of 80: the basic one covers 77, the percentile one 66 (82.5%).
    assert.ok(basic >= 74, `basic interval covers ${basic}/80`);
    assert.ok(percentile <= 70, `percentile interval covers ${percentile}/80`);
  });

  test('matches the formula computed by hand', () => {
    const seus = computeSeus(records, { ...DEFAULT_SCORING_OPTIONS, bootstrap: 0 });
    const apiI = (0.5 + (2 * 0.75 * 0.25) / (0.75 + 0.25)) / 2 - 0.5 * 0.125 - 0.5 * (2 / 6);
    const sr = ((2 * 1 * 0.6) / 1.6 + (2 * 0.8 * 0.6) / 1.4) / 2 - 0.5 * 0 - 0.5 * 0.25;
    assert.equal(seus.components.length, 2);
    const [ci, cs] = seus.components;
    assert.equal(ci!.unit, 'API-I');
    assert.ok(Math.abs(ci!.balanced - 0.4375) < 1e-12);
    assert.ok(Math.abs(ci!.evolvingStd - 0.125) < 1e-12);
    assert.ok(Math.abs(ci!.anachronism! - 1 / 3) < 1e-12);
    assert.ok(Math.abs(ci!.retention! - (0.5 / 0.5 + 0.25 / 0.75) / 2) < 1e-12);
    assert.ok(Math.abs(ci!.term - apiI) < 1e-12);
    assert.ok(Math.abs(cs!.term - sr) < 1e-12);
    assert.ok(Math.abs(seus.value! - (apiI + sr) / 2) < 1e-12);
    assert.ok(Math.abs(seus.headline.stabilityPenalty! - (0.5 * 0.125 + 0) / 2) < 1e-12);
    assert.ok(Math.abs(seus.headline.anachronismPenalty! - (0.5 / 3 + 0.125) / 2) < 1e-12);
    assert.ok(Math.abs(seus.headline.stable! - (0.625 + 0.9) / 2) < 1e-12);
    assert.equal(seus.ci, null, 'no interval without resamples');
    // The sweep is linear in the weights; λ = γ = 0 leaves the balanced score.
    assert.equal(seus.sweep.length, 25);
    assert.ok(Math.abs(seus.sweep.find((s) => s.lambda === 0 && s.gamma === 0)!.seus! - (0.4375 + cs!.balanced) / 2) < 1e-12);
    assert.ok(Math.abs(seus.sweep.find((s) => s.lambda === 0.5 && s.gamma === 0.5)!.seus! - seus.value!) < 1e-12);
    // Configurable weights.
    const heavy = computeSeus(records, { ...DEFAULT_SCORING_OPTIONS, bootstrap: 0, lambda: 1, gamma: 0 });
    assert.ok(Math.abs(heavy.value! - ((0.4375 - 0.125) + cs!.balanced) / 2) < 1e-12);
  });

  test('the bias-corrected Std takes each version\'s sampling noise off, signed (issue 22, point 7)', () => {
    // evolvingStdOf: means 0.5, 0.7 (population variance 0.01), noises 0.002, 0.006: 0.01 − ½·0.004 = 0.008.
    assert.ok(Math.abs(evolvingStdOf([0.5, 0.7], [0.002, 0.006], 'bias-corrected') - Math.sqrt(0.008)) < 1e-12);
    assert.ok(Math.abs(evolvingStdOf([0.5, 0.7], [0.002, 0.006], 'paper') - 0.1) < 1e-12);
    // Flat means: all the spread is noise, and less spread than the noise predicts gives a negative root.
    assert.ok(Math.abs(evolvingStdOf([0.6, 0.6], [0.01, 0.01], 'bias-corrected') + Math.sqrt(0.005)) < 1e-12);
    assert.equal(evolvingStdOf([0.6], [0.01], 'bias-corrected'), 0, 'one version: no spread to correct');
    // The hand-made records: API-I's evolving answers are [1, 0] at 1.0 (mean ½, s² ½, noise ¼) and [0, 0, 0, 1] at
    // 2.0 (mean ¼, s² ¼, noise 1/16): variance 1/64 − ½·(¼ + 1/16)/2 = −1/16, Std −¼. SR has one answer a version
    // (no noise estimate): its Std stays 0.
    const seus = computeSeus(records, { ...DEFAULT_SCORING_OPTIONS, bootstrap: 0, std: 'bias-corrected' });
    const [ci, cs] = seus.components;
    assert.ok(Math.abs(ci!.evolvingStd + 0.25) < 1e-12);
    assert.ok(Math.abs(ci!.term - (0.4375 + 0.5 * 0.25 - 0.5 / 3)) < 1e-12);
    assert.equal(cs!.evolvingStd, 0);
    assert.equal(seus.std, 'bias-corrected');
    assert.equal(computeSeus(records, { ...DEFAULT_SCORING_OPTIONS, bootstrap: 0 }).std, 'paper', 'the paper\'s Std by default');
  });

  test('the SEUS interval stays within the score\'s range (at most 100)', () => {
    // Near the ceiling the basic interval reflects resamples that reach 1 about the estimate: the upper bound would
    // pass 1. Stable answers all right; evolving [1, 1, 1, 0] at 1.0 and all right at 2.0: SEUS = (HM(1, ¾) + 1)/2 −
    // ½·⅛ = 0.866…; a resample of all-right answers scores 1, so the lower bound is 2·0.866 − 1 = 0.732….
    const near: PredictionRecord[] = [];
    for (const v of ['1.0', '2.0']) for (let i = 0; i < 4; i++) near.push(rec('API-I', v, 'stable', 1));
    for (const s of [1, 1, 1, 0]) near.push(rec('API-I', '1.0', 'evolving', s, { api: false }));
    for (let i = 0; i < 4; i++) near.push(rec('API-I', '2.0', 'evolving', 1, { api: false }));
    const estimate = ((2 * 0.75) / 1.75 + 1) / 2 - 0.5 * 0.125;
    for (const std of STD_ESTIMATORS) {
      const seus = computeSeus(near, { ...DEFAULT_SCORING_OPTIONS, bootstrap: 400, std });
      assert.ok(seus.ci![1] <= 1 && seus.value! <= 1, `${std}: ${seus.value} [${seus.ci}]`);
      assert.ok(seus.ci![0] >= seusRange(0.5, 0.5)[0]);
    }
    const paper = computeSeus(near, { ...DEFAULT_SCORING_OPTIONS, bootstrap: 400 });
    assert.ok(Math.abs(paper.value! - estimate) < 1e-12);
    assert.equal(paper.ci![1], 1, 'clipped at the ceiling');
    assert.ok(Math.abs(paper.ci![0] - (2 * estimate - 1)) < 1e-12, 'the lower bound reflects the all-right resamples');
    assert.deepEqual(seusRange(1, 0.25), [-0.75, 1]);
  });

  test('components without both groups are left out, and say why', () => {
    const seus = computeSeus([rec('API-I', '1.0', 'evolving', 1, { api: false }), rec('SR', '1.0', 'stable', 1)], { ...DEFAULT_SCORING_OPTIONS, bootstrap: 0 });
    assert.equal(seus.value, null);
    assert.deepEqual(seus.excluded.map((e) => [e.unit, e.reason]), [['API-I', 'no stable samples'], ['SR', 'no evolving samples']]);
  });

  test('bootstrap: seeded, deterministic, around the estimate', () => {
    const a = computeSeus(records, { ...DEFAULT_SCORING_OPTIONS, bootstrap: 500, seed: 7 });
    const b = computeSeus(records, { ...DEFAULT_SCORING_OPTIONS, bootstrap: 500, seed: 7 });
    assert.deepEqual(a.ci, b.ci);
    const spread = Array.from({ length: 50 }, (_, i) => Math.sin(i) ** 2);
    assert.deepEqual(bootstrapMean(spread, 300, new Resampler(7, 'k')), bootstrapMean(spread, 300, new Resampler(7, 'k')));
    assert.notDeepEqual(bootstrapMean(spread, 300, new Resampler(7, 'k')), bootstrapMean(spread, 300, new Resampler(8, 'k')), 'another seed, other resamples');
    assert.notDeepEqual(bootstrapMean(spread, 300, new Resampler(7, 'k')), bootstrapMean(spread, 300, new Resampler(7, 'other cell')), 'each cell its own stream');
    assert.ok(a.ci![0] <= a.value! && a.value! <= a.ci![1], `${a.ci} around ${a.value}`);
    const values = Array.from({ length: 400 }, (_, i) => (i % 4 === 0 ? 1 : 0));
    const ci1 = bootstrapMean(values, 1000, new Resampler(1, 'k'));
    assert.deepEqual(ci1, bootstrapMean(values, 1000, new Resampler(1, 'k')));
    assert.ok(ci1![0] < 0.25 && 0.25 < ci1![1] && ci1![1] - ci1![0] < 0.1, String(ci1));
    assert.equal(bootstrapMean([], 1000, new Resampler(1, 'k')), null);
    // The resampler is mulberry32 (seededRandom) with its state inlined; seeds differ for every (seed, key).
    const reference = seededRandom(seedFor(3, 'cell'));
    const resampler = new Resampler(3, 'cell');
    for (let i = 0; i < 100; i++) assert.equal(resampler.index(1000), Math.floor(reference() * 1000));
    assert.notEqual(seedFor(7, 'k'), seedFor(8, 'k'));
    assert.notEqual(seedFor(1, 'ab'), seedFor(1, 'ba'));
    assert.deepEqual(bootstrapMean([0.3, 0.3], 100, new Resampler(1, 'k')), [0.3, 0.3]);
  });

  test('aggregate results are a deterministic function of the records', () => {
    const a = aggregateResults(records, { ...DEFAULT_SCORING_OPTIONS, bootstrap: 200 }, { label: 'x' });
    const b = aggregateResults(JSON.parse(JSON.stringify(records)), { ...DEFAULT_SCORING_OPTIONS, bootstrap: 200 }, { label: 'x' });
    assert.deepEqual(a, b);
    const row = a.metrics.find((m) => m.unit === 'API-I' && m.group === 'evolving' && m.version === null)!;
    assert.ok(Math.abs(row.mean! - 2 / 6) < 1e-12);
    assert.ok(row.ci !== null);
    assert.equal(a.metrics.find((m) => m.unit === 'API-I' && m.group === 'evolving' && m.version === '2.0')!.ci, null, 'no interval per version');
  });
});

describe('statistics', () => {
  test('quantiles, std, ranks, Spearman', () => {
    assert.equal(quantile([1, 2, 3, 4], 0.5), 2.5);
    const interval = percentileInterval(Float64Array.from({ length: 101 }, (_, i) => i));
    assert.ok(Math.abs(interval[0] - 2.5) < 1e-9 && Math.abs(interval[1] - 97.5) < 1e-9);
    assert.equal(populationStd([0.5, 0.25]), 0.125);
    assert.deepEqual(averageRanks([10, 20, 20, 5]), [2, 3.5, 3.5, 1]);
    assert.equal(spearman([1, 2, 3], [10, 20, 30]), 1);
    assert.equal(spearman([1, 2, 3], [3, 2, 1]), -1);
    assert.ok(Math.abs(spearman([1, 2, 3, 4], [1, 3, 2, 4])! - 0.8) < 1e-12);
    assert.equal(spearman([1], [1]), null);
    assert.equal(spearman([1, 1], [1, 2]), null);
  });

  test('comparing runs: leaderboard order and the rank correlation over the (λ, γ) grid', () => {
    const strong = aggregateResults(records.map((r) => ({ ...r, score: r.group === 'evolving' ? Math.min(1, r.score! + 0.3) : r.score, taxonomy: r.taxonomy && { ...r.taxonomy, api: r.taxonomy.api === null ? null : 'correct' } })), { ...DEFAULT_SCORING_OPTIONS, bootstrap: 0 }, { label: 'strong' });
    const weak = aggregateResults(records, { ...DEFAULT_SCORING_OPTIONS, bootstrap: 0 }, { label: 'weak' });
    const comparison = compareRuns([weak, strong]);
    assert.deepEqual(comparison.leaderboard.map((r) => r.label), ['strong', 'weak']);
    assert.equal(comparison.sweep.length, 25);
    assert.equal(comparison.minSpearman, 1);
    assert.equal(compareRuns([weak]).minSpearman, null);
  });

  test('leaderboards compare like with like: other tasks or versions are ranked in tables of their own (issue 22, point 8)', () => {
    const options = { ...DEFAULT_SCORING_OPTIONS, bootstrap: 0 };
    const weak = aggregateResults(records, options, { label: 'weak' });
    const strong = aggregateResults(records.map((r) => ({ ...r, score: r.group === 'evolving' ? Math.min(1, r.score! + 0.3) : r.score })), options, { label: 'strong' });
    // API-I alone: a SEUS over one task; version 2.0 alone: another set of versions. Neither is ranked against weak.
    const apiIOnly = aggregateResults(records.filter((r) => r.unit === 'API-I'), options, { label: 'api-i only' });
    const newest = aggregateResults(records.filter((r) => r.version === '2.0'), options, { label: 'newest only' });
    const c = compareRuns([apiIOnly, weak, newest, strong]);
    const tables = new Map(c.tables.map((t) => [t.coverage, t.runs]));
    assert.deepEqual([...tables.keys()].sort(), ['lib 1.0, 2.0 · API-I', 'lib 1.0, 2.0 · API-I, SR', 'lib 2.0 · API-I, SR']);
    assert.deepEqual([tables.get('lib 1.0, 2.0 · API-I'), tables.get('lib 1.0, 2.0 · API-I, SR'), tables.get('lib 2.0 · API-I, SR')], [1, 2, 1]);
    const row = (label: string) => c.leaderboard.find((r) => r.label === label)!;
    // strong and weak share a table, ranked 1 and 2; each other run is first of its own table.
    assert.equal(row('strong').table, row('weak').table);
    assert.deepEqual([row('strong').rank, row('weak').rank, row('api-i only').rank, row('newest only').rank], [1, 2, 1, 1]);
    assert.equal(new Set([row('weak').table, row('api-i only').table, row('newest only').table]).size, 3);
    // The paper's SEUS is of four tasks: a subset says which.
    assert.equal(row('api-i only').subset, 'of API-I only');
    assert.equal(row('weak').subset, 'of API-I, SR only');
    // Rows come table by table; the rank correlation is taken within the table of two.
    assert.deepEqual(c.leaderboard.map((r) => r.table), [...c.leaderboard.map((r) => r.table)].sort());
    assert.equal(c.minSpearman, 1);
    assert.equal(compareRuns([apiIOnly, newest]).minSpearman, null, 'no table holds two runs');
    // The chart follows the tables: a heading per table, each run drawn once, under its own table's heading.
    const chart = leaderboardSvg(c);
    const at = (text: string) => chart.indexOf(text);
    for (const t of c.tables) assert.ok(at(`Table ${t.table}: ${t.coverage}`) >= 0, `heading of table ${t.table}`);
    for (const r of c.leaderboard) {
      assert.equal(chart.split(`${r.rank}. ${r.label}<`).length, 2, r.label);
      const own = at(`Table ${r.table}: `);
      const next = c.tables.find((t) => t.table === r.table + 1);
      assert.ok(at(`${r.rank}. ${r.label}<`) > own && (!next || at(`${r.rank}. ${r.label}<`) < at(`Table ${next.table}: `)), `${r.label} under table ${r.table}`);
    }
    assert.equal(leaderboardSvg(compareRuns([weak, strong])).includes('Table 1:'), false, 'one table: no heading');
    const md = comparisonMarkdown(c, [apiIOnly, weak, newest, strong]);
    assert.match(md, /### Table 3: /);
    assert.match(md, /\(of API-I only\)/);
    assert.match(runMarkdown(apiIOnly), /Over lib 1\.0, 2\.0 · API-I — a SEUS of API-I only, not of the paper's four tasks/);
  });
});

/** Every tag closed in order (a small XML well-formedness check: no attribute holds "<" or ">"). */
function assertWellFormed(xml: string): void {
  const stack: string[] = [];
  for (const m of xml.matchAll(/<(\/?)([A-Za-z][\w:-]*)([^<>]*?)(\/?)>/g)) {
    if (m[1]) assert.equal(stack.pop(), m[2], `</${m[2]}> closes <${stack[stack.length] ?? ''}>`);
    else if (!m[4]) stack.push(m[2]!);
  }
  assert.deepEqual(stack, [], 'every element closed');
  assert.doesNotMatch(xml.replace(/<[^<>]*>/g, ''), /[<>]/, 'no stray angle brackets in text');
}

describe('reports', () => {
  const results = aggregateResults(records, { ...DEFAULT_SCORING_OPTIONS, bootstrap: 100 }, { label: 'hand <made> & "quoted"', model: 'test' });
  test('a bootstrap interval is printed as its bounds [lo, hi], never as a symmetric ± half-width', () => {
    // Asymmetric: 90.0 with [80.0, 92.0] reads "± 6.0" (84.0–96.0) as a half-width, placing both bounds wrong.
    assert.equal(pctCi(0.9, [0.8, 0.92]), '90.0 [80.0, 92.0]');
    assert.equal(pctCi(0.5, null), '50.0');
    assert.equal(pctCi(null, [0, 1]), '–');
    const md = runMarkdown(results);
    assert.doesNotMatch(md, /±/);
    const seus = results.seus.value!;
    const ci = results.seus.ci!;
    assert.ok(ci && ci[0] <= seus && seus <= ci[1]);
    assert.ok(md.includes(`| ${pctCi(seus, ci)} |`), 'the SEUS row prints the interval\'s bounds');
  });

  test('CSV quoting and files', () => {
    assert.equal(toCsv(['a', 'b'], [['x,y', 'say "hi"'], [1.5, null]]), 'a,b\n"x,y","say ""hi"""\n1.5,\n');
    const files = runCsvFiles(results);
    assert.deepEqual(Object.keys(files).sort(), ['ceiling.csv', 'failures.csv', 'metrics.csv', 'seus-versions.csv', 'seus.csv', 'sweep.csv', 'taxonomy-api.csv', 'taxonomy-parameters.csv']);
    assert.equal(files['metrics.csv']!.split('\n').length - 2, results.metrics.length);
  });

  test('Markdown tables render to HTML; SVG charts are well-formed and escaped', () => {
    const md = runMarkdown(results);
    assert.match(md, /## SEUS/);
    assert.match(md, /\| API-I exact \|/);
    const html = renderMarkdown('# T\n\nSome text.\n\n| a | b \\| c |\n| --- | ---: |\n| 1 | 2 |\n');
    assert.match(html, /<table>/);
    assert.match(html, /<td class="num">2<\/td>/);
    assert.match(html, /<th class="num">b \| c<\/th>/);
    for (const svg of [progressionSvg(results), staircaseSvg(results), taxonomySvg(results), leaderboardSvg(compareRuns([results]))]) {
      assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      assert.ok(svg.trim().endsWith('</svg>'));
      assert.doesNotMatch(svg, /NaN|undefined|<script/);
      assertWellFormed(svg);
    }
    const page = reportHtml(results.run.label, [{ file: 'x.svg', caption: 'c', svg: leaderboardSvg(compareRuns([results])) }], md);
    assert.match(page, /hand &lt;made&gt; &amp; &quot;quoted&quot;/);
    assert.doesNotMatch(page, /hand <made>/);
  });

  test('the charts follow the page\'s theme: background and every text in an ink the report page styles from --vscode-* colours', () => {
    const charts = { progressionSvg, staircaseSvg, taxonomySvg, armsSvg, leaderboard: (r: typeof results) => leaderboardSvg(compareRuns([r])), comparisonProgressionSvg: (r: typeof results) => comparisonProgressionSvg([r, r]), comparisonStaircaseSvg: (r: typeof results) => comparisonStaircaseSvg([r, r]) };
    for (const [name, chart] of Object.entries(charts)) assertThemedInks(chart(results), name);
    assertThemedInks(emptyChart('nothing', 'no scored samples'), 'emptyChart');
    const page = reportHtml('r', [], '');
    const style = /<style>([\s\S]*)<\/style>/.exec(page)![1]!;
    // Every colour the page sets comes from the theme (with a light fallback outside an editor), but text drawn on a
    // data colour, which is the same in every theme.
    for (const rule of style.split('\n').flatMap((l) => l.split('}')).filter((r) => r.includes('{') && !r.includes('onData'))) {
      for (const [, prop, value] of rule.matchAll(/\b(color|background|fill|stroke):\s*([^;]+)/g)) assert.match(value!, /var\(--vscode-/, `${rule.trim()}: ${prop}`);
    }
  });
});
