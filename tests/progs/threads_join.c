// SPDX-License-Identifier: GPL-2.0
/*
 * Threads that each compute and print a line, joined by the main thread,
 * which then crashes on a NULL result.  Replay must create the threads
 * (clone3), run them in the recorded syscall order and reproduce the crash.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ptsnap_marker.h"

#define NT 3

static void *work(void *arg)
{
	long id = (long)arg, i, acc = 1;
	char line[64];
	int len;

	for (i = 0; i < 3000000 * (id + 1); i++)	/* writes far apart */
		acc = acc * 31 + i;
	len = snprintf(line, sizeof(line), "thread %ld: %ld\n", id, acc);
	if (write(1, line, (size_t)len) != len)
		return NULL;
	return id == 1 ? NULL : (void *)acc;
}

int main(void)
{
	pthread_t t[NT];
	long *res[NT];
	long i, sum = 0;

	ptsnap_marker();
	for (i = 0; i < NT; i++)
		pthread_create(&t[i], NULL, work, (void *)i);
	for (i = 0; i < NT; i++)
		pthread_join(t[i], (void **)&res[i]);
	printf("joined %d threads\n", NT);
	fflush(stdout);
	for (i = 0; i < NT; i++)
		sum += *(char *)res[i];	/* thread 1 returned NULL */
	printf("sum %ld\n", sum);
	return 0;
}
