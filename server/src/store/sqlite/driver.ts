// Which SQLite implementation this process uses, chosen once at start-up: better-sqlite3 when its native module
// loads here, else the WebAssembly build. ANACHRON_SQLITE=native|wasm forces one (tests, and users who want to
// rule the native module out). Entry points (the language server, the CLI, the MCP server) await chooseSqlite()
// before opening anything; library code asks sqlite() for the choice.
import type { SqliteDriver } from './database.js';
import { loadNativeSqlite } from './native.js';
import { loadWasmSqlite, type WasmOptions } from './wasm.js';

export const SQLITE_ENV = 'ANACHRON_SQLITE';

export interface SqliteChoice {
  driver: SqliteDriver;
  /** Why the native implementation is not the one in use, when it is not. */
  nativeUnavailable?: string;
}

let chosen: SqliteChoice | undefined;
let choosing: Promise<SqliteChoice> | undefined;

/** Chooses the implementation for this process (once; later calls return the first choice). */
export function chooseSqlite(preference: string | undefined = process.env[SQLITE_ENV], wasm: WasmOptions = {}): Promise<SqliteChoice> {
  if (chosen) return Promise.resolve(chosen);
  choosing ??= (async () => {
    const wanted = (preference ?? '').trim().toLowerCase();
    if (wanted !== '' && wanted !== 'auto' && wanted !== 'native' && wanted !== 'wasm') {
      throw new Error(`${SQLITE_ENV}=${preference}: expected native, wasm or auto`);
    }
    let choice: SqliteChoice;
    if (wanted === 'wasm') {
      choice = { driver: await loadWasmSqlite(wasm), nativeUnavailable: `${SQLITE_ENV}=wasm` };
    } else {
      const native = loadNativeSqlite();
      if (native instanceof Error) {
        if (wanted === 'native') throw native;
        choice = { driver: await loadWasmSqlite(wasm), nativeUnavailable: native.message };
      } else choice = { driver: native };
    }
    chosen = choice;
    return choice;
  })();
  return choosing;
}

/**
 * The implementation in use. Before chooseSqlite() has run (tests, scripts that open a matrix directly) this is
 * better-sqlite3 when it loads, which needs no waiting; the WebAssembly build needs chooseSqlite() first.
 */
export function sqlite(): SqliteDriver {
  if (chosen) return chosen.driver;
  if ((process.env[SQLITE_ENV] ?? '').trim().toLowerCase() === 'wasm') throw new Error(`${SQLITE_ENV}=wasm: the WebAssembly SQLite must be loaded first (chooseSqlite())`);
  const native = loadNativeSqlite();
  if (native instanceof Error) throw new Error(`${native.message}; the WebAssembly SQLite must be loaded first (chooseSqlite())`);
  chosen = { driver: native };
  return native;
}
