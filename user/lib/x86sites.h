/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86sites.h - where a mapped ELF file's code executes cpuid.
 *
 * A recorded process's start-up code reads the CPU's identification with
 * cpuid.  A replay machine that can make cpuid fault (ARCH_SET_CPUID) answers
 * from the recorded leaves; one that cannot (AMD before Zen 4, most guests)
 * patches each cpuid instruction of the checkpoint's code to ud2 instead, as
 * it does for rdtsc.  The recording machine, which still has the files,
 * finds those instructions: every 0f a2 in the executable segments, kept
 * only where a disassembly from the start of its function (the .eh_frame_hdr
 * table) lands on it as a cpuid instruction.  The disassembler (capstone)
 * runs in a helper process of its own (x86scan.c, user/sites.c).
 */
#ifndef FLIGHTREC_X86SITES_H
#define FLIGHTREC_X86SITES_H

#include <stddef.h>
#include <stdint.h>

struct fr_sites {
	uint64_t *off;		/* file offsets of cpuid instructions, ascending */
	size_t n;
	size_t unverified;	/* 0f a2 bytes not shown to be an instruction */
};

/*
 * The cpuid sites of the ELF file open at @fd, into @s (free with
 * fr_sites_free).  Returns 0, or -errno with a reason in @why: not a 64-bit
 * x86 ELF file, no .eh_frame_hdr, an encoding not handled, or (for
 * fr_cpuid_sites) the helper could not be run or did not answer.
 *
 * fr_cpuid_sites asks the helper flightrec-sites (user/sites.c), started at
 * the first call and kept until fr_sites_helper_stop() or this process's
 * end; FLIGHTREC_SITES names it, else it is looked for beside this program
 * (fr_helper_path).  fr_cpuid_scan does the work in this process and needs
 * capstone linked in (x86scan.c): only the helper calls it.
 */
int fr_cpuid_sites(int fd, struct fr_sites *s, char *why, size_t whylen);
int fr_cpuid_scan(int fd, struct fr_sites *s, char *why, size_t whylen);
void fr_sites_free(struct fr_sites *s);

/*
 * The helper's pid, 0 when none runs; and its end: its socket closed, the
 * helper waited for.  Returns its wait status (0: it ended well), or -1
 * when none ran.
 */
int fr_sites_helper_pid(void);
int fr_sites_helper_stop(void);

/*
 * The helper's protocol, on the stream socket that is its fd 0: a request
 * is one byte 'S' with the file's descriptor (SCM_RIGHTS); the answer is a
 * struct fr_sites_reply, then n file offsets (uint64_t).  End of file on
 * the socket ends the helper.
 */
#define FR_SITES_MAX	65536u	/* offsets in one answer, at most */

struct fr_sites_reply {
	int32_t err;		/* 0 or -errno */
	uint32_t n;
	uint64_t unverified;
	char why[240];		/* NUL-terminated */
};

#endif /* FLIGHTREC_X86SITES_H */
