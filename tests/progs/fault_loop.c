// SPDX-License-Identifier: GPL-2.0
/*
 * fault_loop: arms fault injection for itself (/proc/self/make-it-fail: the
 * failslab / fail_page_alloc that tests/record_faults.c configured now fail
 * this process's allocations, the recorder's made on its behalf included),
 * makes N rounds of getpid() and a SIZE-byte read() of /dev/zero, disarms,
 * and exits 0.  Needs root (CAP_SYS_RESOURCE) for make-it-fail.
 *
 *   fault_loop N SIZE
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	long n, size, i;
	int zero, mif;
	char *buf;

	if (argc != 3)
		return 2;
	n = atol(argv[1]);
	size = atol(argv[2]);
	buf = malloc(size);
	zero = open("/dev/zero", O_RDONLY);
	mif = open("/proc/self/make-it-fail", O_WRONLY);
	if (!buf || zero < 0 || mif < 0)
		return 3;
	memset(buf, 0xa5, size);
	if (write(mif, "1", 1) != 1)
		return 4;
	for (i = 0; i < n; i++) {
		syscall(SYS_getpid);
		/* a failed read is recorded all the same */
		if (read(zero, buf, size) < 0)
			continue;
	}
	if (write(mif, "0", 1) != 1)
		return 5;
	return 0;
}
