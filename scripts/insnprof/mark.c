// SPDX-License-Identifier: GPL-2.0
/*
 * mark start|stop: executes the marker instruction that tbcount.c (the
 * insnprof plugin) answers: start zeroes its counts, stop freezes them.
 * Anywhere else the instruction is a nop.
 */
#include <stdio.h>
#include <string.h>
#include "mark.h"

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "start")) {
		FR_INSN_MARK_START();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "stop")) {
		FR_INSN_MARK_STOP();
		return 0;
	}
	fprintf(stderr, "usage: mark start|stop\n");
	return 64;
}
