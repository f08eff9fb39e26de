// A sample before its prompt is rendered, and how it becomes a LibEvoBenchSample: the prompt rendered with the contract's
// renderPrompt, the id a readable head plus a digest of task, level, library, version, API and snippet. Pure.
import { renderPrompt, type PromptSpec } from '../prompt-contract.js';
import type { LibEvoBenchSample } from '../prompt-contract.js';
import { digest } from './seeded.js';

export interface SampleDraft {
  spec: PromptSpec;
  library: string;
  version: string;
  api: string;
  evolving: boolean;
  groundTruth: Record<string, unknown>;
  /** What tells two samples of one (task, level, API, version) apart: the snippet's content digest for API-C, '' otherwise. */
  snippet: string;
}

export function levelOf(spec: PromptSpec): LibEvoBenchSample['level'] {
  return spec.task === 'API-C' ? spec.level : null;
}

/** `API-C@L2:numpy@1.24.2:numpy.mean:1f0c…` — stable across rebuilds and seeds: the seed picks samples, never names them. */
export function sampleId(draft: SampleDraft): string {
  const level = levelOf(draft.spec);
  const head = `${draft.spec.task}${level ? `@${level}` : ''}:${draft.library}@${draft.version}:${draft.api}`;
  return `${head}:${digest([draft.spec.task, level, draft.library, draft.version, draft.api, draft.snippet])}`;
}

export function finalizeDraft(draft: SampleDraft): LibEvoBenchSample {
  return {
    id: sampleId(draft),
    task: draft.spec.task,
    level: levelOf(draft.spec),
    library: draft.library,
    version: draft.version,
    api: draft.api,
    evolving: draft.evolving,
    prompt: renderPrompt(draft.spec),
    groundTruth: draft.groundTruth,
  };
}
