// The two matrix stores side by side, in one run: better-sqlite3 (native) and the WebAssembly SQLite the editor uses
// where the native module does not load (ANACHRON_SQLITE forces each). Per store, medians over RUNS fresh servers
// (the stores alternate run by run, so machine load falls on both alike):
//   cold start -> first diagnostics of the 2,000-line workload file, edit -> diagnostics p50/p95 over EDITS edits,
//   the server's resident memory after them, and `anachron history` of 50 APIs (a fresh CLI process).
// Prints a table with the WebAssembly/native ratio of each figure; exits 1 when a ratio is above 2.
// Usage: node perf/sqlite-stores.mjs [RUNS] [EDITS]    (defaults 5 and 40; needs `npm run build`)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, percentile, root, startServer, workloadEdit, writeWorkloadProject } from './lsp-client.mjs';

const runs = Number(process.argv[2] ?? 5);
const edits = Number(process.argv[3] ?? 40);
const STORES = ['native', 'wasm'];

const dir = mkdtempSync(join(tmpdir(), 'anachron-perf-stores-'));
const { file, lines } = writeWorkloadProject(dir);
const text = readFileSync(file, 'utf8');

// 50 APIs of the numpy matrix, spread over it (the same every run): functions, classes, methods, modules.
const listed = spawnSync(process.execPath, ['-e', `
  const { openMatrixCatalog } = require(${JSON.stringify(join(root, 'dist', 'perf-api.js'))});
  const m = openMatrixCatalog(${JSON.stringify(join(root, 'matrices'))}).forImportRoot('numpy');
  const paths = m.apiPaths();
  process.stdout.write(JSON.stringify(Array.from({ length: 50 }, (_, i) => paths[Math.floor((i * paths.length) / 50)])));
`], { encoding: 'utf8' });
if (listed.status !== 0) throw new Error(listed.stderr);
const historyApis = JSON.parse(listed.stdout);

async function serverRun(store) {
  const server = await startServer(dir, { ANACHRON_SQLITE: store });
  try {
    if (server.info.store !== store) throw new Error(`asked for ${store}, the server reads with ${server.info.storeLabel}`);
    const first = await server.open(file, text);
    const times = [];
    for (let k = 0; k < edits; k++) times.push(await server.change(file, workloadEdit(k, lines.length)));
    return { label: server.info.storeLabel, findings: first.diagnostics.length, cold: first.msSinceStart, p50: percentile(times, 50), p95: percentile(times, 95), rss: server.rssMb() };
  } finally {
    server.close();
  }
}

function historyRun(store) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [join(root, 'bin', 'anachron.js'), 'history', ...historyApis, '--format', 'json'], { encoding: 'utf8', env: { ...process.env, ANACHRON_SQLITE: store }, maxBuffer: 64 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`history (${store}) failed: ${r.stderr}`);
  return { ms, answers: r.stdout.length };
}

const results = Object.fromEntries(STORES.map((s) => [s, { cold: [], p50: [], p95: [], rss: [], history: [], label: '', findings: new Set(), answers: new Set() }]));
for (let i = 0; i < runs; i++) {
  for (const store of i % 2 ? [...STORES].reverse() : STORES) {
    const r = await serverRun(store);
    const h = historyRun(store);
    const into = results[store];
    into.label = r.label;
    into.findings.add(r.findings);
    into.answers.add(h.answers);
    for (const k of ['cold', 'p50', 'p95', 'rss']) into[k].push(r[k]);
    into.history.push(h.ms);
    console.log(`run ${i + 1} ${store.padEnd(6)}: cold ${r.cold.toFixed(0)} ms, edit p50 ${r.p50.toFixed(0)} ms, p95 ${r.p95.toFixed(0)} ms, RSS ${r.rss.toFixed(0)} MB, history(50) ${h.ms.toFixed(0)} ms`);
  }
}
rmSync(dir, { recursive: true, force: true });

// Both stores must have given the same answers: the same findings on the workload file, the same history output.
for (const k of ['findings', 'answers']) {
  const all = new Set(STORES.flatMap((s) => [...results[s][k]]));
  if (all.size !== 1) throw new Error(`the stores disagree on ${k}: ${JSON.stringify(STORES.map((s) => [...results[s][k]]))}`);
}

const FIGURES = [
  ['cold start -> first diagnostics (2,000 lines)', 'cold', 'ms'],
  ['edit -> diagnostics p50', 'p50', 'ms'],
  ['edit -> diagnostics p95', 'p95', 'ms'],
  ['`history` of 50 APIs (CLI process)', 'history', 'ms'],
  ['server RSS after the edits', 'rss', 'MB'],
];
console.log(`\nmedians over ${runs} runs per store, ${edits} edits per run (the edit figures include the server's debounce)`);
console.log(`  native: ${results.native.label}; wasm: ${results.wasm.label}`);
console.log(`  ${'figure'.padEnd(46)} ${'native'.padStart(9)} ${'wasm'.padStart(9)}  ratio`);
let worst = 0;
for (const [name, key, unit] of FIGURES) {
  const n = median(results.native[key]);
  const w = median(results.wasm[key]);
  const ratio = w / n;
  worst = Math.max(worst, ratio);
  console.log(`  ${name.padEnd(46)} ${`${n.toFixed(0)} ${unit}`.padStart(9)} ${`${w.toFixed(0)} ${unit}`.padStart(9)}  ${ratio.toFixed(2)}x`);
}
console.log(worst <= 2 ? `every figure of the WebAssembly store within 2x of native (worst ${worst.toFixed(2)}x)` : `a figure of the WebAssembly store is ${worst.toFixed(2)}x native: more than 2x`);
process.exitCode = worst <= 2 ? 0 : 1;
