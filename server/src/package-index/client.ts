// The package index client the product uses (the CLI's `matrix fetch`, the editor's automatic columns): a
// project's releases from the first configured index that has the project, through its simple API (PEP 691 JSON
// asked for first, PEP 503 HTML understood), and a release file downloaded into the cache and verified against the
// hash the index gives. Offline, only what the cache holds is used. Nothing here logs or keeps a credential: URLs
// are shown through displayUrl.
import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { normalizeDistributionName } from '../core/library-names.js';
import { byteSize } from './byte-size.js';
import type { IndexCache } from './cache.js';
import { CredentialStore, displayUrl, redactUrls } from './credentials.js';
import { download, getText, HttpError, type HttpOptions } from './http.js';
import { indexesFor, type IndexConfig, type IndexSource } from './index-config.js';
import type { NetrcEntry } from './netrc.js';
import { releaseAt, releasesOf, type Release } from './release-files.js';
import { PageFormatError, parseProjectPage, SIMPLE_ACCEPT, type ProjectFile, type ProjectPage } from './simple-api.js';

export type IndexErrorKind = 'no-project' | 'no-version' | 'no-file' | 'unreachable' | 'index-failed' | 'bad-page' | 'hash-mismatch' | 'no-hash' | 'offline' | 'too-large' | 'cancelled';

/** A fetch that could not be done, with a message for people (no credentials in it). */
export class IndexError extends Error {
  constructor(
    message: string,
    readonly kind: IndexErrorKind,
  ) {
    super(redactUrls(message));
  }
}

export interface ClientOptions {
  config: IndexConfig;
  cache: IndexCache;
  netrc?: NetrcEntry[];
  /** Use only what the cache holds. */
  offline?: boolean;
  env?: Record<string, string | undefined>;
  /** Pages younger than this are not read again (a pinned version missing from one is read again anyway). */
  pageMaxAgeMs?: number;
  /** The largest release file downloaded. */
  maxFileBytes?: number;
  /** Files without a sha256 on the index page are refused unless this is set (pip's behaviour is to accept them). */
  requireHashes?: boolean;
  log?: (line: string) => void;
}

export interface ProjectReleases {
  index: IndexSource;
  /** The index as shown: no credentials. */
  indexShown: string;
  page: ProjectPage;
  releases: Release[];
  /** The page came from the cache (offline, or young enough). */
  fromCache: boolean;
}

export interface DownloadProgress {
  received: number;
  total: number | null;
}

const DEFAULT_PAGE_AGE_MS = 60 * 60_000;
const DEFAULT_MAX_FILE_BYTES = 512 * 1024 ** 2;

export class IndexClient {
  private readonly credentials: CredentialStore;
  private readonly pages = new Map<string, ProjectReleases>();

  constructor(private readonly options: ClientOptions) {
    this.credentials = new CredentialStore(options.netrc ?? []);
    for (const s of [...options.config.searchOrder, ...options.config.assigned.values()]) this.credentials.register(s.url);
  }

  get offline(): boolean {
    return this.options.offline === true;
  }

  private http(signal?: AbortSignal): HttpOptions {
    const c = this.options.config;
    return { credentials: this.credentials, proxy: c.proxy, env: this.options.env, caFile: c.caFile, trustedHosts: c.trustedHosts, idleTimeoutMs: c.timeoutSeconds * 1000, signal };
  }

  private async readPage(index: IndexSource, project: string, refresh: boolean, signal?: AbortSignal): Promise<ProjectReleases | null> {
    const shown = displayUrl(index.url);
    const cached = this.options.cache.readPage(shown, project);
    const age = cached ? Date.now() - cached.fetchedAt : Infinity;
    if (cached && (this.offline || (!refresh && age < (this.options.pageMaxAgeMs ?? DEFAULT_PAGE_AGE_MS)))) {
      return { index, indexShown: shown, page: parseProjectPage(cached.text, cached.contentType, cached.url, project), releases: [], fromCache: true };
    }
    if (this.offline) return null;
    const url = `${this.credentials.register(index.url)}/${normalizeDistributionName(project)}/`;
    try {
      const answer = await getText(url, { ...this.http(signal), accept: SIMPLE_ACCEPT, maxBytes: 64 << 20 });
      const page = parseProjectPage(answer.text, answer.contentType, answer.url, project);
      this.options.cache.writePage({ index: shown, url: displayUrl(answer.url), contentType: answer.contentType, text: answer.text, fetchedAt: Date.now() }, project);
      return { index, indexShown: shown, page, releases: [], fromCache: false };
    } catch (e) {
      if (e instanceof HttpError && e.status === 404) return null;
      if (e instanceof HttpError && e.kind === 'cancelled') throw new IndexError('cancelled', 'cancelled');
      if (e instanceof PageFormatError) throw new IndexError(`${shown}: the page of ${project} cannot be read: ${e.message}`, 'bad-page');
      if (e instanceof HttpError && e.status !== null) throw new IndexError(e.message, 'index-failed');
      if (e instanceof HttpError) {
        // Unreachable: a page read before still answers, said as such.
        if (cached) {
          this.options.log?.(`${(e as Error).message}; using the page of ${project} read ${Math.round(age / 60_000)} min ago`);
          return { index, indexShown: shown, page: parseProjectPage(cached.text, cached.contentType, cached.url, project), releases: [], fromCache: true };
        }
        throw new IndexError(e.message, e.kind === 'timeout' ? 'unreachable' : 'unreachable');
      }
      throw e;
    }
  }

  /**
   * The releases of a distribution, from the first index (in the configured order) whose page lists it. With
   * `version`, an index whose page lacks that version is passed over (and a cached page read again first).
   */
  async project(distribution: string, options: { version?: string; signal?: AbortSignal } = {}): Promise<ProjectReleases> {
    const project = normalizeDistributionName(distribution);
    const key = `${project}\0${options.version ?? ''}`;
    const known = this.pages.get(key);
    if (known) return known;
    const asked: string[] = [];
    let sawProject: ProjectReleases | undefined;
    for (const index of indexesFor(this.options.config, project)) {
      asked.push(displayUrl(index.url));
      let found = await this.readPage(index, project, false, options.signal);
      if (found && options.version && !releaseAt(releasesOf(found.page), options.version) && found.fromCache && !this.offline) {
        found = await this.readPage(index, project, true, options.signal);
      }
      if (!found) continue;
      const result = { ...found, releases: releasesOf(found.page) };
      sawProject ??= result;
      if (options.version && !releaseAt(result.releases, options.version)) continue;
      this.pages.set(key, result);
      return result;
    }
    const where = asked.length === 1 ? asked[0] : `any of ${asked.join(', ')}`;
    if (sawProject && options.version) {
      const finals = sawProject.releases.filter((r) => !r.yanked).map((r) => r.version);
      throw new IndexError(`${project} ${options.version} is not on ${where}${finals.length ? ` (it has ${finals.length > 5 ? '…, ' : ''}${finals.slice(-5).join(', ')})` : ''}`, 'no-version');
    }
    if (this.offline) throw new IndexError(`${project}: offline, and no page of it is cached from ${where}`, 'offline');
    throw new IndexError(`${project} is not on ${where} (HTTP 404)`, 'no-project');
  }

  /**
   * The local path of a release file: the cached copy when its sha256 matches the index's, else downloaded and
   * verified. A file whose bytes do not match is deleted, never kept.
   */
  async download(releases: ProjectReleases, file: ProjectFile, options: { signal?: AbortSignal; onProgress?: (p: DownloadProgress) => void } = {}): Promise<string> {
    const project = releases.page.project;
    const sha256 = file.hashes.sha256 ?? null;
    if (!sha256 && this.options.requireHashes) throw new IndexError(`${file.filename}: the index gives no sha256 for it; refusing an unverifiable file`, 'no-hash');
    const cached = await this.options.cache.verifiedFile(project, file.filename, sha256);
    if (cached) return cached;
    if (this.offline) throw new IndexError(`${file.filename}: offline, and not in the cache`, 'offline');
    const path = this.options.cache.filePath(project, file.filename);
    mkdirSync(dirname(path), { recursive: true });
    let got: { sha256: string; bytes: number };
    try {
      got = await download(file.url, path, {
        ...this.http(options.signal),
        maxBytes: this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
        onProgress: (received, total) => options.onProgress?.({ received, total }),
      });
    } catch (e) {
      if (e instanceof HttpError) {
        const kind: IndexErrorKind = e.kind === 'cancelled' ? 'cancelled' : e.kind === 'too-large' ? 'too-large' : e.status !== null ? 'index-failed' : 'unreachable';
        throw new IndexError(e.kind === 'cancelled' ? 'cancelled' : e.message, kind);
      }
      throw e;
    }
    if (sha256 && got.sha256 !== sha256) {
      rmSync(path, { force: true });
      throw new IndexError(`${file.filename} from ${releases.indexShown}: its sha256 is ${got.sha256}, the index says ${sha256}; the file was deleted, not used`, 'hash-mismatch');
    }
    this.options.cache.noteFile(project, file.filename, { sha256: got.sha256, bytes: got.bytes, index: releases.indexShown, url: displayUrl(file.url), downloadedAt: Date.now() });
    const removed = this.options.cache.prune({ keep: [path] });
    if (removed.length) this.options.log?.(`cache: removed ${removed.length} least recently used file${removed.length === 1 ? '' : 's'} to stay under ${byteSize(this.options.cache.limitBytes)}`);
    return path;
  }

  /** Drops a cached release file that turned out unusable (a truncated archive the index's hash vouched for). */
  forget(releases: ProjectReleases, file: ProjectFile): void {
    this.options.cache.removeFile(releases.page.project, file.filename);
  }
}
