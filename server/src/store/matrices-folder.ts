import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The bundled matrices: ANACHRON_MATRICES, else `matrices/` beside the bundle (dist/) or the source tree. */
export function defaultMatricesFolder(): string {
  if (process.env.ANACHRON_MATRICES) return resolve(process.env.ANACHRON_MATRICES);
  const candidates = [join(__dirname, '..', 'matrices'), join(__dirname, '..', '..', 'matrices'), join(__dirname, '..', '..', '..', 'matrices')];
  return candidates.find((c) => existsSync(c)) ?? candidates[0]!;
}
