// SPDX-License-Identifier: GPL-2.0
/*
 * Passes AF_UNIX pathname addresses whose bytes after the path's NUL differ
 * from run to run, as tar does when it connects to nscd's socket with a
 * sockaddr_un from the stack (issue 25, class 10): bind, connect, sendto and
 * sendmsg each get a whole struct sockaddr_un (110 bytes), path, NUL, then
 * bytes from rdrand, which nothing records, so a replay has other bytes
 * there.  The kernel reads the path only up to its NUL: replay must not call
 * that a divergence.  An abstract address (sun_path[0] == 0) is bound too,
 * with its exact length: all of it is the name.
 *
 * "sun_tail zero": the same calls with zeros after the NUL (the same bytes
 * in every run).  Prints what the datagrams carried, then "ok".  Exits 4
 * when the CPU has no rdrand (said on stderr).
 */
#include <cpuid.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int zero_tail;

static uint64_t rnd(void)
{
	uint64_t v;
	unsigned char ok;

	do
		__asm__ volatile("rdrand %0; setc %1" : "=r"(v), "=qm"(ok));
	while (!ok);
	return v;
}

/* sa = { AF_UNIX, path, NUL, then random bytes (or zeros) to its end } */
static void fill(struct sockaddr_un *sa, const char *path)
{
	size_t i = strlen(path) + 1;

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path, path, i);
	for (; !zero_tail && i < sizeof(sa->sun_path); i++)
		sa->sun_path[i] = (char)(rnd() | 1);	/* never a NUL */
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

int main(int argc, char **argv)
{
	unsigned int a, b, c, d;
	struct sockaddr_un sa;
	char path[64], buf[64];
	int srv, cl, ab, i;
	ssize_t n;

	zero_tail = argc > 1 && !strcmp(argv[1], "zero");
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_RDRND)) {
		fprintf(stderr, "sun_tail: this CPU has no rdrand\n");
		return 4;
	}
	snprintf(path, sizeof(path), "/tmp/fr-sun-tail-%d", (int)getpid());
	unlink(path);
	srv = socket(AF_UNIX, SOCK_DGRAM, 0);
	cl = socket(AF_UNIX, SOCK_DGRAM, 0);
	ab = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (srv < 0 || cl < 0 || ab < 0)
		die("socket");
	fill(&sa, path);
	if (bind(srv, (struct sockaddr *)&sa, sizeof(sa)))
		die("bind");
	fill(&sa, path);
	if (connect(cl, (struct sockaddr *)&sa, sizeof(sa)))
		die("connect");
	if (send(cl, "connected", 9, 0) != 9)
		die("send");
	fill(&sa, path);
	if (sendto(ab, "sendto", 6, 0, (struct sockaddr *)&sa, sizeof(sa)) != 6)
		die("sendto");
	fill(&sa, path);
	{
		struct iovec iov = { .iov_base = "sendmsg", .iov_len = 7 };
		struct msghdr m = {
			.msg_name = &sa, .msg_namelen = sizeof(sa),
			.msg_iov = &iov, .msg_iovlen = 1,
		};

		if (sendmsg(ab, &m, 0) != 7)
			die("sendmsg");
	}
	/* abstract: the name is all of the given length, NULs included */
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	n = snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1, "fr-sun-tail-%d",
		     (int)getpid());
	if (bind(ab, (struct sockaddr *)&sa, (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
							 1 + n)))
		die("bind abstract");
	for (i = 0; i < 3; i++) {
		n = recv(srv, buf, sizeof(buf) - 1, 0);
		if (n < 0)
			die("recv");
		buf[n] = 0;
		printf("got %s\n", buf);
	}
	unlink(path);
	printf("ok\n");
	return 0;
}
