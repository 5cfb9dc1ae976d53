// SPDX-License-Identifier: GPL-2.0
/*
 * thp_pattern: makes a transparent huge page before it is registered, then
 * writes a pattern over it round after round (tests/record_memory.c,
 * thp_made_before_registration).
 *
 * It maps 4 MiB, takes the 2 MiB-aligned half, asks for a huge page
 * (MADV_HUGEPAGE) and writes it, then prints "ADDR KB" (the region's
 * address and its AnonHugePages in /proc/self/smaps) and waits for a line
 * on stdin (the test registers it meanwhile).  Then ROUNDS rounds: every
 * byte of page p in round r is (r * 37 + p) & 0xff, then a marker syscall
 * getpriority(PRIO_PROCESS, 0x7e00 + r) and a sleep of SLEEP_MS.
 *
 *   thp_pattern ROUNDS SLEEP_MS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#define THP_SIZE	(2UL << 20)
#define MARK		0x7e00

static void fill(uint8_t *p, unsigned int r)
{
	unsigned long pg;

	for (pg = 0; pg < THP_SIZE / 4096; pg++)
		memset(p + pg * 4096, (r * 37 + pg) & 0xff, 4096);
}

/* AnonHugePages (kB) of the mapping that contains addr */
static long anon_huge_kb(unsigned long addr)
{
	char line[256];
	unsigned long lo, hi;
	int in = 0;
	long kb = -1;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = addr >= lo && addr < hi;
		else if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	unsigned int rounds, r;
	struct timespec ts;
	uint8_t *map, *p;
	char go[16];

	if (argc != 3)
		return 2;
	rounds = atoi(argv[1]);
	ts.tv_sec = atoi(argv[2]) / 1000;
	ts.tv_nsec = (atoi(argv[2]) % 1000) * 1000000L;
	map = mmap(NULL, 2 * THP_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return 3;
	p = (uint8_t *)(((uintptr_t)map + THP_SIZE - 1) & ~(THP_SIZE - 1));
	madvise(p, THP_SIZE, MADV_HUGEPAGE);
	fill(p, 0);
	printf("%lx %ld\n", (unsigned long)p, anon_huge_kb((unsigned long)p));
	fflush(stdout);
	if (!fgets(go, sizeof(go), stdin))
		return 4;
	for (r = 1; r <= rounds; r++) {
		fill(p, r);
		syscall(SYS_getpriority, PRIO_PROCESS, MARK + r);
		nanosleep(&ts, NULL);
	}
	return 0;
}
