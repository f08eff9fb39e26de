// The two SQLite implementations behind store/sqlite/ behave as one: the same matrix answers the same on both,
// files written by either read on the other, and a file being written is owned by one process (file-lock.ts) —
// taken over when that process died, refused with its name while it lives.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { SqliteDriver } from '../server/src/store/sqlite/database.js';
import { isUniqueViolation } from '../server/src/store/sqlite/database.js';
import { lockFileOf, lockOwner } from '../server/src/store/sqlite/file-lock.js';
import { loadNativeSqlite } from '../server/src/store/sqlite/native.js';
import { loadWasmSqlite } from '../server/src/store/sqlite/wasm.js';
import { MATRIX_SCHEMA_VERSION } from '../server/src/store/schema.js';
import { SqliteMatrix } from '../server/src/store/sqlite-matrix.js';

const MATRICES = join(__dirname, '..', 'matrices');
let native: SqliteDriver;
let wasm: SqliteDriver;
const scratch = () => mkdtempSync(join(tmpdir(), 'anachron-sqlite-'));

before(async () => {
  const loaded = loadNativeSqlite();
  if (loaded instanceof Error) throw loaded;
  native = loaded;
  wasm = await loadWasmSqlite();
});

/** A child process that opens `file` with the WebAssembly SQLite to write, says "open", and waits to be killed. */
function holder(file: string): Promise<{ pid: number; kill: () => Promise<void> }> {
  const code = `(async () => { const { loadWasmSqlite } = require(${JSON.stringify(join(__dirname, '..', 'server', 'src', 'store', 'sqlite', 'wasm.ts'))});
    const db = (await loadWasmSqlite()).open(${JSON.stringify(file)}, { mode: 'write', create: true });
    db.pragma('journal_mode = WAL'); db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY)'); db.prepare('INSERT INTO t DEFAULT VALUES').run();
    process.stdout.write('open\\n'); setInterval(() => {}, 1000); })()`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`the holder exited with ${code}: ${stderr}`)));
    child.stdout.on('data', (d: Buffer) => {
      if (!String(d).includes('open')) return;
      child.removeAllListeners('exit');
      resolve({
        pid: child.pid!,
        kill: () => new Promise((done) => {
          child.on('exit', () => done());
          child.kill('SIGKILL');
        }),
      });
    });
  });
}

describe('one SQLite interface, two implementations', () => {
  test('a matrix gives the same answers on both', () => {
    const a = new SqliteMatrix(join(MATRICES, 'numpy.sqlite'), native);
    const b = new SqliteMatrix(join(MATRICES, 'numpy.sqlite'), wasm);
    try {
      assert.deepEqual(b.versions, a.versions);
      assert.deepEqual(b.versionInfo, a.versionInfo);
      const paths = a.apiPaths();
      assert.deepEqual(b.apiPaths(), paths);
      for (const api of [...paths.filter((_, i) => i % 97 === 0), 'numpy.trapezoid', 'numpy.linalg.norm', 'numpy.no_such_thing']) {
        assert.deepEqual(b.lookup(api), a.lookup(api), api);
        assert.deepEqual(b.groundTruth(api), a.groundTruth(api), api);
        assert.equal(b.hasMembers(api), a.hasMembers(api), api);
        assert.equal(b.isUnresolved(api), a.isUnresolved(api), api);
        assert.deepEqual(b.removalNote(api), a.removalNote(api), api);
      }
      assert.deepEqual(b.groundTruthCounts(), a.groundTruthCounts());
      const doc = a.lookup('numpy.trapz')!.versions.find((v) => v.doc)!.doc!;
      assert.deepEqual(b.apisWithDoc(doc), a.apisWithDoc(doc));
    } finally {
      a.close();
      b.close();
    }
  });

  test('a file that is not a matrix is refused with its name on both', () => {
    const file = join(scratch(), 'broken.sqlite');
    writeFileSync(file, 'not a database at all, but long enough to have a header...'.repeat(20));
    for (const driver of [native, wasm]) assert.throws(() => new SqliteMatrix(file, driver), new RegExp(`${file}: not a usable anachron matrix: file is not a database`), driver.kind);
  });

  for (const kind of ['native', 'wasm'] as const) {
    test(`${kind}: transactions, savepoints, named parameters, constraint errors`, () => {
      const driver = kind === 'native' ? native : wasm;
      const file = join(scratch(), 'run.sqlite');
      const db = driver.open(file, { mode: 'write', create: true });
      try {
        assert.equal(db.pragma('journal_mode = WAL'), 'wal');
        db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, v INTEGER) WITHOUT ROWID');
        const insert = db.prepare('INSERT INTO t (id, v) VALUES (@id, @v)');
        db.transaction(() => {
          insert.run({ id: 'a', v: 1 });
          db.transaction(() => insert.run({ id: 'b', v: 2 }));
        }, 'immediate');
        assert.throws(() => insert.run({ id: 'a', v: 3 }), (e: unknown) => isUniqueViolation(e));
        assert.throws(() => db.transaction(() => {
          insert.run({ id: 'c', v: 3 });
          throw new Error('no');
        }), /no/);
        db.transaction(() => {
          insert.run({ id: 'd', v: 4 });
          assert.throws(() => db.transaction(() => {
            insert.run({ id: 'e', v: 5 });
            throw new Error('inner');
          }), /inner/);
        });
        const ids = db.prepare<{ id: string }>('SELECT id FROM t ORDER BY id');
        for (const row of ids.iterate()) {
          assert.equal(row.id, 'a');
          break; // an iteration left early leaves its statement usable
        }
        assert.deepEqual(ids.all().map((r) => r.id), ['a', 'b', 'd']);
        assert.deepEqual(db.prepare('SELECT v FROM t WHERE id = ?').get('b'), { v: 2 });
        assert.equal(db.prepare('SELECT v FROM t WHERE id = ?').get('zz'), undefined);
        assert.deepEqual(db.prepare('DELETE FROM t WHERE id = ?').run('d'), { changes: 1, lastInsertRowid: 0 });
      } finally {
        db.close();
      }
      assert.ok(!existsSync(lockFileOf(file)), 'closing releases the lock');
    });
  }

  test('what one implementation writes, the other reads: both ways, WAL included', () => {
    const file = join(scratch(), 'run.sqlite');
    const w = wasm.open(file, { mode: 'write', create: true });
    w.pragma('journal_mode = WAL');
    w.exec('CREATE TABLE t (n INTEGER)');
    w.prepare('INSERT INTO t (n) VALUES (?)').run(1);
    w.close();
    const n = native.open(file, { mode: 'write' });
    assert.equal(n.pragma('journal_mode'), 'wal');
    n.prepare('INSERT INTO t (n) VALUES (?)').run(2);
    n.close();
    const r = wasm.open(file, { mode: 'read' });
    assert.deepEqual(r.prepare('SELECT n FROM t ORDER BY n').all(), [{ n: 1 }, { n: 2 }]);
    r.close();
  });

  test('a file the WebAssembly SQLite writes is owned by that process: others are refused with its pid, a dead owner is taken over', async () => {
    const file = join(scratch(), 'run.sqlite');
    const other = await holder(file);
    try {
      assert.equal(lockOwner(file)?.pid, other.pid);
      assert.equal(lockOwner(file)?.store, 'wasm');
      for (const [driver, mode] of [[wasm, 'write'], [wasm, 'read'], [native, 'write'], [native, 'read']] as const) {
        assert.throws(() => driver.open(file, { mode }), new RegExp(`is in use by process ${other.pid} on .* \\(WebAssembly SQLite\\)`), `${driver.kind} ${mode}`);
      }
    } finally {
      await other.kill();
    }
    // kill -9 left the lock (and the log) behind; the next writer takes it over and recovers what was committed.
    assert.ok(existsSync(lockFileOf(file)));
    const db = wasm.open(file, { mode: 'write' });
    try {
      assert.deepEqual(db.prepare('SELECT count(*) AS n FROM t').get(), { n: 1 });
      assert.equal(lockOwner(file)?.pid, process.pid);
    } finally {
      db.close();
    }
    assert.deepEqual(readdirSync(join(file, '..')).filter((f) => f.endsWith('-lock')), []);
  });

  // A mount namespace makes a folder read-only for one child process (root, Linux).
  const readOnlyMounts = process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('unshare', ['-m', 'true']).status === 0;
  test('a run database on a read-only disk is read by the WebAssembly SQLite without a lock', { skip: readOnlyMounts ? false : 'needs root and unshare to mount a folder read-only' }, () => {
    const dir = scratch();
    const file = join(dir, 'run.sqlite');
    const w = wasm.open(file, { mode: 'write', create: true });
    w.pragma('journal_mode = WAL');
    w.exec('CREATE TABLE t (n INTEGER)');
    w.prepare('INSERT INTO t (n) VALUES (?)').run(7);
    w.close();
    const reader = `(async () => { const { loadWasmSqlite } = require(${JSON.stringify(join(__dirname, '..', 'server', 'src', 'store', 'sqlite', 'wasm.ts'))});
      const db = (await loadWasmSqlite()).open(${JSON.stringify(file)}, { mode: 'read' }); process.stdout.write(JSON.stringify(db.prepare('SELECT n FROM t').all())); db.close(); })()`;
    const script = `mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && exec "$2" --import tsx -e "$3"`;
    const r = spawnSync('unshare', ['-m', 'sh', '-c', script, 'sh', dir, process.execPath, reader], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [{ n: 7 }]);
    assert.deepEqual(readdirSync(dir), ['run.sqlite']);
  });

  test('matrices are read without locks: any number of readers, nothing written beside them', () => {
    const file = join(MATRICES, 'numpy.sqlite');
    const before = readdirSync(MATRICES);
    const readers = [wasm, wasm, native].map((d) => d.open(file, { mode: 'immutable' }));
    for (const r of readers) assert.equal(r.pragma('user_version'), MATRIX_SCHEMA_VERSION);
    readers.forEach((r) => r.close());
    assert.deepEqual(readdirSync(MATRICES), before);
  });
});
