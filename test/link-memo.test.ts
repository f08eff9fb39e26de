// Linking again after an edit (core/python/references.ts LinkMemo, held by the language server's ChunkFactsCache):
// a use (an attribute chain or a name) whose chunk, binding and guards are as they were gives the same reference
// object, and every analysis equals a fresh one, also where a later edit guards a reused reference (a polyfill) or
// moves it.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { fileSyntax, newChunkFactsCache, type ChunkFactsCache } from '../server/src/core/python/file-syntax.js';
import { loadPythonParser, type PythonParser } from '../server/src/parser/python-parser.js';

let parser: PythonParser;
before(async () => {
  parser = await loadPythonParser();
});

function analyse(text: string, cache?: ChunkFactsCache) {
  const tree = parser.parse(text);
  try {
    return fileSyntax(tree, text, cache);
  } finally {
    tree.delete();
  }
}

const BASE = ['import numpy as np', '', 'def area(y):', '    return np.trapezoid(y, dx=2)', '', 'total = np.unique([1], equal_nan=True)', ''].join('\n');

describe('linking with a memo', () => {
  test('unchanged uses give the same reference objects; each analysis equals a fresh one', () => {
    const cache = newChunkFactsCache();
    const first = analyse(BASE, cache).references;
    const again = analyse(BASE, cache).references;
    assert.deepEqual(again, analyse(BASE).references);
    const linked = (r: (typeof first)[number]) => r.origin === 'attribute' || r.origin === 'name';
    assert.ok(first.filter(linked).length >= 2, JSON.stringify(first));
    assert.ok(again.every((r, i) => !linked(r) || r === first[i]), 'the same objects for an unchanged text');
    // A line added at the end moves nothing: the same objects again.
    const appended = `${BASE}x = 1\n`;
    const third = analyse(appended, cache).references;
    assert.deepEqual(third, analyse(appended).references);
    assert.ok(first.filter(linked).every((r) => third.includes(r)));
  });

  test('a polyfill added later guards a reused reference without changing what earlier analyses gave', () => {
    const cache = newChunkFactsCache();
    const before = analyse(BASE, cache).references;
    const trapezoid = before.find((r) => r.prefixes.at(-1)?.path === 'numpy.trapezoid')!;
    assert.equal(trapezoid.guarded, false);
    const polyfilled = `${BASE}np.trapezoid = np.trapz\n`;
    const withPolyfill = analyse(polyfilled, cache).references;
    assert.deepEqual(withPolyfill, analyse(polyfilled).references);
    assert.equal(withPolyfill.find((r) => r.prefixes.at(-1)?.path === 'numpy.trapezoid' && r.origin === 'attribute' && r.call)!.guarded, true);
    assert.equal(trapezoid.guarded, false, 'the earlier reference is not changed');
    const back = analyse(BASE, cache).references;
    assert.deepEqual(back, analyse(BASE).references);
    assert.equal(back.find((r) => r.prefixes.at(-1)?.path === 'numpy.trapezoid')!.guarded, false);
  });

  test('a use moved by an edit above it, or bound anew, is linked afresh', () => {
    const cache = newChunkFactsCache();
    const before = analyse(BASE, cache).references;
    const moved = `# a comment\n${BASE}`;
    const after = analyse(moved, cache).references;
    assert.deepEqual(after, analyse(moved).references);
    assert.ok(after.every((r) => !before.includes(r)) && after.length === before.length);
    const rebound = BASE.replace('import numpy as np', 'import numpy.linalg as np');
    assert.deepEqual(analyse(rebound, cache).references, analyse(rebound).references);
  });
});
