// SPDX-License-Identifier: GPL-2.0
/*
 * read_zero N - reads /dev/zero N times, 1 MiB at a time: a recorded
 * process whose records (each read's out-buffer) fill the ring_mb cap.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	int i, n = argc > 1 ? atoi(argv[1]) : 64;
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0)
		return 2;
	for (i = 0; i < n; i++)
		if (read(fd, buf, sizeof(buf)) != sizeof(buf))
			return 3;
	return 0;
}
