/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checkpoint files: reading into memory, and writing.  The on-disk format is
 * user/flightrec.proto, described in docs/checkpoint-format.md.
 */
#ifndef FLIGHTREC_CHECKPOINT_H
#define FLIGHTREC_CHECKPOINT_H

#include <stdint.h>
#include <stddef.h>
#include "flightrec.pb-c.h"

#define FLRC_MAGIC		0x43524c46u	/* "FLRC" little-endian */
#define FLRC_FORMAT_VERSION	1
#define FLRC_PAGE_SIZE		4096

/* One page of the consolidated initial page set, decompressed. */
struct flrc_page {
	uint64_t addr;
	uint32_t interval;	/* the interval start whose state these bytes are */
	uint32_t flags;		/* FLIGHTREC_PAGE_* as recorded */
	int zero;		/* the page is all zeros (data may be NULL) */
	const uint8_t *data;	/* FLRC_PAGE_SIZE bytes, or NULL when zero */
};

/* A whole checkpoint in memory.  Arrays are in file order. */
struct flrc {
	Flightrec__Header *hdr;
	size_t n_maps;
	Flightrec__Map **maps;
	size_t n_threads;
	Flightrec__Thread **threads;
	size_t n_sigactions;
	Flightrec__SigAction **sigactions;
	size_t n_pages;
	struct flrc_page *pages;	/* sorted by (interval, addr) */
	size_t n_syscalls;
	Flightrec__Syscall **syscalls;	/* sorted by seq */
	Flightrec__End *end;		/* NULL if the file has none */
	void *priv;			/* reader-owned storage */
};

/*
 * Reads and validates a checkpoint.  Returns 0, or -errno with a precise
 * message in err ("offset 1234: entry length 4294967295 exceeds file size").
 * A damaged or hostile file never crashes the reader nor makes it allocate
 * more than a bounded multiple of the file size.
 */
int flrc_read(const char *path, struct flrc **out, char *err, size_t errlen);
int flrc_read_mem(const uint8_t *buf, size_t len, struct flrc **out,
		  char *err, size_t errlen);
void flrc_free(struct flrc *c);

/* The first interval index in the file, and the number of intervals. */
uint32_t flrc_first_interval(const struct flrc *c);
uint32_t flrc_nr_intervals(const struct flrc *c);

/*
 * The state at the start of interval `from` (an index from hdr->intervals):
 * the page of `addr` as it was then, or NULL if the interval range [from, end)
 * never touched it.  Looks up the entry with the smallest interval >= from.
 */
const struct flrc_page *flrc_page_at(const struct flrc *c, uint32_t from,
				     uint64_t addr);

#endif /* FLIGHTREC_CHECKPOINT_H */
