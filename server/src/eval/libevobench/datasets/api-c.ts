// API-C (Appendix D.1, F.6): the raw pool of masked calls from a pinned corpus, its sampling (at most 50 snippets per
// (evolving API, version) cell; the stable control group at m versions with n snippets each, drawn uniformly), and
// the four levels of each snippet: L0 code only, L1 + redacted description, L2 + the version, L3 + the API's name.
// Pure: the parser and the matrices' data arrive as arguments.
import { MASK_TOKEN, type ApiCPrompt, type BenchLevel } from '../prompt-contract.js';
import { addCallSiteStats, emptyCallSiteStats, findCallSites, type CallSite, type CallSiteStats, type CallTarget, type TrackedLibrary } from './call-sites.js';
import { normaliseNewlines, type CorpusFile } from './corpus.js';
import type { PythonParser } from '../../../parser/python-parser.js';
import type { SampleDraft } from './drafts.js';
import { leafName, presentIn, type LibraryData } from './matrix-tasks.js';
import { versionsInPickOrder, type SamplingCaps } from './sampling.js';
import { digest, rankBy } from './seeded.js';
import { buildSnippet, type Snippet, type Truncation } from './snippets.js';

export interface ApiCInstance {
  site: CallSite;
  snippet: Snippet;
  /** Digest of library, version, API and the snippet's code: identical snippets are one instance. */
  key: string;
}

export interface ApiCPoolStats extends CallSiteStats {
  /** Corpus files read. */
  files: number;
  /** Files that mention a tracked library and were parsed. */
  parsed: number;
  /** Call sites at a version the dataset does not cover. */
  versionNotSelected: number;
  /** Snippets the truncation cascade could not bring within the budget. */
  discarded: number;
  /** Snippets whose code already holds the mask token. */
  holdsMaskToken: number;
  /** Identical snippets (same library, version, API and code) after the first. */
  duplicates: number;
  /** The raw pool: distinct snippets. */
  pool: number;
  /** Snippets in the pool per truncation step. */
  truncation: Record<Truncation, number>;
}

/** The API-C candidates of one corpus file, before identical snippets across files are merged. */
export interface ApiCFileHarvest {
  path: string;
  /** The file mentions a tracked library and was parsed. */
  parsed: boolean;
  calls: CallSiteStats;
  versionNotSelected: number;
  discarded: number;
  holdsMaskToken: number;
  /** Its call sites at selected versions with their snippets, in source order. */
  candidates: ApiCInstance[];
}

/** The harvest of one corpus file: every call site at a selected version with its snippet. */
export function harvestApiCFile(original: CorpusFile, parser: PythonParser, libraries: ReadonlyMap<string, TrackedLibrary<CallTarget>>, selected: ReadonlyMap<string, ReadonlySet<string>>): ApiCFileHarvest {
  const harvest: ApiCFileHarvest = { path: original.path, parsed: false, calls: emptyCallSiteStats(), versionNotSelected: 0, discarded: 0, holdsMaskToken: 0, candidates: [] };
  const mentions = new RegExp(`\\b(?:${[...libraries.keys()].map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\b`);
  const roots = new Set(libraries.keys());
  const file = { ...original, text: normaliseNewlines(original.text) };
  if (!mentions.test(file.text)) return harvest;
  harvest.parsed = true;
  const tree = parser.parse(file.text);
  try {
    for (const { site, node } of findCallSites(file, tree, libraries, harvest.calls)) {
      if (!selected.get(site.library)?.has(site.version)) {
        harvest.versionNotSelected++;
        continue;
      }
      const snippet = buildSnippet(file.text, tree, node, { libraries: roots });
      if ('discarded' in snippet) {
        harvest.discarded++;
        continue;
      }
      if (snippet.prefix.includes(MASK_TOKEN) || snippet.suffix.includes(MASK_TOKEN)) {
        harvest.holdsMaskToken++;
        continue;
      }
      harvest.candidates.push({ site, snippet, key: digest([site.library, site.version, site.api, snippet.prefix, site.call, snippet.suffix], 24) });
    }
  } finally {
    tree.delete();
  }
  return harvest;
}

/** The corpus's files in the order the pool takes them: by path. */
export function apiCFileOrder(files: readonly CorpusFile[]): CorpusFile[] {
  return [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The raw API-C pool from the harvests of a corpus's files (in apiCFileOrder): every de-duplicated call site at a
 * selected version with its snippet, in corpus order (files by path, calls by position).
 */
export function poolFromHarvests(harvests: readonly ApiCFileHarvest[]): { instances: ApiCInstance[]; stats: ApiCPoolStats } {
  const stats: ApiCPoolStats = {
    ...emptyCallSiteStats(), files: 0, parsed: 0, versionNotSelected: 0, discarded: 0, holdsMaskToken: 0, duplicates: 0, pool: 0,
    truncation: { none: 0, 'class-scope': 0, 'method-removal': 0, 'function-scope': 0 },
  };
  const instances: ApiCInstance[] = [];
  const seen = new Set<string>();
  for (const harvest of harvests) {
    stats.files++;
    if (!harvest.parsed) continue;
    stats.parsed++;
    stats.versionNotSelected += harvest.versionNotSelected;
    stats.discarded += harvest.discarded;
    stats.holdsMaskToken += harvest.holdsMaskToken;
    for (const instance of harvest.candidates) {
      if (seen.has(instance.key)) {
        stats.duplicates++;
        continue;
      }
      seen.add(instance.key);
      stats.truncation[instance.snippet.truncation]++;
      instances.push(instance);
    }
    addCallSiteStats(stats, harvest.calls);
  }
  stats.pool = instances.length;
  return { instances, stats };
}

export interface ApiCSamplingStats {
  /** Pool snippets of stable APIs outside the control group. */
  outsideStableGroup: number;
  /** Pool snippets of group APIs at versions beyond the m chosen. */
  beyondVersions: number;
  /** Pool snippets over a cell's cap (50 for evolving APIs, n for the control group). */
  overCap: number;
  /** Snippets kept. */
  kept: number;
}

/**
 * Samples the pool: an evolving API keeps at most `apiCPerCell` snippets per version; a stable API is kept only when
 * it is in the control group, at up to m versions that have snippets (lifetime-aware, the group's own versions
 * first when the corpus has them: the same ranking picks both) with up to n snippets each. Snippets within a cell
 * are drawn uniformly (seeded ranking). Returns the kept instances in pool order.
 */
export function sampleApiC(instances: readonly ApiCInstance[], data: ReadonlyMap<string, LibraryData>, caps: SamplingCaps, seed: number): { kept: ApiCInstance[]; stats: ApiCSamplingStats } {
  const stats: ApiCSamplingStats = { outsideStableGroup: 0, beyondVersions: 0, overCap: 0, kept: 0 };
  const byApi = new Map<string, ApiCInstance[]>();
  for (const instance of instances) {
    const key = `${instance.site.library}\0${instance.site.api}`;
    const list = byApi.get(key) ?? [];
    list.push(instance);
    byApi.set(key, list);
  }
  const keep = new Set<ApiCInstance>();
  for (const list of byApi.values()) {
    const { library, api } = list[0]!.site;
    const lib = data.get(library)!;
    const history = lib.histories.get(api)!;
    const byVersion = new Map<string, ApiCInstance[]>();
    for (const i of list) byVersion.set(i.site.version, [...(byVersion.get(i.site.version) ?? []), i]);
    let versions = [...byVersion.keys()];
    let perCell = caps.apiCPerCell;
    if (history.evolution !== 'evolving') {
      if (!lib.selection.stableByApi.has(api)) {
        stats.outsideStableGroup += list.length;
        continue;
      }
      const ascending = lib.versions.filter((v) => byVersion.has(v));
      versions = versionsInPickOrder(history, ascending, seed, library).slice(0, caps.versionsPerApi);
      stats.beyondVersions += ascending.filter((v) => !versions.includes(v)).reduce((n, v) => n + byVersion.get(v)!.length, 0);
      perCell = caps.snippetsPerCell;
    }
    for (const version of versions) {
      const cell = byVersion.get(version)!;
      const chosen = rankBy(cell, seed, (i) => i.key, `api-c\0${library}\0${version}\0${api}`).slice(0, perCell);
      stats.overCap += cell.length - chosen.length;
      for (const c of chosen) keep.add(c);
    }
  }
  const kept = instances.filter((i) => keep.has(i));
  stats.kept = kept.length;
  return { kept, stats };
}

export interface ApiCLevelSkips {
  /** L1/L2 prompts left out because the API has no accepted description at the pinned version. */
  noDescription: number;
}

/** The prompts of each kept snippet at each requested level. */
export function apiCDrafts(instances: readonly ApiCInstance[], data: ReadonlyMap<string, LibraryData>, levels: readonly BenchLevel[], skips: ApiCLevelSkips = { noDescription: 0 }): SampleDraft[] {
  const drafts: SampleDraft[] = [];
  for (const { site, snippet, key } of instances) {
    const lib = data.get(site.library)!;
    const history = lib.histories.get(site.api)!;
    const cell = history.versions.find((c) => c.version === site.version)!;
    const description = lib.descriptions.at(site.api, site.version);
    const base = {
      snippet: key,
      api: site.api,
      name: leafName(site.api),
      kind: history.kind,
      call: site.call,
      callee: site.callee,
      positional: site.positional,
      keywords: site.keywords,
      unpacking: site.unpacking,
      direct: site.direct,
      presentIn: presentIn(history),
      parameters: cell.signature ? cell.signature.parameters.map((p) => p.name) : null,
      source: { file: site.file, line: site.line + 1, column: site.column + 1, truncation: snippet.truncation, removedMethods: snippet.removedMethods, imports: snippet.imports.length },
    };
    for (const level of levels) {
      const spec: ApiCPrompt = { task: 'API-C', level, library: site.library, prefix: snippet.prefix, suffix: snippet.suffix };
      if (level === 'L2' || level === 'L3') spec.version = site.version;
      if (level !== 'L0' && description) spec.description = description.text;
      if (level === 'L3') spec.api = site.api;
      if ((level === 'L1' || level === 'L2') && !description) {
        skips.noDescription++;
        continue;
      }
      drafts.push({
        spec,
        library: site.library,
        version: site.version,
        api: site.api,
        evolving: history.evolution === 'evolving',
        snippet: key,
        groundTruth: spec.description !== undefined ? { ...base, description: { from: description!.version, tier: description!.tier } } : base,
      });
    }
  }
  return drafts;
}
