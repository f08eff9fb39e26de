// One seedable pseudo-random generator for everything that must repeat itself from a seed: fault plans of the
// local model server, sampled corpora, fuzz tests. Pure.

/** mulberry32: a small, fast, seedable PRNG returning [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed from a seed and a key (FNV-1a): one generator per key, whatever order the keys are drawn in. */
export function seedFor(seed: number, key: string): number {
  let h = 0x811c9dc5;
  const text = `${seed}\u0000${key}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
