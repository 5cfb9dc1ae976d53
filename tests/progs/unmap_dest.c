// SPDX-License-Identifier: GPL-2.0
/*
 * unmap_dest - memory destroyed by the destination of mremap(MREMAP_FIXED)
 * and by shmdt (issue 24.12).  Two pages are filled before an interval
 * boundary: A (UD_A, 0xa1 bytes) and S, a System V shared memory segment
 * (UD_S, 0x5c).  In the next interval the program reads both, then
 * mremap()s page B (0xb2) onto A and detaches S, marks the spot with
 * getpriority(PRIO_PROCESS, UD_MARK) and reads A again.  The recorder must
 * keep A and S as they were at the interval's start: 0xa1 and 0x5c.
 */
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include "unmap_dest.h"

int main(void)
{
	struct timespec ts = { 0, 300 * 1000 * 1000 };
	volatile unsigned char *a, *b, *s;
	unsigned int sum = 0;
	int id;

	a = mmap((void *)UD_A, 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	b = mmap((void *)UD_B, 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	if (a != (void *)UD_A || b != (void *)UD_B || id < 0)
		return 2;
	s = shmat(id, (void *)UD_S, 0);
	shmctl(id, IPC_RMID, NULL);
	if (s != (void *)UD_S)
		return 3;
	memset((void *)a, 0xa1, 4096);
	memset((void *)b, 0xb2, 4096);
	memset((void *)s, 0x5c, 4096);
	nanosleep(&ts, NULL);		/* a boundary */
	sum += a[0] + s[0];
	if (mremap((void *)b, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED,
		   (void *)a) != (void *)a)
		return 4;
	if (shmdt((void *)s))
		return 5;
	syscall(SYS_getpriority, PRIO_PROCESS, UD_MARK);
	sum += a[0];
	return sum == 0xa1 + 0x5c + 0xb2 ? 0 : 6;
}
