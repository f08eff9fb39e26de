// Adapter: reads a folder of Python code into a corpus. Each file's pins come from the project's manifests, found the
// way the checker finds them (pinsForFile: the nearest folder at or above the file with a manifest, never above the
// folder given); exact pins only. Explicit pins override the manifests. The only module of the dataset builder that
// touches the file system.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pinsForFile } from '../../../workspace/manifests.js';
import { normalizePins, type CorpusFile } from './corpus.js';

export interface CorpusFolderOptions {
  /** Pins that override the manifests for every file, e.g. `{ numpy: '1.24.2' }`. */
  pins?: Readonly<Record<string, string>>;
  /** Folder names never entered (default: virtual environments, caches, VCS and build folders, hidden folders). */
  skipFolders?: readonly string[];
  /** At most this many files, in path order (default: no limit). */
  maxFiles?: number;
  /** Files larger than this are left out, as generated code (default 1 MB). */
  maxFileBytes?: number;
}

export const DEFAULT_SKIPPED_FOLDERS: readonly string[] = ['node_modules', '__pycache__', 'site-packages', 'venv', 'env', 'build', 'dist'];

/** The `*.py` files under `folder`, relative and '/'-separated, sorted. */
export function listPythonFiles(folder: string, options: CorpusFolderOptions = {}): string[] {
  const skip = new Set(options.skipFolders ?? DEFAULT_SKIPPED_FOLDERS);
  const maxBytes = options.maxFileBytes ?? 1_000_000;
  const out: string[] = [];
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
        if (!name.startsWith('.') && !skip.has(name)) visit(full);
      } else if (name.endsWith('.py') && stat.size <= maxBytes) {
        out.push(relative(folder, full).split(sep).join('/'));
      }
    }
  };
  visit(resolve(folder));
  out.sort();
  return options.maxFiles !== undefined ? out.slice(0, options.maxFiles) : out;
}

/** Reads the Python files under `folder` with the exact pins in force for each. */
export function readCorpusFolder(folder: string, options: CorpusFolderOptions = {}): CorpusFile[] {
  const root = resolve(folder);
  const overrides = normalizePins(options.pins ?? {});
  const pinsByFolder = new Map<string, Record<string, string>>();
  const files: CorpusFile[] = [];
  for (const path of listPythonFiles(root, options)) {
    const full = join(root, ...path.split('/'));
    const dir = dirname(full);
    let pins = pinsByFolder.get(dir);
    if (!pins) {
      pins = {};
      for (const [distribution, pin] of pinsForFile(full, { root, displayBase: root }).pins) {
        if (pin.exactVersion !== null) pins[distribution] = pin.exactVersion;
      }
      pinsByFolder.set(dir, pins);
    }
    let text: string;
    try {
      text = readFileSync(full, 'utf8');
    } catch {
      continue;
    }
    files.push({ path, text, pins: { ...pins, ...overrides } });
  }
  return files;
}
