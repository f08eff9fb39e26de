// `anachron coverage [PATH…] [--pin LIB==VERSION]… [--format text|json] [--matrices DIR] [--jobs N] [--fetch]`: per library the
// files import, the pin and where it is written, the matrix's columns, and whether the code is checked there — or why
// not, and the command that would cover it. Exit 0 when everything pinned is checked, 1 when something is not.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { coverageTable } from '../report/coverage.js';
import { defaultMatricesFolder } from '../store/matrices-folder.js';
import { fetchAndCheckAgain } from './check-fetch.js';
import { checkFiles, pinOverrides, requireMatrices } from './check-files.js';
import { COLUMN_OPTIONS, userStoreOf } from './column-options.js';
import { collectPythonFiles, unreadableExit, warnSkipped } from './files.js';
import { jobsOption } from './jobs-option.js';
import { InputError } from '../core/errors.js';

export async function runCoverage(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { pin: { type: 'string', multiple: true, default: [] }, format: { type: 'string', default: 'text' }, matrices: { type: 'string' }, jobs: { type: 'string' }, fetch: { type: 'boolean', default: false }, ...COLUMN_OPTIONS },
  });
  if (values.format !== 'text' && values.format !== 'json') throw new InputError(`--format must be text or json, not ${values.format}`);
  const overrides = pinOverrides(values.pin ?? []);
  const { files, missing, sizes, skipped } = collectPythonFiles(positionals.length > 0 ? positionals : ['.']);
  if (missing.length > 0) throw new InputError(`no such file or folder: ${missing.join(', ')}`);
  warnSkipped(skipped, err);
  const matricesFolder = values.matrices ? resolve(values.matrices) : defaultMatricesFolder();
  requireMatrices(matricesFolder, err);
  const store = userStoreOf(values);
  const check = () => checkFiles(files, { matricesFolder, store, overrides, cwd: process.cwd(), err, threads: jobsOption(values.jobs), sizes });
  let checked = await check();
  if (values.fetch) checked = await fetchAndCheckAgain(checked, check, { ...values, matrices: matricesFolder }, err);
  const { coverage } = checked;
  if (values.format === 'json') out(JSON.stringify({ files: files.length, coverage }, null, 2));
  else for (const line of coverageTable(coverage)) out(line);
  return unreadableExit([...skipped.filter((s) => s.unreadable).map((s) => s.path), ...checked.unreadable], err) ?? (coverage.some((e) => e.state === 'not-checked' && e.reason !== 'unpinned') ? 1 : 0);
}
