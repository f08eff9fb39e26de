// HumanEval-style task files for the drift suite (OpenAI HumanEval, Qiskit HumanEval, the quantum-api-drift subset,
// or a user's own): a JSON array or JSON Lines of records with task_id, prompt, entry_point, test (defining
// check(candidate)) and optionally canonical_solution, mapped into the suite's DriftTask. Pure: text in, tasks or
// errors (with the record's line or index and the field) out.
//
// Mapping: the record's prompt (a code stub: signature and docstring) follows a version anchor,
// "Using {library} v{version}, complete the following Python function `ENTRY`:" (options.anchor replaces it; a prompt
// already holding both placeholders is kept as it is). test becomes the harness. canonical_solution, when present,
// is appended to the prompt (HumanEval's convention: prompt + canonical_solution is the complete function) and
// becomes the task's one solution, for every version (or options.solutionVersions). The category is the record's
// `category` field when it is a string, else options.category (default "uncategorized"); `apis` is kept when it is
// an array of dotted names.
import { isValidSpecifier } from '../../core/versions.js';
import { definesCheck, definesName, formatIssue, loadTaskSet, type DriftTask, type DriftTaskIssue, type DriftTaskSet, type ValidateOptions } from './tasks.js';
import { InputError } from '../../core/errors.js';
import { isObject } from '../../core/json-value.js';

function isValidSpecifierOrEmpty(specifier: string): boolean {
  return specifier.trim() === '' || isValidSpecifier(specifier);
}

export interface HumanEvalOptions {
  /** Import name the prompts name ({library}), e.g. "qiskit". */
  library: string;
  /** Distribution name (default: the library). */
  distribution?: string;
  /** Category for records without a `category` field (default "uncategorized"). */
  category?: string;
  /** Anchor put before the record's prompt; must hold {library} and {version}; ENTRY is replaced by the entry point. */
  anchor?: string;
  /** PEP 440 specifier of the canonical solution (default "": every version). */
  solutionVersions?: string;
  /** Prefix for task ids that do not already contain a "/" (default: none). */
  idPrefix?: string;
}

export const DEFAULT_ANCHOR = 'Using {library} v{version}, complete the following Python function `ENTRY`:';

export type HumanEvalLoadResult = { ok: true; taskSet: DriftTaskSet } | { ok: false; issues: DriftTaskIssue[] };

interface RawRecord {
  where: string;
  value: unknown;
}

/** Split the text into records: a JSON array, or one JSON object per non-blank line. */
function records(text: string): { ok: true; records: RawRecord[] } | { ok: false; issues: DriftTaskIssue[] } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const trimmed = body.trimStart();
  if (trimmed.startsWith('[')) {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (e) {
      return { ok: false, issues: [{ message: `invalid JSON array: ${e instanceof Error ? e.message : String(e)}` }] };
    }
    if (!Array.isArray(value)) return { ok: false, issues: [{ message: 'expected a JSON array of task records' }] };
    return { ok: true, records: value.map((v, i) => ({ where: `record ${i}`, value: v })) };
  }
  const out: RawRecord[] = [];
  const issues: DriftTaskIssue[] = [];
  body.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      out.push({ where: `line ${i + 1}`, value: JSON.parse(line) });
    } catch (e) {
      issues.push({ field: `line ${i + 1}`, message: `invalid JSON: ${e instanceof Error ? e.message : String(e)}` });
    }
  });
  if (issues.length) return { ok: false, issues };
  return { ok: true, records: out };
}

function str(rec: Record<string, unknown>, key: string): string | null {
  const v = rec[key];
  return typeof v === 'string' ? v : null;
}

/** Load a HumanEval-style file (JSON array or JSONL) into a drift task set. Every problem is reported. */
export function loadHumanEval(text: string, options: HumanEvalOptions): HumanEvalLoadResult {
  const issues: DriftTaskIssue[] = [];
  if (!options.library || !/^[A-Za-z_][A-Za-z0-9_.]*$/.test(options.library)) {
    return { ok: false, issues: [{ message: `options.library must be an import name, not ${JSON.stringify(options.library)}` }] };
  }
  const anchor = options.anchor ?? DEFAULT_ANCHOR;
  if (!anchor.includes('{library}') || !anchor.includes('{version}')) {
    return { ok: false, issues: [{ message: 'options.anchor must contain {library} and {version}' }] };
  }
  const solutionVersions = options.solutionVersions ?? '';
  if (!isValidSpecifierOrEmpty(solutionVersions)) {
    return { ok: false, issues: [{ message: `options.solutionVersions ${JSON.stringify(solutionVersions)} is not a valid PEP 440 specifier` }] };
  }
  const split = records(text);
  if (!split.ok) return split;
  if (split.records.length === 0) return { ok: false, issues: [{ message: 'no task records' }] };

  const tasks: DriftTask[] = [];
  const seen = new Map<string, string>();
  for (const { where, value } of split.records) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      issues.push({ field: where, message: 'must be a JSON object' });
      continue;
    }
    const rec = value as Record<string, unknown>;
    const rawId = rec.task_id;
    const taskIdText = typeof rawId === 'string' ? rawId : typeof rawId === 'number' ? String(rawId) : null;
    const label = taskIdText ?? where;
    const before = issues.length;
    if (taskIdText === null || taskIdText.trim() === '') issues.push({ field: `${where}.task_id`, message: 'missing (a string)' });
    const prompt = str(rec, 'prompt');
    if (prompt === null) issues.push({ taskId: label, field: 'prompt', message: 'missing (a string)' });
    const entryPoint = str(rec, 'entry_point');
    if (entryPoint === null) issues.push({ taskId: label, field: 'entry_point', message: 'missing (a string)' });
    else if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(entryPoint)) issues.push({ taskId: label, field: 'entry_point', message: `${JSON.stringify(entryPoint)} is not a Python identifier` });
    const test = str(rec, 'test');
    if (test === null) issues.push({ taskId: label, field: 'test', message: 'missing (a string)' });
    else if (!definesCheck(test)) issues.push({ taskId: label, field: 'test', message: 'must define check(candidate) at its top level' });
    const canonical = rec.canonical_solution;
    if (canonical !== undefined && canonical !== null && typeof canonical !== 'string') issues.push({ taskId: label, field: 'canonical_solution', message: 'must be a string' });
    const category = typeof rec.category === 'string' && rec.category.trim() !== '' ? rec.category : options.category ?? 'uncategorized';
    const apis = Array.isArray(rec.apis) && rec.apis.every((a) => typeof a === 'string' && /^[A-Za-z_][\w.]*(?:\(\w+\))?$/.test(a)) ? (rec.apis as string[]) : [];
    if (issues.length > before || taskIdText === null || prompt === null || entryPoint === null || test === null) continue;

    const id = options.idPrefix && !taskIdText.includes('/') ? `${options.idPrefix}/${taskIdText}` : taskIdText;
    const previous = seen.get(id);
    if (previous) {
      issues.push({ taskId: id, field: 'task_id', message: `duplicate task_id (also ${previous})` });
      continue;
    }
    seen.set(id, where);
    const anchored = prompt.includes('{library}') && prompt.includes('{version}') ? prompt : `${anchor.replaceAll('ENTRY', entryPoint)}\n\n${prompt}`;
    const solutions = typeof canonical === 'string' && canonical.trim() !== '' ? [{ versions: solutionVersions, code: `${prompt}${canonical}` }] : [];
    if (solutions.length && !definesName(solutions[0]!.code, entryPoint)) {
      issues.push({ taskId: id, field: 'canonical_solution', message: `prompt + canonical_solution does not define \`${entryPoint}\`` });
      continue;
    }
    tasks.push({ id, category, prompt: anchored, entryPoint, harness: test, solutions, apis });
  }
  if (issues.length) return { ok: false, issues };
  return { ok: true, taskSet: { library: options.library, distribution: options.distribution ?? options.library, tasks } };
}

export class HumanEvalFormatError extends InputError {
  constructor(readonly issues: readonly DriftTaskIssue[], source?: string) {
    super([`${source ? `${source}: ` : ''}${issues.length} problem${issues.length === 1 ? '' : 's'} in the HumanEval task file`, ...issues.slice(0, 50).map((i) => `  ${formatIssue(i)}`)].join('\n'));
    this.name = 'HumanEvalFormatError';
  }
}

/** As loadHumanEval, throwing HumanEvalFormatError listing every problem. */
export function parseHumanEval(text: string, options: HumanEvalOptions & { source?: string }): DriftTaskSet {
  const r = loadHumanEval(text, options);
  if (!r.ok) throw new HumanEvalFormatError(r.issues, options.source);
  return r.taskSet;
}

/**
 * Load a task file of either format: a drift task file (a JSON object with `tasks`) or a HumanEval-style file (a JSON
 * array or JSON Lines; `humanEval` gives the library it is for). The drift format is validated with `validate`.
 */
export function loadAnyTaskFile(
  text: string,
  options: { humanEval?: HumanEvalOptions; validate?: ValidateOptions } = {},
): HumanEvalLoadResult & { format?: 'drift' | 'humaneval' } {
  const body = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).trim();
  if (body.startsWith('{')) {
    let whole: unknown = undefined;
    try {
      whole = JSON.parse(body);
    } catch {
      // several lines of JSON: JSON Lines
    }
    if (isObject(whole) && !('task_id' in whole)) {
      return { ...loadTaskSet(body, options.validate), format: 'drift' };
    }
  }
  if (!options.humanEval) {
    return { ok: false, issues: [{ message: 'a HumanEval-style file (JSON array or JSON Lines) needs the library it is for' }] };
  }
  return { ...loadHumanEval(body, options.humanEval), format: 'humaneval' };
}
