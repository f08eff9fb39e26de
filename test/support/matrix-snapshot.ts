// A matrix snapshot: the part of a real matrix that a set of fixtures asks about, kept as a small JSON file, from
// which a test builds a synthetic matrix of its own. The fixtures about the checker's mechanics (aliases, contexts,
// guards, keywords, pins, shadowing…) run on such matrices, so rebuilding the real matrix changes only the fixtures
// about that library's real history. A snapshot keeps, for every path the checker looked up while checking the
// fixtures (and the paths above it), its cells at every tracked version; the modules that could not be looked into
// where they bear on those paths; the removal notes and the answers to documentation queries.
//
// Written by test/support/write-matrix-snapshots.ts; read by buildSnapshotMatrices.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiKind, CellState, LibraryMatrix, MatrixCatalog, Parameter, SignatureSource } from '../../server/src/core/api-model.js';
import { buildMatrix } from '../../server/src/store/matrix-builder.js';
import type { SqliteMatrix } from '../../server/src/store/sqlite-matrix.js';
import type { Surface, SurfaceApi } from '../../server/src/store/surface.js';
import type { VersionEvidence } from '../../server/src/store/version-evidence.js';

export const SNAPSHOT_SCHEMA = 'anachron-matrix-snapshot/1';

/** One run of equal cells: [first version index, last version index, state, kind, parameters, source, returns, doc, exported]. */
export type SnapshotSpan = [number, number, CellState, ApiKind | null, Parameter[] | null, SignatureSource | null, string | null, string | null, boolean | null];

export interface MatrixSnapshot {
  schema: typeof SNAPSHOT_SCHEMA;
  library: string;
  distribution: string;
  /** Where it was cut from: the real matrix's build date, builder and input digest. */
  provenance: Record<string, string>;
  versions: string[];
  /** Versions with a runtime surface in the real matrix (the others were read statically). */
  runtimeVersions: string[];
  sameSurface: Record<string, string>;
  /** Every path the checker asked about, whether the matrix has it or not. */
  asked: string[];
  apis: { path: string; spans: SnapshotSpan[] }[];
  /** Paths present at a runtime version that static extraction there did not see (unknown at static-only versions). */
  staticBlind: string[];
  /** Module -> indexes of the versions where it could not be looked into. */
  unresolved: Record<string, number[]>;
  removalNotes: Record<string, { note: string; version: string }>;
  /** Documentation texts the checker asked about (renamed APIs keep their doc): the paths with that doc are kept. */
  docs: string[];
}

/** What a check asked a library's matrix: every path and documentation text. */
export interface Asked {
  paths: Set<string>;
  docs: Set<string>;
}

/** A catalog that answers as `catalog` does and records what is asked of `library`'s matrix. */
export function recordingCatalog(catalog: MatrixCatalog, library: string): { catalog: MatrixCatalog; asked: Asked } {
  const asked: Asked = { paths: new Set(), docs: new Set() };
  const wrapped = new Map<LibraryMatrix, LibraryMatrix>();
  const wrap = (m: LibraryMatrix | undefined): LibraryMatrix | undefined => {
    if (!m || m.library !== library) return m;
    let w = wrapped.get(m);
    if (!w) {
      w = new Proxy(m, {
        get(target, key) {
          const value = Reflect.get(target, key, target) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            if (key === 'apisWithDoc') asked.docs.add(args[0] as string);
            else if (typeof args[0] === 'string') asked.paths.add(args[0]);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
      wrapped.set(m, w);
    }
    return w;
  };
  return {
    asked,
    catalog: {
      forImportRoot: (root) => wrap(catalog.forImportRoot(root)),
      libraries: () => catalog.libraries().map((m) => wrap(m)!),
      ...(catalog.userColumnSource ? { userColumnSource: catalog.userColumnSource.bind(catalog) } : {}),
    },
  };
}

function ancestors(path: string): string[] {
  const parts = path.split('.');
  return parts.map((_, i) => parts.slice(0, i + 1).join('.'));
}

/** The snapshot of `matrix` for what was asked; `unresolvedRows`: module -> versions where it could not be looked into. */
export function snapshotOf(matrix: SqliteMatrix, asked: Asked, unresolvedRows: ReadonlyMap<string, string[]>): MatrixSnapshot {
  const runtimeVersions = matrix.versionInfo.filter((v) => v.source !== 'static').map((v) => v.version);
  const runtimeIndex = new Set(runtimeVersions.map((v) => matrix.versions.indexOf(v)));
  const docPaths = [...asked.docs].flatMap((d) => matrix.apisWithDoc(d));
  const paths = [...new Set([...asked.paths, ...docPaths].flatMap(ancestors))].sort();
  const unresolved: Record<string, number[]> = {};
  for (const [module, versions] of unresolvedRows) {
    if (paths.some((p) => p === module || p.startsWith(`${module}.`))) unresolved[module] = versions.map((v) => matrix.versions.indexOf(v)).sort((a, b) => a - b);
  }
  const under = (path: string, v: number) => ancestors(path).some((m) => unresolved[m]?.includes(v));
  const apis: MatrixSnapshot['apis'] = [];
  const staticBlind: string[] = [];
  for (const path of paths) {
    const history = matrix.lookup(path);
    if (!history) continue;
    const spans: SnapshotSpan[] = [];
    history.versions.forEach((c, i) => {
      const row: SnapshotSpan = [i, i, c.state, c.kind, c.signature?.parameters ?? null, c.signatureSource, c.returns, c.doc, c.exported ?? null];
      const last = spans[spans.length - 1];
      if (last && last[1] === i - 1 && JSON.stringify(last.slice(2)) === JSON.stringify(row.slice(2))) last[1] = i;
      else spans.push(row);
    });
    apis.push({ path, spans: spans.filter((s) => s[2] !== 'absent') });
    // Unknown at a static version though nothing above it is unresolved there: static extraction is blind to it.
    if (history.versions.some((c, i) => c.state === 'unknown' && !runtimeIndex.has(i) && !under(path, i))) staticBlind.push(path);
  }
  const removalNotes: MatrixSnapshot['removalNotes'] = {};
  for (const path of paths) {
    const note = matrix.removalNote(path);
    if (note) removalNotes[path] = note;
  }
  return {
    schema: SNAPSHOT_SCHEMA,
    library: matrix.library,
    distribution: matrix.distribution,
    provenance: { matrix: `matrices/${matrix.library}.sqlite`, built: matrix.meta.built_at ?? '', builder: matrix.meta.builder_version ?? '', input_sha256: matrix.meta.input_sha256 ?? '' },
    versions: [...matrix.versions],
    runtimeVersions,
    sameSurface: Object.fromEntries(matrix.sameSurface),
    asked: [...asked.paths].sort(),
    apis,
    staticBlind,
    unresolved,
    removalNotes,
    docs: [...asked.docs].sort(),
  };
}

export function writeSnapshot(file: string, snapshot: MatrixSnapshot): void {
  writeFileSync(file, JSON.stringify(snapshot, null, 0).replace(/\],\{"path"/g, '],\n{"path"') + '\n');
}

export function readSnapshot(file: string): MatrixSnapshot {
  const s = JSON.parse(readFileSync(file, 'utf8')) as MatrixSnapshot;
  if (s.schema !== SNAPSHOT_SCHEMA) throw new Error(`${file}: not a matrix snapshot (${String(s.schema)})`);
  return s;
}

/** The evidence a snapshot stands for: per version a static surface, and a runtime one where the real matrix had it. */
export function evidenceOfSnapshot(s: MatrixSnapshot): VersionEvidence[] {
  const blind = new Set(s.staticBlind);
  const runtime = new Set(s.runtimeVersions);
  return s.versions.map((version, i) => {
    const present: SurfaceApi[] = [];
    for (const a of s.apis) {
      const span = a.spans.find((sp) => sp[0] <= i && i <= sp[1]);
      if (!span || span[2] !== 'present') continue;
      const [, , , kind, parameters, source, returns, doc, exported] = span;
      present.push({
        path: a.path,
        kind: kind ?? 'attribute',
        signature: parameters ? { parameters, source: source ?? 'inspect', returns } : null,
        doc,
        ...(exported === null ? {} : { exported }),
      });
    }
    const errors = Object.entries(s.unresolved).filter(([, vs]) => vs.includes(i)).map(([module]) => ({ module, error: 'unresolved in the real matrix' }));
    const notes = Object.fromEntries(Object.entries(s.removalNotes).filter(([, n]) => n.version === version).map(([p, n]) => [p, n.note]));
    const surface = (apis: SurfaceApi[], source: string): Surface => ({
      schema: 'anachron-surface/1',
      library: s.library,
      version,
      provenance: { source, snapshot: `${s.provenance.matrix} ${(s.provenance.input_sha256 ?? '').slice(0, 16)}` },
      modules: apis.filter((a) => a.kind === 'module').map((a) => ({ name: a.path, imported: true })),
      apis,
      errors,
      ...(Object.keys(notes).length > 0 ? { removal_notes: notes } : {}),
    });
    if (!runtime.has(version)) return { version, static: surface(present, 'static') };
    return { version, runtime: surface(present, 'runtime'), static: surface(present.filter((a) => !blind.has(a.path)), 'static') };
  });
}

/** Builds `<tmp>/<library>.sqlite` for each snapshot and returns the folder. */
export function buildSnapshotMatrices(...snapshots: MatrixSnapshot[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-snapshot-'));
  for (const s of snapshots) {
    buildMatrix(evidenceOfSnapshot(s), join(dir, `${s.library}.sqlite`), { builtAt: s.provenance.built || '2026-01-01', distribution: s.distribution, sameSurface: s.sameSurface });
  }
  return dir;
}
