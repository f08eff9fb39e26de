// anachron.hover (issue 16, point 4), over a real LSP session with the bundled server and matrices: by default the
// timeline hover only on references with a finding (the call's keyword findings count), every reference with
// "always", none with "never", applied live.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileUri, withSession } from './support/lsp-session.js';
import { writeProject } from './support/project.js';

describe('anachron.hover', () => {
  test('flagged (default), always, never', async () => {
    const dir = writeProject({ 'requirements.txt': 'numpy==1.19.5\n' });
    const folder = fileUri(dir);
    await withSession(dir, async (session) => {
      const file = join(dir, 'a.py');
      const uri = fileUri(file);
      const diagnostics = await session.open(file, 'import numpy as np\nnp.mean([1])\nnp.unique([1], equal_nan=True)\nnp.trapezoid([1])\n');
      assert.deepEqual(diagnostics.map((d) => d.code), ['anachronistic-parameter', 'anachronistic-api']);
      const hover = async (line: number, character: number) =>
        ((await session.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character } })) as { contents: { value: string } } | null)?.contents.value ?? null;
      assert.equal(await hover(1, 4), null, 'np.mean is valid at the pin: no timeline over the language server\'s hover');
      assert.match((await hover(2, 4))!, /^\*\*numpy\.unique\*\*/, 'its equal_nan= is flagged');
      assert.match((await hover(3, 5))!, /^\*\*numpy\.trapezoid\*\*/);

      await session.connection.sendNotification('anachron/didChangeEditorSettings', { folders: [{ folder, settings: { hover: 'always' } }] });
      // The server reads its messages in order: the hover after the notification sees the new setting.
      assert.match((await hover(1, 4))!, /^\*\*numpy\.mean\*\*/);

      await session.connection.sendNotification('anachron/didChangeEditorSettings', { folders: [{ folder, settings: { hover: 'never' } }] });
      assert.equal(await hover(3, 5), null);
    });
  });
});

describe('hover on a pin', () => {
  test('an exact pin between tracked versions, a range, an untracked distribution', async () => {
    const dir = writeProject({ 'requirements.txt': 'numpy==1.26.1\nscipy>=1.10\nrequests==2.0\n' });
    await withSession(dir, async (session) => {
      const file = join(dir, 'requirements.txt');
      const uri = fileUri(file);
      await session.open(file, 'numpy==1.26.1\nscipy>=1.10\nrequests==2.0\n', 'pip-requirements');
      const hover = async (line: number) =>
        ((await session.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character: 2 } })) as { contents: { value: string } } | null)?.contents.value ?? null;
      const numpy = (await hover(0))!;
      assert.match(numpy, /^\*\*numpy==1\.26\.1\*\* — anachron tracks \d+ versions of numpy \(1\.16\.0–/);
      assert.match(numpy, /1\.26\.1 is not tracked: judged where 1\.26\.0 and 1\.26\.\d+ agree/);
      assert.match(numpy, /Around it: 1\.26\.0 · \*\*1\.26\.1\*\* · 1\.26\.\d+/);
      assert.match((await hover(1))!, /Checked at the \d+ tracked versions it allows: 1\.10\.\d+/);
      assert.equal(await hover(2), null, 'no matrix tracks requests');
    });
  });
});
