// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec info, flightrec log: what a checkpoint file holds, for people
 * (text) and for programs (--json).  A damaged file gets its reader's message
 * and exit status FR_EXIT_BADFILE.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

#include "checkpoint.h"
#include "commands.h"
#include "libflightrec.h"
#include "syscalls.h"
#include "sysdecode.h"
#include "flightrec.h"		/* uapi */

static int open_file(const char *path, struct flrc **c)
{
	char err[1024];
	int ret = flrc_read(path, c, err, sizeof(err));

	if (!ret)
		return FR_EXIT_OK;
	fprintf(stderr, "flightrec: %s\n", err);
	return ret == -ENOENT || ret == -EACCES || ret == -EPERM ||
	       ret == -ENOMEM ? FR_EXIT_FAIL : FR_EXIT_BADFILE;
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
	const Flightrec__Map **m;	/* sorted by start */
	size_t n;
};

struct sc_count {
	unsigned int nr;
	uint64_t n;
};

struct iv_stat {
	struct pcount pages, dirtied;
	uint64_t out_bytes;
};

struct facts {
	const struct flrc *c;
	struct iv_stat *ivs;		/* per header interval */
	struct iv_maps *ivm;
	size_t n_ivm;
	struct pcount kind[NR_PK];
	struct pcount read, written;
	uint64_t n_data, n_same, n_zero;
	uint64_t out_bytes;
	struct sc_count *sc;
	size_t n_sc;
	uint32_t *tids;
	size_t n_tids;
	uint64_t sc_truncated, sc_copy_failed, sc_unknown, sc_noreturn;
	size_t n_build_ids, n_maps_last;
};

static int cmp_map(const void *a, const void *b)
{
	const Flightrec__Map *x = *(const Flightrec__Map *const *)a;
	const Flightrec__Map *y = *(const Flightrec__Map *const *)b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static const Flightrec__Map *map_at(const struct facts *f, uint32_t interval,
				    uint64_t addr)
{
	const struct iv_maps *im = NULL;
	size_t i, lo, hi;

	for (i = 0; i < f->n_ivm; i++)
		if (f->ivm[i].index == interval)
			im = &f->ivm[i];
	if (!im)
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

/*
 * A page of a region mapped during its interval has no map at the interval
 * start: the mmap record that made it says what it is.
 */
static enum pkind late_kind(const struct facts *f, const struct flrc_page *p)
{
	const struct flrc *c = f->c;
	size_t i;

	for (i = c->n_syscalls; i-- > 0;) {
		const Flightrec__Syscall *s = c->syscalls[i];
		uint64_t start = (uint64_t)s->ret;

		if (s->nr != MMAP_NR || s->n_args < 5 || s->ret < 0 ||
		    p->addr < start || p->addr - start >= s->args[1])
			continue;
		if (s->args[2] & PROT_EXEC)
			return PK_CODE;
		if (!(s->args[3] & MAP_ANON_FLAG) && (int32_t)s->args[4] >= 0)
			return PK_FILE;
		return PK_DATA;
	}
	return PK_DATA;
}

static enum pkind page_kind(const struct facts *f, const struct flrc_page *p)
{
	const Flightrec__Map *m;

	if (p->zero)
		return PK_ZERO;
	m = map_at(f, p->interval, p->addr);
	if (!m)
		return late_kind(f, p);
	if (m->prot & PROT_EXEC)
		return PK_CODE;
	if ((m->flags & FLIGHTREC_MAPF_STACK) ||
	    (m->path && !strcmp(m->path, "[stack]")))
		return PK_STACK;
	if (!(m->flags & FLIGHTREC_MAPF_ANON) && m->path && m->path[0] == '/')
		return PK_FILE;
	return PK_DATA;
}

static int cmp_sc(const void *a, const void *b)
{
	const struct sc_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

static void count_syscall(struct facts *f, const Flightrec__Syscall *s)
{
	size_t i;

	for (i = 0; i < s->n_out; i++)
		f->out_bytes += s->out[i]->data.len;
	if (s->flags & FLIGHTREC_SC_TRUNCATED)
		f->sc_truncated++;
	if (s->flags & FLIGHTREC_SC_COPY_FAILED)
		f->sc_copy_failed++;
	if (s->flags & FLIGHTREC_SC_UNKNOWN_OUT)
		f->sc_unknown++;
	if (s->flags & FLIGHTREC_SC_NO_RETURN)
		f->sc_noreturn++;
	for (i = 0; i < f->n_sc; i++) {
		if (f->sc[i].nr == s->nr) {
			f->sc[i].n++;
			return;
		}
	}
	f->sc[f->n_sc++] = (struct sc_count){ s->nr, 1 };
}

static void add_tid(struct facts *f, uint32_t tid)
{
	size_t i;

	for (i = 0; i < f->n_tids; i++)
		if (f->tids[i] == tid)
			return;
	f->tids[f->n_tids++] = tid;
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

static int gather(struct facts *f, const struct flrc *c)
{
	const Flightrec__Header *h = c->hdr;
	uint32_t last = h->intervals[h->n_intervals - 1]->index;
	size_t i, j;

	memset(f, 0, sizeof(*f));
	f->c = c;
	f->ivm = calloc(h->n_intervals, sizeof(*f->ivm));
	f->sc = calloc(c->n_syscalls + 1, sizeof(*f->sc));
	f->tids = calloc(c->n_threads + c->n_syscalls + 1, sizeof(*f->tids));
	f->ivs = calloc(h->n_intervals, sizeof(*f->ivs));
	if (!f->ivm || !f->sc || !f->tids || !f->ivs)
		return -ENOMEM;
	f->n_ivm = h->n_intervals;
	for (i = 0; i < h->n_intervals; i++) {
		struct iv_maps *im = &f->ivm[i];

		im->index = h->intervals[i]->index;
		im->m = calloc(c->n_maps + 1, sizeof(*im->m));
		if (!im->m)
			return -ENOMEM;
		for (j = 0; j < c->n_maps; j++)
			if (c->maps[j]->interval == im->index)
				im->m[im->n++] = c->maps[j];
		qsort(im->m, im->n, sizeof(*im->m), cmp_map);
	}
	for (i = 0; i < c->n_maps; i++) {
		if (c->maps[i]->interval != last)
			continue;
		f->n_maps_last++;
		f->n_build_ids += c->maps[i]->has_build_id;
	}
	for (i = 0; i < c->n_pages; i++) {
		const struct flrc_page *p = &c->pages[i];
		struct pcount *rw = (p->flags & FLIGHTREC_PAGE_WRITTEN) ?
				    &f->written : &f->read;
		enum pkind k = page_kind(f, p);
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
		add_tid(f, c->threads[i]->tid);
	for (i = 0; i < c->n_syscalls; i++) {
		struct iv_stat *is = &f->ivs[iv_pos(c, c->syscalls[i]->interval)];

		for (j = 0; j < c->syscalls[i]->n_out; j++)
			is->out_bytes += c->syscalls[i]->out[j]->data.len;
		count_syscall(f, c->syscalls[i]);
		add_tid(f, c->syscalls[i]->tid);
	}
	qsort(f->sc, f->n_sc, sizeof(*f->sc), cmp_sc);
	return 0;
}

static void facts_free(struct facts *f)
{
	size_t i;

	for (i = 0; f->ivm && i < f->n_ivm; i++)
		free(f->ivm[i].m);
	free(f->ivm);
	free(f->ivs);
	free(f->sc);
	free(f->tids);
}

static const char *sc_name(unsigned int nr, char *buf, size_t len)
{
	const struct fr_syscall *s = fr_syscall(nr);

	if (s)
		return s->name;
	if (fr_pseudo_name(nr))
		return fr_pseudo_name(nr);
	snprintf(buf, len, "syscall_%u", nr);
	return buf;
}

static const char *end_kind_name(uint32_t kind)
{
	switch (kind) {
	case FLIGHTREC_END_FAULT:	return "fault";
	case FLIGHTREC_END_DUMP:	return "dump";
	case FLIGHTREC_END_EXIT:	return "exit";
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
static void xcr0_names(FILE *f, uint64_t xcr0, bool json)
{
	bool first = true;
	unsigned int i;

	for (i = 0; i < 64; i++) {
		const char *n;

		if (!(xcr0 & (1ull << i)))
			continue;
		n = flrc_xsave_component_name(i);
		if (json)
			fprintf(f, "%s\"%s%s\"", first ? "" : ", ",
				n ? n : "component ", n ? "" : "?");
		else if (n)
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
		if (fl & FLIGHTREC_IF_THREAD_LATE)
			say(arg, "interval #%u: a thread did not stop at its start in time: "
			    "its context is from a little later (approximate)", iv->index);
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
	xcr0_names(stdout, s->xcr0, false);
	printf("), %zu CPUID leaves", s->n_cpuid);
	if (s->n_cpuid_local)
		printf(" + %zu from the assembling machine", s->n_cpuid_local);
	putchar('\n');
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
		size_t nt = 0, j;

		for (j = 0; j < c->n_threads; j++)
			nt += c->threads[j]->interval == iv->index;
		kib(b1, sizeof(b1), f->ivs[i].pages.stored);
		kib(b2, sizeof(b2), f->ivs[i].out_bytes);
		printf("  #%-4u +%.3fs  %.3f s  %zu thread%s  %" PRIu64 " syscalls (%s out)  %" PRIu64
		       " pages (%" PRIu64 " dirtied, %s in file)%s%s\n",
		       iv->index, (iv->start_ns - t0) / 1e9,
		       (iv->end_ns - iv->start_ns) / 1e9, nt, nt == 1 ? "" : "s",
		       iv->nr_syscalls, b2, f->ivs[i].pages.pages,
		       f->ivs[i].dirtied.pages, b1,
		       iv->flags & FLIGHTREC_IF_PARTIAL ? "  partial" : "",
		       nt ? "" : "  (no thread context: cannot start here)");
	}
	printf("threads:   %zu:", f->n_tids);
	for (i = 0; i < f->n_tids; i++)
		printf(" %u", f->tids[i]);
	putchar('\n');
	printf("maps:      %zu at the start of the last interval, %zu with a build id\n",
	       f->n_maps_last, f->n_build_ids);

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
/* info, as JSON */

static void jstr(FILE *o, const char *s)
{
	if (!s) {
		fputs("null", o);
		return;
	}
	fputc('"', o);
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			fprintf(o, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			fprintf(o, "\\u%04x", ch);
		else
			fputc(ch, o);
	}
	fputc('"', o);
}

struct jlist {
	FILE *o;
	int n;
};

static void say_json(void *arg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say_json(void *arg, const char *fmt, ...)
{
	struct jlist *l = arg;
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fputs(l->n++ ? ", " : "", l->o);
	jstr(l->o, buf);
}

static void info_json(const char *path, const struct facts *f, uint64_t size)
{
	const struct flrc *c = f->c;
	const Flightrec__Header *h = c->hdr;
	const Flightrec__SystemInfo *s = h->system;
	const Flightrec__ProcessInfo *p = h->process;
	const Flightrec__End *e = c->end;
	struct jlist l = { stdout, 0 };
	FILE *o = stdout;
	char vendor[13];
	size_t i;
	int k;

	fputs("{\"file\": ", o);
	jstr(o, path);
	fprintf(o, ", \"size\": %" PRIu64 ", \"format\": %u, \"tool_version\": ",
		size, h->format_version);
	jstr(o, h->tool_version);
	fputs(", \"assembled_on\": ", o);
	jstr(o, h->assembled_on);
	fprintf(o, ", \"created_unix_ns\": %" PRIu64, h->created_unix_ns);
	if (h->has_abi_version)
		fprintf(o, ", \"abi_version\": %u", h->abi_version);
	if (h->has_dump_id)
		fprintf(o, ", \"dump_id\": %u", h->dump_id);

	fputs(",\n \"system\": {\"sysname\": ", o);
	jstr(o, s->sysname);
	fputs(", \"nodename\": ", o);
	jstr(o, s->nodename);
	fputs(", \"release\": ", o);
	jstr(o, s->release);
	fputs(", \"version\": ", o);
	jstr(o, s->version);
	fputs(", \"machine\": ", o);
	jstr(o, s->machine);
	cpu_vendor(s, vendor);
	fputs(", \"cpu_vendor\": ", o);
	jstr(o, vendor[0] ? vendor : NULL);
	fprintf(o, ", \"xcr0\": %" PRIu64 ", \"xsave_components\": [", s->xcr0);
	xcr0_names(o, s->xcr0, true);
	fprintf(o, "], \"cpuid_leaves\": %zu, \"cpuid_local_leaves\": %zu}",
		s->n_cpuid, s->n_cpuid_local);

	fprintf(o, ",\n \"process\": {\"pid\": %u, \"ppid\": %u, \"comm\": ",
		p->pid, p->ppid);
	jstr(o, p->comm);
	fputs(", \"exe\": ", o);
	jstr(o, p->exe);
	fputs(", \"argv\": [", o);
	for (i = 0; i < p->n_argv; i++) {
		fputs(i ? ", " : "", o);
		jstr(o, p->argv[i]);
	}
	fputs("]}", o);

	fputs(",\n \"intervals\": [", o);
	for (i = 0; i < h->n_intervals; i++) {
		const Flightrec__IntervalInfo *iv = h->intervals[i];
		size_t nt = 0, j;

		for (j = 0; j < c->n_threads; j++)
			nt += c->threads[j]->interval == iv->index;
		fprintf(o, "%s{\"index\": %u, \"start_ns\": %" PRIu64 ", \"end_ns\": %" PRIu64
			", \"flags\": %u, \"nr_syscalls\": %" PRIu64 ", \"lost\": %" PRIu64
			", \"threads\": %zu, \"pages\": %" PRIu64 ", \"stored_bytes\": %" PRIu64
			", \"dirtied_pages\": %" PRIu64 ", \"dirtied_stored_bytes\": %" PRIu64
			", \"syscall_out_bytes\": %" PRIu64 "}",
			i ? ", " : "", iv->index, iv->start_ns, iv->end_ns, iv->flags,
			iv->nr_syscalls, iv->lost, nt, f->ivs[i].pages.pages,
			f->ivs[i].pages.stored, f->ivs[i].dirtied.pages,
			f->ivs[i].dirtied.stored, f->ivs[i].out_bytes);
	}
	fputs("],\n \"threads\": [", o);
	for (i = 0; i < f->n_tids; i++)
		fprintf(o, "%s%u", i ? ", " : "", f->tids[i]);
	fprintf(o, "],\n \"maps\": {\"last_interval\": %zu, \"build_ids\": %zu}",
		f->n_maps_last, f->n_build_ids);

	fprintf(o, ",\n \"pages\": {\"total\": %zu, \"stored\": %" PRIu64
		", \"same\": %" PRIu64 ", \"zero\": %" PRIu64 ", \"by_kind\": {",
		c->n_pages, f->n_data, f->n_same, f->n_zero);
	for (k = 0; k < NR_PK; k++)
		fprintf(o, "%s\"%s\": {\"pages\": %" PRIu64 ", \"bytes\": %" PRIu64
			", \"stored_bytes\": %" PRIu64 "}", k ? ", " : "",
			pkind_names[k], f->kind[k].pages,
			k == PK_ZERO ? 0 : f->kind[k].pages * FLRC_PAGE_SIZE,
			f->kind[k].stored);
	fprintf(o, "}, \"read\": {\"pages\": %" PRIu64 ", \"stored_bytes\": %" PRIu64
		"}, \"dirtied\": {\"pages\": %" PRIu64 ", \"stored_bytes\": %" PRIu64 "}}",
		f->read.pages, f->read.stored, f->written.pages, f->written.stored);

	fprintf(o, ",\n \"syscalls\": {\"total\": %zu, \"out_bytes\": %" PRIu64
		", \"by_name\": {", c->n_syscalls, f->out_bytes);
	for (i = 0; i < f->n_sc; i++) {
		char nb[32];

		fputs(i ? ", " : "", o);
		jstr(o, sc_name(f->sc[i].nr, nb, sizeof(nb)));
		fprintf(o, ": %" PRIu64, f->sc[i].n);
	}
	fputs("}}", o);

	fputs(",\n \"end\": {\"kind\": ", o);
	jstr(o, end_kind_name(e->kind));
	if (e->has_tid)
		fprintf(o, ", \"tid\": %u", e->tid);
	if (e->has_signo) {
		fprintf(o, ", \"signo\": %u, \"signal\": ", e->signo);
		jstr(o, fr_signal_name(e->signo));
	}
	if (e->has_si_code) {
		fprintf(o, ", \"si_code\": %d, \"si_code_name\": ", e->si_code);
		jstr(o, e->has_signo ? si_code_name(e->signo, e->si_code) : NULL);
	}
	if (e->has_fault_addr)
		fprintf(o, ", \"fault_addr\": %" PRIu64, e->fault_addr);
	if (e->has_exit_code)
		fprintf(o, ", \"exit_code\": %u", e->exit_code);
	if (e->regs)
		fprintf(o, ", \"rip\": %" PRIu64 ", \"rsp\": %" PRIu64,
			e->regs->rip, e->regs->rsp);
	if (e->has_last_seq)
		fprintf(o, ", \"last_seq\": %" PRIu64, e->last_seq);
	fputs("},\n \"may_not_replay\": [", o);
	not_replayable(f, say_json, &l);
	fputs("]}\n", o);
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
	struct stat st;
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
	if (stat(argv[optind], &st))
		st.st_size = 0;
	if (json)
		info_json(argv[optind], &f, st.st_size);
	else
		info_text(argv[optind], &f, st.st_size);
out:
	facts_free(&f);
	flrc_free(c);
	if (fflush(stdout) || ferror(stdout))
		return FR_EXIT_FAIL;
	return ret;
}

/* ------------------------------------------------------------------ */
/* log */

static void log_one(const Flightrec__Syscall *s, unsigned int flags,
		    bool with_seq)
{
	struct fr_out_view v[16];
	uint64_t args[6] = { 0 };
	size_t i, n = s->n_out < 16 ? s->n_out : 16;

	memcpy(args, s->args, (s->n_args < 6 ? s->n_args : 6) * sizeof(*args));
	for (i = 0; i < n; i++) {
		v[i].arg = s->out[i]->arg;
		v[i].addr = s->out[i]->addr;
		v[i].data = s->out[i]->data.data;
		v[i].len = s->out[i]->data.len;
	}
	if (s->flags & FLIGHTREC_SC_NO_RETURN)
		flags |= FR_SD_NORET;
	if (with_seq)
		printf("%6" PRIu64 " ", s->seq);
	fr_sysdecode_print(stdout, s->tid, s->nr, args, s->ret, v, n, flags);
	if (s->flags & (FLIGHTREC_SC_TRUNCATED | FLIGHTREC_SC_COPY_FAILED |
			FLIGHTREC_SC_UNKNOWN_OUT | FLIGHTREC_SC_NODUMP)) {
		const char *sep = "";

		printf("%s       #", with_seq ? "      " : "");
		if (s->flags & FLIGHTREC_SC_TRUNCATED) {
			printf("%s out-buffer cut at the size limit", sep);
			sep = ";";
		}
		if (s->flags & FLIGHTREC_SC_COPY_FAILED) {
			printf("%s out-buffer unreadable", sep);
			sep = ";";
		}
		if (s->flags & FLIGHTREC_SC_NODUMP) {
			printf("%s out-buffer in MADV_DONTDUMP memory: not in the dump", sep);
			sep = ";";
		}
		if (s->flags & FLIGHTREC_SC_UNKNOWN_OUT)
			printf("%s out-semantics unknown", sep);
		putchar('\n');
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
	default:
		printf("+++ end unknown +++\n");
	}
}

static void usage_log(FILE *f)
{
	fr_usage(f, "log");
	fprintf(f,
		"  The recorded syscalls, strace-style: thread by thread, or with\n"
		"  --merged in the order they happened (sequence number first).\n"
		"  --full shows buffers whole.  With a PID instead of a FILE: the\n"
		"  live ring of that recorded process, in sequence order.\n");
}

int cmd_log(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "merged", no_argument, NULL, 'm' },
		{ "tid", required_argument, NULL, 't' },
		{ "full", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	unsigned int flags = 0;
	bool merged = false;
	long only = -1;
	struct facts f;
	struct flrc *c;
	size_t i, t;
	int o, ret;

	while ((o = getopt_long(argc, argv, "mt:fh", opts, NULL)) != -1) {
		switch (o) {
		case 'm':
			merged = true;
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
		return fr_log_live(pid, flags);
	}
	ret = open_file(argv[optind], &c);
	if (ret)
		return ret;
	if (gather(&f, c)) {
		fprintf(stderr, "flightrec: out of memory\n");
		ret = FR_EXIT_FAIL;
		goto out;
	}
	if (merged) {
		for (i = 0; i < c->n_syscalls; i++)
			if (only < 0 || c->syscalls[i]->tid == only)
				log_one(c->syscalls[i], flags, true);
	} else {
		for (t = 0; t < f.n_tids; t++) {
			uint32_t tid = f.tids[t];
			size_t n = 0;

			if (only >= 0 && tid != only)
				continue;
			for (i = 0; i < c->n_syscalls; i++)
				n += c->syscalls[i]->tid == tid;
			printf("%s== thread %u: %zu syscall%s ==\n", t ? "\n" : "",
			       tid, n, n == 1 ? "" : "s");
			for (i = 0; i < c->n_syscalls; i++)
				if (c->syscalls[i]->tid == tid)
					log_one(c->syscalls[i], flags | FR_SD_NOTID,
						false);
		}
		putchar('\n');
	}
	log_end(c->end);
out:
	facts_free(&f);
	flrc_free(c);
	if (fflush(stdout) || ferror(stdout))
		return FR_EXIT_FAIL;
	return ret;
}
