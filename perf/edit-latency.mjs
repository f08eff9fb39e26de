// Edit -> diagnostics latency in a real LSP session on the numpy-heavy workload file at a few sizes (p50/p95), the
// server's cold start to first diagnostics, and its resident memory. Each edit inserts a line somewhere in the file,
// as typing a line and pressing Enter does. Two figures per size: as users get it (didChange -> publishDiagnostics,
// with whatever the server waited before checking), and the analysis alone (the same minus that wait, which the
// server reports per check with ANACHRON_LOG_TIMING=1). A second run per size keeps the file in a syntax error
// while editing (a call opened near the top and never closed: the worst case, where the server re-parses afresh and
// the rest of the file is one error).
// --python: the project pins Python too (requires-python >=3.9) and every block uses the standard library and
// builtins, so the per-edit cost of checking Python is in the figures.
// Each inserted line takes the indentation of the line it goes before, as an editor's Enter does (before 2026-12-07
// they went in at column 0, which put the file in a syntax error from the first edit on: those figures measured the
// whole-file re-parse); --column-0 inserts them so again.
// Usage: node perf/edit-latency.mjs [EDITS] [--lines 2000,10000] [--python] [--column-0]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile, startServer, workloadEdit, writeWorkloadProject } from './lsp-client.mjs';

const argv = process.argv.slice(2);
const linesAt = argv.indexOf('--lines');
const sizes = (linesAt >= 0 ? argv.splice(linesAt, 2)[1] : '2000,10000').split(',').map(Number);
const pythonAt = argv.indexOf('--python');
const python = pythonAt >= 0 && argv.splice(pythonAt, 1).length === 1;
const column0At = argv.indexOf('--column-0');
const column0 = column0At >= 0 && argv.splice(column0At, 1).length === 1;
const edits = Number(argv[0] ?? 100);
const ms = (v) => `${v.toFixed(v < 10 ? 1 : 0)} ms`;

async function run(size, broken) {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-perf-edit-'));
  const { file, lines } = writeWorkloadProject(dir, { size, broken, python });
  const server = await startServer(dir, { ANACHRON_LOG_TIMING: '1' });
  try {
    const text = readFileSync(file, 'utf8');
    const first = await server.open(file, text);
    const current = column0 ? undefined : text.split('\n');
    const asUsersGetIt = [];
    const analysisOnly = [];
    const inServer = [];
    for (let k = 0; k < edits; k++) {
      const total = await server.change(file, workloadEdit(k, lines.length + k, (python ? 2 : 0) + (broken ? 5 : 3), current));
      const timing = await server.timing(server.version);
      asUsersGetIt.push(total);
      analysisOnly.push(total - (timing?.waited ?? 0));
      if (timing) inServer.push(timing.checked);
    }
    return { first, asUsersGetIt, analysisOnly, inServer, rss: server.rssMb() };
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(', ')} (${edits} edits per run, ${column0 ? 'lines inserted at column 0' : 'lines inserted with the indentation of the next'}${python ? '; Python pinned, stdlib and builtins in every block' : ''})`);
for (const size of sizes) {
  for (const broken of [false, true]) {
    const r = await run(size, broken);
    // Every edit publishes every diagnostic again: the size of one publish is sent (and parsed) per keystroke.
    const bytes = Buffer.byteLength(JSON.stringify(r.first.diagnostics));
    console.log(`${size.toLocaleString('en')}-line file${broken ? ' with a syntax error' : ''}, ${r.first.diagnostics.length} diagnostics (${bytes.toLocaleString('en')} bytes of JSON a publish): cold start to first diagnostics ${ms(r.first.msSinceStart)}; server resident memory ${r.rss.toFixed(0)} MB`);
    console.log(`  edit -> diagnostics as users get it: p50 ${ms(percentile(r.asUsersGetIt, 50))}, p95 ${ms(percentile(r.asUsersGetIt, 95))}`);
    console.log(`  analysis only (minus the server's wait): p50 ${ms(percentile(r.analysisOnly, 50))}, p95 ${ms(percentile(r.analysisOnly, 95))}; inside the server: p50 ${ms(percentile(r.inServer, 50))}, p95 ${ms(percentile(r.inServer, 95))}`);
  }
}
console.log(`load average at end: ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
