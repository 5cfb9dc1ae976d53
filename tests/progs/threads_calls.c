// SPDX-License-Identifier: GPL-2.0
/*
 * threads_calls: THREADS threads each make getppid() calls for MS
 * milliseconds, then exit; the main thread joins them, prints a line
 * "TID CALLS" for each and "end", then waits in pause() until SIGUSR1 and
 * exits 0.  tests/record_threads.c (logs_merged) compares the records of
 * the live ring and of the exit dump with those counts: every thread places
 * its records in a log of its own, which the module merges at each cut and
 * when the thread exits.
 *
 *   threads_calls THREADS MS
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#define MAX_THREADS 64

static pthread_barrier_t start;
static atomic_int stop;
static volatile sig_atomic_t go;
static struct {
	pid_t tid;
	long calls;
} w[MAX_THREADS];

static void *worker(void *arg)
{
	long i = (long)arg, n = 1;

	w[i].tid = (pid_t)syscall(SYS_gettid);
	/*
	 * One call before the start: a thread the scheduler does not run
	 * again before the stop (eight of them and a reader on two CPUs)
	 * still has one to check.
	 */
	syscall(SYS_getppid);
	pthread_barrier_wait(&start);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		syscall(SYS_getppid);
		n++;
	}
	w[i].calls = n;
	return NULL;
}

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

int main(int argc, char **argv)
{
	pthread_t th[MAX_THREADS];
	struct timespec ts;
	long n, ms, i;

	if (argc != 3)
		return 2;
	n = atol(argv[1]);
	ms = atol(argv[2]);
	if (n < 1 || n > MAX_THREADS || ms < 1)
		return 2;
	signal(SIGUSR1, on_usr1);
	if (pthread_barrier_init(&start, NULL, n + 1))
		return 3;
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)i))
			return 3;
	pthread_barrier_wait(&start);
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = ms % 1000 * 1000000;
	nanosleep(&ts, NULL);
	atomic_store(&stop, 1);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < n; i++)
		printf("%d %ld\n", w[i].tid, w[i].calls);
	printf("end\n");
	fflush(stdout);
	while (!go)
		pause();
	return 0;
}
