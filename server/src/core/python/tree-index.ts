// One pass over a tree, grouping named nodes by type. Crossing into tree-sitter's WebAssembly for every node is
// the dominant cost of analysis, so each consumer iterates the types it needs instead of walking the tree again.
import type { Node, Tree } from 'web-tree-sitter';
import { walk } from './syntax.js';

export interface TreeIndex {
  root: Node;
  /** Named nodes of that type, in document order. */
  ofType(type: string): readonly Node[];
}

const cache = new WeakMap<Tree, TreeIndex>();

export function indexTree(tree: Tree): TreeIndex {
  const cached = cache.get(tree);
  if (cached) return cached;
  const byType = new Map<string, Node[]>();
  walk(tree.rootNode, (node) => {
    const list = byType.get(node.type);
    if (list) list.push(node);
    else byType.set(node.type, [node]);
  });
  const index: TreeIndex = { root: tree.rootNode, ofType: (type) => byType.get(type) ?? [] };
  cache.set(tree, index);
  return index;
}
