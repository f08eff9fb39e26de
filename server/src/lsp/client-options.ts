// What the client sends about itself — initializationOptions, and the settings notifications that replace parts of
// them later — read into well-formed values, with a line for each part that was not and what is used instead. They
// arrive as JSON from whatever is on the other end of the pipe: a string editorSettings or a null entry made
// initialize fail with a TypeError, and a number matricesFolder checked nothing without a word.
import type { Connection } from 'vscode-languageserver';
import { isObject } from '../core/json-value.js';
import type { ClientInitializationOptions, FolderEnvironment, FolderSettings } from './protocol.js';

/** Well-formed values, and what was ignored (one line each, naming the field). */
export interface ReadClientValues<T> {
  value: T;
  problems: string[];
}

/** What a JSON value is, for "(got …)". */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (value === '') return 'an empty string';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a ${type}`;
}

const FOLDER_SETTINGS = '{ folder, settings }';
const FOLDER_ENVIRONMENT = '{ folder, interpreter, distributions }';

/** `folder` of an entry: a URI, or null for files outside every folder. */
function folderProblem(entry: Record<string, unknown>, where: string): string | undefined {
  return entry.folder === null || (typeof entry.folder === 'string' && entry.folder !== '') ? undefined : `${where}.folder must be a file: URI or null (got ${jsonKind(entry.folder)}); ignored`;
}

/** A list of entries each checked by `entryProblem`; anything but a list gives no entries. */
function readList<T>(raw: unknown, where: string, shape: string, instead: string, entryProblem: (entry: Record<string, unknown>, at: string) => string | undefined): ReadClientValues<T[]> {
  if (raw === undefined || raw === null) return { value: [], problems: [] };
  if (!Array.isArray(raw)) return { value: [], problems: [`${where} must be a list of ${shape} (got ${jsonKind(raw)}); ${instead}`] };
  const value: T[] = [];
  const problems: string[] = [];
  raw.forEach((entry: unknown, i) => {
    const at = `${where}[${i}]`;
    const problem = isObject(entry) ? entryProblem(entry, at) : `${at} is not a ${shape} object (got ${jsonKind(entry)}); ignored`;
    if (problem) problems.push(problem);
    else value.push(entry as T);
  });
  return { value, problems };
}

/** Per-folder editor settings; each entry's settings are sanitised field by field later (sanitizeEditorSettings). */
export function readFolderSettings(raw: unknown, where: string): ReadClientValues<FolderSettings[]> {
  return readList<FolderSettings>(raw, where, FOLDER_SETTINGS, 'no editor settings are used', (entry, at) => folderProblem(entry, at) ?? (isObject(entry.settings) ? undefined : `${at}.settings must be an object (got ${jsonKind(entry.settings)}); ignored`));
}

/** Per-folder installed versions of the selected interpreter. */
export function readEnvironments(raw: unknown, where: string): ReadClientValues<FolderEnvironment[]> {
  return readList<FolderEnvironment>(raw, where, FOLDER_ENVIRONMENT, "no interpreter's versions are used", (entry, at) => {
    if (typeof entry.interpreter !== 'string') return `${at}.interpreter must be a string (got ${jsonKind(entry.interpreter)}); ignored`;
    if (!isObject(entry.distributions)) return `${at}.distributions must be an object of versions (got ${jsonKind(entry.distributions)}); ignored`;
    return folderProblem(entry, at);
  });
}

/** The params of a notification: an object whose list under `key` is read by `read`; undefined when the whole notification is ignored. */
export function readNotificationList<T>(method: string, params: unknown, key: string, read: (raw: unknown, where: string) => ReadClientValues<T[]>): ReadClientValues<T[] | undefined> {
  if (!isObject(params)) return { value: undefined, problems: [`${method}: the params must be an object (got ${jsonKind(params)}); ignored`] };
  return read(params[key], `${method}: ${key}`);
}

/** A folder path option: a non-empty string, else absent with a problem saying what is used instead. */
function readPath(options: Record<string, unknown>, key: 'matricesFolder' | 'userMatricesFolder' | 'cacheFolder', instead: string, problems: string[]): string | undefined {
  const raw = options[key];
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string' && raw !== '') return raw;
  problems.push(`initializationOptions.${key} must be a path (got ${jsonKind(raw)}); ${instead}`);
  return undefined;
}

/** initializationOptions as well-formed values: what is ill-shaped is left out (its default applies) and named. */
export function readInitializationOptions(raw: unknown): ReadClientValues<ClientInitializationOptions> {
  if (raw === undefined || raw === null) return { value: {}, problems: [] };
  if (!isObject(raw)) return { value: {}, problems: [`initializationOptions must be an object (got ${jsonKind(raw)}); the defaults are used`] };
  const problems: string[] = [];
  const value: ClientInitializationOptions = {};
  const matricesFolder = readPath(raw, 'matricesFolder', 'the bundled matrices are used', problems);
  const userMatricesFolder = readPath(raw, 'userMatricesFolder', 'ignored', problems);
  const cacheFolder = readPath(raw, 'cacheFolder', 'ignored', problems);
  if (matricesFolder !== undefined) value.matricesFolder = matricesFolder;
  if (userMatricesFolder !== undefined) value.userMatricesFolder = userMatricesFolder;
  if (cacheFolder !== undefined) value.cacheFolder = cacheFolder;
  const settings = readFolderSettings(raw.editorSettings, 'initializationOptions.editorSettings');
  const environments = readEnvironments(raw.environments, 'initializationOptions.environments');
  value.editorSettings = settings.value;
  value.environments = environments.value;
  problems.push(...settings.problems, ...environments.problems);
  if (typeof raw.trusted === 'boolean') value.trusted = raw.trusted;
  else if (raw.trusted !== undefined && raw.trusted !== null) problems.push(`initializationOptions.trusted must be true or false (got ${jsonKind(raw.trusted)}); the workspace is taken as untrusted`);
  return { value, problems };
}

/** Tells the user what of the client's values was ignored: each line in the log, all of them in one message. */
export function tellClientProblems(connection: Connection, problems: readonly string[]): void {
  if (problems.length === 0) return;
  for (const p of problems) connection.console.warn(`anachron: ${p}`);
  void connection.window.showWarningMessage(`anachron: the client's settings are not all usable: ${problems.join('; ')}`);
}
