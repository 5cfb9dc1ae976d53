// SPDX-License-Identifier: GPL-2.0
/*
 * stack_garbage: passes uninitialised stack bytes to write (issue 25,
 * class 10, as tar passes nscd's sockaddr_un with a tail of stack garbage).
 * The bytes below the stack pointer are what earlier code left there: here,
 * the frames the kernel wrote for signal handlers (a plain handler, then an
 * SA_SIGINFO one).  The kernel leaves some bytes of a frame untouched
 * (padding, reserved words, the XSAVE areas of features not in use, the
 * siginfo of a handler without SA_SIGINFO), so a replay must write exactly
 * the bytes it wrote, no more.  Each write passes 2000 bytes: the recorder
 * hashes what a call passes in, and replay compares that hash.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int got;

static void on_usr1(int sig)
{
	got += sig;
}

static void on_usr2(int sig, siginfo_t *si, void *uc)
{
	got += sig + (si->si_signo == sig) + !uc;
}

/* the bytes a frame left where this function's locals are */
static __attribute__((noinline)) void leak(void)
{
	char garbage[4000];

	__asm__ volatile("" : : "r"(garbage) : "memory");
	if (write(1, garbage, 2000) != 2000 || write(1, garbage + 2000, 2000) != 2000)
		exit(2);
}

int main(void)
{
	struct sigaction sa;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_sigaction = on_usr2;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR2, &sa, NULL);
	for (i = 0; i < 4; i++) {
		kill(getpid(), i & 1 ? SIGUSR2 : SIGUSR1);
		leak();
	}
	return got == 2 * SIGUSR1 + 2 * (SIGUSR2 + 1) ? 0 : 1;
}
