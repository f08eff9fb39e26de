// The run database: one SQLite file per run (or shard) holding the run's config, its samples, and one final record per
// sample — answered or failed — written the moment the sample completes (WAL, one transaction per record), so a run
// that is interrupted or killed loses nothing it finished and resumes with exactly the samples that have no record.
// The primary key on results.sample_id makes a duplicate record impossible.
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { isUniqueViolation, type SqlDatabase, type SqlStatement } from '../../store/sqlite/database.js';
import { sqlite } from '../../store/sqlite/driver.js';
import { processAlive } from '../../store/sqlite/file-lock.js';
import type { AttemptRecord, CompletionUsage, ModelErrorKind } from '../models/provider.js';
import type { RunConfigBase, RunIdentity } from './config.js';
import { formatShard, sampleDigest, type BenchSample } from './samples.js';
import { InputError, isInputError } from '../../core/errors.js';

export const RUN_SCHEMA = 'anachron-bench-run/1';
const USER_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS samples (
  id TEXT PRIMARY KEY,
  ordinal INTEGER NOT NULL,        -- position in the full dataset (before limit and sharding)
  task TEXT NOT NULL,
  level TEXT,
  library TEXT NOT NULL,
  version TEXT NOT NULL,
  api TEXT NOT NULL,
  evolving INTEGER NOT NULL,
  prompt TEXT NOT NULL,            -- JSON: the messages sent
  ground_truth TEXT NOT NULL,      -- JSON
  digest TEXT NOT NULL             -- of everything above: two definitions of one id must agree
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS samples_by_ordinal ON samples (ordinal);
CREATE TABLE IF NOT EXISTS results (
  sample_id TEXT PRIMARY KEY REFERENCES samples(id),
  status TEXT NOT NULL CHECK (status IN ('answered', 'failed')),
  response TEXT,                   -- the model's raw completion text (answered)
  error_kind TEXT,                 -- ModelErrorKind (failed)
  error_message TEXT,              -- redacted
  http_status INTEGER,
  error_body TEXT,                 -- redacted, truncated body of the last failing response
  attempts INTEGER NOT NULL,       -- HTTP attempts made by the provider for this sample
  attempt_log TEXT NOT NULL,       -- JSON: the failed attempts (kind, status, latency, wait)
  latency_ms REAL NOT NULL,        -- the final attempt
  elapsed_ms REAL NOT NULL,        -- the whole sample, retries and waits included
  usage TEXT,                      -- JSON
  provider TEXT NOT NULL,          -- provider id
  request TEXT NOT NULL,           -- JSON: maxTokens, temperature, stop (the messages are the sample's prompt)
  completed_at TEXT NOT NULL,
  session INTEGER NOT NULL
) WITHOUT ROWID;
-- Failed records set aside by a retry of failures: kept for the record, no longer final.
CREATE TABLE IF NOT EXISTS superseded (
  sample_id TEXT NOT NULL, status TEXT NOT NULL, response TEXT, error_kind TEXT, error_message TEXT, http_status INTEGER,
  error_body TEXT, attempts INTEGER NOT NULL, attempt_log TEXT NOT NULL, latency_ms REAL NOT NULL, elapsed_ms REAL NOT NULL,
  usage TEXT, provider TEXT NOT NULL, request TEXT NOT NULL, completed_at TEXT NOT NULL, session INTEGER NOT NULL,
  superseded_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
  id INTEGER PRIMARY KEY,
  started_at TEXT NOT NULL,
  ended_at TEXT,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  provider TEXT NOT NULL,
  pending_at_start INTEGER NOT NULL,
  answered INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  outcome TEXT                     -- completed | cancelled | error: …; NULL while running or when the process died
);
`;

export interface RunMeta {
  schema: string;
  identity: string;
  /** The config the run was created with (secret-free by construction). */
  config: RunConfigBase;
  /** "i/n", or "" for an unsharded or merged run. */
  shard: string;
  createdAt: string;
  /** For merged runs: the files merged. */
  mergedFrom?: string[];
}

export type ResultStatus = 'answered' | 'failed';

export interface ResultRecord {
  sampleId: string;
  status: ResultStatus;
  response: string | null;
  errorKind: ModelErrorKind | null;
  errorMessage: string | null;
  httpStatus: number | null;
  errorBody: string | null;
  attempts: number;
  attemptLog: AttemptRecord[];
  latencyMs: number;
  elapsedMs: number;
  usage: CompletionUsage | null;
  provider: string;
  request: { maxTokens: number; temperature: number; stop?: string[] };
  completedAt: string;
  session: number;
}

export type NewResult = Omit<ResultRecord, 'completedAt' | 'session'>;

export interface RunCounts {
  samples: number;
  answered: number;
  failed: number;
  pending: number;
}

export class RunMismatchError extends InputError {
  override readonly name: string = 'RunMismatchError';
}
export class RunLockedError extends InputError {
  override readonly name: string = 'RunLockedError';
}
export class DuplicateResultError extends Error {
  override readonly name = 'DuplicateResultError';
}
export class SampleConflictError extends InputError {
  override readonly name: string = 'SampleConflictError';
}

interface SampleRow {
  id: string;
  ordinal: number;
  task: string;
  level: string | null;
  library: string;
  version: string;
  api: string;
  evolving: number;
  prompt: string;
  ground_truth: string;
  digest: string;
}

interface ResultRow {
  sample_id: string;
  status: string;
  response: string | null;
  error_kind: string | null;
  error_message: string | null;
  http_status: number | null;
  error_body: string | null;
  attempts: number;
  attempt_log: string;
  latency_ms: number;
  elapsed_ms: number;
  usage: string | null;
  provider: string;
  request: string;
  completed_at: string;
  session: number;
}

const RESULT_COLUMNS = 'sample_id, status, response, error_kind, error_message, http_status, error_body, attempts, attempt_log, latency_ms, elapsed_ms, usage, provider, request, completed_at, session';
const RESULT_PARAMS = '@sample_id, @status, @response, @error_kind, @error_message, @http_status, @error_body, @attempts, @attempt_log, @latency_ms, @elapsed_ms, @usage, @provider, @request, @completed_at, @session';

function rowToSample(r: SampleRow): BenchSample {
  return {
    id: r.id,
    task: r.task as BenchSample['task'],
    level: r.level as BenchSample['level'],
    library: r.library,
    version: r.version,
    api: r.api,
    evolving: r.evolving === 1,
    prompt: JSON.parse(r.prompt),
    groundTruth: JSON.parse(r.ground_truth),
  };
}

function rowToResult(r: ResultRow): ResultRecord {
  return {
    sampleId: r.sample_id,
    status: r.status as ResultStatus,
    response: r.response,
    errorKind: r.error_kind as ModelErrorKind | null,
    errorMessage: r.error_message,
    httpStatus: r.http_status,
    errorBody: r.error_body,
    attempts: r.attempts,
    attemptLog: JSON.parse(r.attempt_log),
    latencyMs: r.latency_ms,
    elapsedMs: r.elapsed_ms,
    usage: r.usage === null ? null : JSON.parse(r.usage),
    provider: r.provider,
    request: JSON.parse(r.request),
    completedAt: r.completed_at,
    session: r.session,
  };
}


export interface OpenRunOptions {
  /** Create the run with this config when the file is new; check it against the stored identity and shard otherwise. */
  config?: RunConfigBase;
  /** What identifies a run of the config's suite (eval/runs/config.ts identityFrom); needed with a config. */
  identity?: RunIdentity;
  /** Read-only (reports, merges): no lock, no writes. */
  readonly?: boolean;
}

export class RunStore {
  readonly meta: RunMeta;
  private readonly db: SqlDatabase;
  private readonly readonly: boolean;
  private lockToken: string | null = null;
  private readonly insertResult: SqlStatement;
  private readonly getSample: SqlStatement<{ digest: string }>;
  private readonly insertSample: SqlStatement;

  private constructor(readonly file: string, options: OpenRunOptions) {
    this.readonly = options.readonly === true;
    if (this.readonly && !existsSync(file)) throw new InputError(`${file}: no such run database`);
    this.db = sqlite().open(file, this.readonly ? { mode: 'read' } : { mode: 'write', create: true });
    try {
      this.db.pragma('busy_timeout = 10000');
      if (!this.readonly) {
        this.db.pragma('journal_mode = WAL');
        // WAL + NORMAL: a committed record survives the process being killed (not a power cut mid-checkpoint).
        this.db.pragma('synchronous = NORMAL');
        this.db.pragma('foreign_keys = ON');
        const version = this.db.pragma('user_version') as number;
        if (version !== 0 && version !== USER_VERSION) throw new InputError(`run database schema ${version}, this anachron reads ${USER_VERSION}`);
        this.db.exec(SCHEMA);
        this.db.pragma(`user_version = ${USER_VERSION}`);
      }
      this.meta = this.readOrCreateMeta(options.config, options.identity);
    } catch (e) {
      this.db.close();
      if (e instanceof RunMismatchError) throw e;
      // A file that is not a run database (or one of another format) is the user's to fix; anything else is a bug.
      throw isInputError(e) ? new InputError(`${file}: ${(e as Error).message}`) : e;
    }
    this.insertResult = this.db.prepare(`INSERT INTO results (${RESULT_COLUMNS}) VALUES (${RESULT_PARAMS})`);
    this.getSample = this.db.prepare<{ digest: string }>('SELECT digest FROM samples WHERE id = ?');
    this.insertSample = this.db.prepare(
      'INSERT INTO samples (id, ordinal, task, level, library, version, api, evolving, prompt, ground_truth, digest) VALUES (@id, @ordinal, @task, @level, @library, @version, @api, @evolving, @prompt, @ground_truth, @digest)',
    );
  }

  /** Opens (creating when new and a config is given) a run database; takes the run's lock unless read-only. */
  static open(file: string, options: OpenRunOptions = {}): RunStore {
    const store = new RunStore(file, options);
    if (!store.readonly) {
      try {
        store.acquireLock();
      } catch (e) {
        store.db.close();
        throw e;
      }
    }
    return store;
  }

  private readOrCreateMeta(config: RunConfigBase | undefined, identityRules: RunIdentity | undefined): RunMeta {
    if (config && !identityRules) throw new Error('opening a run with a config needs its identity rules');
    const hasMeta = (this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get() as unknown) !== undefined;
    const rows = hasMeta ? (this.db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]) : [];
    const stored = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    if (!stored.schema) {
      if (this.readonly || !config) throw new InputError('not a run database (no meta); give a config to create one');
      const meta: RunMeta = { schema: RUN_SCHEMA, identity: identityRules!.of(config), config, shard: formatShard(config.shard), createdAt: new Date().toISOString() };
      this.writeMeta(meta);
      return meta;
    }
    if (stored.schema !== RUN_SCHEMA) throw new InputError(`run database format ${stored.schema}, this anachron reads ${RUN_SCHEMA}`);
    const meta: RunMeta = {
      schema: stored.schema,
      identity: stored.identity!,
      config: JSON.parse(stored.config!),
      shard: stored.shard ?? '',
      createdAt: stored.created_at!,
      ...(stored.merged_from ? { mergedFrom: JSON.parse(stored.merged_from) } : {}),
    };
    if (config) {
      if (identityRules!.of(config) !== meta.identity) throw new RunMismatchError(identityRules!.mismatch(this.file, meta, config));
      if (formatShard(config.shard) !== meta.shard) {
        throw new RunMismatchError(`${this.file} holds ${meta.shard ? `shard ${meta.shard}` : 'an unsharded run'}, this config asks for ${config.shard ? `shard ${formatShard(config.shard)}` : 'an unsharded run'}`);
      }
    }
    return meta;
  }

  private writeMeta(meta: RunMeta): void {
    const put = this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
    this.db.transaction(() => {
      put.run('schema', meta.schema);
      put.run('identity', meta.identity);
      put.run('config', JSON.stringify(meta.config));
      put.run('shard', meta.shard);
      put.run('created_at', meta.createdAt);
      if (meta.mergedFrom) put.run('merged_from', JSON.stringify(meta.mergedFrom));
    });
  }

  /** Marks a merged run's provenance. */
  setMergedFrom(files: string[]): void {
    this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('merged_from', ?)").run(JSON.stringify(files));
    this.meta.mergedFrom = files;
  }

  private acquireLock(): void {
    const host = hostname();
    const token = `${host}:${process.pid}:${Date.now()}:${Math.random().toString(36).slice(2)}`;
    this.db.transaction(() => {
      const row = this.db.prepare("SELECT value FROM meta WHERE key = 'lock'").get() as { value: string } | undefined;
      if (row) {
        const held = JSON.parse(row.value) as { host: string; pid: number; since: string };
        const stale = held.host === host && (held.pid === process.pid ? false : !processAlive(held.pid));
        if (!stale) {
          throw new RunLockedError(`${this.file} is in use by process ${held.pid} on ${held.host} since ${held.since}; stop it first (a lock left by a process that died on this host is taken over automatically)`);
        }
      }
      this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('lock', ?)").run(JSON.stringify({ host, pid: process.pid, since: new Date().toISOString(), token }));
    }, 'immediate');
    this.lockToken = token;
  }

  /** Adds the samples the run is responsible for; a sample already there must be identical (else SampleConflictError). */
  registerSamples(samples: readonly BenchSample[], ordinals: ReadonlyMap<string, number>): { added: number; existing: number } {
    let added = 0;
    let existing = 0;
    this.db.transaction(() => {
      for (const s of samples) {
        const digest = sampleDigest(s);
        const row = this.getSample.get(s.id);
        if (row) {
          if (row.digest !== digest) throw new SampleConflictError(`sample ${s.id} differs from the one this run recorded: the dataset changed (rebuild with the same seed and inputs, or start a new run)`);
          existing++;
          continue;
        }
        this.insertSample.run({
          id: s.id,
          ordinal: ordinals.get(s.id) ?? 0,
          task: s.task,
          level: s.level,
          library: s.library,
          version: s.version,
          api: s.api,
          evolving: s.evolving ? 1 : 0,
          prompt: JSON.stringify(s.prompt),
          ground_truth: JSON.stringify(s.groundTruth ?? null),
          digest,
        });
        added++;
      }
    });
    return { added, existing };
  }

  /** Samples without a final record, in dataset order; only those in `ids` when given. */
  pending(ids?: ReadonlySet<string>): BenchSample[] {
    const rows = this.db.prepare('SELECT * FROM samples s WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.sample_id = s.id) ORDER BY ordinal, id').all() as SampleRow[];
    return rows.filter((r) => !ids || ids.has(r.id)).map(rowToSample);
  }

  /** Writes the final record of a sample, committed at once. Throws DuplicateResultError when it already has one. */
  record(result: NewResult, session: number): void {
    try {
      this.insertResult.run({
        sample_id: result.sampleId,
        status: result.status,
        response: result.response,
        error_kind: result.errorKind,
        error_message: result.errorMessage,
        http_status: result.httpStatus,
        error_body: result.errorBody,
        attempts: result.attempts,
        attempt_log: JSON.stringify(result.attemptLog),
        latency_ms: result.latencyMs,
        elapsed_ms: result.elapsedMs,
        usage: result.usage ? JSON.stringify(result.usage) : null,
        provider: result.provider,
        request: JSON.stringify(result.request),
        completed_at: new Date().toISOString(),
        session,
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateResultError(`sample ${result.sampleId} already has a final record`);
      throw e;
    }
  }

  /** Sets failed records aside (table superseded) so those samples are sent again; returns how many. */
  supersedeFailures(ids?: ReadonlySet<string>): number {
    const failed = (this.db.prepare("SELECT sample_id FROM results WHERE status = 'failed'").all() as { sample_id: string }[]).map((r) => r.sample_id).filter((id) => !ids || ids.has(id));
    const now = new Date().toISOString();
    const move = this.db.prepare(`INSERT INTO superseded (${RESULT_COLUMNS}, superseded_at) SELECT ${RESULT_COLUMNS}, ? FROM results WHERE sample_id = ?`);
    const drop = this.db.prepare('DELETE FROM results WHERE sample_id = ?');
    this.db.transaction(() => {
      for (const id of failed) {
        move.run(now, id);
        drop.run(id);
      }
    });
    return failed.length;
  }

  counts(ids?: ReadonlySet<string>): RunCounts {
    if (ids) {
      const rows = this.db.prepare('SELECT s.id AS id, r.status AS status FROM samples s LEFT JOIN results r ON r.sample_id = s.id').all() as { id: string; status: string | null }[];
      const c: RunCounts = { samples: 0, answered: 0, failed: 0, pending: 0 };
      for (const r of rows) {
        if (!ids.has(r.id)) continue;
        c.samples++;
        if (r.status === 'answered') c.answered++;
        else if (r.status === 'failed') c.failed++;
        else c.pending++;
      }
      return c;
    }
    const samples = (this.db.prepare('SELECT COUNT(*) AS n FROM samples').get() as { n: number }).n;
    const by = this.db.prepare('SELECT status, COUNT(*) AS n FROM results GROUP BY status').all() as { status: string; n: number }[];
    const answered = by.find((r) => r.status === 'answered')?.n ?? 0;
    const failed = by.find((r) => r.status === 'failed')?.n ?? 0;
    return { samples, answered, failed, pending: samples - answered - failed };
  }

  /** Every sample with its final record (null while pending), in dataset order: what extraction and scoring read. */
  *entries(): IterableIterator<{ sample: BenchSample; result: ResultRecord | null }> {
    const stmt = this.db.prepare(`SELECT s.*, r.sample_id AS r_sample_id, ${RESULT_COLUMNS.split(', ').filter((c) => c !== 'sample_id').map((c) => `r.${c} AS r_${c}`).join(', ')}
      FROM samples s LEFT JOIN results r ON r.sample_id = s.id ORDER BY s.ordinal, s.id`);
    for (const row of stmt.iterate() as IterableIterator<SampleRow & Record<string, unknown>>) {
      const sample = rowToSample(row);
      if (row.r_sample_id === null) {
        yield { sample, result: null };
        continue;
      }
      const r = Object.fromEntries(Object.entries(row).filter(([k]) => k.startsWith('r_')).map(([k, v]) => [k.slice(2), v])) as unknown as ResultRow;
      yield { sample, result: rowToResult(r) };
    }
  }

  result(sampleId: string): ResultRecord | undefined {
    const row = this.db.prepare(`SELECT ${RESULT_COLUMNS} FROM results WHERE sample_id = ?`).get(sampleId) as ResultRow | undefined;
    return row ? rowToResult(row) : undefined;
  }

  beginSession(provider: string, pendingAtStart: number): number {
    const info = this.db
      .prepare('INSERT INTO sessions (started_at, host, pid, provider, pending_at_start) VALUES (?, ?, ?, ?, ?)')
      .run(new Date().toISOString(), hostname(), process.pid, provider, pendingAtStart);
    return Number(info.lastInsertRowid);
  }

  endSession(id: number, answered: number, failed: number, outcome: string): void {
    this.db.prepare('UPDATE sessions SET ended_at = ?, answered = ?, failed = ?, outcome = ? WHERE id = ?').run(new Date().toISOString(), answered, failed, outcome, id);
  }

  sessions(): { id: number; startedAt: string; endedAt: string | null; provider: string; answered: number; failed: number; outcome: string | null }[] {
    return (this.db.prepare('SELECT id, started_at, ended_at, provider, answered, failed, outcome FROM sessions ORDER BY id').all() as {
      id: number; started_at: string; ended_at: string | null; provider: string; answered: number; failed: number; outcome: string | null;
    }[]).map((r) => ({ id: r.id, startedAt: r.started_at, endedAt: r.ended_at, provider: r.provider, answered: r.answered, failed: r.failed, outcome: r.outcome }));
  }

  // ---- merging ------------------------------------------------------------------------------------------------------

  /** Raw rows, for merging into another run database. */
  *rawSamples(): IterableIterator<SampleRow> {
    yield* this.db.prepare('SELECT * FROM samples ORDER BY ordinal, id').iterate() as IterableIterator<SampleRow>;
  }

  *rawResults(): IterableIterator<ResultRow> {
    yield* this.db.prepare(`SELECT ${RESULT_COLUMNS} FROM results ORDER BY sample_id`).iterate() as IterableIterator<ResultRow>;
  }

  /** Inserts a sample row from another run database: 'added', 'same' (already here, identical) or throws SampleConflictError. */
  importSample(row: SampleRow, from: string): 'added' | 'same' {
    const here = this.getSample.get(row.id);
    if (here) {
      if (here.digest !== row.digest) throw new SampleConflictError(`sample ${row.id} is defined differently in ${from}`);
      return 'same';
    }
    this.insertSample.run(row);
    return 'added';
  }

  /**
   * Inserts a result row from another run database, keeping its session number offset by `sessionOffset`: 'added',
   * 'same' when an equal outcome is already here (status, response, error kind), or throws DuplicateResultError.
   */
  importResult(row: ResultRow, from: string, sessionOffset: number): 'added' | 'same' {
    const here = this.db.prepare(`SELECT ${RESULT_COLUMNS} FROM results WHERE sample_id = ?`).get(row.sample_id) as ResultRow | undefined;
    if (here) {
      if (here.status === row.status && here.response === row.response && here.error_kind === row.error_kind) return 'same';
      throw new DuplicateResultError(`sample ${row.sample_id} has conflicting records (${here.status}${here.error_kind ? ` ${here.error_kind}` : ''} here, ${row.status}${row.error_kind ? ` ${row.error_kind}` : ''} in ${from})`);
    }
    this.insertResult.run({ ...row, session: row.session + sessionOffset });
    return 'added';
  }

  importSessions(other: RunStore): number {
    const offset = (this.db.prepare('SELECT COALESCE(MAX(id), 0) AS m FROM sessions').get() as { m: number }).m;
    const rows = other.db.prepare('SELECT * FROM sessions ORDER BY id').all() as Record<string, unknown>[];
    const insert = this.db.prepare(
      'INSERT INTO sessions (id, started_at, ended_at, host, pid, provider, pending_at_start, answered, failed, outcome) VALUES (@id, @started_at, @ended_at, @host, @pid, @provider, @pending_at_start, @answered, @failed, @outcome)',
    );
    for (const r of rows) insert.run({ ...r, id: (r.id as number) + offset });
    return offset;
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn);
  }

  /** Releases the lock and closes the file (checkpointing the WAL). */
  close(): void {
    if (!this.db.open) return;
    if (this.lockToken) {
      try {
        const row = this.db.prepare("SELECT value FROM meta WHERE key = 'lock'").get() as { value: string } | undefined;
        if (row && (JSON.parse(row.value) as { token?: string }).token === this.lockToken) this.db.prepare("DELETE FROM meta WHERE key = 'lock'").run();
      } catch {
        // closing anyway
      }
      this.lockToken = null;
    }
    this.db.close();
  }
}
