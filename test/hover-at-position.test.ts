// A hover places and checks only the statement under the cursor (FileSyntax.referencesAt, analyzeSyntaxAt), not the
// whole file: in a 100,000-line file placing all 77,779 references took 270-1,200 ms per hover after an edit. What it
// answers must be what the whole file's references and findings answer, at every position of every fixture: the API
// under the cursor, the spans its findings may lie in, and whether a finding lies there.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { analyzeSyntax, analyzeSyntaxAt, type AnalysisContext } from '../server/src/core/analyze.js';
import type { Finding } from '../server/src/core/findings.js';
import { apiAt, spansOfApiAt } from '../server/src/core/hover.js';
import { parseCommandLinePin, type Pin } from '../server/src/core/pins.js';
import { fileSyntax } from '../server/src/core/python/file-syntax.js';
import type { SourcePosition, SourceRange } from '../server/src/core/source-range.js';
import { loadPythonParser, type PythonParser } from '../server/src/parser/python-parser.js';
import { openMatrixCatalog, type LoadedCatalog } from '../server/src/store/catalog.js';
import { defaultMatricesFolder } from '../server/src/store/matrices-folder.js';
import { loadFixtures } from './support/fixtures.js';

let parser: PythonParser;
let catalog: LoadedCatalog;
before(async () => {
  parser = await loadPythonParser();
  catalog = openMatrixCatalog(defaultMatricesFolder());
});
after(() => catalog?.close());

const overlaps = (a: SourceRange, b: SourceRange) => !(a.end.line < b.start.line || (a.end.line === b.start.line && a.end.column < b.start.column) || b.end.line < a.start.line || (b.end.line === a.start.line && b.end.column < a.start.column));
const flaggedIn = (findings: Finding[], spans: SourceRange[]) => findings.filter((f) => spans.some((s) => overlaps(f.range, s))).map((f) => `${f.code} ${JSON.stringify(f.range)}`).sort();

test('at every position of every fixture, the statement under the cursor answers the hover as the whole file does', () => {
  const fixtures = loadFixtures(join(__dirname, 'fixtures', 'checks')).filter((f) => f.matrices === 'bundled');
  assert.ok(fixtures.length > 50, `${fixtures.length} fixtures`);
  let positions = 0;
  let hovered = 0;
  for (const fixture of fixtures) {
    const pins = new Map(fixture.pins.map((text) => parseCommandLinePin(text) as Pin).map((p) => [p.distribution, p]));
    const ctx: AnalysisContext = { catalog, pins };
    const tree = parser.parse(fixture.text);
    try {
      const syntax = fileSyntax(tree, fixture.text);
      const all = syntax.references;
      const findings = analyzeSyntax(syntax, ctx);
      const lines = fixture.text.split('\n');
      lines.forEach((line, l) => {
        for (let column = 0; column <= line.length; column++) {
          const pos: SourcePosition = { line: l, column };
          const where = `${fixture.name}:${l + 1}:${column + 1}`;
          const near = syntax.referencesAt(pos);
          const target = apiAt(near, pos);
          assert.deepEqual(target, apiAt(all, pos), where);
          positions++;
          if (!target) continue;
          hovered++;
          const spans = spansOfApiAt(near, target.range);
          assert.deepEqual(spans, spansOfApiAt(all, target.range), where);
          const atPos = analyzeSyntaxAt(syntax, pos, ctx);
          assert.deepEqual(flaggedIn(atPos, spans), flaggedIn(findings, spans), where);
        }
      });
    } finally {
      tree.delete();
    }
  }
  assert.ok(hovered > 1000, `${hovered} of ${positions} positions hold an API`);
});
