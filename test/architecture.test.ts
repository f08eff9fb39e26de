// The invariants docs/architecture.md states about the code's shape, checked on the import graph of the sources
// (type-only imports count too): no import cycles; the analysis core imports nothing outside itself and does no I/O;
// only lsp/ knows LSP and only client/ knows the VS Code API; the machinery the benchmark suites share knows no suite,
// and no suite knows another. And, read with the TypeScript parser, a cap on the length of every function.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { functionLengths } from './support/function-lengths.js';
import { importCycles, importGraph, type SourceFile } from './support/import-graph.js';

const root = join(__dirname, '..');
const { files, unresolved } = importGraph(root, ['server/src', 'client/src']);
const all = [...files.values()];
const under = (folder: string) => all.filter((f) => f.path.startsWith(folder));
const offending = (sources: SourceFile[], bad: (target: string) => boolean) => sources.flatMap((f) => f.imports.filter(bad).map((t) => `${f.path} -> ${t}`));

test('the graph is read whole: every relative import resolves to a source file', () => {
  assert.ok(files.size > 150, `${files.size} files`);
  assert.deepEqual(unresolved, []);
});

test('no import cycles', () => {
  assert.deepEqual(importCycles(files).map((c) => c.join(' -> ')), []);
});

test('the analysis core imports nothing outside core/, and no module that does I/O', () => {
  const core = under('server/src/core/');
  assert.deepEqual(offending(core, (t) => !t.startsWith('server/src/core/')), []);
  // Versions (PEP 440), manifest formats (TOML, YAML) and tree-sitter's types; never fs, SQLite, the network or a process.
  const allowed = new Set(['@renovatebot/pep440', 'smol-toml', 'yaml', 'web-tree-sitter']);
  assert.deepEqual(core.flatMap((f) => f.packages.filter((p) => !allowed.has(p)).map((p) => `${f.path}: ${p}`)), []);
});

test('only server/src/lsp/ knows LSP; only client/ knows the VS Code API', () => {
  const packagesOutside = (folder: string, pattern: RegExp) => all.filter((f) => !f.path.startsWith(folder)).flatMap((f) => f.packages.filter((p) => pattern.test(p)).map((p) => `${f.path}: ${p}`));
  assert.deepEqual(packagesOutside('server/src/lsp/', /^vscode-languageserver/), []);
  assert.deepEqual(packagesOutside('client/', /^(vscode|vscode-languageclient)(\/|$)/), []);
  assert.deepEqual(offending(under('server/src/'), (t) => t.startsWith('client/')), [], 'the server never imports the extension');
});

test('the machinery the suites share knows no suite, and no suite knows another', () => {
  const suites = ['server/src/eval/libevobench/', 'server/src/eval/drift/'];
  const registry = ['server/src/eval/suites.ts', 'server/src/eval/builtin-models.ts', 'server/src/eval/serve-models.ts'];
  const shared = under('server/src/eval/').filter((f) => !suites.some((s) => f.path.startsWith(s)) && !registry.includes(f.path));
  assert.ok(shared.some((f) => f.path.startsWith('server/src/eval/runs/')));
  assert.deepEqual(offending(shared, (t) => suites.some((s) => t.startsWith(s)) || registry.includes(t)), []);
  for (const suite of suites) {
    assert.deepEqual(offending(under(suite), (t) => suites.some((s) => s !== suite && t.startsWith(s)) || registry.includes(t)), [], suite);
  }
  // Outside eval/, only the editor's benchmark flow reaches into a suite (its prompt contract) and the CLI's worker
  // threads run a suite's per-file work (cli/worker-jobs.ts, handed in as DatasetInputs.runFileJobs); the command
  // line goes through the registry.
  const reachIn = ['server/src/cli/worker-jobs.ts'];
  const outside = all.filter((f) => !f.path.startsWith('server/src/eval/') && !f.path.startsWith('client/src/eval/') && !reachIn.includes(f.path));
  assert.deepEqual(offending(outside, (t) => suites.some((s) => t.startsWith(s))), []);
});

test('no function is long: at most 140 lines in all, and at most 100 of its own (without the functions defined in it)', () => {
  // A long function is split into a pure planner and a thin effect shell, or one helper per job (docs/architecture.md).
  const lengths = functionLengths(root, ['server/src', 'client/src']);
  assert.ok(lengths.length > 1000, `${lengths.length} functions`);
  assert.deepEqual(lengths.filter((f) => f.lines > 140).map((f) => `${f.where}: ${f.lines} lines`), []);
  assert.deepEqual(lengths.filter((f) => f.ownLines > 100).map((f) => `${f.where}: ${f.ownLines} lines of its own`), []);
});
