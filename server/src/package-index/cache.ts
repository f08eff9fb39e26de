// What was fetched from package indexes, kept on disk: project pages (per index, with when they were read) and the
// release files (verified by their sha256 before use, each with a note of where it came from). A size limit is
// kept by removing the least recently used files. The files' layout, `releases/PROJECT/FILENAME`, is the one the
// offline bulk build's reader uses (python-probe/anachron_probe/releases/index.py), so the two share downloads.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { normalizeDistributionName } from '../core/library-names.js';

type Env = Record<string, string | undefined>;

/** ANACHRON_CACHE, else the platform's cache folder + anachron. */
export function defaultCacheRoot(env: Env = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.ANACHRON_CACHE) return env.ANACHRON_CACHE;
  const home = env.HOME || env.USERPROFILE || homedir();
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'anachron', 'Cache');
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'anachron');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'anachron');
}

export const DEFAULT_CACHE_LIMIT_BYTES = 2 * 1024 ** 3;

export interface CachedPage {
  /** The index, as shown (no credentials). */
  index: string;
  /** The page's URL after redirects (relative links resolve against it), as shown. */
  url: string;
  contentType: string;
  text: string;
  /** When it was read (ms since the epoch). */
  fetchedAt: number;
}

export interface FileNote {
  sha256: string;
  bytes: number;
  index: string;
  url: string;
  downloadedAt: number;
}

export interface CachedFile extends FileNote {
  project: string;
  filename: string;
  path: string;
  /** Last used (the file's modification time, touched on every use). */
  usedAt: number;
}

const NOTE_SUFFIX = '.anachron.json';

export function sha256OfFile(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash('sha256');
    createReadStream(file)
      .on('data', (c) => h.update(c))
      .on('end', () => resolve(h.digest('hex')))
      .on('error', reject);
  });
}

function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.tmp${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

const safeName = (name: string) => /^[A-Za-z0-9._+-]+$/.test(name) && name !== '.' && name !== '..';

export class IndexCache {
  readonly releasesFolder: string;
  readonly pagesFolder: string;

  constructor(
    readonly root: string,
    readonly limitBytes = DEFAULT_CACHE_LIMIT_BYTES,
  ) {
    this.releasesFolder = join(root, 'releases');
    this.pagesFolder = join(root, 'index-pages');
  }

  private pageFile(index: string, project: string): string {
    const key = createHash('sha256').update(index).digest('hex').slice(0, 16);
    return join(this.pagesFolder, key, `${normalizeDistributionName(project)}.json`);
  }

  readPage(index: string, project: string): CachedPage | undefined {
    try {
      const page = JSON.parse(readFileSync(this.pageFile(index, project), 'utf8')) as CachedPage;
      return page.index === index && typeof page.text === 'string' ? page : undefined;
    } catch {
      return undefined;
    }
  }

  writePage(page: CachedPage, project: string): void {
    const file = this.pageFile(page.index, project);
    mkdirSync(join(file, '..'), { recursive: true });
    writeAtomic(file, JSON.stringify(page));
  }

  /** Where a release file lives in the cache; throws for a name that could leave the folder. */
  filePath(project: string, filename: string): string {
    if (!safeName(filename)) throw new Error(`refusing a release file named ${JSON.stringify(filename)}`);
    return join(this.releasesFolder, normalizeDistributionName(project), filename);
  }

  /** The cached file when its bytes have the sha256 wanted (or any file, when no hash is known); touched. */
  async verifiedFile(project: string, filename: string, sha256: string | null): Promise<string | undefined> {
    const path = this.filePath(project, filename);
    if (!existsSync(path)) return undefined;
    if (sha256 && (await sha256OfFile(path)) !== sha256) return undefined;
    const now = new Date();
    try {
      utimesSync(path, now, now);
    } catch {
      // a read-only cache still serves
    }
    return path;
  }

  /** Records where a downloaded file came from (for `matrix cache list`). */
  noteFile(project: string, filename: string, note: FileNote): void {
    writeAtomic(`${this.filePath(project, filename)}${NOTE_SUFFIX}`, JSON.stringify(note));
  }

  removeFile(project: string, filename: string): void {
    const path = this.filePath(project, filename);
    rmSync(path, { force: true });
    rmSync(`${path}${NOTE_SUFFIX}`, { force: true });
  }

  files(): CachedFile[] {
    const out: CachedFile[] = [];
    if (!existsSync(this.releasesFolder)) return out;
    for (const project of readdirSync(this.releasesFolder).sort()) {
      const dir = join(this.releasesFolder, project);
      let names: string[];
      try {
        if (!statSync(dir).isDirectory()) continue;
        names = readdirSync(dir);
      } catch {
        continue;
      }
      for (const filename of names.sort()) {
        if (filename.endsWith(NOTE_SUFFIX) || filename.includes('.part') || filename.includes('.tmp')) continue;
        const path = join(dir, filename);
        let st;
        try {
          st = statSync(path);
        } catch {
          continue;
        }
        if (!st.isFile()) continue;
        let note: Partial<FileNote> = {};
        try {
          note = JSON.parse(readFileSync(`${path}${NOTE_SUFFIX}`, 'utf8')) as FileNote;
        } catch {
          // a file the bulk build downloaded has no note
        }
        out.push({ project, filename, path, sha256: note.sha256 ?? '', bytes: st.size, index: note.index ?? '', url: note.url ?? '', downloadedAt: note.downloadedAt ?? st.birthtimeMs, usedAt: st.mtimeMs });
      }
    }
    return out;
  }

  pagesBytes(): number {
    let total = 0;
    if (!existsSync(this.pagesFolder)) return 0;
    for (const key of readdirSync(this.pagesFolder)) {
      const dir = join(this.pagesFolder, key);
      try {
        for (const f of readdirSync(dir)) total += statSync(join(dir, f)).size;
      } catch {
        // not a folder
      }
    }
    return total;
  }

  /**
   * Removes the least recently used files until the cache fits `limit` bytes (the files in `keep` stay);
   * `all` empties it, pages included. Returns what was removed.
   */
  prune(options: { limit?: number; all?: boolean; keep?: readonly string[] } = {}): CachedFile[] {
    const limit = options.all ? 0 : (options.limit ?? this.limitBytes);
    const files = this.files().sort((a, b) => a.usedAt - b.usedAt);
    let total = files.reduce((n, f) => n + f.bytes, 0) + this.pagesBytes();
    const removed: CachedFile[] = [];
    for (const f of files) {
      if (total <= limit) break;
      if (options.keep?.includes(f.path)) continue;
      this.removeFile(f.project, f.filename);
      total -= f.bytes;
      removed.push(f);
    }
    if (options.all) rmSync(this.pagesFolder, { recursive: true, force: true });
    return removed;
  }
}
