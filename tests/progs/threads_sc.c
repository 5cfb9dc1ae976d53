// SPDX-License-Identifier: GPL-2.0
/*
 * threads_sc: THREADS threads, each making ROUNDS marker syscalls
 * getpriority(PRIO_PROCESS, 0x7e5900 + thread) with a write to /dev/null in
 * between.  tests/record_process.c checks every thread's log is complete.
 *
 *   threads_sc THREADS ROUNDS
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>

static int rounds, devnull;

static void *worker(void *arg)
{
	long t = (long)arg;
	int i;

	for (i = 0; i < rounds; i++) {
		syscall(SYS_getpriority, PRIO_PROCESS, 0x7e5900 + t);
		if (write(devnull, &i, sizeof(i)) != sizeof(i))
			exit(4);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[64];
	long n, i;

	if (argc != 3)
		return 2;
	n = atoi(argv[1]);
	rounds = atoi(argv[2]);
	devnull = open("/dev/null", O_WRONLY);
	if (n < 1 || n > 64 || devnull < 0)
		return 2;
	for (i = 1; i < n; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)i))
			return 3;
	worker((void *)0);
	for (i = 1; i < n; i++)
		pthread_join(th[i], NULL);
	return 0;
}
