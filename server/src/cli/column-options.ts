// The options every command that fetches columns takes (`matrix fetch`, `check --fetch`, `coverage`, `matrix
// cache`), and the column service they make: the user's matrix store, the cache, the index configuration as pip
// and uv have it for the project, the extractor's interpreter.
import { resolve } from 'node:path';
import { ColumnService } from '../columns/column-service.js';
import { DEFAULT_CACHE_LIMIT_BYTES, defaultCacheRoot, IndexCache } from '../package-index/cache.js';
import { projectFolderOf, readIndexConfig, readNetrc } from '../package-index/index-config-files.js';
import type { IndexConfig } from '../package-index/index-config.js';
import { distributionsOfImport, type DistributionsOfImport } from '../libraries/import-distributions.js';
import { openLayeredCatalog, type LayeredCatalog } from '../store/layered-catalog.js';
import { defaultMatricesFolder } from '../store/matrices-folder.js';
import { defaultUserMatricesFolder, UserMatrixStore } from '../store/user-store.js';
import { InputError } from '../core/errors.js';

export const COLUMN_OPTIONS = {
  'index-url': { type: 'string' as const },
  'extra-index-url': { type: 'string' as const, multiple: true as const, default: [] as string[] },
  offline: { type: 'boolean' as const, default: false },
  python: { type: 'string' as const },
  'user-matrices': { type: 'string' as const },
  cache: { type: 'string' as const },
};

export interface ColumnOptionValues {
  'index-url'?: string;
  'extra-index-url'?: string[];
  offline?: boolean;
  python?: string;
  'user-matrices'?: string;
  cache?: string;
}

export function cacheLimitBytes(env: Record<string, string | undefined> = process.env): number {
  const mb = env.ANACHRON_CACHE_MAX_MB;
  if (mb === undefined || mb === '') return DEFAULT_CACHE_LIMIT_BYTES;
  const n = Number(mb);
  if (!Number.isFinite(n) || n < 0) throw new InputError(`ANACHRON_CACHE_MAX_MB must be a number of megabytes, not ${mb}`);
  return n * 1024 ** 2;
}

export function userStoreOf(values: ColumnOptionValues): UserMatrixStore {
  return new UserMatrixStore(resolve(values['user-matrices'] ?? defaultUserMatricesFolder()));
}

export function cacheOf(values: ColumnOptionValues): IndexCache {
  return new IndexCache(resolve(values.cache ?? defaultCacheRoot()), cacheLimitBytes());
}

export function isOffline(values: ColumnOptionValues): boolean {
  return values.offline === true || process.env.ANACHRON_OFFLINE === '1';
}

export function columnServiceOf(values: ColumnOptionValues, log: (line: string) => void): ColumnService {
  return new ColumnService({ store: userStoreOf(values), cache: cacheOf(values), netrc: readNetrc(), offline: isOffline(values), python: values.python, log });
}

/** The index configuration for files under `folder` (its project's pyproject.toml, the requirements read). */
export function indexConfigFor(values: ColumnOptionValues, folder: string, requirements: string[] = []): IndexConfig {
  return readIndexConfig({
    trusted: true,
    project: { folder: projectFolderOf(folder), requirements, workspaceRoot: process.cwd() },
    indexUrl: values['index-url'],
    extraIndexUrls: values['extra-index-url'],
  });
}

/** The bundled matrices (or --matrices DIR) with the user's store on top; a usage error when none can be read. */
export function openCatalogFor(values: ColumnOptionValues & { matrices?: string }, err: (line: string) => void): { catalog: LayeredCatalog; store: UserMatrixStore; distributionsOf: DistributionsOfImport } {
  const store = userStoreOf(values);
  const catalog = openLayeredCatalog(values.matrices ? resolve(values.matrices) : defaultMatricesFolder(), [store.folder], (p) => err(`anachron: warning: ${p}`));
  if (catalog.names.length === 0) {
    catalog.close();
    throw new InputError('no usable matrices: nothing can be checked');
  }
  return { catalog, store, distributionsOf: distributionsOfImport((root) => store.distributionsOfImport(root)) };
}
