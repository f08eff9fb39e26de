// Random edit sequences and random manifest bytes through a real LSP session: the server must answer every
// request, never crash and never hang. Deterministic (seeded). The long run:
//   ANACHRON_FUZZ_EDITS=5000 ANACHRON_FUZZ_MANIFESTS=500 ANACHRON_FUZZ_SEED=7 node --import tsx --test test/lsp-fuzz.test.ts
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { LspSession } from './support/lsp-session.js';
import { fuzzEdits, randomBytes, seededRandom } from './support/fuzz.js';

const EDITS = Number(process.env.ANACHRON_FUZZ_EDITS ?? 300);
const MANIFESTS = Number(process.env.ANACHRON_FUZZ_MANIFESTS ?? 30);
const SEED = Number(process.env.ANACHRON_FUZZ_SEED ?? 20261130);

const SEED_TEXT = [
  'import numpy as np',
  'from numpy import linalg as la, trapz',
  'rng = np.random.default_rng(0)',
  'x = np.zeros(3).tostring()',
  'try:\n    from numpy import trapezoid\nexcept ImportError:\n    trapezoid = np.trapz',
  'def f(a, *b, c=np.float_, **d):\n    return np.unique(a, equal_nan=True, axis=0)',
  'class K(np.ndarray):\n    @np.vectorize\n    def g(self): return la.norm(self, ord=2)',
  '# anachron: ignore',
  "s = f'{np.pi:.2f} é€ 𝔘'",
].join('\n');

describe('fuzzing the language server', () => {
  test(`${EDITS} random edits to a Python file and ${MANIFESTS} random manifests: every request answered, no crash`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-fuzz-'));
    writeFileSync(join(dir, 'requirements.txt'), 'numpy==1.24.2\n');
    const session = new LspSession();
    const random = seededRandom(SEED);
    try {
      await session.initialize(dir);
      const file = join(dir, 'a.py');
      const uri = pathToFileURL(file).toString();
      await session.open(file, SEED_TEXT);
      let text = SEED_TEXT;
      let version = 1;
      for (const edit of fuzzEdits(random, EDITS, () => text)) {
        text = edit.apply(text);
        await session.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: [{ range: edit.range, text: edit.text }] });
        if (version % 25 === 0) {
          const lines = text.split('\n');
          const line = Math.floor(random() * lines.length);
          const hover = session.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character: Math.floor(random() * ((lines[line]?.length ?? 0) + 1)) } });
          await Promise.race([hover, new Promise((_, reject) => setTimeout(() => reject(new Error(`hover hung at edit ${version}`)), 10_000))]);
        }
      }
      const final = await session.nextDiagnostics(uri, 20_000).catch(async () => {
        // The last edit may have produced no change in diagnostics yet: force one more round trip.
        await session.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: [{ text: text + '\n' }] });
        return session.nextDiagnostics(uri, 20_000);
      });
      assert.ok(Array.isArray(final.diagnostics));

      const req = join(dir, 'requirements.txt');
      const reqUri = pathToFileURL(req).toString();
      await session.open(req, 'numpy==1.24.2\n', 'pip-requirements');
      for (let i = 0; i < MANIFESTS; i++) {
        const next = session.nextDiagnostics(reqUri, 20_000);
        await session.connection.sendNotification('textDocument/didChange', { textDocument: { uri: reqUri, version: i + 2 }, contentChanges: [{ text: randomBytes(random, 200) }] });
        await next;
      }
      const alive = await session.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 8 } });
      assert.ok(alive === null || typeof alive === 'object');
      assert.ok(!session.logs.some((l) => /checking .* failed/.test(l)), session.logs.filter((l) => /failed/.test(l)).join('\n'));
    } finally {
      await session.close();
    }
  });
});
