// Small helpers over tree-sitter-python nodes. Types only: parsing itself happens in the parser adapter.
import type { Node } from 'web-tree-sitter';
import type { SourceRange } from '../source-range.js';

export function rangeOf(node: Node): SourceRange {
  return rangeBetween(node, node);
}

export function rangeBetween(first: Node, last: Node): SourceRange {
  return {
    start: { line: first.startPosition.row, column: first.startPosition.column },
    end: { line: last.endPosition.row, column: last.endPosition.column },
  };
}

/** Visits every node depth-first without recursion (deeply nested generated code must not overflow the stack). */
export function walk(root: Node, visit: (node: Node) => void): void {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    visit(node);
    const children = node.namedChildren;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child) stack.push(child);
    }
  }
}

/** The identifiers of a dotted_name, in order. */
export function dottedParts(node: Node): Node[] {
  return node.namedChildren.filter((c): c is Node => c !== null && c.type === 'identifier');
}

/**
 * For a pure attribute chain (`a.b.c`, rooted at an identifier) returns its identifier nodes in order;
 * null when the chain is rooted in anything else (a call, a subscript, a literal …).
 */
export function chainParts(node: Node): Node[] | null {
  const parts: Node[] = [];
  let current: Node | null = node;
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
