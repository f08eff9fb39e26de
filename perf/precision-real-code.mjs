// Precision on real code that is correct for its version: the library's own benchmarks and tests at a release
// tag, checked with the library pinned to that tag's version. Every finding there is a false positive to fix or a
// true positive to explain. Prints findings per 1,000 resolved library references.
// Usage: node perf/precision-real-code.mjs REPO LIB TAG[=VERSION]... [--max-files N] [--show N]
//   e.g. node perf/precision-real-code.mjs /work/.mirror/numpy+numpy/repo numpy v1.24.2 v2.2.4
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const api = require(join(root, 'dist', 'perf-api.js'));

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const v = args[i + 1];
  args.splice(i, 2);
  return Number(v);
};
const maxFiles = flag('--max-files', 400);
const show = flag('--show', 15);
const [repo, library, ...tags] = args;
if (!repo || !library || tags.length === 0) {
  console.error('usage: node perf/precision-real-code.mjs REPO LIB TAG[=VERSION]... [--max-files N] [--show N]');
  process.exit(2);
}

const git = (...a) => execFileSync('git', ['--git-dir', repo, ...a], { encoding: 'utf8', maxBuffer: 1 << 28 });
const catalog = api.openMatrixCatalog(api.defaultMatricesFolder());
const matrix = catalog.forImportRoot(library);
if (!matrix) throw new Error(`no matrix for ${library}`);
const parser = await api.loadPythonParser();

let totalRefs = 0;
let totalFindings = 0;
for (const spec of tags) {
  const [tag, explicit] = spec.split('=');
  const version = explicit ?? tag.replace(/^v/, '');
  if (!matrix.versions.includes(version)) console.log(`note: ${library} ${version} is not a tracked version; findings there are inferred`);
  const files = git('ls-tree', '-r', '--name-only', tag)
    .split('\n')
    .filter((f) => f.endsWith('.py') && (f.startsWith('benchmarks/') || /\/tests\/test_[^/]+\.py$/.test(f)))
    .sort();
  const step = Math.max(1, Math.ceil(files.length / maxFiles));
  const sample = files.filter((_, i) => i % step === 0);
  const pin = api.parseCommandLinePin(`${library}==${version}`);
  const ctx = { catalog, pins: new Map([[pin.distribution, pin]]) };
  let refs = 0;
  const findings = [];
  const started = Date.now();
  for (const file of sample) {
    let text;
    try {
      text = git('show', `${tag}:${file}`);
    } catch {
      continue; // blobs of 4 MiB and more are missing from the mirrors
    }
    const tree = parser.parse(text);
    try {
      for (const ref of api.findApiReferences(tree)) {
        const path = ref.receiver ? null : ref.prefixes[ref.prefixes.length - 1]?.path;
        if (path && path.split('.')[0] === library && matrix.lookup(path)) refs++;
      }
      for (const f of api.analyzeTree(tree, ctx)) findings.push({ file, ...f });
    } finally {
      tree.delete();
    }
  }
  totalRefs += refs;
  totalFindings += findings.length;
  const byCode = {};
  for (const f of findings) byCode[f.code] = (byCode[f.code] ?? 0) + 1;
  console.log(`${library} ${tag} (pinned ${version}): ${sample.length} of ${files.length} files, ${refs} resolved references, ${findings.length} findings ` +
    `= ${((1000 * findings.length) / Math.max(refs, 1)).toFixed(2)} per 1,000 ${JSON.stringify(byCode)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const f of findings.slice(0, show)) console.log(`  ${f.file}:${f.range.start.line + 1}:${f.range.start.column + 1} ${f.code} ${f.api}${f.parameter ? ` ${f.parameter}` : ''}`);
}
console.log(`overall: ${totalFindings} findings over ${totalRefs} resolved references = ${((1000 * totalFindings) / Math.max(totalRefs, 1)).toFixed(2)} per 1,000`);
