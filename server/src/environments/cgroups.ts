// The sandbox's cgroups: one per run, for the pids and memory controllers (cgroup v1 hierarchies or a delegated v2
// subtree), joined by the run's first process before anything else starts, so nothing forks or allocates outside
// them; swept (every task killed, the folder removed) when the run ends, and by the next start when a runner was killed
// before it could.
import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type CgroupController = 'pids' | 'memory';

/** Where runs' cgroups go, per controller: a folder this process may make cgroups in. */
export interface CgroupBases {
  pids: string | null;
  memory: string | null;
  /** v2 (one unified folder for both) or v1 (one hierarchy per controller). */
  unified: boolean;
}

interface OwnCgroups {
  v1: Map<string, string>;
  v2: string | undefined;
}

function ownCgroups(): OwnCgroups | null {
  try {
    const v1 = new Map<string, string>();
    let v2: string | undefined;
    for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
      const [, controllers, path] = line.split(':');
      if (controllers === undefined || path === undefined) continue;
      if (controllers === '' && line.startsWith('0::')) v2 = path;
      else for (const c of controllers.split(',')) v1.set(c, path);
    }
    return { v1, v2 };
  } catch {
    return null;
  }
}

/** A cgroup can be made and limited under `base` (made and removed again to find out). */
function writable(base: string, limitFile: string, value: string): boolean {
  const probe = join(base, `anachron-probe-${process.pid}`);
  try {
    mkdirSync(probe);
    try {
      writeFileSync(join(probe, limitFile), value);
      return true;
    } finally {
      rmdirSync(probe);
    }
  } catch {
    return false;
  }
}

/** Finds where runs' pids and memory cgroups can go; says in `notes` what is missing. */
export function detectCgroups(notes: string[]): CgroupBases {
  const own = ownCgroups();
  const bases: CgroupBases = { pids: null, memory: null, unified: false };
  if (!own) {
    notes.push('no /proc/self/cgroup: no pids or memory cgroup');
    return bases;
  }
  const limits: Record<CgroupController, [string, string, string]> = {
    pids: ['pids.max', 'pids.max', '8'],
    memory: ['memory.limit_in_bytes', 'memory.max', String(64 * 1024 * 1024)],
  };
  for (const controller of ['pids', 'memory'] as const) {
    const path = own.v1.get(controller);
    if (path !== undefined) {
      const base = join('/sys/fs/cgroup', controller, path);
      if (writable(base, limits[controller][0], limits[controller][2])) bases[controller] = base;
    }
  }
  if ((!bases.pids || !bases.memory) && own.v2 !== undefined) {
    // A delegated v2 subtree: our own folder must already hand the controllers down.
    const base = join('/sys/fs/cgroup', own.v2);
    let delegated: string[] = [];
    try {
      delegated = readFileSync(join(base, 'cgroup.subtree_control'), 'utf8').split(/\s+/);
    } catch {
      // no unified hierarchy at /sys/fs/cgroup
    }
    const both = ['pids', 'memory'].every((c) => delegated.includes(c));
    if (both && writable(base, 'pids.max', '8')) Object.assign(bases, { pids: base, memory: base, unified: true });
  }
  if (!bases.pids) notes.push('no writable pids cgroup: forks are bounded by RLIMIT_NPROC and the audit hook');
  if (!bases.memory) notes.push('no writable memory cgroup: memory is bounded per process by RLIMIT_AS (the work folder\'s tmpfs by its size)');
  return bases;
}

/** The cgroups of one run. */
export interface RunCgroups {
  /** Folders (one per hierarchy) the run's first process joins. */
  folders: string[];
  enforced: string[];
  memoryFolder?: string;
  unified: boolean;
}

let counter = 0;

/** Makes the run's cgroups with their limits; what could not be made is left out (the run still has its rlimits). */
export function makeRunCgroups(bases: CgroupBases, limits: { pids?: number; memoryBytes?: number }): RunCgroups {
  const name = `anachron-${process.pid}-${++counter}`;
  const run: RunCgroups = { folders: [], enforced: [], unified: bases.unified };
  const make = (base: string, writes: [string, string][]): string | undefined => {
    const dir = join(base, name);
    try {
      mkdirSync(dir);
    } catch {
      return undefined;
    }
    try {
      for (const [file, value] of writes) writeFileSync(join(dir, file), value);
      return dir;
    } catch {
      try {
        rmdirSync(dir);
      } catch {
        // left for the sweep of the next start
      }
      return undefined;
    }
  };
  if (bases.unified && bases.pids) {
    const writes: [string, string][] = [];
    if (limits.pids) writes.push(['pids.max', String(limits.pids)]);
    if (limits.memoryBytes) writes.push(['memory.max', String(limits.memoryBytes)], ['memory.swap.max', '0']);
    const dir = make(bases.pids, writes);
    if (dir) {
      run.folders.push(dir);
      if (limits.pids) run.enforced.push('cgroup-pids');
      if (limits.memoryBytes) {
        run.enforced.push('cgroup-memory');
        run.memoryFolder = dir;
      }
    }
    return run;
  }
  if (bases.pids && limits.pids) {
    const dir = make(bases.pids, [['pids.max', String(limits.pids)]]);
    if (dir) {
      run.folders.push(dir);
      run.enforced.push('cgroup-pids');
    }
  }
  if (bases.memory && limits.memoryBytes) {
    const dir = make(bases.memory, [['memory.limit_in_bytes', String(limits.memoryBytes)]]);
    if (dir) {
      try {
        // Where swap is accounted, swap does not extend the limit.
        writeFileSync(join(dir, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes));
      } catch {
        // no swap accounting
      }
      run.folders.push(dir);
      run.enforced.push('cgroup-memory');
      run.memoryFolder = dir;
    }
  }
  return run;
}

/** argv that puts the first process in the run's cgroups, then executes `argv`. */
export function joinCgroupsArgv(run: RunCgroups, argv: string[]): string[] {
  if (run.folders.length === 0) return argv;
  return [
    '/bin/sh', '-c', 'unset PWD OLDPWD; while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"',
    'sh', ...run.folders.map((f) => join(f, 'cgroup.procs')), '--', ...argv,
  ];
}

/** The kernel's OOM killer killed a task of the run's memory cgroup. */
export function memoryLimitHit(run: RunCgroups): boolean {
  if (!run.memoryFolder) return false;
  try {
    if (run.unified) return /^oom_kill\s+[1-9]/m.test(readFileSync(join(run.memoryFolder, 'memory.events'), 'utf8'));
    const control = readFileSync(join(run.memoryFolder, 'memory.oom_control'), 'utf8');
    if (/^oom_kill\s+[1-9]/m.test(control)) return true;
    return Number(readFileSync(join(run.memoryFolder, 'memory.failcnt'), 'utf8').trim()) > 0 && /^under_oom\s+1/m.test(control);
  } catch {
    return false;
  }
}

/** Kills every task left in a cgroup and removes it. */
export async function sweepCgroup(dir: string): Promise<void> {
  for (let round = 0; round < 50; round++) {
    let pids: number[] = [];
    try {
      pids = readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
    } catch {
      return;
    }
    if (pids.length === 0) {
      try {
        rmdirSync(dir);
        return;
      } catch {
        // tasks still exiting
      }
    }
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  try {
    rmdirSync(dir);
  } catch {
    // left for the OS; empty cgroups cost nothing
  }
}

export async function sweepRunCgroups(run: RunCgroups): Promise<void> {
  for (const dir of run.folders) await sweepCgroup(dir);
  run.folders = [];
}

/** Cgroups of runs whose runner is no longer alive (`stale(name)` decides from the folder's name). */
export async function sweepStaleCgroups(bases: CgroupBases, stale: (name: string) => boolean): Promise<void> {
  for (const base of new Set([bases.pids, bases.memory])) {
    if (!base) continue;
    try {
      for (const name of readdirSync(base)) if (/^anachron-\d+-\d+$/.test(name) && stale(name)) await sweepCgroup(join(base, name));
    } catch {
      // best effort
    }
  }
}
