// SPDX-License-Identifier: GPL-2.0
/*
 * clock_stamps: COUNT clock_gettime(CLOCK_MONOTONIC) calls made as real
 * system calls (not the vDSO), with a 4 ms nanosleep after every eighth, so
 * that a recording with short intervals cuts between them and during the
 * sleeps.  Each call's timespec is in its record: record_syscalls'
 * entry_times_exact compares it with the record's entry time stamp.
 *
 *   clock_stamps [COUNT]     default 320; exit 0, or 1 when a call failed
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	struct timespec ts, nap = { 0, 4000000 };
	long i, count = argc > 1 ? atol(argv[1]) : 320;

	for (i = 0; i < count; i++) {
		if (syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts))
			return 1;
		if (i % 8 == 7 && syscall(SYS_nanosleep, &nap, NULL))
			return 1;
	}
	return 0;
}
