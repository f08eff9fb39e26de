// The file system under the WebAssembly SQLite: SQLite's VFS interface implemented on Node's synchronous fs, so
// the WebAssembly build reads and writes the same .sqlite files as the native one, a page at a time. JavaScript has
// no byte-range locks, so neither VFS locks anything; they serve the two ways anachron uses a file:
// - IMMUTABLE_VFS: files nothing writes while they are open (the matrices). Read-only (SQLITE_IOCAP_IMMUTABLE: no
//   locks, no journal), so any number of processes share them, on a read-only disk too.
// - OWNED_VFS: files one process owns while it has them open (run databases, a matrix being built): file-lock.ts
//   keeps other processes out, and wasm.ts opens them in SQLite's exclusive locking mode, in which the write-ahead
//   log needs no shared memory.
import { randomFillSync, randomUUID } from 'node:crypto';
import { accessSync, closeSync, constants, existsSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const IMMUTABLE_VFS = 'anachron-immutable';
export const OWNED_VFS = 'anachron-owned';

type Sqlite3 = Awaited<ReturnType<typeof import('@sqlite.org/sqlite-wasm', { with: { 'resolution-mode': 'import' } })['default']>>;

interface OpenFile {
  fd: number;
  path: string;
  deleteOnClose: boolean;
}

type Methods = Partial<Record<string, (...args: never[]) => number>>;

/** Registers IMMUTABLE_VFS and OWNED_VFS with the loaded module. */
export function installNodeVfs(sqlite3: Sqlite3): void {
  const { capi } = sqlite3;
  // Open files by their sqlite3_file pointer, shared by a VFS's xOpen and its files' methods.
  const files = new Map<number, OpenFile>();
  for (const immutable of [true, false]) {
    const io = new capi.sqlite3_io_methods();
    io.iVersion = 1;
    const vfs = new capi.sqlite3_vfs();
    vfs.$iVersion = 2;
    vfs.$szOsFile = (capi.sqlite3_file as unknown as { structInfo: { sizeof: number } }).structInfo.sizeof;
    vfs.$mxPathname = 4096;
    sqlite3.vfs.installVfs({
      io: { struct: io, methods: fileMethods(sqlite3, files, immutable) as never },
      vfs: { struct: vfs, methods: vfsMethods(sqlite3, files, immutable, io.pointer!) as never, name: immutable ? IMMUTABLE_VFS : OWNED_VFS },
    });
  }
}

function heapBytes(sqlite3: Sqlite3, ptr: number, n: number): Uint8Array {
  return sqlite3.wasm.heap8u().subarray(ptr, ptr + n);
}

/** The methods of an open file (sqlite3_io_methods) on Node's fs. */
function fileMethods(sqlite3: Sqlite3, files: Map<number, OpenFile>, immutable: boolean): Methods {
  const { capi, wasm } = sqlite3;
  const bytes = (ptr: number, n: number) => heapBytes(sqlite3, ptr, n);
  return {
    xClose(pFile: number) {
      const f = files.get(pFile);
      files.delete(pFile);
      if (!f) return capi.SQLITE_OK;
      try {
        closeSync(f.fd);
        if (f.deleteOnClose) rmSync(f.path, { force: true });
      } catch {
        return capi.SQLITE_IOERR_CLOSE;
      }
      return capi.SQLITE_OK;
    },
    xRead(pFile: number, pBuf: number, n: number, offset: number | bigint) {
      const f = files.get(pFile)!;
      const target = bytes(Number(pBuf), n);
      let got: number;
      try {
        got = readSync(f.fd, target, 0, n, Number(offset));
      } catch {
        return capi.SQLITE_IOERR_READ;
      }
      if (got < n) {
        // SQLite requires the unread part zeroed on a short read.
        target.fill(0, got);
        return capi.SQLITE_IOERR_SHORT_READ;
      }
      return capi.SQLITE_OK;
    },
    xWrite(pFile: number, pBuf: number, n: number, offset: number | bigint) {
      try {
        return writeSync(files.get(pFile)!.fd, bytes(Number(pBuf), n), 0, n, Number(offset)) === n ? capi.SQLITE_OK : capi.SQLITE_IOERR_WRITE;
      } catch {
        return capi.SQLITE_IOERR_WRITE;
      }
    },
    xTruncate(pFile: number, size: number | bigint) {
      try {
        ftruncateSync(files.get(pFile)!.fd, Number(size));
        return capi.SQLITE_OK;
      } catch {
        return capi.SQLITE_IOERR_TRUNCATE;
      }
    },
    xSync(pFile: number) {
      try {
        fsyncSync(files.get(pFile)!.fd);
        return capi.SQLITE_OK;
      } catch {
        return capi.SQLITE_IOERR_FSYNC;
      }
    },
    xFileSize(pFile: number, pSize: number) {
      try {
        wasm.poke64(pSize, BigInt(fstatSync(files.get(pFile)!.fd).size));
        return capi.SQLITE_OK;
      } catch {
        return capi.SQLITE_IOERR_FSTAT;
      }
    },
    // Exclusion is the caller's (see the header); SQLite's lock levels need no file system work.
    xLock() {
      return capi.SQLITE_OK;
    },
    xUnlock() {
      return capi.SQLITE_OK;
    },
    xCheckReservedLock(_pFile: number, pOut: number) {
      wasm.poke32(pOut, 0);
      return capi.SQLITE_OK;
    },
    xFileControl() {
      return capi.SQLITE_NOTFOUND;
    },
    xSectorSize() {
      return 4096;
    },
    xDeviceCharacteristics() {
      return immutable ? capi.SQLITE_IOCAP_IMMUTABLE : 0;
    },
  };
}

/** The file system's methods (sqlite3_vfs): opening files with the given io methods, deleting, access, paths, time. */
function vfsMethods(sqlite3: Sqlite3, files: Map<number, OpenFile>, immutable: boolean, ioPointer: number): Methods {
  const { capi, wasm } = sqlite3;
  const bytes = (ptr: number, n: number) => heapBytes(sqlite3, ptr, n);
  return {
    xOpen(_pVfs: number, zName: number, pFile: number, flags: number, pOutFlags: number) {
      // A journal or WAL beside an immutable file would mean someone writes it.
      if (immutable && (flags & capi.SQLITE_OPEN_MAIN_DB) === 0) return capi.SQLITE_CANTOPEN;
      const named = zName !== 0;
      const path = named ? wasm.cstrToJs(zName)! : join(tmpdir(), `anachron-sqlite-${randomUUID()}`);
      const writable = !immutable && (flags & capi.SQLITE_OPEN_READWRITE) !== 0;
      let mode = writable ? constants.O_RDWR : constants.O_RDONLY;
      if (writable && flags & capi.SQLITE_OPEN_CREATE) mode |= constants.O_CREAT;
      if (writable && flags & capi.SQLITE_OPEN_EXCLUSIVE) mode |= constants.O_EXCL;
      let fd: number;
      try {
        fd = openSync(path, mode, 0o644);
      } catch {
        return capi.SQLITE_CANTOPEN;
      }
      files.set(pFile, { fd, path, deleteOnClose: !named || (flags & capi.SQLITE_OPEN_DELETEONCLOSE) !== 0 });
      const file = new capi.sqlite3_file(pFile);
      file.$pMethods = ioPointer;
      file.dispose();
      if (pOutFlags) wasm.poke32(pOutFlags, writable ? flags : (flags & ~(capi.SQLITE_OPEN_READWRITE | capi.SQLITE_OPEN_CREATE)) | capi.SQLITE_OPEN_READONLY);
      return capi.SQLITE_OK;
    },
    xDelete(_pVfs: number, zName: number, syncDir: number) {
      const path = wasm.cstrToJs(zName)!;
      try {
        rmSync(path, { force: true });
        if (syncDir && process.platform !== 'win32') {
          const dir = openSync(dirname(path), constants.O_RDONLY);
          try {
            fsyncSync(dir);
          } finally {
            closeSync(dir);
          }
        }
        return capi.SQLITE_OK;
      } catch {
        return capi.SQLITE_IOERR_DELETE;
      }
    },
    xAccess(_pVfs: number, zName: number, flags: number, pOut: number) {
      // SQLite asks on every open whether a journal or log exists: mostly not, and a thrown error is costly.
      const path = wasm.cstrToJs(zName)!;
      let ok = existsSync(path) ? 1 : 0;
      if (ok && flags !== capi.SQLITE_ACCESS_EXISTS) {
        try {
          accessSync(path, flags === capi.SQLITE_ACCESS_READWRITE ? constants.R_OK | constants.W_OK : constants.R_OK);
        } catch {
          ok = 0;
        }
      }
      wasm.poke32(pOut, ok);
      return capi.SQLITE_OK;
    },
    xFullPathname(_pVfs: number, zName: number, nOut: number, zOut: number) {
      const full = resolve(wasm.cstrToJs(zName)!);
      return wasm.jstrcpy(full, wasm.heap8u(), zOut, nOut, true) < nOut ? capi.SQLITE_OK : capi.SQLITE_CANTOPEN;
    },
    xRandomness(_pVfs: number, n: number, zOut: number) {
      randomFillSync(bytes(zOut, n));
      return n;
    },
    xSleep(_pVfs: number, microseconds: number) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(1, Math.round(microseconds / 1000)));
      return microseconds;
    },
    xCurrentTime(_pVfs: number, pOut: number) {
      wasm.poke64f(pOut, 2440587.5 + Date.now() / 86_400_000);
      return capi.SQLITE_OK;
    },
    xCurrentTimeInt64(_pVfs: number, pOut: number) {
      // Milliseconds since the Julian epoch.
      wasm.poke64(pOut, BigInt(Date.now()) + 210_866_760_000_000n);
      return capi.SQLITE_OK;
    },
    xGetLastError() {
      return 0;
    },
  };
}
