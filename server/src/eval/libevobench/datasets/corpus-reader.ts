// Adapter: reads a folder of Python code into a corpus. Each file's pins come from the project's manifests, found the
// way the checker finds them (pinsForFile: the nearest folder at or above the file with a manifest, never above the
// folder given); exact pins only. Explicit pins override the manifests. The only module of the dataset builder that
// touches the file system.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pinsForFile } from '../../../workspace/manifests.js';
import { SKIPPED_FOLDERS, walkFiles } from '../../../workspace/python-files.js';
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

/** The `*.py` files under `folder`, relative and '/'-separated, sorted. */
export function listPythonFiles(folder: string, options: CorpusFolderOptions = {}): string[] {
  const root = resolve(folder);
  const maxBytes = options.maxFileBytes ?? 1_000_000;
  const out = walkFiles(root, (name, size) => name.endsWith('.py') && size <= maxBytes, options.skipFolders ?? SKIPPED_FOLDERS).map((f) => relative(root, f.path).split(sep).join('/'));
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
    // A corpus is many projects side by side: a file gets its own folders' pins only, never a neighbour's found by search.
    let pins = pinsByFolder.get(dir);
    if (!pins) {
      pins = {};
      for (const [distribution, pin] of pinsForFile(full, { root, displayBase: root, searchProject: false }).pins) {
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
