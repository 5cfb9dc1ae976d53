// SPDX-License-Identifier: GPL-2.0
/*
 * exec_chain - a process that execs itself and crashes in the new image
 * (issue 25, class 4: replay across execve).
 *
 * "exec_chain" (image 1) writes a line, fills a buffer over a few
 * intervals, tries to exec a file that does not exist (execvp's $PATH
 * search: ENOENT), one without execute permission (EACCES) and one the
 * kernel cannot run (ENOEXEC), both made in the current directory, writes
 * what the three returned, then execs /proc/self/exe with "2" and the
 * buffer's sum.  Image 2 writes the sum it was given, then stores
 * through a null pointer: SIGSEGV.  A replay from image 1's first interval
 * writes every line and ends in image 2's crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

static char buf[1 << 16];

static void say(const char *s)
{
	if (write(1, s, strlen(s)) < 0)
		_exit(4);
}

/* NAME in the current directory, with MODE and bytes that are no program */
static void make_file(const char *name, mode_t mode)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);

	if (fd < 0 || write(fd, "no program\n", 11) != 11 || fchmod(fd, mode) || close(fd))
		_exit(5);
}

int main(int argc, char **argv)
{
	char line[128], arg[32];
	unsigned long sum = 0;
	int i, e1, e2, e3;

	if (argc > 2 && !strcmp(argv[1], "2")) {
		snprintf(line, sizeof(line), "image 2: sum %s\n", argv[2]);
		say(line);
		*(volatile int *)(unsigned long)(argc - 3) = 1;	/* argc is 3 */
		return 0;
	}
	say("image 1: start\n");
	for (i = 0; i < 6; i++) {
		struct timespec ts = { 0, 30 * 1000 * 1000 };

		memset(buf + i * 4096, 'a' + i, 4096);
		nanosleep(&ts, NULL);
	}
	for (i = 0; i < (int)sizeof(buf); i++)
		sum += (unsigned char)buf[i];
	make_file("exec_chain.noperm", 0644);
	make_file("exec_chain.noexec", 0755);
	execl("/nonexistent/exec_chain", "x", (char *)NULL);
	e1 = errno;
	execl("exec_chain.noperm", "x", (char *)NULL);
	e2 = errno;
	execl("exec_chain.noexec", "x", (char *)NULL);
	e3 = errno;
	snprintf(line, sizeof(line), "image 1: errors %s, %s, %s\n", strerrorname_np(e1),
		 strerrorname_np(e2), strerrorname_np(e3));
	say(line);
	snprintf(arg, sizeof(arg), "%lu", sum);
	execl("/proc/self/exe", argv[0], "2", arg, (char *)NULL);
	return 3;
}
