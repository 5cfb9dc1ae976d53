// SPDX-License-Identifier: GPL-2.0
/*
 * remap_life: one address, two lives (issue 25, class 8).  Writes two files
 * of two pages, a.bin and b.bin (other bytes each), in the current
 * directory, then:
 *
 *  1. maps a.bin, reads it, unmaps it and maps b.bin at the same address
 *     (MAP_FIXED) at once: both lives in one interval;
 *  2. maps a.bin, reads it, unmaps it, sleeps 350 ms (several boundaries at
 *     --interval-ms 100) and maps b.bin with that address as a hint (the
 *     kernel gives it, it is free): the second life in a later interval.
 *
 * Each read prints the mapped bytes themselves (the first 24 of each page)
 * and a sum of all of them: a replay that gives the second life the first
 * one's bytes writes other bytes, and the hash of what write passes in
 * tells it.  Exits 0, or 1 when something failed (said on stderr).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>

#define LEN	(2 * 4096)

static int make(const char *name, unsigned int mul, char base)
{
	char buf[LEN];
	int fd;

	for (unsigned int i = 0; i < LEN; i++)
		buf[i] = (char)(base + (i * mul) % 26);
	fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, buf, LEN) != LEN) {
		perror(name);
		exit(1);
	}
	return fd;
}

static void show(const char *what, const unsigned char *p)
{
	unsigned long sum = 0;

	for (unsigned int i = 0; i < LEN; i++)
		sum = sum * 31 + p[i];
	printf("%s: %.24s %.24s %016lx\n", what, (const char *)p, (const char *)p + 4096, sum);
	fflush(stdout);
}

static void *map(void *at, int fd, int fixed)
{
	void *p = mmap(at, LEN, PROT_READ, MAP_PRIVATE | (fixed ? MAP_FIXED : 0), fd, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return p;
}

int main(void)
{
	struct timespec ts = { 0, 350 * 1000 * 1000 };
	int a = make("a.bin", 7, 'a'), b = make("b.bin", 11, 'A');
	void *p, *q;

	/* 1: two lives in one interval */
	p = map(NULL, a, 0);
	show("same interval, first life", p);
	munmap(p, LEN);
	q = map(p, b, 1);
	show("same interval, second life", q);
	munmap(q, LEN);

	/* 2: the second life in a later interval */
	p = map(NULL, a, 0);
	show("later interval, first life", p);
	munmap(p, LEN);
	nanosleep(&ts, NULL);
	q = map(p, b, 0);
	if (q != p)
		fprintf(stderr, "remap_life: the hint %p was not taken (%p)\n", p, q);
	show("later interval, second life", q);
	printf("same address: %s\n", q == p ? "yes" : "no");
	munmap(q, LEN);
	close(a);
	close(b);
	return q == p ? 0 : 1;
}
