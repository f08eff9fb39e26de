// Where the language server can run. Its matrix store, better-sqlite3, is a native addon built for one Node ABI
// (not N-API), while desktop VS Code runs extensions on Electron's Node, whose ABI differs. So before starting the
// server, each candidate runtime is asked to actually open an in-memory database with the shipped addon: the
// configured `anachron.server.nodePath` first, then VS Code's own runtime, then Node.js found on PATH and in the
// usual install folders. The first that loads it runs the server and the CLI; when none does, the caller gets
// every attempt and the ABI the addon needs, to tell the user what to install. No VS Code API here (tested in
// plain Node).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, relative } from 'node:path';

export type RuntimeKind = 'configured' | 'vscode' | 'detected';

export interface RuntimeCandidate {
  kind: RuntimeKind;
  path: string;
}

export interface Attempt extends RuntimeCandidate {
  ok: boolean;
  /** process.version and process.versions.modules of the candidate, when it ran at all. */
  node?: string;
  abi?: string;
  error?: string;
}

export interface NativeBuild {
  /** NODE_MODULE_VERSION the shipped better_sqlite3.node was built for. */
  abi: string;
  node: string;
  platform: string;
  arch: string;
}

export type RuntimeChoice = { ok: true; runtime: Attempt; attempts: Attempt[] } | { ok: false; attempts: Attempt[]; build: NativeBuild | null; hostAbi: string };

/** What `npm run package` recorded about the shipped native module (dist/native.json), if present. */
export function readNativeBuild(extensionPath: string): NativeBuild | null {
  try {
    return JSON.parse(readFileSync(join(extensionPath, 'dist', 'native.json'), 'utf8')) as NativeBuild;
  } catch {
    return null;
  }
}

function probeScript(sqliteModule: string): string {
  return [
    'const r={node:process.version,abi:process.versions.modules};',
    `try{const D=require(${JSON.stringify(sqliteModule)});new D(':memory:').close();r.ok=true}`,
    'catch(e){r.ok=false;r.error=String(e&&e.message||e).split("\\n")[0]}',
    'process.stdout.write(JSON.stringify(r))',
  ].join('');
}

/** Runs `candidate -e <load better-sqlite3>`; ELECTRON_RUN_AS_NODE makes an Electron binary behave as Node. */
export function probeRuntime(candidate: RuntimeCandidate, sqliteModule: string, timeoutMs = 15_000): Promise<Attempt> {
  return new Promise((resolve) => {
    execFile(
      candidate.path,
      ['-e', probeScript(sqliteModule)],
      { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, timeout: timeoutMs, windowsHide: true, maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        try {
          const r = JSON.parse(String(stdout)) as { ok: boolean; node: string; abi: string; error?: string };
          resolve({ ...candidate, ok: r.ok, node: r.node, abi: r.abi, error: r.error });
        } catch {
          const why = error ? ((error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : error.message.split('\n')[0]) : `unexpected output: ${String(stdout).slice(0, 200)}`;
          resolve({ ...candidate, ok: false, error: [why, String(stderr).trim().split('\n')[0]].filter(Boolean).join('; ') });
        }
      },
    );
  });
}

function isInside(folder: string, file: string): boolean {
  const rel = relative(folder, file);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

const isFile = (p: string) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/**
 * Node.js executables on PATH, then in the usual install folders (nvm, Volta, Homebrew, /usr/local, Program Files).
 * Folders inside `exclude` (an untrusted workspace) are skipped: a workspace must not choose what runs.
 */
export function findNodeExecutables(env: NodeJS.ProcessEnv = process.env, exclude: string[] = []): string[] {
  const exe = process.platform === 'win32' ? 'node.exe' : 'node';
  const dirs = (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean);
  const home = homedir();
  const nvm = join(env.NVM_DIR ?? join(home, '.nvm'), 'versions', 'node');
  if (existsSync(nvm)) {
    // Newest first: a server built for Node 20 loads in any 20.x.
    for (const v of readdirSync(nvm).sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))) dirs.push(join(nvm, v, 'bin'));
  }
  dirs.push(join(home, '.volta', 'bin'), '/opt/homebrew/bin', '/usr/local/bin', '/usr/bin');
  if (process.platform === 'win32') dirs.push(join(env.ProgramFiles ?? 'C:\\Program Files', 'nodejs'));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const dir of dirs) {
    if (!isAbsolute(dir) || exclude.some((f) => isInside(f, dir))) continue;
    const file = join(dir, exe);
    if (seen.has(file) || !isFile(file)) continue;
    seen.add(file);
    out.push(file);
  }
  return out;
}

export interface ChooseOptions {
  /** `anachron.server.nodePath`, already trust-filtered by VS Code (restricted setting). */
  configured?: string;
  /** process.execPath of the extension host. */
  hostExecutable: string;
  hostAbi: string;
  /** node_modules/better-sqlite3 of the extension. */
  sqliteModule: string;
  build: NativeBuild | null;
  /** Folders whose executables are never tried (the workspace, when untrusted). */
  exclude?: string[];
  env?: NodeJS.ProcessEnv;
  probe?: (c: RuntimeCandidate) => Promise<Attempt>;
  /** Stop trying detected runtimes after this many. */
  maxDetected?: number;
}

/** Tries the candidates in order and returns the first runtime that loads better-sqlite3. */
export async function chooseRuntime(o: ChooseOptions): Promise<RuntimeChoice> {
  const probe = o.probe ?? ((c: RuntimeCandidate) => probeRuntime(c, o.sqliteModule));
  const attempts: Attempt[] = [];
  const tryOne = async (c: RuntimeCandidate): Promise<Attempt | undefined> => {
    const a = await probe(c);
    attempts.push(a);
    return a.ok ? a : undefined;
  };
  if (o.configured) {
    const ok = await tryOne({ kind: 'configured', path: o.configured });
    if (ok) return { ok: true, runtime: ok, attempts };
  }
  // VS Code's own runtime, unless the addon says up front that its ABI is another.
  if (!o.build || o.build.abi === o.hostAbi) {
    const ok = await tryOne({ kind: 'vscode', path: o.hostExecutable });
    if (ok) return { ok: true, runtime: ok, attempts };
  } else {
    attempts.push({ kind: 'vscode', path: o.hostExecutable, ok: false, abi: o.hostAbi, error: `runs Node ABI ${o.hostAbi}; the shipped better-sqlite3 is built for ABI ${o.build.abi}` });
  }
  const detected = findNodeExecutables(o.env, o.exclude).filter((p) => p !== o.configured && p !== o.hostExecutable);
  for (const path of detected.slice(0, o.maxDetected ?? 8)) {
    const ok = await tryOne({ kind: 'detected', path });
    if (ok) return { ok: true, runtime: ok, attempts };
  }
  return { ok: false, attempts, build: o.build, hostAbi: o.hostAbi };
}

/** Node.js major versions by NODE_MODULE_VERSION, for messages ("install Node.js 20"). */
const NODE_OF_ABI: Record<string, string> = { '108': '18', '115': '20', '127': '22', '131': '23', '137': '24', '141': '25' };

export function describeAbi(abi: string): string {
  const node = NODE_OF_ABI[abi];
  return node ? `Node.js ${node} (ABI ${abi})` : `Node ABI ${abi}`;
}

/** The message shown when no runtime loads the matrix store: what failed, and what to do. */
export function noRuntimeMessage(choice: Extract<RuntimeChoice, { ok: false }>): string {
  const abiFromErrors = choice.attempts.map((a) => /NODE_MODULE_VERSION (\d+)/.exec(a.error ?? '')?.[1]).find(Boolean);
  const needed = choice.build?.abi ?? abiFromErrors;
  const want = needed ? describeAbi(needed) : 'the Node.js version it was packaged with';
  const configured = choice.attempts.find((a) => a.kind === 'configured');
  const where = configured ? `, nor in anachron.server.nodePath (${configured.path}: ${configured.error})` : ', and no Node.js that loads it was found on PATH';
  const install = needed && NODE_OF_ABI[needed] ? `Node.js ${NODE_OF_ABI[needed]}` : 'a matching Node.js';
  return (
    `anachron cannot start its language server: its matrix store (better-sqlite3, a native module built for ${want}) does not load in VS Code's runtime (${describeAbi(choice.hostAbi)})${where}. ` +
    `Install ${install} and set "anachron.server.nodePath" to its node executable, then run "anachron: Restart Server".`
  );
}
