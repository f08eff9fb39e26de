// How the extension words the end of a CLI child process it started (a benchmark run, Add Matrix Column): the CLI
// exits 2 for a mistake in its input, which its last message explains, and 3 for an internal error, whose stack it
// prints (server/src/core/errors.ts). No VS Code API here.

export const CLI_INTERNAL_ERROR = 3;

/** What to add to the failure message of a child that exited with `code`. */
export function cliFailureNote(code: number | null): string {
  return code === CLI_INTERNAL_ERROR ? ' This is a bug in anachron, not a problem with your choices: the output has the details; please report it.' : '';
}
