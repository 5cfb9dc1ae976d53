// SPDX-License-Identifier: GPL-2.0
/*
 * reload - unloading the module while processes are registered tears
 * everything down and leaves those processes running; 100 unload/reload
 * cycles with registered processes (one multithreaded, one blocked in a long
 * sleep) and frozen dumps; the tools without the module.  The module is
 * loaded again at the end (FR_MODULE, FR_MODPARAMS from the test rig).
 * A recorded process stopped (SIGSTOP, or by ptrace) while the module goes
 * does not hold the unload up, and continues unharmed afterwards.
 */
#include "kselftest_harness.h"
#include "fr_test.h"

#include <pthread.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <x86intrin.h>
#include "flightrec.h"		/* uapi */
#include "libflightrec.h"

#define MODNAME	"flightrec"
#define STATUS	FR_PROC_DIR "/status"

static int unload(void)
{
	return syscall(SYS_delete_module, MODNAME, O_NONBLOCK) ? -errno : 0;
}

static int load(void)
{
	const char *path = getenv("FR_MODULE");
	const char *params = getenv("FR_MODPARAMS");
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params ? params : "", 0))
		err = -errno;
	close(fd);
	return err;
}

static void *park(void *arg)
{
	(void)arg;
	for (;;)
		usleep(200000);
	return NULL;
}

/*
 * kind 0: a short-sleep loop; 1: four threads; 2: blocked in one long sleep.
 * Few syscalls: under qemu's software emulation, a CPU that enters the
 * syscall tracepoint while another patches it (the module's load and unload
 * toggle it) can end up looping on the text-poke breakpoint; a hundred
 * cycles against a 2 ms loop did hit it once.
 */
static pid_t spawn(int kind)
{
	pthread_t th;
	pid_t pid = fork();
	int i;

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (kind == 1)
		for (i = 0; i < 3; i++)
			pthread_create(&th, NULL, park, NULL);
	if (kind == 2)
		for (;;)
			sleep(3600);
	for (;;)
		usleep(20000);
}

static bool alive(pid_t pid)
{
	return waitpid(pid, NULL, WNOHANG) == 0 && kill(pid, 0) == 0;
}

static bool status_has(const char *needle)
{
	static char buf[1 << 16];

	return fr_read_file(STATUS, buf, sizeof(buf)) > 0 && strstr(buf, needle);
}

static bool registered(pid_t pid)
{
	char needle[32];

	snprintf(needle, sizeof(needle), "\npid %d ", pid);
	return status_has(needle);
}

FIXTURE(rl) {
	pid_t kids[3];
};

FIXTURE_SETUP(rl)
{
	int i;

	FR_REQUIRE_MODULE();
	FR_REQUIRE_ROOT();
	if (!getenv("FR_MODULE"))
		SKIP(return, "FR_MODULE is not set (run in the test VM)");
	for (i = 0; i < 3; i++) {
		self->kids[i] = spawn(i);
		ASSERT_LT(0, self->kids[i]);
	}
	usleep(100000);
}

FIXTURE_TEARDOWN(rl)
{
	int i;

	if (!fr_module_loaded() && getenv("FR_MODULE"))
		load();
	for (i = 0; i < 3; i++)
		fr_kill_wait(self->kids[i]);
}

#define CYCLES 100

TEST_F_TIMEOUT(rl, hundred_cycles, 600)
{
	struct fr_client *c;
	char err[256];
	int i, k, rc;

	for (i = 0; i < CYCLES; i++) {
		/* two through the control file, one through netlink */
		ASSERT_EQ(0, fr_control("register %d interval_ms=20", self->kids[0]));
		ASSERT_EQ(0, fr_control("register %d keep=2", self->kids[1]));
		ASSERT_EQ(0, fr_client_open(&c, err, sizeof(err))) TH_LOG("%s", err);
		ASSERT_EQ(0, fr_client_register(c, self->kids[2], 0, 0, 1, err,
						sizeof(err))) TH_LOG("%s", err);
		fr_client_close(c);
		for (k = 0; k < 3; k++)
			ASSERT_TRUE(registered(self->kids[k])) TH_LOG("cycle %d", i);
		ASSERT_TRUE(status_has(" threads 4 "));
		if (i % 10 == 9) {
			/* a frozen dump waiting to be read at unload */
			usleep(50000);
			EXPECT_EQ(0, fr_control("dump %d", self->kids[0]));
		}

		rc = unload();
		ASSERT_EQ(0, rc) TH_LOG("cycle %d: delete_module: %s", i, strerror(-rc));
		ASSERT_FALSE(fr_module_loaded());
		for (k = 0; k < 3; k++)
			ASSERT_TRUE(alive(self->kids[k]))
				TH_LOG("cycle %d: process %d died at unload", i, k);

		rc = load();
		ASSERT_EQ(0, rc) TH_LOG("cycle %d: finit_module: %s", i, strerror(-rc));
		ASSERT_TRUE(status_has("\nprocesses 0\n"));
		ASSERT_TRUE(status_has("\nobjects procs 0 threads 0\n"));
		ASSERT_TRUE(status_has("\nbytes 0 "));
	}
	for (k = 0; k < 3; k++)
		EXPECT_TRUE(alive(self->kids[k]));
}

/* A process that exits while the module goes away. */
TEST_F_TIMEOUT(rl, exit_during_unload, 120)
{
	int i, status, gate[2];
	pid_t pid;
	char c;

	for (i = 0; i < 10; i++) {
		ASSERT_EQ(0, pipe(gate));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			close(gate[1]);
			if (read(gate[0], &c, 1) != 1)
				_exit(1);
			usleep(20000 * (i % 4));
			_exit(3);
		}
		close(gate[0]);
		ASSERT_EQ(0, fr_control("register %d interval_ms=10", pid));
		/* it exits now, while the module goes */
		ASSERT_EQ(1, write(gate[1], "g", 1));
		close(gate[1]);
		ASSERT_EQ(0, unload());
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_EQ(3, WEXITSTATUS(status));
		ASSERT_EQ(0, load());
		ASSERT_TRUE(status_has("\nprocesses 0\n"));
	}
}

static int tool(char *out, size_t outsz, const char *cmd)
{
	char *argv[] = { (char *)fr_tool("flightrec"), (char *)cmd, NULL };
	int status;

	if (fr_run(argv, out, outsz, &status))
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Without the module, the tools say so plainly, with their own exit code. */
TEST_F(rl, tools_without_module)
{
	struct fr_client *c = NULL;
	char err[256], out[4096];

	ASSERT_EQ(0, unload());
	EXPECT_EQ(FR_ENOMODULE, fr_client_open(&c, err, sizeof(err)));
	EXPECT_EQ(NULL, c);
	EXPECT_STREQ("the flightrec module is not loaded (insmod kernel/flightrec.ko)",
		     err);
	if (!access(fr_tool("flightrec"), X_OK)) {
		EXPECT_EQ(FR_EXIT_NOMODULE, tool(out, sizeof(out), "version"));
		EXPECT_EQ(0, strncmp(out, "flightrec ", 10));	/* its own version still */
		EXPECT_EQ(FR_EXIT_NOMODULE, tool(out, sizeof(out), "list"));
	}
	ASSERT_EQ(0, load());
	ASSERT_EQ(0, fr_client_open(&c, err, sizeof(err))) TH_LOG("%s", err);
	fr_client_close(c);
}

/* The state letter of /proc/PID/stat ('T' stopped, 't' traced), or 0. */
static char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (fr_read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/*
 * A recorded loop that, once its gate opens, reads the TSC a few times and
 * exits 7: what it does after the module went shows it unharmed (a TIF_NOTSC
 * left behind would kill it with SIGSEGV at its first rdtsc).
 */
static pid_t spawn_stoppable(int *gate)
{
	int fds[2];
	pid_t pid;
	char c;
	int i;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid) {
		close(fds[0]);
		*gate = fds[1];
		return pid;
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	while (read(fds[0], &c, 1) != 1)
		usleep(5000);
	for (i = 0; i < 4; i++)
		(void)__rdtsc();
	_exit(7);
}

/* delete_module in a child, which the test can wait for with a timeout. */
static pid_t unload_async(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(unload() ? 1 : 0);
	return pid;
}

/*
 * Unload while a recorded process is stopped (kind 0: SIGSTOP; 1: a ptrace
 * stop): the task_work queued on it for the next boundary and for its rdtsc
 * cannot run until it continues.  The unload must not wait for that.
 */
static void unload_while_stopped(struct __test_metadata *_metadata, int kind)
{
	int status, gate, rc;
	pid_t pid, rm;

	pid = spawn_stoppable(&gate);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, fr_control("register %d interval_ms=20", pid));
	usleep(100000);		/* its first boundaries: rdtsc trapped, work queued */
	if (kind == 0) {
		ASSERT_EQ(0, kill(pid, SIGSTOP));
	} else {
		ASSERT_EQ(0, ptrace(PTRACE_SEIZE, pid, 0, 0));
		ASSERT_EQ(0, ptrace(PTRACE_INTERRUPT, pid, 0, 0));
		ASSERT_EQ(pid, waitpid(pid, &status, __WALL));
		ASSERT_TRUE(WIFSTOPPED(status));
	}
	while (proc_state(pid) != (kind ? 't' : 'T'))
		usleep(1000);
	usleep(100000);		/* boundaries come and queue work on it */

	rm = unload_async();
	ASSERT_LT(0, rm);
	rc = fr_wait_timeout(rm, &status, 20000);
	if (rc) {
		/* let the unload finish, or the VM hangs on it */
		if (kind == 0)
			kill(pid, SIGCONT);
		else
			ptrace(PTRACE_DETACH, pid, 0, 0);
		waitpid(rm, &status, 0);
	}
	ASSERT_EQ(0, rc) TH_LOG("unload still waiting after 20 s for a stopped process");
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_FALSE(fr_module_loaded());
	/* still stopped, and it never ran in between */
	ASSERT_EQ(kind ? 't' : 'T', proc_state(pid));

	if (kind == 0) {
		ASSERT_EQ(0, kill(pid, SIGCONT));
	} else {
		ASSERT_EQ(0, ptrace(PTRACE_DETACH, pid, 0, 0));
	}
	ASSERT_EQ(0, fr_gate_open(gate));
	ASSERT_EQ(0, fr_wait_timeout(pid, &status, 10000));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("status %#x: killed by signal %d",
					      status, WTERMSIG(status));
	ASSERT_EQ(7, WEXITSTATUS(status));
	ASSERT_EQ(0, load());
	ASSERT_TRUE(status_has("\nprocesses 0\n"));
}

TEST_F_TIMEOUT(rl, unload_sigstopped, 60)
{
	unload_while_stopped(_metadata, 0);
}

TEST_F_TIMEOUT(rl, unload_ptrace_stopped, 60)
{
	unload_while_stopped(_metadata, 1);
}

TEST_HARNESS_MAIN
