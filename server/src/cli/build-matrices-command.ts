// `anachron build-matrices [LIBRARY…] [--surfaces DIR] [--out DIR] [--distribution LIB=DIST]…`: the surfaces of
// each library -> LIBRARY.sqlite (its distribution from libraries/LIBRARY.toml), the static-vs-runtime disagreement lists, and matrices/README.md.
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildMatrix } from '../store/matrix-builder.js';
import { IMPORT_ROOTS_FILE } from '../store/catalog.js';
import { renderMatricesReadme } from '../store/matrices-readme.js';
import { SqliteMatrix } from '../store/sqlite-matrix.js';
import { formatAgreement } from '../store/surface-agreement.js';
import { readEvidenceFolder } from '../store/version-evidence.js';
import { defaultMatricesFolder, defaultSurfaceCache } from '../store/matrices-folder.js';
import { bundledLibraryDefinitions } from '../libraries/definitions.js';
import { InputError } from '../core/errors.js';

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
  // --surfaces: one folder for every library; else each library's committed folder (matrices/surfaces/LIB) or,
  // for libraries whose surfaces are not committed, the surface cache (libraries/README.md "Where surfaces live")
  const folders = values.surfaces ? [resolve(values.surfaces)] : [join(outDir, 'surfaces'), defaultSurfaceCache()];
  if (values.surfaces && !existsSync(folders[0]!)) throw new InputError(`no surfaces folder at ${folders[0]}`);
  const listed = (f: string) => (existsSync(f) ? readdirSync(f).filter((n) => !n.startsWith('.') && statSync(join(f, n)).isDirectory()) : []);
  const libraries = positionals.length > 0 ? positionals : [...new Set(folders.flatMap(listed))].sort();
  const distributions = new Map((values.distribution ?? []).map((d) => d.split('=') as [string, string]));
  for (const library of libraries) {
    const dir = folders.map((f) => join(f, library)).find((d) => existsSync(d));
    if (!dir) throw new InputError(`no surfaces for ${library} in ${folders.join(' or ')}`);
    const started = Date.now();
    const evidence = readEvidenceFolder(dir, (name, i, n) => err(`[${library} ${i + 1}/${n}] reading ${name}`));
    if (evidence.length === 0) throw new InputError(`no runtime or static surfaces in ${dir}`);
    // the patch releases the release planner left out because their surface is a kept one's
    const sameFile = join(dir, `${library}.same-surface.json`);
    let sameSurface: Record<string, string> | undefined;
    try {
      sameSurface = existsSync(sameFile) ? (JSON.parse(readFileSync(sameFile, 'utf8')) as Record<string, string>) : undefined;
    } catch (e) {
      throw new InputError(`${sameFile}: not a release -> release JSON object (${(e as Error).message}); rerun the static step to write it again`);
    }
    const result = buildMatrix(evidence, join(outDir, `${library}.sqlite`), {
      distribution: distributions.get(library) ?? bundledLibraryDefinitions().distributionOf(library),
      builtAt: buildDate(),
      sameSurface,
      onProgress: (m) => err(m),
    });
    if (result.agreements.size > 0) {
      const agreementDir = join(outDir, 'agreement');
      mkdirSync(agreementDir, { recursive: true });
      for (const [version, report] of result.agreements) {
        const text = [
          `# ${library} ${version}: static extraction against the runtime`,
          formatAgreement(report),
          '',
          `## Only in the runtime (${report.onlyInReference.length})`,
          ...report.onlyInReference,
          '',
          `## Only in static extraction (${report.onlyInCandidate.length})`,
          ...report.onlyInCandidate,
          '',
          `## Parameter names differ (${report.parameterMismatches.length})`,
          ...report.parameterMismatches.map((m) => `${m.api}: runtime (${m.reference.join(', ')}) static (${m.candidate.join(', ')})`),
          '',
          ...(report.keywordMismatches
            ? [`## Keywords differ (${report.keywordMismatches.length})`, ...report.keywordMismatches.map((m) => `${m.api}: runtime (${m.reference.join(', ')}) static (${m.candidate.join(', ')})`), '']
            : []),
        ].join('\n');
        writeFileSync(join(agreementDir, `${library}-${version}.md`), text);
      }
    }
    out(`built ${library}.sqlite: ${result.versions.length} versions, ${result.apis} APIs, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const files = readdirSync(outDir).filter((n) => n.endsWith('.sqlite')).sort();
  const matrices = files.map((n) => new SqliteMatrix(join(outDir, n)));
  try {
    writeFileSync(join(outDir, 'README.md'), renderMatricesReadme(matrices.map((m, i) => ({ matrix: m, sizeBytes: statSync(join(outDir, files[i]!)).size }))));
    // The modules a matrix answers for besides its own name (Python's standard library), for the catalog to find
    // the matrix of `import os` without opening every matrix.
    const roots = Object.fromEntries(matrices.filter((m) => m.importRoots).map((m) => [m.library, m.importRoots!]));
    writeFileSync(join(outDir, IMPORT_ROOTS_FILE), JSON.stringify(roots, null, 1) + '\n');
  } finally {
    matrices.forEach((m) => m.close());
  }
  out(`wrote ${join(outDir, 'README.md')}`);
  return 0;
}
