// SPDX-License-Identifier: GPL-2.0
/*
 * Reads the time stamp counter with rdtsc and rdtscp and prints the values,
 * so that replay's output matches the recording only if it gives back the
 * recorded values.  Also prints TSC_AUX as rdtscp returned it.
 * "rdtsc_values loop MS" executes rdtsc for MS milliseconds and exits 0 (a
 * process unregistered meanwhile must keep its rdtsc working).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static int loop(long ms)
{
	struct timespec t0, t;
	uint64_t n = 0, last = 0, v;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		v = tsc();
		if (v < last)
			return 1;
		last = v;
		n++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	printf("%llu reads\n", (unsigned long long)n);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t v[8], sum = 0;
	uint32_t aux = 0;
	int i;

	if (argc > 2 && !strcmp(argv[1], "loop"))
		return loop(atol(argv[2]));

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
