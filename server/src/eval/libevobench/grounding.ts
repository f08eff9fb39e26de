// LibEvoBench's grounded arm: the same prompt with anachron's answer for it (runs/arms.ts). The answer comes from the
// tool's own functions (knowledge/), queried only with what the prompt states plus the version the project pins (the
// sample's version: that is what the tool knows in a real project, also at the API-C levels whose prompt withholds
// it); never with the ground truth. Pure.
import type { ApiKnowledge, LookupQuery } from '../../knowledge/api-lookup.js';
import { renderLookup } from '../../knowledge/render.js';
import { GROUNDED_SUFFIX, projectPins, withArms as withTwins, type Arm } from '../runs/arms.js';
import { NAME_PLACEHOLDER, parsePrompt, PromptContractError, renderPrompt, type LibEvoBenchSample, type PromptSpec } from './prompt-contract.js';
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

/** anachron's answer for a sample (Markdown, as the tool returns it), or null when the prompt gives nothing to ask. */
export function groundingFor(knowledge: ApiKnowledge, sample: LibEvoBenchSample): string | null {
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
export function withArms(dataset: readonly LibEvoBenchSample[], arms: readonly Arm[], ground: (sample: LibEvoBenchSample) => string | null): LibEvoBenchSample[] {
  return withTwins(dataset, arms, (sample) => {
    const grounding = ground(sample);
    if (grounding === null) return null;
    return { ...sample, id: sample.id + GROUNDED_SUFFIX, prompt: renderPrompt({ ...parsePrompt(sample.prompt), grounding }) };
  });
}
