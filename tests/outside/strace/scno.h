/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 * strace generates scno.h from its syscall tables; glibc's list of __NR_
 * names is enough for the vendored tests (flightrec's, not strace's).
 */
#include <sys/syscall.h>
