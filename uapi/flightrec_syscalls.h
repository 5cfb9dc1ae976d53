/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * flightrec: the one syscall table (x86_64, Linux 6.1).
 *
 * Every piece of syscall knowledge in the project comes from the rows below:
 * kernel capture (what to copy at syscall exit), the replay loader (what to copy
 * back into the application, which calls to re-execute), `flightrec log`
 * (strace-style decoding) and the tests.  There is no second list of syscalls.
 *
 * A row:
 *   X(nr, name, nargs, flags, argtypes, in1, in2, out1, out2, out3)
 *
 *   nr        the x86_64 number; checked against <asm/unistd_64.h> at compile time
 *             (flightrec_syscall_check.h, included once by kernel and userspace).
 *   flags     FR_F_*: how replay treats the call, and FR_F_IRREGULAR when its
 *             out-semantics need code (ioctl by request, fcntl, prctl, ...); that code
 *             lives in one place per side (kernel/syscall.c fr_irregular_*,
 *             user/lib/sysdecode.c).
 *   argtypes  a string with one letter per argument, for display only:
 *             d fd, D dirfd (AT_FDCWD), s path/string, p pointer, i signed int,
 *             u unsigned, x hex flags, o open flags, m mode (octal), S signal,
 *             l length/size, P pid,
 *             I signed 64-bit (off_t, long), O O_* flags without an access
 *             mode (pipe2, dup3, accept4 ...), r PROT_*, f MAP_*, a AT_*,
 *             c clockid, h SIG_BLOCK..., w SEEK_*, k AF_*, T SOCK_*,
 *             R a request code named by FLIGHTREC_REQUEST_TABLE (ioctl, fcntl,
 *             prctl, futex ...)
 *   in1..2    data the call reads from the process (checked by replay's
 *             divergence test; kept as output by replay for write-like calls)
 *   out1..3   data the kernel writes back into the process (copied at syscall
 *             exit, written back by replay)
 *
 *   A data descriptor is FR_D(arg, kind, p1, p2) or FR_D0 (none):
 *     FR_SZ_FIXED   p1 bytes at arg
 *     FR_SZ_RET     ret * (p2 ? p2 : 1) bytes at arg, when ret > 0
 *     FR_SZ_ARG     args[p1] * (p2 ? p2 : 1) bytes at arg
 *     FR_SZ_PTRLEN  *(u32 *)args[p1] bytes at arg (value after the call, but never
 *                   more than it held before: the kernel truncates to the caller's
 *                   buffer and reports the full size; the recorder, which does
 *                   not read the value before, cuts the copy at the first page
 *                   that cannot be read; the u32 at args[p1] is itself an
 *                   out1..3 descriptor of the row)
 *     FR_SZ_STR     a NUL-terminated string at arg (inputs only)
 *     FR_SZ_IOV     an iovec array at arg, args[p1] entries; for outputs the bytes
 *                   filled are ret in total, for inputs all of them
 *     FR_SZ_MSGHDR  a struct msghdr at arg (name, iov, control; inputs and outputs)
 *     FR_SZ_MMSGHDR struct mmsghdr[args[p1]] at arg, ret of them filled
 *     FR_SZ_FDSET   an fd_set of args[p1] bits at arg
 *     FR_SZ_ARG_RET min(args[p1], ret) * (p2 ? p2 : 1) bytes when ret >= 0
 *                   (readlink, getcwd, getxattr with size 0, getgroups...)
 *     FR_SZ_MSGBUF  a SysV struct msgbuf at arg: the 8-byte mtype, then args[p1]
 *                   text bytes (inputs: msgsnd) or ret text bytes (outputs: msgrcv)
 *     FR_SZ_SOCKADDR a socket address of args[p1] bytes at arg (inputs: connect,
 *                   bind, sendto): FR_SZ_ARG everywhere but in the divergence
 *                   hash, which covers what the kernel reads of it (an AF_UNIX
 *                   path up to its NUL; flightrec_inhash.h)
 *     FR_SZ_IOV1    one struct iovec at arg, and the iov_len bytes at its iov_base
 *                   (values after the call; outputs: ptrace's PTRACE_GETREGSET,
 *                   which sets iov_len to the size it wrote)
 *
 * Evolving it: rows are only added (a new syscall number) or corrected; the
 * meaning of a kind never changes.  A kind added later gets a new value at the
 * end of enum fr_sz, and FLIGHTREC_ABI_VERSION does not change because records
 * carry bytes and addresses, not the table.
 */
#ifndef _UAPI_LINUX_FLIGHTREC_SYSCALLS_H
#define _UAPI_LINUX_FLIGHTREC_SYSCALLS_H

enum fr_sz {
	FR_SZ_NONE,
	FR_SZ_FIXED,
	FR_SZ_RET,
	FR_SZ_ARG,
	FR_SZ_PTRLEN,
	FR_SZ_STR,
	FR_SZ_IOV,
	FR_SZ_MSGHDR,
	FR_SZ_MMSGHDR,
	FR_SZ_FDSET,
	FR_SZ_ARG_RET,
	FR_SZ_MSGBUF,
	FR_SZ_SOCKADDR,
	FR_SZ_IOV1,
};

/* row flags */
#define FR_F_IRREGULAR	0x001	/* out-semantics need code, see above */
#define FR_F_ADDRSPACE	0x002	/* mmap munmap mremap brk mprotect ...: re-executed by replay */
#define FR_F_THREADAREA	0x004	/* arch_prctl set_tid_address ...: re-executed by replay */
#define FR_F_PROCESS	0x008	/* fork vfork clone clone3 execve exit exit_group */
#define FR_F_NORETURN	0x010	/* does not return on success (exit, exit_group, execve) */
#define FR_F_OUTPUT	0x020	/* writes data the user wants to see (write, send...) */
#define FR_F_SIGNAL	0x040	/* changes signal state (rt_sigaction, sigprocmask ...) */
#define FR_F_BLOCKING	0x080	/* may block indefinitely (read on a pipe, wait4, ...) */
#define FR_F_UNSAFE	0x100	/* cannot be replayed faithfully: marks the interval */
#define FR_F_SIGRETURN	0x200	/* rt_sigreturn: restores registers from the frame */
#define FR_F_OUTERR	0x400	/* out-data may be written when the call fails too
				 * (nanosleep's remaining time on EINTR, select's
				 * timeout, capget's version probe); without it
				 * outs exist only when ret >= 0 */
#define FR_F_NOSYS	0x800	/* no implementation on x86_64: always -ENOSYS */
#define FR_F_SENDSIG	0x1000	/* sends a signal (kill, tgkill ...); sent to the
				 * recorded process itself (raise, abort) it is
				 * delivered at this syscall's return */
#define FR_F_RETPTR	0x2000	/* returns an address (mmap, mremap, brk, shmat) */
#define FR_F_IN_RET	0x4000	/* returns how much of its in-data (in1) it took,
				 * from its start: bytes (of a buffer, iovecs, a
				 * msghdr's iovecs), or messages of an mmsghdr
				 * array: write, send...  (FR_IN_RULE_FULL) */

struct fr_data_desc {
	unsigned char arg;	/* argument index 0..5 */
	unsigned char kind;	/* enum fr_sz */
	unsigned short p1;
	unsigned short p2;
};

#define FR_D(arg, kind, p1, p2)	{ (arg), (kind), (p1), (p2) }
#define FR_D0			{ 0, FR_SZ_NONE, 0, 0 }

#define FR_NR_SYSCALLS	451	/* table size: highest x86_64 number of Linux 6.1 is 450 */

#include "flightrec_syscall_table.h"

#endif /* _UAPI_LINUX_FLIGHTREC_SYSCALLS_H */
