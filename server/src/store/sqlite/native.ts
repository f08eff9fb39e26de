// The native implementation: better-sqlite3, where its addon loads (it is built for one Node ABI, so not in
// desktop VS Code's Electron, nor in a .vsix that must run on every platform).
import type BetterSqlite3 from 'better-sqlite3';
import { SqliteError, type OpenOptions, type SqlDatabase, type SqliteDriver, type SqlStatement } from './database.js';
import { acquireFileLock, inUseError, otherLiveOwner } from './file-lock.js';

type Constructor = typeof BetterSqlite3;

let loaded: SqliteDriver | Error | undefined;

/** better-sqlite3 if it loads and opens a database here; otherwise the reason it does not. Tried once per process. */
export function loadNativeSqlite(): SqliteDriver | Error {
  loaded ??= tryLoad();
  return loaded;
}

function tryLoad(): SqliteDriver | Error {
  let Database: Constructor;
  try {
    // Resolved at run time, never bundled: the addon sits in node_modules beside the CLI.
    Database = require('better-sqlite3') as Constructor;
    new Database(':memory:').close();
  } catch (e) {
    return new Error(`better-sqlite3 does not load in Node ${process.version} (ABI ${process.versions.modules}): ${String((e as Error).message ?? e).split('\n')[0]}`);
  }
  return {
    kind: 'native',
    label: 'native SQLite (better-sqlite3)',
    open: (file, options) => new NativeDatabase(Database, file, options),
  };
}

class NativeDatabase implements SqlDatabase {
  readonly store = 'native' as const;
  private readonly db: BetterSqlite3.Database;
  private readonly release: (() => void) | undefined;

  constructor(Database: Constructor, readonly file: string, options: OpenOptions) {
    // file-lock.ts: writers own the file; a reader keeps out of a file the WebAssembly SQLite writes (its
    // write-ahead log index is not in shared memory).
    if (options.mode === 'write') this.release = acquireFileLock(file, 'native');
    else if (options.mode === 'read') {
      const owner = otherLiveOwner(file);
      if (owner?.store === 'wasm') throw inUseError(file, owner);
    }
    try {
      this.db = options.mode === 'write' ? new Database(file, { fileMustExist: options.create !== true }) : new Database(file, { readonly: true, fileMustExist: true });
    } catch (e) {
      this.release?.();
      throw asSqliteError(e);
    }
  }

  get open(): boolean {
    return this.db.open;
  }

  prepare<Row>(sql: string): SqlStatement<Row> {
    const stmt = wrap(() => this.db.prepare(sql));
    return {
      get: (...params) => wrap(() => stmt.get(...params) as Row | undefined),
      all: (...params) => wrap(() => stmt.all(...params) as Row[]),
      iterate: (...params) => wrap(() => stmt.iterate(...params) as IterableIterator<Row>),
      run: (...params) =>
        wrap(() => {
          const info = stmt.run(...params);
          return { changes: info.changes, lastInsertRowid: Number(info.lastInsertRowid) };
        }),
    };
  }

  exec(sql: string): void {
    wrap(() => this.db.exec(sql));
  }

  pragma(statement: string): unknown {
    return wrap(() => this.db.pragma(statement, { simple: true }));
  }

  transaction<T>(fn: () => T, behaviour: 'deferred' | 'immediate' = 'deferred'): T {
    const tx = this.db.transaction(fn);
    return behaviour === 'immediate' ? tx.immediate() : tx();
  }

  close(): void {
    if (this.db.open) this.db.close();
    this.release?.();
  }
}

function wrap<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw asSqliteError(e);
  }
}

/** better-sqlite3's SqliteError carries the code already; keep one error type for callers. */
function asSqliteError(e: unknown): unknown {
  const code = (e as { code?: unknown }).code;
  if (e instanceof Error && typeof code === 'string' && code.startsWith('SQLITE_')) return Object.assign(new SqliteError(code, e.message), { stack: e.stack });
  return e;
}
