// The API knowledge agents get (server/src/knowledge/): lookups and snippet checks on the bundled matrices, their
// Markdown and text renderings, and that a reader can take the answer back (what the benchmark's grounded arm relies
// on). The answers must agree with what the checker and the hover say: they are built from the same functions.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listMatrixApis } from '../server/src/store/api-listing.js';
import { checkReferences } from '../server/src/core/checker.js';
import { parseCommandLinePin, type Pin } from '../server/src/core/pins.js';
import { findApiReferences } from '../server/src/core/python/file-syntax.js';
import { ApiKnowledge, type ApiAnswer, type MatchesAnswer, type NotFoundAnswer } from '../server/src/knowledge/api-lookup.js';
import { readToolAnswer, renderLookup, renderMigration, renderSnippetReport } from '../server/src/knowledge/render.js';
import { checkSnippet, migrateSnippet } from '../server/src/knowledge/snippet.js';
import { loadPythonParser, type PythonParser } from '../server/src/parser/python-parser.js';
import { openMatrixCatalog, type LoadedCatalog } from '../server/src/store/catalog.js';
import { defaultMatricesFolder } from '../server/src/store/matrices-folder.js';

function pins(...specs: string[]): Map<string, Pin> {
  const out = new Map<string, Pin>();
  for (const s of specs) {
    const pin = parseCommandLinePin(s);
    if ('error' in pin) throw new Error(pin.error);
    out.set(pin.distribution, { ...pin, origin: { file: 'requirements.txt', line: 2 } });
  }
  return out;
}

let catalog: LoadedCatalog;
let knowledge: ApiKnowledge;
let parser: PythonParser;

before(async () => {
  catalog = openMatrixCatalog(defaultMatricesFolder());
  knowledge = new ApiKnowledge(catalog, listMatrixApis);
  parser = await loadPythonParser();
});
after(() => catalog.close());

describe('lookup', () => {
  test('an API missing at the pin: the verdict, where it exists, and the version-correct alternative with its signature', () => {
    const answer = knowledge.lookup({ api: 'numpy.trapezoid' }, pins('numpy==1.24.2')) as ApiAnswer;
    assert.equal(answer.kind, 'api');
    assert.equal(answer.verdict, 'absent');
    assert.equal(answer.alternative?.api, 'numpy.trapz');
    assert.equal(answer.alternative?.basis, 'documentation');
    assert.equal(answer.alternative?.signature, 'trapz(y, x=None, dx=1.0, axis=-1)');
    assert.ok(answer.bands.some((b) => b.pinned && b.state === 'absent'));
    // The checker, on code using it at the same pin, names the same replacement.
    const tree = parser.parse('import numpy as np\nnp.trapezoid([1.0])\n');
    const finding = checkReferences(findApiReferences(tree), { catalog, pins: pins('numpy==1.24.2') })[0]!;
    tree.delete();
    assert.equal(finding.replacement, answer.alternative?.api);

    const md = renderLookup(answer);
    assert.match(md, /^### `numpy\.trapezoid` \(function\) — numpy==1\.24\.2 \(requirements\.txt:2\)/);
    assert.match(md, /\*\*Exists at numpy 1\.24\.2:\*\* NO\. It is in numpy 2\.0\.0–/);
    assert.match(md, /\*\*Use instead:\*\* `numpy\.trapz` — `trapz\(y, x=None, dx=1\.0, axis=-1\)` at 1\.24\.2/);
    assert.match(md, /◀ pin/);
    const text = renderLookup(answer, { markdown: false });
    assert.doesNotMatch(text, /\*\*/);
    assert.match(text, /^`numpy\.trapezoid` \(function\)/);
    assert.ok(md.length < 2000, `${md.length} characters`);
  });

  test('an API present at the pin: its signature and summary there, and what changes before and after', () => {
    const answer = knowledge.lookup({ api: 'np.unique' }, pins('numpy==1.24.2')) as ApiAnswer;
    assert.equal(answer.api, 'numpy.unique', 'the alias np is read as numpy');
    assert.equal(answer.verdict, 'present');
    assert.match(answer.at[0]!.signature!, /equal_nan=True/);
    assert.doesNotMatch(answer.at[0]!.signature!, /sorted=/);
    assert.ok(answer.changesBefore.some((c) => c.includes('`equal_nan` added in')));
    assert.ok(answer.changesAfter.some((c) => c.includes('`sorted` added in')));
    const md = renderLookup(answer);
    assert.match(md, /\*\*Signature at 1\.24\.2:\*\* `unique\(ar, .*equal_nan=True\)`/);
    assert.match(md, /\*\*Summary:\*\* Find the unique elements of an array\./);
    assert.match(md, /\*\*After 1\.24\.2:\*\* `sorted` added in 2\.3\.0\./);
  });

  test('a range pin is answered at every tracked version it allows', () => {
    const answer = knowledge.lookup({ api: 'numpy.trapz' }, pins('numpy>=2.2,<2.5')) as ApiAnswer;
    assert.ok(answer.at.length > 2);
    assert.equal(answer.verdict, 'mixed', 'numpy.trapz went away in 2.4');
    assert.match(renderLookup(answer), /only in some: missing in 2\.4/);
  });

  test('without a pin the answer is about the newest tracked version and says so', () => {
    const answer = knowledge.lookup({ api: 'numpy.trapz' }, new Map()) as ApiAnswer;
    assert.equal(answer.pin, null);
    assert.equal(answer.verdict, 'absent');
    assert.match(renderLookup(answer), /newest tracked version; nothing pins numpy/);
  });

  test('an unknown name: not found, with names present at the pin that look like it', () => {
    const answer = knowledge.lookup({ api: 'numpy.linalg.norms' }, pins('numpy==1.24.2')) as NotFoundAnswer;
    assert.equal(answer.kind, 'not-found');
    assert.match(answer.reason, /in no tracked version of numpy/);
    assert.ok(answer.suggestions.some((s) => s.api === 'numpy.linalg.norm'), JSON.stringify(answer.suggestions));
    assert.match(renderLookup(answer), /possibly a hallucinated or misspelled name/);
    const none = knowledge.lookup({ api: 'polars.DataFrame' }, pins('numpy==1.24.2')) as NotFoundAnswer;
    assert.match(none.reason, /no tracked library provides polars/);
  });

  test('a module and a description: the members present at the pinned version that match, best first', () => {
    const answer = knowledge.lookup({ module: 'numpy.linalg', description: 'Matrix or vector norm.' }, pins('numpy==1.24.2')) as MatchesAnswer;
    assert.equal(answer.kind, 'matches');
    assert.equal(answer.version, '1.24.2');
    assert.equal(answer.matches[0]!.api, 'numpy.linalg.norm');
    // Library-wide, at two versions: the trapezoidal rule is numpy.trapz at 1.24.2 and numpy.trapezoid at 2.4.
    const q = { module: 'numpy', description: 'Integrate along the given axis using the composite trapezoidal rule.', scope: 'library' as const };
    assert.equal((knowledge.lookup(q, pins('numpy==1.24.2')) as MatchesAnswer).matches[0]!.api, 'numpy.trapz');
    assert.equal((knowledge.lookup(q, pins('numpy==2.4.0')) as MatchesAnswer).matches[0]!.api, 'numpy.trapezoid');
    const md = renderLookup(answer);
    assert.match(md, /^1\. `numpy\.linalg\.norm` \(function\) `norm\(x, ord=None, axis=None, keepdims=False\)` — Matrix or vector norm\./m);
  });

  test('readToolAnswer takes back what the rendering states, in Markdown and in text', () => {
    for (const markdown of [true, false]) {
      const missing = readToolAnswer(renderLookup(knowledge.lookup({ api: 'numpy.trapezoid' }, pins('numpy==1.24.2')), { markdown }));
      assert.deepEqual({ api: missing.api, exists: missing.exists, alternative: missing.alternative }, { api: 'numpy.trapezoid', exists: false, alternative: { api: 'numpy.trapz', signature: 'trapz(y, x=None, dx=1.0, axis=-1)' } });
      const present = readToolAnswer(renderLookup(knowledge.lookup({ api: 'numpy.ndarray.mean' }, pins('numpy==1.24.2')), { markdown }));
      assert.equal(present.apiKind, 'method');
      assert.equal(present.exists, true);
      assert.match(present.signatures[0]!, /^mean\(/);
      const matches = readToolAnswer(renderLookup(knowledge.lookup({ module: 'numpy.linalg', description: 'matrix or vector norm' }, pins('numpy==1.24.2')), { markdown }));
      assert.equal(matches.matches[0]!.api, 'numpy.linalg.norm');
      assert.equal(matches.matches[0]!.signature, 'norm(x, ord=None, axis=None, keepdims=False)');
    }
  });
});

describe('checking a snippet', () => {
  const CODE = 'import numpy as np\n\ndef area(samples):\n    u = np.unique(samples, sorted=True)\n    return np.trapezoid(samples, dx=0.5) + len(u)\n';

  test('the checker\'s findings at the pins, each with the editor\'s fix, and the code with the fixes applied', () => {
    const report = checkSnippet(parser, CODE, { catalog, pins: pins('numpy==1.24.2') }, knowledge);
    assert.deepEqual(report.findings.map((f) => [f.line, f.code, f.api]), [
      [4, 'anachronistic-parameter', 'numpy.unique'],
      [5, 'anachronistic-api', 'numpy.trapezoid'],
    ]);
    const trapezoid = report.findings[1]!;
    assert.equal(trapezoid.fix?.fixedLine?.trim(), 'return np.trapz(samples, dx=0.5) + len(u)');
    assert.match(report.findings[0]!.fix!.title, /Remove `sorted=`/);
    assert.equal(report.remainingAfterFixes, 0);
    assert.match(report.fixedCode!, /np\.unique\(samples\)/);
    const md = renderSnippetReport(report);
    assert.match(md, /^\*\*2 findings\*\* at numpy==1\.24\.2 \(requirements\.txt:2\):/);
    assert.match(md, /- line 5: error \[anachronistic-api\] `numpy\.trapezoid` needs numpy ≥ 2\.0 \(pinned 1\.24\.2\)/);
    assert.match(md, /\*\*Fix:\*\* Use `numpy\.trapz`, which exists at numpy 1\.24\.2 → `return np\.trapz\(samples, dx=0\.5\) \+ len\(u\)`/);
    assert.match(md, /\*\*With the fixes applied\*\* \(no findings left\):\n```python\n/);
  });

  test('positions relative to the file the snippet comes from, and the raise-the-pin fix when the manifest is readable', () => {
    const report = checkSnippet(parser, CODE, { catalog, pins: pins('numpy==1.24.2') }, knowledge, {
      file: 'src/area.py',
      firstLine: 10,
      readManifest: (f) => (f === 'requirements.txt' ? '# pins\nnumpy==1.24.2\n' : undefined),
    });
    assert.equal(report.findings[1]!.line, 14);
    // Raised as the editor raises it: to the version where every use works (trapezoid 2.0, unique's sorted= 2.3).
    assert.ok(report.findings[1]!.otherFixes.includes('Raise the pin to numpy==2.3.0 in requirements.txt (lowest tracked version where every use of numpy in this file works)'), report.findings[1]!.otherFixes.join('\n'));
    assert.match(renderSnippetReport(report, { markdown: false }), /- src\/area\.py:14:12: error \[anachronistic-api\]/);
  });

  test('clean code, untracked libraries and unpinned ones are said so', () => {
    assert.match(renderSnippetReport(checkSnippet(parser, 'import numpy as np\nnp.trapz([1])\n', { catalog, pins: pins('numpy==1.24.2') }, knowledge)), /No anachronisms:.* numpy==1\.24\.2/);
    assert.match(renderSnippetReport(checkSnippet(parser, 'import requests\nrequests.get\n', { catalog, pins: pins('numpy==1.24.2') }, knowledge)), /uses no library anachron tracks/);
    // The standard library is Python's: tracked, and checked where something pins Python.
    assert.match(renderSnippetReport(checkSnippet(parser, 'import os\nos.getcwd()\n', { catalog, pins: pins('numpy==1.24.2') }, knowledge)), /no pin for python/);
    assert.match(renderSnippetReport(checkSnippet(parser, 'import scipy\nscipy.integrate.trapz([1])\n', { catalog, pins: pins('numpy==1.24.2') }, knowledge)), /no pin for scipy/);
  });

  test('migrating the code to another version: the drift suite\'s migration notes', () => {
    const code = 'import numpy as np\nx = np.product([1, 2])\ny = np.trapz([1.0, 2.0])\n';
    const report = migrateSnippet(parser, code, { catalog, pins: pins('numpy==1.24.2') }, knowledge, 'np', '2.4.0');
    assert.equal(report.problem, null);
    assert.equal(report.from, '1.24.2');
    assert.deepEqual(report.items.map((i) => [i.line, i.api, i.replacement]), [
      [2, 'numpy.product', 'numpy.prod'],
      [3, 'numpy.trapz', 'numpy.trapezoid'],
    ]);
    const md = renderMigration(report);
    assert.match(md, /^### numpy 1\.24\.2 → 2\.4\.0: 2 changes/);
    assert.match(md, /Use `np\.trapezoid` instead\./);
    assert.match(renderMigration(migrateSnippet(parser, code, { catalog, pins: new Map() }, knowledge, 'numpy', '2.4.0')), /nothing pins numpy/);
  });
});

test('readToolAnswer keeps ** in code spans (signatures with **kwargs)', () => {
  const read = readToolAnswer('### `numpy.einsum` (function) — numpy==2.2.4 (x)\n**Exists at numpy 2.2.4:** yes.\n**Signature at 2.2.4:** `einsum(*operands, out=None, optimize=False, **kwargs)`\n');
  assert.deepEqual(read.signatures, ['einsum(*operands, out=None, optimize=False, **kwargs)']);
});

test('an API that imports at the pin but its documentation no longer lists: deprecated, and ranked after the documented one', () => {
  const answer = knowledge.lookup({ api: 'numpy.row_stack' }, pins('numpy==2.2.0')) as ApiAnswer;
  assert.equal(answer.verdict, 'present');
  assert.ok(answer.undocumentedSince, 'numpy 2.x deprecated row_stack');
  const md = renderLookup(answer);
  assert.match(md, /Exists at numpy 2\.2\.0:\*\* yes, but deprecated: its documentation lists it up to numpy \d/);
  assert.equal(readToolAnswer(md).deprecated, true);
  // vstack and row_stack share their summary: the documented one comes first, the other is marked.
  const search = knowledge.lookup({ module: 'numpy', description: 'Stack arrays in sequence vertically (row wise).', scope: 'library' }, pins('numpy==2.2.0')) as MatchesAnswer;
  assert.equal(search.matches[0]!.api, 'numpy.vstack');
  const rowStack = search.matches.find((m) => m.api === 'numpy.row_stack');
  assert.equal(rowStack?.deprecated, true);
  assert.match(renderLookup(search), /`numpy\.row_stack` \(function, deprecated\)/);
});
