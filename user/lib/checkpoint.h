/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checkpoint files: reading into memory, and writing.  The on-disk format is
 * user/flightrec.proto, described in docs/checkpoint-format.md.
 */
#ifndef FLIGHTREC_CHECKPOINT_H
#define FLIGHTREC_CHECKPOINT_H

#include <stdbool.h>
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
	const uint8_t *data;	/* FLRC_PAGE_SIZE bytes, or NULL when zero;
				 * NULL for every page under FLRC_LAZY_PAGES */
	uint32_t stored;	/* bytes of page data in the file (zstd frame);
				 * 0 for zero and SAME_AS pages */
	const uint8_t *zframe;	/* the zstd frame of these bytes in the file
				 * (a SAME_AS page: its original's), or NULL */
	uint32_t zframe_len;
	uint64_t hash;		/* flrc_hash() of the bytes, computed when the
				 * file was read (0 for a zero page); under
				 * FLRC_CHECK_ON_LOAD the file's Page.hash */
	int unchecked;		/* FLRC_CHECK_ON_LOAD: not decompressed yet;
				 * flrc_page_load() checks it */
	int has_hash;		/* the file gave Page.hash (hash is that) */
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
	Flightrec__End *end;		/* always there: a file without one is incomplete */
	/*
	 * The image this one's exec replaced (a file of several images: each
	 * but the last ends with an End of kind FLIGHTREC_END_EXEC and the
	 * next image's Header follows), or NULL.  Freed with this one.
	 */
	struct flrc *before_exec;
	size_t file_size;		/* the bytes read (a pipe's too) */
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

/*
 * FLRC_LAZY_PAGES: every page is checked (decompressed once, its size and
 * hash verified) but its bytes are not kept: page.data is NULL and
 * flrc_page_load() decompresses it again on demand from the file, which the
 * flrc keeps (flrc_read_mem_flags: the caller's buf must outlive it).  The
 * memory a file takes is then linear in its size with a small constant
 * whatever its pages expand to (docs/security.md, "Resource bounds").
 * Identical pages share one copy in either mode.
 */
#define FLRC_LAZY_PAGES		0x1u
/*
 * FLRC_MAP_FILE (with FLRC_LAZY_PAGES): a regular file is mapped read-only
 * instead of read into fresh memory, which saves a copy and, where the
 * kernel zeroes every new page (init_on_alloc), a zeroing of each page of
 * the file.  A file truncated while it is mapped would be a SIGBUS: the
 * reader installs a SIGBUS handler that, for a fault in such a mapping,
 * says so on stderr and exits with FR_EXIT_BADFILE (other faults keep the
 * handler that was there before).  For commands that read one checkpoint
 * and end; anything else falls back to read().
 */
#define FLRC_MAP_FILE		0x2u
/*
 * FLRC_CHECK_ON_LOAD (with FLRC_LAZY_PAGES): a page's frame is checked when
 * the file is read (one zstd frame that says it holds one page) but only
 * decompressed, and its hash verified, by flrc_page_load(), which then
 * fails with -EBADMSG and flrc_page_error() says why.  For a reader that
 * loads only some pages, each once (replay): a page it never loads is
 * never decompressed.
 */
#define FLRC_CHECK_ON_LOAD	0x4u
int flrc_read_flags(const char *path, unsigned int flags, struct flrc **out,
		    char *err, size_t errlen);
int flrc_read_mem_flags(const uint8_t *buf, size_t len, unsigned int flags,
			struct flrc **out, char *err, size_t errlen);
/* The page's FLRC_PAGE_SIZE bytes into out: 0, or -EBADMSG (-ENOMEM). */
int flrc_page_load(const struct flrc *c, const struct flrc_page *p, uint8_t *out);
/* Why flrc_page_load() refused p, in err (after an -EBADMSG). */
void flrc_page_error(const struct flrc *c, const struct flrc_page *p, uint8_t *out,
		     char *err, size_t errlen);

/*
 * The reader's memory limit: what its decoded entries and kept page bytes
 * may take is at most FLRC_MEM_PER_BYTE times the file size plus
 * FLRC_MEM_BASE (a file that would take more is refused as damaged or
 * crafted: -EBADMSG), and never more than FLRC_MEM_CEILING, or the value of
 * FLIGHTREC_MEM_LIMIT (bytes, k/M/G suffixes) in the environment, whatever
 * the file's size (-EFBIG).  The limits are on the reader's own
 * allocations: with FLRC_LAZY_PAGES, info and log stay under 64 MiB plus 8
 * times the file size in all (tests/bounds.c).
 */
#define FLRC_MEM_PER_BYTE	6
#define FLRC_MEM_BASE		(16u << 20)
#define FLRC_MEM_CEILING	(4ull << 30)

/* write(2) of all len bytes, EINTR retried: 0 or -errno */
int flrc_write_all(int fd, const void *buf, size_t len);

/* The first interval index in the file, and the number of intervals. */
uint32_t flrc_first_interval(const struct flrc *c);
uint32_t flrc_nr_intervals(const struct flrc *c);

/*
 * The state at the start of interval `from` (an interval number, as in
 * IntervalInfo.index and Page.interval):
 * the page of `addr` as it was then, or NULL if the interval range [from, end)
 * never touched it.  Looks up the entry with the smallest interval >= from.
 */
const struct flrc_page *flrc_page_at(const struct flrc *c, uint32_t from,
				     uint64_t addr);

/*
 * The processes that the checkpoint's process created in its intervals:
 * the pids (as the recording saw them) that its successful fork, vfork,
 * clone and clone3 calls returned, less those of its own threads.  Writes
 * up to max of them to out and returns how many there are.
 */
size_t flrc_children(const struct flrc *c, uint32_t *out, size_t max);

/* The interval `index` of the header, or NULL. */
const Flightrec__IntervalInfo *flrc_interval(const struct flrc *c,
					     uint32_t index);

/* Limits the reader enforces (docs/checkpoint-format.md, "Limits"). */
#define FLRC_MAX_ENTRY		(64u << 20)	/* one entry */
#define FLRC_MAX_OUT_ARG	5		/* OutBuf.arg: 0..5 or 255 */
#define FLRC_MAX_CPUID_SITES	65536u		/* ProcessInfo.cpuid_sites */
#define FLRC_USER_TOP		(1ull << 47)	/* x86-64 user addresses lie below */

/* XXH64 with seed 0: the content hash of pages (Page.hash, Page.same_as). */
uint64_t flrc_hash(const void *buf, size_t len);

/* The name of XSAVE state component `index` ("AVX", "PKRU"...), or NULL. */
const char *flrc_xsave_component_name(unsigned int index);

/* Entry kinds in the order a file holds them (FLRC_RANK_*). */
enum flrc_rank {
	FLRC_RANK_HEADER,
	FLRC_RANK_MAP,
	FLRC_RANK_THREAD,
	FLRC_RANK_SIGACTION,
	FLRC_RANK_PAGE,
	FLRC_RANK_SYSCALL,
	FLRC_RANK_END,
	FLRC_NR_RANKS,
};
int flrc_entry_rank(const Flightrec__Entry *e);	/* -1: unknown kind */

/*
 * An entry as it lies in a file: u32 length (little-endian) + packed Entry.
 * flrc_framed_size() is the size of that; flrc_frame() writes it into `out`.
 */
size_t flrc_framed_size(const Flightrec__Entry *e);
size_t flrc_frame(const Flightrec__Entry *e, uint8_t *out);

/*
 * Writing a file.  The data goes to DIR/.NAME.tmp (created O_EXCL, mode 0600
 * whatever the umask); flrc_writer_finish() fsyncs it and renames it to
 * DIR/NAME without replacing an existing file: if NAME exists, the file gets
 * NAME with ".1", ".2"... before its extension.  Entries must come in rank
 * order: the header first, the end last.  Functions return 0 or -errno; the
 * message is in flrc_writer_error().  After an error only abort is useful.
 */
struct flrc_writer;
int flrc_writer_begin(struct flrc_writer **wp, const char *dir,
		      const char *name, char *err, size_t errlen);
int flrc_writer_add(struct flrc_writer *w, const Flightrec__Entry *e);
/* Already framed entries of rank `rank` (copied from a spool file). */
int flrc_writer_add_framed(struct flrc_writer *w, int rank,
			   const void *buf, size_t len);
int flrc_writer_copy_fd(struct flrc_writer *w, int rank, int fd,
			uint64_t len);
uint64_t flrc_writer_offset(const struct flrc_writer *w);
/* On success the final path is in path (if non-NULL); frees w either way. */
int flrc_writer_finish(struct flrc_writer *w, char *path, size_t pathlen,
		       char *err, size_t errlen);
/* Removes the temporary file and frees w. */
void flrc_writer_abort(struct flrc_writer *w);
const char *flrc_writer_error(const struct flrc_writer *w);

#endif /* FLIGHTREC_CHECKPOINT_H */
