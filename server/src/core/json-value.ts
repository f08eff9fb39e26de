// The shape of a value read from untrusted JSON (run configs, task files, the environment registry, tool input). Pure.

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
