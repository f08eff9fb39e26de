// `anachron check [PATH…] [--pin LIB==VERSION]… [--format text|json|sarif] [--diff REV] [--fetch]`
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { changedLinesSince, repositoryRoot, repositoryRootOrUndefined, resolveCommit, untrackedFiles } from '../git/git.js';
import type { LineRanges } from '../report/diff.js';
import { coverageSummaryLines } from '../report/coverage.js';
import { formatFindingLine, type ReportedFinding } from '../report/reported-finding.js';
import { relativeArtifactUri, renderSarif, SRCROOT, type SarifArtifactLocation } from '../report/sarif.js';
import { defaultMatricesFolder } from '../store/matrices-folder.js';
import { fetchAndCheckAgain } from './check-fetch.js';
import { checkFiles, pinOverrides, requireMatrices } from './check-files.js';
import { COLUMN_OPTIONS, userStoreOf } from './column-options.js';
import { collectPythonFiles, unreadableExit, warnSkipped } from './files.js';
import { jobsOption } from './jobs-option.js';
import { pathInRoot, realRoot } from './repo-paths.js';
import { toolInfo } from './tool-info.js';
import { InputError } from '../core/errors.js';

/** The JSON format's finding: see README "The CLI". */
export type JsonFinding = ReportedFinding;

const FORMATS = ['text', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

/** Which lines of which files `--diff REV` lets through; undefined for a file means "not part of the change". */
interface DiffScope {
  rev: string;
  root: string;
  /** Lines per checked file (absolute path as collected); 'all' for untracked files. */
  linesOf(file: string): LineRanges | 'all' | undefined;
}

function diffScope(rev: string, cwd: string): DiffScope {
  const root = realRoot(repositoryRoot(cwd));
  const commit = resolveCommit(root, rev);
  const changed = changedLinesSince(root, commit);
  const untracked = new Set(untrackedFiles(root));
  return {
    rev,
    root,
    linesOf(file) {
      const inRepo = pathInRoot(root, file);
      if (inRepo === undefined) return undefined;
      if (untracked.has(inRepo)) return 'all';
      return changed.get(inRepo);
    },
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
      diff: { type: 'string' },
      'exit-zero': { type: 'boolean', default: false },
      jobs: { type: 'string' },
      fetch: { type: 'boolean', default: false },
      ...COLUMN_OPTIONS,
    },
  });
  if (!(FORMATS as readonly string[]).includes(values.format!)) throw new InputError(`--format must be text or json or sarif, not ${values.format}`);
  const format = values.format as Format;
  const overrides = pinOverrides(values.pin ?? []);
  if (values.diff !== undefined && values.diff.trim() === '') throw new InputError('--diff needs a revision, e.g. --diff origin/main');
  const { files: collected, missing, sizes, skipped } = collectPythonFiles(positionals.length > 0 ? positionals : ['.']);
  if (missing.length > 0) throw new InputError(`no such file or folder: ${missing.join(', ')}`);
  warnSkipped(skipped, err);

  const cwd = process.cwd();
  const scope = values.diff !== undefined ? diffScope(values.diff, cwd) : undefined;
  const linesByFile = new Map<string, LineRanges | 'all'>();
  let files = collected;
  if (scope) {
    const outside = collected.filter((f) => pathInRoot(scope.root, f) === undefined);
    if (outside.length > 0) err(`anachron: warning: ${outside.length} file${outside.length === 1 ? ' is' : 's are'} outside the repository and not part of the diff (e.g. ${outside[0]})`);
    files = collected.filter((f) => {
      const lines = scope.linesOf(f);
      if (lines !== undefined) linesByFile.set(f, lines);
      return lines !== undefined;
    });
  }

  const matricesFolder = values.matrices ? resolve(values.matrices) : defaultMatricesFolder();
  requireMatrices(matricesFolder, err);
  const store = userStoreOf(values);
  const check = () => checkFiles(files, { matricesFolder, store, overrides, cwd, err, threads: jobsOption(values.jobs), sizes, linesOf: scope ? (f) => linesByFile.get(f) : undefined });
  let checked = await check();
  if (values.fetch) checked = await fetchAndCheckAgain(checked, check, { ...values, matrices: matricesFolder }, err);
  const { results, coverage } = checked;

  const findings = results.map((r) => r.finding);
  if (format === 'json') {
    out(JSON.stringify({ findings, coverage }, null, 2));
  } else if (format === 'sarif') {
    const root = scope?.root ?? realRoot(repositoryRootOrUndefined(cwd) ?? cwd);
    const tool = toolInfo();
    const sarif = renderSarif({
      tool: { name: tool.name, version: tool.version, informationUri: tool.repositoryUrl, rulesHelpBase: tool.rulesHelpBase },
      srcRootUri: directoryUri(root),
      findings: results.map((r) => ({ finding: r.finding, artifact: artifactFor(root, r.absolute) })),
    });
    out(JSON.stringify(sarif, null, 2));
  } else {
    for (const r of findings) out(formatFindingLine(r));
    for (const line of coverageSummaryLines(coverage)) out(line);
    out(summary(findings, files.length, scope?.rev));
  }
  return unreadableExit([...skipped.filter((s) => s.unreadable).map((s) => s.path), ...checked.unreadable], err) ?? (findings.length > 0 && !values['exit-zero'] ? 1 : 0);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function summary(findings: ReportedFinding[], fileCount: number, rev: string | undefined): string {
  const n = findings.length;
  const withFindings = new Set(findings.map((r) => r.file)).size;
  if (rev === undefined) {
    return n === 0 ? `No anachronisms in ${plural(fileCount, 'file')}.` : `${plural(n, 'finding')} in ${withFindings} of ${fileCount} files.`;
  }
  return n === 0
    ? `No anachronisms on lines changed since ${rev} (${plural(fileCount, 'changed file')}).`
    : `${plural(n, 'finding')} on lines changed since ${rev}, in ${withFindings} of ${plural(fileCount, 'changed file')}.`;
}

function directoryUri(dir: string): string {
  const uri = pathToFileURL(dir).href;
  return uri.endsWith('/') ? uri : uri + '/';
}

function artifactFor(root: string, absolute: string): SarifArtifactLocation {
  const inRoot = pathInRoot(root, absolute);
  return inRoot !== undefined ? { uri: relativeArtifactUri(inRoot), uriBaseId: SRCROOT } : { uri: pathToFileURL(absolute).href };
}
