// JSON with the line of every value: a small recursive-descent reader (JSON.parse gives no positions). Object
// members are located at their key. It gets past the common breakages (a trailing or missing comma, a truncated
// document), recording each as an error with its 1-based line; anything else (nesting past MAX_JSON_DEPTH too)
// throws a JsonSyntaxError.
import { InputError } from '../errors.js';
export type JsonPath = readonly (string | number)[];

export class JsonSyntaxError extends InputError {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

export interface LocatedJson {
  value: unknown;
  /** Breakages read past, in document order. */
  errors: { message: string; line: number }[];
  /** 1-based line of the value at `path` (of its key, for object members), or of its nearest located ancestor. */
  lineOf(path: JsonPath): number;
}

/** Deeper than this is no lock file: reading it would recurse as deep as the input says (10,000 overflowed the stack). */
export const MAX_JSON_DEPTH = 256;

export function parseJsonWithLines(text: string): LocatedJson {
  const reader = new JsonLineReader(text);
  const value = reader.document();
  const { lines, errors } = reader;
  return {
    value,
    errors,
    lineOf(path) {
      for (let n = path.length; n >= 0; n--) {
        const l = lines.get(JSON.stringify(path.slice(0, n)));
        if (l !== undefined) return l;
      }
      return 1;
    },
  };
}

const LITERAL = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/;

class JsonLineReader {
  /** The 1-based line of each value read, by its path as JSON. */
  readonly lines = new Map<string, number>();
  readonly errors: { message: string; line: number }[] = [];
  private pos = 0;
  private line = 1;
  /** The document ended inside a container (noted once, for the innermost). */
  private truncated = false;

  constructor(private readonly text: string) {}

  document(): unknown {
    const value = this.readValue([], 0);
    this.skip();
    if (this.pos < this.text.length) this.fail(`unexpected ${this.describeHere()} after the document`);
    return value;
  }

  private fail(message: string): never {
    throw new JsonSyntaxError(message, this.line);
  }

  private note(message: string, line = this.line): void {
    this.errors.push({ message, line });
  }

  private noteTruncated(what: string): void {
    if (!this.truncated) this.note(`the document ends inside ${what}`);
    this.truncated = true;
  }

  private skip(): void {
    for (;;) {
      const c = this.text[this.pos];
      if (c === '\n') this.line++;
      else if (c !== ' ' && c !== '\t' && c !== '\r' && c !== '\ufeff') return;
      this.pos++;
    }
  }

  private describeHere(): string {
    return this.pos >= this.text.length ? 'end of input' : `"${this.text[this.pos]}"`;
  }

  /** After a member or element: true when the container goes on, false when it ended (closed, or cut short). */
  private more(close: '}' | ']', what: string): boolean {
    const { text } = this;
    this.skip();
    const c = text[this.pos];
    if (c === ',') {
      const commaLine = this.line;
      this.pos++;
      this.skip();
      if (text[this.pos] !== close) return true;
      this.note(`trailing comma before "${close}"`, commaLine);
      this.pos++;
      return false;
    }
    if (c === close) {
      this.pos++;
      return false;
    }
    if (this.pos >= text.length) {
      this.noteTruncated(what);
      return false;
    }
    if (close === '}' ? c === '"' : /["{[\dtfn-]/.test(c!)) {
      this.note(`expected "," before ${this.describeHere()}`);
      return true;
    }
    return this.fail(`expected "," or "${close}", found ${this.describeHere()}`);
  }

  private readString(): string {
    const { text } = this;
    const start = this.pos;
    this.pos++;
    while (this.pos < text.length && text[this.pos] !== '"') {
      if (text[this.pos] === '\n') this.fail('unterminated string');
      this.pos += text[this.pos] === '\\' ? 2 : 1;
    }
    if (this.pos >= text.length) this.fail('unterminated string');
    this.pos++;
    try {
      return JSON.parse(text.slice(start, this.pos)) as string;
    } catch {
      return this.fail('invalid string');
    }
  }

  /** The value at `pos`, located at line `at` (its key's), or at its own line when `at` is 0. */
  private readValue(path: (string | number)[], at: number): unknown {
    if (path.length > MAX_JSON_DEPTH) this.fail(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    this.skip();
    const key = JSON.stringify(path);
    if (!this.lines.has(key)) this.lines.set(key, at === 0 ? this.line : at);
    const c = this.text[this.pos];
    if (c === '{') return this.readObject(path);
    if (c === '[') return this.readArray(path);
    if (c === '"') return this.readString();
    const literal = LITERAL.exec(this.text.slice(this.pos, this.pos + 64));
    if (!literal) return this.fail(`unexpected ${this.describeHere()}`);
    this.pos += literal[0].length;
    return JSON.parse(literal[0]) as unknown;
  }

  private readObject(path: (string | number)[]): Record<string, unknown> {
    const { text } = this;
    this.pos++;
    const out: Record<string, unknown> = {};
    this.skip();
    if (text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skip();
      if (this.pos >= text.length) {
        this.noteTruncated('an object');
        return out;
      }
      if (text[this.pos] !== '"') this.fail(`expected a key in quotes, found ${this.describeHere()}`);
      const keyLine = this.line;
      const name = this.readString();
      this.skip();
      if (text[this.pos] !== ':') this.fail(`expected ":" after "${name}", found ${this.describeHere()}`);
      this.pos++;
      out[name] = this.readValue([...path, name], keyLine);
      if (!this.more('}', 'an object')) return out;
    }
  }

  private readArray(path: (string | number)[]): unknown[] {
    this.pos++;
    const out: unknown[] = [];
    this.skip();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (let i = 0; ; i++) {
      out.push(this.readValue([...path, i], 0));
      if (!this.more(']', 'an array')) return out;
    }
  }
}
