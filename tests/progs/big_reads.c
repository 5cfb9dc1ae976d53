// SPDX-License-Identifier: GPL-2.0
/*
 * big_reads ROUNDS MB CALLS - ROUNDS times: one read() of MB MiB from
 * /dev/zero (its record, over the largest kmalloc, is vmalloc'd), then
 * CALLS getpid() (records charged in the syscall probe).  Under a small
 * ring_mb the small records' charges evict the intervals that hold the big
 * ones from the probe (record_evict.c, vmalloc_freed_outside_probe).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	long rounds, size, calls, i, j;
	char *buf;
	int fd;

	if (argc != 4)
		return 2;
	rounds = atol(argv[1]);
	size = atol(argv[2]) << 20;
	calls = atol(argv[3]);
	buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fd = open("/dev/zero", O_RDONLY);
	if (buf == MAP_FAILED || fd < 0)
		return 3;
	for (i = 0; i < rounds; i++) {
		if (read(fd, buf, size) != size)
			return 4;
		for (j = 0; j < calls; j++)
			syscall(SYS_getpid);
	}
	return 0;
}
