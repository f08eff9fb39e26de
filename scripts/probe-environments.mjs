#!/usr/bin/env node
// Probe the runtime API surface of a library in the environments the registry holds for it (the virtual environments
// `anachron env add LIB==VERSION --venv DIR --create` made, or interpreters registered by hand; Debian roots have
// scripts/probe-debian.sh).
//
//   node scripts/probe-environments.mjs LIBRARY [VERSION…]      e.g.  node scripts/probe-environments.mjs qiskit
//
// For each environment (every registered version, or those named): runs python-probe/probe.py in its interpreter with
// the registered version as the release version (qiskit 0.43.3's module says 0.24.2, its terra) and provenance
// (source=venv-runtime or interpreter-runtime, python, the interpreter it was made from, the dependency cut-off), and
// writes matrices/surfaces/LIBRARY/LIBRARY-VERSION.runtime.json.gz (gzip -n: byte-reproducible). One summary line per
// environment. Environment: ANACHRON_ENVIRONMENTS (the registry), ANACHRON_SURFACES_DIR (the output folder).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SURFACES = process.env.ANACHRON_SURFACES_DIR ?? join(ROOT, 'matrices', 'surfaces');

const [library, ...wanted] = process.argv.slice(2);
if (!library || library.startsWith('-') || !/^[A-Za-z0-9_]+$/.test(library)) {
  console.error('usage: node scripts/probe-environments.mjs LIBRARY [VERSION…]');
  process.exit(2);
}
const listed = spawnSync(process.execPath, [join(ROOT, 'bin', 'anachron.js'), 'env', 'list', library, '--json'], { encoding: 'utf8' });
if (listed.status !== 0) {
  console.error(listed.stderr.trim());
  process.exit(2);
}
const environments = JSON.parse(listed.stdout).filter((e) => e.provider !== 'debian' && (wanted.length === 0 || wanted.includes(e.version)));
if (environments.length === 0) {
  console.error(`[probe-environments] no ${library} environment${wanted.length ? ` ${wanted.join(', ')}` : ''} is registered (anachron env add ${library}==VERSION --venv DIR --create)`);
  process.exit(1);
}
const outDir = join(SURFACES, library);
mkdirSync(outDir, { recursive: true });
let status = 0;
for (const e of environments) {
  const started = Date.now();
  const scratch = mkdtempSync(join(tmpdir(), 'anachron-probe-env-'));
  const out = join(scratch, 'surface.json');
  const provenance = {
    source: `${e.provider}-runtime`,
    python: e.pythonVersion ?? '',
    ...(e.created ? { base_python: e.created.basePythonVersion ?? e.created.basePython } : {}),
    ...(e.created?.dependenciesBefore ? { dependencies_before: e.created.dependenciesBefore } : {}),
  };
  const [exe, ...prefix] = e.python.argv;
  const r = spawnSync(exe, [...prefix, join(ROOT, 'python-probe', 'probe.py'), library, '--out', out, '--release-version', e.version,
    ...Object.entries(provenance).filter(([, v]) => v).flatMap(([k, v]) => ['--provenance', `${k}=${v}`])], {
    encoding: 'utf8', cwd: scratch, env: { ...process.env, ...(e.python.env ?? {}), PYTHONDONTWRITEBYTECODE: '1' }, maxBuffer: 64 << 20,
  });
  try {
    const text = readFileSync(out, 'utf8');
    const surface = JSON.parse(text);
    const dest = join(outDir, `${library}-${surface.version}.runtime.json.gz`);
    writeFileSync(`${dest}.tmp`, gzipSync(text, { level: 9 }));
    renameSync(`${dest}.tmp`, dest);
    const s = surface.stats;
    console.log(`${library} ${surface.version} (${e.provider}, python ${e.pythonVersion ?? '?'}): apis=${s.apis} callables=${s.callables} modules=${s.modules_imported}/${s.modules} errors=${surface.errors.length} in ${((Date.now() - started) / 1000).toFixed(1)} s -> ${relative(ROOT, dest)}`);
  } catch (err) {
    console.log(`${library} ${e.version}: probe failed (exit ${r.status}): ${(r.stderr || String(err)).trim().split('\n').slice(-3).join(' | ')}`);
    status = 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
process.exit(status);
