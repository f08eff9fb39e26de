// The agent requests of the VS Code client (anachron/lookup, checkSnippet, migrate, reviewChanges) over a real stdio
// session with the bundled server and matrices: the pins of the open file (unsaved manifest text included), the API
// under the cursor, a selection's positions, /migrate, and a review of a git working tree's changed lines.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { CheckSnippetResult, LookupResult, MigrateResult, ReviewChangesResult } from '../server/src/lsp/protocol.js';
import { fileUri as uri, withSession } from './support/lsp-session.js';
import { writeProject } from './support/project.js';

const project = (files: Record<string, string>) => writeProject(files, 'anachron-agent-');

const CODE = 'import numpy as np\n\n\ndef area(y):\n    return np.trapezoid(y, dx=0.5)\n';

describe('agent requests of the VS Code client', () => {
  test('lookup at the pins of the open file, by name and under the cursor; bad input is an error', async () => {
    const dir = project({ 'requirements.txt': '# pins\nnumpy==1.24.2\n', 'a.py': CODE });
    await withSession(dir, async (session) => {
      await session.open(join(dir, 'a.py'), CODE);
      const byName = (await session.connection.sendRequest('anachron/lookup', { input: { api: 'numpy.trapezoid' }, uri: uri(join(dir, 'a.py')) })) as LookupResult;
      assert.equal(byName.api, 'numpy.trapezoid');
      assert.match(byName.text, /numpy==1\.24\.2 \(requirements\.txt:2\)/);
      assert.match(byName.text, /Use instead:\*\* `numpy\.trapz`/);
      const underCursor = (await session.connection.sendRequest('anachron/lookup', { input: {}, uri: uri(join(dir, 'a.py')), position: { line: 4, character: 16 } })) as LookupResult;
      assert.equal(underCursor.api, 'numpy.trapezoid');
      const bad = (await session.connection.sendRequest('anachron/lookup', { input: { versions: 1 }, uri: uri(join(dir, 'a.py')) })) as { error: string };
      assert.match(bad.error, /unknown input "versions"/);
    });
  });

  test('checkSnippet: a selection at the file\'s pins (an unsaved manifest counts), with its position in the file and fix edits', async () => {
    const dir = project({ 'requirements.txt': 'numpy==2.2.4\n', 'a.py': CODE });
    await withSession(dir, async (session) => {
      // The manifest open with unsaved text pins another version.
      await session.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uri(join(dir, 'requirements.txt')), languageId: 'pip-requirements', version: 1, text: '# pins\nnumpy==1.24.2\n' } });
      await session.open(join(dir, 'a.py'), CODE);
      const selection = '    return np.trapezoid(y, dx=0.5)\n';
      // The selection alone: the file's imports say what np is.
      const result = (await session.connection.sendRequest('anachron/checkSnippet', { input: { code: selection }, uri: uri(join(dir, 'a.py')), firstLine: 5, withImports: true })) as CheckSnippetResult;
      assert.equal(result.findings.length, 1);
      assert.equal(result.findings[0]!.line, 5);
      assert.equal(result.findings[0]!.fix?.edits[0]?.newText, 'trapz');
      assert.match(result.text, /- a\.py:5:12: error \[anachronistic-api\] `numpy\.trapezoid` needs numpy ≥ 2\.0 \(pinned 1\.24\.2\) — requirements\.txt:2 pins/);
      assert.deepEqual(result.libraries, [{ library: 'numpy', pin: 'numpy==1.24.2 (requirements.txt:2)' }]);
      assert.equal(result.findings[0]!.fix?.edits[0]?.range.start.line, 0, 'edits are in the selection\'s own lines');
      assert.equal(result.fixedCode, '    return np.trapz(y, dx=0.5)\n');
    });
  });

  test('migrate: the code in view moved to another version, the library read from the code', async () => {
    const code = 'import numpy as np\nx = np.product([1, 2])\ny = np.trapz([1.0, 2.0])\n';
    const dir = project({ 'requirements.txt': 'numpy==1.24.2\n', 'a.py': code });
    await withSession(dir, async (session) => {
      const result = (await session.connection.sendRequest('anachron/migrate', { code, uri: uri(join(dir, 'a.py')), target: '2.4.0' })) as MigrateResult;
      assert.equal(result.changes, 2);
      assert.match(result.text, /numpy 1\.24\.2 → 2\.4\.0: 2 changes/);
      assert.match(result.text, /Use `np\.prod` instead/);
      const named = (await session.connection.sendRequest('anachron/migrate', { code, uri: uri(join(dir, 'a.py')), target: 'numpy==1.24.2' })) as MigrateResult;
      assert.equal(named.changes, 0);
      const bad = (await session.connection.sendRequest('anachron/migrate', { code, uri: uri(join(dir, 'a.py')), target: 'latest' })) as { error: string };
      assert.match(bad.error, /name the version to move to/);
    });
  });

  test('reviewChanges: only the lines changed since HEAD, and untracked files whole', async () => {
    const dir = project({ 'requirements.txt': 'numpy==1.24.2\n', 'old.py': 'import numpy as np\nnp.trapezoid([1.0])\n' });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'base');
    // A change adds one anachronism to old.py (the old one is not part of it) and a new file with another.
    writeFileSync(join(dir, 'old.py'), 'import numpy as np\nnp.trapezoid([1.0])\nnp.unique([1], sorted=True)\n');
    writeFileSync(join(dir, 'new.py'), 'import numpy as np\nnp.trapz([1.0])\nnp.trapezoid([1.0])\n');
    await withSession(dir, async (session) => {
      const result = (await session.connection.sendRequest('anachron/reviewChanges', { folderUri: uri(dir) })) as ReviewChangesResult;
      assert.equal(result.files, 2);
      assert.deepEqual(result.findings.map((f) => [f.uri!.slice(-6), f.line, f.api]), [
        ['new.py', 3, 'numpy.trapezoid'],
        ['old.py', 3, 'numpy.unique'],
      ]);
      assert.match(result.text, /\*\*2 findings\*\* on the lines changed since HEAD, in 2 of 2 changed Python files/);
      assert.match(result.text, /#### old\.py\n- old\.py:3:16: error \[anachronistic-parameter\]/);
      assert.match(result.text, /\*\*Fix:\*\* Remove `sorted=`/);
      const outside = (await session.connection.sendRequest('anachron/reviewChanges', { folderUri: uri(tmpdir()) })) as { error: string };
      assert.ok('error' in outside);
    });
  });
});
