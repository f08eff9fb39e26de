// A code corpus for API-C: Python files with the exact pins in force for each. Plain data; corpus-reader.ts fills it
// from a folder and its manifests, corpusFromFiles from files and explicit pins. The parser is the only dependency
// the builder needs to read the code, and it arrives with the corpus. Pure.
import { createHash } from 'node:crypto';
import { normalizeDistributionName } from '../../../core/library-names.js';
import type { PythonParser } from '../../../parser/python-parser.js';

export interface CorpusFile {
  /** Path relative to the corpus root, '/'-separated: where a snippet comes from, recorded in its ground truth. */
  path: string;
  text: string;
  /** Exact pins in force for the file: normalised distribution name → version. Ranges are not pins here. */
  pins: Readonly<Record<string, string>>;
}

export interface Corpus {
  files: readonly CorpusFile[];
  parser: PythonParser;
}

/** Normalises the distribution names of `pins` ("Scikit_Learn" → "scikit-learn"). */
export function normalizePins(pins: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, version] of Object.entries(pins)) out[normalizeDistributionName(name)] = version;
  return out;
}

/** Files with the same explicit pins, e.g. `{ numpy: '1.24.2' }`. */
export function corpusFromFiles(files: readonly { path: string; text: string }[], pins: Readonly<Record<string, string>>): CorpusFile[] {
  const normalised = normalizePins(pins);
  return files.map((f) => ({ path: f.path, text: f.text, pins: normalised }));
}

/** Line endings as the prompt contract carries them: "\r\n" and lone "\r" become "\n". */
export function normaliseNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/**
 * A digest of a corpus (paths, pins and texts, in path order): API-C samples change with the corpus, so a run that
 * builds API-C from one records it in its identity (RunConfig.corpus, runIdentity).
 */
export function corpusDigest(files: readonly CorpusFile[]): string {
  const hash = createHash('sha256');
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(JSON.stringify([f.path, Object.entries(f.pins).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)), normaliseNewlines(f.text)]));
  }
  return hash.digest('hex').slice(0, 24);
}
