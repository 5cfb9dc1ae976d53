/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fr_test.h - helpers shared by flightrec's tests.
 *
 * Include after kselftest_harness.h.  Everything here is static inline so a
 * test is still one .c file.  Functions that act return 0 or -errno;
 * predicates return bool.
 *
 * Environment set by the test rig (scripts/vm.sh, tests/run.sh):
 *   FR_TOP       the project root
 *   FR_MODULE    path of the loaded flightrec.ko (to reload it with other
 *                parameters); FR_MODPARAMS the parameters it was loaded with
 *   FR_NOMODULE  1 when the run deliberately has no module (baseline runs)
 *   FR_VM        1 inside the test VM
 */
#ifndef FR_TEST_H
#define FR_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "fr_timeout.h"

#define FR_PROC_DIR	"/proc/flightrec"
#define FR_CONTROL	FR_PROC_DIR "/control"
#define FR_SYSFS_MODULE	"/sys/module/flightrec"
#define FR_SYSFS_PARAMS	FR_SYSFS_MODULE "/parameters"

/* Runs a formatted shell command: its exit status, 128 + N when signal N
 * killed it, -1 when it could not run. */
static inline __attribute__((format(printf, 1, 2))) int fr_sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	if (st == -1)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static inline bool fr_module_loaded(void)
{
	return access(FR_SYSFS_MODULE, F_OK) == 0;
}

static inline bool fr_nomodule_run(void)
{
	const char *v = getenv("FR_NOMODULE");

	return v && strcmp(v, "1") == 0;
}

/*
 * Inside a TEST(): skip when the run has deliberately no module
 * (FR_NOMODULE=1), fail when the module should be there and is not.
 */
#define FR_REQUIRE_MODULE() do {					\
	if (!fr_module_loaded()) {					\
		if (fr_nomodule_run())					\
			SKIP(return, "flightrec is not loaded (FR_NOMODULE=1)"); \
		TH_LOG("flightrec is not loaded (%s missing)",		\
		       FR_SYSFS_MODULE);				\
		ASSERT_TRUE(fr_module_loaded());			\
	}								\
} while (0)

#define FR_REQUIRE_ROOT() do {						\
	if (geteuid() != 0)						\
		SKIP(return, "needs root");				\
} while (0)

/* The whole of DIR/NAME, NUL-terminated (NULL if it cannot be read). */
static inline char *fr_slurp(const char *dir, const char *name, size_t *len)
{
	char path[2 * PATH_MAX + 2];
	char *buf;
	struct stat st;
	ssize_t n;
	int fd;

	if (len)
		*len = 0;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	n = buf ? read(fd, buf, (size_t)st.st_size) : -1;
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	if (len)
		*len = (size_t)n;
	return buf;
}

/* Whether DIR/NAME holds the string needle. */
static inline int fr_file_contains(const char *dir, const char *name, const char *needle)
{
	char *s = fr_slurp(dir, name, NULL);
	int found = s && strstr(s, needle);

	free(s);
	return found;
}

/* Read a whole (small) file into buf, NUL-terminated.  Returns length or -errno. */
static inline ssize_t fr_read_file(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	if (!size)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	close(fd);
	return len;
}

/* Write buf to path with one write(2).  Returns 0 or -errno. */
static inline int fr_write_file(const char *path, const char *buf, size_t len)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	close(fd);
	return err;
}

/* Send one command line ("register 42 keep=4") to /proc/flightrec/control. */
static inline int fr_control(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline int fr_control(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= sizeof(line) - 1)
		return -EINVAL;
	if (len == 0 || line[len - 1] != '\n')
		line[len++] = '\n';
	return fr_write_file(FR_CONTROL, line, len);
}

/* Read a module parameter as an unsigned number.  Returns 0 or -errno. */
static inline int fr_read_param(const char *name, unsigned long long *val)
{
	char path[PATH_MAX], buf[64], *end;
	ssize_t n;

	snprintf(path, sizeof(path), FR_SYSFS_PARAMS "/%s", name);
	n = fr_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	errno = 0;
	*val = strtoull(buf, &end, 0);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EINVAL;
	return 0;
}

/* Directory of the running test binary (tests/bin). */
static inline const char *fr_bin_dir(void)
{
	static char dir[PATH_MAX];
	ssize_t n;
	char *slash;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n <= 0) {
		strcpy(dir, ".");
		return dir;
	}
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	return dir;
}

/*
 * Path of a program built from tests/progs/NAME.c (tests/bin/progs/NAME), or of
 * the flightrec tools (fr_tool("flightrec") -> user/flightrec).  The returned
 * string lives until the next call with the same slot; copy it if needed.
 */
static inline const char *fr_prog(const char *name)
{
	static char path[4][PATH_MAX];
	static unsigned int slot;
	char *p = path[slot++ % 4];

	snprintf(p, PATH_MAX, "%s/progs/%s", fr_bin_dir(), name);
	return p;
}

static inline const char *fr_tool(const char *name)
{
	static char path[4][PATH_MAX];
	static unsigned int slot;
	const char *top = getenv("FR_TOP");
	char *p = path[slot++ % 4];

	if (top)
		snprintf(p, PATH_MAX, "%s/user/%s", top, name);
	else
		snprintf(p, PATH_MAX, "%s/../../user/%s", fr_bin_dir(), name);
	return p;
}

/* The flightrec under test: $FLIGHTREC (another build, say) or user/flightrec. */
static inline const char *fr_flightrec(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("FLIGHTREC");

	if (!path[0])
		snprintf(path, sizeof(path), "%s", env && *env ? env : fr_tool("flightrec"));
	return path;
}

/* A helper built from tests/tools/NAME.c (tests/bin/tools/NAME). */
static inline const char *fr_test_tool(const char *name)
{
	static char path[4][PATH_MAX];
	static unsigned int slot;
	char *p = path[slot++ % 4];

	snprintf(p, PATH_MAX, "%s/tools/%s", fr_bin_dir(), name);
	return p;
}

/*
 * A real recording without the module: tests/progs/crash_null from its
 * marker to its SIGSEGV, made by the ptrace fixture tests/tools/ptsnap, as
 * DIR/cn.flrc (its input DIR/data.bin, its output DIR/cn.live).  Returns
 * ptsnap's shell status: 128 + SIGSEGV when it worked.
 */
static inline int fr_record_crash_null(const char *dir)
{
	/*
	 * Random, but the first byte of each 4096 (one read() of crash_null)
	 * is 0x40 + its block: it differs from the one before, and from
	 * crash_null's zeroed buffer, so a gdb watchpoint on buf[0] has a
	 * change to report at every read (gdb reports none for a write that
	 * leaves the value as it was), and a stop one read late shows as such
	 * (gs.hw_break_and_watch).
	 */
	if (fr_sh("head -c 100000 /dev/urandom > %s/data.bin && python3 -c '"
		  "import sys\n"
		  "with open(sys.argv[1], \"r+b\") as f:\n"
		  "    for i in range(25):\n"
		  "        f.seek(4096 * i); f.write(bytes([0x40 + i]))' %s/data.bin",
		  dir, dir))
		return -1;
	return fr_sh("cd %s && %s --marker -q -o %s/cn.flrc -- %s data.bin "
		     "> cn.live 2> cn.liveerr", dir, fr_test_tool("ptsnap"), dir,
		     fr_prog("crash_null"));
}

/*
 * Start argv[0] in a child that waits at a gate before it execs, so the test
 * can register the pid first.  Returns the pid (or -errno); *gate is the fd to
 * pass to fr_gate_open().  If the gate is closed without a byte, the child
 * exits 127 without exec.
 */
static inline pid_t fr_spawn_gated(char *const argv[], int *gate)
{
	int fds[2];
	pid_t pid;
	char c;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		pid = -errno;
		close(fds[0]);
		close(fds[1]);
		return pid;
	}
	if (pid == 0) {
		close(fds[1]);
		if (read(fds[0], &c, 1) != 1)
			_exit(127);
		close(fds[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[0]);
	*gate = fds[1];
	return pid;
}

static inline int fr_gate_open(int gate)
{
	int err = 0;

	if (write(gate, "g", 1) != 1)
		err = -errno;
	close(gate);
	return err;
}

/*
 * waitpid with a timeout in milliseconds (times FR_TEST_TIMEOUT_SCALE).
 * Returns 0, -ETIMEDOUT or -errno.
 */
static inline int fr_wait_timeout(pid_t pid, int *status, int timeout_ms)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int waited = 0;
	pid_t r;

	timeout_ms *= fr_timeout_scale();
	for (;;) {
		r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (waited >= timeout_ms)
			return -ETIMEDOUT;
		nanosleep(&ts, NULL);
		waited += 10;
	}
}

/* Kill and reap a child, ignoring errors (for teardown paths). */
static inline void fr_kill_wait(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/*
 * Stop a child as a user stops it: SIGTERM, up to timeout_ms (scaled) for
 * it to exit, then SIGKILL; reaped either way.  For `flightrec watch`: a
 * dump it is saving is finished, its file and then its release.  SIGKILL
 * between the two left the dump held in the module for the next binary
 * (tests/run.sh fails a binary that leaves one).
 */
static inline void fr_term_wait(pid_t pid, int timeout_ms)
{
	int status;

	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	if (fr_wait_timeout(pid, &status, timeout_ms))
		fr_kill_wait(pid);
}

/* Make a fresh directory /tmp/flightrec-test-XXXXXX; buf needs 32 bytes. */
static inline int fr_mkdtemp(char *buf, size_t size)
{
	const char *tmpl = "/tmp/flightrec-test-XXXXXX";

	if (size < strlen(tmpl) + 1)
		return -EINVAL;
	strcpy(buf, tmpl);
	return mkdtemp(buf) ? 0 : -errno;
}

/*
 * Run argv, wait for it, and collect its stdout (NUL-terminated, truncated to
 * outsz - 1) and its wait status.  stderr is passed through.  Returns 0 or -errno.
 */
static inline int fr_run(char *const argv[], char *out, size_t outsz, int *status)
{
	size_t len = 0;
	int fds[2], err = 0;
	char drain[256];
	ssize_t n;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(fds[0]);
		close(fds[1]);
		return err;
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		if (out && len + 1 < outsz)
			n = read(fds[0], out + len, outsz - 1 - len);
		else
			n = read(fds[0], drain, sizeof(drain));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (out && len + 1 < outsz)
			len += n;
	}
	if (out && outsz)
		out[len] = '\0';
	close(fds[0]);
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return err;
}

#endif /* FR_TEST_H */
