// The language server's resident memory with every bundled matrix in use: a project that pins every library at its
// newest tracked version (Python through requires-python), and one file per library that uses APIS of its paths
// (spread over the matrix's list, so every part of the file is read). The files are opened one after another, each
// checked before the next; the figures are the server's RSS (VmRSS) after the start, after each library, after
// every file has been edited EDITS times, its peak (VmHWM), and after it rested 3 s.
// Usage: node perf/server-memory.mjs [APIS] [EDITS]   (APIS per library, 300 unless given; EDITS per file, 5)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, startServer } from './lsp-client.mjs';

const apisPerLibrary = Number(process.argv[2] ?? 300);
const edits = Number(process.argv[3] ?? 5);
const require = createRequire(join(root, 'package.json'));
const { openMatrixCatalog } = require(join(root, 'dist', 'perf-api.js'));

const KEYWORDS = new Set('False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case type print exec'.split(' '));
const usable = (path) => /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(path) && !path.split('.').some((s) => KEYWORDS.has(s));

/** `count` of the matrix's paths, spread evenly over its sorted list. */
function spread(paths, count) {
  const step = Math.max(1, paths.length / count);
  const out = [];
  for (let i = 0; i < paths.length && out.length < count; i += step) out.push(paths[Math.floor(i)]);
  return out;
}

const catalog = openMatrixCatalog(join(root, 'matrices'));
const libraries = catalog.matrices.map((m) => ({ library: m.library, distribution: m.distribution, newest: m.versions[m.versions.length - 1], paths: spread(m.apiPaths().filter(usable), apisPerLibrary) }));
catalog.close();

const dir = mkdtempSync(join(tmpdir(), 'anachron-perf-memory-'));
const python = libraries.find((l) => l.library === 'python');
writeFileSync(join(dir, 'requirements.txt'), libraries.filter((l) => l !== python).map((l) => `${l.distribution}==${l.newest}\n`).join(''));
writeFileSync(join(dir, 'pyproject.toml'), `[project]\nname = "memory"\nrequires-python = ">=${python?.newest ?? '3.12'}"\n`);
const files = libraries.map((l) => {
  const roots = [...new Set(l.paths.map((p) => p.split('.')[0]))];
  const lines = [...roots.map((r) => `import ${r}`), '', 'def use():', ...l.paths.map((p) => `    ${p}`), ''];
  const file = join(dir, `uses_${l.library}.py`);
  writeFileSync(file, lines.join('\n'));
  return { library: l.library, file, lines };
});

const mb = (v) => `${v.toFixed(0)} MB`;
console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(', ')}; ${libraries.length} matrices, ${apisPerLibrary} APIs each, ${edits} edits per file`);
const server = await startServer(dir);
try {
  console.log(`started: RSS ${mb(server.rssMb())}`);
  let diagnostics = 0;
  for (const f of files) {
    const opened = await server.open(f.file, f.lines.join('\n'));
    diagnostics += opened.diagnostics.length;
    console.log(`  + ${f.library.padEnd(12)} ${String(opened.diagnostics.length).padStart(4)} diagnostics; RSS ${mb(server.rssMb())}`);
  }
  for (let k = 0; k < edits; k++) {
    for (const f of files) {
      // a use inserted at the top of the function, as typing a line does
      await server.change(f.file, { range: { start: { line: f.lines.indexOf('def use():') + 1, character: 0 }, end: { line: f.lines.indexOf('def use():') + 1, character: 0 } }, text: `    ${f.lines[f.lines.length - 2].trim()}\n` });
    }
  }
  console.log(`every matrix in use (${diagnostics} diagnostics at open), ${edits} edits per file: RSS ${mb(server.rssMb())}, peak ${mb(server.peakRssMb())}`);
  // what it rests at once the edits stop (the server collects its garbage after 2 s without a check)
  await new Promise((resolve) => setTimeout(resolve, 3000));
  console.log(`rested 3 s: RSS ${mb(server.rssMb())}`);
} finally {
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`load average at end: ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
