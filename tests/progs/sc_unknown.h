/* SPDX-License-Identifier: GPL-2.0 */
/* The numbers tests/progs/sc_unknown calls, in order (tests/record_syscalls.c). */
#ifndef SC_UNKNOWN_H
#define SC_UNKNOWN_H

static const long sc_unknown_nrs[] = {
	0x17b9,		/* a private number (issue 25) */
	400,		/* a hole of the x86_64 table (336..423; 335 is
			 * uretprobe from 6.11, which kills its caller
			 * with SIGILL when not called from a trampoline) */
	500,		/* past the last call of 6.1 and 6.12 alike: a
			 * probe for a call newer than both */
	511,		/* the last number below the x32 ones */
	0x10000,	/* FLIGHTREC_NR_SIGNAL */
	0x10001,	/* FLIGHTREC_NR_RDTSC */
	0x10002,	/* FLIGHTREC_NR_PREEMPT */
	0x10003,	/* FLIGHTREC_NR_PTRACE */
	0x40000000 | 39,	/* x32 getpid: ENOSYS with x32 off */
	-1,
	-2,
};

#define SC_UNKNOWN_N	(sizeof(sc_unknown_nrs) / sizeof(sc_unknown_nrs[0]))

/* the kernel runs the low 32 bits of rax: getpid */
#define SC_UNKNOWN_HIGH_GETPID	(0x100000000L | 39)

#endif
