// SPDX-License-Identifier: GPL-2.0
/*
 * pagemap_scan: the userspace way to learn which pages of a process are
 * resident: read /proc/PID/pagemap over every mapping.  Prints the
 * nanoseconds one full scan took and the number of present pages; the
 * baseline for the module's boundary page walk (scripts/bench-vm.sh).
 *
 *   pagemap_scan PID
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static uint64_t ent[4096];
	char path[64], line[512];
	unsigned long start, end, present = 0;
	struct timespec a, b;
	FILE *maps;
	int fd;

	if (argc != 2)
		return 2;
	snprintf(path, sizeof(path), "/proc/%s/pagemap", argv[1]);
	fd = open(path, O_RDONLY);
	snprintf(path, sizeof(path), "/proc/%s/maps", argv[1]);
	maps = fopen(path, "r");
	if (fd < 0 || !maps)
		return 3;
	clock_gettime(CLOCK_MONOTONIC, &a);
	while (fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%lx-%lx", &start, &end) != 2)
			continue;
		for (unsigned long p = start; p < end;) {
			size_t n = (end - p) / 4096;
			ssize_t got;

			if (n > 4096)
				n = 4096;
			got = pread(fd, ent, n * 8, (p / 4096) * 8);
			if (got <= 0)
				break;
			for (ssize_t i = 0; i < got / 8; i++)
				present += (ent[i] >> 63) & 1;
			p += (got / 8) * 4096;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.0f %lu\n", (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec),
	       present);
	return 0;
}
