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

#endif
