// `# anachron: ignore` (every code) and `# anachron: ignore[code, other-code]` on a line silence findings that
// start on that line.
import type { Tree } from 'web-tree-sitter';
import { indexTree } from './tree-index.js';

const SUPPRESSION = /#\s*anachron:\s*ignore(?:\[([^\]]*)\])?/;

/** line (0-based) -> suppressed codes, or null for every code. */
export type Suppressions = Map<number, Set<string> | null>;

export function findSuppressions(tree: Tree): Suppressions {
  const out: Suppressions = new Map();
  for (const node of indexTree(tree).ofType('comment')) {
    const m = SUPPRESSION.exec(node.text);
    if (!m) continue;
    const line = node.startPosition.row;
    if (m[1] === undefined) {
      out.set(line, null);
      continue;
    }
    const codes = m[1].split(',').map((c) => c.trim()).filter(Boolean);
    const existing = out.get(line);
    if (existing === null) continue;
    out.set(line, new Set([...(existing ?? []), ...codes]));
  }
  return out;
}

export function isSuppressed(suppressions: Suppressions, line: number, code: string): boolean {
  if (!suppressions.has(line)) return false;
  const codes = suppressions.get(line);
  return codes === null || codes!.has(code);
}
