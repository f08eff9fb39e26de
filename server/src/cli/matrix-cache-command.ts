// `anachron matrix cache list [--json]` and `anachron matrix cache prune [--max-size MB | --all]`: the release files
// fetched from package indexes (size, when last used, the columns they gave) and removing them, least recently used
// first. The columns themselves stay in the user's matrix store: offline, they are what is used.
import { parseArgs } from 'node:util';
import { normalizeDistributionName } from '../core/library-names.js';
import { COLUMN_OPTIONS, cacheOf, userStoreOf } from './column-options.js';
import { InputError } from '../core/errors.js';
import { byteSize } from '../package-index/byte-size.js';


export function runMatrixCache(argv: string[], out: (s: string) => void): number {
  const [action, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { cache: COLUMN_OPTIONS.cache, 'user-matrices': COLUMN_OPTIONS['user-matrices'], json: { type: 'boolean', default: false }, 'max-size': { type: 'string' }, all: { type: 'boolean', default: false } },
  });
  const cache = cacheOf(values);
  const store = userStoreOf(values);
  const columns = store.columns();
  const columnOf = (project: string, filename: string) => columns.find((c) => c.source === 'index' && c.distribution === normalizeDistributionName(project) && c.provenance.file === filename);
  if (action === 'list') {
    const files = cache.files();
    if (values.json) {
      out(JSON.stringify({ cache: cache.root, limitBytes: cache.limitBytes, pagesBytes: cache.pagesBytes(), files: files.map((f) => ({ ...f, column: columnOf(f.project, f.filename) ?? null })), columns }, null, 2));
      return 0;
    }
    const total = files.reduce((n, f) => n + f.bytes, 0) + cache.pagesBytes();
    out(`cache ${cache.root}: ${files.length} file${files.length === 1 ? '' : 's'}, ${byteSize(total)} of ${byteSize(cache.limitBytes)} (ANACHRON_CACHE_MAX_MB)`);
    for (const f of files) {
      const c = columnOf(f.project, f.filename);
      out(`  ${f.filename}  ${byteSize(f.bytes)}  used ${new Date(f.usedAt).toISOString().slice(0, 10)}${f.index ? `  from ${f.index}` : ''}${c ? `  -> column ${c.distribution} ${c.version} (${c.libraries.join(', ')})` : ''}`);
    }
    out(`your matrices ${store.folder}: ${columns.length} column${columns.length === 1 ? '' : 's'}`);
    for (const c of columns) out(`  ${c.distribution} ${c.version}  ${c.source === 'index' ? `${c.provenance.file} from ${c.provenance.index}` : `probed in ${c.provenance.python ?? 'an interpreter'}`}  (${c.libraries.join(', ')})`);
    return 0;
  }
  if (action === 'prune') {
    let limit: number | undefined;
    if (values['max-size'] !== undefined) {
      const n = Number(values['max-size']);
      if (!Number.isFinite(n) || n < 0) throw new InputError(`--max-size takes megabytes, not ${values['max-size']}`);
      limit = n * 1024 ** 2;
    }
    const removed = cache.prune({ limit, all: values.all });
    out(`removed ${removed.length} file${removed.length === 1 ? '' : 's'} (${byteSize(removed.reduce((n, f) => n + f.bytes, 0))})${values.all ? ' and the cached index pages' : ''} from ${cache.root}; your matrices' columns stay`);
    return 0;
  }
  throw new InputError(`usage: anachron matrix cache list [--json] | anachron matrix cache prune [--max-size MB | --all]${action ? ` (not "${action}")` : ''}`);
}
