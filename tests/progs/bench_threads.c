// SPDX-License-Identifier: GPL-2.0
/*
 * bench_threads: THREADS threads, each ROUNDS times a getpid() and a 64-byte
 * write and read through a pipe of its own; prints the nanoseconds from the
 * moment all threads are started to the moment all have finished.
 * scripts/bench-vm.sh (section threads) runs it natively and under
 * `flightrec record` at 2, 8 and 32 threads.
 *
 *   bench_threads THREADS ROUNDS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static long rounds;
static pthread_barrier_t start;

static void *worker(void *arg)
{
	char buf[64] = { 0 };
	int p[2];
	long i;

	(void)arg;
	if (pipe(p))
		exit(3);
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

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	pthread_t th[64];
	long long t0;
	long n, i;

	if (argc != 3)
		return 2;
	n = atol(argv[1]);
	rounds = atol(argv[2]);
	if (n < 1 || n > 64 || rounds < 1)
		return 2;
	/* the main thread waits too: the clock starts when all are ready */
	if (pthread_barrier_init(&start, NULL, n + 1))
		return 3;
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, worker, NULL))
			return 3;
	pthread_barrier_wait(&start);
	t0 = now_ns();
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	printf("%lld\n", now_ns() - t0);
	return 0;
}
