// SPDX-License-Identifier: GPL-2.0
/*
 * mem_pattern: writes known patterns over a buffer, round after round, each
 * round followed by a marker syscall and a sleep long enough for an interval
 * boundary.  Odd rounds write from user space, even rounds through pread()
 * (the kernel writes the pages).  tests/record_memory.c checks that every
 * page the module kept has the bytes the buffer held at its interval's start.
 * With "mprotect", each round first takes write permission from the buffer
 * and gives it back: mprotect makes the write-protected PTEs of its dirty
 * pages writable at once, without the write fault the module copies a page
 * in (mm/mprotect.c, can_change_pte_writable).
 *
 *   mem_pattern SLEEP_MS [mprotect]
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include "mem_pattern.h"

static uint8_t buf[MP_PAGES * 4096] __attribute__((aligned(4096)));

static void fill(unsigned int k, uint8_t *p)
{
	unsigned int pg, off;

	for (pg = 0; pg < MP_PAGES; pg++)
		for (off = 0; off < 4096; off++)
			p[pg * 4096 + off] = mp_byte(k, pg, off);
}

int main(int argc, char **argv)
{
	struct timespec ts;
	unsigned int k;
	uint8_t *tmp, *anon;
	int fd;

	int reprotect = argc == 3 && !strcmp(argv[2], "mprotect");

	if (argc != 2 && !reprotect)
		return 2;
	ts.tv_sec = atoi(argv[1]) / 1000;
	ts.tv_nsec = (atoi(argv[1]) % 1000) * 1000000L;
	/* even rounds come from this memfd */
	fd = memfd_create("patterns", 0);
	tmp = malloc(sizeof(buf));
	if (fd < 0 || !tmp)
		return 3;
	for (k = 0; k <= MP_ROUNDS; k += 2) {
		fill(k, tmp);
		if (pwrite(fd, tmp, sizeof(buf), (off_t)k * sizeof(buf)) != sizeof(buf))
			return 4;
	}
	for (k = 0; k <= MP_ROUNDS; k++) {
		if (reprotect &&
		    (mprotect(buf, sizeof(buf), PROT_READ) ||
		     mprotect(buf, sizeof(buf), PROT_READ | PROT_WRITE)))
			return 7;
		if (k & 1)
			fill(k, buf);
		else if (pread(fd, buf, sizeof(buf), (off_t)k * sizeof(buf)) != sizeof(buf))
			return 5;
		syscall(SYS_getpriority, PRIO_PROCESS, MP_MARK + k);
		if (k == MP_ROUNDS / 2) {
			/* geometry inside an interval: new memory, written, gone */
			anon = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (anon == MAP_FAILED)
				return 6;
			syscall(SYS_getpriority, PRIO_PROCESS, MP_MARK_GEO);
			memset(anon, 0x5a, 4 * 4096);
			munmap(anon, 4 * 4096);
		}
		nanosleep(&ts, NULL);
	}
	return 0;
}
