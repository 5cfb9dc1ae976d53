// SPDX-License-Identifier: GPL-2.0
/*
 * x86sites.c - the cpuid sites of a file, asked of the helper flightrec-sites
 * (x86sites.h, user/sites.c, the scan itself in x86scan.c).
 *
 * One helper serves the whole life of the process that started it: writing
 * a checkpoint asks for each code file once (assemble.c caches the
 * answers), and a process tree's checkpoints share the files.  The helper
 * is in a process group of its own, so ^C at the terminal is not for it; it
 * ends at the end of file on its socket, when this process closes it or
 * ends.  A helper that dies or does not answer in FR_SITES_TIMEOUT_MS is
 * killed and waited for, the call fails with the reason, and the next call
 * starts a new one.
 */
#include "x86sites.h"

#include <errno.h>
#include <stdbool.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "libflightrec.h"

/* A file's scan takes milliseconds natively, about a second under TCG. */
#define FR_SITES_TIMEOUT_MS	60000

extern char **environ;

static int helper_fd = -1;
static pid_t helper_pid;

int fr_sites_helper_pid(void)
{
	return helper_pid;
}

/*
 * Closes the socket and waits for the helper, killed first if @kill_it;
 * its wait status, -1 when there was none.
 */
static int helper_end(bool kill_it)
{
	int st = -1;

	if (helper_fd >= 0)
		close(helper_fd);
	helper_fd = -1;
	if (helper_pid > 0) {
		if (kill_it)
			kill(helper_pid, SIGKILL);
		while (waitpid(helper_pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	helper_pid = 0;
	return st;
}

int fr_sites_helper_stop(void)
{
	return helper_end(false);
}

/* A helper that failed: killed, waited for, and the reason in @why. */
static int helper_failed(int err, char *why, size_t whylen, const char *what)
{
	int st = helper_end(true);

	if (st != -1 && WIFSIGNALED(st) && WTERMSIG(st) != SIGKILL)
		snprintf(why, whylen, "the helper flightrec-sites was killed by "
			 "signal %d (%s)", WTERMSIG(st), what);
	else
		snprintf(why, whylen, "the helper flightrec-sites: %s", what);
	return err;
}

static int helper_start(char *why, size_t whylen)
{
	const char *path = fr_helper_path("FLIGHTREC_SITES", "flightrec-sites",
					  "flightrec-sites");
	char *const argv[] = { (char *)"flightrec-sites", (char *)"--serve", NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, dfl;
	int sv[2], err;

	if (!path) {
		snprintf(why, whylen, "flightrec-sites not found (set FLIGHTREC_SITES)");
		return -ENOENT;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		err = -errno;
		snprintf(why, whylen, "socketpair: %s", strerror(errno));
		return err;
	}
	sigemptyset(&none);
	sigfillset(&dfl);
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	/* fd 0 is the socket (dup2 clears its FD_CLOEXEC); all else closes */
	posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
				 POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &dfl);
	err = posix_spawn(&helper_pid, path, &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(sv[1]);
	if (err) {
		close(sv[0]);
		helper_pid = 0;
		snprintf(why, whylen, "cannot run %s: %s", path, strerror(err));
		return -err;
	}
	helper_fd = sv[0];
	return 0;
}

/* @len bytes of the answer, within the deadline; 0 or -errno. */
static int helper_read(void *buf, size_t len, uint64_t deadline)
{
	char *p = buf;

	while (len) {
		struct pollfd pfd = { .fd = helper_fd, .events = POLLIN };
		uint64_t now = fr_mono_ns();
		ssize_t n;
		int r;

		if (now >= deadline)
			return -ETIMEDOUT;
		r = poll(&pfd, 1, (int)((deadline - now) / 1000000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			return -ETIMEDOUT;
		n = recv(helper_fd, p, len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == ECONNRESET ? -EPIPE : -errno;
		if (!n)
			return -EPIPE;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int fr_cpuid_sites(int fd, struct fr_sites *s, char *why, size_t whylen)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	char req = 'S';
	struct iovec iov = { .iov_base = &req, .iov_len = 1 };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct fr_sites_reply r;
	struct cmsghdr *cm;
	uint64_t deadline;
	ssize_t n;
	int err;

	memset(s, 0, sizeof(*s));
	if (helper_fd < 0) {
		err = helper_start(why, whylen);
		if (err)
			return err;
	}
	memset(u.buf, 0, sizeof(u.buf));
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	do
		n = sendmsg(helper_fd, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EPIPE || errno == ECONNRESET))
		return helper_failed(-EPIPE, why, whylen, "it ended");
	if (n != 1)
		return helper_failed(n < 0 ? -errno : -EIO, why, whylen,
				     n < 0 ? strerror(errno) : "short request");
	deadline = fr_mono_ns() + FR_SITES_TIMEOUT_MS * 1000000ull;
	err = helper_read(&r, sizeof(r), deadline);
	if (err)
		return helper_failed(err, why, whylen, err == -EPIPE ? "it ended" :
				     err == -ETIMEDOUT ? "no answer in time" : strerror(-err));
	r.why[sizeof(r.why) - 1] = 0;
	if (r.n > FR_SITES_MAX || (r.err && r.n) || r.err > 0 || r.err < -4095)
		return helper_failed(-EPROTO, why, whylen, "a malformed answer");
	if (r.err) {
		snprintf(why, whylen, "%s", r.why);
		return r.err;
	}
	s->unverified = r.unverified;
	if (!r.n)
		return 0;
	s->off = malloc(r.n * sizeof(*s->off));
	if (!s->off)
		return helper_failed(-ENOMEM, why, whylen, "out of memory");
	err = helper_read(s->off, r.n * sizeof(*s->off), deadline);
	if (err) {
		fr_sites_free(s);
		return helper_failed(err, why, whylen, err == -EPIPE ? "it ended" :
				     err == -ETIMEDOUT ? "no answer in time" : strerror(-err));
	}
	s->n = r.n;
	return 0;
}

void fr_sites_free(struct fr_sites *s)
{
	free(s->off);
	s->off = NULL;
	s->n = 0;
}
