// Quick fixes for a finding, as plain text edits: use the version-correct API, drop or rename the keyword, raise the pin in
// the manifest, or silence the line. The language server turns them into code actions.
import type { Node, Tree } from 'web-tree-sitter';
import type { FindingCode } from './findings.js';
import { findingRule } from './rules/index.js';
import type { FixKind } from './rules/rule.js';
import { compareVersions, isValidVersion } from './versions.js';
import type { SourceRange } from './source-range.js';
import { leafName, spellLike } from './api-path.js';
import { shownApi } from './rules/verdict.js';

export interface TextEdit {
  range: SourceRange;
  newText: string;
}

export interface Fix {
  title: string;
  /** What it does: the rule's fix kind, or silencing the line. */
  kind: FixKind | 'suppress';
  preferred: boolean;
  /** Edits to the checked file. */
  edits: TextEdit[];
  /** Edits to a manifest: its path as the finding names it (relative to the workspace root), and the edits. */
  manifest?: { file: string; edits: TextEdit[] };
  /** A raised pin at which every use of the library in the file works (not just this finding's). */
  forAllUses?: boolean;
  /** A guess (a name another library has): offered, never applied by "fix all". */
  guess?: boolean;
}

/** What a fix needs to know about a finding (the diagnostic's data carries it). */
export interface FixableFinding {
  code: FindingCode | string;
  range: SourceRange;
  api: string;
  parameter: string | null;
  replacement: string | null;
  availableIn: string[];
  /** Exact pinned version or specifier. */
  pin: string;
  /** "requirements.txt:3" or "command line". */
  pinSource: string;
  library: string;
}

/**
 * The versions of a finding's `availableIn` that the fixes read: the lowest (a range's lower bound raised) and the
 * lowest above an exact pin (the pin raised; lowest-version.ts's floor). A diagnostic's data carries these alone:
 * every version would be a sixth of a numpy file's publish, sent again with each edit.
 */
export function versionsFixesRead(availableIn: readonly string[], pin: string): string[] {
  const sorted = [...availableIn].sort(compareVersions);
  const above = isValidVersion(pin) ? sorted.find((v) => compareVersions(v, pin) > 0) : undefined;
  return sorted.length === 0 ? [] : above && above !== sorted[0] ? [sorted[0]!, above] : [sorted[0]!];
}

/**
 * A top-level statement of the file as the fixes read it: its node, from a tree of the whole file or of a piece of it
 * (lsp/document-trees.ts holds an edited document so), and the file line its tree's row 0 is at.
 */
export interface TopStatement {
  node: Node;
  line: number;
}

/** The top-level statements of a tree of the whole file. */
export function topStatementsOf(tree: Tree): TopStatement[] {
  return tree.rootNode.namedChildren.filter((node): node is Node => node !== null).map((node) => ({ node, line: 0 }));
}

const parent = (path: string) => path.slice(0, path.lastIndexOf('.'));

/** A line of `text` as LSP, pip and Python count lines (a lone CR ends one too: manifests read from disk keep theirs). */
function lineOf(text: string, line: number): string {
  return text.split(/\r\n|\r|\n/)[line] ?? '';
}

/**
 * The reference rewritten to the replacement: the last name swapped where both share a parent (`np.trapz` ->
 * `np.trapezoid`); else the whole chain as written (`np.exceptions.AxisError` -> `np.AxisError`, `np.float` ->
 * `float`, `np.linalg.pinvh` -> `scipy.linalg.pinvh`, with `import scipy.linalg` added where the file lacks it). No
 * rewrite where the code's spelling cannot name the replacement (an alias of the module that re-homes the name).
 */
function replaceApi(f: FixableFinding, text: string, tops: readonly TopStatement[]): Fix | null {
  if (!f.replacement || f.range.start.line !== f.range.end.line) return null;
  const line = lineOf(text, f.range.end.line);
  const shown = shownApi(f.replacement);
  if (parent(f.replacement) === parent(f.api)) {
    const old = leafName(f.api);
    const end = f.range.end.column;
    const start = end - old.length;
    if (line.slice(start, end) !== old) return null;
    return {
      title: `Use \`${f.replacement}\`, which exists at ${f.library} ${f.pin}`,
      kind: 'use-replacement',
      preferred: true,
      edits: [{ range: { start: { line: f.range.end.line, column: start }, end: f.range.end }, newText: leafName(f.replacement) }],
    };
  }
  // Another library's name is written in full (its module imported below); the library's own or a builtin through
  // the code's spelling (core/api-path.ts spellLike, as the migration notes write it).
  const written = line.slice(f.range.start.column, f.range.end.column);
  const root = f.replacement.split('.')[0]!;
  const module = parent(f.replacement);
  const otherLibrary = root !== f.api.split('.')[0] && root !== 'builtins';
  if (!/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/.test(written)) return null;
  const rewritten = otherLibrary ? f.replacement : spellLike(written, f.api, f.replacement);
  if (rewritten === null) return null;
  const edits: TextEdit[] = [{ range: f.range, newText: rewritten }];
  const imports = otherLibrary ? importLine(tops, module) : null;
  if (imports) edits.unshift(imports);
  return {
    title: otherLibrary ? `Did you mean \`${shown}\`? Use it${imports ? ` (and import ${module})` : ''}` : `Use \`${shown}\`, which exists at ${f.library} ${f.pin}`,
    kind: 'use-replacement',
    preferred: !otherLibrary,
    ...(otherLibrary ? { guess: true } : {}),
    edits,
  };
}

/** Null where a top-level `import MODULE` is in the file; else the edit that adds one after the last top-level import. */
function importLine(tops: readonly TopStatement[], module: string): TextEdit | null {
  let after = -1;
  for (const { node, line } of tops) {
    if (node.type !== 'import_statement' && node.type !== 'import_from_statement' && node.type !== 'future_import_statement') continue;
    if (node.type === 'import_statement' && node.namedChildren.some((n) => n?.type === 'dotted_name' && n.text === module)) return null;
    after = node.endPosition.row + line;
  }
  const at = { line: after + 1, column: 0 };
  return { range: { start: at, end: at }, newText: `import ${module}\n` };
}

/** The keyword renamed to the one the library points to (deprecated-parameter: `newshape=` -> `shape=`). */
function renameKeyword(f: FixableFinding, text: string): Fix | null {
  if (!f.parameter || !f.replacement || f.range.start.line !== f.range.end.line || !/^[A-Za-z_]\w*$/.test(f.replacement)) return null;
  if (lineOf(text, f.range.start.line).slice(f.range.start.column, f.range.end.column) !== f.parameter) return null;
  return {
    title: `Use \`${f.replacement}=\` instead of the deprecated \`${f.parameter}=\``,
    kind: 'rename-keyword',
    preferred: true,
    edits: [{ range: f.range, newText: f.replacement }],
  };
}

/** The innermost `type` node at a place of the file, within the top-level statement there; and that statement's line. */
function nodeAt(tops: readonly TopStatement[], line: number, column: number, type: string): { node: Node; line: number } | null {
  // The last statement starting at or before the line (tops are in document order).
  let lo = 0;
  let hi = tops.length - 1;
  let at = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (tops[mid]!.node.startPosition.row + tops[mid]!.line <= line) {
      at = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (at < 0) return null;
  const top = tops[at]!;
  let node: Node | null = top.node.descendantForPosition({ row: line - top.line, column });
  while (node && node.type !== type && node.id !== top.node.id) node = node.parent;
  return node && node.type === type ? { node, line: top.line } : null;
}

function dropKeyword(f: FixableFinding, tops: readonly TopStatement[]): Fix | null {
  if (!f.parameter) return null;
  const found = nodeAt(tops, f.range.start.line, f.range.start.column, 'keyword_argument');
  if (!found) return null;
  const { node: arg, line } = found;
  const prev = arg.previousNamedSibling;
  const next = arg.nextNamedSibling;
  const from = prev ? prev.endPosition : arg.startPosition;
  const to = prev ? arg.endPosition : next ? next.startPosition : arg.endPosition;
  return {
    title: `Remove \`${f.parameter}=\`, which ${f.library} ${f.pin} does not accept`,
    kind: 'drop-keyword',
    preferred: true,
    edits: [{ range: { start: { line: from.row + line, column: from.column }, end: { line: to.row + line, column: to.column } }, newText: '' }],
  };
}

/**
 * A range's lower bound raised to the lowest tracked version that has the API (`requires-python = ">=3.9"` ->
 * `">=3.11"` for tomllib). Only where every version with the API is above the bound: for a removed API, raising
 * the bound cannot help.
 */
function raiseLowerBound(f: FixableFinding, file: string, line: number, content: string, raiseTo: string | null | undefined): Fix | null {
  const bound = /(^|,)\s*>=\s*([0-9][0-9A-Za-z.]*)\s*(?=,|$)/.exec(f.pin);
  const target = raiseTo ?? [...f.availableIn].sort(compareVersions)[0];
  if (!bound || !target || compareVersions(target, bound[2]!) <= 0) return null;
  const at = content.search(new RegExp(`>=\\s*${bound[2]!.replace(/[.+*?^$()[\]{}|\\]/g, '\\$&')}(?![\\w.])`));
  if (at < 0) return null;
  const old = />=\s*[0-9][0-9A-Za-z.]*/.exec(content.slice(at))![0];
  return {
    title: `Raise the lower bound to ${f.library}>=${target} in ${file} (${why(f, raiseTo)})`,
    kind: 'raise-pin',
    forAllUses: typeof raiseTo === 'string',
    preferred: false,
    edits: [],
    manifest: { file, edits: [{ range: { start: { line, column: at }, end: { line, column: at + old.length } }, newText: `>=${target}` }] },
  };
}

/** Why the version a pin is raised to: the lowest that has this use, or (raiseTo given) every use of the library in the file. */
function why(f: FixableFinding, raiseTo: string | null | undefined): string {
  return typeof raiseTo === 'string' ? `lowest tracked version where every use of ${f.library} in this file works` : `lowest tracked version that has \`${leafName(f.api)}\`${f.parameter ? `(${f.parameter}=)` : ''}`;
}

/**
 * `raiseTo`: the lowest tracked version at which every use of the library in the file works (core/lowest-version.ts),
 * when the caller worked it out; null when no tracked version has them all (then the lowest that has this use).
 */
function raisePin(f: FixableFinding, readManifest: (file: string) => string | undefined, raiseTo: string | null | undefined): Fix | null {
  const m = /^(.*):(\d+)$/.exec(f.pinSource);
  if (!m) return null;
  if (!isValidVersion(f.pin)) {
    const text = readManifest(m[1]!);
    return text === undefined ? null : raiseLowerBound(f, m[1]!, Number(m[2]) - 1, lineOf(text, Number(m[2]) - 1), raiseTo);
  }
  const target = typeof raiseTo === 'string' && compareVersions(raiseTo, f.pin) > 0 ? raiseTo : f.availableIn.filter((v) => compareVersions(v, f.pin) > 0).sort(compareVersions)[0];
  if (!target) return null;
  const file = m[1]!;
  const line = Number(m[2]) - 1;
  const text = readManifest(file);
  if (text === undefined) return null;
  const content = lineOf(text, line);
  const at = content.search(new RegExp(`==\\s*${f.pin.replace(/[.+*?^$()[\]{}|\\]/g, '\\$&')}(?![\\w.])`));
  if (at < 0) return null;
  const old = /==\s*\S+?(?=[\s,;#]|$)/.exec(content.slice(at))![0];
  return {
    title: `Raise the pin to ${f.library}==${target} in ${file} (${why(f, target === raiseTo ? raiseTo : undefined)})`,
    kind: 'raise-pin',
    forAllUses: target === raiseTo,
    preferred: false,
    edits: [],
    manifest: { file, edits: [{ range: { start: { line, column: at }, end: { line, column: at + old.length } }, newText: `==${target}` }] },
  };
}

function suppress(f: FixableFinding, text: string): Fix {
  const line = f.range.start.line;
  const content = lineOf(text, line);
  const existing = /#\s*anachron:\s*ignore\[([^\]]*)\]/.exec(content);
  if (existing) {
    const closing = existing.index + existing[0].length - 1;
    return {
      title: `Ignore \`${f.code}\` on this line`,
      kind: 'suppress',
      preferred: false,
      edits: [{ range: { start: { line, column: closing }, end: { line, column: closing } }, newText: `, ${f.code}` }],
    };
  }
  return {
    title: `Ignore \`${f.code}\` on this line`,
    kind: 'suppress',
    preferred: false,
    edits: [{ range: { start: { line, column: content.length }, end: { line, column: content.length } }, newText: `  # anachron: ignore[${f.code}]` }],
  };
}

export interface FixOptions {
  /** The lowest tracked version at which every use of the finding's library in the file works; null: none has them all. */
  raiseTo?: string | null;
}

/** The fixes of `f` in `text`, whose syntax is a tree of it or its top-level statements (topStatementsOf). */
export function fixesFor(f: FixableFinding, text: string, syntax: Tree | readonly TopStatement[], readManifest: (file: string) => string | undefined, options: FixOptions = {}): Fix[] {
  const tops = 'rootNode' in syntax ? topStatementsOf(syntax) : syntax;
  const fixes: (Fix | null)[] = [];
  // The rule says which fixes its findings may offer, in the order they are listed; silencing the line always fits.
  for (const kind of findingRule(f.code)?.fixes ?? []) {
    if (kind === 'use-replacement') fixes.push(replaceApi(f, text, tops));
    else if (kind === 'drop-keyword') fixes.push(dropKeyword(f, tops));
    else if (kind === 'rename-keyword') fixes.push(renameKeyword(f, text));
    else fixes.push(raisePin(f, readManifest, options.raiseTo));
  }
  fixes.push(suppress(f, text));
  return fixes.filter((x): x is Fix => x !== null);
}
