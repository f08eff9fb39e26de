// Finds the manifests that govern a Python file and reads their pins: the nearest folder, walking up from the
// file, that holds requirements*.txt files. Reading goes through a function so editors can supply unsaved text.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseRequirementsTxt, type ManifestProblem, type Pin } from '../core/pins.js';
import { normalizeDistributionName } from '../core/library-names.js';

export interface ManifestPins {
  pins: Map<string, Pin>;
  problems: ManifestProblem[];
  manifests: string[];
}

export interface ManifestReader {
  listDir(dir: string): string[];
  readText(file: string): string | undefined;
}

export const diskReader: ManifestReader = {
  listDir(dir) {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  },
  readText(file) {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  },
};

const REQUIREMENTS = /^requirements.*\.txt$/i;

/** requirements.txt first, then the others by name: the main file wins when two pin the same library. */
function manifestOrder(a: string, b: string): number {
  const rank = (n: string) => (n.toLowerCase() === 'requirements.txt' ? 0 : 1);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Pins for `file`: from the nearest folder at or above it (not above `root`, when given) that has requirements
 * files. Manifest paths in pins are shown relative to `displayBase`.
 */
export function pinsForFile(file: string, options: { root?: string; displayBase: string; reader?: ManifestReader }): ManifestPins {
  const reader = options.reader ?? diskReader;
  const root = options.root ? resolve(options.root) : undefined;
  let dir = dirname(resolve(file));
  for (;;) {
    const names = reader.listDir(dir).filter((n) => REQUIREMENTS.test(n)).sort(manifestOrder);
    if (names.length > 0) return readManifests(names.map((n) => join(dir, n)), options.displayBase, reader);
    const up = dirname(dir);
    if (up === dir || (root !== undefined && relative(root, dir) === '')) break;
    dir = up;
  }
  return { pins: new Map(), problems: [], manifests: [] };
}

/** Exact pins beat ranges, ranges beat bare names; on a tie the earlier manifest wins. */
function strength(pin: Pin): number {
  return pin.exactVersion !== null ? 0 : pin.specifier !== '' ? 1 : 2;
}

export function readManifests(files: string[], displayBase: string, reader: ManifestReader = diskReader): ManifestPins {
  const pins = new Map<string, Pin>();
  const problems: ManifestProblem[] = [];
  for (const file of files) {
    const text = reader.readText(file);
    const shown = relative(displayBase, file) || file;
    if (text === undefined) {
      problems.push({ file: shown, line: 1, message: `cannot read ${shown}` });
      continue;
    }
    const parsed = parseRequirementsTxt(text, shown);
    problems.push(...parsed.problems);
    for (const pin of parsed.pins) {
      const key = normalizeDistributionName(pin.distribution);
      const current = pins.get(key);
      if (!current || strength(pin) < strength(current)) pins.set(key, pin);
    }
  }
  return { pins, problems, manifests: files };
}
