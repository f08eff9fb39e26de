// `anachron libraries [NAME…] [--json] [--matrices DIR]`: the library files (libraries/*.toml) and what the
// bundled matrices track of each — the list a user reads to know which pinned libraries are looked at.
import { parseArgs } from 'node:util';
import type { LibraryDefinition } from '../core/library-definition.js';
import { openMatrixCatalog } from '../store/catalog.js';
import { defaultMatricesFolder } from '../store/matrices-folder.js';
import { defaultLibrariesFolder, readLibraryDefinitions } from '../libraries/definitions.js';
import { InputError } from '../core/errors.js';

function sources(d: LibraryDefinition): string {
  const parts: string[] = [];
  const staticFrom = { git: `static ${d.static?.repository}`, typeshed: `static from typeshed's stubs (${d.static?.repository})`, pypi: 'static from the files each release published on PyPI' };
  if (d.static) parts.push(staticFrom[d.static.from]);
  if (d.docs) parts.push(`docs ${d.docs.from === 'sdist' ? `from the sdists${d.docs.repository ? `, else ${d.docs.repository}` : ''}` : (d.docs.repository ?? d.static?.repository)}`);
  if (d.runtime.venv) parts.push('runtime venvs from the wheels');
  if (d.runtime.debianSuites.length > 0) parts.push(`runtime Debian ${d.runtime.debianSuites.join(' ')}`);
  return parts.join('; ');
}

export function runLibraries(argv: string[], out: (s: string) => void): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, matrices: { type: 'string' }, libraries: { type: 'string' } },
  });
  const definitions = readLibraryDefinitions(values.libraries ?? defaultLibrariesFolder());
  const unknown = positionals.filter((n) => !definitions.byName(n) && !definitions.byDistribution(n));
  if (unknown.length > 0) throw new InputError(`no library file for ${unknown.join(', ')} (known: ${definitions.all.map((d) => d.name).join(', ')})`);
  const chosen = positionals.length > 0 ? positionals.map((n) => definitions.byName(n) ?? definitions.byDistribution(n)!) : definitions.all;
  const catalog = openMatrixCatalog(values.matrices ?? defaultMatricesFolder());
  try {
    const tracked = (d: LibraryDefinition) => catalog.forImportRoot(d.name)?.versions ?? [];
    if (values.json) {
      out(JSON.stringify(chosen.map((d) => ({ ...d, tracked: tracked(d) })), null, 2));
      return 0;
    }
    for (const d of chosen) {
      const versions = tracked(d);
      const span = versions.length > 0 ? `${versions.length} versions, ${versions[0]}–${versions[versions.length - 1]}` : 'no matrix';
      out(`${d.name} (${d.distribution}): ${span}${d.summary ? ` — ${d.summary}` : ''}`);
      out(`  ${sources(d) || 'no sources'}`);
    }
    return 0;
  } finally {
    catalog.close();
  }
}
