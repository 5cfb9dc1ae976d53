// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded resources on any input (docs/security.md "Resource bounds",
 * issue 23 item 3).  A real recording of tests/progs/crash_null (the ptrace
 * fixture tests/tools/ptsnap; no module needed) is made hostile by
 * tests/tools/craft_replay:
 *
 *   expand   60000 distinct pages of ~20-byte frames (4 KiB each in memory)
 *   same     100000 pages marked "same as" one page
 *   zero     100000 data pages of zeros
 *   tids     100000 records, each of another thread id
 *   counts   20000 more intervals and 20000 maps (per-interval map lists)
 *
 * make check runs it on the host (scripts/check.sh), not in the VM.
 * On each, `flightrec info`, `info --json`, `log`, `log --by-thread` and the
 * replay image build (`replay --save-image`, what `replay` and `gdb` do
 * before the loader runs) must succeed with a peak RSS (ru_maxrss of the
 * child, from wait4) of at most 64 MiB + 8 x the file size, and a CPU time
 * of at most 2 s + 2 s per MiB of file, 8 times that in the emulated test
 * VM (a quadratic loop over 100000 records takes minutes; these take well
 * under a second on the host, up to 16 s in the VM on a loaded host).  A
 * child past 4 x its CPU budget + 30 s in wall time is killed and fails.
 *
 *   ceiling        FLIGHTREC_MEM_LIMIT below what a file needs: the reader
 *                  says so, -EFBIG, and the command exits 1
 *   shared_pages   identical pages share one copy in the reader and in
 *                  the replay image
 *
 * FLIGHTREC=path runs another build (an older one, to see these fail).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "kselftest_harness.h"
#include "fr_test.h"
#include "checkpoint.h"
#include "loader/image.h"

static char flightrec[PATH_MAX], crafter[PATH_MAX];

struct usage {
	int status;		/* wait status, or -1 when killed at the limit */
	long rss_kib;		/* ru_maxrss */
	double cpu_s;		/* user + system */
};

static double tv_s(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

/*
 * Runs argv in dir (stdout to /dev/null, stderr to dir/err.txt) and
 * measures it; kills it after wall_s seconds.
 */
static struct usage run_measured(const char *dir, char *const argv[], double wall_s)
{
	struct usage u = { .status = -1 };
	struct timespec t0, t;
	struct rusage ru;
	int status;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		char err[PATH_MAX];
		int fd = open("/dev/null", O_WRONLY);

		snprintf(err, sizeof(err), "%s/err.txt", dir);
		if (fd < 0 || dup2(fd, 1) < 0 || chdir(dir))
			_exit(126);
		fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0)
		return u;
	for (;;) {
		pid_t r = wait4(pid, &status, WNOHANG, &ru);

		if (r == pid) {
			u.status = status;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (r < 0 || t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 > wall_s) {
			kill(pid, SIGKILL);
			wait4(pid, &status, 0, &ru);
			u.status = -1;
			break;
		}
		usleep(20000);
	}
	u.rss_kib = ru.ru_maxrss;
	u.cpu_s = tv_s(ru.ru_utime) + tv_s(ru.ru_stime);
	return u;
}

FIXTURE(bounds) {
	char dir[512];
};

FIXTURE_SETUP(bounds)
{
	snprintf(flightrec, sizeof(flightrec), "%s", fr_flightrec());
	snprintf(crafter, sizeof(crafter), "%s", fr_test_tool("craft_replay"));
	snprintf(self->dir, sizeof(self->dir), "/tmp/flightrec-bounds.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	if (access(fr_test_tool("ptsnap"), X_OK) || access(crafter, X_OK) ||
	    access(flightrec, X_OK))
		SKIP(return, "ptsnap, craft_replay or flightrec is not built");
	ASSERT_EQ(128 + 11, fr_record_crash_null(self->dir));
}

FIXTURE_TEARDOWN(bounds)
{
	if (self->dir[0] && !getenv("FR_KEEP"))
		fr_sh("rm -rf %s", self->dir);
}

static off_t file_size(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) ? -1 : st.st_size;
}

/* craft_replay MODE N cn.flrc x-MODE.flrc */
static int craft(const char *dir, const char *mode, unsigned long n)
{
	return fr_sh("cd %s && rm -f x-%s.flrc && %s %s %lu cn.flrc x-%s.flrc", dir, mode,
		     crafter, mode, n, mode);
}

#define MIB (1024.0 * 1024.0)

/* Every command on x-MODE.flrc within the budgets. */
static void check_commands(struct __test_metadata *_metadata, const char *dir,
			   const char *mode)
{
	char file[64], image[64];
	char *const cmds[][7] = {
		{ flightrec, "info", file, NULL },
		{ flightrec, "info", "--json", file, NULL },
		{ flightrec, "log", file, NULL },
		{ flightrec, "log", "--by-thread", file, NULL },
		{ flightrec, "replay", "-q", "--save-image", image, file, NULL },
	};
	off_t size;
	size_t i;

	snprintf(file, sizeof(file), "x-%s.flrc", mode);
	snprintf(image, sizeof(image), "x-%s.image", mode);
	size = file_size(dir, file);
	ASSERT_LT(0, size);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		/* in the test VM (FR_VM=1; emulated, 5-40 times slower with the
		 * host loaded): 8 times */
		double cpu_budget = (2.0 + 2.0 * size / MIB) * (getenv("FR_VM") ? 8 : 1);
		long rss_budget = 64 * 1024 + 8 * (long)(size / 1024);
		struct usage u;

		fr_sh("rm -f %s/%s", dir, image);
		u = run_measured(dir, cmds[i], 4 * cpu_budget + 30);
		TH_LOG("%s %s %s: %.1f MiB file, peak RSS %.1f MiB (budget %.1f), cpu %.2f s (budget %.1f)%s",
		       mode, cmds[i][1], cmds[i][2], size / MIB, u.rss_kib / 1024.0,
		       rss_budget / 1024.0, u.cpu_s, cpu_budget,
		       u.status == -1 ? ", killed at the wall-time limit" : "");
		if (u.status != 0)
			fr_sh("cat %s/err.txt >&2", dir);
		EXPECT_EQ(0, u.status);
		EXPECT_LE(u.rss_kib, rss_budget);
		EXPECT_LE(u.cpu_s, cpu_budget);
	}
}

TEST_F_TIMEOUT(bounds, expand, 600)
{
	ASSERT_EQ(0, craft(self->dir, "expand", 60000));
	check_commands(_metadata, self->dir, "expand");
}

TEST_F_TIMEOUT(bounds, same, 600)
{
	ASSERT_EQ(0, craft(self->dir, "same", 100000));
	check_commands(_metadata, self->dir, "same");
}

TEST_F_TIMEOUT(bounds, zero, 600)
{
	ASSERT_EQ(0, craft(self->dir, "zero", 100000));
	check_commands(_metadata, self->dir, "zero");
}

TEST_F_TIMEOUT(bounds, tids, 900)
{
	ASSERT_EQ(0, craft(self->dir, "tids", 100000));
	check_commands(_metadata, self->dir, "tids");
}

TEST_F_TIMEOUT(bounds, counts, 900)
{
	ASSERT_EQ(0, craft(self->dir, "counts", 20000));
	check_commands(_metadata, self->dir, "counts");
}

/* The reader's absolute ceiling: a clear error and EFBIG, never the memory. */
TEST_F_TIMEOUT(bounds, ceiling, 300)
{
	char path[PATH_MAX], err[512];
	char *const info[] = { flightrec, "info", "x-tids.flrc", NULL };
	struct flrc *c = NULL;
	struct usage u;
	int r;

	ASSERT_EQ(0, craft(self->dir, "tids", 100000));
	snprintf(path, sizeof(path), "%s/x-tids.flrc", self->dir);
	ASSERT_EQ(0, setenv("FLIGHTREC_MEM_LIMIT", "8M", 1));
	r = flrc_read_flags(path, FLRC_LAZY_PAGES, &c, err, sizeof(err));
	EXPECT_EQ(-EFBIG, r);
	EXPECT_EQ(NULL, c);
	EXPECT_NE(NULL, strstr(err, "8388608 bytes of memory, the limit (FLIGHTREC_MEM_LIMIT)"))
		TH_LOG("message: %s", err);
	u = run_measured(self->dir, info, 60);
	EXPECT_TRUE(WIFEXITED(u.status) && WEXITSTATUS(u.status) == 1);
	EXPECT_EQ(0, fr_sh("grep -q 'the limit (FLIGHTREC_MEM_LIMIT)' %s/err.txt", self->dir));
	/* the same file reads under the default limit */
	ASSERT_EQ(0, unsetenv("FLIGHTREC_MEM_LIMIT"));
	r = flrc_read_flags(path, FLRC_LAZY_PAGES, &c, err, sizeof(err));
	EXPECT_EQ(0, r) TH_LOG("%s", err);
	flrc_free(c);
}

/*
 * 100000 pages of zeros stored as data, read whole: one copy of their
 * bytes.  In the replay image, none for them (zeros are the loader's
 * anonymous memory), and one for 100000 pages the same as one.
 */
TEST_F_TIMEOUT(bounds, shared_pages, 300)
{
	char path[PATH_MAX], err[512];
	const uint8_t *first = NULL;
	struct flrc *c = NULL;
	off_t base, zero, same;
	size_t i, n = 0;

	ASSERT_EQ(0, craft(self->dir, "zero", 100000));
	ASSERT_EQ(0, craft(self->dir, "same", 100000));
	snprintf(path, sizeof(path), "%s/x-zero.flrc", self->dir);
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	for (i = 0; i < c->n_pages; i++) {
		const struct flrc_page *p = &c->pages[i];

		if (p->addr < 0x100000000000ull || p->addr >= 0x100000000000ull + 100000 * 4096ull)
			continue;
		n++;
		ASSERT_NE(NULL, p->data);
		if (!first)
			first = p->data;
		EXPECT_EQ(first, p->data);
		if (first != p->data)
			break;
	}
	EXPECT_EQ(100000, n);
	for (i = 0; first && i < FLRC_PAGE_SIZE; i++)
		ASSERT_EQ(0, first[i]);
	flrc_free(c);

	ASSERT_EQ(0, fr_sh("cd %s && %s replay -q --save-image cn.image cn.flrc && "
			   "%s replay -q --save-image x-zero.image x-zero.flrc && "
			   "%s replay -q --save-image x-same.image x-same.flrc", self->dir,
			   flightrec, flightrec, flightrec));
	base = file_size(self->dir, "cn.image");
	zero = file_size(self->dir, "x-zero.image");
	same = file_size(self->dir, "x-same.image");
	ASSERT_LT(0, base);
	TH_LOG("images: %jd bytes, with 100000 zero pages %jd, with 100000 same pages %jd",
	       (intmax_t)base, (intmax_t)zero, (intmax_t)same);
	/* the page table grows by 100000 entries; the bytes by none or one page */
	EXPECT_LE(zero, base + 100000 * (off_t)sizeof(struct fri_page) + FRI_PAGE_SIZE);
	EXPECT_LE(same, base + 100000 * (off_t)sizeof(struct fri_page) + 2 * FRI_PAGE_SIZE);
}

TEST_HARNESS_MAIN
