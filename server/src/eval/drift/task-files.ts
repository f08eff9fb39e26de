// Adapter: the drift run's task sets from files. The bundled sets (tasks/drift/LIBRARY.json beside the bundle or in the
// source tree), or the config's drift.taskFiles (drift task files, or HumanEval-style files with the library they are
// for), read and validated with tasks.ts / humaneval.ts; several files of one library are joined; drift.taskIds
// keeps only the tasks named.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { DriftRunConfig } from './config.js';
import type { HumanEvalTaskFile } from './config.js';
import { loadAnyTaskFile } from './humaneval.js';
import { formatIssue, type DriftTaskSet } from './tasks.js';
import { InputError } from '../../core/errors.js';

export class TaskFileError extends InputError {
  override readonly name: string = 'TaskFileError';
}

/** The bundled task files: ANACHRON_DRIFT_TASKS, else tasks/drift beside the bundle (dist/) or in the source tree. */
export function defaultDriftTasksFolder(): string {
  if (process.env.ANACHRON_DRIFT_TASKS) return resolve(process.env.ANACHRON_DRIFT_TASKS);
  const candidates = [join(__dirname, '..', 'tasks', 'drift'), join(__dirname, '..', '..', '..', '..', 'tasks', 'drift')];
  return candidates.find((c) => existsSync(c)) ?? candidates[0]!;
}

/** The libraries with a bundled task file (tasks/drift/LIBRARY.json), sorted. */
export function bundledTaskLibraries(folder = defaultDriftTasksFolder()): string[] {
  try {
    return readdirSync(folder).filter((f) => /^[A-Za-z0-9_]+\.json$/.test(f)).map((f) => f.slice(0, -'.json'.length)).sort();
  } catch {
    return [];
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new TaskFileError(`cannot read the task file ${file}: ${(e as Error).message}`);
  }
}

/** Reads one task file (drift format, or HumanEval-style when `spec` names the library). */
export function readTaskFile(file: string, humanEval?: Omit<HumanEvalTaskFile, 'file'>): DriftTaskSet {
  // A run needs well-formed tasks (placeholders, entry point, harness, solutions); the shipped sets' stricter rules
  // (version coverage grid, known categories, API lists: tasks.ts) are their own tests' business, not a user's file's.
  const validate = { coverVersions: [], requireApis: false, requireKnownCategory: false, requireIdPrefix: false };
  const loaded = loadAnyTaskFile(readText(file), humanEval ? { validate, humanEval: { library: humanEval.library, ...(humanEval.distribution ? { distribution: humanEval.distribution } : {}), ...(humanEval.anchor ? { anchor: humanEval.anchor } : {}), ...(humanEval.category ? { category: humanEval.category } : {}) } } : { validate });
  if (!loaded.ok) throw new TaskFileError(`${file}: ${loaded.issues.slice(0, 10).map(formatIssue).join('; ')}${loaded.issues.length > 10 ? `; … ${loaded.issues.length - 10} more` : ''}`);
  if (humanEval && loaded.format === 'drift' && loaded.taskSet.library !== humanEval.library) {
    throw new TaskFileError(`${file} is a drift task file for ${loaded.taskSet.library}, not ${humanEval.library}`);
  }
  return loaded.taskSet;
}

/**
 * The task sets of a drift run, one per library of the config, in the config's order. Paths are relative to
 * `baseDir` (the config file's folder). Throws TaskFileError for unreadable or invalid files, a library without
 * tasks, and duplicate task ids.
 */
export function loadRunTasks(config: DriftRunConfig, baseDir: string, bundled = defaultDriftTasksFolder()): DriftTaskSet[] {
  const entries = config.drift?.taskFiles ?? config.libraries.map((lib) => join(bundled, `${lib}.json`));
  const sets: DriftTaskSet[] = [];
  for (const entry of entries) {
    const spec = typeof entry === 'string' ? { file: entry } : entry;
    const file = isAbsolute(spec.file) ? spec.file : resolve(baseDir, spec.file);
    if (typeof entry === 'string' && !config.drift?.taskFiles && !existsSync(file)) {
      throw new TaskFileError(`no bundled drift tasks for this library: ${file} does not exist (give drift.taskFiles)`);
    }
    sets.push(readTaskFile(file, typeof entry === 'string' ? undefined : entry));
  }
  const wanted = config.drift?.taskIds ? new Set(config.drift.taskIds) : null;
  const out: DriftTaskSet[] = [];
  for (const library of config.libraries) {
    const mine = sets.filter((s) => s.library === library);
    if (mine.length === 0) throw new TaskFileError(`no task file is for ${library} (the files are for ${[...new Set(sets.map((s) => s.library))].join(', ') || 'nothing'})`);
    const seen = new Set<string>();
    const tasks = mine.flatMap((s) => s.tasks).filter((t) => !wanted || wanted.has(t.id));
    for (const t of tasks) {
      if (seen.has(t.id)) throw new TaskFileError(`task ${t.id} is defined twice for ${library}`);
      seen.add(t.id);
    }
    if (tasks.length === 0) throw new TaskFileError(`no ${library} task is selected${wanted ? ' (drift.taskIds names none of them)' : ''}`);
    out.push({ library, distribution: mine[0]!.distribution, tasks });
  }
  if (wanted) {
    const known = new Set(out.flatMap((s) => s.tasks.map((t) => t.id)));
    const missing = [...wanted].filter((id) => !known.has(id));
    if (missing.length) throw new TaskFileError(`drift.taskIds names tasks no file has: ${missing.join(', ')}`);
  }
  return out;
}
