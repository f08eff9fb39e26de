// `anachron history API… [--format text|json]`: what the matrix says about APIs, version by version.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Signature } from '../core/api-model.js';
import { bands } from '../core/hover.js';
import { openMatrixCatalog } from '../store/catalog.js';
import { defaultMatricesFolder } from '../store/matrices-folder.js';
import { UsageError } from './usage-error.js';

export interface JsonHistory {
  api: string;
  library: string;
  kind: string | null;
  versions: { version: string; state: 'present' | 'absent' | 'unknown'; signature: Signature | null }[];
}

export function runHistory(argv: string[], out: (s: string) => void, err: (s: string) => void): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { format: { type: 'string', default: 'text' }, matrices: { type: 'string' }, 'every-version': { type: 'boolean', default: false } },
  });
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format must be text or json, not ${values.format}`);
  if (positionals.length === 0) throw new UsageError('name at least one API, e.g. anachron history numpy.trapezoid');
  const catalog = openMatrixCatalog(values.matrices ? resolve(values.matrices) : defaultMatricesFolder(), { onProblem: (p) => err(`anachron: warning: ${p}`) });
  try {
    const entries: JsonHistory[] = positionals.map((api) => {
      const root = api.split('.')[0]!;
      const matrix = catalog.forImportRoot(root);
      if (!matrix) {
        const known = catalog.names.join(', ') || 'none';
        throw new UsageError(`no matrix for ${root} (tracked libraries: ${known})`);
      }
      const history = matrix.lookup(api);
      return {
        api,
        library: matrix.library,
        kind: history?.kind ?? null,
        versions: matrix.versions.map((version, i) => {
          const cell = history?.versions[i];
          return { version, state: cell?.state ?? 'absent', signature: cell?.signature ? { parameters: cell.signature.parameters } : null };
        }),
      };
    });
    if (values.format === 'json') out(JSON.stringify(entries, null, 2));
    else {
      for (const entry of entries) {
        out(`${entry.api} (${entry.kind ?? 'not in any tracked version'})`);
        const short = entry.api.slice(entry.api.lastIndexOf('.') + 1);
        // Consecutive versions that say the same thing share a line (numpy tracks 75 versions), as in the hover;
        // --every-version lists them one by one.
        for (const band of bands(entry, short, new Set(), { everyVersion: values['every-version'] })) {
          const label = band.count === 1 ? band.first : `${band.first}–${band.last} (${band.count})`;
          out(`  ${label.padEnd(22)} ${band.state.padEnd(8)} ${band.signature}`.trimEnd());
        }
      }
    }
    return 0;
  } finally {
    catalog.close();
  }
}
