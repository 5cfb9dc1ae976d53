/* SPDX-License-Identifier: GPL-2.0 */
/* shared by tests/progs/mem_read.c and tests/record_memory.c */
#ifndef MEM_READ_H
#define MEM_READ_H

#include <stdint.h>

/* more pages than one page-table page maps, and many XArray nodes' worth */
#define MR_ADDR		(0x5a5a00000000UL - 17 * 4096UL)	/* not 2 MiB aligned */
#define MR_PAGES	700
#define MR_ROUNDS	10
#define MR_MARK		0x7e5900	/* getpriority(PRIO_PROCESS, MR_MARK + 2k, +1) */
#define MR_LIVES	4		/* "lives": pages discarded and read again */
#define MR_GUP_STRIDE	50		/* "gup": one page in this many written */
#define MR_CGROUP	"/sys/fs/cgroup/fr-test-reclaim"	/* "reclaim" */
#define MR_RECLAIM	"64M"		/* "reclaim": asked of MR_CGROUP each even round */

static inline uint8_t mr_byte(unsigned int page, unsigned int off)
{
	return (uint8_t)(page * 13 + off * 7 + 1);
}

#endif
