// SPDX-License-Identifier: GPL-2.0
/*
 * observe - prints what a program can see of its own recording, so that a
 * test can run it recorded and unrecorded and compare (tests/transparency.c).
 * It reports its TSC mode (PR_GET_TSC), reads the TSC, then blocks in
 * epoll_wait, read, recv (stdin has a 60 s receive timeout then), send
 * (stdin's send buffer full, a 60 s send timeout) and nanosleep,
 * announcing each with "ready NAME" on stdout so that the test can dump it
 * meanwhile; each blocking call's result is printed.  stdin is a stream
 * socket: a byte on it ends each of the first three waits, and reading
 * what it sent ends the fourth.  Then it
 * sets its TSC mode to PR_TSC_ENABLE, prints it again and reads the TSC.
 */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>

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
