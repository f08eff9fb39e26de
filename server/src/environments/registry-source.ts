// Where a run finds the interpreter of each (library, version): the environment registry (anachron env …;
// $ANACHRON_ENVIRONMENTS or ~/.config/anachron/environments.json). When a library has none, or lacks a version the
// run asks for, the Debian roots in scripts/debian-python.sh's cache are discovered too (in memory: `anachron env
// discover` keeps them in the registry).
import { versionsEqual } from '../core/versions.js';
import { normalizeDistributionName } from '../core/library-names.js';
import { discoverDebianEnvironments } from './providers.js';
import { EnvironmentRegistry } from './registry.js';
import type { PythonCommand } from './sandbox.js';

/** library (import name) → version → command, from wherever the caller finds environments. */
export type EnvironmentSource = (libraries: readonly { library: string; distribution: string; versions: readonly string[] | undefined }[]) => Promise<Map<string, Map<string, PythonCommand>>>;

export function registryEnvironments(err: (line: string) => void): EnvironmentSource {
  return async (libraries) => {
    const registry = EnvironmentRegistry.load();
    const lookup = () => {
      const byDistribution = registry.environmentMap(libraries.map((l) => l.distribution));
      return new Map(libraries.map((l) => [l.library, byDistribution.get(normalizeDistributionName(l.distribution)) ?? new Map<string, PythonCommand>()] as const));
    };
    let map = lookup();
    const lacking = libraries.filter((l) => {
      const have = [...(map.get(l.library)?.keys() ?? [])];
      return l.versions === undefined ? have.length === 0 : l.versions.some((v) => !have.some((h) => versionsEqual(h, v)));
    });
    if (lacking.length > 0) {
      const report = await discoverDebianEnvironments(registry);
      if (report.added.length) err(`drift: found ${report.added.length} environments in the Debian cache (anachron env discover keeps them in the registry)`);
      map = lookup();
    }
    return map;
  };
}
