// Evidence changes are not evolution (issue 22, point 4): signatures compared by what a caller can pass, and the
// runtime's and static extraction's readings of one version reconciled when the matrix is built. Expectations
// worked out by hand on synthetic signatures and surfaces.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Parameter, Signature } from '../server/src/core/api-model.js';
import { callerShape, forwardsTo, oneSignatureForCallers, sameForCallers } from '../server/src/core/caller-signature.js';
import { timelineChanges } from '../server/src/core/hover.js';
import { evolutionOver } from '../server/src/eval/libevobench/datasets/sampling.js';
import { betterSignature } from '../server/src/store/better-signature.js';
import { buildMatrix } from '../server/src/store/matrix-builder.js';
import { SqliteMatrix } from '../server/src/store/sqlite-matrix.js';
import type { SurfaceSignature } from '../server/src/store/surface.js';
import type { VersionEvidence } from '../server/src/store/version-evidence.js';
import { api, p, surface } from './support/synthetic-matrix.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

const sig = (...parameters: Parameter[]): Signature => ({ parameters });
const forwarding = sig(p('a'), p('args', 'varpos'), p('params', 'vkw'));
const maskedAll = sig(p('a'), p('axis', 'poskw', 'None'), p('out', 'poskw', 'None'), p('keepdims', 'poskw', '<no value>'));
const anything = sig(p('args', 'varpos'), p('kwargs', 'vkw'));
const seeded = sig(p('seed', 'poskw', 'None'));
const closed = (...keywords: string[]): Parameter => ({ ...p('kwargs', 'vkw'), keywords });

describe('signatures compared by what a caller can pass', () => {
  const cases: [string, Signature, Signature, boolean][] = [
    ['a forwarding wrapper and the method it forwards to (numpy.ma.all)', forwarding, maskedAll, true],
    ['a docstring read as (*args, **kwargs) and the real parameters (default_rng)', anything, seeded, true],
    ['positional-only names, which no caller can write', sig(p('x', 'pos')), sig(p('y', 'pos')), true],
    ['keyword-only order and default texts', sig(p('x'), p('b', 'kw', '1'), p('a', 'kw', '2')), sig(p('x'), p('a', 'kw', '3'), p('b', 'kw', 'None')), true],
    ['the names of *args and **kwargs', anything, sig(p('a', 'varpos'), p('k', 'vkw')), true],
    ['a parameter added, no catch-all', sig(p('x')), sig(p('x'), p('y', 'poskw', 'None')), false],
    ['a second positional that **kwargs cannot take', sig(p('a'), p('kwargs', 'vkw')), sig(p('a'), p('b')), false],
    ['a keyword that *args cannot take', sig(p('a'), p('args', 'varpos')), sig(p('a'), p('k', 'kw', 'None')), false],
    ['a renamed leading parameter', sig(p('b'), p('args', 'varpos'), p('kw', 'vkw')), maskedAll, false],
    ['a leading parameter that became optional', forwarding, sig(p('a', 'poskw', 'None'), p('axis', 'poskw', 'None')), false],
    ['a required keyword-only parameter the other never passes', sig(p('a'), p('k', 'kw'), p('kw', 'vkw')), sig(p('a'), p('z', 'poskw', '1')), false],
    ['a required parameter made optional beside a catch-all (ast.Call in Python 3.13)', sig(p('func'), p('args'), p('kwargs', 'vkw')), sig(p('func'), p('args', 'poskw', '...'), p('kwargs', 'vkw')), false],
    ['a keyword **kwargs took before, named now', sig(p('a'), p('kwargs', 'vkw')), sig(p('a'), p('k', 'kw', 'None'), p('kwargs', 'vkw')), true],
    ['a named keyword made required beside **kwargs', sig(p('a'), p('k', 'kw', 'None'), p('kwargs', 'vkw')), sig(p('a'), p('k', 'kw'), p('kwargs', 'vkw')), false],
    ['a wrapper over a function of no parameters', anything, sig(), true],
    ['positional-only against positional-or-keyword', sig(p('x', 'pos'), p('args', 'varpos'), p('kw', 'vkw')), sig(p('x'), p('y')), false],
    // a **kwargs resolved to the keywords it forwards (issue 19, class 3) takes those only
    ['forwarded keywords and the same ones named', sig(p('x'), closed('color', 'label')), sig(p('x'), p('color', 'kw', 'None'), p('label', 'kw', 'None')), true],
    ['forwarded keywords read at one version, an unresolved **kwargs at the next', sig(p('x'), closed('color')), sig(p('x'), p('kwargs', 'vkw')), true],
    ['a keyword the callee gained, forwarded', sig(p('x'), closed('color')), sig(p('x'), closed('alpha', 'color')), false],
    ['a named keyword the forwarded ones lack', sig(p('x'), closed('color')), sig(p('x'), p('alpha', 'kw', 'None'), p('color', 'kw', 'None')), false],
  ];
  for (const [what, a, b, same] of cases) {
    test(`${what}: ${same ? 'the same' : 'a change'}`, () => {
      assert.equal(sameForCallers(a, b), same);
      assert.equal(sameForCallers(b, a), same);
    });
  }

  test('the shape a caller sees', () => {
    assert.equal(callerShape(sig(p('self', 'pos'), p('x'), p('args', 'varpos'), p('z', 'kw'), p('a', 'kw', '1'), p('kw', 'vkw'))), '/,x,*,**,:a=,:z');
    assert.ok(forwardsTo(forwarding, maskedAll));
    assert.ok(!forwardsTo(maskedAll, forwarding), 'ma.all(x, 1, 2, 3, 4) binds to the wrapper only');
  });

  test('an API is one signature when every two of its readings are the same to a caller', () => {
    assert.ok(oneSignatureForCallers([forwarding, maskedAll, sig(p('a'), p('axis', 'poskw', '0'), p('out', 'poskw', 'None'), p('keepdims', 'poskw', 'False'))]));
    // Each concrete reading agrees with the catch-all, not with each other.
    assert.ok(!oneSignatureForCallers([anything, sig(p('x')), sig(p('y'))]));
    assert.ok(oneSignatureForCallers([]));
  });
});

describe('one version read twice: the better signature', () => {
  const s = (signature: Signature, source: SurfaceSignature['source'], returns: string | null = null): SurfaceSignature => ({ ...signature, source, returns });
  test('a runtime reading that loses parameters yields to static extraction, keeping its return annotation', () => {
    assert.deepEqual(betterSignature(s(anything, 'docstring', 'Generator'), s(seeded, 'inspect')), s(seeded, 'inspect', 'Generator'));
  });
  test('the runtime stays where it names more than static extraction (the forwarded parameters)', () => {
    const runtime = s(maskedAll, 'inspect');
    assert.equal(betterSignature(runtime, s(forwarding, 'inspect')), runtime);
  });
  test('a docstring reading yields to one from the definition; two definitions: the runtime', () => {
    assert.deepEqual(betterSignature(s(sig(p('x'), p('y')), 'docstring'), s(sig(p('x')), 'inspect')), s(sig(p('x')), 'inspect'));
    const runtime = s(sig(p('x'), p('y')), 'inspect');
    assert.equal(betterSignature(runtime, s(sig(p('x')), 'inspect')), runtime);
    // The same to a caller: the docstring's default texts stay (a stub writes `...`).
    const docstring = s(sig(p('x', 'pos'), p('minlength', 'poskw', '0')), 'docstring');
    assert.equal(betterSignature(docstring, s(sig(p('x', 'pos'), p('minlength', 'poskw', '...')), 'stub')), docstring);
  });
  test('an unresolved **kwargs yields to a reading that resolved the keywords it forwards; two resolutions: the runtime', () => {
    const open = s(sig(p('x'), p('kwargs', 'vkw')), 'inspect');
    const resolved = s(sig(p('x'), closed('color', 'label')), 'inspect');
    assert.equal(betterSignature(open, resolved), resolved);
    assert.equal(betterSignature(resolved, open), resolved);
    const fewer = s(sig(p('x'), closed('color')), 'inspect');
    assert.equal(betterSignature(fewer, resolved), fewer);
  });
  test('a stub that leaves out keywords the runtime\'s docstring names is not the better reading (numpy 2.2\'s StringDType)', () => {
    const docstring = s(sig(p('na_object', 'kw', 'np._NoValue'), p('coerce', 'kw', 'True')), 'docstring');
    assert.equal(betterSignature(docstring, s(sig(), 'stub')), docstring);
    // read from the definition itself, it is
    assert.deepEqual(betterSignature(docstring, s(sig(), 'inspect')), s(sig(), 'inspect'));
    // a stub that names them all still is (default texts and order from the definition's side)
    const stub = s(sig(p('coerce', 'kw', 'True'), p('na_object', 'kw', '...'), p('extra', 'kw', 'None')), 'stub');
    assert.equal(betterSignature(docstring, stub), stub);
  });
  test('a runtime without a signature takes the other; no other: the runtime', () => {
    assert.deepEqual(betterSignature(null, s(seeded, 'inspect')), s(seeded, 'inspect'));
    assert.equal(betterSignature(null, null), null);
  });
});

describe('the matrix builder reconciles the evidence of each version', () => {
  // Three versions; 1.1 has a runtime as well as static extraction. rng: the 1.1 runtime read its docstring as
  // (*args, **kwargs) (numpy 1.19.5's default_rng); all: static extraction reads the forwarding wrapper everywhere,
  // the 1.1 runtime the forwarded parameters (numpy.ma.all); grow: a real change, y added in 1.2.
  const statics = (version: string) => surface('lib', version, [
    api('lib', 'module'),
    api('lib.rng', 'function', seeded.parameters),
    api('lib.all', 'function', forwarding.parameters),
    api('lib.grow', 'function', version === '1.2' ? [p('x'), p('y', 'poskw', 'None')] : [p('x')]),
  ], { provenance: { source: 'static' } });
  const runtime = surface('lib', '1.1', [
    api('lib', 'module'),
    { ...api('lib.rng', 'function'), signature: { ...anything, source: 'docstring', returns: 'Generator' } },
    api('lib.all', 'function', maskedAll.parameters),
    api('lib.grow', 'function', [p('x')]),
  ]);
  const evidence: VersionEvidence[] = [
    { version: '1.0', static: statics('1.0') },
    { version: '1.1', runtime, static: statics('1.1') },
    { version: '1.2', static: statics('1.2') },
  ];
  const file = join(mkdtempSync(join(tmpdir(), 'anachron-callers-')), 'lib.sqlite');
  buildMatrix(evidence, file, { builtAt: '2026-01-01' });

  test('the 1.1 cell of rng has the parameters static extraction read, with the runtime\'s return annotation', () => {
    const m = new SqliteMatrix(file);
    const cell = m.lookup('lib.rng')!.versions[1]!;
    assert.deepEqual(cell.signature, seeded);
    assert.equal(cell.returns, 'Generator');
    // all keeps the runtime's forwarded parameters at 1.1
    assert.deepEqual(m.lookup('lib.all')!.versions[1]!.signature, maskedAll);
    m.close();
  });

  test('stable and evolving, the signatures changed per version and the hover\'s changes', () => {
    const m = new SqliteMatrix(file);
    const labels = Object.fromEntries(['lib.rng', 'lib.all', 'lib.grow'].map((path) => [path, m.groundTruth(path)!.evolution]));
    assert.deepEqual(labels, { 'lib.rng': 'stable', 'lib.all': 'stable', 'lib.grow': 'evolving' });
    assert.deepEqual(m.versionInfo.map((v) => v.stats.signatures_changed), [0, 0, 1]);
    assert.deepEqual(timelineChanges(m.lookup('lib.rng')!), []);
    assert.deepEqual(timelineChanges(m.lookup('lib.all')!), []);
    assert.deepEqual(timelineChanges(m.lookup('lib.grow')!).map((c) => c.text), ['`y` added in 1.2']);
    // The benchmark's relabelling over a run's versions compares as the builder does (issue 22, point 4): all is the
    // wrapper at 1.0 and 1.2 and the forwarded parameters at 1.1, one signature to a caller (SR accepts either
    // reading). rng's is (seed=None) everywhere now.
    assert.equal(evolutionOver(m.groundTruth('lib.all')!, ['1.0', '1.1', '1.2']), 'stable');
    assert.equal(evolutionOver(m.groundTruth('lib.rng')!, ['1.0', '1.1', '1.2']), 'stable');
    assert.equal(evolutionOver(m.groundTruth('lib.grow')!, ['1.0', '1.1']), 'stable');
    assert.equal(evolutionOver(m.groundTruth('lib.grow')!, ['1.1', '1.2']), 'evolving');
    m.close();
  });
});
