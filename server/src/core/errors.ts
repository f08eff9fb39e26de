// The two kinds of failure every entry point tells apart (CLI, language server, extension, MCP, benchmark runs):
// - an input error: what the user gave is wrong or missing (a flag, a config field, a file that does not exist, an
//   environment that cannot run). Reported in one line that says what to change; the CLI exits 2.
// - an internal error: anything else, i.e. a bug in anachron. Reported as one, with the stack and a request to
//   report it; the CLI exits 3.
// Errors that come from elsewhere are classified by what they are: a failed system call on a path the user gave
// (no such file, permission denied …) is input; a TypeError is internal.

/** Something the user gave is wrong: the message says what, and what to do instead. */
export class InputError extends Error {
  override name = 'InputError';
}

/** System errors that describe the user's files or machine rather than a bug (Node's error codes). */
const INPUT_SYSTEM_CODES = new Set(['ENOENT', 'EACCES', 'EPERM', 'EISDIR', 'ENOTDIR', 'EEXIST', 'ENOSPC', 'EROFS', 'EBUSY', 'ENAMETOOLONG', 'ELOOP', 'EMFILE', 'ENFILE', 'EDQUOT']);

/** SQLite's codes for a file that is not a database, is damaged, or cannot be opened or written where it is. */
const INPUT_SQLITE_CODES = ['SQLITE_NOTADB', 'SQLITE_CORRUPT', 'SQLITE_CANTOPEN', 'SQLITE_READONLY', 'SQLITE_FULL', 'SQLITE_PERM', 'SQLITE_IOERR'];

/** Whether an error is the user's to fix (an input error) rather than a bug. */
export function isInputError(e: unknown): boolean {
  if (e instanceof InputError) return true;
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  // node:util parseArgs: an unknown or malformed flag.
  if (code.startsWith('ERR_PARSE_ARGS')) return true;
  if (INPUT_SQLITE_CODES.some((c) => code === c || code.startsWith(`${c}_`))) return true;
  return INPUT_SYSTEM_CODES.has(code) && typeof (e as { syscall?: unknown }).syscall === 'string';
}

/** The message of an error as one line, whatever was thrown. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

/** How an internal error is reported: that it is one, the message, the stack, and where to report it. */
export function internalErrorReport(e: unknown, where: string): string {
  const stack = e instanceof Error && e.stack ? e.stack : String(e);
  return `${where}: internal error: ${errorMessage(e)}\nThis is a bug in anachron, not a problem with your input; please report it with this text and what you ran.\n${stack}`;
}
