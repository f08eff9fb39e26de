// Which file of a project page a column is read from, and the releases a page offers. Pure.
// A column needs the library's Python source only: a pure-Python wheel has exactly that; another platform's wheel
// has the same .py/.pyi files beside its compiled modules (whose names the extractor still sees); the sdist is the
// last resort (its layout has to be found, and it may lack generated files).
import { compareVersions, isFinalRelease, isValidVersion, satisfies, sortVersions, versionsEqual } from '../core/versions.js';
import type { ProjectFile, ProjectPage } from './simple-api.js';

export interface Release {
  version: string;
  files: ProjectFile[];
  /** Every file of the release is yanked (PEP 592: a release is yanked when all its files are). */
  yanked: boolean;
  /** The reason the index gives, when it gives one. */
  yankedReason: string | null;
}

/** The releases on a page, ascending; versions spelt differently in different files (1.0 and 1.0.0) are one. */
export function releasesOf(page: ProjectPage): Release[] {
  const byVersion = new Map<string, ProjectFile[]>();
  for (const f of page.files) {
    const key = [...byVersion.keys()].find((v) => versionsEqual(v, f.version)) ?? f.version;
    byVersion.set(key, [...(byVersion.get(key) ?? []), f]);
  }
  return sortVersions(byVersion.keys()).map((version) => {
    const files = byVersion.get(version)!;
    const yanked = files.every((f) => f.yanked !== false);
    const reason = files.map((f) => f.yanked).find((y): y is string => typeof y === 'string' && y !== '') ?? null;
    return { version, files, yanked, yankedReason: yanked ? reason : null };
  });
}

/** The release an exact pin names (PEP 440 equality: 1.0 is 1.0.0), or undefined. */
export function releaseAt(releases: readonly Release[], version: string): Release | undefined {
  return releases.find((r) => versionsEqual(r.version, version));
}

/** The newest final release that is not yanked (what a bare `pip install` would take). */
export function newestRelease(releases: readonly Release[]): Release | undefined {
  return [...releases].reverse().find((r) => !r.yanked && isFinalRelease(r.version));
}

/** Final, not yanked releases a range allows, ascending; pre-releases only when the range names one. */
export function releasesAllowedBy(releases: readonly Release[], specifier: string): Release[] {
  const namesPre = /\d(a|b|rc|dev)\d*/i.test(specifier);
  return releases.filter((r) => !r.yanked && (isFinalRelease(r.version) || namesPre) && isValidVersion(r.version) && satisfies(r.version, specifier));
}

/** Releases strictly between two versions, ascending: the candidates a bisection step may fetch. */
export function releasesBetween(releases: readonly Release[], low: string, high: string): Release[] {
  return releases.filter((r) => !r.yanked && isFinalRelease(r.version) && compareVersions(r.version, low) > 0 && compareVersions(r.version, high) < 0);
}

const isPure = (f: ProjectFile) => f.tags.length > 0 && f.tags.every((t) => t.abi === 'none' && t.platform === 'any');

/** Platform preference among compiled wheels: the most common build first, so the choice is deterministic. */
function platformRank(f: ProjectFile): number {
  const p = f.tags[0]?.platform ?? '';
  if (/manylinux.*x86_64|linux_x86_64/.test(p)) return 0;
  if (/linux/.test(p)) return 1;
  if (/macosx/.test(p)) return 2;
  if (/win_amd64/.test(p)) return 3;
  return 4;
}

function pythonRank(f: ProjectFile): number {
  // Newer CPython tags first (cp312 before cp38): the newest build reflects the release's own source best.
  const m = /^cp3(\d+)$/.exec(f.tags[0]?.python ?? '');
  return m ? -Number(m[1]) : 0;
}

/** The file a column is read from: a pure-Python wheel, else a compiled wheel, else the sdist; yanked files last. */
export function chooseFile(release: Release): ProjectFile | undefined {
  const usable = release.files.filter((f) => !release.yanked ? f.yanked === false : true);
  const wheels = usable.filter((f) => f.kind === 'wheel');
  const pure = wheels.filter(isPure).sort((a, b) => a.filename.localeCompare(b.filename));
  if (pure.length) return pure[0];
  const compiled = [...wheels].sort((a, b) => platformRank(a) - platformRank(b) || pythonRank(a) - pythonRank(b) || a.filename.localeCompare(b.filename));
  if (compiled.length) return compiled[0];
  // A .tar.gz before a .zip of the same release (old projects uploaded both).
  return usable.filter((f) => f.kind === 'sdist').sort((a, b) => Number(!a.filename.endsWith('.tar.gz')) - Number(!b.filename.endsWith('.tar.gz')) || a.filename.localeCompare(b.filename))[0];
}
