// The descriptions of one library: every documented (API, version) cell run through the Appendix E pipeline, then
// collision de-duplication across the APIs of each version. API-I and API-C (L1–L3) read descriptions from here, so
// both tasks see the same text for the same cell. Pure: the histories arrive as plain data.
import type { GroundTruthHistory } from '../../../core/ground-truth.js';
import { prepareDescription, type DescriptionRejection, type DescriptionResult, type QualityTier } from './docstrings.js';
import { compareStrings } from './seeded.js';

export interface Description {
  text: string;
  tier: QualityTier;
  /** The version whose documentation the text comes from. */
  version: string;
}

/** The path an API is a direct member of: its module, or its class for methods and properties. */
export function parentPath(api: string): string {
  const dot = api.lastIndexOf('.');
  return dot < 0 ? '' : api.slice(0, dot);
}

export class DescriptionIndex {
  private readonly results = new Map<string, DescriptionResult>();
  private readonly raw = new Map<string, string>();
  /** version \0 parent \0 raw doc → APIs present there with that documentation. */
  private readonly byRawDoc = new Map<string, string[]>();

  /**
   * Prepares the documentation of every present cell of `histories` (the rows of one library's A matrix).
   * `libraryNames` are the names a version phrase may use for the library ("numpy", "NumPy" matches
   * case-insensitively).
   */
  constructor(
    readonly histories: ReadonlyMap<string, GroundTruthHistory>,
    libraryNames: readonly string[],
  ) {
    const groups = new Map<string, string[]>();
    for (const [api, history] of histories) {
      const parent = parentPath(api);
      for (const cell of history.versions) {
        if (cell.state !== 'present' || cell.doc === null) continue;
        const key = cellKey(api, cell.version);
        this.raw.set(key, cell.doc);
        const rawKey = `${cell.version}\0${parent}\0${cell.doc}`;
        const same = this.byRawDoc.get(rawKey) ?? [];
        same.push(api);
        this.byRawDoc.set(rawKey, same);
        const result = prepareDescription(cell.doc, api, libraryNames);
        this.results.set(key, result);
        if (result.ok) {
          const group = `${cell.version}\0${parent}\0${result.text}`;
          const members = groups.get(group) ?? [];
          members.push(api);
          groups.set(group, members);
        }
      }
    }
    // Collision de-duplication: a module (or class) path and redacted text shared by several APIs of one version is
    // no longer discriminative, so every API sharing it loses its description at that version.
    for (const [group, members] of groups) {
      if (members.length < 2) continue;
      const version = group.slice(0, group.indexOf('\0'));
      for (const api of members) {
        const key = cellKey(api, version);
        const result = this.results.get(key)!;
        this.results.set(key, { ok: false, reason: 'collision', text: result.text });
      }
    }
  }

  /** The pipeline's verdict on the documentation of `api` at `version`; undefined when the cell is not present or has none. */
  result(api: string, version: string): DescriptionResult | undefined {
    return this.results.get(cellKey(api, version));
  }

  /** The accepted description of a present cell, or null. */
  at(api: string, version: string): Description | null {
    const r = this.results.get(cellKey(api, version));
    return r?.ok ? { text: r.text, tier: r.tier, version } : null;
  }

  /**
   * The description for a cell where the API may be absent: its own when present and accepted, else the accepted
   * description of the nearest version (by position among `versions`) where it is present; at equal distance the
   * newer one.
   */
  nearest(api: string, version: string, versions: readonly string[]): Description | null {
    const own = this.at(api, version);
    if (own) return own;
    const index = versions.indexOf(version);
    if (index < 0) return null;
    for (let d = 1; d < versions.length; d++) {
      for (const i of [index + d, index - d]) {
        const v = versions[i];
        if (v === undefined) continue;
        const found = this.at(api, v);
        if (found) return found;
      }
    }
    return null;
  }

  /**
   * Other APIs with the same parent path, present at `version`, whose documentation there is exactly the
   * documentation the description was made from (a renamed API usually keeps its text: trapz and trapezoid).
   */
  equivalents(api: string, description: Description, version: string): string[] {
    const raw = this.raw.get(cellKey(api, description.version));
    if (raw === undefined) return [];
    const same = this.byRawDoc.get(`${version}\0${parentPath(api)}\0${raw}`) ?? [];
    return same.filter((a) => a !== api).sort(compareStrings);
  }

  /** How many present, documented cells each step of the pipeline turned away, and how many were accepted per tier. */
  counts(): { accepted: Record<QualityTier, number>; rejected: Record<DescriptionRejection, number> } {
    const accepted: Record<QualityTier, number> = { rich: 0, good: 0, medium: 0, short: 0 };
    const rejected: Record<DescriptionRejection, number> = { empty: 0, 'too-short': 0, 'auto-generated': 0, 'non-discriminative': 0, collision: 0 };
    for (const r of this.results.values()) {
      if (r.ok) accepted[r.tier]++;
      else rejected[r.reason]++;
    }
    return { accepted, rejected };
  }
}

function cellKey(api: string, version: string): string {
  return `${api}\0${version}`;
}
