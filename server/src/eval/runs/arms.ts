// The grounded arm: every sample asked again with anachron's answer for it in the prompt, as an agent that called
// the anachron_lookup tool would have it — so one run measures the model with and without anachron, sample by
// sample. The answer comes from the tool's own functions (knowledge/), queried only with what the prompt states plus
// the version the project pins (the sample's version: that is what the tool knows in a real project, also at the
// API-C levels whose prompt withholds it); never with the ground truth. Pure.
import { normalizeDistributionName } from '../../core/library-names.js';
import { parseCommandLinePin, type Pin } from '../../core/pins.js';
import type { ApiKnowledge, LookupQuery } from '../../knowledge/api-lookup.js';
import { renderLookup } from '../../knowledge/render.js';
import { NAME_PLACEHOLDER, parsePrompt, PromptContractError, renderPrompt, type PromptSpec } from '../libevobench/prompt-contract.js';
import type { BenchSample } from './samples.js';

export type Arm = 'plain' | 'grounded';
export const ARMS: readonly Arm[] = ['plain', 'grounded'];

/** A grounded sample's id: its plain twin's id with this suffix. */
export const GROUNDED_SUFFIX = '~grounded';

export function armOf(id: string): Arm {
  return id.endsWith(GROUNDED_SUFFIX) ? 'grounded' : 'plain';
}

/** The plain twin's id of a sample (itself for a plain sample). */
export function plainIdOf(id: string): string {
  return id.endsWith(GROUNDED_SUFFIX) ? id.slice(0, -GROUNDED_SUFFIX.length) : id;
}

/**
 * What an agent would ask the lookup tool for this prompt: the API it names (SR, API-C@L3), the module and the
 * description it gives (API-I: members of the module; API-C@L1–L2: the library's functions and classes). API-C@L0
 * gives neither a name nor a description: null, no grounded sample.
 */
export function groundingQuery(spec: PromptSpec): LookupQuery | null {
  const description = (text: string) => text.split(NAME_PLACEHOLDER).join(' ').replace(/\s+/g, ' ').trim();
  switch (spec.task) {
    case 'SR':
      return { api: spec.api };
    case 'API-I':
      return { module: spec.module, description: description(spec.description), scope: 'members', limit: 5 };
    case 'API-C':
      if (spec.api !== undefined) return { api: spec.api };
      if (spec.description !== undefined) return { module: spec.library, description: description(spec.description), scope: 'library', limit: 5 };
      return null;
  }
}

/** The pins of a project that pins `library` at `version` (what the tool reads from its manifests). */
export function projectPins(knowledge: ApiKnowledge, library: string, version: string): Map<string, Pin> {
  const matrix = knowledge.resolve(library)?.matrix;
  const distribution = matrix?.distribution ?? library;
  const pin = parseCommandLinePin(`${distribution}==${version}`);
  if ('error' in pin) throw new Error(`cannot pin ${distribution}==${version}: ${pin.error}`);
  return new Map([[normalizeDistributionName(distribution), { ...pin, origin: { file: "the project's pins", line: null } }]]);
}

/** anachron's answer for a sample (Markdown, as the tool returns it), or null when the prompt gives nothing to ask. */
export function groundingFor(knowledge: ApiKnowledge, sample: BenchSample): string | null {
  let spec: PromptSpec;
  try {
    spec = parsePrompt(sample.prompt);
  } catch (e) {
    if (e instanceof PromptContractError) return null;
    throw e;
  }
  const query = groundingQuery(spec);
  if (!query) return null;
  return renderLookup(knowledge.lookup(query, projectPins(knowledge, sample.library, sample.version)), { markdown: true });
}

/**
 * The dataset of a run with arms: for each sample, the plain one and then its grounded twin (same task, API, version
 * and ground truth; the prompt with the Documentation section), so that a limited run keeps the pairs together.
 * Samples the tool cannot ground (API-C@L0) have no twin.
 */
export function withArms(dataset: readonly BenchSample[], arms: readonly Arm[], ground: (sample: BenchSample) => string | null): BenchSample[] {
  const out: BenchSample[] = [];
  for (const sample of dataset) {
    if (arms.includes('plain')) out.push(sample);
    if (!arms.includes('grounded')) continue;
    const grounding = ground(sample);
    if (grounding === null) continue;
    const spec = parsePrompt(sample.prompt);
    out.push({ ...sample, id: sample.id + GROUNDED_SUFFIX, prompt: renderPrompt({ ...spec, grounding }) });
  }
  return out;
}
