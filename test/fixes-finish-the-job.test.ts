// Fixes that finish the job (issue 16, point 5) over matrices built from hand-written histories
// (test/fixtures/matrices/movelib, sidelib, python .synthetic.json): the edits of the older spelling of a re-homed
// name, of the name a removal note advises (a builtin), of "did you mean" another library's name (with its import),
// that "fix all" leaves that guess alone, and the agents' review raising a pin as the editor does.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { analyzeTree } from '../server/src/core/analyze.js';
import type { Finding } from '../server/src/core/findings.js';
import { planFixAll } from '../server/src/core/fix-all.js';
import { fixesFor, versionsFixesRead, type Fix, type FixableFinding } from '../server/src/core/fixes.js';
import { choosePins, parseRequirementsTxt } from '../server/src/core/pins.js';
import { ApiKnowledge } from '../server/src/knowledge/api-lookup.js';
import { checkSnippet } from '../server/src/knowledge/snippet.js';
import { loadPythonParser, type PythonParser } from '../server/src/parser/python-parser.js';
import { listMatrixApis } from '../server/src/store/api-listing.js';
import { openMatrixCatalog } from '../server/src/store/catalog.js';
import { buildHistoryMatrices, readSyntheticHistory } from './support/synthetic-history.js';

const history = (library: string) => readSyntheticHistory(join(__dirname, 'fixtures', 'matrices', `${library}.synthetic.json`));
let parser: PythonParser;
let withPython: string;
let withoutPython: string;
before(async () => {
  parser = await loadPythonParser();
  withPython = buildHistoryMatrices(history('movelib'), history('sidelib'), history('python'));
  withoutPython = buildHistoryMatrices(history('movelib'), history('sidelib'));
});

const MANIFEST = 'movelib==1.1\nsidelib==2.0\n';

function check(dir: string, text: string, manifest = MANIFEST): { findings: Finding[]; fixes: (f: Omit<FixableFinding, 'pinSource'>) => Fix[] } {
  const catalog = openMatrixCatalog(dir);
  const tree = parser.parse(text);
  const pins = choosePins(parseRequirementsTxt(manifest, 'requirements.txt').pins).pins;
  const findings = analyzeTree(tree, { catalog, pins });
  return { findings, fixes: (f) => fixesFor({ ...f, pinSource: 'requirements.txt:1' }, text, tree, (file) => (file === 'requirements.txt' ? manifest : undefined)) };
}

const at = (line: number, start: number, end: number) => ({ start: { line, column: start }, end: { line, column: end } });

describe('the quick fix rewrites the whole reference', () => {
  test('the older spelling of a re-homed name keeps the alias: ml.exceptions.AxisError -> ml.AxisError', () => {
    const { findings, fixes } = check(withPython, 'import movelib as ml\ntry:\n    pass\nexcept ml.exceptions.AxisError:\n    pass\n');
    assert.deepEqual(findings.map((f) => [f.code, f.api, f.replacement]), [['anachronistic-api', 'movelib.exceptions.AxisError', 'movelib.AxisError']]);
    assert.equal(findings[0]!.message, '`movelib.exceptions.AxisError` needs movelib ≥ 2.0 (pinned 1.1)');
    assert.ok(findings[0]!.notes.some((n) => n.text === 'use `movelib.AxisError`, its name at movelib 1.1'), JSON.stringify(findings[0]!.notes));
    const [first] = fixes(findings[0]!);
    assert.equal(first!.title, 'Use `movelib.AxisError`, which exists at movelib 1.1');
    assert.equal(first!.preferred, true);
    assert.deepEqual(first!.edits, [{ range: at(3, 7, 30), newText: 'ml.AxisError' }]);
  });

  test('spelled through the full module path it stays so: movelib.exceptions.RankWarning -> movelib.RankWarning', () => {
    const { findings, fixes } = check(withPython, 'import movelib\nw = movelib.exceptions.RankWarning\n');
    assert.deepEqual(fixes(findings[0]!)[0]!.edits, [{ range: at(1, 4, 34), newText: 'movelib.RankWarning' }]);
  });

  test('an alias of the re-homing module cannot spell the older name: no rewrite, only the raise and silencing', () => {
    const { findings, fixes } = check(withPython, 'from movelib import exceptions as ex\nw = ex.AxisError\n');
    assert.deepEqual(findings.map((f) => f.api), ['movelib.exceptions'], 'the import is reported, its uses are not');
    assert.deepEqual(fixes(findings[0]!).map((f) => f.kind), ['raise-pin', 'suppress']);
  });

  test('the builtin a removal note advises first: ml.real(3) -> float(3); without Python\'s matrix, no swap', () => {
    const text = 'import movelib as ml\nx = ml.real(3)\n';
    const { findings, fixes } = check(withPython, text);
    assert.equal(findings[0]!.replacement, 'builtins.float');
    assert.ok(findings[0]!.notes.some((n) => n.text === 'use `float`'), JSON.stringify(findings[0]!.notes));
    const [first] = fixes(findings[0]!);
    assert.equal(first!.title, 'Use `float`, which exists at movelib 1.1');
    assert.deepEqual(first!.edits, [{ range: at(1, 4, 11), newText: 'float' }]);
    // The note's second choice (ml.real64, "if you specifically wanted the movelib scalar type") is not taken instead.
    const bare = check(withoutPython, text);
    assert.equal(bare.findings[0]!.replacement, null);
    assert.ok(bare.findings[0]!.notes.some((n) => n.text.startsWith('movelib\'s note on the removal: “`ml.real` was a deprecated alias for the builtin `float`.')));
  });

  test('did you mean another library\'s name: the chain rewritten in full and its module imported, once', () => {
    const text = 'import movelib as ml\nimport sidelib\n\nh = ml.linalg.pinvh([[1.0]])\n';
    const { findings, fixes } = check(withPython, text);
    assert.deepEqual(findings.map((f) => [f.code, f.replacement]), [['unknown-api', 'sidelib.linalg.pinvh']]);
    assert.ok(findings[0]!.notes.some((n) => n.text === 'did you mean `sidelib.linalg.pinvh`? sidelib has it'));
    const [first] = fixes(findings[0]!);
    assert.equal(first!.title, 'Did you mean `sidelib.linalg.pinvh`? Use it (and import sidelib.linalg)');
    assert.equal(first!.preferred, false, 'a guess is never the preferred fix');
    assert.deepEqual(first!.edits, [{ range: at(2, 0, 0), newText: 'import sidelib.linalg\n' }, { range: at(3, 4, 19), newText: 'sidelib.linalg.pinvh' }]);
    const imported = check(withPython, 'import movelib as ml\nimport sidelib.linalg\nh = ml.linalg.pinvh([[1.0]])\n');
    assert.deepEqual(imported.fixes(imported.findings[0]!)[0]!.edits.map((e) => e.newText), ['sidelib.linalg.pinvh']);
    // Fix all applies what is certain only: the guess stays a quick fix of its own.
    const plan = planFixAll(findings.map((f) => ({ ...f, pinSource: 'requirements.txt:1' })), fixes);
    assert.deepEqual([plan.edits, plan.fixed], [[], 0]);
  });

  test('no library has the name at that place: no "did you mean", no fix but silencing', () => {
    const { findings, fixes } = check(withPython, 'import movelib as ml\nh = ml.linalg.qz([[1.0]])\n');
    assert.deepEqual(findings.map((f) => [f.code, f.replacement]), [['unknown-api', null]]);
    assert.deepEqual(fixes(findings[0]!).map((f) => f.kind), ['suppress']);
  });
});

describe('the agents\' review raises a pin as the editor does', () => {
  test('movelib==1.0 with linalg.solve (1.1) and exceptions.TooHard (2.0): the raise goes to 2.0 for every use', () => {
    const catalog = openMatrixCatalog(withPython);
    const pins = choosePins(parseRequirementsTxt('movelib==1.0\n', 'requirements.txt').pins).pins;
    const report = checkSnippet(parser, 'import movelib as ml\nx = ml.linalg.solve(1, 2)\ne = ml.exceptions.TooHard\n', { catalog, pins }, new ApiKnowledge(catalog, listMatrixApis), {
      readManifest: (f) => (f === 'requirements.txt' ? 'movelib==1.0\n' : undefined),
    });
    assert.deepEqual(report.findings.map((f) => f.api), ['movelib.linalg.solve', 'movelib.exceptions']);
    // It raised to 1.1 (the version that has solve), which left movelib.exceptions failing.
    assert.deepEqual(report.findings[0]!.otherFixes, ['Raise the pin to movelib==2.0 in requirements.txt (lowest tracked version where every use of movelib in this file works)']);
  });
});

describe('a diagnostic carries the versions its fixes read (versionsFixesRead), and they give the same fixes', () => {
  const finding = (pin: string, availableIn: string[]): FixableFinding => ({
    code: 'anachronistic-api', range: at(1, 0, 15), api: 'movelib.newest', parameter: null, replacement: null, availableIn, pin, pinSource: 'requirements.txt:1', library: 'movelib',
  });
  const cases: { pin: string; manifest: string; availableIn: string[]; carried: string[] }[] = [
    { pin: '1.1', manifest: 'movelib==1.1\n', availableIn: ['3.0', '2.0', '2.1', '1.0'], carried: ['1.0', '2.0'] },
    { pin: '1.1', manifest: 'movelib==1.1\n', availableIn: ['2.1', '2.0'], carried: ['2.0'] },
    { pin: '>=1.0', manifest: 'movelib>=1.0\n', availableIn: ['2.1', '1.1', '2.0'], carried: ['1.1'] },
    { pin: '3.0', manifest: 'movelib==3.0\n', availableIn: ['1.0', '1.1'], carried: ['1.0'] },
    { pin: '1.1', manifest: 'movelib==1.1\n', availableIn: [], carried: [] },
  ];
  for (const c of cases) {
    test(`pinned ${c.pin}, in ${c.availableIn.join(', ') || 'no version'}: carries ${c.carried.join(', ') || 'none'}`, () => {
      assert.deepEqual(versionsFixesRead(c.availableIn, c.pin), c.carried);
      const text = 'import movelib\nmovelib.newest()\n';
      const tree = parser.parse(text);
      try {
        const fixes = (availableIn: string[]) => fixesFor(finding(c.pin, availableIn), text, tree, (f) => (f === 'requirements.txt' ? c.manifest : undefined));
        assert.deepEqual(fixes(c.carried), fixes(c.availableIn));
      } finally {
        tree.delete();
      }
    });
  }
});
