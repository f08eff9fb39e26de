// Fault injection for the local model server: each request draws at most one fault, with the given probabilities.
// Seeded, so a test run draws the same sequence of faults (the order requests arrive in may still vary).
import { InputError } from '../../core/errors.js';
import { seededRandom } from '../../core/random.js';

export type FaultKind = 'timeout' | 'rate-limit' | 'server-error' | 'malformed' | 'drop';
export const FAULT_KINDS: readonly FaultKind[] = ['timeout', 'rate-limit', 'server-error', 'malformed', 'drop'];

/** A fault kind, a specific variant of one, or null (answer normally): the entries of a scripted sequence. */
export type ScriptedFault = FaultKind | 'malformed:truncated' | 'malformed:no-choices' | 'drop:before-response' | 'drop:mid-body' | null;

/** What the server does with one request. */
export interface FaultDraw {
  kind: FaultKind;
  variant: 'truncated' | 'no-choices' | 'before-response' | 'mid-body' | null;
}

export interface FaultConfig {
  /** Hang without answering until the client gives up (its timeout) or the server closes. */
  timeout?: number;
  /** 429 with Retry-After (and retry-after-ms when retryAfterMs is set). */
  rateLimit?: number;
  /** 500 with an OpenAI-style error body. */
  serverError?: number;
  /** 200 whose body is not a chat completion: truncated JSON, or JSON without choices (alternately). */
  malformed?: number;
  /** The socket is destroyed: before any response, or after the headers and half the body (alternately). */
  drop?: number;
  /** Retry-After in seconds sent with 429 (default 1). */
  retryAfterSeconds?: number;
  /** When set, 429 also carries retry-after-ms (which clients such as ours prefer). */
  retryAfterMs?: number;
  /** Delay added before every answered request, to simulate model latency (default 0). */
  delayMs?: number;
  /** PRNG seed (default 1). */
  seed?: number;
  /** Faults for the first requests, in arrival order, before the probabilities apply (for exact tests). */
  script?: ScriptedFault[];
}

/** `total` probability spread evenly over the five faults, e.g. mixedFaults(0.2) = 4% of each. */
export function mixedFaults(total: number, extra: Omit<FaultConfig, 'timeout' | 'rateLimit' | 'serverError' | 'malformed' | 'drop'> = {}): FaultConfig {
  const each = total / FAULT_KINDS.length;
  return { timeout: each, rateLimit: each, serverError: each, malformed: each, drop: each, ...extra };
}

export class FaultPlan {
  private readonly random: () => number;
  private scripted = 0;
  constructor(readonly config: FaultConfig = {}) {
    const total = FAULT_KINDS.reduce((s, k) => s + this.probability(k), 0);
    if (total > 1 + 1e-9) throw new InputError(`fault probabilities add up to ${total}, more than 1`);
    for (const k of FAULT_KINDS) if (this.probability(k) < 0) throw new InputError(`fault probability of ${k} is negative`);
    this.random = seededRandom(config.seed ?? 1);
  }

  probability(kind: FaultKind): number {
    const c = this.config;
    switch (kind) {
      case 'timeout':
        return c.timeout ?? 0;
      case 'rate-limit':
        return c.rateLimit ?? 0;
      case 'server-error':
        return c.serverError ?? 0;
      case 'malformed':
        return c.malformed ?? 0;
      case 'drop':
        return c.drop ?? 0;
    }
  }

  /** The fault for the next request, or null to answer it. */
  draw(): FaultDraw | null {
    if (this.scripted < (this.config.script?.length ?? 0)) {
      const entry = this.config.script![this.scripted++]!;
      if (entry === null) return null;
      const [kind, variant] = entry.split(':') as [FaultKind, FaultDraw['variant'] | undefined];
      return { kind, variant: variant ?? this.variantOf(kind) };
    }
    let r = this.random();
    for (const k of FAULT_KINDS) {
      const p = this.probability(k);
      if (r < p) return { kind: k, variant: this.variantOf(k) };
      r -= p;
    }
    return null;
  }

  private variantOf(kind: FaultKind): FaultDraw['variant'] {
    if (kind === 'malformed') return this.random() < 0.5 ? 'truncated' : 'no-choices';
    if (kind === 'drop') return this.random() < 0.5 ? 'before-response' : 'mid-body';
    return null;
  }
}
