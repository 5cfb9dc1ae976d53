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
 */
#include <stdlib.h>
#include <string.h>
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

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "relay"))
		return relay();
	return put(8192, 1) || put(65536, 2) || put(200 * 1024, 3);
}
