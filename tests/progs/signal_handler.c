// SPDX-License-Identifier: GPL-2.0
/*
 * Synchronous signals handled by the program: writes to read-only pages
 * fault, the SIGSEGV handler logs the address and makes the page writable,
 * the write is retried (the pattern of garbage collectors' write barriers).
 * A SIGFPE handler on a sigaltstack records the fault and skips the idiv.
 * Then the SIGSEGV handler is reset and a NULL write ends the program.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <ucontext.h>
#include <sys/mman.h>
#include "ptsnap_marker.h"

static char *area;
static volatile int faults, fpes;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	char line[80];
	char *page = (char *)((uintptr_t)si->si_addr & ~4095ul);
	int len;

	(void)uc;
	faults++;
	len = snprintf(line, sizeof(line), "fault %d: signal %d at page %ld\n", faults, sig,
		       (long)(page - area) / 4096);
	if (write(1, line, (size_t)len) != len)
		_exit(3);
	if (mprotect(page, 4096, PROT_READ | PROT_WRITE))
		_exit(4);
}

static void on_fpe(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig;
	(void)si;
	fpes++;
	/* skip the 2-byte "idiv %ecx" (f7 f9) with the quotient set to -1 */
	uc->uc_mcontext.gregs[REG_RIP] += 2;
	uc->uc_mcontext.gregs[REG_RAX] = -1;
}

static __attribute__((noinline)) int divide(int a, int b)
{
	int q;

	__asm__ volatile("cltd; idiv %%ecx" : "=a"(q) : "a"(a), "c"(b) : "edx");
	return q;
}

int main(void)
{
	static char altstack[65536];
	struct sigaction sa;
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	int i;

	ptsnap_marker();
	area = mmap(NULL, 4 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	sigaltstack(&ss, NULL);
	sa.sa_sigaction = on_fpe;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigaction(SIGFPE, &sa, NULL);
	for (i = 0; i < 4; i++)
		area[i * 4096 + 7] = (char)('a' + i);	/* each faults once */
	printf("after %d faults: %c%c%c%c\n", faults, area[7], area[4096 + 7], area[8192 + 7],
	       area[12288 + 7]);
	for (i = 3; i >= 0; i--)
		printf("100 / %d = %d\n", i, divide(100, i));
	printf("%d SIGFPE handled\n", fpes);
	fflush(stdout);
	signal(SIGSEGV, SIG_DFL);
	*(volatile int *)(uintptr_t)(faults - 4) = 1;	/* NULL: the end */
	return 0;
}
