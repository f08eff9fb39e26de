// Where an API came or went, between the tracked columns, and which release a bisection step fetches next
// (server/src/core/boundaries.ts), on a synthetic matrix: toylib tracked at 1.0, 3.0 and 5.0; `new_api` there from
// 3.0, `old_api` gone at 5.0, `scale` taking `ratio` from 3.0.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bracketsAround, nextBisectionVersions } from '../server/src/core/boundaries.js';
import type { LibraryMatrix } from '../server/src/core/api-model.js';
import { openMatrixCatalog, type LoadedCatalog } from '../server/src/store/catalog.js';
import { api, buildSyntheticMatrices, p, surface } from './support/synthetic-matrix.js';

const RELEASES = ['1.0', '1.5', '2.0', '2.5', '3.0', '4.0', '5.0'];

describe('boundaries between tracked columns', () => {
  let catalog: LoadedCatalog;
  let matrix: LibraryMatrix;
  before(() => {
    const at = (v: string) =>
      surface('toylib', v, [
        api('toylib', 'module'),
        ...(v === '1.0' ? [] : [api('toylib.new_api', 'function', [])]),
        ...(v === '5.0' ? [] : [api('toylib.old_api', 'function', [])]),
        api('toylib.scale', 'function', [p('x'), v === '1.0' ? p('factor', 'poskw', '1') : p('ratio', 'poskw', '1')]),
      ]);
    catalog = openMatrixCatalog(buildSyntheticMatrices(['1.0', '3.0', '5.0'].map(at)));
    matrix = catalog.forImportRoot('toylib')!;
  });
  after(() => catalog.close());

  const cases = [
    { name: 'an API added after the pin: the bracket above it, its middle release next', q: { api: 'toylib.new_api', parameter: null, pinned: '1.0' }, expected: [{ subject: 'toylib.new_api', change: 'added', low: '1.0', high: '3.0', between: ['1.5', '2.0', '2.5'], next: '2.0' }] },
    { name: 'an API removed after the pin', q: { api: 'toylib.old_api', parameter: null, pinned: '3.0' }, expected: [{ subject: 'toylib.old_api', change: 'removed', low: '3.0', high: '5.0', between: ['4.0'], next: '4.0' }] },
    { name: 'a keyword added after the pin', q: { api: 'toylib.scale', parameter: 'ratio', pinned: '1.0' }, expected: [{ subject: 'toylib.scale(ratio=)', change: 'added', low: '1.0', high: '3.0', between: ['1.5', '2.0', '2.5'], next: '2.0' }] },
    { name: 'an untracked pin looks both ways from its neighbours', q: { api: 'toylib.new_api', parameter: null, pinned: '4.0' }, expected: [{ subject: 'toylib.new_api', change: 'added', low: '1.0', high: '3.0', between: ['1.5', '2.0', '2.5'], next: '2.0' }] },
    { name: 'no change anywhere: nothing to narrow', q: { api: 'toylib.scale', parameter: 'x', pinned: '1.0' }, expected: [] },
  ];
  for (const c of cases) test(c.name, () => assert.deepEqual(bracketsAround(matrix, c.q, RELEASES), c.expected));

  test('consecutive releases: the boundary is exact, nothing more to fetch', () => {
    const [b] = bracketsAround(matrix, { api: 'toylib.old_api', parameter: null, pinned: '3.0' }, ['3.0', '5.0']);
    assert.deepEqual([b!.between, b!.next], [[], null]);
  });

  test('a round fetches each open bracket’s middle once, ascending, never a tracked version', () => {
    const round = nextBisectionVersions(matrix, [{ api: 'toylib.new_api', parameter: null, pinned: '1.0' }, { api: 'toylib.scale', parameter: 'ratio', pinned: '1.0' }, { api: 'toylib.old_api', parameter: null, pinned: '1.0' }], RELEASES);
    assert.deepEqual(round.map((r) => r.version), ['2.0', '4.0']);
    assert.deepEqual(nextBisectionVersions(matrix, [{ api: 'toylib.old_api', parameter: null, pinned: '3.0' }], RELEASES).map((r) => r.version), ['4.0']);
  });
});
