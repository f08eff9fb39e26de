// Scores one sample: extraction (Appendix F.4), the unit's metrics, and its taxonomy by matrix lookup. The output is
// one prediction record, which holds everything the aggregate results need. Pure: the run store's entries and a
// TruthLookup over the matrices come in as arguments.
import { formatSignature } from '../../../core/api-model.js';
import { isObject } from '../../../core/json-value.js';
import { importBindings } from '../../python-text/imports.js';
import { looksLikeExpression, splitTopLevel } from '../../python-text/scan.js';
import { parsePrompt, type ApiCPrompt, type LibEvoBenchSample } from '../prompt-contract.js';
import { armOf } from '../../runs/arms.js';
import type { ResultRecord } from '../../runs/store.js';
import { extractCall, extractIdentifier, extractSignature, type CallContext } from './extract.js';
import { callerEquivalentKeys, callKeys, keyOf, setScores, signatureKeys, withoutReceiver } from './parameters.js';
import type { TruthLookup } from './taxonomy.js';
import { readTruth, type TruthParts } from './truth.js';
import {
  PRIMARY_METRIC,
  unitOf,
  type ExpectedAnswer,
  type ExtractedParameter,
  type ExtractedPrediction,
  type Failure,
  type ParameterKey,
  type PredictionRecord,
  type SampleScores,
  type SampleTaxonomy,
  type ScoringUnit,
} from './types.js';

function parentOf(path: string): string {
  const i = path.lastIndexOf('.');
  return i < 0 ? '' : path.slice(0, i);
}

function leafOf(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}

/**
 * The fully qualified API a callee names in the snippet, or null. In order: the ground-truth call's own callee
 * (the same text in the same code names the same API), a callee on the same receiver as the ground-truth call
 * (`arr.mean` next to `arr.sum` → the sibling member), the import binding of its first name, a name written from the
 * library's root, and a `from … import *`.
 */
export function resolveCallee(callee: string, code: string, library: string, truth: { api: string; callee: string | null }, known?: (path: string) => boolean): string | null {
  if (truth.callee !== null) {
    if (callee === truth.callee) return truth.api;
    const receiver = parentOf(callee);
    if (receiver !== '' && receiver === parentOf(truth.callee) && parentOf(truth.api) !== '') return `${parentOf(truth.api)}.${leafOf(callee)}`;
  }
  const head = callee.split('.')[0]!;
  const bindings = importBindings(code, library);
  let bound: string | undefined;
  for (const b of bindings) if (!b.star && b.local === head) bound = b.target; // the last import of a name wins
  if (bound !== undefined) return bound + callee.slice(head.length);
  if (head === library) return callee;
  // `from x import *`: a name the matrix knows under one of them; without a matrix, a bare name under the first.
  const stars = bindings.filter((b) => b.star).map((b) => `${b.target}.${callee}`);
  if (known) return stars.find((p) => known(p)) ?? null;
  return stars.length > 0 && !callee.includes('.') ? stars[0]! : null;
}

function apiCContext(sample: LibEvoBenchSample): CallContext {
  try {
    const spec = parsePrompt(sample.prompt);
    if (spec.task === 'API-C') return { prefix: (spec as ApiCPrompt).prefix, suffix: (spec as ApiCPrompt).suffix };
  } catch {
    // a prompt outside the contract: no code context
  }
  return { prefix: '', suffix: '' };
}

function apiIModule(sample: LibEvoBenchSample, truth: TruthParts): string {
  try {
    const spec = parsePrompt(sample.prompt);
    if (spec.task === 'API-I') return spec.module;
  } catch {
    // fall back to the ground truth's parent
  }
  return parentOf(truth.api);
}

function expectedOf(truth: TruthParts, keys: ParameterKey[] | null): ExpectedAnswer {
  return { api: truth.api, accepted: truth.accepted, keys, callee: truth.callee };
}

interface Scored {
  prediction: ExtractedPrediction | null;
  failure: Failure | null;
  scores: SampleScores;
  taxonomy: SampleTaxonomy | null;
}

function primaryOf(unit: ScoringUnit, scores: SampleScores): number | null {
  return scores[PRIMARY_METRIC[unit]] ?? null;
}

/**
 * The answer a perfect model gives: the accepted API's name (API-I), the signature at the version (SR), the masked
 * call as the snippet wrote it (API-C); null when the ground truth holds no such answer (no accepted API, no
 * signature, no call text).
 */
export function perfectAnswer(sample: LibEvoBenchSample, truth: TruthParts, targetSignature: readonly ExtractedParameter[] | null): string | null {
  if (sample.task === 'API-I') return truth.accepted.length > 0 ? leafOf(truth.accepted[0]!) : null;
  if (sample.task === 'SR') {
    const parameters = truth.parameters ?? (targetSignature ? withoutReceiver(targetSignature) : null);
    // A default text the matrix recorded malformed (`dtype=``(m, n,` from a docstring) is written `...`: a perfect
    // model writes the API's default, and SR compares the parameters, not their default texts.
    return parameters ? formatSignature(leafOf(truth.api), { parameters: parameters.map((p) => (p.default === null || isOneExpression(p.default) ? p : { ...p, default: '...' })) }) : null;
  }
  const gt = sample.groundTruth;
  const call = isObject(gt) && typeof gt.call === 'string' && gt.call !== '' ? gt.call : null;
  return truth.accepted.length > 0 ? call : null;
}

/** Whether a default text reads back as one parameter's default: `f(x=TEXT)` parses to the one parameter x. */
function isOneExpression(text: string): boolean {
  if (splitTopLevel(text).length !== 1 || !looksLikeExpression(text)) return false;
  const read = extractSignature(`f(x=${text})`);
  return read.ok && read.value.parameters.length === 1 && read.value.parameters[0]!.name === 'x';
}

function isExpected(api: string | null, truth: TruthParts): number {
  return api !== null && truth.accepted.includes(api) ? 1 : 0;
}

/** One scored sample: the record written to predictions.jsonl. */
export function scoreEntry(sample: LibEvoBenchSample, result: ResultRecord | null, ordinal: number, lookup: TruthLookup): PredictionRecord {
  const unit = unitOf(sample.task, sample.level);
  const truth = readTruth(sample);
  const hasMatrix = lookup.matrix(sample.library) !== undefined;
  // The parameters the API takes at the target version, and at the others (for mapping positional arguments).
  // (The builder may list the signature's parameters too; the matrix's own signature comes first.)
  const targetSignature = sample.task === 'SR' || sample.task === 'API-C' ? lookup.signatureAt(sample.library, truth.api, sample.version) ?? (sample.task === 'API-C' ? truth.parameters : null) : null;
  const otherSignatures = sample.task === 'API-C' ? lookup.otherSignatures(sample.library, truth.api, sample.version) : [];
  let expectedKeys: ParameterKey[] | null = null;
  if (sample.task === 'SR') expectedKeys = truth.keys ?? (targetSignature ? signatureKeys(targetSignature) : null);
  else if (sample.task === 'API-C') expectedKeys = truth.callArguments ? callKeys(truth.callArguments, targetSignature, otherSignatures) : null;
  // SR: the expected keys, then those of the API's other signatures that say the same to a caller (issue 22, point 4).
  const equivalentKeys = () =>
    targetSignature ? lookup.equivalentKeys(sample.library, truth.api, sample.version) : callerEquivalentKeys(truth.parameters, lookup.otherSignatures(sample.library, truth.api, sample.version));
  const acceptedKeys = expectedKeys === null ? [] : sample.task === 'SR' ? [expectedKeys, ...equivalentKeys()] : [expectedKeys];

  const group = sample.evolving ? ('evolving' as const) : ('stable' as const);
  const expected = expectedOf(truth, expectedKeys);
  // One object shape for every record (no spreads): 100,000 of them are built per report.
  const record = (status: PredictionRecord['status'], response: string | null, prediction: ExtractedPrediction | null, failure: Failure | null, scores: SampleScores | null, score: number | null, taxonomy: SampleTaxonomy | null, ceiling: number | null): PredictionRecord => ({
    id: sample.id,
    arm: armOf(sample.id),
    ordinal,
    task: sample.task,
    level: sample.level,
    unit,
    library: sample.library,
    version: sample.version,
    api: sample.api,
    group,
    status,
    prompt: sample.prompt,
    response,
    prediction,
    groundTruth: sample.groundTruth ?? null,
    expected,
    failure,
    scores,
    score,
    taxonomy,
    ceiling,
  });
  // What an answer earns: extraction, the unit's metrics and (when `classify`) its taxonomy.
  const scoreResponse = (response: string, classify: boolean): Scored => {
    let prediction: ExtractedPrediction | null = null;
    let failure: Failure | null = null;
    let scores: SampleScores;
    let taxonomy: SampleTaxonomy | null = null;
    // Against the accepted key set the answer fits best (by F1, the first of equals): one set but for SR.
    const bestScores = (predicted: ParameterKey[]) => acceptedKeys.map((k) => setScores(predicted, k)).reduce((a, b) => (b.f1 > a.f1 ? b : a));
    const keyScores = (predicted: ParameterKey[] | null): SampleScores => {
      if (expectedKeys === null) return { recall: null, precision: null, f1: null };
      if (predicted === null) return { recall: 0, precision: 0, f1: 0 };
      const s = bestScores(predicted);
      return { recall: s.recall, precision: s.precision, f1: s.f1 };
    };

    if (sample.task === 'API-I') {
      const x = extractIdentifier(response, apiIModule(sample, truth));
      if (x.ok) {
        prediction = { task: 'API-I', name: x.value.name, api: x.value.api };
        scores = { exact: isExpected(x.value.api, truth) };
        taxonomy = classify ? { api: lookup.classifyApi(sample.library, sample.version, x.value.api, truth.accepted), parameters: null } : null;
      } else {
        failure = x.failure;
        scores = { exact: 0 };
        taxonomy = classify ? { api: null, parameters: null } : null;
      }
    } else if (sample.task === 'SR') {
      const x = extractSignature(response);
      if (x.ok) {
        const parameters = withoutReceiver(x.value.parameters);
        const keys = parameters.map(keyOf);
        prediction = { task: 'SR', name: x.value.name, parameters, keys };
        const s = keyScores(keys);
        scores = { ...s, exact: expectedKeys === null ? null : bestScores(keys).exact };
        if (classify) {
          const target = [...acceptedKeys.flat(), ...(targetSignature ? signatureKeys(targetSignature) : [])];
          taxonomy = { api: null, parameters: lookup.classifyParameters(sample.library, truth.api, sample.version, keys, target) };
        }
      } else {
        failure = x.failure;
        scores = { ...keyScores(null), exact: expectedKeys === null ? null : 0 };
        taxonomy = classify ? { api: null, parameters: [] } : null;
      }
    } else {
      const context = apiCContext(sample);
      const x = extractCall(response, context);
      const matrix = lookup.matrix(sample.library);
      if (x.ok) {
        const code = context.prefix + '\n' + context.suffix;
        const known = matrix ? (path: string) => lookup.history(sample.library, path) !== undefined : undefined;
        const api = resolveCallee(x.value.callee, code, sample.library, truth, known);
        const right = isExpected(api, truth) === 1;
        // The predicted call's arguments are read through the predicted API's signatures, never the ground truth's
        // when the model called another API (issue 22, point 5); a wrong API scores 0 on the L3 parameters.
        const ownSignature = api === null ? null : api === truth.api ? targetSignature : lookup.signatureAt(sample.library, api, sample.version);
        const ownOthers = api === null ? [] : api === truth.api ? otherSignatures : lookup.otherSignatures(sample.library, api, sample.version);
        const keys = callKeys(x.value.arguments, ownSignature, ownOthers);
        prediction = { task: 'API-C', call: x.value.text, callee: x.value.callee, api, arguments: x.value.arguments, keys };
        scores = { exact: right ? 1 : 0 };
        if (sample.level === 'L3') Object.assign(scores, keyScores(right ? keys : null));
        if (classify) {
          taxonomy = { api: lookup.classifyApi(sample.library, sample.version, api, truth.accepted), parameters: null };
          // Parameter verdicts are about the ground truth's API: none for a call of another one.
          if (sample.level === 'L3' && !right) taxonomy.parameters = [];
          else if (sample.level === 'L3') {
            const target = [...(targetSignature ? signatureKeys(targetSignature) : []), ...(expectedKeys ?? [])];
            taxonomy.parameters = lookup.classifyParameters(sample.library, truth.api, sample.version, keys, target);
          }
        }
      } else {
        failure = x.failure;
        scores = { exact: 0 };
        if (sample.level === 'L3') Object.assign(scores, keyScores(null));
        taxonomy = classify ? { api: null, parameters: sample.level === 'L3' ? [] : null } : null;
      }
    }
    return { prediction, failure, scores, taxonomy };
  };
  // The perfect model's answer (the ground truth written as an answer) and what it earns: the question's ceiling.
  const perfect = perfectAnswer(sample, truth, targetSignature);
  const ceiling = truth.accepted.length === 0 && sample.task !== 'SR' ? 0 : perfect === null ? null : primaryOf(unit, scoreResponse(perfect, false).scores);
  if (!result) return record('pending', null, null, null, null, null, null, ceiling);
  if (result.status === 'failed') {
    return record('failed', null, null, { stage: 'model', kind: result.errorKind ?? 'unknown', message: result.errorMessage ?? '' }, null, null, null, ceiling);
  }
  const response = result.response ?? '';
  const scored = scoreResponse(response, hasMatrix);
  return record('answered', response, scored.prediction, scored.failure, scored.scores, primaryOf(unit, scored.scores), scored.taxonomy, ceiling);
}
