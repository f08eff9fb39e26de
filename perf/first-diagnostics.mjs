// Time from spawning the language server to the first publishDiagnostics for a file with one finding.
// Usage: node perf/first-diagnostics.mjs [RUNS]   (prints each run, then the median)
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const rpc = require('vscode-jsonrpc/node');
const runs = Number(process.argv[2] ?? 10);

const dir = mkdtempSync(join(tmpdir(), 'anachron-perf-'));
writeFileSync(join(dir, 'requirements.txt'), 'numpy==1.24.2\n');
const file = join(dir, 'a.py');
const text = 'import numpy as np\nnp.trapezoid([1, 2])\n';

async function once() {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [join(root, 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  const done = new Promise((resolve) => conn.onNotification('textDocument/publishDiagnostics', (p) => resolve(p)));
  conn.onRequest('client/registerCapability', () => null);
  conn.listen();
  await conn.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(dir).toString(), workspaceFolders: null, capabilities: {} });
  await conn.sendNotification('initialized', {});
  await conn.sendNotification('textDocument/didOpen', { textDocument: { uri: pathToFileURL(file).toString(), languageId: 'python', version: 1, text } });
  const params = await done;
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (params.diagnostics.length !== 1) throw new Error(`expected one diagnostic, got ${JSON.stringify(params.diagnostics)}`);
  conn.dispose();
  child.kill();
  return ms;
}

const times = [];
for (let i = 0; i < runs; i++) {
  const ms = await once();
  times.push(ms);
  console.log(`run ${i + 1}: ${ms.toFixed(0)} ms`);
}
times.sort((a, b) => a - b);
console.log(`server start -> first diagnostics: median ${times[Math.floor(times.length / 2)].toFixed(0)} ms, min ${times[0].toFixed(0)} ms, max ${times[times.length - 1].toFixed(0)} ms over ${runs} runs`);
