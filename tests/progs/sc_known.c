// SPDX-License-Identifier: GPL-2.0
/*
 * sc_known: makes known syscalls between two markers and writes what it
 * observed (number, result, the bytes each out-argument holds afterwards) to
 * a side file, for tests/record_syscalls.c to compare with what the module
 * recorded.
 *
 *   sc_known SIDEFILE DATAFILE DIR
 *
 * Markers: getpriority(PRIO_PROCESS, SC_MARK_START / SC_MARK_END), calls
 * no library makes.  Every call between them is made with syscall(2), so
 * the expected sequence is exact.
 *
 * Side file: records of
 *   u32 nr; u32 nouts; s64 ret; then nouts x { u32 arg; u32 len; bytes }
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/stat.h>
#include "sc_known.h"

static uint8_t side[1 << 20];
static size_t side_len;

static void put(const void *p, size_t n)
{
	if (side_len + n > sizeof(side))
		abort();
	memcpy(side + side_len, p, n);
	side_len += n;
}

/* note(nr, ret, nouts, arg, ptr, len, arg, ptr, len, ...) */
static void note(uint32_t nr, long ret, uint32_t nouts, ...)
{
	int64_t r = ret < 0 ? -errno : ret;
	va_list ap;
	uint32_t i;

	put(&nr, 4);
	put(&nouts, 4);
	put(&r, 8);
	va_start(ap, nouts);
	for (i = 0; i < nouts; i++) {
		uint32_t arg = va_arg(ap, uint32_t);
		const void *p = va_arg(ap, const void *);
		uint32_t len = va_arg(ap, uint32_t);

		put(&arg, 4);
		put(&len, 4);
		put(p, len);
	}
	va_end(ap);
}

#define SC(nr, ...) syscall(nr, ##__VA_ARGS__)

int main(int argc, char **argv)
{
	static char buf[8192], buf2[64], iob[3][7], big[160000];
	struct stat st;
	struct statx stx;
	struct utsname un;
	struct timespec ts, req = { 0, 1000000 }, rem = { 0, 0 }, pts;
	struct pollfd pfd[2];
	struct epoll_event ev, evs[4];
	struct iovec iov[3];
	struct msghdr msg;
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} cbuf;
	struct rusage ru;
	fd_set rfds;
	struct timeval tv;
	struct timezone tz;
	struct sockaddr_un sun;
	socklen_t alen;
	int fd, dfd, p[2], sv[2], ep, status = 0;
	long ret;
	pid_t child;

	if (argc != 4)
		return 2;

	SC(SYS_getpriority, PRIO_PROCESS, SC_MARK_START);

	/* a file of known content */
	fd = SC(SYS_openat, AT_FDCWD, argv[2], O_RDONLY);
	note(SYS_openat, fd, 0);
	ret = SC(SYS_read, fd, buf, sizeof(buf));
	note(SYS_read, ret, 1, 1, buf, (uint32_t)(ret > 0 ? ret : 0));
	ret = SC(SYS_fstat, fd, &st);
	note(SYS_fstat, ret, 1, 1, &st, 144);
	ret = SC(SYS_close, fd);
	note(SYS_close, ret, 0);
	ret = SC(SYS_newfstatat, AT_FDCWD, argv[2], &st, 0);
	note(SYS_newfstatat, ret, 1, 2, &st, 144);
	ret = SC(SYS_statx, AT_FDCWD, argv[2], 0, STATX_ALL, &stx);
	note(SYS_statx, ret, 1, 4, &stx, 256);
	ret = SC(SYS_openat, AT_FDCWD, "/nonexistent/flightrec", O_RDONLY);
	note(SYS_openat, ret, 0);

	/* pipes, readv/writev */
	ret = SC(SYS_pipe2, p, 0);
	note(SYS_pipe2, ret, 1, 0, p, 8);
	/* 27 bytes: the words rule's pair, its odd word and 3 bytes */
	ret = SC(SYS_write, p[1], "hello, pipe, from sc_known.", 27);
	note(SYS_write, ret, 0);
	ret = SC(SYS_read, p[0], buf2, sizeof(buf2));
	note(SYS_read, ret, 1, 1, buf2, (uint32_t)ret);
	iov[0].iov_base = "abcdefg";
	iov[0].iov_len = 7;
	iov[1].iov_base = "hijklmnopq";
	iov[1].iov_len = 10;
	ret = SC(SYS_writev, p[1], iov, 2);
	note(SYS_writev, ret, 0);
	for (int i = 0; i < 3; i++) {
		iov[i].iov_base = iob[i];
		iov[i].iov_len = sizeof(iob[i]);
	}
	ret = SC(SYS_readv, p[0], iov, 3);
	note(SYS_readv, ret, 3, 1, iob[0], 7, 1, iob[1], 7, 1, iob[2], 3);

	/* poll, select, epoll */
	ret = SC(SYS_write, p[1], "x", 1);
	note(SYS_write, ret, 0);
	pfd[0].fd = p[0];
	pfd[0].events = POLLIN;
	pfd[0].revents = 0;
	pfd[1].fd = p[1];
	pfd[1].events = POLLOUT;
	pfd[1].revents = 0;
	ret = SC(SYS_poll, pfd, 2, 0);
	note(SYS_poll, ret, 1, 0, pfd, 16);
	/* a second out-buffer, NULL (the module's small path) and not */
	ret = SC(SYS_ppoll, pfd, 2, NULL, NULL, 8);
	note(SYS_ppoll, ret, 1, 0, pfd, 16);
	pts.tv_sec = 0;
	pts.tv_nsec = 0;
	ret = SC(SYS_ppoll, pfd, 2, &pts, NULL, 8);
	note(SYS_ppoll, ret, 2, 0, pfd, 16, 2, &pts, 16);
	FD_ZERO(&rfds);
	FD_SET(p[0], &rfds);
	tv.tv_sec = 0;
	tv.tv_usec = 1000;
	ret = SC(SYS_select, p[0] + 1, &rfds, NULL, NULL, &tv);
	note(SYS_select, ret, 2, 1, &rfds, 8, 4, &tv, 16);
	ep = SC(SYS_epoll_create1, 0);
	note(SYS_epoll_create1, ep, 0);
	ev.events = EPOLLIN;
	ev.data.u64 = 0x1122334455667788ULL;
	ret = SC(SYS_epoll_ctl, ep, EPOLL_CTL_ADD, p[0], &ev);
	note(SYS_epoll_ctl, ret, 0);
	ret = SC(SYS_epoll_wait, ep, evs, 4, 0);
	note(SYS_epoll_wait, ret, 1, 1, evs, (uint32_t)(ret * 12));
	ret = SC(SYS_read, p[0], buf2, 1);
	note(SYS_read, ret, 1, 1, buf2, 1);

	/* socketpair, send/recv, SCM_RIGHTS */
	ret = SC(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, sv);
	note(SYS_socketpair, ret, 1, 3, sv, 8);
	ret = SC(SYS_sendto, sv[0], "over the socket", 15, 0, NULL, 0);
	note(SYS_sendto, ret, 0);
	ret = SC(SYS_recvfrom, sv[1], buf2, sizeof(buf2), 0, NULL, NULL);
	note(SYS_recvfrom, ret, 1, 1, buf2, (uint32_t)ret);
	/* with an address: an unnamed peer's, so only its length is written */
	ret = SC(SYS_sendto, sv[0], "again", 5, 0, NULL, 0);
	note(SYS_sendto, ret, 0);
	alen = sizeof(sun);
	ret = SC(SYS_recvfrom, sv[1], buf2, sizeof(buf2), 0, &sun, &alen);
	note(SYS_recvfrom, ret, 2, 1, buf2, (uint32_t)ret, 5, &alen, 4);
	memset(&msg, 0, sizeof(msg));
	iov[0].iov_base = "fd";
	iov[0].iov_len = 2;
	msg.msg_iov = iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cbuf.buf;
	msg.msg_controllen = sizeof(cbuf.buf);
	CMSG_FIRSTHDR(&msg)->cmsg_level = SOL_SOCKET;
	CMSG_FIRSTHDR(&msg)->cmsg_type = SCM_RIGHTS;
	CMSG_FIRSTHDR(&msg)->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(CMSG_FIRSTHDR(&msg)), &p[0], sizeof(int));
	ret = SC(SYS_sendmsg, sv[0], &msg, 0);
	note(SYS_sendmsg, ret, 0);
	memset(&msg, 0, sizeof(msg));
	memset(&cbuf, 0, sizeof(cbuf));
	iov[0].iov_base = buf2;
	iov[0].iov_len = sizeof(buf2);
	msg.msg_iov = iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cbuf.buf;
	msg.msg_controllen = sizeof(cbuf.buf);
	ret = SC(SYS_recvmsg, sv[1], &msg, 0);
	note(SYS_recvmsg, ret, 3, 1, &msg, (uint32_t)sizeof(msg),
	     FR_TEST_DERIVED, cbuf.buf, (uint32_t)msg.msg_controllen,
	     FR_TEST_DERIVED, buf2, (uint32_t)ret);

	/* directory entries */
	dfd = SC(SYS_openat, AT_FDCWD, argv[3], O_RDONLY | O_DIRECTORY);
	note(SYS_openat, dfd, 0);
	ret = SC(SYS_getdents64, dfd, buf, sizeof(buf));
	note(SYS_getdents64, ret, 1, 1, buf, (uint32_t)(ret > 0 ? ret : 0));

	/* randomness, time (the vDSO's clock_gettime), sleep, identity */
	ret = SC(SYS_getrandom, buf2, 32, 0);
	note(SYS_getrandom, ret, 1, 0, buf2, 32);
	/*
	 * Bulk out-buffers at odd addresses and lengths: one the probe copies
	 * (under 64 KiB), one copied before the return to user space.
	 */
	ret = SC(SYS_getrandom, big + 3, 3001, 0);
	note(SYS_getrandom, ret, 1, 0, big + 3, (uint32_t)(ret > 0 ? ret : 0));
	ret = SC(SYS_getrandom, big + 5, 150001, 0);
	note(SYS_getrandom, ret, 1, 0, big + 5, (uint32_t)(ret > 0 ? ret : 0));
	ret = clock_gettime(CLOCK_MONOTONIC, &ts);
	note(SYS_clock_gettime, ret, 1, 1, &ts, 16);
	ret = SC(SYS_gettimeofday, &tv, NULL);
	note(SYS_gettimeofday, ret, 1, 0, &tv, 16);
	ret = SC(SYS_gettimeofday, &tv, &tz);
	note(SYS_gettimeofday, ret, 2, 0, &tv, 16, 1, &tz, 8);
	ret = SC(SYS_nanosleep, &req, &rem);
	note(SYS_nanosleep, ret, 1, 1, &rem, 16);
	ret = SC(SYS_uname, &un);
	note(SYS_uname, ret, 1, 0, &un, (uint32_t)sizeof(un));

	/* a child, and its status */
	child = SC(SYS_fork);
	if (child == 0)
		SC(SYS_exit_group, 7);
	note(SYS_fork, child, 0);
	ret = SC(SYS_wait4, child, &status, 0, &ru);
	note(SYS_wait4, ret, 2, 1, &status, 4, 3, &ru, 144);
	child = SC(SYS_fork);
	if (child == 0)
		SC(SYS_exit_group, 8);
	note(SYS_fork, child, 0);
	ret = SC(SYS_wait4, child, &status, 0, NULL);
	note(SYS_wait4, ret, 1, 1, &status, 4);

	SC(SYS_getpriority, PRIO_PROCESS, SC_MARK_END);

	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, side, side_len) != (ssize_t)side_len)
		return 3;
	close(fd);
	return 0;
}
