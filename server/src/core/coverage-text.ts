// Coverage entries in words, for every face that shows them (the CLI's lines and table, the editor's status item
// and Show Pins). Type imports only, so the client bundle takes it without the checker.
import type { CoverageEntry } from './coverage.js';

const span = (versions: readonly string[]) => (versions.length === 0 ? 'none' : versions.length === 1 ? versions[0]! : `${versions[0]}–${versions[versions.length - 1]}`);

/** Why an entry is not (exactly) covered, in a few words: "no matrix", "outside the tracked versions (1.19.5–2.4.6)". */
export function describeCoverageReason(e: CoverageEntry): string {
  switch (e.reason) {
    case 'tracked':
      return `checked at ${e.checkedVersions.join(', ')}`;
    case 'between-tracked':
      return `judged where ${e.neighbours?.below} and ${e.neighbours?.above} agree`;
    case 'outside-tracked':
      return `outside the tracked versions (${span(e.trackedVersions)}); assumed like ${e.neighbours?.below ?? e.neighbours?.above}`;
    case 'no-tracked-version-allowed':
      return `allows none of the tracked versions (${span(e.trackedVersions)})`;
    case 'no-matrix':
      return 'no matrix';
    case 'unpinned':
      return 'not pinned';
  }
}

/** "pandas==2.0.3", "numpy>=1.21", "numpy (unpinned)". */
export function coverageRequirement(e: CoverageEntry): string {
  return e.specifier ? `${e.distribution}${e.specifier}` : `${e.distribution} (unpinned)`;
}
