// The matrices shipped in matrices/ are what the committed surfaces build, and meet the coverage bar.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { inputDigest } from '../server/src/store/matrix-builder.js';
import { SqliteMatrix } from '../server/src/store/sqlite-matrix.js';
import { readEvidenceFolder } from '../server/src/store/version-evidence.js';

const MATRICES = join(__dirname, '..', 'matrices');

describe('bundled matrices', () => {
  for (const library of readdirSync(join(MATRICES, 'surfaces')).sort()) {
    test(`${library}.sqlite is built from the committed surfaces (run npm run build:matrices if not)`, () => {
      const evidence = readEvidenceFolder(join(MATRICES, 'surfaces', library));
      const matrix = new SqliteMatrix(join(MATRICES, `${library}.sqlite`));
      try {
        assert.equal(matrix.meta.input_sha256, inputDigest(evidence));
        assert.deepEqual(matrix.versions, evidence.map((e) => e.version));
      } finally {
        matrix.close();
      }
    });
  }

  test('numpy: at least 1,500 public APIs per version, and a structured signature for at least 85% of callables', () => {
    const matrix = new SqliteMatrix(join(MATRICES, 'numpy.sqlite'));
    try {
      assert.deepEqual(matrix.versions, ['1.19.5', '1.24.2', '2.2.4', '2.4.6']);
      for (const v of matrix.versionInfo) {
        assert.ok(v.stats.apis >= 1500, `${v.version}: ${v.stats.apis} APIs`);
        assert.ok(v.stats.callables_with_signature / v.stats.callables >= 0.85, `${v.version}: ${v.stats.callables_with_signature}/${v.stats.callables}`);
        assert.equal(v.provenance.source, 'debian-runtime');
      }
    } finally {
      matrix.close();
    }
  });
});
