// SPDX-License-Identifier: GPL-2.0
/* Divides by a count that reaches zero: SIGFPE at the idiv. */
#include <stdio.h>
#include <stdlib.h>
#include "ptsnap_marker.h"

static __attribute__((noinline)) int average(const int *v, int n)
{
	volatile int count = n;
	int sum = 0, i;

	for (i = 0; i < n; i++)
		sum += v[i];
	return sum / count;
}

int main(int argc, char **argv)
{
	int v[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };
	int n;

	(void)argv;
	ptsnap_marker();
	for (n = 8; n >= 0; n -= 4 + (argc > 5)) {
		printf("average of %d: %d\n", n, average(v, n));
		fflush(stdout);
	}
	return 0;
}
