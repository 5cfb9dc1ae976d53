// SPDX-License-Identifier: GPL-2.0
/*
 * sc_untouched: writes of 8 bytes from anonymous pages never touched (no
 * page-table entry: the sys_enter probe's in-hash read faults, and must give
 * up without serving the fault, in atomic context) and then from the same
 * pages once read (the zero page mapped: the hash of 8 zero bytes), between
 * the markers of sc_known.h.  Used by tests/record_syscalls.c.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "sc_known.h"

#define ROUNDS	8

int main(void)
{
	int fd = open("/dev/null", O_WRONLY);
	int i;

	if (fd < 0)
		return 1;
	syscall(SYS_getpriority, PRIO_PROCESS, SC_MARK_START);
	for (i = 0; i < ROUNDS; i++) {
		/*
		 * at an address no mapping had before: a new mapping over an
		 * earlier one's place has its bytes read at sys_exit (the
		 * "new life" of memory.c), which maps its pages
		 */
		volatile char *p = mmap((void *)(0x5a5a00000000UL + i * 0x200000UL),
					4096, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS |
					MAP_FIXED_NOREPLACE, -1, 0);

		if (p == MAP_FAILED)
			return 2;
		if (write(fd, (const void *)p, 8) != 8)
			return 3;
		(void)p[0];		/* maps the zero page */
		if (write(fd, (const void *)p, 8) != 8)
			return 4;
	}
	syscall(SYS_getpriority, PRIO_PROCESS, SC_MARK_END);
	return 0;
}
