// SPDX-License-Identifier: GPL-2.0
/*
 * tid_address: a thread gives set_tid_address a pointer to nothing (as
 * strace's tests and some runtimes do) and exits; the kernel's clear of
 * that word at the thread's exit fails quietly (issue 25, class 9).  A
 * second thread's word is real (pthread's), and is cleared for its join.
 * Prints what it saw.
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static int fds[2];

static void *bogus(void *arg)
{
	long tid = syscall(SYS_set_tid_address, (void *)0x10);

	(void)arg;
	if (write(fds[1], &tid, sizeof(tid)) != sizeof(tid))
		return NULL;
	syscall(SYS_exit, 0);	/* the kernel clears *0x10: a fault, ignored */
	return NULL;
}

static void *plain(void *arg)
{
	return arg;
}

int main(void)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	pthread_t t;
	long tid = 0;
	void *ret;

	if (pipe(fds) || pthread_create(&t, NULL, bogus, NULL))
		return 1;
	pthread_detach(t);
	if (read(fds[0], &tid, sizeof(tid)) != sizeof(tid))
		return 1;
	nanosleep(&ts, NULL);	/* the thread is gone */
	printf("set_tid_address gave a tid: %s\n", tid > getpid() ? "yes" : "no");
	if (pthread_create(&t, NULL, plain, (void *)&ts) || pthread_join(t, &ret))
		return 1;
	printf("joined: %s\n", ret == (void *)&ts ? "yes" : "no");
	return 0;
}
