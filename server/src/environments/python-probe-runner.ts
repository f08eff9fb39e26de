// Runs python-probe (runtime introspection or static extraction) as a child process: the only place that executes
// Python on the user's behalf for the matrix. Progress lines from the probe are passed through.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateSurface, type Surface } from '../store/surface.js';
import { InputError } from '../core/errors.js';
import { outputLines } from './output-lines.js';

export function probeFolder(): string {
  const candidates = [join(__dirname, '..', 'python-probe'), join(__dirname, '..', '..', '..', 'python-probe')];
  const found = candidates.find((c) => existsSync(join(c, 'probe.py')));
  if (!found) throw new Error(`python-probe not found (looked in ${candidates.join(', ')})`);
  return found;
}

export interface ProbeRun {
  python: string;
  /** probe.py (runtime) or static.py (static extraction), relative to python-probe/. */
  script: 'probe.py' | 'static.py';
  args: string[];
  onOutput?: (line: string) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Runs the probe, returns the surface it wrote; errors say what failed and keep the probe's last words. */
export async function runProbe(run: ProbeRun): Promise<Surface> {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-probe-'));
  const out = join(dir, 'surface.json');
  try {
    const tail: string[] = [];
    const code = await new Promise<number>((resolve, reject) => {
      const child = spawn(run.python, [join(probeFolder(), run.script), ...run.args, '--out', out], {
        stdio: ['ignore', 'pipe', 'pipe'],
        signal: run.signal,
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
      });
      // Our own timer (not spawn's `timeout`), so a child that never started leaves nothing keeping Node alive.
      const timer = setTimeout(() => child.kill('SIGKILL'), run.timeoutMs ?? 30 * 60_000);
      child.on('exit', () => clearTimeout(timer));
      child.on('error', () => clearTimeout(timer));
      const onData = outputLines(tail, 20, run.onOutput);
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('error', (e) => reject(new Error(`cannot run ${run.python}: ${e.message}`)));
      child.on('close', (c, sig) => (sig ? reject(new Error(`probe stopped by ${sig}`)) : resolve(c ?? 1)));
    });
    if (!existsSync(out)) throw new InputError(`the probe wrote no surface (exit ${code}):\n${tail.join('\n')}`);
    const surface = validateSurface(JSON.parse(readFileSync(out, 'utf8')), out);
    if (code !== 0 && surface.apis.length === 0) throw new InputError(`the probe failed (exit ${code}):\n${tail.join('\n')}`);
    return surface;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ReleaseModules {
  name: string | null;
  version: string | null;
  requires_python: string | null;
  /** Top-level import names the release installs. */
  modules: string[];
  layout: 'top_level.txt' | 'files';
}

/** What a release file says about itself (python-probe/release_modules.py: read in memory, nothing run from it). */
export function readReleaseModules(python: string, archive: string, signal?: AbortSignal, timeoutMs = 120_000): Promise<ReleaseModules> {
  return new Promise((resolve, reject) => {
    execFile(python, [join(probeFolder(), 'release_modules.py'), archive], { timeout: timeoutMs, maxBuffer: 4 << 20, signal, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } }, (error, stdout, stderr) => {
      if (error) {
        const said = stderr.trim().replace(/^error: /, '').split('\n').pop() ?? '';
        reject(new Error((error as NodeJS.ErrnoException).code === 'ENOENT' ? `cannot run ${python}: not found` : said || error.message));
        return;
      }
      try {
        resolve(JSON.parse(stdout) as ReleaseModules);
      } catch (e) {
        reject(new Error(`release_modules.py printed something that is not JSON: ${(e as Error).message}`));
      }
    });
  });
}
