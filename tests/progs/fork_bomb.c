// SPDX-License-Identifier: GPL-2.0
/*
 * fork_bomb: a tree of processes, each forking FANOUT children down to
 * DEPTH levels (FANOUT^DEPTH leaves), every one making ROUNDS getpid() and
 * 4 KiB reads of /dev/zero before it waits for its children; exits 0 when
 * every process of the tree did.  Under a registered parent every process
 * is recorded: the recorder's memory must stay under its cap.
 *
 *   fork_bomb FANOUT DEPTH ROUNDS
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static int fanout, rounds;

static int node(int depth)
{
	static char buf[4096];
	int i, st, bad = 0, zero;
	pid_t kids[64];
	int nk = 0;

	for (i = 0; depth > 0 && i < fanout; i++) {
		pid_t p = fork();

		if (p == 0)
			_exit(node(depth - 1));
		if (p > 0)
			kids[nk++] = p;
		else
			bad = 1;
	}
	zero = open("/dev/zero", O_RDONLY);
	for (i = 0; i < rounds; i++) {
		syscall(SYS_getpid);
		if (zero < 0 || read(zero, buf, sizeof(buf)) != sizeof(buf))
			bad = 1;
	}
	for (i = 0; i < nk; i++)
		if (waitpid(kids[i], &st, 0) != kids[i] || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			bad = 1;
	return bad;
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	fanout = atoi(argv[1]);
	rounds = atoi(argv[3]);
	if (fanout < 1 || fanout > 64)
		return 2;
	return node(atoi(argv[2]));
}
