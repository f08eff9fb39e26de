// Adapter: the list of API paths a matrix records (the rows of its A matrix), which the reference models need and
// LibraryMatrix does not expose (it answers lookups only). The SQLite store offers `apiPaths()`.
import type { LibraryMatrix } from '../../core/api-model.js';
import { openMatrixCatalog, type LoadedCatalog } from '../../store/catalog.js';
import type { ApiListing } from '../libevobench/reference-models.js';

interface WithApiPaths {
  apiPaths(): readonly string[];
}
export const listMatrixApis: ApiListing = (matrix: LibraryMatrix): readonly string[] => {
  const m = matrix as LibraryMatrix & Partial<WithApiPaths>;
  if (typeof m.apiPaths === 'function') return m.apiPaths();
  throw new Error(`the ${matrix.library} matrix cannot list its APIs (no apiPaths())`);
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
