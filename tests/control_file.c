// SPDX-License-Identifier: GPL-2.0
/*
 * control_file - /proc/flightrec/control and /proc/flightrec/status.
 *
 * The whole bad-input table (each line refused with EINVAL and nothing
 * changed), the errnos of refused commands, whole-line framing, several lines
 * in one write, registration of real processes and threads, a registered
 * process exiting (dropped), permissions (unprivileged uid, CAP_SYS_ADMIN,
 * fd passing, the ptrace-attach right), the module parameters, and 10,000
 * register/unregister cycles with no growth of the module's memory.
 */
#include "kselftest_harness.h"
#include "fr_test.h"
#include "fr_privs.h"

#include <dirent.h>
#include <grp.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include "flightrec.h"		/* uapi: limits */
#include "libflightrec.h"

#define STATUS		FR_PROC_DIR "/status"

/* ---- helpers ---------------------------------------------------------------- */

/* One write(2) of buf to the control file: bytes written, or -errno. */
static ssize_t ctl_write(const void *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(FR_CONTROL, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

/* A formatted command; returns 0 when the whole write was taken, or -errno. */
static int ctl(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int ctl(const char *fmt, ...)
{
	char buf[1024];
	ssize_t n;
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	n = ctl_write(buf, len);
	if (n < 0)
		return n;
	return n == len ? 0 : -EIO;
}

struct st_proc {
	int found;
	unsigned long long threads, interval_ms, keep, at_exit, dumps, serial;
};

static char status_buf[1 << 20];

/* The status file; NULL when it cannot be read. */
static const char *status_read(void)
{
	if (fr_read_file(STATUS, status_buf, sizeof(status_buf)) < 0)
		return NULL;
	return status_buf;
}

/* The status line of pid, parsed. */
static struct st_proc status_proc(pid_t pid)
{
	struct st_proc st = { 0 };
	const char *s = status_read(), *line;
	char pfx[32];
	int n;

	if (!s)
		return st;
	n = snprintf(pfx, sizeof(pfx), "pid %d ", pid);
	for (line = s; line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (strncmp(line, pfx, n))
			continue;
		if (sscanf(line + n,
			   "threads %llu interval_ms %llu keep %llu at_exit %llu",
			   &st.threads, &st.interval_ms, &st.keep,
			   &st.at_exit) == 4)
			st.found = 1;
		if (strstr(line, " dumps "))
			sscanf(strstr(line, " dumps ") + 7, "%llu", &st.dumps);
		st.serial = 2;	/* not shown */
		if (strstr(line, " serial "))
			sscanf(strstr(line, " serial ") + 8, "%llu", &st.serial);
		break;
	}
	return st;
}

static bool registered(pid_t pid)
{
	return status_proc(pid).found;
}

/*
 * What a refused command must not change: the registered processes and
 * their settings (counters move on their own).
 */
static void status_state(char *out, size_t size)
{
	const char *s = status_read(), *line;
	size_t len = 0;
	int pid, n;
	unsigned long long threads, iv, keep, at_exit;

	out[0] = '\0';
	if (!s)
		return;
	for (line = s; line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (sscanf(line, "pid %d threads %llu interval_ms %llu keep %llu at_exit %llu",
			   &pid, &threads, &iv, &keep, &at_exit) == 5) {
			n = snprintf(out + len, size - len, "%d:%llu:%llu:%llu;",
				     pid, iv, keep, at_exit);
			if (n > 0 && (size_t)n < size - len)
				len += n;
		}
	}
}

/* Polls until pid is (or is no longer) registered; false on timeout. */
static bool wait_registered(pid_t pid, bool want, int timeout_ms)
{
	int waited;

	for (waited = 0; waited <= timeout_ms; waited += 10) {
		if (registered(pid) == want)
			return true;
		usleep(10000);
	}
	return false;
}


/* ---- fixture: A is registered, B is not ---------------------------------------- */

FIXTURE(ctl) {
	pid_t a, b;
	char state[4096];
};

FIXTURE_SETUP(ctl)
{
	FR_REQUIRE_MODULE();
	FR_REQUIRE_ROOT();
	self->a = spawn_sleeper();
	self->b = spawn_sleeper();
	ASSERT_LT(0, self->a);
	ASSERT_LT(0, self->b);
	ASSERT_EQ(0, ctl("register %d interval_ms=100 keep=4\n", self->a));
	ASSERT_TRUE(registered(self->a));
	ASSERT_FALSE(registered(self->b));
	status_state(self->state, sizeof(self->state));
}

FIXTURE_TEARDOWN(ctl)
{
	if (self->a > 0) {
		ctl("unregister %d\n", self->a);
		fr_kill_wait(self->a);
	}
	if (self->b > 0) {
		ctl("unregister %d\n", self->b);
		fr_kill_wait(self->b);
	}
}

/* ---- the bad-input table ---------------------------------------------------------- */

struct bad {
	const char *what;
	const char *fmt;	/* %1$d: A (registered), %2$d: B (not) */
	int nul_at;		/* > 0: the byte at this offset becomes NUL */
};

static const struct bad bad_lines[] = {
	{ "unknown verb", "frobnicate %2$d\n", 0 },
	{ "verb in capitals", "REGISTER %2$d\n", 0 },
	{ "empty line", "\n", 0 },
	{ "only blanks", " \t \n", 0 },
	{ "register without PID", "register\n", 0 },
	{ "unregister without PID", "unregister\n", 0 },
	{ "dump without PID", "dump\n", 0 },
	{ "unregister, extra field", "unregister %1$d %1$d\n", 0 },
	{ "unregister, extra key", "unregister %1$d keep=4\n", 0 },
	{ "dump, extra field", "dump %1$d now\n", 0 },
	{ "register, too many fields", "register %2$d interval_ms=100 keep=4 at_exit=1 serial=0 x\n", 0 },
	{ "non-numeric PID", "register abc\n", 0 },
	{ "PID with trailing junk", "register %2$dx\n", 0 },
	{ "negative PID", "register -%2$d\n", 0 },
	{ "PID with a plus sign", "register +%2$d\n", 0 },
	{ "hexadecimal PID", "register 0x10\n", 0 },
	{ "PID 0", "register 0\n", 0 },
	{ "PID over INT_MAX", "register 2147483648\n", 0 },
	{ "PID over UINT32_MAX", "register 4294967296\n", 0 },
	{ "PID of 30 digits", "register 123456789012345678901234567890\n", 0 },
	{ "negative PID (unregister)", "unregister -1\n", 0 },
	{ "overflowing PID (unregister)", "unregister 99999999999\n", 0 },
	{ "interval_ms below the minimum", "register %2$d interval_ms=9\n", 0 },
	{ "interval_ms above the maximum", "register %2$d interval_ms=60001\n", 0 },
	{ "interval_ms overflowing", "register %2$d interval_ms=4294967306\n", 0 },
	{ "interval_ms negative", "register %2$d interval_ms=-100\n", 0 },
	{ "interval_ms empty", "register %2$d interval_ms=\n", 0 },
	{ "interval_ms not a number", "register %2$d interval_ms=fast\n", 0 },
	{ "keep 0", "register %2$d keep=0\n", 0 },
	{ "keep above the maximum", "register %2$d keep=65\n", 0 },
	{ "at_exit 2", "register %2$d at_exit=2\n", 0 },
	{ "serial 2", "register %2$d serial=2\n", 0 },
	{ "serial twice", "register %2$d serial=1 serial=0\n", 0 },
	{ "serial empty", "register %2$d serial=\n", 0 },
	{ "unknown key", "register %2$d colour=blue\n", 0 },
	{ "key without value", "register %2$d keep\n", 0 },
	{ "key with blanks around =", "register %2$d keep = 4\n", 0 },
	{ "duplicate key", "register %2$d keep=4 keep=4\n", 0 },
	{ "duplicate key, other values", "register %2$d interval_ms=100 interval_ms=200\n", 0 },
	{ "carriage return", "register %2$d\r\n", 0 },
	{ "no newline", "register %2$d", 0 },
	{ "embedded NUL in the PID", "register %2$d\n", 9 },
	{ "embedded NUL after the verb", "register %2$d\n", 8 },
	{ "NUL instead of the newline", "unregister %1$d\n", -1 },
	{ "good line then a bad one", "register %2$d\nbogus\n", 0 },
	{ "good line then one without newline", "unregister %1$d\nregister %2$d", 0 },
	{ "bad line then a good one", "register %2$d keep=0\nunregister %1$d\n", 0 },
};

TEST_F(ctl, bad_input_table)
{
	char buf[512], now[4096];
	unsigned int i;
	ssize_t n;
	int len;

	for (i = 0; i < sizeof(bad_lines) / sizeof(bad_lines[0]); i++) {
		const struct bad *t = &bad_lines[i];

		len = snprintf(buf, sizeof(buf), t->fmt, self->a, self->b);
		if (t->nul_at > 0)
			buf[t->nul_at] = '\0';
		else if (t->nul_at < 0)
			buf[len - 1] = '\0';
		n = ctl_write(buf, len);
		EXPECT_EQ(-EINVAL, n) TH_LOG("%s: write returned %zd", t->what, n);
		status_state(now, sizeof(now));
		EXPECT_STREQ(self->state, now) TH_LOG("%s: state changed", t->what);
	}
}

/* Lines longer than FLIGHTREC_CTL_LINE_MAX bytes (with the '\n') are refused. */
TEST_F(ctl, line_length_limit)
{
	char *buf = malloc(2 * FLIGHTREC_CTL_LINE_MAX);
	char now[4096];
	int len;

	ASSERT_NE(NULL, buf);
	/* exactly the limit: accepted (blanks are separators) */
	len = snprintf(buf, 64, "register %d", self->b);
	memset(buf + len, ' ', FLIGHTREC_CTL_LINE_MAX - 1 - len);
	buf[FLIGHTREC_CTL_LINE_MAX - 1] = '\n';
	EXPECT_EQ(FLIGHTREC_CTL_LINE_MAX, ctl_write(buf, FLIGHTREC_CTL_LINE_MAX));
	EXPECT_TRUE(registered(self->b));
	EXPECT_EQ(0, ctl("unregister %d\n", self->b));

	/* one byte more: refused */
	len = snprintf(buf, 64, "register %d", self->b);
	memset(buf + len, ' ', FLIGHTREC_CTL_LINE_MAX - len);
	buf[FLIGHTREC_CTL_LINE_MAX] = '\n';
	EXPECT_EQ(-EINVAL, ctl_write(buf, FLIGHTREC_CTL_LINE_MAX + 1));
	EXPECT_FALSE(registered(self->b));

	/* a long line after a good one: nothing runs */
	len = snprintf(buf, 64, "register %d\nunregister %d", self->b, self->a);
	memset(buf + len, ' ', FLIGHTREC_CTL_LINE_MAX + 10);
	buf[len + FLIGHTREC_CTL_LINE_MAX + 10] = '\n';
	EXPECT_EQ(-EINVAL, ctl_write(buf, len + FLIGHTREC_CTL_LINE_MAX + 11));
	status_state(now, sizeof(now));
	EXPECT_STREQ(self->state, now);
	free(buf);
}

/* Each write must hold whole lines: a command split across two is refused. */
TEST_F(ctl, split_write_refused)
{
	char part1[64], now[4096];
	int fd, len;

	len = snprintf(part1, sizeof(part1), "register %d", self->b);
	fd = open(FR_CONTROL, O_WRONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, write(fd, part1, len));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, write(fd, "\n", 1));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	EXPECT_FALSE(registered(self->b));
	status_state(now, sizeof(now));
	EXPECT_STREQ(self->state, now);
}

/* A write of more than 64 KiB is refused whole. */
TEST_F(ctl, oversized_write_refused)
{
	size_t size = 16 * FLIGHTREC_CTL_LINE_MAX + 1, off = 0;
	char *buf = malloc(size + 64);
	int n;

	ASSERT_NE(NULL, buf);
	while (off < size) {
		n = sprintf(buf + off, "register %d\n", self->b);
		off += n;
	}
	EXPECT_EQ(-EINVAL, ctl_write(buf, off));
	EXPECT_FALSE(registered(self->b));
	free(buf);
}

/* ---- errnos of refused commands --------------------------------------------------- */

TEST_F(ctl, eexist)
{
	EXPECT_EQ(-EEXIST, ctl("register %d\n", self->a));
	EXPECT_EQ(-EEXIST, ctl("register %d interval_ms=500 keep=2\n", self->a));
	/* the settings stay those of the first registration */
	EXPECT_EQ(100, status_proc(self->a).interval_ms);
	EXPECT_EQ(4, status_proc(self->a).keep);
}

TEST_F(ctl, enoent)
{
	EXPECT_EQ(-ENOENT, ctl("unregister %d\n", self->b));
	EXPECT_EQ(-ENOENT, ctl("dump %d\n", self->b));
	EXPECT_EQ(0, ctl("unregister %d\n", self->a));
	EXPECT_EQ(-ENOENT, ctl("unregister %d\n", self->a));
	EXPECT_FALSE(registered(self->a));
}

TEST_F(ctl, esrch)
{
	pid_t gone = free_pid(), zombie;

	ASSERT_LT(0, gone);
	EXPECT_EQ(-ESRCH, ctl("register %d\n", gone));
	EXPECT_EQ(-ESRCH, ctl("register 2147483647\n"));

	/* a zombie has no memory left to record */
	zombie = fork();
	if (zombie == 0)
		_exit(0);
	ASSERT_LT(0, zombie);
	usleep(100000);
	EXPECT_EQ(-ESRCH, ctl("register %d\n", zombie));
	waitpid(zombie, NULL, 0);
	EXPECT_FALSE(registered(zombie));
}

static void *thread_park(void *arg)
{
	int *tid = arg;

	__atomic_store_n(tid, (int)syscall(SYS_gettid), __ATOMIC_SEQ_CST);
	pause();
	return NULL;
}

/* A thread ID is not a process ID. */
TEST_F(ctl, thread_id_refused)
{
	pthread_t th;
	int tid = 0;

	ASSERT_EQ(0, pthread_create(&th, NULL, thread_park, &tid));
	while (!__atomic_load_n(&tid, __ATOMIC_SEQ_CST))
		usleep(1000);
	ASSERT_NE(getpid(), tid);
	EXPECT_EQ(-ESRCH, ctl("register %d\n", tid));
	EXPECT_FALSE(registered(tid));
	EXPECT_FALSE(registered(getpid()));
}

TEST_F(ctl, kernel_thread_refused)
{
	char comm[64] = "";
	char path[64];

	/* pid 2 is kthreadd on Linux */
	snprintf(path, sizeof(path), "/proc/2/comm");
	ASSERT_LT(0, fr_read_file(path, comm, sizeof(comm)));
	ASSERT_EQ(0, strncmp(comm, "kthreadd", 8));
	EXPECT_EQ(-EPERM, ctl("register 2\n"));
	EXPECT_FALSE(registered(2));
}

/* ---- what works ---------------------------------------------------------------------- */

TEST_F(ctl, register_settings_shown)
{
	unsigned long long def_iv, def_keep;
	struct st_proc st;

	st = status_proc(self->a);
	EXPECT_EQ(1, st.found);
	EXPECT_EQ(1, st.threads);
	EXPECT_EQ(100, st.interval_ms);
	EXPECT_EQ(4, st.keep);
	EXPECT_EQ(0, st.at_exit);

	/* defaults come from the module parameters */
	ASSERT_EQ(0, fr_read_param("interval_ms", &def_iv));
	ASSERT_EQ(0, fr_read_param("keep", &def_keep));
	ASSERT_EQ(0, ctl("register\t%d  \n", self->b));
	st = status_proc(self->b);
	EXPECT_EQ(1, st.found);
	EXPECT_EQ(def_iv, st.interval_ms);
	EXPECT_EQ(def_keep, st.keep);
	EXPECT_EQ(0, st.at_exit);
	EXPECT_EQ(0, st.serial);
	EXPECT_EQ(0, ctl("unregister %d\n", self->b));

	/* every key, in any order, at the edges of their ranges */
	ASSERT_EQ(0, ctl("register %d at_exit=1 serial=1 keep=64 interval_ms=60000\n",
			 self->b));
	st = status_proc(self->b);
	EXPECT_EQ(60000, st.interval_ms);
	EXPECT_EQ(64, st.keep);
	EXPECT_EQ(1, st.at_exit);
	EXPECT_EQ(1, st.serial);
	EXPECT_EQ(0, ctl("unregister %d\n", self->b));
	ASSERT_EQ(0, ctl("register %d interval_ms=10 keep=1 at_exit=0\n", self->b));
	st = status_proc(self->b);
	EXPECT_EQ(10, st.interval_ms);
	EXPECT_EQ(1, st.keep);
	EXPECT_EQ(0, st.at_exit);
	EXPECT_EQ(0, ctl("unregister %d\n", self->b));
	EXPECT_FALSE(registered(self->b));
}

/* Several lines in one write run in order; the first failure stops them. */
TEST_F(ctl, several_lines)
{
	char buf[256];
	int len, first;
	ssize_t n;

	len = snprintf(buf, sizeof(buf), "register %d\nunregister %d\nregister %d keep=2\n",
		       self->b, self->b, self->b);
	EXPECT_EQ(len, ctl_write(buf, len));
	EXPECT_EQ(2, status_proc(self->b).keep);

	/* line 1 runs, line 2 fails (EEXIST): a short write up to line 2 */
	EXPECT_EQ(0, ctl("unregister %d\n", self->b));
	first = snprintf(buf, sizeof(buf), "register %d\n", self->b);
	len = first + snprintf(buf + first, sizeof(buf) - first,
			       "register %d\nunregister %d\n", self->a, self->a);
	n = ctl_write(buf, len);
	EXPECT_EQ(first, n);
	EXPECT_TRUE(registered(self->b));
	EXPECT_TRUE(registered(self->a));	/* line 3 did not run */
	/* writing the rest again reports the error of its first line */
	EXPECT_EQ(-EEXIST, ctl_write(buf + first, len - first));
	EXPECT_TRUE(registered(self->a));

	/* the first line fails: the write fails with its errno */
	len = snprintf(buf, sizeof(buf), "register %d\nunregister %d\n",
		       self->a, self->b);
	EXPECT_EQ(-EEXIST, ctl_write(buf, len));
	EXPECT_TRUE(registered(self->b));
}

struct dumps_of {
	pid_t pid;
	uint32_t ids[8];
	int n;
};

static int collect_dumps(const struct fr_dump_info *info, void *arg)
{
	struct dumps_of *d = arg;

	if (info->pid == (uint32_t)d->pid && d->n < 8)
		d->ids[d->n++] = info->id;
	return 0;
}

TEST_F(ctl, dump_command)
{
	struct dumps_of d = { .pid = self->a };
	struct fr_client *c;
	char err[256];
	int i;

	EXPECT_EQ(0, ctl("dump %d\n", self->a));
	EXPECT_EQ(1, status_proc(self->a).dumps);
	EXPECT_EQ(-ENOENT, ctl("dump %d\n", self->b));

	/* the frozen copy is there; release it, later tests count memory */
	ASSERT_EQ(0, fr_client_open(&c, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, fr_client_list_dumps(c, collect_dumps, &d));
	EXPECT_EQ(1, d.n);
	for (i = 0; i < d.n; i++)
		EXPECT_EQ(0, fr_client_release_dump(c, d.ids[i], err, sizeof(err)));
	fr_client_close(c);
}

static void *thread_wait(void *arg)
{
	int fd = *(int *)arg;
	char c;

	if (read(fd, &c, 1) < 0)
		return NULL;
	return NULL;
}

/*
 * A child with three threads; registered, its threads are counted; a thread
 * it creates later is followed; threads that exit are dropped; the process
 * stays registered until its last thread exits.
 */
TEST(threads_followed)
{
	int go[2], more[2], done[2], status;
	pthread_t th[4];
	char c;
	pid_t pid;
	int i;

	FR_REQUIRE_MODULE();
	FR_REQUIRE_ROOT();
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(more));
	ASSERT_EQ(0, pipe(done));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (i = 0; i < 3; i++)
			if (pthread_create(&th[i], NULL, thread_wait, &go[0]))
				_exit(1);
		if (write(done[1], "r", 1) != 1)
			_exit(1);
		/* on "more": one more thread, which waits too */
		if (read(more[0], &c, 1) != 1)
			_exit(1);
		if (pthread_create(&th[3], NULL, thread_wait, &go[0]))
			_exit(1);
		if (write(done[1], "m", 1) != 1)
			_exit(1);
		for (i = 0; i < 4; i++)
			pthread_join(th[i], NULL);
		if (write(done[1], "j", 1) != 1)
			_exit(1);
		for (;;)
			usleep(2000);
	}
	ASSERT_EQ(1, read(done[0], &c, 1));
	ASSERT_EQ(0, ctl("register %d\n", pid));
	EXPECT_EQ(4, status_proc(pid).threads);

	ASSERT_EQ(1, write(more[1], "m", 1));
	ASSERT_EQ(1, read(done[0], &c, 1));
	EXPECT_EQ(5, status_proc(pid).threads) TH_LOG("a new thread is not followed");

	ASSERT_EQ(4, write(go[1], "gggg", 4));
	ASSERT_EQ(1, read(done[0], &c, 1));
	for (i = 0; i < 100 && status_proc(pid).threads != 1; i++)
		usleep(10000);
	EXPECT_EQ(1, status_proc(pid).threads);
	EXPECT_TRUE(registered(pid));

	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(wait_registered(pid, false, 5000));
}

/* A registered process that exits is dropped, even before it is reaped. */
TEST(exit_drops_process)
{
	pid_t pid;
	int status;

	FR_REQUIRE_MODULE();
	FR_REQUIRE_ROOT();

	/* killed, still a zombie */
	pid = spawn_sleeper();
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, ctl("register %d\n", pid));
	ASSERT_TRUE(registered(pid));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	EXPECT_TRUE(wait_registered(pid, false, 5000))
		TH_LOG("a killed process is still registered");
	EXPECT_EQ(-ENOENT, ctl("unregister %d\n", pid));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));

	/* a normal exit in the middle of an interval */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		usleep(300000);
		_exit(7);
	}
	ASSERT_EQ(0, ctl("register %d interval_ms=50\n", pid));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(7, WEXITSTATUS(status));
	EXPECT_TRUE(wait_registered(pid, false, 5000))
		TH_LOG("an exited process is still registered");
}

/* ---- permissions --------------------------------------------------------------------- */

TEST(file_modes)
{
	struct stat st;

	FR_REQUIRE_MODULE();
	ASSERT_EQ(0, stat(FR_CONTROL, &st));
	EXPECT_EQ(0600, st.st_mode & 07777);
	EXPECT_EQ(0, st.st_uid);
	ASSERT_EQ(0, stat(STATUS, &st));
	EXPECT_EQ(0400, st.st_mode & 07777);
	EXPECT_EQ(0, st.st_uid);
}

static int nobody_opens(void *arg)
{
	(void)arg;
	if (drop_to_nobody())
		return 10;
	if (open(FR_CONTROL, O_WRONLY) >= 0)
		return 11;
	if (errno != EACCES)
		return 12;
	if (open(STATUS, O_RDONLY) >= 0)
		return 13;
	if (errno != EACCES)
		return 14;
	return 0;
}

static int nobody_writes_passed_fd(void *arg)
{
	pid_t target = *(pid_t *)arg;
	char line[64];
	int fd, len;

	fd = open(FR_CONTROL, O_WRONLY);	/* as root */
	if (fd < 0)
		return 10;
	if (drop_to_nobody())
		return 11;
	len = snprintf(line, sizeof(line), "register %d\n", target);
	if (write(fd, line, len) >= 0)
		return 12;
	return errno == EPERM ? 0 : 13;
}

static int no_sys_admin_writes(void *arg)
{
	pid_t target = *(pid_t *)arg;
	char line[64];
	int fd, len;

	if (drop_caps(CAPBIT(CAP_SYS_ADMIN)))
		return 10;
	fd = open(FR_CONTROL, O_WRONLY);	/* uid 0 owns it: allowed */
	if (fd < 0)
		return 11;
	len = snprintf(line, sizeof(line), "register %d\n", target);
	if (write(fd, line, len) >= 0)
		return 12;
	return errno == EPERM ? 0 : 13;
}

TEST_F(ctl, unprivileged_refused)
{
	EXPECT_EQ(0, in_child(nobody_opens, NULL))
		TH_LOG("uid 65534 could open the control or status file");
	EXPECT_EQ(0, in_child(nobody_writes_passed_fd, &self->b))
		TH_LOG("uid 65534 could write through root's fd");
	EXPECT_EQ(0, in_child(no_sys_admin_writes, &self->b))
		TH_LOG("root without CAP_SYS_ADMIN could write");
	EXPECT_FALSE(registered(self->b));
}

/* The caller without CAP_SYS_PTRACE registers target (a pid): 0 or errno. */
static int register_without_ptrace_cap(void *arg)
{
	pid_t target = *(pid_t *)arg;
	int err;

	if (drop_caps(CAPBIT(CAP_SYS_PTRACE)))
		return 100;
	err = ctl("register %d\n", target);
	return err < 0 ? -err : 0;
}

/*
 * A target of another uid, and a non-dumpable one: the ptrace-attach right,
 * CAP_SYS_PTRACE (always required: the LSM hook is not exported) and
 * dumpability (required even with CAP_SYS_PTRACE, docs/security.md).
 */
TEST(ptrace_right_required)
{
	int ready[2], execd[2], status;
	pid_t other, nodump, mine;
	char c;

	FR_REQUIRE_MODULE();
	FR_REQUIRE_ROOT();
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe2(execd, O_CLOEXEC));

	/*
	 * uid 65534 after an exec: the uid change made it not dumpable, the
	 * exec of a plain program makes it dumpable again.  execd reads EOF
	 * once the exec is done.
	 */
	other = fork();
	ASSERT_LE(0, other);
	if (other == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(execd[0]);
		if (drop_to_nobody())
			_exit(1);
		execl("/bin/sleep", "sleep", "600", (char *)NULL);
		_exit(1);
	}
	close(execd[1]);
	ASSERT_EQ(0, read(execd[0], &c, 1));
	close(execd[0]);
	nodump = fork();
	ASSERT_LE(0, nodump);
	if (nodump == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
			_exit(1);
		if (write(ready[1], "n", 1) != 1)
			_exit(1);
		for (;;)
			usleep(2000);
	}
	mine = spawn_sleeper();
	ASSERT_LT(0, mine);
	ASSERT_EQ(1, read(ready[0], &c, 1));

	/* without CAP_SYS_PTRACE nothing, not even the same uid */
	EXPECT_EQ(EPERM, in_child(register_without_ptrace_cap, &mine));
	EXPECT_FALSE(registered(mine));
	EXPECT_EQ(EPERM, in_child(register_without_ptrace_cap, &other));
	EXPECT_FALSE(registered(other));
	EXPECT_EQ(EPERM, in_child(register_without_ptrace_cap, &nodump));
	EXPECT_FALSE(registered(nodump));
	/* with it: another uid yes, a process that is not dumpable still no */
	EXPECT_EQ(0, ctl("register %d\n", mine));
	EXPECT_EQ(0, ctl("register %d\n", other));
	EXPECT_EQ(-EPERM, ctl("register %d\n", nodump));
	EXPECT_FALSE(registered(nodump));

	ctl("unregister %d\n", mine);
	ctl("unregister %d\n", other);
	ctl("unregister %d\n", nodump);
	fr_kill_wait(mine);
	fr_kill_wait(other);
	fr_kill_wait(nodump);
	(void)status;
}

/* ---- parameters ------------------------------------------------------------------------- */

static int write_param(const char *name, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), FR_SYSFS_PARAMS "/%s", name);
	return fr_write_file(path, val, strlen(val));
}

TEST(params_validated)
{
	static const struct {
		const char *name, *bad[4];
	} params[] = {
		{ "ring_mb", { "0", "65537", "-1", "lots" } },
		{ "interval_ms", { "9", "60001", "-5", "0x" } },
		{ "keep", { "0", "65", "99999999999", "x" } },
		{ "log_delay_us", { "1001", "-1", "4294967296", "1us" } },
	};
	unsigned long long before, after;
	unsigned int i, j;
	char val[32];
	pid_t pid;

	FR_REQUIRE_MODULE();
	FR_REQUIRE_ROOT();
	for (i = 0; i < ARRAY_SIZE(params); i++) {
		ASSERT_EQ(0, fr_read_param(params[i].name, &before));
		for (j = 0; j < 4; j++) {
			EXPECT_EQ(-EINVAL, write_param(params[i].name, params[i].bad[j]))
				TH_LOG("%s=%s accepted", params[i].name, params[i].bad[j]);
			ASSERT_EQ(0, fr_read_param(params[i].name, &after));
			EXPECT_EQ(before, after);
		}
	}

	/* a new default applies to the next registration */
	ASSERT_EQ(0, fr_read_param("interval_ms", &before));
	ASSERT_EQ(0, write_param("interval_ms", "333"));
	ASSERT_EQ(0, write_param("keep", "5"));
	pid = spawn_sleeper();
	ASSERT_LT(0, pid);
	EXPECT_EQ(0, ctl("register %d\n", pid));
	EXPECT_EQ(333, status_proc(pid).interval_ms);
	EXPECT_EQ(5, status_proc(pid).keep);
	ctl("unregister %d\n", pid);
	fr_kill_wait(pid);
	snprintf(val, sizeof(val), "%llu", before);
	EXPECT_EQ(0, write_param("interval_ms", val));
	EXPECT_EQ(0, write_param("keep", "8"));
}

/* ---- memory ------------------------------------------------------------------------------ */

static long long meminfo_kb(const char *key)
{
	static char buf[8192];
	const char *p;
	long long v;

	if (fr_read_file("/proc/meminfo", buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, key);
	if (!p || sscanf(p + strlen(key), ": %lld", &v) != 1)
		return -1;
	return v;
}

/* the module's own object counters and recorded bytes */
struct objs {
	unsigned long long procs, threads, bytes;
};

static bool read_objs(struct objs *o)
{
	const char *s = status_read(), *p;

	if (!s)
		return false;
	p = strstr(s, "\nbytes ");
	if (!p || sscanf(p, "\nbytes %llu", &o->bytes) != 1)
		return false;
	p = strstr(s, "\nobjects ");
	return p && sscanf(p, "\nobjects procs %llu threads %llu",
			   &o->procs, &o->threads) == 2;
}

/* waits for deferred frees (RCU) to bring the counters back to base */
static bool objs_settle(const struct objs *base, struct objs *now)
{
	int i;

	for (i = 0; i < 500; i++) {
		if (read_objs(now) && now->procs == base->procs &&
		    now->threads == base->threads && now->bytes == base->bytes)
			return true;
		usleep(10000);
	}
	return false;
}

#define CYCLES		10000
#define SLAB_SLACK_KB	1024

/*
 * Every slab cache shrunk (/sys/kernel/slab/NAME/shrink): empty slabs go
 * back, and on a KASAN kernel (make check-debug) the cache's quarantine is
 * drained first (kmem_cache_shrink -> kasan_cache_shrink): freed objects
 * wait there, still in their slabs, until the quarantine (1/32 of memory)
 * fills - 10000 cycles' worth grew SUnreclaim by 3.9 MiB there with nothing
 * leaked.  An object still allocated stays counted either way.
 */
static void slabs_shrink(void)
{
	struct dirent *e;
	char path[512];
	DIR *dir = opendir("/sys/kernel/slab");

	if (!dir)
		return;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.' || e->d_type == DT_LNK)
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", e->d_name);
		fr_write_file(path, "1", 1);
	}
	closedir(dir);
}

TEST_F_TIMEOUT(ctl, ten_thousand_cycles, 600)
{
	struct objs base, now;
	long long slab0, slab1;
	char reg[64], unreg[64];
	int i, rl, ul, fd;

	/* nothing else records meanwhile: the recorded bytes must come back */
	ASSERT_EQ(0, ctl("unregister %d\n", self->a));
	rl = snprintf(reg, sizeof(reg), "register %d\n", self->b);
	ul = snprintf(unreg, sizeof(unreg), "unregister %d\n", self->b);
	fd = open(FR_CONTROL, O_WRONLY);
	ASSERT_LE(0, fd);

	/* warm the caches up, then take the baseline */
	for (i = 0; i < 200; i++) {
		ASSERT_EQ(rl, write(fd, reg, rl));
		ASSERT_EQ(ul, write(fd, unreg, ul));
	}
	usleep(200000);
	ASSERT_TRUE(read_objs(&base));
	ASSERT_TRUE(objs_settle(&base, &base));
	slabs_shrink();
	slab0 = meminfo_kb("SUnreclaim");
	ASSERT_LT(0, slab0);

	for (i = 0; i < CYCLES; i++) {
		ASSERT_EQ(rl, write(fd, reg, rl)) TH_LOG("cycle %d: %m", i);
		ASSERT_EQ(ul, write(fd, unreg, ul)) TH_LOG("cycle %d: %m", i);
	}
	close(fd);
	EXPECT_FALSE(registered(self->b));
	EXPECT_TRUE(objs_settle(&base, &now))
		TH_LOG("after %d cycles: procs %llu threads %llu bytes %llu, before: %llu %llu %llu",
		       CYCLES, now.procs, now.threads, now.bytes, base.procs,
		       base.threads, base.bytes);
	/* objects freed after a grace period take a while to leave the slabs */
	for (i = 0; i < 150; i++) {
		slabs_shrink();
		slab1 = meminfo_kb("SUnreclaim");
		if (slab1 - slab0 < SLAB_SLACK_KB)
			break;
		usleep(100000);
	}
	EXPECT_GT(SLAB_SLACK_KB, slab1 - slab0)
		TH_LOG("unreclaimable slab grew by %lld KiB over %d cycles",
		       slab1 - slab0, CYCLES);
	TH_LOG("slab: %lld -> %lld KiB over %d cycles", slab0, slab1, CYCLES);
}

TEST_HARNESS_MAIN
