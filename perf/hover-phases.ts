// In-process cost of a hover right after an edit, on the workload file, in the language server's own classes
// (lsp/document-analyses.ts, core/hover.ts; no transport): the edited text's syntax (which the hover pays when it
// comes before the edit's check, and the check then reuses), then the hover's own work two ways on the same state —
// the statement under the cursor (FileSyntax.referencesAt, findingsAt: what the server does) and the whole file
// (every reference placed, every chunk checked: what it did) — alternating which goes first. The hover is on the
// file's last np.trapezoid, found again after each edit. Usage: node --import tsx perf/hover-phases.ts [LINES] [EDITS]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalysisContext } from '../server/src/core/analyze.js';
import { hoverFor, spansOfApiAt } from '../server/src/core/hover.js';
import { normalizeDistributionName } from '../server/src/core/library-names.js';
import { parseCommandLinePin, type Pin } from '../server/src/core/pins.js';
import type { SourcePosition } from '../server/src/core/source-range.js';
import { DocumentAnalyses } from '../server/src/lsp/document-analyses.js';
import { loadPythonParser } from '../server/src/parser/python-parser.js';
import { openMatrixCatalog } from '../server/src/store/catalog.js';
import { defaultMatricesFolder } from '../server/src/store/matrices-folder.js';
import { chooseSqlite } from '../server/src/store/sqlite/driver.js';

const size = Number(process.argv[2] ?? 100_000);
const edits = Number(process.argv[3] ?? 5);

void (async () => {
  const client: string = './lsp-client.mjs';
  const { writeWorkloadProject, workloadEdit, median } = (await import(client)) as {
    writeWorkloadProject(dir: string, options: { size: number }): { file: string };
    workloadEdit(k: number, lineCount: number, first: number, current: string[]): unknown;
    median(values: number[]): number;
  };
  await chooseSqlite();
  const dir = mkdtempSync(join(tmpdir(), 'anachron-perf-hover-'));
  const { file } = writeWorkloadProject(dir, { size });
  const lines = readFileSync(file, 'utf8').split('\n');
  const parser = await loadPythonParser();
  const catalog = openMatrixCatalog(defaultMatricesFolder());
  const pin = parseCommandLinePin('numpy==1.24.2') as Pin;
  const ctx: AnalysisContext = { catalog, pins: new Map([[normalizeDistributionName(pin.distribution), pin]]) };
  const analyses = new DocumentAnalyses(parser);
  const uri = `file://${file}`;
  const timed = <T>(f: () => T): [T, number] => {
    const t0 = performance.now();
    const value = f();
    return [value, performance.now() - t0];
  };
  const lastTrapezoid = (): SourcePosition => {
    for (let i = lines.length - 1; i >= 0; i--) {
      const c = lines[i]!.indexOf('np.trapezoid');
      if (c >= 0) return { line: i, column: c + 4 };
    }
    throw new Error('no np.trapezoid');
  };
  const flagged = (refs: ReturnType<typeof analyses.syntaxFor>['references'], pos: SourcePosition, findings: () => { range: { start: SourcePosition; end: SourcePosition } }[]) => {
    const hover = hoverFor(refs, pos, ctx);
    if (!hover) return false;
    const spans = spansOfApiAt(refs, hover.range);
    const inside = (p: SourcePosition, s: { start: SourcePosition; end: SourcePosition }) => (p.line > s.start.line || (p.line === s.start.line && p.column >= s.start.column)) && (p.line < s.end.line || (p.line === s.end.line && p.column <= s.end.column));
    return findings().some((f) => spans.some((s) => inside(f.range.start, s)));
  };
  try {
    const [first, firstMs] = timed(() => analyses.findings(uri, lines.join('\n'), ctx));
    console.log(`load average ${loadavg().map((v) => v.toFixed(1)).join(' ')}; ${size.toLocaleString('en')}-line file: first analysis ${firstMs.toFixed(0)} ms (${first.length} findings)`);
    const syntaxMs: number[] = [];
    const statementMs: number[] = [];
    const wholeMs: number[] = [];
    let references = 0;
    for (let k = 0; k < edits; k++) {
      workloadEdit(k, lines.length, 3, lines);
      const text = lines.join('\n');
      const [syntax, ms] = timed(() => analyses.syntaxFor(uri, text));
      syntaxMs.push(ms);
      const pos = lastTrapezoid();
      const statement = () => flagged(syntax.referencesAt(pos), pos, () => analyses.findingsAt(uri, text, pos, ctx));
      const whole = () => flagged(syntax.references, pos, () => analyses.findings(uri, text, ctx));
      const order = k % 2 === 0 ? [statement, whole] : [whole, statement];
      const answers = order.map((arm) => {
        const [answer, took] = timed(arm);
        (arm === statement ? statementMs : wholeMs).push(took);
        return answer;
      });
      if (answers[0] !== answers[1] || answers[0] !== true) throw new Error(`edit ${k}: the two ways disagree or see no finding (${answers})`);
      references = syntax.references.length;
    }
    const fmt = (values: number[]) => `median ${median(values).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;
    console.log(`after each of ${edits} edits: the edited text's syntax ${fmt(syntaxMs)}; the hover itself, the statement under the cursor ${fmt(statementMs)}, the whole file (${references.toLocaleString('en')} references) ${fmt(wholeMs)}`);
  } finally {
    catalog.close();
    rmSync(dir, { recursive: true, force: true });
  }
})();
