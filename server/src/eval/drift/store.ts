// The drift suite's part of a run database: one row per execution of a sample's code in one environment, written
// the moment it completes (WAL, its own transaction), beside the run store's samples (generation and repair prompts)
// and results (the model's answers). A second connection to the same file: the run store keeps the lock and writes
// the model's records, this one writes executions and reads both. The primary key (sample, environment) makes a
// duplicate execution impossible, so a killed run resumes with exactly the executions it has not recorded.
import { isUniqueViolation, type SqlDatabase, type SqlStatement } from '../../store/sqlite/database.js';
import { sqlite } from '../../store/sqlite/driver.js';
import type { Outcome } from './metrics.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS drift_executions (
  sample_id TEXT NOT NULL,          -- the generation or repair sample whose code ran
  environment TEXT NOT NULL,        -- the library version of the environment
  outcome TEXT NOT NULL CHECK (outcome IN ('pass', 'soft-fail', 'hard-fail', 'timeout')),
  error_type TEXT,                  -- the exception's type for hard fails
  message TEXT,
  trace TEXT,                       -- the traceback (hard fails), the warnings (soft fails)
  phase TEXT,                       -- where it failed: extraction, import, define, test, …
  warnings TEXT NOT NULL,           -- JSON: [{category, message, filename?, fromLibrary?, caller?, mro?, deprecation?}]
  duration_ms REAL NOT NULL,
  isolation TEXT NOT NULL,          -- JSON: what the sandbox enforced
  extraction TEXT NOT NULL,         -- how the code was read from the response: fenced | raw | empty
  code_digest TEXT NOT NULL,        -- sha256 of the code that ran
  interpreter TEXT NOT NULL,        -- the command that ran it
  executed_at TEXT NOT NULL,
  PRIMARY KEY (sample_id, environment)
) WITHOUT ROWID;
`;

/** A warning as an execution keeps it. */
export interface StoredWarning {
  category: string;
  message: string;
  filename?: string;
  fromLibrary?: boolean;
  caller?: 'sample' | 'harness' | 'other';
  mro?: string[];
  deprecation?: boolean;
}

export interface ExecutionRecord {
  sampleId: string;
  environment: string;
  outcome: Outcome;
  errorType: string | null;
  message: string | null;
  trace: string | null;
  phase: string | null;
  /** The sandbox's warnings (environments/sandbox.ts ExecutionWarning); executions recorded before the MRO was kept
   *  have category, message and filename only. */
  warnings: StoredWarning[];
  durationMs: number;
  isolation: string[];
  extraction: 'fenced' | 'raw' | 'empty';
  codeDigest: string;
  interpreter: string;
  executedAt: string;
}

interface ExecutionRow {
  sample_id: string;
  environment: string;
  outcome: string;
  error_type: string | null;
  message: string | null;
  trace: string | null;
  phase: string | null;
  warnings: string;
  duration_ms: number;
  isolation: string;
  extraction: string;
  code_digest: string;
  interpreter: string;
  executed_at: string;
}

const COLUMNS = 'sample_id, environment, outcome, error_type, message, trace, phase, warnings, duration_ms, isolation, extraction, code_digest, interpreter, executed_at';

function toRow(r: ExecutionRecord): ExecutionRow {
  return {
    sample_id: r.sampleId,
    environment: r.environment,
    outcome: r.outcome,
    error_type: r.errorType,
    message: r.message,
    trace: r.trace,
    phase: r.phase,
    warnings: JSON.stringify(r.warnings),
    duration_ms: r.durationMs,
    isolation: JSON.stringify(r.isolation),
    extraction: r.extraction,
    code_digest: r.codeDigest,
    interpreter: r.interpreter,
    executed_at: r.executedAt,
  };
}

function fromRow(r: ExecutionRow): ExecutionRecord {
  return {
    sampleId: r.sample_id,
    environment: r.environment,
    outcome: r.outcome as Outcome,
    errorType: r.error_type,
    message: r.message,
    trace: r.trace,
    phase: r.phase,
    warnings: JSON.parse(r.warnings),
    durationMs: r.duration_ms,
    isolation: JSON.parse(r.isolation),
    extraction: r.extraction as ExecutionRecord['extraction'],
    codeDigest: r.code_digest,
    interpreter: r.interpreter,
    executedAt: r.executed_at,
  };
}

export class DuplicateExecutionError extends Error {
  override readonly name = 'DuplicateExecutionError';
}

export class DriftStore {
  private readonly db: SqlDatabase;
  private readonly insert: SqlStatement | null;

  private constructor(readonly file: string, readonly readonly: boolean) {
    this.db = sqlite().open(file, readonly ? { mode: 'read' } : { mode: 'write' });
    this.db.pragma('busy_timeout = 10000');
    if (!readonly) {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.exec(SCHEMA);
      this.insert = this.db.prepare(`INSERT INTO drift_executions (${COLUMNS}) VALUES (${COLUMNS.split(', ').map((c) => `@${c}`).join(', ')})`);
    } else this.insert = null;
  }

  /** Opens the drift tables of a run database the run store has created (read-only for reports and merges). */
  static open(file: string, options: { readonly?: boolean } = {}): DriftStore {
    return new DriftStore(file, options.readonly === true);
  }

  private hasTable(): boolean {
    return this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'drift_executions'").get() !== undefined;
  }

  /** Records one execution, committed at once; DuplicateExecutionError when (sample, environment) has one. */
  record(record: ExecutionRecord): void {
    if (!this.insert) throw new Error(`${this.file} is open read-only`);
    try {
      this.insert.run(toRow(record));
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateExecutionError(`the code of ${record.sampleId} already ran in ${record.environment}`);
      throw e;
    }
  }

  /** Every execution recorded, by sample then environment. */
  executions(): ExecutionRecord[] {
    if (!this.hasTable()) return [];
    return (this.db.prepare(`SELECT ${COLUMNS} FROM drift_executions ORDER BY sample_id, environment`).all() as ExecutionRow[]).map(fromRow);
  }

  /** "sample\u0000environment" of every execution recorded. */
  executedKeys(): Set<string> {
    if (!this.hasTable()) return new Set();
    return new Set((this.db.prepare('SELECT sample_id, environment FROM drift_executions').all() as { sample_id: string; environment: string }[]).map((r) => `${r.sample_id}\u0000${r.environment}`));
  }

  /** Ids of the samples the run database holds whose id starts with `prefix`. */
  sampleIds(prefix: string): Set<string> {
    return new Set((this.db.prepare("SELECT id FROM samples WHERE substr(id, 1, ?) = ?").all(prefix.length, prefix) as { id: string }[]).map((r) => r.id));
  }

  /** The answered responses of the run: sample id → raw text. */
  responses(): Map<string, string> {
    return new Map((this.db.prepare("SELECT sample_id, response FROM results WHERE status = 'answered'").all() as { sample_id: string; response: string | null }[]).map((r) => [r.sample_id, r.response ?? '']));
  }

  /** The samples recorded as failed at the model. */
  modelFailures(): Set<string> {
    return new Set((this.db.prepare("SELECT sample_id FROM results WHERE status = 'failed'").all() as { sample_id: string }[]).map((r) => r.sample_id));
  }

  /** Raw rows, for merging into another run database. */
  *rawExecutions(): IterableIterator<ExecutionRow> {
    if (!this.hasTable()) return;
    yield* this.db.prepare(`SELECT ${COLUMNS} FROM drift_executions ORDER BY sample_id, environment`).iterate() as IterableIterator<ExecutionRow>;
  }

  /** Inserts a row from another run database: 'added', 'same' (an equal outcome is here) or throws on a conflict. */
  importExecution(row: ExecutionRow, from: string): 'added' | 'same' {
    const here = this.db.prepare(`SELECT ${COLUMNS} FROM drift_executions WHERE sample_id = ? AND environment = ?`).get(row.sample_id, row.environment) as ExecutionRow | undefined;
    if (here) {
      if (here.outcome === row.outcome && here.error_type === row.error_type && here.code_digest === row.code_digest) return 'same';
      throw new DuplicateExecutionError(`${row.sample_id} in ${row.environment}: ${here.outcome} here, ${row.outcome} in ${from}`);
    }
    this.insert!.run(row);
    return 'added';
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn);
  }

  close(): void {
    this.db.close();
  }
}
