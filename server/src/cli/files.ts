// Which Python files a CLI run covers: the files named, and every *.py under the folders named.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SKIPPED_FOLDERS = new Set(['node_modules', '__pycache__', 'site-packages', 'venv', '.venv', 'env', '.tox', '.nox', 'build', 'dist']);

/** The files (in the order named, each folder's sorted), the paths that do not exist, and each file's size in bytes. */
export function collectPythonFiles(paths: string[]): { files: string[]; missing: string[]; sizes: ReadonlyMap<string, number> } {
  const files: string[] = [];
  const missing: string[] = [];
  const sizes = new Map<string, number>();
  const visit = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of entries) {
      if (name.startsWith('.') || SKIPPED_FOLDERS.has(name)) continue;
      const full = join(dir, name);
      let stat;
      try {
        stat = statSync(full);
      } catch {
        continue;
      }
      if (stat.isDirectory()) visit(full);
      else if (name.endsWith('.py') || name.endsWith('.pyi')) {
        files.push(full);
        sizes.set(full, stat.size);
      }
    }
  };
  for (const p of paths) {
    let stat;
    try {
      stat = statSync(p);
    } catch {
      missing.push(p);
      continue;
    }
    if (stat.isDirectory()) visit(p);
    else {
      files.push(p);
      sizes.set(p, stat.size);
    }
  }
  return { files: [...new Set(files)], missing, sizes };
}
