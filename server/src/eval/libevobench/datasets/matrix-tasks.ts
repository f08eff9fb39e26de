// The two declarative tasks, built from the matrices alone (Appendix D.2 "Task-specific pool construction"):
// API-I, one query per (API, version) cell that is not na and has a correct answer (present, or absent with an
// equivalent present in its place) — module path + redacted description → the API's name;
// SR, one query per (API, version, signature) cell — fully qualified name + version → the signature. Both take the
// sampled cells: every evolving API in full, the stable control group at its m versions. Pure.
import { formatSignature } from '../../../core/api-model.js';
import type { GroundTruthHistory } from '../../../core/ground-truth.js';
import type { DescriptionIndex } from './descriptions.js';
import { parentPath } from './descriptions.js';
import type { SampleDraft } from './drafts.js';
import type { LibrarySelection } from './sampling.js';

export interface LibraryData {
  library: string;
  /** Tracked versions, ascending. */
  versions: readonly string[];
  /** The versions the dataset covers, ascending. */
  selected: readonly string[];
  histories: ReadonlyMap<string, GroundTruthHistory>;
  descriptions: DescriptionIndex;
  selection: LibrarySelection;
}

/** Why a sampled cell produced no API-I query. */
export interface ApiISkips {
  /** The library's root module has no parent path to show. */
  root: number;
  /** A present cell without an accepted description (no documentation text, or the pipeline turned it away). */
  noDescription: number;
  /** An absent cell of an API with no accepted description in any version. */
  absentWithoutDescription: number;
  /** An absent cell whose module or class is itself not present at that version: the query would name a path that does not exist. */
  parentMissing: number;
  /**
   * An absent cell of an API nothing replaced at that version (no equivalent present with its documentation): no
   * answer is correct there, so the question is not asked (issue 22, point 2).
   */
  unanswerable: number;
}

export function leafName(api: string): string {
  return api.slice(api.lastIndexOf('.') + 1);
}

export function presentIn(history: GroundTruthHistory): string[] {
  return history.versions.filter((c) => c.state === 'present').map((c) => c.version);
}

/** The sampled (API, version) cells of a library: evolving APIs at every selected version, stable ones at their m. */
export function sampledCells(data: LibraryData): { history: GroundTruthHistory; version: string }[] {
  const selected = new Set(data.selected);
  const cells: { history: GroundTruthHistory; version: string }[] = [];
  for (const history of data.selection.evolving) {
    for (const cell of history.versions) if (selected.has(cell.version)) cells.push({ history, version: cell.version });
  }
  for (const member of data.selection.stable) for (const version of member.versions) cells.push({ history: member.history, version });
  return cells;
}

/** The draft of one sampled cell: its query and what a correct answer is, with no snippet (the tasks read no code). */
function cellDraft(data: LibraryData, history: GroundTruthHistory, version: string, spec: SampleDraft['spec'], groundTruth: SampleDraft['groundTruth']): SampleDraft {
  return { spec, library: data.library, version, api: history.api, evolving: history.evolution === 'evolving', snippet: '', groundTruth };
}

export function emptyApiISkips(): ApiISkips {
  return { root: 0, noDescription: 0, absentWithoutDescription: 0, parentMissing: 0, unanswerable: 0 };
}

export function apiIDrafts(data: LibraryData, skips: ApiISkips = emptyApiISkips()): SampleDraft[] {
  const drafts: SampleDraft[] = [];
  for (const { history, version } of sampledCells(data)) {
    const cell = history.versions.find((c) => c.version === version)!;
    if (cell.state === 'na') continue;
    const api = history.api;
    const module = parentPath(api);
    if (module === '') {
      skips.root++;
      continue;
    }
    if (cell.state === 'absent') {
      const parent = data.histories.get(module);
      if (parent && parent.versions.find((c) => c.version === version)?.state !== 'present') {
        skips.parentMissing++;
        continue;
      }
    }
    const description = cell.state === 'present' ? data.descriptions.at(api, version) : data.descriptions.nearest(api, version, data.versions);
    if (!description) {
      if (cell.state === 'present') skips.noDescription++;
      else skips.absentWithoutDescription++;
      continue;
    }
    // At an absent cell the API itself is no answer; only an equivalent present there (a renamed API) is.
    const equivalents = data.descriptions.equivalents(api, description, version);
    if (cell.state === 'absent' && equivalents.length === 0) {
      skips.unanswerable++;
      continue;
    }
    drafts.push(cellDraft(data, history, version, { task: 'API-I', library: data.library, version, module, description: description.text }, {
      api,
      name: leafName(api),
      module,
      kind: history.kind,
      state: cell.state,
      presentIn: presentIn(history),
      description: { from: description.version, tier: description.tier },
      equivalents,
    }));
  }
  return drafts;
}

export function srDrafts(data: LibraryData): SampleDraft[] {
  const drafts: SampleDraft[] = [];
  for (const { history, version } of sampledCells(data)) {
    const cell = history.versions.find((c) => c.version === version)!;
    if (cell.state !== 'present' || cell.signature === null) continue;
    const api = history.api;
    const name = leafName(api);
    drafts.push(cellDraft(data, history, version, { task: 'SR', library: data.library, version, api }, {
      api,
      name,
      kind: history.kind,
      parameters: cell.signature.parameters,
      signature: formatSignature(name, cell.signature),
      presentIn: presentIn(history),
      // Every recorded signature of the API, for the parameter-level taxonomy (Correct / Anachronistic / Unknown).
      signatures: history.versions
        .filter((c) => c.state === 'present' && c.signature !== null)
        .map((c) => ({ version: c.version, parameters: c.signature!.parameters.map((p) => p.name) })),
    }));
  }
  return drafts;
}
