// SPDX-License-Identifier: GPL-2.0
/*
 * vdso_spin - a thread that calls the vDSO's __vdso_clock_gettime
 * (CLOCK_MONOTONIC_COARSE, answered in the vDSO) in a loop, and a main
 * thread that prints "ENTRY TID" (the function's address and the
 * spinning thread's id), waits for the end of its stdin and exits 0
 * (record_vdso.c, patched_with_a_thread_inside: the test stops the
 * spinning thread a few bytes into the function).
 */
#include <elf.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/syscall.h>

typedef int (*gettime_fn)(clockid_t, struct timespec *);

static volatile pid_t spin_tid;

/* __vdso_clock_gettime from the vDSO's dynamic symbols */
static gettime_fn vdso_sym(const char *name)
{
	const unsigned char *base = (const void *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const void *)base;
	const Elf64_Shdr *sh;
	const Elf64_Sym *sym;
	const char *str;
	uintptr_t load = 0;
	int i, j;

	if (!base)
		return NULL;
	sh = (const void *)(base + eh->e_shoff);
	for (i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const void *)(base + eh->e_phoff) + i * eh->e_phentsize;

		if (ph->p_type == PT_LOAD) {
			load = (uintptr_t)base + ph->p_offset - ph->p_vaddr;
			break;
		}
	}
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_DYNSYM)
			continue;
		sym = (const void *)(base + sh[i].sh_offset);
		str = (const char *)base + sh[sh[i].sh_link].sh_offset;
		for (j = 0; j < (int)(sh[i].sh_size / sizeof(*sym)); j++)
			if (!strcmp(str + sym[j].st_name, name))
				return (gettime_fn)(load + sym[j].st_value);
	}
	return NULL;
}

static void *spin(void *arg)
{
	gettime_fn fn = arg;
	struct timespec ts;

	spin_tid = syscall(SYS_gettid);
	for (;;)
		fn(CLOCK_MONOTONIC_COARSE, &ts);
	return NULL;
}

int main(int argc, char **argv)
{
	gettime_fn fn = vdso_sym("__vdso_clock_gettime");
	pthread_t th;
	char c;

	(void)argv;
	if (argc != 1 || !fn)
		return 2;
	if (pthread_create(&th, NULL, spin, (void *)fn))
		return 3;
	while (!spin_tid)
		usleep(1000);
	printf("%lx %d\n", (unsigned long)fn, (int)spin_tid);
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	return 0;
}
