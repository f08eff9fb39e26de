// Read-only access to a built matrix file. Lookups are memoised: the server asks about the same APIs on every
// keystroke.
import Database from 'better-sqlite3';
import type { ApiHistory, ApiKind, CellState, LibraryMatrix, Parameter, SignatureSource, VersionCell } from '../core/api-model.js';
import { MATRIX_SCHEMA_VERSION } from './schema.js';

interface CellRow {
  version_id: number;
  state: string;
  runtime: number | null;
  kind: string | null;
  parameters: string | null;
  signature_source: string | null;
  doc: string | null;
}

export interface VersionInfo {
  version: string;
  source: string;
  provenance: Record<string, string>;
  python: string | null;
  stats: { apis: number; callables: number; callables_with_signature: number; signature_sources: Record<string, number> };
}

export class SqliteMatrix implements LibraryMatrix {
  readonly library: string;
  readonly distribution: string;
  readonly versions: readonly string[];
  readonly versionInfo: readonly VersionInfo[];
  readonly meta: Readonly<Record<string, string>>;
  private readonly db: Database.Database;
  private readonly cache = new Map<string, ApiHistory | undefined>();
  private readonly unresolved: Set<string>;
  private readonly findApi: Database.Statement<[string], { id: number; kind: string }>;
  private readonly cellsOf: Database.Statement<[number], CellRow>;
  private readonly versionIndex: Map<number, number>;
  private readonly withDoc: Database.Statement<[string], { path: string }>;

  /** Opens a matrix; throws an Error that names the file and the problem when it is not a usable matrix. */
  constructor(readonly file: string) {
    try {
      this.db = new Database(file, { readonly: true, fileMustExist: true });
      const schema = this.db.pragma('user_version', { simple: true }) as number;
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
      const rows = this.db.prepare('SELECT id, version, source, provenance, python, stats FROM versions ORDER BY ordinal').all() as {
        id: number; version: string; source: string; provenance: string; python: string | null; stats: string;
      }[];
      if (rows.length === 0) throw new Error('matrix has no versions');
      this.versions = rows.map((r) => r.version);
      this.versionIndex = new Map(rows.map((r, i) => [r.id, i]));
      this.versionInfo = rows.map((r) => ({ version: r.version, source: r.source, provenance: JSON.parse(r.provenance), python: r.python, stats: JSON.parse(r.stats) }));
      this.unresolved = new Set((this.db.prepare('SELECT DISTINCT module FROM unresolved_modules').all() as { module: string }[]).map((r) => r.module));
      this.findApi = this.db.prepare('SELECT id, kind FROM apis WHERE path = ?');
      this.withDoc = this.db.prepare(
        'SELECT DISTINCT apis.path FROM docs JOIN cells ON cells.doc_id = docs.id JOIN apis ON apis.id = cells.api_id WHERE docs.text = ? ORDER BY apis.path',
      );
      this.cellsOf = this.db.prepare(
        `SELECT cells.version_id, cells.state, cells.runtime, cells.kind, signatures.parameters, cells.signature_source, docs.text AS doc
         FROM cells LEFT JOIN signatures ON signatures.id = cells.signature_id LEFT JOIN docs ON docs.id = cells.doc_id
         WHERE cells.api_id = ?`,
      );
    } catch (e) {
      throw new Error(`${file}: not a usable anachron matrix: ${(e as Error).message}`);
    }
  }

  lookup(api: string): ApiHistory | undefined {
    if (this.cache.has(api)) return this.cache.get(api);
    const row = this.findApi.get(api);
    let history: ApiHistory | undefined;
    if (row) {
      const cells: VersionCell[] = this.versions.map((version) => ({ version, state: 'absent', kind: null, signature: null, signatureSource: null, doc: null }));
      for (const c of this.cellsOf.all(row.id)) {
        const index = this.versionIndex.get(c.version_id);
        if (index === undefined) continue;
        // The checker asks "would this call work": the runtime/static-resolution evidence decides.
        const state: CellState = c.runtime === null ? 'unknown' : c.runtime ? 'present' : 'absent';
        cells[index] = {
          version: this.versions[index]!,
          state,
          kind: c.kind as ApiKind | null,
          signature: c.parameters ? { parameters: JSON.parse(c.parameters) as Parameter[] } : null,
          signatureSource: c.signature_source as SignatureSource | null,
          doc: c.doc,
        };
      }
      history = { api, library: this.library, kind: row.kind as ApiKind, versions: cells };
    }
    this.cache.set(api, history);
    return history;
  }

  apisWithDoc(doc: string): string[] {
    return this.withDoc.all(doc).map((r) => r.path);
  }

  isUnresolved(api: string): boolean {
    for (let cut = api.length; cut > 0; cut = api.lastIndexOf('.', cut - 1)) {
      if (this.unresolved.has(api.slice(0, cut))) return true;
    }
    return false;
  }

  evolutionCounts(): { stable: number; evolving: number } {
    const rows = this.db.prepare('SELECT evolution, COUNT(*) AS n FROM apis GROUP BY evolution').all() as { evolution: string; n: number }[];
    const get = (e: string) => rows.find((r) => r.evolution === e)?.n ?? 0;
    return { stable: get('stable'), evolving: get('evolving') };
  }

  close(): void {
    this.db.close();
  }
}
