// SPDX-License-Identifier: GPL-2.0
/*
 * What this machine's CPU does for a debugger and a recorder, asked of it.
 *
 * Whether its debug registers trigger.  Some hypervisors let a
 * guest write DR0-DR7 through ptrace but never raise the debug exception
 * (seen on a PVM guest: gdb's own hardware watchpoints and hbreak never
 * stop there).  The gdbserver asks before it accepts a hardware breakpoint
 * or watchpoint (docs/replay.md, "gdb"); the tests ask before they expect
 * one to stop.
 *
 * Whether rdtsc faults under PR_SET_TSC: the same hypervisor may ignore
 * CR4.TSD.  Replay then patches the recorded rdtsc sites (docs/replay.md);
 * ptsnap cannot record an rdtsc there, and its tests say so.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include "libflightrec.h"

static volatile unsigned long dregs_word;

/* the child: stopped for its tracer, then one write to the watched word */
static void __attribute__((noreturn)) dregs_child(void)
{
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) == 0 && raise(SIGSTOP) == 0)
		dregs_word = 1;
	_exit(0);
}

int fr_debugregs_trigger(void)
{
	/* DR7: L0, RW0 = 01 (data writes), LEN0 = 10 (8 bytes) */
	const unsigned long dr7 = 1ul | 1ul << 16 | 2ul << 18;
	int st, r = -1, err = 0;
	pid_t pid, w;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		dregs_child();
	do
		w = waitpid(pid, &st, 0);
	while (w < 0 && errno == EINTR);
	if (w != pid || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGSTOP) {
		/* exited at once: PTRACE_TRACEME was refused */
		err = w == pid && WIFEXITED(st) ? EPERM : ECHILD;
		goto out;
	}
	if (ptrace(PTRACE_POKEUSER, pid, offsetof(struct user, u_debugreg[0]),
		   (void *)&dregs_word) ||
	    ptrace(PTRACE_POKEUSER, pid, offsetof(struct user, u_debugreg[7]), (void *)dr7)) {
		/* the kernel refused the registers themselves */
		r = 0;
		goto out;
	}
	if (ptrace(PTRACE_CONT, pid, NULL, NULL)) {
		err = errno;
		goto out;
	}
	do
		w = waitpid(pid, &st, 0);
	while (w < 0 && errno == EINTR);
	if (w != pid)
		err = ECHILD;
	else if (WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP)
		r = 1;		/* stopped after its write */
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		r = 0;		/* it wrote, and nothing stopped it */
	else
		err = ECHILD;
out:
	if (w == pid && !WIFEXITED(st) && !WIFSIGNALED(st)) {
		kill(pid, SIGKILL);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	if (r < 0)
		errno = err ? err : ECHILD;
	return r;
}

#define TSC_FAULTED	42

static void tsc_fault(int sig)
{
	(void)sig;
	_exit(TSC_FAULTED);
}

bool fr_rdtsc_traps(void)
{
	static int known = -1;
	struct sigaction sa = { .sa_handler = tsc_fault };
	int status;
	pid_t pid;

	if (known >= 0)
		return known;
	pid = fork();
	if (pid == 0) {
		uint32_t lo, hi;

		sigaction(SIGSEGV, &sa, NULL);
		if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV))
			_exit(1);
		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		(void)lo;
		(void)hi;
		_exit(0);
	}
	known = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		WEXITSTATUS(status) == TSC_FAULTED;
	return known;
}
