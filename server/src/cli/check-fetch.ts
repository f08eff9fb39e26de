// `anachron check --fetch` (and `coverage --fetch`): what the check could not judge is covered from the package
// index before the report — each not-checked pin's columns (the pinned version, or a range's ends, and the newest
// release for the history), then, for each finding on a fetched library whose "added/removed between" brackets more
// than one release, bisection over the index's release list (each step one column, capped). One line per step on
// stderr. The caller checks again afterwards.
import { dirname } from 'node:path';
import { boundaryQuestionOf, type BoundaryQuestion } from '../core/boundaries.js';
import type { FileCoverageEntry } from '../core/coverage.js';
import type { ColumnService } from '../columns/column-service.js';
import { IndexError } from '../package-index/client.js';
import type { ReportedFinding } from '../report/reported-finding.js';
import type { LayeredCatalog } from '../store/layered-catalog.js';
import { pinsForFile } from '../workspace/manifests.js';
import type { CheckedFiles } from './check-files.js';
import { columnServiceOf, indexConfigFor, openCatalogFor, type ColumnOptionValues } from './column-options.js';
import { InputError } from '../core/errors.js';

export interface FetchRound {
  /** Libraries (import names) that got columns. */
  fetched: Set<string>;
  failures: number;
}

/** The index configuration of a coverage entry: its first file's project and requirements files. */
function configFor(values: ColumnOptionValues, entry: FileCoverageEntry) {
  const file = entry.files[0]!;
  return indexConfigFor(values, dirname(file), pinsForFile(file, { displayBase: process.cwd() }).manifests);
}

async function cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    return await work(controller.signal);
  } catch (e) {
    if (e instanceof IndexError && e.kind === 'cancelled') throw new InputError('cancelled; the columns added before stay, nothing half-made was kept');
    throw e;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

export function coverUncovered(service: ColumnService, catalog: LayeredCatalog, coverage: readonly FileCoverageEntry[], values: ColumnOptionValues, err: (line: string) => void): Promise<FetchRound> {
  return cancellable(async (signal) => {
    const round: FetchRound = { fetched: new Set(), failures: 0 };
    const seen = new Set<string>();
    for (const e of coverage) {
      if (e.state === 'checked' || !e.fetch || seen.has(e.fetch)) continue;
      seen.add(e.fetch);
      err(`anachron: fetching ${e.fetch} (${e.reason === 'no-matrix' ? 'no matrix' : 'not tracked'})`);
      const outcome = await service.cover(e.distribution, { specifier: e.specifier, exactVersion: e.exactVersion }, {
        config: configFor(values, e),
        signal,
        tracked: e.trackedVersions,
        onStep: (line) => err(`  ${line}`),
        beforeReplace: () => catalog.closeUser(),
      });
      for (const message of outcome.errors) err(`anachron: ${message}`);
      if (outcome.errors.length) round.failures++;
      if (outcome.records.length) outcome.records.flatMap((r) => r.libraries).forEach((l) => round.fetched.add(l));
    }
    catalog.reopenUser();
    return round;
  });
}

/** Bisects the brackets of the findings on libraries the store has columns of from an index. */
export function bisectFindings(service: ColumnService, catalog: LayeredCatalog, findings: readonly ReportedFinding[], coverage: readonly FileCoverageEntry[], values: ColumnOptionValues, err: (line: string) => void): Promise<number> {
  return cancellable(async (signal) => {
    let added = 0;
    const byLibrary = new Map<string, BoundaryQuestion[]>();
    for (const f of findings) {
      const question = boundaryQuestionOf(f);
      if (!question || !f.library || catalog.userVersionsOf(f.library).length === 0) continue;
      const list = byLibrary.get(f.library) ?? [];
      list.push(question);
      byLibrary.set(f.library, list);
    }
    for (const [library, questions] of byLibrary) {
      const entry = coverage.find((e) => e.library === library);
      if (!entry) continue;
      const result = await service.bisect(entry.distribution, questions, () => (catalog.reopenUser(), catalog.forImportRoot(library)), {
        config: configFor(values, entry),
        signal,
        onStep: (line) => err(`  ${line}`),
        beforeReplace: () => catalog.closeUser(),
      });
      catalog.reopenUser();
      added += result.added.length;
      for (const message of result.errors) err(`anachron: ${message}`);
      for (const b of result.open) err(`anachron: ${b.subject} was ${b.change} between ${b.low} and ${b.high} (${b.between.length} release${b.between.length === 1 ? '' : 's'} between; not narrowed further: the step cap was reached or they could not be fetched)`);
    }
    return added;
  });
}

/**
 * The whole --fetch: cover what the check could not judge and check again; then narrow the findings' brackets and
 * check once more. The layered catalog here only answers the bisection's questions; each check opens its own.
 */
export async function fetchAndCheckAgain(checked: CheckedFiles, check: () => Promise<CheckedFiles>, values: ColumnOptionValues & { matrices: string }, err: (line: string) => void): Promise<CheckedFiles> {
  const service = columnServiceOf(values, (line) => err(`anachron: ${line}`));
  const { catalog } = openCatalogFor(values, err);
  try {
    const round = await coverUncovered(service, catalog, checked.coverage, values, err);
    if (round.fetched.size > 0) checked = await check();
    if ((await bisectFindings(service, catalog, checked.results.map((r) => r.finding), checked.coverage, values, err)) > 0) checked = await check();
    return checked;
  } finally {
    catalog.close();
  }
}
