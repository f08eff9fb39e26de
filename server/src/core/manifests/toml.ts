// TOML for manifests: smol-toml parses, and a small scanner of our own finds the line of every key and array
// element (smol-toml gives values, not positions). A document that does not parse is reported at the line of the
// error and read again without what is broken, so that the rest of it still counts.
import { parse, TomlError } from 'smol-toml';
import type { ManifestProblem } from '../pin.js';
import { LineTable } from '../source-range.js';

export type TomlPath = readonly (string | number)[];
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
        const line = located.get(pathKey(path.slice(0, n)));
        if (line !== undefined) return line;
      }
      return 1;
    },
  };
}

function pathKey(path: TomlPath): string {
  return JSON.stringify(path);
}

/**
 * The 1-based line of every key, table header and array element of a (valid) TOML document, by path. Array
 * tables count as arrays: `[[package]]` opens ["package", 0], ["package", 1], …
 */
export function locateToml(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  const arrayTables = new Map<string, number>();
  const lineTable = new LineTable(text);
  const lineAt = (offset: number): number => lineTable.position(offset).line + 1;
  const end = text.length;
  let pos = 0;
  let table: (string | number)[] = [];

  const code = (at = pos) => (at < end ? text.charCodeAt(at) : -1);
  const SPACE = 32, TAB = 9, CR = 13, LF = 10, HASH = 35, DQ = 34, SQ = 39, BS = 92;
  const skipSpaces = () => {
    while (pos < end && (code() === SPACE || code() === TAB)) pos++;
  };
  const skipToLineEnd = () => {
    const nl = text.indexOf('\n', pos);
    pos = nl < 0 ? end : nl;
  };
  const skipBlank = () => {
    while (pos < end) {
      const c = code();
      if (c === SPACE || c === TAB || c === CR || c === LF) pos++;
      else if (c === HASH) skipToLineEnd();
      else return;
    }
  };
  const record = (path: TomlPath, at: number) => {
    const key = pathKey(path);
    if (!lines.has(key)) lines.set(key, lineAt(at));
  };

  /** Skips a string; returns its value only when asked (keys), since values are not needed. */
  const readString = (wanted: boolean): string => {
    const quote = code();
    const q = quote === DQ ? '"' : "'";
    if (code(pos + 1) === quote && code(pos + 2) === quote) {
      let close = pos + 3;
      for (;;) {
        close = text.indexOf(q + q + q, close);
        if (close < 0) {
          pos = end;
          return '';
        }
        let backslashes = 0;
        if (quote === DQ) for (let i = close - 1; i >= 0 && text.charCodeAt(i) === BS; i--) backslashes++;
        if (backslashes % 2 === 0) break;
        close++;
      }
      while (code(close + 3) === quote) close++; // up to two quotes may end the content
      const raw = wanted ? text.slice(pos + 3, close) : '';
      pos = close + 3;
      return raw;
    }
    pos++;
    let out = '';
    while (pos < end) {
      const c = code();
      if (c === quote || c === LF) break;
      if (c === BS && quote === DQ) {
        if (wanted) {
          const e = text[pos + 1] ?? '';
          const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\' };
          if (e in simple) {
            out += simple[e];
            pos += 2;
          } else if (e === 'u' || e === 'U') {
            const len = e === 'u' ? 4 : 8;
            out += String.fromCodePoint(parseInt(text.slice(pos + 2, pos + 2 + len), 16) || 0xfffd);
            pos += 2 + len;
          } else {
            out += e;
            pos += 2;
          }
          continue;
        }
        pos += 2;
        continue;
      }
      if (wanted) out += text[pos];
      pos++;
    }
    if (code() === quote) pos++;
    return out;
  };

  const BARE_KEY = /[A-Za-z0-9_-]+/y;
  const readKey = (): string[] => {
    const parts: string[] = [];
    for (;;) {
      skipSpaces();
      const c = code();
      if (c === DQ || c === SQ) parts.push(readString(true));
      else {
        BARE_KEY.lastIndex = pos;
        const m = BARE_KEY.exec(text);
        if (!m) break;
        parts.push(m[0]);
        pos += m[0].length;
      }
      skipSpaces();
      if (text[pos] !== '.') break;
      pos++;
    }
    return parts;
  };

  const SCALAR = /[^,\]}#\r\n]*/y;
  const readValue = (path: (string | number)[]): void => {
    record(path, pos);
    const c = text[pos];
    if (c === '"' || c === "'") {
      readString(false);
    } else if (c === '[') {
      pos++;
      for (let i = 0; ; i++) {
        skipBlank();
        if (pos >= end || text[pos] === ']') break;
        path.push(i);
        readValue(path);
        path.pop();
        skipBlank();
        if (text[pos] === ',') pos++;
        else break;
      }
      skipBlank();
      pos++; // ]
    } else if (c === '{') {
      pos++;
      for (;;) {
        skipBlank();
        if (pos >= end || text[pos] === '}') break;
        const keyAt = pos;
        const key = readKey();
        if (key.length === 0) break;
        skipSpaces();
        if (text[pos] === '=') pos++;
        skipSpaces();
        for (let n = 1; n < key.length; n++) record([...path, ...key.slice(0, n)], keyAt);
        const before = path.length;
        path.push(...key);
        readValue(path);
        path.length = before;
        skipBlank();
        if (text[pos] === ',') pos++;
      }
      skipBlank();
      pos++; // }
    } else {
      SCALAR.lastIndex = pos;
      pos += SCALAR.exec(text)![0].length;
    }
  };

  /** Resolves a header's keys, stepping into the latest element of every array table on the way. */
  const resolveHeader = (keys: string[], isArray: boolean, at: number): (string | number)[] => {
    const path: (string | number)[] = [];
    keys.forEach((k, i) => {
      path.push(k);
      const key = pathKey(path);
      if (isArray && i === keys.length - 1) {
        const n = arrayTables.get(key) ?? 0;
        arrayTables.set(key, n + 1);
        record(path, at);
        path.push(n);
      } else {
        const n = arrayTables.get(key);
        if (n !== undefined) path.push(n - 1);
      }
    });
    return path;
  };

  while (pos < end) {
    skipBlank();
    if (pos >= end) break;
    const before = pos;
    if (text[pos] === '[') {
      const isArray = text[pos + 1] === '[';
      pos += isArray ? 2 : 1;
      const keys = readKey();
      skipSpaces();
      table = resolveHeader(keys, isArray, before);
      for (let n = 1; n <= table.length; n++) record(table.slice(0, n), before);
    } else {
      const key = readKey();
      skipSpaces();
      if (key.length > 0 && text[pos] === '=') {
        pos++;
        skipSpaces();
        for (let n = 1; n < key.length; n++) record([...table, ...key.slice(0, n)], before);
        readValue([...table, ...key]);
      }
    }
    // Whatever is left on the line (a comment, or text this scanner does not understand) is skipped.
    skipToLineEnd();
    if (pos === before) pos++;
  }
  return lines;
}
