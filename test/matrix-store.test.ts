// The matrix store on real SQLite files: building, reading, the presence rule, reproducibility, bad input.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { decideState } from '../server/src/store/cell-state.js';
import { openMatrixCatalog } from '../server/src/store/catalog.js';
import { buildMatrix } from '../server/src/store/matrix-builder.js';
import { SqliteMatrix } from '../server/src/store/sqlite-matrix.js';
import { readSurfaceFile } from '../server/src/store/surface.js';
import type { DocsSurface } from '../server/src/store/docs-surface.js';
import { readEvidenceFolder, type VersionEvidence } from '../server/src/store/version-evidence.js';
import { api, p, surface } from './support/synthetic-matrix.js';

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
    const db = new Database(file, { readonly: true });
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

  test('the same surfaces and build date give a byte-identical file', () => {
    const a = join(tmp(), 'lib.sqlite');
    const b = join(tmp(), 'lib.sqlite');
    buildMatrix(surfaces, a, { builtAt: '2026-01-01' });
    buildMatrix([...surfaces].reverse(), b, { builtAt: '2026-01-01' });
    assert.ok(readFileSync(a).equals(readFileSync(b)));
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
    assert.deepEqual(m.lookup('lib.hidden')!.versions.map((c) => c.state), ['absent', 'present']);
    assert.deepEqual(m.lookup('lib.f')!.versions[1]!.signature!.parameters.map((x) => x.name), ['x', 'axis']);
    assert.equal(m.lookup('lib.extra'), undefined, 'static-only names of a runtime version are not resolution evidence');
    const db = new Database(file, { readonly: true });
    const cells = (path: string) => db.prepare('SELECT state, runtime, documented FROM cells WHERE path = ? ORDER BY version_id').all(path);
    assert.deepEqual(cells('lib.gone'), [{ state: 'present', runtime: 1, documented: 1 }, { state: 'absent', runtime: 0, documented: 0 }]);
    assert.deepEqual(cells('lib.ghost'), [{ state: 'absent', runtime: 0, documented: 0 }, { state: 'na', runtime: 0, documented: 1 }]);
    assert.deepEqual(cells('lib.hidden'), [{ state: 'absent', runtime: 0, documented: 0 }, { state: 'absent', runtime: 1, documented: 0 }]);
    db.close();
    assert.deepEqual(m.apiPaths(), ['lib.f', 'lib.ghost', 'lib.gone']);
    assert.deepEqual(m.groundTruth('lib.gone')!.versions.map((c) => c.state), ['present', 'absent']);
    assert.deepEqual(m.groundTruth('lib.ghost')!.versions.map((c) => c.state), ['absent', 'na']);
    assert.deepEqual(m.groundTruth('lib.hidden')!.versions.map((c) => c.state), ['absent', 'absent'], 'resolvable but never documented is not part of the documented surface');
    assert.equal(m.groundTruth('lib.f')!.evolution, 'evolving', 'its signature grew a parameter');
    const g = m.groundTruthCounts();
    assert.deepEqual({ apis: g.apis, present: g.present, na: g.na }, { apis: 3, present: 3, na: 1 });
    const agreement = result.agreements.get('2.0')!;
    assert.deepEqual([agreement.nameBase, agreement.nameAgreeing, agreement.onlyInReference], [2, 2, []]);
    assert.deepEqual(agreement.parameterMismatches, [{ api: 'lib.f', reference: ['x', 'axis'], candidate: ['x'] }]);
    assert.deepEqual(m.versionInfo[1]!.agreement, { name_base: 2, name_agreeing: 2, signature_base: 1, signature_agreeing: 0, only_runtime: 0, only_static: 0 });
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

describe('presence rule', () => {
  test('present needs resolution and documentation where both exist', () => {
    assert.equal(decideState(true, true), 'present');
    assert.equal(decideState(false, false), 'absent');
  });
  test('documented but unresolvable is na; resolvable but undocumented (or dropped from the docs) is absent', () => {
    assert.equal(decideState(false, true), 'na');
    assert.equal(decideState(true, false), 'absent');
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
    writeFileSync(join(dir, 'c.json.gz'), gzipSync(JSON.stringify(surfaces[0])));
    assert.equal(readSurfaceFile(join(dir, 'c.json.gz')).version, '1.10.0');
  });
});
