// The length of every function in the TypeScript sources, read with the TypeScript compiler's parser: its whole
// span in lines, and its own lines (the span without the functions defined inside it, which are measured on their
// own). For the cap on function length (test/architecture.test.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface FunctionLength {
  /** "server/src/core/checker.ts:38 checkReference" (1-based line of its start). */
  where: string;
  /** Lines from its first to its last, both counted. */
  lines: number;
  /** `lines` less the lines of the functions defined in it. */
  ownLines: number;
}

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = (node as { name?: ts.Node }).name;
  if (named) return named.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(source);
  return '(anonymous)';
}

function hasBody(node: ts.Node): node is ts.FunctionLikeDeclaration & { body: ts.Node } {
  return ts.isFunctionLike(node) && (node as { body?: ts.Node }).body !== undefined;
}

function lengthsIn(file: string, path: string): FunctionLength[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const span = (node: ts.Node) => lineOf(node.end) - lineOf(node.getStart(source)) + 1;
  const out: FunctionLength[] = [];
  const visit = (node: ts.Node) => {
    if (hasBody(node)) {
      let inner = 0;
      const nested = (child: ts.Node) => {
        if (hasBody(child)) inner += span(child);
        else ts.forEachChild(child, nested);
      };
      ts.forEachChild(node.body, nested);
      const lines = span(node);
      out.push({ where: `${path}:${lineOf(node.getStart(source)) + 1} ${nameOf(node, source)}`, lines, ownLines: lines - inner });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Every function (declarations, methods, arrow functions, function expressions) in the .ts files under the folders. */
export function functionLengths(root: string, folders: readonly string[]): FunctionLength[] {
  const out: FunctionLength[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(...lengthsIn(full, relative(root, full).split('\\').join('/')));
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return out;
}
