// SPDX-License-Identifier: GPL-2.0
/*
 * sig_avx: the upper half of a YMM register across a signal handler.
 * ymm8 is loaded with a pattern, a tgkill() in the same asm block raises
 * SIGUSR1 (delivered as the call returns), the handler zeroes ymm8, and
 * rt_sigreturn must bring the pattern back from the frame's XSAVE area.
 * Prints the 32 bytes found in ymm8 afterwards, in hex.  Exit 4 where
 * this CPU has no AVX.  (tests/replay_module, signal_frame_other_layout)
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

static void on_usr1(int sig)
{
	(void)sig;
	__asm__ volatile("vpxor %%ymm8, %%ymm8, %%ymm8" ::: "xmm8");
}

int main(void)
{
	unsigned char in[32], out[32];
	struct sigaction sa;
	long pid = getpid(), tid = syscall(SYS_gettid);
	int i;

	if (!__builtin_cpu_supports("avx"))
		return 4;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	for (i = 0; i < 32; i++)
		in[i] = (unsigned char)(0xa0 + i);
	memset(out, 0, sizeof(out));
	__asm__ volatile("vmovdqu (%[in]), %%ymm8\n\t"
			 "mov %[nr], %%eax\n\t"
			 "syscall\n\t"
			 "vmovdqu %%ymm8, (%[out])\n\t"
			 :
			 : [in] "r"(in), [out] "r"(out), [nr] "i"(SYS_tgkill),
			   "D"(pid), "S"(tid), "d"(SIGUSR1)
			 : "rax", "rcx", "r11", "memory", "xmm8");
	for (i = 0; i < 32; i++)
		printf("%02x", out[i]);
	printf("\n");
	return 0;
}
