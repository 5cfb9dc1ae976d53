// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec info, flightrec log: what a checkpoint file holds, for people
 * (text) and for programs (--json).  A damaged file gets its reader's message
 * and exit status FR_EXIT_BADFILE.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <time.h>

#include <json-c/json.h>
#include <linux/close_range.h>
#include "checkpoint.h"
#include "commands.h"
#include "libflightrec.h"
#include "syscalls.h"
#include "sysdecode.h"
#include "flightrec.h"		/* uapi */
#include "flightrec_inhash.h"

static int open_file(const char *path, struct flrc **c)
{
	char err[1024];
	/*
	 * info and log never look at page bytes: not kept (linear memory),
	 * all checked; the file mapped, not copied
	 */
	int ret = flrc_read_flags(path, FLRC_LAZY_PAGES | FLRC_MAP_FILE, c, err, sizeof(err));

	if (!ret)
		return FR_EXIT_OK;
	fprintf(stderr, "flightrec: %s\n", err);
	return ret == -ENOENT || ret == -EACCES || ret == -EPERM ||
	       ret == -ENOMEM || ret == -EFBIG ? FR_EXIT_FAIL : FR_EXIT_BADFILE;
}

/* ------------------------------------------------------------------ */
/* What the file holds, counted */

enum pkind { PK_CODE, PK_DATA, PK_STACK, PK_FILE, PK_ZERO, NR_PK };
static const char *const pkind_names[NR_PK] = {
	"code", "data", "stack", "file", "zero",
};

struct pcount {
	uint64_t pages, stored;
};

struct iv_maps {
	uint32_t index;
	const Flightrec__Map **m;	/* sorted by start: a slice of facts.maps */
	size_t n;
};

struct sc_count {
	uint64_t nr;	/* the number, and SC_REAL for FLIGHTREC_SC_REAL_NR */
	uint64_t n;
};
#define SC_REAL		(1ULL << 32)

struct iv_stat {
	struct pcount pages, dirtied;
	uint64_t out_bytes;
	size_t threads;
};

/*
 * Everything here is made in O(n log n) of the file's entries: a crafted
 * file with many intervals, maps, threads or syscall numbers must not make
 * info or log loop over one kind per entry of another (issue 23).
 */
struct facts {
	const struct flrc *c;
	struct iv_stat *ivs;		/* per header interval */
	struct iv_maps *ivm;		/* per header interval */
	const Flightrec__Map **maps;	/* all maps by (interval, start) */
	size_t n_ivm;
	struct pcount kind[NR_PK];
	struct pcount read, written;
	uint64_t n_data, n_same, n_zero;
	uint64_t out_bytes;
	struct sc_count *sc;
	size_t n_sc;
	uint32_t *tids;			/* in the order of first appearance */
	size_t n_tids;
	uint64_t sc_truncated, sc_copy_failed, sc_unknown, sc_noreturn;
	uint64_t sc_in_hash_sa, sc_rseq;	/* sockaddr-rule hashes, rseq notes */
	uint64_t sc_in_hash_full;		/* full-rule hashes (big writes) */
	uint64_t sc_in_hash_w;			/* words-rule hashes */
	size_t n_build_ids, n_maps_last;
};

static int cmp_map(const void *a, const void *b)
{
	const Flightrec__Map *x = *(const Flightrec__Map *const *)a;
	const Flightrec__Map *y = *(const Flightrec__Map *const *)b;

	if (x->interval != y->interval)
		return x->interval < y->interval ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* The position of interval index in the header (it is there: checked). */
static size_t iv_pos(const struct flrc *c, uint32_t index)
{
	size_t lo = 0, hi = c->hdr->n_intervals;

	while (lo + 1 < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->hdr->intervals[mid]->index <= index)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static const Flightrec__Map *map_at(const struct facts *f, uint32_t interval,
				    uint64_t addr)
{
	const struct iv_maps *im = &f->ivm[iv_pos(f->c, interval)];
	size_t lo, hi;

	if (im->index != interval)
		return NULL;
	lo = 0;
	hi = im->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (im->m[mid]->end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < im->n && im->m[lo]->start <= addr)
		return im->m[lo];
	return NULL;
}

#define MMAP_NR		9
#define MAP_ANON_FLAG	0x20

static bool is_mmap(const Flightrec__Syscall *s)
{
	return s->nr == MMAP_NR && s->n_args >= 5 && s->ret >= 0 && s->args[1];
}

static enum pkind mmap_kind(const Flightrec__Syscall *s)
{
	if (s->args[2] & PROT_EXEC)
		return PK_CODE;
	if (!(s->args[3] & MAP_ANON_FLAG) && (int32_t)s->args[4] >= 0)
		return PK_FILE;
	return PK_DATA;
}

static enum pkind map_kind(const Flightrec__Map *m)
{
	if (m->prot & PROT_EXEC)
		return PK_CODE;
	if ((m->flags & FLIGHTREC_MAPF_STACK) ||
	    (m->path && !strcmp(m->path, "[stack]")))
		return PK_STACK;
	if (!(m->flags & FLIGHTREC_MAPF_ANON) && m->path && m->path[0] == '/')
		return PK_FILE;
	return PK_DATA;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* a max-heap of syscall indices (the newest mmap on top) */
static void heap_push(size_t *h, size_t *n, size_t v)
{
	size_t i = (*n)++;

	while (i && h[(i - 1) / 2] < v) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

static void heap_pop(size_t *h, size_t *n)
{
	size_t v = h[--*n], i = 0;

	for (;;) {
		size_t k = 2 * i + 1;

		if (k >= *n)
			break;
		if (k + 1 < *n && h[k + 1] > h[k])
			k++;
		if (h[k] <= v)
			break;
		h[i] = h[k];
		i = k;
	}
	if (*n)
		h[i] = v;
}

/*
 * A page of a region mapped during its interval has no map at the interval
 * start: the newest mmap record that covers it says what it is (data when
 * none does).  late[] holds (address, page index) pairs of such pages;
 * one sweep by address with a heap of the mmaps begun so far, newest on
 * top, whose ended ones are dropped when they come up: O(n log n).
 */
static int late_kinds(const struct facts *f, uint64_t (*late)[2], size_t n_late,
		      enum pkind *kinds)
{
	const struct flrc *c = f->c;
	uint64_t (*mm)[2];
	size_t *heap, n_mm = 0, n_heap = 0, i, k = 0;

	mm = malloc((c->n_syscalls + 1) * sizeof(*mm));
	heap = malloc((c->n_syscalls + 1) * sizeof(*heap));
	if (!mm || !heap) {
		free(mm);
		free(heap);
		return -ENOMEM;
	}
	for (i = 0; i < c->n_syscalls; i++)
		if (is_mmap(c->syscalls[i])) {
			mm[n_mm][0] = (uint64_t)c->syscalls[i]->ret;
			mm[n_mm++][1] = i;
		}
	qsort(mm, n_mm, sizeof(*mm), cmp_u64);
	qsort(late, n_late, sizeof(*late), cmp_u64);
	for (i = 0; i < n_late; i++) {
		uint64_t addr = late[i][0];
		enum pkind kd = PK_DATA;

		while (k < n_mm && mm[k][0] <= addr)
			heap_push(heap, &n_heap, mm[k++][1]);
		while (n_heap) {
			const Flightrec__Syscall *s = c->syscalls[heap[0]];

			if (addr - (uint64_t)s->ret < s->args[1]) {
				kd = mmap_kind(s);
				break;
			}
			heap_pop(heap, &n_heap);
		}
		kinds[late[i][1]] = kd;
	}
	free(mm);
	free(heap);
	return 0;
}

static int cmp_sc(const void *a, const void *b)
{
	const struct sc_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

static void count_flags(struct facts *f, const Flightrec__Syscall *s)
{
	size_t i;

	for (i = 0; i < s->n_out; i++)
		if (!FLIGHTREC_OUT_IS_IN(s->out[i]->arg))
			f->out_bytes += s->out[i]->data.len;
	if (s->flags & FLIGHTREC_SC_TRUNCATED)
		f->sc_truncated++;
	if (s->flags & FLIGHTREC_SC_COPY_FAILED)
		f->sc_copy_failed++;
	if (s->flags & FLIGHTREC_SC_UNKNOWN_OUT)
		f->sc_unknown++;
	if (s->flags & FLIGHTREC_SC_NO_RETURN)
		f->sc_noreturn++;
	f->sc_in_hash_sa += s->has_in_hash_sa;
	f->sc_in_hash_full += s->has_in_hash_full;
	f->sc_in_hash_w += s->has_in_hash_w;
	f->sc_rseq += s->has_rseq_cpu;
}

/* f->sc: each syscall number and its count, the most frequent first */
static int count_nrs(struct facts *f)
{
	const struct flrc *c = f->c;
	uint64_t *nrs = malloc((c->n_syscalls + 1) * sizeof(*nrs));
	size_t i;

	if (!nrs)
		return -ENOMEM;
	for (i = 0; i < c->n_syscalls; i++)
		nrs[i] = c->syscalls[i]->nr |
			 (c->syscalls[i]->flags & FLIGHTREC_SC_REAL_NR ? SC_REAL : 0);
	qsort(nrs, c->n_syscalls, sizeof(*nrs), cmp_u64);
	for (i = 0; i < c->n_syscalls; i++)	/* distinct numbers: f->sc's size */
		f->n_sc += !i || nrs[i] != nrs[i - 1];
	f->sc = calloc(f->n_sc + 1, sizeof(*f->sc));
	if (!f->sc) {
		free(nrs);
		return -ENOMEM;
	}
	f->n_sc = 0;
	for (i = 0; i < c->n_syscalls; i++) {
		if (!f->n_sc || f->sc[f->n_sc - 1].nr != nrs[i])
			f->sc[f->n_sc++] = (struct sc_count){ nrs[i], 0 };
		f->sc[f->n_sc - 1].n++;
	}
	free(nrs);
	qsort(f->sc, f->n_sc, sizeof(*f->sc), cmp_sc);
	return 0;
}

/*
 * f->tids: the thread ids of the thread contexts, then of the syscall
 * records, each once, in the order they first appear.  (tid << 32 | first
 * position) sorted by tid, then the first of each run sorted by position.
 */
static int collect_tids(struct facts *f)
{
	const struct flrc *c = f->c;
	size_t n = c->n_threads + c->n_syscalls, i, k = 0;
	uint64_t *v = malloc((n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		uint32_t tid = i < c->n_threads ? c->threads[i]->tid :
			       c->syscalls[i - c->n_threads]->tid;

		v[i] = (uint64_t)tid << 32 | i;
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < n; i++)
		if (!k || v[i] >> 32 != v[k - 1] >> 32)
			v[k++] = v[i];
	for (i = 0; i < k; i++)		/* position first, to sort by it */
		v[i] = (v[i] & 0xffffffffull) << 32 | v[i] >> 32;
	qsort(v, k, sizeof(*v), cmp_u64);
	for (i = 0; i < k; i++)
		f->tids[i] = (uint32_t)v[i];
	f->n_tids = k;
	free(v);
	return 0;
}

static int gather(struct facts *f, const struct flrc *c)
{
	const Flightrec__Header *h = c->hdr;
	uint32_t last = h->intervals[h->n_intervals - 1]->index;
	uint64_t (*late)[2] = NULL;
	enum pkind *kinds = NULL;
	size_t i, j, n_late = 0;
	int err = -ENOMEM;

	memset(f, 0, sizeof(*f));
	f->c = c;
	if (c->n_threads + c->n_syscalls >= UINT32_MAX)
		return -E2BIG;
	f->ivm = calloc(h->n_intervals, sizeof(*f->ivm));
	f->maps = calloc(c->n_maps + 1, sizeof(*f->maps));
	f->tids = calloc(c->n_threads + c->n_syscalls + 1, sizeof(*f->tids));
	f->ivs = calloc(h->n_intervals, sizeof(*f->ivs));
	kinds = calloc(c->n_pages + 1, sizeof(*kinds));
	late = calloc(c->n_pages + 1, sizeof(*late));
	if (!f->ivm || !f->maps || !f->tids || !f->ivs || !kinds || !late)
		goto out;
	f->n_ivm = h->n_intervals;
	if (c->n_maps)		/* none: c->maps is NULL */
		memcpy(f->maps, c->maps, c->n_maps * sizeof(*f->maps));
	qsort(f->maps, c->n_maps, sizeof(*f->maps), cmp_map);
	for (i = 0, j = 0; i < h->n_intervals; i++) {
		struct iv_maps *im = &f->ivm[i];

		im->index = h->intervals[i]->index;
		while (j < c->n_maps && f->maps[j]->interval < im->index)
			j++;
		im->m = f->maps + j;
		while (j < c->n_maps && f->maps[j]->interval == im->index) {
			j++;
			im->n++;
		}
	}
	for (i = 0; i < c->n_maps; i++) {
		if (c->maps[i]->interval != last)
			continue;
		f->n_maps_last++;
		f->n_build_ids += c->maps[i]->has_build_id;
	}
	for (i = 0; i < c->n_pages; i++) {
		const struct flrc_page *p = &c->pages[i];
		const Flightrec__Map *m;

		if (p->zero) {
			kinds[i] = PK_ZERO;
		} else if ((m = map_at(f, p->interval, p->addr))) {
			kinds[i] = map_kind(m);
		} else {
			late[n_late][0] = p->addr;
			late[n_late++][1] = i;
		}
	}
	if (late_kinds(f, late, n_late, kinds))
		goto out;
	for (i = 0; i < c->n_pages; i++) {
		const struct flrc_page *p = &c->pages[i];
		struct pcount *rw = (p->flags & FLIGHTREC_PAGE_WRITTEN) ?
				    &f->written : &f->read;
		enum pkind k = kinds[i];
		struct iv_stat *is = &f->ivs[iv_pos(c, p->interval)];

		is->pages.pages++;
		is->pages.stored += p->stored;
		if (p->flags & FLIGHTREC_PAGE_WRITTEN) {
			is->dirtied.pages++;
			is->dirtied.stored += p->stored;
		}
		f->kind[k].pages++;
		f->kind[k].stored += p->stored;
		rw->pages++;
		rw->stored += p->stored;
		if (p->zero)
			f->n_zero++;
		else if (p->stored)
			f->n_data++;
		else
			f->n_same++;
	}
	for (i = 0; i < c->n_threads; i++)
		f->ivs[iv_pos(c, c->threads[i]->interval)].threads++;
	for (i = 0; i < c->n_syscalls; i++) {
		struct iv_stat *is = &f->ivs[iv_pos(c, c->syscalls[i]->interval)];

		for (j = 0; j < c->syscalls[i]->n_out; j++)
			if (!FLIGHTREC_OUT_IS_IN(c->syscalls[i]->out[j]->arg))
				is->out_bytes += c->syscalls[i]->out[j]->data.len;
		count_flags(f, c->syscalls[i]);
	}
	if (count_nrs(f) || collect_tids(f))
		goto out;
	err = 0;
out:
	free(kinds);
	free(late);
	return err;
}

static void facts_free(struct facts *f)
{
	free(f->ivm);
	free(f->maps);
	free(f->ivs);
	free(f->sc);
	free(f->tids);
}

/* the name of a count's key: struct sc_count's nr */
static const char *sc_name(uint64_t key, char *buf, size_t len)
{
	unsigned int nr = (unsigned int)key;
	const struct fr_syscall *s = fr_syscall(nr);

	if (s)
		return s->name;
	if (!(key & SC_REAL) && fr_pseudo_name(nr))
		return fr_pseudo_name(nr);
	fr_sysdecode_unknown_name(buf, len, nr);
	return buf;
}

static const char *end_kind_name(uint32_t kind)
{
	switch (kind) {
	case FLIGHTREC_END_FAULT:	return "fault";
	case FLIGHTREC_END_DUMP:	return "dump";
	case FLIGHTREC_END_EXIT:	return "exit";
	case FLIGHTREC_END_EXEC:	return "exec";
	default:			return "unknown";
	}
}

static const char *si_code_name(uint32_t sig, int code)
{
	static const char *const segv[] = { NULL, "SEGV_MAPERR", "SEGV_ACCERR",
		"SEGV_BNDERR", "SEGV_PKUERR", "SEGV_ACCADI", "SEGV_ADIDERR",
		"SEGV_ADIPERR", "SEGV_MTEAERR", "SEGV_MTESERR" };
	static const char *const bus[] = { NULL, "BUS_ADRALN", "BUS_ADRERR",
		"BUS_OBJERR", "BUS_MCEERR_AR", "BUS_MCEERR_AO" };
	static const char *const fpe[] = { NULL, "FPE_INTDIV", "FPE_INTOVF",
		"FPE_FLTDIV", "FPE_FLTOVF", "FPE_FLTUND", "FPE_FLTRES",
		"FPE_FLTINV", "FPE_FLTSUB", "FPE_FLTUNK", "FPE_CONDTRAP" };
	static const char *const ill[] = { NULL, "ILL_ILLOPC", "ILL_ILLOPN",
		"ILL_ILLADR", "ILL_ILLTRP", "ILL_PRVOPC", "ILL_PRVREG",
		"ILL_COPROC", "ILL_BADSTK", "ILL_BADIADDR" };
	const char *const *t = NULL;
	int n = 0;

	switch (code) {
	case 0:		return "SI_USER";
	case 0x80:	return "SI_KERNEL";
	case -1:	return "SI_QUEUE";
	case -6:	return "SI_TKILL";
	}
	switch (sig) {
	case 11: t = segv; n = sizeof(segv) / sizeof(*segv); break;
	case 7: t = bus; n = sizeof(bus) / sizeof(*bus); break;
	case 8: t = fpe; n = sizeof(fpe) / sizeof(*fpe); break;
	case 4: t = ill; n = sizeof(ill) / sizeof(*ill); break;
	case 31: return code == 1 ? "SYS_SECCOMP" : code == 2 ? "SYS_USER_DISPATCH" : NULL;
	}
	return t && code > 0 && code < n ? t[code] : NULL;
}

/* The XSAVE components XCR0 enables, by name. */
static void xcr0_names(FILE *f, uint64_t xcr0)
{
	bool first = true;
	unsigned int i;

	for (i = 0; i < 64; i++) {
		const char *n;

		if (!(xcr0 & (1ull << i)))
			continue;
		n = flrc_xsave_component_name(i);
		if (n)
			fprintf(f, "%s%s", first ? "" : " ", n);
		else
			fprintf(f, "%s#%u", first ? "" : " ", i);
		first = false;
	}
}

static void cpu_vendor(const Flightrec__SystemInfo *s, char vendor[13])
{
	size_t i;

	vendor[0] = '\0';
	for (i = 0; i < s->n_cpuid; i++) {
		const Flightrec__CpuidLeaf *l = s->cpuid[i];

		if (l->leaf == 0 && l->subleaf == 0) {
			memcpy(vendor, &l->ebx, 4);
			memcpy(vendor + 4, &l->edx, 4);
			memcpy(vendor + 8, &l->ecx, 4);
			vendor[12] = '\0';
			for (i = 0; i < 12; i++)
				if (vendor[i] < 0x20 || vendor[i] > 0x7e)
					vendor[i] = '?';
			return;
		}
	}
}

/* Why this file may not replay exactly; one reason a call of `say`. */
static void not_replayable(const struct facts *f,
			   void (*say)(void *arg, const char *fmt, ...),
			   void *arg)
{
	const Flightrec__Header *h = f->c->hdr;
	size_t i;

	for (i = 0; i < h->n_intervals; i++) {
		const Flightrec__IntervalInfo *iv = h->intervals[i];
		uint32_t fl = iv->flags;

		if (fl & FLIGHTREC_IF_LOST_RECORD)
			say(arg, "interval #%u: %" PRIu64 " syscall record%s lost",
			    iv->index, iv->lost, iv->lost == 1 ? "" : "s");
		if (fl & FLIGHTREC_IF_UNKNOWN_SYSCALL)
			say(arg, "interval #%u: a syscall whose out-data is unknown", iv->index);
		if (fl & FLIGHTREC_IF_LOST_PAGE)
			say(arg, "interval #%u: an original page copy was lost", iv->index);
		if (fl & FLIGHTREC_IF_GUP_WRITE)
			say(arg, "interval #%u: memory written behind the tracker's back", iv->index);
		if (fl & FLIGHTREC_IF_PARTIAL)
			say(arg, "interval #%u: still open at the dump (ends at the %s)",
			    iv->index, end_kind_name(f->c->end->kind));
		if (fl & FLIGHTREC_IF_FOREIGN_SYSCALL)
			say(arg, "interval #%u: a 32-bit (int $0x80) or x32 syscall, not recorded: "
			    "replay diverges there", iv->index);
		if (fl & FLIGHTREC_IF_THREAD_LATE)
			say(arg, "interval #%u: a thread did not stop at its start in time: "
			    "its context is from a little later (approximate)", iv->index);
		if (fl & FLIGHTREC_IF_LOST_STATE)
			say(arg, "interval #%u: part of its start state was lost (no memory "
			    "while recording): the memory map or a file's path, or a thread's "
			    "registers or XSAVE area", iv->index);
	}
	if (f->sc_truncated)
		say(arg, "%" PRIu64 " syscall%s with an out-buffer cut at the size limit",
		    f->sc_truncated, f->sc_truncated == 1 ? "" : "s");
	if (f->sc_copy_failed)
		say(arg, "%" PRIu64 " syscall%s whose out-buffer could not be read",
		    f->sc_copy_failed, f->sc_copy_failed == 1 ? "" : "s");
	if (f->sc_unknown)
		say(arg, "%" PRIu64 " syscall%s with unknown out-semantics",
		    f->sc_unknown, f->sc_unknown == 1 ? "" : "s");
	if (f->c->end->kind == FLIGHTREC_END_UNSPEC)
		say(arg, "the end of the recording is unknown");
}

/* ------------------------------------------------------------------ */
/* info, as text */

static void say_text(void *arg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say_text(void *arg, const char *fmt, ...)
{
	va_list ap;
	int *n = arg;

	fputs("  ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	(*n)++;
}

static void shell_word(const char *s)
{
	const char *p;

	for (p = s; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=+./:,@%", *p))
			break;
	if (*s && !*p) {
		fputs(s, stdout);
		return;
	}
	putchar('\'');
	for (p = s; *p; p++) {
		if (*p == '\'')
			fputs("'\\''", stdout);
		else if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			printf("\\x%02x", (unsigned char)*p);
		else
			putchar(*p);
	}
	putchar('\'');
}

/*
 * An untrusted string for the terminal: escaped (fr_escape), or "-".  The
 * result lives until the 8th next call.
 */
static const char *or_dash(const char *s)
{
	static char bufs[8][1024];
	static unsigned int slot;

	if (!s || !*s)
		return "-";
	return fr_escape(s, bufs[slot++ % 8], sizeof(bufs[0]));
}

static void kib(char *buf, size_t len, uint64_t bytes)
{
	if (bytes < 10 * 1024)
		snprintf(buf, len, "%" PRIu64 " B", bytes);
	else if (bytes < 10ull * 1024 * 1024)
		snprintf(buf, len, "%.1f KiB", bytes / 1024.0);
	else
		snprintf(buf, len, "%.1f MiB", bytes / 1048576.0);
}

static void info_text(const char *path, const struct facts *f, uint64_t size)
{
	const struct flrc *c = f->c;
	const Flightrec__Header *h = c->hdr;
	const Flightrec__SystemInfo *s = h->system;
	const Flightrec__ProcessInfo *p = h->process;
	const Flightrec__End *e = c->end;
	uint64_t t0 = h->intervals[0]->start_ns;
	char vendor[13], b1[32], b2[32];
	size_t i;
	int k, n = 0;

	printf("%s: flightrec checkpoint, format %u, %" PRIu64 " bytes\n", or_dash(path),
	       h->format_version, size);
	printf("written:   by flightrec %s", or_dash(h->tool_version));
	if (h->assembled_on)
		printf(" on %s", or_dash(h->assembled_on));
	if (h->has_created_unix_ns) {
		time_t t = h->created_unix_ns / 1000000000ull;
		struct tm tm;
		char when[64];

		if (gmtime_r(&t, &tm) &&
		    strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm))
			printf(", %s", when);
	}
	if (h->has_abi_version)
		printf("; module ABI %u", h->abi_version);
	if (h->has_dump_id)
		printf(", dump %u", h->dump_id);
	putchar('\n');
	printf("source:    %s %s %s %s %s\n", or_dash(s->sysname),
	       or_dash(s->nodename), or_dash(s->release), or_dash(s->version),
	       or_dash(s->machine));
	cpu_vendor(s, vendor);
	printf("cpu:       %s, XCR0 %#" PRIx64 " (", vendor[0] ? vendor : "vendor unknown",
	       s->xcr0);
	xcr0_names(stdout, s->xcr0);
	printf("), %zu CPUID leaves", s->n_cpuid);
	if (s->n_cpuid_local)
		printf(" + %zu from the assembling machine", s->n_cpuid_local);
	printf("; cpuid at %zu sites of the code\n", p->n_cpuid_sites);
	printf("process:   pid %u (%s), parent %u, exe %s\n", p->pid,
	       or_dash(p->comm), p->ppid, or_dash(p->exe));
	printf("argv:      ");
	for (i = 0; i < p->n_argv; i++) {
		if (i)
			putchar(' ');
		shell_word(p->argv[i]);
	}
	putchar('\n');

	printf("intervals: %zu, #%u..#%u, %.3f s\n", h->n_intervals,
	       h->intervals[0]->index, h->intervals[h->n_intervals - 1]->index,
	       (h->intervals[h->n_intervals - 1]->end_ns - t0) / 1e9);
	for (i = 0; i < h->n_intervals; i++) {
		const Flightrec__IntervalInfo *iv = h->intervals[i];
		size_t nt = f->ivs[i].threads;
		kib(b1, sizeof(b1), f->ivs[i].pages.stored);
		kib(b2, sizeof(b2), f->ivs[i].out_bytes);
		printf("  #%-4u +%.3fs  %.3f s  %zu thread%s  %" PRIu64 " syscalls (%s out)  %" PRIu64
		       " pages (%" PRIu64 " dirtied, %s in file)%s%s%s%s\n",
		       iv->index, (iv->start_ns - t0) / 1e9,
		       (iv->end_ns - iv->start_ns) / 1e9, nt, nt == 1 ? "" : "s",
		       iv->nr_syscalls, b2, f->ivs[i].pages.pages,
		       f->ivs[i].dirtied.pages, b1,
		       iv->flags & FLIGHTREC_IF_PARTIAL ? "  partial" : "",
		       iv->flags & FLIGHTREC_IF_SERIAL ? "  serial" : "",
		       /* a thread made to yield in user code: <preempt> records */
		       iv->flags & FLIGHTREC_IF_PREEMPTED ? "  preempted" : "",
		       nt ? "" : "  (no thread context: cannot start here)");
	}
	printf("threads:   %zu:", f->n_tids);
	for (i = 0; i < f->n_tids; i++)
		printf(" %u", f->tids[i]);
	putchar('\n');
	printf("maps:      %zu at the start of the last interval, %zu with a build id\n",
	       f->n_maps_last, f->n_build_ids);
	if (f->n_ivm) {
		const struct iv_maps *im = &f->ivm[f->n_ivm - 1];
		char shown[PATH_MAX];

		for (i = 0; i < im->n; i++) {
			const Flightrec__Map *m = im->m[i];
			size_t k;

			printf("  %012" PRIx64 "-%012" PRIx64 " %c%c%c%c %08" PRIx64 " %s",
			       m->start, m->end, m->prot & PROT_READ ? 'r' : '-',
			       m->prot & PROT_WRITE ? 'w' : '-', m->prot & PROT_EXEC ? 'x' : '-',
			       m->flags & MAP_SHARED ? 's' : 'p', m->has_offset ? m->offset : 0,
			       m->path ? fr_escape(m->path, shown, sizeof(shown)) : "");
			if (m->has_build_id && m->build_id.len) {
				printf("  build-id ");
				for (k = 0; k < m->build_id.len && k < 64; k++)
					printf("%02x", m->build_id.data[k]);
			}
			putchar('\n');
		}
	}
	for (i = 0; i < c->n_threads; i++) {
		const Flightrec__Thread *t = c->threads[i];
		const Flightrec__Regs *r = t->regs;

		if (t->interval != flrc_first_interval(c))
			continue;
		printf("  thread %u at the start of interval %u: rip %#" PRIx64 " rsp %#" PRIx64
		       " rbp %#" PRIx64 " rax %#" PRIx64 "%s\n", t->tid, t->interval, r->rip,
		       r->rsp, r->rbp, r->rax,
		       t->has_in_syscall && t->in_syscall >= 0 ? " (in a system call)" : "");
	}

	printf("pages:     %zu: %" PRIu64 " stored, %" PRIu64 " same as another, %" PRIu64 " zero\n",
	       c->n_pages, f->n_data, f->n_same, f->n_zero);
	printf("  %-8s %8s %12s %12s\n", "kind", "pages", "bytes", "in file");
	for (k = 0; k < NR_PK; k++) {
		kib(b1, sizeof(b1), f->kind[k].pages * FLRC_PAGE_SIZE);
		kib(b2, sizeof(b2), f->kind[k].stored);
		printf("  %-8s %8" PRIu64 " %12s %12s\n", pkind_names[k],
		       f->kind[k].pages, k == PK_ZERO ? "-" : b1, b2);
	}
	kib(b1, sizeof(b1), f->read.stored);
	kib(b2, sizeof(b2), f->written.stored);
	printf("  read %" PRIu64 " (%s in file), dirtied %" PRIu64 " (%s in file)\n",
	       f->read.pages, b1, f->written.pages, b2);

	kib(b1, sizeof(b1), f->out_bytes);
	printf("syscalls:  %zu, %s of out-data\n", c->n_syscalls, b1);
	if (f->sc_in_hash_sa || f->sc_rseq)
		printf("  notes: %" PRIu64 " with data passed in hashed by the sockaddr rule, "
		       "%" PRIu64 " with the rseq area's cpu (flightrec log shows them)\n",
		       f->sc_in_hash_sa, f->sc_rseq);
	if (f->sc_in_hash_full)
		printf("  %" PRIu64 " with more than 64 KiB passed in, hashed whole by the full rule\n",
		       f->sc_in_hash_full);
	if (f->sc_in_hash_w)
		printf("  %" PRIu64 " with data passed in hashed by the words rule\n",
		       f->sc_in_hash_w);
	for (i = 0; i < f->n_sc; i++) {
		char nb[32];

		printf("  %6" PRIu64 " %s\n", f->sc[i].n,
		       sc_name(f->sc[i].nr, nb, sizeof(nb)));
	}

	printf("end:       %s", end_kind_name(e->kind));
	if (e->kind == FLIGHTREC_END_FAULT && e->has_signo) {
		const char *sc = e->has_si_code ? si_code_name(e->signo, e->si_code) : NULL;

		printf(": %s", fr_signal_name(e->signo) ?: "signal ?");
		if (sc)
			printf(" (%s)", sc);
		if (e->has_fault_addr)
			printf(" at %#" PRIx64, e->fault_addr);
	} else if (e->kind == FLIGHTREC_END_EXIT && e->has_exit_code) {
		printf(": exit status %u", (e->exit_code >> 8) & 0xff);
	} else if (e->kind == FLIGHTREC_END_EXEC && e->regs) {
		printf(": %s, the next image follows",
		       (uint32_t)e->regs->rax == __NR_execveat ? "execveat" : "execve");
	}
	if (e->has_tid)
		printf(", thread %u", e->tid);
	if (e->regs)
		printf(", rip %#" PRIx64, e->regs->rip);
	if (e->has_last_seq)
		printf(", after syscall #%" PRIu64, e->last_seq);
	putchar('\n');

	printf("may not replay:\n");
	not_replayable(f, say_text, &n);
	if (!n)
		printf("  nothing known\n");
}

/* ------------------------------------------------------------------ */
/* info, as JSON (json-c) */

/*
 * Strings from the recording go through fr_escape() as in the text output
 * (valid UTF-8 kept, controls and invalid bytes as "\x1b" text), so the
 * document is valid UTF-8 whatever the recorded bytes; addresses and
 * register values are hex strings, as CRIU's crit prints them.
 */
static json_object *jstr(const char *s)
{
	char *e;
	json_object *o;

	if (!s)
		return NULL;
	e = fr_escape_dup(s);
	if (!e)
		return NULL;
	o = json_object_new_string(e);
	free(e);
	return o;
}

static json_object *jhex(uint64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "%#" PRIx64, v);
	return json_object_new_string(v ? b : "0x0");
}

static void jadd(json_object *o, const char *k, json_object *v)
{
	json_object_object_add(o, k, v);
}

static json_object *ju(uint64_t v)
{
	return json_object_new_uint64(v);
}

static void say_json(void *arg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say_json(void *arg, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_object_array_add(arg, jstr(buf));
}

static json_object *regs_json(const Flightrec__Regs *r)
{
	json_object *o = json_object_new_object();

#define R(n) jadd(o, #n, jhex(r->n))
	R(rax); R(rbx); R(rcx); R(rdx); R(rsi); R(rdi); R(rbp); R(rsp);
	R(r8); R(r9); R(r10); R(r11); R(r12); R(r13); R(r14); R(r15);
	R(rip); R(eflags); R(orig_rax); R(cs); R(ss); R(fs_base); R(gs_base);
#undef R
	return o;
}

static json_object *prot_json(uint32_t prot, uint32_t flags)
{
	char p[5];

	p[0] = prot & PROT_READ ? 'r' : '-';
	p[1] = prot & PROT_WRITE ? 'w' : '-';
	p[2] = prot & PROT_EXEC ? 'x' : '-';
	p[3] = flags & MAP_SHARED ? 's' : 'p';
	p[4] = 0;
	return json_object_new_string(p);
}

/*
 * The JSON goes out as it is made: each top-level member, and each element
 * of the long arrays (intervals, threads, maps), is serialized and freed
 * before the next is built, so that a file of many intervals or maps does
 * not become a tree of as many json-c objects at once (docs/security.md,
 * "Resource bounds").  The text is json-c's pretty form, indented as the
 * whole tree would be.
 */
#define JFLAGS	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
		 JSON_C_TO_STRING_NOSLASHESCAPE)

struct jout {
	FILE *f;
	size_t members, elems;
};

/* v's text, each line after the first indented by `indent` spaces; frees v */
static void jput(FILE *f, json_object *v, int indent)
{
	const char *t = json_object_to_json_string_ext(v, JFLAGS);

	for (; *t; t++) {
		fputc(*t, f);
		if (*t == '\n')
			fprintf(f, "%*s", indent, "");
	}
	json_object_put(v);
}

static void jmember_key(struct jout *j, const char *key)
{
	fprintf(j->f, "%s\n  \"%s\": ", j->members++ ? "," : "{", key);
}

static void jmember(struct jout *j, const char *key, json_object *v)
{
	jmember_key(j, key);
	jput(j->f, v, 2);
}

static void jarray_begin(struct jout *j, const char *key)
{
	jmember_key(j, key);
	fputc('[', j->f);
	j->elems = 0;
}

static void jelem(struct jout *j, json_object *v)
{
	fprintf(j->f, "%s\n    ", j->elems++ ? "," : "");
	jput(j->f, v, 4);
}

static void jarray_end(struct jout *j)
{
	fputs("\n  ]", j->f);	/* json-c's pretty "[\n  ]" when empty too */
}

static void maps_json(struct jout *j, const struct flrc *c)
{
	size_t i, k;

	jarray_begin(j, "maps");
	for (i = 0; i < c->n_maps; i++) {
		const Flightrec__Map *m = c->maps[i];
		json_object *o = json_object_new_object();
		char bid[2 * 64 + 1];

		jadd(o, "interval", ju(m->interval));
		jadd(o, "start", jhex(m->start));
		jadd(o, "end", jhex(m->end));
		jadd(o, "perms", prot_json(m->prot, m->flags));
		jadd(o, "prot", ju(m->prot));
		jadd(o, "flags", jhex(m->flags));
		if (m->has_offset)
			jadd(o, "offset", jhex(m->offset));
		if (m->has_inode)
			jadd(o, "inode", ju(m->inode));
		if (m->has_dev)
			jadd(o, "dev", jhex(m->dev));
		if (m->path)
			jadd(o, "path", jstr(m->path));
		if (m->has_build_id && m->build_id.len <= 64) {
			for (k = 0; k < m->build_id.len; k++)
				snprintf(bid + 2 * k, 3, "%02x", m->build_id.data[k]);
			bid[2 * k] = 0;
			jadd(o, "build_id", json_object_new_string(bid));
		}
		jelem(j, o);
	}
	jarray_end(j);
}

static void threads_json(struct jout *j, const struct flrc *c)
{
	size_t i;

	jarray_begin(j, "threads");
	for (i = 0; i < c->n_threads; i++) {
		const Flightrec__Thread *t = c->threads[i];
		json_object *o = json_object_new_object();

		jadd(o, "interval", ju(t->interval));
		jadd(o, "tid", ju(t->tid));
		jadd(o, "regs", regs_json(t->regs));
		if (t->has_sigmask)
			jadd(o, "sigmask", jhex(t->sigmask));
		if (t->has_in_syscall)
			jadd(o, "in_syscall", json_object_new_int(t->in_syscall));
		if (t->has_sas_sp) {
			jadd(o, "sigaltstack", jhex(t->sas_sp));
			jadd(o, "sigaltstack_size", ju(t->sas_size));
		}
		if (t->has_rseq)
			jadd(o, "rseq", jhex(t->rseq));
		if (t->has_robust_list)
			jadd(o, "robust_list", jhex(t->robust_list));
		if (t->xsave)
			jadd(o, "xsave_components", ju(t->xsave->n_components));
		jelem(j, o);
	}
	jarray_end(j);
}

/* How the recording ended (info --json, log --json). */
static json_object *end_json(const Flightrec__End *e)
{
	json_object *o = json_object_new_object();

	jadd(o, "kind", jstr(end_kind_name(e->kind)));
	if (e->has_tid)
		jadd(o, "tid", ju(e->tid));
	if (e->has_signo) {
		jadd(o, "signo", ju(e->signo));
		jadd(o, "signal", jstr(fr_signal_name(e->signo)));
	}
	if (e->has_si_code) {
		jadd(o, "si_code", json_object_new_int(e->si_code));
		jadd(o, "si_code_name",
		     jstr(e->has_signo ? si_code_name(e->signo, e->si_code) : NULL));
	}
	if (e->has_fault_addr)
		jadd(o, "fault_addr", jhex(e->fault_addr));
	if (e->has_exit_code)
		jadd(o, "exit_code", ju(e->exit_code));
	if (e->regs)
		jadd(o, "regs", regs_json(e->regs));
	if (e->has_last_seq)
		jadd(o, "last_seq", ju(e->last_seq));
	return o;
}

static int info_json(const char *path, const struct facts *f, uint64_t size)
{
	const struct flrc *c = f->c;
	const Flightrec__Header *h = c->hdr;
	const Flightrec__SystemInfo *s = h->system;
	const Flightrec__ProcessInfo *p = h->process;
	const Flightrec__End *e = c->end;
	struct jout j = { .f = stdout };
	json_object *o, *a, *b;
	char vendor[13];
	size_t i;
	int k;

	jmember(&j, "file", jstr(path));
	jmember(&j, "size", ju(size));
	if (c->before_exec) {
		const struct flrc *b4;

		/* the images before the execs, newest first: replay goes through them */
		jarray_begin(&j, "before_exec");
		for (b4 = c->before_exec; b4; b4 = b4->before_exec) {
			const Flightrec__Header *bh = b4->hdr;

			o = json_object_new_object();
			jadd(o, "exe", jstr(bh->process->exe));
			jadd(o, "comm", jstr(bh->process->comm));
			jadd(o, "first_interval", ju(bh->intervals[0]->index));
			jadd(o, "last_interval", ju(bh->intervals[bh->n_intervals - 1]->index));
			jadd(o, "end", end_json(b4->end));
			jelem(&j, o);
		}
		jarray_end(&j);
	}
	jmember(&j, "format", ju(h->format_version));
	jmember(&j, "tool_version", jstr(h->tool_version));
	jmember(&j, "assembled_on", jstr(h->assembled_on));
	jmember(&j, "created_unix_ns", ju(h->created_unix_ns));
	if (h->has_abi_version)
		jmember(&j, "abi_version", ju(h->abi_version));
	if (h->has_dump_id)
		jmember(&j, "dump_id", ju(h->dump_id));

	o = json_object_new_object();
	jadd(o, "sysname", jstr(s->sysname));
	jadd(o, "nodename", jstr(s->nodename));
	jadd(o, "release", jstr(s->release));
	jadd(o, "version", jstr(s->version));
	jadd(o, "machine", jstr(s->machine));
	cpu_vendor(s, vendor);
	jadd(o, "cpu_vendor", vendor[0] ? jstr(vendor) : NULL);
	jadd(o, "xcr0", jhex(s->xcr0));
	a = json_object_new_array();
	for (k = 0; k < 64; k++) {
		const char *n = flrc_xsave_component_name(k);
		char nb[24];

		if (!(s->xcr0 & (1ull << k)))
			continue;
		snprintf(nb, sizeof(nb), "component %d", k);
		json_object_array_add(a, json_object_new_string(n ? n : nb));
	}
	jadd(o, "xsave_components", a);
	jadd(o, "cpuid_leaves", ju(s->n_cpuid));
	jadd(o, "cpuid_local_leaves", ju(s->n_cpuid_local));
	jmember(&j, "system", o);

	o = json_object_new_object();
	jadd(o, "pid", ju(p->pid));
	jadd(o, "ppid", ju(p->ppid));
	jadd(o, "comm", jstr(p->comm));
	jadd(o, "cpuid_sites", ju(p->n_cpuid_sites));
	jadd(o, "exe", jstr(p->exe));
	a = json_object_new_array();
	for (i = 0; i < p->n_argv; i++)
		json_object_array_add(a, jstr(p->argv[i]));
	jadd(o, "argv", a);
	jmember(&j, "process", o);

	jarray_begin(&j, "intervals");
	for (i = 0; i < h->n_intervals; i++) {
		const Flightrec__IntervalInfo *iv = h->intervals[i];
		size_t nt = f->ivs[i].threads;

		o = json_object_new_object();
		jadd(o, "index", ju(iv->index));
		jadd(o, "start_ns", ju(iv->start_ns));
		jadd(o, "end_ns", ju(iv->end_ns));
		jadd(o, "flags", jhex(iv->flags));
		jadd(o, "nr_syscalls", ju(iv->nr_syscalls));
		jadd(o, "lost", ju(iv->lost));
		jadd(o, "threads", ju(nt));
		jadd(o, "pages", ju(f->ivs[i].pages.pages));
		jadd(o, "stored_bytes", ju(f->ivs[i].pages.stored));
		jadd(o, "dirtied_pages", ju(f->ivs[i].dirtied.pages));
		jadd(o, "dirtied_stored_bytes", ju(f->ivs[i].dirtied.stored));
		jadd(o, "syscall_out_bytes", ju(f->ivs[i].out_bytes));
		jelem(&j, o);
	}
	jarray_end(&j);
	a = json_object_new_array();
	for (i = 0; i < f->n_tids; i++)
		json_object_array_add(a, ju(f->tids[i]));
	jmember(&j, "tids", a);
	threads_json(&j, c);
	maps_json(&j, c);
	jmember(&j, "build_ids", ju(f->n_build_ids));

	o = json_object_new_object();
	jadd(o, "total", ju(c->n_pages));
	jadd(o, "stored", ju(f->n_data));
	jadd(o, "same", ju(f->n_same));
	jadd(o, "zero", ju(f->n_zero));
	b = json_object_new_object();
	for (k = 0; k < NR_PK; k++) {
		json_object *kk = json_object_new_object();

		jadd(kk, "pages", ju(f->kind[k].pages));
		jadd(kk, "bytes", ju(k == PK_ZERO ? 0 : f->kind[k].pages * FLRC_PAGE_SIZE));
		jadd(kk, "stored_bytes", ju(f->kind[k].stored));
		jadd(b, pkind_names[k], kk);
	}
	jadd(o, "by_kind", b);
	b = json_object_new_object();
	jadd(b, "pages", ju(f->read.pages));
	jadd(b, "stored_bytes", ju(f->read.stored));
	jadd(o, "read", b);
	b = json_object_new_object();
	jadd(b, "pages", ju(f->written.pages));
	jadd(b, "stored_bytes", ju(f->written.stored));
	jadd(o, "dirtied", b);
	jmember(&j, "pages", o);

	o = json_object_new_object();
	jadd(o, "total", ju(c->n_syscalls));
	jadd(o, "out_bytes", ju(f->out_bytes));
	jadd(o, "in_hash_sockaddr", ju(f->sc_in_hash_sa));
	jadd(o, "in_hash_full", ju(f->sc_in_hash_full));
	jadd(o, "in_hash_words", ju(f->sc_in_hash_w));
	jadd(o, "rseq_notes", ju(f->sc_rseq));
	b = json_object_new_object();
	for (i = 0; i < f->n_sc; i++) {
		char nb[32];

		jadd(b, sc_name(f->sc[i].nr, nb, sizeof(nb)), ju(f->sc[i].n));
	}
	jadd(o, "by_name", b);
	jmember(&j, "syscalls", o);

	jmember(&j, "end", end_json(e));
	a = json_object_new_array();
	not_replayable(f, say_json, a);
	jmember(&j, "may_not_replay", a);

	fputs("\n}\n", stdout);
	return ferror(stdout) ? -1 : 0;
}

static void usage_info(FILE *f)
{
	fr_usage(f, "info");
}

int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct facts f;
	struct flrc *c;
	bool json = false;
	int o, ret;

	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (o) {
		case 'j':
			json = true;
			break;
		case 'h':
			usage_info(stdout);
			return FR_EXIT_OK;
		default:
			usage_info(stderr);
			return FR_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		usage_info(stderr);
		return FR_EXIT_USAGE;
	}
	ret = open_file(argv[optind], &c);
	if (ret)
		return ret;
	if (gather(&f, c)) {
		fprintf(stderr, "flightrec: out of memory\n");
		ret = FR_EXIT_FAIL;
		goto out;
	}
	/* what was read, not what stat() says now (a pipe has no size) */
	if (json) {
		info_json(argv[optind], &f, c->file_size);
	} else {
		const struct flrc *v[FLIGHTREC_KEEP_MAX], *b4;
		size_t n = 0, k;

		/* a recording through execs: each image, the oldest first */
		for (b4 = c; b4 && n < FLIGHTREC_KEEP_MAX; b4 = b4->before_exec)
			v[n++] = b4;
		for (k = n; k-- > 1;) {
			struct facts fb;

			printf("== image %zu of %zu, before an exec\n", n - k, n);
			if (gather(&fb, v[k])) {
				fprintf(stderr, "flightrec: out of memory\n");
				ret = FR_EXIT_FAIL;
				goto out;
			}
			info_text(argv[optind], &fb, c->file_size);
			facts_free(&fb);
			printf("\n");
		}
		if (n > 1)
			printf("== image %zu of %zu, the last\n", n, n);
		info_text(argv[optind], &f, c->file_size);
	}
out:
	facts_free(&f);
	flrc_free(c);
	if (fflush(stdout) || ferror(stdout))
		return FR_EXIT_FAIL;
	return ret;
}

/* ------------------------------------------------------------------ */
/* log */

/* Memory at the start of one interval, read from the checkpoint's pages. */
struct iv_reader {
	const struct flrc *c;
	uint32_t interval;
	uint64_t loaded;		/* the page in page[], or 1: none */
	uint8_t page[FLRC_PAGE_SIZE];
};

static int iv_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct iv_reader *r = ctx;
	uint8_t *out = buf;

	while (len) {
		uint64_t pa = addr & ~(uint64_t)(FLRC_PAGE_SIZE - 1);
		size_t off = addr - pa, n = FLRC_PAGE_SIZE - off;
		const struct flrc_page *p;

		if (n > len)
			n = len;
		if (pa != r->loaded) {
			p = flrc_page_at(r->c, r->interval, pa);
			if (!p || flrc_page_load(r->c, p, r->page)) {
				r->loaded = 1;
				return -1;
			}
			r->loaded = pa;
		}
		memcpy(out, r->page + off, n);
		out += n;
		addr += n;
		len -= n;
	}
	return 0;
}

/*
 * The data a call passed in (its path, the buffer it wrote), read from the
 * pages of its interval: those hold the bytes of the interval's start, the
 * same as at the call unless the program changed them in between.  Shown
 * only when they hash to the call's recorded in_hash, that is when they
 * are exactly what the kernel read.  Returns the views filled (at most 2),
 * each with its own malloc'd bytes.
 */
static size_t log_ins(const struct flrc *c, const Flightrec__Syscall *s,
		      const uint64_t args[6], struct fr_out_view *v)
{
	const struct fr_syscall *sc = fr_syscall(s->nr);
	struct iv_reader *r;
	size_t n = 0;
	int i;

	/* the strings the recorder kept (FLIGHTREC_OUT_ARG_IN): as the call read them */
	for (i = 0; sc && i < (int)s->n_out && n < 2; i++) {
		const Flightrec__OutBuf *o = s->out[i];
		uint8_t *data;

		if (!FLIGHTREC_OUT_IS_IN(o->arg) || !o->data.len)
			continue;
		data = malloc(o->data.len);
		if (!data)
			break;
		memcpy(data, o->data.data, o->data.len);
		v[n].arg = o->arg & 7;
		v[n].addr = o->addr;
		v[n].data = data;
		v[n].len = o->data.len;
		n++;
	}
	if (n)
		return n;
	if (!c || !sc ||
	    !(s->has_in_hash || s->has_in_hash_sa || s->has_in_hash_full || s->has_in_hash_w) ||
	    sc->in[0].kind == FR_SZ_NONE)
		return 0;
	r = malloc(sizeof(*r));
	if (!r)
		return 0;
	r->c = c;
	r->interval = s->interval;
	r->loaded = 1;
	if (s->has_in_hash_w ?
	    fr_in_hash_desc(sc->in, args, FR_IN_RULE_WORDS, iv_read, r) != s->in_hash_w :
	    s->has_in_hash_full ?
	    fr_in_hash_rule(sc->in, args, FR_IN_RULE_FULL, (uint64_t)s->ret, iv_read, r) !=
	    s->in_hash_full :
	    s->has_in_hash_sa ?
	    fr_in_hash_desc(sc->in, args, FR_IN_RULE_SOCKADDR, iv_read, r) != s->in_hash_sa :
	    fr_in_hash_desc(sc->in, args, FR_IN_RULE_BYTES, iv_read, r) != s->in_hash)
		goto out;
	for (i = 0; i < 2; i++) {
		const struct fr_data_desc *d = &sc->in[i];
		uint64_t a = args[d->arg % 6], len = 0;
		uint8_t *data;

		if (!a)
			continue;
		if (d->kind == FR_SZ_STR)
			len = 4096;
		else if (d->kind == FR_SZ_FIXED)
			len = d->p1;
		else if (d->kind == FR_SZ_ARG || d->kind == FR_SZ_SOCKADDR)
			len = args[d->p1 % 6] * (d->p2 ? d->p2 : 1);
		if (!len)
			continue;	/* iovecs, msghdrs: not shown */
		if (s->has_in_hash_full && i == 0 && len > (uint64_t)s->ret)
			len = (uint64_t)s->ret;	/* what it took */
		if (len > FR_IN_HASH_MAX)
			len = FR_IN_HASH_MAX;	/* shown */
		data = malloc(len);
		if (!data)
			break;
		if (d->kind == FR_SZ_STR) {
			uint64_t k;

			/*
			 * With its NUL: a string cut at 4096 bytes shows "...".
			 * Not when a page is missing: the hash of what could
			 * be read may still match (a read error ends the hash).
			 */
			for (k = 0; k < len; k++) {
				if (iv_read(r, a + k, data + k, 1)) {
					k = len + 1;
					break;
				}
				if (!data[k])
					break;
			}
			if (k > len) {
				free(data);
				continue;
			}
			len = k < len ? k + 1 : k;
		} else if (iv_read(r, a, data, len)) {
			free(data);
			continue;
		}
		v[n].arg = d->arg;
		v[n].addr = a;
		v[n].data = data;
		v[n].len = len;
		n++;
	}
out:
	free(r);
	return n;
}

static void log_one(FILE *out, const struct flrc *c, const Flightrec__Syscall *s,
		    unsigned int flags, bool with_seq, const char *const *fdpaths);

/*
 * One call as a JSON object of log --json: its numbers, and the text of
 * its line, decoded as the text log decodes it.
 */
static void log_one_json(const struct flrc *c, const Flightrec__Syscall *s,
			 unsigned int flags, const char *const *fdpaths,
			 struct jout *j)
{
	const struct fr_syscall *sc = fr_syscall(s->nr);
	json_object *o = json_object_new_object(), *a;
	char *text = NULL, nb[32];
	size_t len = 0, i;
	FILE *m;

	jadd(o, "seq", ju(s->seq));
	jadd(o, "tid", ju(s->tid));
	jadd(o, "interval", ju(s->interval));
	jadd(o, "nr", ju(s->nr));
	if (fr_pseudo_name(s->nr)) {
		jadd(o, "name", jstr(fr_pseudo_name(s->nr)));
	} else if (sc) {
		jadd(o, "name", jstr(sc->name));
	} else {
		snprintf(nb, sizeof(nb), "syscall_%u", s->nr);
		jadd(o, "name", jstr(nb));
	}
	a = json_object_new_array();
	for (i = 0; i < s->n_args; i++)
		json_object_array_add(a, jhex(s->args[i]));
	jadd(o, "args", a);
	jadd(o, "ret", json_object_new_int64(s->ret));
	if (s->has_time_ns)
		jadd(o, "time_ns", ju(s->time_ns));
	jadd(o, "returned", json_object_new_boolean(!(s->flags & (FLIGHTREC_SC_NO_RETURN |
								 FLIGHTREC_SC_UNFINISHED))));
	if (s->flags & FLIGHTREC_SC_UNFINISHED)
		jadd(o, "unfinished", json_object_new_boolean(true));
	if (s->has_in_hash_w) {
		jadd(o, "in_hash", jhex(s->in_hash_w));
		jadd(o, "in_hash_rule", jstr("words"));
	} else if (s->has_in_hash_full) {
		jadd(o, "in_hash", jhex(s->in_hash_full));
		jadd(o, "in_hash_rule", jstr("full"));
	} else if (s->has_in_hash || s->has_in_hash_sa) {
		jadd(o, "in_hash", jhex(s->has_in_hash_sa ? s->in_hash_sa : s->in_hash));
		jadd(o, "in_hash_rule", jstr(s->has_in_hash_sa ? "sockaddr" : "bytes"));
	}
	if (s->has_rseq_cpu) {
		a = json_object_new_object();
		jadd(a, "cpu", ju(s->rseq_cpu));
		if (s->has_rseq_node && s->has_rseq_mm_cid) {
			jadd(a, "node", ju(s->rseq_node));
			jadd(a, "mm_cid", ju(s->rseq_mm_cid));
		}
		jadd(o, "rseq", a);
	}
	m = open_memstream(&text, &len);
	if (m) {
		log_one(m, c, s, flags | FR_SD_NOTID, false, fdpaths);
		if (!fclose(m) && text) {
			/* the line, and the notes line after it ("# out-buffer ...") */
			while (len && text[len - 1] == '\n')
				text[--len] = 0;
			jadd(o, "text", jstr(text));
		}
	}
	free(text);
	jelem(j, o);
}

/*
 * Whether the call's address passed in was hashed by the sockaddr rule
 * (FR_IN_RULE_SOCKADDR, or FR_IN_RULE_WORDS, which hashes addresses alike).
 */
static bool sa_rule(const Flightrec__Syscall *s)
{
	const struct fr_syscall *sc = fr_syscall(s->nr);

	return s->has_in_hash_sa || (s->has_in_hash_w && sc && fr_in_has_sockaddr(sc->in));
}

static void log_one(FILE *out, const struct flrc *c, const Flightrec__Syscall *s,
		    unsigned int flags, bool with_seq, const char *const *fdpaths)
{
	struct fr_out_view v[16], ins[2];
	uint64_t args[6] = { 0 };
	size_t i, nin, n = 0;

	if (s->n_args)	/* no arguments: args is NULL */
		memcpy(args, s->args, (s->n_args < 6 ? s->n_args : 6) * sizeof(*args));
	for (i = 0; i < s->n_out && n < 16; i++) {
		if (FLIGHTREC_OUT_IS_IN(s->out[i]->arg))
			continue;	/* log_ins() */
		v[n].arg = s->out[i]->arg;
		v[n].addr = s->out[i]->addr;
		v[n].data = s->out[i]->data.data;
		v[n].len = s->out[i]->data.len;
		n++;
	}
	/* unfinished: still inside at the end ("= ?") */
	if (s->flags & (FLIGHTREC_SC_NO_RETURN | FLIGHTREC_SC_UNFINISHED))
		flags |= FR_SD_NORET;
	if (s->flags & FLIGHTREC_SC_REAL_NR)
		flags |= FR_SD_REAL_NR;
	if (with_seq)
		fprintf(out, "%6" PRIu64 " ", s->seq);
	nin = log_ins(c, s, args, ins);
	fr_sysdecode_print_io(out, s->tid, s->nr, args, s->ret, ins, nin, v, n,
			      flags, fdpaths);
	for (i = 0; i < nin; i++)
		free((void *)ins[i].data);
	if ((s->flags & (FLIGHTREC_SC_TRUNCATED | FLIGHTREC_SC_COPY_FAILED |
			 FLIGHTREC_SC_UNKNOWN_OUT | FLIGHTREC_SC_NODUMP)) ||
	    sa_rule(s) || s->has_in_hash_full || s->has_rseq_cpu) {
		const char *sep = "";

		fprintf(out, "%s       #", with_seq ? "      " : "");
		if (s->flags & FLIGHTREC_SC_TRUNCATED) {
			fprintf(out, "%s out-buffer cut at the size limit", sep);
			sep = ";";
		}
		if (s->flags & FLIGHTREC_SC_COPY_FAILED) {
			fprintf(out, "%s out-buffer unreadable", sep);
			sep = ";";
		}
		if (s->flags & FLIGHTREC_SC_NODUMP) {
			fprintf(out, "%s out-buffer in MADV_DONTDUMP memory: not in the dump", sep);
			sep = ";";
		}
		if (s->flags & FLIGHTREC_SC_UNKNOWN_OUT) {
			fprintf(out, "%s out-semantics unknown", sep);
			sep = ";";
		}
		/* which rule the data passed in was checked by (uapi/flightrec_inhash.h) */
		if (sa_rule(s)) {
			fprintf(out, "%s data passed in hashed by the sockaddr rule "
				"(a unix socket's path up to its NUL)", sep);
			sep = ";";
		}
		if (s->has_in_hash_full) {
			const struct fr_syscall *sc = fr_syscall(s->nr);
			bool msgs = sc && sc->in[0].kind == FR_SZ_MMSGHDR;

			fprintf(out, "%s data passed in hashed whole by the full rule "
				"(the %" PRId64 " %s it took)", sep, s->ret,
				msgs ? "messages" : "bytes");
			sep = ";";
		}
		/* what the kernel wrote into the thread's rseq area after the call */
		if (s->has_rseq_cpu) {
			fprintf(out, "%s rseq area: cpu %u", sep, s->rseq_cpu);
			if (s->has_rseq_node && s->has_rseq_mm_cid)
				fprintf(out, ", node %u, mm_cid %u", s->rseq_node, s->rseq_mm_cid);
		}
		fputc('\n', out);
	}
}

static void log_end(const Flightrec__End *e)
{
	switch (e->kind) {
	case FLIGHTREC_END_FAULT:
		printf("+++ %u killed by %s", e->tid,
		       e->has_signo ? fr_signal_name(e->signo) ?: "a signal" : "a signal");
		if (e->has_fault_addr)
			printf(" at %#" PRIx64, e->fault_addr);
		if (e->regs)
			printf(", rip %#" PRIx64, e->regs->rip);
		printf(" +++\n");
		break;
	case FLIGHTREC_END_EXIT:
		printf("+++ exited with %u +++\n", e->has_exit_code ?
		       (e->exit_code >> 8) & 0xff : 0);
		break;
	case FLIGHTREC_END_DUMP:
		printf("+++ dumped +++\n");
		break;
	case FLIGHTREC_END_EXEC:
		printf("+++ %u calls %s: the next image follows +++\n", e->tid,
		       e->regs && (uint32_t)e->regs->rax == __NR_execveat ? "execveat" : "execve");
		break;
	default:
		printf("+++ end unknown +++\n");
	}
}

/*
 * The syscall records grouped by thread, threads in f->tids order, records
 * in file order within each: (thread position << 32 | record index) sorted.
 * O(n log n), where one pass over the log per thread would be quadratic.
 */
static uint64_t *by_thread(const struct facts *f)
{
	const struct flrc *c = f->c;
	uint64_t *pos = malloc((f->n_tids + 1) * sizeof(*pos));
	uint64_t *v = malloc((c->n_syscalls + 1) * sizeof(*v));
	size_t i;

	if (!pos || !v) {
		free(pos);
		free(v);
		return NULL;
	}
	for (i = 0; i < f->n_tids; i++)		/* tid -> its position */
		pos[i] = (uint64_t)f->tids[i] << 32 | i;
	qsort(pos, f->n_tids, sizeof(*pos), cmp_u64);
	for (i = 0; i < c->n_syscalls; i++) {
		uint64_t key = (uint64_t)c->syscalls[i]->tid << 32;
		size_t lo = 0, hi = f->n_tids;

		while (lo < hi) {	/* every tid is there: collect_tids */
			size_t mid = lo + (hi - lo) / 2;

			if (pos[mid] >> 32 < key >> 32)
				lo = mid + 1;
			else
				hi = mid;
		}
		v[i] = (pos[lo] & 0xffffffffull) << 32 | i;
	}
	qsort(v, c->n_syscalls, sizeof(*v), cmp_u64);
	free(pos);
	return v;
}

static void usage_log(FILE *f)
{
	fr_usage(f, "log");
	fprintf(f,
		"  The recorded syscalls, strace-style, in the order they happened\n"
		"  (sequence number, then thread id), or with --by-thread thread by\n"
		"  thread (--merged, the default order, is accepted as before).\n"
		"  --full shows buffers whole.  -e trace=SET shows only the calls\n"
		"  of SET, as strace's: names and classes (%%file %%desc %%process\n"
		"  %%memory %%signal), comma-separated, all negated by a leading '!'.\n"
		"  --json: one JSON document, the calls in the order they happened.\n"
		"  -y (--decode-fds): file descriptors with their paths, 3</etc/passwd>,\n"
		"  where the log shows which path the descriptor was opened on.\n"
		"  -r (--relative-timestamps): each line starts with the time since the\n"
		"  previous line's call began (strace -r).\n"
		"  Paths and buffers passed in are shown where the checkpoint's pages\n"
		"  hold exactly the bytes the call read (checked against its\n"
		"  recorded hash), otherwise as addresses.  With a PID instead of a\n"
		"  FILE: the live ring of that recorded process, in sequence order.\n");
}

/*
 * The calls -e trace=SET selects: a bit per syscall number.  Signals and
 * rdtsc records are shown whatever the set, as strace shows signals.
 */
#define TRACE_NR_MAX	1023

struct trace_set {
	bool on;			/* a set was given */
	uint8_t bit[(TRACE_NR_MAX + 1) / 8];
};

static bool trace_has(const struct trace_set *t, uint32_t nr)
{
	if (!t->on || fr_pseudo_name(nr))
		return true;
	if (nr > TRACE_NR_MAX)
		return false;
	return t->bit[nr / 8] & (1u << (nr % 8));
}

/* The calls of a class: %file (a path), %desc (an fd), %process ... */
static bool trace_class(const struct fr_syscall *sc, const char *cls)
{
	if (!strcmp(cls, "file"))
		return strchr(sc->argtypes, 's') != NULL;
	if (!strcmp(cls, "desc"))
		return strchr(sc->argtypes, 'd') != NULL;
	if (!strcmp(cls, "process"))
		return sc->flags & FR_F_PROCESS;
	if (!strcmp(cls, "memory"))
		return sc->flags & FR_F_ADDRSPACE;
	if (!strcmp(cls, "signal"))
		return sc->flags & (FR_F_SIGNAL | FR_F_SENDSIG);
	return false;
}

static bool trace_known_class(const char *cls)
{
	return !strcmp(cls, "file") || !strcmp(cls, "desc") ||
	       !strcmp(cls, "process") || !strcmp(cls, "memory") ||
	       !strcmp(cls, "signal");
}

/* "trace=SET" of -e; false (with a message) when SET is not understood. */
static bool trace_parse(struct trace_set *t, const char *arg)
{
	char *copy, *tok, *save = NULL;
	bool neg = false, ok = true;
	uint32_t nr;

	if (strncmp(arg, "trace=", 6)) {
		fprintf(stderr, "flightrec log: -e takes trace=SET, not '%s'\n", arg);
		return false;
	}
	arg += 6;
	if (*arg == '!') {
		neg = true;
		arg++;
	}
	copy = strdup(arg);
	if (!copy)
		return false;
	t->on = true;
	memset(t->bit, 0, sizeof(t->bit));
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (tok[0] == '%' && trace_known_class(tok + 1)) {
			for (nr = 0; nr <= TRACE_NR_MAX; nr++) {
				const struct fr_syscall *sc = fr_syscall(nr);

				if (sc && trace_class(sc, tok + 1))
					t->bit[nr / 8] |= 1u << (nr % 8);
			}
		} else if (fr_syscall_by_name(tok) >= 0 &&
			   fr_syscall_by_name(tok) <= TRACE_NR_MAX) {
			nr = fr_syscall_by_name(tok);
			t->bit[nr / 8] |= 1u << (nr % 8);
		} else {
			fprintf(stderr, "flightrec log: -e trace: '%s' is neither a system call "
				"of x86_64 nor a class (%%file %%desc %%process %%memory %%signal)\n",
				tok);
			ok = false;
			break;
		}
	}
	free(copy);
	if (neg)
		for (nr = 0; nr < sizeof(t->bit); nr++)
			t->bit[nr] ^= 0xff;
	return ok;
}

/*
 * log -y: the path each file descriptor names, as strace -y shows it, where
 * the log itself says: an open of a path the pages show (absolute, or
 * relative to a directory fd known so), followed through dup, fcntl
 * F_DUPFD, close, close_range and the close-on-exec of execve.  An fd
 * opened before the checkpoint's first record, or after a gap (an interval
 * that lost records or made 32-bit calls), stays a number.
 */
struct fdtab {
	const char **path;	/* by fd; NULL: unknown */
	bool *cloexec;
	size_t n;
	char **pool;		/* every path made, freed with the table */
	size_t npool, cappool;
};

#define FDTAB_MAX	(1u << 20)

static void fdtab_reset(struct fdtab *t)
{
	if (t->n) {
		memset(t->path, 0, t->n * sizeof(*t->path));
		memset(t->cloexec, 0, t->n * sizeof(*t->cloexec));
	}
}

static const char *fdtab_get(const struct fdtab *t, int64_t fd)
{
	return fd >= 0 && (uint64_t)fd < t->n ? t->path[fd] : NULL;
}

static void fdtab_set(struct fdtab *t, int64_t fd, const char *path, bool cloexec)
{
	size_t n;

	if (fd < 0 || fd >= FDTAB_MAX)
		return;
	if ((uint64_t)fd >= t->n) {
		const char **p;
		bool *ce;

		if (!path)
			return;
		n = t->n ? t->n : 64;
		while (n <= (uint64_t)fd)
			n *= 2;
		p = realloc(t->path, n * sizeof(*p));
		if (!p)
			return;
		t->path = p;
		ce = realloc(t->cloexec, n * sizeof(*ce));
		if (!ce)
			return;
		t->cloexec = ce;
		memset(t->path + t->n, 0, (n - t->n) * sizeof(*p));
		memset(t->cloexec + t->n, 0, (n - t->n) * sizeof(*ce));
		t->n = n;
	}
	t->path[fd] = path;
	t->cloexec[fd] = path && cloexec;
}

/* a path of the pool: freed with the table */
static const char *fdtab_keep(struct fdtab *t, char *path)
{
	char **p;

	if (!path)
		return NULL;
	if (t->npool == t->cappool) {
		t->cappool = t->cappool ? 2 * t->cappool : 64;
		p = realloc(t->pool, t->cappool * sizeof(*p));
		if (!p) {
			free(path);
			return NULL;
		}
		t->pool = p;
	}
	t->pool[t->npool++] = path;
	return path;
}

static void fdtab_free(struct fdtab *t)
{
	size_t i;

	for (i = 0; i < t->npool; i++)
		free(t->pool[i]);
	free(t->pool);
	free(t->path);
	free(t->cloexec);
}

/* The path an open call named, made absolute with its directory fd. */
static const char *fd_open_path(struct fdtab *t, const struct flrc *c,
				const Flightrec__Syscall *s, const uint64_t args[6],
				unsigned int path_arg, int dirfd_arg)
{
	struct fr_out_view ins[2];
	const char *dir = NULL;
	char *path = NULL;
	size_t nin, i, len;

	nin = log_ins(c, s, args, ins);
	for (i = 0; i < nin; i++) {
		if (ins[i].arg != path_arg || path)
			continue;
		len = strnlen((const char *)ins[i].data, ins[i].len);
		if (len == ins[i].len || !len)
			continue;	/* cut, or empty */
		if (ins[i].data[0] == '/') {
			path = strdup((const char *)ins[i].data);
		} else if (dirfd_arg >= 0 && (int32_t)args[dirfd_arg] != AT_FDCWD &&
			   (dir = fdtab_get(t, (int32_t)args[dirfd_arg]))) {
			if (asprintf(&path, "%s/%s", dir, (const char *)ins[i].data) < 0)
				path = NULL;
		}
	}
	for (i = 0; i < nin; i++)
		free((void *)ins[i].data);
	return fdtab_keep(t, path);
}

/*
 * The fd paths of every call of c, in the order they happened (c's order):
 * FR_SD_FDPATHS entries per call, or NULL when out of memory.
 */
static const char **fd_paths(const struct flrc *c, struct fdtab *t)
{
	const char **all = calloc(c->n_syscalls ? c->n_syscalls : 1,
				  FR_SD_FDPATHS * sizeof(*all));
	uint32_t iv = UINT32_MAX;
	size_t i, k;

	if (!all)
		return NULL;
	for (i = 0; i < c->n_syscalls; i++) {
		const Flightrec__Syscall *s = c->syscalls[i];
		const struct fr_syscall *sc = fr_syscall(s->nr);
		const char **names = all + i * FR_SD_FDPATHS;
		uint64_t a[6] = { 0 };
		const char *p = NULL;
		int64_t ret = s->ret;
		bool ok = !(s->flags & (FLIGHTREC_SC_NO_RETURN | FLIGHTREC_SC_UNFINISHED));

		if (s->interval != iv) {
			const Flightrec__IntervalInfo *info = flrc_interval(c, s->interval);

			/* a gap: what was learnt before may be wrong now */
			if (!info || (iv != UINT32_MAX && s->interval != iv + 1) ||
			    (info->flags & (FLIGHTREC_IF_LOST_RECORD |
					    FLIGHTREC_IF_FOREIGN_SYSCALL)))
				fdtab_reset(t);
			iv = s->interval;
		}
		if (!sc || (fr_pseudo_name(s->nr) && !(s->flags & FLIGHTREC_SC_REAL_NR)))
			continue;
		if (s->n_args)
			memcpy(a, s->args, (s->n_args < 6 ? s->n_args : 6) * sizeof(*a));
		for (k = 0; k < sc->nargs && k < 6; k++)
			if (sc->argtypes[k] == 'd' ||
			    (sc->argtypes[k] == 'D' && (int32_t)a[k] != AT_FDCWD))
				names[k] = fdtab_get(t, (int32_t)a[k]);
		if (!ok)
			continue;
		switch (s->nr) {
		case __NR_open:
		case __NR_creat:
		case __NR_openat:
		case __NR_openat2:
			if (ret < 0)
				break;
			if (s->nr == __NR_open || s->nr == __NR_creat)
				p = fd_open_path(t, c, s, a, 0, -1);
			else
				p = fd_open_path(t, c, s, a, 1, 0);
			fdtab_set(t, ret, p,
				  (s->nr == __NR_open && (a[1] & O_CLOEXEC)) ||
				  (s->nr == __NR_openat && (a[2] & O_CLOEXEC)));
			names[6] = p;
			break;
		case __NR_close:
			if (ret == 0)
				fdtab_set(t, (int32_t)a[0], NULL, false);
			break;
		case __NR_close_range:
			if (ret != 0)
				break;
			for (k = a[0]; k <= a[1] && k < t->n; k++) {
				if (a[2] & CLOSE_RANGE_CLOEXEC)
					t->cloexec[k] = t->path[k] != NULL;
				else
					t->path[k] = NULL;
			}
			break;
		case __NR_dup:
		case __NR_dup2:
		case __NR_dup3:
			if (ret < 0)
				break;
			p = fdtab_get(t, (int32_t)a[0]);
			fdtab_set(t, ret, p, s->nr == __NR_dup3 && (a[2] & O_CLOEXEC));
			names[6] = p;
			break;
		case __NR_fcntl:
			if (ret < 0)
				break;
			if (a[1] == F_DUPFD || a[1] == F_DUPFD_CLOEXEC) {
				p = fdtab_get(t, (int32_t)a[0]);
				fdtab_set(t, ret, p, a[1] == F_DUPFD_CLOEXEC);
				names[6] = p;
			} else if (a[1] == F_SETFD && fdtab_get(t, (int32_t)a[0])) {
				t->cloexec[(int32_t)a[0]] = a[2] & FD_CLOEXEC;
			}
			break;
		case __NR_execve:
		case __NR_execveat:
			if (ret != 0)
				break;
			for (k = 0; k < t->n; k++)
				if (t->cloexec[k])
					t->path[k] = NULL;
			break;
		default:
			break;
		}
	}
	return all;
}

/*
 * -r: the time since the previous line's call, at the start of the line, as
 * strace -r shows it; "?" for a call recorded without a time.
 */
static void log_time(const Flightrec__Syscall *s, bool on, uint64_t *prev)
{
	uint64_t d;

	if (!on)
		return;
	if (!s->has_time_ns) {
		printf("%14s ", "?");
		return;
	}
	d = *prev && s->time_ns >= *prev ? s->time_ns - *prev : 0;
	*prev = s->time_ns;
	printf("%7" PRIu64 ".%06" PRIu64 " ", d / 1000000000, d % 1000000000 / 1000);
}

int cmd_log(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "merged", no_argument, NULL, 'm' },
		{ "by-thread", no_argument, NULL, 'T' },
		{ "tid", required_argument, NULL, 't' },
		{ "full", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "decode-fds", no_argument, NULL, 'y' },
		{ "relative-timestamps", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static struct trace_set trace;
	struct flrc *imgs[FLIGHTREC_KEEP_MAX] = { 0 }, *c_next;
	struct jout j = { .f = stdout };
	size_t n_img = 0;
	struct fdtab fdt = { 0 };
	const char **fdp = NULL;
	unsigned int flags = 0;
	bool merged = true, json = false, fds = false, rel = false;
	uint64_t prev_ns = 0;
	long only = -1;
	struct facts f;
	struct flrc *c;
	size_t i, t;
	int o, ret;

	trace.on = false;
	while ((o = getopt_long(argc, argv, "mTt:fe:yrh", opts, NULL)) != -1) {
		switch (o) {
		case 'm':
			merged = true;
			break;
		case 'T':
			merged = false;
			break;
		case 'y':
			fds = true;
			break;
		case 'r':
			rel = true;
			break;
		case 'j':
			json = true;
			break;
		case 'e':
			if (!trace_parse(&trace, optarg)) {
				usage_log(stderr);
				return FR_EXIT_USAGE;
			}
			break;
		case 't': {
			uint32_t tid;

			if (!fr_parse_u32(optarg, 1, INT_MAX, &tid)) {
				fprintf(stderr, "flightrec log: --tid needs a thread id, not '%s'\n",
					optarg);
				usage_log(stderr);
				return FR_EXIT_USAGE;
			}
			only = tid;
			break;
		}
		case 'f':
			flags |= FR_SD_FULL;
			break;
		case 'h':
			usage_log(stdout);
			return FR_EXIT_OK;
		default:
			usage_log(stderr);
			return FR_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		usage_log(stderr);
		return FR_EXIT_USAGE;
	}
	/* a number that is not a file: the live ring of that process */
	if (argv[optind][0] && strspn(argv[optind], "0123456789") == strlen(argv[optind]) &&
	    access(argv[optind], F_OK)) {
		uint32_t pid;

		if (!fr_parse_u32(argv[optind], 1, INT_MAX, &pid)) {
			fprintf(stderr, "flightrec log: '%s' is neither a file nor a process id\n",
				argv[optind]);
			return FR_EXIT_USAGE;
		}
		if (trace.on || json || fds || rel) {
			fprintf(stderr, "flightrec log: -e trace=, --json, -y and -r apply to a "
				"checkpoint FILE, not to a live ring\n");
			return FR_EXIT_USAGE;
		}
		return fr_log_live(pid, flags);
	}
	ret = open_file(argv[optind], &c);
	if (ret)
		return ret;
	/* a recording through execs: each image's calls, the oldest first */
	for (c_next = c; c_next && n_img < FLIGHTREC_KEEP_MAX; c_next = c_next->before_exec)
		imgs[n_img++] = c_next;
	if (json) {
		jmember(&j, "file", jstr(argv[optind]));
		jarray_begin(&j, "calls");
	}
	memset(&f, 0, sizeof(f));
next_image:
	c = imgs[--n_img];
	if (gather(&f, c) || (fds && !(fdp = fd_paths(c, &fdt)))) {
		fprintf(stderr, "flightrec: out of memory\n");
		ret = FR_EXIT_FAIL;
		c = imgs[0];
		goto out;
	}
#define FDP(i) (fdp ? fdp + (size_t)(i) * FR_SD_FDPATHS : NULL)
	if (json) {
		for (i = 0; i < c->n_syscalls; i++)
			if ((only < 0 || c->syscalls[i]->tid == only) &&
			    trace_has(&trace, c->syscalls[i]->nr))
				log_one_json(c, c->syscalls[i], flags, FDP(i), &j);
		if (n_img)
			goto image_done;
		jarray_end(&j);
		jmember(&j, "end", end_json(c->end));
		fputs("\n}\n", stdout);
		goto out;
	}
	if (merged) {
		for (i = 0; i < c->n_syscalls; i++)
			if ((only < 0 || c->syscalls[i]->tid == only) &&
			    trace_has(&trace, c->syscalls[i]->nr)) {
				log_time(c->syscalls[i], rel, &prev_ns);
				log_one(stdout, c, c->syscalls[i], flags, true, FDP(i));
			}
	} else {
		uint64_t *by_tid = by_thread(&f);

		if (!by_tid) {
			fprintf(stderr, "flightrec: out of memory\n");
			ret = FR_EXIT_FAIL;
			goto out;
		}
		for (t = 0, i = 0; t < f.n_tids; t++) {
			uint32_t tid = f.tids[t];
			size_t n = 0, k;

			while (i + n < c->n_syscalls && by_tid[i + n] >> 32 == t)
				n++;
			if (only < 0 || tid == only) {
				printf("%s== thread %u: %zu syscall%s ==\n", t ? "\n" : "",
				       tid, n, n == 1 ? "" : "s");
				prev_ns = 0;
				for (k = i; k < i + n; k++) {
					const Flightrec__Syscall *s =
						c->syscalls[(uint32_t)by_tid[k]];

					if (!trace_has(&trace, s->nr))
						continue;
					log_time(s, rel, &prev_ns);
					log_one(stdout, c, s, flags | FR_SD_NOTID, false,
						FDP((uint32_t)by_tid[k]));
				}
			}
			i += n;
		}
		free(by_tid);
		putchar('\n');
	}
	log_end(c->end);
image_done:
	if (n_img) {
		free(fdp);
		fdp = NULL;
		fdtab_free(&fdt);
		memset(&fdt, 0, sizeof(fdt));
		facts_free(&f);
		memset(&f, 0, sizeof(f));
		goto next_image;
	}
#undef FDP
out:
	free(fdp);
	fdtab_free(&fdt);
	facts_free(&f);
	flrc_free(imgs[0] ? imgs[0] : c);
	if (fflush(stdout) || ferror(stdout))
		return FR_EXIT_FAIL;
	return ret;
}

/* ------------------------------------------------------------------ */
/* extract */

#define EXTRACT_MAX	(64u << 20)

static void usage_extract(FILE *f)
{
	fr_usage(f, "extract");
	fprintf(f,
		"  The process's memory at ADDR (hex with 0x, or decimal), LEN bytes,\n"
		"  as it was at the start of interval N (default: the first in the\n"
		"  file): a hex dump, or the bytes themselves with --raw.  Bytes of\n"
		"  pages the checkpoint does not hold are \"??\" (--raw refuses them).\n");
}

int cmd_extract(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "raw", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static uint8_t page[FLRC_PAGE_SIZE];
	uint64_t addr, len, a, missing = 0, first_missing = 0;
	uint32_t from = 0;
	bool raw = false, has_from = false;
	uint8_t *buf = NULL, *have = NULL;
	struct flrc *c;
	int o, ret;
	size_t i, j;

	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (o) {
		case 'i':
			if (!fr_parse_u32(optarg, 0, UINT32_MAX, &from)) {
				fprintf(stderr, "flightrec extract: --interval takes a decimal "
					"number, not '%s'\n", optarg);
				return FR_EXIT_USAGE;
			}
			has_from = true;
			break;
		case 'r':
			raw = true;
			break;
		case 'h':
			usage_extract(stdout);
			return FR_EXIT_OK;
		default:
			usage_extract(stderr);
			return FR_EXIT_USAGE;
		}
	}
	if (optind != argc - 3) {
		usage_extract(stderr);
		return FR_EXIT_USAGE;
	}
	if (!fr_parse_u64(argv[optind + 1], 0, &addr) || !fr_parse_u64(argv[optind + 2], 0, &len) ||
	    !len || len > EXTRACT_MAX || addr + len < addr) {
		fprintf(stderr, "flightrec extract: ADDR and LEN must be numbers, LEN 1..%u "
			"and ADDR+LEN within the address space\n", EXTRACT_MAX);
		return FR_EXIT_USAGE;
	}
	ret = open_file(argv[optind], &c);
	if (ret)
		return ret;
	if (!has_from)
		from = flrc_first_interval(c);
	if (!flrc_interval(c, from)) {
		fprintf(stderr, "flightrec extract: the file has no interval %u (the first is "
			"%u, %u in all)\n", from, flrc_first_interval(c), flrc_nr_intervals(c));
		ret = FR_EXIT_FAIL;
		goto out;
	}
	buf = calloc(1, len);
	have = calloc(1, len);
	if (!buf || !have) {
		fprintf(stderr, "flightrec extract: out of memory\n");
		ret = FR_EXIT_FAIL;
		goto out;
	}
	for (a = addr & ~(uint64_t)(FLRC_PAGE_SIZE - 1); a < addr + len; a += FLRC_PAGE_SIZE) {
		const struct flrc_page *p = flrc_page_at(c, from, a);
		uint64_t lo = a < addr ? addr : a;
		uint64_t hi = a + FLRC_PAGE_SIZE > addr + len ? addr + len : a + FLRC_PAGE_SIZE;

		if (!p) {
			if (!missing++)
				first_missing = lo;
			continue;
		}
		/* read lazily (open_file): decompressed here, one page at a time */
		if (flrc_page_load(c, p, page)) {
			fprintf(stderr, "flightrec extract: page %#" PRIx64 ": cannot decompress it\n", a);
			ret = FR_EXIT_BADFILE;
			goto out;
		}
		memcpy(buf + (lo - addr), page + (lo - a), hi - lo);
		memset(have + (lo - addr), 1, hi - lo);
	}
	if (raw) {
		if (missing) {
			fprintf(stderr, "flightrec extract: %#" PRIx64 ": the checkpoint does not "
				"hold that page at interval %u (the program did not touch it "
				"from there to the end)\n", first_missing, from);
			ret = FR_EXIT_FAIL;
			goto out;
		}
		if (fwrite(buf, 1, len, stdout) != len)
			ret = FR_EXIT_FAIL;
		goto out;
	}
	for (i = 0; i < len; i += 16) {
		printf("%016" PRIx64 ":", addr + i);
		for (j = i; j < i + 16; j++) {
			if (j % 8 == 0)
				putchar(' ');
			if (j >= len)
				printf("   ");
			else if (have[j])
				printf(" %02x", buf[j]);
			else
				printf(" ??");
		}
		printf("  ");
		for (j = i; j < i + 16 && j < len; j++)
			putchar(!have[j] ? '?' : buf[j] >= 0x20 && buf[j] < 0x7f ? buf[j] : '.');
		putchar('\n');
	}
	if (missing)
		printf("(\"??\": %" PRIu64 " page%s the checkpoint does not hold at interval %u)\n",
		       missing, missing == 1 ? "" : "s", from);
out:
	free(buf);
	free(have);
	flrc_free(c);
	if (fflush(stdout) || ferror(stdout))
		return FR_EXIT_FAIL;
	return ret;
}
