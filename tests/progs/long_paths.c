// SPDX-License-Identifier: GPL-2.0
/*
 * long_paths N SECONDS - a file at a path of about 3600 bytes (nested
 * directories under the current one), N pages long, mapped one page at a
 * time with alternating protections (N mappings that cannot merge, each
 * with that path); then getpid() for SECONDS seconds, crossing interval
 * boundaries, and exit 0.  Each boundary's memory map names the path N
 * times: N x 3.6 KB (record_process.c, boundary_state_under_cap).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	long n, i, pg = sysconf(_SC_PAGESIZE);
	char name[201], path[4096];
	struct timespec a, b;
	size_t len = 0;
	int fd, secs, d;

	if (argc != 3)
		return 2;
	n = atol(argv[1]);
	secs = atoi(argv[2]);
	memset(name, 'd', 200);
	name[200] = 0;
	path[0] = 0;
	for (d = 0; d < 18; d++) {
		len += snprintf(path + len, sizeof(path) - len, "%s%s", d ? "/" : "", name);
		if (mkdir(path, 0700) && access(path, F_OK))
			return 3;
	}
	snprintf(path + len, sizeof(path) - len, "/file");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, n * pg))
		return 4;
	for (i = 0; i < n; i++)
		if (mmap(NULL, pg, i & 1 ? PROT_READ : PROT_READ | PROT_WRITE,
			 MAP_PRIVATE, fd, i * pg) == MAP_FAILED)
			return 5;
	close(fd);
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (i = 0; i < 1000; i++)
			syscall(SYS_getpid);
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while (b.tv_sec - a.tv_sec < secs);
	return 0;
}
