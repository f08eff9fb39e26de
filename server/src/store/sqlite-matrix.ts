// Read-only access to a built matrix file: every query of a matrix and the decoding of its rows, the same over
// either SQLite implementation (sqlite/). Lookups are memoised: the server asks about the same APIs on every
// keystroke.
import type { ApiHistory, ApiKind, CellState, DeprecationRun, LibraryMatrix, Parameter, SignatureSource, VersionCell } from '../core/api-model.js';
import type { AgreementSummary, VersionStats } from './matrix-builder.js';
import type { GroundTruthHistory, GroundTruthMatrix, GroundTruthState } from '../core/ground-truth.js';
import { decode, EVOLUTION_CODES, KIND_CODES, SOURCE_CODES } from './codes.js';
import { decideState, decideStates, type CellEvidence } from './cell-state.js';
import { declareSameSurfaces } from '../core/versions.js';
import { MATRIX_SCHEMA_VERSION, stateSql } from './schema.js';
import type { SqlDatabase, SqliteDriver, SqlStatement } from './sqlite/database.js';
import { sqlite } from './sqlite/driver.js';

const PARAMETER_KINDS = new Set(['positional_only', 'positional_or_keyword', 'var_positional', 'keyword_only', 'var_keyword']);

/** A signature's parameters as stored, or null when the text is not a list of parameters (a damaged or hand-edited matrix). */
function parseParameters(text: string): Parameter[] | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(value)) return null;
  for (const p of value) {
    if (typeof p !== 'object' || p === null) return null;
    const { name, kind, default: def, keywords } = p as Record<string, unknown>;
    if (typeof name !== 'string' || typeof kind !== 'string' || !PARAMETER_KINDS.has(kind) || (def !== null && typeof def !== 'string')) return null;
    if (keywords !== undefined && (kind !== 'var_keyword' || !Array.isArray(keywords) || !keywords.every((k) => typeof k === 'string'))) return null;
  }
  return value as Parameter[];
}

/** `value` when it is a list of strings; else the matrix is not usable. */
function stringList(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Error(`${what} is not a list of names`);
  return value;
}

/** `value` when it is an object of string values; else the matrix is not usable. */
function stringRecord(value: unknown, what: string): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string')) throw new Error(`${what} is not a table of versions`);
  return value as Record<string, string>;
}

function objectValue<T>(value: unknown, what: string): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${what} is not an object`);
  return value as T;
}

interface ApiNode {
  id: number;
  kind: number | null;
  evolution: number | null;
  documented_ever: number;
  alias_of: number | null;
}

interface SpanRow {
  first_ordinal: number;
  last_ordinal: number;
  documented: number | null;
  runtime: number | null;
  kind: number | null;
  parameters: string | null;
  signature_source: number | null;
  returns: string | null;
  doc: string | null;
  exported: number | null;
}

export interface VersionInfo {
  version: string;
  source: string;
  provenance: Record<string, string>;
  python: string | null;
  hasDocs: boolean;
  stats: VersionStats;
  agreement: AgreementSummary | null;
}

export class SqliteMatrix implements LibraryMatrix, GroundTruthMatrix {
  readonly library: string;
  readonly distribution: string;
  readonly versions: readonly string[];
  readonly importRoots?: readonly string[];
  readonly versionSeries?: boolean;
  readonly versionInfo: readonly VersionInfo[];
  readonly meta: Readonly<Record<string, string>>;
  /** Releases not tracked because their surface is a tracked version's (answered for as that version). */
  readonly sameSurface: ReadonlyMap<string, string>;
  private readonly db: SqlDatabase;
  private readonly cache = new Map<string, ApiHistory | undefined>();
  private absentCells: readonly VersionCell[] | undefined;
  private readonly unresolved: Set<string>;
  private readonly childNamed: SqlStatement<ApiNode>;
  private readonly nodeById: SqlStatement<{ parent_id: number; name: string }>;
  private anyChild: SqlStatement<unknown> | undefined;
  private readonly idCache = new Map<string, ApiNode | null>();
  private readonly pathCache = new Map<number, string>();
  private readonly spansOf: SqlStatement<SpanRow>;
  private readonly withDoc: SqlStatement<{ api_id: number }>;

  /** Opens a matrix; throws an Error that names the file and the problem when it is not a usable matrix. */
  constructor(
    readonly file: string,
    driver: SqliteDriver = sqlite(),
  ) {
    let db: SqlDatabase | undefined;
    try {
      this.db = db = driver.open(file, { mode: 'immutable' });
      // A matrix file never changes and the OS keeps its pages: SQLite's own page cache (2 MB by default, per open
      // matrix) would hold them twice. 256 KiB each: 30 MB less with every bundled matrix open, lookups as fast
      // (their results are cached above it).
      this.db.pragma('cache_size = -256');
      const schema = this.db.pragma('user_version') as number;
      if (schema !== MATRIX_SCHEMA_VERSION) {
        throw new Error(`matrix schema ${schema}, this anachron reads schema ${MATRIX_SCHEMA_VERSION}: rebuild it with npm run build:matrices`);
      }
      const meta = Object.fromEntries(
        (this.db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]),
      );
      this.meta = meta;
      if (!meta.library) throw new Error('matrix has no library name');
      this.library = meta.library;
      this.distribution = meta.distribution ?? meta.library;
      if (meta.import_roots) this.importRoots = stringList(JSON.parse(meta.import_roots), 'meta import_roots');
      if (meta.version_series === '1') this.versionSeries = true;
      const rows = this.db.prepare('SELECT version, source, provenance, python, has_docs, stats, agreement FROM versions ORDER BY ordinal').all() as {
        version: string; source: string; provenance: string; python: string | null; has_docs: number; stats: string; agreement: string | null;
      }[];
      if (rows.length === 0) throw new Error('matrix has no versions');
      this.versions = rows.map((r) => r.version);
      this.sameSurface = new Map(Object.entries(meta.same_surface ? stringRecord(JSON.parse(meta.same_surface), 'meta same_surface') : {}));
      declareSameSurfaces(this.versions, this.sameSurface);
      this.versionInfo = rows.map((r) => ({
        version: r.version, source: r.source, provenance: objectValue(JSON.parse(r.provenance), `provenance of ${r.version}`), python: r.python, hasDocs: r.has_docs === 1,
        stats: objectValue(JSON.parse(r.stats), `stats of ${r.version}`), agreement: r.agreement ? objectValue(JSON.parse(r.agreement), `agreement of ${r.version}`) : null,
      }));
      this.unresolved = new Set((this.db.prepare('SELECT DISTINCT module FROM unresolved_modules').all() as { module: string }[]).map((r) => r.module));
      this.childNamed = this.db.prepare<ApiNode>('SELECT id, kind, evolution, documented_ever, alias_of FROM apis WHERE parent_id = ? AND name = ?');
      this.nodeById = this.db.prepare<{ parent_id: number; name: string }>('SELECT parent_id, name FROM apis WHERE id = ?');
      this.withDoc = this.db.prepare<{ api_id: number }>('SELECT DISTINCT spans.api_id FROM texts JOIN spans ON spans.doc_id = texts.id WHERE texts.text = ?');
      this.spansOf = this.db.prepare<SpanRow>(
        `SELECT s.first_ordinal, s.last_ordinal, s.runtime, s.documented, s.kind, signatures.parameters, s.signature_source, r.text AS returns, d.text AS doc, s.exported
         FROM spans s LEFT JOIN signatures ON signatures.id = s.signature_id LEFT JOIN texts r ON r.id = s.returns_id LEFT JOIN texts d ON d.id = s.doc_id
         WHERE s.api_id = ?`,
      );
    } catch (e) {
      db?.close();
      throw new Error(`${file}: not a usable anachron matrix: ${(e as Error).message}`);
    }
  }

  lookup(api: string): ApiHistory | undefined {
    if (this.cache.has(api)) return this.cache.get(api);
    const row = this.node(api);
    let history: ApiHistory | undefined;
    if (row && row.kind !== null) {
      // Versions no span covers share one absent cell each across every history of the matrix (cells are read, never
      // written): most of a history's cells, and of the memory its cache holds, where an API lived for a few versions.
      this.absentCells ??= this.versions.map((version) => Object.freeze({ version, state: 'absent', kind: null, signature: null, signatureSource: null, returns: null, doc: null, exported: null }));
      const cells: VersionCell[] = [...this.absentCells];
      for (const span of this.spansOf.all(row.id)) {
        // The checker asks "would this call work": the runtime/static-resolution evidence decides.
        const state: CellState = span.runtime === null ? 'unknown' : span.runtime ? 'present' : 'absent';
        const kind = decode(KIND_CODES, span.kind);
        const source = decode(SOURCE_CODES, span.signature_source);
        const signature = this.signatureOf(span.parameters);
        for (let i = span.first_ordinal; i <= span.last_ordinal && i < cells.length; i++) {
          cells[i] = { version: this.versions[i]!, state, kind, signature, signatureSource: source, returns: span.returns, doc: span.doc, exported: span.exported === null ? null : span.exported === 1 };
        }
      }
      history = { api, library: this.library, kind: decode(KIND_CODES, row.kind)!, versions: cells };
    }
    this.cache.set(api, history);
    return history;
  }

  hasMembers(api: string): boolean {
    const node = this.node(api);
    if (!node) return false;
    this.anyChild ??= this.db.prepare('SELECT 1 FROM apis WHERE parent_id = ? LIMIT 1');
    return this.anyChild.get(node.id) !== undefined || (node.alias_of !== null && this.anyChild.get(node.alias_of) !== undefined);
  }

  /** Parameters whose stored text has the wrong shape give no signature (the checker then judges no call by it). */
  private signatureOf(parameters: string | null): { parameters: Parameter[] } | null {
    if (!parameters) return null;
    const parsed = parseParameters(parameters);
    return parsed ? { parameters: parsed } : null;
  }

  /**
   * The node of a dotted path, found segment by segment in the tree of names, from the root down (a loop, not
   * recursion), stopping at the first segment that is not there: a name of 50,000 segments costs what its first
   * missing segment does.
   */
  private node(path: string): ApiNode | null {
    const cached = this.idCache.get(path);
    if (cached !== undefined) return cached;
    let parent: { id: number; alias_of: number | null } = { id: 0, alias_of: null };
    for (let from = 0; ; ) {
      const dot = path.indexOf('.', from);
      const end = dot < 0 ? path.length : dot;
      const prefix = dot < 0 ? path : path.slice(0, end);
      let row = this.idCache.get(prefix);
      if (row === undefined) {
        const name = path.slice(from, end);
        // A re-exported class whose members are stored once, under the path it shares them with.
        row = this.childNamed.get(parent.id, name) ?? (parent.alias_of ? this.childNamed.get(parent.alias_of, name) : undefined) ?? null;
        this.idCache.set(prefix, row);
      }
      if (row === null || dot < 0) {
        this.idCache.set(path, row);
        return row;
      }
      parent = row;
      from = dot + 1;
    }
  }

  /** The dotted path of a node, walking up its parents (a loop; a cycle of parents makes the matrix unusable). */
  private pathOf(id: number): string {
    const cached = this.pathCache.get(id);
    if (cached !== undefined) return cached;
    const chain: { id: number; name: string }[] = [];
    const seen = new Set<number>();
    let prefix = '';
    for (let at = id; at !== 0; ) {
      const known = this.pathCache.get(at);
      if (known !== undefined) {
        prefix = known;
        break;
      }
      if (seen.has(at)) throw new Error(`${this.file}: not a usable anachron matrix: the parents of API ${id} form a cycle`);
      seen.add(at);
      const row = this.nodeById.get(at);
      if (!row) throw new Error(`${this.file}: no API with id ${at}`);
      chain.push({ id: at, name: row.name });
      at = row.parent_id;
    }
    let path = prefix;
    for (let i = chain.length - 1; i >= 0; i--) {
      path = path === '' ? chain[i]!.name : `${path}.${chain[i]!.name}`;
      this.pathCache.set(chain[i]!.id, path);
    }
    return path;
  }

  private readonly docCache = new Map<string, string[]>();

  apisWithDoc(doc: string): string[] {
    let paths = this.docCache.get(doc);
    if (!paths) {
      paths = this.withDoc.all(doc).map((r) => this.pathOf(r.api_id)).sort();
      this.docCache.set(doc, paths);
    }
    return paths;
  }

  private removalNotes: Map<string, { note: string; version: string }> | null = null;

  removalNote(api: string): { note: string; version: string } | null {
    if (!this.removalNotes) {
      const rows = this.db.prepare('SELECT path, note, version FROM removal_notes').all() as { path: string; note: string; version: string }[];
      this.removalNotes = new Map(rows.map((r) => [r.path, { note: r.note, version: r.version }]));
    }
    return this.removalNotes.get(api) ?? null;
  }

  private deprecationRuns: Map<string, DeprecationRun[]> | null = null;

  deprecations(api: string, parameter: string | null): readonly DeprecationRun[] {
    if (!this.deprecationRuns) {
      this.deprecationRuns = new Map();
      // Matrices built before deprecations were read have no such table: they record none.
      const table = this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'deprecations'").all();
      if (table.length > 0) {
        const rows = this.db.prepare('SELECT path, parameter, first_ordinal, last_ordinal, evidence, message, source FROM deprecations ORDER BY path, parameter, first_ordinal').all() as
          { path: string; parameter: string; first_ordinal: number; last_ordinal: number; evidence: string; message: string | null; source: string }[];
        for (const r of rows) {
          const since = this.versions[r.first_ordinal];
          const through = this.versions[r.last_ordinal];
          if (since === undefined || through === undefined) continue;
          const key = `${r.path}\0${r.parameter}`;
          const list = this.deprecationRuns.get(key) ?? [];
          list.push({ since, through, evidence: r.evidence, message: r.message, source: r.source });
          this.deprecationRuns.set(key, list);
        }
      }
    }
    return this.deprecationRuns.get(`${api}\0${parameter ?? ''}`) ?? [];
  }

  /** What the deprecations table holds, for matrices/README.md; null for a matrix built before it was read. */
  deprecationCounts(): { runs: number; apis: number; keywords: number; members: number; byEvidence: Record<string, number> } | null {
    const table = this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'deprecations'").all();
    if (table.length === 0) return null;
    const rows = this.db.prepare('SELECT parameter, evidence FROM deprecations').all() as { parameter: string; evidence: string }[];
    const byEvidence: Record<string, number> = {};
    for (const r of rows) byEvidence[r.evidence] = (byEvidence[r.evidence] ?? 0) + 1;
    return {
      runs: rows.length,
      apis: rows.filter((r) => r.parameter === '').length,
      keywords: rows.filter((r) => r.parameter !== '' && r.parameter !== '*').length,
      members: rows.filter((r) => r.parameter === '*').length,
      byEvidence,
    };
  }

  isUnresolved(api: string): boolean {
    for (let cut = api.length; cut > 0; cut = api.lastIndexOf('.', cut - 1)) {
      if (this.unresolved.has(api.slice(0, cut))) return true;
    }
    return false;
  }

  apiPaths(): string[] {
    const anyDocs = this.versionInfo.some((v) => v.hasDocs);
    return (this.db.prepare(`SELECT path FROM api_list ${anyDocs ? 'WHERE documented_ever = 1' : ''} ORDER BY path`).all() as { path: string }[]).map((r) => r.path);
  }

  benchmarkVersions(): string[] {
    const documented = this.versionInfo.filter((v) => v.hasDocs).map((v) => v.version);
    return documented.length > 0 ? documented : [...this.versions];
  }

  /** The two bits of evidence of each of an API's cells (cells no span covers: not resolved, not documented). */
  private cellEvidence(spans: readonly SpanRow[]): CellEvidence[] {
    const evidence: CellEvidence[] = this.versions.map((_, i) => ({ resolved: false, documented: this.versionInfo[i]!.hasDocs ? false : null }));
    for (const span of spans) {
      for (let i = span.first_ordinal; i <= span.last_ordinal && i < evidence.length; i++) {
        evidence[i] = { resolved: span.runtime === null ? null : span.runtime === 1, documented: this.versionInfo[i]!.hasDocs ? span.documented === 1 : null };
      }
    }
    return evidence;
  }

  /**
   * The presence rule cell by cell (decideState), without the deprecation pass over the API's versions: what the
   * knowledge answers read (resolvable but undocumented at a version = not documented there).
   */
  cellStates(api: string): { version: string; state: GroundTruthState }[] | undefined {
    const row = this.node(api);
    if (!row || row.kind === null) return undefined;
    return this.cellEvidence(this.spansOf.all(row.id)).map((e, i) => ({ version: this.versions[i]!, state: decideState(e.resolved, e.documented) }));
  }

  groundTruth(api: string): GroundTruthHistory | undefined {
    const row = this.node(api);
    if (!row || row.kind === null) return undefined;
    const cells = this.versions.map((version) => ({ version, state: 'absent' as GroundTruthState, signature: null as GroundTruthHistory['versions'][number]['signature'], doc: null as string | null }));
    const spans = this.spansOf.all(row.id);
    for (const span of spans) {
      const signature = this.signatureOf(span.parameters);
      for (let i = span.first_ordinal; i <= span.last_ordinal && i < cells.length; i++) cells[i] = { version: this.versions[i]!, state: 'absent', signature, doc: span.doc };
    }
    decideStates(this.cellEvidence(spans)).forEach((state, i) => (cells[i]!.state = state));
    return { api, kind: decode(KIND_CODES, row.kind)!, evolution: decode(EVOLUTION_CODES, row.evolution) ?? 'evolving', documentedEver: row.documented_ever === 1, versions: cells };
  }

  evolutionCounts(): { stable: number; evolving: number } {
    const rows = this.db.prepare('SELECT evolution, COUNT(*) AS n FROM api_list GROUP BY evolution').all() as { evolution: string; n: number }[];
    const get = (e: string) => rows.find((r) => r.evolution === e)?.n ?? 0;
    return { stable: get('stable'), evolving: get('evolving') };
  }

  /**
   * Figures for the benchmark's view (the paper's A matrix): rows are the APIs documented in some version (all APIs
   * when the library has no documentation evidence); counts cells by state.
   */
  groundTruthCounts(): { apis: number; stable: number; evolving: number; present: number; absent: number; na: number; signatures: number } {
    const anyDocs = this.versionInfo.some((v) => v.hasDocs);
    const rowFilter = anyDocs ? 'WHERE documented_ever = 1' : '';
    const rowFilter2 = anyDocs ? 'WHERE documented_ever = 1 AND kind IS NOT NULL' : 'WHERE kind IS NOT NULL';
    const apis = this.db.prepare(`SELECT evolution, COUNT(*) AS n FROM apis ${rowFilter2} GROUP BY evolution`).all() as { evolution: number; n: number }[];
    const expanded = `spans s JOIN versions v ON v.ordinal BETWEEN s.first_ordinal AND s.last_ordinal WHERE s.api_id IN (SELECT id FROM apis ${rowFilter2})`;
    const stateRows = this.db.prepare(`SELECT ${stateSql('s', 'v')} AS state, COUNT(*) AS n FROM ${expanded} GROUP BY 1`).all() as { state: string; n: number }[];
    const signatures = this.db.prepare(`SELECT COUNT(*) AS n FROM (SELECT DISTINCT s.api_id, s.signature_id FROM ${expanded} AND s.signature_id IS NOT NULL AND ${stateSql('s', 'v')} = 'present')`).get() as { n: number };
    const rowsCount = apis.reduce((n, r) => n + r.n, 0);
    const explicit = stateRows.reduce((n, r) => n + r.n, 0);
    // Cells not covered by a span are absent.
    const cells = [
      { state: 'present', n: stateRows.find((r) => r.state === 'present')?.n ?? 0 },
      { state: 'na', n: stateRows.find((r) => r.state === 'na')?.n ?? 0 },
      { state: 'absent', n: (stateRows.find((r) => r.state === 'absent')?.n ?? 0) + rowsCount * this.versions.length - explicit },
    ];
    const a = (e: string) => apis.find((r) => decode(EVOLUTION_CODES, r.evolution) === e)?.n ?? 0;
    const c = (s: string) => cells.find((r) => r.state === s)?.n ?? 0;
    return { apis: a('stable') + a('evolving'), stable: a('stable'), evolving: a('evolving'), present: c('present'), absent: c('absent'), na: c('na'), signatures: signatures.n };
  }

  close(): void {
    this.db.close();
  }
}
