/**
 * The seccomp filter every sandboxed agent runs under (bubblewrap's `--seccomp FD`; probe32 B-F1): no
 * unix socket can be created, so the agent connects to no local service, however that service's socket
 * was bound (a path, a path renamed or hard-linked after bind, one bound after the agent started, or an
 * abstract `@name`). Covering the paths `/proc/net/unix` names missed renamed and hard-linked sockets
 * (connect() resolves by inode) and could not cover abstract ones at all.
 *
 * The program is classic BPF (`struct sock_filter`: u16 code, u8 jt, u8 jf, u32 k, little-endian, 8
 * bytes each) over `struct seccomp_data` (`nr` at offset 0, `arch` at 4, `args[i]` at 16 + 8i, whose low
 * 32-bit word comes first on these little-endian architectures). It denies:
 * - every system call of another architecture's ABI (`ENOSYS`): on x86_64 the i386 `int 0x80` entry,
 *   whose `socketcall` would create sockets under other numbers;
 * - on x86_64 the x32 ABI (`nr >= 0x40000000`, `EACCES`): the same calls under other numbers;
 * - `io_uring_setup` (425 on both; `EACCES`): io_uring creates and connects sockets without the
 *   system calls this filter sees;
 * - `socket(AF_UNIX, ...)` (`EACCES`);
 * - `socketpair(..., SOCK_DGRAM, ...)` (`EACCES`): a datagram socketpair's socket can still `sendto` a
 *   bound datagram socket by its path or abstract name (found while fixing probe32 B-F1: a syslog-style
 *   service received the agent's datagram). A stream or seqpacket socketpair stays allowed: it is
 *   connected to its twin, has no path, and ignores or refuses an address given to `sendto`.
 *
 * Everything else is allowed (`AF_INET`/`AF_INET6` sockets, child processes, ...).
 */

/** The architectures with a filter: Node's `process.arch` name, `AUDIT_ARCH_*` and syscall numbers. */
const ARCHES = {
  x64: { audit: 0xc000003e, socket: 41, socketpair: 53, x32: true },
  arm64: { audit: 0xc00000b7, socket: 198, socketpair: 199, x32: false },
} as const;

/** `io_uring_setup`, the same number on x86_64 and arm64. */
const IO_URING_SETUP = 425;
/** The x32 ABI's bit in `nr` on x86_64 (`__X32_SYSCALL_BIT`). */
const X32_SYSCALL_BIT = 0x40000000;
const AF_UNIX = 1;
const SOCK_DGRAM = 2;
/** `SOCK_TYPE_MASK`: the type without `SOCK_NONBLOCK`/`SOCK_CLOEXEC`. */
const SOCK_TYPE_MASK = 0xf;

const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const ENOSYS = 38;
const EACCES = 13;

/** BPF opcodes: `BPF_LD|BPF_W|BPF_ABS`, `BPF_JMP|BPF_JEQ|BPF_K`, `BPF_JMP|BPF_JGE|BPF_K`, `BPF_ALU|BPF_AND|BPF_K`, `BPF_RET|BPF_K`. */
const LD_W_ABS = 0x20;
const JEQ = 0x15;
const JGE = 0x35;
const AND = 0x54;
const RET = 0x06;

/** One instruction; `jt`/`jf` name a label (the next instruction when absent). */
interface Insn {
  label?: string;
  code: number;
  k: number;
  jt?: string;
  jf?: string;
}

/**
 * The filter for `arch` as bubblewrap reads it from `--seccomp FD` (see the module doc for what it
 * denies and why).
 * @param arch Node's `process.arch`
 * @returns the program's bytes (8 per instruction), or null for an architecture with no filter here
 *   (anything but `x64` and `arm64`: the runner then treats bubblewrap as not usable)
 */
export function agentSeccompProgram(arch: string = process.arch): Buffer | null {
  const a = (ARCHES as Record<string, (typeof ARCHES)[keyof typeof ARCHES]>)[arch];
  if (a === undefined) return null;
  const program: Insn[] = [
    { code: LD_W_ABS, k: 4 }, // A = seccomp_data.arch
    { code: JEQ, k: a.audit, jt: "native" }, // the native ABI only
    { code: RET, k: SECCOMP_RET_ERRNO | ENOSYS }, // another ABI (i386 on x86_64): ENOSYS
    { label: "native", code: LD_W_ABS, k: 0 }, // A = seccomp_data.nr
    ...(a.x32 ? [{ code: JGE, k: X32_SYSCALL_BIT, jt: "deny" }] : []), // x32 calls: deny
    { code: JEQ, k: IO_URING_SETUP, jt: "deny" }, // io_uring: deny
    { code: JEQ, k: a.socket, jt: "socket" },
    { code: JEQ, k: a.socketpair, jt: "socketpair", jf: "allow" },
    { label: "socket", code: LD_W_ABS, k: 16 }, // A = low word of args[0] (domain)
    { code: JEQ, k: AF_UNIX, jt: "deny", jf: "allow" }, // socket(AF_UNIX, ...): deny
    { label: "socketpair", code: LD_W_ABS, k: 24 }, // A = low word of args[1] (type)
    { code: AND, k: SOCK_TYPE_MASK }, // without SOCK_NONBLOCK / SOCK_CLOEXEC
    { code: JEQ, k: SOCK_DGRAM, jt: "deny" }, // socketpair(..., SOCK_DGRAM): deny
    { label: "allow", code: RET, k: SECCOMP_RET_ALLOW },
    { label: "deny", code: RET, k: SECCOMP_RET_ERRNO | EACCES },
  ];
  const at = new Map(program.flatMap((insn, i) => (insn.label ? [[insn.label, i] as const] : [])));
  const offset = (from: number, label: string | undefined): number =>
    label === undefined ? 0 : at.get(label)! - from - 1;
  const out = Buffer.alloc(program.length * 8);
  program.forEach((insn, i) => {
    out.writeUInt16LE(insn.code, i * 8);
    out.writeUInt8(offset(i, insn.jt), i * 8 + 2);
    out.writeUInt8(offset(i, insn.jf), i * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
  });
  return out;
}
