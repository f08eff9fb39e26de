// A file is read in chunks: its top-level statements, and the statements of the classes among them (with their
// nested classes), each class standing for its header. A chunk's facts (chunk-facts.ts) depend on its text alone,
// so an edit re-reads the chunks it changed and keeps the others' facts, wherever they moved. The nodes may come from
// one tree of the whole file or from trees of pieces of it (lsp/document-trees.ts): a chunk says where it lies in the
// file, and where its node lies in the text its tree was parsed from (`local`), which is what its facts are read in.
import type { Node, Tree } from 'web-tree-sitter';
import type { ChunkOrigin, Span } from './chunk-position.js';
import { LineTable } from '../source-range.js';

export interface Chunk {
  node: Node;
  /** A class body whose statements are chunks of their own: the chunk stands for the class's header. */
  body: Node | null;
  /** The node holding the chunk ('module', or the 'block' of a class body) and its extent in file offsets. */
  parentType: 'module' | 'block';
  parent: Span;
  origin: ChunkOrigin;
  /** The node's end, in file offsets. */
  end: number;
  /**
   * What the chunk's facts depend on: its type and its text (for a class, the text before its body). Null when the
   * chunk holds a syntax error: how tree-sitter recovers can then depend on the code around it.
   */
  key: string | null;
  /** The node's origin in the text its tree was parsed from, and that text's line table (the file's own for a whole tree). */
  local: { origin: ChunkOrigin; lines: LineTable };
}

/** Where the text a tree was parsed from sits in the file: its first offset and line (it starts at a line's start). */
export interface PieceShift {
  index: number;
  line: number;
}

function classBody(node: Node, type: string): Node | null {
  const cls = type === 'class_definition' ? node : type === 'decorated_definition' ? node.childForFieldName('definition') : null;
  if (!cls || (cls !== node && cls.type !== 'class_definition')) return null;
  const body = cls.childForFieldName('body');
  return body && body.type === 'block' ? body : null;
}

/**
 * Appends the chunks of `nodes` (children of one parent, from a tree parsed from `source`, which starts in the file
 * at `shift`). `parent` is in file offsets.
 */
export function addChunks(nodes: readonly (Node | null)[], parentType: Chunk['parentType'], parent: Span, source: string, lines: LineTable, shift: PieceShift, out: Chunk[]): void {
  for (const node of nodes) {
    if (!node) continue;
    const type = node.type;
    const start = node.startIndex;
    const { row, column } = node.startPosition;
    const local: ChunkOrigin = { index: start, line: row, column };
    const origin: ChunkOrigin = shift.index === 0 && shift.line === 0 ? local : { index: start + shift.index, line: row + shift.line, column };
    const body = classBody(node, type);
    const valid = !node.hasError;
    const end = node.endIndex + shift.index;
    if (body) {
      out.push({ node, body, parentType, parent, origin, end, key: valid ? `header:${type}\u0000${source.slice(start, body.startIndex)}` : null, local: { origin: local, lines } });
      addChunks(body.namedChildren, 'block', { start: body.startIndex + shift.index, end: body.endIndex + shift.index }, source, lines, shift, out);
    } else {
      out.push({ node, body: null, parentType, parent, origin, end, key: valid ? `${type}\u0000${source.slice(start, node.endIndex)}` : null, local: { origin: local, lines } });
    }
  }
}

/** The chunks of a parsed file, in document order. `source` is the text the tree was parsed from. */
export function chunksOf(tree: Tree, source: string, lines: LineTable = new LineTable(source)): Chunk[] {
  const root = tree.rootNode;
  const out: Chunk[] = [];
  addChunks(root.namedChildren, 'module', { start: root.startIndex, end: root.endIndex }, source, lines, { index: 0, line: 0 }, out);
  return out;
}
