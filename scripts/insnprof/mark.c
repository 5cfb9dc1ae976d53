// SPDX-License-Identifier: GPL-2.0
/*
 * mark start|stop: executes the marker instruction that tbcount.c (the
 * insnprof plugin) answers: start zeroes its counts, stop freezes them.
 * Anywhere else the instruction is a nop.
 */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "start")) {
		asm volatile(".byte 0x0f, 0x1f, 0x80, 'F', 'M', 'K', 'T'" ::: "memory");
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "stop")) {
		asm volatile(".byte 0x0f, 0x1f, 0x80, 'F', 'M', 'K', 'P'" ::: "memory");
		return 0;
	}
	fprintf(stderr, "usage: mark start|stop\n");
	return 64;
}
