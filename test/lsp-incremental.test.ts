// The language server analyses an edited document incrementally (lsp/document-analyses.ts): it re-reads the chunks an
// edit changed and re-checks only references it has not checked under the same pins. Whatever it publishes must be
// what a fresh analysis of the same text gives. Seeded random edit sequences through a real LSP session — typing,
// deleting, pasting and moving lines, bursts of edits, manifest and [tool.anachron] edits — compare each published
// set of diagnostics with a full analysis of the document's text (fresh parse, no caches) in this process.
// The long run (reported in notes, not part of the default suite):
//   ANACHRON_DIFF_SEQUENCES=10000 ANACHRON_DIFF_SEED=7 node --import tsx --test test/lsp-incremental.test.ts
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { analyzeSyntaxWhole } from '../server/src/core/analyze.js';
import { fileSyntax } from '../server/src/core/python/file-syntax.js';
import { findingToDiagnostic, setRulesFolder } from '../server/src/lsp/to-diagnostic.js';
import { loadPythonParser, type PythonParser } from '../server/src/parser/python-parser.js';
import { openMatrixCatalog, type LoadedCatalog } from '../server/src/store/catalog.js';
import { defaultMatricesFolder } from '../server/src/store/matrices-folder.js';
import { diskReader, pinsForFile, type ManifestReader } from '../server/src/workspace/manifests.js';
import { seededRandom } from './support/fuzz.js';
import { LspSession, REPO } from './support/lsp-session.js';

const SEQUENCES = Number(process.env.ANACHRON_DIFF_SEQUENCES ?? 300);
const EDITS = Number(process.env.ANACHRON_DIFF_EDITS ?? 6);
const SEED = Number(process.env.ANACHRON_DIFF_SEED ?? 20261201);
/** A publish later than this counts as a hang (reported); one that never comes within HANG_LIMIT_MS fails the test. */
const SLOW_MS = 1000;
const HANG_LIMIT_MS = 20_000;

/** Starting documents: the constructs whose meaning reaches across chunks (aliases, star imports, guards, classes). */
const DOCUMENTS = [
  [
    'import numpy as np',
    'from numpy import linalg as la, trapz',
    '',
    'def area(y, dx=1.0):',
    '    return np.trapezoid(y, dx=dx)',
    '',
    'class Grid(np.ndarray):',
    '    step = np.float_(0.5)',
    '',
    '    def norm(self):',
    '        return la.norm(self, ord=2)',
    '',
    '    def unique(self):',
    '        return np.unique(self, equal_nan=True)',
    '',
    'rng = np.random.default_rng(0)',
    'values = rng.integers(0, 10, size=3)',
    'print(np.zeros(3).tostring())',
  ],
  [
    'import numpy',
    'from numpy import *',
    '',
    'try:',
    '    from numpy import trapezoid',
    'except ImportError:',
    '    trapezoid = numpy.trapz',
    '',
    'if not hasattr(numpy, "in1d"):',
    '    raise ImportError("numpy too new")',
    '',
    'total = trapezoid([1, 2]) + in1d([1], [2]).sum()',
    'x = asfarray([1])  # anachron: ignore[anachronistic-api]',
    'NP2 = numpy.__version__ >= "2"',
    'y = numpy.row_stack([x]) if NP2 else numpy.vstack([x])',
  ],
  [
    'import numpy as np',
    'import scipy.integrate as si',
    'fft = np.fft',
    'helper = fft.fftfreq',
    '',
    'class Outer:',
    '    class Inner:',
    '        value = np.product([1, 2])',
    '',
    '    def run(self, np=None):',
    '        return np.anything()',
    '',
    '    @staticmethod',
    '    def simpson(y):',
    '        return si.simps(y, even="avg")',
    '',
    'if hasattr(np, "trapezoid"):',
    '    area = np.trapezoid',
    'else:',
    '    area = np.trapz',
    'np.trapezoid = np.trapz',
  ],
  // Chunks that keep their references only while nothing else changes what they read: identical chunks, a decorated
  // class under a version check (its guard reaches over its body's chunks), builtins a later line may shadow,
  // exception aliases, instances, postponed annotations.
  [
    'from __future__ import annotations',
    'import sys',
    'import numpy as np',
    '_ERRORS = (ImportError, AttributeError)',
    '',
    'def first(y) -> np.ndarray:',
    '    return np.trapezoid(y)',
    '',
    'def first(y) -> np.ndarray:',
    '    return np.trapezoid(y)',
    '',
    '@np.testing.dec.skipif(sys.version_info < (3, 11), reason="old")',
    'class TestGroups:',
    '    def test_group(self):',
    '        raise ExceptionGroup("e", [ValueError()])',
    '',
    'try:',
    '    from numpy import in1d',
    'except _ERRORS:',
    '    in1d = None',
    '',
    'rng = np.random.default_rng(0)',
    'pairs = list(zip(rng.integers(0, 3, size=2), "ab".removeprefix("a")))',
  ],
];

/** Pieces typed or pasted: names that rebind, imports, guards, calls, keywords, brackets, quotes and line breaks. */
const PIECES = [
  'np.', 'np.trapezoid(', 'np.trapz(', 'np.unique(x, equal_nan=True)', 'la.norm(', ', ord=2', 'axis=0', ')', '(', '[', ']',
  ':', '\n', '\n    ', '    ', ',', ' = ', '"', "'", '#', ' # anachron: ignore', 'import numpy as np\n', 'import numpy as la\n',
  'from numpy import *\n', 'from numpy import trapezoid\n', 'np = None\n', 'la = np.linalg\n', 'trapz = 3\n', 'def f(np):\n    ',
  'class C:\n    ', 'class D(np.ndarray):\n    x = np.float_\n', 'try:\n    ', 'except ImportError:\n    pass\n',
  'if not hasattr(np, "trapezoid"):\n    raise ImportError\n', 'NP2 = np.__version__ >= "2"\n', 'if NP2:\n    ', 'rng = np.random.default_rng()\n',
  'rng.integers(', 'rng = 3\n', 'zip = None\n', 'from __future__ import annotations\n', '_ERRORS = ValueError\n', 'lambda np: np.pi', 'é', '𝔘', '\\\n', '*args', '**kw', 'f"{np.pi}"', '@np.vectorize\n',
];

const REQUIREMENTS = ['numpy==1.24.2\nscipy==1.10.1\n', 'numpy==2.2.4\nscipy==1.15.3\n', 'numpy>=1.19,<2\n', 'numpy==1.26.0\n', 'scipy==1.6.0\n'];
const PYPROJECTS = ['', '[tool.anachron]\nignore = ["unknown-api"]\n', '[tool.anachron.severity]\nanachronistic-api = "warning"\n'];

interface Edit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } } | null;
  text: string;
}

function offsetToPosition(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: before[before.length - 1]!.length };
}

/** Never split a surrogate pair: editors do not cut characters in half. */
function clamp(text: string, offset: number): number {
  return offset > 0 && offset < text.length && /[\uDC00-\uDFFF]/.test(text[offset]!) ? offset - 1 : offset;
}

/** One random edit of `text`: what the client sends, and the text after it. */
function randomEdit(random: () => number, text: string): { edit: Edit; after: string } {
  const pick = <T,>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const lines = text.split('\n');
  const lineStart = (i: number) => lines.slice(0, i).reduce((n, l) => n + l.length + 1, 0);
  const kind = random();
  let start: number;
  let end: number;
  let insert: string;
  if (kind < 0.55) {
    // Typing or deleting at a random place.
    start = clamp(text, Math.floor(random() * (text.length + 1)));
    end = clamp(text, Math.min(text.length, start + (random() < 0.5 ? 0 : Math.floor(random() * 10))));
    insert = random() < 0.75 ? pick(PIECES) : '';
  } else if (kind < 0.75) {
    // A whole line deleted or duplicated.
    const i = Math.floor(random() * lines.length);
    start = lineStart(i);
    end = Math.min(text.length, start + lines[i]!.length + 1);
    insert = random() < 0.5 ? '' : text.slice(start, end) + text.slice(start, end);
  } else if (kind < 0.9) {
    // A block of lines moved elsewhere (cut and paste in one edit), or a starting document pasted in.
    const i = Math.floor(random() * lines.length);
    const n = 1 + Math.floor(random() * 4);
    start = lineStart(i);
    end = Math.min(text.length, lineStart(Math.min(lines.length, i + n)));
    insert = '';
    const block = text.slice(start, end);
    const rest = text.slice(0, start) + text.slice(end);
    const restLines = rest.split('\n');
    const j = Math.floor(random() * (restLines.length + 1));
    const at = restLines.slice(0, j).reduce((k, l) => k + l.length + 1, 0);
    const pasted = random() < 0.2 ? pick(DOCUMENTS).join('\n') + '\n' : block;
    const after = rest.slice(0, Math.min(at, rest.length)) + pasted + rest.slice(Math.min(at, rest.length));
    return { edit: { range: null, text: after }, after };
  } else {
    // Indenting or dedenting a line (changes what a class body holds).
    const i = Math.floor(random() * lines.length);
    start = lineStart(i);
    const dedent = lines[i]!.startsWith('    ') && random() < 0.5;
    end = dedent ? start + 4 : start;
    insert = dedent ? '' : '    ';
  }
  const after = text.slice(0, start) + insert + text.slice(end);
  return { edit: { range: { start: offsetToPosition(text, start), end: offsetToPosition(text, end) }, text: insert }, after };
}

let parser: PythonParser;
let catalog: LoadedCatalog;
before(async () => {
  parser = await loadPythonParser();
  catalog = openMatrixCatalog(defaultMatricesFolder());
  setRulesFolder(join(REPO, 'docs', 'rules'));
});
after(() => catalog.close());

/**
 * A full analysis of `text` as the server would publish it, from nothing: fresh parse, no caches, the file's placed
 * references checked as one list (the server checks chunk by chunk, relative to each chunk).
 */
function expected(file: string, text: string, root: string, reader: ManifestReader): Diagnostic[] {
  const manifest = pinsForFile(file, { root, displayBase: root, reader });
  const tree = parser.parse(text);
  // the pin's note points at the manifest line, the others at the finding
  const places = { uri: pathToFileURL(file).toString(), manifestUri: (shown: string) => pathToFileURL(isAbsolute(shown) ? shown : join(root, shown)).toString() };
  try {
    return JSON.parse(JSON.stringify(analyzeSyntaxWhole(fileSyntax(tree, text), { catalog, pins: manifest.pins, settings: manifest.settings }).map((f) => findingToDiagnostic(f, places))));
  } finally {
    tree.delete();
  }
}

describe('incremental analysis in the language server', () => {
  test(`${SEQUENCES} random edit sequences: every publish equals a fresh analysis of the same text`, { timeout: 3_600_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-incremental-'));
    const requirements = join(dir, 'requirements.txt');
    const pyproject = join(dir, 'pyproject.toml');
    writeFileSync(requirements, REQUIREMENTS[0]!);
    writeFileSync(pyproject, '');
    const open = new Map<string, string>([[requirements, REQUIREMENTS[0]!], [pyproject, '']]);
    const reader: ManifestReader = { listDir: (d) => diskReader.listDir(d), readText: (f) => open.get(f) ?? diskReader.readText(f) };
    const random = seededRandom(SEED);
    const session = new LspSession();
    const latencies: number[] = [];
    let compared = 0;
    let manifestEdits = 0;
    try {
      await session.initialize(dir);
      const published = new Map<string, PublishDiagnosticsParams[]>();
      let arrived: (() => void) | null = null;
      session.connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
        session.latest.set(p.uri, p);
        published.get(p.uri)?.push(p);
        arrived?.();
      });
      /** Waits for a publish of `uri` that satisfies `accept`, among those after `from`. */
      const waitFor = async (uri: string, from: number, accept: (p: PublishDiagnosticsParams) => boolean, what: string): Promise<PublishDiagnosticsParams> => {
        const deadline = Date.now() + HANG_LIMIT_MS;
        for (;;) {
          const found = (published.get(uri) ?? []).slice(from).find(accept);
          if (found) return found;
          const left = deadline - Date.now();
          if (left <= 0) throw new Error(`no diagnostics for ${what} within ${HANG_LIMIT_MS} ms; server said:\n${session.logs.join('\n')}`);
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, left);
            arrived = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          arrived = null;
        }
      };
      const manifestUris = new Map([[requirements, pathToFileURL(requirements).toString()], [pyproject, pathToFileURL(pyproject).toString()]]);
      for (const [file, uri] of manifestUris) {
        published.set(uri, []);
        await session.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: file.endsWith('.toml') ? 'toml' : 'pip-requirements', version: 1, text: open.get(file) } });
      }
      const manifestVersions = new Map([[requirements, 1], [pyproject, 1]]);

      for (let s = 0; s < SEQUENCES; s++) {
        const file = join(dir, `doc${s}.py`);
        const uri = pathToFileURL(file).toString();
        published.set(uri, []);
        let text = DOCUMENTS[s % DOCUMENTS.length]!.join('\n') + '\n';
        let version = 1;
        const check = async (from: number, accept: (p: PublishDiagnosticsParams) => boolean, sentAt: number, what: string) => {
          const p = await waitFor(uri, from, accept, what);
          latencies.push(performance.now() - sentAt);
          assert.deepEqual(p.diagnostics, expected(file, text, dir, reader), `${what}: published diagnostics differ from a fresh analysis of\n${text}`);
          compared++;
        };
        let from = 0;
        let sentAt = performance.now();
        await session.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version, text } });
        await check(from, (p) => p.version === 1, sentAt, `sequence ${s} open`);
        for (let e = 0; e < EDITS; e++) {
          const roll = random();
          if (roll < 0.06) {
            // A manifest edited in the editor: every open document is checked again with the new pins or settings.
            const target = random() < 0.7 ? requirements : pyproject;
            const next = target === requirements ? REQUIREMENTS[Math.floor(random() * REQUIREMENTS.length)]! : PYPROJECTS[Math.floor(random() * PYPROJECTS.length)]!;
            if (next === open.get(target)) continue;
            open.set(target, next);
            manifestEdits++;
            const v = manifestVersions.get(target)! + 1;
            manifestVersions.set(target, v);
            from = published.get(uri)!.length;
            sentAt = performance.now();
            await session.connection.sendNotification('textDocument/didChange', { textDocument: { uri: manifestUris.get(target), version: v }, contentChanges: [{ text: next }] });
            await check(from, () => true, sentAt, `sequence ${s} after ${dirname(target) === dir ? target.slice(dir.length + 1) : target} became ${JSON.stringify(next)}`);
            continue;
          }
          // One edit, or a burst of edits sent without waiting (typing faster than the server checks).
          const burst = roll < 0.2 ? 2 + Math.floor(random() * 4) : 1;
          from = published.get(uri)!.length;
          sentAt = performance.now();
          for (let b = 0; b < burst; b++) {
            const { edit, after } = randomEdit(random, text);
            text = after;
            const change = edit.range ? { range: edit.range, text: edit.text } : { text: edit.text };
            await session.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: [change] });
          }
          const v = version;
          await check(from, (p) => p.version === v, sentAt, `sequence ${s} edit ${e} (version ${v})`);
        }
        await session.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
      }
      const alive = await session.connection.sendRequest('textDocument/hover', { textDocument: { uri: manifestUris.get(requirements) }, position: { line: 0, character: 0 } });
      assert.ok(alive === null || typeof alive === 'object');
      assert.ok(!session.logs.some((l) => /checking .* failed|internal error/.test(l)), session.logs.filter((l) => /failed|internal error/.test(l)).join('\n'));
    } finally {
      await session.close();
    }
    latencies.sort((a, b) => a - b);
    const slow = latencies.filter((ms) => ms > SLOW_MS).length;
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(0);
    console.log(`# ${SEQUENCES} sequences (seed ${SEED}): ${compared} publishes compared, 0 differences, ${manifestEdits} manifest edits; edit -> publish p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${pct(100)} ms, ${slow} over ${SLOW_MS} ms`);
  });
});
