// Walking a project for its Python files, for every caller that does (the CLI's check and min-versions, a benchmark
// corpus): one list of folders never entered (virtual environments, caches, build output; hidden folders too).
// A walk enters each folder once by its real path, so symlink loops (a link to a parent, two links to each other)
// end, and a file reached by several links is listed once; it keeps its own stack, so no depth of folders can
// exhaust the call stack. Only regular files are listed: a FIFO, device or socket with a kept name is reported as
// skipped, never opened.
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileKind } from './bounded-read.js';

export const SKIPPED_FOLDERS: readonly string[] = ['node_modules', '__pycache__', 'site-packages', 'venv', 'env', 'build', 'dist'];

export interface WalkedFile {
  path: string;
  /** In bytes. */
  size: number;
}

export interface SkippedPath {
  path: string;
  /** Why, in words: "a FIFO, not a regular file", "cannot read the folder: EACCES ...". */
  reason: string;
  /** It could not be read (no permission, an I/O error), as opposed to passed over by kind. */
  unreadable?: true;
}

/**
 * The files under `folder` that `keep` accepts (by name and size), depth first, each folder's entries in name order.
 * Hidden folders and those in `skip` are never entered; a folder already entered by another path (a symlink) is not
 * entered again, and a file already listed by another path is not listed again. What is passed over for a reason
 * the user should hear (a kept name that is not a regular file, a folder or file that cannot be read) goes to
 * `onSkip`; a dangling symlink is passed over silently.
 */
export function walkFiles(folder: string, keep: (name: string, size: number) => boolean, skip: readonly string[] = SKIPPED_FOLDERS, onSkip?: (skipped: SkippedPath) => void): WalkedFile[] {
  const skipped = new Set(skip);
  const out: WalkedFile[] = [];
  const enteredFolders = new Set<string>();
  const listedFiles = new Set<string>();
  const real = (path: string): string | undefined => {
    try {
      return realpathSync(path);
    } catch {
      return undefined;
    }
  };
  // The folders being walked, innermost last, each with its entries (in name order) and the next one to look at.
  const stack: { dir: string; names: string[]; next: number }[] = [];
  const enter = (dir: string) => {
    const realDir = real(dir);
    if (realDir === undefined || enteredFolders.has(realDir)) return;
    enteredFolders.add(realDir);
    try {
      stack.push({ dir, names: readdirSync(dir).sort(), next: 0 });
    } catch (e) {
      onSkip?.({ path: dir, reason: `cannot read the folder: ${(e as Error).message}`, unreadable: true });
    }
  };
  enter(folder);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next >= top.names.length) {
      stack.pop();
      continue;
    }
    const name = top.names[top.next++]!;
    const full = join(top.dir, name);
    let stat;
    try {
      stat = statSync(full);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ELOOP' && keep(name, 0)) onSkip?.({ path: full, reason: (e as Error).message, unreadable: true });
      continue;
    }
    if (stat.isDirectory()) {
      if (!name.startsWith('.') && !skipped.has(name)) enter(full);
    } else if (!stat.isFile()) {
      if (keep(name, 0)) onSkip?.({ path: full, reason: `${fileKind(stat)}, not a regular file` });
    } else if (keep(name, stat.size)) {
      const realFile = real(full) ?? full;
      if (listedFiles.has(realFile)) continue;
      listedFiles.add(realFile);
      out.push({ path: full, size: stat.size });
    }
  }
  return out;
}
