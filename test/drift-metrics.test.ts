// The drift suite's statistics against hand-computed values: Pass@k (the unbiased estimator, exact for large n),
// Wilson intervals, the drift matrix with fidelity, forward/backward compatibility and drops, the error taxonomy,
// the category table and repair success per target and round; the repair plan and the facts read from a run.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { driftFacts, generationSamples, plannedRepairs, repairId, type DriftTaskSetInput } from '../server/src/eval/drift/dataset.js';
import {
  categoryTable,
  driftMatrix,
  errorTaxonomy,
  passAtK,
  passAtKOver,
  proportion,
  repairFigures,
  taxonomyLabel,
  wilsonInterval,
  type ExecutionFact,
  type Outcome,
  type RepairCase,
} from '../server/src/eval/drift/metrics.js';
import type { StoredWarning } from '../server/src/eval/drift/store.js';
import { pctCellMean } from '../server/src/eval/drift/tables.js';

const close = (actual: number | null | undefined, expected: number, eps = 1e-9) => assert.ok(actual !== null && actual !== undefined && Math.abs(actual - expected) < eps, `${actual} ≠ ${expected}`);

/** C(n, k) as a BigInt. */
function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}

describe('Pass@k', () => {
  test('hand-computed values', () => {
    close(passAtK(3, 1, 1), 1 / 3);
    close(passAtK(3, 1, 2), 2 / 3); // 1 − C(2,2)/C(3,2)
    assert.equal(passAtK(3, 1, 3), 1);
    assert.equal(passAtK(3, 0, 1), 0);
    assert.equal(passAtK(3, 0, 3), 0);
    assert.equal(passAtK(3, 3, 1), 1);
    close(passAtK(5, 2, 2), 0.7); // 1 − 3/10
    close(passAtK(10, 3, 5), 1 - 21 / 252);
  });

  test('the product form equals 1 − C(n−c,k)/C(n,k) for any k ≤ n, without overflow at large n', () => {
    for (const [n, c, k] of [[200, 10, 100], [200, 1, 1], [500, 7, 250], [1000, 999, 1], [60, 30, 30]] as const) {
      const exact = 1 - Number((binomial(n - c, k) * 10n ** 18n) / binomial(n, k)) / 1e18;
      close(passAtK(n, c, k), exact, 1e-12);
    }
    for (let n = 1; n <= 12; n++) for (let c = 0; c <= n; c++) for (let k = 1; k <= n; k++) close(passAtK(n, c, k), 1 - Number(binomial(n - c, k)) / Number(binomial(n, k)), 1e-12);
    assert.throws(() => passAtK(3, 1, 4), RangeError);
    assert.throws(() => passAtK(3, 4, 1), RangeError);
    assert.throws(() => passAtK(0, 0, 1), RangeError);
  });
});

describe('Wilson score intervals', () => {
  test('hand-computed values (z = 1.96)', () => {
    const a = wilsonInterval(5, 10)!;
    close(a[0], 0.236593090512564, 1e-12);
    close(a[1], 0.7634069094874361, 1e-12);
    const zero = wilsonInterval(0, 10)!;
    assert.equal(zero[0], 0);
    close(zero[1], 0.2775327998628892, 1e-12);
    const all = wilsonInterval(10, 10)!;
    close(all[0], 0.7224672001371107, 1e-12);
    close(all[1], 1, 1e-12);
    const third = wilsonInterval(1, 3)!;
    close(third[0], 0.06149194472039615, 1e-12);
    close(third[1], 0.7923403991979523, 1e-12);
    const fractional = wilsonInterval(2.5, 4)!; // Pass@k × prompts
    close(fractional[0], 0.21942652006536284, 1e-12);
    close(fractional[1], 0.9081007708209878, 1e-12);
    assert.equal(wilsonInterval(0, 0), null);
    assert.deepEqual(proportion(0, 0), { successes: 0, n: 0, value: null, ci: null });
  });
});

// Three versions, two tasks, two samples per prompt; prompted 1.0 and 2.0 (3.0 never prompted: null cells).
const row = (prompted: string, taskId: string, sample: number, outcomes: [Outcome, string | null][]): ExecutionFact[] =>
  outcomes.map(([outcome, errorType], i) => ({ sampleId: `${taskId}@${prompted}#${sample}`, library: 'lib', taskId, category: taskId === 't1' ? 'renamed' : 'removed', prompted, environment: `${i + 1}.0`, outcome, errorType }));
const P: [Outcome, null] = ['pass', null];
const S: [Outcome, null] = ['soft-fail', null];
const H = (t: string): [Outcome, string] => ['hard-fail', t];
const T: [Outcome, null] = ['timeout', null];
const FACTS: ExecutionFact[] = [
  ...row('1.0', 't1', 1, [P, P, H('AttributeError')]),
  ...row('1.0', 't1', 2, [P, S, H('AttributeError')]),
  ...row('1.0', 't2', 1, [P, H('ImportError'), H('ImportError')]),
  ...row('1.0', 't2', 2, [H('TypeError'), H('ImportError'), T]),
  ...row('2.0', 't1', 1, [H('AttributeError'), P, P]),
  ...row('2.0', 't1', 2, [H('AttributeError'), P, P]),
  ...row('2.0', 't2', 1, [P, P, P]),
  ...row('2.0', 't2', 2, [P, P, S]),
];

describe('the drift matrix', () => {
  const m = driftMatrix('lib', FACTS, { versions: ['3.0', '1.0', '2.0'] });

  test('D[s][t] = share of executions that pass; rows prompted, columns environments, ascending', () => {
    assert.deepEqual(m.versions, ['1.0', '2.0', '3.0']);
    const d = m.cells.map((r) => r.map((c) => c?.pass.value ?? null));
    assert.deepEqual(d, [
      [0.75, 0.25, 0],
      [0.5, 1, 0.75],
      [null, null, null],
    ]);
    assert.equal(m.cells[0]![0]!.pass.n, 4);
    assert.deepEqual(m.cells[0]![0]!.pass.ci, wilsonInterval(3, 4));
  });

  test('fidelity (the diagonal), forward and backward compatibility, forward drops', () => {
    assert.deepEqual(m.fidelity.map((f) => [f.version, f.pass.value]), [['1.0', 0.75], ['2.0', 1]]);
    // Equal cells (4 executions each): the mean of the cells and the pooled rate agree here.
    close(m.meanFidelity.value, (0.75 + 1) / 2);
    assert.deepEqual([m.meanFidelity.cells, m.meanFidelity.range], [2, [0.75, 1]]);
    assert.deepEqual([m.meanFidelity.pooled.successes, m.meanFidelity.pooled.n], [7, 8]);
    close(m.forward.value, (0.25 + 0 + 0.75) / 3);
    assert.deepEqual([m.forward.pooled.successes, m.forward.pooled.n], [4, 12]);
    close(m.backward.value, 0.5);
    assert.deepEqual([m.backward.pooled.successes, m.backward.pooled.n], [2, 4]);
    assert.deepEqual(m.forwardDrops.map((d) => [d.prompted, d.environment, d.drop]), [['1.0', '2.0', 0.5], ['1.0', '3.0', 0.75], ['2.0', '3.0', 0.25]]);
    assert.deepEqual(m.largestForwardDrop, { prompted: '1.0', environment: '3.0', drop: 0.75 });
    assert.deepEqual(m.dropToNewest.map((d) => [d.prompted, d.drop]), [['1.0', 0.75], ['2.0', 0.25]]);
  });

  test('mean fidelity is the mean of the diagonal cells (paper §4, Table 6), forward and backward the mean of their cells (Table 9), not pooled executions', () => {
    // Prompted 1.0: 1 task × 1 sample, passes at 1.0, fails at 2.0 and 3.0. Prompted 2.0: 3 tasks × 1 sample; at 2.0
    // one of the 3 passes, at 1.0 all 3 pass, at 3.0 none. Prompted 3.0: 1 sample passing at 3.0 only.
    const fact = (prompted: string, taskId: string, environment: string, outcome: Outcome): ExecutionFact => ({ sampleId: `${taskId}@${prompted}`, library: 'lib', taskId, category: 'c', prompted, environment, outcome, errorType: outcome === 'hard-fail' ? 'AttributeError' : null });
    const facts: ExecutionFact[] = [
      fact('1.0', 'a', '1.0', 'pass'), fact('1.0', 'a', '2.0', 'hard-fail'), fact('1.0', 'a', '3.0', 'hard-fail'),
      ...['a', 'b', 'c'].flatMap((t, i) => [fact('2.0', t, '1.0', 'pass'), fact('2.0', t, '2.0', i === 0 ? 'pass' : 'hard-fail'), fact('2.0', t, '3.0', 'hard-fail')]),
      fact('3.0', 'a', '1.0', 'hard-fail'), fact('3.0', 'a', '2.0', 'hard-fail'), fact('3.0', 'a', '3.0', 'pass'),
    ];
    const u = driftMatrix('lib', facts);
    assert.deepEqual(u.fidelity.map((f) => f.pass.value), [1, 1 / 3, 1]);
    // Paper: (1 + 1/3 + 1) / 3 = 7/9; pooled over executions it would be (1 + 1 + 1) / 5 = 3/5.
    close(u.meanFidelity.value, 7 / 9);
    assert.deepEqual(u.meanFidelity.range, [1 / 3, 1]);
    assert.deepEqual([u.meanFidelity.pooled.successes, u.meanFidelity.pooled.n], [3, 5]);
    assert.deepEqual(u.meanFidelity.pooled.ci, wilsonInterval(3, 5));
    // Forward cells: D[1][2] = 0, D[1][3] = 0, D[2][3] = 0 → 0. Backward: D[2][1] = 1, D[3][1] = 0, D[3][2] = 0 → 1/3;
    // pooled: 3 of 5.
    assert.equal(u.forward.value, 0);
    close(u.backward.value, 1 / 3);
    assert.deepEqual([u.backward.cells, u.backward.pooled.successes, u.backward.pooled.n], [3, 3, 5]);
    const none = driftMatrix('lib', facts.filter((f) => f.prompted === '1.0' && f.environment === '1.0'));
    assert.deepEqual([none.forward.value, none.forward.cells, none.forward.range, none.forward.pooled.value], [null, 0, null, null]);
  });

  test('samples of one prompt are correlated: the mean is given an interval clustered by task (issue 22, point 11)', () => {
    // n samples of a task at one version, all with one outcome (a deterministic model's samples are one answer).
    const same = (taskId: string, version: string, n: number, outcome: Outcome): ExecutionFact[] =>
      Array.from({ length: n }, (_, i) => ({ sampleId: `${taskId}@${version}#${i}`, library: 'lib', taskId, category: 'c', prompted: version, environment: version, outcome, errorType: outcome === 'pass' ? null : 'AttributeError' }));
    const Z2 = 1.959963984540054 ** 2;
    // 2 tasks × 2 versions × 3 identical passing samples: the 12 executions' Wilson interval starts at 12/(12 + z²)
    // = 75.8%; every task agrees, so the bootstrap has no variance and each task counts once: 2/(2 + z²) = 34.2%.
    const allPass = driftMatrix('lib', ['a', 'b'].flatMap((t) => [...same(t, '1.0', 3, 'pass'), ...same(t, '2.0', 3, 'pass')]));
    close(allPass.meanFidelity.pooled.ci![0], 12 / (12 + Z2));
    assert.deepEqual([allPass.meanFidelity.byTask!.tasks, allPass.meanFidelity.byTask!.effectiveN], [2, 2]);
    close(allPass.meanFidelity.byTask!.ci![0], 2 / (2 + Z2));
    close(allPass.meanFidelity.byTask!.ci![1], 1);
    // 3 tasks at one version, 3 identical samples each: 2 pass, 1 fails. p = 2/3; resampling whole tasks, the mean's
    // variance is (1/3)·((1/3)² + (1/3)² + (2/3)²)/3 = 2/27, so n = p(1 − p)/(2/27) = (2/9)/(2/27) = 3: one per task.
    const oneEach = driftMatrix('lib', [...same('a', '1.0', 3, 'pass'), ...same('b', '1.0', 3, 'pass'), ...same('c', '1.0', 3, 'hard-fail')]);
    close(oneEach.meanFidelity.value, 2 / 3);
    assert.ok(Math.abs(oneEach.meanFidelity.byTask!.effectiveN - 3) < 0.3, `effective n ${oneEach.meanFidelity.byTask!.effectiveN} ≈ 3`);
    assert.ok(oneEach.meanFidelity.byTask!.ci![0] < oneEach.meanFidelity.pooled.ci![0] - 0.1, 'wider than the 9 executions\' Wilson interval');
    // 4 tasks that each pass 2 of their 4 samples: every resample of tasks has the same mean, so there is no variance
    // to read either; each task counts once: Wilson(2, 4), not the 16 executions' Wilson(8, 16).
    const halves = driftMatrix('lib', ['a', 'b', 'c', 'd'].flatMap((t) => [...same(t, '1.0', 2, 'pass'), ...same(t, '1.0', 2, 'hard-fail').map((f, i) => ({ ...f, sampleId: `${f.sampleId}-f${i}` }))]));
    assert.deepEqual([halves.meanFidelity.byTask!.effectiveN, halves.meanFidelity.byTask!.ci], [4, wilsonInterval(2, 4)]);
    // Tasks that differ, samples that vary within them: 2 tasks at one version, a passing 3 of 4 and b 1 of 4; p = 1/2,
    // the resampled mean is 3/4, 1/2 or 1/4 with probabilities 1/4, 1/2, 1/4: variance 1/32, n = (1/4)/(1/32) = 8,
    // the executions themselves (capped there).
    const differ = driftMatrix('lib', [...same('a', '1.0', 3, 'pass'), ...same('a', '1.0', 1, 'hard-fail').map((f) => ({ ...f, sampleId: `${f.sampleId}-f` })), ...same('b', '1.0', 1, 'pass'), ...same('b', '1.0', 3, 'hard-fail').map((f) => ({ ...f, sampleId: `${f.sampleId}-f` }))]);
    assert.ok(Math.abs(differ.meanFidelity.byTask!.effectiveN - 8) < 1, `effective n ${differ.meanFidelity.byTask!.effectiveN} ≈ 8 (1,000 resamples)`);
    // Seeded: the same facts give the same interval; the table prints it beside the pooled one.
    assert.deepEqual(driftMatrix('lib', [...same('a', '1.0', 3, 'pass'), ...same('b', '1.0', 3, 'pass'), ...same('c', '1.0', 3, 'hard-fail')]).meanFidelity.byTask, oneEach.meanFidelity.byTask);
    assert.match(pctCellMean(allPass.meanFidelity), /^100\.0 \[34\.2, 100\.0\] clustered by 2 tasks \(range 100\.0–100\.0, 2 cells; pooled 100\.0 \[75\.8, 100\.0\]\)$/);
  });

  test('Pass@k per cell: macro average over prompts, k up to n', () => {
    const diag = m.cells[0]![0]!.passAtK;
    assert.deepEqual(diag.map((p) => [p.k, p.value, p.prompts]), [[1, 0.75, 2], [2, 1, 2]]);
    const off = m.cells[0]![1]!.passAtK;
    assert.deepEqual(off.map((p) => [p.k, p.value]), [[1, 0.25], [2, 0.5]]);
    assert.deepEqual(off[1]!.ci, wilsonInterval(1, 2));
    // A prompt with fewer samples than k is left out of Pass@k for that k.
    const uneven = passAtKOver([...row('1.0', 't1', 1, [P]), ...row('1.0', 't1', 2, [H('X')]), ...row('1.0', 't2', 1, [P])], 2);
    assert.deepEqual(uneven.map((p) => [p.k, p.value, p.prompts]), [[1, 0.75, 2], [2, 1, 1]]);
  });

  test('lenient: a soft fail counts as passing', () => {
    const lenient = driftMatrix('lib', FACTS, { versions: ['1.0', '2.0', '3.0'], rule: 'lenient' });
    assert.equal(lenient.cells[0]![1]!.pass.value, 0.5);
    assert.equal(lenient.cells[1]![2]!.pass.value, 1);
  });
});

describe('the error taxonomy and categories', () => {
  test('labels: Pass, Soft-fail, Timeout, the exception type', () => {
    assert.equal(taxonomyLabel({ outcome: 'hard-fail', errorType: 'ModuleNotFoundError' }), 'ModuleNotFoundError');
    assert.equal(taxonomyLabel({ outcome: 'hard-fail', errorType: null }), 'Hard-fail (unknown)');
    assert.equal(taxonomyLabel({ outcome: 'soft-fail', errorType: null }), 'Soft-fail');
  });

  test('soft-fail is a DeprecationWarning (quantum-api-drift §2.5); another warning class from the library is a pass of its own label', () => {
    // What the sandbox records (python-probe/sandbox_run.py): per warning its MRO, DeprecationWarning in it or not,
    // whether the library raised it and around whose call.
    const future = { category: 'FutureWarning', message: 'later() will change', fromLibrary: true, caller: 'sample' as const, mro: ['FutureWarning', 'Warning', 'Exception', 'BaseException', 'object'], deprecation: false };
    const visible = { category: 'VisibleDeprecationWarning', message: 'ragged', fromLibrary: true, caller: 'sample' as const, mro: ['numpy.VisibleDeprecationWarning', 'UserWarning', 'Warning', 'Exception', 'BaseException', 'object'], deprecation: false };
    const harnessOnly = { ...future, caller: 'harness' as const };
    const own = { ...future, fromLibrary: false };
    const deprecated = { category: 'LibDeprecation', message: 'old()', fromLibrary: true, caller: 'sample' as const, mro: ['fakelib.LibDeprecation', 'DeprecationWarning', 'Warning', 'Exception', 'BaseException', 'object'], deprecation: true };
    const sets: DriftTaskSetInput[] = [{ library: 'lib', tasks: [{ id: 't', category: 'c', prompt: 'Using {library} {version}, do it.', entryPoint: 'f', harness: 'def check(c): pass', solutions: [] }] }];
    const samples = generationSamples(sets, new Map([['lib', ['1.0']]]), 7);
    const rows = samples.map((s) => ({ sample: s, status: 'answered' as const }));
    const runs: { outcome: Outcome; warnings: StoredWarning[] }[] = [
      { outcome: 'pass', warnings: [future] },
      { outcome: 'pass', warnings: [visible, future] },
      { outcome: 'pass', warnings: [harnessOnly] },
      { outcome: 'pass', warnings: [own] },
      { outcome: 'pass', warnings: [] },
      { outcome: 'soft-fail', warnings: [future, deprecated] },
      // Recorded before the MRO was kept: category and message only, read as it was classified.
      { outcome: 'pass', warnings: [{ category: 'FutureWarning', message: 'x' }] },
    ];
    const execs = samples.map((s, i) => ({ sampleId: s.id, environment: '1.0', outcome: runs[i]!.outcome, errorType: null, extraction: 'fenced' as const, warnings: runs[i]!.warnings }));
    const facts = driftFacts(rows, execs);
    assert.deepEqual(facts.executions.map((f) => f.warning ?? null), ['FutureWarning', 'VisibleDeprecationWarning', null, null, null, null, null]);
    const t = errorTaxonomy(facts.executions);
    // By hand: 3 plain passes (harness's, the sample's own, none) + the old record = 4; one pass per other class; one soft fail.
    assert.deepEqual(t.overall.counts, { Pass: 4, 'Pass, other warning (FutureWarning)': 1, 'Pass, other warning (VisibleDeprecationWarning)': 1, 'Soft-fail': 1 });
    assert.deepEqual(t.overall.outcomes, { pass: 6, 'soft-fail': 1, 'hard-fail': 0, timeout: 0 });
    // The drift matrix counts them as passes: 6 of 7.
    assert.equal(driftMatrix('lib', facts.executions).cells[0]![0]!.pass.successes, 6);
    assert.equal(taxonomyLabel({ outcome: 'pass', errorType: null, warning: 'PendingDeprecationWarning' }), 'Pass, other warning (PendingDeprecationWarning)');
  });

  test('overall, per prompted version, per category, per environment', () => {
    const t = errorTaxonomy(FACTS);
    assert.deepEqual(t.overall.counts, { Pass: 13, AttributeError: 4, ImportError: 3, 'Soft-fail': 2, Timeout: 1, TypeError: 1 });
    assert.deepEqual(t.overall.outcomes, { pass: 13, 'soft-fail': 2, 'hard-fail': 8, timeout: 1 });
    assert.equal(t.overall.n, 24);
    assert.deepEqual(t.overall.shares.Pass!.ci, wilsonInterval(13, 24));
    assert.deepEqual(t.byPrompted.map((r) => [r.key, r.counts]), [
      ['1.0', { Pass: 4, ImportError: 3, AttributeError: 2, 'Soft-fail': 1, Timeout: 1, TypeError: 1 }],
      ['2.0', { Pass: 9, AttributeError: 2, 'Soft-fail': 1 }],
    ]);
    assert.deepEqual(t.byCategory.find((r) => r.key === 'renamed')!.counts, { Pass: 7, AttributeError: 4, 'Soft-fail': 1 });
    assert.deepEqual(t.byEnvironment.map((r) => r.key), ['1.0', '2.0', '3.0']);
  });

  test('Table 5: Pass@1 per category with the task range and fidelity per version', () => {
    const rows = categoryTable(FACTS);
    const renamed = rows.find((r) => r.category === 'renamed')!;
    assert.deepEqual([renamed.pass.successes, renamed.pass.n, renamed.tasks], [7, 12, 1]);
    close(renamed.minTask, 7 / 12);
    assert.deepEqual(renamed.fidelity.map((f) => [f.version, f.pass.value]), [['1.0', 1], ['2.0', 1]]);
    const removed = rows.find((r) => r.category === 'removed')!;
    assert.deepEqual(removed.fidelity.map((f) => [f.version, f.pass.value]), [['1.0', 0.5], ['2.0', 1]]);
  });
});

describe('repair', () => {
  const c = (sampleId: string, target: string, outcomes: Outcome[], modelFailed = false): RepairCase => ({
    library: 'lib', sampleId, taskId: 't', category: 'renamed', prompted: '1.0', target, modelFailed,
    rounds: outcomes.map((outcome, i) => ({ round: i + 1, outcome, errorType: outcome === 'hard-fail' ? 'AttributeError' : null })),
  });
  const cases = [
    c('A', '2.0', ['hard-fail', 'pass']),
    c('B', '2.0', ['pass']),
    c('C', '2.0', ['hard-fail', 'soft-fail', 'timeout']),
    c('D', '3.0', ['hard-fail', 'hard-fail', 'pass']),
    c('E', '3.0', [], true),
    c('F', '3.0', []),
  ];

  test('success per target version and cumulative per round; model failures apart', () => {
    const f = repairFigures(cases, 3);
    assert.deepEqual(f.map((x) => [x.target, x.attempts, x.byRound.map((r) => r.repaired.successes), x.modelFailures]), [
      ['all', 4, [1, 2, 3], 1],
      ['2.0', 3, [1, 2, 2], 0],
      ['3.0', 1, [0, 0, 1], 1],
    ]);
    assert.deepEqual(f[0]!.byRound[0]!.repaired.ci, wilsonInterval(1, 4));
  });
});

describe('the plan and the facts of a run', () => {
  const sets: DriftTaskSetInput[] = [{ library: 'lib', tasks: [{ id: 't1', category: 'renamed', prompt: 'Using {library} {version}, do it. Implement f().', entryPoint: 'f', harness: 'def check(c): pass', solutions: [] }] }];
  const versions = new Map([['lib', ['2.0', '1.0', '3.0']]]);

  test('generation samples: every sample index over every task and version first', () => {
    const s = generationSamples(sets, versions, 2);
    assert.deepEqual(s.map((x) => x.id), ['drift:lib:t1@1.0#1', 'drift:lib:t1@2.0#1', 'drift:lib:t1@3.0#1', 'drift:lib:t1@1.0#2', 'drift:lib:t1@2.0#2', 'drift:lib:t1@3.0#2']);
    assert.equal(s[1]!.prompt[1]!.content, 'Using lib 2.0, do it. Implement f().');
  });

  test('repairs are due for samples that pass on their version and fail on a newer one; then for attempts that fail', () => {
    const samples = generationSamples(sets, versions, 1);
    const ex = new Map<string, { outcome: Outcome }>([
      ['drift:lib:t1@1.0#1\u00001.0', { outcome: 'pass' }],
      ['drift:lib:t1@1.0#1\u00002.0', { outcome: 'soft-fail' }],
      ['drift:lib:t1@1.0#1\u00003.0', { outcome: 'hard-fail' }],
      ['drift:lib:t1@2.0#1\u00002.0', { outcome: 'hard-fail' }], // fails on its own version: no repair
      ['drift:lib:t1@2.0#1\u00003.0', { outcome: 'hard-fail' }],
      ['drift:lib:t1@3.0#1\u00003.0', { outcome: 'pass' }],
    ]);
    const r1 = plannedRepairs(1, samples, ex, versions);
    assert.deepEqual(r1.map((p) => p.id), [repairId('drift:lib:t1@1.0#1', '2.0', 1), repairId('drift:lib:t1@1.0#1', '3.0', 1)]);
    // Round 2: the round-1 attempt on 3.0 failed, the one on 2.0 passed.
    const repairSamples = r1.map((p) => ({ ...samples[0]!, id: p.id, groundTruth: p.truth }));
    ex.set(`${r1[0]!.id}\u00002.0`, { outcome: 'pass' });
    ex.set(`${r1[1]!.id}\u00003.0`, { outcome: 'hard-fail' });
    const r2 = plannedRepairs(2, [...samples, ...repairSamples], ex, versions);
    assert.deepEqual(r2.map((p) => [p.id, p.truth.previous, p.truth.round]), [[repairId('drift:lib:t1@1.0#1', '3.0', 2), r1[1]!.id, 2]]);

    // The facts: generation executions, and one repair case per (sample, target) with its rounds.
    const r2Sample = { ...samples[0]!, id: r2[0]!.id, groundTruth: r2[0]!.truth };
    ex.set(`${r2[0]!.id}\u00003.0`, { outcome: 'pass' });
    const rows = [...samples.map((s) => ({ sample: s, status: 'answered' as const })), ...repairSamples.map((s) => ({ sample: s, status: 'answered' as const })), { sample: r2Sample, status: 'answered' as const }];
    const execs = [...ex.entries()].map(([k, v]) => ({ sampleId: k.split('\u0000')[0]!, environment: k.split('\u0000')[1]!, outcome: v.outcome, errorType: v.outcome === 'hard-fail' ? 'AttributeError' : null, extraction: 'fenced' as const }));
    const facts = driftFacts(rows, execs);
    assert.equal(facts.executions.length, 6);
    assert.deepEqual(facts.generations, { samples: 3, answered: 3, modelFailures: 0, pending: 0, noCode: 0 });
    assert.deepEqual(facts.repairs.map((r) => [r.target, r.rounds.map((x) => x.outcome)]), [['2.0', ['pass']], ['3.0', ['hard-fail', 'pass']]]);
  });
});
