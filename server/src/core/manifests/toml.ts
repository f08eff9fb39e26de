// TOML for manifests: smol-toml parses, and a small scanner of our own finds the line of every key and array
// element (toml-lines.ts: smol-toml gives values, not positions). A document that does not parse is reported at the
// line of the error and read again without what is broken, so that the rest of it still counts.
import { parse, TomlError } from 'smol-toml';
import type { ManifestProblem } from '../pin.js';
import { locateToml, tomlPathKey, type TomlPath } from './toml-lines.js';

export type { TomlPath };
export type TomlTable = Record<string, unknown>;

export interface LocatedToml {
  /** The document (what could be parsed of it). */
  data: TomlTable;
  /** 1-based line of the value at `path`, or of its nearest ancestor that has one (1 when none does). */
  lineOf(path: TomlPath): number;
  problems: ManifestProblem[];
}

export function isTable(value: unknown): value is TomlTable {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

const MAX_DROPS = 20;

function tomlErrorText(e: TomlError): string {
  const first = e.message.split('\n')[0] ?? e.message;
  return first.replace(/^Invalid TOML document:\s*/, '');
}

/** A line that looks like a table header: where a new section starts when the document is broken. */
const HEADER = /^\s*\[\[?\s*[A-Za-z0-9_."' -]+\s*\]\]?\s*(#.*)?$/;

/**
 * Parses `lines` (line `offset + 1` onwards of the document) without the lines in `dropped`, adding to `dropped`
 * each line an error points at until it parses (at most MAX_DROPS times). Returns the first error and the data
 * (null when it never parsed).
 */
function parseDropping(lines: string[], dropped: Set<number>, offset: number): { data: TomlTable | null; first: TomlError | null } {
  let first: TomlError | null = null;
  for (let attempt = 0; attempt <= MAX_DROPS; attempt++) {
    try {
      return { data: parse(lines.map((l, i) => (dropped.has(offset + i + 1) ? '' : l)).join('\n')) as TomlTable, first };
    } catch (e) {
      if (!(e instanceof TomlError)) throw e;
      first ??= e;
      const line = offset + e.line;
      if (dropped.has(line) || e.line < 1 || e.line > lines.length) break;
      dropped.add(line);
    }
  }
  return { data: null, first };
}

/**
 * Parses TOML. A document that does not parse is read again section by section (a section starts at a line that
 * looks like a table header): each section's first error is a problem, the lines an error points at are left
 * out, and a section that still does not parse is left out whole; the rest counts.
 */
export function parseTomlManifest(text: string, file: string): LocatedToml {
  const lines = text.split(/\r?\n/);
  const problems: ManifestProblem[] = [];
  const dropped = new Set<number>();
  let data: TomlTable = {};
  try {
    data = parse(text) as TomlTable;
  } catch (e) {
    if (!(e instanceof TomlError)) throw e;
    const starts = lines.map((l, i) => (i === 0 || HEADER.test(l) ? i : -1)).filter((i) => i >= 0);
    starts.forEach((start, k) => {
      const end = starts[k + 1] ?? lines.length;
      const { data: section, first } = parseDropping(lines.slice(start, end), dropped, start);
      if (first) problems.push({ file, line: start + first.line, message: `invalid TOML: ${tomlErrorText(first)}` });
      if (section === null) for (let i = start; i < end; i++) dropped.add(i + 1);
    });
    if (problems.length === 0) problems.push({ file, line: e.line, message: `invalid TOML: ${tomlErrorText(e)}` });
    // Sections that parse alone may still clash (a table defined twice): drop what the whole still rejects.
    data = parseDropping(lines, dropped, 0).data ?? {};
  }
  const located = locateToml(lines.map((l, i) => (dropped.has(i + 1) ? '' : l)).join('\n'));
  return {
    data,
    problems,
    lineOf(path) {
      for (let n = path.length; n > 0; n--) {
        const line = located.get(tomlPathKey(path.slice(0, n)));
        if (line !== undefined) return line;
      }
      return 1;
    },
  };
}
