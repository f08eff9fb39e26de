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

/** What a marker depends on, in words: "which Python the project runs on (python_version)", "the platform (sys_platform)". */
export function describeUndecided(on: readonly string[]): string {
  const python = on.filter((v) => v.startsWith('python_') || v === 'implementation_version');
  const extras: string[] = on.filter((v) => v === 'extra' || v === 'extras' || v === 'dependency_groups');
  const platform = on.filter((v) => !python.includes(v) && !extras.includes(v) && v !== 'marker');
  const parts = [
    ...(python.length ? [`which Python of those the project allows (${python.join(', ')})`] : []),
    ...(platform.length ? [`the platform (${platform.join(', ')})`] : []),
    ...(extras.length ? [`what is installed with it (${extras.join(', ')})`] : []),
    ...(on.includes('marker') ? ['a marker that cannot be read'] : []),
  ];
  return parts.length ? parts.join(' and ') : 'what the project leaves open';
}
