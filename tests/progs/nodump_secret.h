/* SPDX-License-Identifier: GPL-2.0 */
/* The secret of tests/progs/nodump_secret.c: 4096 bytes of xorshift64. */
#ifndef NODUMP_SECRET_H
#define NODUMP_SECRET_H
#include <stdint.h>

static inline void nodump_secret_fill(unsigned char *p)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	int i;

	for (i = 0; i < 4096; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = (unsigned char)(x >> 32);
	}
}
#endif
