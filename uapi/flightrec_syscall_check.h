/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * flightrec: compile-time checks of the syscall table against the system's
 * <asm/unistd_64.h>.  Include it in exactly one file per side (the module's
 * kernel/syscall.c, userspace's user/lib/syscalls.c); it defines nothing, it
 * only asserts:
 *
 *   - every row's number is __NR_<name> (the names are those of
 *     syscall_64.tbl: newfstatat, umount2, _sysctl, tuxcall ...);
 *   - argtypes has one letter per argument and nargs is at most 6;
 *   - every number fits the table (FR_NR_SYSCALLS);
 *   - the request sub-table names existing syscall numbers.
 *
 * That a row exists for every __NR_* of the running system is proved at run
 * time by tests/syscall_table.c, which reads the header text.
 */
#ifndef _UAPI_LINUX_FLIGHTREC_SYSCALL_CHECK_H
#define _UAPI_LINUX_FLIGHTREC_SYSCALL_CHECK_H

#include <asm/unistd.h>
#include "flightrec_syscalls.h"

#if !defined(__x86_64__) || defined(__ILP32__)
#error "flightrec's syscall table is the x86_64 one"
#endif

#define FR_CHECK_ROW(nr, name, nargs, flags, types, i1, i2, o1, o2, o3)	\
	_Static_assert(__NR_##name == (nr), "syscall number of " #name);	\
	_Static_assert((nr) < FR_NR_SYSCALLS, "table too small for " #name); \
	_Static_assert((nargs) <= 6, "nargs of " #name);			\
	_Static_assert(sizeof(types) == (nargs) + 1, "argtypes of " #name);

#define FR_CHECK_REQ(nr, sys, arg, mask, value, rname, flags, i1, o1, o2) \
	_Static_assert(__NR_##sys == (nr), "request " #rname " of " #sys); \
	_Static_assert((arg) < 6, "request argument of " #rname);	  \
	_Static_assert(((value) & ~(mask)) == 0, "request mask of " #rname);

FLIGHTREC_SYSCALL_TABLE(FR_CHECK_ROW)
FLIGHTREC_REQUEST_TABLE(FR_CHECK_REQ)

#undef FR_CHECK_ROW
#undef FR_CHECK_REQ

#endif /* _UAPI_LINUX_FLIGHTREC_SYSCALL_CHECK_H */
