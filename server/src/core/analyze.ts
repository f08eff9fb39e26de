// One parsed Python file in, findings out: references, checks, suppression comments, project settings.
import type { Tree } from 'web-tree-sitter';
import { applySettings } from './apply-settings.js';
import { checkReferences, type CheckContext } from './checker.js';
import type { Finding } from './findings.js';
import { findApiReferences } from './python/references.js';
import { findSuppressions, isSuppressed } from './python/suppressions.js';
import type { ProjectSettings } from './settings.js';

export interface AnalysisContext extends CheckContext {
  settings?: ProjectSettings;
}

export function analyzeTree(tree: Tree, ctx: AnalysisContext): Finding[] {
  const findings = checkReferences(findApiReferences(tree), ctx);
  const suppressions = findSuppressions(tree);
  const kept = suppressions.size === 0 ? findings : findings.filter((f) => !isSuppressed(suppressions, f.range.start.line, f.code));
  return applySettings(kept, ctx.settings);
}
