// SPDX-License-Identifier: GPL-2.0
/*
 * Threads that talk through a mutex and condition variables: a producer
 * hands numbers to two consumers through a small queue; each consumer
 * prints what it got; the main thread joins them and prints the total.
 * With an argument, a consumer crashes on the value it names.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "ptsnap_marker.h"

#define N 40

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER, nonfull = PTHREAD_COND_INITIALIZER;
static int queue[4], head, count, done, crash_on = -1;
static long totals[2];

static void *consumer(void *arg)
{
	long id = (long)arg;
	char line[64];

	for (;;) {
		int v, len;

		pthread_mutex_lock(&lock);
		while (!count && !done)
			pthread_cond_wait(&nonempty, &lock);
		if (!count && done) {
			pthread_mutex_unlock(&lock);
			return NULL;
		}
		v = queue[head];
		head = (head + 1) % 4;
		count--;
		pthread_cond_signal(&nonfull);
		pthread_mutex_unlock(&lock);
		if (v == crash_on)
			*(volatile int *)(long)v = v;
		totals[id] += v;
		len = snprintf(line, sizeof(line), "consumer %ld got %d\n", id, v);
		if (write(1, line, (size_t)len) != len)
			return NULL;
	}
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	long i;

	if (argc > 1)
		crash_on = atoi(argv[1]);
	ptsnap_marker();
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, consumer, (void *)i);
	for (i = 1; i <= N; i++) {
		pthread_mutex_lock(&lock);
		while (count == 4)
			pthread_cond_wait(&nonfull, &lock);
		queue[(head + count) % 4] = (int)i;
		count++;
		pthread_cond_signal(&nonempty);
		pthread_mutex_unlock(&lock);
	}
	pthread_mutex_lock(&lock);
	done = 1;
	pthread_cond_broadcast(&nonempty);
	pthread_mutex_unlock(&lock);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("total %ld\n", totals[0] + totals[1]);
	return 0;
}
