// SPDX-License-Identifier: GPL-2.0
/*
 * bench_loop: N iterations of getpid() and a 1-byte read() of /dev/zero;
 * prints the nanoseconds per iteration.  scripts/bench-vm.sh runs it with
 * and without the module loaded; scripts/bench-insn.sh counts the
 * instructions of its loop alone, between the insnprof markers.
 *
 * With "clock": N calls of clock_gettime(CLOCK_MONOTONIC) through libc, the
 * vDSO's (bench-vm.sh's section `clock`), after half a second of the same
 * calls: a recorded program's vDSO is patched at its first boundary
 * (kernel/vdso.c), and only the calls after it are to be measured.
 *
 *   bench_loop N [clock]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "../../scripts/insnprof/mark.h"

int main(int argc, char **argv)
{
	struct timespec a, b;
	long n, i;
	char c;
	int fd;

	if (argc != 2 && !(argc == 3 && !strcmp(argv[2], "clock")))
		return 2;
	n = atol(argv[1]);
	if (argc == 3) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		do
			clock_gettime(CLOCK_MONOTONIC, &b);
		while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) <
		       500000000L);
		clock_gettime(CLOCK_MONOTONIC, &a);
		FR_INSN_MARK_START();
		for (i = 0; i < n; i++)
			clock_gettime(CLOCK_MONOTONIC, &b);
		FR_INSN_MARK_STOP();
		printf("%.1f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
		return 0;
	}
	fd = open("/dev/zero", O_RDONLY);
	if (fd < 0)
		return 3;
	clock_gettime(CLOCK_MONOTONIC, &a);
	FR_INSN_MARK_START();
	for (i = 0; i < n; i++) {
		syscall(SYS_getpid);
		if (read(fd, &c, 1) != 1)
			return 4;
	}
	FR_INSN_MARK_STOP();
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.1f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
	return 0;
}
