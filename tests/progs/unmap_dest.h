/* SPDX-License-Identifier: GPL-2.0 */
/* shared by tests/progs/unmap_dest.c and tests/record_memory.c */
#ifndef UNMAP_DEST_H
#define UNMAP_DEST_H

#define UD_A	0x200000000UL
#define UD_B	0x200010000UL
#define UD_S	0x200020000UL
#define UD_MARK	0x7e5900

#endif
