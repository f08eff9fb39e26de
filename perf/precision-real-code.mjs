// Precision on real code that is correct for its version: the library's own benchmarks and tests at a release
// tag, checked with the library pinned to that tag's version. Every finding there is a false positive to fix or a
// true positive to explain. Prints findings per 1,000 resolved library references.
// Usage: node perf/precision-real-code.mjs REPO LIB TAG[=VERSION]... [--max-files N] [--show N]
//        node perf/precision-real-code.mjs --release LIB VERSION... [--max-files N] [--show N]
//   e.g. node perf/precision-real-code.mjs path/to/numpy-clone numpy v1.24.2 v2.2.4
//        node perf/precision-real-code.mjs --release pandas 1.5.3 2.0.3 2.2.3
// --release reads each version's sdist (the tests and examples it ships) from the release cache, downloading it
// through python-probe's index reader (ANACHRON_RELEASE_CACHE, ANACHRON_PACKAGE_INDEX).
// With LIB `python`, the standard library and the builtins are checked at the Python range the tag itself declares
// (requires-python in its pyproject.toml, else python_requires in setup.py or setup.cfg), per 1,000 resolved
// standard-library references; the project's own top-level modules shadow standard-library ones, as at run time.
// The deprecation tier (deprecated-api, deprecated-parameter) is counted apart: code correct for its version may
// still use what that version deprecates (a library's tests exercise its deprecated APIs on purpose), so those
// findings are not false positives; they are listed after the anachronism findings.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { takeOption } from './options.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const api = require(join(root, 'dist', 'perf-api.js'));

const args = process.argv.slice(2);
const maxFiles = Number(takeOption(args, '--max-files', 400));
const show = Number(takeOption(args, '--show', 15));
const fromRelease = args[0] === '--release';
const [repo, library, ...tags] = fromRelease ? [null, ...args.slice(1)] : args;
if ((!fromRelease && !repo) || !library || tags.length === 0) {
  console.error('usage: node perf/precision-real-code.mjs REPO LIB TAG[=VERSION]... | --release LIB VERSION... [--max-files N] [--show N]');
  process.exit(2);
}

const catalog = api.openMatrixCatalog(api.defaultMatricesFolder());
const matrix = catalog.forImportRoot(library);
if (!matrix) throw new Error(`no matrix for ${library}`);
const parser = await api.loadPythonParser();

// Code correct for its version: the library's benchmarks, examples and tests.
const isSample = (f) => f.endsWith('.py') && (/(^|\/)(benchmarks|asv_bench|examples)\//.test(f) || /(^|\/)tests?\/(.*\/)?test_[^/]+\.py$/.test(f));

/** The files of a tag (git) or a release's sdist (unpacked into a scratch folder), and a reader for them. */
function source(spec) {
  if (!fromRelease) {
    const git = (...a) => execFileSync('git', ['--git-dir', repo, ...a], { encoding: 'utf8', maxBuffer: 1 << 28 });
    return { files: git('ls-tree', '-r', '--name-only', spec).split('\n'), read: (f) => git('show', `${spec}:${f}`), done: () => {} };
  }
  const code = 'import sys; from anachron_probe.releases.index import ProjectIndex\nix = ProjectIndex(sys.argv[1]); f = ix.sdist(sys.argv[2])\nprint(ix.download(f) if f else "")';
  const file = execFileSync('python3', ['-c', code, matrix.distribution, spec], { cwd: join(root, 'python-probe'), encoding: 'utf8' }).trim();
  if (!file) throw new Error(`${matrix.distribution} ${spec} published no sdist`);
  const dir = mkdtempSync(join(tmpdir(), 'anachron-precision-'));
  execFileSync('python3', ['-c', 'import shutil, sys; shutil.unpack_archive(sys.argv[1], sys.argv[2])', file, dir]);
  const top = readdirSync(dir).length === 1 ? join(dir, readdirSync(dir)[0]) : dir;
  const files = [];
  const walk = (d) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(relative(top, p));
    }
  };
  walk(top);
  return { files, read: (f) => readFileSync(join(top, f), 'utf8'), done: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The Python range a tag declares, read with the manifest parsers anachron uses on a project. */
function pythonPinOf(src) {
  for (const file of ['pyproject.toml', 'setup.py', 'setup.cfg']) {
    let text;
    try {
      text = src.read(file);
    } catch {
      continue;
    }
    const pin = api.pythonPinOf(new Map(api.parseManifest(file, text, file).pins.map((p) => [p.distribution, p])));
    if (pin) return pin;
  }
  return null;
}

/** The names directly in folder `dir` of a file list ('' for the top): files and folders, `.py` dropped. */
function entriesOf(files, dir) {
  const prefix = dir === '' ? '' : `${dir}/`;
  const names = new Set();
  for (const f of files) if (f.startsWith(prefix)) names.add(f.slice(prefix.length).split('/')[0].replace(/\.py$/, ''));
  return names;
}

const DEPRECATION_TIER = new Set(['deprecated-api', 'deprecated-parameter']);
let totalRefs = 0;
let totalFindings = 0;
let totalDeprecations = 0;
for (const spec of tags) {
  const [tag, explicit] = spec.split('=');
  const version = explicit ?? tag.replace(/^v/, '');
  if (library !== 'python' && !matrix.versions.includes(version)) console.log(`note: ${library} ${version} is not a tracked version; findings there are inferred`);
  const src = source(tag);
  const files = src.files.filter(isSample).sort();
  const step = Math.max(1, Math.ceil(files.length / maxFiles));
  const sample = files.filter((_, i) => i % step === 0);
  const pin = library === 'python' ? pythonPinOf(src) : api.parseCommandLinePin(`${matrix.distribution}==${version}`);
  if (!pin) {
    console.log(`${library} ${tag}: the tag declares no Python range; skipped`);
    src.done();
    continue;
  }
  // Python's modules are shadowed by the project's own (a library's matrix never is: it is the project).
  const python = library === 'python';
  const ctx = { catalog, pins: new Map([[pin.distribution, pin]]), localModules: python ? entriesOf(src.files, '') : new Set() };
  const checked = library === 'python' ? `python${pin.specifier}: ${api.versionsUnderPin(pin, matrix).join(', ')}` : version;
  let refs = 0;
  const findings = [];
  const started = Date.now();
  const folderEntries = new Map();
  for (const file of sample) {
    // A script's own folder comes first on sys.path when it is not a package.
    const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
    if (python && !folderEntries.has(folder)) folderEntries.set(folder, entriesOf(src.files, folder));
    const entries = folderEntries.get(folder);
    const fileCtx = !entries || entries.has('__init__') ? ctx : { ...ctx, localModules: new Set([...ctx.localModules, ...entries]) };
    let text;
    try {
      text = src.read(file);
    } catch {
      continue; // blobs of 4 MiB and more are missing from the mirrors
    }
    const tree = parser.parse(text);
    try {
      for (const ref of api.findApiReferences(tree)) {
        const path = ref.receiver ? null : ref.prefixes[ref.prefixes.length - 1]?.path;
        const root = path?.split('.')[0];
        if (path && catalog.forImportRoot(root) === matrix && !fileCtx.localModules.has(root) && matrix.lookup(path)) refs++;
      }
      for (const f of api.analyzeTree(tree, fileCtx)) findings.push({ file, ...f });
    } finally {
      tree.delete();
    }
  }
  src.done();
  const deprecations = findings.filter((f) => DEPRECATION_TIER.has(f.code));
  const anachronisms = findings.filter((f) => !DEPRECATION_TIER.has(f.code));
  totalRefs += refs;
  totalFindings += anachronisms.length;
  totalDeprecations += deprecations.length;
  const byCode = {};
  for (const f of anachronisms) byCode[f.code] = (byCode[f.code] ?? 0) + 1;
  const deprecatedApis = {};
  for (const f of deprecations) {
    const what = `${f.code === 'deprecated-parameter' ? `${f.api}(${f.parameter}=)` : f.api}`;
    deprecatedApis[what] = (deprecatedApis[what] ?? 0) + 1;
  }
  console.log(`${library} ${tag} (pinned ${checked}): ${sample.length} of ${files.length} files, ${refs} resolved references, ${anachronisms.length} findings ` +
    `= ${((1000 * anachronisms.length) / Math.max(refs, 1)).toFixed(2)} per 1,000 ${JSON.stringify(byCode)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const f of anachronisms.slice(0, show)) console.log(`  ${f.file}:${f.range.start.line + 1}:${f.range.start.column + 1} ${f.code} ${f.api}${f.parameter ? ` ${f.parameter}` : ''}`);
  if (deprecations.length > 0) {
    const top = Object.entries(deprecatedApis).sort((a, b) => b[1] - a[1]).slice(0, show).map(([k, n]) => `${k} ${n}`).join(', ');
    console.log(`  deprecation tier, apart: ${deprecations.length} findings (${((1000 * deprecations.length) / Math.max(refs, 1)).toFixed(2)} per 1,000) on ${Object.keys(deprecatedApis).length} APIs/keywords: ${top}`);
  }
}
console.log(`overall: ${totalFindings} findings over ${totalRefs} resolved references = ${((1000 * totalFindings) / Math.max(totalRefs, 1)).toFixed(2)} per 1,000` +
  (totalDeprecations > 0 ? `; deprecation tier apart: ${totalDeprecations} = ${((1000 * totalDeprecations) / Math.max(totalRefs, 1)).toFixed(2)} per 1,000` : ''));
