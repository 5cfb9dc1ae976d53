/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flightrec replay --gdbserver: the replay as a GDB remote-protocol target.
 * user/cmd/gdbserver.c; docs/replay.md, "gdbserver".
 */
#ifndef FLIGHTREC_GDBSERVER_H
#define FLIGHTREC_GDBSERVER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "checkpoint.h"

/*
 * The file for a recorded object (by build ID, then name), or false.
 * need_code: a file gdb can load as the program itself (not a separate
 * debug file, whose segments hold no bytes).
 */
typedef bool (*fr_gs_find_symbols)(void *ctx, const char *path, const char *build_id,
				   bool need_code, char *out, size_t len);

/* an ELF file with the bytes of an executable segment (not a separate debug file) */
bool fr_elf_has_code(const char *path);

struct fr_gdbserver {
	const struct flrc *c;		/* the checkpoint: auxv, maps, pid, XCR0 */
	uint32_t from;			/* the interval replayed */
	fr_gs_find_symbols find_symbols;
	void *find_ctx;
	const char *loader;		/* the loader's file: fr_sigreturn_insn */
	pid_t pid;			/* the loader, PTRACE_SEIZEd, not yet exec'd */
	int chan;			/* read end of the loader's -G channel */
	int listen_fd;			/* bound and listening */
	const char *listen_name;	/* HOST:PORT as bound, for the message */
	bool quiet;
	bool tsc_patched;		/* the loader patches rdtsc sites to ud2 */
	bool cpuid_patched;		/* and cpuid sites (FRI_F_PATCH_CPUID) */
	int status_fd;			/* -1, or where "ended N\n" goes when the replay ends */
	/*
	 * Reverse execution: a fresh loader on the same image, seized, not yet
	 * exec'd (its output files replaced); 0, or -1 with a message.
	 */
	int (*respawn)(void *ctx, pid_t *pid, int *chan);
	void *respawn_ctx;
};

/* Parses [HOST:]PORT (default host 127.0.0.1) and listens; -1 with a message. */
int fr_gdbserver_listen(const char *spec, char *name, size_t len);

/* Serves one gdb connection to the replay's end; returns the replay's status. */
int fr_gdbserver_run(struct fr_gdbserver *s);

#endif
