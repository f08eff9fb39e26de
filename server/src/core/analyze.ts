// One parsed Python file in, findings out: references, syntax, checks, suppression comments, project settings.
import type { Tree } from 'web-tree-sitter';
import { applySettings } from './apply-settings.js';
import type { CheckMemo } from './check-memo.js';
import { checkReferenceChunks, checkReferences, type CheckContext } from './checker.js';
import type { Finding } from './findings.js';
import { fileSyntax, type FileSyntax } from './python/file-syntax.js';
import { chunkAt } from './python/link-references.js';
import { isSuppressed } from './python/suppressions.js';
import { findingOf } from './rules/index.js';
import type { ProjectSettings } from './settings.js';
import type { SourcePosition } from './source-range.js';
import { judgeSyntax } from './syntax-check.js';

export interface AnalysisContext extends CheckContext {
  settings?: ProjectSettings;
}

/**
 * Findings for a file's syntax (its references, the version-bound syntax it uses and its suppression comments);
 * `memo` remembers verdicts across calls.
 */
export function analyzeSyntax(syntax: FileSyntax, ctx: AnalysisContext, memo?: CheckMemo): Finding[] {
  return withSyntaxFindings(checkReferenceChunks(syntax.referenceChunks, ctx, memo), syntax, ctx);
}

/**
 * The findings analyzeSyntax gives within the chunk that holds `pos` (a hover asks whether the API under the cursor
 * is flagged), without checking and placing the file's other chunks; the file's syntax findings come with them.
 */
export function analyzeSyntaxAt(syntax: FileSyntax, pos: SourcePosition, ctx: AnalysisContext, memo?: CheckMemo): Finding[] {
  const chunk = chunkAt(syntax.referenceChunks, pos);
  return withSyntaxFindings(chunk ? checkReferenceChunks([chunk], ctx, memo) : [], syntax, ctx);
}

/**
 * The same findings from the file's placed references checked as one list (checkReferences), which the chunk-wise
 * check of analyzeSyntax must equal (test/lsp-incremental.test.ts compares them).
 */
export function analyzeSyntaxWhole(syntax: FileSyntax, ctx: AnalysisContext): Finding[] {
  return withSyntaxFindings(checkReferences(syntax.references, ctx), syntax, ctx);
}

function withSyntaxFindings(ofReferences: Finding[], syntax: FileSyntax, ctx: AnalysisContext): Finding[] {
  const ofSyntax = judgeSyntax(syntax.syntaxUses, ctx).map(findingOf);
  const findings = ofSyntax.length === 0
    ? ofReferences
    : [...ofReferences, ...ofSyntax].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.column - b.range.start.column || a.code.localeCompare(b.code));
  const { suppressions } = syntax;
  const kept = suppressions.size === 0 ? findings : findings.filter((f) => !isSuppressed(suppressions, f.range.start.line, f.code));
  return applySettings(kept, ctx.settings);
}

export function analyzeTree(tree: Tree, ctx: AnalysisContext): Finding[] {
  return analyzeSyntax(fileSyntax(tree), ctx);
}
