// "Fix all in file" (core/fix-all.ts) and the raise to every use (core/lowest-version.ts), over plain data and over a
// real LSP session with the bundled server and matrices (issue 16, point 5).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { planFixAll } from '../server/src/core/fix-all.js';
import type { Fix, FixableFinding } from '../server/src/core/fixes.js';
import { fileUri, withSession } from './support/lsp-session.js';
import { writeProject } from './support/project.js';

const at = (line: number, start: number, end: number) => ({ start: { line, column: start }, end: { line, column: end } });
const finding = (library: string, line: number, api: string): FixableFinding => ({ code: 'anachronistic-api', range: at(line, 3, 3 + api.length), api: `${library}.${api}`, parameter: null, replacement: null, availableIn: [], pin: '1.0', pinSource: 'requirements.txt:1', library });
const rewrite = (line: number, text: string): Fix => ({ title: 'use', kind: 'use-replacement', preferred: true, edits: [{ range: at(line, 3, 8), newText: text }] });
const raise = (to: string, forAllUses: boolean): Fix => ({ title: 'raise', kind: 'raise-pin', preferred: false, forAllUses, edits: [], manifest: { file: 'requirements.txt', edits: [{ range: at(0, 5, 9), newText: `==${to}` }] } });
const silence: Fix = { title: 'ignore', kind: 'suppress', preferred: false, edits: [{ range: at(9, 0, 0), newText: '#' }] };

describe('fix all in file', () => {
  test('a library whose every finding has a code fix keeps its pin: the uses are rewritten, in order', () => {
    const fixes = new Map<string, Fix[]>([
      ['numpy.b', [rewrite(4, 'B'), raise('2.0', true), silence]],
      ['numpy.a', [rewrite(2, 'A'), raise('2.0', true), silence]],
    ]);
    const plan = planFixAll([finding('numpy', 4, 'b'), finding('numpy', 2, 'a')], (f) => fixes.get(f.api)!);
    assert.deepEqual(plan.edits.map((e) => e.newText), ['A', 'B']);
    assert.equal(plan.manifests.size, 0);
    assert.equal(plan.fixed, 2);
    assert.deepEqual(plan.summary, ['numpy: 2 uses rewritten for the pinned version']);
  });

  test('one finding without a code fix: the pin is raised once to the version for every use, the code left as it is', () => {
    const fixes = new Map<string, Fix[]>([
      ['numpy.a', [rewrite(2, 'A'), raise('2.0', true), silence]],
      ['numpy.b', [raise('2.0', true), silence]],
      ['scipy.c', [silence]],
    ]);
    const plan = planFixAll([finding('numpy', 2, 'a'), finding('numpy', 4, 'b'), finding('scipy', 5, 'c')], (f) => fixes.get(f.api)!);
    assert.deepEqual(plan.edits, []);
    assert.deepEqual([...plan.manifests].map(([file, edits]) => [file, edits.map((e) => e.newText)]), [['requirements.txt', ['==2.0']]]);
    assert.equal(plan.fixed, 2, 'silencing is no fix');
    assert.deepEqual(plan.summary, ['numpy==2.0 in requirements.txt']);
  });

  test('when no tracked version has every use, no raise: what has a code fix is rewritten, the rest left', () => {
    const fixes = new Map<string, Fix[]>([
      ['numpy.a', [rewrite(2, 'A'), raise('2.0', false)]],
      ['numpy.b', [raise('1.5', false)]],
    ]);
    const plan = planFixAll([finding('numpy', 2, 'a'), finding('numpy', 4, 'b')], (f) => fixes.get(f.api)!);
    assert.deepEqual(plan.edits.map((e) => e.newText), ['A']);
    assert.equal(plan.manifests.size, 0);
    assert.equal(plan.fixed, 1);
  });
});

describe('the raise and fix all over LSP', () => {
  test('numpy==1.16.6 with default_rng (1.17), numpy.typing (1.20) and trapezoid (2.0): every raise goes to 2.0.0; source.fixAll raises once', async () => {
    const dir = writeProject({ 'requirements.txt': 'numpy==1.16.6\n' });
    await withSession(dir, async (session) => {
      const file = join(dir, 'a.py');
      const uri = fileUri(file);
      const manifest = fileUri(join(dir, 'requirements.txt'));
      const diagnostics = await session.open(file, 'import numpy as np\nimport numpy.typing as npt\nrng = np.random.default_rng()\nx = np.trapezoid([1])\n');
      assert.deepEqual(diagnostics.map((d) => d.message), [
        '`numpy.typing` needs numpy ≥ 1.20 (pinned 1.16.6)',
        '`numpy.random.default_rng` needs numpy ≥ 1.17 (pinned 1.16.6)',
        '`numpy.trapezoid` needs numpy ≥ 2.0 (pinned 1.16.6)',
      ]);
      type Action = { title: string; kind?: string; edit: { changes: Record<string, { newText: string }[]> } };
      const rng = (await session.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: diagnostics[1]!.range, context: { diagnostics: [diagnostics[1]] } })) as Action[];
      // It was numpy==1.17.0 (the version that has default_rng), which left numpy.typing and trapezoid flagged.
      assert.equal(rng[0]!.title, 'Raise the pin to numpy==2.0.0 in requirements.txt (lowest tracked version where every use of numpy in this file works)');
      assert.deepEqual(rng[0]!.edit.changes[manifest]!.map((e) => e.newText), ['==2.0.0']);
      assert.equal(rng.at(-1)!.title, 'Fix all 3 anachron findings in this file (numpy==2.0.0 in requirements.txt)');

      const fixAll = (await session.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: diagnostics[0]!.range, context: { diagnostics: [], only: ['source.fixAll'] } })) as Action[];
      assert.deepEqual(fixAll.map((a) => a.kind), ['source.fixAll.anachron']);
      assert.deepEqual(Object.keys(fixAll[0]!.edit.changes), [manifest]);
      assert.deepEqual(fixAll[0]!.edit.changes[manifest]!.map((e) => e.newText), ['==2.0.0']);
      const quickOnly = (await session.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: diagnostics[0]!.range, context: { diagnostics: [], only: ['quickfix'] } })) as Action[];
      assert.deepEqual(quickOnly, [], 'a quick-fix request with no diagnostics gets no fix-all');
    });
  });

  test('every finding with a version-correct alternative: fix all rewrites the code and leaves the pin', async () => {
    const dir = writeProject({ 'requirements.txt': 'numpy==1.24.2\n' });
    await withSession(dir, async (session) => {
      const file = join(dir, 'a.py');
      const uri = fileUri(file);
      const diagnostics = await session.open(file, 'import numpy as np\na = np.trapezoid([1])\nb = np.trapezoid([2])\n');
      assert.equal(diagnostics.length, 2);
      const fixAll = (await session.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: diagnostics[0]!.range, context: { diagnostics: [], only: ['source.fixAll.anachron'] } })) as { title: string; edit: { changes: Record<string, { newText: string }[]> } }[];
      assert.equal(fixAll[0]!.title, 'Fix all anachron findings in this file (numpy: 2 uses rewritten for the pinned version)');
      assert.deepEqual(Object.keys(fixAll[0]!.edit.changes), [uri]);
      assert.deepEqual(fixAll[0]!.edit.changes[uri]!.map((e) => e.newText), ['trapz', 'trapz']);
    });
  });
});
