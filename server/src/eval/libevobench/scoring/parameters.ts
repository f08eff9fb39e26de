// Parameters as scoring compares them: keys of a signature, the parameters a call's arguments bind, and the set
// scores (precision, recall, F1) over them. Pure.
import type { Parameter } from '../../../core/api-model.js';
import { callerShape, sameForCallers } from '../../../core/caller-signature.js';
import type { CallArgument } from '../../python-text/scan.js';
import type { ParameterKey } from './types.js';

type ParameterLike = Pick<Parameter, 'name' | 'kind'>;

/** A signature's parameters without a leading receiver (`self`, `cls`): callers never pass it. */
export function withoutReceiver<T extends ParameterLike>(parameters: readonly T[]): T[] {
  const first = parameters[0];
  return first && (first.name === 'self' || first.name === 'cls') && first.kind !== 'var_positional' && first.kind !== 'var_keyword'
    ? parameters.slice(1)
    : [...parameters];
}

/** `name`, `*name` for var-positional, `**name` for var-keyword. */
export function keyOf(p: ParameterLike): ParameterKey {
  return p.kind === 'var_positional' ? `*${p.name}` : p.kind === 'var_keyword' ? `**${p.name}` : p.name;
}

/** The keys of a signature, receiver dropped, in order. */
export function signatureKeys(parameters: readonly ParameterLike[]): ParameterKey[] {
  return withoutReceiver(parameters).map(keyOf);
}

/**
 * The key sets SR accepts besides the target's: the API's signatures at other versions (`others`) that say the same to
 * a caller as the target does (sameForCallers, the comparison the dataset's stable/evolving split makes; issue 22,
 * point 4). numpy.ma.all is `(a, *args, **params)` where it was read as the forwarding wrapper and `(a, axis, out,
 * keepdims)` where its target's parameters were read: a caller passes the same either way, so either answer is right
 * at either version. Each set once, none equal to the target's.
 */
export function callerEquivalentKeys(target: readonly Parameter[] | null, others: readonly (readonly Parameter[])[]): ParameterKey[][] {
  if (target === null) return [];
  const accepted = new Set([signatureKeys(target).slice().sort().join('\u0000')]);
  // Most versions repeat a neighbour's signature: each one a caller tells apart is compared once.
  const compared = new Set<string>();
  const out: ParameterKey[][] = [];
  for (const other of others) {
    const keys = signatureKeys(other);
    const id = keys.slice().sort().join('\u0000');
    const shape = `${id}\u0001${callerShape({ parameters: [...other] })}`;
    if (accepted.has(id) || compared.has(shape)) continue;
    compared.add(shape);
    if (!sameForCallers({ parameters: [...target] }, { parameters: [...other] })) continue;
    accepted.add(id);
    out.push(keys);
  }
  return out;
}

/** The parameter a positional argument at `index` binds in a signature; undefined when it takes fewer. */
function positionalTarget(parameters: readonly ParameterLike[], index: number): ParameterKey | undefined {
  const positional = parameters.filter((p) => p.kind === 'positional_only' || p.kind === 'positional_or_keyword');
  if (index < positional.length) return positional[index]!.name;
  const rest = parameters.find((p) => p.kind === 'var_positional');
  return rest ? keyOf(rest) : undefined;
}

/**
 * The parameters a call binds: keywords by name; positional arguments through the signature at the target version
 * (receiver dropped), else through another version's signature that takes that many, else `#i`. Arguments after a
 * `*xs` splat and `**kw` splats bind nothing one can name. Each key once, in call order.
 */
export function callKeys(args: readonly CallArgument[], target: readonly ParameterLike[] | null, others: readonly (readonly ParameterLike[])[] = []): ParameterKey[] {
  const keys: ParameterKey[] = [];
  const add = (k: ParameterKey) => {
    if (!keys.includes(k)) keys.push(k);
  };
  const signatures = [target, ...others].filter((s): s is readonly ParameterLike[] => s !== null).map((s) => withoutReceiver(s));
  let position = 0;
  let splatted = false;
  for (const a of args) {
    if (a.kind === 'keyword') add(a.name!);
    else if (a.kind === 'star') splatted = true;
    else if (a.kind === 'positional' && !splatted) {
      let key: ParameterKey | undefined;
      for (const s of signatures) {
        key = positionalTarget(s, position);
        if (key !== undefined) break;
      }
      add(key ?? `#${position}`);
      position++;
    }
  }
  return keys;
}

export interface SetScores {
  precision: number;
  recall: number;
  f1: number;
  /** 1 when the two sets are equal. */
  exact: number;
}

/**
 * Precision, recall and F1 of predicted keys against expected keys. A ratio with an empty denominator is 1 when the
 * other set is empty too, else 0: predicting no parameter for a call that takes none is right, predicting some is not.
 */
export function setScores(predicted: readonly ParameterKey[], expected: readonly ParameterKey[]): SetScores {
  const p = new Set(predicted);
  const e = new Set(expected);
  let hit = 0;
  for (const k of p) if (e.has(k)) hit++;
  const precision = p.size === 0 ? (e.size === 0 ? 1 : 0) : hit / p.size;
  const recall = e.size === 0 ? (p.size === 0 ? 1 : 0) : hit / e.size;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, exact: p.size === e.size && hit === e.size ? 1 : 0 };
}
