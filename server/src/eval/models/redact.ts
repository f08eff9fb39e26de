// Keeps API keys out of every string the benchmark writes: answers, error messages, response bodies, logs, stored
// records. A key is found in every encoding a JSON or HTTP body can carry it in — raw, JSON escapes (\u0073, \/, also
// doubly escaped and mixed with plain characters), percent-encoding, HTML character references, base64 (standard and
// URL-safe, at any alignment) and hex — and so are the head and tail fragments servers echo when they mask a key.

export const REDACTED = '[REDACTED]';

export type Redactor = (text: string) => string;

const BEARER = /\b(Bearer\s+)[^\s"',;]+/gi;
// Common secret-key shapes (OpenAI-style "sk-…", and provider keys echoed partially masked, e.g. "sk-abc1****wxyz").
const KEY_LIKE = /\b(?:sk|pk|rk|key)-[A-Za-z0-9_*\-]{8,}/g;
/** Shorter fragments than this are not looked for (too many false hits); keys shorter than this are matched whole. */
const FRAGMENT = 8;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A pattern matching one character in any of the encodings a body may carry it in. */
function encodedChar(ch: string): string {
  const code = ch.codePointAt(0)!;
  const forms = [escapeRegExp(ch)];
  if (code < 0x10000) {
    const hex4 = code.toString(16).padStart(4, '0');
    forms.push(`\\\\+u${hex4.split('').map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('')}`);
  }
  if (ch === '/') forms.push('\\\\+/');
  if (code < 0x80) {
    const hex2 = code.toString(16).padStart(2, '0');
    const ci = hex2.split('').map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');
    forms.push(`%${ci}`, `&#0*${code};`, `&#[xX]0*${ci};`);
    if (ch === ' ') forms.push('\\+');
  }
  return forms.length === 1 ? forms[0]! : `(?:${forms.join('|')})`;
}

function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const out = new Set<string>();
  // The secret at each of the three alignments inside a longer base64 text: drop the characters that depend on
  // the bytes around it.
  for (let shift = 0; shift < 3; shift++) {
    const padded = Buffer.concat([Buffer.alloc(shift), bytes]);
    const full = padded.toString('base64').replace(/=+$/, '');
    const start = shift === 0 ? 0 : Math.ceil((shift * 4) / 3);
    const end = Math.floor((padded.length * 4) / 3);
    const core = full.slice(start, Math.max(start, end));
    if (core.length >= FRAGMENT) {
      out.add(core);
      out.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...out];
}

function encodedPattern(secret: string): string {
  const chars = Array.from(secret).map(encodedChar).join('');
  const hex = Buffer.from(secret, 'utf8').toString('hex');
  return [chars, ...base64Forms(secret).map(escapeRegExp), hex, hex.toUpperCase()].join('|');
}

/** Every fragment of a secret to look for: the whole, and (long keys) the head and tail servers echo when masking. */
function fragmentsOf(secret: string): string[] {
  const out = [secret];
  if (secret.length >= 2 * FRAGMENT) out.push(secret.slice(0, FRAGMENT), secret.slice(-FRAGMENT));
  return out;
}

/**
 * A redactor for the given secrets: removes every occurrence of each secret and of its head and tail fragments, in
 * every encoding above, then (unless `keyShapes` is false: a model's answer, whose code may hold "key-value" strings)
 * bearer tokens and key-shaped strings.
 */
export function makeRedactor(secrets: readonly (string | undefined)[], options: { keyShapes?: boolean } = {}): Redactor {
  const keys = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length > 0))];
  const fragments = [...new Set(keys.flatMap(fragmentsOf))].sort((a, b) => b.length - a.length);
  const pattern = fragments.length ? new RegExp(fragments.map(encodedPattern).join('|'), 'g') : null;
  return (text: string): string => {
    const out = pattern ? text.replace(pattern, REDACTED) : text;
    return options.keyShapes === false ? out : out.replace(BEARER, `$1${REDACTED}`).replace(KEY_LIKE, REDACTED);
  };
}

/** The forms of a secret the redactor must catch (for tests and for scanning what was written). */
export function encodedForms(secret: string): string[] {
  const json = Array.from(secret).map((c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`).join('');
  const percent = Array.from(Buffer.from(secret, 'utf8')).map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  const html = Array.from(secret).map((c) => `&#${c.codePointAt(0)};`).join('');
  const b64 = Buffer.from(secret, 'utf8').toString('base64');
  return [secret, json, JSON.stringify(json).slice(1, -1), percent, html, b64, b64.replace(/\+/g, '-').replace(/\//g, '_'), Buffer.from(secret).toString('hex')];
}

/** Truncates a body for a record or a message, keeping it readable. */
export function truncate(text: string, max = 2000): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** The URL as it may be shown: no credentials, no query string. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(invalid URL)';
  }
}
