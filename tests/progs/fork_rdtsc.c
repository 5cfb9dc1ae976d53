// SPDX-License-Identifier: GPL-2.0
/*
 * fork_rdtsc - forks until SIGUSR1; each child reads the TSC and exits 0.
 * Prints how many children were killed by a signal and exits 1 if any was:
 * a child that inherited a TIF_NOTSC no recorder owns dies of SIGSEGV at
 * its rdtsc (issue 24.2).  A test that fails before it sends SIGUSR1
 * leaves it to SIGALRM after 300 s.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>

static volatile sig_atomic_t stop;

static void on_usr1(int sig)
{
	(void)sig;
	stop = 1;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	long n = 0, killed = 0;
	uint32_t lo, hi;
	int status;
	pid_t pid;

	if (sigaction(SIGUSR1, &sa, NULL))
		return 2;
	alarm(300);
	do {
		pid = fork();
		if (pid < 0)
			return 2;
		if (pid == 0) {
			__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
			_exit(0);
		}
		if (waitpid(pid, &status, 0) != pid)
			return 2;
		if (WIFSIGNALED(status))
			killed++;
		n++;
	} while (!stop);
	printf("%ld children, %ld killed by a signal\n", n, killed);
	return killed ? 1 : 0;
}
