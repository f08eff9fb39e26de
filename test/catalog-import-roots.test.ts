// A matrix that answers for modules besides its own name (python: os, sys, builtins, tomllib…) is found by the lazy
// catalog through matrices/import-roots.json, without opening the other matrices; without that index, by opening
// every matrix once; a broken index is reported and the matrices are opened instead.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { IMPORT_ROOTS_FILE, openMatrixCatalog } from '../server/src/store/catalog.js';

const bundled = join(__dirname, '..', 'matrices');

function folder(withIndex: string | null): string {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-roots-'));
  for (const name of ['python.sqlite', 'numpy.sqlite']) copyFileSync(join(bundled, name), join(dir, name));
  if (withIndex !== null) writeFileSync(join(dir, IMPORT_ROOTS_FILE), withIndex);
  return dir;
}

test('the bundled index names the standard library for the python matrix', () => {
  const catalog = openMatrixCatalog(bundled);
  try {
    for (const root of ['os', 'sys', 'builtins', 'tomllib', 'asyncore', 'itertools']) assert.equal(catalog.forImportRoot(root)?.library, 'python', root);
    assert.equal(catalog.forImportRoot('numpy')?.library, 'numpy');
    assert.equal(catalog.forImportRoot('requests'), undefined);
    assert.deepEqual(catalog.problems, []);
  } finally {
    catalog.close();
  }
});

test('with the index, only the matrix asked for is opened', () => {
  const catalog = openMatrixCatalog(folder(JSON.stringify({ python: ['os', 'sys'] })));
  try {
    assert.equal(catalog.forImportRoot('os')?.library, 'python');
    assert.equal(catalog.forImportRoot('tomllib'), undefined, 'only what the index lists');
  } finally {
    catalog.close();
  }
});

test('without an index, or with a broken one, every matrix is opened once to find the roots', () => {
  for (const index of [null, '{"python": "os"}', 'not json']) {
    const catalog = openMatrixCatalog(folder(index));
    try {
      assert.equal(catalog.forImportRoot('tomllib')?.library, 'python');
      assert.equal(catalog.problems.length, index === null ? 0 : 1, catalog.problems.join('; '));
    } finally {
      catalog.close();
    }
  }
});
