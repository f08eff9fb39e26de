import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ApiHistory } from '../server/src/core/api-model.js';
import { cellDeciding, stateAt } from '../server/src/core/version-state.js';
import { compareVersions, placeVersion, satisfies, sortVersions } from '../server/src/core/versions.js';

describe('PEP 440 versions', () => {
  test('sorts pre-releases, post-releases and local versions as PEP 440 does', () => {
    assert.deepEqual(sortVersions(['2.0.0', '1.13.1+cu117', '2.0.0rc1', '1.9', '1.13.1', '1.13.1.post1']), [
      '1.9', '1.13.1', '1.13.1+cu117', '1.13.1.post1', '2.0.0rc1', '2.0.0',
    ]);
    assert.ok(compareVersions('1.24.2', '1.24.10') < 0);
  });

  test('evaluates specifiers with commas, ~= and !=', () => {
    assert.ok(satisfies('1.24.2', '>=1.21,<1.25'));
    assert.ok(!satisfies('1.25.0', '>=1.21,<1.25'));
    assert.ok(satisfies('1.24.4', '~=1.24.0'));
    assert.ok(!satisfies('1.25.0', '~=1.24.0'));
    assert.ok(!satisfies('1.24.2', '!=1.24.2'));
  });

  test('places a version among tracked ones', () => {
    const tracked = ['1.19.5', '1.24.2', '2.2.4'];
    assert.deepEqual(placeVersion('1.24.2', tracked), { kind: 'exact', index: 1 });
    assert.deepEqual(placeVersion('1.26.4', tracked), { kind: 'between', below: 1, above: 2 });
    assert.deepEqual(placeVersion('1.16.0', tracked), { kind: 'between', below: null, above: 0 });
    assert.deepEqual(placeVersion('2.5.0', tracked), { kind: 'between', below: 2, above: null });
  });
});

describe('state at a pinned version', () => {
  const tracked = ['1.0', '2.0', '3.0'];
  const history = (states: ('present' | 'absent')[]): ApiHistory => ({
    api: 'lib.f',
    library: 'lib',
    kind: 'function',
    versions: states.map((state, i) => ({ version: tracked[i]!, state, kind: 'function', signature: null, signatureSource: null, returns: null, doc: null })),
  });

  // title, the states at the tracked versions, the version asked, the state it reads, and (where it matters) why
  const cases: [string, ('present' | 'absent')[], string, string, string?][] = [
    ['a tracked version reads its own cell', ['absent', 'present', 'present'], '1.0', 'absent'],
    ['between two agreeing neighbours the state is known', ['absent', 'present', 'present'], '2.5', 'present', 'interpolated'],
    ['between disagreeing neighbours the state is unknown', ['absent', 'present', 'present'], '1.5', 'unknown'],
    ['outside the tracked span the nearest tracked version stands in', ['present', 'present', 'absent'], '4.0', 'absent', 'extrapolated'],
  ];
  for (const [title, states, version, state, basis] of cases) {
    test(title, () => {
      const s = stateAt(history(states), version, tracked);
      assert.equal(s.state, state);
      if (basis !== undefined) assert.equal(s.basis, basis);
    });
  }
});

describe('a fact between two tracked versions whose signatures differ', () => {
  const tracked = ['1.0', '1.2'];
  const param = (name: string, d: string | null = null) => ({ name, kind: 'positional_or_keyword' as const, default: d });
  // 1.0 and 1.2 differ in a default (the whole signatures are not equal); neither takes `c`; only 1.2 takes `b`.
  const history: ApiHistory = {
    api: 'lib.f', library: 'lib', kind: 'function',
    versions: [
      { version: '1.0', state: 'present', kind: 'function', signature: { parameters: [param('a', '1')] }, signatureSource: 'inspect', returns: 'int', doc: null },
      { version: '1.2', state: 'present', kind: 'function', signature: { parameters: [param('a', '2'), param('b')] }, signatureSource: 'docstring', returns: 'int', doc: null },
    ],
  };
  const at = stateAt(history, '1.1', tracked);
  const takes = (name: string) => (c: { signature: { parameters: { name: string }[] } | null }) => (c.signature ? String(c.signature.parameters.some((p) => p.name === name)) : null);

  test('the whole signature is not inferred', () => assert.equal(at.cell, null));
  test('a keyword both neighbours lack is decided, by the weaker evidence of the two', () => {
    assert.equal(cellDeciding(at, takes('c'))?.version, '1.2');
  });
  test('a keyword both neighbours take is decided', () => assert.notEqual(cellDeciding(at, takes('a')), null));
  test('a keyword the neighbours disagree on is not', () => assert.equal(cellDeciding(at, takes('b')), null));
  test('a return type both record is decided', () => assert.equal(cellDeciding(at, (c) => c.returns)?.returns, 'int'));
  test('at a tracked version the own cell answers', () => assert.equal(cellDeciding(stateAt(history, '1.0', tracked), takes('b'))?.version, '1.0'));
});
