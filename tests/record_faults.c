// SPDX-License-Identifier: GPL-2.0
/*
 * record_faults: with the recorded process's allocations failing (fault
 * injection, debug kernel), no record is lost silently (issue 24): every
 * record missing from the dump is counted in its interval's `lost`, which
 * flags the interval FLIGHTREC_IF_LOST_RECORD; every record kept is whole,
 * and every interval kept has its memory map and its thread's start context.
 *
 * tests/progs/fault_loop arms make-it-fail for itself, makes N getpid() and
 * N reads of SIZE bytes (over 64 KiB: each record is an allocation of its
 * own), disarms and exits.  The test configures failslab or fail_page_alloc
 * (task filter: only that process's allocations fail, the recorder's made in
 * its context included) and checks the dump: records found + records lost
 * >= 2N, per-interval counts, flags, and the bytes of every kept read.
 *
 * Needs CONFIG_FAILSLAB and CONFIG_FAIL_PAGE_ALLOC (the kernel of `make
 * check-debug`): skipped without them, failed when FR_REQUIRE_FAULTS=1.
 */
#include "kselftest_harness.h"
#include "fr_test.h"
#include "fr_dump.h"
#include <sys/syscall.h>

#define DBG	"/sys/kernel/debug/"
#define ROUNDS	300
#define SIZE	70000

FIXTURE(flt) {
	struct fr_client *c;
	const char *kind;
};

static int attr(const char *kind, const char *name, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), DBG "%s/%s", kind, name);
	return fr_write_file(path, val, strlen(val));
}

FIXTURE_SETUP(flt)
{
	char err[256];

	FR_REQUIRE_MODULE();
	ASSERT_EQ(0, frd_open(&self->c, err, sizeof(err))) TH_LOG("%s", err);
}

FIXTURE_TEARDOWN(flt)
{
	if (self->kind)
		attr(self->kind, "probability", "0");
	if (self->c)
		fr_client_close(self->c);
}

/* kind's faults, for make-it-fail tasks only, with `prob` percent */
static int arm(const char *kind, const char *prob)
{
	int ret = attr(kind, "probability", "0") ?:
		attr(kind, "interval", "1") ?:
		attr(kind, "times", "-1") ?:
		attr(kind, "space", "0") ?:
		attr(kind, "verbose", "0") ?:
		attr(kind, "task-filter", "Y") ?:
		attr(kind, "ignore-gfp-wait", "N");

	if (!ret && !strcmp(kind, "fail_page_alloc"))
		ret = attr(kind, "ignore-gfp-highmem", "N") ?:
			attr(kind, "min-order", "0");
	return ret ?: attr(kind, "probability", prob);
}

static bool all_zero(const uint8_t *p, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * A kept interval is complete - the memory map with every file's path, and
 * the start context (registers and XSAVE) of the one thread - or flagged:
 * FLIGHTREC_IF_LOST_STATE for a part that could not be kept, or
 * FLIGHTREC_IF_THREAD_LATE for a context that is not there.  Returns the
 * intervals that are neither; sets *flagged to those flagged LOST_STATE.
 */
static size_t check_complete(struct __test_metadata *_metadata,
			     const struct frd *d, size_t *flagged)
{
	size_t i, bad = 0;

	*flagged = 0;
	for (i = 0; i < d->niv; i++) {
		uint32_t fl = d->iv[i].flags;
		bool lost = fl & FLIGHTREC_IF_LOST_STATE, ok = true;
		size_t maps = 0, ths = 0, j;

		*flagged += lost;
		for (j = 0; j < d->nmaps; j++) {
			const struct frd_map *m = &d->maps[j];

			if (m->interval != d->iv[i].index)
				continue;
			maps++;
			if (!(m->flags & FLIGHTREC_MAPF_ANON) && !m->path[0] && !lost) {
				TH_LOG("interval %u: the file mapping at %#llx has no path (flags 0x%x)",
				       d->iv[i].index, (unsigned long long)m->start, fl);
				ok = false;
			}
		}
		for (j = 0; j < d->nth; j++) {
			if (d->th[j].interval != d->iv[i].index)
				continue;
			ths++;
			if (!d->th[j].xsave_len && !lost) {
				TH_LOG("interval %u: thread %u has no XSAVE state (flags 0x%x)",
				       d->iv[i].index, d->th[j].tid, fl);
				ok = false;
			}
		}
		if (!maps && !lost) {
			TH_LOG("interval %u has no memory map (flags 0x%x)",
			       d->iv[i].index, fl);
			ok = false;
		}
		if (ths > 1 || (!ths && !(fl & (FLIGHTREC_IF_THREAD_LATE |
						 FLIGHTREC_IF_LOST_STATE)))) {
			TH_LOG("interval %u has %zu start contexts (flags 0x%x)",
			       d->iv[i].index, ths, fl);
			ok = false;
		}
		bad += !ok;
	}
	return bad;
}

static size_t incomplete_unflagged(struct __test_metadata *_metadata,
				   const struct frd *d)
{
	size_t flagged;

	return check_complete(_metadata, d, &flagged);
}

static bool have_faults(struct __test_metadata *_metadata)
{
	const char *req = getenv("FR_REQUIRE_FAULTS");

	if (!access(DBG "failslab", F_OK) && !access(DBG "fail_page_alloc", F_OK))
		return true;
	if (req && !strcmp(req, "1"))
		TH_LOG("FR_REQUIRE_FAULTS=1: no " DBG "failslab or fail_page_alloc");
	return false;
}

static void losses_counted(struct __test_metadata *_metadata,
			   FIXTURE_DATA(flt) *self, const char *kind)
{
	char n[16], sz[16];
	char *argv[] = { (char *)fr_prog("fault_loop"), n, sz, NULL };
	/* keep at most 64: 32 s at 500 ms, the whole run */
	struct fr_reg_opts o = { 500, 64, 1, -1, 1 };
	uint64_t lost = 0, copy_failed = 0, in_iv[128] = { 0 };
	size_t getpids = 0, reads = 0, i;
	struct frd d;
	pid_t pid;
	int status;

	/* in the body: the 6.1 harness runs it after a SKIP in the setup */
	FR_REQUIRE_ROOT();
	if (access(DBG "failslab", F_OK) || access(DBG "fail_page_alloc", F_OK)) {
		const char *req = getenv("FR_REQUIRE_FAULTS");

		if (!req || strcmp(req, "1"))
			SKIP(return, "no " DBG "failslab or fail_page_alloc: not the debug kernel");
		ASSERT_EQ(0, access(DBG "failslab", F_OK)) TH_LOG("FR_REQUIRE_FAULTS=1: no failslab");
		ASSERT_EQ(0, access(DBG "fail_page_alloc", F_OK)) TH_LOG("FR_REQUIRE_FAULTS=1: no fail_page_alloc");
	}
	snprintf(n, sizeof(n), "%d", ROUNDS);
	snprintf(sz, sizeof(sz), "%d", SIZE);
	self->kind = kind;
	ASSERT_EQ(0, arm(kind, "50")) TH_LOG("cannot configure %s", kind);
	ASSERT_EQ(0, frd_run_recorded_opts(self->c, argv, &o, &d, &pid, &status));
	attr(kind, "probability", "0");
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("fault_loop: status 0x%x", status);
	ASSERT_GT(d.niv, 0);
	ASSERT_LT(d.niv, 128) TH_LOG("more intervals than the reader keeps");

	/* no interval dropped: the indices follow each other */
	for (i = 1; i < d.niv; i++)
		ASSERT_EQ(d.iv[i - 1].index + 1, d.iv[i].index);
	for (i = 0; i < d.niv; i++) {
		lost += d.iv[i].lost;
		if (d.iv[i].lost)
			EXPECT_TRUE(d.iv[i].flags & FLIGHTREC_IF_LOST_RECORD)
				TH_LOG("interval %u lost %llu records, not flagged (0x%x)",
				       d.iv[i].index, (unsigned long long)d.iv[i].lost,
				       d.iv[i].flags);
	}
	EXPECT_EQ(0, incomplete_unflagged(_metadata, &d));
	for (i = 0; i < d.nsc; i++) {
		const struct frd_sc *s = &d.sc[i];
		uint32_t k = s->interval - d.iv[0].index;

		ASSERT_LT(k, d.niv) TH_LOG("record %llu in interval %u, not in the dump",
					   (unsigned long long)s->seq, s->interval);
		in_iv[k]++;
		if (s->nr == SYS_getpid)
			getpids++;
		if (s->nr != SYS_read || s->args[2] != SIZE)
			continue;
		reads++;
		if (s->flags & (FLIGHTREC_SC_COPY_FAILED | FLIGHTREC_SC_TRUNCATED)) {
			copy_failed++;
			EXPECT_TRUE(d.iv[k].flags & FLIGHTREC_IF_LOST_RECORD)
				TH_LOG("read #%llu incomplete (0x%x), interval %u not flagged",
				       (unsigned long long)s->seq, s->flags, s->interval);
		} else if (s->ret == SIZE) {
			const struct frd_out *out = frd_out(s, 1, 0);

			ASSERT_NE(NULL, out) TH_LOG("read #%llu: no out-buffer",
						    (unsigned long long)s->seq);
			EXPECT_EQ(SIZE, out->len);
			EXPECT_TRUE(out->data && all_zero(out->data, out->len))
				TH_LOG("read #%llu: the bytes are not /dev/zero's",
				       (unsigned long long)s->seq);
		}
	}
	for (i = 0; i < d.niv; i++)
		EXPECT_EQ(d.iv[i].nr_syscalls, in_iv[i])
			TH_LOG("interval %u counts %llu records, the dump has %llu",
			       d.iv[i].index, (unsigned long long)d.iv[i].nr_syscalls,
			       (unsigned long long)in_iv[i]);
	TH_LOG("%s: %zu intervals, getpid %zu/%d, read %zu/%d (%llu incomplete), lost %llu",
	       kind, d.niv, getpids, ROUNDS, reads, ROUNDS,
	       (unsigned long long)copy_failed, (unsigned long long)lost);
	EXPECT_LE(getpids, ROUNDS);
	EXPECT_LE(reads, ROUNDS);
	/* what is missing was counted */
	EXPECT_GE(getpids + reads + lost, 2 * ROUNDS)
		TH_LOG("%zu records missing, %llu counted lost: a silent loss",
		       2 * ROUNDS - getpids - reads, (unsigned long long)lost);
	/* and the faults did reach the recorder, or this proved nothing */
	EXPECT_GT(lost + copy_failed, 0);
	frd_free(&d);
}

/*
 * Interval boundaries under faults: short intervals while the program's
 * allocations fail, so that many boundaries meet a failure (the interval,
 * the map array, a path, the context, its XSAVE area, the page walk's own).
 * A boundary that cannot get what a complete start needs is not made; what
 * fails after the cut is flagged: every kept interval is complete or
 * flagged FLIGHTREC_IF_LOST_STATE, never a silent gap (issue 24).
 */
static void boundaries_complete(struct __test_metadata *_metadata,
				FIXTURE_DATA(flt) *self, const char *kind,
				const char *prob)
{
	/* 3 s of CPU at 20 ms intervals: about 150 boundaries armed */
	char *argv[] = { (char *)fr_prog("fault_loop"), "1", "4096", "3000", NULL };
	struct fr_reg_opts o = { 20, 64, 1, -1, 1 };
	size_t flagged, bad;
	struct frd d;
	pid_t pid;
	int status;

	FR_REQUIRE_ROOT();
	if (!have_faults(_metadata)) {
		const char *req = getenv("FR_REQUIRE_FAULTS");

		ASSERT_FALSE(req && !strcmp(req, "1"));
		SKIP(return, "no " DBG "failslab or fail_page_alloc: not the debug kernel");
	}
	self->kind = kind;
	ASSERT_EQ(0, arm(kind, prob)) TH_LOG("cannot configure %s", kind);
	ASSERT_EQ(0, frd_run_recorded_opts(self->c, argv, &o, &d, &pid, &status));
	attr(kind, "probability", "0");
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("fault_loop: status 0x%x", status);
	/* keep=64 of about 150: the ring is full, or boundaries were skipped */
	ASSERT_GE(d.niv, 8) TH_LOG("%zu intervals: the faults were not met at boundaries",
				   d.niv);
	bad = check_complete(_metadata, &d, &flagged);
	TH_LOG("%s at %s%%: %zu intervals kept, %zu flagged LOST_STATE, %zu incomplete unflagged",
	       kind, prob, d.niv, flagged, bad);
	EXPECT_EQ(0, bad);
	frd_free(&d);
}

TEST_F_TIMEOUT(flt, failslab_boundaries_complete, 300)
{
	boundaries_complete(_metadata, self, "failslab", "20");
}

TEST_F_TIMEOUT(flt, fail_page_alloc_boundaries_complete, 300)
{
	boundaries_complete(_metadata, self, "fail_page_alloc", "20");
}

TEST_F_TIMEOUT(flt, failslab_losses_counted, 300)
{
	losses_counted(_metadata, self, "failslab");
}

TEST_F_TIMEOUT(flt, fail_page_alloc_losses_counted, 300)
{
	losses_counted(_metadata, self, "fail_page_alloc");
}

TEST_HARNESS_MAIN
