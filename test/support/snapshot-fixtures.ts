// The fixtures that run on snapshot matrices: which libraries they pin, and what their checks ask a matrix (shared
// by the snapshot writer and by the test that the snapshots still answer every question).
import { join } from 'node:path';
import { checkPythonSource } from '../../server/src/check-source.js';
import type { MatrixCatalog } from '../../server/src/core/api-model.js';
import { choosePins, parseRequirementsTxt } from '../../server/src/core/pins.js';
import type { PythonParser } from '../../server/src/parser/python-parser.js';
import type { Fixture } from './fixtures.js';
import { recordingCatalog, type Asked } from './matrix-snapshot.js';

export const SNAPSHOT_FOLDER = join(__dirname, '..', 'fixtures', 'matrices');

/** The pins of a fixture as its requirements.txt states them. */
export function pinsOf(fixture: Fixture) {
  return choosePins(parseRequirementsTxt(fixture.pins.join('\n') + '\n', 'requirements.txt').pins).pins;
}

/** Import names of the libraries the fixtures pin (each needs a snapshot). */
export function snapshotLibraries(fixtures: readonly Fixture[]): string[] {
  const names = new Set<string>();
  for (const f of fixtures) for (const pin of f.pins) names.add(/^[A-Za-z0-9_.-]+/.exec(pin)![0].toLowerCase());
  return [...names].sort();
}

/** What checking every fixture asks `library`'s matrix in `catalog`. */
export function askedBy(parser: PythonParser, catalog: MatrixCatalog, library: string, fixtures: readonly Fixture[]): Asked {
  const recording = recordingCatalog(catalog, library);
  for (const f of fixtures) checkPythonSource(parser, f.text, { catalog: recording.catalog, pins: pinsOf(f) });
  return recording.asked;
}
