// SPDX-License-Identifier: GPL-2.0
/*
 * many_vmas: maps N pages and makes every other one PROT_NONE (N/2 + N/2
 * VMAs that cannot merge), then for SECONDS seconds writes to its readable
 * pages in turn and calls getpid(), crossing many interval boundaries
 * (each walks and copies the whole map), and exits 0.
 *
 *   many_vmas N SECONDS
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	long n, i, pg = sysconf(_SC_PAGESIZE);
	struct timespec a, b;
	int secs;
	char *p;

	if (argc != 3)
		return 2;
	n = atol(argv[1]);
	secs = atoi(argv[2]);
	p = mmap(NULL, n * pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 3;
	for (i = 1; i < n; i += 2)
		if (mprotect(p + i * pg, pg, PROT_NONE))
			return 4;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0;; i = (i + 2) % n) {
		p[i * pg] = (char)i;
		syscall(SYS_getpid);
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (b.tv_sec - a.tv_sec >= secs)
			break;
	}
	return 0;
}
