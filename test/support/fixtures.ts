// Checker fixtures: a Python file whose comments state the pins and the expected findings.
//
//   # anachron: pin numpy==1.24.2
//   y = np.trapezoid(x)
//   #   ^^^^^^^^^^^^ anachronistic-api numpy.trapezoid
//
// Carets sit under the columns the finding covers, on a comment line right below the code line; after the code
// and the API may come the parameter. A fixture with no caret lines expects no findings.
//
//   # anachron: matrices snapshot
//
// runs the fixture on the matrices the test builds from the snapshots in test/fixtures/matrices/ (a frozen part of
// the real matrices: test/support/matrix-snapshot.ts) instead of the bundled matrices: a fixture about the checker's
// mechanics says so, one about a library's real history does not.
//
//   # anachron: matrices synthetic
//
// runs it on matrices built from the hand-written histories in test/fixtures/matrices/*.synthetic.json
// (test/support/synthetic-history.ts): for mechanisms no real matrix is cut for, such as the deprecation tier.
//
// A caret line may end with `=> NAME`: the replacement the finding offers (`=> -`: none); without it the
// replacement is not compared.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ExpectedFinding {
  line: number; // 1-based
  column: number; // 1-based
  endColumn: number; // 1-based, exclusive
  code: string;
  api: string;
  parameter: string | null;
  /** The replacement the finding offers (null: none); undefined where the fixture does not say. */
  replacement?: string | null;
}

export interface Fixture {
  name: string;
  file: string;
  text: string;
  pins: string[];
  expected: ExpectedFinding[];
  /** Which matrices it runs on: the bundled ones, or those built from the snapshots. */
  matrices: 'bundled' | 'snapshot' | 'synthetic';
}

const PIN = /^#\s*anachron:\s*pin\s+(\S+)\s*$/;
const MATRICES = /^#\s*anachron:\s*matrices\s+(snapshot|synthetic)\s*$/;
const CARETS = /^(\s*#\s*)(\^+)\s+(\S+)\s+(\S+)(?:\s+(?!=>)(\S+))?(?:\s+=>\s+(\S+))?\s*$/;

export function parseFixture(file: string): Fixture {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const pins: string[] = [];
  const expected: ExpectedFinding[] = [];
  let lastCodeLine = 0;
  let matrices: Fixture['matrices'] = 'bundled';
  lines.forEach((line, i) => {
    const chosen = MATRICES.exec(line);
    if (chosen) matrices = chosen[1] as Fixture['matrices'];
    const pin = PIN.exec(line);
    if (pin) pins.push(pin[1]!);
    const caret = CARETS.exec(line);
    if (caret) {
      if (lastCodeLine === 0) throw new Error(`${file}:${i + 1}: caret line with no code line above it`);
      const start = caret[1]!.length;
      expected.push({ line: lastCodeLine, column: start + 1, endColumn: start + caret[2]!.length + 1, code: caret[3]!, api: caret[4]!, parameter: caret[5] ?? null, ...(caret[6] === undefined ? {} : { replacement: caret[6] === '-' ? null : caret[6] }) });
    } else if (!/^\s*#/.test(line) && line.trim() !== '') {
      lastCodeLine = i + 1;
    }
  });
  if (pins.length === 0) throw new Error(`${file}: no "# anachron: pin LIB==VERSION" line`);
  return { name: file.split('/').pop()!, file, text, pins, expected, matrices };
}

export function loadFixtures(dir: string): Fixture[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith('.py'))
    .sort()
    .map((n) => parseFixture(join(dir, n)));
}

export function sortFindings<T extends { line: number; column: number; code: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => a.line - b.line || a.column - b.column || a.code.localeCompare(b.code));
}
