// Arms: every sample of a run asked as it is (plain) and, in the grounded arm, again with anachron's answer for it in
// the prompt, as an agent that called the anachron_lookup tool would have it — so one run measures the model with and
// without anachron, sample by sample. What a grounded prompt holds is each suite's (its grounding.ts); the twins'
// ids, the order of a dataset with arms and the pins the tool is asked under are the same for every suite. Pure.
import { normalizeDistributionName } from '../../core/library-names.js';
import { parseCommandLinePin, type Pin } from '../../core/pins.js';
import type { ApiKnowledge } from '../../knowledge/api-lookup.js';
import type { BenchSample } from './samples.js';

export type Arm = 'plain' | 'grounded';
export const ARMS: readonly Arm[] = ['plain', 'grounded'];

/** A grounded sample's id: its plain twin's id with this suffix. */
export const GROUNDED_SUFFIX = '~grounded';

/**
 * The section a grounded prompt adds: anachron's answer (knowledge/render.ts) for what the prompt asks, at the
 * version the project pins, as a model calling the anachron_lookup tool would receive it. Plain prompts have none
 * and are byte-identical to prompts without the grounded arm.
 */
export const GROUNDING_SECTION = 'Documentation';

export function armOf(id: string): Arm {
  return id.endsWith(GROUNDED_SUFFIX) ? 'grounded' : 'plain';
}

/** The plain twin's id of a sample (itself for a plain sample). */
export function plainIdOf(id: string): string {
  return id.endsWith(GROUNDED_SUFFIX) ? id.slice(0, -GROUNDED_SUFFIX.length) : id;
}

/** The pins of a project that pins `library` at `version` (what the tool reads from its manifests). */
export function projectPins(knowledge: ApiKnowledge, library: string, version: string): Map<string, Pin> {
  const matrix = knowledge.resolve(library)?.matrix;
  const distribution = matrix?.distribution ?? library;
  const pin = parseCommandLinePin(`${distribution}==${version}`);
  if ('error' in pin) throw new Error(`cannot pin ${distribution}==${version}: ${pin.error}`);
  return new Map([[normalizeDistributionName(distribution), { ...pin, origin: { file: "the project's pins", line: null } }]]);
}

/**
 * The dataset of a run with arms: each plain sample, then its grounded twin (`twin`: the same sample asked with
 * anachron's answer, id + GROUNDED_SUFFIX; null when the tool has nothing to say for it), so that a limited run keeps
 * the pairs together.
 */
export function withArms<S extends BenchSample>(dataset: readonly S[], arms: readonly Arm[], twin: (sample: S) => S | null): S[] {
  const out: S[] = [];
  for (const sample of dataset) {
    if (arms.includes('plain')) out.push(sample);
    if (!arms.includes('grounded')) continue;
    const grounded = twin(sample);
    if (grounded) out.push(grounded);
  }
  return out;
}
