// Appendix D's evaluation sampling and the two declarative tasks (API-I, SR) on a hand-made ground truth: evolving
// APIs in full with every signature lifetime, the stable control group chosen once (C APIs, m versions) and shared by
// the tasks, one API-I query per non-na cell, one SR query per (API, version, signature), determinism.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Parameter } from '../server/src/core/api-model.js';
import type { GroundTruthHistory, GroundTruthState } from '../server/src/core/ground-truth.js';
import { buildDataset, DatasetError, type DatasetMatrix } from '../server/src/eval/libevobench/datasets/build.js';
import { evolutionOver, selectApis, signatureLifetimes, versionsInPickOrder } from '../server/src/eval/libevobench/datasets/sampling.js';
import { parsePrompt } from '../server/src/eval/libevobench/prompt-contract.js';
import { validateRunConfig } from '../server/src/eval/suites.js';
import { selectSamples } from '../server/src/eval/runs/samples.js';

const V = ['1.0', '2.0', '3.0', '4.0', '5.0', '6.0'];
const x: Parameter = { name: 'x', kind: 'positional_or_keyword', default: null };
const kw = (name: string, def = 'None'): Parameter => ({ name, kind: 'keyword_only', default: def });

type CellSpec = [GroundTruthState, Parameter[] | null, string | null];

function row(api: string, evolution: 'stable' | 'evolving', cells: CellSpec[], kind: GroundTruthHistory['kind'] = 'function'): GroundTruthHistory {
  return {
    api,
    kind,
    evolution,
    documentedEver: true,
    versions: cells.map(([state, parameters, doc], i) => ({ version: V[i]!, state, signature: parameters ? { parameters } : null, doc })),
  };
}

const all = (parameters: Parameter[] | null, doc: string | null): CellSpec[] => V.map(() => ['present', parameters, doc]);

function rows(): GroundTruthHistory[] {
  const out: GroundTruthHistory[] = [];
  for (let i = 0; i < 30; i++) {
    const n = String(i).padStart(2, '0');
    out.push(row(`lib.s${n}`, 'stable', all([x], `Compute transform number ${n} of the input array.`)));
  }
  // stable by shape, two default texts: two signature lifetimes
  out.push(row('lib.twofaced', 'stable', V.map((_, i) => ['present', [x, kw('dtype', i < 3 ? 'int64' : "<class 'int64'>")], 'Draw integers between two bounds.'])));
  const grow = (i: number) => (i < 2 ? [x] : i < 4 ? [x, kw('axis')] : [x, kw('axis'), kw('keepdims', 'False')]);
  out.push(row('lib.grow', 'evolving', V.map((_, i) => ['present', grow(i), 'Sum the values along an axis.'])));
  out.push(row('lib.added', 'evolving', V.map((_, i) => (i < 3 ? ['absent', null, null] : ['present', [x], 'Integrate with the trapezoidal rule.']))));
  out.push(row('lib.removed', 'evolving', V.map((_, i) => (i < 2 ? ['present', [x], 'Integrate using the old trapezoidal rule.'] : ['absent', null, null]))));
  // a rename: trapz until 2.0, trapezoid from 3.0 with the same documentation
  const trapz = 'Integrate along the given axis using the composite trapezoidal rule.';
  out.push(row('lib.trapz', 'evolving', V.map((_, i) => (i < 2 ? ['present', [x], trapz] : ['absent', null, null]))));
  out.push(row('lib.trapezoid', 'evolving', V.map((_, i) => (i < 2 ? ['absent', null, null] : ['present', [x], trapz]))));
  // na at 3.0 (no evidence either way), and a keyword added at 5.0
  out.push(row('lib.flaky', 'evolving', V.map((_, i) => (i === 2 ? ['na', null, null] : ['present', i < 4 ? [x] : [x, kw('kind')], 'Sort the array in place.']))));
  out.push(row('lib.nodoc', 'evolving', V.map((_, i) => ['present', i < 3 ? [x] : [x, kw('out')], null])));
  out.push(row('lib.Klass', 'evolving', V.map((_, i) => ['present', i < 5 ? [x] : [x, kw('copy', 'True')], 'A container of values.']), 'class'));
  out.push(row('lib.Klass.size', 'evolving', V.map((_, i) => (i < 1 ? ['absent', null, null] : ['present', null, 'Number of elements held.'])), 'property'));
  out.push(row('lib.Late', 'evolving', V.map((_, i) => (i < 2 ? ['absent', null, null] : ['present', [x], 'A queue of pending jobs.'])), 'class'));
  out.push(row('lib.Late.run', 'evolving', V.map((_, i) => (i < 2 ? ['absent', null, null] : ['present', [], 'Run every pending job now.'])), 'method'));
  out.push(row('lib', 'stable', all(null, 'The library.'), 'module'));
  return out;
}

function memoryMatrix(histories: GroundTruthHistory[]): DatasetMatrix {
  const byApi = new Map(histories.map((h) => [h.api, h]));
  return { library: 'lib', versions: V, apiPaths: () => [...byApi.keys()].sort(), groundTruth: (api) => byApi.get(api) };
}

const caps = { stableApis: 10, versionsPerApi: 2, snippetsPerCell: 1, apiCPerCell: 50 };

describe('signature lifetimes and the version choice', () => {
  test('lifetimes are runs of consecutive present versions with one signature', () => {
    const h = new Map(rows().map((r) => [r.api, r]));
    assert.deepEqual(signatureLifetimes(h.get('lib.grow')!).map((l) => l.versions), [['1.0', '2.0'], ['3.0', '4.0'], ['5.0', '6.0']]);
    assert.deepEqual(signatureLifetimes(h.get('lib.flaky')!).map((l) => l.versions), [['1.0', '2.0'], ['4.0'], ['5.0', '6.0']]);
    assert.deepEqual(signatureLifetimes(h.get('lib.added')!).map((l) => l.versions), [['4.0', '5.0', '6.0']]);
    assert.deepEqual(signatureLifetimes(h.get('lib.grow')!, ['1.0', '3.0', '4.0']).map((l) => l.versions), [['1.0'], ['3.0', '4.0']]);
    assert.deepEqual(signatureLifetimes(h.get('lib.twofaced')!).map((l) => l.versions), [['1.0', '2.0', '3.0'], ['4.0', '5.0', '6.0']]);
  });

  test('m versions of a stable API cover each of its signature lifetimes, whatever the seed', () => {
    const twofaced = rows().find((r) => r.api === 'lib.twofaced')!;
    for (let seed = 1; seed <= 40; seed++) {
      const two = versionsInPickOrder(twofaced, V, seed, 'lib').slice(0, 2);
      assert.ok(two.some((v) => v < '4.0') && two.some((v) => v >= '4.0'), `seed ${seed}: ${two.join(', ')}`);
    }
  });
});

describe('the stable control group and evolving APIs', () => {
  test('evolving APIs in full; C stable APIs with m versions each; seeded and order-independent', () => {
    const histories = rows();
    const a = selectApis('lib', histories, V, caps, 7);
    assert.deepEqual(a.evolving.map((h) => h.api).sort(), ['lib.Klass', 'lib.Klass.size', 'lib.Late', 'lib.Late.run', 'lib.added', 'lib.flaky', 'lib.grow', 'lib.nodoc', 'lib.removed', 'lib.trapezoid', 'lib.trapz']);
    assert.equal(a.stable.length, 10);
    for (const m of a.stable) assert.equal(m.versions.length, 2);
    const b = selectApis('lib', [...histories].reverse(), V, caps, 7);
    assert.deepEqual(b.stable.map((m) => [m.history.api, m.versions]), a.stable.map((m) => [m.history.api, m.versions]));
    const c = selectApis('lib', histories, V, caps, 8);
    assert.notDeepEqual(c.stable.map((m) => m.history.api), a.stable.map((m) => m.history.api));
    // C above the number of stable APIs takes them all
    assert.equal(selectApis('lib', histories, V, { ...caps, stableApis: 1000 }, 7).stable.length, 32);
  });

  test('API-I and SR: one query per answerable non-na cell and per signature cell; the same stable group in both', () => {
    const matrix = memoryMatrix(rows());
    const { samples, summary } = buildDataset({ libraries: ['lib'], tasks: ['API-I', 'SR'], sampling: caps, seed: 7 }, { matrices: [matrix] });
    const cells = (task: string, api: string) => samples.filter((s) => s.task === task && s.api === api).map((s) => s.version).sort();
    // API-I: every non-na cell with a description and a correct answer. An absent cell borrows the nearest documented
    // description, and is asked only where an equivalent stands in its place (the rename), never where no answer is
    // right (issue 22, point 2).
    assert.deepEqual(cells('API-I', 'lib.grow'), V);
    assert.deepEqual(cells('API-I', 'lib.added'), ['4.0', '5.0', '6.0']);
    assert.deepEqual(cells('API-I', 'lib.removed'), ['1.0', '2.0']);
    assert.deepEqual(cells('API-I', 'lib.trapz'), V);
    assert.deepEqual(cells('API-I', 'lib.trapezoid'), V);
    assert.deepEqual(cells('API-I', 'lib.flaky'), ['1.0', '2.0', '4.0', '5.0', '6.0']);
    assert.deepEqual(cells('API-I', 'lib.nodoc'), []);
    assert.deepEqual(cells('API-I', 'lib.Klass.size'), V.slice(1));
    assert.deepEqual(cells('API-I', 'lib'), []); // the root has no module path to show
    assert.deepEqual(cells('API-I', 'lib.Late'), V.slice(2)); // absent at 1.0 and 2.0, and nothing in its place
    assert.deepEqual(cells('API-I', 'lib.Late.run'), ['3.0', '4.0', '5.0', '6.0']); // no query into a class that does not exist yet
    // SR: present cells with a signature
    assert.deepEqual(cells('SR', 'lib.grow'), V);
    assert.deepEqual(cells('SR', 'lib.added'), ['4.0', '5.0', '6.0']);
    assert.deepEqual(cells('SR', 'lib.removed'), ['1.0', '2.0']);
    assert.deepEqual(cells('SR', 'lib.flaky'), ['1.0', '2.0', '4.0', '5.0', '6.0']);
    assert.deepEqual(cells('SR', 'lib.nodoc'), V);
    assert.deepEqual(cells('SR', 'lib.Klass.size'), []);
    // every signature lifetime of an evolving API is represented in SR
    for (const h of rows().filter((r) => r.evolution === 'evolving')) {
      const sr = new Set(cells('SR', h.api));
      for (const l of signatureLifetimes(h)) if (l.signature !== null) assert.ok(l.versions.some((v) => sr.has(v)), `${h.api} ${l.versions}`);
    }
    // the stable group: the same APIs at the same versions in both tasks
    const stableCells = (task: string) => samples.filter((s) => s.task === task && !s.evolving).map((s) => `${s.api}@${s.version}`).sort();
    assert.equal(stableCells('API-I').length, 20);
    assert.deepEqual(stableCells('API-I'), stableCells('SR'));
    const group = selectApis('lib', rows(), V, caps, 7).stable.flatMap((m) => m.versions.map((v) => `${m.history.api}@${v}`)).sort();
    assert.deepEqual(stableCells('SR'), group);
    // ground truth
    const absent = samples.find((s) => s.task === 'API-I' && s.api === 'lib.trapz' && s.version === '4.0')!;
    assert.deepEqual(absent.groundTruth, {
      api: 'lib.trapz', name: 'trapz', module: 'lib', kind: 'function', state: 'absent', presentIn: ['1.0', '2.0'],
      description: { from: '2.0', tier: 'medium' }, equivalents: ['lib.trapezoid'],
    });
    assert.deepEqual(parsePrompt(absent.prompt), { task: 'API-I', library: 'lib', version: '4.0', module: 'lib', description: 'Integrate along the given axis using the composite trapezoidal rule.' });
    const sr = samples.find((s) => s.task === 'SR' && s.api === 'lib.grow' && s.version === '4.0')!;
    assert.deepEqual(sr.groundTruth, {
      api: 'lib.grow', name: 'grow', kind: 'function', parameters: [x, kw('axis')], signature: 'grow(x, *, axis=None)', presentIn: V,
      signatures: V.map((v, i) => ({ version: v, parameters: i < 2 ? ['x'] : i < 4 ? ['x', 'axis'] : ['x', 'axis', 'keepdims'] })),
    });
    assert.equal(summary.libraries[0]!.tasks['API-I']!.stableApis, 10);
    assert.equal(summary.libraries[0]!.tasks.SR!.evolvingApis, 10);
    assert.equal(summary.libraries[0]!.surface, 43);
    const root = selectApis('lib', rows(), V, caps, 7).stable.find((m) => m.history.api === 'lib')?.versions.length ?? 0;
    assert.deepEqual(summary.build.libraries[0]!.apiI, { root, noDescription: 6, absentWithoutDescription: 0, parentMissing: 2, unanswerable: 10 });
  });

  test('stable and evolving over the selected versions, not every tracked one (issue 22, point 3)', () => {
    const h = new Map(rows().map((r) => [r.api, r]));
    // Every API the matrix labels evolving, over versions where it is present with one signature shape: stable.
    assert.equal(evolutionOver(h.get('lib.grow')!, ['1.0', '2.0']), 'stable');
    assert.equal(evolutionOver(h.get('lib.grow')!, ['2.0', '3.0']), 'evolving'); // axis added at 3.0
    assert.equal(evolutionOver(h.get('lib.added')!, ['4.0', '5.0', '6.0']), 'stable');
    assert.equal(evolutionOver(h.get('lib.added')!, ['3.0', '4.0']), 'evolving'); // absent at 3.0
    assert.equal(evolutionOver(h.get('lib.flaky')!, ['2.0', '3.0', '4.0']), 'stable'); // na at 3.0 is no change
    assert.equal(evolutionOver(h.get('lib.flaky')!, ['4.0', '5.0']), 'evolving');
    assert.equal(evolutionOver(h.get('lib.Klass.size')!, ['2.0', '6.0']), 'stable'); // a property: no signature
    assert.equal(evolutionOver(h.get('lib.twofaced')!, V), 'stable'); // default texts differ, the shape does not
    assert.equal(evolutionOver(h.get('lib.removed')!, ['3.0', '4.0']), 'evolving'); // absent throughout
    // Compared by what a caller can pass (issue 22, point 4): a forwarding wrapper read at 1.0–3.0 and its target's
    // parameters from 4.0 is one signature; a positional-only parameter renamed is none either; a keyword added is.
    const a: Parameter = { name: 'a', kind: 'positional_or_keyword', default: null };
    const wrapper = [a, { name: 'args', kind: 'var_positional', default: null }, { name: 'params', kind: 'var_keyword', default: null }] satisfies Parameter[];
    const forwarded = [a, { name: 'axis', kind: 'positional_or_keyword', default: 'None' }, { name: 'out', kind: 'positional_or_keyword', default: 'None' }] satisfies Parameter[];
    const reads = (at: (i: number) => Parameter[]) => row('lib.any', 'evolving', V.map((_, i) => ['present', at(i), 'Test whether any element is true.']));
    assert.equal(evolutionOver(reads((i) => (i < 3 ? wrapper : forwarded)), V), 'stable');
    assert.equal(evolutionOver(reads((i) => [{ name: i < 3 ? 'x' : 'obj', kind: 'positional_only', default: null }]), V), 'stable');
    assert.equal(evolutionOver(reads((i) => (i < 3 ? forwarded : [...forwarded, kw('where', 'True')])), V), 'evolving');
    assert.equal(evolutionOver(reads((i) => (i < 3 ? forwarded : [...forwarded, kw('where', 'True')])), ['1.0', '2.0', '3.0']), 'stable');
    // The dataset over 4.0–6.0: lib.added, lib.Late and lib.nodoc are stable there, so they are control-group
    // candidates with m versions, not evolving APIs in full; lib.grow and lib.flaky changed at 5.0, lib.Klass at 6.0.
    const { samples, summary } = buildDataset(
      { libraries: ['lib'], versions: { lib: ['4.0', '5.0', '6.0'] }, tasks: ['API-I', 'SR'], sampling: { ...caps, stableApis: 1000 }, seed: 7 },
      { matrices: [memoryMatrix(rows())] },
    );
    const flags = (api: string) => [...new Set(samples.filter((s) => s.api === api).map((s) => s.evolving))];
    for (const api of ['lib.added', 'lib.Late', 'lib.Late.run', 'lib.Klass.size', 'lib.nodoc', 'lib.trapezoid']) assert.deepEqual(flags(api), [false], api);
    for (const api of ['lib.grow', 'lib.flaky', 'lib.Klass']) assert.deepEqual(flags(api), [true], api);
    assert.deepEqual(samples.filter((s) => s.task === 'SR' && s.api === 'lib.added').map((s) => s.version).length, 2, 'm = 2 versions of a stable API');
    // evolving over 4.0–6.0: grow, flaky, Klass; trapz and removed are absent throughout, with no SR cell there
    assert.equal(summary.libraries[0]!.tasks.SR!.evolvingApis, 3);
  });

  test('same seed, byte-identical dataset; ids stable across seeds; limit spreads over the dataset', () => {
    const build = (seed: number, reverse = false) => buildDataset({ libraries: ['lib'], tasks: ['API-I', 'SR'], sampling: caps, seed }, { matrices: [memoryMatrix(reverse ? rows().reverse() : rows())] }).samples;
    const a = build(7);
    assert.equal(JSON.stringify(build(7)), JSON.stringify(a));
    assert.equal(JSON.stringify(build(7, true)), JSON.stringify(a));
    const b = build(8);
    assert.notEqual(JSON.stringify(b.map((s) => s.id)), JSON.stringify(a.map((s) => s.id)));
    const evolvingIds = (xs: typeof a) => xs.filter((s) => s.evolving).map((s) => s.id).sort();
    assert.deepEqual(evolvingIds(b), evolvingIds(a)); // the seed picks and orders samples, never renames them
    assert.equal(new Set(a.map((s) => s.id)).size, a.length);
    const first = selectSamples(a, { limit: 20 }).samples;
    assert.ok(new Set(first.map((s) => s.version)).size >= 4, 'the first samples cover many versions');
  });

  test('a run config is a dataset config', () => {
    const config = validateRunConfig({ suite: 'libevobench', libraries: ['lib'], tasks: ['API-I', 'SR'], model: { provider: 'builtin', model: 'echo' }, sampling: caps, seed: 7, limit: 10 });
    const fromRun = buildDataset(config, { matrices: [memoryMatrix(rows())] });
    const direct = buildDataset({ libraries: ['lib'], tasks: ['API-I', 'SR'], sampling: caps, seed: 7 }, { matrices: [memoryMatrix(rows())] });
    assert.equal(JSON.stringify(fromRun), JSON.stringify(direct));
  });

  test('a version subset; an untracked version or a missing matrix is an error', () => {
    const matrix = memoryMatrix(rows());
    const { samples } = buildDataset({ libraries: ['lib'], versions: { lib: ['5.0', '1.0', '3.0'] }, tasks: ['API-I', 'SR'], sampling: caps, seed: 7 }, { matrices: [matrix] });
    assert.deepEqual([...new Set(samples.map((s) => s.version))].sort(), ['1.0', '3.0', '5.0']);
    assert.throws(() => buildDataset({ libraries: ['lib'], versions: { lib: ['9.9'] }, tasks: ['SR'], seed: 1 }, { matrices: [matrix] }), DatasetError);
    assert.throws(() => buildDataset({ libraries: ['other'], tasks: ['SR'], seed: 1 }, { matrices: [matrix] }), /no matrix for other/);
  });
});
