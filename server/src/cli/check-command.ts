// `anachron check [PATH…] [--pin LIB==VERSION]… [--upgrade-to LIB==VERSION]… [--format text|json|sarif] [--diff REV] [--fetch]`
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
import { upgradeHeading, upgradeReport, upgradeSummary, type UpgradeReport } from '../report/upgrade.js';
import type { Pin } from '../core/pin.js';
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
      'upgrade-to': { type: 'string', multiple: true, default: [] },
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
  // The target's pins say where they come from: the message names --upgrade-to, not --pin.
  const upgrades = new Map([...pinOverrides(values['upgrade-to'] ?? [], '--upgrade-to')].map(([d, p]): [string, Pin] => [d, { ...p, origin: { file: '--upgrade-to', line: null } }]));
  for (const [distribution, pin] of upgrades) {
    if (pin.exactVersion === null) throw new InputError(`--upgrade-to ${distribution}${pin.specifier}: give one version, e.g. --upgrade-to ${distribution}==VERSION`);
  }
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
  const checkWith = (pins: ReadonlyMap<string, Pin>) => () =>
    checkFiles(files, { matricesFolder, store, overrides: pins, cwd, err, threads: jobsOption(values.jobs), sizes, linesOf: scope ? (f) => linesByFile.get(f) : undefined });
  // With --upgrade-to the findings reported are those the upgrade adds; the check at the target is the one --fetch covers.
  const check = checkWith(upgrades.size > 0 ? new Map([...overrides, ...upgrades]) : overrides);
  let checked = await check();
  if (values.fetch) checked = await fetchAndCheckAgain(checked, check, { ...values, matrices: matricesFolder }, err);
  let upgrade: UpgradeReport | undefined;
  let unreadable = checked.unreadable;
  if (upgrades.size > 0) {
    const before = await checkWith(overrides)();
    upgrade = upgradeReport(
      new Map([...upgrades].map(([d, p]) => [d, p.exactVersion!])),
      { findings: before.results.map((r) => r.finding), coverage: before.coverage },
      { findings: checked.results.map((r) => r.finding), coverage: checked.coverage },
    );
    const added = new Set([...upgrade.breaks, ...upgrade.warns]);
    checked = { ...checked, results: checked.results.filter((r) => added.has(r.finding)) };
    unreadable = [...new Set([...unreadable, ...before.unreadable])];
  }
  const { results, coverage } = checked;

  const findings = results.map((r) => r.finding);
  if (upgrade && format === 'text') {
    for (const step of upgrade.steps) out(upgradeHeading(step));
    if (upgrade.breaks.length > 0) out('would break:');
    for (const r of upgrade.breaks) out(formatFindingLine(r));
    if (upgrade.warns.length > 0) out('would warn (deprecated at the target):');
    for (const r of upgrade.warns) out(formatFindingLine(r));
    for (const line of coverageSummaryLines(coverage)) out(line);
    out(upgradeSummary(upgrade, files.length));
  } else if (format === 'json') {
    out(JSON.stringify(upgrade ? { upgrade: upgrade.steps, findings, breaks: upgrade.breaks, warns: upgrade.warns, resolved: upgrade.resolved, coverage } : { findings, coverage }, null, 2));
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
  return unreadableExit([...skipped.filter((s) => s.unreadable).map((s) => s.path), ...unreadable], err) ?? (findings.length > 0 && !values['exit-zero'] ? 1 : 0);
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
