// The drift suite's task files (tasks/drift/LIBRARY.json): types, a strict loader and the checks every task set must
// pass, with messages that name the task and the field. Pure: file text in, tasks or errors out (no I/O).
//
// A task asks for one small function ("Using {library} v{version}, write …"), names its entry point, carries a
// version-agnostic harness defining check(candidate), and one reference solution per range of library versions
// (PEP 440 specifiers that together cover every version, without overlap): the natural code of that era, using the
// API that changed. tasks/drift/README.md documents the format and how the shipped sets were validated.
import { compareVersions, isValidSpecifier, isValidVersion, satisfies } from '../../core/versions.js';
import { isObject as isRecord } from '../../core/json-value.js';
import { InputError } from '../../core/errors.js';

/** What changed between versions for the API the task's natural solution touches. */
export const DRIFT_CATEGORIES = [
  'renamed',
  'removed',
  'new-keyword',
  'removed-keyword',
  'moved-module',
  'changed-behaviour',
  'new-api',
] as const;
export type DriftCategory = (typeof DRIFT_CATEGORIES)[number];

export function isDriftCategory(value: string): value is DriftCategory {
  return (DRIFT_CATEGORIES as readonly string[]).includes(value);
}

export interface DriftSolution {
  /** PEP 440 specifier of the versions this solution is written for, e.g. ">=2.0" ("" for every version). */
  versions: string;
  /** Complete Python source defining the entry point, with its imports. */
  code: string;
}

export interface DriftTask {
  /** Unique within its set; "LIBRARY/slug" in the shipped files. */
  id: string;
  /** One of DRIFT_CATEGORIES for the shipped files; free text (or "uncategorized") for imported HumanEval files. */
  category: string;
  /** Template with {library} and {version} placeholders (the version anchor). */
  prompt: string;
  /** Name of the function the generated code must define; check() receives it. */
  entryPoint: string;
  /** Python source defining check(candidate); the same in every version. */
  harness: string;
  solutions: DriftSolution[];
  /** Dotted API paths the natural solutions touch ("numpy.trapz"); "path(keyword)" names a keyword of a callable. */
  apis: string[];
}

export interface DriftTaskSet {
  /** Import name, as the prompts name it ({library}). */
  library: string;
  /** Distribution name on the package index. */
  distribution: string;
  /** The categories the file's tasks are grouped in, in report order, when not DRIFT_CATEGORIES (the Qiskit set
   *  uses the quantum-api-drift paper's eight: circuit construction, gate operations, …). */
  categories?: string[];
  /** The library versions the set was written and validated for, ascending: the environments an editor or CI makes
   *  for it when none is registered (qiskit.json: the paper's 0.43.3, 1.3.0, 2.0.0). */
  versions?: string[];
  tasks: DriftTask[];
}

/** One problem found in a task file: the task and the field it concerns, where known. */
export interface DriftTaskIssue {
  taskId?: string;
  /** A path into the task (or the file, without taskId): "solutions[1].versions". */
  field?: string;
  message: string;
}

export function formatIssue(issue: DriftTaskIssue): string {
  const where = [issue.taskId, issue.field].filter((x): x is string => !!x).join(': ');
  return where ? `${where}: ${issue.message}` : issue.message;
}

export class DriftTaskFormatError extends InputError {
  constructor(readonly issues: readonly DriftTaskIssue[], source?: string) {
    const head = `${source ? `${source}: ` : ''}${issues.length} problem${issues.length === 1 ? '' : 's'} in the drift task file`;
    super([head, ...issues.slice(0, 50).map((i) => `  ${formatIssue(i)}`), ...(issues.length > 50 ? [`  … and ${issues.length - 50} more`] : [])].join('\n'));
    this.name = 'DriftTaskFormatError';
  }
}

export type DriftLoadResult = { ok: true; taskSet: DriftTaskSet } | { ok: false; issues: DriftTaskIssue[] };

const TOP_FIELDS = ['library', 'distribution', 'categories', 'versions', 'tasks', 'comment'] as const;
const TASK_FIELDS = ['id', 'category', 'prompt', 'entryPoint', 'harness', 'solutions', 'apis', 'comment'] as const;
const SOLUTION_FIELDS = ['versions', 'code'] as const;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DOTTED = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const API_ENTRY = /^([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(?:\(([A-Za-z_][A-Za-z0-9_]*)\))?$/;
const DISTRIBUTION = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
const TASK_ID = /^[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*$/;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}` : `a ${typeof value}`;
}

/** A Python source defines `name` at its top level (def, async def, class or assignment). */
export function definesName(code: string, name: string): boolean {
  const n = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^(?:(?:async\\s+)?def\\s+${n}\\s*\\(|class\\s+${n}\\b|${n}\\s*(?::[^=\\n]*)?=(?!=))`, 'm').test(code);
}

/** The harness defines check(candidate) at its top level. */
export function definesCheck(harness: string): boolean {
  return /^def\s+check\s*\(\s*candidate\s*(?::[^)]*)?\)/m.test(harness);
}

/** A dotted API entry ("numpy.unique(equal_nan)") split into its path and keyword. */
export function parseApiEntry(entry: string): { path: string; keyword: string | null } | null {
  const m = API_ENTRY.exec(entry);
  return m ? { path: m[1]!, keyword: m[2] ?? null } : null;
}

const satisfiesMemo = new Map<string, boolean>();

/** satisfies() that never throws and remembers its answers (the coverage checks ask the same pairs many times). */
function safeSatisfies(version: string, specifier: string): boolean {
  if (specifier.trim() === '') return true;
  const key = `${version}\u0000${specifier}`;
  let r = satisfiesMemo.get(key);
  if (r === undefined) {
    try {
      r = satisfies(version, specifier);
    } catch {
      r = false;
    }
    if (satisfiesMemo.size > 100_000) satisfiesMemo.clear();
    satisfiesMemo.set(key, r);
  }
  return r;
}

/** The solutions whose specifier contains the version, in file order. */
export function solutionsFor(task: Pick<DriftTask, 'solutions'>, version: string): DriftSolution[] {
  return task.solutions.filter((s) => safeSatisfies(version, s.versions));
}

/** The solution a version-aware author writes for `version`: the one whose specifier contains it (undefined if none). */
export function solutionFor(task: Pick<DriftTask, 'solutions'>, version: string): DriftSolution | undefined {
  return solutionsFor(task, version)[0];
}

/** Versions named in the task's specifiers, ascending. */
function namedVersions(task: Pick<DriftTask, 'solutions'>): string[] {
  const named = task.solutions.flatMap((s) => s.versions.match(/\d+(?:\.\d+)*/g) ?? []).filter(isValidVersion);
  return [...new Set(named)].sort(compareVersions);
}

/** Far above any real release of the library, for "the newest solution" (the one with an open upper end). */
export const BEYOND_VERSION = '9999.0';
/** Below any real release. */
export const BEFORE_VERSION = '0.0.1';

/** The solution for the newest versions (what a version-oblivious author always writes): the one admitting BEYOND_VERSION. */
export function newestSolution(task: Pick<DriftTask, 'solutions'>): DriftSolution | undefined {
  return solutionFor(task, BEYOND_VERSION) ?? (() => {
    const probes = namedVersions(task).reverse();
    for (const p of probes) {
      const s = solutionFor(task, p);
      if (s) return s;
    }
    return task.solutions[task.solutions.length - 1];
  })();
}

/** The solution for the oldest versions: the one admitting the lowest version its specifiers name (or BEFORE_VERSION). */
export function oldestSolution(task: Pick<DriftTask, 'solutions'>): DriftSolution | undefined {
  for (const p of [BEFORE_VERSION, ...namedVersions(task)]) {
    const s = solutionFor(task, p);
    if (s) return s;
  }
  return task.solutions[0];
}

/**
 * Versions 1.0.0 … 3.0.0 that every task must resolve to exactly one solution: every minor of 1.x and 2.x up to 40,
 * with patch releases 0, 1 and 5, plus the given versions (e.g. the tracked environments').
 */
export function coverageGrid(extra: readonly string[] = []): string[] {
  const out = new Set<string>(extra);
  for (const major of [1, 2]) for (let minor = 0; minor <= 40; minor++) for (const patch of [0, 1, 5]) out.add(`${major}.${minor}.${patch}`);
  out.add('3.0.0');
  return [...out].filter(isValidVersion).sort(compareVersions);
}

/**
 * Coverage problems of a task over `versions`: a version no solution admits, or one that several admit. The shipped
 * sets are checked over coverageGrid() plus the tracked versions, and must leave no version above the grid uncovered.
 */
export function coverageIssues(task: Pick<DriftTask, 'id' | 'solutions'>, versions: readonly string[]): DriftTaskIssue[] {
  const issues: DriftTaskIssue[] = [];
  const uncovered: string[] = [];
  const overlapping: string[] = [];
  for (const v of versions) {
    const n = solutionsFor(task, v).length;
    if (n === 0) uncovered.push(v);
    else if (n > 1) overlapping.push(`${v} (${task.solutions.filter((s) => safeSatisfies(v, s.versions)).map((s) => JSON.stringify(s.versions)).join(', ')})`);
  }
  const cut = (xs: string[]) => (xs.length > 6 ? `${xs.slice(0, 6).join(', ')}, … (${xs.length} in all)` : xs.join(', '));
  if (uncovered.length) issues.push({ taskId: task.id, field: 'solutions', message: `no solution's versions admit ${cut(uncovered)}` });
  if (overlapping.length) issues.push({ taskId: task.id, field: 'solutions', message: `several solutions admit the same version: ${cut(overlapping)}` });
  if (solutionsFor(task, BEYOND_VERSION).length !== 1) {
    issues.push({ taskId: task.id, field: 'solutions', message: 'exactly one solution must have an open upper end (the newest versions)' });
  }
  return issues;
}

export interface ValidateOptions {
  /** Versions every task must resolve to exactly one solution (default: coverageGrid()). [] skips the check. */
  coverVersions?: readonly string[];
  /** Require ids to start with "LIBRARY/" (default true). */
  requireIdPrefix?: boolean;
  /** Require every task to list at least one API (default true). */
  requireApis?: boolean;
  /** Require the category to be one of DRIFT_CATEGORIES (default true). */
  requireKnownCategory?: boolean;
}

function checkString(
  issues: DriftTaskIssue[],
  obj: Record<string, unknown>,
  key: string,
  taskId: string | undefined,
  field: string,
  opts: { nonEmpty?: boolean; pattern?: RegExp; patternText?: string } = {},
): string | null {
  const v = obj[key];
  if (v === undefined) {
    issues.push({ taskId, field, message: 'missing' });
    return null;
  }
  if (typeof v !== 'string') {
    issues.push({ taskId, field, message: `must be a string, not ${describe(v)}` });
    return null;
  }
  if ((opts.nonEmpty ?? true) && v.trim() === '') {
    issues.push({ taskId, field, message: 'must not be empty' });
    return null;
  }
  if (opts.pattern && !opts.pattern.test(v)) {
    issues.push({ taskId, field, message: `${JSON.stringify(v)} is not ${opts.patternText ?? `of the form ${opts.pattern}`}` });
    return null;
  }
  return v;
}

/** Validate one task object (already parsed); returns the task when it is well-formed. */
function validateTask(
  raw: unknown,
  index: number,
  set: { library: string; categories: readonly string[] | null },
  opts: Required<ValidateOptions>,
  issues: DriftTaskIssue[],
): DriftTask | null {
  const at = `tasks[${index}]`;
  if (!isRecord(raw)) {
    issues.push({ field: at, message: `must be an object, not ${describe(raw)}` });
    return null;
  }
  const before = issues.length;
  const rawId = raw.id;
  const taskId = typeof rawId === 'string' && rawId.trim() !== '' ? rawId : at;
  for (const key of Object.keys(raw)) {
    if (!(TASK_FIELDS as readonly string[]).includes(key)) issues.push({ taskId, field: key, message: `unknown field (expected ${TASK_FIELDS.join(', ')})` });
  }
  const id = checkString(issues, raw, 'id', taskId === at ? undefined : taskId, taskId === at ? `${at}.id` : 'id', { pattern: TASK_ID, patternText: 'an id of letters, digits, ".", "_", "-" and "/"' });
  if (id && opts.requireIdPrefix && !id.startsWith(`${set.library}/`)) issues.push({ taskId, field: 'id', message: `must start with "${set.library}/"` });

  const category = checkString(issues, raw, 'category', taskId, 'category');
  const known = set.categories ?? DRIFT_CATEGORIES;
  if (category && opts.requireKnownCategory && !known.includes(category)) {
    issues.push({ taskId, field: 'category', message: `unknown category ${JSON.stringify(category)} (expected one of ${known.join(', ')})` });
  }
  const prompt = checkString(issues, raw, 'prompt', taskId, 'prompt');
  if (prompt) {
    for (const ph of ['{library}', '{version}']) if (!prompt.includes(ph)) issues.push({ taskId, field: 'prompt', message: `must contain the placeholder ${ph}` });
  }
  const entryPoint = checkString(issues, raw, 'entryPoint', taskId, 'entryPoint', { pattern: IDENTIFIER, patternText: 'a Python identifier' });
  const harness = checkString(issues, raw, 'harness', taskId, 'harness');
  if (harness && !definesCheck(harness)) issues.push({ taskId, field: 'harness', message: 'must define check(candidate) at its top level' });
  if (prompt && entryPoint && !new RegExp(`(?<![A-Za-z0-9_])${entryPoint}(?![A-Za-z0-9_])`).test(prompt)) {
    issues.push({ taskId, field: 'prompt', message: `must name the entry point \`${entryPoint}\`` });
  }

  const solutions: DriftSolution[] = [];
  const rawSolutions = raw.solutions;
  if (rawSolutions === undefined) issues.push({ taskId, field: 'solutions', message: 'missing' });
  else if (!Array.isArray(rawSolutions)) issues.push({ taskId, field: 'solutions', message: `must be an array, not ${describe(rawSolutions)}` });
  else if (rawSolutions.length === 0) issues.push({ taskId, field: 'solutions', message: 'must hold at least one solution' });
  else {
    rawSolutions.forEach((s, j) => {
      const f = `solutions[${j}]`;
      if (!isRecord(s)) {
        issues.push({ taskId, field: f, message: `must be an object, not ${describe(s)}` });
        return;
      }
      for (const key of Object.keys(s)) {
        if (!(SOLUTION_FIELDS as readonly string[]).includes(key)) issues.push({ taskId, field: `${f}.${key}`, message: `unknown field (expected ${SOLUTION_FIELDS.join(', ')})` });
      }
      const versions = checkString(issues, s, 'versions', taskId, `${f}.versions`, { nonEmpty: false });
      if (versions !== null && versions.trim() !== '' && !isValidSpecifier(versions)) {
        issues.push({ taskId, field: `${f}.versions`, message: `${JSON.stringify(versions)} is not a valid PEP 440 specifier` });
      }
      const code = checkString(issues, s, 'code', taskId, `${f}.code`);
      if (code && entryPoint && !definesName(code, entryPoint)) issues.push({ taskId, field: `${f}.code`, message: `does not define \`${entryPoint}\` at its top level` });
      if (versions !== null && code) solutions.push({ versions, code });
    });
  }

  const apis: string[] = [];
  const rawApis = raw.apis;
  if (rawApis === undefined) {
    if (opts.requireApis) issues.push({ taskId, field: 'apis', message: 'missing' });
  } else if (!Array.isArray(rawApis)) issues.push({ taskId, field: 'apis', message: `must be an array of dotted names, not ${describe(rawApis)}` });
  else {
    if (rawApis.length === 0 && opts.requireApis) issues.push({ taskId, field: 'apis', message: 'must name at least one API' });
    rawApis.forEach((a, j) => {
      const parsed = typeof a === 'string' ? parseApiEntry(a) : null;
      if (!parsed) issues.push({ taskId, field: `apis[${j}]`, message: `${describe(a)} is not a dotted API path (optionally "path(keyword)")` });
      else if (parsed.path !== set.library && !parsed.path.startsWith(`${set.library}.`)) issues.push({ taskId, field: `apis[${j}]`, message: `${JSON.stringify(a)} is not an API of ${set.library}` });
      else apis.push(a as string);
    });
  }
  if (raw.comment !== undefined && typeof raw.comment !== 'string') issues.push({ taskId, field: 'comment', message: `must be a string, not ${describe(raw.comment)}` });

  if (issues.length > before || !id || !category || !prompt || !entryPoint || !harness) return null;
  const task: DriftTask = { id, category, prompt, entryPoint, harness, solutions, apis };
  if (opts.coverVersions.length > 0) {
    const cov = coverageIssues(task, opts.coverVersions);
    if (cov.length) {
      issues.push(...cov);
      return null;
    }
  }
  return task;
}

/** Validate a parsed task file; every problem is reported, not only the first. */
export function validateTaskSet(data: unknown, options: ValidateOptions = {}): DriftLoadResult {
  const opts: Required<ValidateOptions> = {
    coverVersions: options.coverVersions ?? coverageGrid(),
    requireIdPrefix: options.requireIdPrefix ?? true,
    requireApis: options.requireApis ?? true,
    requireKnownCategory: options.requireKnownCategory ?? true,
  };
  const issues: DriftTaskIssue[] = [];
  if (!isRecord(data)) return { ok: false, issues: [{ message: `a drift task file must hold a JSON object with library, distribution and tasks, not ${describe(data)}` }] };
  for (const key of Object.keys(data)) {
    if (!(TOP_FIELDS as readonly string[]).includes(key)) issues.push({ field: key, message: `unknown field (expected ${TOP_FIELDS.join(', ')})` });
  }
  const library = checkString(issues, data, 'library', undefined, 'library', { pattern: DOTTED, patternText: 'an import name' });
  const distribution = checkString(issues, data, 'distribution', undefined, 'distribution', { pattern: DISTRIBUTION, patternText: 'a distribution name' });
  let categories: string[] | null = null;
  if (data.categories !== undefined) {
    const c = data.categories;
    if (!Array.isArray(c) || c.length === 0 || !c.every((x) => typeof x === 'string' && /^[a-z0-9][a-z0-9-]*$/.test(x))) {
      issues.push({ field: 'categories', message: 'must be a non-empty list of category names (lowercase letters, digits and "-")' });
    } else if (new Set(c).size !== c.length) issues.push({ field: 'categories', message: 'names a category twice' });
    else categories = c as string[];
  }
  let versions: string[] | null = null;
  if (data.versions !== undefined) {
    const v = data.versions;
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'string' && isValidVersion(x))) {
      issues.push({ field: 'versions', message: 'must be a non-empty list of PEP 440 versions' });
    } else if ([...v].sort(compareVersions).join() !== v.join() || new Set(v).size !== v.length) {
      issues.push({ field: 'versions', message: 'must be ascending, each version once' });
    } else versions = v as string[];
  }
  const rawTasks = data.tasks;
  const tasks: DriftTask[] = [];
  if (rawTasks === undefined) issues.push({ field: 'tasks', message: 'missing' });
  else if (!Array.isArray(rawTasks)) issues.push({ field: 'tasks', message: `must be an array, not ${describe(rawTasks)}` });
  else if (rawTasks.length === 0) issues.push({ field: 'tasks', message: 'must hold at least one task' });
  else if (library) {
    const seen = new Map<string, number>();
    rawTasks.forEach((raw, i) => {
      const t = validateTask(raw, i, { library, categories }, opts, issues);
      const id = isRecord(raw) && typeof raw.id === 'string' ? raw.id : null;
      if (id !== null) {
        const first = seen.get(id);
        if (first !== undefined) issues.push({ taskId: id, field: 'id', message: `duplicate id (also tasks[${first}])` });
        else seen.set(id, i);
      }
      if (t) tasks.push(t);
    });
  }
  if (issues.length > 0 || !library || !distribution) return { ok: false, issues };
  return { ok: true, taskSet: { library, distribution, ...(categories ? { categories } : {}), ...(versions ? { versions } : {}), tasks } };
}

/**
 * Offset of the first JSON syntax error in `text` (a small recursive-descent scan; JSON.parse's messages do not say
 * where in every Node version), or -1 when the scan finds none.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i]! < ' ') fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? '')) fail();
      }
      i++;
    }
    if (text[i] !== '"') fail();
    i++;
  };
  const number = () => {
    const re = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) fail();
    i += m![0].length;
  };
  // An object's members or an array's elements, from the opening bracket at i to the closing one.
  const items = (close: string, item: () => void): void => {
    i++;
    ws();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      ws();
      if (text[i] === ',') i++;
      else if (text[i] === close) {
        i++;
        return;
      } else fail();
    }
  };
  const member = (): void => {
    ws();
    if (text[i] !== '"') fail();
    string();
    ws();
    if (text[i] !== ':') fail();
    i++;
    value();
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') items('}', member);
    else if (c === '[') items(']', value);
    else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else number();
  };
  try {
    value();
    ws();
    return i < text.length ? i : -1;
  } catch (offset) {
    return typeof offset === 'number' ? offset : -1;
  }
}

/** Parse JSON text, reporting a syntax error with its line and column. */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; issue: DriftTaskIssue } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const offset = jsonErrorOffset(body);
    if (offset >= 0) {
      const before = body.slice(0, offset);
      const line = before.split('\n').length;
      const column = offset - before.lastIndexOf('\n');
      return { ok: false, issue: { message: `invalid JSON at line ${line}, column ${column}: ${msg}` } };
    }
    return { ok: false, issue: { message: `invalid JSON: ${msg}` } };
  }
}

/** Load a drift task file from its text. */
export function loadTaskSet(text: string, options: ValidateOptions = {}): DriftLoadResult {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, issues: [parsed.issue] };
  return validateTaskSet(parsed.value, options);
}

/** Load a drift task file from its text; throws DriftTaskFormatError listing every problem. */
export function parseTaskSet(text: string, options: ValidateOptions & { source?: string } = {}): DriftTaskSet {
  const r = loadTaskSet(text, options);
  if (!r.ok) throw new DriftTaskFormatError(r.issues, options.source);
  return r.taskSet;
}

/**
 * The names a harness must not use for a task: each API's last path component as an attribute or import
 * (".trapz", "import trapz") and each keyword as a keyword argument ("equal_nan="). Empty when the harness is clean.
 */
export function harnessApiUses(task: Pick<DriftTask, 'harness' | 'apis'>): string[] {
  const found = new Set<string>();
  const code = task.harness;
  for (const entry of task.apis) {
    const parsed = parseApiEntry(entry);
    if (!parsed) continue;
    if (parsed.keyword) {
      if (new RegExp(`\\b${parsed.keyword}\\s*=(?!=)`).test(code)) found.add(entry);
      continue;
    }
    const last = parsed.path.split('.').pop()!;
    if (parsed.path.includes('.') && (new RegExp(`\\.${last}\\b`).test(code) || new RegExp(`\\bimport\\b[^\\n]*\\b${last}\\b`).test(code))) found.add(entry);
  }
  return [...found];
}

/** Counts of tasks per category, in the order of `order` (default DRIFT_CATEGORIES; then any other category, sorted). */
export function categoryCounts(tasks: readonly Pick<DriftTask, 'category'>[], order: readonly string[] = DRIFT_CATEGORIES): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of order) counts.set(c, 0);
  for (const t of tasks) counts.set(t.category, (counts.get(t.category) ?? 0) + 1);
  const known = order.filter((c) => (counts.get(c) ?? 0) > 0).map((c) => [c, counts.get(c)!] as const);
  const other = [...counts].filter(([c, n]) => !order.includes(c) && n > 0).sort(([a], [b]) => (a < b ? -1 : 1));
  return new Map([...known, ...other]);
}

/** Render a task's prompt for one version: only the exact {library} and {version} placeholders are replaced. */
export function renderPrompt(task: Pick<DriftTask, 'prompt'>, library: string, version: string): string {
  return task.prompt.replaceAll('{library}', library).replaceAll('{version}', version);
}
