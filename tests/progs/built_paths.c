// SPDX-License-Identifier: GPL-2.0
/*
 * built_paths: makes paths at run time, on the stack, and passes them to
 * openat, rename and mkdir/rmdir; prints each path on stdout.  None of them
 * is in memory when the program starts, so `flightrec log` can show them
 * only from what the recorder kept of the call (tests/record_syscalls.c).
 *
 *   built_paths DIR
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	char a[64], b[64], d[64];
	int fd;

	if (argc != 2)
		return 2;
	snprintf(a, sizeof(a), "%s/fr-%d-a", argv[1], (int)getpid() % 1000);
	snprintf(b, sizeof(b), "%s/fr-%d-b", argv[1], (int)getpid() % 1000);
	snprintf(d, sizeof(d), "%s/fr-%d-d", argv[1], (int)getpid() % 1000);
	fd = openat(AT_FDCWD, a, O_RDONLY);		/* ENOENT */
	if (fd >= 0)
		return 3;
	if (rename(a, b) == 0)				/* ENOENT */
		return 4;
	if (mkdir(d, 0700) || rmdir(d))
		return 5;
	printf("%s\n%s\n%s\n", a, b, d);
	return 0;
}
