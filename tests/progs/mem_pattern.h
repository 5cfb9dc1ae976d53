/* SPDX-License-Identifier: GPL-2.0 */
/* shared by tests/progs/mem_pattern.c and tests/record_memory.c */
#ifndef MEM_PATTERN_H
#define MEM_PATTERN_H

#include <stdint.h>

#define MP_PAGES	48
#define MP_ROUNDS	12
#define MP_MARK		0x7e5700	/* getpriority(PRIO_PROCESS, MP_MARK + k) */
#define MP_MARK_GEO	0x7e5800	/* the geometry round: an anonymous mmap */

static inline uint8_t mp_byte(unsigned int k, unsigned int page, unsigned int off)
{
	return (uint8_t)(k * 37 + page * 11 + off * 3 + (off >> 7));
}

#endif
