/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libflightrec: the userspace view of the one syscall table
 * (uapi/flightrec_syscall_table.h).  Nothing here lists syscalls: the arrays
 * behind these functions are expanded from the table's rows.
 */
#ifndef FLIGHTREC_SYSCALLS_H
#define FLIGHTREC_SYSCALLS_H

#include <stdint.h>
#include <stddef.h>
#include "flightrec_syscalls.h"

struct fr_syscall {
	const char *name;
	const char *argtypes;		/* one letter per argument */
	unsigned short nr;
	unsigned char nargs;
	unsigned int flags;		/* FR_F_* */
	struct fr_data_desc in[2];	/* kind FR_SZ_NONE when unused */
	struct fr_data_desc out[3];
};

/* A row of FLIGHTREC_REQUEST_TABLE: matches when (args[arg] & mask) == value. */
struct fr_request {
	const char *name;
	unsigned short nr;
	unsigned char arg;
	uint32_t mask;
	uint32_t value;
	unsigned int flags;		/* or-ed into the syscall's */
	struct fr_data_desc in;
	struct fr_data_desc out[2];
};

/* The row of syscall nr, or NULL where x86_64 has no such number. */
const struct fr_syscall *fr_syscall(unsigned int nr);

/* The number of the syscall called name (e.g. "newfstatat"), or -1. */
int fr_syscall_by_name(const char *name);

/* How many rows the table has (numbers with a syscall). */
unsigned int fr_syscall_count(void);

/*
 * The request row that a call of nr with these arguments matches; NULL when
 * nr has no request rows or none matches (see fr_syscall_request_known).
 */
const struct fr_request *fr_syscall_request(unsigned int nr,
					    const uint64_t args[6]);

/*
 * Whether the out-semantics of this call are known: true for a regular row,
 * for an irregular one with a matching request row or (ioctl) an _IOR/_IOW
 * encoded request, and for the irregular rows whose extra out-data is fixed
 * by code (clone, select ...).  False for a number without a row.
 */
_Bool fr_syscall_request_known(unsigned int nr, const uint64_t args[6]);

/* The request rows of nr, for listing (count in *n); NULL if none. */
const struct fr_request *fr_syscall_requests(unsigned int nr, size_t *n);

/* The name of a request value of syscall nr, or NULL. */
const char *fr_syscall_request_name(unsigned int nr, uint64_t value);

#endif /* FLIGHTREC_SYSCALLS_H */
