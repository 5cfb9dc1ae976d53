// SPDX-License-Identifier: GPL-2.0
/*
 * Checkpoint files: the reader, which validates everything it is given, and
 * the writer, which makes a file appear whole or not at all.
 * The format is user/flightrec.proto; docs/checkpoint-format.md explains it.
 *
 * The reader trusts nothing: every length is checked against what is left
 * and against a cap, protobuf-c allocates from a budget proportional to the
 * file size, zstd frames must say they hold exactly one page before they are
 * decompressed, and cross references (intervals, SAME_AS hashes) must resolve.
 * Every error names the byte offset of the entry it is about.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "checkpoint.h"
#include "libflightrec.h"	/* FR_EXIT_BADFILE */
#include "syscalls.h"
#include "fr_htab.h"
#include "flightrec.h"		/* uapi: FLIGHTREC_OUT_ARG_* */

/* ------------------------------------------------------------------ */
/* XXH64, seed 0 (https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md) */

#define XXH_P1 0x9E3779B185EBCA87ull
#define XXH_P2 0xC2B2AE3D27D4EB4Full
#define XXH_P3 0x165667B19E3779F9ull
#define XXH_P4 0x85EBCA77C2B2AE63ull
#define XXH_P5 0x27D4EB2F165667C5ull

static inline uint64_t rotl64(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

static inline uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static inline uint64_t xxh_round(uint64_t acc, uint64_t in)
{
	acc += in * XXH_P2;
	acc = rotl64(acc, 31);
	return acc * XXH_P1;
}

static inline uint64_t xxh_merge(uint64_t acc, uint64_t val)
{
	acc ^= xxh_round(0, val);
	return acc * XXH_P1 + XXH_P4;
}

uint64_t flrc_hash(const void *buf, size_t len)
{
	const uint8_t *p = buf, *end = p + len;
	uint64_t h;

	if (len >= 32) {
		uint64_t v1 = XXH_P1 + XXH_P2, v2 = XXH_P2, v3 = 0, v4 = -XXH_P1;

		do {
			v1 = xxh_round(v1, rd64(p));
			v2 = xxh_round(v2, rd64(p + 8));
			v3 = xxh_round(v3, rd64(p + 16));
			v4 = xxh_round(v4, rd64(p + 24));
			p += 32;
		} while (end - p >= 32);
		h = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) +
		    rotl64(v4, 18);
		h = xxh_merge(h, v1);
		h = xxh_merge(h, v2);
		h = xxh_merge(h, v3);
		h = xxh_merge(h, v4);
	} else {
		h = XXH_P5;
	}
	h += len;
	for (; end - p >= 8; p += 8) {
		h ^= xxh_round(0, rd64(p));
		h = rotl64(h, 27) * XXH_P1 + XXH_P4;
	}
	if (end - p >= 4) {
		h ^= (uint64_t)rd32(p) * XXH_P1;
		h = rotl64(h, 23) * XXH_P2 + XXH_P3;
		p += 4;
	}
	for (; p < end; p++) {
		h ^= *p * XXH_P5;
		h = rotl64(h, 11) * XXH_P1;
	}
	h ^= h >> 33;
	h *= XXH_P2;
	h ^= h >> 29;
	h *= XXH_P3;
	h ^= h >> 32;
	return h;
}

/* ------------------------------------------------------------------ */
/* Small shared helpers */

static const char *const xsave_names[] = {
	[0] = "x87",		[1] = "SSE",		[2] = "AVX",
	[3] = "MPX bndregs",	[4] = "MPX bndcsr",	[5] = "AVX-512 opmask",
	[6] = "AVX-512 ZMM_Hi256", [7] = "AVX-512 Hi16_ZMM", [8] = "PT",
	[9] = "PKRU",		[10] = "PASID",		[11] = "CET user",
	[12] = "CET supervisor", [13] = "HDC",		[14] = "UINTR",
	[15] = "LBR",		[16] = "HWP",		[17] = "AMX TILECFG",
	[18] = "AMX TILEDATA",	[19] = "APX",
};

const char *flrc_xsave_component_name(unsigned int index)
{
	if (index >= sizeof(xsave_names) / sizeof(xsave_names[0]))
		return NULL;
	return xsave_names[index];
}

int flrc_entry_rank(const Flightrec__Entry *e)
{
	switch (e->e_case) {
	case FLIGHTREC__ENTRY__E_HEADER:	return FLRC_RANK_HEADER;
	case FLIGHTREC__ENTRY__E_MAP:		return FLRC_RANK_MAP;
	case FLIGHTREC__ENTRY__E_THREAD:	return FLRC_RANK_THREAD;
	case FLIGHTREC__ENTRY__E_SIGACTION:	return FLRC_RANK_SIGACTION;
	case FLIGHTREC__ENTRY__E_PAGE:		return FLRC_RANK_PAGE;
	case FLIGHTREC__ENTRY__E_SYSCALL:	return FLRC_RANK_SYSCALL;
	case FLIGHTREC__ENTRY__E_END:		return FLRC_RANK_END;
	default:				return -1;
	}
}

static const char *const rank_names[FLRC_NR_RANKS] = {
	"header", "map", "thread", "sigaction", "page", "syscall", "end",
};

size_t flrc_framed_size(const Flightrec__Entry *e)
{
	return 4 + flightrec__entry__get_packed_size(e);
}

size_t flrc_frame(const Flightrec__Entry *e, uint8_t *out)
{
	size_t n = flightrec__entry__pack(e, out + 4);
	uint32_t le = htole32((uint32_t)n);

	memcpy(out, &le, 4);
	return n + 4;
}

/* ------------------------------------------------------------------ */
/* Reader */

#define PB_HDR		16	/* keeps the size; malloc alignment preserved */
#define PAGES_PER_CHUNK	64

/* protobuf-c allocations come from a budget: a hostile file cannot make the
 * reader allocate more than a fixed multiple of its size. */
struct budget {
	size_t used, cap;
	bool exhausted;
};

/* what an allocation of size bytes costs: ours, and malloc's own header */
#define PB_COST(size)	((size) + PB_HDR + 16)

static void *pb_alloc(void *data, size_t size)
{
	struct budget *b = data;
	uint8_t *p;

	if (size > SIZE_MAX - 64 || PB_COST(size) > b->cap - b->used) {
		b->exhausted = true;
		return NULL;
	}
	p = malloc(size + PB_HDR);
	if (!p)
		return NULL;
	memcpy(p, &size, sizeof(size));
	b->used += PB_COST(size);
	return p + PB_HDR;
}

static void pb_free(void *data, void *ptr)
{
	struct budget *b = data;
	uint8_t *p = ptr;
	size_t size;

	if (!p)
		return;
	p -= PB_HDR;
	memcpy(&size, p, sizeof(size));
	b->used -= PB_COST(size);
	free(p);
}

/*
 * A page entry is unpacked, looked at and dropped before the next one:
 * its allocations (the entry, the page, its zdata copy) come from a
 * scratch arena that the next page entry reuses, so that a page costs no
 * malloc, free or free_unpacked() walk (with the sorts below, most of a
 * checkpoint read's instructions; issue 28, item 6).  What does not fit
 * spills to the budget's allocator and is freed the usual way.  The arena
 * is charged to the budget once, when it is made.
 */
#define SCRATCH_SIZE	(16u << 10)	/* a page entry: at most 4 KiB of zdata and a few structs */

struct scratch {
	struct budget *budget;
	uint8_t *p;
	size_t used;
	bool spilled;			/* something of this entry is malloc'd */
};

static void *scratch_alloc(void *data, size_t size)
{
	struct scratch *s = data;
	size_t need = (size + 15) & ~(size_t)15;

	if (s->p && size <= SCRATCH_SIZE && need <= SCRATCH_SIZE - s->used) {
		void *q = s->p + s->used;

		s->used += need;
		return q;
	}
	s->spilled = true;
	return pb_alloc(s->budget, size);
}

static void scratch_free(void *data, void *ptr)
{
	struct scratch *s = data;
	uint8_t *q = ptr;

	if (s->p && q >= s->p && q < s->p + SCRATCH_SIZE)
		return;		/* reused by the next entry */
	pb_free(s->budget, ptr);
}

struct flrc_priv {
	struct budget budget;
	ProtobufCAllocator alloc;
	Flightrec__Entry **keep;	/* unpacked entries the flrc points into */
	size_t n_keep, cap_keep;
	uint8_t **chunks;		/* page bytes, PAGES_PER_CHUNK a chunk */
	size_t n_chunks, cap_chunks, chunk_used;
	size_t cap_maps, cap_threads, cap_sigactions, cap_pages, cap_syscalls;
	uint32_t *by_addr;		/* page indices sorted by (addr, interval) */
	unsigned int flags;		/* FLRC_LAZY_PAGES... */
	uint8_t *file;			/* the file, kept for lazy pages (owned) */
	void *map;			/* or its mapping (FLRC_MAP_FILE) */
	size_t map_len;
	ZSTD_DCtx *dctx;		/* flrc_page_load's */
};

/* File offsets of the entries of one kind, for messages after the scan. */
struct offs {
	size_t *v;
	size_t n, cap;
};

struct reader {
	const uint8_t *buf;
	size_t len;
	char *err;
	size_t errlen;
	struct flrc *c;
	struct flrc_priv *p;
	ZSTD_DCtx *dctx;
	size_t page_bytes, page_bytes_cap;
	size_t ceiling;			/* mem_ceiling() */
	struct offs off_maps, off_threads, off_sas, off_pages;
	struct scratch scratch_arena;	/* page entries' allocations */
	ProtobufCAllocator page_alloc;	/* from it */
	struct fr_htab by_hash;		/* content hash -> first PAGE_DATA page */
	struct fr_htab by_content;	/* hash of kept bytes -> first page with them */
	uint8_t scratch[FLRC_PAGE_SIZE];	/* a lazy page, for its checks */
	uint64_t last_seq;
	uint32_t last_seq_iv;	/* the interval of the record with last_seq */
	size_t n_unknown;
	size_t start;		/* the offset of this image's header */
	size_t next;		/* the next image's header, or 0 */
	uint32_t version;	/* the file's format version */
};

static int rfail(struct reader *r, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int rfail(struct reader *r, size_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!r->err || !r->errlen)
		return -EBADMSG;
	n = snprintf(r->err, r->errlen, "offset %zu: ", off);
	if (n < 0 || (size_t)n >= r->errlen)
		return -EBADMSG;
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->errlen - n, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	size_t ncap;
	void *na;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	na = realloc(*arr, ncap * elem);
	if (!na)
		return -ENOMEM;
	*arr = na;
	*cap = ncap;
	return 0;
}

#define PUSH(arr, n, cap, item) ({					\
	int __e = grow((void **)&(arr), &(cap), (n), sizeof(*(arr)));	\
	if (!__e)							\
		(arr)[(n)++] = (item);					\
	__e;								\
})

static int push_off(struct offs *o, size_t off)
{
	return PUSH(o->v, o->n, o->cap, off);
}

/* The position of interval `index` in the header, or -1. */
static long interval_pos(const Flightrec__Header *h, uint32_t index)
{
	size_t lo = 0, hi = h->n_intervals;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h->intervals[mid]->index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < h->n_intervals && h->intervals[lo]->index == index)
		return (long)lo;
	return -1;
}

static int check_interval(struct reader *r, size_t off, const char *what,
			  uint32_t interval)
{
	if (interval_pos(r->c->hdr, interval) < 0)
		return rfail(r, off, "%s refers to interval %u, which the header does not list",
			     what, interval);
	return 0;
}

static bool page_aligned(uint64_t v)
{
	return !(v & (FLRC_PAGE_SIZE - 1));
}

static int check_header(struct reader *r, size_t off, uint32_t version)
{
	const Flightrec__Header *h = r->c->hdr;
	const Flightrec__SystemInfo *s = h->system;
	const Flightrec__ProcessInfo *pi = h->process;
	size_t i;

	if (h->format_version != version)
		return rfail(r, off, "header says format version %u but the file starts with %u",
			     h->format_version, version);
	if (!h->n_intervals)
		return rfail(r, off, "header lists no interval");
	for (i = 1; i < h->n_intervals; i++)
		if (h->intervals[i]->index <= h->intervals[i - 1]->index)
			return rfail(r, off, "header: interval %u listed after interval %u (must increase)",
				     h->intervals[i]->index,
				     h->intervals[i - 1]->index);
	if (s->has_page_size && s->page_size != FLRC_PAGE_SIZE)
		return rfail(r, off, "header: page size %u, only %u is supported",
			     s->page_size, FLRC_PAGE_SIZE);
	if (pi->n_auxv % 2)
		return rfail(r, off, "header: auxv has an odd number (%zu) of words",
			     pi->n_auxv);
	if (pi->pid == 0)
		return rfail(r, off, "header: process id 0");
	if (pi->n_cpuid_sites > FLRC_MAX_CPUID_SITES)
		return rfail(r, off, "header: %zu cpuid sites, at most %u are accepted",
			     pi->n_cpuid_sites, FLRC_MAX_CPUID_SITES);
	for (i = 0; i < pi->n_cpuid_sites; i++)
		if ((i && pi->cpuid_sites[i] <= pi->cpuid_sites[i - 1]) ||
		    pi->cpuid_sites[i] >= FLRC_USER_TOP - 1)
			return rfail(r, off, "header: cpuid site %zu (%#llx) is not a user address "
				     "above the previous one", i,
				     (unsigned long long)pi->cpuid_sites[i]);
	return 0;
}

static int check_map(struct reader *r, size_t off, const Flightrec__Map *m)
{
	int err = check_interval(r, off, "map", m->interval);

	if (err)
		return err;
	if (m->start >= m->end || !page_aligned(m->start) ||
	    !page_aligned(m->end))
		return rfail(r, off, "map %#llx-%#llx: not a page-aligned non-empty range",
			     (unsigned long long)m->start,
			     (unsigned long long)m->end);
	return 0;
}

static int check_xsave(struct reader *r, size_t off, const char *what,
		       const Flightrec__Xsave *x)
{
	uint64_t seen = 0;
	size_t i;

	if (!x)
		return 0;
	if (x->n_st > 8)
		return rfail(r, off, "%s: %zu x87 registers (at most 8)", what, x->n_st);
	if (x->n_xmm > 16)
		return rfail(r, off, "%s: %zu xmm registers (at most 16)", what, x->n_xmm);
	for (i = 0; i < x->n_st; i++)
		if (x->st[i].len != 16)
			return rfail(r, off, "%s: st%zu is %zu bytes, not 16", what, i,
				     x->st[i].len);
	for (i = 0; i < x->n_xmm; i++)
		if (x->xmm[i].len != 16)
			return rfail(r, off, "%s: xmm%zu is %zu bytes, not 16", what, i,
				     x->xmm[i].len);
	for (i = 0; i < x->n_components; i++) {
		const Flightrec__XsaveComponent *xc = x->components[i];

		if (xc->index < 2 || xc->index > 63)
			return rfail(r, off, "%s: XSAVE component %u (must be 2..63)",
				     what, xc->index);
		if (seen & (1ull << xc->index))
			return rfail(r, off, "%s: XSAVE component %u twice", what,
				     xc->index);
		seen |= 1ull << xc->index;
		if (xc->data.len == 0 || xc->data.len > 65536)
			return rfail(r, off, "%s: XSAVE component %u is %zu bytes",
				     what, xc->index, xc->data.len);
	}
	return 0;
}

static int check_thread(struct reader *r, size_t off, const Flightrec__Thread *t)
{
	char what[48];
	int err = check_interval(r, off, "thread", t->interval);

	if (err)
		return err;
	if (t->tid == 0)
		return rfail(r, off, "thread id 0");
	snprintf(what, sizeof(what), "thread %u", t->tid);
	if (!t->regs)
		return rfail(r, off, "%s has no registers", what);
	return check_xsave(r, off, what, t->xsave);
}

static int check_sigaction(struct reader *r, size_t off,
			   const Flightrec__SigAction *sa)
{
	int err = check_interval(r, off, "sigaction", sa->interval);

	if (err)
		return err;
	if (sa->signo < 1 || sa->signo > 64)
		return rfail(r, off, "sigaction for signal %u (must be 1..64)", sa->signo);
	return 0;
}

static int check_syscall(struct reader *r, size_t off, const Flightrec__Syscall *s)
{
	size_t i;
	int err = check_interval(r, off, "syscall", s->interval);

	if (err)
		return err;
	if (s->n_args > 6)
		return rfail(r, off, "syscall seq %llu has %zu arguments (at most 6)",
			     (unsigned long long)s->seq, s->n_args);
	/*
	 * Within an interval numbers increase.  A call numbered at entry
	 * that ended in a later interval comes first in that one, with a
	 * number below the previous interval's: replay sorts by number.
	 */
	if (r->c->n_syscalls && s->interval == r->last_seq_iv && s->seq <= r->last_seq)
		return rfail(r, off, "syscall seq %llu after seq %llu in interval %u (must increase)",
			     (unsigned long long)s->seq,
			     (unsigned long long)r->last_seq, s->interval);
	for (i = 0; i < s->n_out; i++) {
		uint32_t a = s->out[i]->arg;

		/* 0..5, derived (255), or a string read (FLIGHTREC_OUT_ARG_IN + 0..5) */
		if (a > FLRC_MAX_OUT_ARG && a != FLIGHTREC_OUT_ARG_DERIVED &&
		    !(FLIGHTREC_OUT_IS_IN(a) && (a & 7) <= FLRC_MAX_OUT_ARG))
			return rfail(r, off, "syscall seq %llu: out-buffer of argument %u",
				     (unsigned long long)s->seq, a);
	}
	r->last_seq = s->seq;
	r->last_seq_iv = s->interval;
	return 0;
}

static int check_end(struct reader *r, size_t off, const Flightrec__End *e)
{
	if (e->has_signo && e->signo > 64)
		return rfail(r, off, "end: signal %u", e->signo);
	return check_xsave(r, off, "end", e->xsave);
}

static uint8_t *page_slot(struct flrc_priv *p)
{
	if (!p->n_chunks || p->chunk_used == PAGES_PER_CHUNK) {
		uint8_t *chunk;

		if (grow((void **)&p->chunks, &p->cap_chunks, p->n_chunks,
			 sizeof(*p->chunks)))
			return NULL;
		chunk = malloc((size_t)PAGES_PER_CHUNK * FLRC_PAGE_SIZE);
		if (!chunk)
			return NULL;
		p->chunks[p->n_chunks++] = chunk;
		p->chunk_used = 0;
	}
	return p->chunks[p->n_chunks - 1] + FLRC_PAGE_SIZE * p->chunk_used++;
}

/*
 * The first place in the entry (e, n bytes) that holds the frame's bytes,
 * as memmem() finds it.  The writer puts zdata right after the page's
 * addr, interval and kind (Page fields 1-3, at most 1 + 3 + 11 + 6 + 6
 * bytes of tags, varints and zdata's own tag and length): those first
 * bytes are tried with memcmp, and memmem (linear, but slow to set up for
 * a 4 KiB needle: most of a checkpoint read's time) only searches a file
 * that another writer laid out otherwise.
 */
#define FRAME_NEAR	64
static const uint8_t *find_frame(const uint8_t *e, size_t n, const uint8_t *f, size_t len)
{
	size_t i;

	for (i = 0; len && i <= FRAME_NEAR && len <= n && i <= n - len; i++)
		if (e[i] == f[0] && !memcmp(e + i, f, len))
			return e + i;
	return memmem(e, n, f, len);
}

/*
 * The bytes of a PAGE_DATA page: one zstd frame that says it holds exactly
 * one page, decompressed and checked against its hash.  Kept in a slot of
 * the page chunks unless identical bytes are kept already (then shared), or
 * under FLRC_LAZY_PAGES decompressed into scratch and dropped.
 */
static int page_data(struct reader *r, size_t off, const Flightrec__Page *pg,
		     struct flrc_page *fp)
{
	unsigned long long addr = pg->addr, fcs;
	bool lazy = r->p->flags & FLRC_LAZY_PAGES;
	size_t n, fsz;
	uint64_t h;
	uint32_t idx;
	uint8_t *dst;

	if (!pg->has_zdata || !pg->zdata.len)
		return rfail(r, off, "page %#llx: no compressed data", addr);
	fcs = ZSTD_getFrameContentSize(pg->zdata.data, pg->zdata.len);
	if (fcs == ZSTD_CONTENTSIZE_ERROR)
		return rfail(r, off, "page %#llx: not a zstd frame", addr);
	if (fcs == ZSTD_CONTENTSIZE_UNKNOWN)
		return rfail(r, off, "page %#llx: zstd frame without a content size", addr);
	if (fcs != FLRC_PAGE_SIZE)
		return rfail(r, off, "page %#llx: zstd frame holds %llu bytes, not %u",
			     addr, fcs, FLRC_PAGE_SIZE);
	fsz = ZSTD_findFrameCompressedSize(pg->zdata.data, pg->zdata.len);
	if (ZSTD_isError(fsz) || fsz != pg->zdata.len)
		return rfail(r, off, "page %#llx: zstd data is not exactly one frame", addr);
	if (lazy && (r->p->flags & FLRC_CHECK_ON_LOAD)) {
		/* decompressed and checked by flrc_page_load() */
		fp->unchecked = 1;
		dst = NULL;
	} else if (lazy) {
		dst = r->scratch;
	} else {
		if (r->page_bytes + FLRC_PAGE_SIZE > r->page_bytes_cap) {
			rfail(r, off, "page %#llx: the pages would take more than %zu bytes of memory for a %zu-byte file%s",
			      addr, r->page_bytes_cap, r->len,
			      r->page_bytes_cap + r->p->budget.cap == r->ceiling ?
			      ", the limit (FLIGHTREC_MEM_LIMIT)" : "");
			return r->page_bytes_cap + r->p->budget.cap == r->ceiling ?
			       -EFBIG : -EBADMSG;
		}
		dst = page_slot(r->p);
		if (!dst)
			return -ENOMEM;
		r->page_bytes += FLRC_PAGE_SIZE;
	}
	if (dst) {
		n = ZSTD_decompressDCtx(r->dctx, dst, FLRC_PAGE_SIZE, pg->zdata.data,
					pg->zdata.len);
		if (ZSTD_isError(n))
			return rfail(r, off, "page %#llx: zstd: %s", addr,
				     ZSTD_getErrorName(n));
		if (n != FLRC_PAGE_SIZE)
			return rfail(r, off, "page %#llx: decompressed to %zu bytes, not %u",
				     addr, n, FLRC_PAGE_SIZE);
		h = flrc_hash(dst, FLRC_PAGE_SIZE);
		if (pg->has_hash && h != pg->hash)
			return rfail(r, off, "page %#llx: content hash mismatch (damaged data)",
				     addr);
	} else {
		h = pg->has_hash ? pg->hash : 0;
	}
	fp->has_hash = pg->has_hash;
	/*
	 * The frame as it lies in the file: protobuf-c's copy goes with the
	 * entry.  Any place in the entry that holds the same bytes will do.
	 */
	fp->zframe = find_frame(r->buf + off + 4, rd32(r->buf + off), pg->zdata.data,
				pg->zdata.len);
	if (!fp->zframe)
		return rfail(r, off, "page %#llx: its data is not in its entry", addr);
	fp->zframe_len = (uint32_t)pg->zdata.len;
	fp->stored = (uint32_t)pg->zdata.len;
	fp->hash = h;
	if (!lazy) {
		if (fr_htab_get(&r->by_content, h, &idx) &&
		    !memcmp(r->c->pages[idx].data, dst, FLRC_PAGE_SIZE)) {
			/* the same bytes again: share them, give the slot back */
			r->p->chunk_used--;
			r->page_bytes -= FLRC_PAGE_SIZE;
			dst = (uint8_t *)r->c->pages[idx].data;
		} else if (fr_htab_put(&r->by_content, h, (uint32_t)r->c->n_pages) < 0) {
			return -ENOMEM;
		}
		fp->data = dst;
	}
	if (pg->has_hash &&
	    fr_htab_put(&r->by_hash, pg->hash, (uint32_t)r->c->n_pages) < 0)
		return -ENOMEM;
	return 0;
}

static int add_page(struct reader *r, size_t off, const Flightrec__Page *pg)
{
	struct flrc *c = r->c;
	struct flrc_page fp = {
		.addr = pg->addr,
		.interval = pg->interval,
		.flags = pg->has_flags ? pg->flags : 0,
	};
	unsigned long long addr = pg->addr;
	uint32_t idx;
	int err = check_interval(r, off, "page", pg->interval);

	if (err)
		return err;
	if (!page_aligned(pg->addr))
		return rfail(r, off, "page address %#llx is not page-aligned", addr);
	if (c->n_pages >= UINT32_MAX - 1)
		return rfail(r, off, "too many pages");

	switch (pg->kind) {
	case FLIGHTREC__PAGE_KIND__PAGE_ZERO:
		if (pg->has_zdata)
			return rfail(r, off, "page %#llx: a zero page with data", addr);
		fp.zero = 1;
		break;
	case FLIGHTREC__PAGE_KIND__PAGE_SAME_AS:
		if (!pg->has_same_as)
			return rfail(r, off, "page %#llx: SAME_AS without a hash", addr);
		if (pg->has_zdata)
			return rfail(r, off, "page %#llx: a SAME_AS page with data", addr);
		if (!fr_htab_get(&r->by_hash, pg->same_as, &idx))
			return rfail(r, off, "page %#llx: SAME_AS %016llx matches no earlier page",
				     addr, (unsigned long long)pg->same_as);
		fp.data = c->pages[idx].data;
		fp.zframe = c->pages[idx].zframe;
		fp.zframe_len = c->pages[idx].zframe_len;
		fp.hash = c->pages[idx].hash;
		fp.unchecked = c->pages[idx].unchecked;
		fp.has_hash = c->pages[idx].has_hash;
		break;
	case FLIGHTREC__PAGE_KIND__PAGE_DATA:
		err = page_data(r, off, pg, &fp);
		if (err)
			return err;
		break;
	default:
		return rfail(r, off, "page %#llx: unknown kind %d", addr, (int)pg->kind);
	}
	if (PUSH(c->pages, c->n_pages, r->p->cap_pages, fp) ||
	    push_off(&r->off_pages, off))
		return -ENOMEM;
	return 0;
}

/* Takes ownership of e (kept or freed). */
static int add_entry(struct reader *r, size_t off, Flightrec__Entry *e,
		     uint32_t version)
{
	struct flrc *c = r->c;
	struct flrc_priv *p = r->p;
	int err;

	if (PUSH(p->keep, p->n_keep, p->cap_keep, e)) {
		flightrec__entry__free_unpacked(e, &p->alloc);
		return -ENOMEM;
	}
	switch (e->e_case) {
	case FLIGHTREC__ENTRY__E_HEADER:
		c->hdr = e->header;
		return check_header(r, off, version);
	case FLIGHTREC__ENTRY__E_MAP:
		err = check_map(r, off, e->map);
		if (!err && (PUSH(c->maps, c->n_maps, p->cap_maps, e->map) ||
			     push_off(&r->off_maps, off)))
			err = -ENOMEM;
		return err;
	case FLIGHTREC__ENTRY__E_THREAD:
		err = check_thread(r, off, e->thread);
		if (!err && (PUSH(c->threads, c->n_threads, p->cap_threads, e->thread) ||
			     push_off(&r->off_threads, off)))
			err = -ENOMEM;
		return err;
	case FLIGHTREC__ENTRY__E_SIGACTION:
		err = check_sigaction(r, off, e->sigaction);
		if (!err && (PUSH(c->sigactions, c->n_sigactions, p->cap_sigactions,
				  e->sigaction) ||
			     push_off(&r->off_sas, off)))
			err = -ENOMEM;
		return err;
	case FLIGHTREC__ENTRY__E_SYSCALL:
		err = check_syscall(r, off, e->syscall);
		if (!err && PUSH(c->syscalls, c->n_syscalls, p->cap_syscalls,
				 e->syscall))
			err = -ENOMEM;
		return err;
	case FLIGHTREC__ENTRY__E_END:
		c->end = e->end;
		return check_end(r, off, e->end);
	default:
		return 0;
	}
}

/*
 * Whether the entry at e (n bytes) is a page, from its first tag: the
 * writer puts the oneof's one field first.  Only a guess: a page entry
 * that is not found so is unpacked the ordinary way, and an entry guessed
 * a page that is not one is unpacked again.
 */
#define PAGE_TAG	((FLIGHTREC__ENTRY__E_PAGE << 3) | 2)	/* field 6, length-delimited */

static Flightrec__Entry *unpack_entry(struct reader *r, const uint8_t *e, size_t n)
{
	Flightrec__Entry *pe;

	if (!r->scratch_arena.p || !n || e[0] != PAGE_TAG)
		return flightrec__entry__unpack(&r->p->alloc, n, e);
	pe = flightrec__entry__unpack(&r->page_alloc, n, e);
	if (pe && pe->e_case == FLIGHTREC__ENTRY__E_PAGE)
		return pe;
	if (!pe) {		/* protobuf-c freed what it had */
		r->scratch_arena.used = 0;
		r->scratch_arena.spilled = false;
		return NULL;
	}
	flightrec__entry__free_unpacked(pe, &r->page_alloc);
	r->scratch_arena.used = 0;
	r->scratch_arena.spilled = false;
	return flightrec__entry__unpack(&r->p->alloc, n, e);
}

/* An entry that is not kept: its allocator's way */
static void free_entry(struct reader *r, Flightrec__Entry *e)
{
	struct scratch *s = &r->scratch_arena;

	if (!s->p || (uint8_t *)e < s->p || (uint8_t *)e >= s->p + SCRATCH_SIZE) {
		flightrec__entry__free_unpacked(e, &r->p->alloc);
		return;
	}
	if (s->spilled)
		flightrec__entry__free_unpacked(e, &r->page_alloc);
	s->used = 0;
	s->spilled = false;
}

static int read_entries(struct reader *r)
{
	const uint8_t *buf = r->buf;
	size_t len = r->len, off = 8, n = 0;
	uint32_t magic, version;
	int last = -1;

	if (r->start) {		/* the image after an exec: the same file */
		off = r->start;
		version = r->version;
		goto entries;
	}
	if (len < 8)
		return rfail(r, 0, "%zu bytes: too short for a checkpoint (the magic and format version take 8)",
			     len);
	magic = rd32(buf);
	if (magic != FLRC_MAGIC)
		return rfail(r, 0, "bad magic %08x: not a flightrec checkpoint", magic);
	version = rd32(buf + 4);
	if (version == 0 || version > FLRC_FORMAT_VERSION)
		return rfail(r, 4, "format version %u; this flightrec reads version %u%s",
			     version, FLRC_FORMAT_VERSION,
			     version > FLRC_FORMAT_VERSION ? " (file written by a newer flightrec?)" : "");
	if (len == off)
		return rfail(r, off, "no entries: the file ends after its format version");
	r->version = version;
entries:
	for (; off < len; n++) {
		Flightrec__Entry *e;
		uint32_t elen;
		int rank, err;

		if (len - off < 4)
			return rfail(r, off, "entry %zu: %zu bytes where a 4-byte length should be (truncated file?)",
				     n, len - off);
		elen = rd32(buf + off);
		if (elen > FLRC_MAX_ENTRY)
			return rfail(r, off, "entry %zu: length %u exceeds the %u-byte limit",
				     n, elen, FLRC_MAX_ENTRY);
		if (elen > len - off - 4)
			return rfail(r, off, "entry %zu: length %u exceeds the %zu bytes left (truncated file?)",
				     n, elen, len - off - 4);
		e = unpack_entry(r, buf + off + 4, elen);
		if (!e) {
			if (r->p->budget.exhausted && r->p->budget.cap == r->ceiling) {
				rfail(r, off, "entry %zu: decoding the file would take more than %zu bytes of memory, the limit (FLIGHTREC_MEM_LIMIT)",
				      n, r->ceiling);
				return -EFBIG;
			}
			if (r->p->budget.exhausted)
				return rfail(r, off, "entry %zu: decoding it would take more than %zu bytes of memory (%u times the file size plus %u MiB: a damaged or crafted file)",
					     n, r->p->budget.cap, FLRC_MEM_PER_BYTE,
					     FLRC_MEM_BASE >> 20);
			return rfail(r, off, "entry %zu (%u bytes): not a valid flightrec.Entry (protobuf decoding failed)",
				     n, elen);
		}
		rank = flrc_entry_rank(e);
		if (n == 0 && rank != FLRC_RANK_HEADER) {
			free_entry(r, e);
			return rfail(r, off, "the first entry is %s%s, not the header",
				     rank < 0 ? "of an unknown kind" : "a ",
				     rank < 0 ? "" : rank_names[rank]);
		}
		if (rank < 0) {
			/* A kind added by a later format: skip it. */
			r->n_unknown++;
			free_entry(r, e);
			off += 4 + (size_t)elen;
			continue;
		}
		if (rank == FLRC_RANK_HEADER && last == FLRC_RANK_END &&
		    r->c->end->kind == FLIGHTREC_END_EXEC) {
			/* the image the exec started: read next */
			free_entry(r, e);
			r->next = off;
			return 0;
		}
		if ((rank == FLRC_RANK_HEADER && n) || last == FLRC_RANK_END ||
		    rank < last) {
			free_entry(r, e);
			return rfail(r, off, "entry %zu: %s after %s (the order is header, map, thread, sigaction, page, syscall, end)",
				     n, rank_names[rank], rank_names[last]);
		}
		last = rank;
		if (e->e_case == FLIGHTREC__ENTRY__E_PAGE) {
			err = add_page(r, off, e->page);
			free_entry(r, e);	/* not kept: add_page() copied what it needs */
		} else {
			err = add_entry(r, off, e, version);	/* kept or freed */
		}
		if (err)
			return err;
		off += 4 + (size_t)elen;
	}
	return 0;
}

/* sort_ix() comparators over index arrays (qsort_r's signature) */
static int cmp_page_ia(const void *a, const void *b, void *arg)
{
	const struct flrc_page *pg = arg;
	const struct flrc_page *x = &pg[*(const uint32_t *)a];
	const struct flrc_page *y = &pg[*(const uint32_t *)b];

	if (x->interval != y->interval)
		return x->interval < y->interval ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static int cmp_page_ai(const void *a, const void *b, void *arg)
{
	const struct flrc_page *pg = arg;
	const struct flrc_page *x = &pg[*(const uint32_t *)a];
	const struct flrc_page *y = &pg[*(const uint32_t *)b];

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->interval != y->interval)
		return x->interval < y->interval ? -1 : 1;
	return 0;
}

static int cmp_map(const void *a, const void *b, void *arg)
{
	Flightrec__Map *const *m = arg;
	const Flightrec__Map *x = m[*(const uint32_t *)a];
	const Flightrec__Map *y = m[*(const uint32_t *)b];

	if (x->interval != y->interval)
		return x->interval < y->interval ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static int cmp_thread(const void *a, const void *b, void *arg)
{
	Flightrec__Thread *const *t = arg;
	const Flightrec__Thread *x = t[*(const uint32_t *)a];
	const Flightrec__Thread *y = t[*(const uint32_t *)b];

	if (x->interval != y->interval)
		return x->interval < y->interval ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static int cmp_sa(const void *a, const void *b, void *arg)
{
	Flightrec__SigAction *const *s = arg;
	const Flightrec__SigAction *x = s[*(const uint32_t *)a];
	const Flightrec__SigAction *y = s[*(const uint32_t *)b];

	if (x->interval != y->interval)
		return x->interval < y->interval ? -1 : 1;
	if (x->signo != y->signo)
		return x->signo < y->signo ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

typedef int (*ix_cmp)(const void *, const void *, void *);

static size_t run_end(const uint32_t *v, size_t from, size_t n, ix_cmp cmp, void *arg)
{
	while (++from < n && cmp(&v[from - 1], &v[from], arg) <= 0)
		;
	return from;
}

/*
 * ix[0..n) into cmp's order, stably: a natural merge sort.  The writer
 * writes pages, maps, threads and sigactions in the order their checks
 * want (by interval, then address or id), so that is one run, checked in
 * n comparisons; pages by address over k intervals are k runs, merged in
 * n log k.  qsort_r() took n log n whatever the order.
 */
static int sort_ix(uint32_t *ix, size_t n, ix_cmp cmp, void *arg)
{
	uint32_t *tmp, *src = ix, *dst, *t;
	size_t a, m, e, i, j, k, runs;

	if (run_end(ix, 0, n, cmp, arg) >= n)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	dst = tmp;
	do {
		for (runs = 0, a = 0; a < n; a = e, runs++) {
			m = run_end(src, a, n, cmp, arg);
			e = m < n ? run_end(src, m, n, cmp, arg) : n;
			for (i = a, j = m, k = a; i < m && j < e; k++)
				dst[k] = cmp(&src[j], &src[i], arg) < 0 ? src[j++] : src[i++];
			while (i < m)
				dst[k++] = src[i++];
			while (j < e)
				dst[k++] = src[j++];
		}
		t = src;
		src = dst;
		dst = t;
	} while (runs > 1);
	if (src != ix)
		memcpy(ix, src, n * sizeof(*ix));
	free(tmp);
	return 0;
}

static uint32_t *iota(size_t n)
{
	uint32_t *v = malloc((n ? n : 1) * sizeof(*v));
	size_t i;

	for (i = 0; v && i < n; i++)
		v[i] = (uint32_t)i;
	return v;
}

static int check_pages(struct reader *r)
{
	struct flrc *c = r->c;
	struct flrc_page *sorted;
	uint32_t *ix = iota(c->n_pages);
	size_t i;

	if (!ix)
		return -ENOMEM;
	if (sort_ix(ix, c->n_pages, cmp_page_ia, c->pages)) {
		free(ix);
		return -ENOMEM;
	}
	for (i = 1; i < c->n_pages; i++) {
		const struct flrc_page *x = &c->pages[ix[i - 1]];
		const struct flrc_page *y = &c->pages[ix[i]];

		if (x->interval == y->interval && x->addr == y->addr) {
			size_t off = r->off_pages.v[ix[i]];

			free(ix);
			return rfail(r, off, "page %#llx appears twice in interval %u",
				     (unsigned long long)y->addr, y->interval);
		}
	}
	sorted = malloc((c->n_pages ? c->n_pages : 1) * sizeof(*sorted));
	if (!sorted) {
		free(ix);
		return -ENOMEM;
	}
	for (i = 0; i < c->n_pages; i++)
		sorted[i] = c->pages[ix[i]];
	free(c->pages);
	c->pages = sorted;
	r->p->cap_pages = c->n_pages;
	for (i = 0; i < c->n_pages; i++)
		ix[i] = (uint32_t)i;
	r->p->by_addr = ix;	/* flrc_free() frees it */
	return sort_ix(ix, c->n_pages, cmp_page_ai, c->pages);
}

static int check_maps(struct reader *r)
{
	struct flrc *c = r->c;
	uint32_t *ix = iota(c->n_maps);
	size_t i;
	int err = 0;

	if (!ix)
		return -ENOMEM;
	if (sort_ix(ix, c->n_maps, cmp_map, c->maps)) {
		free(ix);
		return -ENOMEM;
	}
	for (i = 1; i < c->n_maps && !err; i++) {
		const Flightrec__Map *x = c->maps[ix[i - 1]], *y = c->maps[ix[i]];

		if (x->interval == y->interval && y->start < x->end)
			err = rfail(r, r->off_maps.v[ix[i]],
				    "map %#llx-%#llx overlaps map %#llx-%#llx in interval %u",
				    (unsigned long long)y->start,
				    (unsigned long long)y->end,
				    (unsigned long long)x->start,
				    (unsigned long long)x->end, y->interval);
	}
	free(ix);
	return err;
}

static int check_threads(struct reader *r)
{
	struct flrc *c = r->c;
	uint32_t *ix = iota(c->n_threads);
	size_t i;
	int err = 0;

	if (!ix)
		return -ENOMEM;
	if (sort_ix(ix, c->n_threads, cmp_thread, c->threads)) {
		free(ix);
		return -ENOMEM;
	}
	for (i = 1; i < c->n_threads && !err; i++) {
		const Flightrec__Thread *x = c->threads[ix[i - 1]];
		const Flightrec__Thread *y = c->threads[ix[i]];

		if (x->interval == y->interval && x->tid == y->tid)
			err = rfail(r, r->off_threads.v[ix[i]],
				    "thread %u appears twice in interval %u",
				    y->tid, y->interval);
	}
	free(ix);
	return err;
}

static int check_sigactions(struct reader *r)
{
	struct flrc *c = r->c;
	uint32_t *ix = iota(c->n_sigactions);
	size_t i;
	int err = 0;

	if (!ix)
		return -ENOMEM;
	if (sort_ix(ix, c->n_sigactions, cmp_sa, c->sigactions)) {
		free(ix);
		return -ENOMEM;
	}
	for (i = 1; i < c->n_sigactions && !err; i++) {
		const Flightrec__SigAction *x = c->sigactions[ix[i - 1]];
		const Flightrec__SigAction *y = c->sigactions[ix[i]];

		if (x->interval == y->interval && x->signo == y->signo)
			err = rfail(r, r->off_sas.v[ix[i]],
				    "signal %u has two sigactions in interval %u",
				    y->signo, y->interval);
	}
	free(ix);
	return err;
}

static size_t cap_mul(size_t len, size_t mul, size_t add)
{
	if (len > (SIZE_MAX - add) / mul)
		return SIZE_MAX;
	return len * mul + add;
}

/* FLIGHTREC_MEM_LIMIT, or FLRC_MEM_CEILING: the most the reader may take */
static size_t mem_ceiling(void)
{
	const char *env = getenv("FLIGHTREC_MEM_LIMIT");
	unsigned long long v;
	char *end;

	if (!env || !*env)
		return FLRC_MEM_CEILING;
	errno = 0;
	v = strtoull(env, &end, 0);
	if (errno || end == env)
		return FLRC_MEM_CEILING;
	switch (*end) {
	case 'k': case 'K': v = v > (ULLONG_MAX >> 10) ? ULLONG_MAX : v << 10; break;
	case 'm': case 'M': v = v > (ULLONG_MAX >> 20) ? ULLONG_MAX : v << 20; break;
	case 'g': case 'G': v = v > (ULLONG_MAX >> 30) ? ULLONG_MAX : v << 30; break;
	default: break;
	}
	return v > SIZE_MAX ? SIZE_MAX : (size_t)v;
}

int flrc_read_mem(const uint8_t *buf, size_t len, struct flrc **out,
		  char *err, size_t errlen)
{
	return flrc_read_mem_flags(buf, len, 0, out, err, errlen);
}

/*
 * One image of the file, from its header at @seg->start (0: the file's
 * start) to its end entry; seg->next is then the next image's header, or 0.
 * @left: what the images before it left of the memory budget and of the
 * page bytes' cap (the file as a whole keeps to them).
 */
struct seg {
	size_t start, next;
	uint32_t version;
	size_t budget_left, pages_left;
	bool first;
};

static int read_image(const uint8_t *buf, size_t len, unsigned int flags,
		      struct seg *seg, struct flrc **out, char *err, size_t errlen)
{
	struct reader r = { .buf = buf, .len = len, .err = err, .errlen = errlen,
			    .start = seg->start, .version = seg->version };
	size_t ceiling = mem_ceiling();
	struct flrc *c;
	struct flrc_priv *p;
	int ret;

	*out = NULL;
	c = calloc(1, sizeof(*c));
	p = calloc(1, sizeof(*p));
	r.dctx = ZSTD_createDCtx();
	if (!c || !p || !r.dctx) {
		free(c);
		free(p);
		ZSTD_freeDCtx(r.dctx);
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	c->priv = p;
	c->file_size = len;
	r.c = c;
	r.p = p;
	p->flags = flags;
	p->budget.cap = cap_mul(len, FLRC_MEM_PER_BYTE, FLRC_MEM_BASE);
	p->alloc.alloc = pb_alloc;
	p->alloc.free = pb_free;
	p->alloc.allocator_data = &p->budget;
	r.page_bytes_cap = flags & FLRC_LAZY_PAGES ? 0 : cap_mul(len, 128, 64u << 20);
	/* the absolute ceiling, whatever the file's size */
	if (p->budget.cap > ceiling)
		p->budget.cap = ceiling;
	if (r.page_bytes_cap > ceiling - p->budget.cap)
		r.page_bytes_cap = ceiling - p->budget.cap;
	if (!seg->first) {
		p->budget.cap = seg->budget_left;
		r.page_bytes_cap = seg->pages_left;
	}
	r.ceiling = ceiling;
	/* without it (no memory, or a budget too small) page entries use malloc */
	r.scratch_arena.budget = &p->budget;
	if (PB_COST(SCRATCH_SIZE) <= p->budget.cap) {
		r.scratch_arena.p = malloc(SCRATCH_SIZE);
		if (r.scratch_arena.p)
			p->budget.used += PB_COST(SCRATCH_SIZE);
	}
	r.page_alloc.alloc = scratch_alloc;
	r.page_alloc.free = scratch_free;
	r.page_alloc.allocator_data = &r.scratch_arena;

	ret = read_entries(&r);
	if (r.scratch_arena.p) {
		free(r.scratch_arena.p);
		p->budget.used -= PB_COST(SCRATCH_SIZE);
	}
	if (!ret && !c->end)
		ret = rfail(&r, len, "no end entry: the file is truncated or incomplete");
	seg->next = r.next;
	seg->version = r.version;
	seg->budget_left = p->budget.cap - p->budget.used;
	seg->pages_left = r.page_bytes_cap - r.page_bytes;
	if (!ret)
		ret = check_pages(&r);
	if (!ret)
		ret = check_maps(&r);
	if (!ret)
		ret = check_threads(&r);
	if (!ret)
		ret = check_sigactions(&r);

	ZSTD_freeDCtx(r.dctx);
	fr_htab_clear(&r.by_hash);
	fr_htab_clear(&r.by_content);
	free(r.off_maps.v);
	free(r.off_threads.v);
	free(r.off_sas.v);
	free(r.off_pages.v);
	if (ret) {
		if (ret == -ENOMEM && err && errlen && !err[0])
			snprintf(err, errlen, "out of memory");
		flrc_free(c);
		return ret;
	}
	*out = c;
	return 0;
}

/*
 * A file holds one image, or several when the process exec'd: each image
 * but the last ends at its execve (End kind FLIGHTREC_END_EXEC), and the
 * next image's header follows.  The flrc returned is the last image's,
 * the earlier ones hang from before_exec.  The module keeps at most
 * FLIGHTREC_KEEP_MAX intervals in all, one image at least each.
 */
int flrc_read_mem_flags(const uint8_t *buf, size_t len, unsigned int flags,
			struct flrc **out, char *err, size_t errlen)
{
	struct seg seg = { .first = true };
	struct flrc *c, *prev = NULL;
	unsigned int n = 0;
	int ret;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	for (;;) {
		size_t at = seg.start;

		ret = read_image(buf, len, flags, &seg, &c, err, errlen);
		if (ret)
			break;
		c->before_exec = prev;
		prev = NULL;
		n++;
		if (c->before_exec) {
			const Flightrec__Header *h = c->hdr, *ph = c->before_exec->hdr;

			if (h->process->pid != ph->process->pid) {
				ret = -EBADMSG;
				snprintf(err, errlen, "offset %zu: image %u is of pid %u, the image before its exec of pid %u",
					 at, n, h->process->pid, ph->process->pid);
			} else if (h->intervals[0]->index <=
				   ph->intervals[ph->n_intervals - 1]->index) {
				ret = -EBADMSG;
				snprintf(err, errlen, "offset %zu: image %u starts at interval %u, not after the image before its exec (which ends at interval %u)",
					 at, n, h->intervals[0]->index,
					 ph->intervals[ph->n_intervals - 1]->index);
			}
		}
		if (!ret && seg.next && n >= FLIGHTREC_KEEP_MAX) {
			ret = -EBADMSG;
			snprintf(err, errlen, "offset %zu: more than %u images (the module keeps %u intervals at most)",
				 seg.next, FLIGHTREC_KEEP_MAX, FLIGHTREC_KEEP_MAX);
		}
		if (ret || !seg.next)
			break;
		prev = c;
		c = NULL;
		seg.start = seg.next;
		seg.first = false;
	}
	if (ret) {
		flrc_free(prev);
		flrc_free(c);
		return ret;
	}
	*out = c;
	return 0;
}

#define FLRC_MAX_FILE	(16ull << 30)

int flrc_read(const char *path, struct flrc **out, char *err, size_t errlen)
{
	return flrc_read_flags(path, 0, out, err, errlen);
}

/*
 * FLRC_MAP_FILE's guard: the mapped files' ranges, and the message a fault
 * in one of them ends the process with (written here, where snprintf may
 * run, so that the handler only calls write() and _exit()).
 */
#define MAP_GUARDS 4
static struct map_guard {
	uintptr_t start, end;		/* end 0: a free slot */
	char msg[320];
	size_t msg_len;
} map_guards[MAP_GUARDS];
static struct sigaction map_guard_old;
static int map_guard_users;

static void map_guard_fault(int sig, siginfo_t *si, void *uc)
{
	uintptr_t a = (uintptr_t)si->si_addr;
	int i;

	(void)uc;
	for (i = 0; si->si_code == BUS_ADRERR && i < MAP_GUARDS; i++) {
		if (map_guards[i].end && a >= map_guards[i].start && a < map_guards[i].end) {
			if (write(STDERR_FILENO, map_guards[i].msg, map_guards[i].msg_len) < 0)
				_exit(FR_EXIT_BADFILE);
			_exit(FR_EXIT_BADFILE);
		}
	}
	/* not ours: the handler there was before, when the fault recurs */
	sigaction(sig, &map_guard_old, NULL);
}

/* slot index, or -1 when every slot is taken or the handler cannot be set */
static int map_guard_add(const void *p, size_t len, const char *path)
{
	struct sigaction sa;
	int i;

	for (i = 0; i < MAP_GUARDS && map_guards[i].end; i++)
		;
	if (i == MAP_GUARDS)
		return -1;
	if (!map_guard_users) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = map_guard_fault;
		sa.sa_flags = SA_SIGINFO | SA_NODEFER;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGBUS, &sa, &map_guard_old))
			return -1;
	}
	map_guard_users++;
	snprintf(map_guards[i].msg, sizeof(map_guards[i].msg),
		 "flightrec: %s: the file was truncated while it was being read\n", path);
	map_guards[i].msg_len = strlen(map_guards[i].msg);
	map_guards[i].start = (uintptr_t)p;
	map_guards[i].end = (uintptr_t)p + len;
	return i;
}

static void map_guard_del(const void *p)
{
	int i;

	for (i = 0; i < MAP_GUARDS; i++) {
		if (map_guards[i].end && map_guards[i].start == (uintptr_t)p) {
			map_guards[i].end = 0;
			if (!--map_guard_users)
				sigaction(SIGBUS, &map_guard_old, NULL);
			return;
		}
	}
}

/*
 * FLRC_MAP_FILE: the file mapped and read; 1 when it could not be mapped
 * (the caller reads it instead).
 */
static int read_mapped(int fd, const struct stat *st, const char *path, unsigned int flags,
		       struct flrc **out, char *err, size_t errlen)
{
	size_t len = (size_t)st->st_size;
	void *m;
	int ret;

	if (!S_ISREG(st->st_mode) || st->st_size <= 0 ||
	    (unsigned long long)st->st_size >= FLRC_MAX_FILE)
		return 1;
	m = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	if (m == MAP_FAILED)
		return 1;
	if (map_guard_add(m, len, path) < 0) {
		munmap(m, len);
		return 1;
	}
	ret = flrc_read_mem_flags(m, len, flags, out, err, errlen);
	if (!ret) {
		/* the pages' frames point into it: the flrc owns it now */
		((struct flrc_priv *)(*out)->priv)->map = m;
		((struct flrc_priv *)(*out)->priv)->map_len = len;
		return 0;
	}
	map_guard_del(m);
	munmap(m, len);
	return ret;
}

int flrc_read_flags(const char *path, unsigned int flags, struct flrc **out,
		    char *err, size_t errlen)
{
	uint8_t *buf = NULL;
	size_t len = 0, cap;
	struct stat st;
	int fd, ret;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out_close;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: a directory, not a checkpoint", path);
		ret = -EBADMSG;
		goto out_close;
	}
	if ((flags & (FLRC_MAP_FILE | FLRC_LAZY_PAGES)) == (FLRC_MAP_FILE | FLRC_LAZY_PAGES)) {
		ret = read_mapped(fd, &st, path, flags, out, err, errlen);
		if (ret <= 0)
			goto out_msg;
	}
	/*
	 * read(), not mmap() (but see FLRC_MAP_FILE): a file truncated under
	 * us must give an error, not SIGBUS.  Pipes and other non-regular
	 * files work too.
	 */
	cap = S_ISREG(st.st_mode) && st.st_size > 0 &&
	      (unsigned long long)st.st_size < FLRC_MAX_FILE ?
	      (size_t)st.st_size + 1 : 65536;
	buf = malloc(cap);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		ret = -ENOMEM;
		goto out_close;
	}
	for (;;) {
		ssize_t n;

		if (len == cap) {
			uint8_t *nb;

			if (cap * 2 > FLRC_MAX_FILE) {
				snprintf(err, errlen, "%s: larger than %llu bytes",
					 path, FLRC_MAX_FILE);
				ret = -EFBIG;
				goto out_free;
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				snprintf(err, errlen, "%s: out of memory", path);
				ret = -ENOMEM;
				goto out_free;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto out_free;
		}
		if (n == 0)
			break;
		len += n;
	}
	ret = flrc_read_mem_flags(buf, len, flags, out, err, errlen);
	if (!ret && (flags & FLRC_LAZY_PAGES)) {
		/* the pages' frames point into it: the flrc owns it now */
		((struct flrc_priv *)(*out)->priv)->file = buf;
		buf = NULL;
	}
out_msg:
	if (ret && err && errlen) {
		char *tmp = strdup(err);

		if (tmp) {
			snprintf(err, errlen, "%s: %s", path, tmp);
			free(tmp);
		}
	}
out_free:
	free(buf);
out_close:
	close(fd);
	return ret;
}

void flrc_free(struct flrc *c)
{
	struct flrc_priv *p;
	size_t i;

	if (!c)
		return;
	flrc_free(c->before_exec);	/* before the file its pages point into */
	p = c->priv;
	for (i = 0; i < p->n_keep; i++)
		flightrec__entry__free_unpacked(p->keep[i], &p->alloc);
	for (i = 0; i < p->n_chunks; i++)
		free(p->chunks[i]);
	free(p->keep);
	free(p->chunks);
	free(p->by_addr);
	free(p->file);
	if (p->map) {
		map_guard_del(p->map);
		munmap(p->map, p->map_len);
	}
	ZSTD_freeDCtx(p->dctx);
	free(c->maps);
	free(c->threads);
	free(c->sigactions);
	free(c->pages);
	free(c->syscalls);
	free(p);
	free(c);
}

int flrc_page_load(const struct flrc *c, const struct flrc_page *pg, uint8_t *out)
{
	struct flrc_priv *p = c->priv;
	size_t n;

	if (pg->data) {
		memcpy(out, pg->data, FLRC_PAGE_SIZE);
		return 0;
	}
	if (pg->zero || !pg->zframe) {
		memset(out, 0, FLRC_PAGE_SIZE);
		return 0;
	}
	if (!p->dctx) {
		p->dctx = ZSTD_createDCtx();
		if (!p->dctx)
			return -ENOMEM;
	}
	/* checked by the reader: one frame that says it holds one page */
	n = ZSTD_decompressDCtx(p->dctx, out, FLRC_PAGE_SIZE, pg->zframe, pg->zframe_len);
	if (ZSTD_isError(n) || n != FLRC_PAGE_SIZE)
		return -EBADMSG;
	if (pg->unchecked && pg->has_hash && flrc_hash(out, FLRC_PAGE_SIZE) != pg->hash)
		return -EBADMSG;
	return 0;
}

void flrc_page_error(const struct flrc *c, const struct flrc_page *pg, uint8_t *out,
		     char *err, size_t errlen)
{
	struct flrc_priv *p = c->priv;
	unsigned long long addr = pg->addr;
	size_t n;

	if (!pg->zframe || !p->dctx) {
		snprintf(err, errlen, "page %#llx: cannot be loaded", addr);
		return;
	}
	n = ZSTD_decompressDCtx(p->dctx, out, FLRC_PAGE_SIZE, pg->zframe, pg->zframe_len);
	if (ZSTD_isError(n))
		snprintf(err, errlen, "page %#llx: zstd: %s", addr, ZSTD_getErrorName(n));
	else if (n != FLRC_PAGE_SIZE)
		snprintf(err, errlen, "page %#llx: decompressed to %zu bytes, not %u", addr, n,
			 FLRC_PAGE_SIZE);
	else
		snprintf(err, errlen, "page %#llx: content hash mismatch (damaged data)", addr);
}

uint32_t flrc_first_interval(const struct flrc *c)
{
	return c->hdr->n_intervals ? c->hdr->intervals[0]->index : 0;
}

uint32_t flrc_nr_intervals(const struct flrc *c)
{
	return (uint32_t)c->hdr->n_intervals;
}

static bool flrc_has_task(const struct flrc *c, int64_t tid)
{
	size_t i;

	for (i = 0; i < c->n_threads; i++)
		if (c->threads[i]->tid == tid)
			return true;
	for (i = 0; i < c->n_syscalls; i++)
		if (c->syscalls[i]->tid == tid)
			return true;
	return false;
}

size_t flrc_children(const struct flrc *c, uint32_t *out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < c->n_syscalls; i++) {
		const Flightrec__Syscall *sc = c->syscalls[i];
		const struct fr_syscall *row = fr_syscall(sc->nr);

		/* of the FR_F_PROCESS calls, only those that make a task return > 0 */
		if (!row || !(row->flags & FR_F_PROCESS) || sc->ret <= 0 ||
		    sc->ret > UINT32_MAX || flrc_has_task(c, sc->ret))
			continue;
		if (n < max)
			out[n] = (uint32_t)sc->ret;
		n++;
	}
	return n;
}

const Flightrec__IntervalInfo *flrc_interval(const struct flrc *c,
					     uint32_t index)
{
	long pos = interval_pos(c->hdr, index);

	return pos < 0 ? NULL : c->hdr->intervals[pos];
}

const struct flrc_page *flrc_page_at(const struct flrc *c, uint32_t from,
				     uint64_t addr)
{
	const struct flrc_priv *p = c->priv;
	size_t lo = 0, hi = c->n_pages;

	addr &= ~(uint64_t)(FLRC_PAGE_SIZE - 1);
	/* The first entry >= (addr, from) in (addr, interval) order. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct flrc_page *pg = &c->pages[p->by_addr[mid]];

		if (pg->addr < addr || (pg->addr == addr && pg->interval < from))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->n_pages && c->pages[p->by_addr[lo]].addr == addr)
		return &c->pages[p->by_addr[lo]];
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Writer */

#define WBUF_SIZE	(256u << 10)
#define MAX_NAME_TRIES	1000

struct flrc_writer {
	int fd, dfd;
	char *dir, *name, *tmp;
	uint8_t *buf;
	size_t blen;
	uint64_t off;
	int rank;		/* of the last entry written, -1 before any */
	bool end_exec;		/* it was an End of kind EXEC: an image follows */
	int error;		/* sticky -errno */
	char err[512];
};

static int wfail(struct flrc_writer *w, int error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int wfail(struct flrc_writer *w, int error, const char *fmt, ...)
{
	va_list ap;

	if (!w->error) {
		va_start(ap, fmt);
		vsnprintf(w->err, sizeof(w->err), fmt, ap);
		va_end(ap);
		w->error = error;
	}
	return w->error;
}

const char *flrc_writer_error(const struct flrc_writer *w)
{
	return w->err;
}

uint64_t flrc_writer_offset(const struct flrc_writer *w)
{
	return w->off;
}

int flrc_write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= n;
	}
	return 0;
}

static int wflush(struct flrc_writer *w)
{
	int err;

	if (w->error)
		return w->error;
	err = flrc_write_all(w->fd, w->buf, w->blen);
	if (err)
		return wfail(w, err, "%s/%s: write: %s", w->dir, w->tmp,
			     strerror(-err));
	w->blen = 0;
	return 0;
}

static int wput(struct flrc_writer *w, const void *data, size_t len)
{
	int err;

	if (w->error)
		return w->error;
	if (w->blen + len > WBUF_SIZE) {
		err = wflush(w);
		if (err)
			return err;
	}
	if (len >= WBUF_SIZE) {
		err = flrc_write_all(w->fd, data, len);
		if (err)
			return wfail(w, err, "%s/%s: write: %s", w->dir, w->tmp,
				     strerror(-err));
	} else {
		memcpy(w->buf + w->blen, data, len);
		w->blen += len;
	}
	w->off += len;
	return 0;
}

static bool name_ok(const char *name)
{
	return name[0] && name[0] != '.' && !strchr(name, '/') &&
	       strlen(name) < 200;
}

static void writer_free(struct flrc_writer *w)
{
	if (w->fd >= 0)
		close(w->fd);
	if (w->dfd >= 0)
		close(w->dfd);
	free(w->tmp);
	free(w->buf);
	free(w->name);
	free(w->dir);
	free(w);
}

int flrc_writer_begin(struct flrc_writer **wp, const char *dir,
		      const char *name, char *err, size_t errlen)
{
	struct flrc_writer *w;
	uint32_t head[2] = { htole32(FLRC_MAGIC), htole32(FLRC_FORMAT_VERSION) };
	int i, ret;

	*wp = NULL;
	if (!name_ok(name)) {
		snprintf(err, errlen, "bad checkpoint file name '%s'", name);
		return -EINVAL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		goto out_nomem;
	w->fd = -1;
	w->dfd = -1;
	w->rank = -1;
	w->dir = strdup(dir);
	w->name = strdup(name);
	w->buf = malloc(WBUF_SIZE);
	if (!w->dir || !w->name || !w->buf)
		goto out_nomem;
	w->dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w->dfd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		goto out_free;
	}
	/* DIR/.NAME.tmp, or .NAME.N.tmp when another writer holds that. */
	for (i = 0; i < MAX_NAME_TRIES; i++) {
		free(w->tmp);
		if ((i ? asprintf(&w->tmp, ".%s.%d.tmp", name, i) :
			 asprintf(&w->tmp, ".%s.tmp", name)) < 0) {
			w->tmp = NULL;
			goto out_nomem;
		}
		w->fd = openat(w->dfd, w->tmp, O_WRONLY | O_CREAT | O_EXCL |
			       O_CLOEXEC | O_NOFOLLOW, 0600);
		if (w->fd >= 0 || errno != EEXIST)
			break;
	}
	if (w->fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s/%s: %s", dir, w->tmp, strerror(errno));
		goto out_close_dir;
	}
	/* Checkpoints hold process memory: 0600 whatever the umask. */
	if (fchmod(w->fd, 0600) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s/%s: chmod: %s", dir, w->tmp,
			 strerror(errno));
		goto out_unlink;
	}
	wput(w, head, sizeof(head));
	*wp = w;
	return 0;

out_unlink:
	close(w->fd);
	unlinkat(w->dfd, w->tmp, 0);
out_close_dir:
	close(w->dfd);
out_free:
	free(w->tmp);
	free(w->buf);
	free(w->name);
	free(w->dir);
	free(w);
	return ret;
out_nomem:
	snprintf(err, errlen, "out of memory");
	ret = -ENOMEM;
	if (w)
		writer_free(w);
	return ret;
}

static int wrank(struct flrc_writer *w, int rank)
{
	if (w->error)
		return w->error;
	if (rank < 0 || rank >= FLRC_NR_RANKS)
		return wfail(w, -EINVAL, "writer: entry of unknown kind");
	if (w->rank < 0 && rank != FLRC_RANK_HEADER)
		return wfail(w, -EINVAL, "writer: %s before the header",
			     rank_names[rank]);
	if (rank == FLRC_RANK_HEADER && w->rank == FLRC_RANK_END && w->end_exec) {
		w->end_exec = false;	/* the image the exec started */
		w->rank = rank;
		return 0;
	}
	if ((rank == FLRC_RANK_HEADER && w->rank >= 0) || rank < w->rank ||
	    w->rank == FLRC_RANK_END)
		return wfail(w, -EINVAL, "writer: %s after %s",
			     rank_names[rank], rank_names[w->rank]);
	w->rank = rank;
	return 0;
}

int flrc_writer_add(struct flrc_writer *w, const Flightrec__Entry *e)
{
	size_t n = flightrec__entry__get_packed_size(e);
	uint8_t *tmp;
	int err = wrank(w, flrc_entry_rank(e));

	if (err)
		return err;
	if (e->e_case == FLIGHTREC__ENTRY__E_END)
		w->end_exec = e->end->kind == FLIGHTREC_END_EXEC;
	if (n > FLRC_MAX_ENTRY)
		return wfail(w, -EFBIG, "writer: a %zu-byte %s entry exceeds the %u-byte limit",
			     n, rank_names[w->rank], FLRC_MAX_ENTRY);
	if (w->blen + 4 + n <= WBUF_SIZE) {
		flrc_frame(e, w->buf + w->blen);
		w->blen += 4 + n;
		w->off += 4 + n;
		return 0;
	}
	tmp = malloc(4 + n);
	if (!tmp)
		return wfail(w, -ENOMEM, "out of memory");
	flrc_frame(e, tmp);
	err = wput(w, tmp, 4 + n);
	free(tmp);
	return err;
}

int flrc_writer_add_framed(struct flrc_writer *w, int rank, const void *buf,
			   size_t len)
{
	int err = wrank(w, rank);

	return err ? err : wput(w, buf, len);
}

int flrc_writer_copy_fd(struct flrc_writer *w, int rank, int fd, uint64_t len)
{
	uint64_t done = 0;
	int err = wrank(w, rank);

	if (err)
		return err;
	err = wflush(w);
	if (err)
		return err;
	while (done < len) {
		ssize_t n;
		size_t chunk = len - done > WBUF_SIZE ? WBUF_SIZE : len - done;

		n = pread(fd, w->buf, chunk, done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return wfail(w, n < 0 ? -errno : -EIO,
				     "reading a spool file: %s",
				     n < 0 ? strerror(errno) : "unexpected end");
		err = flrc_write_all(w->fd, w->buf, n);
		if (err)
			return wfail(w, err, "%s/%s: write: %s", w->dir, w->tmp,
				     strerror(-err));
		done += n;
		w->off += n;
	}
	return 0;
}

/* NAME, then NAME with ".N" before its extension: 42-7.flrc, 42-7.1.flrc */
static char *candidate(const char *name, int i)
{
	const char *dot = strrchr(name, '.');
	char *s;
	int n;

	if (!i)
		return strdup(name);
	if (dot && dot != name)
		n = asprintf(&s, "%.*s.%d%s", (int)(dot - name), name, i, dot);
	else
		n = asprintf(&s, "%s.%d", name, i);
	return n < 0 ? NULL : s;
}

/* rename without replacing; link+unlink where RENAME_NOREPLACE is missing */
static int rename_noreplace(int dfd, const char *from, const char *to)
{
	if (!renameat2(dfd, from, dfd, to, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	if (linkat(dfd, from, dfd, to, 0) < 0)
		return -errno;
	unlinkat(dfd, from, 0);
	return 0;
}

void flrc_writer_abort(struct flrc_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0) {
		close(w->fd);
		w->fd = -1;
		unlinkat(w->dfd, w->tmp, 0);
	}
	writer_free(w);
}

int flrc_writer_finish(struct flrc_writer *w, char *path, size_t pathlen,
		       char *err, size_t errlen)
{
	char *final = NULL;
	int i, ret;

	ret = wflush(w);
	if (!ret && w->rank < FLRC_RANK_HEADER)
		ret = wfail(w, -EINVAL, "writer: no header");
	if (!ret && fsync(w->fd) < 0)
		ret = wfail(w, -errno, "%s/%s: fsync: %s", w->dir, w->tmp,
			    strerror(errno));
	if (!ret && close(w->fd) < 0) {
		w->fd = -1;
		ret = wfail(w, -errno, "%s/%s: close: %s", w->dir, w->tmp,
			    strerror(errno));
	}
	if (ret)
		goto out_abort;
	w->fd = -1;
	for (i = 0; i < MAX_NAME_TRIES; i++) {
		free(final);
		final = candidate(w->name, i);
		if (!final) {
			ret = wfail(w, -ENOMEM, "out of memory");
			break;
		}
		ret = rename_noreplace(w->dfd, w->tmp, final);
		if (ret != -EEXIST)
			break;
	}
	if (ret) {
		wfail(w, ret, "%s/%s: rename to %s: %s", w->dir, w->tmp,
		      final ? final : w->name, strerror(-ret));
		unlinkat(w->dfd, w->tmp, 0);
		goto out_err;
	}
	if (fsync(w->dfd) < 0) {
		/* The file is whole and named: report, but keep it. */
		ret = wfail(w, -errno, "%s: fsync: %s", w->dir, strerror(errno));
		goto out_err;
	}
	if (path && pathlen)
		snprintf(path, pathlen, "%s/%s", w->dir, final);
	free(final);
	writer_free(w);
	return 0;

out_abort:
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	unlinkat(w->dfd, w->tmp, 0);
out_err:
	snprintf(err, errlen, "%s", w->err);
	free(final);
	writer_free(w);
	return ret;
}
