// SPDX-License-Identifier: GPL-2.0
/*
 * stack_grow: grows the main thread's stack by about 2 MiB of recursion
 * (fresh pages the kernel maps as the stack grows down), from a worker
 * thread's stack too, writes a pattern into every frame and prints a sum of
 * it.  Recorded from exec and replayed, the sums must be the same
 * (tests/replay_module.c): the new stack pages were zero when the interval
 * began and replay must map and fill them so.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <unistd.h>

static uint64_t __attribute__((noinline)) dive(int depth, uint64_t seed)
{
	volatile uint8_t frame[4000];
	uint64_t sum = 0;
	int i;

	for (i = 0; i < (int)sizeof(frame); i += 64)
		frame[i] = (uint8_t)(seed * 31 + depth + i);
	if (depth)
		sum = dive(depth - 1, seed * 6364136223846793005ULL + 1);
	for (i = 0; i < (int)sizeof(frame); i += 64)
		sum = sum * 131 + frame[i];
	return sum;
}

static void *worker(void *arg)
{
	return (void *)(uintptr_t)dive(100, (uintptr_t)arg);
}

int main(void)
{
	pthread_t t;
	void *r;
	int round;

	for (round = 0; round < 3; round++) {
		printf("main round %d: %llx\n", round,
		       (unsigned long long)dive(500 + 10 * round, round));
		fflush(stdout);
		usleep(300000);	/* an interval boundary or two */
	}
	pthread_create(&t, NULL, worker, (void *)7);
	pthread_join(t, &r);
	printf("worker: %llx\n", (unsigned long long)(uintptr_t)r);
	return 0;
}
