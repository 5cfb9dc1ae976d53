// SPDX-License-Identifier: GPL-2.0
/*
 * fork_rdtsc [MS] - forks for MS milliseconds, or with MS 0 until SIGUSR1;
 * each child reads the TSC and exits 0.  Prints how many children were
 * killed by a signal and exits 1 if any was: a child that inherited a
 * TIF_NOTSC no recorder owns dies of SIGSEGV at its rdtsc (issue 24.2).
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static volatile sig_atomic_t stop;

static void on_usr1(int sig)
{
	(void)sig;
	stop = 1;
}

static int done(long ms, const struct timespec *t0)
{
	struct timespec t;

	if (!ms)
		return stop;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000 >= ms;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	long ms = argc > 1 ? atol(argv[1]) : 1000, n = 0, killed = 0;
	struct timespec t0;
	uint32_t lo, hi;
	int status;
	pid_t pid;

	if (sigaction(SIGUSR1, &sa, NULL))
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &t0);
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
	} while (!done(ms, &t0));
	printf("%ld children, %ld killed by a signal\n", n, killed);
	return killed ? 1 : 0;
}
