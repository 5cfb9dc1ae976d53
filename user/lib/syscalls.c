// SPDX-License-Identifier: GPL-2.0
/*
 * libflightrec: the syscall table, expanded for userspace.
 *
 * The rows come from uapi/flightrec_syscall_table.h and nowhere else; the
 * compile-time check ties their numbers to <asm/unistd_64.h>.
 */
#include <string.h>
#include <linux/ioctl.h>
#include "syscalls.h"
#include "flightrec_syscall_check.h"

#define FR_ROW(nr_, name_, nargs_, flags_, types_, i1, i2, o1, o2, o3)	\
	[nr_] = { .name = #name_, .argtypes = types_, .nr = nr_,	\
		  .nargs = nargs_, .flags = flags_, .in = { i1, i2 },	\
		  .out = { o1, o2, o3 } },
static const struct fr_syscall fr_rows[FR_NR_SYSCALLS] = {
	FLIGHTREC_SYSCALL_TABLE(FR_ROW)
};
#undef FR_ROW

#define FR_REQ(nr_, sys, arg_, mask_, value_, name_, flags_, i1, o1, o2) \
	{ .name = #name_, .nr = nr_, .arg = arg_, .mask = mask_,	  \
	  .value = value_, .flags = flags_, .in = i1, .out = { o1, o2 } },
static const struct fr_request fr_reqs[] = {
	FLIGHTREC_REQUEST_TABLE(FR_REQ)
};
#undef FR_REQ

#define FR_NREQS (sizeof(fr_reqs) / sizeof(fr_reqs[0]))

const struct fr_syscall *fr_syscall(unsigned int nr)
{
	if (nr >= FR_NR_SYSCALLS || !fr_rows[nr].name)
		return NULL;
	return &fr_rows[nr];
}

int fr_syscall_by_name(const char *name)
{
	unsigned int nr;

	if (!name)
		return -1;
	for (nr = 0; nr < FR_NR_SYSCALLS; nr++)
		if (fr_rows[nr].name && !strcmp(fr_rows[nr].name, name))
			return nr;
	return -1;
}

unsigned int fr_syscall_count(void)
{
	unsigned int nr, n = 0;

	for (nr = 0; nr < FR_NR_SYSCALLS; nr++)
		n += fr_rows[nr].name != NULL;
	return n;
}

/* The request rows of one syscall are adjacent in the table. */
const struct fr_request *fr_syscall_requests(unsigned int nr, size_t *n)
{
	size_t i, first;

	for (i = 0; i < FR_NREQS && fr_reqs[i].nr != nr; i++)
		;
	first = i;
	while (i < FR_NREQS && fr_reqs[i].nr == nr)
		i++;
	if (n)
		*n = i - first;
	return i > first ? &fr_reqs[first] : NULL;
}

const struct fr_request *fr_syscall_request(unsigned int nr,
					    const uint64_t args[6])
{
	const struct fr_request *r;
	size_t i, n;

	r = fr_syscall_requests(nr, &n);
	for (i = 0; i < n; i++)
		if ((args[r[i].arg] & r[i].mask) == r[i].value)
			return &r[i];
	return NULL;
}

const char *fr_syscall_request_name(unsigned int nr, uint64_t value)
{
	const struct fr_request *r;
	size_t i, n;

	r = fr_syscall_requests(nr, &n);
	for (i = 0; i < n; i++)
		if ((value & r[i].mask) == r[i].value)
			return r[i].name;
	return NULL;
}

_Bool fr_syscall_request_known(unsigned int nr, const uint64_t args[6])
{
	const struct fr_syscall *sc = fr_syscall(nr);
	uint32_t cmd;
	size_t n;

	if (!sc)
		return 0;
	if (!(sc->flags & FR_F_IRREGULAR))
		return 1;
	if (!fr_syscall_requests(nr, &n))
		return 1;	/* fixed extra out-data, said in the row's comment */
	if (fr_syscall_request(nr, args))
		return 1;
	if (nr == __NR_ioctl) {
		cmd = (uint32_t)args[1];
		return _IOC_TYPE(cmd) && _IOC_DIR(cmd) != _IOC_NONE;
	}
	return 0;
}
