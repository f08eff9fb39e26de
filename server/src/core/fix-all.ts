// "Fix all in file" (source.fixAll.anachron and the quick fix of that name), as one set of edits that finishes the
// job per library: where every finding of a library has a code fix that keeps the pin (the version-correct API, the
// renamed keyword), those; where one has none, the pin raised once to the lowest tracked version at which every use
// of the library in the file works (core/lowest-version.ts), and the code left as it is — it is right at that
// version. Keywords are never dropped, lines never silenced and guesses (a name another library has) never applied
// here: those change what the code means or hide it.
import type { Fix, FixableFinding, TextEdit } from './fixes.js';

export interface FixAllPlan {
  /** Edits to the checked file, in order, none overlapping. */
  edits: TextEdit[];
  /** Edits per manifest (its path as the findings name it). */
  manifests: Map<string, TextEdit[]>;
  /** How many findings the edits address. */
  fixed: number;
  /** What it does, per library, in words: "numpy: 2 uses rewritten for the pinned version", "numpy==2.0.0 in requirements.txt". */
  summary: string[];
}

const KEEPS_PIN = new Set<Fix['kind']>(['use-replacement', 'rename-keyword']);

const before = (a: TextEdit, b: TextEdit) => a.range.start.line - b.range.start.line || a.range.start.column - b.range.start.column;
const overlaps = (a: TextEdit, b: TextEdit) =>
  !(a.range.end.line < b.range.start.line || (a.range.end.line === b.range.start.line && a.range.end.column <= b.range.start.column)) &&
  !(b.range.end.line < a.range.start.line || (b.range.end.line === a.range.start.line && b.range.end.column <= a.range.start.column));

/** `fixesOf` gives a finding's fixes (core/fixes.ts fixesFor, with the raise-to-every-use version worked out). */
export function planFixAll(findings: readonly FixableFinding[], fixesOf: (f: FixableFinding) => Fix[]): FixAllPlan {
  const plan: FixAllPlan = { edits: [], manifests: new Map(), fixed: 0, summary: [] };
  const byLibrary = new Map<string, { finding: FixableFinding; fixes: Fix[] }[]>();
  for (const finding of findings) {
    const fixes = fixesOf(finding);
    if (!fixes.some((f) => f.kind !== 'suppress' && !f.guess)) continue;
    const list = byLibrary.get(finding.library) ?? [];
    list.push({ finding, fixes });
    byLibrary.set(finding.library, list);
  }
  for (const [library, entries] of byLibrary) {
    const inCode = entries.map((e) => e.fixes.find((f) => KEEPS_PIN.has(f.kind) && !f.guess));
    // One raise for the library, where some finding has no code fix and a version has every use (each names it).
    const raise = inCode.some((f) => f === undefined) ? entries.map((e) => e.fixes.find((f) => f.kind === 'raise-pin' && f.forAllUses && f.manifest)).find((f) => f !== undefined) : undefined;
    if (!raise?.manifest) {
      let added = 0;
      for (const fix of inCode) {
        if (!fix || fix.edits.some((e) => plan.edits.some((o) => overlaps(o, e)))) continue;
        plan.edits.push(...fix.edits);
        added++;
      }
      plan.fixed += added;
      if (added) plan.summary.push(`${library}: ${added} use${added === 1 ? '' : 's'} rewritten for the pinned version`);
      continue;
    }
    const edits = plan.manifests.get(raise.manifest.file) ?? [];
    if (raise.manifest.edits.some((e) => edits.some((o) => overlaps(o, e)))) continue;
    edits.push(...raise.manifest.edits);
    plan.manifests.set(raise.manifest.file, edits);
    plan.fixed += entries.length;
    plan.summary.push(`${library}${raise.manifest.edits.map((e) => e.newText.trim()).join(',')} in ${raise.manifest.file}`);
  }
  plan.edits.sort(before);
  return plan;
}
