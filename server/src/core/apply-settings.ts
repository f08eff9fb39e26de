// Project settings applied to findings: ignored codes, severity overrides, the libraries in scope.
import type { Finding } from './findings.js';
import type { ProjectSettings } from './settings.js';

export function applySettings(findings: Finding[], settings: ProjectSettings | undefined): Finding[] {
  if (!settings) return findings;
  const ignored = new Set(settings.ignore ?? []);
  const libraries = settings.libraries ? new Set(settings.libraries) : null;
  const out: Finding[] = [];
  for (const f of findings) {
    if (ignored.has(f.code)) continue;
    if (libraries && !libraries.has(f.library)) continue;
    const override = settings.severity?.[f.code];
    if (override === 'off') continue;
    out.push(override ? { ...f, severity: override } : f);
  }
  return out;
}
