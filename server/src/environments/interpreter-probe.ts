// Asks an interpreter which versions of some modules it imports: `MODULE.__version__`, and the installed
// distribution's version from its metadata. Executes the interpreter (trusted workspaces only), in the environment the
// sandbox gives samples (no user site, no bytecode), from a neutral folder, so it sees what a sample would see.
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute } from 'node:path';
import type { PythonCommand } from './python-command.js';

export interface ModuleVersion {
  /** `__version__`, when the module has one. */
  version?: string;
  /** The distribution's version from its metadata (importlib.metadata), when installed as a distribution. */
  metadataVersion?: string;
  /** Where the module was imported from. */
  file?: string;
  /** Why it could not be imported ("ModuleNotFoundError: No module named 'x'"). */
  error?: string;
}

export interface InterpreterProbe {
  /** The interpreter's Python version (3.11.2). */
  python: string;
  modules: Record<string, ModuleVersion>;
}

const PROBE = `
import json, sys, importlib
out = {"python": sys.version.split()[0], "modules": {}}
for spec in sys.argv[1:]:
    name, _, dist = spec.partition("=")
    r = {}
    try:
        m = importlib.import_module(name)
        v = getattr(m, "__version__", None)
        if v is not None:
            r["version"] = str(v)
        if getattr(m, "__file__", None):
            r["file"] = m.__file__
    except BaseException as e:
        r["error"] = "%s: %s" % (type(e).__name__, e)
    try:
        from importlib import metadata
        r["metadataVersion"] = metadata.version(dist or name)
    except Exception:
        pass
    out["modules"][name] = r
sys.stdout.write("\\n@@anachron-probe@@" + json.dumps(out) + "\\n")
`;

/** The environment for running an interpreter of the registry: what the sandbox gives samples, minus the sandbox. */
export function probeEnvironment(python: PythonCommand): Record<string, string> {
  const exe = python.argv[0] ?? '';
  const system = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
  return {
    PATH: isAbsolute(exe) ? `${dirname(exe)}:${system}` : `${process.env.PATH ?? ''}:${system}`,
    LANG: 'C.UTF-8',
    HOME: process.env.HOME ?? tmpdir(),
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONNOUSERSITE: '1',
    OMP_NUM_THREADS: '1',
    OPENBLAS_NUM_THREADS: '1',
    ...(python.env ?? {}),
  };
}

interface PythonRun {
  /** Exit code, or null when killed. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** The last 8,000 characters of its error output. */
  stderr: string;
  timedOut: boolean;
  cancelled: boolean;
}

/** Runs `python -s -B -c CODE ARGS…` from a neutral folder in the probe environment, in a process group killed as a
 *  whole on timeout or abort; rejects only when the interpreter cannot be started. */
function runPython(python: PythonCommand, code: string, args: string[], options: { timeoutMs?: number; signal?: AbortSignal }): Promise<PythonRun> {
  const [exe, ...prefix] = python.argv;
  if (!exe) return Promise.reject(new Error('empty python command'));
  return new Promise((resolve, reject) => {
    const child = spawn(exe, [...prefix, '-s', '-B', '-c', code, ...args], { cwd: tmpdir(), env: probeEnvironment(python), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => {
      if (stdout.length < 1 << 20) stdout += b.toString('utf8');
    });
    child.stderr.on('data', (b: Buffer) => {
      stderr = (stderr + b.toString('utf8')).slice(-8000);
    });
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone
      }
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs ?? 180_000);
    options.signal?.addEventListener('abort', kill, { once: true });
    const done = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
    };
    child.on('error', (e) => {
      done();
      reject(new Error(`cannot run ${python.argv.join(' ')}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      done();
      resolve({ code, signal, stdout, stderr, timedOut, cancelled: options.signal?.aborted ?? false });
    });
  });
}

/**
 * Imports each module (`name` or `name=distribution`) in the interpreter and reports its versions. Rejects when the
 * interpreter does not run or prints no answer; a module that fails to import is reported in its `error`.
 */
export async function probeModules(python: PythonCommand, modules: string[], options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<InterpreterProbe> {
  const r = await runPython(python, PROBE, modules, options);
  const at = r.stdout.lastIndexOf('@@anachron-probe@@');
  if (at >= 0) {
    try {
      return JSON.parse(r.stdout.slice(at + '@@anachron-probe@@'.length).split('\n')[0]!) as InterpreterProbe;
    } catch {
      // fall through
    }
  }
  const why = r.cancelled ? 'cancelled' : r.timedOut ? `no answer within ${options.timeoutMs ?? 180_000} ms` : `exit ${r.code ?? r.signal}`;
  const tail = r.stderr.trim().split('\n').slice(-8).join('\n');
  throw new Error(`${python.argv.join(' ')} did not answer (${why})${tail ? `:\n${tail}` : ''}`);
}

/**
 * Runs a piece of Python in the interpreter (as probeModules runs its probe: neutral folder, the sandbox's environment
 * variables, no user site); ok when it exits with 0, else the last line of its error output.
 */
export async function runSnippet(python: PythonCommand, code: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<{ ok: boolean; error?: string }> {
  let r: PythonRun;
  try {
    r = await runPython(python, code, [], options);
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
  if (r.code === 0) return { ok: true };
  const last = r.stderr.trim().split('\n').filter(Boolean).pop();
  return { ok: false, error: r.timedOut ? `no end within ${options.timeoutMs ?? 180_000} ms` : r.cancelled ? 'cancelled' : last ?? `exit ${r.code ?? r.signal}` };
}
