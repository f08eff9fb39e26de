// `anachron history API… [--format text|json] [--user-matrices DIR]`: what the matrix says about APIs, version by version.
import { parseArgs } from 'node:util';
import type { Signature } from '../core/api-model.js';
import { describeColumnSource } from '../core/column-source.js';
import { bands } from '../core/hover.js';
import { COLUMN_OPTIONS, openCatalogFor } from './column-options.js';
import { InputError } from '../core/errors.js';

export interface JsonHistory {
  api: string;
  library: string;
  kind: string | null;
  versions: { version: string; state: 'present' | 'absent' | 'unknown'; signature: Signature | null; provenance?: Record<string, string> }[];
}

export function runHistory(argv: string[], out: (s: string) => void, err: (s: string) => void): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { format: { type: 'string', default: 'text' }, matrices: { type: 'string' }, 'user-matrices': COLUMN_OPTIONS['user-matrices'], 'every-version': { type: 'boolean', default: false } },
  });
  if (values.format !== 'text' && values.format !== 'json') throw new InputError(`--format must be text or json, not ${values.format}`);
  if (positionals.length === 0) throw new InputError('name at least one API, e.g. anachron history numpy.trapezoid');
  const { catalog } = openCatalogFor(values, err);
  try {
    const entries: JsonHistory[] = positionals.map((api) => {
      const root = api.split('.')[0]!;
      const matrix = catalog.forImportRoot(root);
      if (!matrix) {
        const known = catalog.names.join(', ') || 'none';
        throw new InputError(`no matrix for ${root} (tracked libraries: ${known})`);
      }
      const history = matrix.lookup(api);
      return {
        api,
        library: matrix.library,
        kind: history?.kind ?? null,
        versions: matrix.versions.map((version, i) => {
          const cell = history?.versions[i];
          const mine = catalog.userColumnSource(matrix.library, version);
          return { version, state: cell?.state ?? 'absent', signature: cell?.signature ? { parameters: cell.signature.parameters } : null, ...(mine ? { provenance: mine } : {}) };
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
        // Columns of the user's store: where each came from (the index, the file, its sha256; or the interpreter).
        for (const v of entry.versions) if (v.provenance) out(`  ${v.version}: your column, ${describeColumnSource(v.provenance)}`);
      }
    }
    return 0;
  } finally {
    catalog.close();
  }
}
