// One parsed Python file in, findings out: references, checks, suppression comments, project settings.
import type { Tree } from 'web-tree-sitter';
import { applySettings } from './apply-settings.js';
import type { CheckMemo } from './check-memo.js';
import { checkReferences, type CheckContext } from './checker.js';
import type { Finding } from './findings.js';
import { fileSyntax, type FileSyntax } from './python/file-syntax.js';
import { isSuppressed } from './python/suppressions.js';
import type { ProjectSettings } from './settings.js';

export interface AnalysisContext extends CheckContext {
  settings?: ProjectSettings;
}

/** Findings for a file's syntax (its references and suppression comments); `memo` remembers verdicts across calls. */
export function analyzeSyntax(syntax: FileSyntax, ctx: AnalysisContext, memo?: CheckMemo): Finding[] {
  const findings = checkReferences(syntax.references, ctx, memo);
  const { suppressions } = syntax;
  const kept = suppressions.size === 0 ? findings : findings.filter((f) => !isSuppressed(suppressions, f.range.start.line, f.code));
  return applySettings(kept, ctx.settings);
}

export function analyzeTree(tree: Tree, ctx: AnalysisContext): Finding[] {
  return analyzeSyntax(fileSyntax(tree), ctx);
}
