// What of the host a sandboxed interpreter needs to see, read-only: its prefixes and import path (asked of the
// interpreter itself once, with a fixed script, outside the sandbox: the interpreter is the user's, not the sample's),
// the folder of its command, and the absolute paths its command line and environment name (a Debian root's loader,
// PYTHONPATH). Paths under the system folders the sandbox always shows are left out; so are folders that would show far
// more than an interpreter (/, the user's home and its parents, /etc, /tmp, …).
import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import { findExecutable, searchPath } from './executables.js';
import { probeEnvironment } from './interpreter-probe.js';
import type { PythonCommand } from './python-command.js';

/** Shown in every sandbox as they are on the host (read-only binds, or the same symlinks). */
export const SYSTEM_ROOTS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/** Never shown whole, whatever the interpreter says: they hold far more than an interpreter. */
const TOO_WIDE = new Set(['/', '/etc', '/var', '/tmp', '/run', '/proc', '/sys', '/dev', '/home', '/root', '/mnt', '/media', '/srv', '/opt', '/boot']);

export interface InterpreterPaths {
  /** Absolute paths to bind read-only at the same place, widest first, none inside another. */
  binds: string[];
  /** Paths the interpreter named that are not shown, with why. */
  withheld: string[];
  /** The command with its executable as an absolute path. */
  argv: string[];
}

const PATHS_SCRIPT = [
  'import json, sys',
  'paths = [sys.prefix, sys.exec_prefix, getattr(sys, "base_prefix", sys.prefix), getattr(sys, "base_exec_prefix", sys.exec_prefix), sys.executable]',
  'paths += [p for p in sys.path if p]',
  'sys.stdout.write("\\n@@anachron-paths@@" + json.dumps(paths) + "\\n")',
].join('\n');

const cache = new Map<string, Promise<InterpreterPaths>>();

function under(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The command with an absolute executable (a bare name is looked up on the sandbox's PATH, then the caller's). */
export function absoluteCommand(python: PythonCommand): string[] {
  const [exe, ...rest] = python.argv;
  if (!exe) return [];
  if (isAbsolute(exe)) return python.argv;
  if (exe.includes('/')) return [resolve(exe), ...rest];
  const found = findExecutable(exe, [...searchPath(process.env.PATH, ':'), '/usr/local/bin', '/usr/bin', '/bin']);
  return found ? [found, ...rest] : python.argv;
}

function askInterpreter(argv: string[], python: PythonCommand): Promise<string[]> {
  return new Promise((resolvePaths) => {
    const [exe, ...args] = argv;
    let out = '';
    const child = spawn(exe!, [...args, '-s', '-B', '-c', PATHS_SCRIPT], {
      cwd: tmpdir(),
      env: probeEnvironment(python),
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (b: Buffer) => {
      if (out.length < 1 << 20) out += b.toString('utf8');
    });
    const done = () => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith('@@anachron-paths@@'));
      try {
        const parsed = line ? (JSON.parse(line.slice('@@anachron-paths@@'.length)) as unknown) : [];
        resolvePaths(Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : []);
      } catch {
        resolvePaths([]);
      }
    };
    child.on('error', done);
    child.on('close', done);
  });
}

/** Absolute paths that exist, from a command line and an environment (values split on ':'). */
function namedPaths(values: string[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    for (const part of value.split(':')) if (isAbsolute(part) && existsSync(part)) out.push(part);
  }
  return out;
}

/** Chooses the binds from candidate paths: their real paths too, system roots and too-wide folders left out. */
export function chooseBinds(candidates: string[], home: string = homedir()): { binds: string[]; withheld: string[] } {
  const all = new Set<string>();
  for (const c of candidates) {
    const p = resolve(c);
    all.add(p);
    try {
      all.add(realpathSync(p));
    } catch {
      // does not exist: nothing to show
    }
  }
  const withheld: string[] = [];
  const kept: string[] = [];
  for (const p of [...all].sort((a, b) => a.length - b.length || a.localeCompare(b))) {
    if (!existsSync(p)) continue;
    if (SYSTEM_ROOTS.some((r) => under(p, r))) continue;
    if (TOO_WIDE.has(p) || (home && under(home, p))) {
      withheld.push(p);
      continue;
    }
    if (kept.some((k) => under(p, k))) continue;
    kept.push(p);
  }
  return { binds: kept, withheld };
}

/** What to show the sandbox of this interpreter (asked once per command and environment, then remembered). */
export function interpreterPaths(python: PythonCommand): Promise<InterpreterPaths> {
  const key = JSON.stringify([python.argv, python.env ?? {}]);
  let found = cache.get(key);
  if (!found) {
    found = (async () => {
      const argv = absoluteCommand(python);
      const asked = argv.length ? await askInterpreter(argv, python) : [];
      const exe = argv[0] ?? '';
      const candidates = [...asked, ...namedPaths(argv.slice(1)), ...namedPaths(Object.values(python.env ?? {}))];
      if (isAbsolute(exe)) candidates.push(dirname(exe));
      return { ...chooseBinds(candidates), argv };
    })();
    cache.set(key, found);
  }
  return found;
}
