// Edit -> diagnostics latency on a 2,000-line numpy-heavy file in a real LSP session (p50/p95), server cold start,
// and the server's resident memory. Usage: node perf/edit-latency.mjs [EDITS]
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchEdit, percentile, startServer, writeBenchProject } from './lsp-client.mjs';

const edits = Number(process.argv[2] ?? 100);
const dir = mkdtempSync(join(tmpdir(), 'anachron-perf-edit-'));
const { file, lines } = writeBenchProject(dir);

const server = await startServer(dir);
const first = await server.open(file, readFileSync(file, 'utf8'));
const times = [];
for (let k = 0; k < edits; k++) times.push(await server.change(file, benchEdit(k, lines.length)));
const rss = server.rssMb();
server.close();
console.log(`2,000-line file, ${first.diagnostics.length} diagnostics: cold start to first diagnostics ${first.msSinceStart.toFixed(0)} ms (matrices read with ${server.info.storeLabel})`);
console.log(`edit -> diagnostics over ${edits} edits: p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms (includes the server's 150 ms debounce)`);
console.log(`server resident memory: ${rss.toFixed(0)} MB`);
