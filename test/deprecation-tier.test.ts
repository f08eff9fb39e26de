// The deprecation tier beyond what the fixtures compare (test/fixtures/checks/deprecation-*.py on the synthetic
// history deplib): the quick fixes its findings offer, the editor's strike-through, and matrices built before
// deprecations were read (no deprecations table), which record none.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { analyzeTree } from '../server/src/core/analyze.js';
import type { Finding } from '../server/src/core/findings.js';
import { fixesFor } from '../server/src/core/fixes.js';
import { choosePins, parseRequirementsTxt } from '../server/src/core/pins.js';
import { findingToDiagnostic } from '../server/src/lsp/to-diagnostic.js';
import { loadPythonParser, type PythonParser } from '../server/src/parser/python-parser.js';
import { openMatrixCatalog } from '../server/src/store/catalog.js';
import { buildHistoryMatrices, readSyntheticHistory } from './support/synthetic-history.js';

const HISTORY = join(__dirname, 'fixtures', 'matrices', 'deplib.synthetic.json');
let parser: PythonParser;
before(async () => {
  parser = await loadPythonParser();
});

function check(dir: string, pin: string, text: string): { findings: Finding[]; fixes: (f: Finding) => ReturnType<typeof fixesFor> } {
  const catalog = openMatrixCatalog(dir);
  const tree = parser.parse(text);
  const pins = choosePins(parseRequirementsTxt(`${pin}\n`, 'requirements.txt').pins).pins;
  const findings = analyzeTree(tree, { catalog, pins });
  return { findings, fixes: (f) => fixesFor({ ...f, pinSource: 'requirements.txt:1' }, text, tree, () => undefined) };
}

test('deprecated-api offers the replacement at the pin; deprecated-parameter renames the keyword', () => {
  const dir = buildHistoryMatrices(readSyntheticHistory(HISTORY));
  const text = 'import deplib\na = deplib.trapz([1.0])\nb = deplib.reshape(a, newshape=(1,))\n';
  const { findings, fixes } = check(dir, 'deplib==1.2', text);
  assert.deepEqual(findings.map((f) => f.code), ['deprecated-api', 'deprecated-parameter']);
  const [api, keyword] = findings as [Finding, Finding];
  const apiFix = fixes(api)[0]!;
  assert.equal(apiFix.preferred, true);
  assert.deepEqual(apiFix.edits, [{ range: { start: { line: 1, column: 11 }, end: { line: 1, column: 16 } }, newText: 'trapezoid' }]);
  const keywordFix = fixes(keyword)[0]!;
  assert.equal(keywordFix.title, 'Use `shape=` instead of the deprecated `newshape=`');
  assert.deepEqual(keywordFix.edits, [{ range: { start: { line: 2, column: 22 }, end: { line: 2, column: 30 } }, newText: 'shape' }]);
  // Silencing the line is the only other fix: a deprecation is not fixed by raising the pin.
  assert.deepEqual(fixes(keyword).slice(1).map((f) => f.title), ['Ignore `deprecated-parameter` on this line']);
});

test('with no replacement at the pin there is no quick fix but silencing the line', () => {
  const dir = buildHistoryMatrices(readSyntheticHistory(HISTORY));
  const { findings, fixes } = check(dir, 'deplib==1.2', 'import deplib\nm = deplib.in1d([1], [2])\n');
  assert.equal(findings.length, 1);
  assert.equal(findings[0]!.replacement, null);
  assert.equal(fixes(findings[0]!).length, 1);
});

test('the editor strikes a deprecated API through, not a deprecated keyword', () => {
  const dir = buildHistoryMatrices(readSyntheticHistory(HISTORY));
  const { findings } = check(dir, 'deplib==1.2', 'import deplib\na = deplib.trapz([1.0])\nb = deplib.reshape(a, newshape=(1,))\n');
  assert.deepEqual(findings.map((f) => [f.code, findingToDiagnostic(f).tags ?? []]), [['deprecated-api', [2]], ['deprecated-parameter', []]]);
  assert.deepEqual(findings.map((f) => findingToDiagnostic(f).severity), [3, 3]);
});

test('a matrix built before deprecations were read (no deprecations table) records none and checks as before', () => {
  const dir = buildHistoryMatrices(readSyntheticHistory(HISTORY));
  const db = new Database(join(dir, 'deplib.sqlite'));
  db.exec('DROP TABLE deprecations');
  db.close();
  const { findings } = check(dir, 'deplib==1.2', 'import deplib\na = deplib.trapz([1.0])\nb = deplib.trapezoid([1.0])\nc = deplib.isin([1], [2])\n');
  assert.deepEqual(findings.map((f) => `${f.code} ${f.api}`), ['anachronistic-api deplib.isin']);
});
