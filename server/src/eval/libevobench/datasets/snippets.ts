// The code around a masked API-C call, as Appendix F.6 builds it: the file's prefix up to the call within a budget of
// 3,000 characters, cut down by the truncation cascade when it is longer (class scope, then removing the class's
// other methods farthest first, or function scope; else the snippet is discarded), library imports re-attached when
// anything was cut (at most 8, only those whose names the code uses), and 3–10 lines of right context that stop at
// the next def, class or decorator at the call's indentation or less. Pure: the tree arrives parsed.
import type { Node, Tree } from 'web-tree-sitter';
import { indexTree } from '../../../core/python/tree-index.js';

export const PREFIX_BUDGET = 3000;
export const MAX_REATTACHED_IMPORTS = 8;
export const SUFFIX_MIN_LINES = 3;
export const SUFFIX_MAX_LINES = 10;
/** The line that stands where context was cut. */
export const OMITTED_NOTE = '# (previous context omitted)';

export type Truncation = 'none' | 'class-scope' | 'method-removal' | 'function-scope';

export interface SnippetOptions {
  /** Import roots whose imports count as library imports (the libraries the dataset tracks). */
  libraries: ReadonlySet<string>;
  budget?: number;
  maxImports?: number;
}

export interface Snippet {
  /** Code before the masked call. */
  prefix: string;
  /** Right context after it. */
  suffix: string;
  truncation: Truncation;
  /** Methods removed by the second step of the cascade. */
  removedMethods: number;
  /** Import statements put back in front of a truncated prefix. */
  imports: string[];
}

export type SnippetResult = Snippet | { discarded: 'too-long' };

// ---- lines ---------------------------------------------------------------------------------------------------------

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function indentOf(line: string): number {
  return /^[ \t]*/.exec(line)![0].length;
}

/** The start of the first line at or after `offset`'s next line that holds more than whitespace (or the text's end). */
function nextNonBlankLine(text: string, offset: number): number {
  let at = text.indexOf('\n', offset);
  while (at >= 0) {
    const start = at + 1;
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? undefined : end);
    if (line.trim() !== '') return start;
    if (end < 0) return text.length;
    at = end;
  }
  return text.length;
}

// ---- right context -------------------------------------------------------------------------------------------------

const SCOPE_BOUNDARY = /^([ \t]*)(?:(?:async[ \t]+)?def\b|class\b|@)/;

/**
 * The right context of a call ending at `end`: the rest of its line, then up to SUFFIX_MAX_LINES lines; after the
 * first SUFFIX_MIN_LINES, a def, class or decorator line indented no deeper than `indent` (the call's statement)
 * ends it. Trailing blank lines are dropped and the context ends with a newline.
 */
export function rightContext(text: string, end: number, indent: number): string {
  const eol = text.indexOf('\n', end);
  if (eol < 0) return text.slice(end);
  const rest = text.slice(end, eol);
  const taken: string[] = [];
  let at = eol + 1;
  while (at < text.length && taken.length < SUFFIX_MAX_LINES) {
    const next = text.indexOf('\n', at);
    const line = text.slice(at, next < 0 ? undefined : next);
    const boundary = SCOPE_BOUNDARY.exec(line);
    if (taken.length >= SUFFIX_MIN_LINES && boundary && boundary[1]!.length <= indent) break;
    taken.push(line);
    if (next < 0) break;
    at = next + 1;
  }
  while (taken.length > 0 && taken[taken.length - 1]!.trim() === '') taken.pop();
  return rest + '\n' + (taken.length > 0 ? taken.join('\n') + '\n' : '');
}

/** Indentation of the statement that holds `node` (the first line of the innermost statement around it). */
function statementIndent(text: string, node: Node): number {
  let current: Node | null = node;
  while (current?.parent && current.parent.type !== 'block' && current.parent.type !== 'module') current = current.parent;
  const start = lineStartOf(text, (current ?? node).startIndex);
  return indentOf(text.slice(start, text.indexOf('\n', start) < 0 ? undefined : text.indexOf('\n', start)));
}

// ---- imports -------------------------------------------------------------------------------------------------------

interface ImportStatement {
  start: number;
  end: number;
  text: string;
  /** Names the statement binds. */
  names: string[];
}

function dottedRoot(node: Node | null): string | null {
  if (!node || node.type !== 'dotted_name') return null;
  return node.namedChildren.find((c) => c?.type === 'identifier')?.text ?? null;
}

/** Import statements of the tracked libraries, with the names they bind (star imports bind none we can check). */
export function libraryImports(tree: Tree, libraries: ReadonlySet<string>): ImportStatement[] {
  const index = indexTree(tree);
  const out: ImportStatement[] = [];
  for (const node of [...index.ofType('import_statement'), ...index.ofType('import_from_statement')]) {
    const names: string[] = [];
    let library = false;
    if (node.type === 'import_statement') {
      for (const item of node.namedChildren) {
        if (!item) continue;
        const dotted = item.type === 'aliased_import' ? item.childForFieldName('name') : item;
        const root = dottedRoot(dotted);
        if (!root) continue;
        if (libraries.has(root)) library = true;
        const alias = item.type === 'aliased_import' ? item.childForFieldName('alias')?.text : undefined;
        names.push(alias ?? root);
      }
    } else {
      const root = dottedRoot(node.childForFieldName('module_name'));
      if (!root || !libraries.has(root)) continue; // relative imports stay inside the project
      library = true;
      for (const item of node.childrenForFieldName('name')) {
        if (!item) continue;
        const alias = item.type === 'aliased_import' ? item.childForFieldName('alias') : null;
        const dotted = item.type === 'aliased_import' ? item.childForFieldName('name') : item;
        const last = dotted?.namedChildren.filter((c) => c?.type === 'identifier').pop();
        const name = alias?.text ?? last?.text;
        if (name) names.push(name);
      }
    }
    if (library && names.length > 0) out.push({ start: node.startIndex, end: node.endIndex, text: node.text, names });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Names used in code: identifiers that are not attribute names (`solve` in `sub.solve` is not a use of `solve`). */
function identifiersIn(text: string): Set<string> {
  return new Set(text.match(/(?<![.\w])[A-Za-z_]\w*/g) ?? []);
}

// ---- the cascade ---------------------------------------------------------------------------------------------------

function outermost(node: Node, type: string): Node | null {
  let found: Node | null = null;
  for (let n = node.parent; n; n = n.parent) if (n.type === type) found = n;
  return found;
}

/** A class body's members that are methods (decorators included), entirely before `cursor`. */
function methodsBefore(cls: Node, cursor: number): Node[] {
  const body = cls.childForFieldName('body');
  if (!body) return [];
  return body.namedChildren.filter((m): m is Node => {
    if (!m || m.endIndex > cursor) return false;
    if (m.type === 'function_definition') return true;
    return m.type === 'decorated_definition' && m.childForFieldName('definition')?.type === 'function_definition';
  });
}

/**
 * The snippet around the call `node` of `text`: prefix, right context and how the prefix was truncated, or
 * `{ discarded: 'too-long' }` when no step of the cascade brings the prefix within the budget.
 */
export function buildSnippet(text: string, tree: Tree, node: Node, options: SnippetOptions): SnippetResult {
  const budget = options.budget ?? PREFIX_BUDGET;
  const maxImports = options.maxImports ?? MAX_REATTACHED_IMPORTS;
  const cursor = node.startIndex;
  const suffix = rightContext(text, node.endIndex, statementIndent(text, node));
  const whole = text.slice(0, cursor);
  if (whole.length <= budget) return { prefix: whole, suffix, truncation: 'none', removedMethods: 0, imports: [] };

  const imports = libraryImports(tree, options.libraries);
  /** The prefix from `cut` with `removed` spans left out, imports used by what remains put back in front. */
  const assemble = (cut: number, removed: readonly [number, number][]): { prefix: string; imports: string[] } => {
    let kept = '';
    let at = cut;
    for (const [from, to] of removed) {
      kept += text.slice(at, from);
      at = to;
    }
    kept += text.slice(at, cursor);
    const omitted = (s: number, e: number) => e <= cut || removed.some(([from, to]) => s >= from && e <= to);
    const used = identifiersIn(`${kept}\n${node.text}\n${suffix}`);
    const chosen: string[] = [];
    for (const imp of imports) {
      if (chosen.length >= maxImports) break;
      if (!omitted(imp.start, imp.end) || !imp.names.some((n) => used.has(n)) || chosen.includes(imp.text)) continue;
      chosen.push(imp.text);
    }
    return { prefix: chosen.map((t) => t + '\n').join('') + OMITTED_NOTE + '\n' + kept, imports: chosen };
  };

  const cls = outermost(node, 'class_definition');
  if (cls) {
    const cut = lineStartOf(text, cls.startIndex);
    const scoped = assemble(cut, []);
    if (scoped.prefix.length <= budget) return { ...scoped, suffix, truncation: 'class-scope', removedMethods: 0 };
    // Farthest from the call first: every removable method precedes it, so in source order.
    const removed: [number, number][] = [];
    for (const method of methodsBefore(cls, cursor)) {
      const from = lineStartOf(text, method.startIndex);
      const to = Math.min(nextNonBlankLine(text, method.endIndex), lineStartOf(text, cursor));
      removed.push([from, to]);
      const trimmed = assemble(cut, removed);
      if (trimmed.prefix.length <= budget) return { ...trimmed, suffix, truncation: 'method-removal', removedMethods: removed.length };
    }
    return { discarded: 'too-long' };
  }
  const fn = outermost(node, 'function_definition');
  if (fn) {
    const scoped = assemble(lineStartOf(text, fn.startIndex), []);
    if (scoped.prefix.length <= budget) return { ...scoped, suffix, truncation: 'function-scope', removedMethods: 0 };
  }
  return { discarded: 'too-long' };
}
