// The seccomp filter the sandbox hands bubblewrap (`--seccomp FD`): a classic BPF program, pure data built here, that
// refuses the system calls generated code has no business making — new namespaces, mounts, kernel keyrings, modules,
// BPF, ptrace and reading other processes' memory, io_uring (it bypasses seccomp for the operations it queues), the
// clock — and kills a process that calls in through another ABI (32-bit x86, x32). Everything else is allowed: the
// filter narrows the kernel's surface, the namespaces and the unprivileged uid are the boundary.
//
// System call numbers: the Linux UAPI headers (asm/unistd_64.h for x86-64, asm-generic/unistd.h for aarch64).

export type SeccompArch = 'x64' | 'arm64';

/** name -> [x86-64, aarch64]; null where the architecture has no such call. */
const DENIED: Record<string, [number | null, number | null]> = {
  // namespaces and mounts
  unshare: [272, 97], setns: [308, 268], mount: [165, 40], umount2: [166, 39], pivot_root: [155, 41], chroot: [161, 51],
  move_mount: [429, 429], open_tree: [428, 428], fsopen: [430, 430], fsconfig: [431, 431], fsmount: [432, 432],
  fspick: [433, 433], mount_setattr: [442, 442],
  // the kernel itself
  keyctl: [250, 219], add_key: [248, 217], request_key: [249, 218], bpf: [321, 280], perf_event_open: [298, 241],
  userfaultfd: [323, 282], kexec_load: [246, 104], kexec_file_load: [320, 294], init_module: [175, 105],
  finit_module: [313, 273], delete_module: [176, 106], reboot: [169, 142], swapon: [167, 224], swapoff: [168, 225],
  syslog: [103, 116], acct: [163, 89], quotactl: [179, 60], quotactl_fd: [443, 443], lookup_dcookie: [212, 18],
  open_by_handle_at: [304, 265], name_to_handle_at: [303, 264], settimeofday: [164, 170], clock_settime: [227, 112],
  clock_adjtime: [305, 266], adjtimex: [159, 171], uselib: [134, null], modify_ldt: [154, null], iopl: [172, null],
  ioperm: [173, null], vhangup: [153, 58],
  // other processes
  ptrace: [101, 117], process_vm_readv: [310, 270], process_vm_writev: [311, 271], kcmp: [312, 272],
  pidfd_getfd: [438, 438],
};

/** Refused with ENOSYS, so that libraries fall back to what the filter can inspect or to plain system calls. */
const UNAVAILABLE: Record<string, [number | null, number | null]> = {
  clone3: [435, 435], // its flags sit in memory the filter cannot read; glibc falls back to clone(2)
  io_uring_setup: [425, 425], io_uring_enter: [426, 426], io_uring_register: [427, 427],
};

const CLONE: [number, number] = [56, 220];
const IOCTL: [number, number] = [16, 29];
/** CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET. */
const CLONE_NEW_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000;
/** TIOCSTI (push input into a terminal) and TIOCLINUX. */
const TERMINAL_INJECTION = [0x5412, 0x541c];

const AUDIT_ARCH: Record<SeccompArch, number> = { x64: 0xc000003e, arm64: 0xc00000b7 };
const X32_SYSCALL_BIT = 0x40000000;

// struct seccomp_data: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6] (little-endian: low word first)
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
const argLow = (i: number) => 16 + 8 * i;

// BPF opcodes
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

/** The architecture of this Node process as the filter knows it, or null where there is no filter for it. */
export function seccompArch(arch: string = process.arch): SeccompArch | null {
  return arch === 'x64' || arch === 'arm64' ? arch : null;
}

type Target = 'allow' | 'eperm' | 'enosys' | 'kill' | 'clone' | 'ioctl';
type Op = { code: number; k: number; jt?: Target; jf?: Target } | { label: Target };

/** The filter for `arch` as bytes of struct sock_filter (what bwrap's --seccomp reads). */
export function seccompFilter(arch: SeccompArch): Buffer {
  const column = arch === 'x64' ? 0 : 1;
  const ops: Op[] = [
    { code: LD_W_ABS, k: ARCH_OFFSET },
    { code: JEQ_K, k: AUDIT_ARCH[arch], jf: 'kill' },
    { code: LD_W_ABS, k: NR_OFFSET },
  ];
  if (arch === 'x64') ops.push({ code: JGE_K, k: X32_SYSCALL_BIT, jt: 'kill' });
  for (const [x64, arm64] of Object.values(DENIED)) {
    const nr = column === 0 ? x64 : arm64;
    if (nr !== null) ops.push({ code: JEQ_K, k: nr, jt: 'eperm' });
  }
  for (const [x64, arm64] of Object.values(UNAVAILABLE)) {
    const nr = column === 0 ? x64 : arm64;
    if (nr !== null) ops.push({ code: JEQ_K, k: nr, jt: 'enosys' });
  }
  ops.push({ code: JEQ_K, k: CLONE[column], jt: 'clone' });
  ops.push({ code: JEQ_K, k: IOCTL[column], jt: 'ioctl' });
  ops.push({ label: 'allow' }, { code: RET_K, k: RET_ALLOW });
  ops.push({ label: 'clone' }, { code: LD_W_ABS, k: argLow(0) }, { code: JSET_K, k: CLONE_NEW_NAMESPACES, jt: 'eperm' }, { code: RET_K, k: RET_ALLOW });
  ops.push({ label: 'ioctl' }, { code: LD_W_ABS, k: argLow(1) });
  for (const cmd of TERMINAL_INJECTION) ops.push({ code: JEQ_K, k: cmd, jt: 'eperm' });
  ops.push({ code: RET_K, k: RET_ALLOW });
  ops.push({ label: 'eperm' }, { code: RET_K, k: RET_ERRNO | EPERM });
  ops.push({ label: 'enosys' }, { code: RET_K, k: RET_ERRNO | ENOSYS });
  ops.push({ label: 'kill' }, { code: RET_K, k: RET_KILL_PROCESS });
  return assemble(ops);
}

/** Resolves labels to forward jump offsets (BPF jumps only forward, by at most 255 instructions). */
function assemble(ops: Op[]): Buffer {
  const at = new Map<Target, number>();
  const instructions: Exclude<Op, { label: Target }>[] = [];
  for (const op of ops) {
    if ('label' in op) at.set(op.label, instructions.length);
    else instructions.push(op);
  }
  const out = Buffer.alloc(instructions.length * 8);
  instructions.forEach((ins, i) => {
    const offset = (target: Target | undefined): number => {
      if (target === undefined) return 0;
      const to = at.get(target);
      if (to === undefined || to <= i || to - i - 1 > 255) throw new Error(`seccomp filter: no forward jump from ${i} to ${target}`);
      return to - i - 1;
    };
    out.writeUInt16LE(ins.code, i * 8);
    out.writeUInt8(offset(ins.jt), i * 8 + 2);
    out.writeUInt8(offset(ins.jf), i * 8 + 3);
    out.writeUInt32LE(ins.k >>> 0, i * 8 + 4);
  });
  return out;
}

/** The names the filter refuses (for the documentation and the tests). */
export function seccompRefused(): { eperm: string[]; enosys: string[] } {
  return { eperm: [...Object.keys(DENIED), 'clone with CLONE_NEW* flags', 'ioctl TIOCSTI/TIOCLINUX'], enosys: Object.keys(UNAVAILABLE) };
}
