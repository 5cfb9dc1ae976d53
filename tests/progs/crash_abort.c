// SPDX-License-Identifier: GPL-2.0
/* An assertion that fails: abort() raises SIGABRT in the process itself. */
#include <assert.h>
#include <stdio.h>
#include <string.h>
#include "ptsnap_marker.h"

int main(void)
{
	char line[64];
	int depth = 0;

	ptsnap_marker();
	strcpy(line, "((a)(b)))");
	for (size_t i = 0; i < strlen(line); i++) {
		depth += line[i] == '(' ? 1 : line[i] == ')' ? -1 : 0;
		printf("%c depth %d\n", line[i], depth);
		fflush(stdout);
		assert(depth >= 0);
	}
	return 0;
}
