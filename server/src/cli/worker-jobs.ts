// The per-file work of the commands that read many files, as job kinds a worker thread (or this thread) runs: each
// start() builds its own parser, read-only matrix store and verdict memo; run() takes one file. Results are plain
// data, cloned between threads.
import { dirname, relative, resolve } from 'node:path';
import { analyzeSyntax } from '../core/analyze.js';
import { CheckMemo } from '../core/check-memo.js';
import { coverageOf, type CoverageEntry } from '../core/coverage.js';
import { importRootsOfChunks } from '../core/python/import-roots.js';
import { distributionsOfImport } from '../libraries/import-distributions.js';
import type { LibraryMatrix } from '../core/api-model.js';
import { normalizeDistributionName } from '../core/library-names.js';
import { allowsNoVersion } from '../core/versions.js';
import { describeOrigin, parseCommandLinePin, type ManifestProblem, type Pin } from '../core/pins.js';
import { fileSyntax } from '../core/python/file-syntax.js';
import { withLoneCrAsNewline } from '../core/manifests/index.js';
import { findingRule, type Verdict } from '../core/rules/index.js';
import { isSuppressed } from '../core/python/suppressions.js';
import { judgeReferences } from '../core/checker.js';
import { isVersionDependent } from '../core/lowest-version.js';
import { judgeSyntax } from '../core/syntax-check.js';
import { loadPythonParser, type PythonParser } from '../parser/python-parser.js';
import type { DeclaredRequirement, DeprecatedUsage, Usage } from '../report/min-versions.js';
import { toReportedFinding, type ReportedFinding } from '../report/reported-finding.js';
import type { GroundTruthState } from '../core/ground-truth.js';
import { harvestApiCFile, type ApiCFileHarvest } from '../eval/libevobench/datasets/api-c.js';
import { trackedLibraryOf, type HarvestSetup } from '../eval/libevobench/datasets/harvest-setup.js';
import type { CorpusFile } from '../eval/libevobench/datasets/corpus.js';
import { openMatrixCatalog, type LoadedCatalog } from '../store/catalog.js';
import { openLayeredCatalog } from '../store/layered-catalog.js';
import { chooseSqlite } from '../store/sqlite/driver.js';
import { pinsForFile, type ManifestPins } from '../workspace/manifests.js';
import { MAX_SOURCE_BYTES, readBoundedText } from '../workspace/bounded-read.js';

export interface JobRunner<J, R> {
  run(job: J): R;
  close(): void;
}

export interface JobKind<S, J, R> {
  start(setup: S): Promise<JobRunner<J, R>>;
}

/**
 * What every job kind opens: the parser, the matrices, pins per folder (manifests read once per folder). A thread makes
 * its own choice of SQLite implementation, as the CLI's main thread does (the same environment decides it).
 */
async function openTools(matricesFolder: string, cwd: string, userMatricesFolders: readonly string[] = []): Promise<{ parser: PythonParser; catalog: LoadedCatalog; pinsOf(file: string): ManifestPins; problems: string[] }> {
  await chooseSqlite(undefined, { baselineCompiler: true });
  const parser = await loadPythonParser();
  const problems: string[] = [];
  const onProblem = (p: string) => problems.push(p);
  // The user's columns (fetched, probed, added) join the bundled ones; without a store, the folder alone.
  const catalog = userMatricesFolders.length ? openLayeredCatalog(matricesFolder, userMatricesFolders, onProblem) : openMatrixCatalog(matricesFolder, { onProblem });
  const byFolder = new Map<string, ManifestPins>();
  const pinsOf = (file: string) => {
    const folder = dirname(resolve(file));
    let pins = byFolder.get(folder);
    if (!pins) byFolder.set(folder, (pins = pinsForFile(file, { displayBase: cwd })));
    return pins;
  };
  return { parser, catalog, pinsOf, problems };
}

function parseFile(parser: PythonParser, raw: string) {
  // Python reads a lone CR as a line end; tree-sitter does not. Same length, so every offset stays.
  const text = withLoneCrAsNewline(raw);
  const tree = parser.parse(text);
  try {
    return fileSyntax(tree, text);
  } finally {
    tree.delete();
  }
}

export interface CheckSetup {
  matricesFolder: string;
  /** The user's matrix folders, layered over the bundled ones. */
  userMatricesFolders?: string[];
  /** Import name -> distributions whose fetched columns gave it (the user's store knows what the files held). */
  knownImports?: [string, string[]][];
  cwd: string;
  /** `--pin` overrides, keyed by normalised distribution name. */
  overrides: [string, Pin][];
}

export interface CheckResult {
  findings: ReportedFinding[];
  /** Per library the file imports: checked at its pin, inferred, or not checked and why. */
  coverage: CoverageEntry[];
  /** Problems in the manifests that govern the file (the caller reports each once). */
  problems: ManifestProblem[];
  /** Problems with matrices first opened for this file (a broken matrix of a library it imports). */
  matrixProblems: string[];
  readError: string | null;
  /** The file could not be read (no permission, an I/O error), as opposed to passed over (not a regular file, too large). */
  unreadable?: true;
}

/** `anachron check`: one file's findings at its pins. */
const checkFiles: JobKind<CheckSetup, string, CheckResult> = {
  async start({ matricesFolder, userMatricesFolders, knownImports, cwd, overrides }) {
    const { parser, catalog, pinsOf, problems: matrixProblems } = await openTools(matricesFolder, cwd, userMatricesFolders);
    const memo = new CheckMemo();
    const known = new Map(knownImports ?? []);
    const distributionsOf = distributionsOfImport((root) => known.get(root) ?? []);
    return {
      run(file) {
        const read = readBoundedText(file, MAX_SOURCE_BYTES);
        if (read.text === undefined) return { findings: [], coverage: [], problems: [], matrixProblems: [], readError: read.skipped ?? read.error, ...(read.error !== undefined ? { unreadable: true as const } : {}) };
        const text = read.text;
        const manifest = pinsOf(file);
        const pins = new Map([...manifest.pins, ...overrides]);
        const shown = relative(cwd, resolve(file)) || file;
        const syntax = parseFile(parser, text);
        const findings = analyzeSyntax(syntax, { catalog, pins, settings: manifest.settings, localModules: manifest.localModules }, memo);
        const coverage = coverageOf({ importRoots: importRootsOfChunks(syntax.referenceChunks), pins, catalog, distributionsOf: (root) => distributionsOf(root, pins.keys()) });
        return { findings: findings.map((f) => toReportedFinding(shown, f)), coverage, problems: manifest.problems, matrixProblems: matrixProblems.splice(0), readError: null };
      },
      close: () => catalog.close(),
    };
  },
};

export interface MinVersionsSetup {
  matricesFolder: string;
  cwd: string;
  /** Only these libraries (by name; all when empty). */
  libraries: string[];
}

export interface LibraryUse {
  library: string;
  /**
   * What the manifests governing the file declare for the library: the pin in force and, where markers leave several
   * possible (choosePins' alternatives), each of the others; empty where nothing names it.
   */
  declarations: DeclaredRequirement[];
  /** Tracked version -> what the file uses that the version lacks, for versions that lack something. */
  failuresAt: [string, Usage[]][];
  /** Tracked version -> what the file uses that the library deprecates there (the deprecation tier's verdicts). */
  deprecatedAt: [string, DeprecatedUsage[]][];
}

export interface MinVersionsResult {
  shown: string;
  /** The tracked libraries the file uses, in the order the catalog lists them. */
  uses: LibraryUse[];
  problems: ManifestProblem[];
  /** Problems with matrices first opened for this file. */
  matrixProblems: string[];
  readError: string | null;
  /** As CheckResult's. */
  unreadable?: true;
}


/**
 * The pin in force and its alternatives, each as min-versions judges it, and any other declaration of the library
 * (a lower-precedence manifest: setup.cfg beside pyproject.toml) that allows no version at all, which is wrong
 * whichever manifest a tool reads.
 */
function declarationsOf(pin: Pin | undefined, candidates: readonly Pin[], matrix: LibraryMatrix): DeclaredRequirement[] {
  if (!pin) return [];
  const judged = [pin, ...(pin.alternatives ?? [])];
  const same = (a: Pin, b: Pin) => a.origin.file === b.origin.file && a.origin.line === b.origin.line;
  const allowingNothing = candidates.filter((c) => allowsNoVersion(c.specifier) && !judged.some((j) => same(j, c)));
  return [...judged, ...allowingNothing].map((p) => ({
    requirement: `${matrix.distribution}${p.specifier}${p.marker ? `; ${p.marker}` : ''}`,
    specifier: p.specifier,
    source: describeOrigin(p.origin),
    ...(p.marker ? { marker: p.marker } : {}),
  }));
}

/** `anachron min-versions`: which tracked libraries one file uses, and what it uses that each tracked version lacks. */
const minVersionsOfFiles: JobKind<MinVersionsSetup, string, MinVersionsResult> = {
  async start({ matricesFolder, cwd, libraries }) {
    const { parser, catalog, pinsOf, problems: matrixProblems } = await openTools(matricesFolder, cwd);
    const memo = new CheckMemo();
    const only = new Set(libraries);
    const pinsAt = new Map<string, Map<string, Pin>>();
    const alone = (matrix: LibraryMatrix, version: string): Map<string, Pin> => {
      const key = `${matrix.distribution}==${version}`;
      let pins = pinsAt.get(key);
      if (!pins) {
        const pin = parseCommandLinePin(key);
        if ('error' in pin) throw new Error(`cannot pin ${key}: ${pin.error}`);
        pinsAt.set(key, (pins = new Map([[normalizeDistributionName(matrix.distribution), pin]])));
      }
      return pins;
    };
    return {
      run(file) {
        const shown = relative(cwd, resolve(file)) || file;
        const read = readBoundedText(file, MAX_SOURCE_BYTES);
        if (read.text === undefined) return { shown, uses: [], problems: [], matrixProblems: [], readError: read.skipped ?? read.error, ...(read.error !== undefined ? { unreadable: true as const } : {}) };
        const text = read.text;
        const syntax = parseFile(parser, text);
        const used = new Map<string, LibraryMatrix>();
        const use = (matrix: LibraryMatrix | undefined) => {
          if (matrix && (only.size === 0 || only.has(matrix.library))) used.set(matrix.library, matrix);
        };
        for (const ref of syntax.references) {
          const root = ref.prefixes[0]?.path.split('.')[0];
          if (root) use(catalog.forImportRoot(root));
        }
        if (syntax.syntaxUses.length > 0) use(catalog.forImportRoot('builtins'));
        if (used.size === 0) return { shown, uses: [], problems: [], matrixProblems: matrixProblems.splice(0), readError: null };
        const manifest = pinsOf(file);
        const uses: LibraryUse[] = [];
        for (const matrix of used.values()) {
          // The library pinned alone at each tracked version.
          const failuresAt: [string, Usage[]][] = [];
          const deprecatedAt: [string, DeprecatedUsage[]][] = [];
          for (const version of matrix.versions) {
            const failures: Usage[] = [];
            const deprecated: DeprecatedUsage[] = [];
            // Verdicts, not findings: no message is wanted, and rendering one per version and use dominated.
            const ctx = { catalog, pins: alone(matrix, version), localModules: manifest.localModules };
            for (const v of [...judgeReferences(syntax.references, ctx, memo), ...judgeSyntax(syntax.syntaxUses, ctx)]) {
              if (v.matrix.library !== matrix.library || isSuppressed(syntax.suppressions, v.range.start.line, v.code)) continue;
              const place = { file: shown, line: v.range.start.line + 1, column: v.range.start.column + 1, code: v.code, api: v.api, parameter: v.parameter };
              if (v.code === 'deprecated-api' || v.code === 'deprecated-parameter') deprecated.push({ ...place, replacement: v.replacement, removedIn: v.removedIn });
              else if (isVersionDependent(v)) failures.push(place);
            }
            if (failures.length > 0) failuresAt.push([version, failures]);
            if (deprecated.length > 0) deprecatedAt.push([version, deprecated]);
          }
          uses.push({ library: matrix.library, declarations: declarationsOf(manifest.pins.get(normalizeDistributionName(matrix.distribution)), manifest.candidates.get(normalizeDistributionName(matrix.distribution)) ?? [], matrix), failuresAt, deprecatedAt });
        }
        return { shown, uses, problems: manifest.problems, matrixProblems: matrixProblems.splice(0), readError: null };
      },
      close: () => catalog.close(),
    };
  },
};

/** The benchmark's API-C dataset: one corpus file's call sites and snippets (eval/libevobench/datasets/api-c.ts). */
const apiCHarvest: JobKind<HarvestSetup, CorpusFile, ApiCFileHarvest> = {
  async start({ libraries, selected }) {
    const parser = await loadPythonParser();
    const tracked = new Map(libraries.map((l) => [l.library, trackedLibraryOf(l)] as const));
    const versions = new Map(selected.map(([l, v]) => [l, new Set(v)] as const));
    return { run: (file) => harvestApiCFile(file, parser, tracked, versions), close: () => {} };
  },
};

export const JOB_KINDS = {
  check: checkFiles,
  'min-versions': minVersionsOfFiles,
  'api-c-harvest': apiCHarvest,
};

export type JobKindName = keyof typeof JOB_KINDS;
type KindOf<K extends JobKindName> = (typeof JOB_KINDS)[K];
export type SetupOf<K extends JobKindName> = KindOf<K> extends JobKind<infer S, unknown, unknown> ? S : never;
export type JobOf<K extends JobKindName> = KindOf<K> extends JobKind<unknown, infer J, unknown> ? J : never;
export type ResultOf<K extends JobKindName> = KindOf<K> extends JobKind<unknown, unknown, infer R> ? R : never;
