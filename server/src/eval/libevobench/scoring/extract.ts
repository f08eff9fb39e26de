// Response extraction (paper Appendix F.4): the deterministic pipeline that turns a raw model answer into a
// prediction for each task, or into a counted failure (Table 14). Pure.
// The SR extraction (extractSignature) is shared with the drift suite: python-text/signature.ts.
import { firstCall, isIdentifier, logicalLines, looksLikeExpression, matchBracket, parseArgument, splitTopLevel, topLevelAssignment, type CallSite } from '../../python-text/scan.js';
import { fail, stripBackticks, unwrapFences, type Extraction } from '../../python-text/signature.js';

export { extractSignature, stripBackticks, unwrapFences, type Extraction, type ExtractedSignature } from '../../python-text/signature.js';

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

/**
 * The whole call expression a first call opens: `np.random.default_rng(0).normal(size=3)` is a call of
 * `np.random.default_rng(0).normal`, not of `np.random.default_rng`; each `.name(…)` that follows the call is taken.
 * Read from the answer alone, never from the ground truth's callee (issue 22, point 5).
 */
function outermostCall(line: string, call: CallSite): CallSite {
  const start = line.indexOf(call.text);
  if (start < 0) return call;
  let end = start + call.text.length;
  let result = call;
  for (;;) {
    const m = /^\s*\.\s*[A-Za-z_]\w*\s*\(/.exec(line.slice(end));
    if (!m) return result;
    const open = end + m[0].length - 1;
    const close = matchBracket(line, open);
    if (close < 0) return result;
    result = {
      callee: line.slice(start, open).replace(/\s+/g, ''),
      arguments: splitTopLevel(line.slice(open + 1, close)).filter((a) => a !== '').map(parseArgument),
      text: line.slice(start, close + 1),
    };
    end = close + 1;
  }
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
 * the first line that is an expression with a call gives the call (with the calls chained after it: the outermost); an
 * assignment, `return` or `await` in front is read past, and so is the code around the mask when the model repeated
 * it. The ground truth plays no part. Failure when no call can be extracted (prose,
 * another approach, an empty answer) or the call never closes.
 */
export function extractCall(response: string, context: CallContext): Extraction<CallSite> {
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
    const found = firstCall(line);
    if (found && 'incomplete' in found) {
      sawIncomplete = true;
      continue;
    }
    if (!found) continue;
    if (!looksLikeExpression(line)) continue;
    return { ok: true, value: outermostCall(line, found.call) };
  }
  return sawIncomplete ? fail('incomplete-call', 'the call never closes') : fail('no-call', 'no API call in the answer');
}
