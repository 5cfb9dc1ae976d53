// SPDX-License-Identifier: GPL-2.0
/*
 * pthread_join racing a thread's exit, with a thread created in between.
 * Thread A sends its tid and exits; the main thread waits until A is in its
 * exit (its /proc/self/task/TID/syscall says exit, or A is gone), creates
 * thread B, then joins A and B.  glibc's join reads A's tid word, and makes
 * a futex wait only while the word still holds A's tid: the kernel clears
 * it as A finishes exiting, so whether the main thread waits depends on
 * when.  ptsnap --hold-exit keeps A in its exit until the main thread
 * enters a futex call, so the join always sees A alive and waits; replay
 * must clear the word at that wait, not at A's exit record nor at B's
 * clone3.  Prints the lines the threads send, then "joined".
 *
 * "threads_exit_join reuse": A exits and is gone before it is joined (no
 * wait); thread C then gets A's cached stack, tid word included, and
 * exits while the main thread joins it (ptsnap --hold-exit=2 holds C, the
 * second thread to exit).  Replay must clear A's word at A's exit: the
 * wait on that word is C's, for C's tid.  Prints whether C's tid word was
 * A's ("reused").
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "ptsnap_marker.h"

static int tidpipe[2];

static void *thread_a(void *arg)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);

	(void)arg;
	if (write(tidpipe[1], &tid, sizeof(tid)) != sizeof(tid))
		return NULL;
	return (void *)1;
}

static void *thread_b(void *arg)
{
	static const char line[] = "thread B ran\n";

	(void)arg;
	if (write(1, line, sizeof(line) - 1) != sizeof(line) - 1)
		return NULL;
	return (void *)2;
}

/* A is in its exit(2), or has finished it. */
static int exiting(pid_t tid)
{
	char path[64], buf[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 1;
	buf[n] = 0;
	return !strncmp(buf, "60 ", 3);
}

/* C: the same as A, on A's stack when glibc reuses it */
static void *thread_c(void *arg)
{
	return thread_a(arg);
}

/* A is gone (its /proc/self/task entry) */
static int gone(pid_t tid)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 1;
	close(fd);
	return 0;
}

static int reuse(void)
{
	pthread_t a, c;
	void *ra, *rc;
	pid_t tid;

	if (pthread_create(&a, NULL, thread_a, NULL) ||
	    read(tidpipe[0], &tid, sizeof(tid)) != sizeof(tid))
		return 1;
	while (!gone(tid))
		sched_yield();
	if (pthread_join(a, &ra))
		return 1;
	if (pthread_create(&c, NULL, thread_c, NULL) ||
	    read(tidpipe[0], &tid, sizeof(tid)) != sizeof(tid))
		return 1;
	while (!exiting(tid))
		sched_yield();
	if (pthread_join(c, &rc))
		return 1;
	/* a pthread_t is the thread's descriptor, which holds its tid word */
	printf("joined: %ld %ld, reused: %s\n", (long)ra, (long)rc, a == c ? "yes" : "no");
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	void *ra, *rb;
	pid_t tid;

	if (pipe(tidpipe))
		return 1;
	ptsnap_marker();
	if (argc > 1 && !strcmp(argv[1], "reuse"))
		return reuse();
	if (pthread_create(&a, NULL, thread_a, NULL))
		return 1;
	if (read(tidpipe[0], &tid, sizeof(tid)) != sizeof(tid))
		return 1;
	while (!exiting(tid))
		sched_yield();
	if (pthread_create(&b, NULL, thread_b, NULL))
		return 1;
	if (pthread_join(a, &ra) || pthread_join(b, &rb))
		return 1;
	printf("joined: %ld %ld\n", (long)ra, (long)rb);
	return 0;
}
