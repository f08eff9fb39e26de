// The analysis reads plain copies of a tree's chunks (core/python/syntax-tree.ts, chunks.ts): the copies must say what
// tree-sitter says, and a chunk's facts must depend on its text alone, since an edit keeps the facts of every chunk
// whose text it left alone. Random edits (seeded) keep syntax errors in play, where tree-sitter's recovery is at work.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Node, Tree } from 'web-tree-sitter';
import { chunksOf, type Chunk } from '../server/src/core/python/chunks.js';
import { chunkFacts } from '../server/src/core/python/file-syntax.js';
import { LineTable } from '../server/src/core/source-range.js';
import { copySubtree, type SyntaxNode } from '../server/src/core/python/syntax-tree.js';
import { DocumentTrees } from '../server/src/lsp/document-trees.js';
import { loadPythonParser, type PythonParser } from '../server/src/parser/python-parser.js';
import { fuzzEdits, seededRandom } from './support/fuzz.js';

const SEED_TEXT = [
  'import numpy as np',
  'from numpy import (linalg as la,  # the usual alias',
  '    trapz)',
  'try:\n    from numpy import trapezoid\nexcept ImportError:\n    trapezoid = np.trapz',
  'class K(np.ndarray):',
  '    rate = np.float_(1)',
  '    @np.vectorize',
  '    def g(self, a, *b, c=np.pi, **d):',
  '        if not hasattr(np, "trapezoid"):\n            return la.norm(self, ord=2)',
  '        return np.unique(a, equal_nan=True, axis=(0))  # anachron: ignore[anachronistic-parameter]',
  '    class Inner:\n        x = (np  # comment inside a chain\n             .zeros)(3).tostring()',
  'f = lambda np: np.arange(3)',
  "s = f'{np.pi:.2f} {np.trapezoid([1]) !r} é𝔘'",
  'y = np.linalg.norm(np.ones(\\\n    3), ord=2) if np.__version__ >= "2" else None',
].join('\n');

const FIELDS: Record<string, string[]> = {
  attribute: ['object', 'attribute'],
  call: ['function', 'arguments'],
  keyword_argument: ['name', 'value'],
  assignment: ['left', 'right'],
  import_from_statement: ['module_name'],
  if_statement: ['condition', 'consequence'],
  default_parameter: ['name'],
  boolean_operator: ['left', 'right'],
};

let parser: PythonParser;
before(async () => {
  parser = await loadPythonParser();
});

/** The chunks the language server holds (lsp/document-trees.ts, pieces re-parsed on their own) and a fresh parse, per edit. */
function* edited(seed: number, count: number): Generator<{ text: string; chunks: Chunk[]; fresh: Tree }> {
  const random = seededRandom(seed);
  const trees = new DocumentTrees(parser);
  let text = SEED_TEXT;
  for (const edit of fuzzEdits(random, count, () => text)) {
    text = edit.apply(text);
    const fresh = parser.parse(text);
    try {
      yield { text, chunks: trees.chunksFor('doc', text), fresh };
    } finally {
      fresh.delete();
    }
  }
  trees.forget('doc');
}

/** Pairs each real named node with its copy, in document order. */
function pairs(real: Node, copy: SyntaxNode, out: [Node, SyntaxNode][]): void {
  out.push([real, copy]);
  const children = real.namedChildren.filter((c): c is Node => c !== null);
  if (copy.namedChildren.length === 0) return; // leaves and plain strings are not looked into
  assert.equal(copy.namedChildren.length, children.length, `children of ${real.type} at ${real.startIndex}`);
  children.forEach((c, i) => pairs(c, copy.namedChildren[i]!, out));
}

describe('plain copies of chunks', () => {
  test('a copy has the types, extents, positions and fields tree-sitter gives', () => {
    let checked = 0;
    for (const { chunks } of edited(1, 150)) {
      for (const chunk of chunks) {
        const copy = copySubtree(chunk.node, chunk.local.lines, chunk.parentType, chunk.body);
        const all: [Node, SyntaxNode][] = [];
        pairs(chunk.node, copy.root, all);
        for (const [real, mine] of all) {
          assert.equal(mine.type, real.type);
          assert.deepEqual([mine.startIndex, mine.endIndex], [real.startIndex, real.endIndex]);
          assert.deepEqual(mine.startPosition, { line: real.startPosition.row, column: real.startPosition.column });
          assert.deepEqual(mine.endPosition, { line: real.endPosition.row, column: real.endPosition.column });
          assert.equal(mine.text, real.text);
          for (const field of FIELDS[real.type] ?? []) {
            assert.equal(mine.childForFieldName(field)?.startIndex, real.childForFieldName(field)?.startIndex, `${real.type}.${field} in ${JSON.stringify(real.text)}`);
            checked++;
          }
        }
      }
    }
    assert.ok(checked > 1000, `only ${checked} fields compared`);
  });

  test('a chunk key always stands for the same facts, after incremental and after fresh parses', () => {
    const seen = new Map<string, string>();
    let reused = 0;
    for (const { text, chunks, fresh } of edited(2, 300)) {
      for (const list of [chunks, chunksOf(fresh, text)]) {
        for (const chunk of list) {
          if (chunk.key === null) continue;
          const facts = JSON.stringify(chunkFacts(chunk));
          const earlier = seen.get(chunk.key);
          if (earlier !== undefined) {
            assert.equal(facts, earlier, `facts of ${JSON.stringify(chunk.key)}`);
            reused++;
          }
          seen.set(chunk.key, facts);
        }
      }
    }
    assert.ok(reused > 1000, `only ${reused} keys seen twice`);
  });

  test('a class is read as its header and one chunk per statement of its body, nested classes too', () => {
    const text = 'import numpy as np\n@dec\nclass A(np.ndarray):\n    x = 1\n    class B:\n        y = np.pi\n    def f(self):\n        pass\n';
    const tree = parser.parse(text);
    try {
      const chunks = chunksOf(tree, text).map((c) => ({ type: c.node.type, line: c.origin.line, parent: c.parentType, header: c.body !== null }));
      assert.deepEqual(chunks, [
        { type: 'import_statement', line: 0, parent: 'module', header: false },
        { type: 'decorated_definition', line: 1, parent: 'module', header: true },
        { type: 'expression_statement', line: 3, parent: 'block', header: false },
        { type: 'class_definition', line: 4, parent: 'block', header: true },
        { type: 'expression_statement', line: 5, parent: 'block', header: false },
        { type: 'function_definition', line: 6, parent: 'block', header: false },
      ]);
    } finally {
      tree.delete();
    }
  });
});
