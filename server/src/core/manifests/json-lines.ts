// JSON with the line of every value: a small recursive-descent reader (JSON.parse gives no positions). Object
// members are located at their key. It gets past the common breakages (a trailing or missing comma, a truncated
// document), recording each as an error with its 1-based line; anything else throws a JsonSyntaxError.
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

export function parseJsonWithLines(text: string): LocatedJson {
  const lines = new Map<string, number>();
  const errors: { message: string; line: number }[] = [];
  let pos = 0;
  let line = 1;
  const fail = (message: string): never => {
    throw new JsonSyntaxError(message, line);
  };
  const note = (message: string) => errors.push({ message, line });
  let truncated = false;
  /** After a member or element: true when the container goes on, false when it ended (closed, or cut short). */
  const more = (close: '}' | ']', what: string): boolean => {
    skip();
    const c = text[pos];
    if (c === ',') {
      const commaLine = line;
      pos++;
      skip();
      if (text[pos] !== close) return true;
      errors.push({ message: `trailing comma before "${close}"`, line: commaLine });
      pos++;
      return false;
    }
    if (c === close) {
      pos++;
      return false;
    }
    if (pos >= text.length) {
      if (!truncated) note(`the document ends inside ${what}`);
      truncated = true;
      return false;
    }
    if (close === '}' ? c === '"' : /["{[\dtfn-]/.test(c!)) {
      note(`expected "," before ${describeHere()}`);
      return true;
    }
    return fail(`expected "," or "${close}", found ${describeHere()}`);
  };
  const skip = () => {
    for (;;) {
      const c = text[pos];
      if (c === '\n') line++;
      else if (c !== ' ' && c !== '\t' && c !== '\r' && c !== '\ufeff') return;
      pos++;
    }
  };
  const describeHere = () => (pos >= text.length ? 'end of input' : `"${text[pos]}"`);

  const readString = (): string => {
    const start = pos;
    pos++;
    while (pos < text.length && text[pos] !== '"') {
      if (text[pos] === '\n') fail('unterminated string');
      pos += text[pos] === '\\' ? 2 : 1;
    }
    if (pos >= text.length) fail('unterminated string');
    pos++;
    try {
      return JSON.parse(text.slice(start, pos)) as string;
    } catch {
      return fail('invalid string');
    }
  };

  const readValue = (path: (string | number)[], at: number): unknown => {
    skip();
    const key = JSON.stringify(path);
    if (!lines.has(key)) lines.set(key, at === 0 ? line : at);
    const c = text[pos];
    if (c === '{') {
      pos++;
      const out: Record<string, unknown> = {};
      skip();
      if (text[pos] === '}') {
        pos++;
        return out;
      }
      for (;;) {
        skip();
        if (pos >= text.length) {
          if (!truncated) note('the document ends inside an object');
          truncated = true;
          return out;
        }
        if (text[pos] !== '"') fail(`expected a key in quotes, found ${describeHere()}`);
        const keyLine = line;
        const name = readString();
        skip();
        if (text[pos] !== ':') fail(`expected ":" after "${name}", found ${describeHere()}`);
        pos++;
        out[name] = readValue([...path, name], keyLine);
        if (!more('}', 'an object')) return out;
      }
    }
    if (c === '[') {
      pos++;
      const out: unknown[] = [];
      skip();
      if (text[pos] === ']') {
        pos++;
        return out;
      }
      for (let i = 0; ; i++) {
        out.push(readValue([...path, i], 0));
        if (!more(']', 'an array')) return out;
      }
    }
    if (c === '"') return readString();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(pos, pos + 64));
    if (!literal) return fail(`unexpected ${describeHere()}`);
    pos += literal[0].length;
    return JSON.parse(literal[0]) as unknown;
  };

  const value = readValue([], 0);
  skip();
  if (pos < text.length) fail(`unexpected ${describeHere()} after the document`);
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
