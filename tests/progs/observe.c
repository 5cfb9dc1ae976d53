// SPDX-License-Identifier: GPL-2.0
/*
 * observe - prints what a program can see of its own recording, so that a
 * test can run it recorded and unrecorded and compare (tests/transparency.c).
 * It reports its TSC mode (PR_GET_TSC), reads the TSC, then blocks in
 * epoll_wait, read, recv (stdin has a 60 s receive timeout then), send
 * (stdin's send buffer full, a 60 s send timeout), connect to a unix and
 * to a TCP listener whose queues are full (2 s send timeouts, which end
 * them) and nanosleep,
 * announcing each with "ready NAME" on stdout so that the test can dump it
 * meanwhile; each blocking call's result is printed.  stdin is a stream
 * socket: a byte on it ends each of the first three waits, and reading
 * what it sent ends the fourth.  Then it
 * sets its TSC mode to PR_TSC_ENABLE, prints it again and reads the TSC.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <arpa/inet.h>

static void tsc_reads(void)
{
	uint64_t last = 0, v;
	uint32_t lo, hi;
	int i;

	for (i = 0; i < 8; i++) {
		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		v = (uint64_t)hi << 32 | lo;
		if (v < last)
			printf("tsc went back\n");
		last = v;
	}
	printf("tsc read 8\n");
}

static void tsc_mode(void)
{
	int mode = -1;

	if (prctl(PR_GET_TSC, &mode, 0, 0, 0))
		printf("PR_GET_TSC: %s\n", strerror(errno));
	else
		printf("tsc mode %d\n", mode);
}

static void ready(const char *what)
{
	printf("ready %s\n", what);
	fflush(stdout);
}

/*
 * A connect of @family to a listener of ours whose queue one connection
 * already fills (a backlog of 0): it waits for room, which never comes, so
 * its 2 s send timeout ends it (unix: EAGAIN; TCP, its SYNs dropped:
 * EINPROGRESS).  Interrupted, it would fail with EINTR (sock_intr_errno).
 * Prints "NAME RESULT ERROR"; -1 when the set-up failed.
 */
static int connect_full(int family, const char *name)
{
	struct timeval tv = { 2, 0 };
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_un *un = (struct sockaddr_un *)&ss;
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;
	socklen_t len;
	struct pollfd p;
	int l, f, c, r;

	if (family == AF_UNIX) {
		un->sun_family = AF_UNIX;
		/* abstract: nothing to remove */
		len = offsetof(struct sockaddr_un, sun_path) + 1 +
		      snprintf(un->sun_path + 1, sizeof(un->sun_path) - 1,
			       "observe-%d", (int)getpid());
	} else {
		in->sin_family = AF_INET;
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*in);
	}
	l = socket(family, SOCK_STREAM, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&ss, len) || listen(l, 0) ||
	    getsockname(l, (struct sockaddr *)&ss, &len))
		return -1;
	f = socket(family, SOCK_STREAM, 0);
	if (f < 0 || connect(f, (struct sockaddr *)&ss, len))
		return -1;
	/* the filler is in the listener's queue */
	p.fd = l;
	p.events = POLLIN;
	if (poll(&p, 1, 10000) != 1)
		return -1;
	c = socket(family, SOCK_STREAM, 0);
	if (c < 0 || setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		return -1;
	ready(name);
	r = connect(c, (struct sockaddr *)&ss, len);
	printf("%s %d %s\n", name, r, r < 0 ? strerror(errno) : "");
	close(c);
	close(f);
	close(l);
	return 0;
}

int main(void)
{
	struct timespec ts = { 0, 600 * 1000 * 1000 };
	struct timeval tv = { 60, 0 };
	char fill[4096];
	struct epoll_event ev = { .events = EPOLLIN }, out;
	int ep, r;
	char c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	tsc_mode();
	tsc_reads();

	ep = epoll_create1(0);
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, 0, &ev))
		return 1;
	ready("epoll_wait");
	r = epoll_wait(ep, &out, 1, -1);
	printf("epoll_wait %d %s\n", r, r < 0 ? strerror(errno) : "");
	if (read(0, &c, 1) != 1)
		return 1;

	ready("read");
	r = read(0, &c, 1);
	printf("read %d %s%c\n", r, r < 0 ? strerror(errno) : "", r == 1 ? c : '-');

	/*
	 * stdin is a socket: with a receive timeout, an interrupted recv
	 * fails with EINTR (sock_intr_errno), not a restart
	 */
	if (setsockopt(0, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		return 1;
	ready("recv");
	r = (int)recv(0, &c, 1, 0);
	printf("recv %d %s%c\n", r, r < 0 ? strerror(errno) : "", r == 1 ? c : '-');
	/*
	 * its send buffer full, a send waits for room: with a send timeout,
	 * interrupted, it fails with EINTR too
	 */
	if (setsockopt(0, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		return 1;
	memset(fill, 'f', sizeof(fill));
	while (send(0, fill, sizeof(fill), MSG_DONTWAIT) > 0)
		;
	if (errno != EAGAIN)
		return 1;
	ready("send");
	r = (int)send(0, "y", 1, 0);
	printf("send %d %s\n", r, r < 0 ? strerror(errno) : "");
	if (connect_full(AF_UNIX, "connect_unix") ||
	    connect_full(AF_INET, "connect_tcp"))
		return 1;
	ready("nanosleep");
	r = nanosleep(&ts, NULL);
	printf("nanosleep %d %s\n", r, r < 0 ? strerror(errno) : "");

	r = prctl(PR_SET_TSC, PR_TSC_ENABLE, 0, 0, 0);
	printf("PR_SET_TSC %d\n", r);
	tsc_mode();
	tsc_reads();
	printf("done\n");
	return 0;
}
