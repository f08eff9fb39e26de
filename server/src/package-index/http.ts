// HTTP(S) GETs for the package index, on Node's own http/https (no dependency): the proxies of the environment
// (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY, NO_PROXY, any case, or pip's `proxy` option) — plain http through the proxy,
// https through a CONNECT tunnel — basic auth that never leaves its origin, a custom CA bundle or hosts whose
// certificate is not checked (pip's cert / trusted-host), redirects, an idle timeout, a size cap, cancellation and
// progress. Errors are HttpError with a message that leads with the fact and shows no credential.
import { createHash } from 'node:crypto';
import { createWriteStream, readFileSync, renameSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
import * as tls from 'node:tls';
import { basicAuthorization, displayUrl, originOf, type CredentialStore } from './credentials.js';

export interface HttpOptions {
  credentials?: CredentialStore;
  /** A proxy URL for every request (pip's `proxy`), else the environment's. */
  proxy?: string | null;
  env?: Record<string, string | undefined>;
  /** PEM file of the certificate authorities to trust instead of Node's bundled ones. */
  caFile?: string | null;
  /** Hosts (host or host:port) whose TLS certificate is not verified. */
  trustedHosts?: readonly string[];
  /** No bytes for this long (connecting, waiting or reading): the request fails. */
  idleTimeoutMs?: number;
  signal?: AbortSignal;
}

export interface GetOptions extends HttpOptions {
  accept?: string;
  maxBytes?: number;
  onProgress?: (received: number, total: number | null) => void;
}

export class HttpError extends Error {
  constructor(
    message: string,
    /** The status code for an HTTP answer; null when no answer came (network, timeout, TLS). */
    readonly status: number | null,
    readonly kind: 'status' | 'network' | 'timeout' | 'too-large' | 'cancelled' | 'redirects',
  ) {
    super(message);
  }
}

const MAX_REDIRECTS = 10;

function envValue(env: Record<string, string | undefined>, name: string): string | undefined {
  const v = env[name.toLowerCase()] ?? env[name.toUpperCase()];
  return v && v.trim() ? v.trim() : undefined;
}

/** NO_PROXY: comma or space separated hosts, domain suffixes (.corp or corp), host:port, `*`. */
export function bypassesProxy(url: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[\s,]+/)) {
    let entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    let entryPort: string | undefined;
    const bracketed = /^\[(.*)\](?::(\d+))?$/.exec(entry);
    const withPort = /^([^:]+):(\d+)$/.exec(entry);
    if (bracketed) [entry, entryPort] = [bracketed[1]!, bracketed[2]];
    else if (withPort) [entry, entryPort] = [withPort[1]!, withPort[2]];
    entry = entry.replace(/^\*?\./, '.');
    if (entryPort && entryPort !== port) continue;
    if (host === entry.replace(/^\./, '') || (entry.startsWith('.') ? host.endsWith(entry) : host.endsWith(`.${entry}`))) return true;
  }
  return false;
}

/** The proxy for a URL, or null for a direct connection. */
export function proxyFor(url: URL, options: Pick<HttpOptions, 'proxy' | 'env'>): URL | null {
  const env = options.env ?? process.env;
  if (bypassesProxy(url, envValue(env, 'no_proxy'))) return null;
  const chosen = options.proxy ?? (url.protocol === 'https:' ? envValue(env, 'https_proxy') : envValue(env, 'http_proxy')) ?? envValue(env, 'all_proxy');
  if (!chosen) return null;
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(chosen) ? chosen : `http://${chosen}`);
  } catch {
    throw new HttpError(`the proxy setting is not a URL: ${displayUrl(chosen)}`, null, 'network');
  }
}

const caCache = new Map<string, Buffer>();
function readCa(file: string): Buffer {
  let ca = caCache.get(file);
  if (!ca) {
    try {
      ca = readFileSync(file);
    } catch (e) {
      throw new HttpError(`cannot read the certificate bundle ${file}: ${(e as Error).message}`, null, 'network');
    }
    caCache.set(file, ca);
  }
  return ca;
}

function tlsOptions(url: URL, options: HttpOptions): tls.ConnectionOptions {
  const trusted = (options.trustedHosts ?? []).some((h) => {
    const t = h.toLowerCase();
    return t === url.hostname.toLowerCase() || t === url.host.toLowerCase();
  });
  return { servername: url.hostname.replace(/^\[|\]$/g, ''), ...(options.caFile ? { ca: readCa(options.caFile) } : {}), ...(trusted ? { rejectUnauthorized: false } : {}) };
}

function proxyAuthorization(proxy: URL): Record<string, string> {
  return proxy.username || proxy.password ? { 'proxy-authorization': basicAuthorization({ login: decodeURIComponent(proxy.username), password: decodeURIComponent(proxy.password) }) } : {};
}

/** A TLS socket to `url`'s host through an HTTP proxy's CONNECT tunnel. */
function tunnel(url: URL, proxy: URL, options: HttpOptions): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const port = url.port || '443';
    const agent = proxy.protocol === 'https:' ? https : http;
    const req = agent.request({
      host: proxy.hostname,
      port: proxy.port || (proxy.protocol === 'https:' ? 443 : 80),
      method: 'CONNECT',
      path: `${url.hostname}:${port}`,
      headers: { host: `${url.hostname}:${port}`, ...proxyAuthorization(proxy) },
      timeout: options.idleTimeoutMs ?? 30_000,
    });
    req.once('connect', (res, socket: Socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        reject(new HttpError(`the proxy ${displayUrl(proxy.href)} refused to connect to ${url.host}: HTTP ${res.statusCode}${res.statusCode === 407 ? ' (proxy authentication required)' : ''}`, res.statusCode ?? null, 'network'));
        return;
      }
      const secure = tls.connect({ socket, ...tlsOptions(url, options) });
      secure.once('secureConnect', () => resolve(secure));
      secure.once('error', (e) => reject(e));
    });
    req.once('timeout', () => req.destroy(new HttpError(`no answer from the proxy ${displayUrl(proxy.href)} in ${(options.idleTimeoutMs ?? 30_000) / 1000} s`, null, 'timeout')));
    req.once('error', reject);
    req.end();
  });
}

function describeNetworkError(e: unknown, url: URL, proxy: URL | null): HttpError {
  if (e instanceof HttpError) return e;
  const err = e as NodeJS.ErrnoException;
  const via = proxy ? ` (through the proxy ${displayUrl(proxy.href)})` : '';
  const where = displayUrl(url.href);
  switch (err.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new HttpError(`cannot reach ${where}${via}: the host ${proxy ? proxy.hostname : url.hostname} is not known`, null, 'network');
    case 'ECONNREFUSED':
      return new HttpError(`cannot reach ${where}${via}: connection refused`, null, 'network');
    case 'ECONNRESET':
      return new HttpError(`${where}${via}: the connection was closed before the answer was complete`, null, 'network');
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return new HttpError(`${where}: its TLS certificate is not trusted (${err.code}); give the CA bundle as pip does (PIP_CERT, cert in pip.conf, or SSL_CERT_FILE)`, null, 'network');
    default:
      return new HttpError(`${where}${via}: ${err.message ?? String(e)}`, null, 'network');
  }
}

interface Answer {
  res: http.IncomingMessage;
  url: URL;
}

/** One GET, redirects followed; resolves with the final 2xx answer (its body unread), rejects with HttpError. */
async function get(start: string, options: GetOptions): Promise<Answer> {
  let url = new URL(start);
  const firstOrigin = originOf(url.href);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (options.signal?.aborted) throw new HttpError('cancelled', null, 'cancelled');
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HttpError(`${displayUrl(url.href)}: only http and https URLs can be read`, null, 'network');
    const proxy = proxyFor(url, options);
    // Credentials go only to their own origin: a redirect to a CDN carries none.
    const creds = originOf(url.href) === firstOrigin || hop === 0 ? options.credentials?.for(url.href) : undefined;
    const headers: Record<string, string> = { 'user-agent': 'anachron (package index client)', accept: options.accept ?? '*/*', 'accept-encoding': 'identity' };
    if (creds) headers.authorization = basicAuthorization(creds);
    const bare = new URL(url.href);
    bare.username = '';
    bare.password = '';
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const onAbort = () => req?.destroy(new HttpError('cancelled', null, 'cancelled'));
      let req: http.ClientRequest | undefined;
      const timeout = options.idleTimeoutMs ?? 30_000;
      const done = (f: () => void) => {
        options.signal?.removeEventListener('abort', onAbort);
        f();
      };
      const onResponse = (r: http.IncomingMessage) => done(() => resolve(r));
      const onError = (e: unknown) => done(() => reject(describeNetworkError(e, url, proxy)));
      const make = (socket?: tls.TLSSocket) => {
        if (proxy && url.protocol === 'http:') {
          req = (proxy.protocol === 'https:' ? https : http).request({ host: proxy.hostname, port: proxy.port || (proxy.protocol === 'https:' ? 443 : 80), path: bare.href, method: 'GET', headers: { ...headers, host: url.host, ...proxyAuthorization(proxy) }, timeout });
        } else if (url.protocol === 'https:') {
          req = https.request({ host: url.hostname, port: url.port || 443, path: `${bare.pathname}${bare.search}`, method: 'GET', headers, timeout, agent: false, ...tlsOptions(url, options), ...(socket ? { createConnection: () => socket } : {}) });
        } else {
          req = http.request({ host: url.hostname, port: url.port || 80, path: `${bare.pathname}${bare.search}`, method: 'GET', headers, timeout, agent: false });
        }
        req.once('response', onResponse);
        req.once('error', onError);
        req.once('timeout', () => req!.destroy(new HttpError(`${displayUrl(url.href)}: no answer in ${timeout / 1000} s`, null, 'timeout')));
        req.end();
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (proxy && url.protocol === 'https:') tunnel(url, proxy, options).then(make, onError);
      else make();
    });
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      url = new URL(res.headers.location, url);
      continue;
    }
    if (status < 200 || status >= 300) {
      res.resume();
      const why = status === 404 ? ' (not found)' : status === 401 || status === 403 ? ' (the index wants credentials: in the index URL, or in netrc)' : status >= 500 ? ' (the index failed; try again later)' : '';
      throw new HttpError(`${displayUrl(url.href)}: HTTP ${status}${why}`, status, 'status');
    }
    return { res, url };
  }
  throw new HttpError(`${displayUrl(start)}: more than ${MAX_REDIRECTS} redirects`, null, 'redirects');
}

/** Streams a body to `sink`, with the idle timeout, size cap, progress and cancellation. */
function pump(answer: Answer, options: GetOptions, sink: (chunk: Buffer) => void): Promise<number> {
  const { res, url } = answer;
  const total = Number(res.headers['content-length']) || null;
  const max = options.maxBytes ?? Infinity;
  if (total !== null && total > max) {
    res.destroy();
    return Promise.reject(new HttpError(`${displayUrl(url.href)}: ${total} bytes, more than the limit of ${max}`, null, 'too-large'));
  }
  return new Promise((resolve, reject) => {
    let received = 0;
    const timeout = options.idleTimeoutMs ?? 30_000;
    let timer = setTimeout(() => res.destroy(new HttpError(`${displayUrl(url.href)}: the download stalled (no data for ${timeout / 1000} s)`, null, 'timeout')), timeout);
    const onAbort = () => res.destroy(new HttpError('cancelled', null, 'cancelled'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (f: () => void) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      f();
    };
    res.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > max) {
        res.destroy(new HttpError(`${displayUrl(url.href)}: more than the limit of ${max} bytes`, null, 'too-large'));
        return;
      }
      clearTimeout(timer);
      timer = setTimeout(() => res.destroy(new HttpError(`${displayUrl(url.href)}: the download stalled (no data for ${timeout / 1000} s)`, null, 'timeout')), timeout);
      sink(chunk);
      options.onProgress?.(received, total);
    });
    res.once('end', () => {
      if (total !== null && received < total) finish(() => reject(new HttpError(`${displayUrl(url.href)}: the answer ended after ${received} of ${total} bytes`, null, 'network')));
      else finish(() => resolve(received));
    });
    res.once('error', (e) => finish(() => reject(e instanceof HttpError ? e : describeNetworkError(e, url, null))));
    res.once('aborted', () => finish(() => reject(new HttpError(`${displayUrl(url.href)}: the connection was closed before the answer was complete`, null, 'network'))));
  });
}

export interface TextAnswer {
  text: string;
  contentType: string;
  /** The URL answered from, after redirects (relative links resolve against it). */
  url: string;
}

export async function getText(url: string, options: GetOptions): Promise<TextAnswer> {
  const answer = await get(url, options);
  const chunks: Buffer[] = [];
  await pump(answer, { maxBytes: 64 << 20, ...options }, (c) => chunks.push(c));
  return { text: Buffer.concat(chunks).toString('utf8'), contentType: String(answer.res.headers['content-type'] ?? ''), url: answer.url.href };
}

/** Downloads to `file` (written as file.part, renamed when complete); returns the bytes' sha256 and size. */
export async function download(url: string, file: string, options: GetOptions): Promise<{ sha256: string; bytes: number }> {
  const answer = await get(url, options);
  const part = `${file}.part${process.pid}`;
  const out = createWriteStream(part);
  const hash = createHash('sha256');
  try {
    const bytes = await pump(answer, options, (chunk) => {
      hash.update(chunk);
      out.write(chunk);
    });
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    renameSync(part, file);
    return { sha256: hash.digest('hex'), bytes };
  } catch (e) {
    out.destroy();
    rmSync(part, { force: true });
    throw e;
  }
}
