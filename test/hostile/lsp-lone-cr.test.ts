// Files whose lines end in a lone CR (old Mac line ends), which LSP, pip and Python all read as line ends, through a
// real LSP session: the manifest's pin is found at its line, and the quick fix that raises it edits that line and
// keeps the file's line ends; a Python file's findings sit at the lines the editor shows.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fileUri, withSession } from '../support/lsp-session.js';
import { writeProject } from '../support/project.js';

type Edit = { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string };
type Action = { title: string; edit: { changes: Record<string, Edit[]> } };

/** `edits` applied to `text` as an LSP client applies them (lines end at \r\n, \n or \r). */
const applied = (text: string, edits: Edit[]) => TextDocument.applyEdits(TextDocument.create('file:///m', 'plaintext', 1, text), edits);

for (const [name, eol] of [['lone CR', '\r'], ['CRLF', '\r\n'], ['LF', '\n']] as const) {
  test(`a ${name} requirements file: the pin on its second line is raised there, its line ends kept`, async () => {
    const manifestText = ['scipy==1.11.4', 'numpy==1.24.2', '# the end', ''].join(eol);
    const dir = writeProject({ 'requirements.txt': manifestText });
    await withSession(dir, async (session) => {
      const file = join(dir, 'a.py');
      const diagnostics = await session.open(file, 'import numpy as np\ny = np.trapezoid([1, 2, 3])\n');
      assert.deepEqual(diagnostics.map((d) => [d.range.start.line, d.code]), [[1, 'anachronistic-api']]);
      const actions = (await session.connection.sendRequest('textDocument/codeAction', { textDocument: { uri: fileUri(file) }, range: diagnostics[0]!.range, context: { diagnostics } })) as Action[];
      const raise = actions.find((a) => a.title.startsWith('Raise the pin'));
      assert.ok(raise, `no raise-pin fix among ${actions.map((a) => a.title).join(' | ')}`);
      const manifest = fileUri(join(dir, 'requirements.txt'));
      assert.deepEqual(Object.keys(raise.edit.changes), [manifest]);
      assert.equal(applied(readFileSync(join(dir, 'requirements.txt'), 'utf8'), raise.edit.changes[manifest]!), ['scipy==1.11.4', 'numpy==2.0.0', '# the end', ''].join(eol));
    });
  });
}

test('a lone-CR Python file: findings at the lines the editor shows, the fix that rewrites the call on its line', async () => {
  const dir = writeProject({ 'requirements.txt': 'numpy==1.24.2\n' });
  await withSession(dir, async (session) => {
    const file = join(dir, 'a.py');
    const text = 'import numpy as np\rx = 1\ry = np.trapezoid([1, 2, 3])\r';
    const diagnostics = await session.open(file, text);
    assert.deepEqual(diagnostics.map((d) => [d.range.start.line, d.range.start.character, d.code]), [[2, 4, 'anachronistic-api']]);
    const actions = (await session.connection.sendRequest('textDocument/codeAction', { textDocument: { uri: fileUri(file) }, range: diagnostics[0]!.range, context: { diagnostics } })) as Action[];
    const rewrite = actions.find((a) => a.edit.changes[fileUri(file)]);
    assert.ok(rewrite, actions.map((a) => a.title).join(' | '));
    assert.equal(applied(text, rewrite.edit.changes[fileUri(file)]!), 'import numpy as np\rx = 1\ry = np.trapz([1, 2, 3])\r');
  });
});
