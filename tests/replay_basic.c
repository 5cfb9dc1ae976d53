// SPDX-License-Identifier: GPL-2.0
/*
 * Replay tests that need no kernel module: checkpoints are written by the
 * ptrace fixture (tests/tools/ptsnap.c) from the programs in tests/progs/,
 * then replayed with `flightrec replay` / `flightrec gdb`.
 *
 * Each test checks exact behaviour: the replayed output is byte-identical to
 * what the program printed live after the snapshot point; the recorded end
 * (fault, abort, exit status, dump point) happens again at the recorded
 * instruction; a damaged log is reported as a divergence with exit 5.
 *
 * Paths: the binaries are found from this test's location (tests/bin/);
 * FLIGHTREC=path overrides the flightrec command.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cpuid.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "kselftest_harness.h"
#include "fr_test.h"
#include "checkpoint.h"
#include "flightrec.h"
#include "libflightrec.h"

static char bindir[PATH_MAX];		/* tests/bin */
static char flightrec[PATH_MAX + 64];
static char ptsnap[PATH_MAX + 64];
static char loader[PATH_MAX + 64];

static void find_paths(void)
{
	char *slash;
	ssize_t n;

	if (bindir[0])
		return;
	n = readlink("/proc/self/exe", bindir, sizeof(bindir) - 1);
	if (n <= 0)
		strcpy(bindir, ".");
	else
		bindir[n] = 0;
	slash = strrchr(bindir, '/');
	if (slash)
		*slash = 0;
	snprintf(flightrec, sizeof(flightrec), "%s",
		 getenv("FLIGHTREC") ? getenv("FLIGHTREC") : "");
	if (!flightrec[0])
		snprintf(flightrec, sizeof(flightrec), "%s/../../user/flightrec", bindir);
	snprintf(ptsnap, sizeof(ptsnap), "%s/tools/ptsnap", bindir);
	snprintf(loader, sizeof(loader), "%s/../../user/loader/flightrec-loader", bindir);
}

/* Runs a shell command line; returns its exit status (or 128+signal). */

static int same_file(const char *dir, const char *a, const char *b)
{
	size_t la, lb;
	char *x = fr_slurp(dir, a, &la), *y = fr_slurp(dir, b, &lb);
	int same = x && y && la == lb && !memcmp(x, y, la);

	free(x);
	free(y);
	return same;
}

/* The End of a checkpoint, for comparing with what replay says. */
static int end_of(const char *dir, const char *name, uint32_t *signo, uint64_t *rip,
		  uint64_t *addr)
{
	char path[PATH_MAX], err[256];
	struct flrc *c;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (flrc_read(path, &c, err, sizeof(err)) || !c->end || !c->end->regs)
		return -1;
	*signo = c->end->signo;
	*rip = c->end->regs->rip;
	*addr = c->end->fault_addr;
	flrc_free(c);
	return 0;
}

FIXTURE(replay) {
	char dir[512];
};

FIXTURE_SETUP(replay)
{
	find_paths();
	snprintf(self->dir, sizeof(self->dir), "/tmp/flightrec-replay.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	if (access(ptsnap, X_OK) || access(flightrec, X_OK) || access(loader, X_OK))
		SKIP(return, "ptsnap, flightrec or the loader is not built");
	/* a data file for the programs that read one */
	ASSERT_EQ(0, fr_sh("head -c 100000 /dev/urandom > %s/data.bin", self->dir));
}

FIXTURE_TEARDOWN(replay)
{
	if (self->dir[0] && !getenv("FR_KEEP"))
		fr_sh("rm -rf %s", self->dir);
}

/* Records PROG (with ARGS) after its marker into DIR/NAME.flrc; live output in NAME.live */
static int record(const char *dir, const char *name, const char *extra, const char *prog,
		  const char *args)
{
	return fr_sh("cd %s && %s --marker -q %s -o %s/%s.flrc -- %s/progs/%s %s > %s.live 2> %s.liveerr",
		  dir, ptsnap, extra, dir, name, bindir, prog, args, name, name);
}

static int replay(const char *dir, const char *name, const char *extra)
{
	return fr_sh("cd %s && %s replay %s %s.flrc --out %s.rep > %s.rout 2> %s.rerr", dir,
		  flightrec, extra, name, name, name, name);
}

static const char *name_live(const char *n)
{
	static char b[64];

	snprintf(b, sizeof(b), "%s.live", n);
	return b;
}

static const char *name_out(const char *n)
{
	static char b[64];

	snprintf(b, sizeof(b), "%s.rep/fd1.out", n);
	return b;
}

static const char *name_err(const char *n)
{
	static char b[64];

	snprintf(b, sizeof(b), "%s.rerr", n);
	return b;
}

static void check_fault(struct __test_metadata *_metadata, const char *dir, const char *name,
			const char *sig)
{
	char want[160], rep[PATH_MAX + 16], rerr[64];
	uint32_t signo;
	uint64_t rip, addr;

	snprintf(rep, sizeof(rep), "%s/%s.rep", dir, name);
	snprintf(rerr, sizeof(rerr), "%s.rerr", name);
	ASSERT_EQ(0, end_of(dir, strcat(strcpy(want, name), ".flrc"), &signo, &rip, &addr));
	snprintf(want, sizeof(want), "reproduced %s at rip 0x%lx", sig, (unsigned long)rip);
	EXPECT_TRUE(fr_file_contains(dir, rerr, want)) {
		TH_LOG("expected '%s' in replay's stderr", want);
		fr_sh("cat %s/%s", dir, rerr);
	}
	EXPECT_TRUE(fr_file_contains(dir, rerr, "as recorded"));
	(void)rep;
}

TEST_F_TIMEOUT(replay, null_deref, 120)
{
	char out[64];

	ASSERT_EQ(128 + SIGSEGV, record(self->dir, "cn", "", "crash_null", "data.bin"));
	ASSERT_EQ(0, replay(self->dir, "cn", "-q"));
	snprintf(out, sizeof(out), "cn.rep/fd1.out");
	EXPECT_TRUE(same_file(self->dir, "cn.live", out));
	check_fault(_metadata, self->dir, "cn", "SIGSEGV");
	EXPECT_TRUE(fr_file_contains(self->dir, "cn.rerr", "(addr 0x8)"));
}

TEST_F_TIMEOUT(replay, heap_overflow, 120)
{
	ASSERT_EQ(128 + SIGABRT, record(self->dir, "heap", "", "crash_heap", ""));
	ASSERT_EQ(0, replay(self->dir, "heap", "-q"));
	EXPECT_TRUE(same_file(self->dir, "heap.live", "heap.rep/fd1.out"));
	EXPECT_TRUE(same_file(self->dir, "heap.liveerr", "heap.rep/fd2.out"));
	check_fault(_metadata, self->dir, "heap", "SIGABRT");
}

TEST_F_TIMEOUT(replay, division_by_zero, 120)
{
	ASSERT_EQ(128 + SIGFPE, record(self->dir, "div", "", "crash_div", ""));
	ASSERT_EQ(0, replay(self->dir, "div", "-q"));
	EXPECT_TRUE(same_file(self->dir, "div.live", "div.rep/fd1.out"));
	check_fault(_metadata, self->dir, "div", "SIGFPE");
}

TEST_F_TIMEOUT(replay, abort, 120)
{
	ASSERT_EQ(128 + SIGABRT, record(self->dir, "abrt", "", "crash_abort", ""));
	ASSERT_EQ(0, replay(self->dir, "abrt", "-q"));
	EXPECT_TRUE(same_file(self->dir, "abrt.live", "abrt.rep/fd1.out"));
	EXPECT_TRUE(same_file(self->dir, "abrt.liveerr", "abrt.rep/fd2.out"));
	check_fault(_metadata, self->dir, "abrt", "SIGABRT");
}

TEST_F_TIMEOUT(replay, many_writes_and_exit_status, 600)
{
	ASSERT_EQ(3, record(self->dir, "wl", "", "writes_loop", "3000"));
	ASSERT_EQ(0, replay(self->dir, "wl", ""));
	EXPECT_TRUE(same_file(self->dir, "wl.live", "wl.rep/fd1.out"));
	EXPECT_TRUE(same_file(self->dir, "wl.liveerr", "wl.rep/fd2.out"));
	EXPECT_TRUE(fr_file_contains(self->dir, "wl.rerr", "exited with status 3"));
	EXPECT_TRUE(fr_file_contains(self->dir, "wl.rerr", "as recorded"));
	EXPECT_TRUE(fr_file_contains(self->dir, "wl.rerr", "load "));
}

TEST_F_TIMEOUT(replay, show_output, 120)
{
	ASSERT_EQ(3, record(self->dir, "so", "", "writes_loop", "50"));
	ASSERT_EQ(0, replay(self->dir, "so", "-q --show-output"));
	EXPECT_TRUE(same_file(self->dir, "so.live", "so.rout"));
	EXPECT_TRUE(same_file(self->dir, "so.live", "so.rep/fd1.out"));
}

/*
 * Runs of recorded pages that the loader maps from the replay image rather
 * than copies (issue 28, item 6): every byte as recorded, and the calls
 * that tell such a mapping from anonymous memory (madvise DONTNEED,
 * mremap, mprotect, writes) behave as on anonymous memory.
 */
TEST_F_TIMEOUT(replay, image_pages, 120)
{
	unsigned long mapped = 0, runs = 0;
	char *err, *p;
	size_t n;

	ASSERT_EQ(0, record(self->dir, "ip", "", "image_pages", ""));
	ASSERT_EQ(0, replay(self->dir, "ip", "-v")) {
		fr_sh("grep -v '^flightrec replay: \\[' %s/ip.rerr", self->dir);
	}
	EXPECT_TRUE(same_file(self->dir, "ip.live", "ip.rep/fd1.out")) {
		fr_sh("diff %s/ip.live %s/ip.rep/fd1.out", self->dir, self->dir);
	}
	EXPECT_TRUE(fr_file_contains(self->dir, "ip.rerr", "exited with status 0"));
	/* the path under test was taken: A's 64 pages and B's 32 at least */
	err = fr_slurp(self->dir, "ip.rerr", &n);
	ASSERT_NE(NULL, err);
	p = strstr(err, "flightrec replay: pages: ");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(2, sscanf(p, "flightrec replay: pages: %lu mapped from the image in %lu runs",
			    &mapped, &runs));
	free(err);
	EXPECT_LE(96, mapped);
	EXPECT_LE(2, runs);
}

TEST_F_TIMEOUT(replay, dump_point, 120)
{
	size_t ll, rl;
	char *live, *rep;

	/* the process is stopped (killed) at the entry of its 41st syscall */
	record(self->dir, "dp", "--dump-after 40", "writes_loop", "100");
	ASSERT_EQ(0, replay(self->dir, "dp", "-q"));
	EXPECT_TRUE(fr_file_contains(self->dir, "dp.rerr", "reached the dump point"));
	EXPECT_TRUE(fr_file_contains(self->dir, "dp.rerr", "as recorded"));
	live = fr_slurp(self->dir, "dp.live", &ll);
	rep = fr_slurp(self->dir, "dp.rep/fd1.out", &rl);
	ASSERT_NE(NULL, rep);
	ASSERT_NE(NULL, live);
	EXPECT_EQ(rl, ll);
	EXPECT_EQ(0, memcmp(live, rep, rl < ll ? rl : ll));
	free(live);
	free(rep);
}

TEST_F_TIMEOUT(replay, from_each_interval, 120)
{
	char path[PATH_MAX], err[256], name[64], extra[64];
	struct flrc *c;
	size_t ll, rl, i;
	char *live, *rep;

	ASSERT_EQ(3, record(self->dir, "mi", "--every 100 --intervals 4", "writes_loop", "400"));
	snprintf(path, sizeof(path), "%s/mi.flrc", self->dir);
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err)));
	ASSERT_EQ(4, (int)flrc_nr_intervals(c));
	live = fr_slurp(self->dir, "mi.live", &ll);
	ASSERT_NE(NULL, live);
	for (i = 0; i < c->hdr->n_intervals; i++) {
		uint32_t idx = c->hdr->intervals[i]->index;

		snprintf(name, sizeof(name), "mi%u", idx);
		snprintf(extra, sizeof(extra), "-q --from %u", idx);
		ASSERT_EQ(0, fr_sh("cd %s && %s replay %s mi.flrc --out %s.rep 2> %s.rerr",
				self->dir, flightrec, extra, name, name));
		snprintf(path, sizeof(path), "%s.rep/fd1.out", name);
		rep = fr_slurp(self->dir, path, &rl);
		if (!rep)	/* the last interval may hold no write to stdout */
			continue;
		/* each later interval replays a shorter suffix of the output */
		EXPECT_LE(rl, ll);
		EXPECT_EQ(0, memcmp(live + ll - rl, rep, rl));
		free(rep);
	}
	flrc_free(c);
	free(live);
}

TEST_F_TIMEOUT(replay, divergence_syscall_number, 120)
{
	/* record 2 (a read) claims to be a getppid */
	ASSERT_EQ(128 + SIGSEGV, record(self->dir, "dv", "--tamper-nr 2:110", "crash_null",
					"data.bin"));
	EXPECT_EQ(5, replay(self->dir, "dv", "-q"));
	EXPECT_TRUE(fr_file_contains(self->dir, "dv.rerr", "DIVERGED: thread"));
	EXPECT_TRUE(fr_file_contains(self->dir, "dv.rerr", "seq 3"));
	EXPECT_TRUE(fr_file_contains(self->dir, "dv.rerr", "expected getppid()"));
	EXPECT_TRUE(fr_file_contains(self->dir, "dv.rerr", "got      read("));
}

TEST_F_TIMEOUT(replay, divergence_data_passed_in, 120)
{
	/* record 0 is the openat of the data file: its path hash no longer matches */
	ASSERT_EQ(128 + SIGSEGV, record(self->dir, "dh", "--tamper-hash 0", "crash_null",
					"data.bin"));
	EXPECT_EQ(5, replay(self->dir, "dh", "-q"));
	EXPECT_TRUE(fr_file_contains(self->dir, "dh.rerr", "different data passed in"));
	EXPECT_TRUE(fr_file_contains(self->dir, "dh.rerr", "expected openat("));
}

TEST_F_TIMEOUT(replay, signal_handlers, 120)
{
	/* SIGSEGV handled 4 times (mprotect in the handler), SIGFPE on a sigaltstack */
	ASSERT_EQ(128 + SIGSEGV, record(self->dir, "sig", "", "signal_handler", ""));
	ASSERT_EQ(0, replay(self->dir, "sig", "-q"));
	EXPECT_TRUE(same_file(self->dir, "sig.live", "sig.rep/fd1.out"));
	EXPECT_TRUE(fr_file_contains(self->dir, "sig.rep/fd1.out", "fault 4: signal 11 at page 3"));
	EXPECT_TRUE(fr_file_contains(self->dir, "sig.rep/fd1.out", "100 / 0 = -1"));
	check_fault(_metadata, self->dir, "sig", "SIGSEGV");
}

TEST_F_TIMEOUT(replay, threads, 600)
{
	ASSERT_EQ(128 + SIGSEGV, record(self->dir, "th", "", "threads_join", ""));
	ASSERT_EQ(0, replay(self->dir, "th", "-q"));
	EXPECT_TRUE(same_file(self->dir, "th.live", "th.rep/fd1.out"));
	check_fault(_metadata, self->dir, "th", "SIGSEGV");
}

/*
 * pthread_join racing a thread's exit, with another thread created between
 * the exit and the join (ptsnap --hold-exit makes the join find the thread
 * still in its exit, every time): the join's futex wait is in the log, and
 * replay clears the tid word there.  Clearing it at the exit record, as when
 * the search for that wait stopped at any clone, made the join skip its
 * wait and diverge at the next futex call (CI, 6.12, threads_join: 1 run in
 * about 300).
 */
TEST_F_TIMEOUT(replay, threads_join_racing_exit, 300)
{
	ASSERT_EQ(0, record(self->dir, "tx", "--hold-exit", "threads_exit_join", ""));
	EXPECT_TRUE(fr_file_contains(self->dir, "tx.live", "joined: 1 2"));
	ASSERT_EQ(0, replay(self->dir, "tx", "-q"));
	EXPECT_TRUE(same_file(self->dir, "tx.live", "tx.rep/fd1.out"));
	EXPECT_TRUE(fr_file_contains(self->dir, "tx.rerr", "exited with status 0"));
	EXPECT_TRUE(fr_file_contains(self->dir, "tx.rerr", "as recorded"));
}

/*
 * The other side: a thread that is gone before its join (no wait), whose
 * stack and tid word glibc gives to the next thread, whose join waits on
 * that word (ptsnap --hold-exit=2).  That wait is for the second thread's
 * tid: replay clears the word at the first one's exit.  Taking the wait for
 * the first thread's made its join see the thread alive and wait, and
 * diverge (measured with the tid check taken out).
 */
TEST_F_TIMEOUT(replay, threads_join_reused_tid_word, 300)
{
	/*
	 * Without glibc's rseq: the second thread registers the first one's
	 * rseq area too, where a 6.3+ kernel left its mm_cid, which ptsnap
	 * does not record (the module does: rseq_cid), so the registration's
	 * in-data would differ in replay on 6.12.
	 */
	ASSERT_EQ(0, fr_sh("cd %s && GLIBC_TUNABLES=glibc.pthread.rseq=0 %s --marker -q "
			   "--hold-exit=2 -o %s/tr.flrc -- %s/progs/threads_exit_join reuse "
			   "> tr.live 2> tr.liveerr", self->dir, ptsnap, self->dir, bindir));
	ASSERT_TRUE(fr_file_contains(self->dir, "tr.live", "joined: 1 1, reused: yes"));
	ASSERT_EQ(0, replay(self->dir, "tr", "-q"));
	EXPECT_TRUE(same_file(self->dir, "tr.live", "tr.rep/fd1.out"));
	EXPECT_TRUE(fr_file_contains(self->dir, "tr.rerr", "as recorded"));
}

TEST_F_TIMEOUT(replay, gdb_batch, 600)
{
	FILE *f;
	char path[PATH_MAX + 128];

	if (fr_sh("gdb --version > /dev/null 2>&1"))
		SKIP(return, "no gdb");
	ASSERT_EQ(128 + SIGSEGV, record(self->dir, "gd", "", "crash_null", "data.bin"));
	if (snprintf(path, sizeof(path), "%s/cmds.gdb", self->dir) >= (int)sizeof(path))
		return;
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "break lookup if r == 0\ncontinue\nprint r\nup\nprint i\n"
		"print table[2]->name\ncontinue\nbt\ncontinue\n");
	fclose(f);
	ASSERT_EQ(0, fr_sh("cd %s && %s gdb -q gd.flrc --symbols %s/progs/crash_null "
			"--batch cmds.gdb --out gd.rep > gd.gdb 2>&1", self->dir, flightrec,
			bindir));
	EXPECT_TRUE(fr_file_contains(self->dir, "gd.gdb", "stopped at the first instruction"));
	EXPECT_TRUE(fr_file_contains(self->dir, "gd.gdb", "lookup (r=0x0)"));
	EXPECT_TRUE(fr_file_contains(self->dir, "gd.gdb", "$1 = (struct record *) 0x0"));
	EXPECT_TRUE(fr_file_contains(self->dir, "gd.gdb", "$2 = 3"));
	EXPECT_TRUE(fr_file_contains(self->dir, "gd.gdb", "$3 = "));
	EXPECT_TRUE(fr_file_contains(self->dir, "gd.gdb", "\"entry\""));
	EXPECT_TRUE(fr_file_contains(self->dir, "gd.gdb", "SIGSEGV, Segmentation fault"));
	EXPECT_TRUE(fr_file_contains(self->dir, "gd.gdb", "#0  "));
	EXPECT_TRUE(fr_file_contains(self->dir, "gd.gdb", "in lookup (r=0x0) at"));
	EXPECT_TRUE(fr_file_contains(self->dir, "gd.gdb", "in main (argc=2"));
	EXPECT_TRUE(fr_file_contains(self->dir, "gd.gdb", "reproduced SIGSEGV at rip"));
	if (_metadata->passed == 0 || getenv("FR_VERBOSE"))
		fr_sh("cat %s/gd.gdb", self->dir);
}

TEST_F_TIMEOUT(replay, gdb_symbols_by_build_id, 600)
{
	FILE *f;
	char path[PATH_MAX + 128];

	if (fr_sh("gdb --version > /dev/null 2>&1 && objcopy --version > /dev/null 2>&1"))
		SKIP(return, "no gdb or objcopy");
	ASSERT_EQ(128 + SIGSEGV, record(self->dir, "gb", "", "crash_null", "data.bin"));
	/* a separate debug file, found only through DIR/.build-id/xx/yyyy.debug */
	ASSERT_EQ(0, fr_sh("cd %s && id=$(readelf -n %s/progs/crash_null | "
			"sed -n 's/.*Build ID: //p') && mkdir -p dbg/.build-id/${id%%${id#??}} && "
			"objcopy --only-keep-debug %s/progs/crash_null "
			"dbg/.build-id/${id%%${id#??}}/${id#??}.debug", self->dir, bindir, bindir));
	if (snprintf(path, sizeof(path), "%s/cmds.gdb", self->dir) >= (int)sizeof(path))
		return;
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "continue\nbt\ncontinue\n");
	fclose(f);
	ASSERT_EQ(0, fr_sh("cd %s && %s gdb gb.flrc --symbols dbg --batch cmds.gdb --out gb.rep "
			"> gb.gdb 2>&1", self->dir, flightrec));
	EXPECT_TRUE(fr_file_contains(self->dir, "gb.gdb", ".build-id/"));
	EXPECT_TRUE(fr_file_contains(self->dir, "gb.gdb", "lookup (r=0x0) at"));
	EXPECT_TRUE(fr_file_contains(self->dir, "gb.gdb", "reproduced SIGSEGV at rip"));
	if (_metadata->passed == 0)
		fr_sh("cat %s/gb.gdb", self->dir);
}

/*
 * Portability: checkpoints recorded in the test VM (Debian's 6.1 kernel,
 * QEMU's CPU) replay here with byte-identical output and the same end.
 * Opt-in (FR_PORTABILITY=1, outside the VM): it boots the VM.
 */
TEST_F_TIMEOUT(replay, recorded_in_vm, 900)
{
	static const char *const progs[][3] = {
		{ "vnull", "--marker", "crash_null data.bin" },
		{ "vsig", "--marker", "signal_handler" },
		{ "vth", "--marker", "threads_join" },
		{ "vbc", "--skip 1", "/usr/bin/bc -lq pi.bc" },
	};
	char script[PATH_MAX];
	unsigned int i;
	FILE *f;

	if (!getenv("FR_PORTABILITY") || getenv("FR_VM"))
		SKIP(return, "set FR_PORTABILITY=1 to record in the test VM (outside it)");
	/* the VM sees the project tree, not this machine's /tmp */
	fr_sh("rm -rf %s", self->dir);
	if (snprintf(self->dir, sizeof(self->dir), "%.400s/../../build/replay-portability",
		     bindir) >= (int)sizeof(self->dir))
		SKIP(return, "path too long");
	ASSERT_EQ(0, fr_sh("rm -rf %s && mkdir -p %s && head -c 100000 /dev/urandom > %s/data.bin",
			self->dir, self->dir, self->dir));
	snprintf(script, sizeof(script), "%s/vm.sh", self->dir);
	f = fopen(script, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "#!/bin/sh\ncd %s && echo 'scale=300; 4*a(1)' > pi.bc\n", self->dir);
	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		const char *p = progs[i][2];

		fprintf(f, "%s %s -q -o %s/%s.flrc -- %s%s%s < /dev/null > %s.live\n", ptsnap,
			progs[i][1], self->dir, progs[i][0], p[0] == '/' ? "" : bindir,
			p[0] == '/' ? "" : "/progs/", p, progs[i][0]);
	}
	fprintf(f, "uname -r > vm.release\n");
	fclose(f);
	ASSERT_EQ(0, fr_sh("chmod +x %s && %s/../../scripts/vm.sh --no-module run -- %s > %s/vm.log 2>&1",
			script, bindir, script, self->dir)) {
		fr_sh("tail -20 %s/vm.log", self->dir);
	}
	EXPECT_TRUE(fr_file_contains(self->dir, "vm.release", "6.1"));
	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		char out[64], live[64];

		EXPECT_EQ(0, replay(self->dir, progs[i][0], "-q")) {
			TH_LOG("%s did not replay", progs[i][0]);
		}
		snprintf(live, sizeof(live), "%s.live", progs[i][0]);
		snprintf(out, sizeof(out), "%s.rep/fd1.out", progs[i][0]);
		EXPECT_TRUE(same_file(self->dir, live, out)) {
			TH_LOG("%s: output differs", progs[i][0]);
		}
	}
}

/*
 * Signals and rdtsc (the pseudo-records FLIGHTREC_NR_SIGNAL and
 * FLIGHTREC_NR_RDTSC), recorded by ptsnap from exec.
 */
static int record_exec(const char *dir, const char *name, const char *extra, const char *prog,
		       const char *args)
{
	return fr_sh("cd %s && %s --skip 1 -q %s -o %s/%s.flrc -- %s/progs/%s %s > %s.live "
		  "2> %s.liveerr", dir, ptsnap, extra, dir, name, bindir, prog, args, name, name);
}

/*
 * How many records of NAME.flrc match: syscall nr, and with sa < 0 six
 * arguments and (args[5] & mask) == want (signals), else in_hash (sa 0)
 * or in_hash_sa (sa 1) alone.  -1 when the file cannot be read.
 */
static int count_matching(const char *dir, const char *name, uint32_t nr, int sa,
			  uint64_t mask, uint64_t want, uint32_t *hdr_flags)
{
	char path[PATH_MAX], err[256];
	struct flrc *c;
	size_t i;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s.flrc", dir, name);
	if (flrc_read(path, &c, err, sizeof(err)))
		return -1;
	for (i = 0; i < c->n_syscalls; i++) {
		const Flightrec__Syscall *s = c->syscalls[i];

		if (s->nr != nr)
			continue;
		if (sa < 0 ? s->n_args == 6 && (s->args[5] & mask) == want :
		    sa ? s->has_in_hash_sa && !s->has_in_hash :
			 s->has_in_hash && !s->has_in_hash_sa)
			n++;
	}
	if (hdr_flags)
		*hdr_flags = c->hdr->flags;
	flrc_free(c);
	return n;
}

/* How many records of NAME.flrc have nr, and for signals (args[5] & mask) == want. */
static int count_records(const char *dir, const char *name, uint32_t nr, uint64_t mask,
			 uint64_t want, uint32_t *hdr_flags)
{
	return count_matching(dir, name, nr, -1, mask, want, hdr_flags);
}

#define SIG_WHERE (FLIGHTREC_SIG_SYNC | FLIGHTREC_SIG_IN_USER | FLIGHTREC_SIG_RESTART | \
		   FLIGHTREC_SIG_EINTR)

TEST_F_TIMEOUT(replay, async_signals_at_syscalls, 120)
{
	static const char want[] =
		"handler: signal 34 code -1 value 4242\n"
		"after sigqueue\n"
		"handler: signal 10\n"
		"read 1: -1 Interrupted system call\n"
		"handler: signal 12\n"
		"read 2: 1 'x'\n"
		"handlers ran 3 times\n";
	size_t len;
	char *live;

	ASSERT_EQ(0, record_exec(self->dir, "as", "", "async_signals", ""));
	live = fr_slurp(self->dir, "as.live", &len);
	ASSERT_NE(NULL, live);
	EXPECT_STREQ(want, live);
	free(live);
	/* sigqueue to itself: after the syscall; SIGUSR1: read -EINTR; SIGUSR2: read restarts */
	EXPECT_EQ(3, count_records(self->dir, "as", FLIGHTREC_NR_SIGNAL, 0, 0, NULL));
	EXPECT_EQ(1, count_records(self->dir, "as", FLIGHTREC_NR_SIGNAL, SIG_WHERE, 0, NULL));
	EXPECT_EQ(1, count_records(self->dir, "as", FLIGHTREC_NR_SIGNAL, SIG_WHERE,
				   FLIGHTREC_SIG_EINTR, NULL));
	EXPECT_EQ(1, count_records(self->dir, "as", FLIGHTREC_NR_SIGNAL, SIG_WHERE,
				   FLIGHTREC_SIG_RESTART, NULL));
	ASSERT_EQ(0, replay(self->dir, "as", "-q"));
	EXPECT_TRUE(same_file(self->dir, "as.live", "as.rep/fd1.out"));
	EXPECT_TRUE(fr_file_contains(self->dir, "as.rerr", "exited with status 0"));
	/* flightrec log shows them */
	ASSERT_EQ(0, fr_sh("cd %s && %s log as.flrc > as.log", self->dir, flightrec));
	EXPECT_TRUE(fr_file_contains(self->dir, "as.log", "<signal SIGRT_2 code -1 after rt_sigqueueinfo = 0>"));
	EXPECT_TRUE(fr_file_contains(self->dir, "as.log",
			     "<signal SIGUSR1 code 0 after read = -ERESTARTSYS, EINTR>"));
	EXPECT_TRUE(fr_file_contains(self->dir, "as.log",
			     "<signal SIGUSR2 code 0 after read = -ERESTARTSYS, restart>"));
	EXPECT_TRUE(fr_file_contains(self->dir, "as.log", "read(3, 0x"));
	EXPECT_TRUE(fr_file_contains(self->dir, "as.log", "= -1 EINTR (Interrupted system call)"));
}

TEST_F_TIMEOUT(replay, async_signal_in_user_code, 300)
{
	uint32_t flags = 0;
	int tries, n = 0;

	/*
	 * The last SIGALRM lands in the loop almost always; at a syscall
	 * return it is not this test.  One before it can come in user code
	 * around the loop's getppid (the loop goes on): each is placed.
	 */
	for (tries = 0; tries < 3 && n < 1; tries++) {
		ASSERT_EQ(0, record_exec(self->dir, "au", "", "async_signals", "spin"));
		n = count_records(self->dir, "au", FLIGHTREC_NR_SIGNAL, SIG_WHERE,
				  FLIGHTREC_SIG_IN_USER, &flags);
	}
	ASSERT_LE(1, n);
	EXPECT_TRUE(flags & FLIGHTREC_IF_ASYNC_SIGNAL);
	/* "zero" when the timer fired before the first pass: replay must agree */
	EXPECT_TRUE(fr_file_contains(self->dir, "au.live", "spin stopped: "));
	ASSERT_EQ(0, replay(self->dir, "au", "-q")) {
		fr_sh("cat %s/au.rerr", self->dir);
	}
	EXPECT_TRUE(same_file(self->dir, "au.live", "au.rep/fd1.out"));
	EXPECT_TRUE(fr_file_contains(self->dir, "au.rerr", "exited with status 0"));
	ASSERT_EQ(0, fr_sh("cd %s && %s log au.flrc > au.log", self->dir, flightrec));
	EXPECT_TRUE(fr_file_contains(self->dir, "au.log", "<signal SIGALRM code 128 in user code at rip 0x"));
}

TEST_F_TIMEOUT(replay, rdtsc_values, 120)
{
	size_t len;
	char *live;

	/* ptsnap records an rdtsc at its fault: none where the machine ignores CR4.TSD */
	if (!fr_rdtsc_traps())
		SKIP(return, "rdtsc does not fault under PR_SET_TSC on this machine");
	ASSERT_EQ(0, record_exec(self->dir, "tsc", "", "rdtsc_values", ""));
	live = fr_slurp(self->dir, "tsc.live", &len);
	ASSERT_NE(NULL, live);
	EXPECT_NE(NULL, strstr(live, "tsc 7: "));
	EXPECT_NE(NULL, strstr(live, "increasing yes"));
	free(live);
	/* 4 rdtsc and 4 rdtscp in main, and the dynamic loader's */
	EXPECT_LE(8, count_records(self->dir, "tsc", FLIGHTREC_NR_RDTSC, 0, 0, NULL));
	ASSERT_EQ(0, replay(self->dir, "tsc", "-q"));
	EXPECT_TRUE(same_file(self->dir, "tsc.live", "tsc.rep/fd1.out"));
	EXPECT_FALSE(fr_file_contains(self->dir, "tsc.rerr", "not recorded"));
	ASSERT_EQ(0, fr_sh("cd %s && %s log tsc.flrc > tsc.log", self->dir, flightrec));
	EXPECT_TRUE(fr_file_contains(self->dir, "tsc.log", "<rdtscp> = 0x"));
	EXPECT_TRUE(fr_file_contains(self->dir, "tsc.log", "<rdtsc> = 0x"));
}

/* How many records of NAME.flrc of syscall nr carry in_hash (sa 0) or in_hash_sa (sa 1) */
static int count_hashed(const char *dir, const char *name, uint32_t nr, int sa)
{
	return count_matching(dir, name, nr, sa, 0, 0, NULL);
}

/*
 * Issue 25, class 10: bind, connect, sendto and sendmsg with a sockaddr_un
 * whose bytes after the path's NUL are rdrand's (not recorded, so others
 * at replay).  The kernel reads the path up to its NUL, so does the hash
 * (uapi/flightrec_inhash.h, the sockaddr rule): replay as recorded.  A
 * checkpoint hashed by the first rule (--hash-rule bytes, what every
 * recorder wrote before) is still checked by it: with zeros after the NUL
 * it replays, with random bytes it diverges at the bind, as it did.
 */
TEST_F_TIMEOUT(replay, sockaddr_tail, 120)
{
	static const char want[] = "got connected\ngot sendto\ngot sendmsg\nok\n";
	size_t len;
	char *live;

	ASSERT_EQ(0, record_exec(self->dir, "st", "", "sun_tail", ""))
		fr_sh("cat %s/st.liveerr", self->dir);
	live = fr_slurp(self->dir, "st.live", &len);
	ASSERT_NE(NULL, live);
	EXPECT_STREQ(want, live);
	free(live);
	EXPECT_EQ(2, count_hashed(self->dir, "st", SYS_bind, 1));
	EXPECT_EQ(1, count_hashed(self->dir, "st", SYS_connect, 1));
	EXPECT_EQ(2, count_hashed(self->dir, "st", SYS_sendto, 1));	/* send is sendto */
	EXPECT_EQ(1, count_hashed(self->dir, "st", SYS_sendmsg, 1));
	EXPECT_EQ(0, replay(self->dir, "st", "-q"))
		fr_sh("tail -5 %s/st.rerr", self->dir);
	EXPECT_FALSE(fr_file_contains(self->dir, "st.rerr", "different data passed in"));
	EXPECT_TRUE(fr_file_contains(self->dir, "st.rerr", "exited with status 0"));
	EXPECT_TRUE(same_file(self->dir, "st.live", "st.rep/fd1.out"));
	/* flightrec log says which rule checked each call (text and JSON) */
	ASSERT_EQ(0, fr_sh("cd %s && %s log st.flrc > st.log && %s log --json st.flrc > st.json",
			   self->dir, flightrec, flightrec));
	EXPECT_EQ(0, fr_sh("cd %s && test $(grep -c '# .*data passed in hashed by the sockaddr "
			   "rule' st.log) -eq 6 && test $(grep -oE '\"in_hash_rule\": ?\"sockaddr\"' "
			   "st.json | wc -l) -eq 6", self->dir))
		fr_sh("grep -B1 'sockaddr rule' %s/st.log", self->dir);
	/* info counts them */
	EXPECT_EQ(0, fr_sh("cd %s && %s info st.flrc | grep -q '^  notes: 6 with data passed in "
			   "hashed by the sockaddr rule, 0 with' && %s info --json st.flrc | "
			   "grep -qE '\"in_hash_sockaddr\": ?6,'", self->dir, flightrec, flightrec));

	/*
	 * The words rule (the module's general path) hashes addresses as the
	 * sockaddr rule does: random tails replay as recorded, the log names
	 * the rule of the six calls with an address, and one flipped hash is
	 * a divergence at its call (the first bind, after the socket).
	 */
	ASSERT_EQ(0, record_exec(self->dir, "stw", "--hash-rule words", "sun_tail", ""));
	EXPECT_EQ(0, replay(self->dir, "stw", "-q"))
		fr_sh("tail -5 %s/stw.rerr", self->dir);
	EXPECT_TRUE(same_file(self->dir, "stw.live", "stw.rep/fd1.out"));
	EXPECT_EQ(0, fr_sh("cd %s && %s log stw.flrc > stw.log && %s log --json stw.flrc > stw.json "
			   "&& test $(grep -c '# .*data passed in hashed by the sockaddr rule' "
			   "stw.log) -eq 6 && test $(grep -oE '\"in_hash_rule\": ?\"words\"' "
			   "stw.json | wc -l) -ge 6 && ! grep -qE '\"in_hash_rule\": ?\"(bytes|"
			   "sockaddr)\"' stw.json", self->dir, flightrec, flightrec))
		fr_sh("grep -c words %s/stw.json", self->dir);

	/* the first rule, the same bytes in every run: checked, and as recorded */
	ASSERT_EQ(0, record_exec(self->dir, "stz", "--hash-rule bytes", "sun_tail", "zero"));
	EXPECT_EQ(2, count_hashed(self->dir, "stz", SYS_bind, 0));
	EXPECT_EQ(1, count_hashed(self->dir, "stz", SYS_connect, 0));
	EXPECT_EQ(0, replay(self->dir, "stz", "-q"))
		fr_sh("tail -5 %s/stz.rerr", self->dir);
	EXPECT_TRUE(same_file(self->dir, "stz.live", "stz.rep/fd1.out"));
	ASSERT_EQ(0, fr_sh("cd %s && %s log stz.flrc > stz.log && %s log --json stz.flrc > stz.json",
			   self->dir, flightrec, flightrec));
	EXPECT_NE(0, fr_sh("grep -q 'sockaddr rule' %s/stz.log", self->dir));
	EXPECT_EQ(0, fr_sh("cd %s && test $(grep -oE '\"in_hash_rule\": ?\"bytes\"' stz.json | "
			   "wc -l) -ge 6", self->dir));

	/* the first rule, random bytes: its verdict, at the first such call */
	ASSERT_EQ(0, record_exec(self->dir, "sto", "--hash-rule bytes", "sun_tail", ""));
	EXPECT_EQ(5, replay(self->dir, "sto", "-q"));
	EXPECT_TRUE(fr_file_contains(self->dir, "sto.rerr", "different data passed in (hash)"))
		fr_sh("tail -5 %s/sto.rerr", self->dir);
	EXPECT_TRUE(fr_file_contains(self->dir, "sto.rerr", "expected bind("));
}

TEST_F_TIMEOUT(replay, divergence_signal, 120)
{
	/* the first signal record says SIGTERM, which has no handler */
	ASSERT_EQ(0, record_exec(self->dir, "ds", "--tamper-signal 15", "async_signals", ""));
	EXPECT_EQ(5, replay(self->dir, "ds", "-q"));
	EXPECT_TRUE(fr_file_contains(self->dir, "ds.rerr", "DIVERGED: thread"));
	EXPECT_TRUE(fr_file_contains(self->dir, "ds.rerr", "the signal went to a handler when recorded"));
	EXPECT_TRUE(fr_file_contains(self->dir, "ds.rerr", "expected signal SIGTERM (15) code -1"));
	EXPECT_TRUE(fr_file_contains(self->dir, "ds.rerr", "got      its disposition is SIG_DFL here"));
}

/*
 * Checkpoints written by the module (`flightrec record`), where it is loaded
 * (the test VM): the program's output is what `record` printed before its
 * own message, and the recorded end happens again.
 */
static void module_case(struct __test_metadata *_metadata, const char *dir, const char *name,
			const char *opts, const char *prog, int want_rc, const char *end)
{
	char live[64], out[64], err[64];
	size_t ll, rl;
	char *l, *r;

	if (access("/proc/flightrec/control", W_OK))
		SKIP(return, "the flightrec module is not loaded");
	ASSERT_EQ(want_rc, fr_sh("cd %s && mkdir -p %s.ck && %s record -o %s.ck %s -- %s/progs/%s "
			      "> %s.live 2> %s.liveerr", dir, name, flightrec, name, opts,
			      bindir, prog, name, name));
	ASSERT_EQ(0, fr_sh("cd %s && %s replay -q %s.ck/*.flrc --out %s.rep > %s.rout 2> %s.rerr",
			dir, flightrec, name, name, name, name)) {
		fr_sh("cat %s/%s.rerr", dir, name);
	}
	snprintf(err, sizeof(err), "%s.rerr", name);
	EXPECT_TRUE(fr_file_contains(dir, err, end));
	snprintf(live, sizeof(live), "%s.live", name);
	snprintf(out, sizeof(out), "%s.rep/fd1.out", name);
	l = fr_slurp(dir, live, &ll);
	r = fr_slurp(dir, out, &rl);
	if (r) {
		ASSERT_NE(NULL, l);
		EXPECT_LE(rl, ll);
		EXPECT_EQ(0, memcmp(l, r, rl < ll ? rl : ll));
	}
	free(l);
	free(r);
}

TEST_F_TIMEOUT(replay, module_null_deref, 600)
{
	module_case(_metadata, self->dir, "mn", "", "crash_null data.bin", 128 + SIGSEGV,
		    "reproduced SIGSEGV at rip");
}

TEST_F_TIMEOUT(replay, module_abort, 600)
{
	module_case(_metadata, self->dir, "ma", "", "crash_abort", 128 + SIGABRT,
		    "reproduced SIGABRT at rip");
}

TEST_F_TIMEOUT(replay, module_signal_handlers, 600)
{
	module_case(_metadata, self->dir, "ms", "", "signal_handler", 128 + SIGSEGV,
		    "reproduced SIGSEGV at rip");
}

TEST_F_TIMEOUT(replay, module_exit_status, 600)
{
	module_case(_metadata, self->dir, "mw", "--at-exit", "writes_loop 300", 3,
		    "exited with status 3");
}

/* A feature bit the recorded CPU "had" and this one lacks. */
static int missing_feature(uint32_t *leaf, char *reg, int *bit)
{
	static const struct { uint32_t leaf; char reg; int bit; } cand[] = {
		{ 7, 'd', 8 },			/* avx512_vp2intersect */
		{ 7, 'b', 16 },			/* avx512f */
		{ 7, 'd', 23 },			/* avx512_fp16 */
		{ 7, 'd', 24 },			/* amx_tile */
		{ 7, 'c', 8 },			/* gfni */
	};
	unsigned int i, r[4];

	for (i = 0; i < sizeof(cand) / sizeof(cand[0]); i++) {
		if (cand[i].leaf > __get_cpuid_max(cand[i].leaf & 0x80000000u, NULL))
			continue;
		__cpuid_count(cand[i].leaf, 0, r[0], r[1], r[2], r[3]);
		if (!(r[cand[i].reg - 'a'] >> cand[i].bit & 1)) {
			*leaf = cand[i].leaf;
			*reg = cand[i].reg;
			*bit = cand[i].bit;
			return 0;
		}
	}
	return -1;
}

TEST_F_TIMEOUT(replay, cpu_features, 120)
{
	uint32_t leaf;
	char reg, extra[64];
	int bit;

	if (missing_feature(&leaf, &reg, &bit))
		SKIP(return, "this CPU has every candidate feature");
	snprintf(extra, sizeof(extra), "--add-cpu-feature 0x%x:%c:%d", leaf, reg, bit);
	ASSERT_EQ(128 + SIGSEGV, record(self->dir, "cpu", extra, "crash_null", "data.bin"));
	EXPECT_EQ(1, replay(self->dir, "cpu", "-q"));
	EXPECT_TRUE(fr_file_contains(self->dir, "cpu.rerr", "this CPU lacks 1 feature"));
	EXPECT_TRUE(fr_file_contains(self->dir, "cpu.rerr", "--ignore-cpu"));
	EXPECT_EQ(0, replay(self->dir, "cpu", "-q --ignore-cpu"));
	check_fault(_metadata, self->dir, "cpu", "SIGSEGV");
}

/*
 * The loader and the image alone, in an empty root (fr_empty_root(), the
 * namespaces `flightrec replay` runs the loader in): no /usr, no libc, no
 * program binary.  Loader, image and output directory are opened before.
 */
TEST_F_TIMEOUT(replay, empty_root, 120)
{
	char img[PATH_MAX + 16], out[PATH_MAX + 8], dfd_s[16], ifd_s[16];
	int status, dfd, ifd, lfd;
	pid_t pid;

	ASSERT_EQ(128 + SIGSEGV, record(self->dir, "er", "", "crash_null", "data.bin"));
	ASSERT_EQ(0, fr_sh("cd %s && %s replay -q er.flrc --save-image er.img", self->dir,
			flightrec));
	snprintf(img, sizeof(img), "%s/er.img", self->dir);
	snprintf(out, sizeof(out), "%s/er.rep", self->dir);
	ASSERT_EQ(0, mkdir(out, 0755));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		char *av[] = { "flightrec-loader", "-f", ifd_s, "-d", dfd_s, NULL };
		char why[256];

		dfd = open(out, O_RDONLY | O_DIRECTORY);
		ifd = open(img, O_RDONLY);
		lfd = open(loader, O_RDONLY | O_CLOEXEC);
		if (dfd < 0 || ifd < 0 || lfd < 0)
			_exit(79);
		if (fr_empty_root(FR_ROOT_NET, why, sizeof(why)) < 0)
			_exit(77);
		if (!access("/usr", F_OK) || !access("/lib", F_OK))
			_exit(80);
		snprintf(dfd_s, sizeof(dfd_s), "%d", dfd);
		snprintf(ifd_s, sizeof(ifd_s), "%d", ifd);
		fexecve(lfd, av, environ);
		_exit(81);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
		SKIP(return, "no user namespace here");
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_TRUE(same_file(self->dir, "er.live", "er.rep/fd1.out"));
}

TEST_F_TIMEOUT(replay, bad_image_and_file, 120)
{
	/* a damaged checkpoint: exit 2 and a message; a missing loader window conflict is fine */
	ASSERT_EQ(0, fr_sh("cd %s && head -c 1000 /dev/urandom > junk.flrc", self->dir));
	EXPECT_EQ(2, fr_sh("cd %s && %s replay junk.flrc > /dev/null 2> junk.err", self->dir,
			flightrec));
	EXPECT_TRUE(fr_file_contains(self->dir, "junk.err", "flightrec replay:"));
	/* a truncated replay image: the loader refuses it */
	ASSERT_EQ(128 + SIGSEGV, record(self->dir, "bi", "", "crash_null", "data.bin"));
	ASSERT_EQ(0, fr_sh("cd %s && %s replay -q bi.flrc --save-image bi.img && "
			"head -c 100000 bi.img > bi.short", self->dir, flightrec));
	EXPECT_EQ(2, fr_sh("cd %s && %s bi.short -o . 2> bi.err", self->dir, loader));
	EXPECT_TRUE(fr_file_contains(self->dir, "bi.err", "replay image"));
}

/*
 * Real programs, recorded from their first syscall after exec (through the
 * dynamic loader): byte-identical output and the same exit status.
 */
static void real_program(struct __test_metadata *_metadata, const char *dir,
			 const char *name, const char *cmdline)
{
	char prog[256];
	int live;

	snprintf(prog, sizeof(prog), "%s", cmdline);
	*strchrnul(prog, ' ') = 0;
	if (fr_sh("command -v %s > /dev/null 2>&1", prog))
		SKIP(return, "%s is not installed", prog);
	/* the real binary: no wrapper script (pyenv's shims exec several times) */
	live = fr_sh("cd %s && p=/usr/bin/%s && { [ -x $p ] || p=$(command -v %s); } && "
		  "%s --skip 1 -q -o %s.flrc -- $(readlink -f $p) %s "
		  "> %s.live 2> %s.liveerr", dir, prog, prog, ptsnap, name,
		  strchr(cmdline, ' ') ? strchr(cmdline, ' ') + 1 : "", name, name);
	ASSERT_EQ(0, live);
	ASSERT_EQ(0, replay(dir, name, "-q"));
	EXPECT_TRUE(same_file(dir, name_live(name), name_out(name)));
	EXPECT_TRUE(fr_file_contains(dir, name_err(name), "exited with status 0"));
}

TEST_F_TIMEOUT(replay, bc_pi, 600)
{
	ASSERT_EQ(0, fr_sh("echo 'scale=2000; 4*a(1)' > %s/pi.bc", self->dir));
	real_program(_metadata, self->dir, "bc", "bc -lq pi.bc < /dev/null");
}

static int put_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

TEST_F_TIMEOUT(replay, python3_script, 600)
{
	ASSERT_EQ(0, put_file(self->dir, "s.py",
			      "import hashlib, json\n"
			      "d = {str(i): i * i for i in range(2000)}\n"
			      "s = json.dumps(d, sort_keys=True)\n"
			      "print(hashlib.sha256(s.encode()).hexdigest(), len(s))\n"));
	real_program(_metadata, self->dir, "py", "python3 s.py");
}

TEST_F_TIMEOUT(replay, gzip_24mb, 600)
{
	ASSERT_EQ(0, fr_sh("cd %s && (yes 'flightrec replays the last moments of a process' | "
			"head -c 25165824; head -c 65536 /dev/urandom | base64) > big && "
			"gzip -f big", self->dir));
	real_program(_metadata, self->dir, "gz", "gzip -dc big.gz");
}

TEST_F_TIMEOUT(replay, sqlite3_queries, 600)
{
	ASSERT_EQ(0, put_file(self->dir, "q.sql",
			      "create table t(a integer primary key, b text);\n"
			      "with recursive n(x) as (select 1 union all select x + 1 from n "
			      "where x < 3000) insert into t select x, 'row' || x from n;\n"
			      "select count(*), max(b) from t;\n"
			      "create index tb on t(b);\n"
			      "select a from t where b like 'row29%' order by a limit 3;\n"));
	real_program(_metadata, self->dir, "sq", "sqlite3 t.db < q.sql");
}

TEST_HARNESS_MAIN
