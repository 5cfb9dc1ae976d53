// SPDX-License-Identifier: GPL-2.0
/*
 * Whether this machine's debug registers trigger.  Some hypervisors let a
 * guest write DR0-DR7 through ptrace but never raise the debug exception
 * (seen on a PVM guest: gdb's own hardware watchpoints and hbreak never
 * stop there).  The gdbserver asks before it accepts a hardware breakpoint
 * or watchpoint (docs/replay.md, "gdb"); the tests ask before they expect
 * one to stop.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <unistd.h>
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
