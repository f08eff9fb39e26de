// One pass over a tree, grouping named nodes by type, for consumers that read a tree-sitter tree directly (the
// benchmark's snippet cutter). The analysis itself reads plain copies of chunks (syntax-tree.ts).
import type { Node, Tree } from 'web-tree-sitter';

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
  // Depth-first without recursion: deeply nested generated code must not overflow the stack.
  const stack: Node[] = [tree.rootNode];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const list = byType.get(node.type);
    if (list) list.push(node);
    else byType.set(node.type, [node]);
    const children = node.namedChildren;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child) stack.push(child);
    }
  }
  const index: TreeIndex = { root: tree.rootNode, ofType: (type) => byType.get(type) ?? [] };
  cache.set(tree, index);
  return index;
}
