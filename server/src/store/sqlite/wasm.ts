// The WebAssembly implementation: the official SQLite build (@sqlite.org/sqlite-wasm) over Node's fs
// (wasm-vfs.ts). Nothing platform-specific: it runs wherever JavaScript and WebAssembly do, desktop VS Code's
// Electron included. Files it writes are ordinary SQLite files the native implementation reads, and back.
//
// Differences from better-sqlite3 it hides:
// - parameters: better-sqlite3 takes `{ id }` for `@id`; the WebAssembly API binds by position;
// - statements and the database live in WebAssembly memory: statements are cached per SQL text and finalised on
//   close, a row read with get() resets its statement so it holds nothing open;
// - a file opened to read or write is owned by this process while open (no byte-range locks in JavaScript;
//   file-lock.ts): each process opens it once, and the stores that open it again (a run's store and its drift
//   store) share that connection, with nested transactions as savepoints.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { SqliteError, type OpenOptions, type RunResult, type SqlDatabase, type SqliteDriver, type SqlStatement } from './database.js';
import { acquireFileLock } from './file-lock.js';
import { IMMUTABLE_VFS, installNodeVfs, OWNED_VFS } from './wasm-vfs.js';
import { wasmMemoryFor } from '../../wasm-memory.js';

type Module = typeof import('@sqlite.org/sqlite-wasm', { with: { 'resolution-mode': 'import' } });
type Sqlite3 = Awaited<ReturnType<Module['default']>>;
type OoDatabase = InstanceType<Sqlite3['oo1']['DB']>;
type OoStatement = ReturnType<OoDatabase['prepare']>;

let loading: Promise<SqliteDriver> | undefined;

export interface WasmOptions {
  /**
   * For a short-lived process (a CLI command): V8 compiles WebAssembly with a fast baseline compiler, then recompiles
   * hot functions optimised in the background; in a command that opens a matrix and looks a few APIs up that
   * recompilation costs more than it saves (it doubled the CPU time of `anachron history`, perf/sqlite-stores.mjs).
   * The flag holds for the whole process (tree-sitter's WebAssembly too), so a language server does not set it.
   */
  baselineCompiler?: boolean;
}

/** Loads the WebAssembly module once per process (tens of milliseconds) and registers the VFSes. */
export function loadWasmSqlite(options: WasmOptions = {}): Promise<SqliteDriver> {
  loading ??= (async () => {
    if (options.baselineCompiler) setFlagsFromString('--liftoff-only');
    // The module would print to the console (the language server's stdio transport); errors reach us as exceptions.
    const quiet = () => {};
    const global = globalThis as { sqlite3ApiConfig?: object };
    global.sqlite3ApiConfig = { debug: quiet, log: quiet, warn: quiet, error: quiet };
    const init = (await import('@sqlite.org/sqlite-wasm')).default as unknown as (options: object) => Promise<Sqlite3>;
    const wasmMemory = wasmMemoryFor('sqlite'); // sized to a cap on virtual memory, where there is one
    const sqlite3 = await init({ print: quiet, printErr: quiet, ...(wasmMemory ? { wasmMemory } : {}) });
    Object.assign(sqlite3.config, { debug: quiet, log: quiet, warn: quiet, error: quiet });
    installNodeVfs(sqlite3);
    const connections = new Map<string, Connection>();
    return {
      kind: 'wasm' as const,
      label: `WebAssembly SQLite ${sqlite3.version.libVersion}`,
      open: (file: string, options: OpenOptions) => openWasm(sqlite3, connections, file, options),
    };
  })();
  return loading;
}

function openWasm(sqlite3: Sqlite3, connections: Map<string, Connection>, file: string, options: OpenOptions): SqlDatabase {
  if (options.mode === 'immutable') return new Handle(Connection.open(sqlite3, file, options));
  const key = resolve(file);
  let connection = connections.get(key);
  if (connection && options.mode === 'write' && !connection.writable) {
    throw new SqliteError('SQLITE_BUSY', `${file} is open read-only in this process; close it before writing`);
  }
  if (!connection) {
    const release = options.mode === 'read' ? acquireFileLock(file, 'wasm', true) : acquireFileLock(file, 'wasm');
    if (!release) return new Handle(Connection.open(sqlite3, file, { mode: readOnlyFolderMode(file) }));
    try {
      connection = Connection.open(sqlite3, file, options);
    } catch (e) {
      release();
      throw e;
    }
    connections.set(key, connection);
    connection.onClose = () => {
      connections.delete(key);
      release();
    };
  }
  return new Handle(connection);
}

/**
 * How to read a file in a folder nobody can write to: as immutable (SQLite could not create the log index a
 * read-only connection needs there) — unless a writer left a log there, which only a writable folder can replay.
 */
function readOnlyFolderMode(file: string): 'immutable' {
  if ((statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0) > 0) {
    throw new SqliteError('SQLITE_READONLY', `${file} has an unfinished write-ahead log (${file}-wal) in a read-only folder: copy both files to a writable folder to read them`);
  }
  return 'immutable';
}

/** One open database file. Several handles may share it (see the header). */
class Connection {
  refs = 0;
  depth = 0;
  onClose: (() => void) | undefined;
  readonly statements = new Map<string, WasmStatement<unknown>>();

  private constructor(
    readonly sqlite3: Sqlite3,
    readonly db: OoDatabase,
    readonly file: string,
    readonly writable: boolean,
  ) {}

  static open(sqlite3: Sqlite3, file: string, options: OpenOptions): Connection {
    const writable = options.mode === 'write';
    let db: OoDatabase;
    try {
      db = new sqlite3.oo1.DB({ filename: file, flags: writable ? (options.create ? 'c' : 'w') : 'r', vfs: options.mode === 'immutable' ? IMMUTABLE_VFS : OWNED_VFS });
    } catch (e) {
      throw toSqliteError(sqlite3, e, file);
    }
    const connection = new Connection(sqlite3, db, file, writable);
    try {
      sqlite3.capi.sqlite3_extended_result_codes(db.pointer!, 1);
      // Sorting and VACUUM in memory: the VFS's temporary files would only be slower.
      db.exec('PRAGMA temp_store = MEMORY');
      if (options.mode !== 'immutable') db.exec('PRAGMA locking_mode = EXCLUSIVE');
      // Fail at open on a file that is no database; a writer also recovers the journal or log a killed writer left.
      db.exec('SELECT count(*) FROM sqlite_master');
    } catch (e) {
      db.close();
      throw toSqliteError(sqlite3, e, file);
    }
    return connection;
  }

  statement<Row>(sql: string): WasmStatement<Row> {
    let stmt = this.statements.get(sql) as WasmStatement<Row> | undefined;
    if (!stmt) {
      stmt = new WasmStatement<Row>(this, sql);
      this.statements.set(sql, stmt as WasmStatement<unknown>);
    }
    return stmt;
  }

  close(): void {
    for (const stmt of this.statements.values()) stmt.finalize();
    this.statements.clear();
    this.db.close();
    this.onClose?.();
  }
}

/** The module's exported C functions, called directly where the wrapped API would convert every value twice. */
interface RawExports {
  sqlite3_step(stmt: number): number;
  sqlite3_column_count(stmt: number): number;
  sqlite3_column_name(stmt: number, i: number): number;
  sqlite3_column_type(stmt: number, i: number): number;
  sqlite3_column_double(stmt: number, i: number): number;
  sqlite3_column_text(stmt: number, i: number): number;
  sqlite3_column_blob(stmt: number, i: number): number;
  sqlite3_column_bytes(stmt: number, i: number): number;
  sqlite3_reset(stmt: number): number;
  sqlite3_clear_bindings(stmt: number): number;
}
const SQLITE_ROW = 100;
const SQLITE_DONE = 101;
const utf8 = new TextDecoder();

class WasmStatement<Row> implements SqlStatement<Row> {
  private readonly stmt: OoStatement;
  private readonly pointer: number;
  private readonly raw: RawExports;
  /** Parameter index -> name without its prefix (`@id` -> `id`); null for `?`. */
  private readonly names: (string | null)[];
  /** The result columns' names. */
  private readonly columns: string[];
  private busy = false;

  constructor(
    private readonly connection: Connection,
    private readonly sql: string,
  ) {
    try {
      this.stmt = connection.db.prepare(sql);
    } catch (e) {
      throw toSqliteError(connection.sqlite3, e);
    }
    const { capi, wasm } = connection.sqlite3;
    this.pointer = this.stmt.pointer!;
    this.raw = wasm.exports as unknown as RawExports;
    this.names = [];
    for (let i = 1; i <= this.stmt.parameterCount; i++) this.names.push(capi.sqlite3_bind_parameter_name(this.pointer, i)?.slice(1) ?? null);
    this.columns = [];
    for (let i = 0; i < this.raw.sqlite3_column_count(this.pointer); i++) this.columns.push(wasm.cstrToJs(this.raw.sqlite3_column_name(this.pointer, i)) ?? '');
  }

  /** The next row, or undefined when there is none; an error from SQLite as the database states it. */
  private step(): Row | undefined {
    const rc = this.raw.sqlite3_step(this.pointer);
    if (rc === SQLITE_DONE) return undefined;
    if (rc !== SQLITE_ROW) throw stepError(this.connection, rc);
    const raw = this.raw;
    const row: Record<string, unknown> = {};
    for (let i = 0; i < this.columns.length; i++) {
      let value: unknown;
      switch (raw.sqlite3_column_type(this.pointer, i)) {
        case 1: // INTEGER: a number, as better-sqlite3 gives it
        case 2: // FLOAT
          value = raw.sqlite3_column_double(this.pointer, i);
          break;
        case 3: {
          const at = raw.sqlite3_column_text(this.pointer, i);
          value = utf8.decode(this.connection.sqlite3.wasm.heap8u().subarray(at, at + raw.sqlite3_column_bytes(this.pointer, i)));
          break;
        }
        case 4: {
          const at = raw.sqlite3_column_blob(this.pointer, i);
          value = this.connection.sqlite3.wasm.heap8u().slice(at, at + raw.sqlite3_column_bytes(this.pointer, i));
          break;
        }
        default:
          value = null;
      }
      row[this.columns[i]!] = value;
    }
    return row as Row;
  }

  private bind(params: unknown[]): void {
    if (params.length === 0) return;
    const named = params.length === 1 && params[0] !== null && typeof params[0] === 'object' && !(params[0] instanceof Uint8Array);
    this.names.forEach((name, i) => {
      let value: unknown;
      if (named) {
        const object = params[0] as Record<string, unknown>;
        if (name === null || !(name in object)) throw new SqliteError('SQLITE_RANGE', `Missing named parameter "${name ?? i + 1}"`);
        value = object[name];
      } else {
        if (i >= params.length) throw new SqliteError('SQLITE_RANGE', `Too few parameter values were provided (${params.length} for ${this.names.length})`);
        value = params[i];
      }
      this.stmt.bind(i + 1, (value === undefined ? null : typeof value === 'boolean' ? Number(value) : value) as never);
    });
  }

  /** Binds, runs `body`, and always leaves the statement reset (so it holds no read open). */
  private use<T>(params: unknown[], body: () => T): T {
    if (this.busy) throw new SqliteError('SQLITE_MISUSE', `This statement is busy: ${this.sql.slice(0, 80)}`);
    this.busy = true;
    try {
      this.bind(params);
      return body();
    } catch (e) {
      throw toSqliteError(this.connection.sqlite3, e);
    } finally {
      this.reset();
    }
  }

  /** reset() of the WebAssembly API rethrows the last step's error; the caller has that error already. */
  private reset(): void {
    this.raw.sqlite3_reset(this.pointer);
    this.raw.sqlite3_clear_bindings(this.pointer);
    this.busy = false;
  }

  get(...params: unknown[]): Row | undefined {
    return this.use(params, () => this.step());
  }

  all(...params: unknown[]): Row[] {
    return this.use(params, () => {
      const rows: Row[] = [];
      for (let row = this.step(); row !== undefined; row = this.step()) rows.push(row);
      return rows;
    });
  }

  *iterate(...params: unknown[]): IterableIterator<Row> {
    if (this.busy) throw new SqliteError('SQLITE_MISUSE', `This statement is busy: ${this.sql.slice(0, 80)}`);
    this.busy = true;
    try {
      try {
        this.bind(params);
      } catch (e) {
        throw toSqliteError(this.connection.sqlite3, e);
      }
      for (;;) {
        const row = this.step();
        if (row === undefined) return;
        yield row;
      }
    } finally {
      // Also when the loop that reads the rows breaks early.
      this.reset();
    }
  }

  run(...params: unknown[]): RunResult {
    return this.use(params, () => {
      this.step();
      const { capi } = this.connection.sqlite3;
      return { changes: this.connection.db.changes(), lastInsertRowid: Number(capi.sqlite3_last_insert_rowid(this.connection.db.pointer!)) };
    });
  }

  finalize(): void {
    this.stmt.finalize();
  }
}

/** What a store holds: a view of a (possibly shared) connection. */
class Handle implements SqlDatabase {
  readonly store = 'wasm' as const;
  private closed = false;

  constructor(private readonly connection: Connection) {
    connection.refs++;
  }

  get file(): string {
    return this.connection.file;
  }

  get open(): boolean {
    return !this.closed;
  }

  private live(): Connection {
    if (this.closed) throw new SqliteError('SQLITE_MISUSE', `${this.connection.file}: the database connection is not open`);
    return this.connection;
  }

  prepare<Row>(sql: string): SqlStatement<Row> {
    return this.live().statement<Row>(sql);
  }

  exec(sql: string): void {
    const connection = this.live();
    try {
      connection.db.exec(sql);
    } catch (e) {
      throw toSqliteError(connection.sqlite3, e);
    }
  }

  pragma(statement: string): unknown {
    const connection = this.live();
    try {
      const values = connection.db.selectArray(`PRAGMA ${statement}`);
      return values?.[0];
    } catch (e) {
      throw toSqliteError(connection.sqlite3, e);
    }
  }

  transaction<T>(fn: () => T, behaviour: 'deferred' | 'immediate' = 'deferred'): T {
    const connection = this.live();
    const depth = connection.depth;
    this.exec(depth === 0 ? (behaviour === 'immediate' ? 'BEGIN IMMEDIATE' : 'BEGIN') : `SAVEPOINT anachron_${depth}`);
    connection.depth++;
    let result: T;
    try {
      result = fn();
      if (result instanceof Promise) throw new TypeError('Transaction function cannot return a promise');
    } catch (e) {
      connection.depth--;
      try {
        this.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO anachron_${depth}; RELEASE anachron_${depth}`);
      } catch {
        // SQLite may have rolled back already (e.g. after SQLITE_FULL); the first error is the one to report
      }
      throw e;
    }
    connection.depth--;
    this.exec(depth === 0 ? 'COMMIT' : `RELEASE anachron_${depth}`);
    return result;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (--this.connection.refs === 0) this.connection.close();
  }
}

/** The error of a failed step, from the database's extended error code and message. */
function stepError(connection: Connection, rc: number): SqliteError {
  const { capi } = connection.sqlite3;
  const code = capi.sqlite3_extended_errcode(connection.db.pointer!) || rc;
  return new SqliteError(capi.sqlite3_js_rc_str(code) ?? 'SQLITE_ERROR', capi.sqlite3_errmsg(connection.db.pointer!));
}

/** SQLite3Error (result code and a prefixed message) -> SqliteError with better-sqlite3's code names and message. */
function toSqliteError(sqlite3: Sqlite3, e: unknown, file?: string): unknown {
  if (e instanceof SqliteError || !(e instanceof sqlite3.SQLite3Error)) return e;
  const code = sqlite3.capi.sqlite3_js_rc_str(e.resultCode) ?? 'SQLITE_ERROR';
  let message = e.message.replace(/^SQLITE_[A-Z_]+: sqlite3 result code \d+: /, '');
  if (file && code.startsWith('SQLITE_CANTOPEN')) message = `unable to open database file ${file}`;
  return Object.assign(new SqliteError(code, message), { stack: e.stack });
}
