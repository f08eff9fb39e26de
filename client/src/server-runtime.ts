// Where the language server, and the CLI the editor runs (benchmarks, matrix columns), run. By default on VS Code's
// own runtime: the extension host's executable (process.execPath), which Electron runs as plain Node with
// ELECTRON_RUN_AS_NODE. That always works, because the server is JavaScript and WebAssembly only: its matrix store
// falls back to the WebAssembly SQLite where the native better-sqlite3 does not load, and the universal .vsix ships
// no native module at all. `anachron.server.nodePath` overrides it: that executable must answer as Node.js 18 or
// later, else VS Code's runtime is used and the caller says why. No VS Code API here (tested in plain Node).
import { execFile } from 'node:child_process';
import { TRAP_HANDLER_OFF, wasmNodeArguments } from '../../server/src/wasm-memory.js';

export const MIN_NODE_MAJOR = 18;

export interface Runtime {
  kind: 'configured' | 'vscode';
  /** The executable to start, with ELECTRON_RUN_AS_NODE=1 in its environment. */
  path: string;
  /** process.version there. */
  node: string;
  /**
   * Node arguments before the script of every process started on it (the server, the CLI): under a cap on virtual
   * memory, which children inherit, --disable-wasm-trap-handler, where the runtime takes it (server/src/wasm-memory.ts).
   */
  nodeArgs: string[];
}

export interface RuntimeChoice {
  runtime: Runtime;
  /** The configured executable and why it was not used. */
  rejected?: { path: string; reason: string };
}

export type NodeProbe = { ok: true; node: string; flags: string[] } | { ok: false; error: string };

/** The Node flags anachron may pass, which a probe asks a runtime about (its allowedNodeEnvironmentFlags). */
const FLAGS_ASKED = [TRAP_HANDLER_OFF];

/** Runs `executable -e <print its version>` as the server would be run; says whether it is a usable Node.js. */
export function probeNode(executable: string, timeoutMs = 15_000): Promise<NodeProbe> {
  return new Promise((resolve) => {
    execFile(
      executable,
      ['-e', `process.stdout.write(JSON.stringify({ node: process.version, wasm: typeof WebAssembly === "object", flags: ${JSON.stringify(FLAGS_ASKED)}.filter((f) => process.allowedNodeEnvironmentFlags.has(f)) }))`],
      { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, timeout: timeoutMs, windowsHide: true, maxBuffer: 64 * 1024 },
      (error, stdout, stderr) => {
        let answer: { node?: unknown; wasm?: unknown; flags?: unknown } | undefined;
        try {
          answer = JSON.parse(String(stdout)) as { node?: unknown; wasm?: unknown; flags?: unknown };
        } catch {
          const why = error ? ((error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : error.message.split('\n')[0]) : `unexpected output: ${String(stdout).slice(0, 200)}`;
          resolve({ ok: false, error: [why, String(stderr).trim().split('\n')[0]].filter(Boolean).join('; ') });
          return;
        }
        const node = typeof answer.node === 'string' ? answer.node : '';
        const major = Number(/^v(\d+)\./.exec(node)?.[1] ?? NaN);
        if (!(major >= MIN_NODE_MAJOR)) resolve({ ok: false, error: `${node || 'an unknown version'} is not Node.js ${MIN_NODE_MAJOR} or later` });
        else if (answer.wasm !== true) resolve({ ok: false, error: `${node} has no WebAssembly` });
        else resolve({ ok: true, node, flags: Array.isArray(answer.flags) ? answer.flags.filter((f): f is string => typeof f === 'string') : [] });
      },
    );
  });
}

export interface ChooseOptions {
  /** `anachron.server.nodePath`, already trust-filtered by VS Code (a restricted setting). */
  configured?: string;
  /** process.execPath and process.version of the extension host. */
  hostExecutable: string;
  hostNode: string;
  /** Whether the extension host's runtime takes a Node flag (process.allowedNodeEnvironmentFlags). */
  hostAccepts: (flag: string) => boolean;
  /** The extension host's address-space limit in bytes (addressSpaceLimit()), which the processes it starts inherit. */
  addressSpaceLimit: number | null;
  probe?: (executable: string) => Promise<NodeProbe>;
}

/** The configured Node.js when it is one, else VS Code's own runtime. */
export async function chooseRuntime(o: ChooseOptions): Promise<RuntimeChoice> {
  const vscode: Runtime = { kind: 'vscode', path: o.hostExecutable, node: o.hostNode, nodeArgs: wasmNodeArguments(o.addressSpaceLimit, o.hostAccepts) };
  if (!o.configured) return { runtime: vscode };
  const answer = await (o.probe ?? probeNode)(o.configured);
  if (answer.ok) return { runtime: { kind: 'configured', path: o.configured, node: answer.node, nodeArgs: wasmNodeArguments(o.addressSpaceLimit, (f) => answer.flags.includes(f)) } };
  return { runtime: vscode, rejected: { path: o.configured, reason: answer.error } };
}

export function describeRuntime(runtime: Runtime): string {
  return runtime.kind === 'vscode' ? `VS Code's own runtime (Node ${runtime.node})` : `${runtime.path} (Node ${runtime.node}, from anachron.server.nodePath)`;
}
