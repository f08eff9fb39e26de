// Which Python files a CLI run covers: the files named, and every *.py under the folders named.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SKIPPED_FOLDERS = new Set(['node_modules', '__pycache__', 'site-packages', 'venv', '.venv', 'env', '.tox', '.nox', 'build', 'dist']);

export function collectPythonFiles(paths: string[]): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
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
      else if (name.endsWith('.py') || name.endsWith('.pyi')) files.push(full);
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
    else files.push(p);
  }
  return { files: [...new Set(files)], missing };
}
