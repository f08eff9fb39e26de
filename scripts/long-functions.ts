// Lists the functions of the TypeScript sources longer than a threshold (default 165 lines), longest first: the
// figure behind "pure planners wrapped in thin effect shells". A function's length is its text from the first to the
// last line, nested functions included (a closure that registers twenty handlers is one long function).
//   node --import tsx scripts/long-functions.ts [--over N] [FOLDER|FILE...]     (default folders: server/src client/src)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface FunctionLength {
  readonly file: string;
  readonly name: string;
  readonly line: number;
  readonly lines: number;
}

/** Every function-like node of one source text with its length in lines. */
export function functionLengths(file: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: FunctionLength[] = [];
  const lineOf = (position: number): number => source.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = lineOf(node.getStart(source));
      found.push({ file, name: functionName(node, source), line: first, lines: lineOf(node.getEnd()) - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function functionName(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name !== undefined) return named.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(source);
  if (ts.isCallExpression(parent)) return `(argument of ${parent.expression.getText(source).slice(0, 60)})`;
  return '(anonymous)';
}

function sourceFiles(folder: string): string[] {
  if (!statSync(folder).isDirectory()) return [folder];
  const files: string[] = [];
  for (const name of readdirSync(folder).sort()) {
    const full = join(folder, name);
    if (statSync(full).isDirectory()) files.push(...sourceFiles(full));
    else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) files.push(full);
  }
  return files;
}

if (process.argv[1] !== undefined && /long-functions\.ts$/.test(process.argv[1])) {
  const args = process.argv.slice(2);
  const overAt = args.indexOf('--over');
  const over = overAt >= 0 ? Number(args[overAt + 1]) : 165;
  if (!Number.isInteger(over) || over < 1) {
    console.error('long-functions: --over takes a whole number of lines');
    process.exit(2);
  }
  const folders = args.filter((_, index) => index !== overAt && index !== overAt + 1);
  const root = join(__dirname, '..');
  const all = (folders.length > 0 ? folders : ['server/src', 'client/src'])
    .flatMap((folder) => sourceFiles(join(root, folder)))
    .flatMap((file) => functionLengths(relative(root, file), readFileSync(file, 'utf8')));
  const long = all.filter((entry) => entry.lines > over).sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
  for (const entry of long) console.log(`${String(entry.lines).padStart(5)}  ${entry.name}  ${entry.file}:${entry.line}`);
  console.log(`${long.length} functions over ${over} lines (of ${all.length})`);
}
