// manifest-problem: a manifest line that could not be read as a requirement. Not a finding of the checker (the
// editor shows it on the manifest), but a code with a page like the others.
import type { RulePage } from './rule.js';

export const manifestProblem: RulePage = {
  code: 'manifest-problem',
  name: 'ManifestProblem',
  summary: 'Manifest line that is not a requirement',
  description: 'A line of a manifest could not be read as a requirement: its pin is ignored, the rest of the manifest still counts.',
  defaultSeverity: 'warning',
  severityNote: 'warning',
  meaning: 'a manifest line could not be read as a requirement',
  docs: {
    what: 'a line of a manifest (requirements file, pyproject.toml, lock file …) could not be read as a requirement.',
    why: "that line's pin is ignored; the rest of the manifest still counts.",
    fix: 'correct the line (`numpy=1.24` → `numpy==1.24`).',
  },
};
