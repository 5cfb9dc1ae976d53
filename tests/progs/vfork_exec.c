// SPDX-License-Identifier: GPL-2.0
/*
 * vfork_exec: children that share the parent's memory until they exec
 * (vfork, then posix_spawn, which glibc makes with clone(CLONE_VM |
 * CLONE_VFORK)), each running ARGV[1] ("/bin/true").  The parent prints
 * what it saw; its checkpoint must replay, and each child's too.
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

extern char **environ;

int main(int argc, char **argv)
{
	char *const args[] = { argc > 1 ? argv[1] : "/bin/true", NULL };
	volatile int i, sum = 0;
	int status;
	pid_t pid;

	for (i = 0; i < 3; i++) {
		pid = vfork();
		if (pid == 0) {
			execve(args[0], args, environ);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			return 1;
		sum += WEXITSTATUS(status);
		if (posix_spawn(&pid, args[0], NULL, NULL, args, environ) ||
		    waitpid(pid, &status, 0) != pid)
			return 1;
		sum += WEXITSTATUS(status);
		printf("round %d: status sum %d\n", i, sum);
		fflush(stdout);
	}
	return sum;
}
