// SPDX-License-Identifier: GPL-2.0
/*
 * nodump_secret: a secret in a MADV_DONTDUMP page, read again and again
 * while recorded, then a NULL dereference (tests/record_security.c).  The
 * secret is computed at run time (nodump_secret.h), so that no copy of it
 * lies in the program's file), then copied through a pipe by read() into a
 * second MADV_DONTDUMP page (the read's out-buffer) near the end.  Prints the secret
 * page's address first.
 * With the argument "secretmem" the pages are a memfd_secret(2) mapping
 * instead (VM_DONTDUMP by the kernel, not by madvise): exit 6 when this
 * kernel has none (booted without secretmem.enable=1).
 *
 *   nodump_secret [madvise|secretmem] [ROUNDS]
 *
 * ROUNDS (default 40) of 10 ms; the copy is made 8 rounds before the end.
 * The test scales them with its timeouts: the recorded window (the last
 * intervals) must start after the pages were filled and marked.
 */
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "nodump_secret.h"

#ifndef SYS_memfd_secret
#define SYS_memfd_secret 447
#endif

int main(int argc, char **argv)
{
	struct timespec ts = { 0, 10000000 };
	unsigned char *m, *secret, *copy;
	unsigned long sum;
	int i, j, p[2], rounds = argc > 2 ? atoi(argv[2]) : 40;

	/*
	 * A hint away from the mappings ld.so made and removed (its
	 * ld.so.cache): a dump withholds every page at an address that is
	 * VM_DONTDUMP in any of its intervals, earlier lives included, so a
	 * window from exec would lose the cache's pages if they shared it.
	 */
	m = mmap((void *)0x100000000000UL, 4 * 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 2;
	secret = m + 4096;
	copy = m + 8192;
	if (argc > 1 && !strcmp(argv[1], "secretmem")) {
		int fd = (int)syscall(SYS_memfd_secret, 0);

		if (fd < 0)
			return 6;
		/* over the two middle pages: the same layout as with madvise */
		if (ftruncate(fd, 2 * 4096) ||
		    mmap(secret, 2 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
			 0) != secret)
			return 3;
		close(fd);
	} else if (madvise(secret, 2 * 4096, MADV_DONTDUMP)) {
		return 3;
	}
	nodump_secret_fill(secret);
	memset(m, 1, 4096);
	memset(m + 3 * 4096, 2, 4096);
	if (pipe(p))
		return 4;
	printf("%p\n", (void *)secret);
	fflush(stdout);
	if (rounds < 8)
		return 2;
	for (i = 0; i < rounds; i++) {
		/* late, so that the last intervals (the dump) hold it */
		if (i == rounds - 8 && (write(p[1], secret, 4096) != 4096 ||
				read(p[0], copy, 4096) != 4096))
			return 5;
		for (sum = 0, j = 0; j < 4096; j++)
			sum += secret[j] + copy[j] + m[j] + m[3 * 4096 + j];
		printf("%lu\n", sum);
		fflush(stdout);
		nanosleep(&ts, NULL);
	}
	/* sum < 2^40: a NULL store the compiler cannot see as one */
	*(volatile int *)(uintptr_t)(sum >> 40) = 1;
	return 0;
}
