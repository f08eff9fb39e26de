// Checking a piece of code an agent (or a person) wrote — a snippet, a selection, the lines a change added — at the
// project's pins: the checker's findings (core/analyze.ts, as `anachron check` runs it) with the editor's quick fixes
// (core/fixes.ts) as the way to fix each, and what the code would have to change to move to another version (the
// drift suite's migration notes, drift/migration-notes.ts). Pure: the parser, matrices and pins come in as arguments.
import type { Tree } from 'web-tree-sitter';
import { analyzeSyntax, analyzeTree, type AnalysisContext } from '../core/analyze.js';
import type { LibraryMatrix } from '../core/api-model.js';
import { fixesFor, type Fix, type TextEdit } from '../core/fixes.js';
import { PYTHON_DISTRIBUTION } from '../core/manifests/python-pins.js';
import { fileSyntax, findApiReferences } from '../core/python/file-syntax.js';
import { raiseTargetFor } from '../core/lowest-version.js';
import { findingRule } from '../core/rules/index.js';
import type { SourceRange } from '../core/source-range.js';
import { formatMigrationItem, migrationNotes, type MigrationItem } from './migration-notes.js';
import type { PythonParser } from '../parser/python-parser.js';
import { toReportedFinding, type ReportedFinding } from '../report/reported-finding.js';
import type { ApiKnowledge, PinView } from './api-lookup.js';

export interface SnippetFix {
  title: string;
  /** Edits to the snippet's own text (0-based positions in it). */
  edits: TextEdit[];
  /** The finding's line as the fix leaves it (single-line fixes). */
  fixedLine: string | null;
}

export interface SnippetFinding extends ReportedFinding {
  /** The preferred fix (use the version-correct API, drop the keyword), when there is one. */
  fix: SnippetFix | null;
  /** Other fixes that change something (raise the pin in the manifest); the "ignore" fix is left out. */
  otherFixes: string[];
}

export interface SnippetReport {
  /** What the findings' positions are relative to ("snippet", a file path). */
  file: string;
  /** 1-based line of the snippet's first line in that file (positions in findings include it). */
  firstLine: number;
  findings: SnippetFinding[];
  /** The tracked libraries the code uses, with the pin in force (null: nothing pins it, so it is not checked). */
  libraries: { library: string; distribution: string; pin: PinView | null }[];
  /** The code with every preferred fix applied; null when no fix applies. */
  fixedCode: string | null;
  /** Findings left after the preferred fixes (checked again). */
  remainingAfterFixes: number | null;
}

export interface SnippetOptions {
  /** Shown as the findings' file (default "snippet"). */
  file?: string;
  /** 1-based line where the snippet starts in that file (default 1). */
  firstLine?: number;
  /** Reads a manifest by the path findings name it with, for the "raise the pin" fix; omit to offer no such fix. */
  readManifest?: (file: string) => string | undefined;
  /**
   * Code checked before the snippet and never reported on: the imports of the file a selection comes from, so that
   * `np.trapezoid(…)` in the selection resolves as the file's `import numpy as np` says.
   */
  preamble?: string;
}

/** The top-level import statements of a parsed file, in order, as text (a preamble for its selections). */
export function importsOf(tree: Tree): string {
  const kinds = new Set(['import_statement', 'import_from_statement', 'future_import_statement']);
  return tree.rootNode.namedChildren.filter((n) => n !== null && kinds.has(n.type)).map((n) => n!.text).join('\n');
}

function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const lines = text.split('\n');
  const offset = (line: number, column: number) => {
    let o = 0;
    for (let i = 0; i < line && i < lines.length; i++) o += lines[i]!.length + 1;
    return o + column;
  };
  const sorted = [...edits].sort((a, b) => offset(b.range.start.line, b.range.start.column) - offset(a.range.start.line, a.range.start.column));
  let out = text;
  let floor = Infinity;
  for (const e of sorted) {
    const start = offset(e.range.start.line, e.range.start.column);
    const end = offset(e.range.end.line, e.range.end.column);
    if (end > floor) continue; // overlaps an edit already applied: left out
    out = out.slice(0, start) + e.newText + out.slice(end);
    floor = start;
  }
  return out;
}

function shift(range: SourceRange, lines: number): SourceRange {
  return { start: { line: range.start.line + lines, column: range.start.column }, end: { line: range.end.line + lines, column: range.end.column } };
}

function librariesUsed(tree: Tree, knowledge: ApiKnowledge, ctx: AnalysisContext): SnippetReport['libraries'] {
  const roots = new Set<string>();
  for (const ref of findApiReferences(tree)) {
    // Builtins alone do not make Python a library the code uses, unless something pins Python.
    if (ref.builtin && !ctx.pins.has(PYTHON_DISTRIBUTION)) continue;
    const path = ref.receiver ? ref.receiver.producer : ref.prefixes[0]?.path;
    if (path) roots.add(path.split('.')[0]!);
  }
  const out: SnippetReport['libraries'] = [];
  for (const root of [...roots].sort()) {
    const matrix = ctx.catalog.forImportRoot(root);
    if (matrix) out.push({ library: matrix.library, distribution: matrix.distribution, pin: knowledge.pinView(matrix, ctx.pins) });
  }
  return out;
}

/** The checker's findings on `code` at the pins of `ctx`, each with the editor's fix for it. */
export function checkSnippet(parser: PythonParser, code: string, ctx: AnalysisContext, knowledge: ApiKnowledge, options: SnippetOptions = {}): SnippetReport {
  const file = options.file ?? 'snippet';
  const firstLine = options.firstLine ?? 1;
  // The preamble's lines come first; findings there are not the snippet's, and positions are the snippet's own.
  const skip = options.preamble ? options.preamble.split('\n').length : 0;
  const text = options.preamble ? `${options.preamble}\n${code}` : code;
  const tree = parser.parse(text);
  try {
    const syntax = fileSyntax(tree, text);
    const found = analyzeSyntax(syntax, ctx).filter((f) => f.range.start.line >= skip);
    // The pin raised as the editor raises it: to the lowest tracked version where every use of the library works.
    const raiseTargets = new Map<string, string | null | undefined>();
    const raiseTo = (f: (typeof found)[number]) => {
      if (!findingRule(f.code)?.fixes.includes('raise-pin')) return undefined;
      const key = `${f.library}\0${f.pin}`;
      if (!raiseTargets.has(key)) raiseTargets.set(key, raiseTargetFor(syntax, f, ctx.catalog, ctx.localModules));
      return raiseTargets.get(key);
    };
    const findings: SnippetFinding[] = [];
    const preferred: TextEdit[] = [];
    const lines = text.split('\n');
    const own = (e: TextEdit): TextEdit => ({ ...e, range: shift(e.range, -skip) });
    for (const f of found) {
      const reported = toReportedFinding(file, { ...f, range: shift(f.range, firstLine - 1 - skip) });
      const fixes: Fix[] = fixesFor({ ...f, pinSource: reported.pinSource }, text, tree, options.readManifest ?? (() => undefined), { raiseTo: raiseTo(f) });
      const best = fixes.find((x) => x.preferred && x.edits.length > 0 && x.edits.every((e) => e.range.start.line >= skip)) ?? null;
      let fix: SnippetFix | null = null;
      if (best) {
        const edits = best.edits.map(own);
        preferred.push(...edits);
        const single = best.edits.every((e) => e.range.start.line === f.range.start.line && e.range.end.line === f.range.start.line);
        const line = lines[f.range.start.line] ?? '';
        fix = { title: best.title, edits, fixedLine: single ? applyEdits(line, best.edits.map((e) => ({ ...e, range: { start: { line: 0, column: e.range.start.column }, end: { line: 0, column: e.range.end.column } } }))) : null };
      }
      const otherFixes = fixes.filter((x) => x !== best && (x.edits.length > 0 || x.manifest) && !x.title.startsWith('Ignore')).map((x) => x.title);
      findings.push({ ...reported, fix, otherFixes });
    }
    let fixedCode: string | null = null;
    let remainingAfterFixes: number | null = null;
    if (preferred.length > 0) {
      fixedCode = applyEdits(code, preferred);
      const again = parser.parse(options.preamble ? `${options.preamble}\n${fixedCode}` : fixedCode);
      try {
        remainingAfterFixes = analyzeTree(again, ctx).filter((f) => f.range.start.line >= skip).length;
      } finally {
        again.delete();
      }
    }
    return { file, firstLine, findings, libraries: librariesUsed(tree, knowledge, ctx), fixedCode, remainingAfterFixes };
  } finally {
    tree.delete();
  }
}

export interface MigrationReport {
  library: string;
  distribution: string;
  from: string;
  to: string;
  /** Each item in the drift suite's phrasing (formatMigrationItem), and as data. */
  lines: string[];
  items: MigrationItem[];
  /** Why there is no report (no matrix, no pin to start from, an untracked target). */
  problem: string | null;
}

/**
 * What `code` must change to move `library` from the version the project pins to `to`: the migration notes the drift
 * suite gives its repair prompts, from the same checker run at both versions.
 */
export function migrateSnippet(parser: PythonParser, code: string, ctx: AnalysisContext, knowledge: ApiKnowledge, library: string, to: string): MigrationReport {
  const matrix: LibraryMatrix | undefined = knowledge.resolve(library)?.matrix;
  const empty = (problem: string, from = ''): MigrationReport => ({ library, distribution: matrix?.distribution ?? library, from, to, lines: [], items: [], problem });
  if (!matrix) return empty(`no tracked library ${library} (tracked: ${ctx.catalog.libraries().map((m) => m.library).join(', ')})`);
  const pin = knowledge.pinView(matrix, ctx.pins);
  if (!pin) return empty(`nothing pins ${matrix.distribution} for this code: pin it (e.g. ${matrix.distribution}==${matrix.versions[0]}) to migrate from it`);
  const from = pin.versions[pin.versions.length - 1]!;
  const tree = parser.parse(code);
  try {
    const notes = migrationNotes({ tree, code, catalog: ctx.catalog, library: matrix.library, from, to, ...(knowledge.listing ? { listing: knowledge.listing } : {}) });
    return { library: matrix.library, distribution: matrix.distribution, from, to, lines: notes.items.map((i) => formatMigrationItem(matrix.library, from, to, i)), items: notes.items, problem: null };
  } finally {
    tree.delete();
  }
}
