/* SPDX-License-Identifier: GPL-2.0 */
/* shared by tests/progs/sc_known.c and tests/record_syscalls.c */
#ifndef SC_KNOWN_H
#define SC_KNOWN_H

#include <stdarg.h>

/* getpriority(PRIO_PROCESS, who) markers: no library asks for these pids */
#define SC_MARK_START	0x7e57a
#define SC_MARK_END	0x7e57b
/* the argument index of an out-buffer found through another (uapi) */
#define FR_TEST_DERIVED	255

/* sc_lengths: the lengths it reads and writes, and where and what */
#define SC_LENGTHS	1, 7, 8, 9, 15, 16, 17, 24, 63, 64, 65, 71, 72, 73, 79, 80, \
			81, 88, 95, 96, 97, 104, 255, 511, 512, 513, 520, 1000, \
			1016, 1023, 1024, 1025, 2047
#define SC_LENGTHS_MAX		2048
#define SC_LENGTHS_BYTE(i)	((unsigned char)((i) * 131 + 7))
#define SC_LENGTHS_OFF(len)	(1 + 2 * ((len) % 4))	/* odd: never word-aligned */

#endif
