// The lowest tracked version of a library at which every use a file makes of it works: what "raise the pin" should
// raise to (issue 16, point 5: raising to the version that has one API left `numpy.typing`, which needs a later one,
// flagged). The rule is min-versions' (cli/worker-jobs.ts): the file checked with the library pinned alone at each
// tracked version, counting the verdicts a version choice can fix, suppressed lines left out.
import type { LibraryMatrix, MatrixCatalog } from './api-model.js';
import type { CheckMemo } from './check-memo.js';
import { judgeReferences } from './checker.js';
import { normalizeDistributionName } from './library-names.js';
import { parseCommandLinePin, type Pin } from './pins.js';
import type { FileSyntax } from './python/file-syntax.js';
import { isSuppressed } from './python/suppressions.js';
import { findingRule, type Verdict } from './rules/index.js';
import { judgeSyntax } from './syntax-check.js';
import { compareVersions, isValidVersion } from './versions.js';

/** Verdicts that say the code would work at another tracked version: the ones a version choice can fix. */
export function isVersionDependent(v: Verdict): boolean {
  return findingRule(v.code)!.versionBound && v.availableIn.length > 0;
}

/** The library pinned alone at `version`. */
export function pinsAlone(matrix: LibraryMatrix, version: string): Map<string, Pin> {
  const pin = parseCommandLinePin(`${matrix.distribution}==${version}`);
  if ('error' in pin) throw new Error(`cannot pin ${matrix.distribution}==${version}: ${pin.error}`);
  return new Map([[normalizeDistributionName(matrix.distribution), pin]]);
}

/** What the file uses of `matrix`'s library that `version` lacks (version-dependent verdicts, suppressions honoured). */
export function failuresAt(syntax: FileSyntax, matrix: LibraryMatrix, version: string, catalog: MatrixCatalog, localModules: ReadonlySet<string> | undefined, memo?: CheckMemo): Verdict[] {
  const ctx = { catalog, pins: pinsAlone(matrix, version), localModules };
  return [...judgeReferences(syntax.references, ctx, memo), ...judgeSyntax(syntax.syntaxUses, ctx)].filter(
    (v) => v.matrix.library === matrix.library && isVersionDependent(v) && !isSuppressed(syntax.suppressions, v.range.start.line, v.code),
  );
}

/**
 * The lowest tracked version above `above` (a version; null: any) at which nothing the file uses of the library
 * fails, or null when no tracked version has it all. Versions below `floor` (the lowest one each known finding needs)
 * are not tried: they lack what that finding uses.
 */
export function lowestVersionForAllUses(
  syntax: FileSyntax,
  matrix: LibraryMatrix,
  options: { above: string | null; floor?: string | null; catalog: MatrixCatalog; localModules?: ReadonlySet<string>; memo?: CheckMemo },
): string | null {
  for (const version of matrix.versions) {
    if (options.above !== null && compareVersions(version, options.above) <= 0) continue;
    if (options.floor && compareVersions(version, options.floor) < 0) continue;
    if (failuresAt(syntax, matrix, version, options.catalog, options.localModules, options.memo).length === 0) return version;
  }
  return null;
}

/** What raiseTargetFor needs of a finding. */
export interface RaisedFinding {
  library: string;
  /** The exact pinned version or the specifier. */
  pin: string;
  availableIn: readonly string[];
}

/**
 * The version "raise the pin" goes to for a finding (the editor's quick fix, the agents' review, one rule): the
 * lowest tracked version above an exact pin at which every use of the finding's library in the file works; null when
 * no tracked version has them all; undefined when the catalog does not track the library. Versions below the lowest
 * that has this finding's use are not tried.
 */
export function raiseTargetFor(syntax: FileSyntax, f: RaisedFinding, catalog: MatrixCatalog, localModules?: ReadonlySet<string>): string | null | undefined {
  const matrix = catalog.libraries().find((m) => m.library === f.library);
  if (!matrix) return undefined;
  const exact = isValidVersion(f.pin);
  const floor = f.availableIn.filter((v) => !exact || compareVersions(v, f.pin) > 0).sort(compareVersions)[0] ?? null;
  return lowestVersionForAllUses(syntax, matrix, { above: exact ? f.pin : null, floor, catalog, localModules });
}
