// SPDX-License-Identifier: GPL-2.0
/*
 * int80 - a 64-bit program that makes a 32-bit syscall with int $0x80
 * (getpid, i386 number 20) between two ordinary ones.  The recorder cannot
 * record such a call as a 64-bit one: it must flag the interval
 * (FLIGHTREC_IF_FOREIGN_SYSCALL).  Exits 0 when int $0x80 gave its pid.
 */
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(void)
{
	long ret, pid = syscall(SYS_getpid);

	__asm__ volatile("int $0x80" : "=a"(ret) : "a"(20L) : "memory");
	printf("int $0x80 getpid %s\n", ret == pid ? "ok" : "wrong");
	return ret == pid ? 0 : 1;
}
