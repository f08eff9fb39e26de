// A large document in a real language server session: its first analysis reads the file's facts in slices, so the
// server answers requests meanwhile (before, one synchronous analysis of a 100,000-line file held every request for
// seconds); a hover sent with the open is answered after that analysis, correctly; an edit during the analysis
// stops it, and only the edited version's diagnostics are published.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Hover, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { fileUri, withSession } from '../support/lsp-session.js';

/** 20,000 lines of numpy calls: 2,000 functions, each using np.trapezoid (absent from numpy 1.24.2). */
function largeText(): string {
  const lines = ['import numpy as np', ''];
  for (let i = 0; i < 2000; i++) {
    lines.push(`def f${i}(values):`, '    arr = np.asarray(values, dtype=np.float64)', '    total = np.trapezoid(arr, dx=0.5)', '    uniq = np.unique(arr, return_counts=True)', '    norm = np.linalg.norm(arr, ord=2)', '    rng = np.random.default_rng(1)', '    noise = rng.normal(size=arr.shape)', '    return total, uniq, norm, noise', '', '');
  }
  return lines.join('\n');
}

test('a large document: requests are answered during its first analysis, a hover sent with the open gets its answer, an edit stops the stale analysis', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-lsp-large-'));
  writeFileSync(join(dir, 'requirements.txt'), 'numpy==1.24.2\n');
  await withSession(dir, async (session) => {
    const small = join(dir, 'small.py');
    assert.equal((await session.open(small, 'import numpy as np\nnp.trapezoid([1])\n')).length, 1);
    const big = join(dir, 'big.py');
    const uri = fileUri(big);
    const text = largeText();
    const order: string[] = [];
    const published = session.nextDiagnostics(uri, 300_000).then((p) => (order.push('diagnostics'), p));
    await session.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text } });
    // A hover on the open document waits for its analysis; one on the small document is answered meanwhile.
    const early = session.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 4, character: 15 } }).then((h) => (order.push('hover big'), h));
    const other = await session.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri: fileUri(small) }, position: { line: 1, character: 4 } });
    order.push('hover small');
    assert.match(JSON.stringify(other?.contents), /trapezoid/);
    const first: PublishDiagnosticsParams = await published;
    const hover = await early;
    assert.deepEqual(order, ['hover small', 'diagnostics', 'hover big'], 'the small document\'s hover is not held up by the large one\'s analysis');
    assert.equal(first.version, 1);
    assert.equal(first.diagnostics.filter((d) => d.code === 'anachronistic-api').length, 2000);
    assert.match(JSON.stringify(hover?.contents), /trapezoid/, 'the hover sent with the open answers for np.trapezoid');

    // Closed and opened again, then edited at once: the analysis of version 1 stops; version 2's diagnostics come first.
    await session.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
    await session.nextDiagnostics(uri); // the close clears them
    const next = session.nextDiagnostics(uri, 300_000);
    await session.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text } });
    const edited = text.replace('def f0(values):\n    arr = np.asarray(values, dtype=np.float64)\n    total = np.trapezoid(arr, dx=0.5)', 'def f0(values):\n    arr = np.asarray(values, dtype=np.float64)\n    total = np.trapz(arr, dx=0.5)');
    await session.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: edited }] });
    const after = await next;
    assert.equal(after.version, 2, 'the stale analysis of version 1 published nothing');
    assert.equal(after.diagnostics.filter((d) => d.code === 'anachronistic-api').length, 1999);
    assert.doesNotMatch(session.logs.join('\n'), /internal error|TypeError/i);
  });
});
