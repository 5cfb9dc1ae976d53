// SPDX-License-Identifier: GPL-2.0
/*
 * Moves itself to each CPU it may run on, twice over, with
 * sched_setaffinity(), and prints what sched_getcpu() says after each move.
 * glibc (2.35 and later) registers rseq in every thread and sched_getcpu()
 * reads the rseq area's cpu_id, which the kernel writes on the way back to
 * user space, no syscall: replay prints the same only if it writes the
 * recorded CPU there at the same points (issue 25, class 11).  Prints
 * whether rseq is registered, and "mismatch" where sched_getcpu() is not
 * the one CPU allowed (it must be right after the move).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <sys/rseq.h>

int main(void)
{
	cpu_set_t all, one;
	int round, cpu, n = 0;

	printf("rseq registered: %s\n", __rseq_size > 0 ? "yes" : "no");
	if (sched_getaffinity(0, sizeof(all), &all)) {
		perror("sched_getaffinity");
		return 1;
	}
	for (round = 0; round < 2; round++) {
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
			int got;

			if (!CPU_ISSET(cpu, &all))
				continue;
			CPU_ZERO(&one);
			CPU_SET(cpu, &one);
			if (sched_setaffinity(0, sizeof(one), &one)) {
				perror("sched_setaffinity");
				return 1;
			}
			got = sched_getcpu();
			printf("on cpu %d: sched_getcpu %d%s\n", cpu, got,
			       got == cpu ? "" : " mismatch");
			n++;
		}
	}
	if (sched_setaffinity(0, sizeof(all), &all)) {
		perror("sched_setaffinity");
		return 1;
	}
	printf("%d moves\n", n);
	return 0;
}
