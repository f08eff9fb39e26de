// Finds and opens every matrix in a folder. A broken matrix file is reported and skipped; the others still work.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LibraryMatrix, MatrixCatalog } from '../core/api-model.js';
import { SqliteMatrix } from './sqlite-matrix.js';

export interface LoadedCatalog extends MatrixCatalog {
  readonly problems: readonly string[];
  readonly matrices: readonly SqliteMatrix[];
  close(): void;
}

export function openMatrixCatalog(folder: string): LoadedCatalog {
  const problems: string[] = [];
  const matrices: SqliteMatrix[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter((n) => n.endsWith('.sqlite')).sort();
  } catch (e) {
    problems.push(`cannot read the matrices folder ${folder}: ${(e as Error).message}`);
  }
  for (const name of names) {
    try {
      matrices.push(new SqliteMatrix(join(folder, name)));
    } catch (e) {
      problems.push((e as Error).message);
    }
  }
  if (names.length === 0 && problems.length === 0) problems.push(`no matrices (*.sqlite) in ${folder}`);
  const byRoot = new Map(matrices.map((m) => [m.library, m] as const));
  return {
    problems,
    matrices,
    forImportRoot: (root: string) => byRoot.get(root),
    libraries: (): readonly LibraryMatrix[] => matrices,
    close: () => matrices.forEach((m) => m.close()),
  };
}
