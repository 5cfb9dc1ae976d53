// SPDX-License-Identifier: GPL-2.0
/*
 * A thread blocked in a syscall across many interval starts, with a known
 * pattern in its vector registers: the boundaries take its context from
 * another thread, and the context must carry its XSAVE area with the
 * pattern (tests/record_threads.c, blocked_thread_xsave).
 *
 * The reader thread loads xmm0-xmm15 with byte 16 * i + j = 0x40 + 16 * i + j
 * (register i, byte j), spins until the main thread sets `go`, then reads
 * one byte from a pipe with a bare syscall instruction; after it returns it
 * checks that the registers still hold the pattern.  The main thread sleeps
 * in short naps for MILLISECONDS (default 600), sets `go` half way, then
 * writes the byte.  Exit status 0 when the pattern survived.  The reader's
 * contexts are its own while it spins, taken from outside while it waits;
 * between the symbols fpu_loaded and fpu_done (the syscall's return address)
 * its registers hold the pattern.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static int fds[2];
static volatile uint8_t go;

#define XMM_ALL(op) \
	op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) \
	op(8) op(9) op(10) op(11) op(12) op(13) op(14) op(15)

__attribute__((noinline, noclone)) static void *reader(void *arg)
{
	static uint8_t want[16][16], got[16][16];
	long ret;
	char c;
	int i, j;

	(void)arg;
	for (i = 0; i < 16; i++)
		for (j = 0; j < 16; j++)
			want[i][j] = 0x40 + 16 * i + j;
#define LOAD(n) "movdqu " #n "*16(%[w]), %%xmm" #n "\n\t"
#define SAVE(n) "movdqu %%xmm" #n ", " #n "*16(%[g])\n\t"
	__asm__ volatile(XMM_ALL(LOAD)
			 ".globl fpu_loaded\n"
			 "fpu_loaded:\n\t"
			 "cmpb $0, (%[go])\n\t"
			 "je fpu_loaded\n\t"
			 "syscall\n"
			 ".globl fpu_done\n"
			 "fpu_done:\n\t"
			 XMM_ALL(SAVE)
			 : "=a"(ret)
			 : [w] "r"(want), [g] "r"(got), [go] "r"(&go),
			   "a"((long)SYS_read),
			   "D"((long)fds[0]), "S"(&c), "d"(1L)
			 : "rcx", "r11", "memory",
			   "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
			   "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",
			   "xmm13", "xmm14", "xmm15");
	if (ret != 1 || memcmp(want, got, sizeof(want)))
		return (void *)1;
	return NULL;
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 600;
	struct timespec t0, now, nap = { 0, 5000000 };
	pthread_t t;
	void *res;

	if (pipe(fds) || pthread_create(&t, NULL, reader, NULL))
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		nanosleep(&nap, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - t0.tv_sec) * 1000 +
		    (now.tv_nsec - t0.tv_nsec) / 1000000 >= ms / 2)
			go = 1;
	} while ((now.tv_sec - t0.tv_sec) * 1000 +
		 (now.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	if (write(fds[1], "x", 1) != 1 || pthread_join(t, &res))
		return 2;
	return res ? 1 : 0;
}
