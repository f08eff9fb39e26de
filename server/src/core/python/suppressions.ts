// `# anachron: ignore` (every code) and `# anachron: ignore[code, other-code]` on a line silence findings that
// start on that line.
import type { SyntaxCopy } from './syntax-tree.js';

const SUPPRESSION = /#\s*anachron:\s*ignore(?:\[([^\]]*)\])?/;

/** line (0-based) -> suppressed codes, or null for every code. */
export type Suppressions = Map<number, Set<string> | null>;

/** A suppression comment of a chunk: its line relative to the chunk's first line; null codes silence every code. */
export interface SuppressionFact {
  line: number;
  codes: string[] | null;
}

export function suppressionFacts(copy: SyntaxCopy, firstLine: number): SuppressionFact[] {
  const out: SuppressionFact[] = [];
  for (const node of copy.byType.get('comment') ?? []) {
    const m = SUPPRESSION.exec(node.text);
    if (!m) continue;
    const line = node.startPosition.line - firstLine;
    out.push({ line, codes: m[1] === undefined ? null : m[1].split(',').map((c) => c.trim()).filter(Boolean) });
  }
  return out;
}

/** Adds a chunk's suppressions, its first line at `firstLine`. */
export function addSuppressions(into: Suppressions, facts: readonly SuppressionFact[], firstLine: number): void {
  for (const { line: relative, codes } of facts) {
    const line = relative + firstLine;
    if (codes === null) {
      into.set(line, null);
      continue;
    }
    const existing = into.get(line);
    if (existing === null) continue;
    into.set(line, new Set([...(existing ?? []), ...codes]));
  }
}

export function isSuppressed(suppressions: Suppressions, line: number, code: string): boolean {
  if (!suppressions.has(line)) return false;
  const codes = suppressions.get(line);
  return codes === null || codes!.has(code);
}
