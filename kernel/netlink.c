// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec: the generic netlink family "flightrec" (uapi/flightrec.h).
 *
 * Every command that changes state or reads recorded data (process memory)
 * is for privileged callers: GENL_ADMIN_PERM (CAP_NET_ADMIN) and, checked
 * here, CAP_SYS_ADMIN, as for the control file.  Only GET_VERSION is open.
 * Errors carry an extack message; the errnos are those of the control file.
 * The family is registered in the initial network namespace only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/rwsem.h>
#include <linux/capability.h>
#include <net/genetlink.h>
#include "flightrec.h"

static struct genl_family fr_genl_family;

enum fr_nl_mcgrp {
	FR_NL_MCGRP_EVENTS,
};

static const struct genl_multicast_group fr_nl_mcgrps[] = {
	[FR_NL_MCGRP_EVENTS] = {
		.name = FLIGHTREC_MCGRP_EVENTS,
		.flags = GENL_MCAST_CAP_SYS_ADMIN,
	},
};

/* fr_nl_event() against unregistration */
static DECLARE_RWSEM(fr_nl_sem);
static bool fr_nl_registered;

/*
 * Attributes a request may carry; strict validation refuses any other, and
 * any of the wrong size, with EINVAL.  Values are checked by the handlers,
 * not by policy ranges: those fail with ERANGE, the control file with EINVAL.
 */
static const struct nla_policy fr_nl_policy[FLIGHTREC_A_MAX + 1] = {
	[FLIGHTREC_A_PID]		= { .type = NLA_U32 },
	[FLIGHTREC_A_INTERVAL_MS]	= { .type = NLA_U32 },
	[FLIGHTREC_A_KEEP]		= { .type = NLA_U32 },
	[FLIGHTREC_A_AT_EXIT]		= { .type = NLA_U8 },
	[FLIGHTREC_A_SERIAL]		= NLA_POLICY_MAX(NLA_U8, 1),
	[FLIGHTREC_A_START_AT_EXEC]	= NLA_POLICY_MAX(NLA_U8, 1),
	[FLIGHTREC_A_DUMP_ID]		= { .type = NLA_U32 },
};

static bool fr_nl_sys_admin(struct sk_buff *skb, struct netlink_ext_ack *extack)
{
	if (netlink_capable(skb, CAP_SYS_ADMIN))
		return true;
	NL_SET_ERR_MSG_MOD(extack, "CAP_SYS_ADMIN is required");
	return false;
}

/* A required attribute: its absence is EINVAL with the attribute named. */
static bool fr_nl_missing(struct genl_info *info, int attr, const char *msg)
{
	if (!GENL_REQ_ATTR_CHECK(info, attr))
		return false;
	info->extack->_msg = msg;
	return true;
}

#define FR_NL_NEED_PID(info) \
	fr_nl_missing(info, FLIGHTREC_A_PID, KBUILD_MODNAME ": PID is required")
#define FR_NL_NEED_DUMP_ID(info) \
	fr_nl_missing(info, FLIGHTREC_A_DUMP_ID, \
		      KBUILD_MODNAME ": DUMP_ID is required")

/* The PID attribute, required, 1..INT_MAX (a pid_t), else EINVAL. */
static int fr_nl_pid(struct genl_info *info, pid_t *pid)
{
	struct nlattr *attr = info->attrs[FLIGHTREC_A_PID];
	u32 val;

	if (FR_NL_NEED_PID(info))
		return -EINVAL;
	val = nla_get_u32(attr);
	if (!val || val > INT_MAX) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    KBUILD_MODNAME ": PID must be from 1 to 2147483647");
		return -EINVAL;
	}
	*pid = val;
	return 0;
}

static int fr_nl_pre_doit(const struct fr_genl_split_ops *ops, struct sk_buff *skb,
			  struct genl_info *info)
{
	if ((ops->flags & GENL_ADMIN_PERM) && !fr_nl_sys_admin(skb, info->extack))
		return -EPERM;
	return 0;
}

static void fr_nl_post_doit(const struct fr_genl_split_ops *ops, struct sk_buff *skb,
			    struct genl_info *info)
{
}

/* .start of every privileged dump */
static int fr_nl_admin_start(struct netlink_callback *cb)
{
	return fr_nl_sys_admin(cb->skb, cb->extack) ? 0 : -EPERM;
}

/*
 * GET_DUMP and GET_RECORDS records carry whole pages, XSAVE areas and syscall
 * out-buffers: make every batch at
 * least this big, the first one too (it is built before the reader's first
 * recvmsg() told netlink how large its buffer is).
 */
#define FR_NL_DUMP_ALLOC	(32 * 1024)

static int fr_nl_get_dump_start(struct netlink_callback *cb)
{
	cb->min_dump_alloc = FR_NL_DUMP_ALLOC;
	return fr_nl_admin_start(cb);
}

static struct sk_buff *fr_nl_reply_new(struct genl_info *info, void **hdr)
{
	struct sk_buff *skb;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return NULL;
	*hdr = genlmsg_put_reply(skb, info, &fr_genl_family, 0,
				 info->genlhdr->cmd);
	if (!*hdr) {
		nlmsg_free(skb);
		return NULL;
	}
	return skb;
}

static int fr_nl_get_version(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = fr_nl_reply_new(info, &hdr);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, FLIGHTREC_A_ABI_VERSION, FLIGHTREC_ABI_VERSION) ||
	    nla_put_string(msg, FLIGHTREC_A_VERSION, FR_VERSION)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int fr_nl_register(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	u32 interval_ms = READ_ONCE(fr_interval_ms);
	u32 keep = READ_ONCE(fr_keep);
	bool at_exit = false, serial = false, start_at_exec = false;
	pid_t pid;
	int err;

	err = fr_nl_pid(info, &pid);
	if (err)
		return err;
	if (tb[FLIGHTREC_A_INTERVAL_MS])
		interval_ms = nla_get_u32(tb[FLIGHTREC_A_INTERVAL_MS]);
	if (tb[FLIGHTREC_A_KEEP])
		keep = nla_get_u32(tb[FLIGHTREC_A_KEEP]);
	if (tb[FLIGHTREC_A_AT_EXIT]) {
		if (nla_get_u8(tb[FLIGHTREC_A_AT_EXIT]) > 1) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[FLIGHTREC_A_AT_EXIT],
					    KBUILD_MODNAME ": AT_EXIT must be 0 or 1");
			return -EINVAL;
		}
		at_exit = nla_get_u8(tb[FLIGHTREC_A_AT_EXIT]);
	}
	if (tb[FLIGHTREC_A_SERIAL])
		serial = nla_get_u8(tb[FLIGHTREC_A_SERIAL]);
	if (tb[FLIGHTREC_A_START_AT_EXEC])
		start_at_exec = nla_get_u8(tb[FLIGHTREC_A_START_AT_EXEC]);
	return fr_register(pid, interval_ms, keep, at_exit, serial, false,
			   start_at_exec, info->extack);
}

static int fr_nl_unregister(struct sk_buff *skb, struct genl_info *info)
{
	pid_t pid;
	int err;

	err = fr_nl_pid(info, &pid);
	if (err)
		return err;
	return fr_unregister(pid, info->extack);
}

static int fr_nl_dump(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	u32 dump_id = 0;
	void *hdr;
	pid_t pid;
	int err;

	err = fr_nl_pid(info, &pid);
	if (err)
		return err;
	err = fr_dump_request(pid, &dump_id, info->extack);
	if (err)
		return err;
	msg = fr_nl_reply_new(info, &hdr);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, FLIGHTREC_A_DUMP_ID, dump_id)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int fr_nl_release_dump(struct sk_buff *skb, struct genl_info *info)
{
	int err;

	if (FR_NL_NEED_DUMP_ID(info))
		return -EINVAL;
	err = fr_dump_release(nla_get_u32(info->attrs[FLIGHTREC_A_DUMP_ID]));
	if (err == -ENOENT)
		NL_SET_ERR_MSG_MOD(info->extack, "no dump with this ID");
	return err;
}

static int fr_nl_fill_proc(struct sk_buff *skb, struct netlink_callback *cb,
			   const struct fr_proc_stats *st)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &fr_genl_family, NLM_F_MULTI, FLIGHTREC_CMD_PROC);
	if (!hdr)
		return -EMSGSIZE;
	genl_dump_check_consistent(cb, hdr);
	if (nla_put_u32(skb, FLIGHTREC_A_PID, st->pid) ||
	    nla_put_string(skb, FLIGHTREC_A_COMM, st->comm) ||
	    nla_put_u32(skb, FLIGHTREC_A_INTERVAL_MS, st->interval_ms) ||
	    nla_put_u32(skb, FLIGHTREC_A_KEEP, st->keep) ||
	    nla_put_u8(skb, FLIGHTREC_A_AT_EXIT, st->at_exit) ||
	    nla_put_u8(skb, FLIGHTREC_A_SERIAL, st->serial) ||
	    nla_put_u32(skb, FLIGHTREC_A_NR_THREADS, st->nr_threads) ||
	    nla_put_u32(skb, FLIGHTREC_A_NR_INTERVALS, st->nr_ring) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_NR_SYSCALLS, st->nr_syscalls,
			      FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_LOST, st->lost, FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_LOST_PAGES, st->lost_pages,
			      FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_DROPPED, st->dropped,
			      FLIGHTREC_A_PAD) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_BYTES, st->bytes,
			      FLIGHTREC_A_PAD) ||
	    nla_put_u32(skb, FLIGHTREC_A_NR_DUMPS, st->nr_dumps) ||
	    nla_put_u8(skb, FLIGHTREC_A_FROZEN, st->frozen) ||
	    (st->stop_reason &&
	     nla_put_u32(skb, FLIGHTREC_A_STOP_REASON, st->stop_reason)))
		goto nla_put_failure;
	genlmsg_end(skb, hdr);
	return 0;

nla_put_failure:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * LIST: cb->args[0] counts the processes already passed.  A registration or
 * unregistration between two parts sets NLM_F_DUMP_INTR on the messages.
 */
static int fr_nl_list(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct fr_proc_stats st;
	struct fr_proc *proc;
	long idx = 0;

	mutex_lock(&fr_registry_lock);
	cb->seq = fr_registry_gen;
	list_for_each_entry(proc, &fr_proc_list, lnode) {
		if (idx < cb->args[0]) {
			idx++;
			continue;
		}
		fr_proc_stats(proc, &st);
		if (st.pid && fr_nl_fill_proc(skb, cb, &st))
			break;
		idx++;
	}
	mutex_unlock(&fr_registry_lock);
	cb->args[0] = idx;
	return skb->len;
}

static int fr_nl_fill_dump(struct sk_buff *skb, struct netlink_callback *cb,
			   const struct fr_dump *dump)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &fr_genl_family, NLM_F_MULTI,
			  FLIGHTREC_CMD_LIST_DUMPS);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, FLIGHTREC_A_DUMP_ID, dump->id) ||
	    nla_put_u32(skb, FLIGHTREC_A_PID, dump->pid) ||
	    nla_put_u32(skb, FLIGHTREC_A_PPID, dump->ppid) ||
	    nla_put_string(skb, FLIGHTREC_A_COMM, dump->comm) ||
	    nla_put_u32(skb, FLIGHTREC_A_END_KIND, dump->end.kind) ||
	    nla_put_u64_64bit(skb, FLIGHTREC_A_BYTES, dump->bytes,
			      FLIGHTREC_A_PAD))
		goto nla_put_failure;
	if (dump->end.kind == FLIGHTREC_END_FAULT &&
	    nla_put_u32(skb, FLIGHTREC_A_SIGNO, dump->end.signo))
		goto nla_put_failure;
	genlmsg_end(skb, hdr);
	return 0;

nla_put_failure:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * LIST_DUMPS: in increasing id order; cb->args[0] is the last id sent, so
 * dumps made or released between two parts neither repeat nor shift others.
 */
static int fr_nl_list_dumps(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct fr_dump *dump, *next;
	int err = 0;

	while (!err) {
		spin_lock(&fr_dumps_lock);
		next = NULL;
		list_for_each_entry(dump, &fr_dumps, node)
			if (dump->id > cb->args[0] &&
			    (!next || dump->id < next->id))
				next = dump;
		if (next) {
			err = fr_nl_fill_dump(skb, cb, next);
			if (!err)
				cb->args[0] = next->id;
		}
		spin_unlock(&fr_dumps_lock);
		if (!next)
			break;
	}
	return skb->len;
}

static const struct genl_small_ops fr_nl_small_ops[] = {
	{
		.cmd	= FLIGHTREC_CMD_GET_VERSION,
		.doit	= fr_nl_get_version,
	},
	{
		.cmd	= FLIGHTREC_CMD_REGISTER,
		.doit	= fr_nl_register,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= FLIGHTREC_CMD_UNREGISTER,
		.doit	= fr_nl_unregister,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= FLIGHTREC_CMD_DUMP,
		.doit	= fr_nl_dump,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= FLIGHTREC_CMD_RELEASE_DUMP,
		.doit	= fr_nl_release_dump,
		.flags	= GENL_ADMIN_PERM,
	},
};

/* the dumps: each needs .start for the CAP_SYS_ADMIN check */
static const struct genl_ops fr_nl_ops[] = {
	{
		.cmd	= FLIGHTREC_CMD_LIST,
		.start	= fr_nl_admin_start,
		.dumpit	= fr_nl_list,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= FLIGHTREC_CMD_GET_DUMP,
		.start	= fr_nl_get_dump_start,
		.dumpit	= fr_nl_get_dump,
		.done	= fr_nl_get_dump_done,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= FLIGHTREC_CMD_GET_RECORDS,
		.start	= fr_nl_get_dump_start,
		.dumpit	= fr_nl_get_records,
		.done	= fr_nl_get_records_done,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= FLIGHTREC_CMD_LIST_DUMPS,
		.start	= fr_nl_admin_start,
		.dumpit	= fr_nl_list_dumps,
		.flags	= GENL_ADMIN_PERM,
	},
};

static struct genl_family fr_genl_family __ro_after_init = {
	.name		= FLIGHTREC_GENL_NAME,
	.version	= FLIGHTREC_GENL_VERSION,
	.maxattr	= FLIGHTREC_A_MAX,
	.policy		= fr_nl_policy,
	.netnsok	= false,
	.parallel_ops	= true,	/* fr_registry_lock serialises, not genl_mutex */
	.pre_doit	= fr_nl_pre_doit,
	.post_doit	= fr_nl_post_doit,
	.ops		= fr_nl_ops,
	.n_ops		= ARRAY_SIZE(fr_nl_ops),
	.small_ops	= fr_nl_small_ops,
	.n_small_ops	= ARRAY_SIZE(fr_nl_small_ops),
	.mcgrps		= fr_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(fr_nl_mcgrps),
	.module		= THIS_MODULE,
};

/*
 * Announces @event for process @pid (a pid of the initial pid namespace) on
 * the "events" group; @dump_id 0 means none.  Process context only (it
 * allocates with GFP_KERNEL and may wait for unregistration); a no-op while
 * the family is not registered.
 */
void fr_nl_event(u32 event, pid_t pid, u32 dump_id)
{
	fr_nl_event_stop(event, pid, dump_id, FLIGHTREC_STOP_NONE);
}

/* An event with a FLIGHTREC_A_STOP_REASON (when @reason is not NONE). */
void fr_nl_event_stop(u32 event, pid_t pid, u32 dump_id, u32 reason)
{
	struct sk_buff *skb;
	void *hdr;

	might_sleep();
	down_read(&fr_nl_sem);
	if (!fr_nl_registered)
		goto out_unlock;
	skb = genlmsg_new(4 * nla_total_size(sizeof(u32)), GFP_KERNEL);
	if (!skb)
		goto out_unlock;
	hdr = genlmsg_put(skb, 0, 0, &fr_genl_family, 0, FLIGHTREC_CMD_EVENT);
	if (!hdr)
		goto out_free;
	if (nla_put_u32(skb, FLIGHTREC_A_EVENT, event) ||
	    nla_put_u32(skb, FLIGHTREC_A_PID, pid) ||
	    (dump_id && nla_put_u32(skb, FLIGHTREC_A_DUMP_ID, dump_id)) ||
	    (reason && nla_put_u32(skb, FLIGHTREC_A_STOP_REASON, reason)))
		goto out_free;
	genlmsg_end(skb, hdr);
	/* -ESRCH: nobody listens */
	genlmsg_multicast(&fr_genl_family, skb, 0, FR_NL_MCGRP_EVENTS,
			  GFP_KERNEL);
	goto out_unlock;

out_free:
	nlmsg_free(skb);
out_unlock:
	up_read(&fr_nl_sem);
}

int fr_netlink_init(void)
{
	int err;

	err = genl_register_family(&fr_genl_family);
	if (err)
		return err;
	down_write(&fr_nl_sem);
	fr_nl_registered = true;
	up_write(&fr_nl_sem);
	return 0;
}

void fr_netlink_exit(void)
{
	down_write(&fr_nl_sem);
	fr_nl_registered = false;
	up_write(&fr_nl_sem);
	genl_unregister_family(&fr_genl_family);
}
