// SPDX-License-Identifier: GPL-2.0
/*
 * fault_loop: arms fault injection for itself (/proc/self/make-it-fail: the
 * failslab / fail_page_alloc that tests/record_faults.c configured now fail
 * this process's allocations, the recorder's made on its behalf included),
 * makes N rounds of getpid() and a SIZE-byte read() of /dev/zero, disarms,
 * and exits 0.  With MS, it goes on for at least MS milliseconds (CPU
 * time, so that many interval boundaries fall while it is armed).  Needs
 * root (CAP_SYS_RESOURCE) for make-it-fail.
 *
 *   fault_loop N SIZE [MS]
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/syscall.h>

static long cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	long n, size, i, ms = 0, t0;
	int zero, mif;
	char *buf;

	if (argc != 3 && argc != 4)
		return 2;
	n = atol(argv[1]);
	size = atol(argv[2]);
	if (argc == 4)
		ms = atol(argv[3]);
	buf = malloc(size);
	zero = open("/dev/zero", O_RDONLY);
	mif = open("/proc/self/make-it-fail", O_WRONLY);
	if (!buf || zero < 0 || mif < 0)
		return 3;
	memset(buf, 0xa5, size);
	if (write(mif, "1", 1) != 1)
		return 4;
	t0 = cpu_ms();
	for (i = 0; i < n || cpu_ms() - t0 < ms; i++) {
		syscall(SYS_getpid);
		/* a failed read is recorded all the same */
		if (read(zero, buf, size) < 0)
			continue;
	}
	/*
	 * The write that disarms allocates too, and may fail while armed:
	 * retried, so that the exit (and its dump) is not under faults.
	 */
	for (i = 0; write(mif, "0", 1) != 1; i++)
		if (i == 10000)
			return 5;
	return 0;
}
