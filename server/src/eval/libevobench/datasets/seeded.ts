// Seeded, order-independent choices for the dataset builder. Every "random" pick is a ranking by a hash of the seed
// and the item's own key, so it does not depend on the order items arrive in, and adding an item to the pool never
// reshuffles the others. Pure.
import { createHash } from 'node:crypto';

/** A sort key for `parts` under `seed`: hex of sha256, compared as strings. */
export function rankKey(seed: number, ...parts: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify([seed, ...parts])).digest('hex');
}

/** A short, stable digest of `parts` (no seed): for sample ids. */
export function digest(parts: readonly unknown[], length = 16): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, length);
}

/** The items ordered by their seeded rank (ties, which need a hash collision, fall back to the key itself). */
export function rankBy<T>(items: readonly T[], seed: number, key: (item: T) => string, scope = ''): T[] {
  const keyed = items.map((item) => ({ item, k: key(item) }));
  const ranks = new Map(keyed.map(({ k }) => [k, rankKey(seed, scope, k)]));
  return keyed
    .sort((a, b) => compareStrings(ranks.get(a.k)!, ranks.get(b.k)!) || compareStrings(a.k, b.k))
    .map(({ item }) => item);
}

/** Code-unit order, independent of the locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
