// SPDX-License-Identifier: GPL-2.0
/*
 * pidns_threads: three threads make syscalls, each printing the tid it sees
 * first ("tid N"), after "pid N"; then the process aborts.  Recorded under
 * `unshare --pid` by tests/record_security.c: every tid of the checkpoint
 * must be one of those printed.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
	struct timespec ts = { 0, 5000000 };
	int i;

	(void)arg;
	pthread_mutex_lock(&out_lock);
	printf("tid %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
	for (i = 0; i < 30; i++) {
		if (getppid() < 0)
			break;
		nanosleep(&ts, NULL);
	}
	return NULL;
}

int main(void)
{
	pthread_t th[3];
	int i;

	printf("pid %ld\ntid %ld\n", (long)getpid(), (long)syscall(SYS_gettid));
	fflush(stdout);
	for (i = 0; i < 3; i++)
		if (pthread_create(&th[i], NULL, worker, NULL))
			return 2;
	for (i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	abort();
}
