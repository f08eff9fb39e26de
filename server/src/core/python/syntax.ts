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

/** An attribute chain split into what it starts from and the attribute names after it (`f(x).a.b` -> f(x), [a, b]). */
export function splitAttributeChain(node: SyntaxNode): { base: SyntaxNode; attributes: SyntaxNode[] } | null {
  const attributes: SyntaxNode[] = [];
  let current: SyntaxNode | null = node;
  while (current && current.type === 'attribute') {
    const attr = current.childForFieldName('attribute');
    if (!attr) return null;
    attributes.push(attr); // innermost last for now: unshift would make a 50,000-segment chain quadratic
    current = current.childForFieldName('object');
  }
  return current ? { base: current, attributes: attributes.reverse() } : null;
}

/**
 * For a pure attribute chain (`a.b.c`, rooted at an identifier) returns its identifier nodes in order;
 * null when the chain is rooted in anything else (a call, a subscript, a literal …).
 */
export function chainParts(node: SyntaxNode): SyntaxNode[] | null {
  const chain = splitAttributeChain(node);
  return chain && chain.base.type === 'identifier' ? [chain.base, ...chain.attributes] : null;
}

/** The builtin class of a literal's value: `"…"` str, `b"…"` bytes, `[…]` list, `{…}` dict or set, numbers; else null. */
export function literalClass(node: SyntaxNode): string | null {
  let n: SyntaxNode | undefined = node;
  while (n && n.type === 'parenthesized_expression') n = n.namedChildren.find((c) => c.type !== 'comment');
  if (!n) return null;
  switch (n.type) {
    case 'string':
    case 'concatenated_string': {
      const first = n.type === 'string' ? n : n.namedChildren.find((c) => c.type === 'string');
      const prefix = /^[A-Za-z]*/.exec(first?.text ?? '')![0].toLowerCase();
      if (prefix.includes('t')) return null; // a template string (3.14) is no str
      return prefix.includes('b') ? 'builtins.bytes' : 'builtins.str';
    }
    case 'list':
    case 'list_comprehension':
      return 'builtins.list';
    case 'dictionary':
    case 'dictionary_comprehension':
      return 'builtins.dict';
    case 'set':
    case 'set_comprehension':
      return 'builtins.set';
    case 'integer':
      return 'builtins.int';
    case 'float':
      return 'builtins.float';
    default:
      return null;
  }
}
