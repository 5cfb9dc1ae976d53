// SPDX-License-Identifier: GPL-2.0
/*
 * exec_vdso - time calls through the vDSO after an exec that keeps the
 * vDSO's address.  "exec_vdso" turns address randomization off and execs
 * "exec_vdso 1"; that waits 300 ms (recorded, its vDSO is patched) and
 * execs "exec_vdso 2", whose vDSO is at the same address; that calls
 * clock_gettime(CLOCK_MONOTONIC_COARSE) 50 times (answered in the vDSO
 * even where the clock source makes other clocks fall back to the syscall,
 * as under qemu's emulation) and prints how many calls it made.  A recorder
 * that takes the new vDSO for the one it patched records none of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/personality.h>

int main(int argc, char **argv)
{
	struct timespec ts;
	int stage = argc > 1 ? atoi(argv[1]) : 0, i;

	if (stage == 0) {
		if (personality(PER_LINUX | ADDR_NO_RANDOMIZE) < 0)
			return 2;
		execl("/proc/self/exe", argv[0], "1", (char *)NULL);
		return 3;
	}
	if (stage == 1) {
		usleep(300000);
		execl("/proc/self/exe", argv[0], "2", (char *)NULL);
		return 3;
	}
	for (i = 0; i < 50; i++)
		clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	printf("%d clock_gettime calls\n", i);
	return 0;
}
