/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MEM_BIG_H
#define MEM_BIG_H

/* getpriority(PRIO_PROCESS, MB_MARK): mem_big unmap's call after its munmap */
#define MB_MARK	0x7e5b00
/* the pages mem_big unmap reads before its munmap: byte offsets in SIZE */
#define MB_READ_MID(size)	((size) / 2 + 5 * 4096)
#define MB_READ_LAST(size)	((size) - 4096)

#endif
