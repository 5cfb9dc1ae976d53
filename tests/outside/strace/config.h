/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 * The few answers of strace's configure that the vendored tests read, for
 * x86_64 Linux with glibc (flightrec's, not strace's: see ../README.md).
 */
#define SIZEOF_LONG 8
#define SIZEOF_KERNEL_LONG_T 8
#define SIZEOF_OFF_T 8
#define SIZEOF_LONG_LONG 8
#define X86_64 1
#define HAVE_IF_INDEXTONAME 1
#define HAVE_FORK 1
#define HAVE_STRUCT_STAT64 1
#define HAVE_STRUCT_STATFS64 1
#define HAVE_FSTATAT 1
#define HAVE_PREADV 1
#define HAVE_PWRITEV 1
#define HAVE_UTIMENSAT 1
#define PACKAGE_NAME "strace"
