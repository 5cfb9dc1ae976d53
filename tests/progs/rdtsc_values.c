// SPDX-License-Identifier: GPL-2.0
/*
 * Reads the time stamp counter with rdtsc and rdtscp and prints the values,
 * so that replay's output matches the recording only if it gives back the
 * recorded values.  Also prints TSC_AUX as rdtscp returned it.
 */
#include <stdint.h>
#include <stdio.h>

static inline uint64_t tsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static inline uint64_t tscp(uint32_t *aux)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(*aux));
	return (uint64_t)hi << 32 | lo;
}

int main(void)
{
	uint64_t v[8], sum = 0;
	uint32_t aux = 0;
	int i;

	for (i = 0; i < 4; i++)
		v[i] = tsc();
	for (i = 4; i < 8; i++)
		v[i] = tscp(&aux);
	for (i = 0; i < 8; i++) {
		printf("tsc %d: %llu\n", i, (unsigned long long)v[i]);
		if (i)
			sum += v[i] - v[i - 1];
	}
	printf("aux %u, increasing %s, sum of steps %llu\n", aux,
	       v[7] >= v[0] ? "yes" : "no", (unsigned long long)sum);
	return 0;
}
