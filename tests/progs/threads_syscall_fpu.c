// SPDX-License-Identifier: GPL-2.0
/*
 * Two threads, each with its own pattern in xmm0-xmm15, each making
 * system calls back to back (a bare syscall instruction): at most interval
 * starts one of them cuts the interval while the other is inside a call,
 * running in the kernel on the other CPU.  The context taken of that other
 * thread must carry its XSAVE area with its pattern
 * (tests/record_threads.c, running_thread_xsave).
 *
 * The calls: fallocate(fd, 0, 0, LEN), then a hole punched over the same
 * range, on a memfd of the thread's own.  They run in the kernel (LEN / 4
 * KiB pages allocated and freed) for most of the thread's time, without
 * sleeping, without touching the user FPU state, and with small records.
 * A getppid loop, the first version, was inside its call at 0 to 2 of 40
 * to 80 interval starts under QEMU 10 (s58), and the test failed for want
 * of such contexts; a pwrite64 of 16 or 64 KiB at 10 to 19 of 50 to 120.
 *
 * Thread k (0: main, 1: the other) loads register i byte j with
 * 0x40 * (k + 1) + 16 * i + j, then makes pairs of calls in the loop
 * between the symbols fpu_spin_loaded and fpu_spin_done, then checks that
 * the registers still hold the pattern.  LEN: thread k's is argument
 * k + 2, default 256 KiB.  The thread with the larger LEN makes COUNT
 * pairs (first argument, default 4000), the other as many as make the
 * same number of bytes; the first to be done ends the other's loop too
 * (fpu_stop), so that the last intervals have both threads in their loops
 * (on a debug kernel each call's recording outweighs a 256 KiB call's own
 * work, and the other thread ended long before).  Exit
 * status 0 when both patterns survived and every call succeeded; 1 when a
 * pattern did not survive; 3 when a call failed with EINTR, which no
 * signal of the program's caused; 2 on any other failure.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define XMM_ALL(op) \
	op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) \
	op(8) op(9) op(10) op(11) op(12) op(13) op(14) op(15)

static long count = 4000, len[2] = { 262144, 262144 };
static volatile int started;
/* set by the first thread out of its loop: the other leaves its own */
volatile int fpu_stop;

__attribute__((noinline, noclone)) static void *spin(void *arg)
{
	uint8_t want[16][16], got[16][16];
	long k = (long)arg, fd, bad = 0;
	/* as many bytes each: the threads' loops take about as long */
	long left = count * (len[0] > len[1] ? len[0] : len[1]) / len[k];
	int i, j;

	fd = memfd_create(k ? "fpu1" : "fpu0", 0);
	if (fd < 0)
		return (void *)2;

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
			 "cmpl $0, %[stop]\n\t"
			 "jne fpu_spin_done\n\t"
			 /* fallocate(fd, 0, 0, len) */
			 "movl %[nr], %%eax\n\t"
			 "xorl %%esi, %%esi\n\t"
			 "xorl %%edx, %%edx\n\t"
			 "movq %[len], %%r10\n\t"
			 "syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "je 1f\n\t"
			 "movq %%rax, %[bad]\n"
			 "1:\n\t"
			 /* fallocate(fd, PUNCH_HOLE | KEEP_SIZE, 0, len) */
			 "movl %[nr], %%eax\n\t"
			 "movl $3, %%esi\n\t"
			 "syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "je 2f\n\t"
			 "movq %%rax, %[bad]\n"
			 "2:\n\t"
			 "dec %[left]\n\t"
			 "jnz fpu_spin_loaded\n"
			 ".globl fpu_spin_done\n"
			 "fpu_spin_done:\n\t"
			 XMM_ALL(SAVE)
			 : [left] "+r"(left), [bad] "+r"(bad)
			 : [w] "r"(want), [g] "r"(got), [nr] "i"(SYS_fallocate),
			   [stop] "m"(fpu_stop),
			   "D"(fd), [len] "r"(len[k])
			 : "rax", "rcx", "rdx", "rsi", "r10", "r11", "memory",
			   "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
			   "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",
			   "xmm13", "xmm14", "xmm15");
	__atomic_store_n(&fpu_stop, 1, __ATOMIC_SEQ_CST);
	close((int)fd);
	if (bad == -EINTR)
		return (void *)3;
	if (bad)
		return (void *)2;
	return memcmp(want, got, sizeof(want)) ? (void *)1 : NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	void *res, *own;

	if (argc > 1)
		count = atol(argv[1]);
	if (argc > 2)
		len[0] = atol(argv[2]);
	if (argc > 3)
		len[1] = atol(argv[3]);

	if (count < 1 || len[0] < 1 || len[1] < 1 || pthread_create(&t, NULL, spin, (void *)1L))
		return 2;
	own = spin(NULL);
	if (pthread_join(t, &res))
		return 2;
	if (res == (void *)3 || own == (void *)3)
		return 3;
	if (res == (void *)2 || own == (void *)2)
		return 2;
	return res || own ? 1 : 0;
}
