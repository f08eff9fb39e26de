// Signatures compared by what a caller can pass (issue 22, point 4). Two signatures that accept the same calls are
// one signature, whatever their parameters' names where a caller cannot name them (positional-only parameters,
// *args, **kwargs), their default values or their keyword-only order. A catch-all (*args, **kwargs) names nothing:
// it forwards what it takes to code the signature does not show (numpy.ma.all is `(a, *args, **params)` over
// MaskedArray.all's `(axis, out, keepdims)`; a docstring read as `(*args, **kwargs)`), so a signature with one
// does not contradict a signature that names what it forwards. Evidence that reads the forwarding wrapper at one
// version and the real parameters at the next is no change to a caller, and no evolution.
import { acceptsKeyword, type Parameter, type Signature } from './api-model.js';

const isPositional = (p: Parameter) => p.kind === 'positional_only' || p.kind === 'positional_or_keyword';
const required = (p: Parameter) => p.default === null;

/** What a caller can pass, as text: equal for exactly the signatures that accept the same calls. */
export function callerShape(signature: Signature): string {
  const parts: string[] = [];
  const keywordOnly: string[] = [];
  for (const p of signature.parameters) {
    const optional = required(p) ? '' : '=';
    if (p.kind === 'positional_only') parts.push(`/${optional}`);
    else if (p.kind === 'positional_or_keyword') parts.push(`${p.name}${optional}`);
    else if (p.kind === 'var_positional') parts.push('*');
    else if (p.kind === 'keyword_only') keywordOnly.push(`${p.name}${optional}`);
    else parts.push(p.keywords === undefined ? '**' : `**{${[...p.keywords].sort().join('|')}}`);
  }
  return [...parts, ...keywordOnly.sort().map((k) => `:${k}`)].join(',');
}

/** Whether the signature has a catch-all (*args or **kwargs) that takes what it does not name. */
export function hasCatchAll(signature: Signature): boolean {
  return signature.parameters.some((p) => p.kind === 'var_positional' || p.kind === 'var_keyword');
}

/**
 * Whether OUTER reads as a wrapper that forwards to INNER: OUTER's named parameters are INNER's (its positional ones
 * a prefix of INNER's with the same kinds, names where a keyword can name them and requiredness; its keyword-only
 * ones among INNER's, equally required), and its catch-alls take the rest of INNER's parameters. Then OUTER accepts
 * every call INNER accepts, and names nothing INNER does not: an optional parameter added or a required one made
 * optional is a change, catch-all or not.
 */
export function forwardsTo(outer: Signature, inner: Signature): boolean {
  const outerPositional = outer.parameters.filter(isPositional);
  const innerPositional = inner.parameters.filter(isPositional);
  const outerVarPositional = outer.parameters.some((p) => p.kind === 'var_positional');
  // A **kwargs resolved to the keywords it forwards (api-model keywords) takes those, an unresolved one anything.
  const outerKwargs = outer.parameters.find((p) => p.kind === 'var_keyword');
  const outerVarKeyword = outerKwargs !== undefined && outerKwargs.keywords === undefined;
  const outerForwarded = new Set(outerKwargs?.keywords ?? []);
  if (outerPositional.length > innerPositional.length) return false;
  for (let i = 0; i < outerPositional.length; i++) {
    const o = outerPositional[i]!;
    const n = innerPositional[i]!;
    if (o.kind !== n.kind || (o.kind === 'positional_or_keyword' && o.name !== n.name) || required(o) !== required(n)) return false;
  }
  const outerKeywordOnly = new Map(outer.parameters.filter((p) => p.kind === 'keyword_only').map((p) => [p.name, p] as const));
  const takesKeyword = (p: Parameter) => {
    const o = outerKeywordOnly.get(p.name);
    return o ? required(o) === required(p) : outerVarKeyword || outerForwarded.has(p.name);
  };
  for (const p of innerPositional.slice(outerPositional.length)) {
    if (!outerVarPositional) return false;
    if (p.kind === 'positional_or_keyword' && !takesKeyword(p)) return false;
  }
  const innerKeywordOnly = new Set<string>();
  for (const p of inner.parameters) {
    if (p.kind === 'var_positional' && !outerVarPositional) return false;
    if (p.kind === 'var_keyword' && !outerVarKeyword && (p.keywords === undefined || outerKwargs === undefined || p.keywords.some((k) => !outerForwarded.has(k)))) return false;
    if (p.kind === 'keyword_only') {
      innerKeywordOnly.add(p.name);
      if (!takesKeyword(p)) return false;
    }
  }
  // A keyword-only parameter INNER does not have
  for (const name of outerKeywordOnly.keys()) if (!innerKeywordOnly.has(name)) return false;
  // nor a forwarded keyword INNER does not take
  for (const name of outerForwarded) if (!acceptsKeyword(inner, name)) return false;
  return true;
}

/** Whether A and B say the same to a caller: they accept the same calls, or one is a wrapper forwarding to the other. */
export function sameForCallers(a: Signature, b: Signature): boolean {
  return callerShape(a) === callerShape(b) || (hasCatchAll(a) && forwardsTo(a, b)) || (hasCatchAll(b) && forwardsTo(b, a));
}

/** Whether every two of SIGNATURES say the same to a caller (sameForCallers): the API's signature did not evolve. */
export function oneSignatureForCallers(signatures: readonly Signature[]): boolean {
  const distinct = [...new Map(signatures.map((s) => [callerShape(s), s] as const)).values()];
  for (let i = 0; i < distinct.length; i++) {
    for (let j = i + 1; j < distinct.length; j++) if (!sameForCallers(distinct[i]!, distinct[j]!)) return false;
  }
  return true;
}
