// Writes test/fixtures/matrices/LIB.snapshot.json: the part of the bundled LIB matrix that the fixtures marked
// `# anachron: matrices snapshot` ask about (test/support/matrix-snapshot.ts). Run it after changing such a fixture
// or the checker's questions, when test/fixtures.test.ts says the snapshot does not answer a path:
//
//   node --import tsx test/support/write-matrix-snapshots.ts
//
// The snapshot is cut from the matrix in matrices/ (its build date and input digest are its provenance).
import { join } from 'node:path';
import { defaultMatricesFolder } from '../../server/src/store/matrices-folder.js';
import { openMatrixCatalog } from '../../server/src/store/catalog.js';
import { SqliteMatrix } from '../../server/src/store/sqlite-matrix.js';
import { sqlite } from '../../server/src/store/sqlite/driver.js';
import { loadPythonParser } from '../../server/src/parser/python-parser.js';
import { loadFixtures } from './fixtures.js';
import { askedBy, SNAPSHOT_FOLDER, snapshotLibraries } from './snapshot-fixtures.js';
import { snapshotOf, writeSnapshot } from './matrix-snapshot.js';

async function main(): Promise<void> {
const fixtures = loadFixtures(join(__dirname, '..', 'fixtures', 'checks')).filter((f) => f.matrices === 'snapshot');
const parser = await loadPythonParser();
const folder = defaultMatricesFolder();
const catalog = openMatrixCatalog(folder);
for (const library of snapshotLibraries(fixtures)) {
  const asked = askedBy(parser, catalog, library, fixtures);
  const matrix = new SqliteMatrix(join(folder, `${library}.sqlite`));
  const db = sqlite().open(join(folder, `${library}.sqlite`), { mode: 'immutable' });
  const rows = db.prepare('SELECT v.version AS version, u.module AS module FROM unresolved_modules u JOIN versions v ON v.id = u.version_id').all() as { version: string; module: string }[];
  db.close();
  const unresolved = new Map<string, string[]>();
  for (const r of rows) unresolved.set(r.module, [...(unresolved.get(r.module) ?? []), r.version]);
  const snapshot = snapshotOf(matrix, asked, unresolved);
  const file = join(SNAPSHOT_FOLDER, `${library}.snapshot.json`);
  writeSnapshot(file, snapshot);
  console.log(`${file}: ${snapshot.asked.length} paths asked, ${snapshot.apis.length} kept over ${snapshot.versions.length} versions (${fixtures.length} fixtures)`);
  matrix.close();
}
catalog.close();
}

void main();
