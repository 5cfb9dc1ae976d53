// SPDX-License-Identifier: GPL-2.0
/*
 * mem_big: makes MB megabytes resident, then keeps touching a few pages of
 * them (reading and writing) with a syscall in between, until killed.  With
 * "read", it reads every page of them instead, over and over, with a syscall
 * after each sweep: every boundary finds all of them accessed.
 *
 *   mem_big MB [read]
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	size_t size, i, n = 0;
	volatile uint8_t *p;

	if (argc != 2 && (argc != 3 || strcmp(argv[2], "read")))
		return 2;
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
		p[i] = (uint8_t)i;
	if (write(1, "ready\n", 6) != 6)
		return 4;
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
