// SPDX-License-Identifier: GPL-2.0
/*
 * Reads a file, prints a hash of it, then dereferences a NULL pointer.
 * The replay tests record it after the marker syscall and expect the same
 * output and the same fault.  Usage: crash_null FILE
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "ptsnap_marker.h"

struct record {
	const char *name;
	long value;
};

static uint64_t fnv(const unsigned char *p, size_t n, uint64_t h)
{
	while (n--) {
		h ^= *p++;
		h *= 0x100000001b3ull;
	}
	return h;
}

static __attribute__((noinline)) long lookup(struct record *r)
{
	return r->value;	/* r is NULL: the crash */
}

int main(int argc, char **argv)
{
	unsigned char buf[4096] = { 0 };	/* no stale byte for a watchpoint */
	uint64_t h = 0xcbf29ce484222325ull;
	struct record *table[4] = { NULL };
	ssize_t n;
	long total = 0;
	int fd, i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	ptsnap_marker();
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		h = fnv(buf, (size_t)n, h);
		total += n;
	}
	close(fd);
	printf("%s: %ld bytes, hash %016llx\n", argv[1], total, (unsigned long long)h);
	fflush(stdout);
	for (i = 0; i < 3; i++) {
		table[i] = malloc(sizeof(struct record));
		table[i]->name = "entry";
		table[i]->value = (long)(h >> (8 * i)) & 0xff;
	}
	for (i = 0; i < 4; i++)
		total += lookup(table[i]);	/* table[3] is NULL */
	printf("total %ld\n", total);
	return 0;
}
