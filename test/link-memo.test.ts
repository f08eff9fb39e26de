// Linking again after an edit (core/python/references.ts LinkMemo, held by the language server's ChunkFactsCache):
// a chunk whose facts are kept, that no other chunk's guard reaches into and whose names mean what they meant keeps
// its reference objects, relative to its start, wherever the edit moved it; every analysis equals a fresh one, also
// where a later edit guards a reused reference (a polyfill), rebinds a name it uses, or guards it from another chunk.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { fileSyntax, newChunkFactsCache, type ChunkFactsCache, type FileSyntax } from '../server/src/core/python/file-syntax.js';
import type { ApiReference } from '../server/src/core/python/references.js';
import { loadPythonParser, type PythonParser } from '../server/src/parser/python-parser.js';

let parser: PythonParser;
before(async () => {
  parser = await loadPythonParser();
});

function analyse(text: string, cache?: ChunkFactsCache): FileSyntax {
  const tree = parser.parse(text);
  try {
    return fileSyntax(tree, text, cache);
  } finally {
    tree.delete();
  }
}

/** Every chunk's relative references, as one list (the objects the checker's memo knows). */
function relative(syntax: FileSyntax): ApiReference[] {
  return syntax.referenceChunks.flatMap(({ refs }) => [...refs.imports, ...refs.fromImports, ...refs.attributes, ...refs.names]);
}

/** An analysis with the cache equals a fresh one: the placed references and the chunk-wise ones. */
function same(text: string, cache: ChunkFactsCache): FileSyntax {
  const kept = analyse(text, cache);
  const fresh = analyse(text);
  assert.deepEqual(kept.references, fresh.references);
  assert.deepEqual(kept.referenceChunks, fresh.referenceChunks);
  return kept;
}

const BASE = ['import numpy as np', '', 'def area(y):', '    return np.trapezoid(y, dx=2)', '', 'total = np.unique([1], equal_nan=True)', '', 'def plain(values):', '    return sorted(values)', ''].join('\n');

describe('linking with a memo', () => {
  test('unchanged chunks give the same reference objects, also where an edit above moved them', () => {
    const cache = newChunkFactsCache();
    const first = relative(same(BASE, cache));
    assert.ok(first.filter((r) => r.origin === 'attribute').length >= 2, JSON.stringify(first));
    const again = relative(same(BASE, cache));
    assert.equal(cache.links.linked, 0, 'nothing linked again for an unchanged text');
    assert.ok(again.length === first.length && again.every((r, i) => r === first[i]), 'the same objects for an unchanged text');
    // A comment added at the top moves every chunk: their references stay the same objects, placed anew.
    const moved = `# a comment\n\n${BASE}`;
    const after = same(moved, cache);
    assert.equal(cache.links.linked, 1, 'only the comment, a chunk of its own, is linked');
    assert.ok(relative(after).every((r, i) => r === first[i]));
    assert.equal(after.references.find((r) => r.prefixes.at(-1)?.path === 'numpy.trapezoid')!.prefixes[0]!.range.start.line, 5);
    // A line added at the end: the old chunks keep their objects, the new one is linked.
    const appended = `${moved}x = np.zeros(3)\n`;
    const third = relative(same(appended, cache));
    assert.equal(cache.links.linked, 1);
    assert.ok(first.every((r) => third.includes(r)));
  });

  test('a polyfill added later guards a reused reference without changing what earlier analyses gave', () => {
    const cache = newChunkFactsCache();
    const before = same(BASE, cache).references;
    const trapezoid = before.find((r) => r.prefixes.at(-1)?.path === 'numpy.trapezoid')!;
    assert.equal(trapezoid.guarded, false);
    const polyfilled = `${BASE}np.trapezoid = np.trapz\n`;
    const withPolyfill = same(polyfilled, cache).references;
    assert.equal(withPolyfill.find((r) => r.prefixes.at(-1)?.path === 'numpy.trapezoid' && r.origin === 'attribute' && r.call)!.guarded, true);
    assert.equal(trapezoid.guarded, false, 'the earlier reference is not changed');
    const back = same(BASE, cache).references;
    assert.equal(back.find((r) => r.prefixes.at(-1)?.path === 'numpy.trapezoid')!.guarded, false);
  });

  test('a name bound anew relinks the chunks that read it, and only those', () => {
    const cache = newChunkFactsCache();
    const first = same(BASE, cache);
    const plainRefs = first.referenceChunks.at(-1)!.refs;
    assert.ok(plainRefs.names.some((r) => r.builtin), 'sorted is a builtin');
    const rebound = same(BASE.replace('import numpy as np', 'import numpy.linalg as np'), cache);
    assert.equal(rebound.referenceChunks.at(-1)!.refs, plainRefs, 'a chunk that does not read np keeps its references');
    assert.ok(relative(rebound).some((r) => r.prefixes.at(-1)?.path === 'numpy.linalg.trapezoid'));
    // Binding `sorted` in another chunk makes it no builtin: the chunk that calls it is linked again.
    const shadowed = same(`${BASE}sorted = list\n`, cache);
    assert.notEqual(shadowed.referenceChunks.at(-2)!.refs, plainRefs);
    assert.ok(!shadowed.referenceChunks.at(-2)!.refs.names.some((r) => r.builtin));
  });

  test("a chunk another chunk's guard reaches into is linked again, and stays equal to a fresh analysis", () => {
    const cache = newChunkFactsCache();
    const guarded = ['import numpy as np', 'if not hasattr(np, "trapezoid"):', '    raise ImportError("numpy too old")', '', 'def area(y):', '    return np.trapezoid(y)', ''].join('\n');
    const first = same(guarded, cache);
    assert.equal(first.references.find((r) => r.prefixes.at(-1)?.path === 'numpy.trapezoid')!.guarded, true);
    // Moved, and the guard dropped: the use is no longer guarded.
    same(`# top\n${guarded}`, cache);
    const unguarded = same(guarded.replace('if not hasattr(np, "trapezoid"):\n    raise ImportError("numpy too old")\n', ''), cache);
    assert.equal(unguarded.references.find((r) => r.prefixes.at(-1)?.path === 'numpy.trapezoid')!.guarded, false);
    const back = same(guarded, cache);
    assert.equal(back.references.find((r) => r.prefixes.at(-1)?.path === 'numpy.trapezoid')!.guarded, true);
  });
});
