// Deterministic randomness for fuzz tests: a seeded generator, random edits, random bytes.

import { seededRandom } from '../../server/src/core/random.js';

export { seededRandom };

const PIECES = ['np.', 'trapezoid(', ')', '(', '[', ']', ':', '\n', '    ', 'import ', 'from numpy import ', ' as ', ',', '=', 'equal_nan=', '"', "'", '#', 'try:\n', 'except ImportError:\n', 'é', '𝔘', '\t', '\\', 'lambda x: ', 'np.linalg.', 'rng.integers(', '*', '**'];

export interface RandomEdit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  text: string;
  apply(text: string): string;
}

function position(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: before[before.length - 1]!.length };
}

/** Random insertions, deletions and replacements, each expressed as an LSP range edit on the current text. */
export function* fuzzEdits(random: () => number, count: number, current: () => string): Generator<RandomEdit> {
  for (let i = 0; i < count; i++) {
    const text = current();
    let start = Math.floor(random() * (text.length + 1));
    let end = Math.min(text.length, start + (random() < 0.5 ? 0 : Math.floor(random() * 12)));
    // Never split a surrogate pair: LSP positions count UTF-16 units, but editors do not cut characters in half.
    const low = (k: number) => k > 0 && k < text.length && /[\uDC00-\uDFFF]/.test(text[k]!);
    if (low(start)) start--;
    if (low(end)) end++;
    const insert = random() < 0.7 ? PIECES[Math.floor(random() * PIECES.length)]! : '';
    yield {
      range: { start: position(text, start), end: position(text, end) },
      text: insert,
      apply: (t) => t.slice(0, start) + insert + t.slice(end),
    };
  }
}

export function randomBytes(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    const r = random();
    out += r < 0.6 ? 'numpy=<>~!.,; []#-\n0123456789abc'[Math.floor(random() * 33)] : String.fromCharCode(Math.floor(random() * 0xd7ff));
  }
  return out;
}
