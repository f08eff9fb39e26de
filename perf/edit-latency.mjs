// Edit -> diagnostics latency on a 2,000-line numpy-heavy file in a real LSP session (p50/p95), server cold start,
// and the server's resident memory. Usage: node perf/edit-latency.mjs [EDITS]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const rpc = require('vscode-jsonrpc/node');
const edits = Number(process.argv[2] ?? 100);

const dir = mkdtempSync(join(tmpdir(), 'anachron-perf-edit-'));
writeFileSync(join(dir, 'requirements.txt'), 'numpy==1.24.2\n');
const block = [
  'def f{i}(values, weights=None):',
  '    arr = np.asarray(values, dtype=np.float64)',
  '    rng = np.random.default_rng({i})',
  '    noise = rng.normal(size=arr.shape)',
  '    total = np.trapezoid(arr + noise, dx=0.5)',
  '    uniq = np.unique(arr, return_counts=True, equal_nan=True)',
  '    norm = la.norm(arr, ord=2)',
  '    return np.concatenate([arr, [total, norm]], axis=0), uniq',
  '',
];
const lines = ['import numpy as np', 'from numpy import linalg as la', ''];
for (let i = 0; lines.length < 2000; i++) lines.push(...block.map((l) => l.replaceAll('{i}', String(i))));
const text = lines.join('\n');
const file = join(dir, 'big.py');
writeFileSync(file, text);
const uri = pathToFileURL(file).toString();

const started = process.hrtime.bigint();
const child = spawn(process.execPath, [join(root, 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
let waiter = null;
conn.onNotification('textDocument/publishDiagnostics', (p) => { if (p.uri === uri && waiter) { const w = waiter; waiter = null; w(p); } });
conn.onRequest('client/registerCapability', () => null);
conn.listen();
const next = () => new Promise((resolve) => { waiter = resolve; });
await conn.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(dir).toString(), workspaceFolders: null, capabilities: {} });
await conn.sendNotification('initialized', {});
let first = next();
await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text } });
const firstDiagnostics = await first;
const coldMs = Number(process.hrtime.bigint() - started) / 1e6;

const times = [];
let version = 1;
for (let k = 0; k < edits; k++) {
  const line = 3 + ((k * 97) % (lines.length - 4));
  const t = process.hrtime.bigint();
  const wait = next();
  await conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: k % 2 ? '# edit\n' : 'x = np.zeros(3)\n' }] });
  await wait;
  times.push(Number(process.hrtime.bigint() - t) / 1e6);
}
const rss = Number(readFileSync(`/proc/${child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024;
times.sort((a, b) => a - b);
const pct = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(0);
console.log(`2,000-line file, ${firstDiagnostics.diagnostics.length} diagnostics: cold start to first diagnostics ${coldMs.toFixed(0)} ms`);
console.log(`edit -> diagnostics over ${edits} edits: p50 ${pct(50)} ms, p95 ${pct(95)} ms (includes the server's 150 ms debounce)`);
console.log(`server resident memory: ${rss.toFixed(0)} MB`);
conn.dispose();
child.kill();
