// `anachron check [PATH…] [--pin LIB==VERSION]… [--format text|json]`
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { checkPythonSource } from '../check-source.js';
import type { Finding } from '../core/findings.js';
import { normalizeDistributionName } from '../core/library-names.js';
import { describeOrigin, parseCommandLinePin, type Pin } from '../core/pins.js';
import { loadPythonParser } from '../parser/python-parser.js';
import { openMatrixCatalog } from '../store/catalog.js';
import { defaultMatricesFolder } from '../store/matrices-folder.js';
import { pinsForFile } from '../workspace/manifests.js';
import { collectPythonFiles } from './files.js';
import { UsageError } from './usage-error.js';

export interface JsonFinding {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  code: string;
  severity: string;
  message: string;
  library: string;
  api: string;
  parameter: string | null;
  pin: string;
  requirement: string;
  pinSource: string;
  availableIn: string[];
  replacement: string | null;
}

function toJson(file: string, f: Finding): JsonFinding {
  return {
    file,
    line: f.range.start.line + 1,
    column: f.range.start.column + 1,
    endLine: f.range.end.line + 1,
    endColumn: f.range.end.column + 1,
    code: f.code,
    severity: f.severity,
    message: f.message,
    library: f.library,
    api: f.api,
    parameter: f.parameter,
    pin: f.pin,
    requirement: f.requirement,
    pinSource: describeOrigin(f.pinOrigin),
    availableIn: f.availableIn,
    replacement: f.replacement,
  };
}

export async function runCheck(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      pin: { type: 'string', multiple: true, default: [] },
      format: { type: 'string', default: 'text' },
      matrices: { type: 'string' },
      'exit-zero': { type: 'boolean', default: false },
    },
  });
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format must be text or json, not ${values.format}`);
  const overrides = new Map<string, Pin>();
  for (const text of values.pin ?? []) {
    const pin = parseCommandLinePin(text);
    if ('error' in pin) throw new UsageError(`--pin ${text}: ${pin.error}`);
    if (pin.specifier === '') throw new UsageError(`--pin ${text}: give a version, e.g. --pin ${pin.distribution}==1.24.2`);
    overrides.set(normalizeDistributionName(pin.distribution), pin);
  }
  const { files, missing } = collectPythonFiles(positionals.length > 0 ? positionals : ['.']);
  if (missing.length > 0) throw new UsageError(`no such file or folder: ${missing.join(', ')}`);

  const catalog = openMatrixCatalog(values.matrices ? resolve(values.matrices) : defaultMatricesFolder());
  for (const problem of catalog.problems) err(`anachron: warning: ${problem}`);
  if (catalog.matrices.length === 0) throw new UsageError('no usable matrices: nothing can be checked');
  const parser = await loadPythonParser();
  const cwd = process.cwd();
  const results: JsonFinding[] = [];
  const reportedManifestProblems = new Set<string>();
  try {
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        err(`anachron: warning: cannot read ${file}: ${(e as Error).message}`);
        continue;
      }
      const manifest = pinsForFile(file, { displayBase: cwd });
      for (const p of manifest.problems) {
        const key = `${p.file}:${p.line}`;
        if (!reportedManifestProblems.has(key)) err(`anachron: warning: ${p.file}:${p.line}: ${p.message}`);
        reportedManifestProblems.add(key);
      }
      const pins = new Map([...manifest.pins, ...overrides]);
      const shown = relative(cwd, resolve(file)) || file;
      for (const f of checkPythonSource(parser, text, { catalog, pins })) results.push(toJson(shown, f));
    }
  } finally {
    catalog.close();
  }
  if (values.format === 'json') {
    out(JSON.stringify(results, null, 2));
  } else {
    for (const r of results) out(`${r.file}:${r.line}:${r.column}: ${r.severity} [${r.code}] ${r.message}`);
    const n = results.length;
    out(n === 0 ? `No anachronisms in ${files.length} file${files.length === 1 ? '' : 's'}.` : `${n} finding${n === 1 ? '' : 's'} in ${new Set(results.map((r) => r.file)).size} of ${files.length} files.`);
  }
  return results.length > 0 && !values['exit-zero'] ? 1 : 0;
}
