// The lookup tool's knowledge over the bundled matrices, opened before a describe block's tests and closed after.
import { after, before } from 'node:test';
import { ApiKnowledge } from '../../server/src/knowledge/api-lookup.js';
import { listMatrixApis } from '../../server/src/store/api-listing.js';
import { openMatrixCatalog, type LoadedCatalog } from '../../server/src/store/catalog.js';
import { defaultMatricesFolder } from '../../server/src/store/matrices-folder.js';

export interface OpenedKnowledge {
  catalog: LoadedCatalog;
  knowledge: ApiKnowledge;
}

/** Call inside describe(): the returned object holds the catalog and knowledge while the block's tests run. */
export function bundledKnowledge(): OpenedKnowledge {
  const opened = {} as OpenedKnowledge;
  before(() => {
    opened.catalog = openMatrixCatalog(defaultMatricesFolder());
    opened.knowledge = new ApiKnowledge(opened.catalog, listMatrixApis);
  });
  after(() => opened.catalog.close());
  return opened;
}
