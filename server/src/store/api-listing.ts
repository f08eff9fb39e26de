// Adapter: the list of API paths a matrix records (the rows of its A matrix), which the reference models and the
// lookup tool's search need and LibraryMatrix does not expose (it answers lookups only). The SQLite store offers
// `apiPaths()`.
import type { LibraryMatrix } from '../core/api-model.js';

/** Lists a matrix's API paths. */
export type ApiListing = (matrix: LibraryMatrix) => readonly string[];

interface WithApiPaths {
  apiPaths(): readonly string[];
}

export const listMatrixApis: ApiListing = (matrix: LibraryMatrix): readonly string[] => {
  const m = matrix as LibraryMatrix & Partial<WithApiPaths>;
  if (typeof m.apiPaths === 'function') return m.apiPaths();
  throw new Error(`the ${matrix.library} matrix cannot list its APIs (no apiPaths())`);
};
