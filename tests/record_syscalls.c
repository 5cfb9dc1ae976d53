// SPDX-License-Identifier: GPL-2.0
/*
 * record_syscalls: what the module records of a program's syscalls equals,
 * byte for byte, what the program itself saw (issue 3).
 *
 * tests/progs/sc_known makes a fixed list of syscalls between two markers and
 * writes its observations to a side file; the test registers it (at_exit, so
 * the ring freezes at exit_group), reads the dump over netlink and compares
 * every record: number, result, each out-buffer's bytes, and the order.
 */
#include "kselftest_harness.h"
#include "fr_test.h"
#include "fr_dump.h"
#include "../progs/sc_known.h"
#include "../progs/sc_unknown.h"
#include "flightrec_inhash.h"
#include <sys/syscall.h>
#include <sys/resource.h>

struct expect {
	uint32_t nr, nouts;
	int64_t ret;
	struct {
		uint32_t arg, len;
		const uint8_t *data;
	} outs[4];
};

static size_t parse_side(const uint8_t *p, size_t len, struct expect *e, size_t max)
{
	size_t off = 0, n = 0;
	uint32_t i;

	while (off + 16 <= len && n < max) {
		memcpy(&e[n].nr, p + off, 4);
		memcpy(&e[n].nouts, p + off + 4, 4);
		memcpy(&e[n].ret, p + off + 8, 8);
		off += 16;
		for (i = 0; i < e[n].nouts && i < 4; i++) {
			memcpy(&e[n].outs[i].arg, p + off, 4);
			memcpy(&e[n].outs[i].len, p + off + 4, 4);
			e[n].outs[i].data = p + off + 8;
			off += 8 + e[n].outs[i].len;
		}
		n++;
	}
	return n;
}

FIXTURE(rec) {
	struct fr_client *c;
	char dir[64];
};

FIXTURE_SETUP(rec)
{
	char err[256];

	FR_REQUIRE_MODULE();
	ASSERT_EQ(0, fr_client_open(&self->c, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, fr_client_subscribe(self->c, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, fr_mkdtemp(self->dir, sizeof(self->dir)));
}

FIXTURE_TEARDOWN(rec)
{
	char cmd[128];

	if (self->c)
		fr_client_close(self->c);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (self->dir[0] && system(cmd))
		TH_LOG("cleanup of %s failed", self->dir);
}

/*
 * Runs argv registered (at_exit: the ring freezes at exit_group) until it
 * exits with 0, and reads the dump its exit made into d; returns the dump
 * id (to release).  A failed assertion ends the test.
 */
static int run_to_exit_iv(struct __test_metadata *_metadata,
			  struct fr_client *c, char *const argv[], pid_t *pidp,
			  struct frd *d, uint32_t interval_ms, uint32_t keep)
{
	int gate = -1, status, id;
	char err[256];
	pid_t pid;

	pid = fr_spawn_gated(argv, &gate);
	ASSERT_GT(pid, 0);
	*pidp = pid;
	ASSERT_EQ(0, fr_client_register(c, pid, interval_ms, keep, 1, err,
					sizeof(err)))
		TH_LOG("%s", err);
	ASSERT_EQ(0, fr_gate_open(gate));
	ASSERT_EQ(0, fr_wait_timeout(pid, &status, 60000));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	id = frd_wait_event(c, FLIGHTREC_EVENT_EXIT, pid, 10000);
	ASSERT_GT(id, 0) TH_LOG("no EXIT event with a dump for %d: %d", pid, id);
	ASSERT_EQ(0, frd_read(c, id, d));
	EXPECT_EQ((uint32_t)pid, d->pid);
	return id;
}

/* run_to_exit_iv() with one interval of a minute */
static int run_to_exit(struct __test_metadata *_metadata, struct fr_client *c,
		       char *const argv[], pid_t *pidp, struct frd *d)
{
	return run_to_exit_iv(_metadata, c, argv, pidp, d, 60000, 8);
}

/*
 * run_to_exit() of argv, and the records of its part between the markers
 * of sc_known.h: those after *start and before *end.  Returns the dump id.
 */
static int run_to_marks(struct __test_metadata *_metadata, struct fr_client *c,
			char *const argv[], struct frd *d, long *start, long *end)
{
	pid_t pid;
	int id;

	id = run_to_exit(_metadata, c, argv, &pid, d);
	ASSERT_GT(id, 0);
	*start = frd_find(d, 0, SYS_getpriority, PRIO_PROCESS, SC_MARK_START);
	ASSERT_GE(*start, 0);
	*end = frd_find(d, *start, SYS_getpriority, PRIO_PROCESS, SC_MARK_END);
	ASSERT_GE(*end, 0);
	return id;
}

/* the dumps of a process's children (LIST_DUMPS gives each its parent) */
struct kids {
	uint32_t ppid, id[8];
	size_t n;
};

static int kids_cb(const struct fr_dump_info *info, void *arg)
{
	struct kids *k = arg;

	if (info->ppid == k->ppid && k->n < 8)
		k->id[k->n++] = info->id;
	return 0;
}

TEST_F_TIMEOUT(rec, known_syscalls, 120)
{
	char side[128], data[128], sub[128], err[256];
	static uint8_t sidebuf[1 << 20], content[5000];
	static struct expect exp[128];
	struct frd d;
	size_t nexp, i, j;
	long nout;
	long start, end;
	int id, fd;
	ssize_t n;
	pid_t pid;

	snprintf(side, sizeof(side), "%s/side", self->dir);
	snprintf(data, sizeof(data), "%s/data", self->dir);
	snprintf(sub, sizeof(sub), "%s/sub", self->dir);
	ASSERT_EQ(0, mkdir(sub, 0700));
	for (i = 0; i < 3; i++) {
		char f[160];

		snprintf(f, sizeof(f), "%s/file%zu", sub, i);
		fd = open(f, O_WRONLY | O_CREAT, 0600);
		ASSERT_GE(fd, 0);
		close(fd);
	}
	for (i = 0; i < sizeof(content); i++)
		content[i] = (uint8_t)(i * 7 + 3);
	fd = open(data, O_WRONLY | O_CREAT, 0600);
	ASSERT_EQ((ssize_t)sizeof(content), write(fd, content, sizeof(content)));
	close(fd);

	char *argv[] = { (char *)fr_prog("sc_known"), side, data, sub, NULL };

	id = run_to_exit(_metadata, self->c, argv, &pid, &d);
	ASSERT_GT(id, 0);
	EXPECT_TRUE(d.have_sysinfo);
	EXPECT_TRUE(d.have_end);
	EXPECT_EQ(FLIGHTREC_END_EXIT, d.end_kind);
	EXPECT_GT(d.nth, 0);

	fd = open(side, O_RDONLY);
	ASSERT_GE(fd, 0);
	n = read(fd, sidebuf, sizeof(sidebuf));
	close(fd);
	ASSERT_GT(n, 0);
	nexp = parse_side(sidebuf, n, exp, 128);
	ASSERT_GT(nexp, 30);

	start = frd_find(&d, 0, SYS_getpriority, PRIO_PROCESS, SC_MARK_START);
	ASSERT_GE(start, 0) TH_LOG("start marker not recorded (%zu records)", d.nsc);
	end = frd_find(&d, start, SYS_getpriority, PRIO_PROCESS, SC_MARK_END);
	ASSERT_GE(end, 0);
	/* nothing else, nothing missing, same order */
	ASSERT_EQ((long)nexp, end - start - 1);
	for (i = 0; i < nexp; i++) {
		const struct frd_sc *s = &d.sc[start + 1 + i];
		size_t nth[256] = { 0 };

		ASSERT_EQ(exp[i].nr, s->nr) TH_LOG("record %zu", i);
		ASSERT_EQ(exp[i].ret, s->ret) TH_LOG("record %zu (nr %u)", i, s->nr);
		ASSERT_EQ((uint32_t)pid, s->tid);
		EXPECT_EQ(0, s->flags & (FLIGHTREC_SC_COPY_FAILED | FLIGHTREC_SC_UNKNOWN_OUT))
			TH_LOG("nr %u flags %#x", s->nr, s->flags);
		if (i)
			ASSERT_LT(d.sc[start + i].seq, s->seq);
		/*
		 * No more out-buffers either (a NULL pointer gives none); the
		 * paths a call read are kept as in-buffers, not counted here.
		 */
		for (j = 0, nout = 0; j < exp[i].nouts; j++)
			nout += exp[i].outs[j].len != 0;
		for (j = 0; j < s->nouts; j++)
			nout -= !FLIGHTREC_OUT_IS_IN(s->outs[j].arg);
		EXPECT_EQ(0, nout) TH_LOG("nr %u: %u out-buffers", s->nr, s->nouts);
		for (j = 0; j < exp[i].nouts; j++) {
			const struct frd_out *o;
			uint32_t arg = exp[i].outs[j].arg;

			if (!exp[i].outs[j].len)
				continue;
			o = frd_out(s, arg, nth[arg & 255]++);
			ASSERT_NE(NULL, o) TH_LOG("nr %u: no out-buffer for arg %u", s->nr, arg);
			ASSERT_EQ(exp[i].outs[j].len, o->len)
				TH_LOG("nr %u arg %u", s->nr, arg);
			ASSERT_EQ(0, memcmp(exp[i].outs[j].data, o->data, o->len))
				TH_LOG("nr %u arg %u: bytes differ", s->nr, arg);
		}
	}
	/*
	 * The in-hash of data passed in, against the hash of the bytes the
	 * program passed, all by the words rule with its own flag
	 * (uapi/flightrec_inhash.h: each range's words, then its last 0-7
	 * bytes by FNV-1a; the writev's two iovecs are two ranges): a small
	 * write read directly by the probe (FNV-1a byte by byte, the first
	 * rule, until s60), an iovec and sendto (which passes an address,
	 * none here) through the general reader.
	 */
	struct {
		uint32_t nr;
		const char *bytes[2];	/* its ranges */
		size_t seen;
		uint32_t flag;
	} hin[] = {
		{ SYS_write, { "hello, pipe, from sc_known." }, 0, FLIGHTREC_SC_IN_HASH_W },
		{ SYS_writev, { "abcdefg", "hijklmnopq" }, 0, FLIGHTREC_SC_IN_HASH_W },
		{ SYS_sendto, { "over the socket" }, 0, FLIGHTREC_SC_IN_HASH_W },
	};
	for (i = start + 1; i < (size_t)end; i++) {
		const struct frd_sc *s = &d.sc[i];

		for (j = 0; j < sizeof(hin) / sizeof(hin[0]); j++) {
			uint64_t want = FR_FNV_OFFSET;

			if (s->nr != hin[j].nr || hin[j].seen++)
				continue;
			ASSERT_EQ(hin[j].flag, s->flags & (FLIGHTREC_SC_IN_HASH |
							   FLIGHTREC_SC_IN_HASH_SA |
							   FLIGHTREC_SC_IN_HASH_W))
				TH_LOG("nr %u: flags %#x", s->nr, s->flags);
			for (int r = 0; r < 2 && hin[j].bytes[r]; r++) {
				const char *b = hin[j].bytes[r];
				size_t bl = strlen(b), wl = 0;

				if (hin[j].flag == FLIGHTREC_SC_IN_HASH_W)
					wl = bl & ~(size_t)7;
				want = fr_hash_words(want, b, wl);
				want = fr_fnv1a(want, b + wl, bl - wl);
			}
			EXPECT_EQ(want, s->in_hash) TH_LOG("nr %u: in_hash %#llx", s->nr,
							   (unsigned long long)s->in_hash);
		}
	}
	/*
	 * Two small in-ranges (ppoll's pollfds and timeout: the general
	 * path's in-place hash, fr_hash_small), each range hashed on by the
	 * words rule: the pollfds as the call before left them (its
	 * out-buffer), then the first ppoll's NULL timeout (nothing), the
	 * second's 16 zero bytes.
	 */
	static const uint8_t zero16[16];
	const struct frd_sc *before = NULL;
	int nppoll = 0;

	for (i = start + 1; i < (size_t)end && nppoll < 2; i++) {
		const struct frd_sc *s = &d.sc[i];
		uint64_t want;

		if (s->nr == SYS_poll)
			before = s;
		if (s->nr != SYS_ppoll || !before)
			continue;
		ASSERT_LE(1, before->nouts);
		ASSERT_EQ(16, before->outs[0].len);
		want = fr_hash_words(FR_FNV_OFFSET, before->outs[0].data, 16);
		if (nppoll)
			want = fr_hash_words(want, zero16, sizeof(zero16));
		EXPECT_EQ(FLIGHTREC_SC_IN_HASH_W, s->flags & (FLIGHTREC_SC_IN_HASH |
							      FLIGHTREC_SC_IN_HASH_SA |
							      FLIGHTREC_SC_IN_HASH_W))
			TH_LOG("ppoll %d: flags %#x", nppoll, s->flags);
		EXPECT_EQ(want, s->in_hash) TH_LOG("ppoll %d: in_hash %#llx", nppoll,
						   (unsigned long long)s->in_hash);
		before = s;
		nppoll++;
	}
	EXPECT_EQ(2, nppoll);
	size_t nseen = 0;

	for (j = 0; j < sizeof(hin) / sizeof(hin[0]); j++)
		nseen += !!hin[j].seen;
	EXPECT_EQ(sizeof(hin) / sizeof(hin[0]), nseen) TH_LOG("a hashed call was not recorded");
	/* the known file's bytes, as the read returned them */
	ASSERT_EQ(0, memcmp(d.sc[start + 2].outs[0].data, content, d.sc[start + 2].outs[0].len));
	EXPECT_EQ(0, fr_client_release_dump(self->c, id, err, sizeof(err)));
	/*
	 * Its two children were recorded too (followed at fork) and left
	 * their exit dumps: released, or a later test's `flightrec watch`
	 * finds them among the dumps nobody read (checkpoint_cmds's watch
	 * tests did, run after this one in one boot).
	 */
	struct kids k = { (uint32_t)pid, { 0 }, 0 };

	ASSERT_EQ(0, fr_client_list_dumps(self->c, kids_cb, &k));
	EXPECT_EQ(2, k.n);
	for (i = 0; i < k.n; i++)
		EXPECT_EQ(0, fr_client_release_dump(self->c, k.id[i], err, sizeof(err)))
			TH_LOG("%s", err);
	frd_free(&d);
}

/* flightrec log PID: the live ring, strace-style, from the same table */
TEST_F_TIMEOUT(rec, log_live_ring, 120)
{
	char cmd[PATH_MAX + 64], out[1 << 16], err[256];
	int fds[2], status, n = 0;
	const char *p;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(fds));
	pid = fork();
	if (pid == 0) {
		close(fds[1]);
		if (read(fds[0], &c, 1) != 1)	/* registered now */
			_exit(2);
		for (int i = 0; i < 25; i++)
			syscall(SYS_getpriority, PRIO_PROCESS, 0x7e5c00);
		if (read(fds[0], &c, 1) != 0)	/* until the test is done */
			_exit(3);
		_exit(0);
	}
	close(fds[0]);
	ASSERT_EQ(0, fr_client_register(self->c, pid, 60000, 8, 0, err, sizeof(err)))
		TH_LOG("%s", err);
	ASSERT_EQ(1, write(fds[1], "g", 1));
	usleep(500000);
	snprintf(cmd, sizeof(cmd), "%s", fr_tool("flightrec"));
	char pidstr[16];

	snprintf(pidstr, sizeof(pidstr), "%d", pid);
	char *argv[] = { cmd, "log", pidstr, NULL };

	ASSERT_EQ(0, fr_run(argv, out, sizeof(out), &status));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	for (p = out; (p = strstr(p, "getpriority(")); p++)
		/* the decoder shows getpriority's who in decimal: 0x7e5c00 */
		if (strstr(p, "8281088") && strstr(p, "8281088") < strchrnul(p, '\n'))
			n++;
	EXPECT_EQ(25, n) TH_LOG("%d marker lines in:\n%.2000s", n, out);
	close(fds[1]);
	ASSERT_EQ(0, fr_wait_timeout(pid, &status, 10000));
	/* not registered any more: a clear error, exit 1 */
	ASSERT_EQ(0, fr_run(argv, out, sizeof(out), &status));
	EXPECT_EQ(1, WEXITSTATUS(status));
}

/*
 * Paths the program made at run time (issue 27.3): not in the pages of the
 * interval's start, so `flightrec log` shows them from what the recorder
 * kept of each call (FLIGHTREC_OUT_ARG_IN), a failed call's too; replay
 * writes nothing from them and still ends as recorded.
 */
TEST_F_TIMEOUT(rec, log_built_paths, 120)
{
	char dir[64], line[128], paths[3][64];
	const char *calls[3] = { "openat(AT_FDCWD, \"%s\"", "rename(\"%s\", \"%s\")",
				 "mkdir(\"%s\"" };
	FILE *f;
	int i;

	ASSERT_EQ(0, fr_mkdtemp(dir, sizeof(dir)));
	ASSERT_EQ(0, fr_sh("cd %s && %s record --at-exit --interval-ms 5000 -o ck -- %s %s "
			   "> live 2> rec.err", dir, fr_tool("flightrec"), fr_prog("built_paths"),
			   dir)) fr_sh("tail -3 %s/rec.err", dir);
	snprintf(line, sizeof(line), "%s/live", dir);
	f = fopen(line, "r");
	ASSERT_NE(NULL, f);
	for (i = 0; i < 3; i++) {
		ASSERT_NE(NULL, fgets(paths[i], sizeof(paths[i]), f));
		paths[i][strcspn(paths[i], "\n")] = 0;
	}
	fclose(f);
	ASSERT_EQ(0, fr_sh("cd %s && %s log ck/*.flrc > log.txt 2>&1", dir, fr_tool("flightrec")))
		fr_sh("tail -3 %s/log.txt", dir);
	for (i = 0; i < 3; i++) {
		char want[256];

		/* rename(a, b): paths[0], then paths[1] */
		snprintf(want, sizeof(want), calls[i], paths[i == 1 ? 0 : i], paths[1]);
		setenv("FR_WANT", want, 1);
		EXPECT_EQ(0, fr_sh("grep -qF -- \"$FR_WANT\" %s/log.txt", dir)) {
			TH_LOG("no '%s' in the log:", want);
			fr_sh("grep -E 'openat|rename|mkdir' %s/log.txt | tail -4", dir);
		}
	}
	/* a failed call's path too: the open and the rename failed (ENOENT) */
	EXPECT_EQ(0, fr_sh("grep -F -- '%s' %s/log.txt | grep -q ENOENT", paths[0], dir));
	ASSERT_EQ(0, fr_sh("cd %s && %s replay ck/*.flrc --out rep > rout 2> rerr && "
			   "grep -q 'exited with status 0.*as recorded' rerr && cmp live rep/fd1.out",
			   dir, fr_tool("flightrec"))) fr_sh("tail -4 %s/rerr", dir);
	fr_sh("rm -rf %s", dir);
}

/*
 * A write from an anonymous page never touched: the sys_enter probe's read
 * for the in-hash faults in atomic context and gives up (no hash, the call
 * recorded all the same), without serving the fault (that would sleep: the
 * rig's kernel-log check fails).  Once the program read the page (the zero
 * page mapped) the same write has the hash of 8 zero bytes.
 */
TEST_F_TIMEOUT(rec, untouched_in_buffer, 60)
{
	static const char zero[8];
	char *argv[] = { (char *)fr_prog("sc_untouched"), NULL };
	int id, rounds = 0;
	long start, end, i;
	char err[256];
	struct frd d;

	id = run_to_marks(_metadata, self->c, argv, &d, &start, &end);
	/* per round: mmap, write (untouched), write (zero page) */
	ASSERT_EQ(8 * 3, end - start - 1);
	for (i = start + 1; i < end; i += 3) {
		const struct frd_sc *w1 = &d.sc[i + 1], *w2 = &d.sc[i + 2];

		ASSERT_EQ(SYS_mmap, d.sc[i].nr);
		ASSERT_EQ(SYS_write, w1->nr);
		ASSERT_EQ(8, w1->ret);
		ASSERT_EQ(d.sc[i].ret, (int64_t)w1->args[1]);
		EXPECT_EQ(0, w1->flags & (FLIGHTREC_SC_IN_HASH | FLIGHTREC_SC_IN_HASH_W))
			TH_LOG("round %d: an untouched page was hashed", rounds);
		ASSERT_EQ(SYS_write, w2->nr);
		ASSERT_EQ(8, w2->ret);
		ASSERT_EQ(FLIGHTREC_SC_IN_HASH_W, w2->flags & (FLIGHTREC_SC_IN_HASH |
							       FLIGHTREC_SC_IN_HASH_W))
			TH_LOG("round %d", rounds);
		EXPECT_EQ(fr_hash_words(FR_FNV_OFFSET, zero, sizeof(zero)), w2->in_hash);
		rounds++;
	}
	EXPECT_EQ(8, rounds);
	EXPECT_EQ(0, fr_client_release_dump(self->c, id, err, sizeof(err)));
	frd_free(&d);
}

/* fr_hash_range()'s reader over a buffer of this process */
static int mem_rd(void *ctx, fr_hash_u64 addr, void *buf, size_t len)
{
	(void)ctx;
	memcpy(buf, (const void *)(uintptr_t)addr, len);
	return 0;
}

/*
 * Every length the module copies user memory by: a pread64's out-buffer
 * and a write's in-hash, of 1 to 2047 bytes at odd addresses (the inline
 * word copy up to 64 bytes, the 16-byte word loop and its overlapping last
 * word up to 1023, copy_from_user_nofault and the bulk copy above), give
 * the program's exact bytes and the words rule's hash of them.
 */
TEST_F_TIMEOUT(rec, copy_lengths, 60)
{
	static const unsigned int lengths[] = { SC_LENGTHS };
	static unsigned char pat[SC_LENGTHS_MAX];
	char *argv[] = { (char *)fr_prog("sc_lengths"), NULL };
	long start, end, i;
	unsigned int k;
	char err[256];
	struct frd d;
	int id;

	for (k = 0; k < sizeof(pat); k++)
		pat[k] = SC_LENGTHS_BYTE(k);
	id = run_to_marks(_metadata, self->c, argv, &d, &start, &end);
	ASSERT_EQ(2 * sizeof(lengths) / sizeof(lengths[0]), (size_t)(end - start - 1));
	for (k = 0, i = start + 1; i < end; i += 2, k++) {
		const struct frd_sc *r = &d.sc[i], *w = &d.sc[i + 1];
		unsigned int len = lengths[k];
		fr_hash_u64 want = FR_FNV_OFFSET;

		ASSERT_EQ(SYS_pread64, r->nr);
		ASSERT_EQ(len, r->ret);
		ASSERT_EQ(1, r->nouts) TH_LOG("%u bytes", len);
		EXPECT_EQ(r->args[1], r->outs[0].addr);
		EXPECT_EQ(SC_LENGTHS_OFF(len), r->outs[0].addr & 15) TH_LOG("%u bytes", len);
		ASSERT_EQ(len, r->outs[0].len);
		EXPECT_EQ(0, memcmp(pat, r->outs[0].data, len)) TH_LOG("%u bytes: not the bytes read", len);
		ASSERT_EQ(SYS_write, w->nr);
		ASSERT_EQ(len, w->ret);
		EXPECT_EQ(r->args[1], w->args[1]);
		ASSERT_EQ((long)len, fr_hash_range(&want, (uintptr_t)pat, len, FR_IN_HASH_MAX,
						   FR_HR_WORDS, mem_rd, NULL));
		EXPECT_EQ(FLIGHTREC_SC_IN_HASH_W, w->flags & (FLIGHTREC_SC_IN_HASH |
							      FLIGHTREC_SC_IN_HASH_W))
			TH_LOG("%u bytes: flags %#x", len, w->flags);
		EXPECT_EQ(want, w->in_hash) TH_LOG("%u bytes: in_hash %#llx", len,
						   (unsigned long long)w->in_hash);
	}
	EXPECT_EQ(0, fr_client_release_dump(self->c, id, err, sizeof(err)));
	frd_free(&d);
}

/*
 * An int $0x80 call of a 64-bit process is not recorded (the syscall table
 * is x86_64's): the interval says so, never a silent gap (issue 24.12).
 */
/*
 * Each record carries the CLOCK_MONOTONIC time of its call's entry
 * (issue 27.3: log -r): nonzero, in the thread's order, and a call made
 * after a 200 ms sleep began at least 200 ms after the sleep did (a bound
 * the sleep guarantees, not a timing measurement).
 */
TEST_F_TIMEOUT(rec, entry_times, 60)
{
	char *argv[] = { "/bin/sleep", "0.2", NULL };
	struct timespec now;
	long sleep_at = -1;
	uint64_t now_ns;
	char err[256];
	struct frd d;
	pid_t pid;
	size_t i;
	int id;

	id = run_to_exit(_metadata, self->c, argv, &pid, &d);
	ASSERT_GT(id, 0);
	ASSERT_EQ(0, clock_gettime(CLOCK_MONOTONIC, &now));
	now_ns = now.tv_sec * 1000000000ull + now.tv_nsec;
	ASSERT_GT(d.nsc, 3);
	for (i = 0; i < d.nsc; i++) {
		ASSERT_NE(0, d.sc[i].time_ns) TH_LOG("record %zu (nr %u) has no time",
						     i, d.sc[i].nr);
		EXPECT_LT(d.sc[i].time_ns, now_ns);
		if (i)
			EXPECT_LE(d.sc[i - 1].time_ns, d.sc[i].time_ns)
				TH_LOG("record %zu (nr %u) before record %zu (nr %u)",
				       i, d.sc[i].nr, i - 1, d.sc[i - 1].nr);
		if (d.sc[i].nr == SYS_clock_nanosleep || d.sc[i].nr == SYS_nanosleep)
			sleep_at = i;
	}
	ASSERT_GE(sleep_at, 0) TH_LOG("no sleep recorded");
	ASSERT_LT(sleep_at + 1, (long)d.nsc);
	EXPECT_GE(d.sc[sleep_at + 1].time_ns - d.sc[sleep_at].time_ns, 200000000ull);
	EXPECT_EQ(0, fr_client_release_dump(self->c, id, err, sizeof(err)));
	frd_free(&d);
}

/*
 * The entry time of a record is a TSC stamp made CLOCK_MONOTONIC when the
 * dump is read (fr_stamp_ns), interpolated between pairs that each
 * interval took at its start: it must agree with the clock itself.
 * tests/progs/clock_stamps reads CLOCK_MONOTONIC by real syscalls for
 * 600 ms, with 10 ms intervals cut between them and during its 4 ms
 * sleeps (a time, not a count of calls: on the debug kernel 160 and 320
 * calls fell in 3 and 2 intervals, its cuts later than asked): each
 * call's entry stamp comes no later than the time it read, and that time
 * no later than the thread's next entry stamp; a sleep's entry stamp at
 * least 4 ms before the next.  FR_STAMP_SLACK_NS allows for how far apart
 * the two reads of a pair can be (fr_pin keeps the closest of three).
 */
#define FR_STAMP_SLACK_NS	20000ull

TEST_F_TIMEOUT(rec, entry_times_exact, 60)
{
	char *argv[] = { (char *)fr_prog("clock_stamps"), "600", NULL };
	size_t i, j, clocks = 0, sleeps = 0, crossings = 0;
	int64_t before = INT64_MAX, after = INT64_MAX;
	uint32_t last_iv = UINT32_MAX;
	char err[256];
	struct frd d;
	pid_t pid;
	int id;

	char status[4096], cs[32];
	const char *stamps;

	/* the kernel's clock is the TSC: so are the stamps */
	ASSERT_GT(fr_read_file("/proc/flightrec/status", status, sizeof(status)), 0);
	stamps = strstr(status, "\nstamps ");
	ASSERT_NE(NULL, stamps);
	stamps += strlen("\nstamps ");
	if (fr_read_file("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			 cs, sizeof(cs)) > 0 && !strcmp(cs, "tsc\n"))
		ASSERT_EQ(0, strncmp(stamps, "tsc\n", 4));
	id = run_to_exit_iv(_metadata, self->c, argv, &pid, &d, 10, 8);
	ASSERT_GT(id, 0);
	for (i = 0; i < d.nsc; i++) {
		const struct frd_sc *s = &d.sc[i], *n = NULL;
		struct timespec ts;
		uint64_t ts_ns;

		for (j = i + 1; j < d.nsc && !n; j++)
			if (d.sc[j].tid == s->tid)
				n = &d.sc[j];
		if (!n)
			continue;
		ASSERT_NE(0, s->time_ns) TH_LOG("record %zu (nr %u)", i, s->nr);
		if (s->nr == SYS_nanosleep) {
			EXPECT_LE(s->time_ns + 4000000ull, n->time_ns + FR_STAMP_SLACK_NS)
				TH_LOG("record %zu: a 4 ms sleep from %llu to %llu",
				       i, (unsigned long long)s->time_ns,
				       (unsigned long long)n->time_ns);
			sleeps++;
			continue;
		}
		if (s->nr != SYS_clock_gettime || s->ret || s->nouts != 1 ||
		    s->outs[0].len != sizeof(ts))
			continue;
		memcpy(&ts, s->outs[0].data, sizeof(ts));
		ts_ns = ts.tv_sec * 1000000000ull + ts.tv_nsec;
		EXPECT_LE(s->time_ns, ts_ns + FR_STAMP_SLACK_NS)
			TH_LOG("record %zu (interval %u): entered at %llu, read %llu",
			       i, s->interval, (unsigned long long)s->time_ns,
			       (unsigned long long)ts_ns);
		EXPECT_LE(ts_ns, n->time_ns + FR_STAMP_SLACK_NS)
			TH_LOG("record %zu (interval %u): read %llu, next (interval %u) entered at %llu",
			       i, s->interval, (unsigned long long)ts_ns,
			       n->interval, (unsigned long long)n->time_ns);
		if ((int64_t)(ts_ns - s->time_ns) < before)
			before = ts_ns - s->time_ns;
		if ((int64_t)(n->time_ns - ts_ns) < after)
			after = n->time_ns - ts_ns;
		if (last_iv != UINT32_MAX && s->interval != last_iv)
			crossings++;
		last_iv = s->interval;
		clocks++;
	}
	TH_LOG("stamps %.*s: %zu clock reads, %zu sleeps, %zu interval changes; least ns from entry to read %lld, from read to next entry %lld",
	       (int)strcspn(stamps, "\n"), stamps, clocks, sleeps, crossings,
	       (long long)before, (long long)after);
	EXPECT_GE(clocks, 16);
	EXPECT_GE(sleeps, 2);
	EXPECT_GE(crossings, 1) TH_LOG("the recording made no cut to test");
	EXPECT_EQ(0, fr_client_release_dump(self->c, id, err, sizeof(err)));
	frd_free(&d);
}

TEST_F_TIMEOUT(rec, int80_flagged, 60)
{
	char *argv[] = { (char *)fr_prog("int80"), NULL };
	uint32_t flags = 0;
	char err[256];
	struct frd d;
	pid_t pid;
	size_t i;
	int id;

	id = run_to_exit(_metadata, self->c, argv, &pid, &d);
	ASSERT_GT(id, 0);
	for (i = 0; i < d.niv; i++)
		flags |= d.iv[i].flags;
	EXPECT_TRUE(flags & FLIGHTREC_IF_FOREIGN_SYSCALL) TH_LOG("flags %#x", flags);
	EXPECT_EQ(0, fr_client_release_dump(self->c, id, err, sizeof(err)));
	frd_free(&d);
}

/*
 * Every syscall instruction is recorded with its result, whatever its
 * number (issue 25, class 1): numbers outside the table, in a hole of it,
 * x32 ones, -1, and 0x10000 to 0x10003, which are the numbers of the
 * recorder's own event records (those carry
 * FLIGHTREC_SC_REAL_NR).  A call the kernel answered -ENOSYS did nothing:
 * its out-semantics are known (none), so the interval is not marked "may
 * not replay".  A number with the upper 32 bits set runs as its low 32 bits
 * (the kernel's rule) and is recorded as that call.
 */
TEST_F_TIMEOUT(rec, unknown_numbers_recorded, 60)
{
	char *argv[] = { (char *)fr_prog("sc_unknown"), NULL };
	uint32_t ivflags = 0;
	char err[256];
	struct frd d;
	size_t i, k;
	long at = 0;
	pid_t pid;
	int id;

	id = run_to_exit(_metadata, self->c, argv, &pid, &d);
	ASSERT_GT(id, 0);
	for (i = 0; i < d.niv; i++)
		ivflags |= d.iv[i].flags;
	for (k = 0; k < SC_UNKNOWN_N; k++) {
		uint32_t nr = (uint32_t)sc_unknown_nrs[k];
		const struct frd_sc *s = NULL;

		for (i = at; i < d.nsc; i++) {
			if (d.sc[i].nr == nr && d.sc[i].args[1] == 300 && d.sc[i].args[5] == 6) {
				s = &d.sc[i];
				at = i + 1;
				break;
			}
		}
		ASSERT_NE(NULL, s) TH_LOG("no record of syscall %#x (the %zu-th)", nr, k);
		EXPECT_EQ((uint32_t)pid, s->tid);
		EXPECT_EQ(3, s->args[2]);
		if (nr & 0x40000000 && nr != 0xffffffffU && nr != 0xfffffffeU &&
		    s->ret != -ENOSYS) {
			/* x32 is on in this kernel: the call ran, outs unknown */
			EXPECT_TRUE(s->flags & FLIGHTREC_SC_UNKNOWN_OUT);
			continue;
		}
		EXPECT_EQ(-ENOSYS, s->ret) TH_LOG("syscall %#x", nr);
		EXPECT_EQ(0, s->flags & (FLIGHTREC_SC_UNKNOWN_OUT | FLIGHTREC_SC_COPY_FAILED))
			TH_LOG("syscall %#x: flags %#x", nr, s->flags);
		EXPECT_EQ(nr == FLIGHTREC_NR_SIGNAL || nr == FLIGHTREC_NR_RDTSC ||
			  nr == FLIGHTREC_NR_PREEMPT || nr == FLIGHTREC_NR_PTRACE,
			  !!(s->flags & FLIGHTREC_SC_REAL_NR)) TH_LOG("syscall %#x", nr);
		EXPECT_FALSE(FLIGHTREC_IS_EVENT(s->nr, s->flags, FLIGHTREC_NR_SIGNAL));
		EXPECT_FALSE(FLIGHTREC_IS_EVENT(s->nr, s->flags, FLIGHTREC_NR_RDTSC));
		EXPECT_FALSE(FLIGHTREC_IS_EVENT(s->nr, s->flags, FLIGHTREC_NR_PREEMPT));
		EXPECT_FALSE(FLIGHTREC_IS_EVENT(s->nr, s->flags, FLIGHTREC_NR_PTRACE));
	}
	/* the high number, recorded as getpid with the pid */
	for (i = at; i < d.nsc && d.sc[i].nr != SYS_getpid; i++)
		;
	ASSERT_LT(i, d.nsc) TH_LOG("no getpid record after the unknown numbers");
	EXPECT_EQ(pid, d.sc[i].ret);
	EXPECT_EQ(0, ivflags & FLIGHTREC_IF_FOREIGN_SYSCALL) TH_LOG("flags %#x", ivflags);
	EXPECT_EQ(0, ivflags & FLIGHTREC_IF_LOST_RECORD) TH_LOG("flags %#x", ivflags);
	EXPECT_EQ(0, fr_client_release_dump(self->c, id, err, sizeof(err)));
	frd_free(&d);
}

/*
 * The vDSO of a new program is patched even when it lands at the address
 * of the old one (issue 24.8: vdso_patched was not reset at exec, so with
 * address randomization off the new vDSO's time calls went unrecorded).
 */
TEST_F_TIMEOUT(rec, vdso_patched_after_exec, 60)
{
	char *argv[] = { (char *)fr_prog("exec_vdso"), NULL };
	char err[256];
	struct frd d;
	size_t i, n = 0;
	pid_t pid;
	int id;

	id = run_to_exit(_metadata, self->c, argv, &pid, &d);
	ASSERT_GT(id, 0);
	for (i = 0; i < d.nsc; i++)
		if (d.sc[i].nr == SYS_clock_gettime)
			n++;
	/* the ring restarted at the last exec: its 50 calls, and ld.so's */
	EXPECT_LE(50, n);
	EXPECT_EQ(0, fr_client_release_dump(self->c, id, err, sizeof(err)));
	frd_free(&d);
}

TEST_HARNESS_MAIN
