/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The snapshot marker of tests/tools/ptsnap.c: a getpid system call with a
 * magic first argument (getpid ignores it).  Under the real recorder it is
 * just a getpid.
 */
#ifndef PTSNAP_MARKER_H
#define PTSNAP_MARKER_H

#include <unistd.h>
#include <sys/syscall.h>

#define PTSNAP_MARKER	0x464c5243ul

static inline void ptsnap_marker(void)
{
	syscall(SYS_getpid, PTSNAP_MARKER);
}

#endif /* PTSNAP_MARKER_H */
