// Recall at untracked patch releases: for every patch release the matrix does not track but whose two tracked
// neighbours belong to the same minor series (numpy 1.22.1 between 1.22.0 and 1.22.2), the facts both neighbours agree
// on — a keyword neither takes though another tracked version does, an API neither has though another has — are
// facts of the untracked release too. Each is written as one call, checked at both neighbours (where the checker must
// report it: the checked facts) and at the untracked release; recall is the share of checked facts reported there.
// Usage: node perf/recall-untracked-patch.mjs LIB... [--show N]
//   e.g. node perf/recall-untracked-patch.mjs numpy scipy
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const api = require(join(root, 'dist', 'perf-api.js'));

const args = process.argv.slice(2);
let show = 5;
const showAt = args.indexOf('--show');
if (showAt >= 0) show = Number(args.splice(showAt, 2)[1]);
if (args.length === 0) {
  console.error('usage: node perf/recall-untracked-patch.mjs LIB... [--show N]');
  process.exit(2);
}

const catalog = api.openMatrixCatalog(api.defaultMatricesFolder());
const parser = await api.loadPythonParser();
const parse = (v) => v.split('.').map(Number);

/** Untracked patch releases between two tracked releases of one minor series: [untracked, below, above]. */
function untrackedPatches(versions) {
  const out = [];
  for (let i = 0; i + 1 < versions.length; i++) {
    const [a, b] = [parse(versions[i]), parse(versions[i + 1])];
    if (a.length !== 3 || b.length !== 3 || a[0] !== b[0] || a[1] !== b[1]) continue;
    for (let p = a[2] + 1; p < b[2]; p++) out.push([`${a[0]}.${a[1]}.${p}`, versions[i], versions[i + 1]]);
  }
  return out;
}

const takes = (sig, name) => sig.parameters.some((p) => p.name === name && (p.kind === 'positional_or_keyword' || p.kind === 'keyword_only'));
const takesAny = (sig) => sig.parameters.some((p) => p.kind === 'var_keyword');

function findingsAt(matrix, version, text) {
  const pin = api.parseCommandLinePin(`${matrix.distribution}==${version}`);
  const ctx = { catalog, pins: new Map([[pin.distribution, pin]]), localModules: new Set() };
  const keys = new Set();
  for (const f of api.analyzeTree(parser.parse(text), ctx)) keys.add(`${f.range.start.line}|${f.code}`);
  return keys;
}

let exitCode = 0;
for (const library of args) {
  const matrix = catalog.forImportRoot(library);
  if (!matrix?.apiPaths) {
    console.error(`${library}: no matrix`);
    exitCode = 2;
    continue;
  }
  const versions = matrix.versions;
  const pins = untrackedPatches(versions);
  const paths = matrix.apiPaths().filter((p) => !p.split('.').some((s) => s.startsWith('_')));
  const totals = { keyword: [0, 0], api: [0, 0] };
  const missed = [];
  for (const [pinned, below, above] of pins) {
    const [bi, ai] = [versions.indexOf(below), versions.indexOf(above)];
    const lines = [`import ${library}`];
    const facts = [];
    for (const path of paths) {
      const history = matrix.lookup(path);
      if (!history) continue;
      const [b, a] = [history.versions[bi], history.versions[ai]];
      if (b.state === 'absent' && a.state === 'absent' && history.versions.some((c) => c.state === 'present')) {
        facts.push({ kind: 'api', line: lines.length, code: 'anachronistic-api', what: path });
        lines.push(`x = ${path}`);
        continue;
      }
      if (b.state !== 'present' || a.state !== 'present' || !b.signature || !a.signature || takesAny(b.signature) || takesAny(a.signature)) continue;
      if (history.kind !== 'function' && history.kind !== 'class' && history.kind !== 'method') continue;
      const elsewhere = new Set();
      for (const c of history.versions) if (c.state === 'present' && c.signature) for (const p of c.signature.parameters) if (takes(c.signature, p.name) && !p.name.startsWith('_')) elsewhere.add(p.name);
      for (const keyword of elsewhere) {
        if (takes(b.signature, keyword) || takes(a.signature, keyword)) continue;
        facts.push({ kind: 'keyword', line: lines.length, code: 'anachronistic-parameter', what: `${path}(${keyword}=)` });
        lines.push(`x = ${path}(${keyword}=0)`);
      }
    }
    if (facts.length === 0) continue;
    const text = lines.join('\n') + '\n';
    const [atBelow, atAbove, atPin] = [findingsAt(matrix, below, text), findingsAt(matrix, above, text), findingsAt(matrix, pinned, text)];
    let checked = 0;
    let found = 0;
    for (const f of facts) {
      const key = `${f.line}|${f.code}`;
      if (!atBelow.has(key) || !atAbove.has(key)) continue; // not a fact the checker reports at the tracked versions
      checked++;
      totals[f.kind][0]++;
      if (atPin.has(key)) {
        found++;
        totals[f.kind][1]++;
      } else if (missed.length < show) missed.push(`${pinned}: ${f.what}`);
    }
    console.log(`${library} ${pinned} (between ${below} and ${above}): ${found} of ${checked} checked facts reported`);
  }
  const rate = ([n, k]) => (n === 0 ? 'none' : `${k} of ${n} (${((100 * k) / n).toFixed(1)}%)`);
  console.log(`${library}: ${pins.length} untracked patch releases; keywords ${rate(totals.keyword)}, APIs ${rate(totals.api)}`);
  for (const m of missed) console.log(`  missed ${m}`);
}
process.exitCode = exitCode;
