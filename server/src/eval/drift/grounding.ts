// The drift suite's grounded arm: every generation prompt asked again with anachron's answers in it, as an agent that
// called the anachron_lookup tool for the APIs of the task would have them — so one run measures the model with and
// without anachron, sample by sample, in the same environments. The answers are the tool's own (knowledge/: the
// lookup at the project's pin, rendered as the tool renders it; the pins as eval/runs/arms.ts makes them for the
// LibEvoBench arm), for the APIs the task names (`apis` in the task file, keywords dropped: "numpy.unique(equal_nan)"
// asks for numpy.unique) at the version the prompt asks for. Never the task's solutions or the environments' verdict.
// Pure: the knowledge comes in as an argument.
import { GROUNDED_SUFFIX, projectPins } from '../runs/arms.js';
import type { BenchSample } from '../runs/samples.js';
import type { ApiKnowledge } from '../../knowledge/api-lookup.js';
import { renderLookup } from '../../knowledge/render.js';
import { truthOf, type DriftTaskInput, type GenerationTruth } from './dataset.js';
import { groundedGenerationPrompt } from './prompts.js';
import { parseApiEntry } from './tasks.js';
import { newestSolution, solutionFor, type ReferenceTask } from './reference-models.js';

/** The APIs a task's Documentation section looks up: its `apis`, each once, without the keyword in parentheses. */
export function groundingApis(task: Pick<DriftTaskInput, 'apis'>): string[] {
  return [...new Set((task.apis ?? []).map((a) => parseApiEntry(a)?.path).filter((a): a is string => a !== undefined))];
}

/**
 * anachron's answers (Markdown, one lookup per API, as the tool returns them) for a task at a version, or null when
 * there is nothing to ask: the task names no API, or no matrix covers the library (every answer would be "not
 * found", which tells a model nothing about versions).
 */
export function driftGrounding(knowledge: ApiKnowledge, library: string, version: string, task: Pick<DriftTaskInput, 'apis'>): string | null {
  const apis = groundingApis(task);
  if (apis.length === 0 || !knowledge.resolve(library)) return null;
  const pins = projectPins(knowledge, library, version);
  return apis.map((api) => renderLookup(knowledge.lookup({ api }, pins), { markdown: true })).join('\n\n');
}

/**
 * Whether the task's code at `version` differs from its code at the newest release (the solutions the task file
 * gives): the prompts where knowing only the newest release goes wrong, and where the report looks for the grounded
 * arm's effect. Null when the task's solutions do not cover the version.
 */
export function isDrifted(task: ReferenceTask, version: string): boolean | null {
  const at = solutionFor(task, version);
  const newest = newestSolution(task);
  if (!at || !newest) return null;
  return at !== newest;
}

/**
 * The generation samples of a run with arms: each plain sample, then its grounded twin (id + "~grounded", the same
 * truth with arm and drifted, the prompt with the Documentation section), so that a limited run keeps pairs together.
 * `ground` gives the section for a (library, task, version), or null: that sample then has no twin. `stored` returns
 * a grounded sample the run database already holds: it is kept as registered (later matrices cannot change it), as
 * repair prompts are.
 */
export function withDriftArms(
  samples: readonly BenchSample[],
  arms: readonly ('plain' | 'grounded')[],
  taskOf: (library: string, id: string) => DriftTaskInput,
  ground: (library: string, task: DriftTaskInput, version: string) => string | null,
  stored: (id: string) => BenchSample | undefined = () => undefined,
): BenchSample[] {
  const out: BenchSample[] = [];
  for (const sample of samples) {
    if (arms.includes('plain')) out.push(sample);
    if (!arms.includes('grounded')) continue;
    const t = truthOf(sample);
    if (!t || t.kind !== 'generation') continue;
    const id = sample.id + GROUNDED_SUFFIX;
    const kept = stored(id);
    if (kept) {
      out.push(kept);
      continue;
    }
    const task = taskOf(t.library, t.task);
    const documentation = ground(t.library, task, t.version);
    if (documentation === null) continue;
    const truth: GenerationTruth = { ...t, arm: 'grounded', drifted: isDrifted(task, t.version) };
    out.push({ ...sample, id, prompt: groundedGenerationPrompt(sample.prompt, t.library, t.version, documentation), groundTruth: truth });
  }
  return out;
}
