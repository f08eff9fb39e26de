// The hallucination taxonomy (paper §2.3, Table 4) by matrix lookup. API level: Correct (the ground truth), Invalid
// (a real API at the target version, not the asked one), Anachronistic (present at another tracked version, not at
// the target), Unknown (present in no tracked version). Parameter level: Correct (in the API's signature at the
// target version), Anachronistic (in its signature at another version only), Unknown (in none). Pure: matrices arrive
// as GroundTruthMatrix (the benchmark's presence rule); lookups are memoised here.
import type { Parameter } from '../../../core/api-model.js';
import type { GroundTruthHistory, GroundTruthMatrix } from '../../../core/ground-truth.js';
import { versionsEqual } from '../../../core/versions.js';
import { callerEquivalentKeys, signatureKeys } from './parameters.js';
import type { ApiCategory, ParameterKey, ParameterVerdict } from './types.js';

export type MatrixSource = (library: string) => GroundTruthMatrix | undefined;

export class TruthLookup {
  private readonly matrices = new Map<string, GroundTruthMatrix | null>();
  private readonly histories = new Map<string, GroundTruthHistory | null>();
  private readonly versionIndexes = new Map<string, number>();
  private readonly equivalents = new Map<string, ParameterKey[][]>();

  constructor(private readonly source: MatrixSource) {}

  matrix(library: string): GroundTruthMatrix | undefined {
    let m = this.matrices.get(library);
    if (m === undefined) {
      m = this.source(library) ?? null;
      this.matrices.set(library, m);
    }
    return m ?? undefined;
  }

  history(library: string, api: string): GroundTruthHistory | undefined {
    const key = `${library}\0${api}`;
    let h = this.histories.get(key);
    if (h === undefined) {
      h = this.matrix(library)?.groundTruth(api) ?? null;
      this.histories.set(key, h);
    }
    return h ?? undefined;
  }

  /** Index of the version among the matrix's tracked versions; -1 when untracked (or no matrix). */
  versionIndex(library: string, version: string): number {
    const key = `${library}\0${version}`;
    let i = this.versionIndexes.get(key);
    if (i === undefined) {
      const versions = this.matrix(library)?.versions ?? [];
      i = versions.indexOf(version);
      if (i < 0) i = versions.findIndex((v) => versionsEqual(v, version));
      this.versionIndexes.set(key, i);
    }
    return i;
  }

  /** The API's signature recorded at the version (whatever the cell's state), null when none. */
  signatureAt(library: string, api: string, version: string): Parameter[] | null {
    const i = this.versionIndex(library, version);
    const h = this.history(library, api);
    return i >= 0 && h ? h.versions[i]?.signature?.parameters ?? null : null;
  }

  /** The API's signatures at the other tracked versions, nearest first. */
  otherSignatures(library: string, api: string, version: string): Parameter[][] {
    const h = this.history(library, api);
    if (!h) return [];
    const at = this.versionIndex(library, version);
    const cells = h.versions;
    const order = cells.map((_, i) => i).filter((i) => i !== at).sort((a, b) => (at < 0 ? a - b : Math.abs(a - at) - Math.abs(b - at) || a - b));
    return order.map((i) => cells[i]!.signature?.parameters).filter((s): s is Parameter[] => !!s);
  }

  /**
   * The key sets of the API's signatures at other versions that say the same to a caller as its signature at
   * `version` (callerEquivalentKeys; memoised: every SR question of the API at that version asks it).
   */
  equivalentKeys(library: string, api: string, version: string): ParameterKey[][] {
    const key = `${library}\0${api}\0${version}`;
    let keys = this.equivalents.get(key);
    if (keys === undefined) {
      // The versions of one span share its parameters' array: each reading once, nearest first.
      keys = callerEquivalentKeys(this.signatureAt(library, api, version), [...new Set(this.otherSignatures(library, api, version))]);
      this.equivalents.set(key, keys);
    }
    return keys;
  }

  /**
   * API-level category of a predicted API path, or null when the library has no matrix. A prediction among the
   * accepted answers is correct. A cell the presence rule marks na at the target version
   * is not evidence of absence: such a prediction counts as invalid, never anachronistic.
   */
  classifyApi(library: string, version: string, predicted: string | null, accepted: readonly string[]): ApiCategory | null {
    if (!this.matrix(library)) return null;
    if (predicted !== null && accepted.includes(predicted)) return 'correct';
    if (predicted === null) return 'unknown';
    const h = this.history(library, predicted);
    if (!h) return 'unknown';
    const at = this.versionIndex(library, version);
    const state = at >= 0 ? h.versions[at]?.state : 'na';
    if (state === 'present' || state === 'na') return 'invalid';
    return h.versions.some((c, i) => i !== at && c.state === 'present') ? 'anachronistic' : 'unknown';
  }

  /**
   * Parameter-level categories of predicted parameter keys for `api` at `version`. `targetKeys` are the parameters
   * the API takes at the target version (the SR ground truth, the matrix's signature there); a key found only in the
   * signatures of other tracked versions is anachronistic; any other key is unknown (also when it would only reach
   * the callable through **kwargs).
   */
  classifyParameters(library: string, api: string, version: string, predicted: readonly ParameterKey[], targetKeys: readonly ParameterKey[]): ParameterVerdict[] {
    const target = new Set(targetKeys);
    const history = new Set<ParameterKey>();
    for (const s of this.otherSignatures(library, api, version)) for (const k of signatureKeys(s)) history.add(k);
    return predicted.map((key) => ({ key, category: target.has(key) ? 'correct' : history.has(key) ? 'anachronistic' : 'unknown' }));
  }
}
