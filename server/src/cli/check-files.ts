// The files of `check` and `coverage`, checked over the worker pool (worker-jobs.ts): each with the pins of its
// manifests (the command line's --pin over them); the problems of manifests and matrices reported once; the findings
// as reported, and per library the files import whether it could be checked at its pin.
import { relative, resolve } from 'node:path';
import { mergeCoverage, type CoverageEntry, type FileCoverageEntry } from '../core/coverage.js';
import { normalizeDistributionName } from '../core/library-names.js';
import { parseCommandLinePin, type Pin } from '../core/pins.js';
import { touchesLines, type LineRanges } from '../report/diff.js';
import type { ReportedFinding } from '../report/reported-finding.js';
import { openMatrixCatalog } from '../store/catalog.js';
import type { UserMatrixStore } from '../store/user-store.js';
import { InputError } from '../core/errors.js';
import { runJobs } from './worker-pool.js';

/** `--pin LIB==VERSION`… by normalised distribution; a pin without a version is a usage error. */
export function pinOverrides(texts: readonly string[], flag = '--pin'): Map<string, Pin> {
  const overrides = new Map<string, Pin>();
  for (const text of texts) {
    const pin = parseCommandLinePin(text);
    if ('error' in pin) throw new InputError(`${flag} ${text}: ${pin.error}`);
    if (pin.specifier === '') throw new InputError(`${flag} ${text}: give a version, e.g. ${flag} ${pin.distribution}==1.24.2`);
    overrides.set(normalizeDistributionName(pin.distribution), pin);
  }
  return overrides;
}

export interface CheckedFiles {
  results: { finding: ReportedFinding; absolute: string }[];
  coverage: FileCoverageEntry[];
  /** Files that could not be read (the command exits 2 after its results). */
  unreadable: string[];
}

export interface CheckFilesOptions {
  matricesFolder: string;
  /** The user's matrix store: its columns join the bundled ones, its records name the modules of fetched releases. */
  store?: UserMatrixStore;
  overrides: ReadonlyMap<string, Pin>;
  cwd: string;
  err: (line: string) => void;
  /** --jobs; undefined: decided from the input's size. */
  threads?: number;
  /** Bytes per file (collectPythonFiles' sizes), to decide whether threads pay off. */
  sizes?: ReadonlyMap<string, number>;
  /** --diff: the lines of a file that count ('all' when untracked); absent: every line. */
  linesOf?: (file: string) => LineRanges | 'all' | undefined;
}

/** A usage error when the folder has no usable matrix; its problems are reported now. */
export function requireMatrices(matricesFolder: string, err: (line: string) => void): void {
  // A broken matrix where a file first needs it is reported from the job's result.
  const catalog = openMatrixCatalog(matricesFolder, { onProblem: (p) => err(`anachron: warning: ${p}`) });
  const usable = catalog.names.length > 0;
  catalog.close();
  if (!usable) throw new InputError('no usable matrices: nothing can be checked');
}

export async function checkFiles(files: readonly string[], options: CheckFilesOptions): Promise<CheckedFiles> {
  const { cwd, err } = options;
  const knownImports = new Map<string, string[]>();
  for (const c of options.store?.columns() ?? []) for (const l of c.libraries) knownImports.set(l, [...new Set([...(knownImports.get(l) ?? []), c.distribution])]);
  const setup = { matricesFolder: options.matricesFolder, userMatricesFolders: options.store ? [options.store.folder] : [], knownImports: [...knownImports], cwd, overrides: [...options.overrides] };
  const checked = await runJobs('check', setup, files, {
    threads: options.threads,
    bytes: files.reduce((n, f) => n + (options.sizes?.get(f) ?? 0), 0),
    weights: files.map((f) => options.sizes?.get(f) ?? 0),
  });
  const results: CheckedFiles['results'] = [];
  const perFile: { file: string; entries: CoverageEntry[] }[] = [];
  const reportedManifestProblems = new Set<string>();
  const reportedMatrixProblems = new Set<string>();
  const unreadable: string[] = [];
  files.forEach((file, i) => {
    const { findings, coverage, problems, matrixProblems, readError, unreadable: failed } = checked[i]!;
    if (readError !== null) err(`anachron: warning: cannot read ${file}: ${readError}`);
    if (failed) unreadable.push(file);
    for (const p of problems) {
      const key = `${p.file}:${p.line}`;
      if (!reportedManifestProblems.has(key)) err(`anachron: warning: ${p.file}:${p.line}: ${p.message}`);
      reportedManifestProblems.add(key);
    }
    for (const p of matrixProblems) {
      if (!reportedMatrixProblems.has(p)) err(`anachron: warning: ${p}`);
      reportedMatrixProblems.add(p);
    }
    perFile.push({ file: relative(cwd, resolve(file)) || file, entries: coverage });
    const lines = options.linesOf?.(file);
    for (const reported of findings) {
      if (lines !== undefined && lines !== 'all' && !touchesLines(lines, reported.line, reported.endLine)) continue;
      results.push({ finding: reported, absolute: resolve(file) });
    }
  });
  return { results, coverage: mergeCoverage(perFile), unreadable };
}
