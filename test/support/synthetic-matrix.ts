// Small hand-written surfaces for tests that need exact control over a library's history.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiKind, Parameter } from '../../server/src/core/api-model.js';
import { buildMatrix } from '../../server/src/store/matrix-builder.js';
import type { Surface, SurfaceApi } from '../../server/src/store/surface.js';

/** `p('x')`, `p('axis', 'kw', 'None')`, `p('kwargs', 'vkw')`. */
export function p(name: string, kind: 'pos' | 'poskw' | 'kw' | 'varpos' | 'vkw' = 'poskw', def: string | null = null): Parameter {
  const kinds = { pos: 'positional_only', poskw: 'positional_or_keyword', kw: 'keyword_only', varpos: 'var_positional', vkw: 'var_keyword' } as const;
  return { name, kind: kinds[kind], default: def };
}

export function api(path: string, kind: ApiKind, parameters?: Parameter[], doc: string | null = null, returns: string | null = null): SurfaceApi {
  return { path, kind, signature: parameters ? { parameters, source: 'inspect', returns } : null, doc };
}

export function surface(library: string, version: string, apis: SurfaceApi[], extra: Partial<Surface> = {}): Surface {
  return {
    schema: 'anachron-surface/1',
    library,
    version,
    python: '3.11.2',
    provenance: { source: 'test' },
    modules: apis.filter((a) => a.kind === 'module').map((a) => ({ name: a.path, imported: true })),
    apis: [...apis].sort((a, b) => (a.path < b.path ? -1 : 1)),
    errors: [],
    ...extra,
  };
}

/** Builds `<tmp>/<library>.sqlite` from the surfaces and returns the folder. */
export function buildSyntheticMatrices(...libraries: Surface[][]): string {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-matrix-'));
  for (const surfaces of libraries) {
    buildMatrix(surfaces, join(dir, `${surfaces[0]!.library}.sqlite`), { builtAt: '2026-01-01' });
  }
  return dir;
}
