// Gated (ANACHRON_GATED=1): the matrices of libraries read from their published files are what their surfaces in
// the surface cache build (ANACHRON_SURFACE_CACHE, default ~/.cache/anachron/surfaces; filled by
// `npm run matrices -- LIB`, which downloads the files the matrix's provenance names). A library whose surfaces are
// not in this machine's cache is skipped with the command that makes them.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { bundledLibraryDefinitions } from '../../server/src/libraries/definitions.js';
import { defaultSurfaceCache } from '../../server/src/store/matrices-folder.js';
import { inputDigest } from '../../server/src/store/matrix-builder.js';
import { SqliteMatrix } from '../../server/src/store/sqlite-matrix.js';
import { readEvidenceFolder } from '../../server/src/store/version-evidence.js';

const MATRICES = join(__dirname, '..', '..', 'matrices');
const GATED = process.env.ANACHRON_GATED === '1';

for (const d of bundledLibraryDefinitions().all.filter((x) => x.static?.from === 'pypi' && existsSync(join(MATRICES, `${x.name}.sqlite`)))) {
  const folder = join(defaultSurfaceCache(), d.name);
  const skip = !GATED ? 'set ANACHRON_GATED=1 to compare with the surface cache' : existsSync(folder) ? false : `no ${folder}: npm run matrices -- ${d.name}`;
  test(`${d.name}.sqlite is built from the surfaces in the cache`, { skip }, () => {
    const evidence = readEvidenceFolder(folder);
    const matrix = new SqliteMatrix(join(MATRICES, `${d.name}.sqlite`));
    try {
      assert.deepEqual(matrix.versions, evidence.map((e) => e.version));
      assert.equal(matrix.meta.input_sha256, inputDigest(evidence));
    } finally {
      matrix.close();
    }
  });
}
