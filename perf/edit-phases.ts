// In-process phases of one edit in the language server's path (no transport): the parse of the pieces the edit touched, the chunk facts
// and linking (fileSyntax), the checker (analyzeSyntax), the conversion to LSP diagnostics and their JSON, per edit,
// on the numpy workload file. The edits insert a line with the indentation of the line it goes before, as an editor's
// Enter does, so the file stays free of syntax errors. 'total CPU' is the process's CPU time over the same span
// (all its threads), steadier than wall time on a shared machine. Usage: node --import tsx perf/edit-phases.ts [LINES] [EDITS]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeSyntax } from '../server/src/core/analyze.js';
import { CheckMemo } from '../server/src/core/check-memo.js';
import { normalizeDistributionName } from '../server/src/core/library-names.js';
import { parseCommandLinePin, type Pin } from '../server/src/core/pins.js';
import { newChunkFactsCache, syntaxOfChunks } from '../server/src/core/python/file-syntax.js';
import { DocumentTrees } from '../server/src/lsp/document-trees.js';
import { findingToDiagnostic } from '../server/src/lsp/to-diagnostic.js';
import { loadPythonParser } from '../server/src/parser/python-parser.js';
import { openMatrixCatalog } from '../server/src/store/catalog.js';
import { defaultMatricesFolder } from '../server/src/store/matrices-folder.js';
import { chooseSqlite } from '../server/src/store/sqlite/driver.js';

const size = Number(process.argv[2] ?? 2000);
const edits = Number(process.argv[3] ?? 100);

void (async () => {
  const client: string = './lsp-client.mjs';
  const { writeWorkloadProject, workloadEdit, percentile } = (await import(client)) as {
    writeWorkloadProject(dir: string, options: { size: number }): { file: string; lines: string[] };
    workloadEdit(k: number, lineCount: number, first: number, current: string[]): { range: { start: { line: number } }; text: string };
    percentile(values: number[], p: number): number;
  };
  const dir = mkdtempSync(join(tmpdir(), 'anachron-edit-phases-'));
  const { file, lines } = writeWorkloadProject(dir, { size });
  await chooseSqlite();
  const catalog = openMatrixCatalog(defaultMatricesFolder());
  const pin = parseCommandLinePin('numpy==1.24.2') as Pin;
  const ctx = { catalog, pins: new Map([[normalizeDistributionName('numpy'), pin]]) };
  const parser = await loadPythonParser();
  const trees = new DocumentTrees(parser);
  const chunks = newChunkFactsCache();
  const memo = new CheckMemo();
  const current: string[] = readFileSync(file, 'utf8').split('\n');
  const phases: Record<string, number[]> = { parse: [], syntax: [], check: [], diagnostics: [], json: [], total: [], 'total CPU': [] };
  for (let k = -1; k < edits; k++) {
    if (k >= 0) {
      workloadEdit(k, lines.length + k, 3, current);
    }
    const text = current.join('\n');
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const pieces = trees.chunksFor('doc', text);
    const t1 = performance.now();
    const syntax = syntaxOfChunks(pieces, chunks);
    const t2 = performance.now();
    const findings = analyzeSyntax(syntax, ctx, memo);
    const t3 = performance.now();
    const diagnostics = findings.map((f) => findingToDiagnostic(f));
    const t4 = performance.now();
    JSON.stringify({ uri: 'file:///doc.py', version: k, diagnostics });
    const t5 = performance.now();
    const cpu = process.cpuUsage(cpu0);
    // A turn of the event loop between edits, as in the server (where the replaced tree is freed).
    await new Promise((resolve) => setImmediate(resolve));
    if (k < 0) continue;
    phases.parse!.push(t1 - t0);
    phases.syntax!.push(t2 - t1);
    phases.check!.push(t3 - t2);
    phases.diagnostics!.push(t4 - t3);
    phases.json!.push(t5 - t4);
    phases.total!.push(t5 - t0);
    phases['total CPU']!.push((cpu.user + cpu.system) / 1000);
  }
  const f = (v: number) => v.toFixed(1);
  console.log(`${size} lines, ${edits} edits (load average ${loadavg().map((l) => l.toFixed(2)).join(', ')}):`);
  for (const [name, values] of Object.entries(phases)) console.log(`  ${name.padEnd(12)} p50 ${f(percentile(values, 50))} ms, p95 ${f(percentile(values, 95))} ms`);
  catalog.close();
  rmSync(dir, { recursive: true, force: true });
})();
