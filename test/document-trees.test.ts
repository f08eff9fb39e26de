// The language server holds an open document in pieces (lsp/document-trees.ts): an edit re-parses, on its own, the
// top-level statements around it. Whatever the pieces say must be what a fresh parse of the whole text says: the same
// chunks, in the same places, with the same facts. Seeded random edits of whole lines (typed, deleted, moved,
// re-indented, commented out, continued) keep most texts free of syntax errors, where the pieces are at work; random
// characters bring errors in, where the whole file is parsed again.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { fixesFor, type FixableFinding } from '../server/src/core/fixes.js';
import { chunksOf, type Chunk } from '../server/src/core/python/chunks.js';
import { chunkFacts, fileSyntax, syntaxOfChunks } from '../server/src/core/python/file-syntax.js';
import { DocumentTrees } from '../server/src/lsp/document-trees.js';
import { loadPythonParser, type PythonParser } from '../server/src/parser/python-parser.js';
import type { Node, Tree } from 'web-tree-sitter';
import { seededRandom } from './support/fuzz.js';

/** A long run: ANACHRON_PIECES_SEQUENCES=5000 node --import tsx --test test/document-trees.test.ts */
const SEQUENCES = Number(process.env.ANACHRON_PIECES_SEQUENCES ?? 150);

const SEED_LINES = [
  '# a module comment',
  'import numpy as np',
  'from numpy import (linalg as la,',
  '    trapz)',
  '',
  '@np.vectorize',
  'def f(a, b=np.pi):',
  '    x = np.unique(a, equal_nan=True)',
  '    # inside',
  '# at column 0 inside?',
  '    return x',
  '',
  'class K(np.ndarray):',
  '    rate = np.float_(1)',
  '',
  '    def g(self):',
  '        return la.norm(self, ord=2)',
  '    # trailing, indented',
  '# section',
  '',
  'if not hasattr(np, "trapezoid"):',
  '    trapezoid = np.trapz',
  'else:',
  '    trapezoid = np.trapezoid',
  'try:',
  '    from numpy import trapezoid',
  'except ImportError:',
  '    pass',
  'finally:',
  '    pass',
  's = """a',
  'b = np.zeros(3)',
  '"""',
  'y = np.linalg.norm(np.ones(\\',
  '    3), ord=2)',
  'z = 1; w = np.arange(2)',
  'total = 1 + \\',
  '    2',
  'match z:',
  '    case 1:',
  '        pass',
  'print(np.zeros(3).tostring())',
];

const LINE_PIECES = ['x = np.zeros(3)', 'x = np.zeros(3)', 'y = la.norm(x)', 'return np.trapz([1])', '# note', 'def h():', 'class C:', '@dec', 'else:', 'elif z:', 'except ValueError:', '# note', '"""', "'''", '(', ')', 'return np.trapz([1])', 'if z:', '\\', 'pass', 'import numpy', ''];

/** A random edit of whole lines, or of a few characters; returns the new text. */
function randomEdit(random: () => number, text: string): string {
  const lines = text.split('\n');
  const at = Math.floor(random() * (lines.length + 1));
  const indent = ['', '    ', '        ', ' '][Math.floor(random() * 4)]!;
  const r = random();
  if (r < 0.3) lines.splice(at, 0, indent + LINE_PIECES[Math.floor(random() * LINE_PIECES.length)]!);
  else if (r < 0.45) lines.splice(at, 1);
  else if (r < 0.6) lines.splice(at, 0, lines[Math.floor(random() * lines.length)] ?? '');
  else if (r < 0.7 && at < lines.length) lines[at] = indent + lines[at]!.trimStart();
  else if (r < 0.8 && at < lines.length) lines[at] = '# ' + lines[at];
  else if (r < 0.9) lines.splice(at, 0, '');
  else {
    const joined = lines.join('\n');
    const start = Math.floor(random() * (joined.length + 1));
    const piece = ['(', ')', ':', ' ', 'np.', '"', '#', '\n', ''][Math.floor(random() * 9)]!;
    return joined.slice(0, start) + piece + joined.slice(start + Math.floor(random() * 3));
  }
  return lines.join('\n');
}

function shape(c: Chunk) {
  return { type: c.node.type, origin: c.origin, parent: c.parent, end: c.end, key: c.key, parentType: c.parentType, header: c.body !== null, facts: JSON.stringify(chunkFacts(c)) };
}

/**
 * Findings a quick fix reads the tree for, one per keyword argument (drop-keyword) and per attribute chain (a
 * replacement in another library, so the fix looks for the file's imports), at their places in a fresh parse.
 */
function fixableFindings(tree: Tree): FixableFinding[] {
  const base = { replacement: null, availableIn: [], pin: '1.0', pinSource: 'requirements.txt:1', library: 'numpy', parameter: null };
  const range = (n: Node) => ({ start: { line: n.startPosition.row, column: n.startPosition.column }, end: { line: n.endPosition.row, column: n.endPosition.column } });
  return [
    ...tree.rootNode.descendantsOfType('keyword_argument').map((n) => ({ ...base, code: 'unknown-parameter', range: range(n!.childForFieldName('name')!), api: 'numpy.f', parameter: n!.childForFieldName('name')!.text })),
    ...tree.rootNode.descendantsOfType('attribute').map((n) => ({ ...base, code: 'unknown-api', range: range(n!), api: 'numpy.trapz', replacement: 'scipy.integrate.trapezoid' })),
  ];
}

let parser: PythonParser;
before(async () => {
  parser = await loadPythonParser();
});

describe('documents held in pieces', () => {
  test('after every edit the pieces give the chunks, facts and references of a fresh parse', () => {
    const random = seededRandom(Number(process.env.ANACHRON_PIECES_SEED ?? 21));
    let windowed = 0;
    let edits = 0;
    for (let sequence = 0; sequence < SEQUENCES; sequence++) {
      const trees = new DocumentTrees(parser);
      let text = SEED_LINES.join('\n');
      for (let k = 0; k < 8; k++, edits++) {
        text = randomEdit(random, text);
        const before = trees.windowed;
        const chunks = trees.chunksFor('doc', text);
        const fresh = parser.parse(text);
        try {
          const expected = chunksOf(fresh, text);
          assert.deepEqual(chunks.map(shape), expected.map(shape), `sequence ${sequence} edit ${k}: ${JSON.stringify(text)}`);
          assert.deepEqual(JSON.stringify(syntaxOfChunks(chunks)), JSON.stringify(fileSyntax(fresh, text)));
          // Quick fixes read the pieces' statements as they would read a tree of the whole text.
          const tops = trees.topStatementsFor('doc', text);
          for (const f of fixableFindings(fresh)) assert.deepEqual(fixesFor(f, text, tops, () => undefined), fixesFor(f, text, fresh, () => undefined), `sequence ${sequence} edit ${k}: ${f.code} at ${JSON.stringify(f.range)}`);
        } finally {
          fresh.delete();
        }
        windowed += trees.windowed - before;
      }
      trees.forget('doc');
      trees.freeRetired();
    }
    // Most edits leave the text free of errors and are parsed as a window; the others parse the whole file.
    assert.ok(windowed > edits / 8 && windowed < edits, `${windowed} of ${edits} edits parsed as a window`);
  });

  test('an edit in one statement of a large file re-parses that window, not the file', () => {
    const block = (i: number) => [`def f${i}(values):`, `    arr = np.asarray(values)`, `    return np.unique(arr, equal_nan=True)`, ''];
    const lines = ['import numpy as np', '', ...Array.from({ length: 200 }, (_, i) => block(i)).flat()];
    const trees = new DocumentTrees(parser);
    trees.chunksFor('doc', lines.join('\n'));
    lines.splice(400, 0, '    x = np.zeros(3)');
    const text = lines.join('\n');
    const chunks = trees.chunksFor('doc', text);
    assert.equal(trees.windowed, 1);
    const fresh = parser.parse(text);
    assert.deepEqual(chunks.map(shape), chunksOf(fresh, text).map(shape));
    // Kept statements are nodes of the first parse; the edited one comes from a parse of a few statements' text.
    const edited = chunks.find((c) => c.origin.line <= 400 && 400 < c.origin.line + 4)!;
    assert.ok(edited.node.tree.rootNode.endIndex < 1000, 'the edited statement was parsed with its neighbours only');
    fresh.delete();
    trees.forget('doc');
  });
});
