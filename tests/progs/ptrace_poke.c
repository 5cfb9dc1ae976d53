// SPDX-License-Identifier: GPL-2.0
/*
 * A tracer that changes its traced child (issue 25, class 11), as a
 * sandbox or fault injector does.  The child stops itself (SIGSTOP); at
 * that signal-delivery stop the parent pokes `stop_word`; at the
 * syscall-entry stop of getuid() it makes the call a getpid() (orig_rax)
 * and writes `entry_word` with PTRACE_POKEDATA and `mem_word` through
 * /proc/PID/mem; at the syscall-exit stop of getppid() it sets the result
 * to 4242 (PTRACE_SETREGS).  The child prints what it saw: each value is
 * the tracer's, never its own.  Then the parent prints the child's status.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile long stop_word = 1, entry_word = 2, mem_word = 3;

static void child(void)
{
	char buf[256];
	long uid_call, ppid;
	int n;

	if (ptrace(PTRACE_TRACEME, 0, 0, 0))
		_exit(10);
	raise(SIGSTOP);
	uid_call = syscall(SYS_getuid);
	ppid = syscall(SYS_getppid);
	n = snprintf(buf, sizeof(buf),
		     "child: stop_word %ld entry_word %ld mem_word %ld getuid gave pid %s ppid %ld\n",
		     stop_word, entry_word, mem_word,
		     uid_call == syscall(SYS_getpid) ? "yes" : "no", ppid);
	if (write(1, buf, n) != n)
		_exit(11);
	_exit(0);
}

static void die(const char *what)
{
	fprintf(stderr, "ptrace_poke: %s: %s\n", what, strerror(errno));
	exit(2);
}

int main(void)
{
	struct user_regs_struct r;
	int st, in_call = 0, done = 0, mem;
	char path[64];
	pid_t c;
	long v;

	c = fork();
	if (c < 0)
		die("fork");
	if (!c)
		child();
	if (waitpid(c, &st, 0) != c || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGSTOP)
		die("the child's SIGSTOP");
	if (ptrace(PTRACE_POKEDATA, c, &stop_word, (void *)1111L))
		die("PTRACE_POKEDATA at the signal stop");
	if (ptrace(PTRACE_SETOPTIONS, c, 0, (void *)PTRACE_O_TRACESYSGOOD))
		die("PTRACE_SETOPTIONS");
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)c);
	mem = open(path, O_RDWR);
	if (mem < 0)
		die(path);
	/* SIGSTOP suppressed; stop at every syscall entry and exit */
	if (ptrace(PTRACE_SYSCALL, c, 0, 0))
		die("PTRACE_SYSCALL");
	while (done < 2) {
		if (waitpid(c, &st, 0) != c)
			die("waitpid");
		if (!WIFSTOPPED(st) || WSTOPSIG(st) != (SIGTRAP | 0x80))
			die("not a syscall stop");
		in_call = !in_call;
		if (ptrace(PTRACE_GETREGS, c, 0, &r))
			die("PTRACE_GETREGS");
		if (in_call && r.orig_rax == SYS_getuid) {
			r.orig_rax = SYS_getpid;
			if (ptrace(PTRACE_SETREGS, c, 0, &r))
				die("PTRACE_SETREGS at entry");
			if (ptrace(PTRACE_POKEDATA, c, &entry_word, (void *)2222L))
				die("PTRACE_POKEDATA at entry");
			v = 3333;
			if (pwrite(mem, &v, sizeof(v), (off_t)(unsigned long)&mem_word) != sizeof(v))
				die("write /proc/PID/mem");
			done++;
		} else if (!in_call && r.orig_rax == SYS_getppid) {
			r.rax = 4242;
			if (ptrace(PTRACE_SETREGS, c, 0, &r))
				die("PTRACE_SETREGS at exit");
			done++;
		}
		/* after the last change, no more stops: it runs on to its exit */
		if (ptrace(done == 2 ? PTRACE_DETACH : PTRACE_SYSCALL, c, 0, 0))
			die(done == 2 ? "PTRACE_DETACH" : "PTRACE_SYSCALL");
	}
	if (waitpid(c, &st, 0) != c)
		die("waitpid for the exit");
	close(mem);
	printf("parent: child exited %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}
