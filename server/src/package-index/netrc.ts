// The netrc file pip and uv read for index credentials (`machine HOST login USER password PASS`, `default`),
// parsed as plain data. Pure: the text arrives as an argument. Credentials found here are never logged or written
// anywhere (credentials.ts keeps them out of every URL shown).

export interface NetrcEntry {
  /** The host the entry is for; null for `default`. */
  machine: string | null;
  login: string;
  password: string;
}

/** Tokens are whitespace-separated; `macdef` bodies (up to an empty line) are skipped; quotes group a token. */
function tokens(text: string): string[] {
  const out: string[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*#/.test(line)) continue;
    const re = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
    for (const m of line.matchAll(re)) {
      const token = m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!;
      if (token === 'macdef') {
        while (i + 1 < lines.length && lines[i + 1]!.trim() !== '') i++;
        break;
      }
      out.push(token);
    }
  }
  return out;
}

export function parseNetrc(text: string): NetrcEntry[] {
  const t = tokens(text);
  const entries: NetrcEntry[] = [];
  let current: NetrcEntry | undefined;
  for (let i = 0; i < t.length; i++) {
    const word = t[i]!;
    if (word === 'machine' || word === 'default') {
      if (current) entries.push(current);
      current = { machine: word === 'machine' ? (t[++i] ?? '').toLowerCase() : null, login: '', password: '' };
    } else if (current && (word === 'login' || word === 'user')) current.login = t[++i] ?? '';
    else if (current && (word === 'password' || word === 'passwd')) current.password = t[++i] ?? '';
    else if (current && word === 'account') i++;
  }
  if (current) entries.push(current);
  return entries;
}

/** The credentials for a host: its own entry, else `default`. */
export function netrcCredentials(entries: readonly NetrcEntry[], host: string): { login: string; password: string } | undefined {
  const h = host.toLowerCase();
  const hit = entries.find((e) => e.machine === h) ?? entries.find((e) => e.machine === null);
  return hit && (hit.login || hit.password) ? { login: hit.login, password: hit.password } : undefined;
}
