// A plain-JavaScript copy of one subtree of a tree-sitter tree: the named nodes, their types, extents and the fields
// the analysis reads. Every property of a web-tree-sitter Node crosses into WebAssembly (and allocates); the analysis
// asks for types, parents and fields many times per node, so it reads this copy instead, built in one walk that
// crosses at most three times per node (its type, its children, its end when wanted). Positions come from a line table
// of the source, in the same UTF-16 units. A copy is read while its tree is alive: ends are asked for lazily.
import type { Node } from 'web-tree-sitter';
import type { LineTable, SourcePosition } from '../source-range.js';

/** Named node types that never have named children: the walk does not ask for them. */
const LEAF_TYPES = new Set([
  'identifier', 'integer', 'float', 'true', 'false', 'none', 'comment', 'ellipsis', 'string_start', 'string_end',
  'escape_sequence', 'escape_interpolation', 'type_conversion', 'line_continuation', 'keyword_separator',
  'positional_separator', 'wildcard_import', 'import_prefix', 'pass_statement', 'break_statement', 'continue_statement',
]);

/** Tokens the grammar allows anywhere (extras): they never fill a field. */
const EXTRAS = new Set(['comment', 'line_continuation']);

/**
 * Node types whose fields the analysis reads, and how they are known: `positional` types have one field before and
 * one after every extra (read without crossing into WebAssembly); the others ask tree-sitter for each child's field.
 */
const POSITIONAL_FIELDS: Record<string, [string, string]> = {
  attribute: ['object', 'attribute'],
  call: ['function', 'arguments'],
  keyword_argument: ['name', 'value'],
};
const ASKED_FIELDS = new Set([
  'aliased_import', 'import_from_statement', 'assignment', 'augmented_assignment', 'function_definition',
  'class_definition', 'decorated_definition', 'for_statement', 'for_in_clause', 'named_expression', 'as_pattern',
  'default_parameter', 'typed_default_parameter', 'typed_parameter', 'try_statement', 'with_statement', 'if_statement',
  'elif_clause', 'boolean_operator', 'lambda',
]);

export class SyntaxNode {
  readonly namedChildren: SyntaxNode[] = [];
  /** Field name per named child, for the types in POSITIONAL_FIELDS and ASKED_FIELDS; null otherwise. */
  fields: (string | null)[] | null = null;
  /** The end, asked of tree-sitter the first time it is wanted (most nodes' never is), while the tree is alive. */
  private end = -1;

  constructor(
    readonly type: string,
    readonly startIndex: number,
    readonly parent: SyntaxNode | null,
    private readonly lines: LineTable,
    private readonly node: Node | null,
    end = -1,
  ) {
    this.end = end;
  }

  get endIndex(): number {
    if (this.end < 0) this.end = this.node!.endIndex;
    return this.end;
  }

  /** The tree-sitter node copied, for the rare readers of anonymous tokens (syntax-features.ts); while the tree is alive. */
  get treeNode(): Node {
    if (!this.node) throw new Error(`internal error: a ${this.type} node copied without its tree-sitter node (syntax-tree.ts)`);
    return this.node;
  }

  get text(): string {
    return this.lines.source.slice(this.startIndex, this.endIndex);
  }

  get startPosition(): SourcePosition {
    return this.lines.position(this.startIndex);
  }

  get endPosition(): SourcePosition {
    return this.lines.position(this.endIndex);
  }

  childForFieldName(name: string): SyntaxNode | null {
    const fields = this.fieldsOrThrow();
    const i = fields.indexOf(name);
    return i < 0 ? null : this.namedChildren[i]!;
  }

  childrenForFieldName(name: string): SyntaxNode[] {
    const fields = this.fieldsOrThrow();
    return this.namedChildren.filter((_, i) => fields[i] === name);
  }

  private fieldsOrThrow(): (string | null)[] {
    if (!this.fields) throw new Error(`internal error: the fields of ${this.type} nodes are not recorded (syntax-tree.ts)`);
    return this.fields;
  }
}

function positionalFields(children: readonly SyntaxNode[], [first, last]: [string, string]): (string | null)[] {
  const fields: (string | null)[] = children.map(() => null);
  const firstAt = children.findIndex((c) => !EXTRAS.has(c.type));
  let lastAt = -1;
  for (let i = children.length - 1; i > firstAt; i--) {
    if (!EXTRAS.has(children[i]!.type)) {
      lastAt = i;
      break;
    }
  }
  if (firstAt >= 0) fields[firstAt] = first;
  if (lastAt >= 0) fields[lastAt] = last;
  return fields;
}

/**
 * Node types the analysis never looks into but to reach what they hold: when one holds no name, keyword or comment
 * (numbers, operators and brackets only: data such as `[[1, 2], [3, 4]]`), its children are not copied. Tuples,
 * argument lists and conditional expressions are not among them: their children are counted or read by position.
 */
const DATA_TYPES = new Set(['list', 'set', 'dictionary', 'pair', 'binary_operator', 'unary_operator', 'comparison_operator', 'subscript', 'slice']);

/** Whether source[start, end) holds a letter, an underscore, a `#` or a non-ASCII character. */
function mayHoldNames(source: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = source.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x23 || c >= 0x80) return true;
  }
  return false;
}

/** A string literal holds expressions only as an f-string (or t-string): other strings are not looked into. */
function mayInterpolate(source: string, start: number): boolean {
  for (let i = start; i < start + 3 && i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x66 || c === 0x46 || c === 0x74 || c === 0x54) return true; // f F t T
    if (c === 0x22 || c === 0x27) return false; // the quote: no prefix left
  }
  return false;
}

/**
 * A Node object of its own for `node`. web-tree-sitter caches on a Node the children it was asked for, so a walk from a
 * node the caller keeps (lsp/document-trees.ts keeps every top-level statement's) would keep a JavaScript object per
 * node of the subtree for as long: 330 MB of a 100,000-line file's heap. The walk's objects then go with the copy.
 */
function unshared(node: Node): Node {
  const cursor = node.walk();
  try {
    return cursor.currentNode;
  } finally {
    cursor.delete();
  }
}

export interface SyntaxCopy {
  root: SyntaxNode;
  /** Named nodes by type, in document order (the root included). */
  byType: Map<string, SyntaxNode[]>;
}

/**
 * Copies `root`'s subtree. `stop` names nodes whose children are left out (a class body whose statements are copied on
 * their own); `parentType` is the type of the node above the root, which the copy stands in for.
 */
export function copySubtree(kept: Node, lines: LineTable, parentType: string, stop?: Node | null): SyntaxCopy {
  const root = unshared(kept);
  const byType = new Map<string, SyntaxNode[]>();
  const record = (node: SyntaxNode) => {
    const list = byType.get(node.type);
    if (list) list.push(node);
    else byType.set(node.type, [node]);
  };
  const above = new SyntaxNode(parentType, root.startIndex, null, lines, root);
  const top = new SyntaxNode(root.type, root.startIndex, above, lines, root);
  above.namedChildren.push(top);
  const stopId = stop?.id;
  // Two stacks in step (the node and its copy): no pair allocated per node.
  const nodes: Node[] = [root];
  const copies: SyntaxNode[] = [top];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const copy = copies.pop()!;
    record(copy);
    const type = copy.type;
    if (LEAF_TYPES.has(type) || node.id === stopId) continue;
    if (type === 'string' && !mayInterpolate(lines.source, copy.startIndex)) continue;
    if (DATA_TYPES.has(type) && !mayHoldNames(lines.source, copy.startIndex, copy.endIndex)) continue;
    const children = node.namedChildren;
    const asked = ASKED_FIELDS.has(type);
    const fields: (string | null)[] | null = asked ? [] : null;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      copy.namedChildren.push(new SyntaxNode(child.type, child.startIndex, copy, lines, child));
      if (fields) fields.push(node.fieldNameForNamedChild(i));
    }
    const positional = POSITIONAL_FIELDS[type];
    copy.fields = positional ? positionalFields(copy.namedChildren, positional) : fields;
    for (let i = children.length - 1; i >= 0; i--) {
      nodes.push(children[i]!);
      copies.push(copy.namedChildren[i]!);
    }
  }
  return { root: top, byType };
}
