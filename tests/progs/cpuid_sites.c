// SPDX-License-Identifier: GPL-2.0
/*
 * cpuid_sites: prints what cpuid tells about this CPU (leaf 0's vendor and
 * highest leaf, leaf 1's signature and feature words, leaf 7's), which
 * differs from one CPU model to another, so a replay elsewhere must answer
 * from the recording.  The cpuid of leaf 1 is at the global label
 * fr_cpuid_here; fr_decoy_here is an instruction whose immediate holds the
 * bytes of cpuid (0f a2) without being one (tests/checkpoint_rw.c,
 * user/lib/x86sites.c).
 */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static unsigned int decoy(unsigned int x)
{
	unsigned int r;

	__asm__ volatile(".globl fr_decoy_here\nfr_decoy_here:\n\tmovl $0x90a20f90, %0"
			 : "=r"(r));
	return r ^ x;
}

int main(void)
{
	unsigned int a, b, c, d, max;
	char vendor[13];

	__asm__ volatile("cpuid" : "=a"(max), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = 0;
	printf("vendor %s, max leaf %#x\n", vendor, max);
	__asm__ volatile(".globl fr_cpuid_here\nfr_cpuid_here:\n\tcpuid"
			 : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	/* ebx[31:24] is the APIC id of the CPU it ran on: left out */
	printf("leaf 1: eax %#x ebx %#x ecx %#x edx %#x\n", a, b & 0xffffff, c, d);
	if (max >= 7) {
		__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(7), "c"(0));
		printf("leaf 7: eax %#x ebx %#x ecx %#x edx %#x\n", a, b, c, d);
	}
	printf("decoy %#x\n", decoy(0));
	return 0;
}
