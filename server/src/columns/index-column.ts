// One version column from a package index, statically: the release's file (a pure-Python wheel, else another
// wheel, else the sdist) downloaded and verified by its sha256, its top-level modules read from it, the static
// extractor (python-probe/static.py --source FILE, one implementation for the offline build and this) run over it
// per module, the release's other top-level packages read from the same file where one imports from another —
// nothing built, nothing of the release executed — and the surfaces added to the user's matrix store with their
// provenance (index, file, sha256). A failure leaves the store as it was; a file that cannot be read is removed from
// the cache.
import { normalizeDistributionName } from '../core/library-names.js';
import { versionsEqual } from '../core/versions.js';
import { readReleaseModules, runProbe } from '../environments/python-probe-runner.js';
import { IndexError, type IndexClient, type ProjectReleases } from '../package-index/client.js';
import { byteSize } from '../package-index/byte-size.js';
import { chooseFile, releaseAt } from '../package-index/release-files.js';
import type { ProjectFile } from '../package-index/simple-api.js';
import type { Surface } from '../store/surface.js';
import type { ColumnRecord, UserMatrixStore } from '../store/user-store.js';

export interface ColumnDeps {
  client: IndexClient;
  store: UserMatrixStore;
  /** The interpreter that runs the extractor (any Python 3.8+: it runs only python-probe's own code). */
  python: string;
  signal?: AbortSignal;
  /** One line per step, for the CLI's output and the editor's progress. */
  onStep?: (line: string) => void;
  /** Before a matrix file of the store is replaced (a reader holding it open closes it). */
  beforeReplace?: (library: string) => void;
}

/** A column could not be made from the release: its file is unusable (not the index's fault). */
export class ColumnError extends Error {
  constructor(
    message: string,
    readonly kind: 'unreadable' | 'no-modules' | 'wrong-version' | 'extractor-failed',
  ) {
    super(message);
  }
}


function describeFile(file: ProjectFile): string {
  if (file.kind === 'sdist') return 'sdist';
  return file.tags.every((t) => t.abi === 'none' && t.platform === 'any') ? 'pure-Python wheel' : `wheel for ${file.tags[0]?.platform ?? 'a platform'}`;
}

/** The column of `distribution` at `version`: the store's when it has one from an index, else fetched and made. */
export async function indexColumn(distribution: string, version: string, deps: ColumnDeps, options: { refresh?: boolean } = {}): Promise<{ record: ColumnRecord; made: boolean }> {
  const d = normalizeDistributionName(distribution);
  const existing = deps.store.column(d, version, 'index');
  if (existing && !options.refresh) return { record: existing, made: false };
  const step = (line: string) => deps.onStep?.(line);
  step(`${d} ${version}: resolving on the package index`);
  const releases = await deps.client.project(d, { version, signal: deps.signal });
  const release = releaseAt(releases.releases, version)!;
  if (release.yanked) step(`${d} ${version}: yanked on ${releases.indexShown}${release.yankedReason ? ` (${release.yankedReason})` : ''}; its column is made because the pin names it exactly`);
  const file = chooseFile(release);
  if (!file) throw new IndexError(`${d} ${version} on ${releases.indexShown} has no wheel and no sdist`, 'no-file');
  return { record: await columnFromFile(d, release.version, releases, file, deps), made: true };
}

async function columnFromFile(distribution: string, version: string, releases: ProjectReleases, file: ProjectFile, deps: ColumnDeps): Promise<ColumnRecord> {
  const step = (line: string) => deps.onStep?.(line);
  let lastShown = 0;
  step(`${distribution} ${version}: ${file.filename} (${describeFile(file)}${file.size ? `, ${byteSize(file.size)}` : ''}) from ${releases.indexShown}`);
  const path = await deps.client.download(releases, file, {
    signal: deps.signal,
    onProgress: ({ received, total }) => {
      // A line per 10 MB: enough to see a large file move, not a flood.
      if (received - lastShown >= 10 * 1024 ** 2) {
        lastShown = received;
        step(`${distribution} ${version}: downloaded ${byteSize(received)}${total ? ` of ${byteSize(total)}` : ''}`);
      }
    },
  });
  const sha256 = file.hashes.sha256 ?? '';
  const drop = () => deps.client.forget(releases, file);
  let modules;
  try {
    modules = await readReleaseModules(deps.python, path, deps.signal);
  } catch (e) {
    if (deps.signal?.aborted) throw new IndexError('cancelled', 'cancelled');
    drop();
    throw new ColumnError(`${file.filename} cannot be read: ${(e as Error).message}; it was removed from the cache`, 'unreadable');
  }
  if (modules.version && !versionsEqual(modules.version, version)) {
    drop();
    throw new ColumnError(`${file.filename} says it is version ${modules.version}, not ${version}; nothing was added`, 'wrong-version');
  }
  if (modules.modules.length === 0) throw new ColumnError(`${file.filename} holds no importable Python package or module; nothing was added`, 'no-modules');
  const surfaces: Surface[] = [];
  const failures: string[] = [];
  for (const library of modules.modules) {
    step(`${distribution} ${version}: extracting ${library} (static: read, never run)`);
    try {
      const surface = await runProbe({
        python: deps.python,
        script: 'static.py',
        // The release's other top-level packages are read from the same file where this one imports from them
        // (attrs's `attrs` re-exports `attr`'s names): described as they are defined there, never run.
        args: [library, '--source', path, '--version', version, ...modules.modules.filter((m) => m !== library).flatMap((m) => ['--sibling', m]), '--provenance', `index=${releases.indexShown}`, '--provenance', `file=${file.filename}`, '--provenance', `sha256=${sha256}`, '--provenance', `distribution=${distribution}`],
        signal: deps.signal,
      });
      if (surface.modules.some((m) => m.name === library && m.imported)) surfaces.push(surface);
      else failures.push(`${library}: ${surface.errors.find((e) => e.module === library)?.error ?? 'not found in the file'}`);
    } catch (e) {
      if (deps.signal?.aborted) throw new IndexError('cancelled', 'cancelled');
      failures.push(`${library}: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  if (surfaces.length === 0) throw new ColumnError(`${file.filename}: the extractor read nothing (${failures.join('; ')}); nothing was added`, 'extractor-failed');
  for (const f of failures) step(`${distribution} ${version}: left out ${f}`);
  const record = await deps.store.addColumn({ distribution, version, source: 'index', provenance: { index: releases.indexShown, file: file.filename, sha256 } }, surfaces, deps.beforeReplace);
  step(`${distribution} ${version}: added (${surfaces.map((s) => `${s.library}: ${s.apis.length} APIs`).join(', ')})`);
  return record;
}
