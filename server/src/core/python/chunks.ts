// A file is read in chunks: its top-level statements, and the statements of the classes among them (with their
// nested classes), each class standing for its header. A chunk's facts (chunk-facts.ts) depend on its text alone,
// so an edit re-reads the chunks it changed and keeps the others' facts, wherever they moved.
import type { Node, Tree } from 'web-tree-sitter';
import type { ChunkOrigin, Span } from './chunk-position.js';

export interface Chunk {
  node: Node;
  /** A class body whose statements are chunks of their own: the chunk stands for the class's header. */
  body: Node | null;
  /** The node holding the chunk ('module', or the 'block' of a class body) and its extent in file offsets. */
  parentType: 'module' | 'block';
  parent: Span;
  origin: ChunkOrigin;
  /**
   * What the chunk's facts depend on: its type and its text (for a class, the text before its body). Null when the
   * chunk holds a syntax error: how tree-sitter recovers can then depend on the code around it.
   */
  key: string | null;
}

function classBody(node: Node, type: string): Node | null {
  const cls = type === 'class_definition' ? node : type === 'decorated_definition' ? node.childForFieldName('definition') : null;
  if (!cls || (cls !== node && cls.type !== 'class_definition')) return null;
  const body = cls.childForFieldName('body');
  return body && body.type === 'block' ? body : null;
}

function addChunks(nodes: readonly (Node | null)[], parentType: Chunk['parentType'], parent: Span, source: string, out: Chunk[]): void {
  for (const node of nodes) {
    if (!node) continue;
    const type = node.type;
    const start = node.startIndex;
    const origin: ChunkOrigin = { index: start, line: node.startPosition.row, column: node.startPosition.column };
    const body = classBody(node, type);
    const valid = !node.hasError;
    if (body) {
      out.push({ node, body, parentType, parent, origin, key: valid ? `header:${type}\u0000${source.slice(start, body.startIndex)}` : null });
      addChunks(body.namedChildren, 'block', { start: body.startIndex, end: body.endIndex }, source, out);
    } else {
      out.push({ node, body: null, parentType, parent, origin, key: valid ? `${type}\u0000${source.slice(start, node.endIndex)}` : null });
    }
  }
}

/** The chunks of a parsed file, in document order. `source` is the text the tree was parsed from. */
export function chunksOf(tree: Tree, source: string): Chunk[] {
  const root = tree.rootNode;
  const out: Chunk[] = [];
  addChunks(root.namedChildren, 'module', { start: root.startIndex, end: root.endIndex }, source, out);
  return out;
}
