// Index credentials, as pip applies them: user:password written in an index URL, else the netrc entry of the host;
// an index's credentials also go with the files it links on the same host and port (never to another host).
// Every URL that is shown, logged, cached or written into a report goes through displayUrl first.
import { netrcCredentials, type NetrcEntry } from './netrc.js';

export interface BasicCredentials {
  login: string;
  password: string;
}

/** The URL without its user:password (and without any query token named like a secret). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = '';
      u.password = '';
    }
    for (const key of [...u.searchParams.keys()]) {
      if (/token|secret|password|passwd|key|auth|signature/i.test(key)) u.searchParams.set(key, '***');
    }
    return u.href;
  } catch {
    // Not a URL: strip anything that looks like userinfo.
    return url.replace(/\/\/[^/@\s]*@/g, '//');
  }
}

/** Replaces every credential-bearing URL inside a message (an error a library made from a URL, say). */
export function redactUrls(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, (u) => displayUrl(u));
}

/** A URL's origin as credentials are scoped: scheme, host and port. */
export function originOf(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`.toLowerCase();
}

export class CredentialStore {
  private readonly byOrigin = new Map<string, BasicCredentials>();

  constructor(private readonly netrc: readonly NetrcEntry[] = []) {}

  /** Remembers the credentials written in an index URL for its origin; returns the URL without them. */
  register(url: string): string {
    const u = new URL(url);
    if (u.username || u.password) {
      const origin = originOf(url);
      if (!this.byOrigin.has(origin)) this.byOrigin.set(origin, { login: decodeURIComponent(u.username), password: decodeURIComponent(u.password) });
      u.username = '';
      u.password = '';
    }
    return u.href;
  }

  /** The credentials for a request URL: its own, an index's on the same origin, else netrc's for its host. */
  for(url: string): BasicCredentials | undefined {
    const u = new URL(url);
    if (u.username || u.password) return { login: decodeURIComponent(u.username), password: decodeURIComponent(u.password) };
    return this.byOrigin.get(originOf(url)) ?? netrcCredentials(this.netrc, u.hostname);
  }
}

export function basicAuthorization(c: BasicCredentials): string {
  return `Basic ${Buffer.from(`${c.login}:${c.password}`, 'utf8').toString('base64')}`;
}
