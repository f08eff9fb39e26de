// The editor's automatic columns (trusted workspaces, `anachron.fetchColumns` on): for each library an open file
// imports whose pin no matrix covers, the version column is made once — probed in the selected interpreter when that
// is the version it has installed, else read statically from the package index the project is configured for — and
// the findings' "added between" brackets are narrowed by bisection; then every open file is checked again. A pin the
// manifests write that the selected interpreter has installed at that very version is probed there when the index
// gives nothing (unreachable, offline, not on it): a venv that matches the pins covers them. One fetch
// at a time, with progress and cancel (LSP work-done progress); a requirement that failed is not tried again until
// the server restarts (the status item keeps naming it as not checked).
import { dirname } from 'node:path';
import type { Connection } from 'vscode-languageserver/node';
import { ColumnService } from '../columns/column-service.js';
import { boundaryQuestionOf, type BoundaryQuestion } from '../core/boundaries.js';
import type { CoverageEntry } from '../core/coverage.js';
import type { Finding } from '../core/findings.js';
import { versionsEqual } from '../core/versions.js';
import { defaultCacheRoot, IndexCache } from '../package-index/cache.js';
import { IndexError } from '../package-index/client.js';
import { projectFolderOf, readIndexConfig, readNetrc } from '../package-index/index-config-files.js';
import type { LayeredCatalog } from '../store/layered-catalog.js';
import { defaultUserMatricesFolder, UserMatrixStore } from '../store/user-store.js';

export interface AutomaticColumnsOptions {
  connection: Connection;
  catalog(): LayeredCatalog | undefined;
  /** The editor's matrix store (the extension's global storage); the CLI's default store without an editor. */
  userMatricesFolder?: string;
  cacheFolder?: string;
  /** The workspace folder of a file, for the project's index configuration. */
  rootFor(file: string): string | undefined;
  /** The manifests that govern a file (their --index-url lines count). */
  manifestsOf(file: string): string[];
  /** The selected interpreter of a file's folder, when the client sent one (trusted workspaces only). */
  interpreterFor(file: string): string | undefined;
  /** The version of a distribution (normalised name) that interpreter has installed, as the client sent it. */
  installedVersionOf(file: string, distribution: string): string | undefined;
  /** Columns landed: forget remembered verdicts and check the open files again. */
  changed(): void;
  /** The current findings of the open files that import a library (for bisection). */
  findingsFor(library: string): Finding[];
}

export class AutomaticColumns {
  private readonly attempted = new Set<string>();
  private queue: Promise<void> = Promise.resolve();
  private readonly service: ColumnService;

  constructor(private readonly options: AutomaticColumnsOptions) {
    this.service = new ColumnService({
      store: new UserMatrixStore(options.userMatricesFolder ?? defaultUserMatricesFolder()),
      cache: new IndexCache(options.cacheFolder ?? defaultCacheRoot()),
      netrc: readNetrc(),
      offline: process.env.ANACHRON_OFFLINE === '1',
      log: (line) => options.connection.console.info(`anachron: ${line}`),
    });
  }

  /** The store the automatic columns go to. */
  get store(): UserMatrixStore {
    return this.service.store;
  }

  /** Work the file's coverage asks for is queued, once per requirement. */
  consider(file: string, coverage: readonly CoverageEntry[]): void {
    for (const entry of coverage) {
      if (entry.state === 'checked' || !entry.fetch) continue;
      const interpreter = entry.pinKind === 'installed' ? this.options.interpreterFor(file) : undefined;
      const key = `${entry.fetch}\0${interpreter ?? ''}`;
      if (this.attempted.has(key)) continue;
      this.attempted.add(key);
      const installed = entry.exactVersion ? this.options.installedVersionOf(file, entry.distribution) : undefined;
      const fallback = !interpreter && installed && versionsEqual(installed, entry.exactVersion!) ? this.options.interpreterFor(file) : undefined;
      this.queue = this.queue.then(() => this.cover(file, entry, interpreter, fallback)).catch((e) => this.options.connection.console.error(`anachron: automatic columns: ${(e as Error).stack ?? e}`));
    }
  }

  /** Resolves when everything queued so far is done (tests and the perf script wait on it). */
  idle(): Promise<void> {
    return this.queue;
  }

  /** `fallback`: the interpreter that has the pinned version installed, probed when the index gives nothing. */
  private async cover(file: string, entry: CoverageEntry, interpreter: string | undefined, fallback: string | undefined): Promise<void> {
    const { connection } = this.options;
    const progress = await connection.window.createWorkDoneProgress();
    const controller = new AbortController();
    progress.token.onCancellationRequested(() => controller.abort());
    const what = interpreter ? `probing ${entry.fetch} in ${interpreter}` : `fetching ${entry.fetch} from the package index`;
    progress.begin(`anachron: ${what}`, undefined, entry.reason === 'no-matrix' ? 'no matrix covers it' : 'not tracked', true);
    const step = (line: string) => {
      progress.report(line);
      connection.console.info(`anachron: ${line}`);
    };
    const catalog = this.options.catalog();
    const beforeReplace = () => catalog?.closeUser();
    const probe = async (python: string) => {
      await this.service.runtimeColumn(entry.distribution, entry.exactVersion!, entry.library, python, { signal: controller.signal, onStep: step, beforeReplace });
      catalog?.reopenUser();
      this.options.changed();
    };
    try {
      if (interpreter && entry.exactVersion) return await probe(interpreter);
      const config = this.configFor(file);
      let outcome;
      try {
        outcome = await this.service.cover(entry.distribution, { specifier: entry.specifier, exactVersion: entry.exactVersion }, { config, signal: controller.signal, tracked: entry.trackedVersions, onStep: step, beforeReplace });
      } catch (e) {
        if (!fallback || controller.signal.aborted || (e instanceof IndexError && e.kind === 'cancelled')) throw e;
        outcome = { records: [], errors: [(e as Error).message] };
      }
      for (const e of outcome.errors) connection.console.warn(`anachron: ${entry.fetch}: ${e}`);
      catalog?.reopenUser();
      if (outcome.records.length === 0) {
        if (!fallback) return;
        step(`${entry.fetch}: nothing from the package index; ${fallback} has ${entry.distribution} ${entry.exactVersion} installed, probing it there`);
        return await probe(fallback);
      }
      this.options.changed();
      await this.bisect(file, entry, controller.signal, step);
    } catch (e) {
      if (controller.signal.aborted || (e instanceof IndexError && e.kind === 'cancelled')) {
        connection.console.info(`anachron: ${what}: cancelled; the columns made before stay`);
        this.attempted.delete(`${entry.fetch}\0${interpreter ?? ''}`); // asked for again on the next check
      } else connection.console.warn(`anachron: ${what}: ${(e as Error).message}`);
      catalog?.reopenUser();
    } finally {
      progress.done();
    }
  }

  private configFor(file: string) {
    const root = this.options.rootFor(file);
    return readIndexConfig({ trusted: true, project: { folder: projectFolderOf(dirname(file), root), requirements: this.options.manifestsOf(file), workspaceRoot: root } });
  }

  /** The brackets of the findings on this library, over the index's release list. */
  private async bisect(file: string, entry: CoverageEntry, signal: AbortSignal, step: (line: string) => void): Promise<void> {
    const catalog = this.options.catalog();
    if (!catalog) return;
    const questions: BoundaryQuestion[] = this.options
      .findingsFor(entry.library)
      .filter((f) => f.library === entry.library)
      .flatMap((f) => boundaryQuestionOf(f) ?? []);
    if (questions.length === 0) return;
    const result = await this.service.bisect(entry.distribution, questions, () => (catalog.reopenUser(), catalog.forImportRoot(entry.library)), { config: this.configFor(file), signal, onStep: step, beforeReplace: () => catalog.closeUser() });
    catalog.reopenUser();
    for (const e of result.errors) this.options.connection.console.warn(`anachron: ${entry.fetch}: ${e}`);
    if (result.added.length) this.options.changed();
  }
}
