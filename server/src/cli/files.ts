// Which Python files a CLI run covers: the files named, and every *.py (and *.pyi) under the folders named, hidden
// files and the folders workspace/python-files.ts skips left out.
import { statSync } from 'node:fs';
import { walkFiles } from '../workspace/python-files.js';

const isPython = (name: string) => !name.startsWith('.') && (name.endsWith('.py') || name.endsWith('.pyi'));

/** The files (in the order named, each folder's sorted), the paths that do not exist, and each file's size in bytes. */
export function collectPythonFiles(paths: string[]): { files: string[]; missing: string[]; sizes: ReadonlyMap<string, number> } {
  const files: string[] = [];
  const missing: string[] = [];
  const sizes = new Map<string, number>();
  const add = (path: string, size: number) => {
    files.push(path);
    sizes.set(path, size);
  };
  for (const p of paths) {
    const stat = statOrNull(p);
    if (!stat) missing.push(p);
    else if (stat.isDirectory()) for (const f of walkFiles(p, isPython)) add(f.path, f.size);
    else add(p, stat.size);
  }
  return { files: [...new Set(files)], missing, sizes };
}

function statOrNull(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
