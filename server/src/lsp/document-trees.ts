// Parse trees of open documents, kept between edits so tree-sitter re-parses incrementally. The edit is derived
// from the old and new text (common prefix and suffix), which is exact for the single-range edits editors send
// on each keystroke and still correct (just less incremental) for anything else. A tree that holds a syntax error
// is not a base for the next parse: tree-sitter's error recovery can then reuse nodes a fresh parse of the new text
// would not build (seen under random edits), and the analysis must equal a fresh one. From an error-free tree the
// incremental parse is the fresh one. A tree replaced by a newer one is freed after the diagnostics are out (on the
// next turn of the event loop): freeing a 10,000-line tree costs ~8 ms, which no edit should wait for.
import { Edit, type Point, type Tree } from 'web-tree-sitter';
import type { PythonParser } from '../parser/python-parser.js';

interface Entry {
  text: string;
  tree: Tree;
  hasError: boolean;
}

function pointAt(text: string, index: number): Point {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: index - lineStart };
}

function editBetween(oldText: string, newText: string): Edit | null {
  if (oldText === newText) return null;
  let start = 0;
  const max = Math.min(oldText.length, newText.length);
  while (start < max && oldText.charCodeAt(start) === newText.charCodeAt(start)) start++;
  let oldEnd = oldText.length;
  let newEnd = newText.length;
  while (oldEnd > start && newEnd > start && oldText.charCodeAt(oldEnd - 1) === newText.charCodeAt(newEnd - 1)) {
    oldEnd--;
    newEnd--;
  }
  return new Edit({
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition: pointAt(oldText, start),
    oldEndPosition: pointAt(oldText, oldEnd),
    newEndPosition: pointAt(newText, newEnd),
  });
}

export class DocumentTrees {
  private readonly entries = new Map<string, Entry>();
  /** Trees no longer current, freed together by `freeRetired` (scheduled when the first is retired). */
  private retired: Tree[] = [];

  constructor(private readonly parser: PythonParser) {}

  /** The tree for the document's current text, parsed incrementally from the previous one when there is one. */
  treeFor(uri: string, text: string): Tree {
    const entry = this.entries.get(uri);
    if (entry && entry.text === text) return entry.tree;
    let tree: Tree;
    if (entry && !entry.hasError) {
      const edit = editBetween(entry.text, text);
      if (edit) entry.tree.edit(edit);
      tree = this.parser.parse(text, entry.tree);
    } else {
      tree = this.parser.parse(text);
    }
    if (entry) this.retire(entry.tree);
    this.entries.set(uri, { text, tree, hasError: tree.rootNode.hasError });
    return tree;
  }

  forget(uri: string): void {
    const entry = this.entries.get(uri);
    if (entry) this.retire(entry.tree);
    this.entries.delete(uri);
  }

  private retire(tree: Tree): void {
    if (this.retired.push(tree) === 1) setImmediate(() => this.freeRetired());
  }

  /** Frees the trees replaced since the last call (nothing reads them: facts are plain data). */
  freeRetired(): void {
    const trees = this.retired;
    this.retired = [];
    for (const t of trees) t.delete();
  }
}
