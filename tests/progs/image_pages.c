// SPDX-License-Identifier: GPL-2.0
/*
 * image_pages: memory that the replay loader maps from the replay image
 * instead of copying it (issue 28, item 6: runs of 8 pages and more), and
 * the address-space calls that tell such a mapping from anonymous memory.
 * Before the ptsnap marker it fills A (64 pages, read-write) and B (32
 * pages, then read-only) with bytes that differ in every page; after it:
 *
 *  1. prints a hash of each 8-page block of A and B: every byte as recorded;
 *  2. writes into two pages of A (a private copy of the mapped page);
 *  3. madvise(MADV_DONTNEED) on pages 8-15 of A: anonymous memory reads
 *     zeros after it (a file mapping would give the image's bytes again);
 *  4. makes B writable and writes to it;
 *  5. mremap grows A to 128 pages (it may move): its first 64 pages keep
 *     their bytes, the new ones are zeros (a file mapping grown in place
 *     would show more of the image, or fault);
 *  6. madvise(MADV_DONTNEED) on all of the grown A: zeros everywhere.
 *
 * It prints each result; a replay that gets any byte wrong prints other
 * lines (and its write's data hash diverges).  Exits 0, or 1 when a call
 * failed (said on stderr).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "ptsnap_marker.h"

#define PG	4096UL
#define A_PAGES	64
#define B_PAGES	32

static uint64_t hash(const unsigned char *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static void fill(unsigned char *p, size_t len, uint64_t x)
{
	uint64_t *q = (uint64_t *)p;

	for (size_t i = 0; i < len / 8; i++) {	/* xorshift64 */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		q[i] = x;
	}
}

static void blocks(const char *what, const unsigned char *p, size_t pages)
{
	printf("%s:", what);
	for (size_t i = 0; i < pages; i += 8)
		printf(" %016llx", (unsigned long long)hash(p + i * PG, 8 * PG));
	printf("\n");
}

static int zeros(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i])
			return 0;
	return 1;
}

static void *must(void *p, const char *what)
{
	if (p == MAP_FAILED) {
		perror(what);
		exit(1);
	}
	return p;
}

int main(void)
{
	unsigned char *a, *b;

	a = must(mmap(NULL, A_PAGES * PG, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), "mmap A");
	b = must(mmap(NULL, B_PAGES * PG, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), "mmap B");
	/* 4 KiB pages: the page set is per page */
	madvise(a, A_PAGES * PG, MADV_NOHUGEPAGE);
	madvise(b, B_PAGES * PG, MADV_NOHUGEPAGE);
	fill(a, A_PAGES * PG, 0x9e3779b97f4a7c15ull);
	fill(b, B_PAGES * PG, 0xd1b54a32d192ed03ull);
	if (mprotect(b, B_PAGES * PG, PROT_READ)) {
		perror("mprotect B");
		return 1;
	}

	ptsnap_marker();

	blocks("A", a, A_PAGES);
	blocks("B", b, B_PAGES);

	a[3 * PG + 17] ^= 0x5a;
	a[40 * PG] = 1;
	blocks("A written", a, A_PAGES);

	if (madvise(a + 8 * PG, 8 * PG, MADV_DONTNEED)) {
		perror("madvise");
		return 1;
	}
	printf("A after DONTNEED of pages 8-15: zeros %d, pages 7 and 16 %016llx %016llx\n",
	       zeros(a + 8 * PG, 8 * PG), (unsigned long long)hash(a + 7 * PG, PG),
	       (unsigned long long)hash(a + 16 * PG, PG));

	if (mprotect(b, B_PAGES * PG, PROT_READ | PROT_WRITE)) {
		perror("mprotect B rw");
		return 1;
	}
	b[5 * PG + 1] ^= 0xff;
	blocks("B written", b, B_PAGES);

	a = must(mremap(a, A_PAGES * PG, 2 * A_PAGES * PG, MREMAP_MAYMOVE), "mremap");
	blocks("A grown, old part", a, A_PAGES);
	printf("A grown, new part zeros %d\n", zeros(a + A_PAGES * PG, A_PAGES * PG));
	a[100 * PG] = 7;

	if (madvise(a, 2 * A_PAGES * PG, MADV_DONTNEED)) {
		perror("madvise all");
		return 1;
	}
	printf("A after DONTNEED of all: zeros %d\n", zeros(a, 2 * A_PAGES * PG));
	fflush(stdout);
	return 0;
}
