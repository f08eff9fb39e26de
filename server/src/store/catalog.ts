// The matrices of a folder, each opened the first time it is asked for: a command about numpy reads no other
// matrix, and a server opens only the libraries its files import (opening one means reading its schema, which the
// WebAssembly SQLite does slowly until its code is warm). A matrix is found by its file name, LIBRARY.sqlite, as
// the builder writes it. A broken matrix is reported (problems, and onProblem when it is found) and skipped; the
// others still work.
import { readdirSync } from 'node:fs';
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

  return {
    names,
    get problems() {
      return problems;
    },
    get matrices() {
      return all();
    },
    forImportRoot: (root: string) => (known.has(root) ? open(root) : undefined),
    libraries: (): readonly LibraryMatrix[] => all(),
    close: () => {
      for (const m of opened.values()) m?.close();
      opened.clear();
    },
  };
}
