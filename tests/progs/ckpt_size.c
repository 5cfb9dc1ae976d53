// SPDX-License-Identifier: GPL-2.0
/*
 * ckpt_size: makes MB megabytes of incompressible bytes resident, then
 * reads every page of them over and over (a 20 ms sleep after each sweep) for
 * MS milliseconds and exits.  Recorded with --at-exit, each interval's page
 * set holds all of them, so the checkpoint is about MB megabytes whatever
 * zstd does: scripts/bench-vm.sh times the replay's start on 1 and 25 MB.
 *
 *   ckpt_size MB MS
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	uint64_t x = 0x9e3779b97f4a7c15ull, *q;
	volatile uint8_t *p;
	long long end;
	size_t size, i;

	if (argc != 3)
		return 2;
	size = (size_t)atoi(argv[1]) << 20;
	end = now_ms() + atol(argv[2]);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (!size || p == MAP_FAILED)
		return 3;
	/* 4 KiB pages: the module tracks page-table entries (as mem_big) */
	madvise((void *)p, size, MADV_NOHUGEPAGE);
	q = (uint64_t *)p;
	for (i = 0; i < size / 8; i++) {	/* xorshift64 */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		q[i] = x;
	}
	while (now_ms() < end) {
		uint8_t sum = 0;

		for (i = 0; i < size; i += 4096)
			sum += p[i];
		if (getppid() == (pid_t)sum)	/* keeps the sum */
			x++;
		usleep(20000);	/* few syscalls: the file is the pages */
	}
	return 0;
}
