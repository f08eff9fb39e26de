// Parse trees of open documents, kept between edits so that an edit parses what it changed, not the whole file.
// tree-sitter's own incremental re-parse of a whole file costs more with every top-level statement (a no-op re-parse
// of 10,000 lines takes ~11 ms, a one-line edit 20-130 ms), so a document is held as pieces: the top-level statements,
// each a node of the tree that parsed the piece of text it came from. An edit re-parses, on its own, the text from the
// top-level statement before the edit to the one after it (a window) and keeps every other statement's node.
//
// A window stands for the whole file's parse only where Python's tokenizer and grammar are at rest at both of its
// ends: it starts at a statement at column 0 (or the file's start) after a line that does not continue, it ends where
// such a statement starts (or at the file's end), neither end is a comment or line continuation (whose place
// depends on the code around it), the statements outside it hold no syntax error, and its own parse holds none. A
// Python statement that starts at column 0 after a complete line cannot take part in the statement before it (the
// clauses that can, else/elif/except/finally, do not start a statement), so the whole file then parses as the pieces
// do. Otherwise the whole file is parsed afresh: always when it holds a syntax error, since tree-sitter's recovery can
// reach anywhere (an unclosed bracket swallows the rest of the file) and the analysis must equal a fresh one
// (test/document-trees.test.ts compares the pieces with a fresh parse under random edits).
//
// A tree none of whose statements is current any more is freed after the diagnostics are out (on the next turn of the
// event loop): freeing a 10,000-line tree costs ~8 ms, which no edit should wait for.
import { Edit, type Node, type Point, type Tree } from 'web-tree-sitter';
import type { TopStatement } from '../core/fixes.js';
import { addChunks, type Chunk } from '../core/python/chunks.js';
import { LineTable } from '../core/source-range.js';
import type { PythonParser } from '../parser/python-parser.js';

/** One parse: the text it read (a piece of the document at the time, or all of it) and its tree. */
interface Piece {
  tree: Tree;
  text: string;
  lines: LineTable;
  /** Statements of the document that are still this piece's nodes. */
  live: number;
}

/** A top-level statement (or comment) of the document, as a node of its piece; in the file at `index`/`line` + its local place. */
interface Top {
  piece: Piece;
  node: Node;
  start: number;
  end: number;
  column: number;
  type: string;
  /** Where the piece's text starts in the file now. */
  shift: { index: number; line: number };
  /** The chunks of this statement in its piece's coordinates, read once. */
  chunks: Chunk[] | null;
}

interface Entry {
  text: string;
  tops: Top[];
  hasError: boolean;
  /** The piece that parsed the whole current text, when it was parsed whole (it counts one more `live` for it). */
  whole: Piece | null;
}

interface TextEdit {
  start: number;
  oldEnd: number;
  newEnd: number;
}

function editBetween(oldText: string, newText: string): TextEdit {
  let start = 0;
  const max = Math.min(oldText.length, newText.length);
  while (start < max && oldText.charCodeAt(start) === newText.charCodeAt(start)) start++;
  let oldEnd = oldText.length;
  let newEnd = newText.length;
  while (oldEnd > start && newEnd > start && oldText.charCodeAt(oldEnd - 1) === newText.charCodeAt(newEnd - 1)) {
    oldEnd--;
    newEnd--;
  }
  return { start, oldEnd, newEnd };
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

function newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Whether the line before offset `at` (a line's start) ends in a line continuation. */
function continues(text: string, at: number): boolean {
  let i = at - 2;
  if (text[i] === '\r') i--;
  return text[i] === '\\';
}

/** A statement the tokenizer and grammar are at rest before: at column 0, not a comment or continuation. */
function steady(top: Top): boolean {
  return top.column === 0 && top.type !== 'comment' && top.type !== 'line_continuation';
}

export class DocumentTrees {
  private readonly entries = new Map<string, Entry>();
  /** Trees no longer current, freed together by `freeRetired` (scheduled when the first is retired). */
  private retired: Tree[] = [];
  /** Edits whose window was parsed on its own (the rest parsed the whole file). */
  windowed = 0;

  constructor(private readonly parser: PythonParser) {}

  /** The chunks (core/python/chunks.ts) of the document's current text, in document order. */
  chunksFor(uri: string, text: string): Chunk[] {
    const entry = this.entryFor(uri, text);
    const out: Chunk[] = [];
    const tops = entry.tops;
    if (tops.length === 0) return out;
    const first = tops[0]!;
    const module = { start: first.start + first.shift.index, end: text.length };
    for (const top of tops) {
      top.chunks ??= this.localChunks(top);
      const { index, line } = top.shift;
      for (const c of top.chunks) {
        const parent = c.parentType === 'module' ? module : { start: c.parent.start + index, end: c.parent.end + index };
        const origin = { index: c.origin.index + index, line: c.origin.line + line, column: c.origin.column };
        out.push({ ...c, parent, origin, end: c.end + index });
      }
    }
    return out;
  }

  /**
   * The document's top-level statements for its quick fixes (core/fixes.ts), from the trees it is held in: no tree of
   * the whole text is made beside the pieces (a second tree-sitter tree of the file, whose memory would stay).
   */
  topStatementsFor(uri: string, text: string): TopStatement[] {
    return this.entryFor(uri, text).tops.map((top) => ({ node: top.node, line: top.shift.line }));
  }

  /** Whether the document is held at `text` (so the chunks `chunksFor` gave for it still hold live nodes). */
  holds(uri: string, text: string): boolean {
    return this.entries.get(uri)?.text === text;
  }

  forget(uri: string): void {
    const entry = this.entries.get(uri);
    if (entry) this.drop(entry);
    this.entries.delete(uri);
  }

  private localChunks(top: Top): Chunk[] {
    const out: Chunk[] = [];
    addChunks([top.node], 'module', { start: 0, end: top.piece.text.length }, top.piece.text, top.piece.lines, { index: 0, line: 0 }, out);
    return out;
  }

  private entryFor(uri: string, text: string): Entry {
    const entry = this.entries.get(uri);
    if (entry && entry.text === text) return entry;
    if (entry && !entry.hasError && this.reparseWindow(entry, text)) return entry;
    const tree = entry && !entry.hasError && entry.whole ? this.reparseWhole(entry.text, entry.whole.tree, text) : this.parser.parse(text);
    if (entry) this.drop(entry);
    const piece: Piece = { tree, text, lines: new LineTable(text), live: 1 };
    const next: Entry = { text, tops: this.topsOf(piece, { index: 0, line: 0 }), hasError: tree.rootNode.hasError, whole: piece };
    this.entries.set(uri, next);
    return next;
  }

  /** The entry's trees are no longer its own: each piece none of whose statements is left elsewhere is freed. */
  private drop(entry: Entry): void {
    this.release(entry.tops);
    if (entry.whole) this.unuse(entry.whole);
    entry.tops = [];
    entry.whole = null;
  }

  /** tree-sitter's incremental parse of the whole text from an error-free tree of the old text (then it is the fresh one). */
  private reparseWhole(oldText: string, old: Tree, text: string): Tree {
    const e = editBetween(oldText, text);
    old.edit(new Edit({ startIndex: e.start, oldEndIndex: e.oldEnd, newEndIndex: e.newEnd, startPosition: pointAt(oldText, e.start), oldEndPosition: pointAt(oldText, e.oldEnd), newEndPosition: pointAt(text, e.newEnd) }));
    return this.parser.parse(text, old);
  }

  private topsOf(piece: Piece, shift: Top['shift']): Top[] {
    const tops: Top[] = [];
    for (const node of piece.tree.rootNode.namedChildren) {
      if (!node) continue;
      tops.push({ piece, node, start: node.startIndex, end: node.endIndex, column: node.startPosition.column, type: node.type, shift, chunks: null });
    }
    piece.live += tops.length;
    return tops;
  }

  /**
   * Re-parses, on its own, the window of `entry` (error-free) that the edit to `text` touched, and puts its statements
   * in place of the old ones; false (the entry unchanged) where the window cannot stand for the whole file's parse.
   */
  private reparseWindow(entry: Entry, text: string): boolean {
    const old = entry.text;
    const tops = entry.tops;
    const n = tops.length;
    const e = editBetween(old, text);
    const delta = e.newEnd - e.oldEnd;
    const startOf = (k: number) => tops[k]!.start + tops[k]!.shift.index;
    // The statement holding the edit's start and the one before it; the first starting after the edit and the one after it.
    let p = 0;
    while (p < n && startOf(p) <= e.start) p++;
    let a = Math.max(0, p - 2);
    let q = p;
    while (q < n && startOf(q) <= e.oldEnd) q++;
    let b = Math.min(n, q + 1);
    while (a > 0 && (!steady(tops[a]!) || continues(old, startOf(a)))) a--;
    while (b < n && (!steady(tops[b]!) || continues(text, startOf(b) + delta))) b++;
    const from = a === 0 ? 0 : startOf(a);
    const to = b === n ? text.length : startOf(b) + delta;
    if (to < e.newEnd || (b < n && startOf(b) <= e.oldEnd)) return false;
    const window = text.slice(from, to);
    const tree = this.parser.parse(window);
    const root = tree.rootNode;
    if (root.hasError || (a > 0 && root.namedChildren[0]?.startIndex !== 0)) {
      tree.delete();
      return false;
    }
    const piece: Piece = { tree, text: window, lines: new LineTable(window), live: 0 };
    const line = a === 0 ? 0 : tops[a]!.shift.line + tops[a]!.node.startPosition.row;
    const fresh = this.topsOf(piece, { index: from, line });
    const lineDelta = newlines(text, e.start, e.newEnd) - newlines(old, e.start, e.oldEnd);
    const shifted = new Map<Top['shift'], Top['shift']>();
    const after = tops.slice(b).map((t) => {
      let shift = shifted.get(t.shift);
      if (!shift) shifted.set(t.shift, (shift = { index: t.shift.index + delta, line: t.shift.line + lineDelta }));
      return { ...t, shift };
    });
    this.release(tops.slice(a, b));
    entry.tops = [...tops.slice(0, a), ...fresh, ...after];
    entry.text = text;
    if (entry.whole) this.unuse(entry.whole);
    entry.whole = null;
    this.windowed++;
    return true;
  }

  /** These statements leave the document. */
  private release(tops: readonly Top[]): void {
    for (const top of tops) this.unuse(top.piece);
  }

  private unuse(piece: Piece): void {
    if (--piece.live === 0) this.retire(piece.tree);
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
