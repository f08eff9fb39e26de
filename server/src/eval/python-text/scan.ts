// String-aware scanning of Python expression text, enough to read model answers: find the first call and its
// argument list, split at top-level commas, find a top-level assignment, tell code from prose. Answers are often not
// valid Python (prose around a call, a truncated line), so this reads leniently instead of parsing. Pure.

const OPEN: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const CLOSE = new Set([')', ']', '}']);

export const PY_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(' '),
);

const IDENT_START = /[A-Za-z_]/;
const IDENT_PART = /[A-Za-z0-9_]/;

export function isIdentifier(text: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(text) && !PY_KEYWORDS.has(text);
}

/** Index just past the string literal that opens at `i` (a quote character); text.length when it never closes. */
export function skipString(text: string, i: number): number {
  const q = text[i]!;
  const triple = text.startsWith(q.repeat(3), i);
  const close = triple ? q.repeat(3) : q;
  let j = i + close.length;
  while (j < text.length) {
    const c = text[j]!;
    if (c === '\\') {
      j += 2;
      continue;
    }
    if (!triple && c === '\n') return j; // an unterminated one-line string ends at the line
    if (text.startsWith(close, j)) return j + close.length;
    j++;
  }
  return text.length;
}

/** Index of the bracket closing the one at `open`, or -1 when it never closes. Strings and comments are skipped. */
export function matchBracket(text: string, open: number): number {
  const stack: string[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      i = skipString(text, i) - 1;
      continue;
    }
    if (c === '#') {
      const nl = text.indexOf('\n', i);
      if (nl < 0) return -1;
      i = nl;
      continue;
    }
    if (OPEN[c]) stack.push(OPEN[c]!);
    else if (CLOSE.has(c)) {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/** The characters of `text` outside string literals, each with the bracket depth it stands at (never below 0). */
function* codeChars(text: string): Generator<[index: number, char: string, depth: number]> {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      i = skipString(text, i) - 1;
      continue;
    }
    yield [i, c, depth];
    if (OPEN[c]) depth++;
    else if (CLOSE.has(c)) depth = Math.max(0, depth - 1);
  }
}

/** Splits at `sep` characters outside brackets and strings; pieces are trimmed, empty trailing pieces dropped. */
export function splitTopLevel(text: string, sep = ','): string[] {
  const out: string[] = [];
  let start = 0;
  for (const [i, c, depth] of codeChars(text)) {
    if (c === sep && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last !== '' || out.length > 0) out.push(last);
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

/** The text with a trailing `# comment` removed (outside strings). */
export function stripComment(line: string): string {
  for (const [i, c] of codeChars(line)) if (c === '#') return line.slice(0, i);
  return line;
}

/**
 * Index of the `=` of a top-level assignment (`x = …`, `a.b[0] = …`, `x += …` gives the index of `=`), or -1.
 * Comparisons (`==`, `<=`, `>=`, `!=`), keywords inside brackets and `:=` do not count.
 */
export function topLevelAssignment(text: string): number {
  for (const [i, c, depth] of codeChars(text)) {
    if (c !== '=' || depth !== 0) continue;
    const prev = text[i - 1];
    // `==` is skipped at its first `=` (the next is `=`) and at its second (the previous is)
    if (text[i + 1] === '=' || prev === '=' || prev === '<' || prev === '>' || prev === '!' || prev === ':') continue;
    return i;
  }
  return -1;
}

interface Token {
  kind: 'word' | 'number' | 'string' | 'op';
  text: string;
}

/** Top-level tokens (bracketed groups collapse into one op token), for telling an expression from a sentence. */
function topLevelTokens(text: string): Token[] | null {
  const tokens: Token[] = [];
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = skipString(text, i);
      tokens.push({ kind: 'string', text: text.slice(i, end) });
      i = end;
      continue;
    }
    if (OPEN[c]) {
      const end = matchBracket(text, i);
      if (end < 0) return null;
      tokens.push({ kind: 'op', text: c });
      i = end + 1;
      continue;
    }
    if (IDENT_START.test(c)) {
      let j = i + 1;
      while (j < text.length && IDENT_PART.test(text[j]!)) j++;
      // A string prefix (f"…", rb'…') belongs to the string.
      if (j < text.length && (text[j] === '"' || text[j] === "'") && /^[rRbBuUfF]{1,2}$/.test(text.slice(i, j))) {
        const end = skipString(text, j);
        tokens.push({ kind: 'string', text: text.slice(i, end) });
        i = end;
        continue;
      }
      tokens.push({ kind: 'word', text: text.slice(i, j) });
      i = j;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < text.length && /[0-9A-Za-z_.]/.test(text[j]!)) j++;
      tokens.push({ kind: 'number', text: text.slice(i, j) });
      i = j;
      continue;
    }
    tokens.push({ kind: 'op', text: c });
    i++;
  }
  return tokens;
}

/**
 * Whether the text reads as one Python expression rather than a sentence: outside brackets and strings, no two
 * names or numbers follow each other without an operator or keyword between them ("Use np.mean(x)" is prose).
 */
export function looksLikeExpression(text: string): boolean {
  const tokens = topLevelTokens(text);
  if (!tokens || tokens.length === 0) return false;
  for (let i = 1; i < tokens.length; i++) {
    const a = tokens[i - 1]!;
    const b = tokens[i]!;
    const operand = (t: Token) => (t.kind === 'word' && !PY_KEYWORDS.has(t.text)) || t.kind === 'number' || t.kind === 'string';
    if (operand(a) && operand(b) && !(a.kind === 'string' && b.kind === 'string')) return false;
  }
  return true;
}

export interface CallArgument {
  kind: 'positional' | 'keyword' | 'star' | 'double-star';
  /** The keyword of a keyword argument. */
  name?: string;
  value: string;
}

export interface CallSite {
  /** The dotted name called, as written (whitespace around dots removed): `np.linalg.norm`. */
  callee: string;
  arguments: CallArgument[];
  /** The call's text, callee to closing parenthesis. */
  text: string;
}

/** Reads one argument of a call: `x`, `axis=0`, `*xs`, `**kw`. */
export function parseArgument(text: string): CallArgument {
  if (text.startsWith('**')) return { kind: 'double-star', value: text.slice(2).trim() };
  if (text.startsWith('*')) return { kind: 'star', value: text.slice(1).trim() };
  const kw = /^([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)\s*([\s\S]*)$/.exec(text);
  if (kw) return { kind: 'keyword', name: kw[1]!, value: kw[2]!.trim() };
  return { kind: 'positional', value: text };
}

export type FirstCall = { call: CallSite } | { incomplete: true } | null;

/**
 * The first call of a dotted name in the text, in reading order (so the outermost call of an expression that starts
 * with one): `np.sum(np.abs(x))` gives `np.sum`. A name reached through `.` after a bracket (`f(x).g(y)`'s `g`) does
 * not start a call of its own. `{ incomplete: true }` when a call opens and never closes.
 */
export function firstCall(text: string): FirstCall {
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      i = skipString(text, i);
      continue;
    }
    if (c === '#') {
      const nl = text.indexOf('\n', i);
      if (nl < 0) break;
      i = nl;
      continue;
    }
    if (!IDENT_START.test(c) || (i > 0 && IDENT_PART.test(text[i - 1]!))) {
      i++;
      continue;
    }
    // Preceded by a dot (after optional spaces): a member of something else, not the start of a dotted name.
    let k = i - 1;
    while (k >= 0 && (text[k] === ' ' || text[k] === '\t')) k--;
    const afterDot = k >= 0 && text[k] === '.';
    // Read the dotted chain.
    let j = i;
    const parts: string[] = [];
    for (;;) {
      let e = j;
      while (e < text.length && IDENT_PART.test(text[e]!)) e++;
      parts.push(text.slice(j, e));
      let d = e;
      while (d < text.length && (text[d] === ' ' || text[d] === '\t')) d++;
      if (text[d] === '.' ) {
        let n = d + 1;
        while (n < text.length && (text[n] === ' ' || text[n] === '\t')) n++;
        if (n < text.length && IDENT_START.test(text[n]!)) {
          j = n;
          continue;
        }
      }
      j = e;
      break;
    }
    if (!afterDot && !PY_KEYWORDS.has(parts[0]!) && text[j] === '(' && parts.every((p) => !PY_KEYWORDS.has(p))) {
      const close = matchBracket(text, j);
      if (close < 0) return { incomplete: true };
      const inner = text.slice(j + 1, close);
      const args = splitTopLevel(inner).filter((a) => a !== '').map(parseArgument);
      return { call: { callee: parts.join('.'), arguments: args, text: text.slice(i, close + 1) } };
    }
    i = j > i ? j : i + 1;
  }
  return null;
}

/**
 * Splits text into logical lines: physical lines joined while a bracket stays open (a call written over several
 * lines is one logical line). Comments are removed.
 */
export function logicalLines(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let depth = 0;
  for (const raw of text.split('\n')) {
    const line = stripComment(raw);
    current = current === '' ? line : current + '\n' + line;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (c === '"' || c === "'") {
        i = skipString(line, i) - 1;
        continue;
      }
      if (OPEN[c]) depth++;
      else if (CLOSE.has(c)) depth = Math.max(0, depth - 1);
    }
    if (depth === 0 && !/\\\s*$/.test(line)) {
      out.push(current);
      current = '';
    }
  }
  if (current !== '') out.push(current);
  return out;
}
