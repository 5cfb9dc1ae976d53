/* SPDX-License-Identifier: GPL-2.0 */
/* The replay sandbox (sandbox.c): the loader's seccomp filter. */
#ifndef FLIGHTREC_LOADER_SANDBOX_H
#define FLIGHTREC_LOADER_SANDBOX_H

#include <stdint.h>

#define FR_SANDBOX_MAX_FDS	1024

struct fr_sandbox {
	int pid;			/* this process: tgkill, process_vm_* */
	int stdout_ok;			/* --show-output: write to fd 1 */
	int raise_sig;			/* under gdb: the fatal signal sent for real, SIGTRAP
					 * for a stop at a dump point, or 0 */
	unsigned int n_fds;
	uint64_t clone_flags;		/* the only clone flags allowed */
	/*
	 * Under the gdbserver (-G), which is our ptracer: tgkill and
	 * process_vm_* on any pid, and a fork (clone flags SIGCHLD), go to it
	 * (SECCOMP_RET_TRACE), which lets them through only on this process
	 * and only the forks it made for its snapshots: a snapshot has
	 * another pid than the one this filter was built with.
	 */
	int traced;
	int fds[FR_SANDBOX_MAX_FDS];	/* the output files, opened before */
};

/* no_new_privs, then the filter; 0 or -errno */
long fr_sandbox_install(const struct fr_sandbox *sb);

#endif /* FLIGHTREC_LOADER_SANDBOX_H */
