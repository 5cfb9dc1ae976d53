// SPDX-License-Identifier: GPL-2.0
/*
 * sc_lengths: between the markers of sc_known.h, for each length of
 * SC_LENGTHS, a pread64 of that many bytes of a known pattern into a
 * buffer at an odd offset (its out-buffer), then a write of the same bytes
 * to /dev/null (its in-hash): every way the module copies user memory, by
 * length (a few words, a word loop and its tail, copy_from_user, the bulk
 * copy).  Used by tests/record_syscalls.c.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "sc_known.h"

int main(void)
{
	static const unsigned int lengths[] = { SC_LENGTHS };
	static unsigned char pat[SC_LENGTHS_MAX], buf[SC_LENGTHS_MAX + 64];
	int mfd = memfd_create("sc_lengths", 0), nfd = open("/dev/null", O_WRONLY);
	unsigned int i;

	if (mfd < 0 || nfd < 0)
		return 1;
	for (i = 0; i < sizeof(pat); i++)
		pat[i] = SC_LENGTHS_BYTE(i);
	if (write(mfd, pat, sizeof(pat)) != (ssize_t)sizeof(pat))
		return 2;
	syscall(SYS_getpriority, PRIO_PROCESS, SC_MARK_START);
	for (i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
		unsigned char *p = buf + SC_LENGTHS_OFF(lengths[i]);

		if (pread(mfd, p, lengths[i], 0) != (ssize_t)lengths[i])
			return 3;
		if (write(nfd, p, lengths[i]) != (ssize_t)lengths[i])
			return 4;
	}
	syscall(SYS_getpriority, PRIO_PROCESS, SC_MARK_END);
	return 0;
}
