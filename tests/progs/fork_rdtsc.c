// SPDX-License-Identifier: GPL-2.0
/*
 * fork_rdtsc MS - forks for MS milliseconds; each child reads the TSC and
 * exits 0.  Prints how many children were killed by a signal and exits 1 if
 * any was: a child that inherited a TIF_NOTSC no recorder owns dies of
 * SIGSEGV at its rdtsc (issue 24.2).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 1000, n = 0, killed = 0;
	struct timespec t0, t;
	uint32_t lo, hi;
	int status;
	pid_t pid;

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
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	printf("%ld children, %ld killed by a signal\n", n, killed);
	return killed ? 1 : 0;
}
