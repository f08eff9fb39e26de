// A project's page of a package index's simple API, as plain data: PEP 691 JSON or PEP 503 HTML in, the files it
// lists out (absolute URL, hashes, PEP 592 yanked, Requires-Python), each with what its name says (wheel tags or
// sdist, the version). Pure: the page's text and URL arrive as arguments.
import { normalizeDistributionName } from '../core/library-names.js';
import { isValidVersion } from '../core/versions.js';

export const PEP691_JSON = 'application/vnd.pypi.simple.v1+json';
/** What a client that reads both formats asks for (PEP 691's content negotiation), JSON first. */
export const SIMPLE_ACCEPT = `${PEP691_JSON}, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.1`;

export interface WheelTag {
  python: string;
  abi: string;
  platform: string;
}

export interface ProjectFile {
  filename: string;
  /** Absolute URL, without the hash fragment. */
  url: string;
  /** Lower-case hex digests by algorithm name (sha256, …), from the JSON hashes or the HTML URL fragment. */
  hashes: Record<string, string>;
  requiresPython: string | null;
  /** PEP 592: false, or the reason given (true without one is ''). */
  yanked: false | string;
  size: number | null;
  uploadTime: string | null;
  kind: 'wheel' | 'sdist';
  version: string;
  /** Wheel tags (expanded from compressed tag sets); empty for an sdist. */
  tags: WheelTag[];
}

export interface ProjectPage {
  project: string;
  files: ProjectFile[];
  /** Files the page lists that are neither a wheel nor an sdist of this project (eggs, installers), by name. */
  ignored: string[];
}

export class PageFormatError extends Error {}

const SDIST_SUFFIXES = ['.tar.gz', '.tgz', '.tar.bz2', '.tar.xz', '.zip'];

/** What a file name says: a wheel (PEP 427 name with its tags) or an sdist of `project`, and its version. */
export function parseFilename(filename: string, project: string): Pick<ProjectFile, 'kind' | 'version' | 'tags'> | null {
  const lower = filename.toLowerCase();
  const wanted = normalizeDistributionName(project);
  if (lower.endsWith('.whl')) {
    const parts = filename.slice(0, -4).split('-');
    if (parts.length !== 5 && parts.length !== 6) return null;
    if (normalizeDistributionName(parts[0]!) !== wanted) return null;
    const [python, abi, platform] = parts.slice(-3) as [string, string, string];
    const tags: WheelTag[] = [];
    for (const p of python.split('.')) for (const a of abi.split('.')) for (const pl of platform.split('.')) tags.push({ python: p, abi: a, platform: pl });
    return isValidVersion(parts[1]!) ? { kind: 'wheel', version: parts[1]!, tags } : null;
  }
  const suffix = SDIST_SUFFIXES.find((s) => lower.endsWith(s));
  if (!suffix) return null;
  const stem = filename.slice(0, -suffix.length);
  // Legacy sdist names keep the project's own spelling, dashes included ("python-dateutil-2.8.2.tar.gz"): the
  // version is what follows the project's name.
  for (let i = stem.indexOf('-'); i > 0; i = stem.indexOf('-', i + 1)) {
    if (normalizeDistributionName(stem.slice(0, i)) !== wanted) continue;
    const version = stem.slice(i + 1);
    return isValidVersion(version) ? { kind: 'sdist', version, tags: [] } : null;
  }
  return null;
}

function splitHash(url: string): { url: string; hashes: Record<string, string> } {
  const hashAt = url.indexOf('#');
  if (hashAt < 0) return { url, hashes: {} };
  const fragment = url.slice(hashAt + 1);
  const m = /^([a-z0-9_]+)=([0-9a-fA-F]+)$/.exec(fragment);
  return { url: url.slice(0, hashAt), hashes: m ? { [m[1]!.toLowerCase()]: m[2]!.toLowerCase() } : {} };
}

function absolute(href: string, base: string): string {
  try {
    return new URL(href, base).href;
  } catch {
    throw new PageFormatError(`a file link is not a URL: ${href.slice(0, 200)}`);
  }
}

function toFile(raw: Omit<ProjectFile, 'kind' | 'version' | 'tags'>, project: string, page: ProjectPage): void {
  const named = parseFilename(raw.filename, project);
  if (!named) {
    page.ignored.push(raw.filename);
    return;
  }
  page.files.push({ ...raw, ...named });
}

/** Reads a PEP 691 JSON project page (api-version 1.x). */
export function parseJsonPage(text: string, pageUrl: string, project: string): ProjectPage {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new PageFormatError(`not JSON: ${(e as Error).message}`);
  }
  const o = json as { meta?: { 'api-version'?: unknown }; files?: unknown };
  if (typeof o !== 'object' || o === null || !Array.isArray(o.files)) throw new PageFormatError('not a PEP 691 project page (no "files" list)');
  const apiVersion = String(o.meta?.['api-version'] ?? '1.0');
  if (!/^1(\.|$)/.test(apiVersion)) throw new PageFormatError(`simple API version ${apiVersion}; this anachron reads 1.x`);
  const page: ProjectPage = { project: normalizeDistributionName(project), files: [], ignored: [] };
  for (const f of o.files as Record<string, unknown>[]) {
    if (typeof f?.filename !== 'string' || typeof f.url !== 'string') continue;
    const { url, hashes: fromFragment } = splitHash(absolute(f.url, pageUrl));
    const hashes: Record<string, string> = { ...fromFragment };
    if (f.hashes && typeof f.hashes === 'object') {
      for (const [k, v] of Object.entries(f.hashes as Record<string, unknown>)) if (typeof v === 'string') hashes[k.toLowerCase()] = v.toLowerCase();
    }
    const yanked = f.yanked === true ? '' : typeof f.yanked === 'string' ? f.yanked : false;
    toFile(
      {
        filename: f.filename,
        url,
        hashes,
        requiresPython: typeof f['requires-python'] === 'string' ? (f['requires-python'] as string) : null,
        yanked,
        size: typeof f.size === 'number' ? f.size : null,
        uploadTime: typeof f['upload-time'] === 'string' ? (f['upload-time'] as string) : null,
      },
      project,
      page,
    );
  }
  return page;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (all, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return ENTITIES[name.toLowerCase()] ?? all;
  });
}

function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (const m of tag.matchAll(re)) out.set(m[1]!.toLowerCase(), decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  return out;
}

/** Reads a PEP 503 HTML project page: one anchor per file, PEP 592's data-yanked, data-requires-python. */
export function parseHtmlPage(text: string, pageUrl: string, project: string): ProjectPage {
  const page: ProjectPage = { project: normalizeDistributionName(project), files: [], ignored: [] };
  const baseTag = /<base\s([^>]*)>/i.exec(text);
  const base = baseTag ? absolute(attributes(baseTag[1]!).get('href') ?? pageUrl, pageUrl) : pageUrl;
  for (const m of text.matchAll(/<a\s([^>]*)>([\s\S]*?)<\/a\s*>/gi)) {
    const attrs = attributes(m[1]!);
    const href = attrs.get('href');
    if (!href) continue;
    const { url, hashes } = splitHash(absolute(href, base));
    const shown = decodeEntities(m[2]!.replace(/<[^>]*>/g, '')).trim();
    const filename = shown || decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    const yanked = attrs.has('data-yanked') ? attrs.get('data-yanked')! : false;
    toFile({ filename, url, hashes, requiresPython: attrs.get('data-requires-python') ?? null, yanked, size: null, uploadTime: null }, project, page);
  }
  return page;
}

/** A page in whichever format the server answered with (its Content-Type). */
export function parseProjectPage(text: string, contentType: string, pageUrl: string, project: string): ProjectPage {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === PEP691_JSON || type === 'application/vnd.pypi.simple.latest+json') return parseJsonPage(text, pageUrl, project);
  if (type === 'text/html' || type === 'application/vnd.pypi.simple.v1+html' || type === 'application/vnd.pypi.simple.latest+html' || type === '') return parseHtmlPage(text, pageUrl, project);
  if (type === 'application/json') return parseJsonPage(text, pageUrl, project);
  throw new PageFormatError(`the index answered with ${type}, neither PEP 691 JSON nor PEP 503 HTML`);
}
