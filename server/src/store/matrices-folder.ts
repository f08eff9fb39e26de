import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The bundled matrices: ANACHRON_MATRICES, else `matrices/` beside the bundle (dist/) or the source tree. */
export function defaultMatricesFolder(): string {
  if (process.env.ANACHRON_MATRICES) return resolve(process.env.ANACHRON_MATRICES);
  const candidates = [join(__dirname, '..', 'matrices'), join(__dirname, '..', '..', 'matrices'), join(__dirname, '..', '..', '..', 'matrices')];
  return candidates.find((c) => existsSync(c)) ?? candidates[0]!;
}

/** Surfaces that are not committed (libraries read from their published files: each rebuilds from the files the
 *  matrix's provenance names): ANACHRON_SURFACE_CACHE, else ~/.cache/anachron/surfaces. */
export function defaultSurfaceCache(): string {
  if (process.env.ANACHRON_SURFACE_CACHE) return resolve(process.env.ANACHRON_SURFACE_CACHE);
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'anachron', 'surfaces');
}
