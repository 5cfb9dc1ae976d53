// SPDX-License-Identifier: GPL-2.0
/*
 * replay_outside: replay fidelity on programs nobody here wrote (issue 25).
 *
 * Each case of tests/outside/cases.h (strace's own test programs, and
 * everyday process trees: pipelines, gcc, make -j2, python3 subprocess,
 * git, perl, busybox) runs under `flightrec record --at-exit` from exec to
 * exit, in an empty directory, and then:
 *
 *  - every process of the tree has a checkpoint: each child that a recorded
 *    fork, vfork, clone or clone3 created (and that is not a thread of the
 *    same checkpoint) has its own PID-N.flrc;
 *  - every checkpoint replays (`flightrec replay`) to its recorded end,
 *    "as recorded" (replay itself checks every call against the log, the
 *    hash of the data each call passed in, and the end);
 *  - the bytes the tree wrote to its stdout are those that one replayed
 *    process wrote to one descriptor (fd 1, or a dup of it: strace's tests
 *    print through fd 3), byte for byte.
 *
 * A multi-threaded tree (THREADS in cases.h) is recorded twice, as issue 25
 * asks of threads: free-running, where each checkpoint must replay as
 * recorded or end in a divergence for which replay names the race
 * ("race: not a --serial recording", the threads and the records their
 * user code ran between); then with --serial, where it must be identical,
 * as every other case.
 *
 * A failure names the case, the checkpoint and replay's own report
 * (where it diverged, expected vs got).  A case cases.h lists as a known
 * divergence (STRACE_XFAIL, TREE_XFAIL, with the reason) is reported as
 * skipped, "XFAIL" and the reason, when it fails, and "XPASS" in its log
 * when it does not.  A replay that reports "as recorded"
 * and writes other bytes is reported as such: that is a bug of replay's
 * checks, not a divergence.
 *
 * With FR_KEEP set the work directory stays (its path is logged); with
 * FR_OUTSIDE_KEEP=DIR a failed case's directory is copied to DIR/CASE.
 * FR_OUTSIDE_ONLY=" NAME NAME " runs only those cases (names as in
 * cases.h: the strace program's name, or the tree's id).  With FR_PORT_DIR
 * set (scripts/check.sh), each case that passed is exported there for
 * tests/portable_outside.c to replay on the host.
 */
#include "kselftest_harness.h"
#include "fr_test.h"
#include "checkpoint.h"
#include <dirent.h>

static char top[PATH_MAX];

FIXTURE(outside) {
	char dir[64];
};

FIXTURE_VARIANT(outside) {
	const char *name;
	const char *strace;	/* strace test program, or */
	const char *sh;		/* a shell command line */
	const char *xfail;	/* a known divergence: why */
	bool threads;		/* a multi-threaded tree (THREADS) */
	bool exec;		/* a tree whose writer execs (EXEC) */
};

#define STRACE(id, prog) \
	FIXTURE_VARIANT_ADD(outside, strace_##id) { .name = prog, .strace = prog };
#define STRACE_XFAIL(id, prog, why) \
	FIXTURE_VARIANT_ADD(outside, strace_##id) { .name = prog, .strace = prog, .xfail = why };
#define TREE(id, cmd) \
	FIXTURE_VARIANT_ADD(outside, id) { .name = #id, .sh = cmd };
#define TREE_XFAIL(id, cmd, why) \
	FIXTURE_VARIANT_ADD(outside, id) { .name = #id, .sh = cmd, .xfail = why };
#define THREADS(id, cmd) \
	FIXTURE_VARIANT_ADD(outside, id) { .name = #id, .sh = cmd, .threads = true };
#define EXEC(id, cmd) \
	FIXTURE_VARIANT_ADD(outside, id) { .name = #id, .sh = cmd, .exec = true };
#include "outside/cases.h"

FIXTURE_SETUP(outside)
{
	const char *t = getenv("FR_TOP");

	const char *only = getenv("FR_OUTSIDE_ONLY");
	char word[80];

	snprintf(word, sizeof(word), " %s ", variant->name);
	if (only && !strstr(only, word))
		SKIP(return, "not in FR_OUTSIDE_ONLY");
	FR_REQUIRE_MODULE();
	snprintf(top, sizeof(top), "%s", t ? t : "../..");
	ASSERT_EQ(0, fr_mkdtemp(self->dir, sizeof(self->dir)));
}

FIXTURE_TEARDOWN(outside)
{
	if (!self->dir[0])
		return;
	if (getenv("FR_KEEP"))
		TH_LOG("kept %s", self->dir);
	else
		fr_sh("rm -rf %s", self->dir);
}

/* The checkpoint names in dir/ck, sorted; returns how many (at most max). */
static int checkpoints(const char *dir, char names[][64], int max)
{
	char path[PATH_MAX];
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/ck", dir);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		size_t len = strlen(e->d_name);

		if (len > 5 && len < 64 && !strcmp(e->d_name + len - 5, ".flrc")) {
			memcpy(names[n], e->d_name, len - 5);
			names[n++][len - 5] = 0;
		}
	}
	closedir(d);
	qsort(names, n, 64, (int (*)(const void *, const void *))strcmp);
	return n;
}

static bool has_checkpoint(char names[][64], int n, long pid)
{
	char pre[32];

	snprintf(pre, sizeof(pre), "%ld-", pid);
	for (int i = 0; i < n; i++)
		if (!strncmp(names[i], pre, strlen(pre)))
			return true;
	return false;
}

/*
 * Each process that checkpoint @name's process created must have a
 * checkpoint of its own, or `record` must have said that SIGKILL ended it
 * (strace kills the child it tests ptrace with).  Returns how many have
 * none (each logged).
 */
static int missing_children(struct __test_metadata *_metadata, const char *dir,
			    char names[][64], int n, const char *name)
{
	char path[PATH_MAX + 128], err[256];
	uint32_t kids[256];
	struct flrc *c;
	int missing = 0;
	size_t nk;

	snprintf(path, sizeof(path), "%s/ck/%s.flrc", dir, name);
	if (flrc_read(path, &c, err, sizeof(err))) {
		TH_LOG("%s: %s", name, err);
		return 1;
	}
	nk = flrc_children(c, kids, 256);
	for (size_t i = 0; i < nk && i < 256; i++) {
		if (has_checkpoint(names, n, kids[i]))
			continue;
		/* SIGKILL leaves nothing to freeze: record must say so */
		if (fr_sh("grep -q '^flightrec record: pid %u\\( (created by pid [0-9]*)\\)\\?: "
			  "no checkpoint: killed by SIGKILL' %s/liveerr", kids[i], dir) == 0) {
			TH_LOG("%s: pid %u, which it created, was killed by SIGKILL (record "
			       "said so)", name, kids[i]);
			continue;
		}
		TH_LOG("%s: pid %u, which it created, has no checkpoint", name, kids[i]);
		missing++;
	}
	flrc_free(c);
	return missing;
}

/*
 * For tests/portable_outside.c, which replays the corpus on the host in an
 * empty root: FR_PORT_DIR/outside/NAME/ gets the checkpoints, the live
 * output, each checkpoint's verdict as replay gave it here (NAME.end: the
 * last line that says "as recorded", without the tool's prefix) and, when the
 * tree wrote to its stdout, which replayed file held it (writer: the
 * checkpoint and the fdN.out file).
 */
static void export(const char *dir, const char *name, char names[][64], int n, int writer)
{
	const char *port = getenv("FR_PORT_DIR");

	fr_sh("rm -rf %s/outside/%s && mkdir -p %s/outside/%s && cp %s/ck/*.flrc %s/live "
	      "%s/outside/%s/", port, name, port, name, dir, dir, port, name);
	for (int i = 0; i < n; i++)
		/* the last: one that went through an exec said so first */
		fr_sh("grep 'as recorded' %s/rerr.%s | tail -1 | sed 's/^flightrec[a-z -]*: //' > "
		      "%s/outside/%s/%s.end", dir, names[i], port, name, names[i]);
	if (writer >= 0)
		fr_sh("cd %s && for f in rep.%s/fd*.out; do cmp -s live $f && "
		      "echo %s ${f##*/} > %s/outside/%s/writer && break; done",
		      dir, names[writer], names[writer], port, name);
}

/*
 * One recording of the case and its replays, in @dir/@sub: record with
 * @opts, then the checks of the header comment.  With @race_ok (a
 * multi-threaded tree recorded without --serial), a checkpoint whose replay
 * diverged may pass too, when replay named the race that took it elsewhere
 * ("race: not a --serial recording: ..."); one that says "as recorded" must
 * still have written the live output.  Returns the failures; *@n, @names
 * and *@writer describe the checkpoints for export().
 */
static int one_run(struct __test_metadata *_metadata, const char *dir, const char *opts,
		   bool race_ok, bool exec, const char *cmd, char names[][64], int *np,
		   int *writer)
{
	int n, rc, failed = 0, races = 0, execs = 0;
	bool live_empty;

	*writer = -1;
	rc = fr_sh("cd %s && mkdir ck w && cd w && %s/user/flightrec record -o ../ck --at-exit "
		   "--interval-ms 1000 --keep 64 %s -- %s > ../live 2> ../liveerr",
		   dir, top, opts, cmd);
	TH_LOG("recorded%s%s: status %d", *opts ? " " : "", opts, rc);
	n = *np = checkpoints(dir, names, 64);
	if (!n) {
		TH_LOG("no checkpoint written:");
		fr_sh("grep -v assembling %s/liveerr | tail -3 | sed 's/^/#     /'", dir);
		failed++;
	}
	live_empty = fr_sh("test -s %s/live", dir) != 0;
	for (int i = 0; i < n; i++)
		failed += missing_children(_metadata, dir, names, n, names[i]);
	for (int i = 0; i < n; i++) {
		const char *b = names[i];
		int same;

		rc = fr_sh("cd %s && %s/user/flightrec replay ck/%s.flrc --out rep.%s "
			   "> rout.%s 2> rerr.%s", dir, top, b, b, b, b);
		/* a program may write its stdout through another descriptor (dup) */
		same = fr_sh("cd %s && for f in rep.%s/fd*.out; do cmp -s live $f && exit 0; done; "
			     "exit 1", dir, b) == 0;
		if (same && !live_empty)
			*writer = i;
		/* a checkpoint of several programs: replay went through the execs */
		if (fr_sh("grep -q 'reached the exec: thread' %s/rerr.%s", dir, b) == 0)
			execs++;
		if (rc == 0 && fr_sh("grep -q 'as recorded' %s/rerr.%s", dir, b) == 0) {
			if (n == 1 && !same && !live_empty) {
				TH_LOG("%s: replay says 'as recorded' but wrote other bytes", b);
				fr_sh("cd %s && ls -l live rep.%s", dir, b);
				failed++;
			}
			continue;
		}
		if (race_ok && rc != 0 &&
		    fr_sh("grep -q 'DIVERGED' %s/rerr.%s && "
			  "grep -q 'race: not a --serial recording: thread [0-9]*, user code from' "
			  "%s/rerr.%s", dir, b, dir, b) == 0) {
			TH_LOG("%s: a race, reported (not a --serial recording):", b);
			fr_sh("grep 'DIVERGED\\|race:' %s/rerr.%s | cut -c1-200 | sed 's/^/#     /'",
			      dir, b);
			races++;
			continue;
		}
		TH_LOG("%s: replay status %d:", b, rc);
		fr_sh("grep -v '^flightrec replay: \\(output of\\|note: this CPU\\|end: load\\)' "
		      "%s/rerr.%s | tail -4 | sed 's/^/#     /'", dir, b);
		failed++;
	}
	/* a reported race may have kept the writer from its output */
	if (!live_empty && *writer < 0 && !races) {
		TH_LOG("no replayed process wrote the live output");
		failed++;
	}
	if (execs)
		TH_LOG("%d of %d replays went through an exec", execs, n);
	/* EXEC: the writer's checkpoint holds its programs before the exec */
	if (exec && (*writer < 0 ||
		     fr_sh("grep -q 'reached the exec: thread' %s/rerr.%s", dir,
			   names[*writer]))) {
		TH_LOG("the writer's replay did not go through its exec");
		failed++;
	}
	if (live_empty)
		*writer = -1;
	return failed;
}

TEST_F_TIMEOUT(outside, replay, 600)
{
	char names[64][64], cmd[PATH_MAX + 1024], dir[128];
	int n, failed, writer;

	if (_metadata->skip)
		return;	/* the 6.1 harness runs the test after a SKIP in setup */
	if (variant->strace)
		snprintf(cmd, sizeof(cmd), "%s/tests/bin/outside/strace/%s", top, variant->strace);
	else
		snprintf(cmd, sizeof(cmd), "/bin/sh -c \"$FR_CASE\"");
	setenv("FR_CASE", variant->sh ? variant->sh : "", 1);
	/*
	 * A multi-threaded tree: free-running first, where a race replay
	 * reports is a pass; then with --serial, which must be identical and
	 * is the recording export() hands to portable_outside.
	 */
	if (variant->threads) {
		snprintf(dir, sizeof(dir), "%s/free", self->dir);
		ASSERT_EQ(0, mkdir(dir, 0700));
		failed = one_run(_metadata, dir, "", true, false, cmd, names, &n, &writer);
		if (failed && getenv("FR_OUTSIDE_KEEP"))
			fr_sh("mkdir -p \"$FR_OUTSIDE_KEEP\" && cp -a %s \"$FR_OUTSIDE_KEEP\"/%s.free",
			      dir, variant->name);
		EXPECT_EQ(0, failed);
	}
	snprintf(dir, sizeof(dir), "%s/%s", self->dir, variant->threads ? "serial" : "run");
	ASSERT_EQ(0, mkdir(dir, 0700));
	failed = one_run(_metadata, dir, variant->threads ? "--serial" : "", false, variant->exec,
			 cmd, names, &n, &writer);
	if (!failed && getenv("FR_PORT_DIR"))
		export(dir, variant->name, names, n, writer);
	if (failed && getenv("FR_OUTSIDE_KEEP"))
		fr_sh("mkdir -p \"$FR_OUTSIDE_KEEP\" && cp -a %s \"$FR_OUTSIDE_KEEP\"/%s",
		      dir, variant->name);
	if (failed && variant->xfail)
		SKIP(return, "XFAIL: a known divergence (issue 25): %s", variant->xfail);
	if (!failed && variant->xfail)
		TH_LOG("XPASS: identical, although listed as a known divergence (%s)",
		       variant->xfail);
	EXPECT_EQ(0, failed);
}

TEST_HARNESS_MAIN
