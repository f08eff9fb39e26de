// Checked facts of library history (test/fixtures/facts/LIB.tsv, each with the release note it comes from): the
// bundled matrices must say exactly when each API or keyword appeared or disappeared.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { acceptsKeyword } from '../server/src/core/api-model.js';
import { openMatrixCatalog } from '../server/src/store/catalog.js';

const catalog = openMatrixCatalog(join(__dirname, '..', 'matrices'));
after(() => catalog.close());

interface Fact {
  api: string;
  change: 'added' | 'removed' | 'keyword-added' | 'keyword-removed';
  version: string;
  parameter: string;
  source: string;
}

function readFacts(file: string): Fact[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => {
      const [api, change, version, parameter, source] = l.split('\t');
      return { api: api!, change: change as Fact['change'], version: version!, parameter: parameter ?? '', source: source ?? '' };
    });
}

const dir = join(__dirname, 'fixtures', 'facts');
for (const file of readdirSync(dir).filter((f) => f.endsWith('.tsv')).sort()) {
  const library = file.replace(/\.tsv$/, '');
  describe(`${library} history`, () => {
    for (const fact of readFacts(join(dir, file))) {
      test(`${fact.api}${fact.parameter ? `(${fact.parameter}=)` : ''} ${fact.change} in ${fact.version} — ${fact.source}`, () => {
        const matrix = catalog.forImportRoot(library);
        assert.ok(matrix, `no ${library} matrix`);
        const at = matrix.versions.indexOf(fact.version);
        assert.ok(at > 0, `${library} ${fact.version} must be tracked, after at least one earlier version (tracked: ${matrix.versions.join(', ')})`);
        const history = matrix.lookup(fact.api);
        assert.ok(history, `${fact.api} is in no tracked version`);
        const cell = (i: number) => history.versions[i]!;
        const has = (i: number) =>
          fact.parameter ? cell(i).state === 'present' && !!cell(i).signature && acceptsKeyword(cell(i).signature!, fact.parameter) : cell(i).state === 'present';
        const before = matrix.versions[at - 1];
        const appears = fact.change === 'added' || fact.change === 'keyword-added';
        assert.equal(has(at - 1), !appears, `at ${before} (the tracked version before ${fact.version})`);
        assert.equal(has(at), appears, `at ${fact.version}`);
      });
    }
  });
}
