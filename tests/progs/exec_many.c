// SPDX-License-Identifier: GPL-2.0
/*
 * exec_many - a process that execs itself ten times, then crashes: stage N
 * writes "stage N", execs /proc/self/exe N+1; stage 10 stores through a
 * null pointer.  Each image runs for one short interval: a recording that
 * keeps K intervals keeps the last K images (issue 25, class 4; the
 * module's trimming over several parked images).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int stage = argc > 1 ? atoi(argv[1]) : 0;
	char line[32], next[16];

	snprintf(line, sizeof(line), "stage %d\n", stage);
	if (write(1, line, strlen(line)) < 0)
		return 4;
	if (stage == 10)
		*(volatile int *)(unsigned long)(argc - 2) = 1;	/* argc is 2 */
	snprintf(next, sizeof(next), "%d", stage + 1);
	execl("/proc/self/exe", argv[0], next, (char *)NULL);
	return 3;
}
