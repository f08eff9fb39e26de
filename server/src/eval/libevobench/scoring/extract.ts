// Response extraction (paper Appendix F.4): the deterministic pipeline that turns a raw model answer into a
// prediction for each task, or into a counted failure (Table 14). Pure.
import type { ExtractedParameter, Failure } from './types.js';
import {
  firstCall,
  isIdentifier,
  logicalLines,
  looksLikeExpression,
  matchBracket,
  parseArgument,
  splitTopLevel,
  stripComment,
  topLevelAssignment,
  type CallSite,
} from './python-text.js';

export type Extraction<T> = { ok: true; value: T } | { ok: false; failure: Failure };

function fail<T>(kind: string, message: string): Extraction<T> {
  return { ok: false, failure: { stage: 'extraction', kind, message } };
}

/** The content of the first fenced code block when the answer has one (``` or ~~~, any info string), else the answer. */
export function unwrapFences(text: string): string {
  const m = /^[ \t]*(`{3,}|~{3,})[^\n]*\n([\s\S]*?)(?:\n[ \t]*\1[ \t]*(?:\n|$)|$)/m.exec(text);
  return m ? m[2]! : text;
}

/** Inline code marks removed: `np.mean(x)` → np.mean(x). */
export function stripBackticks(text: string): string {
  return text.replace(/`+/g, '');
}

// ---- API-I ----------------------------------------------------------------------------------------------------------

/**
 * API-I: one identifier. Backticks and whitespace are stripped, the first line is taken, a module prefix the model
 * added is discarded, and the rest must be a legal Python identifier; it is joined with the prompt's module path.
 * Light decoration around the name (quotes, bold, a trailing period or `()`) is tolerated; a sentence is a failure.
 */
export function extractIdentifier(response: string, module: string): Extraction<{ name: string; api: string }> {
  const text = stripBackticks(unwrapFences(response)).trim();
  if (text === '') return fail('empty', 'the answer is empty');
  const first = text.split('\n').map((l) => l.trim()).find((l) => l !== '')!;
  let token = first.replace(/^[-*•]\s+/, '').replace(/^\*\*(.*)\*\*$/, '$1').replace(/^(["'])(.*)\1$/, '$2').trim();
  token = token.replace(/[.,;:!]+$/, '').replace(/\(\s*\)$/, '').trim();
  const leaf = token.slice(token.lastIndexOf('.') + 1);
  if (!isIdentifier(leaf) || !/^[A-Za-z_][\w.]*$/.test(token)) {
    return fail('not-identifier', `not a Python identifier: ${first.slice(0, 80)}`);
  }
  return { ok: true, value: { name: leaf, api: module ? `${module}.${leaf}` : leaf } };
}

// ---- SR -------------------------------------------------------------------------------------------------------------

export interface ExtractedSignature {
  /** The callable's name as written (leaf), when the answer names one. */
  name: string | null;
  parameters: ExtractedParameter[];
}

/**
 * SR: a one-line signature. Fences and backticks are stripped; `def`/`async def` and a return annotation are
 * dropped; parameter annotations and defaults are read past. The parameter names come from the first parameter list
 * in the answer (over several lines when the model wrapped it). `/` and `*` mark positional-only and keyword-only
 * parameters. Failure when the answer is empty or holds no parameter list.
 */
export function extractSignature(response: string): Extraction<ExtractedSignature> {
  const text = stripBackticks(unwrapFences(response)).trim();
  if (text === '') return fail('empty', 'the answer is empty');
  const normalised = text.replace(/\b(?:async\s+)?def\s+/g, '');
  // A name written right against its parenthesis first ("numpy.mean(a)"), else any parenthesis.
  const m = /([A-Za-z_][\w.]*)\(/.exec(normalised) ?? /([A-Za-z_][\w.]*)?\s*\(/.exec(normalised);
  if (!m) return fail('no-parameter-list', 'no parameter list in the answer');
  const open = m.index + m[0].length - 1;
  const close = matchBracket(normalised, open);
  if (close < 0) return fail('no-parameter-list', 'the parameter list never closes');
  const name = m[1] ? m[1].slice(m[1].lastIndexOf('.') + 1) : null;
  const items = splitTopLevel(normalised.slice(open + 1, close).split('\n').map(stripComment).join('\n'));
  const parameters: ExtractedParameter[] = [];
  let keywordOnly = false;
  let unread = 0;
  for (const raw of items) {
    const item = raw.trim();
    if (item === '' || item === '...') continue;
    if (item === '/') {
      for (const p of parameters) if (p.kind === 'positional_or_keyword') p.kind = 'positional_only';
      continue;
    }
    if (item === '*') {
      keywordOnly = true;
      continue;
    }
    const star = /^(\*{1,2})\s*([A-Za-z_]\w*)/.exec(item);
    if (star) {
      const kind = star[1] === '**' ? 'var_keyword' : 'var_positional';
      if (kind === 'var_positional') keywordOnly = true;
      parameters.push({ name: star[2]!, kind, default: null });
      continue;
    }
    const plain = /^([A-Za-z_]\w*)\s*(?::([\s\S]*?))?\s*(?:=(?!=)\s*([\s\S]*))?$/.exec(item);
    if (plain && isIdentifier(plain[1]!)) {
      // An annotation may hold "=" only inside brackets; the regex is lazy, so recheck the default split.
      const eq = topLevelAssignment(item);
      const def = eq >= 0 ? item.slice(eq + 1).trim() : null;
      parameters.push({ name: plain[1]!, kind: keywordOnly ? 'keyword_only' : 'positional_or_keyword', default: def === '' ? null : def });
      continue;
    }
    unread++;
  }
  if (parameters.length === 0 && unread > 0) return fail('no-parameter-list', `no parameter could be read from ${normalised.slice(open, close + 1).slice(0, 80)}`);
  return { ok: true, value: { name, parameters } };
}

// ---- API-C ----------------------------------------------------------------------------------------------------------

export interface CallContext {
  /** The code before the mask, as the prompt showed it. */
  prefix: string;
  /** The code after the mask. */
  suffix: string;
}

/** Lines of the answer that repeat the prompt's code are dropped from the front (the model echoed the input). */
function removeEcho(text: string, context: CallContext): string {
  const prefix = context.prefix.trim();
  // The whole snippet echoed with the fill: keep what follows the prefix, up to the suffix.
  if (prefix.length > 0 && text.includes(prefix)) {
    let rest = text.slice(text.indexOf(prefix) + prefix.length);
    const suffix = context.suffix.trim();
    if (suffix.length > 0 && rest.includes(suffix)) rest = rest.slice(0, rest.indexOf(suffix));
    if (rest.trim() !== '') text = rest;
  }
  const prefixLines = new Set(context.prefix.split('\n').map((l) => l.trim()).filter((l) => l !== ''));
  const lines = text.split('\n');
  let start = 0;
  while (start < lines.length - 1 && (lines[start]!.trim() === '' || prefixLines.has(lines[start]!.trim()) || /^\s*#/.test(lines[start]!))) start++;
  return lines.slice(start).join('\n');
}

/** The call of `callee` that opens `line`: its arguments and text; null when no parenthesis follows the callee. */
function argumentsOf(line: string, callee: string): { arguments: CallSite['arguments']; text: string } | null {
  const rest = line.slice(callee.length);
  const open = rest.search(/\S/);
  if (open < 0 || rest[open] !== '(') return null;
  const at = callee.length + open;
  const close = matchBracket(line, at);
  if (close < 0) return null;
  return { arguments: splitTopLevel(line.slice(at + 1, close)).filter((a) => a !== '').map(parseArgument), text: line.slice(0, close + 1) };
}

/** The fill within a line that repeats the code around the mask: `y = <FILL>)` answered as `y = f(x))`. */
function isolateFill(line: string, context: CallContext): string {
  let text = line.trim();
  const before = context.prefix.slice(context.prefix.lastIndexOf('\n') + 1).trim();
  const after = context.suffix.split('\n')[0]!.trim();
  if (before !== '' && text.startsWith(before) && text.length > before.length) text = text.slice(before.length).trim();
  if (after !== '' && text.endsWith(after) && text.length > after.length) text = text.slice(0, text.length - after.length).trim();
  return text;
}

/**
 * API-C: the call that replaces the mask. (1) Markdown fences are unwrapped, (2) inline backticks stripped, (3) an
 * echo of the prompt's code removed, (4) the answer is read line by line (a call over several lines is one line) and
 * the first line that is an expression with a call gives the call; an assignment, `return` or `await` in front is read
 * past, and so is the code around the mask when the model repeated it. Failure when no call can be extracted (prose,
 * another approach, an empty answer) or the call never closes.
 */
export function extractCall(response: string, context: CallContext, knownCallee: string | null = null): Extraction<CallSite> {
  let text = stripBackticks(unwrapFences(response));
  if (text.trim() === '') return fail('empty', 'the answer is empty');
  text = removeEcho(text, context);
  let sawIncomplete = false;
  for (const logical of logicalLines(text)) {
    let line = isolateFill(logical, context);
    if (line === '') continue;
    const eq = topLevelAssignment(line);
    if (eq >= 0) line = line.slice(eq + 1).trim();
    line = line.replace(/^(?:return|await|yield)\s+/, '').replace(/[;.]+$/, '').trim();
    if (line === '') continue;
    // The snippet's own callee (`rng.normal`, `np.random.default_rng(0).normal`) as the answer begins: that call.
    if (knownCallee && line.startsWith(knownCallee)) {
      const args = argumentsOf(line, knownCallee);
      if (args) return { ok: true, value: { callee: knownCallee.replace(/\s+/g, ''), arguments: args.arguments, text: args.text } };
    }
    const found = firstCall(line);
    if (found && 'incomplete' in found) {
      sawIncomplete = true;
      continue;
    }
    if (!found) continue;
    if (!looksLikeExpression(line)) continue;
    return { ok: true, value: found.call };
  }
  return sawIncomplete ? fail('incomplete-call', 'the call never closes') : fail('no-call', 'no API call in the answer');
}
