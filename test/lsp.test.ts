// Language-server behaviour beyond single fixtures: edits, manifest changes, manifest problems, bad matrices.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { withSession } from './support/lsp-session.js';

function project(pin: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-lsp-'));
  writeFileSync(join(dir, 'requirements.txt'), `${pin}\n`);
  return dir;
}

describe('language server', () => {
  test('diagnostics follow edits, and carry code, source and data', async () => {
    const dir = project('numpy==1.24.2');
    await withSession(dir, async (session) => {
      const file = join(dir, 'a.py');
      const first = await session.open(file, 'import numpy as np\nnp.trapz([1])\n');
      assert.deepEqual(first, []);
      const second = await session.change(file, 2, 'import numpy as np\nnp.trapezoid([1])\n');
      assert.equal(second.length, 1);
      assert.equal(second[0]!.code, 'anachronistic-api');
      assert.equal(second[0]!.source, 'anachron');
      assert.equal(second[0]!.severity, 1);
      assert.deepEqual(second[0]!.range, { start: { line: 1, character: 0 }, end: { line: 1, character: 12 } });
      // of the versions the API is in, the data carries what the quick fixes read: the lowest, the lowest above the pin
      assert.deepEqual(second[0]!.data, { library: 'numpy', api: 'numpy.trapezoid', parameter: null, pin: '1.24.2', requirement: 'numpy==1.24.2', pinSource: 'requirements.txt:1', availableIn: ['2.0.0'], replacement: 'numpy.trapz' });
      assert.equal(second[0]!.message, '`numpy.trapezoid` needs numpy ≥ 2.0 (pinned 1.24.2)');
      // the pin's source points at its manifest line; the history and the alternative, one entry, at the finding
      const related = second[0]!.relatedInformation ?? [];
      assert.equal(related.length, 2);
      assert.equal(related[0]!.message, 'requirements.txt:1 pins numpy==1.24.2');
      assert.match(related[0]!.location.uri, /requirements\.txt$/);
      assert.equal(related[0]!.location.range.start.line, 0);
      assert.match(related[1]!.message, /^in numpy 2\.0\.0–[\d.]+ \(added between 1\.26\.\d+ and 2\.0\.0\); use `numpy\.trapz`, which has the same documentation$/);
      assert.deepEqual(related[1]!.location.range, second[0]!.range);
      const third = await session.change(file, 3, 'import numpy as np\nnp.trapezoid(\n'); // half-typed
      assert.equal(third.length, 1);
    });
  });

  test('editing the open requirements file re-checks open Python files with the unsaved pins', async () => {
    const dir = project('numpy==1.24.2');
    await withSession(dir, async (session) => {
      const file = join(dir, 'a.py');
      assert.equal((await session.open(file, 'import numpy as np\nnp.trapezoid([1])\n')).length, 1);
      const req = join(dir, 'requirements.txt');
      const pyUri = pathToFileURL(file).toString();
      await session.open(req, 'numpy==1.24.2\n', 'pip-requirements');
      const rechecked = session.nextDiagnostics(pyUri);
      const reqDiagnostics = session.nextDiagnostics(pathToFileURL(req).toString());
      await session.connection.sendNotification('textDocument/didChange', { textDocument: { uri: pathToFileURL(req).toString(), version: 2 }, contentChanges: [{ text: 'numpy==2.2.4\nscipy=1\n' }] });
      assert.deepEqual((await rechecked).diagnostics, []);
      const problems = (await reqDiagnostics).diagnostics;
      assert.equal(problems.length, 1);
      assert.equal(problems[0]!.range.start.line, 1);
      assert.equal(problems[0]!.code, 'manifest-problem');
    });
  });

  test('an open manifest counts under any spelling of its URI (localhost, escaped characters)', async () => {
    const dir = project('numpy==2.2.4');
    await withSession(dir, async (session) => {
      // The editor's spelling of requirements.txt differs from the one the server would build from the path.
      const odd = `file://localhost${pathToFileURL(dir).pathname}/requirements%2Etxt`;
      const reqDiagnostics = session.nextDiagnostics(odd);
      await session.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: odd, languageId: 'pip-requirements', version: 1, text: 'numpy==1.24.2\n' } });
      await reqDiagnostics;
      // Checked at the unsaved pin (1.24.2), not the one on disk (2.2.4).
      const found = await session.open(join(dir, 'a.py'), 'import numpy as np\nnp.trapezoid([1])\n');
      assert.deepEqual(found.map((d) => (d.data as { pin: string }).pin), ['1.24.2']);
    });
  });

  test('a broken matrices folder is reported to the user, not a silent dead server', async () => {
    const dir = project('numpy==1.24.2');
    const bad = mkdtempSync(join(tmpdir(), 'anachron-bad-matrices-'));
    writeFileSync(join(bad, 'numpy.sqlite'), 'garbage');
    await withSession(dir, async (session) => {
      const diagnostics = await session.open(join(dir, 'a.py'), 'import numpy as np\nnp.trapezoid([1])\n').catch(() => []);
      assert.deepEqual(diagnostics, []);
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(session.logs.some((l) => /showMessage: anachron: .*numpy\.sqlite: not a usable anachron matrix/.test(l)), session.logs.join('\n'));
    }, { matricesFolder: bad });
  });

  test('hover shows the timeline, the signature at the pin and what changes after it', async () => {
    const dir = project('numpy==1.19.5');
    await withSession(dir, async (session) => {
      const file = join(dir, 'a.py');
      await session.open(file, 'import numpy as np\nnp.unique([1], equal_nan=True)\n');
      const hover = (await session.connection.sendRequest('textDocument/hover', { textDocument: { uri: pathToFileURL(file).toString() }, position: { line: 1, character: 5 } })) as { contents: { value: string } };
      const text = hover.contents.value;
      assert.match(text, /\*\*numpy\.unique\*\* \(function\) — numpy==1\.19\.5 from requirements\.txt:1/);
      // bands of versions that agree; the one holding the pin in bold
      assert.match(text, /^\| \*\*1\.16\.0–1\.22\.4 \(\d+\)\*\* ◀ pin \| █ present \| `unique\(ar, return_index=False, return_inverse=False, return_counts=False, axis=None\)` \|$/m);
      assert.match(text, /^\| 1\.23\.0–\S+ \(\d+\) \| █ present \| `unique\(.*equal_nan=True\)` \|$/m);
      assert.match(text, /At 1\.19\.5: `unique\(ar, return_index=False, return_inverse=False, return_counts=False, axis=None\)`/);
      assert.match(text, /After 1\.19\.5: `equal_nan` added in 1\.23\.0; `sorted` added in 2\.3\.0\./);
      const none = await session.connection.sendRequest('textDocument/hover', { textDocument: { uri: pathToFileURL(file).toString() }, position: { line: 1, character: 20 } });
      assert.equal(none, null);
    });
  });

  test('quick fixes: use the version-correct API, drop the keyword, raise the pin, silence the line', async () => {
    const dir = project('numpy==1.19.5  # pinned for the cluster');
    await withSession(dir, async (session) => {
      const file = join(dir, 'a.py');
      const uri = pathToFileURL(file).toString();
      const diagnostics = await session.open(file, 'import numpy as np\nnp.trapezoid([1])\nnp.unique([1], return_counts=True, equal_nan=True)\n');
      assert.deepEqual(diagnostics.map((d) => d.code), ['anachronistic-api', 'anachronistic-parameter']);
      assert.match(String(diagnostics[0]!.codeDescription?.href), /^file:.*\/docs\/rules\/anachronistic-api\.md$/);
      const actions = (d: (typeof diagnostics)[number]) =>
        session.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } }) as Promise<{ title: string; isPreferred?: boolean; edit: { changes: Record<string, { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[]> } }[]>;
      const api = await actions(diagnostics[0]!);
      assert.deepEqual(api.map((a) => a.title), [
        'Use `numpy.trapz`, which exists at numpy 1.19.5',
        // np.unique(equal_nan=) needs 1.24, trapezoid 2.0: the raise is for every use of numpy in the file.
        'Raise the pin to numpy==2.0.0 in requirements.txt (lowest tracked version where every use of numpy in this file works)',
        'Ignore `anachronistic-api` on this line',
        'Fix all 2 anachron findings in this file (numpy==2.0.0 in requirements.txt)',
      ]);
      assert.deepEqual(api[0]!.edit.changes[uri], [{ range: { start: { line: 1, character: 3 }, end: { line: 1, character: 12 } }, newText: 'trapz' }]);
      assert.deepEqual(api[1]!.edit.changes[pathToFileURL(join(dir, 'requirements.txt')).toString()], [{ range: { start: { line: 0, character: 5 }, end: { line: 0, character: 13 } }, newText: '==2.0.0' }]);
      assert.deepEqual(api[2]!.edit.changes[uri], [{ range: { start: { line: 1, character: 17 }, end: { line: 1, character: 17 } }, newText: '  # anachron: ignore[anachronistic-api]' }]);
      const keyword = await actions(diagnostics[1]!);
      assert.equal(keyword[0]!.title, 'Remove `equal_nan=`, which numpy 1.19.5 does not accept');
      assert.deepEqual(keyword[0]!.edit.changes[uri], [{ range: { start: { line: 2, character: 33 }, end: { line: 2, character: 49 } }, newText: '' }]);
    });
  });

  test('a removed API is tagged deprecated', async () => {
    const dir = project('numpy==2.4.6');
    await withSession(dir, async (session) => {
      const [d] = await session.open(join(dir, 'a.py'), 'import numpy as np\nnp.trapz([1])\n');
      assert.deepEqual(d!.tags, [2]);
    });
  });

  test('edits re-parse incrementally and stay correct', async () => {
    const dir = project('numpy==1.24.2');
    await withSession(dir, async (session) => {
      const file = join(dir, 'a.py');
      const uri = pathToFileURL(file).toString();
      await session.open(file, 'import numpy as np\n\nx = 1\n');
      let text = 'import numpy as np\n\nx = 1\n';
      let version = 1;
      for (const piece of ['np.', 'trape', 'zoid', '([1])\n']) {
        const at = text.length;
        text += piece;
        const lines = text.slice(0, at).split('\n');
        const next = session.nextDiagnostics(uri);
        await session.connection.sendNotification('textDocument/didChange', {
          textDocument: { uri, version: ++version },
          contentChanges: [{ range: { start: { line: lines.length - 1, character: lines[lines.length - 1]!.length }, end: { line: lines.length - 1, character: lines[lines.length - 1]!.length } }, text: piece }],
        });
        await next;
      }
      const final = session.latest.get(uri)!.diagnostics;
      assert.deepEqual(final.map((d) => `${d.code} ${(d.data as { api: string }).api} ${d.range.start.line}:${d.range.start.character}`), ['anachronistic-api numpy.trapezoid 3:0']);
    });
  });
});
