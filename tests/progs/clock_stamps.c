// SPDX-License-Identifier: GPL-2.0
/*
 * clock_stamps: clock_gettime(CLOCK_MONOTONIC) calls made as real system
 * calls (not the vDSO), with a 4 ms nanosleep after every eighth, for MS
 * milliseconds of that clock, so that a recording with short intervals
 * cuts between them and during the sleeps (a slow kernel's cuts come later
 * than the interval asks: the run lasts a time, not a count).  Each call's
 * timespec is in its record: record_syscalls' entry_times_exact compares
 * it with the record's entry time stamp.
 *
 *   clock_stamps [MS]     default 600; exit 0, or 1 when a call failed
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	struct timespec ts, nap = { 0, 4000000 };
	long long ms = argc > 1 ? atoll(argv[1]) : 600, start = -1, now;
	long i;

	for (i = 0;; i++) {
		if (syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts))
			return 1;
		now = ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
		if (start < 0)
			start = now;
		if (now - start >= ms)
			return 0;
		if (i % 8 == 7 && syscall(SYS_nanosleep, &nap, NULL))
			return 1;
	}
}
