// Every built-in model, whichever suite defines it, as a provider of its own: for the local model server run alone
// (serve-models.ts) and for tests that call a model directly. A run gets its suite's models from the suite instead.
import { DRIFT_BUILTIN_MODELS, driftAnswer, type DriftModelOptions } from './drift/builtin-models.js';
import { LIBEVOBENCH_BUILTIN_MODELS, referenceAnswer, type ReferenceOptions } from './libevobench/builtin-models.js';
import { AnswerProvider, SHARED_BUILTIN_MODELS, sharedAnswer } from './models/builtin.js';

export const BUILTIN_MODELS: readonly string[] = [...LIBEVOBENCH_BUILTIN_MODELS, ...DRIFT_BUILTIN_MODELS, ...SHARED_BUILTIN_MODELS];

export interface BuiltinOptions extends ReferenceOptions, DriftModelOptions {
  /** The text `constant` answers (default "None"). */
  text?: string;
}

export class BuiltinProvider extends AnswerProvider {
  constructor(model: string, options: BuiltinOptions = {}) {
    const answer = sharedAnswer(model, options.text) ?? referenceAnswer(model, options) ?? driftAnswer(model, options);
    if (!answer) throw new Error(`unknown built-in model "${model}" (known: ${BUILTIN_MODELS.join(', ')})`);
    super(model, answer);
  }
}
