/** A mistake in how the CLI was called or in its input: reported in one line, exit code 2. */
export class UsageError extends Error {}
