// A small TF-IDF retrieval index over short texts (documentation summaries): the reference models and the API
// lookup (knowledge/api-lookup.ts) search documentation with it. Pure.

const STOPWORDS = new Set(
  ('a an and are as at be been by can for from has have if in into is it its may must of on or that the their then there these this ' +
    'those to was were which will with without whether when where who whose also any each either not no only other such than use used ' +
    'using given returns return see same one two do does').split(' '),
);

/** Lower-case word tokens: snake_case and camelCase are split, stop words and one-letter tokens dropped, a plural "s" folded. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  for (const raw of spaced.toLowerCase().split(/[^a-z0-9]+/)) {
    if (raw.length < 2 || STOPWORDS.has(raw) || /^\d+$/.test(raw)) continue;
    out.push(raw.length > 3 && raw.endsWith('s') && !raw.endsWith('ss') ? raw.slice(0, -1) : raw);
  }
  return out;
}

export interface ScoredKey<K> {
  key: K;
  score: number;
}

export class TfIdfIndex<K> {
  private readonly keys: K[] = [];
  private readonly vectors: Map<string, number>[] = [];
  private readonly postings = new Map<string, number[]>();
  private idf = new Map<string, number>();
  private frozen = false;

  /** Adds a document made of tokens (repeat a token to weigh it more). */
  add(key: K, tokens: readonly string[]): void {
    if (this.frozen) throw new Error('the index is frozen');
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    const id = this.keys.length;
    this.keys.push(key);
    this.vectors.push(tf);
    for (const t of tf.keys()) {
      let list = this.postings.get(t);
      if (!list) this.postings.set(t, (list = []));
      list.push(id);
    }
  }

  get size(): number {
    return this.keys.length;
  }

  /** Computes weights; called once after the last add (search calls it when needed). */
  freeze(): void {
    if (this.frozen) return;
    const n = this.keys.length;
    for (const [t, list] of this.postings) this.idf.set(t, Math.log((1 + n) / (1 + list.length)) + 1);
    for (const tf of this.vectors) {
      const norm = this.weigh(tf);
      for (const [t, w] of tf) tf.set(t, w / norm);
    }
    this.frozen = true;
  }

  /** Term counts to sublinear TF-IDF weights, in place; returns the vector's Euclidean norm (1 for an empty one). */
  private weigh(counts: Map<string, number>): number {
    let norm = 0;
    for (const [t, c] of counts) {
      const w = (1 + Math.log(c)) * this.idf.get(t)!;
      counts.set(t, w);
      norm += w * w;
    }
    return Math.sqrt(norm) || 1;
  }

  /** Cosine similarity of the query with every document sharing a term, best first; `accept` filters keys. */
  search(queryTokens: readonly string[], accept?: (key: K) => boolean): ScoredKey<K>[] {
    this.freeze();
    const q = new Map<string, number>();
    for (const t of queryTokens) if (this.idf.has(t)) q.set(t, (q.get(t) ?? 0) + 1);
    const norm = this.weigh(q);
    const scores = new Map<number, number>();
    for (const [t, w] of q) {
      for (const id of this.postings.get(t) ?? []) scores.set(id, (scores.get(id) ?? 0) + (w / norm) * this.vectors[id]!.get(t)!);
    }
    const out: ScoredKey<K>[] = [];
    for (const [id, score] of scores) {
      const key = this.keys[id]!;
      if (!accept || accept(key)) out.push({ key, score });
    }
    return out.sort((a, b) => b.score - a.score);
  }
}
