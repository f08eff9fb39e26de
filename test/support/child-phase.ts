// Parts of a test that must run in a process of their own — to be killed with SIGKILL, or to use another SQLite
// store than the test process (a store is chosen once per process): the test file starts itself again with the
// phase in ANACHRON_TEST_PHASE, and the child reports JSON lines on stdout.
import { spawn, type ChildProcess } from 'node:child_process';
import { chooseSqlite } from '../../server/src/store/sqlite/driver.js';

const PHASE_ENV = 'ANACHRON_TEST_PHASE';

/** In the child: the phase it was started for (the SQLite store already chosen), or undefined in the test process. */
export async function childPhase<P>(): Promise<P | undefined> {
  const raw = process.env[PHASE_ENV];
  if (!raw) return undefined;
  await chooseSqlite();
  return JSON.parse(raw) as P;
}

/** In the child: one report to the test process. */
export function report(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

export interface Phase<R> {
  readonly child: ChildProcess;
  /** Resolves with the first report `accept` takes (rejects when the child exits first or the time is up). */
  until(accept: (r: R) => boolean, timeoutMs?: number): Promise<R>;
  /** Resolves with the last report once the child exits with 0. */
  finished(): Promise<R>;
  kill(): Promise<void>;
}

/** Starts `file` (a test file) in a child process for `phase`, reading its databases with `store`. */
export function startPhase<R>(file: string, phase: object, store: 'native' | 'wasm'): Phase<R> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], { env: { ...process.env, [PHASE_ENV]: JSON.stringify(phase), ANACHRON_SQLITE: store }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const reports: R[] = [];
  const listeners = new Set<() => void>();
  let buffered = '';
  child.stdout!.on('data', (c: Buffer) => {
    buffered += c.toString();
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line.startsWith('{')) reports.push(JSON.parse(line) as R);
    }
    listeners.forEach((l) => l());
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    until(accept, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no report accepted within ${timeoutMs} ms: ${stderr}`)), timeoutMs);
        const check = () => {
          const found = reports.find(accept);
          if (!found) return;
          clearTimeout(timer);
          listeners.delete(check);
          resolve(found);
        };
        listeners.add(check);
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`the child exited (${code}) before a report was accepted: ${stderr}`));
        });
        check();
      });
    },
    async finished() {
      const code = await exited;
      if (code !== 0) throw new Error(`the child exited with ${code}: ${stderr}`);
      if (reports.length === 0) throw new Error(`the child reported nothing: ${stderr}`);
      return reports[reports.length - 1]!;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
