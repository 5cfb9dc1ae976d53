// SPDX-License-Identifier: GPL-2.0
/*
 * record_memory: the pages the module keeps hold the bytes of their
 * interval's start (issue 4).
 *
 * tests/progs/mem_pattern overwrites a buffer with a known pattern per round
 * (from user space, or through pread so that the kernel writes the pages),
 * marks each round with a syscall and sleeps across a boundary.  For each
 * interval the markers say which pattern the buffer held at its start: the
 * one of the round before the first marker of the interval, or, if the
 * interval began in the middle of a user-space fill, that pattern up to some
 * byte and the next one after it (fills go in address order).  Every buffer
 * page the module kept must be exactly that.
 */
#include "kselftest_harness.h"
#include "fr_test.h"
#include "fr_dump.h"
#include "../progs/mem_pattern.h"
#include "../progs/mem_read.h"
#include "../progs/unmap_dest.h"
#include "../progs/swap_write.h"
#include <sys/syscall.h>
#include <sys/resource.h>
#include <elf.h>

/* The address of the static buffer `buf` of mem_pattern, from its ELF. */


/* the first MP_MARK marker at or after interval iv, or MP_ROUNDS + 1 */
static unsigned int next_mark(const struct frd *d, uint32_t iv)
{
	size_t i;

	for (i = 0; i < d->nsc; i++) {
		const struct frd_sc *s = &d->sc[i];

		if (s->interval >= iv && s->nr == SYS_getpriority &&
		    s->args[0] == PRIO_PROCESS && s->args[1] >= MP_MARK &&
		    s->args[1] <= MP_MARK + MP_ROUNDS)
			return s->args[1] - MP_MARK;
	}
	return MP_ROUNDS + 1;
}

/* The page at addr kept first from interval iv on (its bytes there), or NULL. */
static const struct frd_page *first_kept(const struct frd *d, uint64_t addr,
					 uint32_t iv)
{
	const struct frd_page *first = NULL;
	size_t i;

	for (i = 0; i < d->npg; i++) {
		const struct frd_page *p = &d->pg[i];

		if (p->addr == addr && p->interval >= iv &&
		    (!first || p->interval < first->interval))
			first = p;
	}
	return first;
}

FIXTURE(mem) {
	struct fr_client *c;
	int reclaim_made;	/* swap and MR_CGROUP to take away */
};

static void reclaim_teardown(void);

FIXTURE_SETUP(mem)
{
	char err[256];

	FR_REQUIRE_MODULE();
	ASSERT_EQ(0, frd_open(&self->c, err, sizeof(err))) TH_LOG("%s", err);
}

FIXTURE_TEARDOWN(mem)
{
	if (self->c)
		fr_client_close(self->c);
	if (self->reclaim_made)
		reclaim_teardown();
}

/* @how: NULL, or mem_pattern's second argument ("mprotect") */
static void patterns_check(struct __test_metadata *_metadata,
			   FIXTURE_DATA(mem) *self, const char *how)
{
	char prog[PATH_MAX], err[256];
	uint64_t base, bufaddr, off;
	size_t i, j, checked = 0, split_pages = 0, geo_zero = 0;
	int gate = -1, status, id;
	unsigned int full[128] = { 0 };
	struct frd d;
	pid_t pid;

	snprintf(prog, sizeof(prog), "%s", fr_prog("mem_pattern"));
	off = frd_sym_offset(prog, "buf");
	ASSERT_NE(0, off);

	/*
	 * The sleep between rounds and the interval grow together with the
	 * kernel's slowness (FR_TEST_TIMEOUT_SCALE: 4 on the debug kernel),
	 * so the 64 intervals still cover the run: the same test, longer.
	 */
	char sleep_ms[16];
	char *argv[] = { prog, sleep_ms, (char *)how, NULL };

	snprintf(sleep_ms, sizeof(sleep_ms), "%u", 120 * fr_timeout_scale());
	pid = fr_spawn_gated(argv, &gate);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, fr_client_register(self->c, pid, 40 * fr_timeout_scale(), 64, 1,
					err, sizeof(err)))
		TH_LOG("%s", err);
	ASSERT_EQ(0, fr_gate_open(gate));
	ASSERT_EQ(0, fr_wait_timeout(pid, &status, 120000));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	id = frd_wait_event(self->c, FLIGHTREC_EVENT_EXIT, pid, 10000);
	ASSERT_GT(id, 0);
	ASSERT_EQ(0, frd_read(self->c, id, &d));
	ASSERT_GE(d.niv, MP_ROUNDS / 2) TH_LOG("only %zu intervals", d.niv);

	base = frd_load_base(&d, prog);
	ASSERT_NE(0, base);
	bufaddr = base + off;
	ASSERT_EQ(0, bufaddr & 4095);

	for (i = 0; i < d.npg; i++) {
		const struct frd_page *p = &d.pg[i];
		unsigned int k, pg, o, split;

		if (p->addr < bufaddr || p->addr >= bufaddr + MP_PAGES * 4096)
			continue;
		static const uint8_t zero[4096];
		const uint8_t *bytes = p->data ? p->data : zero;

		/* no bytes: a page of zeros (.bss before its first write) */
		ASSERT_TRUE(p->data || (p->flags & FLIGHTREC_PAGE_ZERO))
			TH_LOG("page %#llx has no bytes", (unsigned long long)p->addr);
		pg = (p->addr - bufaddr) / 4096;
		k = next_mark(&d, p->interval);
		/* before round k's fill: k - 1 (zeros before round 0); during it: k up to a point */
		for (split = 0; split < 4096; split++)
			if (k > MP_ROUNDS || bytes[split] != mp_byte(k, pg, split))
				break;
		for (o = split; o < 4096; o++)
			if (bytes[o] != (k ? mp_byte(k - 1, pg, o) : 0))
				break;
		ASSERT_EQ(4096, o) TH_LOG("interval %u page %u: byte %u is %#x, "
			"neither round %u (%#x) nor round %u (%#x)",
			p->interval, pg, o, bytes[o], k, mp_byte(k, pg, o),
			k - 1, mp_byte(k - 1, pg, o));
		if (split && split < 4096)
			split_pages++;
		checked++;
		/* by the interval's place in the ring, not its index */
		if (p->interval - d.iv[0].index < 128)
			full[p->interval - d.iv[0].index]++;
	}
	/* at least half of the rounds were seen whole */
	for (i = 0, status = 0; i < 128; i++)
		status += full[i] == MP_PAGES;
	EXPECT_GE(status, MP_ROUNDS / 2) TH_LOG("%d intervals with every page", status);
	EXPECT_LE(split_pages, d.niv);
	TH_LOG("%zu buffer pages checked over %zu intervals (%zu split)",
	       checked, d.niv, split_pages);

	/* the anonymous mapping of the geometry round: new, so zero at the start */
	long geo = frd_find(&d, 0, SYS_getpriority, PRIO_PROCESS, MP_MARK_GEO);

	ASSERT_GE(geo, 0);
	long mm = geo - 1;

	ASSERT_EQ(SYS_mmap, d.sc[mm].nr);
	/*
	 * Each of its 4 pages is first kept zero: in the mmap's interval, or in
	 * the next one when a boundary fell inside the memset (its page faults
	 * return to user space, where boundaries are made).
	 */
	for (j = 0; j < 4; j++) {
		uint64_t addr = (uint64_t)d.sc[mm].ret + j * 4096;
		const struct frd_page *first = first_kept(&d, addr, d.sc[mm].interval);

		if (!first) {
			TH_LOG("page %#llx of the new mapping not kept",
			       (unsigned long long)addr);
			continue;
		}
		EXPECT_TRUE(first->flags & FLIGHTREC_PAGE_ZERO)
			TH_LOG("page %#llx interval %u flags %#x", (unsigned long long)addr,
			       first->interval, first->flags);
		geo_zero += !!(first->flags & FLIGHTREC_PAGE_ZERO);
	}
	EXPECT_EQ(4, geo_zero);
	EXPECT_EQ(0, fr_client_release_dump(self->c, id, err, sizeof(err)));
	frd_free(&d);
}

TEST_F_TIMEOUT(mem, patterns_at_interval_starts, 300)
{
	patterns_check(_metadata, self, NULL);
}

/*
 * The same, with an mprotect(PROT_READ) and an mprotect(PROT_READ |
 * PROT_WRITE) of the buffer before each round's fill: the second makes the
 * PTEs of its dirty pages writable at once, which without
 * fr_mem_rewrprotect() let the fill write them without a fault (s61: a
 * page of interval 5 kept a later round's bytes).
 */
TEST_F_TIMEOUT(mem, patterns_after_mprotect, 300)
{
	patterns_check(_metadata, self, "mprotect");
}

/*
 * A transparent huge page made before registration (tests/progs/thp_pattern):
 * the first boundary splits it into page-table entries, and from then on its
 * pages are tracked like any other.  No interval may flag a lost page, its
 * pages must be kept as they are written, and each kept page must hold its
 * interval's starting bytes: the round before the interval's first marker,
 * or that marker's own round for a page written before the cut (fills go in
 * address order, a page at a time).
 */
#define THP_MARK	0x7e00
#define THP_ROUNDS	8

static unsigned int thp_next_mark(const struct frd *d, uint32_t iv)
{
	size_t i;

	for (i = 0; i < d->nsc; i++) {
		const struct frd_sc *s = &d->sc[i];

		if (s->interval >= iv && s->nr == SYS_getpriority &&
		    s->args[0] == PRIO_PROCESS && s->args[1] > THP_MARK &&
		    s->args[1] <= THP_MARK + THP_ROUNDS)
			return s->args[1] - THP_MARK;
	}
	return THP_ROUNDS + 1;
}

TEST_F_TIMEOUT(mem, thp_made_before_registration, 120)
{
	char line[128], err[256], mode[128] = "";
	int in[2], out[2], status, id;
	size_t i, kept = 0, bad = 0, lost = 0, markers = 0;
	unsigned long base = 0;
	long kb = -1;
	struct frd d;
	FILE *f;
	pid_t pid;

	f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (!f || !fgets(mode, sizeof(mode), f) || strstr(mode, "[never]")) {
		if (f)
			fclose(f);
		SKIP(return, "transparent huge pages are off in this kernel");
	}
	fclose(f);
	ASSERT_EQ(0, pipe(in));
	ASSERT_EQ(0, pipe(out));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		char sleep_ms[16];

		/* as in patterns_at_interval_starts: scaled with the interval */
		snprintf(sleep_ms, sizeof(sleep_ms), "%u", 60 * fr_timeout_scale());
		execl(fr_prog("thp_pattern"), "thp_pattern", "8", sleep_ms, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	f = fdopen(out[0], "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	ASSERT_EQ(2, sscanf(line, "%lx %ld", &base, &kb));
	ASSERT_EQ(2048, kb) TH_LOG("no huge page was made (AnonHugePages %ld kB)", kb);
	ASSERT_EQ(0, fr_client_register(self->c, pid, 30 * fr_timeout_scale(), 64, 1,
					err, sizeof(err)))
		TH_LOG("%s", err);
	ASSERT_EQ(1, write(in[1], "\n", 1));
	ASSERT_EQ(0, fr_wait_timeout(pid, &status, 60000));
	fclose(f);
	close(in[1]);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	id = frd_wait_event(self->c, FLIGHTREC_EVENT_EXIT, pid, 10000);
	ASSERT_GT(id, 0);
	ASSERT_EQ(0, frd_read(self->c, id, &d));
	EXPECT_EQ(0, fr_client_release_dump(self->c, id, err, sizeof(err)));

	for (i = 0; i < d.niv; i++)
		if (d.iv[i].flags & FLIGHTREC_IF_LOST_PAGE) {
			TH_LOG("interval %u flags a lost page", d.iv[i].index);
			lost++;
		}
	for (i = 0; i < d.npg; i++) {
		const struct frd_page *pg = &d.pg[i];
		unsigned int p, next, r, j;
		uint8_t v;

		if (pg->addr < base || pg->addr >= base + (2UL << 20) || !pg->data)
			continue;
		p = (pg->addr - base) / 4096;
		v = pg->data[0];
		for (j = 1; j < 4096 && pg->data[j] == v; j++)
			;
		for (r = 0; r <= THP_ROUNDS && ((r * 37 + p) & 0xff) != v; r++)
			;
		next = thp_next_mark(&d, pg->interval);
		kept += !!(pg->flags & FLIGHTREC_PAGE_WRITTEN);
		/*
		 * A boundary can come in the middle of a page's memset (at the
		 * return from an interrupt): the page then starts the interval
		 * with round r's bytes up to some point and round r - 1's after
		 * it, and round r is the one in progress (next marker r).
		 */
		if (j < 4096 && r >= 1 && r <= THP_ROUNDS && r == next) {
			uint8_t prev = ((r - 1) * 37 + p) & 0xff;
			unsigned int k = j;

			while (k < 4096 && pg->data[k] == prev)
				k++;
			if (k == 4096)
				j = 4096;	/* a cut inside the page: as expected */
		}
		if (j < 4096 || r > THP_ROUNDS || (r != next - 1 && r != next)) {
			if (bad < 10)
				TH_LOG("interval %u page %u: byte %#x (round %u), "
				       "%s, next marker %u", pg->interval, p, v, r,
				       j < 4096 ? "not uniform" : "uniform", next);
			bad++;
		}
	}
	/*
	 * Every round between two markers the ring holds wrote all 512 pages
	 * in it (a sleep, and so a boundary, separates two rounds): that many
	 * pages are kept as written at least.  How many rounds the 64
	 * intervals hold depends on the kernel's speed (4 to 8 on Debian's,
	 * 2 or 3 on the debug kernel), not the count of what they hold.
	 */
	for (i = 0; i < d.nsc; i++) {
		const struct frd_sc *s = &d.sc[i];

		if (s->nr == SYS_getpriority && s->args[0] == PRIO_PROCESS &&
		    s->args[1] > THP_MARK && s->args[1] <= THP_MARK + THP_ROUNDS)
			markers++;
	}
	TH_LOG("%zu intervals, %zu markers, %zu pages of the huge page kept as written, "
	       "%zu wrong, %zu intervals with a lost page", d.niv, markers, kept, bad, lost);
	EXPECT_EQ(0, lost);
	EXPECT_EQ(0, bad);
	ASSERT_GE(markers, 2) TH_LOG("not one whole round in the ring: this proved nothing");
	EXPECT_GE(kept, (markers - 1) * 512);
	frd_free(&d);
}

/*
 * Pages only read (tests/progs/mem_read): an interval that holds both markers
 * of a round, with every page read between them, has all MR_PAGES pages in
 * its initial page set; every page kept after the fill holds the
 * pattern (the seed's rule: nothing wrote it later, so its bytes are as at
 * the dump).  700 pages span two page-table pages and many batches of the
 * boundary's stores.
 */
/* Whether d holds page addr (page aligned) in the page set of interval iv. */
static int has_page(const struct frd *d, uint32_t iv, uint64_t addr)
{
	size_t i;

	for (i = 0; i < d->npg; i++)
		if (d->pg[i].interval == iv && d->pg[i].addr == addr)
			return 1;
	return 0;
}

/*
 * A thread that ran user code in interval iv (two records of its own there:
 * it came back from a call and made another) read the stack at its sp of
 * the interval start, and the instruction at its ip: both pages are in the
 * interval's page set.  They are the highest and among the last pages a
 * boundary's walk finds, so the last batch of the walk holds them.  Returns
 * the number of intervals checked.
 */
static int ran_pages_kept(struct __test_metadata *_metadata, const struct frd *d)
{
	int checked = 0;
	size_t i, j;

	for (i = 0; i < d->nth; i++) {
		const struct frd_thread *t = &d->th[i];
		int n = 0;

		for (j = 0; j < d->nsc && n < 2; j++)
			n += d->sc[j].interval == t->interval && d->sc[j].tid == t->tid;
		if (n < 2)
			continue;
		EXPECT_TRUE(has_page(d, t->interval, t->regs.rsp & ~4095ULL))
			TH_LOG("interval %u: the stack page of sp %#llx is not in the page set",
			       t->interval, (unsigned long long)t->regs.rsp);
		EXPECT_TRUE(has_page(d, t->interval, t->regs.rip & ~4095ULL))
			TH_LOG("interval %u: the code page of ip %#llx is not in the page set",
			       t->interval, (unsigned long long)t->regs.rip);
		checked++;
	}
	return checked;
}

/*
 * mem_read in a mode (NULL: none): an interval holding a round whole has
 * every one of the MR_PAGES pages read in it in its page set, and every page
 * kept after the fill has the pattern's bytes.  Without a mode at least
 * MR_ROUNDS / 2 rounds are whole; with one, at least MR_ROUNDS / 4 even
 * rounds, those the mode acts in.
 */
static void read_rounds_kept(struct __test_metadata *_metadata, struct fr_client *c,
			     const char *mode, unsigned int interval_ms)
{
	char sleep_ms[16];
	char *argv[] = { (char *)fr_prog("mem_read"), sleep_ms, (char *)mode, NULL };
	int status, whole = 0, even = 0;
	uint32_t filled;
	size_t i, k, bad = 0, checked = 0;
	struct frd d;
	pid_t pid;

	/*
	 * Sleep and interval scaled together, as in patterns_at_interval_starts:
	 * on the debug kernel 64 intervals of 40 ms no longer reached back to
	 * the fill's marker (m0 not in the ring).
	 */
	snprintf(sleep_ms, sizeof(sleep_ms), "%u", interval_ms * 3 / 2 * fr_timeout_scale());
	ASSERT_EQ(0, frd_run_recorded(c, argv, interval_ms * fr_timeout_scale(), 64, &d,
				      &pid, &status));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));

	long m0 = frd_find(&d, 0, SYS_getpriority, PRIO_PROCESS, MR_MARK);

	ASSERT_GE(m0, 0);
	filled = d.sc[m0].interval;
	for (k = 0; k < MR_ROUNDS; k++) {
		long a = frd_find(&d, 0, SYS_getpriority, PRIO_PROCESS, MR_MARK + 2 * k);
		long b = frd_find(&d, 0, SYS_getpriority, PRIO_PROCESS, MR_MARK + 2 * k + 1);
		uint32_t iv;
		size_t n = 0;

		ASSERT_GE(a, 0);
		ASSERT_GE(b, 0);
		if (d.sc[a].interval != d.sc[b].interval)
			continue;	/* a boundary fell inside the round */
		iv = d.sc[a].interval;
		for (i = 0; i < d.npg; i++) {
			const struct frd_page *p = &d.pg[i];

			if (p->interval == iv && p->addr >= MR_ADDR &&
			    p->addr < MR_ADDR + MR_PAGES * 4096UL)
				n++;
		}
		EXPECT_EQ(MR_PAGES, n) TH_LOG("%s: round %zu, interval %u",
					      mode ?: "plain", k, iv);
		whole++;
		even += !(k & 1);
	}
	/*
	 * With a mode, the even rounds are the ones that count: on the debug
	 * kernel a round of "reclaim" and the next, which reads the pages
	 * back from swap, often outlast even a 1.2 s interval (4 of 10 rounds
	 * whole, all even).
	 */
	if (mode) {
		EXPECT_GE(even, MR_ROUNDS / 4)
			TH_LOG("%s: only %d even rounds within one interval", mode, even);
	} else {
		EXPECT_GE(whole, MR_ROUNDS / 2)
			TH_LOG("only %d rounds within one interval", whole);
	}

	for (i = 0; i < d.npg; i++) {
		const struct frd_page *p = &d.pg[i];
		unsigned int pg, o;

		if (p->interval <= filled || p->addr < MR_ADDR ||
		    p->addr >= MR_ADDR + MR_PAGES * 4096UL)
			continue;
		ASSERT_NE(NULL, p->data) TH_LOG("page %#llx interval %u has no bytes",
						(unsigned long long)p->addr, p->interval);
		pg = (p->addr - MR_ADDR) / 4096;
		for (o = 0; o < 4096; o++)
			if (p->data[o] != mr_byte(pg, o))
				break;
		if (o < 4096) {
			TH_LOG("interval %u page %u: byte %u is %#x, not %#x",
			       p->interval, pg, o, p->data[o], mr_byte(pg, o));
			bad++;
		}
		checked++;
	}
	EXPECT_EQ(0, bad);
	EXPECT_GE(checked, (size_t)MR_PAGES * (MR_ROUNDS / 2));
	TH_LOG("%s: %zu pages checked, %d rounds whole (%d even)", mode ?: "plain",
	       checked, whole, even);
	EXPECT_GE(ran_pages_kept(_metadata, &d), MR_ROUNDS / 2);
	frd_free(&d);
}

TEST_F_TIMEOUT(mem, pages_only_read, 120)
{
	read_rounds_kept(_metadata, self->c, NULL, 40);
}

/*
 * madvise(MADV_COLD) and (MADV_PAGEOUT) clear the accessed bits of the
 * pages they are given (mm/madvise.c, madvise_cold_or_pageout_pte_range):
 * read in the interval, then made cold before its boundary, the pages must
 * still be in its page set.  The call is held at sys_enter, and the bits
 * taken into the open interval first (fr_mem_harvest_young).
 */
TEST_F_TIMEOUT(mem, pages_read_then_made_cold, 120)
{
	read_rounds_kept(_metadata, self->c, "cold", 40);
}

TEST_F_TIMEOUT(mem, pages_read_then_paged_out, 120)
{
	read_rounds_kept(_metadata, self->c, "pageout", 40);
}

/* Whether interval iv of d holds a record of syscall nr. */
static int iv_has_call(const struct frd *d, uint32_t iv, uint32_t nr)
{
	size_t i;

	for (i = 0; i < d->nsc; i++)
		if (d->sc[i].interval == iv && d->sc[i].nr == nr)
			return 1;
	return 0;
}

/*
 * mem_read in a mode: every interval holding an even round whole (the call
 * of the mode, nr, between its markers) has `flag`; an interval without a
 * call nr has not.  Round 0 is left out: its interval holds the end of the
 * fill, whose write faults kept the pages' originals, so that a write
 * through get_user_pages there hides nothing.
 */
static void flagged_rounds_in(struct __test_metadata *_metadata, struct fr_client *c,
			      char *argv[], uint32_t interval_ms, size_t rounds,
			      int min_whole, const char *mode, uint32_t nr,
			      uint32_t flag)
{
	int status, whole = 0, clean = 0, called = 0, lost = 0;
	size_t i, j, k;
	struct frd d;
	pid_t pid;

	/* the churn rounds keep 700 pages an interval: a shorter ring */
	ASSERT_EQ(0, frd_run_recorded(c, argv, interval_ms, rounds > MR_ROUNDS ? 24 : 64,
				      &d, &pid, &status));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	for (k = 2; k < rounds; k += 2) {
		long a = frd_find(&d, 0, SYS_getpriority, PRIO_PROCESS, MR_MARK + 2 * k);
		long b = frd_find(&d, 0, SYS_getpriority, PRIO_PROCESS, MR_MARK + 2 * k + 1);

		/*
		 * before the ring's oldest interval (the ring is the last 64
		 * or 24 intervals: on a slow kernel they do not reach back to
		 * the first rounds); min_whole says how many must be in it
		 */
		if (a < 0 || b < 0)
			continue;
		if (d.sc[a].interval != d.sc[b].interval)
			continue;	/* a boundary fell inside the round */
		ASSERT_TRUE(iv_has_call(&d, d.sc[a].interval, nr));
		for (i = 0; i < d.niv && d.iv[i].index != d.sc[a].interval; i++)
			;
		ASSERT_LT(i, d.niv);
		EXPECT_TRUE(d.iv[i].flags & flag)
			TH_LOG("%s: round %zu, interval %u has flags %#x", mode, k,
			       d.iv[i].index, d.iv[i].flags);
		whole++;
	}
	EXPECT_GE(whole, min_whole) TH_LOG("only %d rounds within one interval", whole);
	for (j = 0; j < d.niv; j++) {
		if (d.iv[j].flags & FLIGHTREC_IF_LOST_PAGE) {
			TH_LOG("%s: interval %u lost a page, flags %#x", mode,
			       d.iv[j].index, d.iv[j].flags);
			lost++;
		}
		if (iv_has_call(&d, d.iv[j].index, nr)) {
			called += !!(d.iv[j].flags & flag);
			continue;
		}
		EXPECT_FALSE(d.iv[j].flags & flag)
			TH_LOG("%s: interval %u, with no such call, has flags %#x", mode,
			       d.iv[j].index, d.iv[j].flags);
		clean++;
	}
	EXPECT_GE(clean, MR_ROUNDS / 4);
	EXPECT_GE(called, MR_ROUNDS / 4);
	EXPECT_EQ(0, lost);
	TH_LOG("%s: %d rounds flagged, %d intervals with the call flagged, %d without it not flagged, %d with a lost page",
	       mode, whole, called, clean, lost);
	frd_free(&d);
}

static void flagged_rounds(struct __test_metadata *_metadata, struct fr_client *c,
			   const char *mode, uint32_t nr, uint32_t flag)
{
	char sleep_ms[16];
	char *argv[] = { (char *)fr_prog("mem_read"), sleep_ms, (char *)mode, NULL };

	/* sleep and interval scaled together, as in patterns_at_interval_starts */
	snprintf(sleep_ms, sizeof(sleep_ms), "%u", 60 * fr_timeout_scale());
	flagged_rounds_in(_metadata, c, argv, 40 * fr_timeout_scale(), MR_ROUNDS,
			  MR_ROUNDS / 4, mode, nr, flag);
}

/*
 * A page read again after MADV_DONTNEED dropped it, in the same interval,
 * has had two lives: the page set holds the first one's bytes.  No write
 * fault shows it; the boundary that finds the page accessed does.
 */
TEST_F_TIMEOUT(mem, second_life_flagged, 120)
{
	flagged_rounds(_metadata, self->c, "lives", SYS_madvise, FLIGHTREC_IF_TWO_LIVES);
}

/*
 * The same with the shortest intervals and a discard of all MR_PAGES pages,
 * whose copy before the call (held at sys_enter, copied by task_work) takes
 * long enough for boundaries to fall between the copy and the call.  The
 * retired pages must be those of the interval that records the call: an
 * interval without it is never flagged, one that holds a round whole is.
 */
/*
 * 200 rounds, fewer on a slower kernel (FR_TEST_TIMEOUT_SCALE: 50 on the
 * debug kernel, where a boundary of 700 pages takes longer than the 10 ms
 * interval and 200 rounds outlasted the time limit); written into buf.
 */
static size_t churn_rounds(char *buf, size_t len)
{
	size_t n = 200 / fr_timeout_scale();

	if (n < 40)
		n = 40;
	snprintf(buf, len, "%zu", n);
	return n;
}

/*
 * The shortest interval, scaled like the rounds on a slower kernel: on the
 * debug kernel a round of 10 ms intervals spread over more intervals than
 * the 24 of the ring (1 interval with the call in it, 2 needed).
 */
static uint32_t churn_interval_ms(void)
{
	return FLIGHTREC_INTERVAL_MS_MIN * fr_timeout_scale();
}

/*
 * The sleep after each round, scaled like the interval (12 ms against 10 ms
 * on Debian's kernels, 48 against 40 on the debug kernel): a little longer
 * than an interval, so that each interval holds one round and the odd
 * rounds' intervals are without the call (12 of the ring's 24 on Debian's
 * kernels).  Unscaled, 12 ms against 40 let the debug kernel's intervals
 * span several rounds, nearly all with a madvise: 1 and 2 intervals of 24
 * without it in two runs, against the 2 needed (clean >= MR_ROUNDS / 4).
 */
static void churn_sleep(char *buf, size_t len)
{
	snprintf(buf, len, "%u", 12 * fr_timeout_scale());
}

TEST_F_TIMEOUT(mem, second_life_flagged_short_intervals, 180)
{
	char nr[16], sleep_ms[16];
	char *argv[] = { (char *)fr_prog("mem_read"), sleep_ms, "churn", nr, NULL };
	size_t rounds = churn_rounds(nr, sizeof(nr));

	churn_sleep(sleep_ms, sizeof(sleep_ms));

	flagged_rounds_in(_metadata, self->c, argv, churn_interval_ms(), rounds, 0,
			  "churn", SYS_madvise, FLIGHTREC_IF_TWO_LIVES);
}

/*
 * The same with a second thread making system calls, whose task_work makes
 * boundaries as well: one that falls between the copy and the call sends
 * the call back to be held and copied again in the new interval.
 */
TEST_F_TIMEOUT(mem, second_life_flagged_other_thread, 180)
{
	char nr[16], sleep_ms[16];
	char *argv[] = { (char *)fr_prog("mem_read"), sleep_ms, "churn2", nr, NULL };
	size_t rounds = churn_rounds(nr, sizeof(nr));

	churn_sleep(sleep_ms, sizeof(sleep_ms));

	flagged_rounds_in(_metadata, self->c, argv, churn_interval_ms(), rounds, 0,
			  "churn2", SYS_madvise, FLIGHTREC_IF_TWO_LIVES);
}

/*
 * process_vm_writev() to the process's own pages writes them through
 * get_user_pages: no write fault, no original copy.  The boundary finds
 * those pages writable and dirty with no entry, and flags the interval.
 */
TEST_F_TIMEOUT(mem, gup_write_flagged, 120)
{
	flagged_rounds(_metadata, self->c, "gup", SYS_process_vm_writev,
		       FLIGHTREC_IF_GUP_WRITE);
}

/* The page kept for @addr in interval @iv: its first byte, or -1. */
static int first_byte(const struct frd *d, uint32_t iv, uint64_t addr)
{
	size_t i;

	for (i = 0; i < d->npg; i++)
		if (d->pg[i].interval == iv && d->pg[i].addr == addr)
			return d->pg[i].data ? d->pg[i].data[0] : 0;
	return -1;
}

/*
 * Memory that the destination of mremap(MREMAP_FIXED) replaces, and a
 * segment shmdt() detaches, read in the interval: kept with the bytes of
 * the interval's start (issue 24.12).
 */
TEST_F_TIMEOUT(mem, unmapped_by_mremap_fixed_and_shmdt, 120)
{
	char *argv[] = { (char *)fr_prog("unmap_dest"), NULL };
	struct frd d;
	int status;
	long m;
	pid_t pid;

	ASSERT_EQ(0, frd_run_recorded(self->c, argv, 100, 64, &d, &pid, &status));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_GE(frd_find(&d, 0, SYS_getpriority, PRIO_PROCESS, UD_MARK), 0);
	/*
	 * In the intervals of the calls themselves (a boundary may fall
	 * between them and the marker on a slow kernel)
	 */
	m = frd_find(&d, 0, SYS_mremap, UD_B, 4096);
	ASSERT_GE(m, 0);
	EXPECT_EQ(0xa1, first_byte(&d, d.sc[m].interval, UD_A))
		TH_LOG("mremap's destination");
	for (m = 0; m < (long)d.nsc; m++)	/* one argument: the rest is noise */
		if (d.sc[m].nr == SYS_shmdt && d.sc[m].args[0] == UD_S)
			break;
	ASSERT_LT(m, (long)d.nsc);
	EXPECT_EQ(0x5c, first_byte(&d, d.sc[m].interval, UD_S)) TH_LOG("shmdt");
	frd_free(&d);
}

/*
 * A page written while it is out in swap (tests/progs/swap_write: filled,
 * pushed out with MADV_PAGEOUT, then written in a later interval): the
 * write faults on a swap entry, where the probe cannot read the page
 * without sleeping.  Until s61 the boundary took such a page of anonymous
 * memory for a new one and kept it as zeros, so replay started from
 * bytes the page never held, and nothing said so.  The interval of the
 * writes must keep each page's bytes from before them, or be flagged
 * FLIGHTREC_IF_LOST_PAGE (the module now does that: the bytes went with
 * the write).
 *
 * The VM has no swap: the test makes one for itself (as root in the rig's
 * VM), on a loop device over a file in /tmp, and takes it away at the end.
 */
#define SWAP_FILE	"/tmp/fr-test-swap"

static int swap_setup(void)
{
	return system("grep -q '^/' /proc/swaps || { truncate -s 64M " SWAP_FILE " && "
		      "dev=$(losetup -f --show " SWAP_FILE ") && echo $dev > " SWAP_FILE ".dev && "
		      "mkswap $dev >/dev/null && swapon $dev; } 2>/dev/null");
}

static void swap_teardown(void)
{
	if (system("[ -s " SWAP_FILE ".dev ] && { dev=$(cat " SWAP_FILE ".dev); "
		   "swapoff $dev; losetup -d $dev; }; rm -f " SWAP_FILE " " SWAP_FILE ".dev") < 0)
		return;
}

/*
 * A memory cgroup for the "reclaim" mode of mem_read (MR_CGROUP), cgroup2
 * mounted first where the VM has none; 0 when it is there.
 */
static int reclaim_cgroup_setup(void)
{
	return system("{ grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts || "
		      "mount -t cgroup2 none /sys/fs/cgroup; } && "
		      "echo +memory > /sys/fs/cgroup/cgroup.subtree_control && "
		      "mkdir -p " MR_CGROUP " && [ -w " MR_CGROUP "/memory.reclaim ]");
}

/*
 * Reclaim clears the accessed bits of the pages it looks at
 * (folio_referenced, here from the cgroup's memory.reclaim, as from kswapd
 * or a cgroup at its limit): read in the interval, then looked at by
 * reclaim before its boundary, the pages must still be in its page set.
 * Reclaim tells MMU notifiers that it cleared them (clear_flush_young),
 * and the module's (fr_mem_young_cleared) takes them into the open
 * interval.
 * Anonymous memory is reclaimed only with swap: the test makes some, as
 * written_after_swap_out does.
 */
/* the fixture's teardown, whatever happened: later tests run without them */
static void reclaim_teardown(void)
{
	if (system("rmdir " MR_CGROUP " 2>/dev/null") < 0)
		return;
	swap_teardown();
}

TEST_F_TIMEOUT(mem, pages_read_then_reclaimed, 180)
{
	self->reclaim_made = 1;
	if (swap_setup())
		SKIP(return, "no swap device could be made (loop over " SWAP_FILE ")");
	if (reclaim_cgroup_setup())
		SKIP(return, "no memory cgroup with memory.reclaim");
	/*
	 * Longer intervals: a round that pushes 700 pages out to swap, and
	 * the next that reads them back, took longer than 40 ms under TCG
	 * (2 rounds of 10 within one interval).
	 */
	read_rounds_kept(_metadata, self->c, "reclaim", 300);
}

TEST_F_TIMEOUT(mem, written_after_swap_out, 180)
{
	char sleep_ms[16];
	char *argv[] = { (char *)fr_prog("swap_write"), sleep_ms, NULL };
	size_t i, good = 0, lost = 0, wrong = 0;
	int status, ret, flagged = 0;
	uint64_t base;
	struct frd d;
	long w, b;
	pid_t pid;

	if (swap_setup())
		SKIP(return, "no swap device could be made (loop over " SWAP_FILE ")");
	snprintf(sleep_ms, sizeof(sleep_ms), "%u", 150 * fr_timeout_scale());
	ret = frd_run_recorded(self->c, argv, 40 * fr_timeout_scale(), 64, &d, &pid,
			       &status);
	swap_teardown();	/* whatever happened: later tests run without swap */
	ASSERT_EQ(0, ret);
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) == 8) {
		frd_free(&d);
		SKIP(return, "the pages did not go out to swap");
	}
	ASSERT_EQ(0, WEXITSTATUS(status));
	b = frd_find(&d, 0, SYS_getpriority, PRIO_PROCESS, SW_MARK_BASE);
	w = frd_find(&d, 0, SYS_getpriority, PRIO_PROCESS, SW_MARK_WRITE);
	ASSERT_GE(b, 0);
	ASSERT_GE(w, 0);
	base = d.sc[b].args[2];
	/* the writes come after the marker: in its interval or the next */
	for (i = 0; i < d.niv; i++)
		if ((d.iv[i].index == d.sc[w].interval ||
		     d.iv[i].index == d.sc[w].interval + 1) &&
		    (d.iv[i].flags & FLIGHTREC_IF_LOST_PAGE))
			flagged = 1;
	for (i = 0; i < SW_PAGES; i++) {
		/* the first kept at or after the marker's interval */
		const struct frd_page *first = first_kept(&d, base + i * 4096,
							  d.sc[w].interval);
		size_t o;

		if (!first) {
			/* its bytes unknown: left out, and the interval says so */
			EXPECT_TRUE(flagged) TH_LOG("page %zu not kept, no interval "
						    "flagged a lost page", i);
			lost++;
			continue;
		}
		for (o = 0; first->data && o < 4096; o++)
			if (first->data[o] != sw_byte(0, i * 4096 + o))
				break;
		if (first->data && o == 4096) {
			good++;
			continue;
		}
		/* other bytes (the writes', zeros): only in a flagged interval */
		if (flagged) {
			lost++;
			continue;
		}
		if (first->data)
			TH_LOG("page %zu interval %u flags %#x: byte %zu is %#x, not %#x",
			       i, first->interval, first->flags, o, first->data[o],
			       sw_byte(0, i * 4096 + o));
		else
			TH_LOG("page %zu interval %u: kept as zeros (flags %#x)",
			       i, first->interval, first->flags);
		wrong++;
	}
	TH_LOG("%zu pages kept with their bytes before the writes, %zu wrong, "
	       "%zu lost in an interval that says so (flagged: %d)", good, wrong,
	       lost, flagged);
	EXPECT_EQ(0, wrong);
	EXPECT_EQ(SW_PAGES, good + lost);
	frd_free(&d);
}

TEST_HARNESS_MAIN
