// The Python interpreters on this machine that a virtual environment can be made from: found where installers put
// them (PATH, pyenv, uv, asdf, the python.org and Homebrew folders, Windows' py launcher, ANACHRON_PYTHONS), then each
// asked for its version and whether it can make a venv. Nothing here knows any machine's paths: the places are the
// installers' documented defaults, moved by their own variables (PYENV_ROOT, UV_PYTHON_INSTALL_DIR, ASDF_DATA_DIR).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { compareVersions } from '../core/versions.js';

export interface PythonInterpreter {
  /** The command as found (a venv is made with it). */
  path: string;
  /** Its real path (symlinks resolved): two paths to one interpreter are one. */
  realPath: string;
  /** sys.version, first word: 3.11.7. */
  version: string;
  /** major.minor: 3.11. */
  minor: string;
  /** sys.implementation.name: cpython, pypy. */
  implementation: string;
  /** `python -m venv` works (Debian's python3 without python3-venv has no ensurepip). */
  canVenv: boolean;
  /** Where it was found: PATH, pyenv, uv, asdf, py launcher, ANACHRON_PYTHONS, … */
  source: string;
}

export interface DiscoverOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  timeoutMs?: number;
}

const ASK = [
  'import json, sys',
  'try:',
  '    import ensurepip, venv',
  '    v = True',
  'except Exception:',
  '    v = False',
  'print("@@anachron-python@@" + json.dumps([sys.version.split()[0], sys.implementation.name, v, sys.executable]))',
].join('\n');

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() || d.isSymbolicLink()).map((d) => join(dir, d.name)).sort();
  } catch {
    return [];
  }
}

/** Executable names a Python 3 interpreter goes by in one folder. */
function namesIn(dir: string, windows: boolean): string[] {
  if (windows) return ['python.exe', 'python3.exe'].map((n) => join(dir, n));
  const minors = Array.from({ length: 20 }, (_, i) => `python3.${i + 6}`);
  return ['python3', ...minors, 'python'].map((n) => join(dir, n));
}

/** Candidate interpreter paths with where they come from, in a stable order (duplicates are dropped later). */
export function candidatePaths(options: DiscoverOptions = {}): { path: string; source: string }[] {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const windows = platform === 'win32';
  const home = env.HOME || env.USERPROFILE || homedir();
  const out: { path: string; source: string }[] = [];
  const add = (paths: string[], source: string) => {
    for (const p of paths) if (isFile(p)) out.push({ path: p, source });
  };
  for (const p of (env.ANACHRON_PYTHONS ?? '').split(delimiter).filter(Boolean)) add([resolve(p)], 'ANACHRON_PYTHONS');
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    // pyenv's shims run whichever version the current folder selects (or refuse): the versions themselves come below.
    if (basename(dir) === 'shims') continue;
    add(namesIn(dir, windows), 'PATH');
  }
  const binOf = (root: string) => (windows ? [join(root, 'python.exe')] : namesIn(join(root, 'bin'), false));
  const pyenvRoot = env.PYENV_ROOT || join(home, '.pyenv');
  for (const v of subfolders(join(pyenvRoot, 'versions'))) add(binOf(v), 'pyenv');
  const uvDir = env.UV_PYTHON_INSTALL_DIR || (windows ? join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'uv', 'python') : join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'uv', 'python'));
  for (const v of subfolders(uvDir)) add(binOf(v), 'uv');
  for (const v of subfolders(join(env.ASDF_DATA_DIR || join(home, '.asdf'), 'installs', 'python'))) add(binOf(v), 'asdf');
  if (platform === 'darwin') {
    for (const v of subfolders('/Library/Frameworks/Python.framework/Versions')) add(binOf(v), 'python.org');
    for (const dir of ['/opt/homebrew/bin', '/usr/local/bin']) add(namesIn(dir, false), 'Homebrew');
  }
  if (!windows) for (const dir of ['/usr/local/bin', '/usr/bin']) add(namesIn(dir, false), 'system');
  if (windows) {
    const local = env.LOCALAPPDATA || join(home, 'AppData', 'Local');
    for (const v of subfolders(join(local, 'Programs', 'Python'))) add([join(v, 'python.exe')], 'python.org');
    // The py launcher lists every registered interpreter: "-V:3.12 *  C:\…\python.exe".
    const py = spawnSync('py', ['-0p'], { encoding: 'utf8', timeout: 10_000, windowsHide: true });
    if (py.status === 0) add(py.stdout.split(/\r?\n/).map((l) => /\s([A-Za-z]:\\.*\.exe)\s*$/.exec(l)?.[1] ?? '').filter(Boolean), 'py launcher');
  }
  return out;
}

function ask(path: string, timeoutMs: number): Promise<[string, string, boolean, string] | null> {
  return new Promise((done) => {
    let out = '';
    let child;
    try {
      child = spawn(path, ['-I', '-c', ASK], { stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true, env: { PATH: dirname(path), SYSTEMROOT: process.env.SYSTEMROOT ?? '' } });
    } catch {
      done(null);
      return;
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (b: Buffer) => {
      if (out.length < 4096) out += b.toString('utf8');
    });
    child.on('error', () => {
      clearTimeout(timer);
      done(null);
    });
    child.on('close', () => {
      clearTimeout(timer);
      const line = out.split(/\r?\n/).find((l) => l.startsWith('@@anachron-python@@'));
      try {
        const v = line ? (JSON.parse(line.slice('@@anachron-python@@'.length)) as [string, string, boolean, string]) : null;
        done(Array.isArray(v) && typeof v[0] === 'string' ? v : null);
      } catch {
        done(null);
      }
    });
  });
}

function realPathOf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * The Python 3 interpreters found (each asked for its version), one per real path, newest version first; the first
 * place an interpreter was found under names it. Interpreters that do not answer are left out.
 */
export async function discoverInterpreters(options: DiscoverOptions = {}): Promise<PythonInterpreter[]> {
  const seen = new Map<string, { path: string; source: string }>();
  for (const c of candidatePaths(options)) {
    const real = realPathOf(c.path);
    if (!seen.has(real)) seen.set(real, c);
  }
  const asked = await Promise.all([...seen].map(async ([real, c]) => ({ real, c, answer: await ask(c.path, options.timeoutMs ?? 15_000) })));
  const byExecutable = new Map<string, PythonInterpreter>();
  for (const { real, c, answer } of asked) {
    if (!answer) continue;
    const [version, implementation, canVenv, executable] = answer;
    const m = /^(\d+)\.(\d+)/.exec(version);
    if (!m || m[1] !== '3') continue;
    // python3 and python3.11 in one folder are often two files of one interpreter: sys.executable's real path says.
    const key = executable ? realPathOf(executable) : real;
    if (byExecutable.has(key)) continue;
    byExecutable.set(key, { path: c.path, realPath: real, version, minor: `${m[1]}.${m[2]}`, implementation, canVenv, source: c.source });
  }
  return [...byExecutable.values()].sort((a, b) => compareVersions(b.version, a.version) || a.path.localeCompare(b.path));
}

/** Does the command exist as a file (absolute or relative path), or as a name on PATH? */
export function commandExists(command: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (command.includes('/') || command.includes('\\')) return existsSync(resolve(command));
  return (env.PATH ?? '').split(delimiter).some((d) => d && isFile(join(d, command)));
}

/** One interpreter, asked as discoverInterpreters asks (null when it does not run or is not Python 3). */
export async function inspectInterpreter(path: string, source = 'given', timeoutMs = 15_000): Promise<PythonInterpreter | null> {
  const answer = await ask(path, timeoutMs);
  if (!answer) return null;
  const [version, implementation, canVenv] = answer;
  const m = /^(\d+)\.(\d+)/.exec(version);
  if (!m || m[1] !== '3') return null;
  return { path, realPath: realPathOf(path), version, minor: `${m[1]}.${m[2]}`, implementation, canVenv, source };
}
