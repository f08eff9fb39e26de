// Coverage: for each library a file imports, whether it is checked at its pin, judged from the columns around it, or
// not checked (and why, and what would cover it). The core on a synthetic matrix (toylib at 1.0, 2.0, 3.0), then
// the faces users see: check's "not checked" lines and JSON section, `anachron coverage`, and the editor's pins.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { MatrixCatalog } from '../server/src/core/api-model.js';
import { coverageOf, type CoverageEntry } from '../server/src/core/coverage.js';
import { fileSyntax } from '../server/src/core/python/file-syntax.js';
import { importRootsOf } from '../server/src/core/python/import-roots.js';
import { parseCommandLinePin, type Pin } from '../server/src/core/pins.js';
import { distributionsOfImport, type DistributionsOfImport } from '../server/src/libraries/import-distributions.js';
import type { PinsResult } from '../server/src/lsp/protocol.js';
import { loadPythonParser, type PythonParser } from '../server/src/parser/python-parser.js';
import { openMatrixCatalog, type LoadedCatalog } from '../server/src/store/catalog.js';
import { runCli } from './support/cli.js';
import { LspSession } from './support/lsp-session.js';
import { api, buildSyntheticMatrices, surface } from './support/synthetic-matrix.js';

const toylib = ['1.0', '2.0', '3.0'].map((v) => surface('toylib', v, [api('toylib', 'module'), api('toylib.area', 'function', [])]));

function pins(...texts: string[]): Map<string, Pin> {
  return new Map(
    texts.map((t) => {
      const pin = parseCommandLinePin(t);
      if ('error' in pin) throw new Error(pin.error);
      return [pin.distribution, pin];
    }),
  );
}

/** What the CLI's job and the language server compute for one file. */
function coverageOfText(parser: PythonParser, text: string, catalog: MatrixCatalog, pins: Map<string, Pin>, distributionsOf: DistributionsOfImport): CoverageEntry[] {
  const tree = parser.parse(text);
  try {
    return coverageOf({ importRoots: importRootsOf(fileSyntax(tree, text).references), pins, catalog, distributionsOf: (root) => distributionsOf(root, pins.keys()) });
  } finally {
    tree.delete();
  }
}

type Row = Pick<CoverageEntry, 'library' | 'state' | 'reason' | 'fetch' | 'checkedVersions'>;

interface Case {
  name: string;
  code: string;
  pins: string[];
  expected: Row[];
  /** Distributions a column in the user's store gave an import name. */
  known?: Record<string, string[]>;
}

const CASES: Case[] = [
  { name: 'a tracked exact pin is checked', code: 'import toylib', pins: ['toylib==2.0'], expected: [{ library: 'toylib', state: 'checked', reason: 'tracked', fetch: null, checkedVersions: ['2.0'] }] },
  { name: 'a range is checked at the tracked versions it allows', code: 'from toylib import area', pins: ['toylib>=2'], expected: [{ library: 'toylib', state: 'checked', reason: 'tracked', fetch: null, checkedVersions: ['2.0', '3.0'] }] },
  { name: 'an exact pin between tracked versions is inferred', code: 'import toylib.sub as t', pins: ['toylib==2.5'], expected: [{ library: 'toylib', state: 'inferred', reason: 'between-tracked', fetch: 'toylib==2.5', checkedVersions: ['2.5'] }] },
  { name: 'an exact pin past the last tracked version is not checked', code: 'import toylib', pins: ['toylib==4.1'], expected: [{ library: 'toylib', state: 'not-checked', reason: 'outside-tracked', fetch: 'toylib==4.1', checkedVersions: ['4.1'] }] },
  { name: 'a range allowing no tracked version is not checked', code: 'import toylib', pins: ['toylib>=5,<6'], expected: [{ library: 'toylib', state: 'not-checked', reason: 'no-tracked-version-allowed', fetch: 'toylib>=5,<6', checkedVersions: [] }] },
  { name: 'a tracked library nothing pins is not checked', code: 'import toylib', pins: [], expected: [{ library: 'toylib', state: 'not-checked', reason: 'unpinned', fetch: null, checkedVersions: [] }] },
  { name: 'a pinned library without a matrix is not checked, with the fetch that covers it', code: 'import polars as pd\npd.read_csv("x")', pins: ['polars==2.0.3'], expected: [{ library: 'polars', state: 'not-checked', reason: 'no-matrix', fetch: 'polars==2.0.3', checkedVersions: [] }] },
  { name: "a distribution's '-' is the module's '_'", code: 'import typing_extensions', pins: ['typing-extensions==4.0'], expected: [{ library: 'typing_extensions', state: 'not-checked', reason: 'no-matrix', fetch: 'typing-extensions==4.0', checkedVersions: [] }] },
  { name: 'an import name a fetched column gave is matched to its distribution', code: 'import yaml', pins: ['PyYAML==6.0.1'], known: { yaml: ['pyyaml'] }, expected: [{ library: 'yaml', state: 'not-checked', reason: 'no-matrix', fetch: 'pyyaml==6.0.1', checkedVersions: [] }] },
  { name: 'the standard library, relative imports and unpinned unknowns give nothing', code: 'import os, json\nfrom . import sibling\nfrom .pkg import x\nimport somethingelse', pins: ['toylib==2.0'], expected: [] },
  { name: 'a pin the file does not import gives nothing', code: 'x = 1', pins: ['polars==2.0.3', 'toylib==2.0'], expected: [] },
];

describe('coverage of what a file imports', () => {
  let parser: PythonParser;
  let catalog: LoadedCatalog;
  before(async () => {
    parser = await loadPythonParser();
    catalog = openMatrixCatalog(buildSyntheticMatrices(toylib));
  });
  after(() => catalog.close());

  for (const c of CASES) {
    test(c.name, () => {
      const coverage = coverageOfText(parser, c.code + '\n', catalog, pins(...c.pins), distributionsOfImport((root) => c.known?.[root] ?? []));
      assert.deepEqual(
        coverage.map((e) => ({ library: e.library, state: e.state, reason: e.reason, fetch: e.fetch, checkedVersions: e.checkedVersions })),
        c.expected,
      );
    });
  }

  test('an inferred pin names the tracked versions around it', () => {
    const coverage = coverageOfText(parser, 'import toylib\n', catalog, pins('toylib==2.5'), distributionsOfImport());
    assert.deepEqual(coverage[0]!.neighbours, { below: '2.0', above: '3.0' });
    assert.equal(coverage[0]!.pinSource, 'command line');
  });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-coverage-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('coverage in the CLI and the editor (bundled numpy matrix)', () => {
  const files = {
    'requirements.txt': 'numpy==1.24.2\npolars==2.0.3\n',
    'a.py': 'import numpy as np\nimport polars as pd\nnp.trapezoid([1])\n',
    'b.py': 'import polars\n',
  };

  test('check: each library not checked gets a line, with the command that covers it', () => {
    const r = runCli(['check', '.'], project(files));
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^not checked: polars==2\.0\.3 \(requirements\.txt:2\) — no matrix; anachron matrix fetch polars==2\.0\.3$/m);
    assert.doesNotMatch(r.stdout, /not checked: numpy/);
  });

  test('check --format json: findings and a coverage section naming the files', () => {
    const r = runCli(['check', '.', '--format', 'json'], project(files));
    const report = JSON.parse(r.stdout) as { findings: { api: string }[]; coverage: (CoverageEntry & { files: string[] })[] };
    assert.deepEqual(report.findings.map((f) => f.api), ['numpy.trapezoid']);
    const byLibrary = new Map(report.coverage.map((e) => [e.library, e]));
    assert.equal(byLibrary.get('numpy')!.state, 'checked');
    assert.deepEqual(byLibrary.get('numpy')!.files, ['a.py']);
    const polars = byLibrary.get('polars')!;
    assert.deepEqual([polars.state, polars.reason, polars.pinSource, polars.fetch, polars.files], ['not-checked', 'no-matrix', 'requirements.txt:2', 'polars==2.0.3', ['a.py', 'b.py']]);
  });

  test("Python's standard library is one entry, python, where the project declares a Python; none where it does not", () => {
    const code = 'import os, json\nfrom datetime import datetime\n';
    const declared = runCli(['coverage', '--format', 'json'], project({ 'pyproject.toml': '[project]\nname = "p"\nrequires-python = ">=3.10"\n', 'a.py': code }));
    assert.equal(declared.code, 0, declared.stderr);
    const entries = (JSON.parse(declared.stdout) as { coverage: CoverageEntry[] }).coverage;
    assert.deepEqual(entries.map((e) => [e.library, e.state, e.checkedVersions.slice(0, 2)]), [['python', 'checked', ['3.10', '3.11']]]);
    const exact = runCli(['coverage', 'a.py', '--pin', 'python==3.11.7', '--format', 'json'], project({ 'a.py': code }));
    assert.deepEqual((JSON.parse(exact.stdout) as { coverage: CoverageEntry[] }).coverage.map((e) => [e.library, e.state, e.checkedVersions]), [['python', 'checked', ['3.11']]]);
    const undeclared = runCli(['coverage', '--format', 'json'], project({ 'a.py': code }));
    assert.deepEqual((JSON.parse(undeclared.stdout) as { coverage: CoverageEntry[] }).coverage, []);
  });

  test('coverage: the table, and exit 1 while a pinned library is not checked', () => {
    const dir = project(files);
    const r = runCli(['coverage'], dir);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^library\s+pin\s+source\s+matrix\s+state$/);
    assert.match(r.stdout, /^numpy\s+==1\.24\.2\s+requirements\.txt:1\s+\d+ versions, 1\.16\.0–[\d.]+\s+checked\s+checked at 1\.24\.2$/m);
    assert.match(r.stdout, /^polars\s+==2\.0\.3\s+requirements\.txt:2\s+none\s+NOT CHECKED\s+no matrix; anachron matrix fetch polars==2\.0\.3$/m);
    assert.equal(lines.at(-1), '2 libraries imported: 1 checked, 1 not checked');
    const covered = runCli(['coverage', 'a.py', '--pin', 'numpy==1.25.0', '--format', 'json'], project({ 'a.py': 'import numpy\n' }));
    assert.equal(covered.code, 0, covered.stderr);
    assert.deepEqual((JSON.parse(covered.stdout) as { coverage: CoverageEntry[] }).coverage.map((e) => `${e.library} ${e.state}`), ['numpy checked']);
    assert.equal(runCli(['coverage', '--format', 'xml'], dir).code, 2);
  });

  test('anachron/pins: the open file’s coverage', async () => {
    const dir = project(files);
    const session = new LspSession();
    try {
      await session.initialize(dir);
      await session.open(join(dir, 'a.py'), files['a.py']);
      const result = (await session.connection.sendRequest('anachron/pins', { uri: pathToFileURL(join(dir, 'a.py')).toString() })) as PinsResult;
      assert.deepEqual(result.coverage.map((e) => `${e.library} ${e.state} ${e.fetch}`), ['numpy checked null', 'polars not-checked polars==2.0.3']);
    } finally {
      await session.close();
    }
  });
});
