// Adapter: the list of API paths a matrix records, which the reference models need and LibraryMatrix does not expose
// (it answers lookups only). Matrices that offer `apiPaths()` are asked directly; a SQLite matrix file is read
// read-only. When the store grows an `apiPaths()` of its own, this file shrinks to the first branch.
import Database from 'better-sqlite3';
import type { LibraryMatrix } from '../../core/api-model.js';
import { openMatrixCatalog, type LoadedCatalog } from '../../store/catalog.js';
import type { ApiListing } from './reference.js';

interface WithApiPaths {
  apiPaths(): readonly string[];
}
interface WithFile {
  readonly file: string;
}

export const listMatrixApis: ApiListing = (matrix: LibraryMatrix): readonly string[] => {
  const m = matrix as LibraryMatrix & Partial<WithApiPaths> & Partial<WithFile>;
  if (typeof m.apiPaths === 'function') return m.apiPaths();
  if (typeof m.file === 'string') {
    const db = new Database(m.file, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT path FROM apis ORDER BY path').all() as { path: string }[]).map((r) => r.path);
    } finally {
      db.close();
    }
  }
  throw new Error(`the ${matrix.library} matrix cannot list its APIs (no apiPaths() and no file)`);
};

export interface ReferenceKnowledge {
  catalog: LoadedCatalog;
  listing: ApiListing;
  close(): void;
}

/** Opens every matrix in a folder for the reference models. Throws when the folder holds none. */
export function openReferenceKnowledge(matricesFolder: string): ReferenceKnowledge {
  const catalog = openMatrixCatalog(matricesFolder);
  if (catalog.matrices.length === 0) {
    catalog.close();
    throw new Error(`reference models need matrices: ${catalog.problems.join('; ') || `none in ${matricesFolder}`}`);
  }
  return { catalog, listing: listMatrixApis, close: () => catalog.close() };
}
