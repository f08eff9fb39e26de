// Every benchmark suite, by the name a run config's "suite" gives. LibEvoBench runs every config no other suite
// claims ("libevobench" builds its dataset from the matrices, "synthetic" makes synthetic samples, any other name
// reads them from a samples file). Adding a suite: its folder under eval/ (a Suite, eval/suite.ts), and a line here.
import { DRIFT_SUITE } from './drift/suite.js';
import type { DriftSettings } from './drift/config.js';
import type { LibEvoBenchFields } from './libevobench/config.js';
import { LIBEVOBENCH_SUITE } from './libevobench/suite.js';
import { identityFrom, validateRunConfigWith, type RunConfigBase, type RunIdentity } from './runs/config.js';
import type { Suite } from './suite.js';

const SUITES: Record<string, Suite<never, never>> = { drift: DRIFT_SUITE as Suite<never, never> };
const DEFAULT_SUITE = LIBEVOBENCH_SUITE as Suite<never, never>;

/** The suite that runs configs naming `name`. */
export function suiteNamed(name: string): Suite {
  return (Object.prototype.hasOwnProperty.call(SUITES, name) ? SUITES[name]! : DEFAULT_SUITE) as Suite;
}

/** A run config of any suite, with every suite's fields (those of other suites absent or empty). */
export type RunConfig = RunConfigBase & LibEvoBenchFields & { drift?: DriftSettings };

/** Checks a run config from JSON with its suite's rules; throws ConfigError naming the field. */
export function validateRunConfig(raw: unknown): RunConfig {
  return validateRunConfigWith(raw, (name) => suiteNamed(name).config) as RunConfig;
}

/** What makes two runs the same measurement, for runs of every suite (each suite says what counts). */
export const RUN_IDENTITY: RunIdentity = identityFrom((config) => suiteNamed(config.suite).config);

/**
 * What makes two runs the same measurement: everything but limit, shard, concurrency, name and transport settings
 * (timeouts, retries, faults, the key's variable), plus what the suite adds (LibEvoBench: the corpus API-C was built
 * from). A run database is resumed, and shards are merged, only under the same identity.
 */
export function runIdentity(config: RunConfig): string {
  return RUN_IDENTITY.of(config);
}

/** The parts of the identity in which two configs differ (names as the suite gives them: "model", "corpus", …). */
export function identityDifferences(a: RunConfig, b: RunConfig): string[] {
  return RUN_IDENTITY.differences(a, b);
}
