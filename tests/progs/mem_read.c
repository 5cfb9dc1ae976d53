// SPDX-License-Identifier: GPL-2.0
/*
 * mem_read: fills MR_PAGES pages at MR_ADDR with a known pattern, then, round
 * after round, marks the round, reads every page, marks again and sleeps long
 * enough for an interval boundary.  The pages are never written after the
 * fill: tests/record_memory.c checks that an interval holding both markers of
 * a round has every page in its initial page set, with these bytes.
 *
 * With a mode, even rounds do one more thing after the reads, before the
 * second marker, that the interval must be flagged for:
 *   lives  madvise(MADV_DONTNEED) of the first MR_LIVES pages, then reads
 *          them again: their second life (zero), which no write fault shows
 *          (FLIGHTREC_IF_TWO_LIVES);
 *   gup    process_vm_writev() of its own bytes into one page per
 *          MR_GUP_STRIDE, which writes through get_user_pages, not a write
 *          fault (FLIGHTREC_IF_GUP_WRITE).  The bytes stay the pattern;
 *   churn  as lives, but MADV_DONTNEED of all MR_PAGES pages (the recorder
 *          copies every one before they go: a long held call), for ROUNDS
 *          rounds instead of MR_ROUNDS: with short intervals, boundaries fall
 *          between that copy and the call itself;
 *   churn2 as churn, with a second thread waking every millisecond all
 *          along: it makes boundaries too, which the held call cannot put
 *          off;
 *   cold, pageout
 *          madvise(MADV_COLD or MADV_PAGEOUT) of all MR_PAGES pages: the
 *          kernel clears the accessed bits of the pages just read, which
 *          the next boundary would have found.  The bytes stay;
 *   reclaim
 *          the process moves itself into the memory cgroup MR_CGROUP
 *          (made by the test, with swap on) and asks it to reclaim
 *          MR_RECLAIM: reclaim clears the accessed bits of the pages it
 *          looks at (folio_referenced), the pages just read among them,
 *          and pushes out to swap those it finds not accessed.
 *
 *   mem_read SLEEP_MS [lives|gup|cold|pageout|reclaim|churn ROUNDS|churn2 ROUNDS]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <pthread.h>
#include "mem_read.h"

#ifndef MADV_COLD
#define MADV_COLD	20
#endif
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT	21
#endif

static volatile int done;

/* writes s into MR_CGROUP's file name; 0 or -1 (errno) */
static int cg_write(const char *name, const char *s)
{
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", MR_CGROUP, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	if (n < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	close(fd);
	return 0;
}

/* wakes every millisecond: its task_work makes boundaries too */
static void *busy(void *arg)
{
	struct timespec ms = { 0, 1000000 };

	while (!done)
		nanosleep(&ms, NULL);
	return arg;
}

int main(int argc, char **argv)
{
	struct timespec ts;
	volatile uint8_t *p;
	unsigned int k, pg, off, sum = 0, rounds = MR_ROUNDS, discard = MR_LIVES;
	int churn2 = argc == 4 && !strcmp(argv[2], "churn2");
	int churn = churn2 || (argc == 4 && !strcmp(argv[2], "churn"));
	pthread_t th;
	int lives = churn || (argc == 3 && !strcmp(argv[2], "lives"));
	int gup = argc == 3 && !strcmp(argv[2], "gup");
	int cold = argc == 3 && !strcmp(argv[2], "cold") ? MADV_COLD :
		   argc == 3 && !strcmp(argv[2], "pageout") ? MADV_PAGEOUT : 0;
	int reclaim = argc == 3 && !strcmp(argv[2], "reclaim");

	if (argc < 2 || argc > 4 || (argc >= 3 && !lives && !gup && !cold && !reclaim))
		return 2;
	if (reclaim && cg_write("cgroup.procs", "0"))
		return 9;
	if (churn) {
		rounds = atoi(argv[3]);
		discard = MR_PAGES;
	}
	if (churn2 && pthread_create(&th, NULL, busy, NULL))
		return 7;
	ts.tv_sec = atoi(argv[1]) / 1000;
	ts.tv_nsec = (atoi(argv[1]) % 1000) * 1000000L;
	p = mmap((void *)MR_ADDR, MR_PAGES * 4096UL, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != (void *)MR_ADDR)
		return 3;
	madvise((void *)p, MR_PAGES * 4096UL, MADV_NOHUGEPAGE);
	for (pg = 0; pg < MR_PAGES; pg++)
		for (off = 0; off < 4096; off++)
			p[pg * 4096 + off] = mr_byte(pg, off);
	for (k = 0; k < rounds; k++) {
		syscall(SYS_getpriority, PRIO_PROCESS, MR_MARK + 2 * k);
		for (pg = 0; pg < MR_PAGES; pg++)
			sum += p[pg * 4096 + (pg * 31) % 4096];
		if (lives && !(k & 1)) {
			if (madvise((void *)p, discard * 4096UL, MADV_DONTNEED))
				return 5;
			for (pg = 0; pg < MR_LIVES; pg++)
				sum += p[pg * 4096 + 8];
		}
		/* EAGAIN: less than asked for could go, as expected */
		if (reclaim && !(k & 1) && cg_write("memory.reclaim", MR_RECLAIM) &&
		    errno != EAGAIN)
			return 10;
		if (cold && !(k & 1) &&
		    madvise((void *)p, MR_PAGES * 4096UL, cold))
			return 8;
		for (pg = 0; gup && !(k & 1) && pg < MR_PAGES; pg += MR_GUP_STRIDE) {
			uint8_t same[16];
			struct iovec l = { same, sizeof(same) };
			struct iovec r = { (void *)(p + pg * 4096 + 64), sizeof(same) };

			for (off = 0; off < sizeof(same); off++)
				same[off] = mr_byte(pg, 64 + off);
			if (process_vm_writev(getpid(), &l, 1, &r, 1, 0) != sizeof(same))
				return 6;
		}
		syscall(SYS_getpriority, PRIO_PROCESS, MR_MARK + 2 * k + 1);
		nanosleep(&ts, NULL);
	}
	if (churn2) {
		done = 1;
		pthread_join(th, NULL);
	}
	return sum == 1 ? 4 : 0;	/* keeps the reads */
}
