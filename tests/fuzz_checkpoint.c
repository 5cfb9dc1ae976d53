// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the checkpoint reader on arbitrary bytes.  It must
 * return 0 or an error with a message, never crash, leak or allocate
 * without bound; what it accepts whole it accepts lazily (FLRC_LAZY_PAGES)
 * with the same page bytes from flrc_page_load().  Checked on load
 * (FLRC_CHECK_ON_LOAD), it accepts a file and loads every page exactly when
 * the lazy read accepts it.  Built by tests/fuzz.mk with clang
 * -fsanitize=fuzzer,address,undefined; seed corpus in tests/corpus/checkpoint.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Read with FLRC_CHECK_ON_LOAD: 1 when it accepted the file and every page
 * loaded; 0 when it refused it or a page did not load (which says why).
 */
static int all_load(const uint8_t *data, size_t size)
{
	static uint8_t buf[FLRC_PAGE_SIZE];
	char err[512];
	struct flrc *c;
	size_t i;
	int ok = 1;

	err[0] = '\0';
	if (flrc_read_mem_flags(data, size, FLRC_LAZY_PAGES | FLRC_CHECK_ON_LOAD, &c, err,
				sizeof(err))) {
		if (!err[0])
			abort();
		return 0;
	}
	for (i = 0; ok && i < c->n_pages; i++) {
		if (c->pages[i].data)
			abort();
		if (flrc_page_load(c, &c->pages[i], buf)) {
			err[0] = '\0';
			flrc_page_error(c, &c->pages[i], buf, err, sizeof(err));
			if (!err[0])
				abort();
			ok = 0;
		}
	}
	flrc_free(c);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[FLRC_PAGE_SIZE], zero[FLRC_PAGE_SIZE];
	char err[512];
	struct flrc *c, *lazy;
	size_t i;

	err[0] = '\0';
	if (flrc_read_mem(data, size, &c, err, sizeof(err))) {
		if (!err[0])
			abort();	/* every error says why */
		/* checked on load, as the lazy read (the same memory bounds) */
		if (!flrc_read_mem_flags(data, size, FLRC_LAZY_PAGES, &lazy, err, sizeof(err))) {
			flrc_free(lazy);
			if (!all_load(data, size))
				abort();
		} else if (all_load(data, size)) {
			abort();
		}
		return 0;
	}
	if (!all_load(data, size))
		abort();
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
	/* the lazy read accepts it too, and loads the same bytes */
	if (flrc_read_mem_flags(data, size, FLRC_LAZY_PAGES, &lazy, err, sizeof(err)) ||
	    lazy->n_pages != c->n_pages)
		abort();
	for (i = 0; i < c->n_pages; i++) {
		const struct flrc_page *p = &c->pages[i];

		if (lazy->pages[i].data || flrc_page_load(lazy, &lazy->pages[i], buf) ||
		    (p->data ? memcmp(buf, p->data, FLRC_PAGE_SIZE) :
			       memcmp(buf, zero, FLRC_PAGE_SIZE)))
			abort();
	}
	flrc_free(lazy);
	flrc_free(c);
	return 0;
}
