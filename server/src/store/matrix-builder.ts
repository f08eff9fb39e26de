// Merges the evidence for every version of one library into its SQLite compatibility matrix.
// Deterministic: the same inputs and build date give a byte-identical file.
import { createHash } from 'node:crypto';
import { renameSync, rmSync } from 'node:fs';
import { oneSignatureForCallers, sameForCallers } from '../core/caller-signature.js';
import { compareVersions } from '../core/versions.js';
import { decideState } from './cell-state.js';
import { encode, EVOLUTION_CODES, KIND_CODES, SOURCE_CODES } from './codes.js';
import { MATRIX_SCHEMA, MATRIX_SCHEMA_VERSION } from './schema.js';
import { withAliasMembers } from './alias-members.js';
import { withParserSignatures } from './parser-signatures.js';
import { shareEqualSubtrees } from './shared-subtrees.js';
import type { SqlDatabase, SqlStatement } from './sqlite/database.js';
import { sqlite } from './sqlite/driver.js';
import { belowAny, foreignModules, notComparableModules, underUnresolved, unresolvedModules } from './unresolved.js';
import type { Surface, SurfaceApi } from './surface.js';
import { compareSurfaces, type AgreementReport } from './surface-agreement.js';
import { deprecationSpans } from './deprecation-spans.js';
import { evidenceFromSurfaces, resolutionSurface, type VersionEvidence } from './version-evidence.js';
import { InputError } from '../core/errors.js';
import { agreementOptions, unionSurface, wantsUnion } from './union-evidence.js';
import { withBetterSignatures } from './better-signature.js';

export const BUILDER_VERSION = '8';

export interface BuildOptions {
  /** Distribution name as manifests spell it; defaults to the import name. */
  distribution?: string;
  /** Date recorded as the build date. */
  builtAt: string;
  /** Left-out release -> the built version whose surface it has (the release planner's LIB.same-surface.json). */
  sameSurface?: Record<string, string>;
  onProgress?: (message: string) => void;
}

export interface VersionStats {
  apis: number;
  callables: number;
  callables_with_signature: number;
  signature_sources: Record<string, number>;
  /** APIs also present in the previous version whose signature shape differs from it. */
  signatures_changed: number;
  documented?: number;
  documented_and_resolved?: number;
  /** Documented but not resolvable: na cells. */
  documented_only?: number;
  resolved_only?: number;
}

export interface AgreementSummary {
  name_base: number;
  name_agreeing: number;
  signature_base: number;
  signature_agreeing: number;
  only_runtime: number;
  only_static: number;
  /** Left out of the name comparison: under modules the runtime could not import. */
  not_comparable?: number;
  /** Left out of the parameter comparison: C-parser signatures against the runtime's docstring ones. */
  parser_against_docstring?: number;
  /** Left out of the name comparison by reason (union libraries: platform-specific paths, modules' imports). */
  set_apart?: Record<string, number>;
  /** Keyword sets compared on introspected signatures (union libraries). */
  keyword_base?: number;
  keyword_agreeing?: number;
}

export interface BuildResult {
  library: string;
  versions: string[];
  apis: number;
  /** Full static-vs-runtime comparisons, by version, for the disagreement files. */
  agreements: Map<string, AgreementReport>;
}

const CALLABLE_KINDS = new Set(['function', 'class', 'method']);

function baseStats(surface: Surface): VersionStats {
  const stats: VersionStats = { apis: surface.apis.length, callables: 0, callables_with_signature: 0, signature_sources: {}, signatures_changed: 0 };
  for (const api of surface.apis) {
    if (!CALLABLE_KINDS.has(api.kind)) continue;
    stats.callables++;
    if (api.signature) {
      stats.callables_with_signature++;
      stats.signature_sources[api.signature.source] = (stats.signature_sources[api.signature.source] ?? 0) + 1;
    }
  }
  return stats;
}

/** Modules that could not be looked into at a version: import errors and modules recorded as not imported. */
function canonicalParameters(api: SurfaceApi): string | null {
  if (!api.signature) return null;
  // A **kwargs the extractors resolved keeps the keywords it forwards (api-model Parameter.keywords); only then, so
  // matrices of surfaces without any store what they stored before.
  return JSON.stringify(api.signature.parameters.map((p) => (p.keywords === undefined ? { name: p.name, kind: p.kind, default: p.default } : { name: p.name, kind: p.kind, default: p.default, keywords: p.keywords })));
}

export function inputDigest(evidence: VersionEvidence[]): string {
  const hash = createHash('sha256');
  for (const e of evidence) {
    for (const part of [e.runtime, e.static, e.docs]) hash.update(part ? JSON.stringify(part) : '-');
    // Only where a version has one, so matrices built before deprecations were read keep their digest.
    if (e.deprecations) hash.update(JSON.stringify(e.deprecations));
  }
  return hash.digest('hex');
}

function sortKeys(obj: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(obj).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

interface Cell {
  state: string;
  runtime: number | null;
  documented: number | null;
  kind: string | null;
  signature: string | null;
  signatureSource: string | null;
  returns: string | null;
  doc: string | null;
  exported: number | null;
}

/**
 * Whether a cell continues a span. The docs bit only exists at versions with documentation, so a cell without it
 * (documented null) joins a span whatever the span's docs bit is; everything else must be equal.
 */
function continuesSpan(spanDocumented: number | null, first: Cell, next: Cell): boolean {
  return (next.documented === null || spanDocumented === null || next.documented === spanDocumented) &&
    first.runtime === next.runtime && first.kind === next.kind && first.signature === next.signature &&
    first.signatureSource === next.signatureSource && first.returns === next.returns && first.doc === next.doc && first.exported === next.exported;
}

/**
 * What a matrix holds, decided from the evidence before anything is written (planMatrix): the versions in order,
 * the surface each version's paths are resolved from, what is unknown where, every path, and the per-version
 * figures and agreement reports.
 */
interface MatrixPlan {
  library: string;
  evidence: VersionEvidence[];
  /** Per version: the surface its paths are resolved from. */
  primaries: Surface[];
  /** Per version: path -> its record, less the paths a removal note says are gone there. */
  byVersion: Map<string, SurfaceApi>[];
  /** Per version with documentation: the documented paths. */
  documentedSets: (Set<string> | null)[];
  /** Per version: the modules that could not be looked into, with why. */
  unresolved: Map<string, string>[];
  /** Per version: modules from outside the library a runtime holds as opaque attributes (unresolved.ts foreignModules). */
  foreign: Set<string>[];
  /** Per version: the paths with a removal note (not modules). */
  noted: Set<string>[];
  /** Paths the runtime finds where static extraction at the same version does not (unknown at static-only versions). */
  staticBlind: Set<string>;
  /** Union libraries: every path some static surface records; null otherwise. */
  staticEver: Set<string> | null;
  /** Every path, sorted. */
  allPaths: string[];
  stats: VersionStats[];
  agreements: Map<string, AgreementReport>;
  agreementSummaries: (AgreementSummary | null)[];
}

/** The evidence in version order, checked (one library, one surface per version, something to resolve from). */
function planMatrix(input: Surface[] | VersionEvidence[]): MatrixPlan {
  const evidence: VersionEvidence[] = (input.length > 0 && 'schema' in input[0]! ? evidenceFromSurfaces(input as Surface[]) : (input as VersionEvidence[]))
    .slice()
    .sort((a, b) => compareVersions(a.version, b.version));
  if (evidence.length === 0) throw new InputError('no surfaces to build a matrix from');
  // Every surface with the members of its class aliases (alias-members.ts), computed once; the runtime's records of
  // compiled callables with the keywords their C argument parsers take (parser-signatures.ts).
  const expanded = evidence.map((e) => ({ ...e, runtime: e.runtime && withParserSignatures(withAliasMembers(e.runtime), e.static), static: e.static && withAliasMembers(e.static) }));
  // A library whose static surfaces describe every platform (the standard library from typeshed) takes a path either
  // surface has (union-evidence.ts).
  const union = wantsUnion(expanded.map((e) => e.static));
  // Elsewhere the runtime resolves, and each signature is the better of the runtime's and static extraction's
  // (better-signature.ts: a reading that loses parameters does not override one that names them).
  const primaries = expanded.map((e) => {
    const s = e.runtime && e.static ? (union ? unionSurface(e.runtime, e.static) : withBetterSignatures(e.runtime, e.static)) : resolutionSurface(e);
    if (!s) throw new InputError(`version ${e.version} has no runtime or static surface`);
    return s;
  });
  const staticEver = union ? new Set(expanded.flatMap((e) => (e.static ? e.static.apis.map((a) => a.path) : []))) : null;
  const library = primaries[0]!.library;
  for (const s of [...primaries, ...evidence.flatMap((e) => [e.static, e.docs].filter((x) => x !== undefined))]) {
    if (s!.library !== library) throw new InputError(`surfaces mix libraries: ${library} and ${s!.library}`);
  }
  for (let i = 1; i < evidence.length; i++) {
    if (compareVersions(evidence[i - 1]!.version, evidence[i]!.version) === 0) throw new InputError(`two surfaces for ${library} ${evidence[i]!.version}`);
  }

  const byVersion = primaries.map((s) => new Map(s.apis.map((a) => [a.path, a] as const)));
  const documentedSets = evidence.map((e) => (e.docs ? new Set(e.docs.documented) : null));
  // At a runtime version, what static extraction at the same tag says exists on some supported Pythons only
  // (numpy.distutils below 3.12) and the runtime's Python lacks is read from static extraction, as unresolved
  // modules are below.
  const unresolved = expanded.map((e, v) => (e.runtime && e.static ? notComparableModules(e.runtime, e.static) : unresolvedModules(primaries[v]!)));
  // Where a version has both, what the runtime finds and static extraction does not shows what the extractor is
  // blind to (members of C classes it cannot see). At versions known only statically, such an API not being found
  // says nothing: its cell is unknown, never absent, so the checker cannot report it as removed there.
  // An attribute the library keeps only to raise AttributeError with its own removal note (numpy 2's
  // ndarray.ptp) is listed by dir() but is not there: a path with a note at a version is absent at that version.
  // Not a submodule: numpy 2.0 notes `np.compat` as expired, yet `import numpy.compat` works until 2.3.
  const noted = evidence.map((e, v) => new Set([e.runtime, e.static].flatMap((s) => Object.keys(s?.removal_notes ?? {}))
    .filter((path) => byVersion[v]!.get(path)?.kind !== 'module')));
  byVersion.forEach((m, v) => {
    for (const path of noted[v]!) m.delete(path);
  });
  const staticBlind = new Set<string>();
  expanded.forEach((e, v) => {
    if (!e.runtime || !e.static) return;
    const seen = new Set(e.static.apis.map((a) => a.path));
    for (const a of e.runtime.apis) if (!seen.has(a.path) && !noted[v]!.has(a.path)) staticBlind.add(a.path);
  });
  // A module the runtime could not import (numpy.distutils in a Debian root without setuptools) is still read by
  // static extraction at the same tag: what that finds there counts as resolved; what it does not stays unknown.
  expanded.forEach((e, v) => {
    if (!e.runtime || !e.static || unresolved[v]!.size === 0) return;
    for (const a of e.static.apis) {
      if (!byVersion[v]!.has(a.path) && underUnresolved(a.path, unresolved[v]!)) byVersion[v]!.set(a.path, a);
    }
  });
  // Below a module from outside the library that a runtime holds (sqlalchemy.testing.mock is unittest.mock from 2.0
  // on) nothing was looked at: unknown there, not absent; not an import failure either, so not in unresolved_modules.
  const foreign = expanded.map((e) => (e.runtime ? foreignModules(e.runtime) : new Set<string>()));
  const allPaths = [...new Set([...byVersion.flatMap((m) => [...m.keys()]), ...documentedSets.flatMap((d) => (d ? [...d] : []))])].sort();

  const agreements = new Map<string, AgreementReport>();
  const agreementSummaries = evidence.map((e) => {
    if (!e.runtime || !e.static) return null;
    const report = compareSurfaces(e.runtime, e.static, e.docs?.documented, agreementOptions(e.runtime, e.static));
    agreements.set(e.version, report);
    return agreementSummary(report);
  });
  return { library, evidence, primaries, byVersion, documentedSets, unresolved, foreign, noted, staticBlind, staticEver, allPaths, stats: primaries.map(baseStats), agreements, agreementSummaries };
}

function agreementSummary(report: AgreementReport): AgreementSummary {
  const summary: AgreementSummary = {
    name_base: report.nameBase, name_agreeing: report.nameAgreeing, signature_base: report.signatureBase,
    signature_agreeing: report.signatureAgreeing, only_runtime: report.onlyInReference.length, only_static: report.onlyInCandidate.length, not_comparable: report.notComparable,
  };
  if (report.setApart) summary.set_apart = report.setApart;
  if (report.parserAgainstDocstring) summary.parser_against_docstring = report.parserAgainstDocstring;
  if (report.keywordBase !== undefined) Object.assign(summary, { keyword_base: report.keywordBase, keyword_agreeing: report.keywordAgreeing });
  return summary;
}

/** PATH's cell at every version (RECORDS: its record at each), counting what is documented into the plan's stats. */
function cellsOf(plan: MatrixPlan, path: string, records: (SurfaceApi | undefined)[]): Cell[] {
  return records.map((record, v) => {
    // Union: what no static surface ever records is only as absent as one runtime can tell: unknown.
    const blind = (!plan.evidence[v]!.runtime && plan.staticBlind.has(path) && !plan.noted[v]!.has(path)) || (plan.staticEver !== null && !plan.staticEver.has(path));
    const runtime = record ? 1 : blind || underUnresolved(path, plan.unresolved[v]!) || belowAny(path, plan.foreign[v]!) ? null : 0;
    const docs = plan.documentedSets[v];
    const documented = docs ? (docs.has(path) ? 1 : 0) : null;
    const state = decideState(runtime === null ? null : runtime === 1, documented === null ? null : documented === 1);
    if (documented !== null) {
      const s = plan.stats[v]!;
      if (documented) s.documented = (s.documented ?? 0) + 1;
      if (documented && runtime) s.documented_and_resolved = (s.documented_and_resolved ?? 0) + 1;
      if (documented && !runtime) s.documented_only = (s.documented_only ?? 0) + 1;
      if (!documented && runtime) s.resolved_only = (s.resolved_only ?? 0) + 1;
    }
    return {
      state, runtime, documented, kind: record?.kind ?? null, signature: record ? canonicalParameters(record) : null,
      signatureSource: record?.signature?.source ?? null, returns: record?.signature?.returns ?? null, doc: record?.doc ?? null,
      exported: record ? (record.exported === false ? 0 : 1) : null,
    };
  });
}

/**
 * The spans stored for CELLS: runs of cells that agree (continuesSpan), each with the docs bit of the run; the
 * "not resolved, not documented" runs are implicit and left out.
 */
function spansOf(cells: Cell[]): { start: number; end: number; documented: number | null }[] {
  const spans: { start: number; end: number; documented: number | null }[] = [];
  for (let start = 0; start < cells.length; ) {
    let end = start;
    let documented = cells[start]!.documented;
    while (end + 1 < cells.length && continuesSpan(documented, cells[start]!, cells[end + 1]!)) {
      end++;
      documented ??= cells[end]!.documented;
    }
    if (!(cells[start]!.runtime === 0 && documented !== 1)) spans.push({ start, end, documented });
    start = end + 1;
  }
  return spans;
}

/** A version's provenance: its primary surface's, with the files the static surface and the docs were read from. */
function versionProvenance(e: VersionEvidence, primary: Surface): Record<string, string> {
  const provenance = { ...(primary.provenance ?? {}) };
  if (e.docs?.provenance?.commit) provenance.docs_commit = e.docs.provenance.commit;
  // What makes the surfaces again where they are not committed: the published files they were read from
  if (e.static && e.static !== primary && e.static.provenance?.file) {
    provenance.static_file = e.static.provenance.file;
    if (e.static.provenance.sha256) provenance.static_sha256 = e.static.provenance.sha256;
    if (e.static.provenance.extractor) provenance.static_extractor = e.static.provenance.extractor;
  }
  if (e.docs?.provenance?.file) {
    provenance.docs_file = e.docs.provenance.file;
    if (e.docs.provenance.sha256) provenance.docs_sha256 = e.docs.provenance.sha256;
  }
  if (e.docs?.provenance?.release_commit) provenance.docs_release_commit = e.docs.provenance.release_commit;
  return sortKeys(provenance);
}

/** The meta table's rows. */
function matrixMeta(plan: MatrixPlan, options: BuildOptions, stable: number, sharedSubtrees: number): [string, string][] {
  const { library, evidence, allPaths } = plan;
  const meta: [string, string][] = [
    ['library', library],
    ['distribution', options.distribution ?? library],
    ['builder_version', BUILDER_VERSION],
    ['schema_version', String(MATRIX_SCHEMA_VERSION)],
    ['built_at', options.builtAt],
    ['input_sha256', inputDigest(evidence)],
    ['stable_apis', String(stable)],
    ['paths_seen', String(allPaths.length)],
    ['shared_subtrees', String(sharedSubtrees)],
  ];
  const built = new Set(evidence.map((e) => e.version));
  const same = Object.entries(options.sameSurface ?? {}).filter(([release, as]) => built.has(as) && !built.has(release));
  if (same.length > 0) meta.push(['same_surface', JSON.stringify(Object.fromEntries(same))]);
  // A matrix whose paths start under several top-level names (the standard library) answers for each of them.
  const roots = [...new Set(allPaths.map((p) => p.split('.')[0]!))].sort();
  if (roots.length !== 1 || roots[0] !== library) meta.push(['import_roots', JSON.stringify(roots)]);
  if (evidence.some((e) => [e.runtime, e.static].some((s) => s?.version_series))) meta.push(['version_series', '1']);
  return meta;
}

/**
 * Writes the apis (a tree of names) and their spans: returns how many APIs are stable, the node ids by path and
 * each API's cell key (what shareEqualSubtrees compares).
 */
function writeApis(db: SqlDatabase, plan: MatrixPlan, progress: (message: string) => void): { stable: number; nodeIds: Map<string, number>; cellKeys: Map<number, string> } {
  const signatureIds = new Map<string, number>();
  const textIds = new Map<string, number>();
  const insertSignature = db.prepare('INSERT INTO signatures (id, parameters) VALUES (?, ?)');
  const insertText = db.prepare('INSERT INTO texts (id, text) VALUES (?, ?)');
  const intern = (map: Map<string, number>, stmt: SqlStatement, text: string | null) => {
    if (!text) return null;
    let id = map.get(text);
    if (id === undefined) {
      id = map.size + 1;
      stmt.run(id, text);
      map.set(text, id);
    }
    return id;
  };
  // Paths as a tree of names; a segment that is not itself an API (rare) gets a row with no kind.
  const insertNode = db.prepare('INSERT INTO apis (id, parent_id, name, kind, evolution, documented_ever) VALUES (?, ?, ?, ?, ?, ?)');
  const setNode = db.prepare('UPDATE apis SET kind = ?, evolution = ?, documented_ever = ? WHERE id = ?');
  const nodeIds = new Map<string, number>();
  const nodeFor = (path: string): number => {
    let id = nodeIds.get(path);
    if (id !== undefined) return id;
    const cut = path.lastIndexOf('.');
    const parent = cut < 0 ? 0 : nodeFor(path.slice(0, cut));
    id = nodeIds.size + 1;
    insertNode.run(id, parent, path.slice(cut + 1), null, null, 0);
    nodeIds.set(path, id);
    return id;
  };
  const insertSpan = db.prepare(
    'INSERT INTO spans (api_id, first_ordinal, last_ordinal, runtime, documented, kind, signature_id, signature_source, returns_id, doc_id, exported) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  let stable = 0;
  const cellKeys = new Map<number, string>();
  const { allPaths, stats } = plan;
  allPaths.forEach((path, index) => {
    const apiId = nodeFor(path);
    const records = plan.byVersion.map((m) => m.get(path));
    const cells = cellsOf(plan, path, records);
    // Signatures compared by what a caller can pass (core/caller-signature.ts): a forwarding catch-all read at one
    // version and the parameters it forwards to read at the next are no change.
    records.forEach((r, v) => {
      const before = records[v - 1]?.signature;
      if (r?.signature && before && !sameForCallers(before, r.signature)) stats[v]!.signatures_changed++;
    });
    const signatures = records.flatMap((r) => (r?.signature ? [r.signature] : []));
    const isStable = cells.every((c) => c.state === 'present') && oneSignatureForCallers(signatures);
    if (isStable) stable++;
    const newest = [...records].reverse().find((r) => r !== undefined);
    const documentedEver = cells.some((c) => c.documented === 1);
    setNode.run(encode(KIND_CODES, newest?.kind ?? 'attribute'), encode(EVOLUTION_CODES, isStable ? 'stable' : 'evolving'), documentedEver ? 1 : 0, apiId);

    const key: unknown[] = [newest?.kind ?? 'attribute', isStable, documentedEver];
    for (const { start, end, documented } of spansOf(cells)) {
      const c = cells[start]!;
      const row = [apiId, start, end, c.runtime, documented, encode(KIND_CODES, c.kind), intern(signatureIds, insertSignature, c.signature),
        encode(SOURCE_CODES, c.signatureSource), intern(textIds, insertText, c.returns), intern(textIds, insertText, c.doc), c.exported] as const;
      insertSpan.run(...row);
      key.push(row.slice(1));
    }
    cellKeys.set(apiId, JSON.stringify(key));
    if ((index + 1) % 5000 === 0) progress(`${plan.library}: ${index + 1}/${allPaths.length} APIs`);
  });
  return { stable, nodeIds, cellKeys };
}

/** Writes the versions, removal notes, deprecations and unresolved modules. */
function writeVersions(db: SqlDatabase, plan: MatrixPlan): void {
  const { evidence } = plan;
  const insertVersion = db.prepare('INSERT INTO versions (id, version, ordinal, source, provenance, python, has_docs, stats, agreement) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  evidence.forEach((e, i) => {
    const primary = plan.primaries[i]!;
    const provenance = versionProvenance(e, primary);
    const summary = plan.agreementSummaries[i];
    insertVersion.run(i + 1, e.version, i, provenance.source ?? 'unknown', JSON.stringify(provenance), primary.python ?? null,
      e.docs ? 1 : 0, JSON.stringify(plan.stats[i]), summary ? JSON.stringify(summary) : null);
  });
  // Newest first, so a note a later release rewrote wins.
  const insertNote = db.prepare('INSERT OR IGNORE INTO removal_notes (path, note, version) VALUES (?, ?, ?)');
  for (let i = evidence.length - 1; i >= 0; i--) {
    for (const s of [evidence[i]!.runtime, evidence[i]!.static]) {
      for (const [path, note] of Object.entries(s?.removal_notes ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) insertNote.run(path, note, evidence[i]!.version);
    }
  }
  const insertDeprecation = db.prepare('INSERT INTO deprecations (path, parameter, first_ordinal, last_ordinal, evidence, message, source) VALUES (?, ?, ?, ?, ?, ?, ?)');
  for (const d of deprecationSpans(evidence)) insertDeprecation.run(d.path, d.parameter, d.firstOrdinal, d.lastOrdinal, d.evidence, d.message, d.source);
  const insertUnresolved = db.prepare('INSERT INTO unresolved_modules (version_id, module, error) VALUES (?, ?, ?)');
  plan.unresolved.forEach((m, i) => [...m.keys()].sort().forEach((module) => insertUnresolved.run(i + 1, module, m.get(module)!)));
}

export function buildMatrix(input: Surface[] | VersionEvidence[], outFile: string, options: BuildOptions): BuildResult {
  const progress = options.onProgress ?? (() => {});
  const plan = planMatrix(input);
  const { library, evidence, allPaths } = plan;
  const tmp = `${outFile}.tmp-${process.pid}`;
  rmSync(tmp, { force: true });
  const db = sqlite().open(tmp, { mode: 'write', create: true });
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec(MATRIX_SCHEMA);
    db.pragma(`user_version = ${MATRIX_SCHEMA_VERSION}`);
    db.transaction(() => {
      const { stable, nodeIds, cellKeys } = writeApis(db, plan, progress);
      const sharing = shareEqualSubtrees(db, nodeIds, cellKeys);
      progress(`${library}: ${sharing.aliased} re-exported subtrees shared (${sharing.removed} duplicate paths not stored)`);
      writeVersions(db, plan);
      const insertMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
      for (const [k, v] of matrixMeta(plan, options, stable, sharing.aliased)) insertMeta.run(k, v);
    });
    db.exec('VACUUM');
    db.close();
    renameSync(tmp, outFile);
    progress(`${library}: ${allPaths.length} APIs across ${evidence.length} versions -> ${outFile}`);
    return { library, versions: evidence.map((e) => e.version), apis: allPaths.length, agreements: plan.agreements };
  } catch (e) {
    if (db.open) db.close();
    rmSync(tmp, { force: true });
    throw e;
  }
}
