// SPDX-License-Identifier: GPL-2.0
/*
 * Threads that each compute and print a line, joined by the main thread,
 * which then crashes on a NULL result.  Replay must create the threads
 * (clone3), run them in the recorded syscall order and reproduce the crash.
 *
 * Each thread prints after the one before it has printed (a byte passed on
 * a pipe): two writes to one file that land close together may be numbered
 * in the other order (by the module, a thread preempted between its write
 * and its sys_exit probe; by tests/tools/ptsnap, which numbers a call at
 * the exit stop it happens to collect first), and replay writes them in
 * that order.  The pipe makes the order the program's own.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ptsnap_marker.h"

#define NT 3

static int token[NT][2];	/* thread i passes a byte on token[i] */

static void *work(void *arg)
{
	long id = (long)arg, i, acc = 1;
	char line[64];
	int len;

	for (i = 0; i < 3000000 * (id + 1); i++)	/* writes far apart */
		acc = acc * 31 + i;
	len = snprintf(line, sizeof(line), "thread %ld: %ld\n", id, acc);
	if (id > 0 && read(token[id - 1][0], line + len, 1) != 1)
		return NULL;
	if (write(1, line, (size_t)len) != len)
		return NULL;
	if (id < NT - 1 && write(token[id][1], "t", 1) != 1)
		return NULL;
	return id == 1 ? NULL : (void *)acc;
}

int main(void)
{
	pthread_t t[NT];
	long *res[NT];
	long i, sum = 0;

	for (i = 0; i < NT; i++)
		if (pipe(token[i]))
			return 1;
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
