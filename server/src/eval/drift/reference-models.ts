// The drift suite's built-in reference models: honest algorithms over the task files' own solutions, answering from
// the prompt text alone (the same text a remote model gets). They give every figure of the suite a known floor and
// ceiling and make its mechanism testable:
// - version-aware: a generation prompt gets the task solution whose version specifier contains the prompted version;
//   a repair prompt gets the solution for the target version.
// - version-oblivious: a generation prompt gets the newest solution whatever version the prompt names (a model
//   trained on the newest release only); a repair prompt gets the failing code with the migration notes applied
//   mechanically: each "Use `X` instead" replaces the name the note quotes (an import from the module it names when
//   X cannot be written through the code's alias), and each keyword the target rejects is dropped from the call on
//   that line. It reads nothing else: notes without a replacement leave the code as it was, so it fails again.
// A generation prompt of the grounded arm (grounding.ts) adds a Documentation section with anachron's lookup answers
// at the prompted version: both models write their code as above, then apply what the section states, the same way
// (an API the version lacks replaced by the alternative it names; a keyword it says came later dropped).
// Pure.
import type { ChatMessage } from '../models/provider.js';
import { calleeExpression, importBindings } from '../python-text/imports.js';
import { extractSignature } from '../python-text/signature.js';
import { compareVersions, isValidVersion, satisfies } from '../../core/versions.js';
import { readToolAnswer } from '../../knowledge/render.js';
import { parseRepairPrompt, splitDocumentation, type PromptTask } from './prompts.js';
import { escapeRegExp, parentPath } from '../../core/api-path.js';

export type DriftReferenceMode = 'version-aware' | 'version-oblivious';
export const DRIFT_REFERENCE_MODELS: readonly DriftReferenceMode[] = ['version-aware', 'version-oblivious'];

export interface ReferenceSolution {
  /** PEP 440 specifier of the versions the solution is written for, e.g. ">=2.0" ("" for any). */
  versions: string;
  code: string;
}

export interface ReferenceTask extends PromptTask {
  solutions: readonly ReferenceSolution[];
}

export interface ReferenceTaskSet {
  /** As the prompts name it ({library}). */
  library: string;
  tasks: readonly ReferenceTask[];
}

interface Matcher {
  library: string;
  task: ReferenceTask;
  pattern: RegExp;
}

/** A regular expression matching the task's text for any version: the first {version} captures it. */
function templatePattern(task: PromptTask, library: string): RegExp {
  const text = task.prompt.trim();
  let out = '';
  let sawVersion = false;
  for (const part of text.split(/(\{library\}|\{version\})/)) {
    if (part === '{library}') out += escapeRegExp(library);
    else if (part === '{version}') {
      out += sawVersion ? '\\k<version>' : '(?<version>\\S+?)';
      sawVersion = true;
    } else out += escapeRegExp(part);
  }
  return new RegExp(`^${out}$`, 's');
}

/** Solution for a version: the first whose specifier contains it. */
export function solutionFor(task: ReferenceTask, version: string): ReferenceSolution | undefined {
  return task.solutions.find((s) => s.versions.trim() === '' || safeSatisfies(version, s.versions));
}

function safeSatisfies(version: string, specifier: string): boolean {
  try {
    return satisfies(version, specifier);
  } catch {
    return false;
  }
}

/**
 * The newest solution: the one whose specifier admits the highest version named anywhere in the task's specifiers
 * (and beyond them, e.g. ">=2.0"); the last solution when no specifier names a version.
 */
export function newestSolution(task: ReferenceTask): ReferenceSolution | undefined {
  const named = task.solutions.flatMap((s) => s.versions.match(/\d+(?:\.\d+)*/g) ?? []).filter(isValidVersion);
  const probes = [...new Set(named)].sort(compareVersions);
  const highest = probes[probes.length - 1];
  if (highest) {
    const [major = '0'] = highest.split('.');
    const beyond = `${Number(major) + 1000}.0`;
    for (const probe of [beyond, ...probes.reverse()]) {
      const s = task.solutions.find((x) => x.versions.trim() !== '' && safeSatisfies(probe, x.versions));
      if (s) return s;
    }
  }
  return task.solutions[task.solutions.length - 1];
}

function codeBlock(code: string): string {
  return `\`\`\`python\n${code.replace(/\s+$/, '')}\n\`\`\``;
}

export class DriftReferenceModel {
  private readonly matchers: Matcher[];

  constructor(sets: readonly ReferenceTaskSet[], readonly mode: DriftReferenceMode) {
    if (!DRIFT_REFERENCE_MODELS.includes(mode)) throw new Error(`unknown drift reference model "${String(mode)}"`);
    this.matchers = sets.flatMap((set) => set.tasks.map((task) => ({ library: set.library, task, pattern: templatePattern(task, set.library) })));
  }

  /** The task whose template renders to `text`, and the version it names. */
  identify(text: string): { task: ReferenceTask; library: string; version: string | null } | null {
    const trimmed = text.trim();
    for (const m of this.matchers) {
      const match = m.pattern.exec(trimmed);
      if (match) return { task: m.task, library: m.library, version: match.groups?.version ?? null };
    }
    return null;
  }

  /** The answer to a drift prompt (generation or repair); "" when the prompt names no known task. */
  answer(messages: readonly ChatMessage[]): string {
    const repair = parseRepairPrompt(messages);
    if (repair) {
      if (this.mode === 'version-oblivious') return codeBlock(applyMigrationNotes(repair.code, repair.notes ?? ''));
      const found = this.identify(repair.task);
      const solution = found ? solutionFor(found.task, repair.to) : undefined;
      return solution ? codeBlock(solution.code) : '';
    }
    const user = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const { task, documentation } = splitDocumentation(user);
    const found = this.identify(task);
    if (!found) return '';
    const solution =
      this.mode === 'version-aware' ? (found.version !== null ? solutionFor(found.task, found.version) : undefined) ?? newestSolution(found.task) : newestSolution(found.task);
    if (!solution) return '';
    // The grounded arm: both models read the Documentation section and change what it says is wrong at the version.
    return codeBlock(documentation !== null ? applyDocumentation(solution.code, found.library, documentation) : solution.code);
  }
}

// ---- applying migration notes textually -----------------------------------------------------------------------------

const API_NOTE = /^- line (\d+): `([^`]+)`(?: \(([^)]+)\))? is not in .*? Use `([^`]+)` instead(?: \(import it from `([^`]+)`\))?\.$/;
const KEYWORD_NOTE = /^- line (\d+): `([^`]+)` takes no keyword `([^`]+)` in /;

/** Replaces a dotted name where it stands as a whole name (not inside a longer identifier or attribute chain). */
function replaceName(code: string, written: string, replacement: string): string {
  return code.replace(new RegExp(`(?<![\\w.])${escapeRegExp(written)}(?![\\w])`, 'g'), replacement);
}

/** Where the argument that starts at `start` ends: the next top-level comma or closing bracket (strings skipped). */
function argumentEnd(line: string, start: number): number {
  return scanToClose(line, start, true);
}

/** Where the parenthesis opened just before `start` closes (strings skipped); the line's end if it does not. */
function closingParen(line: string, start: number): number {
  return scanToClose(line, start, false);
}

/** The first closing bracket at depth 0 from `start` (or, with `atComma`, a comma at depth 0); strings skipped. */
function scanToClose(line: string, start: number, atComma: boolean): number {
  let depth = 0;
  for (let i = start; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"' || ch === "'") {
      const close = line.indexOf(ch, i + 1);
      i = close < 0 ? line.length : close;
    } else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (depth === 0) return i;
      depth--;
    } else if (atComma && ch === ',' && depth === 0) return i;
  }
  return line.length;
}

/** Drops `keyword=…` from the calls on one line, with the comma that separated it. */
export function dropKeyword(line: string, keyword: string): string {
  const pattern = new RegExp(`(,\\s*)?\\b${escapeRegExp(keyword)}\\s*=(?!=)`);
  let out = line;
  for (let guard = 0; guard < 8; guard++) {
    const m = pattern.exec(out);
    if (!m) break;
    const valueStart = m.index + m[0].length;
    let end = argumentEnd(out, valueStart);
    let start = m.index;
    if (!m[1]) {
      // The first argument: take the comma after it instead.
      if (out[end] === ',') {
        end++;
        while (out[end] === ' ') end++;
      }
    }
    if (m[1]) start = m.index;
    out = out.slice(0, start) + out.slice(end);
  }
  return out;
}

/**
 * One mechanical change to code: a name replaced (with, when it cannot be written through the code's own imports, the
 * module to import it from; `line` is where the old name is imported or used, for pointing a `from … import` line
 * at the new module), or a keyword dropped from the calls on one line.
 */
export type CodeEdit =
  | { kind: 'rename'; line: number | null; written: string; replacement: string; module: string | null }
  | { kind: 'drop-keyword'; line: number; keyword: string };

/** The edits migration notes ask for: each "Use `X` instead" and each keyword the target rejects. */
export function notesEdits(notes: string): CodeEdit[] {
  const edits: CodeEdit[] = [];
  for (const raw of notes.split('\n')) {
    const line = raw.trim();
    const api = API_NOTE.exec(line);
    if (api) {
      const [, lineNo, written, , replacement, module] = api;
      edits.push({ kind: 'rename', line: Number(lineNo), written: written!, replacement: replacement!, module: module ?? null });
      continue;
    }
    const kw = KEYWORD_NOTE.exec(line);
    if (kw) edits.push({ kind: 'drop-keyword', line: Number(kw[1]), keyword: kw[3]! });
  }
  return edits;
}

/** The code with the edits applied: renames in order, then the keyword drops, then the imports renames need. */
export function applyCodeEdits(code: string, edits: readonly CodeEdit[]): string {
  let out = code;
  const imports: string[] = [];
  const keywordDrops: { line: number; keyword: string }[] = [];
  for (const edit of edits) {
    if (edit.kind === 'drop-keyword') {
      keywordDrops.push(edit);
      continue;
    }
    const { line: lineNo, written, replacement, module } = edit;
    if (!module) {
      out = replaceName(out, written, replacement);
      continue;
    }
    // Not writable through the code's alias: an import line is pointed at the new module; a use gets the bare
    // name and an import of it.
    const lines = out.split('\n');
    const at = lineNo === null ? -1 : lineNo - 1;
    const importLine = lines[at] !== undefined ? /^(\s*from\s+)([\w.]+)(\s+import\b.*)$/.exec(lines[at]!) : null;
    const leafName = replacement.slice(replacement.lastIndexOf('.') + 1);
    if (importLine && written.split('.').pop() === leafName) {
      lines[at] = `${importLine[1]}${module}${importLine[3]}`;
      out = lines.join('\n');
    } else {
      out = replaceName(out, written, leafName);
      imports.push(`from ${module} import ${leafName}`);
    }
  }
  if (keywordDrops.length) {
    const lines = out.split('\n');
    for (const d of keywordDrops) if (lines[d.line - 1] !== undefined) lines[d.line - 1] = dropKeyword(lines[d.line - 1]!, d.keyword);
    out = lines.join('\n');
  }
  const missing = [...new Set(imports)].filter((i) => !out.includes(i));
  return missing.length ? `${missing.join('\n')}\n${out}` : out;
}

/** The code with the notes' replacements applied and rejected keywords dropped (see the file comment). */
export function applyMigrationNotes(code: string, notes: string): string {
  return applyCodeEdits(code, notesEdits(notes));
}

// ---- reading a Documentation section (the grounded arm) ---------------------------------------------------------------

/** The keywords passed to the first call of `callee` on a line (top level of its parentheses), or null if none starts there. */
function callKeywords(line: string, callee: string): string[] | null {
  const m = new RegExp(`(?<![\\w.])${escapeRegExp(callee)}\\s*\\(`).exec(line);
  if (!m) return null;
  const start = m.index + m[0].length;
  const inner = line.slice(start, closingParen(line, start));
  const keywords: string[] = [];
  let depth = 0;
  let argumentStart = true;
  for (let i = 0; i < inner.length; i++) {
    if (argumentStart && depth === 0) {
      const kw = /^\s*([A-Za-z_]\w*)\s*=(?!=)/.exec(inner.slice(i));
      if (kw) keywords.push(kw[1]!);
      argumentStart = false;
    }
    const ch = inner[i]!;
    if (ch === '"' || ch === "'") {
      const close = inner.indexOf(ch, i + 1);
      i = close < 0 ? inner.length : close;
    } else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 0) argumentStart = true;
  }
  return keywords;
}


/** The parameter names a documented signature names as keywords; null when it does not parse. */
function keywordNames(signature: string): Set<string> | null {
  const x = extractSignature(signature);
  if (!x.ok) return null;
  return new Set(x.value.parameters.filter((p) => p.kind !== 'positional_only' && p.kind !== 'var_positional' && p.kind !== 'var_keyword').map((p) => p.name));
}

/** The answer says the keyword came after the pin, or went before it ("`where` added in 1.20.0"). */
function keywordChanged(answer: ReturnType<typeof readToolAnswer>, keyword: string): boolean {
  const named = (c: string) => c.includes(`\`${keyword}\``);
  return answer.changesAfter.some((c) => named(c) && / added in /.test(c)) || answer.changesBefore.some((c) => named(c) && / removed in /.test(c));
}

/**
 * What a Documentation section (anachron's lookup answers) tells a model to change in its code, read the way the
 * version-oblivious model reads migration notes: an API the answer says is NOT in the pinned version, with an
 * alternative ("Use instead"), is replaced by it wherever the code names it (through its own imports); a keyword
 * the documented signature at the pinned version does not take, and that the answer says was added after the pin
 * (or removed by it), is dropped from the calls that pass it. Answers that state neither change nothing.
 */
export function documentationEdits(code: string, library: string, documentation: string): CodeEdit[] {
  const bindings = importBindings(code, library);
  const lines = code.split('\n');
  const reachable = (api: string) => bindings.some((b) => (b.star ? parentPath(api) === b.target : api === b.target || api.startsWith(b.target + '.')));
  const edits: CodeEdit[] = [];
  for (const part of documentation.split(/\n(?=#{1,6} )/)) {
    const answer = readToolAnswer(part);
    if (!answer.api) continue;
    const written = calleeExpression(answer.api, bindings);
    const uses = new RegExp(`(?<![\\w.])${escapeRegExp(written)}(?![\\w])`);
    if (!uses.test(code)) continue;
    if (answer.exists === false && answer.alternative) {
      const alternative = answer.alternative.api;
      // A name bound by `from M import name`: that import line is where the change starts.
      const importedAt = lines.findIndex((l) => /^\s*from\s+[\w.]+\s+import\b/.test(l) && uses.test(l));
      const viaAlias = written.includes('.') && reachable(alternative);
      if (viaAlias) edits.push({ kind: 'rename', line: null, written, replacement: calleeExpression(alternative, bindings), module: null });
      else edits.push({ kind: 'rename', line: importedAt >= 0 ? importedAt + 1 : null, written, replacement: alternative, module: parentPath(alternative) || library });
      continue;
    }
    if (answer.exists === true && answer.signatures.length > 0) {
      const accepted = keywordNames(answer.signatures[0]!);
      if (!accepted) continue;
      // Only a keyword the answer says is new after the pin (or gone by it): a signature alone may be incomplete.
      lines.forEach((l, i) => {
        for (const kw of callKeywords(l, written) ?? []) if (!accepted.has(kw) && keywordChanged(answer, kw)) edits.push({ kind: 'drop-keyword', line: i + 1, keyword: kw });
      });
    }
  }
  return edits;
}

/** The code as a model that reads the Documentation section writes it (see documentationEdits). */
export function applyDocumentation(code: string, library: string, documentation: string): string {
  return applyCodeEdits(code, documentationEdits(code, library, documentation));
}
