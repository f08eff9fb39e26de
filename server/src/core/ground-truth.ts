// The benchmark's view of a matrix (the paper's A and S matrices): per (API, version) the verdict of the presence
// rule — present only when documented and resolved — rather than the checker's "would this call work".
import type { ApiKind, Signature } from './api-model.js';

export type GroundTruthState = 'present' | 'absent' | 'na';

export interface GroundTruthCell {
  version: string;
  state: GroundTruthState;
  signature: Signature | null;
  doc: string | null;
}

export interface GroundTruthHistory {
  api: string;
  kind: ApiKind;
  /** stable: present in every tracked version with one signature shape; evolving otherwise. */
  evolution: 'stable' | 'evolving';
  documentedEver: boolean;
  versions: GroundTruthCell[];
}

export interface GroundTruthMatrix {
  readonly library: string;
  readonly versions: readonly string[];
  /** The rows of the A matrix: APIs documented in some version (every API when the library has no docs evidence). */
  apiPaths(): string[];
  groundTruth(api: string): GroundTruthHistory | undefined;
  /**
   * The versions a benchmark samples when a run names none: those with documentation evidence when the library has
   * any (the ground truth needs the docs bit; patch releases tracked only for the checker add nothing there).
   */
  benchmarkVersions?(): string[];
}
