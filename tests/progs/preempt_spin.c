// SPDX-License-Identifier: GPL-2.0
/*
 * A thread that computes without system calls while another reads its
 * progress: the case serial mode must preempt in user code
 * (FLIGHTREC_NR_PREEMPT, tests/replay_module.c preempt_serial).
 *
 * The worker runs blocks of straight-line arithmetic (no loop inside a
 * block, so each instruction is passed once per block, and replay's
 * breakpoint at the preemption point is hit once per block, not once per
 * iteration of a tight loop) and counts the blocks in `progress`, until
 * `stop` is set.  The main thread sleeps PAUSE_MS (default 20), which in
 * serial mode hands the token to the worker; when it wakes it must wait
 * for the token, and the worker is made to yield it in user code.  Then
 * the main thread prints the worker's progress and checksum as they are
 * at that moment, sets `stop` and joins.  Replay prints the same line only
 * if it stops the worker where the recording preempted it.
 *
 * Usage: preempt_spin [PAUSE_MS]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile long progress, sum;
static volatile int stop, started;

/* 4096 dependent operations: a few microseconds natively */
static long block(long x)
{
	__asm__ volatile(".rept 2048\n\t"
			 "imul $1103515245, %0, %0\n\t"
			 "add $12345, %0\n\t"
			 ".endr"
			 : "+r"(x));
	return x;
}

static void *worker(void *arg)
{
	long x = (long)arg;

	started = 1;
	while (!stop) {
		x = block(x);
		sum = x;
		progress = progress + 1;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long pause_ms = argc > 1 ? atol(argv[1]) : 20;
	struct timespec ts = { pause_ms / 1000, (pause_ms % 1000) * 1000000L };
	pthread_t th;
	char line[96];
	int n;

	if (pthread_create(&th, NULL, worker, (void *)1L))
		return 1;
	/* let the worker run; its first block starts before the main thread reads */
	do
		nanosleep(&ts, NULL);
	while (!started);
	n = snprintf(line, sizeof(line), "progress %ld sum %lx\n", progress, sum);
	stop = 1;
	if (write(1, line, n) != n)
		return 1;
	pthread_join(th, NULL);
	n = snprintf(line, sizeof(line), "joined after %ld blocks\n", progress);
	return write(1, line, n) != n;
}
