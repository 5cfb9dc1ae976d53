// SPDX-License-Identifier: GPL-2.0
/*
 * Two threads, each with its own pattern in xmm0-xmm15, each making
 * system calls back to back (a bare syscall instruction, getppid): at most
 * interval starts one of them cuts the interval while the other is inside
 * a call, on the other CPU.  The context taken of that other thread must
 * carry its XSAVE area with its pattern (tests/record_threads.c,
 * running_thread_xsave).
 *
 * Thread k (0: main, 1: the other) loads register i byte j with
 * 0x40 * (k + 1) + 16 * i + j, then makes COUNT calls (argument, default
 * 20000) in the loop between the symbols fpu_spin_loaded and fpu_spin_done,
 * then checks that the registers still hold the pattern.  Exit status 0
 * when both patterns survived.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#define XMM_ALL(op) \
	op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) \
	op(8) op(9) op(10) op(11) op(12) op(13) op(14) op(15)

static long count = 20000;
static volatile int started;

__attribute__((noinline, noclone)) static void *spin(void *arg)
{
	uint8_t want[16][16], got[16][16];
	long k = (long)arg, left = count;
	int i, j;

	for (i = 0; i < 16; i++)
		for (j = 0; j < 16; j++)
			want[i][j] = (uint8_t)(0x40 * (k + 1) + 16 * i + j);
	/* both threads in the loop together */
	__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < 2)
		;
#define LOAD(n) "movdqu " #n "*16(%[w]), %%xmm" #n "\n\t"
#define SAVE(n) "movdqu %%xmm" #n ", " #n "*16(%[g])\n\t"
	__asm__ volatile(XMM_ALL(LOAD)
			 ".globl fpu_spin_loaded\n"
			 "fpu_spin_loaded:\n\t"
			 "movl %[nr], %%eax\n\t"
			 "syscall\n\t"
			 "dec %[left]\n\t"
			 "jnz fpu_spin_loaded\n"
			 ".globl fpu_spin_done\n"
			 "fpu_spin_done:\n\t"
			 XMM_ALL(SAVE)
			 : [left] "+r"(left)
			 : [w] "r"(want), [g] "r"(got), [nr] "i"(SYS_getppid)
			 : "rax", "rcx", "r11", "memory",
			   "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
			   "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",
			   "xmm13", "xmm14", "xmm15");
	return memcmp(want, got, sizeof(want)) ? (void *)1 : NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	void *res, *own;

	if (argc > 1)
		count = atol(argv[1]);
	if (count < 1 || pthread_create(&t, NULL, spin, (void *)1L))
		return 2;
	own = spin(NULL);
	if (pthread_join(t, &res))
		return 2;
	return res || own ? 1 : 0;
}
