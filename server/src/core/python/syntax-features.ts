// Syntax that older Pythons cannot parse: each construct with the version that introduced it (the "What's New"
// documents and their PEPs), and where a tree-sitter tree uses it. Unlike a missing API, no guard helps: a file an
// interpreter cannot parse fails before any line of it runs. Read per chunk (file-syntax.ts), relative to its start;
// the few constructs told apart by anonymous tokens (`except*`, a parenthesised `with`) ask their tree-sitter node.
import type { Node } from 'web-tree-sitter';
import type { LineTable, SourceRange } from '../source-range.js';
import type { ChunkPositions } from './chunk-position.js';
import type { SyntaxCopy, SyntaxNode } from './syntax-tree.js';

export interface SyntaxFeature {
  /** Stable id, the finding's `api`: "match-statement". */
  id: string;
  /** What users call it. */
  title: string;
  /** The first Python that runs it. */
  since: string;
  pep: string;
  /** What an older Python does with it; default: it cannot parse the file. */
  older?: string;
}

export const SYNTAX_FEATURES = {
  walrus: { id: 'assignment-expression', title: 'assignment expression `:=`', since: '3.8', pep: 'PEP 572' },
  positionalOnly: { id: 'positional-only-parameters', title: 'positional-only parameters `/`', since: '3.8', pep: 'PEP 570' },
  fstringEquals: { id: 'f-string-self-documenting', title: 'self-documenting f-string `{x=}`', since: '3.8', pep: 'bpo-36817' },
  relaxedDecorator: { id: 'relaxed-decorator', title: 'decorator that is any expression', since: '3.9', pep: 'PEP 614' },
  // Documented from 3.10; 3.9's new parser already accepts it (and runs it), so 3.9 is the first Python it works on.
  parenthesizedWith: { id: 'parenthesized-context-managers', title: 'parenthesised context managers', since: '3.9', pep: 'bpo-12782, documented in 3.10' },
  parenthesizedWithTuple: {
    id: 'parenthesized-context-managers-tuple', title: 'parenthesised context managers without `as`', since: '3.9', pep: 'bpo-12782, documented in 3.10',
    older: 'takes the parentheses for one tuple, which is no context manager, and fails when the `with` runs',
  },
  match: { id: 'match-statement', title: '`match` statement', since: '3.10', pep: 'PEP 634' },
  exceptStar: { id: 'except-star', title: '`except*`', since: '3.11', pep: 'PEP 654' },
  starSubscript: { id: 'star-in-subscript', title: 'starred expression in a subscript `a[*b]`', since: '3.11', pep: 'PEP 646' },
  typeAlias: { id: 'type-statement', title: '`type` statement', since: '3.12', pep: 'PEP 695' },
  typeParameters: { id: 'type-parameter-syntax', title: 'type parameter list `[T]`', since: '3.12', pep: 'PEP 695' },
  fstringNesting: { id: 'f-string-nesting', title: 'f-string reusing its quotes or a backslash inside `{…}`', since: '3.12', pep: 'PEP 701' },
  typeParameterDefault: { id: 'type-parameter-default', title: 'type parameter default `[T = int]`', since: '3.13', pep: 'PEP 696' },
  templateString: { id: 't-string', title: 'template string `t"…"`', since: '3.14', pep: 'PEP 750' },
  unparenthesizedExcept: { id: 'unparenthesized-except', title: '`except A, B:` without parentheses', since: '3.14', pep: 'PEP 758' },
} satisfies Record<string, SyntaxFeature>;

export interface SyntaxUse {
  feature: SyntaxFeature;
  range: SourceRange;
}

/** A string's prefix (`f`, `rb`, `t`, lower-cased) and delimiter (`"`, `'`, `"""` or `\'\'\'`), from its text. */
function quoting(str: SyntaxNode): { prefix: string; delimiter: string } {
  const m = /^([A-Za-z]*)("""|\'\'\'|"|')/.exec(str.text);
  return { prefix: (m?.[1] ?? '').toLowerCase(), delimiter: m?.[2] ?? '' };
}

/** A decorator before PEP 614: a dotted name, optionally called once (`@a.b`, `@a.b(…)`). */
function isClassicDecorator(expr: SyntaxNode): boolean {
  let n: SyntaxNode | null = expr.type === 'call' ? expr.childForFieldName('function') : expr;
  while (n && n.type === 'attribute') n = n.childForFieldName('object');
  return n?.type === 'identifier';
}

/** Every use in one chunk of syntax a Python version introduced, in document order, relative to the chunk. */
export function findSyntaxUses(copy: SyntaxCopy, positions: ChunkPositions, lines: LineTable): SyntaxUse[] {
  const ofType = (type: string) => copy.byType.get(type) ?? [];
  const uses: SyntaxUse[] = [];
  const add = (feature: SyntaxFeature, range: SourceRange) => uses.push({ feature, range });
  const rangeOf = (n: SyntaxNode) => positions.rangeOf(n);
  const tokenRange = (first: Node, last: Node = first) => positions.rangeOfOffsets(first.startIndex, last.endIndex, lines);
  const F = SYNTAX_FEATURES;
  for (const n of ofType('named_expression')) add(F.walrus, rangeOf(n));
  for (const n of ofType('positional_separator')) add(F.positionalOnly, rangeOf(n));
  for (const n of ofType('interpolation')) {
    if (n.treeNode.children.some((c) => c?.type === '=')) add(F.fstringEquals, rangeOf(n));
  }
  for (const n of ofType('decorator')) {
    const expr = n.namedChildren.find((c) => c.type !== 'comment');
    if (expr && !isClassicDecorator(expr)) add(F.relaxedDecorator, rangeOf(expr));
  }
  for (const copied of ofType('with_clause')) {
    // `with (a as x, b as y):` — the clause itself parenthesised, with an `as` or a trailing comma inside, cannot be
    // parsed before 3.9; `with (a, b):` parses as one tuple there, which fails as a context manager when it runs.
    if (!copied.text.startsWith('(')) continue;
    const n = copied.treeNode;
    if (n.children[0]?.type !== '(') continue;
    const items = n.namedChildren.filter((c): c is Node => c?.type === 'with_item');
    const hasAs = items.some((i) => i.childForFieldName('value')?.type === 'as_pattern');
    const trailingComma = n.children[n.children.length - 2]?.type === ',';
    if (hasAs || trailingComma) add(F.parenthesizedWith, rangeOf(copied));
    else if (items.length > 1) add(F.parenthesizedWithTuple, rangeOf(copied));
  }
  for (const n of ofType('match_statement')) add(F.match, positions.rangeOfOffsets(n.startIndex, n.startIndex + 'match'.length, lines));
  for (const copied of ofType('except_clause')) {
    const n = copied.treeNode;
    const star = n.children[1];
    if (star?.type === '*') add(F.exceptStar, tokenRange(n.children[0]!, star));
    const values = n.childrenForFieldName('value').filter((v): v is Node => v !== null);
    if (values.length > 1) add(F.unparenthesizedExcept, tokenRange(values[0]!, values[values.length - 1]!));
  }
  for (const n of ofType('subscript')) {
    // The subscripted value comes first; a starred expression can only be a subscript.
    for (const s of n.namedChildren.slice(1)) if (s.type === 'list_splat') add(F.starSubscript, rangeOf(s));
  }
  for (const n of ofType('type_alias_statement')) add(F.typeAlias, positions.rangeOfOffsets(n.startIndex, n.startIndex + 'type'.length, lines));
  for (const n of ofType('type_parameter')) {
    // A subscript inside an annotation (`list[T]`) is a type_parameter too; the PEP 695 list is the field of a def,
    // a class or a type statement.
    const owner = n.parent;
    if (!owner || !['function_definition', 'class_definition', 'type_alias_statement'].includes(owner.type)) continue;
    const tree = n.treeNode;
    if (owner.treeNode.childForFieldName('type_parameters')?.id !== tree.id) continue;
    add(F.typeParameters, rangeOf(n));
    // tree-sitter-python has no rule for PEP 696 defaults yet: `[T = int]` leaves an error holding the `=`.
    if (n.namedChildren.some((c) => c.type === 'ERROR' && c.treeNode.children.some((g) => g?.type === '='))) add(F.typeParameterDefault, rangeOf(n));
  }
  for (const n of ofType('string')) {
    const { prefix, delimiter } = quoting(n);
    if (prefix.includes('t')) {
      add(F.templateString, positions.rangeOfOffsets(n.startIndex, n.startIndex + prefix.length + delimiter.length, lines));
      continue;
    }
    if (!prefix.includes('f')) continue;
    for (const part of n.namedChildren) {
      if (part.type !== 'interpolation') continue;
      const expr = part.namedChildren[0];
      if (!expr) continue;
      // A string inside the braces that the enclosing delimiter would end (`f"{d["k"]}"`; a `"` inside `f"""…"""`
      // is fine), or a backslash anywhere in them.
      let reused: SyntaxNode | null = null;
      const stack: SyntaxNode[] = [expr];
      while (stack.length > 0 && !reused) {
        const m = stack.pop()!;
        if (m.type === 'string' && quoting(m).delimiter.startsWith(delimiter)) reused = m;
        else stack.push(...m.namedChildren);
      }
      if (reused) add(F.fstringNesting, rangeOf(reused));
      else if (expr.text.includes('\\')) add(F.fstringNesting, rangeOf(expr));
    }
  }
  return uses.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.column - b.range.start.column);
}
