// SPDX-License-Identifier: GPL-2.0
/*
 * big_writes: writes of 8 KiB, 64 KiB and 200 KiB to stdout, each one
 * write(2) call of bytes computed here (issue 25: a write of more than
 * 4 KiB carried no hash of its bytes, so a replay that wrote other bytes
 * there was not told).  Exits 0, or 1 when a write was short.
 */
#include <stdlib.h>
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

int main(void)
{
	return put(8192, 1) || put(65536, 2) || put(200 * 1024, 3);
}
