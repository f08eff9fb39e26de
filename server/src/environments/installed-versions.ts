// Installed distributions of an interpreter, read with python-probe/installed.py. Executes the interpreter, so
// callers must only use it in trusted workspaces.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { normalizeDistributionName } from '../core/library-names.js';
import type { Pin } from '../core/pins.js';
import { probeFolder } from './python-probe-runner.js';

export function readInstalledVersions(python: string, timeoutMs = 20_000): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    execFile(python, [join(probeFolder(), 'installed.py')], { timeout: timeoutMs, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`cannot read installed packages with ${python}: ${error.message}${stderr ? `\n${stderr.trim()}` : ''}`));
        return;
      }
      try {
        const parsed = JSON.parse(stdout) as Record<string, string>;
        resolve(new Map(Object.entries(parsed).map(([name, version]) => [normalizeDistributionName(name), version])));
      } catch (e) {
        reject(new Error(`${python} printed something that is not a package list: ${(e as Error).message}`));
      }
    });
  });
}

/** Installed versions as pins of kind "installed", for the precedence rules (below lock files and requirements). */
export function installedPins(versions: Map<string, string>, python: string): Pin[] {
  return [...versions].map(([distribution, version]) => ({
    distribution,
    kind: 'installed' as const,
    specifier: `==${version}`,
    exactVersion: version,
    origin: { file: `interpreter ${python}`, line: null },
  }));
}
