// PEP 440 version handling. Python versions are not semver ("1.13.1+cu117", "2.0.0rc1", "~=1.24.0"),
// so everything version-shaped in the core goes through this module and a real PEP 440 implementation.
import * as pep440 from '@renovatebot/pep440';

export function isValidVersion(version: string): boolean {
  return pep440.valid(version) !== null;
}

/** A valid version in its normal PEP 440 form ("v1.24.2" and "0!1.24.2" are 1.24.2); other text as it is. */
export function normalVersion(version: string): string {
  return pep440.clean(version) ?? version;
}

/** Total order on valid PEP 440 versions; invalid strings sort after valid ones, by text. */
export function compareVersions(a: string, b: string): number {
  const va = isValidVersion(a);
  const vb = isValidVersion(b);
  if (va && vb) return pep440.compare(a, b);
  if (va !== vb) return va ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortVersions(versions: Iterable<string>): string[] {
  return [...versions].sort(compareVersions);
}

export function versionsEqual(a: string, b: string): boolean {
  return isValidVersion(a) && isValidVersion(b) ? pep440.eq(a, b) : a === b;
}

export function isValidSpecifier(specifier: string): boolean {
  return pep440.validRange(specifier);
}

/** Neither a pre-release nor a development release (post-releases are final). */
export function isFinalRelease(version: string): boolean {
  const v = pep440.explain(version);
  return v !== null && !v.is_prerelease;
}

export function satisfies(version: string, specifier: string): boolean {
  return pep440.satisfies(version, specifier, { prereleases: true });
}

/**
 * Where `version` falls among the ascending `tracked` versions: the exact match, or the neighbours around it
 * (either may be missing when the version is outside the tracked span).
 */
export type Placement =
  | { kind: 'exact'; index: number }
  | { kind: 'between'; below: number | null; above: number | null };

// Releases a matrix answers for as for a tracked one: patch releases whose surface the release planner found
// identical to a tracked release's and left out (matrix meta same_surface). Keyed by the tracked array.
const sameSurfaces = new WeakMap<readonly string[], ReadonlyMap<string, string>>();

/** Declares that each key of `same` (a release) has the surface of the tracked release it maps to. */
export function declareSameSurfaces(tracked: readonly string[], same: ReadonlyMap<string, string>): void {
  sameSurfaces.set(tracked, same);
  placements.delete(tracked);
}

// A matrix's tracked versions are one array for its lifetime and the checker asks for the same few pins again and
// again: placements are remembered per array (PEP 440 parsing dominated the checker's profile).
const placements = new WeakMap<readonly string[], Map<string, Placement>>();

export function placeVersion(version: string, tracked: readonly string[]): Placement {
  let known = placements.get(tracked);
  if (!known) placements.set(tracked, (known = new Map()));
  let placement = known.get(version);
  if (!placement) known.set(version, (placement = computePlacement(version, tracked)));
  return placement;
}

function computePlacement(version: string, tracked: readonly string[]): Placement {
  for (const [release, as] of sameSurfaces.get(tracked) ?? []) {
    if (compareVersions(release, version) !== 0) continue;
    const index = tracked.findIndex((t) => compareVersions(t, as) === 0);
    if (index >= 0) return { kind: 'exact', index };
  }
  let below: number | null = null;
  for (let i = 0; i < tracked.length; i++) {
    const c = compareVersions(tracked[i]!, version);
    if (c === 0) return { kind: 'exact', index: i };
    if (c < 0) below = i;
    else return { kind: 'between', below, above: i };
  }
  return { kind: 'between', below, above: null };
}

/** The next release prefix: "1.2" -> "1.3", "2" -> "3" (the end of what ==1.2.* or ~=1.2.0's last part allows). */
function nextPrefix(release: string): string | null {
  const parts = release.split('.');
  const last = Number(parts[parts.length - 1]);
  if (!Number.isInteger(last)) return null;
  parts[parts.length - 1] = String(last + 1);
  return parts.join('.');
}

/**
 * Whether a PEP 440 specifier allows no version at all (`>=2.0,<1.0`, `<0`, `==1.2,==1.3`): the bounds of its
 * ordered clauses (<, <=, >, >=, ==, ==X.*, ~=) cross. `!=` and `===` are not taken into account (they can only
 * leave it satisfiable or say nothing an ordering can decide), so false means "not shown to be empty".
 */
export function allowsNoVersion(specifier: string): boolean {
  let lower: { v: string; open: boolean } | null = null;
  let upper: { v: string; open: boolean } | null = null;
  const raise = (v: string, open: boolean) => {
    const c = lower === null ? 1 : compareVersions(v, lower.v);
    if (c > 0 || (c === 0 && open)) lower = { v, open };
  };
  const cap = (v: string, open: boolean) => {
    const c = upper === null ? -1 : compareVersions(v, upper.v);
    if (c < 0 || (c === 0 && open)) upper = { v, open };
  };
  for (const raw of specifier.split(',')) {
    const m = /^\s*(~=|==|<=|>=|<|>)\s*([^\s,]+)\s*$/.exec(raw);
    if (!m) continue;
    const [, op, text] = m as unknown as [string, string, string];
    const wildcard = /^(.*)\.\*$/.exec(text);
    const v = wildcard ? wildcard[1]! : text;
    if (!isValidVersion(v)) continue;
    if (op === '==' && wildcard) {
      const next = nextPrefix(v);
      raise(v, false);
      if (next) cap(next, true);
    } else if (op === '==') {
      raise(v, false);
      cap(v, false);
    } else if (op === '~=') {
      const release = v.split(/[^0-9.]/)[0]!.split('.');
      const next = release.length >= 2 ? nextPrefix(release.slice(0, -1).join('.')) : null;
      raise(v, false);
      if (next) cap(next, true);
    } else if (op === '>=') raise(v, false);
    else if (op === '>') raise(v, true);
    else if (op === '<=') cap(v, false);
    else cap(v, true);
  }
  const lo = lower as { v: string; open: boolean } | null;
  const up = upper as { v: string; open: boolean } | null;
  // Nothing comes before 0 (a pre-release of 0 is no exception: <0 excludes the pre-releases of 0).
  if (up && compareVersions(up.v, '0') <= 0 && (up.open || compareVersions(up.v, '0') < 0)) return true;
  if (!lo || !up) return false;
  const c = compareVersions(lo.v, up.v);
  return c > 0 || (c === 0 && (lo.open || up.open));
}
