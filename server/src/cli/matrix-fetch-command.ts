// `anachron matrix fetch DIST==VERSION… [--no-newest] [--refresh] [--index-url URL] [--extra-index-url URL]…
// [--offline] [--python PATH] [--user-matrices DIR] [--cache DIR]`: version columns from the package index pip and uv
// are configured for, statically (columns/), into the user's matrix store. One line per step on stderr; what was
// added (with its provenance) on stdout. Exit 0 when every requirement got its columns, 2 otherwise. The index is the
// one a Python file of the current folder is checked with: the `--index-url` lines of the requirements files that
// govern it count (so the command `check` prints for an uncovered pin asks the project's index), as with `check --fetch`.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { normalizeDistributionName } from '../core/library-names.js';
import { parseCommandLinePin } from '../core/pins.js';
import { displayUrl } from '../package-index/credentials.js';
import { IndexError } from '../package-index/client.js';
import { COLUMN_OPTIONS, columnServiceOf, indexConfigFor } from './column-options.js';
import { InputError } from '../core/errors.js';
import { pinsForFile } from '../workspace/manifests.js';

export async function runMatrixFetch(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...COLUMN_OPTIONS, 'no-newest': { type: 'boolean', default: false }, refresh: { type: 'boolean', default: false } },
  });
  if (positionals.length === 0) throw new InputError('usage: anachron matrix fetch DIST==VERSION… (e.g. anachron matrix fetch pandas==2.0.3)');
  const requirements = positionals.map((text) => {
    const pin = parseCommandLinePin(text);
    if ('error' in pin) throw new InputError(`${text}: ${pin.error}`);
    return pin;
  });
  const service = columnServiceOf(values, (line) => err(`anachron: ${line}`));
  const folder = process.cwd();
  // The manifests a file of this folder would be checked with (the nearest folder at or above it holding some).
  const config = indexConfigFor(values, folder, pinsForFile(join(folder, '__anachron_fetch__.py'), { displayBase: folder }).manifests);
  err(`anachron: index: ${config.searchOrder.map((s) => `${displayUrl(s.url)} (${s.origin})`).join(', then ')}${service.options.offline ? ' — offline: the cache only' : ''}`);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  let failed = 0;
  try {
    for (const pin of requirements) {
      const distribution = normalizeDistributionName(pin.distribution);
      const outcome = await service.cover(distribution, { specifier: pin.specifier || null, exactVersion: pin.exactVersion }, {
        config,
        signal: controller.signal,
        newest: !values['no-newest'],
        refresh: values.refresh,
        onStep: (line) => err(`  ${line}`),
      });
      for (const r of outcome.records) out(`${r.distribution} ${r.version}: ${r.libraries.join(', ')} from ${r.provenance.index} ${r.provenance.file} (sha256 ${r.provenance.sha256?.slice(0, 12) || 'not given'}) -> ${service.store.folder}`);
      for (const e of outcome.errors) err(`anachron: ${e}`);
      if (outcome.errors.length > 0 || outcome.records.length === 0) failed++;
    }
  } catch (e) {
    if (e instanceof IndexError && e.kind === 'cancelled') throw new InputError('cancelled; what was added before stays, nothing half-made was kept');
    throw e;
  } finally {
    process.off('SIGINT', onSigint);
  }
  return failed > 0 ? 2 : 0;
}
