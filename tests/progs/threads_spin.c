// SPDX-License-Identifier: GPL-2.0
/*
 * Threads that spin in user code without syscalls, each counting in a
 * register and storing the count to its own page every iteration, while the
 * main thread makes syscalls (short sleeps).  At every interval start a
 * spinner's recorded registers must agree with the recorded memory:
 * tests/record_threads.c.
 *
 * spin_run(slot, stop): r12 is the count, rbx the slot, r13 the stop flag.
 * Interrupted at spin_store, the slot holds r12 - 1; anywhere else in the
 * loop it holds r12.  Usage: threads_spin [MILLISECONDS]
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define NSPIN 3

uint64_t spin_slots[NSPIN][512] __attribute__((aligned(4096)));
volatile uint8_t spin_stop[4096] __attribute__((aligned(4096)));

uint64_t spin_run(uint64_t *slot, volatile uint8_t *stop);

__asm__(
	"	.text\n"
	"	.globl spin_run, spin_loop, spin_store, spin_end\n"
	"	.type spin_run, @function\n"
	"spin_run:\n"
	"	push %rbx\n"
	"	push %r12\n"
	"	push %r13\n"
	"	mov %rdi, %rbx\n"
	"	mov %rsi, %r13\n"
	"	xor %r12d, %r12d\n"
	"spin_loop:\n"
	"	add $1, %r12\n"
	"spin_store:\n"
	"	mov %r12, (%rbx)\n"
	"	cmpb $0, (%r13)\n"
	"	je spin_loop\n"
	"spin_end:\n"
	"	mov %r12, %rax\n"
	"	pop %r13\n"
	"	pop %r12\n"
	"	pop %rbx\n"
	"	ret\n"
	"	.size spin_run, . - spin_run\n");

static void *spinner(void *arg)
{
	return (void *)(uintptr_t)spin_run(spin_slots[(uintptr_t)arg], spin_stop);
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 1500, i;
	struct timespec t0, now, nap = { 0, 2000000 };
	pthread_t t[NSPIN];
	void *res;

	for (i = 0; i < NSPIN; i++)
		if (pthread_create(&t[i], NULL, spinner, (void *)i))
			return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		getppid();
		nanosleep(&nap, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - t0.tv_sec) * 1000 +
		 (now.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	spin_stop[0] = 1;
	for (i = 0; i < NSPIN; i++) {
		pthread_join(t[i], &res);
		printf("spinner %ld: %lu\n", i, (unsigned long)(uintptr_t)res);
	}
	return 0;
}
