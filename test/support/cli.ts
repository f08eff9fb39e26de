import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI (bin/anachron.js over the bundle) as a user would. */
export function runCli(args: string[], cwd = REPO_ROOT, env: NodeJS.ProcessEnv = {}): CliResult {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'anachron.js'), ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The CLI without blocking this process's event loop (a server the test runs here must keep answering). */
export function runCliAsync(args: string[], cwd = REPO_ROOT, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'anachron.js'), ...args], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
