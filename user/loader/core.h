/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An ELF core of the replayed application (core.c): `flightrec replay
 * --core PATH`.  The loader tells it the application's address space as it
 * changes (the regions it maps at the start, then every replayed mmap,
 * munmap, mprotect, mremap and brk) and, at the end, each thread's
 * registers; core_write() then writes what gdb and other debuggers open
 * as the core of a Linux x86_64 process.
 */
#ifndef FLIGHTREC_LOADER_CORE_H
#define FLIGHTREC_LOADER_CORE_H

#include <stdint.h>
#include "image.h"

/* the application's address space, as the loader maps it */
void core_map(uint64_t start, uint64_t end, uint32_t prot);
void core_unmap(uint64_t start, uint64_t end);
void core_protect(uint64_t start, uint64_t end, uint32_t prot);
void core_move(uint64_t from, uint64_t oldlen, uint64_t to, uint64_t newlen);

struct core_thread {
	uint32_t tid;
	struct fri_regs regs;		/* user_regs_struct order */
	const void *fp;			/* FXSAVE/XSAVE area (the signal frame's), or NULL */
	uint32_t fp_size;		/* its bytes: 512 for FXSAVE only */
	uint64_t sigmask;
};

struct core_info {
	int fd;				/* the file, written sequentially */
	int pid;			/* the recorded pid */
	int sig;			/* the signal that ended it, or 0 */
	int code, err;			/* siginfo: si_code, si_errno */
	uint64_t fault_addr;		/* siginfo: si_addr */
	const char *comm;
	const struct fri_region *regions;	/* the image's, for NT_FILE */
	uint32_t n_regions;
	const uint8_t *base;		/* the image: region names */
	const uint64_t *auxv;		/* (type, value) pairs to AT_NULL, or NULL */
	uint32_t n_threads;
	const struct core_thread *threads;	/* the one that ended the run first */
};

/* 0, or -errno with the step that failed in why */
long core_write(const struct core_info *ci, const char **why);

#endif /* FLIGHTREC_LOADER_CORE_H */
