// SPDX-License-Identifier: GPL-2.0
/*
 * big_writes: writes of 8 KiB, 64 KiB and 200 KiB to stdout, each one
 * write(2) call of bytes computed here (issue 25: a write of more than
 * 4 KiB carried no hash of its bytes, so a replay that wrote other bytes
 * there was not told).  Exits 0, or 1 when a write was short.
 *
 * big_writes relay: reads stdin to its end (at most 1 MiB) and writes it to
 * stdout in two calls: its first half with write(2), the rest with one
 * writev(2) of two iovecs.  Bytes the program did not compute: a replay
 * answering the read with other bytes writes them (issue 25: a write was
 * checked on its first 64 KiB only, a writev of more than 64 KiB not at
 * all).
 *
 * big_writes mmsg: reads stdin to its end (at most 64 KiB) and sends its two
 * halves as two datagrams with one sendmmsg(2) over an AF_UNIX socket pair,
 * then receives them and writes them to stdout (sendmmsg's messages were
 * in no hash at all).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

static int put(size_t len, unsigned int seed)
{
	char *buf = malloc(len);
	size_t done = 0;

	if (!buf)
		return 1;
	for (size_t i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (char)('a' + (seed >> 16) % 26);
	}
	buf[len - 1] = '\n';
	while (done < len) {
		ssize_t n = write(1, buf + done, len - done);

		if (n <= 0)
			return 1;
		done += (size_t)n;
	}
	free(buf);
	return 0;
}

static int relay(void)
{
	size_t cap = 1 << 20, n = 0, half, rest;
	char *buf = malloc(cap);
	struct iovec iov[2];
	ssize_t r;

	if (!buf)
		return 1;
	while (n < cap && (r = read(0, buf + n, cap - n)) > 0)
		n += (size_t)r;
	half = n / 2;
	rest = n - half;
	iov[0].iov_base = buf + half;
	iov[0].iov_len = rest / 2;
	iov[1].iov_base = buf + half + rest / 2;
	iov[1].iov_len = rest - rest / 2;
	if (write(1, buf, half) != (ssize_t)half || writev(1, iov, 2) != (ssize_t)rest)
		return 1;
	free(buf);
	return 0;
}

static int mmsg(void)
{
	static char buf[65536], back[65536];
	struct mmsghdr mm[2];
	struct iovec iov[2];
	size_t n = 0;
	ssize_t r;
	int sv[2];

	while (n < sizeof(buf) && (r = read(0, buf + n, sizeof(buf) - n)) > 0)
		n += (size_t)r;
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		return 1;
	memset(mm, 0, sizeof(mm));
	iov[0].iov_base = buf;
	iov[0].iov_len = n / 2;
	iov[1].iov_base = buf + n / 2;
	iov[1].iov_len = n - n / 2;
	for (int i = 0; i < 2; i++) {
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	if (sendmmsg(sv[0], mm, 2, 0) != 2)
		return 1;
	for (int i = 0; i < 2; i++) {
		r = recv(sv[1], back, sizeof(back), 0);
		if (r < 0 || write(1, back, (size_t)r) != r)
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "relay"))
		return relay();
	if (argc > 1 && !strcmp(argv[1], "mmsg"))
		return mmsg();
	return put(8192, 1) || put(65536, 2) || put(200 * 1024, 3);
}
