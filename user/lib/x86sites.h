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
 * table) lands on it as a cpuid instruction.
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
 * x86 ELF file, no .eh_frame_hdr, an encoding not handled.
 */
int fr_cpuid_sites(int fd, struct fr_sites *s, char *why, size_t whylen);
void fr_sites_free(struct fr_sites *s);

#endif /* FLIGHTREC_X86SITES_H */
