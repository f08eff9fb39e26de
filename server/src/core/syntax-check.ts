// Syntax by version: constructs (core/python/syntax-features.ts) newer than a Python the project's pin allows.
// Python's matrix says which versions are tracked; the pin, which of them the project runs on.
import { versionsUnderPin, type CheckContext } from './checker.js';
import { PYTHON_DISTRIBUTION } from './manifests/python-pins.js';
import type { SyntaxUse } from './python/syntax-features.js';
import type { Verdict } from './rules/index.js';
import { compareVersions } from './versions.js';

export function judgeSyntax(uses: readonly SyntaxUse[], ctx: CheckContext): Verdict[] {
  if (uses.length === 0) return [];
  const python = ctx.catalog.forImportRoot('builtins');
  const pin = ctx.pins.get(PYTHON_DISTRIBUTION);
  if (!python || !pin) return [];
  const versions = versionsUnderPin(pin, python);
  const matrix = { library: python.library, distribution: python.distribution, versions: python.versions, versionSeries: python.versionSeries };
  const verdicts: Verdict[] = [];
  for (const { feature, range } of uses) {
    const lacking = versions.filter((v) => compareVersions(v, feature.since) < 0);
    if (lacking.length === 0) continue;
    const availableIn = python.versions.filter((v) => compareVersions(v, feature.since) >= 0);
    verdicts.push({ code: 'anachronistic-syntax', range, api: feature.id, parameter: null, matrix, pin, availableIn, replacement: null, feature, lacking });
  }
  return verdicts;
}
