// Which Python files a CLI run covers: the files named, and every *.py (and *.pyi) under the folders named, hidden
// files and the folders workspace/python-files.ts skips left out. Only regular files are covered: what was passed
// over (a FIFO, a device, a folder that cannot be read) is returned for the command to report.
import { statSync } from 'node:fs';
import { fileKind } from '../workspace/bounded-read.js';
import { walkFiles, type SkippedPath } from '../workspace/python-files.js';

const isPython = (name: string) => !name.startsWith('.') && (name.endsWith('.py') || name.endsWith('.pyi'));

/** The files (in the order named, each folder's sorted), the paths that do not exist, each file's size in bytes, and what was passed over and why. */
export function collectPythonFiles(paths: string[]): { files: string[]; missing: string[]; sizes: ReadonlyMap<string, number>; skipped: SkippedPath[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const skipped: SkippedPath[] = [];
  const sizes = new Map<string, number>();
  const add = (path: string, size: number) => {
    files.push(path);
    sizes.set(path, size);
  };
  for (const p of paths) {
    const stat = statOrNull(p);
    if (!stat) missing.push(p);
    else if (stat.isDirectory()) for (const f of walkFiles(p, isPython, undefined, (s) => skipped.push(s))) add(f.path, f.size);
    else if (!stat.isFile()) skipped.push({ path: p, reason: `${fileKind(stat)}, not a regular file` });
    else add(p, stat.size);
  }
  return { files: [...new Set(files)], missing, sizes, skipped };
}

function statOrNull(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/** One warning per path passed over, naming it and why. */
export function warnSkipped(skipped: readonly SkippedPath[], err: (s: string) => void): void {
  for (const s of skipped) err(`anachron: warning: skipped ${s.path}: ${s.reason}`);
}

/**
 * After a command's results: the files and folders that could not be read, named in one line, and exit code 2;
 * undefined when everything could be read.
 */
export function unreadableExit(paths: readonly string[], err: (s: string) => void): 2 | undefined {
  if (paths.length === 0) return undefined;
  const shown = paths.slice(0, 5).join(', ') + (paths.length > 5 ? ` and ${paths.length - 5} more` : '');
  err(`anachron: error: could not read ${paths.length} file${paths.length === 1 ? '' : 's'} or folder${paths.length === 1 ? '' : 's'}: ${shown} (their findings are missing; give read permission or leave them out)`);
  return 2;
}
