import { spawnSync } from 'node:child_process';
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
