// Versions that stand for a release series: Python's tracked "3.12" is every 3.12.x. A pin names versions
// (">=3.9.2", "==3.11.7", "~=3.10"); the series it allows are those with at least one version it accepts.
import { satisfies } from './versions.js';

function release(version: string): number[] | null {
  const m = /^v?(\d+(?:\.\d+)*)/.exec(version.trim());
  return m ? m[1]!.split('.').map(Number) : null;
}

/** The tracked series a version belongs to ("3.11.7" -> "3.11"), or null when none is tracked. */
export function seriesOf(version: string, series: readonly string[]): string | null {
  const r = release(version);
  if (!r) return null;
  return series.find((s) => {
    const head = release(s);
    return head !== null && head.every((n, i) => r[i] === n || (r[i] === undefined && n === 0));
  }) ?? null;
}

/**
 * Whether `specifier` accepts some version of the series: tried at the series' first and a far patch release, and
 * next to every version the specifier names inside the series (the only places where its answer can change).
 */
export function seriesSatisfies(series: string, specifier: string): boolean {
  const head = release(series);
  if (!head) return false;
  const candidates = new Set([series, `${series}.0`, `${series}.99999`]);
  for (const m of specifier.matchAll(/\d+(?:\.\d+)*/g)) {
    const r = m[0].split('.').map(Number);
    if (r.length <= head.length || !head.every((n, i) => r[i] === n)) continue;
    const patch = r[head.length]!;
    for (const p of [patch - 1, patch, patch + 1]) if (p >= 0) candidates.add([...head, p].join('.'));
  }
  return [...candidates].some((v) => satisfies(v, specifier));
}

/** Per tracked-series array, per specifier: the answer, asked once per reference of every file otherwise. */
const allowedCache = new WeakMap<readonly string[], Map<string, readonly string[]>>();

/** The tracked series a specifier allows, in order. */
export function seriesAllowedBy(specifier: string, series: readonly string[]): string[] {
  let bySpecifier = allowedCache.get(series);
  if (!bySpecifier) allowedCache.set(series, (bySpecifier = new Map()));
  let allowed = bySpecifier.get(specifier);
  if (!allowed) bySpecifier.set(specifier, (allowed = series.filter((s) => seriesSatisfies(s, specifier))));
  return [...allowed];
}

/** The major.minor series a specifier's versions name, lowest first (">=3.6,<3.8" -> 3.6, 3.8). */
export function seriesNamedBy(specifier: string): string[] {
  const named = new Set<string>();
  for (const m of specifier.matchAll(/(\d+)\.(\d+)/g)) named.add(`${m[1]}.${m[2]}`);
  return [...named].sort((a, b) => {
    const [x, y] = [a, b].map((v) => v.split('.').map(Number));
    return x![0]! - y![0]! || x![1]! - y![1]!;
  });
}
