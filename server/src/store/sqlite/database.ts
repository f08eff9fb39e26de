// The one interface every SQLite file of anachron goes through: the matrices (read), the run databases of the
// benchmarks (written record by record, crash-safe) and the matrix builder. It is the part of better-sqlite3's API
// the stores use, so the SQL and the row decoding exist once; two implementations serve it: better-sqlite3 where its
// native module loads (native.ts) and the official SQLite WebAssembly build over Node's fs (wasm.ts). driver.ts
// picks one per process.

/** Which implementation serves a database. */
export type StoreKind = 'native' | 'wasm';

/**
 * How a file is opened.
 * - `immutable`: a file nothing writes while it is open (a matrix): read-only, no locks, shared by any number of
 *   processes, fine on a read-only disk.
 * - `read`: a file a writer may have left a write-ahead log beside (a run database), read-only.
 * - `write`: read and write; with `create`, made when missing.
 */
export type OpenMode = 'immutable' | 'read' | 'write';

export interface OpenOptions {
  mode: OpenMode;
  /** With mode `write`: create the file when it does not exist. */
  create?: boolean;
}

export interface RunResult {
  changes: number;
  lastInsertRowid: number;
}

/**
 * A prepared statement. Parameters as better-sqlite3 takes them: positional values, or one object whose keys are
 * the named parameters without their prefix (`@id` in the SQL, `{ id }` here).
 */
export interface SqlStatement<Row = unknown> {
  get(...params: unknown[]): Row | undefined;
  all(...params: unknown[]): Row[];
  /** Rows one at a time; run nothing else on the database until the iteration ends (as with better-sqlite3). */
  iterate(...params: unknown[]): IterableIterator<Row>;
  run(...params: unknown[]): RunResult;
}

export interface SqlDatabase {
  readonly file: string;
  readonly store: StoreKind;
  readonly open: boolean;
  prepare<Row = unknown>(sql: string): SqlStatement<Row>;
  /** Runs one or more statements that return nothing. */
  exec(sql: string): void;
  /** `PRAGMA <statement>`; returns the first column of the first row it gives (undefined when none). */
  pragma(statement: string): unknown;
  /** Runs `fn` in a transaction (a savepoint when one is open), committed when it returns, rolled back when it throws. */
  transaction<T>(fn: () => T, behaviour?: 'deferred' | 'immediate'): T;
  close(): void;
}

/** An error from SQLite, whichever implementation raised it; `code` is SQLite's name, e.g. SQLITE_CONSTRAINT_PRIMARYKEY. */
export class SqliteError extends Error {
  override readonly name = 'SqliteError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** True for a violated PRIMARY KEY or UNIQUE constraint: the record is already there. */
export function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** An opened database's implementation for messages: "native SQLite (better-sqlite3)", "WebAssembly SQLite 3.54.1". */
export interface SqliteDriver {
  readonly kind: StoreKind;
  /** Shown to users (the status item, `--version`, logs). */
  readonly label: string;
  open(file: string, options: OpenOptions): SqlDatabase;
}
