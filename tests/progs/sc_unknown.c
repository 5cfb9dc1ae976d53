// SPDX-License-Identifier: GPL-2.0
/*
 * sc_unknown: syscall instructions whose numbers are outside the syscall
 * table (issue 25, class 1), each followed by a write of what it returned.
 * The numbers are in sc_unknown.h; none of them is a syscall of the 6.1
 * or 6.12 test kernels, so each returns -ENOSYS there (an x32 number does where x32
 * is off, as in Debian's kernel): a program probing for a newer call, a
 * private number, 0x10000 and 0x10001 (the numbers of the recorder's own
 * signal and rdtsc records), -1 and -2.  Then one whose upper 32 bits are
 * set: the kernel runs the low 32 bits (getpid).  Every call must be
 * recorded, and the replay must answer each from the log.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "sc_unknown.h"

int main(void)
{
	long pid = syscall(SYS_getpid), r;
	unsigned int i;

	for (i = 0; i < SC_UNKNOWN_N; i++) {
		errno = 0;
		r = syscall(sc_unknown_nrs[i], 0, 300, 3, 4, 5, 6);
		printf("syscall(%#lx) = %ld errno %d\n", (unsigned long)sc_unknown_nrs[i], r,
		       errno);
		fflush(stdout);
	}
	r = syscall(SC_UNKNOWN_HIGH_GETPID);
	printf("syscall(%#lx) is getpid: %s\n", (unsigned long)SC_UNKNOWN_HIGH_GETPID,
	       r == pid ? "yes" : "no");
	return 0;
}
