/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The marker instructions of the insnprof plugin (tbcount.c): a nop with a
 * displacement no compiler emits.  FR_INSN_MARK_START zeroes the plugin's
 * counts, FR_INSN_MARK_STOP freezes them; without the plugin both are nops.
 */
#ifndef FR_INSN_MARK_H
#define FR_INSN_MARK_H

/* nopl disp32(%rax): 0f 1f 80, then "FMKT" / "FMKP" */
#define FR_INSN_MARK_START() \
	__asm__ volatile(".byte 0x0f, 0x1f, 0x80, 'F', 'M', 'K', 'T'" ::: "memory")
#define FR_INSN_MARK_STOP() \
	__asm__ volatile(".byte 0x0f, 0x1f, 0x80, 'F', 'M', 'K', 'P'" ::: "memory")

#endif
