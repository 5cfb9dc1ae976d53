// SPDX-License-Identifier: GPL-2.0
/*
 * swap_write: fills SW_PAGES anonymous pages with a pattern, waits past a
 * boundary, pushes them out to swap (MADV_PAGEOUT), checks in
 * /proc/self/pagemap that they went, marks with a syscall, then writes
 * each page again: the write faults on a swapped-out page.
 * tests/record_memory.c checks what the module kept as those pages'
 * bytes at the start of the interval of the writes: the first pattern.
 *
 *   swap_write SLEEP_MS
 * Exit status 0; 8 when the pages did not go to swap (no swap).  Runs on
 * one CPU (see main).
 */
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include "swap_write.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

static int swapped(const uint8_t *p, int fd)
{
	int n = 0;
	unsigned int i;
	uint64_t e;

	for (i = 0; i < SW_PAGES; i++) {
		off_t off = (off_t)((uintptr_t)(p + i * 4096UL) / 4096) * 8;

		if (pread(fd, &e, sizeof(e), off) != sizeof(e))
			return -1;
		n += !!(e & (1ULL << 62));	/* PM_SWAP */
	}
	return n;
}

int main(int argc, char **argv)
{
	struct timespec ts;
	unsigned int i, tries;
	uint8_t *p;
	int fd, n = 0;

	if (argc != 2)
		return 2;
	ts.tv_sec = atoi(argv[1]) / 1000;
	ts.tv_nsec = (atoi(argv[1]) % 1000) * 1000000L;
	/*
	 * On one CPU: a page just faulted in waits in that CPU's batch before
	 * it joins the LRU, and MADV_PAGEOUT drains the batch of its own CPU
	 * only (a page left in another's is not paged out).
	 */
	cpu_set_t one;
	int cpu = sched_getcpu();

	CPU_ZERO(&one);
	CPU_SET(cpu < 0 ? 0 : cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return 9;
	p = mmap(NULL, SW_PAGES * 4096UL, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fd = open("/proc/self/pagemap", O_RDONLY);
	if (p == MAP_FAILED || fd < 0)
		return 3;
	for (i = 0; i < SW_PAGES * 4096U; i++)
		p[i] = sw_byte(0, i);
	syscall(SYS_getpriority, PRIO_PROCESS, SW_MARK_BASE, (long)p);
	nanosleep(&ts, NULL);
	for (tries = 0; tries < 20; tries++) {
		if (madvise(p, SW_PAGES * 4096UL, MADV_PAGEOUT))
			return 4;
		n = swapped(p, fd);
		if (n == SW_PAGES)
			break;
		nanosleep(&ts, NULL);
	}
	if (n != SW_PAGES)
		return 8;
	/* a boundary between the pageout and the writes: they start an interval */
	nanosleep(&ts, NULL);
	syscall(SYS_getpriority, PRIO_PROCESS, SW_MARK_WRITE);
	for (i = 0; i < SW_PAGES * 4096U; i += 4096)
		memset(p + i, sw_byte(1, i), 4096);
	syscall(SYS_getpriority, PRIO_PROCESS, SW_MARK_DONE);
	nanosleep(&ts, NULL);
	return 0;
}
