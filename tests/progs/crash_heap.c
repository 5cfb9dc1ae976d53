// SPDX-License-Identifier: GPL-2.0
/*
 * A heap overflow: a string copied past its buffer smashes the next chunk's
 * header; free() notices and glibc aborts (SIGABRT sent by the process).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptsnap_marker.h"

int main(void)
{
	char *a, *b;
	size_t i;

	ptsnap_marker();
	a = malloc(24);
	b = malloc(24);
	strcpy(b, "victim");
	printf("a=%p b=%p\n", (void *)a, (void *)b);
	fflush(stdout);
	for (i = 0; i < 64; i++)	/* 40 bytes too many */
		a[i] = (char)('A' + i % 26);
	free(b);
	free(a);
	printf("not reached\n");
	return 0;
}
