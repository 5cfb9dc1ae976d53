// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the checkpoint reader on arbitrary bytes.  It must
 * return 0 or an error with a message, never crash, leak or allocate
 * without bound.  Built by tests/fuzz.mk with clang
 * -fsanitize=fuzzer,address,undefined; seed corpus in tests/corpus/checkpoint.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	struct flrc *c;
	size_t i;

	err[0] = '\0';
	if (flrc_read_mem(data, size, &c, err, sizeof(err))) {
		if (!err[0])
			abort();	/* every error says why */
		return 0;
	}
	/* Walk what the reader promises to be valid. */
	for (i = 0; i < c->n_pages; i++) {
		const struct flrc_page *p = &c->pages[i];
		volatile uint8_t sink;

		if (!p->zero && !p->data)
			abort();
		if (p->data)
			sink = p->data[0] ^ p->data[FLRC_PAGE_SIZE - 1];
		if (flrc_page_at(c, p->interval, p->addr) != p)
			abort();
		(void)sink;
	}
	if (!c->end || !c->hdr || !flrc_nr_intervals(c))
		abort();
	flrc_page_at(c, flrc_first_interval(c), 0x400000);
	flrc_free(c);
	return 0;
}
