// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec log PID: the syscall records of a process's live ring, read over
 * netlink (FLIGHTREC_CMD_GET_RECORDS), printed strace-style by the same
 * decoder as `flightrec log FILE`.  Out-buffers that came in pieces
 * (FLIGHTREC_REC_OUT_CHUNK) are put together before the line is printed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>
#include "libflightrec.h"
#include "sysdecode.h"
#include "flightrec.h"

#define LIVE_OUTS 64

struct live {
	bool have;		/* a record waits for its pieces */
	uint32_t tid, nr, flags, nouts;
	uint64_t seq, args[6];
	int64_t ret;
	struct fr_out_view outs[LIVE_OUTS];
	uint8_t *bufs[LIVE_OUTS];
	unsigned int pflags;
	unsigned long n;
	uint64_t late, dropped;	/* LIVE_END's */
};

static void live_flush(struct live *l)
{
	uint32_t i;

	if (!l->have)
		return;
	printf("%6" PRIu64 " ", l->seq);
	fr_sysdecode_print(stdout, l->tid, l->nr, l->args, l->ret, l->outs,
			   l->nouts, l->pflags |
			   ((l->flags & FLIGHTREC_SC_NO_RETURN) ? FR_SD_NORET : 0) |
			   ((l->flags & FLIGHTREC_SC_REAL_NR) ? FR_SD_REAL_NR : 0));
	for (i = 0; i < l->nouts; i++)
		free(l->bufs[i]);
	l->nouts = 0;
	l->have = false;
	l->n++;
}

/* One OUT nest: a whole out-buffer, or a piece of one. */
static int live_out(struct live *l, struct nlattr *nest)
{
	struct nlattr *ot[FLIGHTREC_OUT_MAX + 1];
	uint32_t idx, len, off;

	if (nla_parse_nested(ot, FLIGHTREC_OUT_MAX, nest,
			     (struct nla_policy *)fr_nl_out_attr_policy()) ||
	    !ot[FLIGHTREC_OUT_DATA])
		return -EINVAL;
	idx = ot[FLIGHTREC_OUT_INDEX] ? nla_get_u32(ot[FLIGHTREC_OUT_INDEX]) : l->nouts;
	len = ot[FLIGHTREC_OUT_LEN] ? nla_get_u32(ot[FLIGHTREC_OUT_LEN]) :
				      (uint32_t)nla_len(ot[FLIGHTREC_OUT_DATA]);
	off = ot[FLIGHTREC_OUT_OFFSET] ? nla_get_u32(ot[FLIGHTREC_OUT_OFFSET]) : 0;
	if (idx >= LIVE_OUTS || idx > l->nouts ||
	    (uint64_t)off + nla_len(ot[FLIGHTREC_OUT_DATA]) > len)
		return -EINVAL;
	if (idx == l->nouts) {
		l->bufs[idx] = calloc(1, len ? len : 1);
		if (!l->bufs[idx])
			return -ENOMEM;
		l->outs[idx].arg = ot[FLIGHTREC_OUT_ARG] ? nla_get_u32(ot[FLIGHTREC_OUT_ARG]) : 0;
		l->outs[idx].addr = ot[FLIGHTREC_OUT_ADDR] ? nla_get_u64(ot[FLIGHTREC_OUT_ADDR]) : 0;
		l->outs[idx].data = l->bufs[idx];
		l->outs[idx].len = len;
		l->nouts++;
	} else if (l->outs[idx].len != len) {
		return -EINVAL;
	}
	memcpy(l->bufs[idx] + off, nla_data(ot[FLIGHTREC_OUT_DATA]),
	       nla_len(ot[FLIGHTREC_OUT_DATA]));
	return 0;
}

static int live_cb(struct nlattr **tb, const struct nlattr *attrs, int attrlen,
		   void *arg)
{
	struct live *l = arg;
	const struct nlattr *a;
	uint32_t type;
	int rem, err;

	if (!tb[FLIGHTREC_A_REC_TYPE])
		return 0;
	type = nla_get_u32(tb[FLIGHTREC_A_REC_TYPE]);
	if (type == FLIGHTREC_REC_LIVE_END) {
		l->late = tb[FLIGHTREC_A_LOST] ? nla_get_u64(tb[FLIGHTREC_A_LOST]) : 0;
		l->dropped = tb[FLIGHTREC_A_DROPPED] ?
			     nla_get_u64(tb[FLIGHTREC_A_DROPPED]) : 0;
		return 0;
	}
	if (type == FLIGHTREC_REC_SYSCALL) {
		live_flush(l);
		l->have = true;
		l->seq = tb[FLIGHTREC_A_SEQ] ? nla_get_u64(tb[FLIGHTREC_A_SEQ]) : 0;
		l->tid = tb[FLIGHTREC_A_TID] ? nla_get_u32(tb[FLIGHTREC_A_TID]) : 0;
		l->nr = tb[FLIGHTREC_A_NR] ? nla_get_u32(tb[FLIGHTREC_A_NR]) : 0;
		l->ret = tb[FLIGHTREC_A_RET] ? (int64_t)nla_get_u64(tb[FLIGHTREC_A_RET]) : 0;
		l->flags = tb[FLIGHTREC_A_SC_FLAGS] ? nla_get_u32(tb[FLIGHTREC_A_SC_FLAGS]) : 0;
		memset(l->args, 0, sizeof(l->args));
		if (tb[FLIGHTREC_A_ARGS] && nla_len(tb[FLIGHTREC_A_ARGS]) == sizeof(l->args))
			memcpy(l->args, nla_data(tb[FLIGHTREC_A_ARGS]), sizeof(l->args));
	} else if (type != FLIGHTREC_REC_OUT_CHUNK || !l->have) {
		return 0;
	} else if (!tb[FLIGHTREC_A_SEQ] || nla_get_u64(tb[FLIGHTREC_A_SEQ]) != l->seq) {
		/* the pieces of one record follow it (uapi/flightrec.h) */
		fprintf(stderr, "flightrec: an out-buffer piece of syscall seq %" PRIu64
			" after the record of seq %" PRIu64 "\n",
			tb[FLIGHTREC_A_SEQ] ? (uint64_t)nla_get_u64(tb[FLIGHTREC_A_SEQ]) : 0,
			l->seq);
		return -EPROTO;
	}
	nla_for_each_attr(a, attrs, attrlen, rem) {
		if (nla_type(a) != FLIGHTREC_A_OUT)
			continue;
		err = live_out(l, (struct nlattr *)a);
		if (err)
			return err;
	}
	return 0;
}

/* flightrec log PID: exit status as the other commands. */
int fr_log_live(uint32_t pid, unsigned int flags)
{
	struct live l = { .pflags = flags };
	struct fr_client *c;
	char err[256] = "";
	int ret;

	ret = fr_client_open(&c, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "flightrec: %s\n", err);
		return ret == FR_ENOMODULE ? FR_EXIT_NOMODULE :
		       ret == FR_EABI ? FR_EXIT_ABI : FR_EXIT_FAIL;
	}
	ret = fr_client_get_records(c, pid, live_cb, &l, err, sizeof(err));
	live_flush(&l);
	fr_client_close(c);
	if (ret) {
		fprintf(stderr, "flightrec: log %u: %s\n", pid,
			err[0] ? err : strerror(-ret));
		return FR_EXIT_FAIL;
	}
	fprintf(stderr, "flightrec: %lu records of the live ring of %u\n", l.n, pid);
	/* never a silent gap: what the read could not give (uapi LIVE_END) */
	if (l.late)
		fprintf(stderr, "flightrec: %" PRIu64 " records left out: placed after the read had passed their place\n",
			l.late);
	if (l.dropped)
		fprintf(stderr, "flightrec: %" PRIu64 " intervals dropped by the ring before the read had all of them\n",
			l.dropped);
	return FR_EXIT_OK;
}
