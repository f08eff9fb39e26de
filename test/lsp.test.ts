// Language-server behaviour beyond single fixtures: edits, manifest changes, manifest problems, bad matrices.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { LspSession } from './support/lsp-session.js';

function project(pin: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-lsp-'));
  writeFileSync(join(dir, 'requirements.txt'), `${pin}\n`);
  return dir;
}

describe('language server', () => {
  test('diagnostics follow edits, and carry code, source and data', async () => {
    const dir = project('numpy==1.24.2');
    const session = new LspSession();
    try {
      await session.initialize(dir);
      const file = join(dir, 'a.py');
      const first = await session.open(file, 'import numpy as np\nnp.trapz([1])\n');
      assert.deepEqual(first, []);
      const second = await session.change(file, 2, 'import numpy as np\nnp.trapezoid([1])\n');
      assert.equal(second.length, 1);
      assert.equal(second[0]!.code, 'anachronistic-api');
      assert.equal(second[0]!.source, 'anachron');
      assert.equal(second[0]!.severity, 1);
      assert.deepEqual(second[0]!.range, { start: { line: 1, character: 0 }, end: { line: 1, character: 12 } });
      assert.deepEqual(
        { ...(second[0]!.data as object), availableIn: undefined },
        { library: 'numpy', api: 'numpy.trapezoid', parameter: null, pin: '1.24.2', requirement: 'numpy==1.24.2', pinSource: 'requirements.txt:1', availableIn: undefined, replacement: 'numpy.trapz' },
      );
      assert.match(second[0]!.message, /`numpy\.trapezoid` is not in numpy 1\.24\.2, requirements\.txt:1 pins numpy==1\.24\.2/);
      const third = await session.change(file, 3, 'import numpy as np\nnp.trapezoid(\n'); // half-typed
      assert.equal(third.length, 1);
    } finally {
      await session.close();
    }
  });

  test('editing the open requirements file re-checks open Python files with the unsaved pins', async () => {
    const dir = project('numpy==1.24.2');
    const session = new LspSession();
    try {
      await session.initialize(dir);
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
    } finally {
      await session.close();
    }
  });

  test('a broken matrices folder is reported to the user, not a silent dead server', async () => {
    const dir = project('numpy==1.24.2');
    const bad = mkdtempSync(join(tmpdir(), 'anachron-bad-matrices-'));
    writeFileSync(join(bad, 'numpy.sqlite'), 'garbage');
    const session = new LspSession();
    try {
      await session.initialize(dir, { matricesFolder: bad });
      const diagnostics = await session.open(join(dir, 'a.py'), 'import numpy as np\nnp.trapezoid([1])\n').catch(() => []);
      assert.deepEqual(diagnostics, []);
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(session.logs.some((l) => /showMessage: anachron: .*numpy\.sqlite: not a usable anachron matrix/.test(l)), session.logs.join('\n'));
    } finally {
      await session.close();
    }
  });
});
