// The matrices of a folder, each opened the first time it is asked for: a command about numpy reads no other
// matrix, and a server opens only the libraries its files import (opening one means reading its schema, which the
// WebAssembly SQLite does slowly until its code is warm). A matrix is found by its file name, LIBRARY.sqlite, as
// the builder writes it. A broken matrix is reported (problems, and onProblem when it is found) and skipped; the
// others still work.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LibraryMatrix, MatrixCatalog } from '../core/api-model.js';
import { SqliteMatrix } from './sqlite-matrix.js';

export interface LoadedCatalog extends MatrixCatalog {
  /** The libraries the folder has a matrix for (from the file names; nothing opened). */
  readonly names: readonly string[];
  /** Problems found so far: with the folder, and with every matrix opened. */
  readonly problems: readonly string[];
  /** Every usable matrix of the folder (opening all of them). */
  readonly matrices: readonly SqliteMatrix[];
  close(): void;
}

export interface CatalogOptions {
  /** Called with each problem as it is found (the folder's at once, a matrix's when it is first opened). */
  onProblem?: (problem: string) => void;
}

export function openMatrixCatalog(folder: string, options: CatalogOptions = {}): LoadedCatalog {
  const problems: string[] = [];
  const report = (problem: string) => {
    problems.push(problem);
    options.onProblem?.(problem);
  };
  let files: string[] = [];
  try {
    files = readdirSync(folder).filter((n) => n.endsWith('.sqlite')).sort();
  } catch (e) {
    report(`cannot read the matrices folder ${folder}: ${(e as Error).message}`);
  }
  if (files.length === 0 && problems.length === 0) report(`no matrices (*.sqlite) in ${folder}`);
  const names = files.map((f) => f.slice(0, -'.sqlite'.length));
  const known = new Set(names);
  /** Per library: the matrix once opened, null when it could not be. */
  const opened = new Map<string, SqliteMatrix | null>();

  const open = (name: string): SqliteMatrix | undefined => {
    if (!opened.has(name)) {
      let matrix: SqliteMatrix | null = null;
      const file = join(folder, `${name}.sqlite`);
      try {
        matrix = new SqliteMatrix(file);
        if (matrix.library !== name) {
          report(`${file}: holds the matrix of ${matrix.library}, not of ${name}: name it ${matrix.library}.sqlite`);
          matrix.close();
          matrix = null;
        }
      } catch (e) {
        report((e as Error).message);
      }
      opened.set(name, matrix);
    }
    return opened.get(name) ?? undefined;
  };
  const all = (): SqliteMatrix[] => names.map(open).filter((m): m is SqliteMatrix => m !== undefined);
  // A matrix that answers for top-level modules other than its own name (python: os, sys, builtins…) is found through
  // import-roots.json, written beside the matrices by the builder; without it, by opening every matrix once.
  let rootIndex: Map<string, string> | undefined;
  const otherRoot = (root: string): SqliteMatrix | undefined => {
    if (!rootIndex) {
      rootIndex = new Map();
      const listed = readImportRoots(folder, report);
      if (listed) {
        for (const [name, roots] of Object.entries(listed)) if (known.has(name)) for (const r of roots) if (!known.has(r)) rootIndex.set(r, name);
      } else {
        for (const m of all()) for (const r of m.importRoots ?? []) if (!known.has(r) && !rootIndex.has(r)) rootIndex.set(r, m.library);
      }
    }
    const name = rootIndex.get(root);
    return name ? open(name) : undefined;
  };

  return {
    names,
    get problems() {
      return problems;
    },
    get matrices() {
      return all();
    },
    forImportRoot: (root: string) => (known.has(root) ? open(root) : otherRoot(root)),
    libraries: (): readonly LibraryMatrix[] => all(),
    close: () => {
      for (const m of opened.values()) m?.close();
      opened.clear();
    },
  };
}

export const IMPORT_ROOTS_FILE = 'import-roots.json';

/** import-roots.json: {library: [top-level module, …]} for the matrices that answer for modules besides their name. */
function readImportRoots(folder: string, report: (problem: string) => void): Record<string, string[]> | null {
  let text: string;
  try {
    text = readFileSync(join(folder, IMPORT_ROOTS_FILE), 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Object.values(value).some((v) => !Array.isArray(v) || v.some((r) => typeof r !== 'string'))) {
      throw new Error('expected {"library": ["module", …]}');
    }
    return value as Record<string, string[]>;
  } catch (e) {
    report(`${join(folder, IMPORT_ROOTS_FILE)}: ${(e as Error).message}; the matrices are opened to find their modules instead`);
    return null;
  }
}
