/* SPDX-License-Identifier: GPL-2.0 */
/* libflightrec: the userspace side of flightrec. */
#ifndef LIBFLIGHTREC_H
#define LIBFLIGHTREC_H

#include <stdint.h>
#include <stddef.h>

/* Exit codes of the flightrec command (also shown by flightrec --help). */
#define FR_EXIT_OK		0	/* success; replay: ended as recorded */
#define FR_EXIT_FAIL		1	/* the operation failed or was refused */
#define FR_EXIT_BADFILE		2	/* a checkpoint file is damaged or not one */
#define FR_EXIT_NOMODULE	3	/* the flightrec module is not loaded */
#define FR_EXIT_ABI		4	/* the module speaks another ABI version */
#define FR_EXIT_DIVERGED	5	/* replay: the program left the recorded path */
#define FR_EXIT_MISMATCH	6	/* replay: the end differs from the recorded one */
#define FR_EXIT_USAGE		64	/* bad command line */

#define FR_EXIT_CODES_HELP \
	"exit status:\n" \
	"  0  success (replay: the recorded end was reproduced)\n" \
	"  1  the operation failed or was refused\n" \
	"  2  a checkpoint file is damaged or not a checkpoint\n" \
	"  3  the flightrec module is not loaded\n" \
	"  4  the module speaks another ABI version\n" \
	"  5  replay diverged from the recording\n" \
	"  6  replay ended differently from the recording\n" \
	" 64  bad command line\n"

#define FR_TOOL_VERSION "0.1.0"

#endif /* LIBFLIGHTREC_H */
