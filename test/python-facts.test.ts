// The checked facts of Python's history (test/fixtures/facts/python.tsv, each from "What's New") must hold in both
// sources of the python matrix separately: typeshed's stubs evaluated at each minor (the static surfaces) and the
// standard library walked in real interpreters (the runtime surfaces), not only in the union the matrix keeps.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { readSurfaceFile, type Surface } from '../server/src/store/surface.js';
import { appears, holds, previousMinor, readPythonFacts } from './support/python-facts.js';

const dir = join(__dirname, '..', 'matrices', 'surfaces', 'python');
const cache = new Map<string, Surface>();
function surface(version: string, kind: 'static' | 'runtime'): Surface {
  const key = `${version}.${kind}`;
  if (!cache.has(key)) cache.set(key, readSurfaceFile(join(dir, `python-${version}.${kind}.json.gz`)));
  return cache.get(key)!;
}

const facts = readPythonFacts();

test('at least 60 checked facts', () => assert.ok(facts.length >= 60, `${facts.length} facts`));

for (const kind of ['static', 'runtime'] as const) {
  describe(`python facts in the ${kind === 'static' ? "typeshed" : 'runtime'} surfaces`, () => {
    for (const fact of facts) {
      test(`${fact.api}${fact.parameter ? `(${fact.parameter}=)` : ''} ${fact.change} in ${fact.version}`, () => {
        const before = surface(previousMinor(fact.version), kind);
        const after = surface(fact.version, kind);
        const was = holds(before, fact);
        const is = holds(after, fact);
        // A runtime signature that inspect could not read says nothing about keywords.
        if (kind === 'runtime' && fact.parameter && (was === null || is === null)) return;
        assert.equal(was, !appears(fact), `${fact.api} at ${previousMinor(fact.version)} (${kind})`);
        assert.equal(is, appears(fact), `${fact.api} at ${fact.version} (${kind})`);
      });
    }
  });
}
