// The drift suite's built-in models: version-aware and version-oblivious (reference-models.ts), answering from the
// task files' solutions.
import type { Answer, BuiltinOpener } from '../models/builtin.js';
import { DRIFT_REFERENCE_MODELS, DriftReferenceModel, type DriftReferenceMode, type ReferenceTaskSet } from './reference-models.js';

export const DRIFT_BUILTIN_MODELS: readonly string[] = DRIFT_REFERENCE_MODELS;

export interface DriftModelOptions {
  /** The drift suite's tasks, which version-aware and version-oblivious answer from. */
  driftTasks?: readonly ReferenceTaskSet[];
}

/** The answer of a drift reference model over the tasks; undefined for a model that is not one. */
export function driftAnswer(model: string, options: DriftModelOptions): Answer | undefined {
  if (!DRIFT_BUILTIN_MODELS.includes(model)) return undefined;
  if (!options.driftTasks) throw new Error(`the ${model} model answers drift prompts: it needs the drift suite's tasks`);
  const reference = new DriftReferenceModel(options.driftTasks, model as DriftReferenceMode);
  return (messages) => reference.answer(messages);
}

/** The drift reference models of a run over its tasks. */
export function driftBuiltins(tasks: readonly ReferenceTaskSet[]): BuiltinOpener {
  return ({ model }) => {
    const answer = driftAnswer(model, { driftTasks: tasks });
    return answer ? { answer } : undefined;
  };
}
