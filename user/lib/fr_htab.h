/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small open-addressing map from u64 keys to u32 values, used by the
 * checkpoint reader (page content hash -> page) and the assembler (content
 * hash -> stored page, address -> seen).  The first value stored for a key
 * stays.
 */
#ifndef FR_HTAB_H
#define FR_HTAB_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

struct fr_htab {
	uint64_t *keys;
	uint32_t *vals;		/* value + 1; 0 marks an empty slot */
	size_t mask;		/* slots - 1, or 0 before the first put */
	size_t n;
};

static inline size_t fr_htab_slot(uint64_t key, size_t mask)
{
	key ^= key >> 31;
	key *= 0x9e3779b97f4a7c15ull;
	key ^= key >> 29;
	return (size_t)key & mask;
}

static inline bool fr_htab_get(const struct fr_htab *h, uint64_t key,
			       uint32_t *val)
{
	size_t i;

	if (!h->mask)
		return false;
	for (i = fr_htab_slot(key, h->mask); h->vals[i]; i = (i + 1) & h->mask) {
		if (h->keys[i] == key) {
			*val = h->vals[i] - 1;
			return true;
		}
	}
	return false;
}

static inline void fr_htab_insert(struct fr_htab *h, uint64_t key, uint32_t v1)
{
	size_t i = fr_htab_slot(key, h->mask);

	while (h->vals[i])
		i = (i + 1) & h->mask;
	h->keys[i] = key;
	h->vals[i] = v1;
}

static inline int fr_htab_grow(struct fr_htab *h)
{
	struct fr_htab nh;
	size_t slots = h->mask ? (h->mask + 1) * 2 : 1024, i;

	nh.keys = calloc(slots, sizeof(*nh.keys));
	nh.vals = calloc(slots, sizeof(*nh.vals));
	if (!nh.keys || !nh.vals) {
		free(nh.keys);
		free(nh.vals);
		return -ENOMEM;
	}
	nh.mask = slots - 1;
	nh.n = h->n;
	for (i = 0; h->mask && i <= h->mask; i++)
		if (h->vals[i])
			fr_htab_insert(&nh, h->keys[i], h->vals[i]);
	free(h->keys);
	free(h->vals);
	*h = nh;
	return 0;
}

/* 0 when stored, 1 when the key was already there (its value is kept). */
static inline int fr_htab_put(struct fr_htab *h, uint64_t key, uint32_t val)
{
	uint32_t old;

	if (fr_htab_get(h, key, &old))
		return 1;
	if (val == UINT32_MAX)
		return -EOVERFLOW;
	if (!h->mask || (h->n + 1) * 4 > (h->mask + 1) * 3) {
		if (fr_htab_grow(h))
			return -ENOMEM;
	}
	fr_htab_insert(h, key, val + 1);
	h->n++;
	return 0;
}

static inline void fr_htab_clear(struct fr_htab *h)
{
	free(h->keys);
	free(h->vals);
	h->keys = NULL;
	h->vals = NULL;
	h->mask = 0;
	h->n = 0;
}

#endif /* FR_HTAB_H */
