// Walking a project for its Python files, for every caller that does (the CLI's check and min-versions, a benchmark
// corpus): one list of folders never entered (virtual environments, caches, build output; hidden folders too).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const SKIPPED_FOLDERS: readonly string[] = ['node_modules', '__pycache__', 'site-packages', 'venv', 'env', 'build', 'dist'];

export interface WalkedFile {
  path: string;
  /** In bytes. */
  size: number;
}

/**
 * The files under `folder` that `keep` accepts (by name and size), depth first, each folder's entries in name order.
 * Hidden folders and those in `skip` are never entered; what cannot be read is passed over.
 */
export function walkFiles(folder: string, keep: (name: string, size: number) => boolean, skip: readonly string[] = SKIPPED_FOLDERS): WalkedFile[] {
  const skipped = new Set(skip);
  const out: WalkedFile[] = [];
  const visit = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const full = join(dir, name);
      let stat;
      try {
        stat = statSync(full);
      } catch {
        continue;
      }
      if (stat.isDirectory()) {
        if (!name.startsWith('.') && !skipped.has(name)) visit(full);
      } else if (keep(name, stat.size)) out.push({ path: full, size: stat.size });
    }
  };
  visit(folder);
  return out;
}
