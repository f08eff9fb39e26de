// What is known about one version of a library: surfaces from the runtime probe and the static extractor, and the
// documented surface. The runtime (when present) is the resolution evidence; static extraction stands in otherwise.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { compareVersions } from '../core/versions.js';
import { readDeprecationsSurfaceFile, type DeprecationsSurface } from './deprecations-surface.js';
import { readDocsSurfaceFile, type DocsSurface } from './docs-surface.js';
import { readSurfaceFile, type Surface } from './surface.js';
import { InputError } from '../core/errors.js';

export interface VersionEvidence {
  version: string;
  runtime?: Surface;
  static?: Surface;
  docs?: DocsSurface;
  /** What the release deprecates (python-probe/deprecations.py), where it was read. */
  deprecations?: DeprecationsSurface;
}

/** The surface that decides "does this resolve" for a version. */
export function resolutionSurface(e: VersionEvidence): Surface | undefined {
  return e.runtime ?? e.static;
}

/** Treats plain surfaces as runtime evidence (tests and single-source builds). */
export function evidenceFromSurfaces(surfaces: Surface[]): VersionEvidence[] {
  return surfaces.map((s) => ({ version: s.version, runtime: s }));
}

const FILE = /^(?<lib>.+)-(?<version>[^-]+?)\.(?<kind>runtime|static|docs|deprecations)\.json(\.gz)?$/;

/**
 * Reads every surface in `dir` (LIB-VERSION.runtime|static|docs|deprecations.json[.gz]) and groups them by version, ascending.
 * Versions with only a docs (or deprecations) surface are dropped: documentation alone does not make a column.
 */
export function readEvidenceFolder(dir: string, onFile: (name: string, index: number, total: number) => void = () => {}): VersionEvidence[] {
  const names = readdirSync(dir).filter((n) => FILE.test(n)).sort();
  const byVersion = new Map<string, VersionEvidence>();
  names.forEach((name, i) => {
    onFile(name, i, names.length);
    const m = FILE.exec(name)!.groups!;
    const file = join(dir, name);
    const kind = m.kind as 'runtime' | 'static' | 'docs' | 'deprecations';
    const loaded = kind === 'docs' ? readDocsSurfaceFile(file) : kind === 'deprecations' ? readDeprecationsSurfaceFile(file) : readSurfaceFile(file);
    const version = loaded.version;
    const entry = byVersion.get(version) ?? { version };
    if (entry[kind]) throw new InputError(`${file}: a second ${kind} surface for version ${version}`);
    (entry as unknown as Record<string, unknown>)[kind] = loaded;
    byVersion.set(version, entry);
  });
  return [...byVersion.values()].filter((e) => resolutionSurface(e)).sort((a, b) => compareVersions(a.version, b.version));
}
