// SPDX-License-Identifier: GPL-2.0
/*
 * The replay sandbox: a seccomp-BPF filter that the loader installs (with
 * no_new_privs) before it enters the application.
 *
 * A checkpoint is a program.  Syscall User Dispatch sends every system call
 * made outside the loader's text to the loader's SIGSYS handler, which
 * answers it from the log; but the application can reach a `syscall`
 * instruction inside the loader's text (it shares the address space) and
 * Syscall User Dispatch lets that through.  This filter is what stops it:
 * the kernel checks every system call of every thread against it, wherever
 * it comes from, and nothing the application does can remove it.  It
 * allows exactly what the loader itself does once the application runs,
 * with the arguments it uses; everything else gets SECCOMP_RET_TRAP, a
 * SIGSYS with si_code SYS_SECCOMP that on_sigsys reports as a blocked
 * system call (FR_EXIT_BLOCKED), the call never made.
 *
 * The list, and why each is there (docs/security.md has it too):
 *   rt_sigreturn          returning from the loader's handlers, entering threads
 *   exit, exit_group      the end of a thread, of the replay
 *   restart_syscall       a futex wait a debugger's stop interrupted goes on
 *   futex                 FUTEX_WAIT_PRIVATE / FUTEX_WAKE_PRIVATE: the turn order
 *   mmap                  MAP_ANONYMOUS only (no file): replayed mappings, thread slots
 *   munmap, mprotect, mremap, madvise(MADV_DONTNEED)   replayed address-space calls
 *   clone                 only with the loader's thread flags (no fork, no new namespace);
 *                         under the gdbserver a fork goes to it (below)
 *   arch_prctl            ARCH_SET_FS, ARCH_SET_GS, ARCH_SET_CPUID: thread setup;
 *                         ARCH_GET_FS, ARCH_GET_GS: the end's register check
 *   prctl                 PR_SET_TSC, PR_SET_SYSCALL_USER_DISPATCH: thread setup
 *   sigaltstack           thread setup
 *   write, pwrite64       only to fd 2 (messages), fd 1 with --show-output, and
 *                         the output files opened before the filter
 *   getpid, gettid, clock_gettime   reports and timings
 *   tgkill, process_vm_readv, process_vm_writev   only on this process
 * Under the gdbserver (-G: it is the loader's ptracer) the pid is checked by
 * the gdbserver (SECCOMP_RET_TRACE), since its snapshots of the replay are
 * forks with pids of their own; it also lets through the forks it injects
 * to take them (clone with flags CLONE_PARENT | SIGCHLD), and refuses every other fork
 * (EPERM).  Untraced, SECCOMP_RET_TRACE fails with ENOSYS.
 *   rt_sigaction, rt_sigprocmask  only under gdb, for the recorded fatal signal
 * No open, no exec, no socket, no file system, no process creation.
 */
#include <stddef.h>
#include <stdint.h>
#include <asm/unistd.h>
#include <asm/prctl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/prctl.h>
#include <linux/mman.h>
#include <linux/futex.h>

/* the gdbserver's forks: CLONE_PARENT | SIGCHLD (its children, reaped there) */
#define FR_SNAP_CLONE	(0x00008000 | 17)
#include <linux/sched.h>
#include "sys.h"
#include "sandbox.h"

#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH	59
#endif
#ifndef ARCH_SET_CPUID
#define ARCH_SET_CPUID	0x1012
#endif

#define MAX_INSNS	4096

struct prog {
	struct sock_filter f[MAX_INSNS];
	unsigned int n;
	int overflow;
};

static struct prog P;

static void insn(uint16_t code, uint8_t jt, uint8_t jf, uint32_t k)
{
	if (P.n >= MAX_INSNS) {
		P.overflow = 1;
		return;
	}
	P.f[P.n].code = code;
	P.f[P.n].jt = jt;
	P.f[P.n].jf = jf;
	P.f[P.n].k = k;
	P.n++;
}

#define OFF_NR		offsetof(struct seccomp_data, nr)
#define OFF_ARCH	offsetof(struct seccomp_data, arch)
#define OFF_LO(i)	(offsetof(struct seccomp_data, args) + 8 * (i))
#define OFF_HI(i)	(OFF_LO(i) + 4)

static void ret(uint32_t v)
{
	insn(BPF_RET | BPF_K, 0, 0, v);
}

static void load(uint32_t off)
{
	insn(BPF_LD | BPF_W | BPF_ABS, 0, 0, off);
}

/* A == v: allow; else fall through (two instructions). */
static void allow_if(uint32_t v)
{
	insn(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, v);
	ret(SECCOMP_RET_ALLOW);
}

/*
 * One rule: the block runs only for syscall nr and ends in a return.  The
 * header skips the block with a 32-bit jump, so blocks of any length work.
 */
static unsigned int rule_begin(uint32_t nr)
{
	load(OFF_NR);
	insn(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, nr);
	insn(BPF_JMP | BPF_JA, 0, 0, 0);	/* patched by rule_end */
	return P.n;
}

static void rule_end(unsigned int start)
{
	if (!P.overflow)
		P.f[start - 1].k = P.n - start;
}

static void rule_allow(uint32_t nr)
{
	unsigned int b = rule_begin(nr);

	ret(SECCOMP_RET_ALLOW);
	rule_end(b);
}

/* nr goes to the ptracer (PTRACE_EVENT_SECCOMP), which decides; ENOSYS untraced */
static void rule_trace(uint32_t nr)
{
	unsigned int b = rule_begin(nr);

	ret(SECCOMP_RET_TRACE);
	rule_end(b);
}

/* nr allowed when its argument i (all 64 bits) is one of vals */
static void rule_arg_in(uint32_t nr, int i, const uint64_t *vals, unsigned int n)
{
	unsigned int b = rule_begin(nr), k;

	for (k = 0; k < n; k++) {
		/* hi word first: skip the lo test when it differs */
		load(OFF_HI(i));
		insn(BPF_JMP | BPF_JEQ | BPF_K, 0, 3, (uint32_t)(vals[k] >> 32));
		load(OFF_LO(i));
		allow_if((uint32_t)vals[k]);
	}
	ret(SECCOMP_RET_TRAP);
	rule_end(b);
}

/* nr allowed when argument i is one of the fds (an int: the high word 0) */
static void rule_fd_in(uint32_t nr, int i, const int *fds, unsigned int n)
{
	unsigned int b = rule_begin(nr), k;

	load(OFF_HI(i));
	insn(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 0);
	ret(SECCOMP_RET_TRAP);
	load(OFF_LO(i));
	for (k = 0; k < n; k++)
		allow_if((uint32_t)fds[k]);
	ret(SECCOMP_RET_TRAP);
	rule_end(b);
}

static void rule_arg_is(uint32_t nr, int i, uint64_t v)
{
	rule_arg_in(nr, i, &v, 1);
}

/* nr allowed when the low word of argument i has all bits of mask */
static void rule_arg_has(uint32_t nr, int i, uint32_t mask)
{
	unsigned int b = rule_begin(nr);

	load(OFF_LO(i));
	insn(BPF_ALU | BPF_AND | BPF_K, 0, 0, mask);
	allow_if(mask);
	ret(SECCOMP_RET_TRAP);
	rule_end(b);
}

long fr_sandbox_install(const struct fr_sandbox *sb)
{
	uint64_t v[8];
	static int fds[FR_SANDBOX_MAX_FDS + 2];
	unsigned int nfd = 0, i;
	struct sock_fprog prog;
	long r;

	P.n = 0;
	P.overflow = 0;
	/* x86_64 only: an int 0x80 (i386) or x32 call is trapped */
	load(OFF_ARCH);
	insn(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, AUDIT_ARCH_X86_64);
	ret(SECCOMP_RET_TRAP);

	rule_allow(__NR_rt_sigreturn);
	rule_allow(__NR_exit);
	rule_allow(__NR_exit_group);
	/*
	 * A futex wait that a debugger's stop interrupted (the gdbserver's
	 * PTRACE_INTERRUPT) goes on with restart_syscall: only ever the call
	 * the kernel interrupted, which this filter allowed.
	 */
	rule_allow(__NR_restart_syscall);
	v[0] = FUTEX_WAIT_PRIVATE;
	v[1] = FUTEX_WAKE_PRIVATE;
	rule_arg_in(__NR_futex, 1, v, 2);
	rule_arg_has(__NR_mmap, 3, MAP_ANONYMOUS);
	rule_allow(__NR_munmap);
	rule_allow(__NR_mprotect);
	rule_allow(__NR_mremap);
	rule_arg_is(__NR_madvise, 2, MADV_DONTNEED);
	if (sb->traced) {
		/* the gdbserver's snapshots: a fork goes to it; nothing else does */
		unsigned int b = rule_begin(__NR_clone);

		load(OFF_HI(0));
		insn(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, (uint32_t)(sb->clone_flags >> 32));
		ret(SECCOMP_RET_TRAP);
		load(OFF_LO(0));
		allow_if((uint32_t)sb->clone_flags);
		insn(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, FR_SNAP_CLONE);
		ret(SECCOMP_RET_TRACE);
		ret(SECCOMP_RET_TRAP);
		rule_end(b);
	} else {
		rule_arg_is(__NR_clone, 0, sb->clone_flags);
	}
	v[0] = ARCH_SET_FS;
	v[1] = ARCH_SET_GS;
	v[2] = ARCH_SET_CPUID;
	v[3] = ARCH_GET_FS;
	v[4] = ARCH_GET_GS;
	rule_arg_in(__NR_arch_prctl, 0, v, 5);
	v[0] = PR_SET_TSC;
	v[1] = PR_SET_SYSCALL_USER_DISPATCH;
	rule_arg_in(__NR_prctl, 0, v, 2);
	rule_allow(__NR_sigaltstack);

	fds[nfd++] = 2;
	if (sb->stdout_ok)
		fds[nfd++] = 1;
	for (i = 0; i < sb->n_fds && i < FR_SANDBOX_MAX_FDS; i++)
		fds[nfd++] = sb->fds[i];
	rule_fd_in(__NR_write, 0, fds, nfd);
	rule_fd_in(__NR_pwrite64, 0, fds, nfd);

	rule_allow(__NR_getpid);
	rule_allow(__NR_gettid);
	rule_allow(__NR_clock_gettime);
	if (sb->traced) {
		rule_trace(__NR_tgkill);
		rule_trace(__NR_process_vm_readv);
		rule_trace(__NR_process_vm_writev);
	} else {
		rule_arg_is(__NR_tgkill, 0, (uint64_t)sb->pid);
		rule_arg_is(__NR_process_vm_readv, 0, (uint64_t)sb->pid);
		rule_arg_is(__NR_process_vm_writev, 0, (uint64_t)sb->pid);
	}
	if (sb->raise_sig) {
		rule_arg_is(__NR_rt_sigaction, 0, (uint64_t)sb->raise_sig);
		rule_arg_is(__NR_rt_sigprocmask, 0, 0 /* SIG_BLOCK */);
	}
	ret(SECCOMP_RET_TRAP);
	if (P.overflow)
		return -7;	/* E2BIG */

	r = sys5(__NR_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (r)
		return r;
	prog.len = (unsigned short)P.n;
	prog.filter = P.f;
	return sys3(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}
