// What the perf scripts share: the 2,000-line numpy-heavy workload file, and a language server session over stdio
// with dist/server.js (spawned as an editor would) that times diagnostics.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const rpc = require('vscode-jsonrpc/node');

/**
 * Writes requirements.txt (numpy==1.24.2) and big.py, `size` lines of numpy calls (2,000 unless given), into `dir`;
 * with `broken`, the line after the imports opens a call it never closes, so the file holds a syntax error; with
 * `python`, a pyproject.toml pins Python and every block uses the standard library. Returns big.py's path and lines.
 */
export function writeWorkloadProject(dir, { size = 2000, broken = false, python = false } = {}) {
  writeFileSync(join(dir, 'requirements.txt'), 'numpy==1.24.2\n');
  // python: the project pins Python too, and every block uses the standard library and builtins.
  if (python) writeFileSync(join(dir, 'pyproject.toml'), '[project]\nname = "perf"\nrequires-python = ">=3.9"\n');
  const block = [
    'def f{i}(values, weights=None):',
    '    arr = np.asarray(values, dtype=np.float64)',
    '    rng = np.random.default_rng({i})',
    '    noise = rng.normal(size=arr.shape)',
    '    total = np.trapezoid(arr + noise, dx=0.5)',
    '    uniq = np.unique(arr, return_counts=True, equal_nan=True)',
    '    norm = la.norm(arr, ord=2)',
    ...(python
      ? [
          '    parts = [str(x).removeprefix("0") for x in zip(values, range(len(values)), strict=True)]',
          '    when = datetime.now(timezone.utc).isoformat()',
          '    path = os.path.join(tempfile.gettempdir(), f"{when}.json")',
          '    print(json.dumps({"parts": parts}, indent=2), file=sys.stderr, flush=True)',
          '    batches = list(itertools.batched(parts, 3))',
        ]
      : []),
    '    return np.concatenate([arr, [total, norm]], axis=0), uniq',
    '',
  ];
  const lines = ['import numpy as np', 'from numpy import linalg as la', ...(python ? ['import itertools, json, os, sys, tempfile', 'from datetime import datetime, timezone'] : []), ''];
  if (broken) lines.push('pending = np.unique(');
  for (let i = 0; lines.length < size; i++) lines.push(...block.map((l) => l.replaceAll('{i}', String(i))));
  const file = join(dir, 'big.py');
  writeFileSync(file, lines.join('\n'));
  return { file, lines };
}

/**
 * The `k`-th edit of a run: a line inserted at a line spread over the file (from line `first` on). With `current` (the
 * document's lines, updated here), the line takes the indentation of the line it goes before, as an editor's Enter
 * does, so an error-free file stays error-free; without it, the line goes in at column 0 (inside a def that makes the
 * file hold a syntax error from the first edit on, which measures the whole-file re-parse instead).
 */
export function workloadEdit(k, lineCount, first = 3, current) {
  const line = first + ((k * 97) % (lineCount - first - 1));
  const indent = current ? /^[ \t]*/.exec(current[line] ?? '')[0] : '';
  const text = indent + (k % 2 ? '# edit' : 'x = np.zeros(3)');
  if (current) current.splice(line, 0, text);
  return { range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: `${text}\n` };
}

/** A server process over stdio; `env` adds to this process's environment. Call close() when done. */
export async function startServer(rootDir, env = {}) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [join(root, 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  const waiters = new Map();
  conn.onNotification('textDocument/publishDiagnostics', (p) => {
    const w = waiters.get(p.uri);
    if (w) {
      waiters.delete(p.uri);
      w(p);
    }
  });
  conn.onRequest('client/registerCapability', () => null);
  // With ANACHRON_LOG_TIMING=1 the server says, per check, how long it waited before checking and how long it took.
  const timings = new Map();
  conn.onNotification('window/logMessage', (p) => {
    const m = /timing \S+ v(\d+): waited ([\d.]+) ms, checked in ([\d.]+) ms/.exec(p.message);
    if (m) timings.set(Number(m[1]), { waited: Number(m[2]), checked: Number(m[3]) });
  });
  conn.listen();
  const next = (uri) => new Promise((resolve) => waiters.set(uri, resolve));
  const init = await conn.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(rootDir).toString(), workspaceFolders: null, capabilities: {} });
  await conn.sendNotification('initialized', {});
  let version = 1;
  return {
    /** What the server said about itself (its matrix store). */
    info: init.anachron,
    /** Opens `file`; resolves with its diagnostics and the ms from spawning the server to them. */
    async open(file, text) {
      const uri = pathToFileURL(file).toString();
      const wait = next(uri);
      await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text } });
      const params = await wait;
      return { diagnostics: params.diagnostics, msSinceStart: Number(process.hrtime.bigint() - started) / 1e6 };
    },
    /** Applies one incremental change; resolves with the ms until its diagnostics arrive. */
    async change(file, change) {
      const uri = pathToFileURL(file).toString();
      const t = process.hrtime.bigint();
      const wait = next(uri);
      await conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: [change] });
      await wait;
      return Number(process.hrtime.bigint() - t) / 1e6;
    },
    /** Opens `file`; resolves with its diagnostics (call without await to send a request meanwhile). */
    async openOnly(file, text) {
      const uri = pathToFileURL(file).toString();
      const wait = next(uri);
      await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text } });
      return wait;
    },
    /** Sends a change; resolves with its diagnostics (call without await to send a request meanwhile). */
    async changeOnly(file, change) {
      const uri = pathToFileURL(file).toString();
      const wait = next(uri);
      await conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: [change] });
      return wait;
    },
    /** A hover at a 0-based line and character; resolves with the reply. */
    hover(file, line, character) {
      return conn.sendRequest('textDocument/hover', { textDocument: { uri: pathToFileURL(file).toString() }, position: { line, character } });
    },
    /** The version the last change gave the document. */
    get version() {
      return version;
    },
    /** What the server reported of the check of a version (ANACHRON_LOG_TIMING=1): { waited, checked } in ms. */
    async timing(v) {
      for (let tries = 0; !timings.has(v) && tries < 200; tries++) await new Promise((r) => setTimeout(r, 1));
      return timings.get(v);
    },
    /** The server's resident memory now, in MB (Linux). */
    rssMb: () => Number(readFileSync(`/proc/${child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024,
    /** The server's peak resident memory so far, in MB (Linux). */
    peakRssMb: () => Number(readFileSync(`/proc/${child.pid}/status`, 'utf8').match(/VmHWM:\s+(\d+)/)[1]) / 1024,
    close() {
      conn.dispose();
      child.kill();
    },
  };
}

/** The p-th percentile (0–100) of `values`. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const median = (values) => percentile(values, 50);
