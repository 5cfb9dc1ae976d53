// SPDX-License-Identifier: GPL-2.0
/*
 * live_chunks: records that `flightrec log PID` reads in pieces, with
 * another thread's record numbered between each two of them and placed
 * only later.  For tests/record_threads.c (live_read_chunks).
 *
 * The main thread makes WAITERS rounds of: read BIG bytes of /dev/zero (a
 * record whose out-buffer netlink sends in OUT_CHUNK pieces), then wake one
 * waiter (a byte into a pipe) and spin, with no syscall, until it is about
 * to wait on a futex and a while longer.  That futex wait is numbered at
 * its entry (fr_seq_at_entry), so its record falls between this round's
 * read and the next, but it is placed only when the wait ends.  Then the
 * main thread prints "ready", reads a byte from stdin, wakes every waiter,
 * joins them, prints "woken" and waits in pause() until SIGUSR1.
 *
 *   live_chunks WAITERS
 */
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

#define MAX_WAITERS 64
#define BIG 20000

static int gate[2];
static atomic_uint entering, word;
static volatile sig_atomic_t go;
static char big[BIG];

static void *waiter(void *arg)
{
	char c;

	(void)arg;
	if (read(gate[0], &c, 1) != 1)
		abort();
	atomic_fetch_add(&entering, 1);
	while (!atomic_load(&word))
		syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	return NULL;
}

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

int main(int argc, char **argv)
{
	pthread_t th[MAX_WAITERS];
	volatile unsigned long spin;
	int fd, n, i;
	char c;

	if (argc != 2)
		return 2;
	n = atoi(argv[1]);
	if (n < 1 || n > MAX_WAITERS)
		return 2;
	signal(SIGUSR1, on_usr1);
	fd = open("/dev/zero", O_RDONLY);
	if (fd < 0 || pipe(gate))
		return 3;
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, waiter, NULL))
			return 3;
	for (i = 0; i < n; i++) {
		if (read(fd, big, BIG) != BIG || write(gate[1], "w", 1) != 1)
			return 4;
		while (atomic_load(&entering) < (unsigned int)i + 1)
			;
		/* the waiter's futex entry before the next read's record */
		for (spin = 0; spin < 40000000; spin++)
			;
	}
	if (read(fd, big, BIG) != BIG)
		return 4;
	printf("ready\n");
	fflush(stdout);
	if (read(0, &c, 1) != 1)
		return 5;
	atomic_store(&word, 1);
	syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	printf("woken\n");
	fflush(stdout);
	while (!go)
		pause();
	return 0;
}
