// SPDX-License-Identifier: GPL-2.0
/*
 * fault_regs: faults writing to FAULT_ADDR with known values in registers.
 * With FR_MODE=h in the environment a SIGSEGV handler writes the registers
 * it sees (ucontext) and the fault address to the file argv[1] and exits 0;
 * with FR_MODE=n it dies of the SIGSEGV.  tests/record_process.c compares
 * the recorded fault registers with the handler's, in two runs made alike
 * (same argv and environment sizes, no address randomisation).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#define FAULT_ADDR 0xdead000UL

static const char *out;

static void handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uint64_t rec[NGREG + 3];
	int fd;

	memcpy(rec, uc->uc_mcontext.gregs, sizeof(uc->uc_mcontext.gregs));
	rec[NGREG] = (uint64_t)(uintptr_t)si->si_addr;
	rec[NGREG + 1] = sig;
	rec[NGREG + 2] = si->si_code;
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, rec, sizeof(rec)) != sizeof(rec))
		_exit(3);
	_exit(0);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	const char *mode = getenv("FR_MODE");

	if (argc != 2 || !mode)
		return 2;
	out = argv[1];
	if (mode[0] == 'h') {
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = handler;
		sa.sa_flags = SA_SIGINFO;
		sigaction(SIGSEGV, &sa, NULL);
	} else {
		/* the same syscall, so both runs have the same state */
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_DFL;
		sigaction(SIGSEGV, &sa, NULL);
	}
	__asm__ volatile(
		"mov $0x1111, %%rbx\n\t"
		"mov $0x2222, %%rcx\n\t"
		"mov $0x3333, %%rdx\n\t"
		"mov $0x4444, %%rsi\n\t"
		"mov $0x5555, %%r8\n\t"
		"mov $0x6666, %%r9\n\t"
		"mov $0x7777, %%r10\n\t"
		"mov $0x8888, %%r11\n\t"
		"mov $0x9999, %%r12\n\t"
		"mov $0xaaaa, %%r13\n\t"
		"mov $0xbbbb, %%r14\n\t"
		"mov $0xcccc, %%r15\n\t"
		"mov %0, %%rdi\n\t"
		"movq $0x42, (%%rdi)\n\t"
		: : "i"(FAULT_ADDR)
		: "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11",
		  "r12", "r13", "r14", "r15", "memory");
	return 1;
}
