// SPDX-License-Identifier: GPL-2.0
/*
 * timeit: runs CMD and writes the nanoseconds from just before its fork to
 * its exit into FILE.  scripts/bench-vm.sh times a program natively and
 * under `flightrec record -- timeit FILE CMD`: the recorded figure covers
 * the program from its exec to its exit, all of it recorded, but not the
 * flightrec tool's own start and registration.
 *
 *   timeit FILE CMD [ARGS...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long t0, t1;
	int status;
	pid_t pid;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: timeit FILE CMD [ARGS...]\n");
		return 2;
	}
	t0 = now_ns();
	pid = fork();
	if (pid < 0) {
		perror("timeit: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror("timeit: exec");
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("timeit: waitpid");
		return 2;
	}
	t1 = now_ns();
	f = fopen(argv[1], "w");
	if (!f || fprintf(f, "%lld\n", t1 - t0) < 0 || fclose(f)) {
		perror("timeit: write");
		return 2;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
