/* SPDX-License-Identifier: GPL-2.0 */
/* shared by tests/progs/swap_write.c and tests/record_memory.c */
#ifndef SWAP_WRITE_H
#define SWAP_WRITE_H

#include <stdint.h>

#define SW_PAGES	16
#define SW_MARK_BASE	0x5a5700	/* getpriority(PRIO_PROCESS, MARK, base) */
#define SW_MARK_WRITE	0x5a5701
#define SW_MARK_DONE	0x5a5702

/* round 0: the bytes before the pageout; round 1: the writes after it */
static inline uint8_t sw_byte(unsigned int round, unsigned int off)
{
	return (uint8_t)(round ? 0xc3 ^ (off >> 12) : 1 + off * 7 + (off >> 12));
}

#endif
