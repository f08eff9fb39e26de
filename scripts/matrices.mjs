#!/usr/bin/env node
// One command per library: the surfaces a matrix is built from, then the matrix.
//
//   npm run matrices -- LIBRARY [--repo BARE_GIT_DIR] [--debian SUITE…] [--skip-docs] [-- extra static-tags options]
//
//   1. static surfaces of the library's release plan (scripts/static-tags.sh; every minor release, the patch releases
//      whose surface differs, the Debian versions), read from the repository at --repo (a bare clone with tags;
//      default: the mirror folder static-tags.sh uses). Tags whose surface exists with the same extractor are skipped.
//   2. documented surfaces (python-probe/docs.py) for each minor release and each runtime version, unless they exist.
//   3. with --debian: runtime surfaces probed in those Debian suites (scripts/probe-debian.sh).
//   4. the matrix and matrices/README.md (anachron build-matrices LIBRARY).
// Fetches nothing: the repository and the Debian mirror are what the machine already reaches. Every step prints one
// line per tag or suite, so a long build shows where it is.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MIRRORS = process.env.ANACHRON_MIRRORS ?? '/work/.mirror';
const DEFAULT_REPOS = { numpy: 'numpy+numpy/repo', scipy: 'scipy+scipy/repo', qiskit: 'Qiskit+qiskit/repo' };
const SURFACES = process.env.ANACHRON_SURFACES_DIR ?? join(ROOT, 'matrices', 'surfaces');

function usage(message) {
  if (message) console.error(`matrices: ${message}`);
  console.error('usage: npm run matrices -- LIBRARY [--repo BARE_GIT_DIR] [--debian SUITE…] [--skip-docs] [-- static-tags options]');
  process.exit(2);
}

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const own = dash < 0 ? argv : argv.slice(0, dash);
const passThrough = dash < 0 ? [] : argv.slice(dash + 1);
const library = own[0];
if (!library || library.startsWith('-')) usage('name a library');
if (!/^[A-Za-z0-9_]+$/.test(library)) usage(`invalid library name '${library}'`);
let repo;
const suites = [];
let skipDocs = false;
for (let i = 1; i < own.length; i++) {
  const a = own[i];
  if (a === '--repo') repo = own[++i];
  else if (a === '--debian') while (own[i + 1] && !own[i + 1].startsWith('--')) suites.push(own[++i]);
  else if (a === '--skip-docs') skipDocs = true;
  else usage(`unknown option ${a}`);
}
repo = repo ? resolve(repo) : DEFAULT_REPOS[library] ? join(MIRRORS, DEFAULT_REPOS[library]) : undefined;
if (!repo && suites.length === 0) usage(`no --repo for ${library} and no --debian suites: nothing to build from`);
if (repo && !existsSync(repo)) usage(`no repository at ${repo} (a bare clone with the release tags)`);

const started = Date.now();
const steps = [repo && 'static surfaces', repo && !skipDocs && 'documented surfaces', suites.length > 0 && 'Debian runtimes', 'matrix'].filter(Boolean);
let stepNo = 0;
function step(name) {
  stepNo++;
  console.log(`[matrices] ${library}: step ${stepNo}/${steps.length}: ${name} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}
function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...options });
  if (r.status !== 0) {
    console.error(`[matrices] ${cmd} ${args.join(' ')} failed (${r.status ?? r.signal})`);
    process.exit(1);
  }
}

const outDir = join(SURFACES, library);
mkdirSync(outDir, { recursive: true });
if (repo) {
  step('static surfaces');
  const known = DEFAULT_REPOS[library] !== undefined;
  // Known libraries come with their release plan in static-tags.sh; others need --minors/--tags after "--".
  if (!known && passThrough.length === 0) usage(`${library} has no release plan: pass e.g. -- --minors v1.0.0 v2.0.0 --patches`);
  run('bash', [join(ROOT, 'scripts', 'static-tags.sh'), library, ...passThrough, '--git-dir', repo], { env: { ...process.env, ANACHRON_SURFACES_DIR: SURFACES } });
}
if (repo && !skipDocs) {
  step('documented surfaces');
  const versions = readdirSync(outDir)
    .map((f) => /^.+-(?<v>[^-]+?)\.(static|runtime)\.json\.gz$/.exec(f)?.groups?.v)
    .filter((v) => v !== undefined);
  // Documentation is read at each minor release and at each runtime version (what the benchmark samples).
  const runtime = new Set(readdirSync(outDir).filter((f) => f.endsWith('.runtime.json.gz')).map((f) => f.replace(/^.+-([^-]+?)\.runtime\.json\.gz$/, '$1')));
  const wanted = [...new Set(versions)].filter((v) => /\.0$/.test(v) || runtime.has(v));
  for (const version of wanted) {
    const file = join(outDir, `${library}-${version}.docs.json.gz`);
    if (existsSync(file)) continue;
    const tag = library === 'qiskit' ? undefined : `v${version}`;
    if (!tag) {
      console.log(`[matrices] ${library} ${version}: documented surface missing; qiskit versions are metapackage numbers: run python-probe/docs.py with the terra tag`);
      continue;
    }
    const t0 = Date.now();
    run('python3', [join(ROOT, 'python-probe', 'docs.py'), library, '--git-dir', repo, '--tag', tag, '--version', version, '--out', file]);
    console.log(`[matrices] ${library} ${version}: documented surface in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
}
if (suites.length > 0) {
  step('Debian runtimes');
  run('bash', [join(ROOT, 'scripts', 'probe-debian.sh'), library, ...suites], { env: { ...process.env, ANACHRON_SURFACES_DIR: SURFACES } });
}
step('matrix');
run(process.execPath, [join(ROOT, 'bin', 'anachron.js'), 'build-matrices', library, '--surfaces', SURFACES]);
console.log(`[matrices] ${library}: done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
