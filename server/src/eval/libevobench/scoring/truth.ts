// Reads a sample's ground truth into what scoring compares against. The dataset builder owns the shape of
// `groundTruth`; this accepts the shapes documented in docs/benchmark-scoring.md (and plain strings), so the two
// sides meet on data rather than on a shared type. Pure.
import type { LibEvoBenchSample } from '../prompt-contract.js';
import { extractSignature } from '../../python-text/signature.js';
import { firstCall, matchBracket, parseArgument, splitTopLevel, type CallArgument } from '../../python-text/scan.js';
import { keyOf, withoutReceiver } from './parameters.js';
import type { ExtractedParameter, ParameterKey } from './types.js';
import { isObject } from '../../../core/json-value.js';

export interface TruthParts {
  /** The API the sample asks about (signatures are looked up under it). */
  api: string;
  /**
   * The answers that count as correct: the API itself (unless the sample asks about it at a version where it is
   * absent), plus the equivalents or aliases the builder lists (e.g. a renamed API present there with the same
   * documentation).
   */
  accepted: string[];
  /** API-C: the masked call's callee as written. */
  callee: string | null;
  /** API-C: the masked call's arguments (mapped to parameters later, through the matrix's signature). */
  callArguments: CallArgument[] | null;
  /** SR: the signature's parameters (receiver dropped); API-C: the signature's parameter names at the version, when given. */
  parameters: ExtractedParameter[] | null;
  keys: ParameterKey[] | null;
}

type Json = Record<string, unknown>;

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

const KINDS = new Set(['positional_only', 'positional_or_keyword', 'var_positional', 'keyword_only', 'var_keyword']);

/** Parameters written as Parameter objects, as strings ("x", "*args", "**kw") or as one signature string. */
function readParameters(v: unknown): { parameters: ExtractedParameter[] | null; keys: ParameterKey[] | null } {
  if (typeof v === 'string') {
    const sig = extractSignature(v.includes('(') ? v : `f(${v})`);
    if (!sig.ok) return { parameters: null, keys: null };
    const parameters = withoutReceiver(sig.value.parameters);
    return { parameters, keys: parameters.map(keyOf) };
  }
  if (isObject(v) && Array.isArray(v.parameters)) return readParameters(v.parameters);
  if (!Array.isArray(v)) return { parameters: null, keys: null };
  if (v.every((p) => typeof p === 'string')) {
    const parameters = withoutReceiver(
      (v as string[]).map((s): ExtractedParameter => {
        if (s.startsWith('**')) return { name: s.slice(2), kind: 'var_keyword', default: null };
        if (s.startsWith('*')) return { name: s.slice(1), kind: 'var_positional', default: null };
        return { name: s, kind: 'positional_or_keyword', default: null };
      }),
    );
    return { parameters, keys: parameters.map(keyOf) };
  }
  if (v.every((p) => isObject(p) && typeof p.name === 'string')) {
    const parameters = withoutReceiver(
      (v as Json[]).map((p): ExtractedParameter => ({
        name: p.name as string,
        kind: (KINDS.has(p.kind as string) ? p.kind : 'positional_or_keyword') as ExtractedParameter['kind'],
        default: typeof p.default === 'string' ? p.default : null,
      })),
    );
    return { parameters, keys: parameters.map(keyOf) };
  }
  return { parameters: null, keys: null };
}

/** Call arguments written as [{name, value}], ["x", "axis=0"], or {positional, keywords}. */
function readArguments(v: unknown): CallArgument[] | null {
  if (Array.isArray(v)) {
    const out: CallArgument[] = [];
    for (const a of v) {
      if (typeof a === 'string') out.push(parseArgument(a.trim()));
      else if (isObject(a)) {
        const value = typeof a.value === 'string' ? a.value : '';
        const kind = a.kind;
        if (kind === 'star' || kind === 'double-star') out.push({ kind, value });
        else if (typeof a.name === 'string' && a.name !== '') out.push({ kind: 'keyword', name: a.name, value });
        else out.push({ kind: 'positional', value });
      } else return null;
    }
    return out;
  }
  if (isObject(v)) {
    const positional = typeof v.positional === 'number' ? Array.from({ length: v.positional }, () => '') : Array.isArray(v.positional) ? (v.positional as unknown[]).map(String) : [];
    const keywords = Array.isArray(v.keywords)
      ? (v.keywords as unknown[]).map((k) => (isObject(k) ? String(k.name ?? '') : String(k))).filter((k) => k !== '')
      : isObject(v.keywords)
        ? Object.keys(v.keywords)
        : [];
    // Unpackings (`*xs`, `**kw`) bind nothing one can name, and where they stood is not recorded: left out.
    return [...positional.map((value): CallArgument => ({ kind: 'positional', value })), ...keywords.map((name): CallArgument => ({ kind: 'keyword', name, value: '' }))];
  }
  return null;
}

/** The arguments of a call's text whose callee is known (`np.random.default_rng(0).normal(size=3)` with its callee). */
export function argumentsAfterCallee(call: string, callee: string | null): CallArgument[] | null {
  if (callee && call.startsWith(callee)) {
    const open = call.slice(callee.length).search(/\S/);
    const at = callee.length + open;
    if (open >= 0 && call[at] === '(') {
      const close = matchBracket(call, at);
      if (close >= 0) return splitTopLevel(call.slice(at + 1, close)).filter((a) => a !== '').map(parseArgument);
    }
  }
  const found = firstCall(call);
  return found && 'call' in found && (!callee || found.call.callee === callee.replace(/\s+/g, '')) ? found.call.arguments : null;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((a): a is string => typeof a === 'string') : [];
}

/**
 * The ground truth of a sample, read leniently (docs/benchmark-scoring.md lists the shapes); the sample's own `api`
 * stands in when the builder gives none.
 */
export function readTruth(sample: LibEvoBenchSample): TruthParts {
  const gt = sample.groundTruth;
  const o: Json = isObject(gt) ? gt : {};
  const api = (typeof gt === 'string' && gt !== '' ? gt : null) ?? str(o.api) ?? str(o.apiPath) ?? str(o.path) ?? sample.api;
  // Asked at a version where the API is absent (API-I enumerates absent cells too), the API itself is no answer there.
  const absent = o.state === 'absent';
  const accepted = [...new Set([...(absent ? [] : [api]), ...strings(o.aliases), ...strings(o.equivalents)])];
  const parts: TruthParts = { api, accepted, callee: null, callArguments: null, parameters: null, keys: null };
  if (sample.task === 'SR') {
    const source = o.parameters ?? o.signature ?? o.params;
    if (source !== undefined) Object.assign(parts, readParameters(source));
  } else if (sample.task === 'API-C') {
    parts.callee = str(o.callee);
    const callText = str(o.call);
    if (callText) parts.callArguments = argumentsAfterCallee(callText, parts.callee);
    if (parts.callArguments === null) {
      const args = o.arguments ?? o.args ?? (o.positional !== undefined || o.keywords !== undefined ? o : undefined);
      if (args !== undefined) parts.callArguments = readArguments(args);
    }
    if (parts.callee === null && callText) {
      const found = firstCall(callText);
      if (found && 'call' in found) parts.callee = found.call.callee;
    }
    if (Array.isArray(o.parameters)) Object.assign(parts, readParameters(o.parameters));
  }
  return parts;
}
