// The Python interpreter of a folder: `anachron.interpreter.path` when set, else the Python Environments extension
// (ms-python.vscode-python-envs), else the Python extension (ms-python.python), else none. Neither extension is a
// dependency: their APIs are typed here by the few members used, and any failure falls through to the next source.
// Running an interpreter (to list what it has installed, or to probe it for a matrix column) happens only in a
// trusted workspace.
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Disposable, EventEmitter, extensions, workspace, type Event, type Uri } from 'vscode';

export interface Interpreter {
  /** The executable, and arguments that go before the script (e.g. `conda run -n env python`). */
  command: string;
  args: string[];
  /** Where it came from, for messages: "setting", "Python Environments", "Python extension". */
  source: string;
}

interface EnvsApi {
  getEnvironment(scope: Uri | undefined): Promise<{ execInfo?: { run?: { executable: string; args?: string[] }; activatedRun?: { executable: string; args?: string[] } } } | undefined>;
  onDidChangeEnvironment?: Event<unknown>;
}

interface PythonApi {
  ready?: Promise<void>;
  environments?: {
    getActiveEnvironmentPath(resource?: Uri): { id: string; path: string };
    resolveEnvironment(env: { id: string; path: string } | string): Promise<{ executable?: { uri?: Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath?: Event<unknown>;
  };
}

async function activated<T>(id: string): Promise<T | undefined> {
  const ext = extensions.getExtension<T>(id);
  if (!ext) return undefined;
  try {
    return ext.isActive ? ext.exports : await ext.activate();
  } catch {
    return undefined;
  }
}

export class Interpreters implements Disposable {
  private readonly changed = new EventEmitter<void>();
  /** Fires when the user switches interpreter (in either extension) or changes the setting. */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: Disposable[] = [];
  private subscribed = false;

  constructor(private readonly log: (message: string) => void) {
    this.subscriptions.push(
      workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('anachron.interpreter.path')) this.changed.fire();
      }),
      extensions.onDidChange(() => void this.subscribe()),
    );
  }

  /** Listens to both extensions' change events, once each is installed. */
  async subscribe(): Promise<void> {
    if (this.subscribed) return;
    const envs = await activated<EnvsApi>('ms-python.vscode-python-envs');
    const python = await activated<PythonApi>('ms-python.python');
    if (envs?.onDidChangeEnvironment) this.subscriptions.push(envs.onDidChangeEnvironment(() => this.changed.fire()));
    if (python?.environments?.onDidChangeActiveEnvironmentPath) this.subscriptions.push(python.environments.onDidChangeActiveEnvironmentPath(() => this.changed.fire()));
    this.subscribed = !!(envs || python);
  }

  async interpreterFor(scope: Uri | undefined): Promise<Interpreter | undefined> {
    const configured = workspace.getConfiguration('anachron', scope).get<string>('interpreter.path')?.trim();
    if (configured) return { command: configured, args: [], source: 'setting anachron.interpreter.path' };
    const envs = await activated<EnvsApi>('ms-python.vscode-python-envs');
    if (envs?.getEnvironment) {
      try {
        const env = await envs.getEnvironment(scope);
        const run = env?.execInfo?.run ?? env?.execInfo?.activatedRun;
        if (run?.executable) return { command: run.executable, args: run.args ?? [], source: 'Python Environments' };
      } catch (e) {
        this.log(`Python Environments could not say the interpreter: ${(e as Error).message}`);
      }
    }
    const python = await activated<PythonApi>('ms-python.python');
    if (python?.environments) {
      try {
        await python.ready;
        const active = python.environments.getActiveEnvironmentPath(scope);
        const resolved = await python.environments.resolveEnvironment(active);
        const path = resolved?.executable?.uri?.fsPath ?? active.path;
        if (path) return { command: path, args: [], source: 'Python extension' };
      } catch (e) {
        this.log(`the Python extension could not say the interpreter: ${(e as Error).message}`);
      }
    }
    return undefined;
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.changed.dispose();
  }
}

export function describeInterpreter(i: Interpreter): string {
  return [i.command, ...i.args].join(' ');
}

/** Runs a short Python snippet with the interpreter, outside the workspace (so no workspace module shadows). */
export function runPython(i: Interpreter, code: string, args: string[] = [], timeoutMs = 20_000): Promise<string> {
  return run(i, ['-c', code, ...args], timeoutMs);
}

function runPythonFile(i: Interpreter, file: string, timeoutMs = 20_000): Promise<string> {
  return run(i, [file], timeoutMs);
}

function run(i: Interpreter, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(i.command, [...i.args, '-B', ...args], { cwd: tmpdir(), timeout: timeoutMs, windowsHide: true, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${describeInterpreter(i)} failed: ${String(stderr).trim().split('\n').slice(-1)[0] || error.message}`));
      else resolve(String(stdout));
    });
  });
}

/**
 * The distributions the interpreter has installed (python-probe/installed.py, shipped with the extension) and its
 * real executable (sys.executable), which is what `--python` needs when the interpreter is a command with arguments.
 */
export async function installedDistributions(i: Interpreter, probeFolder: string): Promise<{ executable: string; distributions: Record<string, string> }> {
  const [listed, executable] = await Promise.all([runPythonFile(i, join(probeFolder, 'installed.py')), i.args.length ? runPython(i, 'import sys; print(sys.executable)') : Promise.resolve('')]);
  const distributions = JSON.parse(listed.trim().split('\n').slice(-1)[0]!) as Record<string, string>;
  // A plain path is kept as given (a wrapper script may set up the environment); a command with arguments is
  // replaced by the interpreter it runs.
  return { executable: i.args.length === 0 ? i.command : executable.trim() || describeInterpreter(i), distributions };
}
