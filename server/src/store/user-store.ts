// The user's matrix store: version columns made on this machine (from a package index's release files, or from an
// interpreter that has the version installed), never in the bundled matrices. Laid out like the bundled folder —
// surfaces/LIB/LIB-VERSION.KIND.json.gz and the LIB.sqlite built from them — so the catalog reads it the same way,
// plus columns.json: one record per (distribution, version) with the libraries it gave and where it came from
// (index URL, file name, sha256; or the interpreter). Writers take the folder's lock (two editor windows share it).
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { normalizeDistributionName } from '../core/library-names.js';
import { compareVersions, versionsEqual } from '../core/versions.js';
import { buildMatrix } from './matrix-builder.js';
import { acquireFileLock } from './sqlite/file-lock.js';
import { SqliteError } from './sqlite/database.js';
import type { Surface } from './surface.js';
import { readEvidenceFolder } from './version-evidence.js';

type Env = Record<string, string | undefined>;

/** ANACHRON_USER_MATRICES, else the platform's data folder + anachron/matrices. */
export function defaultUserMatricesFolder(env: Env = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.ANACHRON_USER_MATRICES) return env.ANACHRON_USER_MATRICES;
  const home = env.HOME || env.USERPROFILE || homedir();
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'anachron', 'matrices');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'anachron', 'matrices');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'anachron', 'matrices');
}

export type ColumnSource = 'index' | 'runtime';

export interface ColumnRecord {
  /** Normalised distribution name. */
  distribution: string;
  version: string;
  /** The import names the column covers (one matrix each). */
  libraries: string[];
  source: ColumnSource;
  /** index, file, sha256 for an index column; python for a runtime one (never a credential). */
  provenance: Record<string, string>;
  addedAt: string;
}

const RECORDS = 'columns.json';

export class UserMatrixStore {
  constructor(readonly folder: string) {}

  get recordsFile(): string {
    return join(this.folder, RECORDS);
  }

  columns(): ColumnRecord[] {
    try {
      const parsed = JSON.parse(readFileSync(this.recordsFile, 'utf8')) as { columns?: unknown };
      return Array.isArray(parsed.columns) ? (parsed.columns as ColumnRecord[]).filter((c) => typeof c?.distribution === 'string' && typeof c.version === 'string' && Array.isArray(c.libraries)) : [];
    } catch {
      return [];
    }
  }

  /** The column of a distribution at a version, if one was made (from `source`, when given). */
  column(distribution: string, version: string, source?: ColumnSource): ColumnRecord | undefined {
    const d = normalizeDistributionName(distribution);
    return this.columns().find((c) => c.distribution === d && versionsEqual(c.version, version) && (!source || c.source === source));
  }

  /** Import names that columns of a distribution gave. */
  importNamesOf(distribution: string): string[] {
    const d = normalizeDistributionName(distribution);
    return [...new Set(this.columns().filter((c) => c.distribution === d).flatMap((c) => c.libraries))];
  }

  /** Distributions whose columns gave this import name. */
  distributionsOfImport(importName: string): string[] {
    return [...new Set(this.columns().filter((c) => c.libraries.includes(importName)).map((c) => c.distribution))];
  }

  /** Takes the folder's lock, waiting while another process holds it (up to `waitMs`). */
  private async locked<T>(work: () => T, waitMs = 120_000): Promise<T> {
    mkdirSync(this.folder, { recursive: true });
    const started = Date.now();
    for (;;) {
      let release: (() => void) | undefined;
      try {
        release = acquireFileLock(this.recordsFile, 'native');
      } catch (e) {
        if (!(e instanceof SqliteError) || Date.now() - started > waitMs) throw new Error(`your matrices (${this.folder}) are being written by another process: ${(e as Error).message}`);
        await new Promise((r) => setTimeout(r, 250));
        continue;
      }
      try {
        return work();
      } finally {
        release();
      }
    }
  }

  /**
   * Adds one version column (one surface per library it covers), rebuilds those libraries' matrices and records
   * it. `beforeReplace` runs before a matrix file is replaced (a reader that holds it open closes it there).
   */
  async addColumn(record: Omit<ColumnRecord, 'addedAt' | 'libraries'>, surfaces: Surface[], beforeReplace?: (library: string) => void): Promise<ColumnRecord> {
    if (surfaces.length === 0) throw new Error(`${record.distribution} ${record.version}: no surface to add`);
    const distribution = normalizeDistributionName(record.distribution);
    const kind = record.source === 'runtime' ? 'runtime' : 'static';
    return this.locked(() => {
      for (const surface of surfaces) {
        const dir = join(this.folder, 'surfaces', surface.library);
        mkdirSync(dir, { recursive: true });
        const file = join(dir, `${surface.library}-${record.version}.${kind}.json.gz`);
        const tmp = `${file}.tmp${process.pid}`;
        writeFileSync(tmp, gzipSync(JSON.stringify({ ...surface, version: record.version })));
        renameSync(tmp, file);
      }
      for (const surface of surfaces) this.rebuild(surface.library, distribution, beforeReplace);
      const added: ColumnRecord = { ...record, distribution, libraries: surfaces.map((s) => s.library).sort(), addedAt: new Date().toISOString() };
      const others = this.columns().filter((c) => !(c.distribution === distribution && versionsEqual(c.version, record.version) && c.source === record.source));
      const all = [...others, added].sort((a, b) => a.distribution.localeCompare(b.distribution) || compareVersions(a.version, b.version) || a.source.localeCompare(b.source));
      const tmp = `${this.recordsFile}.tmp${process.pid}`;
      writeFileSync(tmp, JSON.stringify({ columns: all }, null, 1));
      renameSync(tmp, this.recordsFile);
      return added;
    });
  }

  private rebuild(library: string, distribution: string, beforeReplace?: (library: string) => void): void {
    const evidence = readEvidenceFolder(join(this.folder, 'surfaces', library));
    const out = join(this.folder, `${library}.sqlite`);
    beforeReplace?.(library);
    try {
      // The builder writes a temporary file and renames it over the matrix.
      buildMatrix(evidence, out, { distribution, builtAt: new Date().toISOString().slice(0, 10) });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPERM' || code === 'EBUSY' || code === 'EACCES') throw new Error(`cannot replace ${out} (${code}): another program has it open; close it (an editor window) and fetch again`);
      throw e;
    }
  }

  exists(): boolean {
    return existsSync(this.folder);
  }
}
