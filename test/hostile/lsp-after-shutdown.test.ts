// The language server after `shutdown` (LSP 3.17): every request but exit is refused with InvalidRequest, edits are
// ignored, nothing is checked against the closed matrices, and nothing is logged as an error; exit still ends it.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ErrorCodes, ResponseError } from 'vscode-jsonrpc/node';
import { fileUri, withSession } from '../support/lsp-session.js';

test('after shutdown: hover, custom requests and a second shutdown get InvalidRequest; edits are ignored; no error logged', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-lsp-shutdown-'));
  writeFileSync(join(dir, 'requirements.txt'), 'numpy==1.24.2\n');
  await withSession(dir, async (session) => {
    const file = join(dir, 'a.py');
    const uri = fileUri(file);
    assert.equal((await session.open(file, 'import numpy as np\nnp.trapezoid([1])\n')).length, 1);
    await session.connection.sendRequest('shutdown');
    const refused = async (method: string, params: object | undefined) => {
      const e = await session.connection.sendRequest(method, params).then(() => assert.fail(`${method} was answered after shutdown`), (x: unknown) => x);
      assert.ok(e instanceof ResponseError, `${method}: ${String(e)}`);
      assert.equal(e.code, ErrorCodes.InvalidRequest, `${method}: ${e.message}`);
    };
    await refused('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } });
    await refused('anachron/pins', { uri });
    await refused('shutdown', undefined);
    // An edit after shutdown is dropped: no check runs on the closed matrices (it would log a TypeError).
    await session.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: 'import numpy as np\nnp.trapz([1])\n' }] });
    await refused('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } });
    assert.equal(session.latest.get(uri)?.version, 1);
    assert.doesNotMatch(session.logs.join('\n'), /TypeError|internal error|closed/i);
  });
});
