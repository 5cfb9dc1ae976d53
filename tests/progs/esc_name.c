// SPDX-License-Identifier: GPL-2.0
/*
 * esc_name GATE: names itself with terminal escape sequences (PR_SET_NAME:
 * an OSC title change and a colour), waits until the file GATE exists (at
 * most 30 s), then dereferences NULL.  tests/replay_sandbox.c records it
 * and checks that list, info and the replay banner print the name escaped.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>

int main(int argc, char **argv)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	if (prctl(PR_SET_NAME, "\033]0;x\007\033[31m", 0, 0, 0))
		return 1;
	for (i = 0; argc > 1 && i < 3000 && access(argv[1], F_OK); i++)
		nanosleep(&ts, NULL);
	printf("named\n");
	fflush(stdout);
	return *(volatile int *)0;
}
