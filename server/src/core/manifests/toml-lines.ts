// The 1-based line of every key, table header and array element of a (valid) TOML document, by path: smol-toml
// gives values, not positions. A scanner that skips what it does not need (string contents of values, scalars) and
// never fails: text it does not understand is skipped to the end of its line.
import { LineTable } from '../source-range.js';

export type TomlPath = readonly (string | number)[];

/** The key of a path in locateToml's map. */
export function tomlPathKey(path: TomlPath): string {
  return JSON.stringify(path);
}

/** Array tables count as arrays: `[[package]]` opens ["package", 0], ["package", 1], … */
export function locateToml(text: string): Map<string, number> {
  return new TomlLineScanner(text).scan();
}

const SPACE = 32, TAB = 9, CR = 13, LF = 10, HASH = 35, DQ = 34, SQ = 39, BS = 92;
const BARE_KEY = /[A-Za-z0-9_-]+/y;
const SCALAR = /[^,\]}#\r\n]*/y;
const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\' };

class TomlLineScanner {
  private readonly lines = new Map<string, number>();
  /** How many elements each array table (by path key) has opened so far. */
  private readonly arrayTables = new Map<string, number>();
  private readonly lineTable: LineTable;
  private readonly end: number;
  private pos = 0;

  constructor(private readonly text: string) {
    this.lineTable = new LineTable(text);
    this.end = text.length;
  }

  scan(): Map<string, number> {
    const { text } = this;
    let table: (string | number)[] = [];
    while (this.pos < this.end) {
      this.skipBlank();
      if (this.pos >= this.end) break;
      const before = this.pos;
      if (text[this.pos] === '[') table = this.readHeader(before);
      else this.readKeyValue(table, before);
      // Whatever is left on the line (a comment, or text this scanner does not understand) is skipped.
      this.skipToLineEnd();
      if (this.pos === before) this.pos++;
    }
    return this.lines;
  }

  private code(at = this.pos): number {
    return at < this.end ? this.text.charCodeAt(at) : -1;
  }

  private skipSpaces(): void {
    while (this.pos < this.end && (this.code() === SPACE || this.code() === TAB)) this.pos++;
  }

  private skipToLineEnd(): void {
    const nl = this.text.indexOf('\n', this.pos);
    this.pos = nl < 0 ? this.end : nl;
  }

  /** Whitespace, newlines and comments. */
  private skipBlank(): void {
    while (this.pos < this.end) {
      const c = this.code();
      if (c === SPACE || c === TAB || c === CR || c === LF) this.pos++;
      else if (c === HASH) this.skipToLineEnd();
      else return;
    }
  }

  private record(path: TomlPath, at: number): void {
    const key = tomlPathKey(path);
    if (!this.lines.has(key)) this.lines.set(key, this.lineTable.position(at).line + 1);
  }

  /** Skips a string; returns its value only when asked (keys), since values are not needed. */
  private readString(wanted: boolean): string {
    const quote = this.code();
    return this.code(this.pos + 1) === quote && this.code(this.pos + 2) === quote ? this.readMultilineString(quote, wanted) : this.readLineString(quote, wanted);
  }

  private readMultilineString(quote: number, wanted: boolean): string {
    const { text } = this;
    const q = quote === DQ ? '"' : "'";
    let close = this.pos + 3;
    for (;;) {
      close = text.indexOf(q + q + q, close);
      if (close < 0) {
        this.pos = this.end;
        return '';
      }
      let backslashes = 0;
      if (quote === DQ) for (let i = close - 1; i >= 0 && text.charCodeAt(i) === BS; i--) backslashes++;
      if (backslashes % 2 === 0) break;
      close++;
    }
    while (this.code(close + 3) === quote) close++; // up to two quotes may end the content
    const raw = wanted ? text.slice(this.pos + 3, close) : '';
    this.pos = close + 3;
    return raw;
  }

  private readLineString(quote: number, wanted: boolean): string {
    const { text } = this;
    this.pos++;
    let out = '';
    while (this.pos < this.end) {
      const c = this.code();
      if (c === quote || c === LF) break;
      if (c === BS && quote === DQ) {
        if (wanted) out += this.readEscape();
        else this.pos += 2;
        continue;
      }
      if (wanted) out += text[this.pos];
      this.pos++;
    }
    if (this.code() === quote) this.pos++;
    return out;
  }

  /** A basic string's escape at the backslash under `pos`: what it stands for. */
  private readEscape(): string {
    const e = this.text[this.pos + 1] ?? '';
    if (e in SIMPLE_ESCAPES) {
      this.pos += 2;
      return SIMPLE_ESCAPES[e]!;
    }
    if (e === 'u' || e === 'U') {
      const len = e === 'u' ? 4 : 8;
      const char = String.fromCodePoint(parseInt(this.text.slice(this.pos + 2, this.pos + 2 + len), 16) || 0xfffd);
      this.pos += 2 + len;
      return char;
    }
    this.pos += 2;
    return e;
  }

  /** A dotted key's parts (bare or quoted). */
  private readKey(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipSpaces();
      const c = this.code();
      if (c === DQ || c === SQ) parts.push(this.readString(true));
      else {
        BARE_KEY.lastIndex = this.pos;
        const m = BARE_KEY.exec(this.text);
        if (!m) break;
        parts.push(m[0]);
        this.pos += m[0].length;
      }
      this.skipSpaces();
      if (this.text[this.pos] !== '.') break;
      this.pos++;
    }
    return parts;
  }

  /** `[a.b]` or `[[a.b]]`: records the header's paths and returns the table that the following keys belong to. */
  private readHeader(before: number): (string | number)[] {
    const isArray = this.text[this.pos + 1] === '[';
    this.pos += isArray ? 2 : 1;
    const keys = this.readKey();
    this.skipSpaces();
    const table = this.resolveHeader(keys, isArray, before);
    for (let n = 1; n <= table.length; n++) this.record(table.slice(0, n), before);
    return table;
  }

  /** Resolves a header's keys, stepping into the latest element of every array table on the way. */
  private resolveHeader(keys: string[], isArray: boolean, at: number): (string | number)[] {
    const path: (string | number)[] = [];
    keys.forEach((k, i) => {
      path.push(k);
      const key = tomlPathKey(path);
      if (isArray && i === keys.length - 1) {
        const n = this.arrayTables.get(key) ?? 0;
        this.arrayTables.set(key, n + 1);
        this.record(path, at);
        path.push(n);
      } else {
        const n = this.arrayTables.get(key);
        if (n !== undefined) path.push(n - 1);
      }
    });
    return path;
  }

  /** `key = value` in `table`: the key's dotted prefixes and the value's paths. */
  private readKeyValue(table: (string | number)[], before: number): void {
    const key = this.readKey();
    this.skipSpaces();
    if (key.length === 0 || this.text[this.pos] !== '=') return;
    this.pos++;
    this.skipSpaces();
    for (let n = 1; n < key.length; n++) this.record([...table, ...key.slice(0, n)], before);
    this.readValue([...table, ...key]);
  }

  private readValue(path: (string | number)[]): void {
    this.record(path, this.pos);
    const c = this.text[this.pos];
    if (c === '"' || c === "'") this.readString(false);
    else if (c === '[') this.readArray(path);
    else if (c === '{') this.readInlineTable(path);
    else {
      SCALAR.lastIndex = this.pos;
      this.pos += SCALAR.exec(this.text)![0].length;
    }
  }

  private readArray(path: (string | number)[]): void {
    this.pos++;
    for (let i = 0; ; i++) {
      this.skipBlank();
      if (this.pos >= this.end || this.text[this.pos] === ']') break;
      path.push(i);
      this.readValue(path);
      path.pop();
      this.skipBlank();
      if (this.text[this.pos] === ',') this.pos++;
      else break;
    }
    this.skipBlank();
    this.pos++; // ]
  }

  private readInlineTable(path: (string | number)[]): void {
    this.pos++;
    for (;;) {
      this.skipBlank();
      if (this.pos >= this.end || this.text[this.pos] === '}') break;
      const keyAt = this.pos;
      const key = this.readKey();
      if (key.length === 0) break;
      this.skipSpaces();
      if (this.text[this.pos] === '=') this.pos++;
      this.skipSpaces();
      for (let n = 1; n < key.length; n++) this.record([...path, ...key.slice(0, n)], keyAt);
      const before = path.length;
      path.push(...key);
      this.readValue(path);
      path.length = before;
      this.skipBlank();
      if (this.text[this.pos] === ',') this.pos++;
    }
    this.skipBlank();
    this.pos++; // }
  }
}
