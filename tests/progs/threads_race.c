// SPDX-License-Identifier: GPL-2.0
/*
 * Threads that race on a shared counter between syscalls: each iteration
 * makes a syscall, reads the counter, works a little, writes it back plus
 * one.  Run in parallel, updates get lost; run one thread at a time between
 * syscalls (flightrec's serial mode), the total is exact.
 * Usage: threads_race THREADS ITERATIONS; prints "total N of M".
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile long counter;
static long iterations;

static void *worker(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < iterations; i++) {
		volatile long x, k, acc = 0;

		getppid();	/* a syscall: the segment starts here */
		x = counter;
		for (k = 0; k < 2000; k++)
			acc += k * x;
		counter = x + 1 + (acc & 0);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4, i;
	pthread_t t[16];

	iterations = argc > 2 ? atol(argv[2]) : 100;
	if (n < 1 || n > 16)
		return 2;
	for (i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("total %ld of %ld\n", counter, n * iterations);
	return 0;
}
