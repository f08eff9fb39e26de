// Covering what the checker could not judge, one implementation for the CLI (`matrix fetch`, `check --fetch`) and
// the editor (automatic columns): which versions a not-covered pin needs (the pinned one, a range's two ends, the
// newest release for the history), fetching them from the index configured for the project, and bisecting over the
// index's release list where a finding's "added/removed between" brackets more than one release (capped).
import type { LibraryMatrix } from '../core/api-model.js';
import { nextBisectionVersions, type Bracket, type BoundaryQuestion } from '../core/boundaries.js';
import type { CoverageEntry } from '../core/coverage.js';
import { compareVersions, versionsEqual } from '../core/versions.js';
import { execFile } from 'node:child_process';
import type { IndexCache } from '../package-index/cache.js';
import { IndexClient, IndexError } from '../package-index/client.js';
import type { IndexConfig } from '../package-index/index-config.js';
import type { NetrcEntry } from '../package-index/netrc.js';
import { isFinalRelease } from '../core/versions.js';
import { newestRelease, releasesAllowedBy, type Release } from '../package-index/release-files.js';
import type { ColumnRecord, UserMatrixStore } from '../store/user-store.js';
import { runProbe } from '../environments/python-probe-runner.js';
import { ColumnError, indexColumn, type ColumnDeps } from './index-column.js';

export interface ColumnServiceOptions {
  store: UserMatrixStore;
  cache: IndexCache;
  netrc: NetrcEntry[];
  offline: boolean;
  /** The interpreter the extractor runs in: given, else the first Python 3.8+ on PATH. */
  python?: string;
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
}

export interface CoverOutcome {
  requirement: string;
  /** Columns now in the store for it (made now, or before). */
  records: ColumnRecord[];
  /** What could not be fetched, one message each. */
  errors: string[];
}

export interface FetchOptions {
  config: IndexConfig;
  signal?: AbortSignal;
  onStep?: (line: string) => void;
  /** Also fetch the newest release, for the history ("added in …"); default true. */
  newest?: boolean;
  refresh?: boolean;
  /** Versions the matrices already hold for the library: not fetched again. */
  tracked?: readonly string[];
  beforeReplace?: (library: string) => void;
}

export interface BisectOptions extends FetchOptions {
  /** The most columns one bracket may add (each halves it); default 6. */
  maxStepsPerBracket?: number;
  /** The most columns one bisection run adds in all; default 24. */
  maxColumns?: number;
}

const PYTHONS = process.platform === 'win32' ? ['python', 'python3', 'py'] : ['python3', 'python'];

/** Runs under the user's own environment (a pyenv shim needs it), asked nothing but its version. */
function isPython38(command: string): Promise<boolean> {
  return new Promise((done) => {
    // A generous limit: a pyenv shim on a busy machine can take seconds to answer.
    execFile(command, ['-c', 'import sys; print(sys.version_info >= (3, 8))'], { timeout: 60_000, windowsHide: true }, (error, stdout) => done(!error && stdout.trim() === 'True'));
  });
}

export class ColumnService {
  private readonly clients = new Map<string, IndexClient>();
  private python: Promise<string> | undefined;

  constructor(readonly options: ColumnServiceOptions) {}

  get store(): UserMatrixStore {
    return this.options.store;
  }

  /** The extractor's interpreter: any Python 3.8+ (it runs python-probe only, never the release's code). */
  extractorPython(): Promise<string> {
    const candidates = this.options.python ? [this.options.python] : PYTHONS;
    this.python ??= (async () => {
      for (const candidate of candidates) if (await isPython38(candidate)) return candidate;
      throw new Error(`no Python 3.8 or newer to run the static extractor (tried ${candidates.join(', ')}); install one, or give it with --python`);
    })();
    this.python.catch(() => (this.python = undefined));
    return this.python;
  }

  client(config: IndexConfig): IndexClient {
    const key = JSON.stringify([config.searchOrder, [...config.assigned], config.caFile, config.proxy, config.trustedHosts]);
    let client = this.clients.get(key);
    if (!client) {
      client = new IndexClient({ config, cache: this.options.cache, netrc: this.options.netrc, offline: this.options.offline, env: this.options.env, log: this.options.log });
      this.clients.set(key, client);
    }
    return client;
  }

  private async deps(options: FetchOptions): Promise<ColumnDeps> {
    return { client: this.client(options.config), store: this.options.store, python: await this.extractorPython(), signal: options.signal, onStep: options.onStep, beforeReplace: options.beforeReplace };
  }

  /** The versions a requirement needs as columns: an exact pin's version, else a range's lowest and newest allowed; and the newest release. */
  planVersions(requirement: { specifier: string | null; exactVersion: string | null }, releases: readonly Release[], newest: boolean): string[] {
    const out: string[] = [];
    if (requirement.exactVersion) out.push(requirement.exactVersion);
    else {
      const allowed = releasesAllowedBy(releases, requirement.specifier ?? '');
      if (allowed.length) out.push(allowed[0]!.version, allowed[allowed.length - 1]!.version);
    }
    const latest = newest ? newestRelease(releases) : undefined;
    if (latest) out.push(latest.version);
    return out.filter((v, i) => out.findIndex((w) => versionsEqual(v, w)) === i).sort(compareVersions);
  }

  /** Columns for one requirement (what a coverage entry's `fetch` says, or a `matrix fetch` argument). */
  async cover(distribution: string, requirement: { specifier: string | null; exactVersion: string | null }, options: FetchOptions): Promise<CoverOutcome> {
    const shown = `${distribution}${requirement.specifier ?? ''}`;
    const outcome: CoverOutcome = { requirement: shown, records: [], errors: [] };
    let deps: ColumnDeps;
    let releases: Release[];
    try {
      // The index first: a distribution or version it lacks is said as such, whatever the interpreter.
      const project = await this.client(options.config).project(distribution, { version: requirement.exactVersion ?? undefined, signal: options.signal });
      releases = project.releases;
      deps = await this.deps(options);
    } catch (e) {
      if (e instanceof IndexError && e.kind === 'cancelled') throw e;
      outcome.errors.push((e as Error).message);
      return outcome;
    }
    const versions = this.planVersions(requirement, releases, options.newest !== false);
    if (versions.length === 0) {
      outcome.errors.push(`${shown}: no release on the index allows it`);
      return outcome;
    }
    for (const version of versions) {
      if (options.tracked?.some((t) => versionsEqual(t, version)) && !options.refresh) continue;
      try {
        outcome.records.push((await indexColumn(distribution, version, deps, { refresh: options.refresh })).record);
      } catch (e) {
        if (e instanceof IndexError && e.kind === 'cancelled') throw e;
        if (!(e instanceof IndexError || e instanceof ColumnError) && !(e instanceof Error)) throw e;
        outcome.errors.push((e as Error).message);
      }
    }
    return outcome;
  }

  /**
   * The column of a distribution as an interpreter has it installed (python-probe's runtime probe imports the library
   * there: only for trusted workspaces), once per distribution and version: the store's when one was made before.
   */
  async runtimeColumn(distribution: string, version: string, library: string, python: string, options: { signal?: AbortSignal; onStep?: (line: string) => void; beforeReplace?: (library: string) => void } = {}): Promise<ColumnRecord> {
    const existing = this.options.store.column(distribution, version, 'runtime');
    if (existing) return existing;
    options.onStep?.(`${distribution} ${version}: probing ${library} in ${python}`);
    const surface = await runProbe({ python, script: 'probe.py', args: [library, '--provenance', 'source=runtime', '--provenance', `python_executable=${python}`], signal: options.signal, onOutput: (line) => options.onStep?.(`${distribution} ${version}: ${line}`) });
    if (!versionsEqual(surface.version, version)) throw new ColumnError(`${python} has ${library} ${surface.version}, not ${version}; nothing was added`, 'wrong-version');
    const record = await this.options.store.addColumn({ distribution, version, source: 'runtime', provenance: { python } }, [surface], options.beforeReplace);
    options.onStep?.(`${distribution} ${version}: added from ${python} (${surface.apis.length} APIs)`);
    return record;
  }

  /**
   * Bisects the brackets the questions' findings rest on, over the index's release list: each round fetches the
   * middle release of every open bracket, then asks `matrixOf` again (the caller re-reads its catalog). Stops when
   * every bracket is exact, a cap is reached, or nothing more can be fetched.
   */
  async bisect(distribution: string, questions: readonly BoundaryQuestion[], matrixOf: () => LibraryMatrix | undefined, options: BisectOptions): Promise<{ added: ColumnRecord[]; open: Bracket[]; errors: string[] }> {
    const added: ColumnRecord[] = [];
    const errors: string[] = [];
    const maxPerBracket = options.maxStepsPerBracket ?? 6;
    const maxColumns = options.maxColumns ?? 24;
    const deps = await this.deps(options);
    let releases: string[];
    try {
      releases = (await deps.client.project(distribution, { signal: options.signal })).releases.filter((r) => !r.yanked && isFinalRelease(r.version)).map((r) => r.version);
    } catch (e) {
      if (e instanceof IndexError && e.kind === 'cancelled') throw e;
      return { added, open: [], errors: [(e as Error).message] };
    }
    const stepsBy = new Map<string, number>();
    const failed = new Set<string>();
    for (;;) {
      const matrix = matrixOf();
      if (!matrix) break;
      const next = nextBisectionVersions(matrix, questions, releases).filter((n) => !failed.has(n.version) && (stepsBy.get(n.bracket.subject + n.bracket.change) ?? 0) < maxPerBracket);
      if (next.length === 0 || added.length >= maxColumns) {
        const open = nextBisectionVersions(matrix, questions, releases).map((n) => n.bracket);
        return { added, open, errors };
      }
      for (const { version, bracket } of next) {
        if (added.length >= maxColumns) break;
        const key = bracket.subject + bracket.change;
        stepsBy.set(key, (stepsBy.get(key) ?? 0) + 1);
        const left = Math.ceil(Math.log2(bracket.between.length + 1));
        options.onStep?.(`${distribution}: bisecting where ${bracket.subject} was ${bracket.change} (between ${bracket.low} and ${bracket.high}, ${bracket.between.length} release${bracket.between.length === 1 ? '' : 's'} between): ${version}, step ${stepsBy.get(key)}, at most ${Math.min(left, maxPerBracket - stepsBy.get(key)! + 1)} to go`);
        try {
          const { record } = await indexColumn(distribution, version, deps);
          added.push(record);
        } catch (e) {
          if (e instanceof IndexError && e.kind === 'cancelled') throw e;
          failed.add(version);
          errors.push((e as Error).message);
        }
      }
    }
    return { added, open: [], errors };
  }
}
