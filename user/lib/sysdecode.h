/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libflightrec: strace-style decoding of recorded syscalls, driven by the
 * syscall table (argument letters, descriptors, flags).
 *
 *   4242 openat(AT_FDCWD, "/etc/hosts", O_RDONLY|O_CLOEXEC) = 3
 *   4242 read(3, "127.0.0.1\tlocalhost\n"..., 4096) = 52
 *   4242 openat(AT_FDCWD, 0x55d0c0de1000, O_RDONLY) = -1 ENOENT (No such file or directory)
 */
#ifndef FLIGHTREC_SYSDECODE_H
#define FLIGHTREC_SYSDECODE_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * Bytes recorded for one argument: the data at addr, as the process saw it
 * (outs: at syscall exit; ins: at entry).  arg is the argument index 0..5;
 * views with another arg (data the kernel found through a pointer, such as a
 * msghdr's iovecs) are not shown.  Several views of one arg (an iovec
 * array's segments) are shown as a list, in order.
 */
struct fr_out_view {
	unsigned int arg;
	uint64_t addr;
	const uint8_t *data;
	size_t len;
};

/* flags of fr_sysdecode_print */
#define FR_SD_NOTID	0x1	/* no "tid " at the start of the line */
#define FR_SD_FULL	0x2	/* buffers in full, not cut at FR_SD_ABBREV bytes */
#define FR_SD_NORET	0x4	/* the call has not returned (or never does): "= ?" */
#define FR_SD_REAL_NR	0x8	/* a syscall, though its number is an event's
				 * (FLIGHTREC_SC_REAL_NR) */

#define FR_SD_ABBREV	32	/* bytes of a buffer shown before "..." */

/* One line, '\n' included. */
void fr_sysdecode_print(FILE *f, pid_t tid, unsigned int nr,
			const uint64_t args[6], int64_t ret,
			const struct fr_out_view *outs, size_t nouts,
			unsigned int flags);

/*
 * The same, with the input data of the call where it was recorded: paths
 * and written buffers are then shown as strings instead of pointers.
 * fdpaths (NULL, or FR_SD_FDPATHS entries, NULL where unknown): the path
 * each file descriptor argument names (entries 0-5) and the one the call
 * returns (entry 6), shown as strace -y does: 3</etc/passwd>.
 */
#define FR_SD_FDPATHS	7
void fr_sysdecode_print_io(FILE *f, pid_t tid, unsigned int nr,
			   const uint64_t args[6], int64_t ret,
			   const struct fr_out_view *ins, size_t nins,
			   const struct fr_out_view *outs, size_t nouts,
			   unsigned int flags, const char *const *fdpaths);

/*
 * The records of the syscall stream that are not syscalls
 * (FLIGHTREC_NR_SIGNAL, FLIGHTREC_NR_RDTSC): "<signal>", "<rdtsc>"; NULL
 * for anything else.  fr_sysdecode_print shows them as
 *   4242 <signal SIGUSR1 code 0 after read = -ERESTARTSYS, restart>
 *   4242 <rdtsc> = 0x1234 at rip 0x401136
 */
const char *fr_pseudo_name(unsigned int nr);

/*
 * The name of a number outside the table: "syscall_335", in hex from 0x1000
 * on as strace shows them ("syscall_0x17b9", "syscall_0xffffffff" for -1).
 */
void fr_sysdecode_unknown_name(char *buf, size_t len, unsigned int nr);

/* "SIGSEGV", "SIGRT_3"; NULL for 0 or out of range. */
const char *fr_signal_name(int sig);

/* Escapes len bytes as a C string literal body (no quotes); returns f's count. */
int fr_sysdecode_escape(FILE *f, const uint8_t *data, size_t len);

#endif /* FLIGHTREC_SYSDECODE_H */
