// SPDX-License-Identifier: GPL-2.0
/*
 * dumpable: a program that stops being dumpable while recorded
 * (tests/record_security.c).  Gates are bytes read from fd 3; "ready"
 * bytes are written to fd 4.
 *
 *   dumpable prctl        ready; gate; PR_SET_DUMPABLE 0; syscalls with a
 *                         secret; ready; gate; exit 0
 *   dumpable nodump       PR_SET_DUMPABLE 0; ready; gate; exit 0
 *   dumpable exec PATH    ready; gate; exec PATH suid (a set-user-ID copy
 *                         of this program)
 *   dumpable suid         (after the set-user-ID exec) prints "euid N" on
 *                         stdout, makes syscalls with a secret, exits 0
 *   dumpable crash        syscalls; PR_SET_DUMPABLE 0; syscalls with a
 *                         secret; killed by SIGSEGV (no gates)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <signal.h>
#include <sys/prctl.h>

static const char secret[] = "FR-SECRET-4f7c1d2a9b";

static void gate(void)
{
	char c;

	if (read(3, &c, 1) != 1)
		_exit(10);
}

static void ready(void)
{
	if (write(4, "r", 1) != 1)
		_exit(11);
}

/* syscalls whose records would carry the secret */
static void busy(void)
{
	struct timespec ts = { 0, 2000000 };
	char buf[64];
	int i, p[2];

	if (pipe(p))
		_exit(12);
	for (i = 0; i < 20; i++) {
		if (write(p[1], secret, sizeof(secret)) != sizeof(secret) ||
		    read(p[0], buf, sizeof(buf)) != sizeof(secret))
			_exit(13);
		nanosleep(&ts, NULL);
	}
	close(p[0]);
	close(p[1]);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "prctl")) {
		ready();
		gate();
		if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
			return 2;
		busy();
		ready();
		gate();
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "nodump")) {
		if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
			return 2;
		ready();
		gate();
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "exec")) {
		ready();
		gate();
		execl(argv[2], argv[2], "suid", (char *)NULL);
		return 3;
	}
	if (argc >= 2 && !strcmp(argv[1], "suid")) {
		printf("euid %u\n", (unsigned int)geteuid());
		fflush(stdout);
		busy();
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "crash")) {
		busy();
		if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
			return 2;
		busy();
		raise(SIGSEGV);
		return 4;
	}
	fprintf(stderr, "usage: dumpable prctl|nodump|exec PATH|suid|crash\n");
	return 64;
}
