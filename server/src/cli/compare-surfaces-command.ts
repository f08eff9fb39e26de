// `anachron compare-surfaces REFERENCE CANDIDATE [--documented DOCS] [--format text|json] [--limit N]`
import { parseArgs } from 'node:util';
import { readDocsSurfaceFile } from '../store/docs-surface.js';
import { compareSurfaces, formatAgreement } from '../store/surface-agreement.js';
import { readSurfaceFile } from '../store/surface.js';
import { InputError } from '../core/errors.js';
import { agreementOptions } from '../store/union-evidence.js';

export function runCompareSurfaces(argv: string[], out: (s: string) => void): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { documented: { type: 'string' }, format: { type: 'string', default: 'text' }, limit: { type: 'string', default: '40' } },
  });
  if (positionals.length !== 2) throw new InputError('give two surface files: REFERENCE (e.g. runtime) and CANDIDATE (e.g. static)');
  const documented = values.documented ? readDocsSurfaceFile(values.documented).documented : undefined;
  const reference = readSurfaceFile(positionals[0]!);
  const candidate = readSurfaceFile(positionals[1]!);
  const report = compareSurfaces(reference, candidate, documented, agreementOptions(reference, candidate));
  if (values.format === 'json') {
    out(JSON.stringify(report, null, 2));
    return 0;
  }
  const limit = Number(values.limit);
  out(formatAgreement(report));
  const show = (title: string, items: string[]) => {
    if (items.length === 0) return;
    out(`${title} (${items.length}):`);
    items.slice(0, limit).forEach((i) => out(`  ${i}`));
    if (items.length > limit) out(`  … ${items.length - limit} more`);
  };
  show('only in reference', report.onlyInReference);
  show('only in candidate', report.onlyInCandidate);
  show('parameter names differ', report.parameterMismatches.map((m) => `${m.api}: (${m.reference.join(', ')}) vs (${m.candidate.join(', ')})`));
  show('keywords differ', (report.keywordMismatches ?? []).map((m) => `${m.api}: (${m.reference.join(', ')}) vs (${m.candidate.join(', ')})`));
  return 0;
}
