// The import graph of the TypeScript sources, read from their text: every relative import (type-only ones included)
// resolved to a file, and every package imported. For the architecture's invariants (test/architecture.test.ts).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export interface SourceFile {
  /** Relative to the repository root, with "/" separators. */
  path: string;
  /** Source files it imports (relative paths, as `path`). */
  imports: string[];
  /** Packages it imports: "vscode", "vscode-languageserver/node", "node:fs" … */
  packages: string[];
}

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolveImport(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function sourcesUnder(root: string, folder: string): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) visit(full);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(full);
    }
  };
  visit(join(root, folder));
  return out;
}

/** The graph of every .ts file under the given folders of `root`. Unresolvable relative imports are reported as such. */
export function importGraph(root: string, folders: readonly string[]): { files: Map<string, SourceFile>; unresolved: string[] } {
  const files = new Map<string, SourceFile>();
  const unresolved: string[] = [];
  const rel = (p: string) => relative(root, p).split('\\').join('/');
  for (const folder of folders) {
    for (const file of sourcesUnder(root, folder)) {
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
      const imports = new Set<string>();
      const packages = new Set<string>();
      for (const m of text.matchAll(SPECIFIER)) {
        const specifier = m[1] ?? m[2] ?? m[3]!;
        if (specifier.startsWith('.')) {
          const target = resolveImport(file, specifier);
          if (target) imports.add(rel(target));
          else unresolved.push(`${rel(file)}: ${specifier}`);
        } else packages.add(specifier);
      }
      files.set(rel(file), { path: rel(file), imports: [...imports].sort(), packages: [...packages].sort() });
    }
  }
  return { files, unresolved };
}

/** Every cycle of the graph, each once, as the list of files around it (Tarjan's strongly connected components). */
export function importCycles(files: ReadonlyMap<string, SourceFile>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of files.get(v)?.imports ?? []) {
      if (!files.has(w)) continue;
      if (!indexOf.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || files.get(v)!.imports.includes(v)) components.push(component.sort());
    }
  };
  for (const v of [...files.keys()].sort()) if (!indexOf.has(v)) connect(v);
  return components;
}
