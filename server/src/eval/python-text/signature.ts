// Reading the parameter list a model (or the lookup tool) wrote: the SR extraction of LibEvoBench (paper Appendix F.4)
// and what the drift suite's reference model reads from a documented signature. Pure.
import { isIdentifier, matchBracket, splitTopLevel, stripComment, topLevelAssignment } from './scan.js';

/** A parameter read from an answer with what the signature said about it. */
export interface ExtractedParameter {
  name: string;
  kind: 'positional_only' | 'positional_or_keyword' | 'var_positional' | 'keyword_only' | 'var_keyword';
  default: string | null;
}

/** Why nothing could be read from an answer. */
export interface ExtractionFailure {
  stage: 'extraction';
  /** empty, no-call, incomplete-call, not-identifier, no-parameter-list. */
  kind: string;
  message: string;
}

export type Extraction<T> = { ok: true; value: T } | { ok: false; failure: ExtractionFailure };

export function fail<T>(kind: string, message: string): Extraction<T> {
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

