// The matrix store on real SQLite files (better-sqlite3, or the WebAssembly build under ANACHRON_SQLITE=wasm): building,
// reading, the presence rule, reproducibility, bad input.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { before, describe, test } from 'node:test';
import { decideState, decideStates } from '../server/src/store/cell-state.js';
import { openMatrixCatalog } from '../server/src/store/catalog.js';
import { buildMatrix } from '../server/src/store/matrix-builder.js';
import { SqliteMatrix } from '../server/src/store/sqlite-matrix.js';
import { stateAt } from '../server/src/core/version-state.js';
import { readSurfaceFile } from '../server/src/store/surface.js';
import type { DocsSurface } from '../server/src/store/docs-surface.js';
import { chooseSqlite, sqlite } from '../server/src/store/sqlite/driver.js';
import { readEvidenceFolder, type VersionEvidence } from '../server/src/store/version-evidence.js';
import { api, p, surface } from './support/synthetic-matrix.js';

// The store this process's environment picks (ANACHRON_SQLITE=wasm runs every test on the WebAssembly SQLite).
before(() => chooseSqlite());

const surfaces = [
  surface('lib', '1.10.0', [api('lib', 'module'), api('lib.f', 'function', [p('x')], 'Old doc.'), api('lib.g', 'function', [p('x')])]),
  surface('lib', '1.9.0', [api('lib', 'module'), api('lib.f', 'function', [p('x')], 'Old doc.')], { errors: [{ module: 'lib.native', error: 'ImportError: x' }] }),
  surface('lib', '2.0.0rc1', [api('lib', 'module'), api('lib.f', 'function', [p('x'), p('axis', 'kw', 'None')], 'New doc.'), api('lib.native', 'module'), api('lib.native.h', 'function', [])]),
];

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'anachron-store-'));
}

describe('matrix builder', () => {
  test('orders versions by PEP 440 and keeps one cell per API and version', () => {
    const file = join(tmp(), 'lib.sqlite');
    buildMatrix(surfaces, file, { builtAt: '2026-01-01' });
    const m = new SqliteMatrix(file);
    assert.deepEqual(m.versions, ['1.9.0', '1.10.0', '2.0.0rc1']);
    const f = m.lookup('lib.f')!;
    assert.deepEqual(f.versions.map((c) => c.state), ['present', 'present', 'present']);
    assert.deepEqual(f.versions.map((c) => c.doc), ['Old doc.', 'Old doc.', 'New doc.']);
    assert.deepEqual(f.versions[2]!.signature, { parameters: [{ name: 'x', kind: 'positional_or_keyword', default: null }, { name: 'axis', kind: 'keyword_only', default: 'None' }] });
    assert.deepEqual(m.lookup('lib.g')!.versions.map((c) => c.state), ['absent', 'present', 'absent']);
    assert.equal(m.lookup('lib.nothing'), undefined);
    m.close();
  });

  test('an API under a module that failed to import is na there, not absent', () => {
    const file = join(tmp(), 'lib.sqlite');
    buildMatrix(surfaces, file, { builtAt: '2026-01-01' });
    const m = new SqliteMatrix(file);
    assert.deepEqual(m.lookup('lib.native.h')!.versions.map((c) => c.state), ['unknown', 'absent', 'present']);
    assert.ok(m.isUnresolved('lib.native.other'));
    assert.ok(!m.isUnresolved('lib.f'));
    const db = sqlite().open(file, { mode: 'immutable' });
    assert.deepEqual(db.prepare("SELECT state, runtime, documented FROM cells WHERE path = 'lib.native.h' ORDER BY version_id").all(), [
      { state: 'na', runtime: null, documented: null },
      { state: 'absent', runtime: 0, documented: null },
      { state: 'present', runtime: 1, documented: null },
    ]);
    assert.deepEqual(db.prepare('SELECT path, evolution FROM api_list ORDER BY path').all(), [
      { path: 'lib', evolution: 'stable' },
      { path: 'lib.f', evolution: 'evolving' },
      { path: 'lib.g', evolution: 'evolving' },
      { path: 'lib.native', evolution: 'evolving' },
      { path: 'lib.native.h', evolution: 'evolving' },
    ]);
    assert.equal((db.prepare("SELECT COUNT(*) AS n FROM signature_matrix WHERE api = 'lib.f'").get() as { n: number }).n, 3);
    db.close();
    m.close();
  });

  test("a member of a module from outside the library, which a runtime holds as an opaque attribute, is na there, not absent", () => {
    // sqlalchemy.testing.mock: SQLAlchemy's own module in 1.x, unittest.mock itself from 2.0 on
    const file = join(tmp(), 'lib.sqlite');
    buildMatrix([
      surface('lib', '1.0.0', [api('lib', 'module'), api('lib.testing', 'module'), api('lib.testing.mock', 'module'), api('lib.testing.mock.Mock', 'class')]),
      surface('lib', '2.0.0', [api('lib', 'module'), api('lib.testing', 'module'), { ...api('lib.testing.mock', 'attribute'), defined_in: 'unittest.mock' },
        { ...api('lib.testing.Any', 'attribute'), defined_in: 'typing' }, { ...api('lib.testing.re', 'attribute'), defined_in: 're' }]),
    ], file, { builtAt: '2026-01-01' });
    const m = new SqliteMatrix(file);
    assert.deepEqual(m.lookup('lib.testing.mock.Mock')!.versions.map((c) => c.state), ['present', 'unknown']);
    assert.deepEqual(m.lookup('lib.testing.mock')!.versions.map((c) => c.state), ['present', 'present']);
    // not an import failure: the checker does not call such a name unconfirmed
    assert.ok(!m.isUnresolved('lib.testing.mock.Mock'));
    m.close();
  });

  test('the same surfaces and build date give a byte-identical file', () => {
    const a = join(tmp(), 'lib.sqlite');
    const b = join(tmp(), 'lib.sqlite');
    buildMatrix(surfaces, a, { builtAt: '2026-01-01' });
    buildMatrix([...surfaces].reverse(), b, { builtAt: '2026-01-01' });
    assert.ok(readFileSync(a).equals(readFileSync(b)));
  });

  test('a patch release left out for having a tracked release\'s surface is answered for as that release', () => {
    const file = join(tmp(), 'lib.sqlite');
    // 1.9.1 and 1.9.2 read like 1.9.0 (the planner left them out); 1.9.5 was never read
    buildMatrix(surfaces, file, { builtAt: '2026-01-01', sameSurface: { '1.9.1': '1.9.0', '1.9.2': '1.9.0', '1.9.3': '1.8.0', '1.10.0': '1.9.0' } });
    const m = new SqliteMatrix(file);
    assert.deepEqual(Object.fromEntries(m.sameSurface), { '1.9.1': '1.9.0', '1.9.2': '1.9.0' }, 'only releases that are not built, mapped to built ones');
    const g = m.lookup('lib.g')!;
    assert.deepEqual(stateAt(g, '1.9.2', m.versions), { version: '1.9.2', state: 'absent', basis: 'tracked', cell: g.versions[0]!, neighbours: [] });
    // between 1.9.0 (absent) and 1.10.0 (present), unread: unknown
    assert.equal(stateAt(g, '1.9.5', m.versions).state, 'unknown');
    m.close();
  });

  test('refuses mixed libraries and duplicate versions', () => {
    assert.throws(() => buildMatrix([surfaces[0]!, surface('other', '1.0', [])], join(tmp(), 'x.sqlite'), { builtAt: 'x' }), /mix libraries/);
    assert.throws(() => buildMatrix([surfaces[0]!, surface('lib', '1.10', [])], join(tmp(), 'x.sqlite'), { builtAt: 'x' }), /two surfaces for lib 1.10/);
  });
});

describe('evidence per version', () => {
  const docs = (version: string, documented: string[]): DocsSurface => ({ schema: 'anachron-docs/1', library: 'lib', version, documented });
  const runtime2 = surface('lib', '2.0', [api('lib', 'module'), api('lib.f', 'function', [p('x'), p('axis')]), api('lib.hidden', 'function', [])]);
  const static2 = surface('lib', '2.0', [api('lib', 'module'), api('lib.f', 'function', [p('x')]), api('lib.extra', 'function', [])], { provenance: { source: 'static', tag: 'v2.0' } });
  const static1 = surface('lib', '1.0', [api('lib', 'module'), api('lib.f', 'function', [p('x')]), api('lib.gone', 'function', [])], { provenance: { source: 'static', tag: 'v1.0' } });
  const evidence: VersionEvidence[] = [
    { version: '1.0', static: static1, docs: docs('1.0', ['lib.f', 'lib.gone']) },
    { version: '2.0', runtime: runtime2, static: static2, docs: docs('2.0', ['lib.f', 'lib.ghost']) },
  ];

  test('resolution comes from the runtime where there is one, else from static extraction; both bits are kept', () => {
    const file = join(tmp(), 'lib.sqlite');
    const result = buildMatrix(evidence, file, { builtAt: '2026-01-01' });
    const m = new SqliteMatrix(file);
    assert.deepEqual(m.versionInfo.map((v) => [v.version, v.source, v.hasDocs]), [['1.0', 'static', true], ['2.0', 'test', true]]);
    // lib.hidden: the runtime finds it at 2.0 and static extraction at 2.0 does not, so static extraction is blind to
    // it; at 1.0, known only statically, not finding it says nothing.
    assert.deepEqual(m.lookup('lib.hidden')!.versions.map((c) => c.state), ['unknown', 'present']);
    assert.deepEqual(m.lookup('lib.f')!.versions[1]!.signature!.parameters.map((x) => x.name), ['x', 'axis']);
    assert.equal(m.lookup('lib.extra'), undefined, 'static-only names of a runtime version are not resolution evidence');
    const db = sqlite().open(file, { mode: 'immutable' });
    const cells = (path: string) => db.prepare('SELECT state, runtime, documented FROM cells WHERE path = ? ORDER BY version_id').all(path);
    assert.deepEqual(cells('lib.gone'), [{ state: 'present', runtime: 1, documented: 1 }, { state: 'absent', runtime: 0, documented: 0 }]);
    assert.deepEqual(cells('lib.ghost'), [{ state: 'absent', runtime: 0, documented: 0 }, { state: 'na', runtime: 0, documented: 1 }]);
    assert.deepEqual(cells('lib.hidden'), [{ state: 'na', runtime: null, documented: 0 }, { state: 'absent', runtime: 1, documented: 0 }]);
    db.close();
    assert.deepEqual(m.apiPaths(), ['lib.f', 'lib.ghost', 'lib.gone']);
    assert.deepEqual(m.groundTruth('lib.gone')!.versions.map((c) => c.state), ['present', 'absent']);
    assert.deepEqual(m.groundTruth('lib.ghost')!.versions.map((c) => c.state), ['absent', 'na']);
    assert.deepEqual(m.groundTruth('lib.hidden')!.versions.map((c) => c.state), ['na', 'na'], 'resolvable but never documented: one source only; unknown where nothing could see it');
    assert.equal(m.groundTruth('lib.f')!.evolution, 'evolving', 'its signature grew a parameter');
    const g = m.groundTruthCounts();
    assert.deepEqual({ apis: g.apis, present: g.present, na: g.na }, { apis: 3, present: 3, na: 1 });
    const agreement = result.agreements.get('2.0')!;
    assert.deepEqual([agreement.nameBase, agreement.nameAgreeing, agreement.onlyInReference], [2, 2, []]);
    assert.deepEqual(agreement.parameterMismatches, [{ api: 'lib.f', reference: ['x', 'axis'], candidate: ['x'] }]);
    assert.deepEqual(m.versionInfo[1]!.agreement, { name_base: 2, name_agreeing: 2, signature_base: 1, signature_agreeing: 0, only_runtime: 0, only_static: 0, not_comparable: 0 });
    m.close();
  });

  test("a runtime version's compiled callables take the keywords their C argument parser takes (static source 'parser')", () => {
    const withSource = (a: ReturnType<typeof api>, source: 'docstring' | 'parser') => ({ ...a, signature: { ...a.signature!, source } });
    // lib.dtype: the runtime reads only the docstring, which leaves metadata= out; static extraction read the parser
    const runtime = surface('lib', '2.0', [api('lib', 'module'), withSource(api('lib.dtype', 'class', [p('dtype'), p('align', 'poskw', 'False')]), 'docstring'),
      api('lib.f', 'function', [p('x')]), api('lib.flags', 'property')]);
    const fromStatic = surface('lib', '2.0', [api('lib', 'module'), withSource(api('lib.dtype', 'class', [p('dtype'), p('align', 'poskw', 'False'), p('metadata', 'poskw', '...')]), 'parser'),
      withSource(api('lib.f', 'function', [p('x'), p('y')]), 'docstring'), withSource(api('lib.flags', 'function', [p('a')]), 'parser'),
      withSource(api('lib.only_static', 'function', [p('a')]), 'parser')], { provenance: { source: 'static', tag: 'v2.0' } });
    const file = join(tmp(), 'lib.sqlite');
    const result = buildMatrix([{ version: '2.0', runtime, static: fromStatic }], file, { builtAt: '2026-01-01' });
    const m = new SqliteMatrix(file);
    const cell = (path: string) => m.lookup(path)?.versions[0];
    assert.deepEqual([cell('lib.dtype')!.signatureSource, cell('lib.dtype')!.signature!.parameters.map((x) => x.name)], ['parser', ['dtype', 'align', 'metadata']]);
    assert.deepEqual([cell('lib.f')!.signatureSource, cell('lib.f')!.signature!.parameters.map((x) => x.name)], ['inspect', ['x']], 'only a parser signature replaces the runtime one');
    assert.deepEqual([cell('lib.flags')!.kind, cell('lib.flags')!.signature], ['property', null], 'what the runtime records as no callable stays so');
    assert.equal(m.lookup('lib.only_static'), undefined, 'a parser signature is no resolution evidence');
    const agreement = result.agreements.get('2.0')!;
    assert.deepEqual(agreement.parameterMismatches.map((x) => x.api), ['lib.f'], 'agreement compares the surfaces as read');
    assert.equal(agreement.parserAgainstDocstring, 1, "a parser's signature is not compared with a docstring's: different evidence");
    m.close();
  });

  test('surface files in a folder are grouped by version and kind', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'lib-1.0.static.json.gz'), gzipSync(JSON.stringify(static1)));
    writeFileSync(join(dir, 'lib-1.0.docs.json.gz'), gzipSync(JSON.stringify(docs('1.0', ['lib.f']))));
    writeFileSync(join(dir, 'lib-2.0.runtime.json.gz'), gzipSync(JSON.stringify(runtime2)));
    writeFileSync(join(dir, 'lib-3.0.docs.json.gz'), gzipSync(JSON.stringify(docs('3.0', ['lib.f']))));
    const read = readEvidenceFolder(dir);
    assert.deepEqual(read.map((e) => [e.version, !!e.runtime, !!e.static, !!e.docs]), [['1.0', false, true, true], ['2.0', true, false, false]]);
  });
});

describe('compact storage', () => {
  const member = (cls: string, name: string, params: string[]) => api(`${cls}.${name}`, 'method', params.map((n) => p(n)));
  const classWith = (path: string, extra: string[] = []) => [api(path, 'class'), member(path, 'sum', ['axis']), member(path, 'mean', ['axis', 'dtype']), ...extra.map((n) => member(path, n, []))];

  test('a class re-exported under other paths keeps its members once; lookups through every path agree', () => {
    const versions = ['1.0', '2.0'].map((v) =>
      surface('lib', v, [api('lib', 'module'), api('lib.core', 'module'), ...classWith('lib.Array'), ...classWith('lib.core.Array'), ...classWith('lib.Sub', v === '2.0' ? ['extra'] : [])]),
    );
    const file = join(tmp(), 'lib.sqlite');
    buildMatrix(versions, file, { builtAt: '2026-01-01' });
    const m = new SqliteMatrix(file);
    for (const path of ['lib.Array.mean', 'lib.core.Array.mean', 'lib.Sub.mean']) {
      assert.deepEqual(m.lookup(path)!.versions.map((c) => [c.state, c.signature!.parameters.map((x) => x.name)]), [['present', ['axis', 'dtype']], ['present', ['axis', 'dtype']]], path);
    }
    assert.equal(m.lookup('lib.core.Array.extra'), undefined);
    assert.deepEqual(m.lookup('lib.Sub.extra')!.versions.map((c) => c.state), ['absent', 'present'], 'a subclass with members of its own is not shared');
    const db = sqlite().open(file, { mode: 'immutable' });
    const stored = (db.prepare("SELECT path FROM api_list WHERE path LIKE '%.mean' ORDER BY path").all() as { path: string }[]).map((r) => r.path);
    assert.deepEqual(stored, ['lib.Array.mean', 'lib.Sub.mean'], 'lib.core.Array points at lib.Array');
    db.close();
    assert.equal(m.meta.paths_seen, '12');
    m.close();
  });

  test('versions without documentation do not split spans, and the docs bit still answers per version', () => {
    const docs = (version: string, documented: string[]): DocsSurface => ({ schema: 'anachron-docs/1', library: 'lib', version, documented });
    const lib = (v: string) => surface('lib', v, [api('lib', 'module'), api('lib.f', 'function', [p('x')])]);
    const evidence: VersionEvidence[] = [
      { version: '1.0', runtime: lib('1.0'), docs: docs('1.0', ['lib.f']) },
      { version: '1.0.1', runtime: lib('1.0.1') },
      { version: '1.1', runtime: lib('1.1'), docs: docs('1.1', ['lib.f']) },
      { version: '1.1.1', runtime: lib('1.1.1') },
      { version: '1.2', runtime: lib('1.2'), docs: docs('1.2', []) },
    ];
    const file = join(tmp(), 'lib.sqlite');
    buildMatrix(evidence, file, { builtAt: '2026-01-01' });
    const db = sqlite().open(file, { mode: 'immutable' });
    assert.deepEqual(db.prepare("SELECT first_ordinal, last_ordinal, documented FROM spans JOIN api_list a ON a.id = spans.api_id WHERE a.path = 'lib.f'").all(), [
      { first_ordinal: 0, last_ordinal: 3, documented: 1 },
      { first_ordinal: 4, last_ordinal: 4, documented: 0 },
    ]);
    assert.deepEqual(db.prepare("SELECT state, documented FROM cells WHERE path = 'lib.f' ORDER BY version_id").all(), [
      { state: 'present', documented: 1 }, { state: 'present', documented: null }, { state: 'present', documented: 1 }, { state: 'present', documented: null }, { state: 'absent', documented: 0 },
    ]);
    db.close();
    const m = new SqliteMatrix(file);
    assert.deepEqual(m.groundTruth('lib.f')!.versions.map((c) => c.state), ['present', 'present', 'present', 'present', 'absent']);
    assert.deepEqual(m.benchmarkVersions(), ['1.0', '1.1', '1.2'], 'the benchmark samples the versions with documentation');
    m.close();
  });

  test("a library's own removal notes are kept, the newest version's first", () => {
    const s1 = surface('lib', '1.0', [api('lib', 'module'), api('lib.Inf', 'attribute'), api('lib.inf', 'attribute')]);
    const s2 = surface('lib', '2.0', [api('lib', 'module'), api('lib.inf', 'attribute')], { removal_notes: { 'lib.Inf': 'Use `lib.inf` instead.' } });
    const s3 = surface('lib', '3.0', [api('lib', 'module'), api('lib.inf', 'attribute')], { removal_notes: { 'lib.Inf': 'Use `lib.inf`.' } });
    const file = join(tmp(), 'lib.sqlite');
    buildMatrix([s1, s2, s3], file, { builtAt: '2026-01-01' });
    const m = new SqliteMatrix(file);
    assert.deepEqual(m.removalNote('lib.Inf'), { note: 'Use `lib.inf`.', version: '3.0' });
    assert.equal(m.removalNote('lib.inf'), null);
    m.close();
  });
});

describe('attributes kept only to raise', () => {
  test('a path the library notes as removed is absent where the note is, though the runtime lists it', () => {
    // lib.Arr.ptp: a method at 1.0; from 2.0 a getter that raises AttributeError with a removal note (numpy 2's
    // ndarray.ptp). The runtime at 2.0 lists it; static extraction at 2.0 and 3.0 records the note instead.
    const note = { 'lib.Arr.ptp': '`ptp` was removed from the Arr class in 2.0. Use lib.ptp(arr) instead.', 'lib.compat': 'No replacement.' };
    // lib.compat: noted as expired (numpy 2.0's np.compat), yet a submodule `import lib.compat` still loads
    const arr = [api('lib', 'module'), api('lib.Arr', 'class'), api('lib.compat', 'module')];
    const evidence: VersionEvidence[] = [
      { version: '1.0', static: surface('lib', '1.0', [...arr, api('lib.Arr.ptp', 'method', [])], { provenance: { source: 'static' } }) },
      { version: '2.0', runtime: surface('lib', '2.0', [...arr, api('lib.Arr.ptp', 'property'), api('lib.Arr.shape', 'property')]),
        static: surface('lib', '2.0', arr, { provenance: { source: 'static' }, removal_notes: note }) },
      { version: '3.0', static: surface('lib', '3.0', arr, { provenance: { source: 'static' }, removal_notes: note }) },
    ];
    const file = join(tmp(), 'lib.sqlite');
    buildMatrix(evidence, file, { builtAt: '2026-01-01' });
    const m = new SqliteMatrix(file);
    assert.deepEqual(m.lookup('lib.Arr.ptp')!.versions.map((c) => c.state), ['present', 'absent', 'absent']);
    assert.deepEqual(m.lookup('lib.Arr.shape')!.versions.map((c) => c.state), ['unknown', 'present', 'unknown'], 'what only the runtime sees stays unknown elsewhere');
    assert.equal(m.removalNote('lib.Arr.ptp')?.version, '3.0');
    assert.deepEqual(m.lookup('lib.compat')!.versions.map((c) => c.state), ['present', 'present', 'present'], 'a submodule with a note is still there');
    m.close();
  });
});

describe('modules some supported Pythons lack', () => {
  test('a runtime on a Python without the module takes it from static extraction at the same tag, and does not disagree', () => {
    // lib.legacy: installed below Python 3.12 only (numpy.distutils); the runtime of 2.0 ran on 3.13.
    const why = { 'lib.legacy': 'installed for Python 3.10–3.11 only' };
    const legacy = [api('lib.legacy', 'module'), api('lib.legacy.tool', 'function', [p('verbose')])];
    const base = [api('lib', 'module'), api('lib.f', 'function', [p('x')])];
    const evidence: VersionEvidence[] = [
      { version: '1.0', static: surface('lib', '1.0', [...base, ...legacy], { provenance: { source: 'static' }, python_conditional: why }) },
      { version: '2.0', runtime: surface('lib', '2.0', base), static: surface('lib', '2.0', [...base, ...legacy], { provenance: { source: 'static' }, python_conditional: why }) },
    ];
    const file = join(tmp(), 'lib.sqlite');
    const result = buildMatrix(evidence, file, { builtAt: '2026-01-01' });
    const m = new SqliteMatrix(file);
    assert.deepEqual(m.lookup('lib.legacy.tool')!.versions.map((c) => c.state), ['present', 'present']);
    m.close();
    const agreement = result.agreements.get('2.0')!;
    assert.deepEqual([agreement.onlyInCandidate, agreement.notComparable], [[], 2]);
  });
});

describe('presence rule', () => {
  test('present needs resolution and documentation where both exist', () => {
    assert.equal(decideState(true, true), 'present');
    assert.equal(decideState(false, false), 'absent');
  });
  test('documented but unresolvable is na; resolvable but undocumented (or dropped from the docs) is absent', () => {
    assert.equal(decideState(false, true), 'na');
    assert.equal(decideState(true, false), 'absent');
  });
  test('the deprecation pass: resolvable but undocumented is absent only after the last present cell, na when leading or in a gap (issue 22, point 1)', () => {
    const cell = (resolved: boolean | null, documented: boolean | null) => ({ resolved, documented });
    const R = cell(true, true); // present
    const U = cell(true, false); // resolved, not documented
    const N = cell(false, false); // neither
    // numpy.ma.right_shift: documented at 1.20.3 and 1.21.1, not at 1.21.0 between them: na, not absent
    assert.deepEqual(decideStates([R, U, R]), ['present', 'na', 'present']);
    // leading: resolvable before it is first documented
    assert.deepEqual(decideStates([U, U, R, R]), ['na', 'na', 'present', 'present']);
    // trailing: dropped from the docs for good while the symbol persists, a deprecation
    assert.deepEqual(decideStates([R, R, U, U]), ['present', 'present', 'absent', 'absent']);
    // a gap, then dropped for good; removed outright; never documented at all
    assert.deepEqual(decideStates([R, U, R, U]), ['present', 'na', 'present', 'absent']);
    assert.deepEqual(decideStates([R, N, U]), ['present', 'absent', 'absent']);
    assert.deepEqual(decideStates([U, U]), ['na', 'na']);
    // versions without documentation evidence keep resolution's verdict, and end nothing
    assert.deepEqual(decideStates([R, cell(true, null), U, R]), ['present', 'present', 'na', 'present']);
    assert.deepEqual(decideStates([cell(null, true), U, R]), ['na', 'na', 'present']);
  });
  test('without documentation evidence resolution decides; without resolution evidence the cell is na', () => {
    assert.equal(decideState(true, null), 'present');
    assert.equal(decideState(false, null), 'absent');
    assert.equal(decideState(null, true), 'na');
    assert.equal(decideState(null, null), 'na');
  });
});

describe('bad input', () => {
  test('a corrupt matrix file is reported by name and the others still load', () => {
    const dir = tmp();
    buildMatrix(surfaces, join(dir, 'lib.sqlite'), { builtAt: '2026-01-01' });
    writeFileSync(join(dir, 'broken.sqlite'), 'this is not a database');
    const catalog = openMatrixCatalog(dir);
    assert.equal(catalog.matrices.length, 1);
    assert.equal(catalog.problems.length, 1);
    assert.match(catalog.problems[0]!, /broken\.sqlite: not a usable anachron matrix/);
    assert.ok(catalog.forImportRoot('lib'));
    catalog.close();
  });

  test('matrices open when first asked for: a broken one is reported then, and one named after another library is refused', () => {
    const dir = tmp();
    buildMatrix(surfaces, join(dir, 'lib.sqlite'), { builtAt: '2026-01-01' });
    buildMatrix(surfaces, join(dir, 'renamed.sqlite'), { builtAt: '2026-01-01' });
    writeFileSync(join(dir, 'broken.sqlite'), 'this is not a database');
    const found: string[] = [];
    const catalog = openMatrixCatalog(dir, { onProblem: (p) => found.push(p) });
    assert.deepEqual(catalog.names, ['broken', 'lib', 'renamed']);
    assert.ok(catalog.forImportRoot('lib'));
    assert.deepEqual(found, [], 'nothing else was opened');
    assert.equal(catalog.forImportRoot('broken'), undefined);
    assert.match(found[0]!, /broken\.sqlite: not a usable anachron matrix/);
    assert.equal(catalog.forImportRoot('renamed'), undefined);
    assert.match(found[1]!, /renamed\.sqlite: holds the matrix of lib, not of renamed: name it lib\.sqlite/);
    assert.deepEqual(catalog.problems, found);
    assert.equal(catalog.forImportRoot('numpy'), undefined, 'no file, nothing opened, no problem');
    assert.equal(found.length, 2);
    catalog.close();
  });

  test('a missing matrices folder is a problem, not a crash', () => {
    const catalog = openMatrixCatalog(join(tmp(), 'nope'));
    assert.equal(catalog.matrices.length, 0);
    assert.match(catalog.problems[0]!, /cannot read the matrices folder/);
  });

  test('surface files: gzip, JSON and schema errors name the file', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'a.json.gz'), 'not gzip');
    assert.throws(() => readSurfaceFile(join(dir, 'a.json.gz')), /a\.json\.gz: not valid gzip/);
    writeFileSync(join(dir, 'b.json'), '{"schema": "anachron-surface/1", "library": "x", "version": "1", "apis": [{"path": "x.f", "kind": "gizmo"}]}');
    assert.throws(() => readSurfaceFile(join(dir, 'b.json')), /b\.json: not an anachron surface: apis\[0\] has no path or an unknown kind/);
    // forwarded keywords (issue 19, class 3) only on a **kwargs, and only as a list of names
    const withKeywords = (parameter: object) => JSON.stringify({ schema: 'anachron-surface/1', library: 'x', version: '1', apis: [{ path: 'x.f', kind: 'function', signature: { source: 'inspect', parameters: [parameter] }, doc: null }] });
    writeFileSync(join(dir, 'k.json'), withKeywords({ name: 'a', kind: 'positional_or_keyword', default: null, keywords: ['b'] }));
    assert.throws(() => readSurfaceFile(join(dir, 'k.json')), /k\.json: not an anachron surface: apis\[0\] \(x\.f\) parameter a: keywords is not a list of names on a \*\*kwargs/);
    writeFileSync(join(dir, 'l.json'), withKeywords({ name: 'kw', kind: 'var_keyword', default: null, keywords: 'color' }));
    assert.throws(() => readSurfaceFile(join(dir, 'l.json')), /l\.json: .*keywords is not a list of names/);
    writeFileSync(join(dir, 'm.json'), withKeywords({ name: 'kw', kind: 'var_keyword', default: null, keywords: ['color'] }));
    assert.deepEqual(readSurfaceFile(join(dir, 'm.json')).apis[0]!.signature!.parameters[0]!.keywords, ['color']);
    writeFileSync(join(dir, 'c.json.gz'), gzipSync(JSON.stringify(surfaces[0])));
    assert.equal(readSurfaceFile(join(dir, 'c.json.gz')).version, '1.10.0');
  });
});
