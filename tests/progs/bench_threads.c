// SPDX-License-Identifier: GPL-2.0
/*
 * bench_threads: THREADS threads, each ROUNDS times a getpid() and a 64-byte
 * write and read through a pipe of its own; prints the nanoseconds from the
 * moment all threads are started to the moment all have finished.
 * scripts/bench-vm.sh (section threads) runs it natively and under
 * `flightrec record` at 2, 8 and 32 threads.
 *
 * With WRITERS, as many more threads write one byte into each page of a
 * buffer of PAGES pages of their own (256 by default), over and over, until
 * the others have finished: recorded, each first write to a page in an
 * interval is a write fault whose probe copies the page (section
 * threads_faults).  It then also prints the pages written.
 *
 * The insnprof markers (scripts/insnprof/mark.h) bracket the loops.
 *
 *   bench_threads THREADS ROUNDS [WRITERS [PAGES]]
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "../../scripts/insnprof/mark.h"

static long rounds, pages = 256;
static pthread_barrier_t ready, start;
static atomic_int done;
static atomic_long written;

static void *worker(void *arg)
{
	char buf[64] = { 0 };
	int p[2];
	long i;

	(void)arg;
	if (pipe(p))
		exit(3);
	pthread_barrier_wait(&ready);
	pthread_barrier_wait(&start);
	for (i = 0; i < rounds; i++) {
		syscall(SYS_getpid);
		if (write(p[1], buf, sizeof(buf)) != sizeof(buf) ||
		    read(p[0], buf, sizeof(buf)) != sizeof(buf))
			exit(4);
	}
	close(p[0]);
	close(p[1]);
	return NULL;
}

static void *writer(void *arg)
{
	long page = sysconf(_SC_PAGESIZE), i, n = 0;
	volatile char *buf = malloc(pages * page);

	(void)arg;
	if (!buf)
		exit(3);
	pthread_barrier_wait(&ready);
	pthread_barrier_wait(&start);
	while (!atomic_load_explicit(&done, memory_order_relaxed)) {
		for (i = 0; i < pages; i++)
			buf[i * page] = (char)n;
		n += pages;
	}
	atomic_fetch_add(&written, n);
	free((void *)buf);
	return NULL;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	pthread_t th[64], wr[64];
	long long t0, t;
	long n, w = 0, i;

	if (argc < 3 || argc > 5)
		return 2;
	n = atol(argv[1]);
	rounds = atol(argv[2]);
	if (argc > 3)
		w = atol(argv[3]);
	if (argc > 4)
		pages = atol(argv[4]);
	if (n < 1 || n > 64 || rounds < 1 || w < 0 || w > 64 || pages < 1)
		return 2;
	/*
	 * The main thread waits too.  Two barriers: once all are ready, the
	 * clock starts, then the threads go.  With one, the threads it let
	 * go ran before the main thread read the clock, at 32 threads on 2
	 * CPUs for nearly a third of the run (counted between the markers,
	 * 30 % fewer instructions per round than at 2 threads).
	 */
	if (pthread_barrier_init(&ready, NULL, n + w + 1) ||
	    pthread_barrier_init(&start, NULL, n + w + 1))
		return 3;
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, worker, NULL))
			return 3;
	for (i = 0; i < w; i++)
		if (pthread_create(&wr[i], NULL, writer, NULL))
			return 3;
	pthread_barrier_wait(&ready);
	FR_INSN_MARK_START();	/* scripts/insnprof.sh: the loops alone */
	t0 = now_ns();
	pthread_barrier_wait(&start);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	t = now_ns() - t0;
	FR_INSN_MARK_STOP();
	atomic_store(&done, 1);
	for (i = 0; i < w; i++)
		pthread_join(wr[i], NULL);
	if (w)
		printf("%lld %ld\n", t, atomic_load(&written));
	else
		printf("%lld\n", t);
	return 0;
}
