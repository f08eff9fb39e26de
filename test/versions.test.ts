import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ApiHistory } from '../server/src/core/api-model.js';
import { stateAt } from '../server/src/core/version-state.js';
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
