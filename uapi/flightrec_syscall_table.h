/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/* The rows of the syscall table; see flightrec_syscalls.h for the format. */
/* X(nr, name, nargs, flags, argtypes, in1, in2, out1, out2, out3) */
#define FLIGHTREC_SYSCALL_TABLE(X) \
X(0, read, 3, FR_F_BLOCKING, "dpl", FR_D0, FR_D0, FR_D(1, FR_SZ_RET, 0, 0), FR_D0, FR_D0) \
X(1, write, 3, FR_F_OUTPUT | FR_F_BLOCKING, "dpl", FR_D(1, FR_SZ_ARG, 2, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(2, open, 3, 0, "som", FR_D(0, FR_SZ_STR, 0, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(3, close, 1, 0, "d", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(4, stat, 2, 0, "sp", FR_D(0, FR_SZ_STR, 0, 0), FR_D0, FR_D(1, FR_SZ_FIXED, 144, 0), FR_D0, FR_D0) \
X(5, fstat, 2, 0, "dp", FR_D0, FR_D0, FR_D(1, FR_SZ_FIXED, 144, 0), FR_D0, FR_D0) \
X(9, mmap, 6, FR_F_ADDRSPACE, "plxxdu", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(10, mprotect, 3, FR_F_ADDRSPACE, "plx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(11, munmap, 2, FR_F_ADDRSPACE, "pl", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(12, brk, 1, FR_F_ADDRSPACE, "p", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(60, exit, 1, FR_F_PROCESS | FR_F_NORETURN, "i", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(231, exit_group, 1, FR_F_PROCESS | FR_F_NORETURN, "i", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(257, openat, 4, 0, "Dsom", FR_D(1, FR_SZ_STR, 0, 0), FR_D0, FR_D0, FR_D0, FR_D0)

