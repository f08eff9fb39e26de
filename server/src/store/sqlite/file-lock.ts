// Who owns a database file that is written: `<file>-lock`, a small JSON file naming the process (and which SQLite
// implementation it runs), held from open to close. The WebAssembly SQLite has no byte-range locks (JavaScript
// offers none), so it keeps its write-ahead log index in its own memory and must be the only process with the file
// open; this lock is how it knows, and how the native implementation knows not to open a file the WebAssembly one
// is writing. Rules (native.ts, wasm.ts):
// - a writer, native or WebAssembly, takes the lock;
// - a WebAssembly reader takes it too; a native reader takes none but does not open a file a WebAssembly process holds;
// - a lock whose process died on this host (kill -9) is taken over; a lock file left without an owner (a crash
//   between creating and writing it) counts as stale after a few seconds.
// Within one process the lock is counted, so the stores that open one file twice (a run store and its drift store)
// share it.
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { SqliteError, type StoreKind } from './database.js';

export interface LockOwner {
  pid: number;
  host: string;
  store: StoreKind;
  since: string;
}

export const lockFileOf = (dbFile: string): string => `${dbFile}-lock`;

/** Who holds the lock of a database file; null when no one does (or the lock file has no readable owner). */
export function lockOwner(dbFile: string): LockOwner | null {
  try {
    const o = JSON.parse(readFileSync(lockFileOf(dbFile), 'utf8')) as Partial<LockOwner>;
    if (typeof o.pid !== 'number' || typeof o.host !== 'string') return null;
    return { pid: o.pid, host: o.host, store: o.store === 'native' ? 'native' : 'wasm', since: String(o.since ?? '') };
  } catch {
    return null;
  }
}

/** Whether a process of this host is alive (a process of another user counts). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const isMine = (o: LockOwner) => o.pid === process.pid && o.host === hostname();

/** The live process (other than this one) holding the lock, if any. */
export function otherLiveOwner(dbFile: string): LockOwner | null {
  const owner = lockOwner(dbFile);
  if (!owner || isMine(owner)) return null;
  return owner.host !== hostname() || processAlive(owner.pid) ? owner : null;
}

function isStale(dbFile: string): boolean {
  const owner = lockOwner(dbFile);
  // Called only when this process does not hold it: a lock naming this process is a leftover.
  if (owner) return isMine(owner) || (owner.host === hostname() && !processAlive(owner.pid));
  try {
    return Date.now() - statSync(lockFileOf(dbFile)).mtimeMs > 5_000;
  } catch {
    return true;
  }
}

export function inUseError(dbFile: string, owner: LockOwner | null): SqliteError {
  const who = owner ? `process ${owner.pid} on ${owner.host} (${owner.store === 'wasm' ? 'WebAssembly' : 'native'} SQLite) since ${owner.since}` : 'another process';
  return new SqliteError('SQLITE_BUSY', `${dbFile} is in use by ${who}; stop it first (a lock left by a process that died on this host is taken over automatically)`);
}

const held = new Map<string, { count: number }>();

/**
 * Takes the lock of `dbFile` for this process (counted); returns its release. Throws SQLITE_BUSY when another live
 * process holds it. A reader (`forReading`) of a file in a folder it cannot write to gets null: no lock can be
 * taken there, and nobody writes the file there either.
 */
export function acquireFileLock(dbFile: string, store: StoreKind): () => void;
export function acquireFileLock(dbFile: string, store: StoreKind, forReading: true): (() => void) | null;
export function acquireFileLock(dbFile: string, store: StoreKind, forReading = false): (() => void) | null {
  const key = resolve(dbFile);
  let entry = held.get(key);
  if (!entry) {
    if (!take(dbFile, store, forReading)) return null;
    entry = { count: 0 };
    held.set(key, entry);
  }
  entry.count++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--entry.count > 0) return;
    held.delete(key);
    const owner = lockOwner(dbFile);
    if (!owner || isMine(owner)) rmSync(lockFileOf(dbFile), { force: true });
  };
}

/** Creates the lock file; false when a reader may go without (a read-only folder). */
function take(dbFile: string, store: StoreKind, forReading: boolean): boolean {
  const lock = lockFileOf(dbFile);
  const me: LockOwner = { pid: process.pid, host: hostname(), store, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(lock, JSON.stringify(me), { flag: 'wx' });
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (forReading && (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')) return false;
      if (code !== 'EEXIST') throw new SqliteError('SQLITE_CANTOPEN', `cannot create the lock ${lock}: ${(e as Error).message}`);
    }
    if (!isStale(dbFile)) break;
    rmSync(lock, { force: true });
  }
  throw inUseError(dbFile, lockOwner(dbFile));
}
