// Keeps API keys out of every string the benchmark writes: error messages, logs, stored records.

export const REDACTED = '[REDACTED]';

export type Redactor = (text: string) => string;

const BEARER = /\b(Bearer\s+)[^\s"',;]+/gi;
// Common secret-key shapes (OpenAI-style "sk-…", and provider keys echoed partially masked, e.g. "sk-abc1****wxyz").
const KEY_LIKE = /\b(?:sk|pk|rk|key)-[A-Za-z0-9_*\-]{8,}/g;

/**
 * A redactor for the given secrets: removes every occurrence of each secret, every fragment of 8 or more characters
 * of one that a server echoes back (e.g. "Incorrect API key provided: sk-abc…xyz"), bearer tokens and key-shaped strings.
 */
export function makeRedactor(secrets: readonly (string | undefined)[]): Redactor {
  const keys = secrets.filter((s): s is string => typeof s === 'string' && s.length > 0);
  const fragments = new Set<string>();
  for (const key of keys) {
    fragments.add(key);
    // Head and tail fragments servers tend to echo when they mask the middle of a key.
    if (key.length >= 16) {
      fragments.add(key.slice(0, 8));
      fragments.add(key.slice(-8));
    }
  }
  const ordered = [...fragments].sort((a, b) => b.length - a.length);
  return (text: string): string => {
    let out = text;
    for (const f of ordered) if (out.includes(f)) out = out.split(f).join(REDACTED);
    return out.replace(BEARER, `$1${REDACTED}`).replace(KEY_LIKE, REDACTED);
  };
}

/** Truncates a body for a record or a message, keeping it readable. */
export function truncate(text: string, max = 2000): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
