// Every fixture in test/fixtures/checks runs through the CLI and through a real LSP session over stdio, and both
// must report exactly the findings its caret comments expect. Fixtures about a library's real history run on the
// bundled matrices; those about the checker's mechanics (`# anachron: matrices snapshot`) on matrices this test
// builds from test/fixtures/matrices/*.snapshot.json, so rebuilding a real matrix changes only the fixtures about
// its history; those about mechanisms no real matrix is cut for (`# anachron: matrices synthetic`: the deprecation
// tier) on matrices built from hand-written histories (test/fixtures/matrices/*.synthetic.json). The LSP sessions run once per SQLite implementation: better-sqlite3, and the WebAssembly SQLite forced
// (ANACHRON_SQLITE=wasm) as in desktop VS Code, where the native module does not load.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { openMatrixCatalog } from '../server/src/store/catalog.js';
import { loadPythonParser } from '../server/src/parser/python-parser.js';
import { runCli } from './support/cli.js';
import { loadFixtures, sortFindings, type ExpectedFinding, type Fixture } from './support/fixtures.js';
import { LspSession } from './support/lsp-session.js';
import { buildSnapshotMatrices, readSnapshot } from './support/matrix-snapshot.js';
import { askedBy, SNAPSHOT_FOLDER, snapshotLibraries } from './support/snapshot-fixtures.js';
import { buildHistoryMatrices, readSyntheticHistory } from './support/synthetic-history.js';

const fixtures = loadFixtures(join(__dirname, 'fixtures', 'checks'));
const snapshotFixtures = fixtures.filter((f) => f.matrices === 'snapshot');
const snapshots = snapshotLibraries(snapshotFixtures).map((lib) => readSnapshot(join(SNAPSHOT_FOLDER, `${lib}.snapshot.json`)));
const snapshotMatrices = buildSnapshotMatrices(...snapshots);
const syntheticFixtures = fixtures.filter((f) => f.matrices === 'synthetic');
const historyMatrices = buildHistoryMatrices(...snapshotLibraries(syntheticFixtures).map((lib) => readSyntheticHistory(join(SNAPSHOT_FOLDER, `${lib}.synthetic.json`))));
/** Each group of fixtures: its own workspace folder and the matrices it runs on (ANACHRON_MATRICES; unset: bundled). */
const groups = [
  { name: 'bundled matrices', fixtures: fixtures.filter((f) => f.matrices === 'bundled'), env: {} as NodeJS.ProcessEnv, workspace: mkdtempSync(join(tmpdir(), 'anachron-fixtures-')) },
  { name: 'snapshot matrices', fixtures: snapshotFixtures, env: { ANACHRON_MATRICES: snapshotMatrices } as NodeJS.ProcessEnv, workspace: mkdtempSync(join(tmpdir(), 'anachron-fixtures-snapshot-')) },
  { name: 'synthetic histories', fixtures: syntheticFixtures, env: { ANACHRON_MATRICES: historyMatrices } as NodeJS.ProcessEnv, workspace: mkdtempSync(join(tmpdir(), 'anachron-fixtures-synthetic-')) },
];

describe('snapshot matrices', () => {
  test('most fixtures run on snapshot matrices or synthetic histories, not on a real matrix build', () => {
    const offReal = snapshotFixtures.length + syntheticFixtures.length;
    assert.ok(offReal * 2 > fixtures.length, `${offReal} of ${fixtures.length}`);
  });

  test('each snapshot answers every path its fixtures ask (else: node --import tsx test/support/write-matrix-snapshots.ts)', async () => {
    const parser = await loadPythonParser();
    const catalog = openMatrixCatalog(snapshotMatrices);
    try {
      for (const s of snapshots) {
        const known = new Set(s.asked);
        const missing = [...askedBy(parser, catalog, s.library, snapshotFixtures).paths].filter((p) => !known.has(p)).sort();
        assert.deepEqual(missing, [], `${s.library}'s snapshot was cut for other questions`);
      }
    } finally {
      catalog.close();
    }
  });

  test('the snapshot matrices hold only what was cut from the real ones', () => {
    const catalog = openMatrixCatalog(snapshotMatrices);
    try {
      for (const s of snapshots) {
        const m = catalog.forImportRoot(s.library)!;
        assert.deepEqual(m.versions, s.versions);
        assert.equal(m.lookup(`${s.library}.not_cut_from_the_real_matrix`), undefined);
        for (const a of s.apis) assert.ok(m.lookup(a.path), a.path);
      }
    } finally {
      catalog.close();
    }
  });
});

/**
 * Each fixture gets its own project folder: the fixture as main.py beside a requirements.txt with its library
 * pins; a pin of Python (`python>=3.9`) becomes the requires-python of a pyproject.toml, where projects state it.
 */
function projectFor(fixture: Fixture, workspace: string): string {
  const dir = join(workspace, fixture.name.replace(/\.py$/, ''));
  mkdirSync(dir, { recursive: true });
  copyFileSync(fixture.file, join(dir, 'main.py'));
  const python = fixture.pins.filter((p) => /^python\b/i.test(p));
  writeFileSync(join(dir, 'requirements.txt'), fixture.pins.filter((p) => !python.includes(p)).join('\n') + '\n');
  if (python.length > 0) writeFileSync(join(dir, 'pyproject.toml'), `[project]\nname = "fixture"\nrequires-python = "${python.map((p) => p.replace(/^python/i, '')).join(',')}"\n`);
  return dir;
}

const key = (f: ExpectedFinding) => `${f.line}:${f.column}-${f.endColumn} ${f.code} ${f.api}${f.parameter ? ` ${f.parameter}` : ''}`;

/** The same findings as expected, and for each whose fixture names a replacement (`=> NAME`, `=> -`), that one. */
function assertFindings(got: ExpectedFinding[], expected: ExpectedFinding[]): void {
  assert.deepEqual(sortFindings(got).map(key), sortFindings(expected).map(key));
  for (const e of expected) {
    if (e.replacement === undefined) continue;
    const found = got.find((g) => key(g) === key(e))!;
    assert.equal(found.replacement ?? null, e.replacement, `the replacement ${key(e)} offers`);
  }
}

for (const { name, fixtures, env, workspace } of groups) {
  describe(`fixtures through the CLI (${name})`, () => {
    // One CLI run over every fixture project (each has its own requirements.txt), as a user checks a monorepo.
    let byFile: Map<string, ExpectedFinding[]>;
    let exitCode = -1;
    before(() => {
      for (const fixture of fixtures) projectFor(fixture, workspace);
      const r = runCli(['check', '.', '--format', 'json'], workspace, env);
      exitCode = r.code;
      assert.ok(r.code === 0 || r.code === 1, r.stderr);
      byFile = new Map();
      for (const f of (JSON.parse(r.stdout) as { findings: unknown[] }).findings as { file: string; line: number; column: number; endColumn: number; code: string; api: string; parameter: string | null; replacement: string | null }[]) {
        const list = byFile.get(f.file) ?? [];
        list.push({ line: f.line, column: f.column, endColumn: f.endColumn, code: f.code, api: f.api, parameter: f.parameter, replacement: f.replacement });
        byFile.set(f.file, list);
      }
    });

    test('the run exits 1 because some fixtures expect findings', () => {
      assert.equal(exitCode, fixtures.some((f) => f.expected.length > 0) ? 1 : 0);
    });

    for (const fixture of fixtures) {
      test(fixture.name, () => {
        const got = byFile.get(join(fixture.name.replace(/\.py$/, ''), 'main.py')) ?? [];
        assertFindings(got, fixture.expected);
      });
    }
  });

  for (const store of ['native', 'wasm'] as const) {
    describe(`fixtures through a real LSP session (${store} SQLite, ${name})`, () => {
      let session: LspSession;
      before(async () => {
        session = new LspSession({ ...env, ANACHRON_SQLITE: store });
        const info = await session.initialize(workspace);
        assert.equal(info.store, store, 'the server reads the matrices with the SQLite asked for');
      });
      after(() => session.close());

      for (const fixture of fixtures) {
        test(fixture.name, async () => {
          const dir = projectFor(fixture, workspace);
          const diagnostics: Diagnostic[] = await session.open(join(dir, 'main.py'), fixture.text);
          for (const d of diagnostics) {
            assert.equal(d.source, 'anachron');
            assert.ok(d.data && typeof (d.data as { api: string }).api === 'string');
          }
          const got = diagnostics.map((d) => ({
            line: d.range.start.line + 1,
            column: d.range.start.character + 1,
            endColumn: d.range.end.character + 1,
            code: String(d.code),
            api: (d.data as { api: string }).api,
            parameter: (d.data as { parameter: string | null }).parameter,
            replacement: (d.data as { replacement: string | null }).replacement,
          }));
          assertFindings(got, fixture.expected);
        });
      }
    });
  }
}
