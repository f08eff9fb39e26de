// A run config of the synthetic suite for tests of the run machinery: every task and level of synthlib, asked of
// the model given, with the settings the test gives.
import type { ModelConfig } from '../../server/src/eval/models/config.js';
import type { RunConfig } from '../../server/src/eval/suites.js';

export function syntheticConfig(model: ModelConfig, settings: Partial<RunConfig> = {}): RunConfig {
  return { suite: 'synthetic', libraries: ['synthlib'], tasks: ['API-C', 'API-I', 'SR'], levels: ['L0', 'L1', 'L2', 'L3'], seed: 1, model, ...settings };
}
