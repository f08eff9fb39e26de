// `anachron build-matrices [--surfaces DIR] [--out DIR] [LIBRARY…]`: surfaces -> one SQLite matrix per library,
// then matrices/README.md regenerated from what was built.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildMatrix } from '../store/matrix-builder.js';
import { renderMatricesReadme } from '../store/matrices-readme.js';
import { SqliteMatrix } from '../store/sqlite-matrix.js';
import { readSurfaceFile } from '../store/surface.js';
import { defaultMatricesFolder } from '../store/matrices-folder.js';
import { UsageError } from './usage-error.js';

/** Reproducible build date: SOURCE_DATE_EPOCH when set, else today (UTC, day precision). */
function buildDate(): string {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  if (epoch && /^\d+$/.test(epoch)) return new Date(Number(epoch) * 1000).toISOString().slice(0, 10);
  return new Date().toISOString().slice(0, 10);
}

export function runBuildMatrices(argv: string[], out: (s: string) => void, err: (s: string) => void): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { surfaces: { type: 'string' }, out: { type: 'string' }, distribution: { type: 'string', multiple: true, default: [] } },
  });
  const outDir = resolve(values.out ?? defaultMatricesFolder());
  const surfacesDir = resolve(values.surfaces ?? join(outDir, 'surfaces'));
  if (!existsSync(surfacesDir)) throw new UsageError(`no surfaces folder at ${surfacesDir}`);
  const libraries = positionals.length > 0 ? positionals : readdirSync(surfacesDir).filter((n) => !n.startsWith('.')).sort();
  const distributions = new Map((values.distribution ?? []).map((d) => d.split('=') as [string, string]));
  for (const library of libraries) {
    const dir = join(surfacesDir, library);
    if (!existsSync(dir)) throw new UsageError(`no surfaces for ${library} in ${surfacesDir}`);
    const files = readdirSync(dir).filter((n) => n.endsWith('.json') || n.endsWith('.json.gz')).sort();
    if (files.length === 0) throw new UsageError(`no surface files in ${dir}`);
    const started = Date.now();
    const surfaces = files.map((f, i) => {
      err(`[${i + 1}/${files.length}] reading ${library}/${f}`);
      return readSurfaceFile(join(dir, f));
    });
    buildMatrix(surfaces, join(outDir, `${library}.sqlite`), {
      distribution: distributions.get(library) ?? library,
      builtAt: buildDate(),
      onProgress: (m) => err(m),
    });
    out(`built ${library}.sqlite from ${files.length} surfaces in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const matrices = readdirSync(outDir).filter((n) => n.endsWith('.sqlite')).sort().map((n) => new SqliteMatrix(join(outDir, n)));
  try {
    writeFileSync(join(outDir, 'README.md'), renderMatricesReadme(matrices));
  } finally {
    matrices.forEach((m) => m.close());
  }
  out(`wrote ${join(outDir, 'README.md')}`);
  return 0;
}
