// SPDX-License-Identifier: GPL-2.0
/*
 * mem_big: makes MB megabytes resident, then keeps touching a few pages of
 * them (reading and writing) with a syscall in between, until killed.  With
 * "read", it reads every page of them instead, over and over, with a syscall
 * after each sweep: every boundary finds all of them accessed.  With
 * "unmap", it waits for SIGUSR1, reads two pages (MB_READ_MID, MB_READ_LAST),
 * unmaps them all in one call, makes the marker call getpriority(PRIO_PROCESS,
 * MB_MARK), writes "done\n" and waits to be killed.  The first byte of
 * page k is (uint8_t)k.
 *
 *   mem_big MB [read|unmap]
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include "mem_big.h"

/* "unmap": the whole range in one munmap, once the test says so */
static int unmap_all(volatile uint8_t *p, size_t size)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigwait(&set, &sig))
		return 5;
	/* accessed in the interval of the munmap: its capture copies them */
	(void)p[MB_READ_MID(size)];
	(void)p[MB_READ_LAST(size)];
	if (munmap((void *)p, size))
		return 6;
	syscall(SYS_getpriority, PRIO_PROCESS, MB_MARK);
	if (write(1, "done\n", 5) != 5)
		return 7;
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	size_t size, i, n = 0;
	volatile uint8_t *p;

	sigset_t set;
	int unmap = argc == 3 && !strcmp(argv[2], "unmap");

	if (argc != 2 && (argc != 3 || (strcmp(argv[2], "read") && !unmap)))
		return 2;
	/* blocked before "ready": a SIGUSR1 sent after it waits for sigwait */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	size = (size_t)atoi(argv[1]) << 20;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		return 3;
	/*
	 * 4 KiB pages: the module tracks page-table entries; a transparent
	 * huge page made before registration is not tracked (and flagged), so
	 * the boundary benchmark and the 1 GiB test would measure nothing.
	 */
	madvise((void *)p, size, MADV_NOHUGEPAGE);
	for (i = 0; i < size; i += 4096)
		p[i] = (uint8_t)(i >> 12);
	if (write(1, "ready\n", 6) != 6)
		return 4;
	if (unmap)
		return unmap_all(p, size);
	while (argc == 3) {
		uint8_t sum = 0;

		for (i = 0; i < size; i += 4096)
			sum += p[i];
		if (getppid() == (pid_t)sum)	/* a syscall; keeps the sum */
			n++;
	}
	for (;;) {
		for (i = 0; i < 16; i++)
			p[((n * 16 + i) * 4096 * 7) % size] += 1;
		n++;
		usleep(1000);
	}
}
