// The sandbox's OS boundary: bubblewrap (bwrap, what Flatpak uses), a kept tool, not home-made layers. A run sees a
// root of its own: the system folders and the interpreter read-only, a fresh /proc of its own pid namespace, a minimal
// /dev, a size-limited tmpfs as working folder (and /dev/shm), synthetic /etc/passwd, /etc/group and /etc/hosts, no
// network (a namespace with only a loopback), its own IPC and host name, a new session (no terminal to push input
// into), a seccomp filter (seccomp.ts), and it dies with its parent. It never runs with privileges:
// - caller not root: an unprivileged user namespace (--unshare-user), user namespaces disabled inside;
// - caller root: bwrap sets up as root and starts setpriv(1), which drops to a uid of its own for this run (no
//   capabilities, no supplementary groups, no new privileges) before the interpreter starts; the seccomp filter
//   refuses new namespaces. The run's files are then readable only where they are world-readable.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, lstatSync, mkdtempSync, openSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findExecutable, searchPath } from './executables.js';
import { SYSTEM_ROOTS } from './interpreter-paths.js';
import { seccompArch, seccompFilter } from './seccomp.js';

export const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Inside the sandbox: the working folder (a tmpfs) and where the runner script is put. */
export const SANDBOX_WORK = '/sandbox';
export const SANDBOX_RUNNER = '/run/anachron/sandbox_run.py';

/** /etc files an interpreter may read; nothing else of the host's /etc is shown. */
const ETC_FILES = ['/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/localtime', '/etc/alternatives', '/etc/mime.types'];

export type BoundaryMode = 'userns' | 'uid-drop';

export interface Boundary {
  bwrap: string;
  mode: BoundaryMode;
  /** setpriv(1) inside the sandbox (uid-drop). */
  setpriv: string | null;
  /** The seccomp filter is loaded (this architecture has one, and the kernel took it). */
  seccomp: boolean;
}

export interface BoundaryDetection {
  boundary: Boundary | null;
  /** Why there is no boundary, and how to get one. */
  refusal?: string;
  notes: string[];
}

/** A tool of the sandbox: on the caller's PATH, then in the system folders. */
function findTool(name: string): string | null {
  return findExecutable(name, [...searchPath(process.env.PATH, ':'), ...searchPath(SYSTEM_PATH, ':')]);
}

let uidCounter = 0;

/** A uid of its own per run (caller root): processes of parallel runs share nothing a uid decides, and
 *  RLIMIT_NPROC counts one run's tasks only. ANACHRON_SANDBOX_UID_BASE moves the range (default 2,000,000,000). */
export function runUid(): number {
  const base = Number(process.env.ANACHRON_SANDBOX_UID_BASE ?? 2_000_000_000);
  return base + (((process.pid & 0xffff) << 8) | (++uidCounter & 0xff));
}

export interface BoundaryRun {
  boundary: Boundary;
  /** Read-only binds beyond the system folders (the interpreter's). */
  binds: string[];
  /** The sandbox's environment (nothing of the caller's). */
  env: Record<string, string>;
  workBytes: number;
  shmBytes: number;
  /** Data files put in the sandbox from file descriptors the caller passes: destination -> fd. */
  dataFds: { dest: string; fd: number }[];
  seccompFd?: number;
  uid?: number;
  command: string[];
}

function systemArgs(): string[] {
  const args: string[] = [];
  for (const root of SYSTEM_ROOTS) {
    let st;
    try {
      st = lstatSync(root);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(root), root);
    else if (st.isDirectory()) args.push('--ro-bind', root, root);
  }
  for (const etc of ETC_FILES) if (existsSync(etc)) args.push('--ro-bind', etc, etc);
  try {
    for (const name of readdirSync('/etc')) if (/^python3(\.\d+)?$/.test(name)) args.push('--ro-bind', `/etc/${name}`, `/etc/${name}`);
  } catch {
    // no /etc
  }
  return args;
}

/** Folders above each bind that are not there yet, made traversable (bwrap would make them 0700 otherwise). */
function parentDirs(binds: string[]): string[] {
  const made = new Set<string>();
  const args: string[] = [];
  for (const bind of binds) {
    const chain: string[] = [];
    for (let d = dirname(bind); d !== '/' && !made.has(d); d = dirname(d)) chain.unshift(d);
    for (const d of chain) {
      made.add(d);
      args.push('--perms', '0755', '--dir', d);
    }
  }
  return args;
}

/** The bwrap command line of one run. */
export function bubblewrapArgv(run: BoundaryRun): string[] {
  const { boundary } = run;
  const args = [boundary.bwrap];
  if (boundary.mode === 'userns') args.push('--unshare-user', '--disable-userns');
  args.push('--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--hostname', 'sandbox',
    '--die-with-parent', '--new-session', '--clearenv');
  if (boundary.mode === 'uid-drop') args.push('--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_SETPCAP');
  for (const [k, v] of Object.entries(run.env)) args.push('--setenv', k, v);
  args.push(...parentDirs(['/etc/-', ...run.binds, ...run.dataFds.map((d) => d.dest)]));
  args.push(...systemArgs());
  for (const bind of run.binds) args.push('--ro-bind', bind, bind);
  args.push('--proc', '/proc', '--dev', '/dev');
  args.push('--perms', '01777', '--size', String(run.shmBytes), '--tmpfs', '/dev/shm');
  args.push('--perms', '01777', '--size', String(run.workBytes), '--tmpfs', SANDBOX_WORK, '--perms', '01777', '--dir', `${SANDBOX_WORK}/tmp`);
  for (const { dest, fd } of run.dataFds) args.push('--perms', '0444', '--ro-bind-data', String(fd), dest);
  // Nothing but the working folder and /dev/shm stays writable (the root and /dev are tmpfs bwrap made).
  args.push('--remount-ro', '/dev', '--remount-ro', '/');
  if (run.seccompFd !== undefined) args.push('--seccomp', String(run.seccompFd));
  args.push('--chdir', SANDBOX_WORK, '--');
  if (boundary.mode === 'uid-drop') {
    const uid = String(run.uid ?? runUid());
    args.push(boundary.setpriv!, `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all',
      '--no-new-privs', '--pdeathsig', 'KILL', '--');
  }
  args.push(...run.command);
  return args;
}

/** /etc/passwd, /etc/group and /etc/hosts of a sandbox whose user is `uid`. */
export function syntheticEtc(uid: number): Record<string, string> {
  return {
    '/etc/passwd': `root:x:0:0:root:/nonexistent:/usr/sbin/nologin\nsandbox:x:${uid}:${uid}:sandbox:${SANDBOX_WORK}:/usr/sbin/nologin\n`,
    '/etc/group': `root:x:0:\nsandbox:x:${uid}:\n`,
    '/etc/hosts': '127.0.0.1 localhost sandbox\n::1 localhost\n',
  };
}

const HOW_TO_ENABLE = [
  'install bubblewrap (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)',
  'allow unprivileged user namespaces when not running as root (sysctl user.max_user_namespaces > 0; Debian before 11: kernel.unprivileged_userns_clone=1; Ubuntu 23.10+: an AppArmor profile for bwrap, or kernel.apparmor_restrict_unprivileged_userns=0)',
  'in a container, allow namespaces (docker run --security-opt seccomp=unconfined --security-opt apparmor=unconfined, or --privileged)',
];

export function refusalText(reason: string): string {
  return `generated code runs only inside an OS sandbox, and this machine cannot give one: ${reason}. To enable it: ${HOW_TO_ENABLE.join('; ')}. To run generated code without it, at your own risk, pass --allow-unsandboxed (ANACHRON_ALLOW_UNSANDBOXED=1).`;
}

/** Starts a sandbox the way runs will, and checks from inside what it must hold. */
export function detectBoundary(): BoundaryDetection {
  const notes: string[] = [];
  if (process.platform !== 'linux') {
    return { boundary: null, notes, refusal: refusalText(`${process.platform} has no bubblewrap (Linux namespaces); run the drift suite on Linux (a VM or container)`) };
  }
  if (process.env.ANACHRON_SANDBOX_BOUNDARY === '0') return { boundary: null, notes, refusal: refusalText('the OS boundary is turned off (ANACHRON_SANDBOX_BOUNDARY=0)') };
  const bwrap = findTool('bwrap');
  if (!bwrap) return { boundary: null, notes, refusal: refusalText('bubblewrap (bwrap) is not installed') };
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const setpriv = root ? findTool('setpriv') : null;
  if (root && (!setpriv || !setpriv.startsWith('/usr/'))) {
    return { boundary: null, notes, refusal: refusalText('running as root needs setpriv(1) (util-linux) under /usr to drop to an unprivileged uid') };
  }
  const arch = seccompArch();
  if (!arch) notes.push(`no seccomp filter for ${process.arch}: the namespaces and the unprivileged uid only`);
  const scratch = mkdtempSync(join(tmpdir(), 'anachron-bwrap-probe-'));
  try {
    const filter = join(scratch, 'filter.bpf');
    if (arch) writeFileSync(filter, seccompFilter(arch));
    // Inside: not root, only a loopback, our own /proc, / read-only, the working folder writable, new namespaces refused.
    const check = [
      '[ "$(id -u)" != 0 ] || exit 11',
      '[ "$(grep -c : /proc/net/dev)" = 1 ] || exit 12',
      '[ "$(ls /proc | grep -c "^[0-9]")" -lt 6 ] || exit 13',
      '! ( : > /probe-root ) 2>/dev/null || exit 14',
      `: > ${SANDBOX_WORK}/probe || exit 15`,
    ].join('; ');
    const attempt = (withSeccomp: boolean) => {
      const boundary: Boundary = { bwrap, mode: root ? 'uid-drop' : 'userns', setpriv, seccomp: withSeccomp };
      const argv = bubblewrapArgv({
        boundary, binds: [], env: { PATH: SYSTEM_PATH }, workBytes: 1 << 20, shmBytes: 1 << 20, dataFds: [],
        ...(withSeccomp ? { seccompFd: 3 } : {}), command: ['/bin/sh', '-c', check],
      });
      const fd = withSeccomp ? openSync(filter, 'r') : undefined;
      let r;
      try {
        r = spawnSync(argv[0]!, argv.slice(1), {
          timeout: 15_000, env: { PATH: SYSTEM_PATH }, cwd: scratch, encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe', ...(fd !== undefined ? [fd] : [])],
        });
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
      return { boundary, status: r.status, stderr: (r.stderr ?? '').trim() || (r.error?.message ?? '') };
    };
    let result = attempt(arch !== null);
    if (result.status !== 0 && arch !== null) {
      const bare = attempt(false);
      if (bare.status === 0) {
        notes.push(`the kernel refused the seccomp filter (${result.stderr || `exit ${result.status}`}): the namespaces and the unprivileged uid only`);
        result = bare;
      }
    }
    if (result.status === 0) return { boundary: result.boundary, notes };
    const what: Record<number, string> = {
      11: 'the sandbox still ran as root', 12: 'the sandbox saw the host network', 13: 'the sandbox saw host processes',
      14: 'the sandbox could write its root', 15: 'the sandbox could not write its working folder',
    };
    const why = what[result.status ?? -1] ?? `bwrap failed (${result.stderr.split('\n').slice(-3).join(' ') || `exit ${result.status}`})`;
    return { boundary: null, notes, refusal: refusalText(why) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
