// A benchmark sample as a suite's dataset step produces it, and the deterministic selection of a run's samples
// (--limit, --shard i/n). Pure.
import { createHash } from 'node:crypto';
import type { ChatMessage } from '../models/provider.js';
import { InputError } from '../../core/errors.js';

/** One prompt of a run; the suite says what its task and level are (LibEvoBench: "API-C" at "L2"). */
export interface BenchSample<Task extends string = string, Level extends string = string> {
  /** Unique and stable across rebuilds of the same dataset (seed): resume, sharding and merging key on it. */
  id: string;
  task: Task;
  /** The task's level, when it has levels (LibEvoBench's API-C); else null. */
  level: Level | null;
  library: string;
  /** The version the sample targets (the pinned one for API-C). */
  version: string;
  /** Fully qualified name of the ground-truth API. */
  api: string;
  /** The API evolves across the tracked versions (else it is in the stable control group). */
  evolving: boolean;
  /** The messages sent to the model, rendered with renderPrompt (docs/benchmark-models.md). */
  prompt: ChatMessage[];
  /** Whatever the scorer needs (JSON-serialisable): the builder and the scorer agree on its shape. */
  groundTruth: unknown;
}

export interface ShardSpec {
  /** 1-based. */
  index: number;
  count: number;
}

/** "2/4" → { index: 2, count: 4 }. */
export function parseShard(text: string): ShardSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new InputError(`a shard is written i/n (e.g. 1/4), got "${text}"`);
  const shard = { index: Number(m[1]), count: Number(m[2]) };
  checkShard(shard);
  return shard;
}

export function checkShard(shard: ShardSpec): void {
  if (!Number.isInteger(shard.count) || shard.count < 1 || !Number.isInteger(shard.index) || shard.index < 1 || shard.index > shard.count) {
    throw new InputError(`shard ${shard.index}/${shard.count}: i must be in 1..n`);
  }
}

export function formatShard(shard: ShardSpec | undefined | null): string {
  return shard ? `${shard.index}/${shard.count}` : '';
}

/** Which shard (1-based) a sample belongs to: a hash of its id, so the split is stable whatever the order or the machine. */
export function shardOf(id: string, count: number): number {
  const h = createHash('sha256').update(id).digest();
  return (h.readUInt32BE(0) % count) + 1;
}

export interface Selection {
  /** The samples this run (or shard) is responsible for, in dataset order. */
  samples: BenchSample[];
  /** Position of each selected sample in the full dataset, for a stable output order across shards. */
  ordinals: Map<string, number>;
}

/**
 * The run's samples: the first `limit` of the dataset (the builder's order is deterministic given its seed), then this
 * shard's share of them. So the shards of a limited run together are exactly the limited unsharded run.
 * Throws on duplicate ids.
 */
export function selectSamples(dataset: readonly BenchSample[], options: { limit?: number; shard?: ShardSpec | null } = {}): Selection {
  const seen = new Set<string>();
  for (const s of dataset) {
    if (seen.has(s.id)) throw new InputError(`the dataset has two samples with id ${s.id}`);
    seen.add(s.id);
  }
  const limited = options.limit !== undefined ? dataset.slice(0, Math.max(0, options.limit)) : dataset;
  const ordinals = new Map<string, number>();
  const samples: BenchSample[] = [];
  limited.forEach((s, i) => {
    if (options.shard && shardOf(s.id, options.shard.count) !== options.shard.index) return;
    ordinals.set(s.id, i);
    samples.push(s);
  });
  if (options.shard) checkShard(options.shard);
  return { samples, ordinals };
}

/** Canonical JSON (sorted keys), for digests and identities. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.keys(v as Record<string, unknown>).sort().map((k) => [k, (v as Record<string, unknown>)[k]]));
    }
    return v;
  });
}

/** A digest of everything a sample says: two samples with one id and different digests conflict. */
export function sampleDigest(sample: BenchSample): string {
  const { id, task, level, library, version, api, evolving, prompt, groundTruth } = sample;
  return createHash('sha256').update(canonicalJson({ id, task, level, library, version, api, evolving, prompt, groundTruth: groundTruth ?? null })).digest('hex').slice(0, 32);
}
