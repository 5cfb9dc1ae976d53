// SPDX-License-Identifier: GPL-2.0
/*
 * Executes hlt in user mode: #GP, SIGSEGV with si_code SI_KERNEL, like a
 * trapped rdtsc, but a real fault (the recorder must not take it for one).
 */
#include <stdio.h>

int main(void)
{
	printf("about to hlt\n");
	fflush(stdout);
	__asm__ volatile("hlt");
	return 0;
}
