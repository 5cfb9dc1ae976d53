// SPDX-License-Identifier: GPL-2.0
/*
 * Many small writes, to stdout and to stderr, with a clock read and a
 * getrandom between them; exits with status 3.  Usage: writes_loop [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include "ptsnap_marker.h"

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 200, i;
	char buf[128];

	ptsnap_marker();
	for (i = 0; i < n; i++) {
		struct timespec ts;
		unsigned int r = 0;
		int len;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			return 1;
		len = snprintf(buf, sizeof(buf), "line %d t=%ld.%09ld r=%08x\n", i,
			       (long)ts.tv_sec, ts.tv_nsec, r);
		if (write(i % 10 == 9 ? 2 : 1, buf, (size_t)len) != len)
			return 1;
	}
	return 3;
}
