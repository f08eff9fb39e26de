#!/usr/bin/env node
// One command per library: the surfaces a matrix is built from, then the matrix.
//
//   npm run matrices -- LIBRARY [--repo BARE_GIT_DIR] [--debian [SUITE…]] [--environments] [--skip-docs]
//                               [--skip-runtime] [--jobs N] [-- extra static-tags options]
//
// The library's file (libraries/LIBRARY.toml) says where everything comes from:
//   1. static surfaces of its release plan (scripts/static-tags.sh; every minor release, the patch releases whose
//      surface differs, the extra versions): [static] from = "pypi" reads the files each release published on the
//      package index (python-probe/anachron_probe/releases/index.py); from = "git" the tags of the repository at
//      --repo (default: the mirror of [static] repository). Releases whose surface exists with the same extractor
//      are skipped.
//   2. documented surfaces (python-probe/docs.py, [docs]) for each minor release and each runtime version, unless
//      they exist: from the sdist (docs.from = "sdist") or the docs repository's mirror at the release.
//   3. with runtime.venv: a runtime surface of every tracked release, probed in a venv made from its wheels
//      (python-probe/anachron_probe/releases/runtime.py), unless --skip-runtime.
//   4. with --debian: runtime surfaces probed in those Debian suites (default: runtime.debian-suites) with
//      runtime.debian-package and debian-extra-packages (scripts/probe-debian.sh); with --environments: in the
//      library's environments of the registry (scripts/probe-environments.mjs: the venvs `anachron env add` made).
//   5. the matrix and matrices/README.md (anachron build-matrices LIBRARY).
// Surfaces go to matrices/surfaces/LIBRARY when that folder is committed, else to the surface cache
// (ANACHRON_SURFACE_CACHE, default ~/.cache/anachron/surfaces; libraries/README.md "Where surfaces live").
// Every step prints one line per release or suite with its time, so a long build shows where it is. --jobs N (default
// 1) works on up to N releases at once in steps 1-3 (static reads in worker processes, documented surfaces and venv
// probes side by side); a release that fails is reported and the others go on, and a rerun does only what is missing
// (every step skips the surfaces that exist from the same extractor, docs reader or probe).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Bare mirrors as owner+name/repo (the layout `git clone --mirror` into such folders gives); no default: machines differ.
const MIRRORS = process.env.ANACHRON_MIRRORS;
const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';

function usage(message) {
  if (message) console.error(`matrices: ${message}`);
  console.error('usage: npm run matrices -- LIBRARY [--repo BARE_GIT_DIR] [--debian [SUITE…]] [--environments] [--skip-docs] [--skip-runtime] [--jobs N] [-- static-tags options]');
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
let suites = [];
let debian = false;
let skipDocs = false;
let skipRuntime = false;
let environments = false;
let jobs = 1;
for (let i = 1; i < own.length; i++) {
  const a = own[i];
  if (a === '--repo') repo = own[++i];
  else if (a === '--debian') {
    debian = true;
    while (own[i + 1] && !own[i + 1].startsWith('--')) suites.push(own[++i]);
  } else if (a === '--skip-docs') skipDocs = true;
  else if (a === '--skip-runtime') skipRuntime = true;
  else if (a === '--environments') environments = true;
  else if (a === '--jobs') {
    const n = own[++i];
    if (!/^[1-9][0-9]*$/.test(n ?? '')) usage(`--jobs takes a number of releases at once (1 or more), not '${n ?? ''}'`);
    jobs = Number(n);
  }
  else usage(`unknown option ${a}`);
}

// The library file, as the CLI reads and checks it.
const shown = spawnSync(process.execPath, [join(ROOT, 'bin', 'anachron.js'), 'libraries', library, '--json'], { encoding: 'utf8' });
if (shown.status !== 0) usage(shown.stderr.trim().replace(/^anachron: /, ''));
const definition = JSON.parse(shown.stdout)[0];
const mirrorOf = (repository) => {
  const m = /^github:([^/]+)\/(.+)$/.exec(repository ?? '');
  if (!m) return undefined;
  if (!MIRRORS) usage(`${library} is read from ${repository}: pass --repo DIR (a bare clone with the release tags) or set ANACHRON_MIRRORS to the folder holding owner+name/repo mirrors`);
  return join(MIRRORS, `${m[1]}+${m[2]}`, 'repo');
};
if (debian && suites.length === 0) suites = definition.runtime.debianSuites;
if (debian && suites.length === 0) usage(`libraries/${library}.toml names no runtime.debian-suites: name the suites after --debian`);
if (definition.static?.from === 'typeshed') usage(`${library}'s matrix is built by scripts/python-matrix.sh TYPESHED_GIT_DIR (typeshed's stubs at every minor with each minor's interpreter)`);
const fromIndex = definition.static?.from === 'pypi';
const fromGit = definition.static?.from === 'git';
repo = repo ? resolve(repo) : fromGit ? mirrorOf(definition.static.repository) : undefined;
if (!fromIndex && !repo && suites.length === 0 && !environments) usage(`no --repo for ${library}, no --debian suites and no --environments: nothing to build from`);
if (repo && !existsSync(repo)) usage(`no repository at ${repo} (a bare clone with the release tags)`);
const runtimeVenvs = definition.runtime.venv && !skipRuntime;

// Where the surfaces live: the committed folder if there is one, else the surface cache.
const committed = join(ROOT, 'matrices', 'surfaces');
const cache = process.env.ANACHRON_SURFACE_CACHE ?? join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'anachron', 'surfaces');
const SURFACES = resolve(process.env.ANACHRON_SURFACES_DIR ?? (existsSync(join(committed, library)) ? committed : cache));
const outDir = join(SURFACES, library);
mkdirSync(outDir, { recursive: true });

const started = Date.now();
const hasStatic = fromIndex || repo;
const steps = [hasStatic && 'static surfaces', environments && 'registered environments', hasStatic && !skipDocs && definition.docs && 'documented surfaces', runtimeVenvs && 'runtime venvs', suites.length > 0 && 'Debian runtimes', 'matrix'].filter(Boolean);
let stepNo = 0;
function step(name) {
  stepNo++;
  console.log(`[matrices] ${library}: step ${stepNo}/${steps.length}: ${name} (${((Date.now() - started) / 1000).toFixed(0)} s; surfaces in ${outDir})`);
}
function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...options });
  if (r.status !== 0) {
    console.error(`[matrices] ${cmd} ${args.join(' ')} failed (${r.status ?? r.signal})`);
    process.exit(1);
  }
}
// Steps whose releases partly failed: the others go on (their surfaces are kept), the matrix is not built from an
// incomplete set, and a rerun does what is missing.
const incomplete = [];
const env = { ...process.env, ANACHRON_SURFACES_DIR: SURFACES };
/** Runs work(item) for every item, at most `limit` at once (each resolves when its item is done). */
async function inPool(items, limit, work) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
const versionsWith = (kind) =>
  readdirSync(outDir)
    .map((f) => new RegExp(`^${library}-(?<v>[^-]+?)\\.${kind}\\.json\\.gz$`).exec(f)?.groups?.v)
    .filter((v) => v !== undefined);

if (hasStatic) {
  step('static surfaces');
  // The release plan is the library file's; without one, --minors/--tags after "--".
  if (!definition.releases && passThrough.length === 0) usage(`${library} has no release plan: pass e.g. -- --minors v1.0.0 v2.0.0 --patches`);
  const plan = definition.releases && passThrough.length === 0 ? ['--plan'] : [];
  const r = spawnSync('bash', [join(ROOT, 'scripts', 'static-tags.sh'), library, ...plan, '--jobs', String(jobs), ...passThrough, ...(repo ? ['--git-dir', repo] : [])], { stdio: 'inherit', cwd: ROOT, env });
  // exit 3: some releases failed (listed above), the others were read; anything else: the plan itself failed
  if (r.status === 3) incomplete.push('static surfaces');
  else if (r.status !== 0) {
    console.error(`[matrices] scripts/static-tags.sh ${library} failed (${r.status ?? r.signal})`);
    process.exit(1);
  }
}
// Before the documentation: it is read at each runtime version too.
if (environments) {
  step('registered environments');
  run(process.execPath, [join(ROOT, 'scripts', 'probe-environments.mjs'), library], { env });
}
if (hasStatic && !skipDocs && definition.docs) {
  step('documented surfaces');
  // Documentation is read at each minor release and at each runtime version (what the benchmark samples).
  const runtime = new Set([...versionsWith('runtime'), ...(runtimeVenvs ? versionsWith('static') : [])]);
  const wanted = [...new Set([...versionsWith('static'), ...versionsWith('runtime')])].filter((v) => /^\d+\.\d+(\.0)?$/.test(v) || runtime.has(v));
  const missing = wanted.filter((version) => !existsSync(join(outDir, `${library}-${version}.docs.json.gz`)));
  // docs.py finds the sdist or the tag from the library file (its tag pattern and tag-versions)
  const source = definition.docs.from === 'sdist' || fromIndex ? ['--release'] : ['--git-dir', definition.docs.repository ? mirrorOf(definition.docs.repository) : repo];
  const readDocs = (version) =>
    new Promise((done) => {
      const t0 = Date.now();
      const file = join(outDir, `${library}-${version}.docs.json.gz`);
      const child = spawn(PYTHON, [join(ROOT, 'python-probe', 'docs.py'), library, ...source, '--version', version, '--out', file], { stdio: 'inherit', cwd: ROOT, env });
      let settled = false;
      const finish = (ok) => {
        if (settled) return;
        settled = true;
        console.log(`[matrices] ${library} ${version}: ${ok ? 'documented surface' : 'no documented surface'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        done();
      };
      child.on('error', (e) => {
        console.error(`[matrices] ${library} ${version}: docs.py did not start: ${e.message}`);
        finish(false);
      });
      child.on('close', (code) => finish(code === 0));
    });
  await inPool(missing, jobs, readDocs);
}
if (runtimeVenvs) {
  step('runtime venvs');
  run(PYTHON, ['-m', 'anachron_probe.releases.runtime', library, '--out-dir', outDir, '--jobs', String(jobs)], { cwd: join(ROOT, 'python-probe'), env });
}
if (suites.length > 0) {
  step('Debian runtimes');
  const debianEnv = {
    ...(definition.runtime.debianPackage ? { ANACHRON_DEBIAN_PACKAGE: definition.runtime.debianPackage } : {}),
    ...(definition.runtime.debianExtraPackages.length > 0 ? { ANACHRON_DEBIAN_EXTRA_PACKAGES: definition.runtime.debianExtraPackages.join(' ') } : {}),
  };
  run('bash', [join(ROOT, 'scripts', 'probe-debian.sh'), library, ...suites], { env: { ...env, ...debianEnv } });
}
if (incomplete.length > 0) {
  console.error(`[matrices] ${library}: releases failed in ${incomplete.join(', ')} (listed above): the matrix is not built from an incomplete set; run the same command again to do what is missing (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  process.exit(1);
}
step('matrix');
run(process.execPath, [join(ROOT, 'bin', 'anachron.js'), 'build-matrices', library, '--surfaces', SURFACES]);
console.log(`[matrices] ${library}: done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
