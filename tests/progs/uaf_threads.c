// SPDX-License-Identifier: GPL-2.0
/*
 * A use-after-free between two threads (issue 25, class 5), written the way
 * such bugs happen: a worker thread serves jobs through a handler object
 * (a function pointer and its state) that it looked up once when it
 * started; the main thread hands it jobs with a mutex and two condition
 * variables.  After a few rounds the main thread "switches the worker to
 * statistics mode": it frees the handler, allocates its statistics record
 * (the same size, so malloc gives back the same chunk) and fills it in,
 * then hands over the next job.  The worker calls through its stale
 * pointer: the handler's first word is now the statistics' hit count, a
 * small number, and the call jumps there: SIGSEGV with rip and the fault
 * address both that number.
 *
 * Usage: uaf_threads [ROUNDS [PAUSE_MS]]: ROUNDS good rounds (default 6)
 * before the bad one, PAUSE_MS (default 60) between rounds, so that the
 * crash comes some intervals after the start.  Every line is written as it
 * happens (stdout is flushed per line), so output up to the crash is
 * there.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct handler {
	long (*fn)(struct handler *h, long job);
	long calls;
	char name[16];
};

/* what replaces the handler: same size, its own data */
struct stats {
	long hits;
	long misses;
	char label[16];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static long job, result;
static int pending, quit;
static struct handler *current_handler;

static long square(struct handler *h, long n)
{
	h->calls++;
	return n * n;
}

static void *worker(void *arg)
{
	struct handler *h;

	(void)arg;
	pthread_mutex_lock(&lock);
	h = current_handler;	/* looked up once: the bug */
	pthread_mutex_unlock(&lock);
	for (;;) {
		long n, r;

		pthread_mutex_lock(&lock);
		while (!pending && !quit)
			pthread_cond_wait(&work, &lock);
		if (quit && !pending) {
			pthread_mutex_unlock(&lock);
			return NULL;
		}
		n = job;
		pthread_mutex_unlock(&lock);

		r = h->fn(h, n);
		printf("worker: %s(%ld) = %ld, call %ld\n", h->name, n, r, h->calls);
		fflush(stdout);

		pthread_mutex_lock(&lock);
		result = r;
		pending = 0;
		pthread_cond_signal(&done);
		pthread_mutex_unlock(&lock);
	}
}

static long hand_over(long n)
{
	long r;

	pthread_mutex_lock(&lock);
	job = n;
	pending = 1;
	pthread_cond_signal(&work);
	while (pending)
		pthread_cond_wait(&done, &lock);
	r = result;
	pthread_mutex_unlock(&lock);
	return r;
}

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 6;
	long pause = argc > 2 ? atol(argv[2]) : 60;
	struct handler *h;
	struct stats *st;
	pthread_t t;
	long i;

	h = malloc(sizeof(*h));
	if (!h)
		return 1;
	h->fn = square;
	h->calls = 0;
	snprintf(h->name, sizeof(h->name), "square");
	current_handler = h;
	if (pthread_create(&t, NULL, worker, NULL))
		return 1;
	for (i = 1; i <= rounds; i++) {
		long r = hand_over(i + 10);

		printf("main: round %ld gave %ld\n", i, r);
		fflush(stdout);
		pause_ms(pause);
	}

	/* statistics mode: the handler is no longer needed, or so main thinks */
	free(h);
	st = malloc(sizeof(*st));
	if (!st)
		return 1;
	st->hits = 0x1000 + rounds;
	st->misses = 3;
	snprintf(st->label, sizeof(st->label), "stats");
	printf("main: switched to %s mode\n", st->label);
	fflush(stdout);

	printf("main: round %ld gave %ld\n", i, hand_over(i + 10));
	fflush(stdout);

	pthread_mutex_lock(&lock);
	quit = 1;
	pthread_cond_signal(&work);
	pthread_mutex_unlock(&lock);
	pthread_join(t, NULL);
	free(st);
	return 0;
}
