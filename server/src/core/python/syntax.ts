// Small helpers over copied tree-sitter-python nodes (syntax-tree.ts).
import type { SyntaxNode } from './syntax-tree.js';

/** Visits every node depth-first without recursion (deeply nested generated code must not overflow the stack). */
export function walk(root: SyntaxNode, visit: (node: SyntaxNode) => void): void {
  const stack: SyntaxNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    visit(node);
    const children = node.namedChildren;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

/** The identifiers of a dotted_name, in order. */
export function dottedParts(node: SyntaxNode): SyntaxNode[] {
  return node.namedChildren.filter((c) => c.type === 'identifier');
}

/**
 * For a pure attribute chain (`a.b.c`, rooted at an identifier) returns its identifier nodes in order;
 * null when the chain is rooted in anything else (a call, a subscript, a literal …).
 */
export function chainParts(node: SyntaxNode): SyntaxNode[] | null {
  const parts: SyntaxNode[] = [];
  let current: SyntaxNode | null = node;
  while (current && current.type === 'attribute') {
    const attr = current.childForFieldName('attribute');
    if (!attr) return null;
    parts.unshift(attr);
    current = current.childForFieldName('object');
  }
  if (!current || current.type !== 'identifier') return null;
  parts.unshift(current);
  return parts;
}
