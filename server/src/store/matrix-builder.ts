// Merges per-version surfaces of one library into its SQLite compatibility matrix.
// Deterministic: the same surfaces (and SOURCE_DATE_EPOCH) give a byte-identical file.
import { createHash } from 'node:crypto';
import { renameSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { compareVersions } from '../core/versions.js';
import { decideState } from './cell-state.js';
import { MATRIX_SCHEMA, MATRIX_SCHEMA_VERSION } from './schema.js';
import type { Surface, SurfaceApi } from './surface.js';

export const BUILDER_VERSION = '1';

export interface BuildOptions {
  /** Distribution name as manifests spell it; defaults to the import name. */
  distribution?: string;
  /** ISO date recorded as the build date. */
  builtAt: string;
  onProgress?: (message: string) => void;
}

export interface VersionStats {
  apis: number;
  callables: number;
  callables_with_signature: number;
  signature_sources: Record<string, number>;
}

const CALLABLE_KINDS = new Set(['function', 'class', 'method']);

export function surfaceStats(surface: Surface): VersionStats {
  const stats: VersionStats = { apis: surface.apis.length, callables: 0, callables_with_signature: 0, signature_sources: {} };
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
function unresolvedModules(surface: Surface): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of surface.modules) if (!m.imported) out.set(m.name, 'not imported');
  for (const e of surface.errors) if (e.module && !surface.apis.some((a) => a.path === e.module && a.kind === 'module')) out.set(e.module, e.error);
  return out;
}

function underUnresolved(path: string, unresolved: Map<string, string>): boolean {
  for (let cut = path.length; cut > 0; cut = path.lastIndexOf('.', cut - 1)) {
    if (unresolved.has(path.slice(0, cut))) return true;
  }
  return false;
}

function canonicalParameters(api: SurfaceApi): string | null {
  if (!api.signature) return null;
  return JSON.stringify(api.signature.parameters.map((p) => ({ name: p.name, kind: p.kind, default: p.default })));
}

/**
 * What the stable/evolving split compares: parameter names, kinds and whether each has a default. Default *texts*
 * differ between evidence sources (a stub's "..." against the runtime's "None") without any change in the API.
 */
function signatureShape(api: SurfaceApi): string | null {
  if (!api.signature) return null;
  return api.signature.parameters.map((p) => `${p.kind}:${p.name}${p.default === null ? '' : '='}`).join(',');
}

export function inputDigest(surfaces: Surface[]): string {
  const hash = createHash('sha256');
  for (const s of surfaces) hash.update(JSON.stringify(s));
  return hash.digest('hex');
}

export function buildMatrix(surfaces: Surface[], outFile: string, options: BuildOptions): void {
  const progress = options.onProgress ?? (() => {});
  if (surfaces.length === 0) throw new Error('no surfaces to build a matrix from');
  const library = surfaces[0]!.library;
  for (const s of surfaces) {
    if (s.library !== library) throw new Error(`surfaces mix libraries: ${library} and ${s.library}`);
  }
  const ordered = [...surfaces].sort((a, b) => compareVersions(a.version, b.version));
  for (let i = 1; i < ordered.length; i++) {
    if (compareVersions(ordered[i - 1]!.version, ordered[i]!.version) === 0) {
      throw new Error(`two surfaces for ${library} ${ordered[i]!.version}`);
    }
  }

  const tmp = `${outFile}.tmp-${process.pid}`;
  rmSync(tmp, { force: true });
  const db = new Database(tmp);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec(MATRIX_SCHEMA);
    db.pragma(`user_version = ${MATRIX_SCHEMA_VERSION}`);
    const insertMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    const meta: [string, string][] = [
      ['library', library],
      ['distribution', options.distribution ?? library],
      ['builder_version', BUILDER_VERSION],
      ['schema_version', String(MATRIX_SCHEMA_VERSION)],
      ['built_at', options.builtAt],
      ['input_sha256', inputDigest(ordered)],
    ];

    const byVersion = ordered.map((s) => new Map(s.apis.map((a) => [a.path, a] as const)));
    const unresolved = ordered.map(unresolvedModules);
    const allPaths = [...new Set(ordered.flatMap((s) => s.apis.map((a) => a.path)))].sort();

    db.transaction(() => {
      for (const [k, v] of meta) insertMeta.run(k, v);
      const insertVersion = db.prepare('INSERT INTO versions (id, version, ordinal, source, provenance, python, stats) VALUES (?, ?, ?, ?, ?, ?, ?)');
      ordered.forEach((s, i) => {
        const provenance = s.provenance ?? {};
        insertVersion.run(i + 1, s.version, i, provenance.source ?? 'unknown', JSON.stringify(sortKeys(provenance)), s.python ?? null, JSON.stringify(surfaceStats(s)));
      });
      const insertUnresolved = db.prepare('INSERT INTO unresolved_modules (version_id, module, error) VALUES (?, ?, ?)');
      unresolved.forEach((m, i) => [...m.keys()].sort().forEach((module) => insertUnresolved.run(i + 1, module, m.get(module)!)));

      const signatureIds = new Map<string, number>();
      const docIds = new Map<string, number>();
      const insertSignature = db.prepare('INSERT INTO signatures (id, parameters) VALUES (?, ?)');
      const insertDoc = db.prepare('INSERT INTO docs (id, text) VALUES (?, ?)');
      const internSignature = (text: string | null) => {
        if (text === null) return null;
        let id = signatureIds.get(text);
        if (id === undefined) insertSignature.run((id = signatureIds.size + 1), text), signatureIds.set(text, id);
        return id;
      };
      const internDoc = (text: string | null) => {
        if (!text) return null;
        let id = docIds.get(text);
        if (id === undefined) insertDoc.run((id = docIds.size + 1), text), docIds.set(text, id);
        return id;
      };
      const insertApi = db.prepare('INSERT INTO apis (id, path, kind, evolution) VALUES (?, ?, ?, ?)');
      const insertCell = db.prepare(
        'INSERT INTO cells (api_id, version_id, state, runtime, documented, kind, signature_id, signature_source, returns, doc_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      allPaths.forEach((path, index) => {
        const apiId = index + 1;
        const records = byVersion.map((m) => m.get(path));
        const newest = [...records].reverse().find((r) => r !== undefined)!;
        const signatures = records.map((r) => (r ? canonicalParameters(r) : null));
        const shapes = records.map((r) => (r ? signatureShape(r) : null)).filter((s): s is string => s !== null);
        const stable = records.every((r) => r !== undefined) && shapes.every((s) => s === shapes[0]);
        insertApi.run(apiId, path, newest.kind, stable ? 'stable' : 'evolving');
        records.forEach((record, v) => {
          const runtime = record ? true : underUnresolved(path, unresolved[v]!) ? null : false;
          insertCell.run(
            apiId, v + 1, decideState(runtime, null), runtime === null ? null : runtime ? 1 : 0, null,
            record?.kind ?? null, internSignature(signatures[v] ?? null), record?.signature?.source ?? null,
            record?.signature?.returns ?? null, internDoc(record?.doc ?? null),
          );
        });
        if ((index + 1) % 2000 === 0) progress(`${library}: ${index + 1}/${allPaths.length} APIs`);
      });
    })();
    db.exec('VACUUM');
    db.close();
    renameSync(tmp, outFile);
    progress(`${library}: ${allPaths.length} APIs across ${ordered.length} versions -> ${outFile}`);
  } catch (e) {
    if (db.open) db.close();
    rmSync(tmp, { force: true });
    throw e;
  }
}

function sortKeys(obj: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(obj).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
