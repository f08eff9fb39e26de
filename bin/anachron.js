#!/usr/bin/env node
'use strict';
// Thin launcher: the CLI is bundled into dist/cli.js by `npm install` (the prepare script) or `npm run build`.
const path = require('node:path');
const fs = require('node:fs');
const bundle = path.join(__dirname, '..', 'dist', 'cli.js');
if (!fs.existsSync(bundle)) {
  process.stderr.write('anachron: dist/cli.js is missing; run `npm install` (or `npm run build`) in the anachron folder first\n');
  process.exit(2);
}

// Under a cap on virtual memory (`ulimit -v`, a container's address-space limit), V8's WebAssembly memories (the
// Python parser's, SQLite's) cannot reserve the guard regions of its trap-handler bounds checks (about 10 GB each),
// and every command failed with "WebAssembly.Memory(): could not allocate memory". There the CLI runs again with
// --disable-wasm-trap-handler: inline bounds checks, memory reserved as it is needed.
const TRAP_HANDLER_OFF = '--disable-wasm-trap-handler';
/** The address-space limit of this process in bytes (Linux), or null without one. */
function addressSpaceLimit() {
  if (process.platform !== 'linux') return null;
  try {
    const m = /^Max address space\s+(\S+)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
    return m && m[1] !== 'unlimited' ? Number(m[1]) : null;
  } catch {
    return null;
  }
}
const limit = addressSpaceLimit();
if (limit !== null && limit < 64 * 2 ** 30 && !process.execArgv.includes(TRAP_HANDLER_OFF) && process.allowedNodeEnvironmentFlags.has(TRAP_HANDLER_OFF)) {
  const { spawn } = require('node:child_process');
  const child = spawn(process.execPath, [TRAP_HANDLER_OFF, ...process.execArgv, __filename, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
  child.on('error', (e) => {
    process.stderr.write(`anachron: cannot start ${process.execPath}: ${e.message}\n`);
    process.exit(2);
  });
} else {
  require(bundle)
    .main(process.argv.slice(2))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (e) => {
        process.stderr.write(`anachron: internal error: ${(e && e.stack) || e}\n`);
        process.exitCode = 2;
      },
    );
}
