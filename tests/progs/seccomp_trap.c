// SPDX-License-Identifier: GPL-2.0
/*
 * Installs a seccomp filter that traps getppid (SECCOMP_RET_TRAP), catches
 * the SIGSYS, sets the call's result in the handler and prints it (issue
 * 25, class 11: a SIGSYS the program's own filter raises is delivered to
 * it).  The kernel does not make the trapped call: the recording has the
 * signal and no record of the call.
 */
#define _GNU_SOURCE
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static volatile int got_nr = -1, got_code = -1;

static void on_sys(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	got_nr = si->si_syscall;
	got_code = si->si_code;
	uc->uc_mcontext.gregs[REG_RAX] = 4242;
}

int main(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP | 7),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };
	struct sigaction sa;
	long r1, r2;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sys;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSYS, &sa, NULL);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("seccomp");
		return 1;
	}
	r1 = syscall(SYS_getppid);
	printf("getppid -> %ld (SIGSYS for nr %d code %d)\n", r1, got_nr, got_code);
	r2 = syscall(SYS_getppid);
	printf("again -> %ld\n", r2);
	printf("getpid > 0: %s\n", getpid() > 0 ? "yes" : "no");
	return 0;
}
