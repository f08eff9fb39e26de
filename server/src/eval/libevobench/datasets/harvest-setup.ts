// What reading the corpus for API-C needs (the tracked libraries and the versions selected), in a form compact enough
// to hand to a worker thread (cli/worker-jobs.ts), and back. Pure.
import type { GroundTruthState } from '../../../core/ground-truth.js';
import type { CallTarget, TrackedLibrary } from './call-sites.js';

/**
 * What API-C's harvest needs of a tracked library, compact enough to hand to a thread: per documented API its kind and
 * its state at each tracked version, one letter each (p present, a absent, n not applicable).
 */
export interface HarvestLibrary {
  library: string;
  distribution: string;
  versions: string[];
  targets: [api: string, kind: CallTarget['kind'], states: string][];
}

const STATE_LETTERS: Record<GroundTruthState, string> = { present: 'p', absent: 'a', na: 'n' };
const LETTER_STATES: Record<string, GroundTruthState> = { p: 'present', a: 'absent', n: 'na' };

export function harvestLibraryOf(lib: TrackedLibrary<CallTarget>): HarvestLibrary {
  const targets: HarvestLibrary['targets'] = [];
  for (const [api, target] of lib.histories) targets.push([api, target.kind, target.versions.map((c) => STATE_LETTERS[c.state]).join('')]);
  return { library: lib.library, distribution: lib.distribution, versions: [...lib.versions], targets };
}

export function trackedLibraryOf(h: HarvestLibrary): TrackedLibrary<CallTarget> {
  const histories = new Map<string, CallTarget>();
  for (const [api, kind, states] of h.targets) histories.set(api, { kind, versions: h.versions.map((version, i) => ({ version, state: LETTER_STATES[states[i]!]! })) });
  return { library: h.library, distribution: h.distribution, versions: h.versions, histories };
}

export interface HarvestSetup {
  libraries: HarvestLibrary[];
  /** Library -> the versions the dataset covers. */
  selected: [string, string[]][];
}

/** The setup of a harvest over threads, from the dataset's plan (build.ts planDataset). */
export function harvestSetupOf(apiC: { libraries: Map<string, TrackedLibrary<CallTarget>>; selected: Map<string, Set<string>> }): HarvestSetup {
  return { libraries: [...apiC.libraries.values()].map(harvestLibraryOf), selected: [...apiC.selected].map(([l, v]) => [l, [...v]] as [string, string[]]) };
}
