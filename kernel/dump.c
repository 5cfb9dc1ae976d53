// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec: handing a frozen dump to userspace (FLIGHTREC_CMD_GET_DUMP).
 *
 * A netlink dump: each record is one FLIGHTREC_CMD_RECORD message, in the
 * order uapi/flightrec.h documents: SYSINFO, PROCESS, then per interval
 * (oldest first) INTERVAL, MAP*, THREAD*, SIGACTION*, PAGE*, SYSCALL*, and
 * END.  The dump is immutable once frozen and the reader holds a reference,
 * so the cursor kept in cb->args stays valid across calls even if the process
 * dies or the dump is released meanwhile.  Flow control is netlink's: the
 * next batch is built when userspace has read the previous one.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/utsname.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <asm/fpu/xcr.h>
#include "flightrec.h"

enum {
	FR_PH_SYSINFO,
	FR_PH_PROCESS,
	FR_PH_CMDLINE,
	FR_PH_INTERVALS,
	FR_PH_END,
	FR_PH_DONE,
};

enum {
	FR_SUB_INTERVAL,
	FR_SUB_MAPS,
	FR_SUB_THREADS,
	FR_SUB_SIGACTIONS,
	FR_SUB_PAGES,
	FR_SUB_SYSCALLS,
};

/* cb->args[] */
#define A_DUMP		0	/* struct fr_dump *, referenced */
#define A_PHASE		1
#define A_IV		2	/* ordinal of the interval */
#define A_SUB		3
#define A_POS		4	/* position inside the sub-phase */
#define A_PTR		5	/* next syscall record */

#define FR_CPUID_MAX	64

void fr_sysinfo_cpuid(struct flightrec_cpuid_leaf *l, u32 *n, u32 max)
{
	/* every leaf glibc and common code read at start (docs/replay.md) */
	static const u32 leaves[][2] = {
		{ 0, 0 }, { 1, 0 }, { 2, 0 }, { 4, 0 }, { 4, 1 }, { 4, 2 },
		{ 4, 3 }, { 4, 4 }, { 6, 0 }, { 7, 0 }, { 7, 1 }, { 0xb, 0 },
		{ 0xb, 1 }, { 0x14, 0 }, { 0x19, 0 },
		{ 0x80000000, 0 }, { 0x80000001, 0 }, { 0x80000002, 0 },
		{ 0x80000003, 0 }, { 0x80000004, 0 }, { 0x80000005, 0 },
		{ 0x80000006, 0 }, { 0x80000007, 0 }, { 0x80000008, 0 },
	};
	u32 i, sub;

	*n = 0;
	for (i = 0; i < ARRAY_SIZE(leaves) && *n < max; i++, (*n)++) {
		l[*n].leaf = leaves[i][0];
		l[*n].subleaf = leaves[i][1];
		cpuid_count(l[*n].leaf, l[*n].subleaf, &l[*n].eax, &l[*n].ebx,
			    &l[*n].ecx, &l[*n].edx);
	}
	/* XSAVE layout: leaf 0xd, subleaf i gives component i's size and offset */
	for (sub = 0; sub < 20 && *n < max; sub++, (*n)++) {
		l[*n].leaf = 0xd;
		l[*n].subleaf = sub;
		cpuid_count(0xd, sub, &l[*n].eax, &l[*n].ebx, &l[*n].ecx,
			    &l[*n].edx);
	}
}

static void *fr_msg(struct sk_buff *skb, struct netlink_callback *cb, u32 type)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  fr_dumpit_family(cb), NLM_F_MULTI, FLIGHTREC_CMD_RECORD);
	if (!hdr)
		return NULL;
	if (nla_put_u32(skb, FLIGHTREC_A_REC_TYPE, type)) {
		genlmsg_cancel(skb, hdr);
		return NULL;
	}
	return hdr;
}

static int fr_put_sysinfo(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct flightrec_cpuid_leaf *leaves;
	void *hdr;
	u32 n;
	u64 xcr0 = 0;
	int err = -EMSGSIZE;

	leaves = kcalloc(FR_CPUID_MAX, sizeof(*leaves), GFP_KERNEL);
	if (!leaves)
		return -ENOMEM;
	fr_sysinfo_cpuid(leaves, &n, FR_CPUID_MAX);
	if (boot_cpu_has(X86_FEATURE_OSXSAVE))
		xcr0 = xgetbv(XCR_XFEATURE_ENABLED_MASK);
	hdr = fr_msg(skb, cb, FLIGHTREC_REC_SYSINFO);
	if (!hdr)
		goto out;
	/* uts_sem is not exported; a racing sethostname() can only tear a name */
	err = nla_put(skb, FLIGHTREC_A_UNAME, sizeof(struct new_utsname),
		      utsname());
	if (err ||
	    nla_put(skb, FLIGHTREC_A_CPUID, n * sizeof(*leaves), leaves) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_XCR0, xcr0, FLIGHTREC_A_PAD))
		goto out_cancel;
	genlmsg_end(skb, hdr);
	err = 0;
	goto out;
out_cancel:
	genlmsg_cancel(skb, hdr);
	err = -EMSGSIZE;
out:
	kfree(leaves);
	return err;
}

/* Does the command line go in CMDLINE_CHUNK records (uapi/flightrec.h)? */
static bool fr_cmdline_chunked(const struct fr_dump *d)
{
	return d->cmdline && d->cmdline_len > FLIGHTREC_OUT_CHUNK;
}

static int fr_put_process(struct sk_buff *skb, struct netlink_callback *cb,
			  struct fr_dump *d)
{
	void *hdr = fr_msg(skb, cb, FLIGHTREC_REC_PROCESS);
	bool chunked = fr_cmdline_chunked(d);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, FLIGHTREC_A_PID, d->pid) ||
	    nla_put_u32(skb, FLIGHTREC_A_PPID, d->ppid) ||
	    nla_put_string(skb, FLIGHTREC_A_COMM, d->comm) ||
	    (d->exe && nla_put_string(skb, FLIGHTREC_A_EXE, d->exe)) ||
	    (d->cmdline && !chunked &&
	     nla_put(skb, FLIGHTREC_A_CMDLINE, d->cmdline_len, d->cmdline)) ||
	    (chunked && nla_put_u32(skb, FLIGHTREC_A_CMDLINE_LEN, d->cmdline_len)) ||
	    nla_put(skb, FLIGHTREC_A_AUXV, d->auxv_len, d->auxv) ||
	    nla_put_u32(skb, FLIGHTREC_A_PERSONALITY, d->personality) ||
	    (d->prev_id && nla_put_u32(skb, FLIGHTREC_A_PREV_DUMP, d->prev_id)))
		goto nla_put_failure;
	genlmsg_end(skb, hdr);
	return 0;
nla_put_failure:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* The command line's CMDLINE_CHUNK records from offset *pos on. */
static int fr_put_cmdline(struct sk_buff *skb, struct netlink_callback *cb,
			  struct fr_dump *d, long *pos)
{
	void *hdr;
	u32 len;

	if (!fr_cmdline_chunked(d))
		return 0;
	while (*pos < d->cmdline_len) {
		len = min_t(u32, FLIGHTREC_OUT_CHUNK, d->cmdline_len - *pos);
		hdr = fr_msg(skb, cb, FLIGHTREC_REC_CMDLINE_CHUNK);
		if (!hdr)
			return -EMSGSIZE;
		if (nla_put_u32(skb, FLIGHTREC_A_CMDLINE_OFFSET, *pos) ||
		    nla_put(skb, FLIGHTREC_A_CMDLINE, len, d->cmdline + *pos)) {
			genlmsg_cancel(skb, hdr);
			return -EMSGSIZE;
		}
		genlmsg_end(skb, hdr);
		*pos += len;
	}
	return 0;
}

static int fr_put_ctx(struct sk_buff *skb, struct fr_thread_ctx *c)
{
	if (nla_put_u32(skb, FLIGHTREC_A_TID, c->tid) ||
	    nla_put(skb, FLIGHTREC_A_REGS, sizeof(c->regs), &c->regs) ||
	    (c->xsave && !c->xsave_wait &&
	     nla_put(skb, FLIGHTREC_A_XSAVE, c->xsave_size, c->xsave)) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_FS_BASE, c->fs_base, FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_GS_BASE, c->gs_base, FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_SIGMASK, c->sigmask, FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_SAS_SP, c->sas_sp, FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_SAS_SIZE, c->sas_size, FLIGHTREC_A_PAD) ||
	    nla_put_u32(skb, FLIGHTREC_A_SAS_FLAGS, c->sas_flags) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_RSEQ, c->rseq, FLIGHTREC_A_PAD) ||
	    nla_put_u32(skb, FLIGHTREC_A_RSEQ_LEN, c->rseq_len) ||
	    nla_put_u32(skb, FLIGHTREC_A_RSEQ_SIG, c->rseq_sig) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_ROBUST_LIST, c->robust_list, FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_ROBUST_LEN, c->robust_len, FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_CLEAR_CHILD_TID, c->clear_child_tid,
			      FLIGHTREC_A_PAD) ||
	    nla_put_s32(skb, FLIGHTREC_A_IN_SYSCALL, c->in_syscall))
		return -EMSGSIZE;
	return 0;
}

static int fr_put_interval(struct sk_buff *skb, struct netlink_callback *cb,
			   struct fr_interval *iv)
{
	void *hdr = fr_msg(skb, cb, FLIGHTREC_REC_INTERVAL);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, FLIGHTREC_A_INTERVAL, iv->index) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_START_NS, iv->start_ns, FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_END_NS, iv->end_ns, FLIGHTREC_A_PAD) ||
	    nla_put_u32(skb, FLIGHTREC_A_INTERVAL_FLAGS, iv->flags) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_NR_SYSCALLS, iv->nr_syscalls, FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_LOST, iv->lost, FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_BRK_START, iv->brk_start, FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_BRK, iv->brk, FLIGHTREC_A_PAD))
		goto nla_put_failure;
	genlmsg_end(skb, hdr);
	return 0;
nla_put_failure:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int fr_put_map(struct sk_buff *skb, struct netlink_callback *cb,
		      struct fr_interval *iv, struct fr_map *m)
{
	void *hdr = fr_msg(skb, cb, FLIGHTREC_REC_MAP);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, FLIGHTREC_A_INTERVAL, iv->index) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_START, m->start, FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_END, m->end, FLIGHTREC_A_PAD) ||
	    nla_put_u32(skb, FLIGHTREC_A_PROT, m->prot) ||
	    nla_put_u32(skb, FLIGHTREC_A_MAP_FLAGS, m->flags) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_PGOFF, m->pgoff, FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_INODE, m->inode, FLIGHTREC_A_PAD) ||
	    nla_put_u32(skb, FLIGHTREC_A_DEV, m->dev) ||
	    (m->path && nla_put_string(skb, FLIGHTREC_A_PATH, m->path)) ||
	    (m->build_id_len && nla_put(skb, FLIGHTREC_A_BUILD_ID,
					m->build_id_len, m->build_id)))
		goto nla_put_failure;
	genlmsg_end(skb, hdr);
	return 0;
nla_put_failure:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int fr_put_thread(struct sk_buff *skb, struct netlink_callback *cb,
			 struct fr_interval *iv, struct fr_thread_ctx *c)
{
	void *hdr = fr_msg(skb, cb, FLIGHTREC_REC_THREAD);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, FLIGHTREC_A_INTERVAL, iv->index) || fr_put_ctx(skb, c)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int fr_put_sigaction(struct sk_buff *skb, struct netlink_callback *cb,
			    struct fr_interval *iv, u32 i)
{
	struct fr_sigaction *sa = &iv->sigactions[i];
	void *hdr = fr_msg(skb, cb, FLIGHTREC_REC_SIGACTION);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, FLIGHTREC_A_INTERVAL, iv->index) ||
	    nla_put_u32(skb, FLIGHTREC_A_SIGNO, i + 1) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_HANDLER, sa->handler, FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_SA_FLAGS, sa->flags, FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_RESTORER, sa->restorer, FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_SA_MASK, sa->mask, FLIGHTREC_A_PAD)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int fr_put_page(struct sk_buff *skb, struct netlink_callback *cb,
		       struct fr_dump *d, struct fr_interval *iv,
		       unsigned long idx, void *e)
{
	u32 flags = xa_is_value(e) ? xa_to_value(e) & 0xff :
				     ((struct fr_page *)e)->flags;
	const void *bytes;
	bool zero;
	void *hdr;

	if (fr_mem_nodump(d, idx))
		return 0;	/* VM_DONTDUMP: absent, its map says so */
	bytes = fr_mem_page_bytes(d, iv, idx, &zero);
	if (!bytes && !zero)
		return 0;	/* unknown bytes: counted as a lost page */
	flags &= ~(FLIGHTREC_PAGE_DATA | FLIGHTREC_PAGE_ZERO);
	flags |= zero ? FLIGHTREC_PAGE_ZERO : FLIGHTREC_PAGE_DATA;
	if (!xa_is_value(e) && e != NULL)
		flags &= ~FLIGHTREC_PAGE_LATER;
	else if (!zero)
		flags |= FLIGHTREC_PAGE_LATER;
	hdr = fr_msg(skb, cb, FLIGHTREC_REC_PAGE);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, FLIGHTREC_A_INTERVAL, iv->index) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_ADDR, (u64)idx << PAGE_SHIFT,
			      FLIGHTREC_A_PAD) ||
	    nla_put_u32(skb, FLIGHTREC_A_PAGE_FLAGS, flags) ||
	    (bytes && nla_put(skb, FLIGHTREC_A_DATA, PAGE_SIZE, bytes))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static size_t fr_sc_out_total(const struct fr_sc_rec *r)
{
	size_t total = 0;
	u32 i;

	for (i = 0; i < r->nouts; i++)
		total += r->outs[i].len;
	return total;
}

/*
 * An out-buffer that the kernel wrote into VM_DONTDUMP memory (a read() into
 * a MADV_DONTDUMP buffer): its bytes are what the process keeps out of core
 * dumps, so they are left out too (docs/security.md).  @d: the dump's
 * ranges (fr_mem_resolve); without one (the live ring), the interval's map.
 * Address 0: data of the record itself (a siginfo), not memory.
 */
static bool fr_out_nodump(const struct fr_dump *d, const struct fr_interval *iv,
			  const struct fr_sc_out *o)
{
	u64 end = o->addr + o->len;
	u32 i;

	if (!o->addr || !o->len)
		return false;
	if (d && fr_mem_nodump_range(d, o->addr >> PAGE_SHIFT,
				     (end - 1) >> PAGE_SHIFT))
		return true;
	for (i = 0; i < iv->nr_maps; i++)
		if ((iv->maps[i].flags & FLIGHTREC_MAPF_DONTDUMP) &&
		    o->addr < iv->maps[i].end && end > iv->maps[i].start)
			return true;
	return false;
}

static u32 fr_sc_flags(const struct fr_dump *d, const struct fr_interval *iv,
		       const struct fr_sc_rec *r)
{
	u32 i;

	for (i = 0; i < r->nouts; i++)
		if (fr_out_nodump(d, iv, &r->outs[i]))
			return r->flags | FLIGHTREC_SC_NODUMP;
	return r->flags;
}

/* The record, with its out-buffers when they are small enough together. */
static int fr_put_syscall(struct sk_buff *skb, struct netlink_callback *cb,
			  const struct fr_dump *d, struct fr_interval *iv,
			  struct fr_sc_rec *r, bool with_outs)
{
	struct nlattr *nest;
	void *hdr = fr_msg(skb, cb, FLIGHTREC_REC_SYSCALL);
	u32 i;

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, FLIGHTREC_A_INTERVAL, iv->index) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_SEQ, r->seq, FLIGHTREC_A_PAD) ||
	    nla_put_u32(skb, FLIGHTREC_A_TID, r->tid) ||
	    nla_put_u32(skb, FLIGHTREC_A_NR, r->nr) ||
	    nla_put(skb, FLIGHTREC_A_ARGS, sizeof(r->args), r->args) ||
	    nla_put_s64(skb, FLIGHTREC_A_RET, r->ret, FLIGHTREC_A_PAD) ||
	    nla_put_u32(skb, FLIGHTREC_A_SC_FLAGS, fr_sc_flags(d, iv, r)) ||
	    ((r->flags & FLIGHTREC_SC_IN_HASH) &&
	     nla_put_u64_64bit(skb, FLIGHTREC_A_IN_HASH, r->in_hash, FLIGHTREC_A_PAD)) ||
	    ((r->flags & FLIGHTREC_SC_IN_HASH_SA) &&
	     nla_put_u64_64bit(skb, FLIGHTREC_A_IN_HASH_SA, r->in_hash, FLIGHTREC_A_PAD)) ||
	    ((r->flags & FLIGHTREC_SC_IN_HASH_FULL) &&
	     nla_put_u64_64bit(skb, FLIGHTREC_A_IN_HASH_FULL, r->in_hash, FLIGHTREC_A_PAD)) ||
	    ((r->flags & FLIGHTREC_SC_IN_HASH_W) &&
	     nla_put_u64_64bit(skb, FLIGHTREC_A_IN_HASH_W, r->in_hash, FLIGHTREC_A_PAD)) ||
	    (r->time_ns &&
	     nla_put_u64_64bit(skb, FLIGHTREC_A_TIME_NS,
			       fr_stamp_ns(iv, r->time_ns), FLIGHTREC_A_PAD)) ||
	    ((r->rseq_has & FR_RSEQ_HAS_CPU) &&
	     nla_put_u32(skb, FLIGHTREC_A_RSEQ_CPU, r->rseq_cpu)) ||
	    ((r->rseq_has & FR_RSEQ_HAS_NODE_CID) &&
	     (nla_put_u32(skb, FLIGHTREC_A_RSEQ_NODE, r->rseq_node) ||
	      nla_put_u32(skb, FLIGHTREC_A_RSEQ_MM_CID, r->rseq_cid))))
		goto nla_put_failure;
	for (i = 0; with_outs && i < r->nouts; i++) {
		if (fr_out_nodump(d, iv, &r->outs[i]))
			continue;
		nest = nla_nest_start(skb, FLIGHTREC_A_OUT);
		if (!nest ||
		    nla_put_u32(skb, FLIGHTREC_OUT_ARG, r->outs[i].arg) ||
		    nla_put_u32(skb, FLIGHTREC_OUT_INDEX, i) ||
		    nla_put_u64_64bit(skb, FLIGHTREC_OUT_ADDR, r->outs[i].addr,
				      FLIGHTREC_OUT_PAD) ||
		    nla_put(skb, FLIGHTREC_OUT_DATA, r->outs[i].len, r->outs[i].data))
			goto nla_put_failure;
		nla_nest_end(skb, nest);
	}
	genlmsg_end(skb, hdr);
	return 0;
nla_put_failure:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int fr_put_out_chunk(struct sk_buff *skb, struct netlink_callback *cb,
			    struct fr_sc_rec *r, u32 oi, u32 off, u32 len)
{
	struct fr_sc_out *o = &r->outs[oi];
	void *hdr = fr_msg(skb, cb, FLIGHTREC_REC_OUT_CHUNK);
	struct nlattr *nest;

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, FLIGHTREC_A_SEQ, r->seq, FLIGHTREC_A_PAD) ||
	    nla_put_u32(skb, FLIGHTREC_A_TID, r->tid))
		goto nla_put_failure;
	nest = nla_nest_start(skb, FLIGHTREC_A_OUT);
	if (!nest ||
	    nla_put_u32(skb, FLIGHTREC_OUT_ARG, o->arg) ||
	    nla_put_u32(skb, FLIGHTREC_OUT_INDEX, oi) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_OUT_ADDR, o->addr, FLIGHTREC_OUT_PAD) ||
	    nla_put_u32(skb, FLIGHTREC_OUT_LEN, o->len) ||
	    nla_put_u32(skb, FLIGHTREC_OUT_OFFSET, off) ||
	    nla_put(skb, FLIGHTREC_OUT_DATA, len, o->data + off))
		goto nla_put_failure;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;
nla_put_failure:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * A syscall record and, when its out-buffers are large, the pieces of them.
 * *pos keeps the progress across calls: 0 nothing sent; else
 * (out index + 1) << 32 | offset of the next piece.
 */
static int fr_put_syscall_all(struct sk_buff *skb, struct netlink_callback *cb,
			      const struct fr_dump *d, struct fr_interval *iv,
			      struct fr_sc_rec *r, long *pos)
{
	bool inline_outs = fr_sc_out_total(r) <= FLIGHTREC_OUT_CHUNK;
	u32 oi, off, len;
	int err;

	if (!*pos) {
		err = fr_put_syscall(skb, cb, d, iv, r, inline_outs);
		if (err)
			return err;
		if (inline_outs)
			return 0;
		*pos = 1L << 32;
	}
	for (;;) {
		oi = (*pos >> 32) - 1;
		off = *pos & 0xffffffff;
		if (oi >= r->nouts)
			return 0;
		len = min_t(u32, FLIGHTREC_OUT_CHUNK, r->outs[oi].len - off);
		if (fr_out_nodump(d, iv, &r->outs[oi])) {
			len = r->outs[oi].len - off;	/* skipped whole */
		} else if (len) {
			err = fr_put_out_chunk(skb, cb, r, oi, off, len);
			if (err)
				return err;
		}
		off += len;
		if (off >= r->outs[oi].len)
			*pos = (long)(oi + 2) << 32;
		else
			*pos = ((long)(oi + 1) << 32) | off;
	}
}

static int fr_put_end(struct sk_buff *skb, struct netlink_callback *cb,
		      struct fr_dump *d)
{
	struct fr_end *e = &d->end;
	void *hdr = fr_msg(skb, cb, FLIGHTREC_REC_END);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, FLIGHTREC_A_END_KIND, e->kind) ||
	    nla_put_u32(skb, FLIGHTREC_A_TID, e->tid) ||
	    nla_put_u32(skb, FLIGHTREC_A_SIGNO, e->signo) ||
	    nla_put_s32(skb, FLIGHTREC_A_SI_CODE, e->si_code) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_FAULT_ADDR, e->fault_addr, FLIGHTREC_A_PAD) ||
	    nla_put_u32(skb, FLIGHTREC_A_EXIT_CODE, e->exit_code) ||
	    (e->ctx && nla_put(skb, FLIGHTREC_A_REGS, sizeof(e->ctx->regs), &e->ctx->regs)) ||
	    (e->ctx && e->ctx->xsave &&
	     nla_put(skb, FLIGHTREC_A_XSAVE, e->ctx->xsave_size, e->ctx->xsave)))
		goto nla_put_failure;
	genlmsg_end(skb, hdr);
	return 0;
nla_put_failure:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static struct fr_interval *fr_nth_interval(struct fr_dump *d, long n)
{
	struct fr_interval *iv;

	list_for_each_entry(iv, &d->intervals, node)
		if (n-- == 0)
			return iv;
	return NULL;
}

static struct fr_thread_ctx *fr_nth_ctx(struct fr_interval *iv, long n)
{
	struct fr_thread_ctx *c;

	list_for_each_entry(c, &iv->threads, node)
		if (n-- == 0)
			return c;
	return NULL;
}

/* One interval's records from the cursor on; 0 when the interval is done. */
static int fr_put_interval_all(struct sk_buff *skb, struct netlink_callback *cb,
			       struct fr_dump *d, struct fr_interval *iv)
{
	long *a = cb->args;
	struct fr_thread_ctx *c;
	struct fr_sc_rec *r;
	unsigned long idx;
	void *e;
	int err;

	switch (a[A_SUB]) {
	case FR_SUB_INTERVAL:
		err = fr_put_interval(skb, cb, iv);
		if (err)
			return err;
		a[A_SUB] = FR_SUB_MAPS;
		a[A_POS] = 0;
		fallthrough;
	case FR_SUB_MAPS:
		for (; a[A_POS] < iv->nr_maps; a[A_POS]++) {
			err = fr_put_map(skb, cb, iv, &iv->maps[a[A_POS]]);
			if (err)
				return err;
		}
		a[A_SUB] = FR_SUB_THREADS;
		a[A_POS] = 0;
		fallthrough;
	case FR_SUB_THREADS:
		while ((c = fr_nth_ctx(iv, a[A_POS]))) {
			err = fr_put_thread(skb, cb, iv, c);
			if (err)
				return err;
			a[A_POS]++;
		}
		a[A_SUB] = FR_SUB_SIGACTIONS;
		a[A_POS] = 0;
		fallthrough;
	case FR_SUB_SIGACTIONS:
		for (; a[A_POS] < 64; a[A_POS]++) {
			if (!iv->sigactions[a[A_POS]].handler &&
			    !iv->sigactions[a[A_POS]].flags)
				continue;	/* SIG_DFL, no flags: implied */
			err = fr_put_sigaction(skb, cb, iv, a[A_POS]);
			if (err)
				return err;
		}
		a[A_SUB] = FR_SUB_PAGES;
		a[A_POS] = 0;
		fallthrough;
	case FR_SUB_PAGES:
		for (idx = a[A_POS]; (e = fr_pageset_find(iv, &idx)); idx++) {
			err = fr_put_page(skb, cb, d, iv, idx, e);
			if (err) {
				a[A_POS] = idx;
				return err;
			}
		}
		a[A_SUB] = FR_SUB_SYSCALLS;
		a[A_PTR] = 0;
		a[A_POS] = 0;
		fallthrough;
	case FR_SUB_SYSCALLS:
		r = a[A_PTR] ? (struct fr_sc_rec *)a[A_PTR] :
			list_first_entry_or_null(&iv->syscalls, struct fr_sc_rec, node);
		for (; r && &r->node != &iv->syscalls;
		     r = list_next_entry(r, node)) {
			err = fr_put_syscall_all(skb, cb, d, iv, r, &a[A_POS]);
			if (err) {
				a[A_PTR] = (long)r;
				return err;
			}
			a[A_POS] = 0;
		}
	}
	return 0;
}

/*
 * Every interval's records in sequence order (fr_iv_sort), before the first
 * is handed out; once, whoever reads the dump first.
 */
static void fr_dump_sort(struct fr_dump *d)
{
	struct fr_interval *iv;

	mutex_lock(&d->bid_lock);
	list_for_each_entry(iv, &d->intervals, node)
		fr_iv_sort(iv);
	mutex_unlock(&d->bid_lock);
}

int fr_nl_get_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = fr_dumpit_attrs(cb);
	long *a = cb->args;
	struct fr_interval *iv;
	struct fr_dump *d;
	int err = 0;

	if (!a[A_DUMP]) {
		if (!attrs[FLIGHTREC_A_DUMP_ID]) {
			NL_SET_ERR_MSG_MOD(cb->extack, "DUMP_ID is required");
			return -EINVAL;
		}
		d = fr_dump_get(nla_get_u32(attrs[FLIGHTREC_A_DUMP_ID]));
		if (!d) {
			NL_SET_ERR_MSG_MOD(cb->extack, "no such dump");
			return -ENOENT;
		}
		a[A_DUMP] = (long)d;
		/* before any map is handed out */
		fr_dump_late_build_ids(d);
		fr_dump_sort(d);
	}
	d = (struct fr_dump *)a[A_DUMP];

	switch (a[A_PHASE]) {
	case FR_PH_SYSINFO:
		err = fr_put_sysinfo(skb, cb);
		if (err)
			break;
		a[A_PHASE] = FR_PH_PROCESS;
		fallthrough;
	case FR_PH_PROCESS:
		err = fr_put_process(skb, cb, d);
		if (err)
			break;
		a[A_PHASE] = FR_PH_CMDLINE;
		a[A_POS] = 0;
		fallthrough;
	case FR_PH_CMDLINE:
		err = fr_put_cmdline(skb, cb, d, &a[A_POS]);
		if (err)
			break;
		a[A_PHASE] = FR_PH_INTERVALS;
		a[A_POS] = 0;
		fallthrough;
	case FR_PH_INTERVALS:
		while ((iv = fr_nth_interval(d, a[A_IV]))) {
			err = fr_put_interval_all(skb, cb, d, iv);
			if (err)
				break;
			a[A_IV]++;
			a[A_SUB] = FR_SUB_INTERVAL;
			a[A_POS] = 0;
			a[A_PTR] = 0;
		}
		if (err)
			break;
		a[A_PHASE] = FR_PH_END;
		fallthrough;
	case FR_PH_END:
		err = fr_put_end(skb, cb, d);
		if (err)
			break;
		a[A_PHASE] = FR_PH_DONE;
		/* all of it handed out: the cap may reclaim it from now on */
		WRITE_ONCE(d->collected, true);
		fallthrough;
	case FR_PH_DONE:
		return 0;
	}
	/* a full skb: send what we have; nothing at all means a record too big */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	if (err == -EMSGSIZE)
		NL_SET_ERR_MSG_MOD(cb->extack,
				   "a record does not fit the receive buffer; enlarge it");
	return err;
}

int fr_nl_get_dump_done(struct netlink_callback *cb)
{
	fr_dump_put((struct fr_dump *)cb->args[A_DUMP]);
	return 0;
}

/*
 * FLIGHTREC_CMD_GET_RECORDS: the syscall records of a live ring, oldest
 * interval first, for `flightrec log PID`, then a LIVE_END that says what
 * the read could not give.  Nothing is copied: each call takes proc->lock,
 * takes the threads' logs into the open interval, puts the interval in
 * sequence order (fr_iv_sort: only what is new) and goes on from the
 * record it stopped at, which stays in its interval's list as long as the
 * interval is in the ring (records leave only with their interval); the
 * interval is found again by its index.  The records made after the
 * request are left out.  Counted in LIVE_END: a record merged in before
 * the one the read stopped at (placed after the read passed its place:
 * another thread's call numbered at its entry), which is left out, and an
 * interval the ring dropped before the read had all of it.
 */
struct fr_live_cursor {
	struct fr_proc *proc;	/* referenced */
	struct fr_sc_rec *rec;	/* in interval iv: the record being sent
				 * (chunk set), or the last one sent whole;
				 * NULL: none yet */
	u64 maxseq;		/* records numbered after it are left out */
	long chunk;		/* progress inside rec (fr_put_syscall_all) */
	long iv;		/* interval index; -1 before the first */
	u32 late;		/* records merged in before rec: left out */
	u32 dropped;		/* intervals dropped before they were read whole */
};
static_assert(sizeof(struct fr_live_cursor) <=
	      sizeof_field(struct netlink_callback, ctx));

static struct fr_live_cursor *fr_live_cursor(struct netlink_callback *cb)
{
	return (struct fr_live_cursor *)cb->ctx;
}

static int fr_put_live_interval(struct sk_buff *skb, struct netlink_callback *cb,
				struct fr_interval *iv)
{
	struct fr_live_cursor *c = fr_live_cursor(cb);
	struct fr_sc_rec *r = c->rec;
	int err;

	/* the new records that the merge puts before the cursor */
	if (r)
		c->late += fr_iv_new_before(iv, r->seq);
	fr_iv_sort(iv);
	if (r && c->chunk) {
		err = fr_put_syscall_all(skb, cb, NULL, iv, r, &c->chunk);
		if (err)
			return err;
		c->chunk = 0;
	}
	r = r ? list_next_entry(r, node) :
		list_first_entry(&iv->syscalls, struct fr_sc_rec, node);
	list_for_each_entry_from(r, &iv->syscalls, node) {
		/* in order: all that follows was made after the request */
		if (r->seq > c->maxseq)
			break;
		err = fr_put_syscall_all(skb, cb, NULL, iv, r, &c->chunk);
		/* part of it sent: the next call goes on with it */
		if (!err || c->chunk)
			c->rec = r;
		if (err)
			return err;
		c->chunk = 0;
	}
	return 0;
}

static int fr_put_live_end(struct sk_buff *skb, struct netlink_callback *cb,
			   const struct fr_live_cursor *c)
{
	void *hdr = fr_msg(skb, cb, FLIGHTREC_REC_LIVE_END);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, FLIGHTREC_A_LOST, c->late, FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_DROPPED, c->dropped,
			      FLIGHTREC_A_PAD)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* The first interval at or after the cursor's, or NULL.  proc->lock held. */
static struct fr_interval *fr_live_next(struct fr_proc *proc, long index)
{
	struct fr_interval *iv;

	list_for_each_entry(iv, &proc->ring, node)
		if ((long)iv->index >= index)
			return iv;
	if (proc->cur && (long)proc->cur->index >= index)
		return proc->cur;
	return NULL;
}

int fr_nl_get_records(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct fr_live_cursor *c = fr_live_cursor(cb);
	struct nlattr **attrs = fr_dumpit_attrs(cb);
	struct fr_interval *next;
	struct fr_proc *proc;
	LIST_HEAD(recs);
	long have;
	int err = 0;

	if (!c->proc) {
		if (!attrs[FLIGHTREC_A_PID]) {
			NL_SET_ERR_MSG_MOD(cb->extack, "PID is required");
			return -EINVAL;
		}
		proc = fr_proc_get(nla_get_u32(attrs[FLIGHTREC_A_PID]));
		if (!proc) {
			NL_SET_ERR_MSG_MOD(cb->extack, "the process is not registered");
			return -ENOENT;
		}
		c->proc = proc;
		c->iv = -1;
		c->maxseq = atomic64_read(&proc->seq);
	}
	proc = c->proc;

	spin_lock(&proc->lock);
	fr_logs_take(proc, proc->cur, &recs);
	for (;;) {
		next = fr_live_next(proc, c->iv);
		/* indices are consecutive: those before next's are gone */
		have = next ? next->index : proc->next_index;
		if (c->iv >= 0 && have > c->iv)
			c->dropped += have - c->iv;
		if (!next)
			break;
		if ((long)next->index != c->iv) {
			c->iv = next->index;
			c->rec = NULL;
			c->chunk = 0;
		}
		err = fr_put_live_interval(skb, cb, next);
		if (err)
			break;
		if (next == proc->cur)
			break;
		c->iv++;
		c->rec = NULL;
		c->chunk = 0;
	}
	spin_unlock(&proc->lock);
	fr_sc_recs_free(&recs);
	if (!err)
		err = fr_put_live_end(skb, cb, c);
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err;
}

int fr_nl_get_records_done(struct netlink_callback *cb)
{
	struct fr_live_cursor *c = fr_live_cursor(cb);

	if (c->proc)
		fr_proc_put(c->proc);
	return 0;
}
