// The evaluation sampling of LibEvoBench Appendix D. Evolving APIs are kept in full. Stable APIs form a control group
// chosen once per library (up to C APIs), each with up to m versions chosen so that every signature lifetime is
// represented; API-I, SR and API-C all use that one group. Every choice is a seeded ranking (seeded.ts), so it is
// deterministic and independent of input order. Pure.
import type { GroundTruthHistory } from '../../../core/ground-truth.js';
import type { Signature } from '../../../core/api-model.js';
import { oneSignatureForCallers } from '../../../core/caller-signature.js';
import { rankBy } from './seeded.js';

export interface SamplingCaps {
  /** C: stable APIs in the control group of each library. */
  stableApis: number;
  /** m: versions per stable API. */
  versionsPerApi: number;
  /** n: API-C snippets per (stable API, version) cell. */
  snippetsPerCell: number;
  /** API-C snippets per (evolving API, version) cell. */
  apiCPerCell: number;
}

/** A maximal run of consecutive versions where the API is present with one signature. */
export interface SignatureLifetime {
  /** Canonical text of the signature (parameters with kinds and defaults); null for a cell without one. */
  signature: string | null;
  versions: string[];
}

export function signatureKey(signature: Signature | null): string | null {
  return signature ? JSON.stringify(signature.parameters.map((p) => [p.name, p.kind, p.default])) : null;
}

/**
 * Stable or evolving over the versions a dataset covers, not over every tracked version (issue 22, point 3; the
 * matrix stores the label over all of them): stable when the API is present at one of them, absent at none, and its
 * signatures there say the same to a caller (oneSignatureForCallers, as the matrix builder compares them; point 4: a
 * forwarding wrapper read at one version and its target's parameters at the next is one signature). An na cell is no
 * evidence of change either way, so it does not make the API evolving.
 */
export function evolutionOver(history: GroundTruthHistory, versions: readonly string[]): 'stable' | 'evolving' {
  const allowed = new Set(versions);
  let present = false;
  const signatures: Signature[] = [];
  for (const cell of history.versions) {
    if (!allowed.has(cell.version) || cell.state === 'na') continue;
    if (cell.state === 'absent') return 'evolving';
    present = true;
    if (cell.signature !== null) signatures.push(cell.signature);
  }
  return present && oneSignatureForCallers(signatures) ? 'stable' : 'evolving';
}

/** The history with its stable/evolving label taken over `versions` (evolutionOver); the same object when unchanged. */
export function relabelOver(history: GroundTruthHistory, versions: readonly string[]): GroundTruthHistory {
  const evolution = evolutionOver(history, versions);
  return evolution === history.evolution ? history : { ...history, evolution };
}

/**
 * The signature lifetimes of an API among `versions` (ascending; default every tracked version): present cells
 * grouped into runs of consecutive versions with the same signature. A version missing from `versions`, or where
 * the API is not present, ends a run.
 */
export function signatureLifetimes(history: GroundTruthHistory, versions?: readonly string[]): SignatureLifetime[] {
  const allowed = versions ? new Set(versions) : null;
  const out: SignatureLifetime[] = [];
  let current: SignatureLifetime | null = null;
  for (const cell of history.versions) {
    if (cell.state !== 'present' || (allowed && !allowed.has(cell.version))) {
      current = null;
      continue;
    }
    const key = signatureKey(cell.signature);
    if (current && current.signature === key) current.versions.push(cell.version);
    else {
      current = { signature: key, versions: [cell.version] };
      out.push(current);
    }
  }
  return out;
}

/**
 * The versions of one API in the order they are taken: first one version of each signature lifetime (its best
 * ranked), lifetimes by the rank of that version, then every remaining version by rank. Taking the first m keeps
 * every lifetime while m allows. `candidates` are the versions eligible (present, and for API-C with snippets).
 */
export function versionsInPickOrder(history: GroundTruthHistory, candidates: readonly string[], seed: number, scope: string): string[] {
  const ranked = rankBy(candidates, seed, (v) => v, `versions\0${scope}\0${history.api}`);
  const lifetimeOf = new Map<string, number>();
  signatureLifetimes(history, candidates).forEach((l, i) => l.versions.forEach((v) => lifetimeOf.set(v, i)));
  const first: string[] = [];
  const seen = new Set<number>();
  for (const v of ranked) {
    const l = lifetimeOf.get(v) ?? -1;
    if (!seen.has(l)) {
      seen.add(l);
      first.push(v);
    }
  }
  const firstSet = new Set(first);
  return [...first, ...ranked.filter((v) => !firstSet.has(v))];
}

export interface StableMember {
  history: GroundTruthHistory;
  /** The m versions API-I and SR use (present, among the selected versions), ascending. */
  versions: string[];
}

export interface LibrarySelection {
  library: string;
  /** Every evolving API, in full. */
  evolving: GroundTruthHistory[];
  /** The stable control group, in rank order. */
  stable: StableMember[];
  /** api → its stable member (for API-C). */
  stableByApi: Map<string, StableMember>;
}

/**
 * Chooses the APIs of one library: every evolving API with a cell among `selectedVersions` that is not na, and the
 * stable control group (the C best ranked stable APIs present in some selected version), each with its m versions.
 */
export function selectApis(library: string, histories: readonly GroundTruthHistory[], selectedVersions: readonly string[], caps: SamplingCaps, seed: number): LibrarySelection {
  const selected = new Set(selectedVersions);
  const evolving = histories.filter((h) => h.evolution === 'evolving' && h.versions.some((c) => selected.has(c.version) && c.state !== 'na'));
  const stableCandidates = histories.filter((h) => h.evolution === 'stable' && h.versions.some((c) => selected.has(c.version) && c.state === 'present'));
  const group = rankBy(stableCandidates, seed, (h) => h.api, `stable-group\0${library}`).slice(0, caps.stableApis);
  const stable = group.map((history) => {
    const present = history.versions.filter((c) => c.state === 'present' && selected.has(c.version)).map((c) => c.version);
    const chosen = new Set(versionsInPickOrder(history, present, seed, library).slice(0, caps.versionsPerApi));
    return { history, versions: present.filter((v) => chosen.has(v)) };
  });
  return { library, evolving, stable, stableByApi: new Map(stable.map((m) => [m.history.api, m])) };
}
