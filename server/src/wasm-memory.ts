// WebAssembly under a cap on virtual memory (`ulimit -v`, RLIMIT_AS: containers, shared hosts). V8 reserves ~10 GB of
// guard regions per WebAssembly memory for its trap-handler bounds checks, so below a few tens of GB every memory
// (the Python parser's, the WebAssembly SQLite's) failed with "WebAssembly.Memory(): could not allocate memory". With
// --disable-wasm-trap-handler V8 checks bounds inline and reserves only a memory's maximum; emscripten's default
// maximum is 2 GiB, and V8, failing that, takes the largest of 3/4, 1/2, 1/4 of it it can get, leaving too little for
// thread stacks (the process aborted below about 2 GB). Here: who needs the flag, how a process gets it, and memories
// whose maximum is sized to the cap.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { InputError } from './core/errors.js';

export const TRAP_HANDLER_OFF = '--disable-wasm-trap-handler';

const MiB = 2 ** 20;
const GiB = 2 ** 30;
/** Below this address-space limit the guard regions of two or three memories do not fit: run without the trap handler. */
const TRAP_HANDLER_CAP = 64 * GiB;
/** What Node itself takes of the address space before any WebAssembly (its heap reservations, threads' stacks and malloc arenas). */
const NODE_OWN = 1 * GiB;
/** emscripten's largest memory, and a WebAssembly page. */
const WASM_MAXIMUM = 2 * GiB;
const WASM_PAGE = 64 * 1024;

/** The address-space limit in bytes, from /proc/self/limits' text (Linux); null without one. */
export function parseAddressSpaceLimit(limits: string): number | null {
  const m = /^Max address space\s+(\S+)/m.exec(limits);
  if (!m || m[1] === 'unlimited') return null;
  const bytes = Number(m[1]);
  return Number.isFinite(bytes) && bytes > 0 ? bytes : null;
}

/** This process's address-space limit in bytes (children inherit it), or null without one or off Linux. */
export function addressSpaceLimit(): number | null {
  if (process.platform !== 'linux') return null;
  try {
    return parseAddressSpaceLimit(readFileSync('/proc/self/limits', 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The Node arguments a process running anachron's WebAssembly needs under `limit`: the trap handler off where a cap
 * leaves no room for guard regions and the runtime takes the flag (`accepts`: its allowedNodeEnvironmentFlags).
 */
export function wasmNodeArguments(limit: number | null, accepts: (flag: string) => boolean): string[] {
  return limit !== null && limit < TRAP_HANDLER_CAP && accepts(TRAP_HANDLER_OFF) ? [TRAP_HANDLER_OFF] : [];
}

function trapHandlerOff(): boolean {
  return process.execArgv.includes(TRAP_HANDLER_OFF) || (process.env.NODE_OPTIONS ?? '').split(/\s+/).includes(TRAP_HANDLER_OFF);
}

/** The least address space anachron runs in (measured: check and min-versions at 1.2 GB; Node alone takes ~0.75 GB). */
const MINIMUM_ADDRESS_SPACE = 1.2 * GiB;

const inGB = (bytes: number) => `${(bytes / GiB).toFixed(1)} GB`;

/** Why `limit` is too small to run in (said before anything aborts for want of address space), or null. */
export function addressSpaceProblem(limit: number | null): string | null {
  if (limit === null || limit >= MINIMUM_ADDRESS_SPACE) return null;
  return `the address-space limit of this process (ulimit -v: ${inGB(limit)}) is below the ${inGB(MINIMUM_ADDRESS_SPACE)} anachron needs (Node itself takes about 0.75 GB); raise it (ulimit -v ${Math.ceil(MINIMUM_ADDRESS_SPACE / 1024)})`;
}

/**
 * Under a cap on virtual memory, what a process started over stdio (the CLI, a language server) does first: where the
 * cap is too low to run in, it says so and sets exit code 2; where it needs the trap handler off and runs with it on, it
 * runs `script` again in a child that has it, with the same stdio, signals passed on and its exit passed back. Returns
 * whether it did either (this process then runs nothing itself). A process with an IPC channel to its parent cannot be
 * run again this way: whoever starts it passes wasmNodeArguments.
 */
export function handedOffUnderCap(script: string, args: readonly string[]): boolean {
  const limit = addressSpaceLimit();
  const problem = addressSpaceProblem(limit);
  if (problem !== null) {
    process.stderr.write(`anachron: ${problem}\n`);
    process.exitCode = 2;
    return true;
  }
  if (trapHandlerOff()) return false;
  const extra = wasmNodeArguments(limit, (f) => process.allowedNodeEnvironmentFlags.has(f));
  if (extra.length === 0) return false;
  const child = spawn(process.execPath, [...extra, ...process.execArgv, script, ...args], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
  child.on('error', (e) => {
    process.stderr.write(`anachron: cannot start ${process.execPath}: ${e.message}\n`);
    process.exit(2);
  });
  return true;
}

/** Whose memory: the Python parser's (tree-sitter: ~40 bytes a byte of source) or the WebAssembly SQLite's (page caches). */
export type WasmMemoryRole = 'parser' | 'sqlite';

/** emscripten's initial sizes of the two modules (their imports ask for at least this), and each one's share of the room. */
const ROLES: Record<WasmMemoryRole, { initial: number; share: number; floor: number }> = {
  parser: { initial: 32 * MiB, share: 1 / 2, floor: 128 * MiB },
  sqlite: { initial: 8 * MiB, share: 1 / 8, floor: 32 * MiB },
};

/**
 * The maximum, in bytes, of a `role` memory under `limit`: its share of what Node leaves of the address space, at least
 * its floor, at most emscripten's 2 GiB; null without a cap (the module's own default, 2 GiB, is kept).
 */
export function wasmMemoryMaximum(role: WasmMemoryRole, limit: number | null): number | null {
  if (limit === null || limit >= TRAP_HANDLER_CAP) return null;
  const { share, floor } = ROLES[role];
  const bytes = Math.min(WASM_MAXIMUM, Math.max(floor, (limit - NODE_OWN) * share));
  return Math.floor(bytes / WASM_PAGE) * WASM_PAGE;
}

/** What a thread takes besides its WebAssembly memories: V8's code range (128 MiB), its heap, its stack. */
const THREAD_OWN = 384 * MiB;

/**
 * How many threads (this one included) fit under `limit`, each with its own parser and SQLite memories at their
 * maxima; null without a cap. At least 1.
 */
export function threadsWithinAddressSpace(limit: number | null): number | null {
  const parser = wasmMemoryMaximum('parser', limit);
  const sqlite = wasmMemoryMaximum('sqlite', limit);
  if (limit === null || parser === null || sqlite === null) return null;
  return Math.max(1, Math.floor((limit - NODE_OWN + THREAD_OWN) / (THREAD_OWN + parser + sqlite)));
}

/** The one WebAssembly constructor used here (this project's TypeScript lib has no WebAssembly types). */
const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: new (pages: { initial: number; maximum: number }) => object } }).WebAssembly;

/** A memory (emscripten's `wasmMemory`) for a `role` module sized to this process's cap, or undefined where the module's default is right. */
export function wasmMemoryFor(role: WasmMemoryRole): object | undefined {
  const maximum = wasmMemoryMaximum(role, addressSpaceLimit());
  if (maximum === null) return undefined;
  try {
    return new Memory({ initial: ROLES[role].initial / WASM_PAGE, maximum: maximum / WASM_PAGE });
  } catch (e) {
    // Address space the cap leaves is gone (other threads, other memories): the user's limit, not a bug.
    throw new InputError(`cannot reserve the ${role === 'parser' ? "Python parser's" : "SQLite's"} WebAssembly memory (${Math.round(maximum / MiB)} MiB) under the address-space limit of ${inGB(addressSpaceLimit() ?? 0)} (ulimit -v): ${(e as Error).message}; raise the limit or run with --jobs 1`);
  }
}
