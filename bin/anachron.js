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

// Under a cap on virtual memory (`ulimit -v`) the CLI runs again with V8's WebAssembly trap handler off, and its
// WebAssembly memories are sized to the cap (server/src/wasm-memory.ts).
const { handedOffUnderCap } = require(path.join(__dirname, '..', 'dist', 'wasm-memory.js'));
if (!handedOffUnderCap(__filename, process.argv.slice(2))) {
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
