// SPDX-License-Identifier: GPL-2.0
/*
 * page_writes ROUNDS PAGES: writes one byte to each of PAGES pages per
 * round, after a 60 ms sleep (under a shorter interval each round is in an
 * interval of its own, so every write is the first to its page there).
 * Prints the nanoseconds per page write, the sleeps excluded.  For
 * `make bench` (writes section): the cost of a tracked first write.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/mman.h>

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	struct timespec nap = { 0, 60 * 1000 * 1000 };
	long long total = 0;
	long pages, p;
	int rounds, r;
	volatile char *m;

	if (argc != 3 || (rounds = atoi(argv[1])) <= 0 || (pages = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: page_writes ROUNDS PAGES\n");
		return 2;
	}
	m = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (m == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		long long t0;

		nanosleep(&nap, NULL);
		t0 = now_ns();
		for (p = 0; p < pages; p++)
			m[p * 4096] = (char)r;
		total += now_ns() - t0;
	}
	printf("%lld\n", total / ((long long)rounds * pages));
	return 0;
}
