// SPDX-License-Identifier: GPL-2.0
/*
 * transparency - recording must not change what the recorded program sees,
 * nor write to the kernel log on its behalf (issue 24).  progs/observe runs
 * unrecorded, then recorded with a dump requested while it blocks in
 * epoll_wait, read, recv and send with timeouts, connect (unix and TCP)
 * with timeouts, and nanosleep: its output
 * (PR_GET_TSC answers, the blocking calls' results, PR_SET_TSC, rdtsc)
 * must be the same bytes, and the kernel log must have no line about it (a
 * trapped rdtsc used to leave "traps: observe[PID] general protection
 * fault" lines).
 */
#include "kselftest_harness.h"
#include "fr_test.h"
#include "fr_dump.h"
#include <sys/klog.h>

#define SYSLOG_ACTION_READ_ALL	3	/* linux/syslog.h, not in glibc */

#define EXPECTED							\
	"tsc mode 1\n"							\
	"tsc read 8\n"							\
	"ready epoll_wait\n"						\
	"epoll_wait 1 \n"						\
	"ready read\n"							\
	"read 1 x\n"							\
	"ready recv\n"							\
	"recv 1 x\n"							\
	"ready send\n"							\
	"send 1 \n"							\
	"ready connect_unix\n"						\
	"connect_unix -1 Resource temporarily unavailable\n"		\
	"ready connect_tcp\n"						\
	"connect_tcp -1 Operation now in progress\n"			\
	"ready nanosleep\n"						\
	"nanosleep 0 \n"						\
	"PR_SET_TSC 0\n"						\
	"tsc mode 1\n"							\
	"tsc read 8\n"							\
	"done\n"

/*
 * Runs observe; when @recorded, registers it before its first instruction
 * and requests a dump at each of its blocking calls.  Its output in @out.
 * Returns its wait status, or -1; *dumps counts the dumps made, *released
 * those then found held and released.
 */
static int observe(bool recorded, char *out, size_t size, int *dumps,
		   int *released, pid_t *pidp)
{
	struct fr_client *fc;
	char err[256];
	int in[2], outp[2], gate[2], status;
	size_t len = 0;
	pid_t pid;
	ssize_t n;
	char c;

	*dumps = 0;
	*released = 0;
	/* stdin a socket: progs/observe's recv and send have timeouts */
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, in) || pipe(outp) ||
	    pipe2(gate, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(outp[1], 1);
		close(in[0]);
		close(in[1]);
		close(outp[0]);
		close(outp[1]);
		close(gate[1]);
		if (read(gate[0], &c, 1) != 1)
			_exit(127);
		execl(fr_prog("observe"), "observe", (char *)NULL);
		_exit(127);
	}
	*pidp = pid;
	close(in[0]);
	close(outp[1]);
	close(gate[0]);
	if (recorded && fr_control("register %d interval_ms=50", pid))
		return -1;
	if (write(gate[1], "g", 1) != 1)
		return -1;
	close(gate[1]);
	for (;;) {
		n = read(outp[0], out + len, size - 1 - len);
		if (n <= 0)
			break;
		len += n;
		out[len] = 0;
		/* one "ready" line at a time: it then blocks until we write */
		if (len && out[len - 1] == '\n') {
			char *line = out + len - 1;

			while (line > out && line[-1] != '\n')
				line--;
			if (strncmp(line, "ready ", 6))
				continue;
			usleep(150000);		/* well into the blocking call */
			if (recorded && !fr_control("dump %d", pid))
				(*dumps)++;
			usleep(50000);
			if (!strcmp(line, "ready send\n")) {
				/* room for its send: what it sent before, read */
				char sink[4096];

				while (recv(in[1], sink, sizeof(sink), MSG_DONTWAIT) > 0)
					;
			} else if (strcmp(line, "ready nanosleep\n") &&
				   strncmp(line, "ready connect_", 14) &&
				   write(in[1], "x", 1) != 1) {
				break;
			}
		}
	}
	close(in[1]);
	close(outp[0]);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (recorded) {
		fr_control("unregister %d", pid);
		/* the dumps stay until released: none left for the next test */
		if (fr_client_open(&fc, err, sizeof(err)))
			return -1;
		*released = frd_release_dumps_of(fc, pid);
		fr_client_close(fc);
	}
	return status;
}

FIXTURE(tr) {
	int unused;
};

FIXTURE_SETUP(tr)
{
	FR_REQUIRE_MODULE();
	FR_REQUIRE_ROOT();
}

FIXTURE_TEARDOWN(tr)
{
}

TEST_F_TIMEOUT(tr, same_output_recorded, 60)
{
	static char plain[4096], rec[4096];
	int dumps, released;
	pid_t pid;

	ASSERT_EQ(0, observe(false, plain, sizeof(plain), &dumps, &released, &pid));
	ASSERT_STREQ(EXPECTED, plain);
	ASSERT_EQ(0, observe(true, rec, sizeof(rec), &dumps, &released, &pid));
	/*
	 * A dump at each blocking call, made while it blocked, each held; the
	 * first also published the image before observe's exec (registered
	 * before it: docs/recording.md, replay across exec) while that image
	 * is still within the kept intervals (not on a slow debug kernel).
	 */
	EXPECT_EQ(7, dumps);
	EXPECT_TRUE(released == dumps || released == dumps + 1) TH_LOG("%d released", released);
	ASSERT_STREQ(plain, rec);
}

/* The kernel log after a mark, in buf. */
static int klog_since(const char *mark, char *buf, int size, char **since)
{
	int n = klogctl(SYSLOG_ACTION_READ_ALL, buf, size - 1);

	if (n < 0)
		return -1;
	buf[n] = 0;
	*since = strstr(buf, mark);
	return *since ? 0 : -1;
}

TEST_F_TIMEOUT(tr, no_kernel_log_lines, 60)
{
	static char out[4096], log[1 << 20];
	char mark[64], needle[64], *since;
	int dumps, released, fd;
	pid_t pid;

	/*
	 * show_signal() logs only when printk_ratelimit() allows (10 lines
	 * per 5 s, all callers together): let an earlier burst expire, so
	 * that this run's first trap would be logged.
	 */
	sleep(6);
	snprintf(mark, sizeof(mark), "transparency mark %d", getpid());
	fd = open("/dev/kmsg", O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_LT(0, write(fd, mark, strlen(mark)));
	close(fd);
	ASSERT_EQ(0, observe(true, out, sizeof(out), &dumps, &released, &pid));
	EXPECT_TRUE(released == dumps || released == dumps + 1) TH_LOG("%d released", released);
	ASSERT_EQ(0, klog_since(mark, log, sizeof(log), &since));
	snprintf(needle, sizeof(needle), "observe[%d]", pid);
	EXPECT_EQ(NULL, strstr(since, needle)) TH_LOG("kernel log: %s", since);
}

TEST_HARNESS_MAIN
