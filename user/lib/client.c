// SPDX-License-Identifier: GPL-2.0
/*
 * libflightrec: the generic netlink client of the flightrec module.
 *
 * One request socket per client (libnl-genl), one more for events after
 * fr_client_subscribe().  Every request is sent with an ack requested and
 * answered through the ack/error/finish callback trio; the kernel's extack
 * message, when there is one, is copied to the caller's error buffer.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include "flightrec.h"		/* uapi */
#include "libflightrec.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define FR_RCVBUF	(4 << 20)	/* socket receive buffer */
#define FR_MSGBUF	(64 << 10)	/* largest message read at once */
#define FR_MSG_PREFIX	FLIGHTREC_GENL_NAME ": "

struct fr_client {
	struct nl_sock *sk;		/* requests */
	struct nl_sock *ev;		/* events, after fr_client_subscribe() */
	int family;
	int ev_group;			/* FLIGHTREC_MCGRP_EVENTS, 0 if none */
	uint32_t abi;
	uint32_t family_version;	/* CTRL_ATTR_VERSION: the ABI version */
	bool version_asked;		/* GET_VERSION answered: version[] */
	char version[64];
	char error[256];		/* message of the last failure */
};

/* Every attribute of uapi/flightrec.h, by the type its comment gives. */
static struct nla_policy fr_nl_policy[FLIGHTREC_A_MAX + 1] = {
	[FLIGHTREC_A_ABI_VERSION]	= { .type = NLA_U32 },
	[FLIGHTREC_A_VERSION]		= { .type = NLA_STRING },
	[FLIGHTREC_A_PID]		= { .type = NLA_U32 },
	[FLIGHTREC_A_INTERVAL_MS]	= { .type = NLA_U32 },
	[FLIGHTREC_A_KEEP]		= { .type = NLA_U32 },
	[FLIGHTREC_A_AT_EXIT]		= { .type = NLA_U8 },
	[FLIGHTREC_A_DUMP_ID]		= { .type = NLA_U32 },
	[FLIGHTREC_A_EVENT]		= { .type = NLA_U32 },
	[FLIGHTREC_A_REC_TYPE]		= { .type = NLA_U32 },
	[FLIGHTREC_A_INTERVAL]		= { .type = NLA_U32 },
	[FLIGHTREC_A_START_NS]		= { .type = NLA_U64 },
	[FLIGHTREC_A_END_NS]		= { .type = NLA_U64 },
	[FLIGHTREC_A_INTERVAL_FLAGS]	= { .type = NLA_U32 },
	[FLIGHTREC_A_NR_SYSCALLS]	= { .type = NLA_U64 },
	[FLIGHTREC_A_LOST]		= { .type = NLA_U64 },
	[FLIGHTREC_A_PPID]		= { .type = NLA_U32 },
	[FLIGHTREC_A_COMM]		= { .type = NLA_STRING },
	[FLIGHTREC_A_EXE]		= { .type = NLA_STRING },
	[FLIGHTREC_A_CMDLINE]		= { .type = NLA_UNSPEC },
	[FLIGHTREC_A_AUXV]		= { .type = NLA_UNSPEC },
	[FLIGHTREC_A_PERSONALITY]	= { .type = NLA_U32 },
	[FLIGHTREC_A_UNAME]		= { .type = NLA_UNSPEC },
	[FLIGHTREC_A_START]		= { .type = NLA_U64 },
	[FLIGHTREC_A_END]		= { .type = NLA_U64 },
	[FLIGHTREC_A_PROT]		= { .type = NLA_U32 },
	[FLIGHTREC_A_MAP_FLAGS]		= { .type = NLA_U32 },
	[FLIGHTREC_A_PGOFF]		= { .type = NLA_U64 },
	[FLIGHTREC_A_INODE]		= { .type = NLA_U64 },
	[FLIGHTREC_A_DEV]		= { .type = NLA_U32 },
	[FLIGHTREC_A_PATH]		= { .type = NLA_STRING },
	[FLIGHTREC_A_TID]		= { .type = NLA_U32 },
	[FLIGHTREC_A_REGS]		= { .type = NLA_UNSPEC },
	[FLIGHTREC_A_XSAVE]		= { .type = NLA_UNSPEC },
	[FLIGHTREC_A_FS_BASE]		= { .type = NLA_U64 },
	[FLIGHTREC_A_GS_BASE]		= { .type = NLA_U64 },
	[FLIGHTREC_A_SIGMASK]		= { .type = NLA_U64 },
	[FLIGHTREC_A_ADDR]		= { .type = NLA_U64 },
	[FLIGHTREC_A_PAGE_FLAGS]	= { .type = NLA_U32 },
	[FLIGHTREC_A_DATA]		= { .type = NLA_UNSPEC },
	[FLIGHTREC_A_SEQ]		= { .type = NLA_U64 },
	[FLIGHTREC_A_NR]		= { .type = NLA_U32 },
	[FLIGHTREC_A_ARGS]		= { .type = NLA_UNSPEC, .minlen = 6 * 8 },
	[FLIGHTREC_A_RET]		= { .type = NLA_U64 },	/* s64 */
	[FLIGHTREC_A_SC_FLAGS]		= { .type = NLA_U32 },
	[FLIGHTREC_A_OUT]		= { .type = NLA_NESTED },
	[FLIGHTREC_A_SIGNO]		= { .type = NLA_U32 },
	[FLIGHTREC_A_HANDLER]		= { .type = NLA_U64 },
	[FLIGHTREC_A_SA_FLAGS]		= { .type = NLA_U64 },
	[FLIGHTREC_A_RESTORER]		= { .type = NLA_U64 },
	[FLIGHTREC_A_SA_MASK]		= { .type = NLA_U64 },
	[FLIGHTREC_A_END_KIND]		= { .type = NLA_U32 },
	[FLIGHTREC_A_SI_CODE]		= { .type = NLA_U32 },	/* s32 */
	[FLIGHTREC_A_FAULT_ADDR]	= { .type = NLA_U64 },
	[FLIGHTREC_A_EXIT_CODE]		= { .type = NLA_U32 },
	[FLIGHTREC_A_CPUID]		= { .type = NLA_UNSPEC },
	[FLIGHTREC_A_XCR0]		= { .type = NLA_U64 },
	[FLIGHTREC_A_NR_THREADS]	= { .type = NLA_U32 },
	[FLIGHTREC_A_NR_INTERVALS]	= { .type = NLA_U32 },
	[FLIGHTREC_A_DROPPED]		= { .type = NLA_U64 },
	[FLIGHTREC_A_BYTES]		= { .type = NLA_U64 },
	[FLIGHTREC_A_FROZEN]		= { .type = NLA_U8 },
	[FLIGHTREC_A_SAS_SP]		= { .type = NLA_U64 },
	[FLIGHTREC_A_SAS_SIZE]		= { .type = NLA_U64 },
	[FLIGHTREC_A_SAS_FLAGS]		= { .type = NLA_U32 },
	[FLIGHTREC_A_RSEQ]		= { .type = NLA_U64 },
	[FLIGHTREC_A_RSEQ_LEN]		= { .type = NLA_U32 },
	[FLIGHTREC_A_RSEQ_SIG]		= { .type = NLA_U32 },
	[FLIGHTREC_A_ROBUST_LIST]	= { .type = NLA_U64 },
	[FLIGHTREC_A_ROBUST_LEN]	= { .type = NLA_U64 },
	[FLIGHTREC_A_BRK_START]		= { .type = NLA_U64 },
	[FLIGHTREC_A_BRK]		= { .type = NLA_U64 },
	[FLIGHTREC_A_IN_SYSCALL]	= { .type = NLA_U32 },	/* s32 */
	[FLIGHTREC_A_BUILD_ID]		= { .type = NLA_UNSPEC },
	[FLIGHTREC_A_NR_DUMPS]		= { .type = NLA_U32 },
	[FLIGHTREC_A_LOST_PAGES]	= { .type = NLA_U64 },
	[FLIGHTREC_A_CLEAR_CHILD_TID]	= { .type = NLA_U64 },
	[FLIGHTREC_A_IN_HASH]		= { .type = NLA_U64 },
	[FLIGHTREC_A_IN_HASH_SA]	= { .type = NLA_U64 },
	[FLIGHTREC_A_IN_HASH_FULL]	= { .type = NLA_U64 },
	[FLIGHTREC_A_IN_HASH_W]		= { .type = NLA_U64 },
	[FLIGHTREC_A_RSEQ_CPU]		= { .type = NLA_U32 },
	[FLIGHTREC_A_RSEQ_NODE]		= { .type = NLA_U32 },
	[FLIGHTREC_A_RSEQ_MM_CID]	= { .type = NLA_U32 },
	[FLIGHTREC_A_SERIAL]		= { .type = NLA_U8 },
	[FLIGHTREC_A_STOP_REASON]	= { .type = NLA_U32 },
	[FLIGHTREC_A_CMDLINE_LEN]	= { .type = NLA_U32 },
	[FLIGHTREC_A_CMDLINE_OFFSET]	= { .type = NLA_U32 },
	[FLIGHTREC_A_TIME_NS]		= { .type = NLA_U64 },
	[FLIGHTREC_A_START_AT_EXEC]	= { .type = NLA_U8 },
	[FLIGHTREC_A_PREV_DUMP]		= { .type = NLA_U32 },
};
/* a new attribute in uapi/flightrec.h needs its line above */
_Static_assert(FLIGHTREC_A_MAX == FLIGHTREC_A_IN_HASH_W,
	       "fr_nl_policy does not cover every FLIGHTREC_A_* attribute");

static struct nla_policy fr_nl_out_policy[FLIGHTREC_OUT_MAX + 1] = {
	[FLIGHTREC_OUT_ARG]	= { .type = NLA_U32 },
	[FLIGHTREC_OUT_ADDR]	= { .type = NLA_U64 },
	[FLIGHTREC_OUT_DATA]	= { .type = NLA_UNSPEC },
	[FLIGHTREC_OUT_INDEX]	= { .type = NLA_U32 },
	[FLIGHTREC_OUT_LEN]	= { .type = NLA_U32 },
	[FLIGHTREC_OUT_OFFSET]	= { .type = NLA_U32 },
};
_Static_assert(FLIGHTREC_OUT_MAX == FLIGHTREC_OUT_OFFSET,
	       "fr_nl_out_policy does not cover every FLIGHTREC_OUT_* attribute");

const struct nla_policy *fr_nl_attr_policy(void)
{
	return fr_nl_policy;
}

const struct nla_policy *fr_nl_out_attr_policy(void)
{
	return fr_nl_out_policy;
}

static void fr_seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fr_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* libnl's error codes, back to errno */
static int fr_nlerr(int nlerr)
{
	switch (nlerr < 0 ? -nlerr : nlerr) {
	case 0:			return 0;
	case NLE_INTR:		return -EINTR;
	case NLE_BAD_SOCK:	return -EBADF;
	case NLE_AGAIN:		return -EAGAIN;
	case NLE_NOMEM:		return -ENOMEM;
	case NLE_EXIST:		return -EEXIST;
	case NLE_INVAL:		return -EINVAL;
	case NLE_RANGE:		return -ERANGE;
	case NLE_MSGSIZE:	return -EMSGSIZE;
	case NLE_OPNOTSUPP:	return -EOPNOTSUPP;
	case NLE_AF_NOSUPPORT:	return -EAFNOSUPPORT;
	case NLE_OBJ_NOTFOUND:	return -ENOENT;
	case NLE_NOATTR:	return -ENOENT;
	case NLE_MISSING_ATTR:	return -EINVAL;
	case NLE_AF_MISMATCH:	return -EAFNOSUPPORT;
	case NLE_SEQ_MISMATCH:	return -EPROTO;
	case NLE_MSG_OVERFLOW:	return -EOVERFLOW;
	case NLE_MSG_TRUNC:	return -EMSGSIZE;
	case NLE_NOADDR:	return -EADDRNOTAVAIL;
	case NLE_SRCRT_NOSUPPORT: return -EOPNOTSUPP;
	case NLE_MSG_TOOSHORT:	return -EPROTO;
	case NLE_MSGTYPE_NOSUPPORT: return -EOPNOTSUPP;
	case NLE_OBJ_MISMATCH:	return -EINVAL;
	case NLE_NOCACHE:	return -ENOENT;
	case NLE_BUSY:		return -EBUSY;
	case NLE_PROTO_MISMATCH: return -EPROTONOSUPPORT;
	case NLE_NOACCESS:	return -EACCES;
	case NLE_PERM:		return -EPERM;
	case NLE_PKTLOC_FILE:	return -ENOENT;
	case NLE_PARSE_ERR:	return -EINVAL;
	case NLE_NODEV:		return -ENODEV;
	case NLE_IMMUTABLE:	return -EROFS;
	case NLE_DUMP_INTR:	return -EINTR;
	case NLE_ATTRSIZE:	return -EMSGSIZE;
	default:		return -EIO;
	}
}

/* ---- one request, one answer -------------------------------------------- */

struct fr_req {
	struct fr_client *c;
	int done;		/* the answer is complete */
	int err;		/* 0 or -errno from the kernel */
	int cb_err;		/* the caller's callback failed: skip the rest */
	int intr;		/* NLM_F_DUMP_INTR seen */
	int reply_ends;		/* sent without NLM_F_ACK: one reply is all */
	uint32_t seq;		/* the request's sequence number */
	char msg[256];		/* extack message */
	int (*valid)(struct nl_msg *msg, struct fr_req *req);
	void *arg;
};

/*
 * The extack TLVs after an error (or the errno of a DONE): see
 * Documentation/userspace-api/netlink/intro.rst, "Extended ACK".
 */
static void fr_req_extack(struct fr_req *req, struct nlmsghdr *nlh,
			  int ack_len)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    (int)nlh->nlmsg_len <= ack_len)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX,
		      (struct nlattr *)((char *)nlh + ack_len),
		      nlh->nlmsg_len - ack_len, NULL))
		return;
	if (tb[NLMSGERR_ATTR_MSG] && nla_len(tb[NLMSGERR_ATTR_MSG]) > 0) {
		const char *m = nla_data(tb[NLMSGERR_ATTR_MSG]);
		int len = strnlen(m, nla_len(tb[NLMSGERR_ATTR_MSG]));
		size_t pfx = strlen(FR_MSG_PREFIX);

		/* NL_SET_ERR_MSG_MOD() puts the module's name first */
		if ((size_t)len >= pfx && !strncmp(m, FR_MSG_PREFIX, pfx)) {
			m += pfx;
			len -= pfx;
		}
		snprintf(req->msg, sizeof(req->msg), "%.*s", len, m);
	}
}

static int fr_cb_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)e - 1;
	struct fr_req *req = arg;
	int ack_len = sizeof(*nlh) + sizeof(int) + sizeof(*nlh);

	(void)nla;
	req->err = e->error;
	req->done = 1;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		ack_len += e->msg.nlmsg_len - sizeof(*nlh);
	fr_req_extack(req, nlh, ack_len);
	return NL_STOP;
}

static int fr_cb_ack(struct nl_msg *msg, void *arg)
{
	struct fr_req *req = arg;

	(void)msg;
	req->done = 1;
	return NL_STOP;
}

/* NLMSG_DONE of a dump: carries the dump's errno, and maybe an extack */
static int fr_cb_finish(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct fr_req *req = arg;
	int e;

	req->done = 1;
	if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(int))) {
		memcpy(&e, nlmsg_data(nlh), sizeof(e));
		if (e < 0) {
			req->err = e;
			fr_req_extack(req, nlh, NLMSG_LENGTH(sizeof(int)));
		}
	}
	return NL_STOP;
}

static int fr_cb_intr(struct nl_msg *msg, void *arg)
{
	struct fr_req *req = arg;

	(void)msg;
	req->intr = 1;
	return NL_OK;	/* the message still goes to NL_CB_VALID */
}

/*
 * The answer to this request, by its sequence number; anything else (a late
 * answer to an earlier one) is skipped.  libnl's own check expects the
 * next number only after an ACK, and a request that is answered by its
 * reply alone gets none.
 */
static int fr_cb_seq(struct nl_msg *msg, void *arg)
{
	const struct fr_req *req = arg;

	return nlmsg_hdr(msg)->nlmsg_seq == req->seq ? NL_OK : NL_SKIP;
}

static int fr_cb_valid(struct nl_msg *msg, void *arg)
{
	struct fr_req *req = arg;

	/* after a callback failed or the dump changed, read to the end */
	if (req->cb_err || req->intr || !req->valid)
		return NL_SKIP;
	req->cb_err = req->valid(msg, req);
	if (req->reply_ends) {
		req->done = 1;
		return NL_STOP;
	}
	return NL_SKIP;
}

/*
 * Sends msg (consumed) and reads the whole answer: the replies go to
 * req->valid; returns 0 or -errno, with a message in c->error.
 */
static int fr_transact(struct fr_client *c, struct nl_msg *msg,
		       struct fr_req *req)
{
	struct nl_cb *cb;
	int rc;

	req->c = c;
	c->error[0] = '\0';
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		snprintf(c->error, sizeof(c->error), "out of memory");
		return -ENOMEM;
	}
	nl_cb_err(cb, NL_CB_CUSTOM, fr_cb_error, req);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, fr_cb_ack, req);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, fr_cb_finish, req);
	nl_cb_set(cb, NL_CB_DUMP_INTR, NL_CB_CUSTOM, fr_cb_intr, req);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, fr_cb_valid, req);
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, fr_cb_seq, req);

	/*
	 * A request whose one reply says it all goes without NLM_F_ACK: no
	 * second message to build and read (an error still comes back).
	 */
	if (req->reply_ends)
		nl_socket_disable_auto_ack(c->sk);
	rc = nl_send_auto(c->sk, msg);
	if (req->reply_ends)
		nl_socket_enable_auto_ack(c->sk);
	req->seq = nlmsg_hdr(msg)->nlmsg_seq;	/* nl_send_auto() set it */
	nlmsg_free(msg);
	if (rc < 0) {
		nl_cb_put(cb);
		snprintf(c->error, sizeof(c->error),
			 "cannot send to the flightrec module: %s",
			 nl_geterror(rc));
		return fr_nlerr(rc);
	}
	while (!req->done) {
		rc = nl_recvmsgs(c->sk, cb);
		if (rc < 0 && !req->done) {
			nl_cb_put(cb);
			snprintf(c->error, sizeof(c->error),
				 "reading from the flightrec module: %s",
				 nl_geterror(rc));
			return fr_nlerr(rc);
		}
	}
	nl_cb_put(cb);

	if (req->err) {
		if (req->msg[0])
			snprintf(c->error, sizeof(c->error), "%s", req->msg);
		else
			snprintf(c->error, sizeof(c->error), "%s",
				 strerror(-req->err));
		return req->err;
	}
	if (req->intr) {
		snprintf(c->error, sizeof(c->error),
			 "the data changed while it was read (NLM_F_DUMP_INTR)");
		return -EINTR;
	}
	if (req->cb_err) {
		if (!c->error[0])
			snprintf(c->error, sizeof(c->error), "%s",
				 strerror(req->cb_err < 0 ? -req->cb_err : EIO));
		return req->cb_err < 0 ? req->cb_err : -EIO;
	}
	return 0;
}

static struct nl_msg *fr_msg(struct fr_client *c, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, c->family, 0, flags,
			 cmd, FLIGHTREC_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static int fr_parse(struct nl_msg *msg, struct nlattr **tb)
{
	return genlmsg_parse(nlmsg_hdr(msg), 0, tb, FLIGHTREC_A_MAX,
			     fr_nl_policy);
}

/* a request with attributes already put; copies c->error to err */
static int fr_simple(struct fr_client *c, struct nl_msg *msg,
		     struct fr_req *req, char *err, size_t errlen)
{
	int rc = fr_transact(c, msg, req);

	if (rc)
		fr_seterr(err, errlen, "%s", c->error);
	return rc;
}

#define FR_NOMSG(c, err, errlen) ({					\
	snprintf((c)->error, sizeof((c)->error), "out of memory");	\
	fr_seterr((err), (errlen), "out of memory");			\
	-ENOMEM;							\
})

/* ---- open, version -------------------------------------------------------- */

static int fr_version_reply(struct nl_msg *msg, struct fr_req *req)
{
	struct nlattr *tb[FLIGHTREC_A_MAX + 1];
	struct fr_client *c = req->c;

	if (fr_parse(msg, tb) || !tb[FLIGHTREC_A_ABI_VERSION])
		return -EPROTO;
	c->abi = nla_get_u32(tb[FLIGHTREC_A_ABI_VERSION]);
	c->version_asked = true;
	if (tb[FLIGHTREC_A_VERSION])
		snprintf(c->version, sizeof(c->version), "%s",
			 nla_get_string(tb[FLIGHTREC_A_VERSION]));
	return 0;
}

/* The family's id and its event group, from one CTRL_CMD_GETFAMILY. */
static int fr_family_reply(struct nl_msg *msg, struct fr_req *req)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1], *g;
	struct fr_client *c = req->c;
	int rem;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, CTRL_ATTR_MAX, NULL) ||
	    !tb[CTRL_ATTR_FAMILY_ID])
		return -EPROTO;
	c->family = nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (tb[CTRL_ATTR_VERSION])
		c->family_version = nla_get_u32(tb[CTRL_ATTR_VERSION]);
	if (!tb[CTRL_ATTR_MCAST_GROUPS])
		return 0;
	nla_for_each_nested(g, tb[CTRL_ATTR_MCAST_GROUPS], rem) {
		struct nlattr *gtb[CTRL_ATTR_MCAST_GRP_MAX + 1];

		if (nla_parse_nested(gtb, CTRL_ATTR_MCAST_GRP_MAX, g, NULL) ||
		    !gtb[CTRL_ATTR_MCAST_GRP_NAME] || !gtb[CTRL_ATTR_MCAST_GRP_ID])
			continue;
		if (!nla_strcmp(gtb[CTRL_ATTR_MCAST_GRP_NAME], FLIGHTREC_MCGRP_EVENTS))
			c->ev_group = (int)nla_get_u32(gtb[CTRL_ATTR_MCAST_GRP_ID]);
	}
	return 0;
}

/* GET_VERSION: the module's ABI version and its version string */
static int fr_ask_version(struct fr_client *c, char *err, size_t errlen)
{
	struct fr_req req = { .valid = fr_version_reply, .reply_ends = 1 };
	struct nl_msg *msg = fr_msg(c, FLIGHTREC_CMD_GET_VERSION, 0);

	if (!msg)
		return FR_NOMSG(c, err, errlen);
	return fr_simple(c, msg, &req, err, errlen);
}

static int fr_socket(struct nl_sock **skp, char *err, size_t errlen)
{
	struct nl_sock *sk;
	int one = 1, rc;

	sk = nl_socket_alloc();
	if (!sk) {
		fr_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rc = genl_connect(sk);
	if (rc) {
		fr_seterr(err, errlen, "cannot open a generic netlink socket: %s",
			  nl_geterror(rc));
		nl_socket_free(sk);
		return fr_nlerr(rc);
	}
	/*
	 * Large dumps: a big socket buffer.  Every message is read whole in
	 * one recvmsg, without peeking at its size first (a second system
	 * call per message): the kernel's dump skbs are at most 32 KiB
	 * (FR_NL_DUMP_ALLOC, and netlink_recvmsg caps what a reader's buffer
	 * can raise that to), its replies NLMSG_GOODSIZE.  A larger one
	 * would fail with NLE_MSG_TRUNC, not be cut silently.
	 */
	nl_socket_set_buffer_size(sk, FR_RCVBUF, 0);
	nl_socket_set_msg_buf_size(sk, FR_MSGBUF);
	nl_socket_disable_msg_peek(sk);
	/* the kernel's error messages; best effort */
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	*skp = sk;
	return 0;
}

int fr_client_open(struct fr_client **out, char *err, size_t errlen)
{
	struct fr_req req = { 0 };
	struct fr_client *c;
	struct nl_msg *msg;
	int rc;

	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c) {
		fr_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rc = fr_socket(&c->sk, err, errlen);
	if (rc)
		goto out_free;

	/* the family and its event group at once: one round trip, not two */
	msg = nlmsg_alloc();
	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL, 0, 0,
				 CTRL_CMD_GETFAMILY, 1) ||
	    nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, FLIGHTREC_GENL_NAME)) {
		nlmsg_free(msg);
		rc = FR_NOMSG(c, err, errlen);
		goto out_close;
	}
	req.valid = fr_family_reply;
	req.reply_ends = 1;
	rc = fr_transact(c, msg, &req);
	if (rc == -ENOENT) {
		fr_seterr(err, errlen,
			  "the flightrec module is not loaded (insmod kernel/flightrec.ko)");
		rc = FR_ENOMODULE;
		goto out_close;
	}
	if (!rc && c->family <= 0)
		rc = -EPROTO;
	if (rc) {
		fr_seterr(err, errlen, "cannot look up the flightrec netlink family: %s",
			  c->error[0] ? c->error : strerror(-rc));
		goto out_close;
	}

	/*
	 * The family's version is the ABI version (uapi/flightrec.h): when it
	 * is ours, the lookup said all that matters and GET_VERSION (the
	 * module's version string) waits until someone asks for it.  A module
	 * whose family says another version speaks another ABI: it is asked,
	 * and its answer is the authority.  (Every module so far had family
	 * version 1, the ABI version, before the rule was written down.)
	 */
	if (c->family_version == FLIGHTREC_ABI_VERSION) {
		c->abi = c->family_version;
	} else {
		rc = fr_ask_version(c, err, errlen);
		if (rc)
			goto out_close;
	}
	if (!c->abi) {
		fr_seterr(err, errlen,
			  "the flightrec module did not say its ABI version");
		rc = FR_EABI;
		goto out_close;
	}
	if (c->abi != FLIGHTREC_ABI_VERSION) {
		fr_seterr(err, errlen,
			  "the flightrec module (version %s) speaks ABI version %u, this tool speaks %u: use the tools built with that module",
			  c->version[0] ? c->version : "?", c->abi,
			  FLIGHTREC_ABI_VERSION);
		rc = FR_EABI;
		goto out_close;
	}
	*out = c;
	return 0;

out_close:
	nl_socket_free(c->sk);
out_free:
	free(c);
	return rc;
}

void fr_client_close(struct fr_client *c)
{
	if (!c)
		return;
	if (c->ev)
		nl_socket_free(c->ev);
	nl_socket_free(c->sk);
	free(c);
}

const char *fr_client_version(struct fr_client *c, uint32_t *abi)
{
	/* asked once, when first wanted; "" if the module would not say */
	if (!c->version_asked) {
		char err[8];

		c->version_asked = true;
		fr_ask_version(c, err, sizeof(err));
		c->error[0] = '\0';
	}
	if (abi)
		*abi = c->abi;
	return c->version;
}

const char *fr_client_error(const struct fr_client *c)
{
	return c->error;
}

/* ---- commands ------------------------------------------------------------ */

int fr_client_register_opts(struct fr_client *c, uint32_t pid,
			    const struct fr_reg_opts *o, char *err, size_t errlen)
{
	struct fr_req req = { 0 };
	struct nl_msg *msg;

	msg = fr_msg(c, FLIGHTREC_CMD_REGISTER, 0);
	if (!msg || nla_put_u32(msg, FLIGHTREC_A_PID, pid) ||
	    (o->interval_ms && nla_put_u32(msg, FLIGHTREC_A_INTERVAL_MS, o->interval_ms)) ||
	    (o->keep && nla_put_u32(msg, FLIGHTREC_A_KEEP, o->keep)) ||
	    (o->at_exit >= 0 && nla_put_u8(msg, FLIGHTREC_A_AT_EXIT, !!o->at_exit)) ||
	    (o->serial >= 0 && nla_put_u8(msg, FLIGHTREC_A_SERIAL, !!o->serial)) ||
	    (o->start_at_exec > 0 && nla_put_u8(msg, FLIGHTREC_A_START_AT_EXEC, 1))) {
		nlmsg_free(msg);
		return FR_NOMSG(c, err, errlen);
	}
	return fr_simple(c, msg, &req, err, errlen);
}

int fr_client_register(struct fr_client *c, uint32_t pid, uint32_t interval_ms,
		       uint32_t keep, int at_exit, char *err, size_t errlen)
{
	struct fr_reg_opts o = { interval_ms, keep, at_exit, -1, 0 };

	return fr_client_register_opts(c, pid, &o, err, errlen);
}

int fr_client_unregister(struct fr_client *c, uint32_t pid, char *err,
			 size_t errlen)
{
	struct fr_req req = { 0 };
	struct nl_msg *msg;

	msg = fr_msg(c, FLIGHTREC_CMD_UNREGISTER, 0);
	if (!msg || nla_put_u32(msg, FLIGHTREC_A_PID, pid)) {
		nlmsg_free(msg);
		return FR_NOMSG(c, err, errlen);
	}
	return fr_simple(c, msg, &req, err, errlen);
}

static int fr_dump_id_reply(struct nl_msg *msg, struct fr_req *req)
{
	struct nlattr *tb[FLIGHTREC_A_MAX + 1];

	if (fr_parse(msg, tb) || !tb[FLIGHTREC_A_DUMP_ID])
		return -EPROTO;
	*(uint32_t *)req->arg = nla_get_u32(tb[FLIGHTREC_A_DUMP_ID]);
	return 0;
}

int fr_client_dump(struct fr_client *c, uint32_t pid, uint32_t *dump_id,
		   char *err, size_t errlen)
{
	struct fr_req req = { .valid = fr_dump_id_reply, .arg = dump_id };
	struct nl_msg *msg;

	*dump_id = 0;
	msg = fr_msg(c, FLIGHTREC_CMD_DUMP, 0);
	if (!msg || nla_put_u32(msg, FLIGHTREC_A_PID, pid)) {
		nlmsg_free(msg);
		return FR_NOMSG(c, err, errlen);
	}
	return fr_simple(c, msg, &req, err, errlen);
}

int fr_client_release_dump(struct fr_client *c, uint32_t dump_id, char *err,
			   size_t errlen)
{
	struct fr_req req = { 0 };
	struct nl_msg *msg;

	msg = fr_msg(c, FLIGHTREC_CMD_RELEASE_DUMP, 0);
	if (!msg || nla_put_u32(msg, FLIGHTREC_A_DUMP_ID, dump_id)) {
		nlmsg_free(msg);
		return FR_NOMSG(c, err, errlen);
	}
	return fr_simple(c, msg, &req, err, errlen);
}

/* ---- LIST ------------------------------------------------------------------ */

static uint32_t fr_u32(struct nlattr **tb, int t)
{
	return tb[t] ? nla_get_u32(tb[t]) : 0;
}

static uint64_t fr_u64(struct nlattr **tb, int t)
{
	return tb[t] ? nla_get_u64(tb[t]) : 0;
}

static uint8_t fr_u8(struct nlattr **tb, int t)
{
	return tb[t] ? nla_get_u8(tb[t]) : 0;
}

struct fr_list_ctx {
	int (*cb)(const struct fr_proc_info *info, void *arg);
	void *arg;
};

static int fr_list_reply(struct nl_msg *msg, struct fr_req *req)
{
	struct nlattr *tb[FLIGHTREC_A_MAX + 1];
	struct fr_list_ctx *ctx = req->arg;
	struct fr_proc_info info = { 0 };

	if (fr_parse(msg, tb) || !tb[FLIGHTREC_A_PID])
		return -EPROTO;
	info.pid = fr_u32(tb, FLIGHTREC_A_PID);
	if (tb[FLIGHTREC_A_COMM])
		snprintf(info.comm, sizeof(info.comm), "%s",
			 nla_get_string(tb[FLIGHTREC_A_COMM]));
	info.interval_ms = fr_u32(tb, FLIGHTREC_A_INTERVAL_MS);
	info.keep = fr_u32(tb, FLIGHTREC_A_KEEP);
	info.at_exit = fr_u8(tb, FLIGHTREC_A_AT_EXIT);
	info.nr_threads = fr_u32(tb, FLIGHTREC_A_NR_THREADS);
	info.nr_intervals = fr_u32(tb, FLIGHTREC_A_NR_INTERVALS);
	info.nr_syscalls = fr_u64(tb, FLIGHTREC_A_NR_SYSCALLS);
	info.lost = fr_u64(tb, FLIGHTREC_A_LOST);
	info.lost_pages = fr_u64(tb, FLIGHTREC_A_LOST_PAGES);
	info.dropped = fr_u64(tb, FLIGHTREC_A_DROPPED);
	info.bytes = fr_u64(tb, FLIGHTREC_A_BYTES);
	info.nr_dumps = fr_u32(tb, FLIGHTREC_A_NR_DUMPS);
	info.frozen = fr_u8(tb, FLIGHTREC_A_FROZEN);
	info.stop_reason = fr_u32(tb, FLIGHTREC_A_STOP_REASON);
	return ctx->cb(&info, ctx->arg);
}

/*
 * The list is read again when a registration changed it in the middle
 * (NLM_F_DUMP_INTR); the callback may then have seen some processes twice,
 * so it is only called on a consistent read: the entries are collected first.
 */
struct fr_list_buf {
	struct fr_proc_info *v;
	size_t n, cap;
};

static int fr_list_collect(const struct fr_proc_info *info, void *arg)
{
	struct fr_list_buf *b = arg;

	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 16;
		struct fr_proc_info *v = realloc(b->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = *info;
	return 0;
}

int fr_client_list(struct fr_client *c,
		   int (*cb)(const struct fr_proc_info *info, void *arg),
		   void *arg)
{
	struct fr_list_buf buf = { 0 };
	struct fr_list_ctx ctx = { fr_list_collect, &buf };
	int rc, tries;
	size_t i;

	for (tries = 0; tries < 8; tries++) {
		struct fr_req req = { .valid = fr_list_reply, .arg = &ctx };
		struct nl_msg *msg = fr_msg(c, FLIGHTREC_CMD_LIST, NLM_F_DUMP);

		if (!msg) {
			free(buf.v);
			return FR_NOMSG(c, NULL, 0);
		}
		buf.n = 0;
		rc = fr_transact(c, msg, &req);
		if (rc != -EINTR || !req.intr)
			break;
	}
	for (i = 0; !rc && i < buf.n; i++)
		rc = cb(&buf.v[i], arg);
	free(buf.v);
	return rc;
}

struct fr_dumps_ctx {
	int (*cb)(const struct fr_dump_info *info, void *arg);
	void *arg;
};

static int fr_list_dumps_reply(struct nl_msg *msg, struct fr_req *req)
{
	struct nlattr *tb[FLIGHTREC_A_MAX + 1];
	struct fr_dumps_ctx *ctx = req->arg;
	struct fr_dump_info info = { 0 };

	if (fr_parse(msg, tb) || !tb[FLIGHTREC_A_DUMP_ID])
		return -EPROTO;
	info.id = fr_u32(tb, FLIGHTREC_A_DUMP_ID);
	info.pid = fr_u32(tb, FLIGHTREC_A_PID);
	info.ppid = fr_u32(tb, FLIGHTREC_A_PPID);
	if (tb[FLIGHTREC_A_COMM])
		snprintf(info.comm, sizeof(info.comm), "%s",
			 nla_get_string(tb[FLIGHTREC_A_COMM]));
	info.end_kind = fr_u32(tb, FLIGHTREC_A_END_KIND);
	info.signo = fr_u32(tb, FLIGHTREC_A_SIGNO);
	info.bytes = fr_u64(tb, FLIGHTREC_A_BYTES);
	return ctx->cb(&info, ctx->arg);
}

/* Dumps appear in increasing id order; no NLM_F_DUMP_INTR (see netlink.c). */
int fr_client_list_dumps(struct fr_client *c,
			 int (*cb)(const struct fr_dump_info *info, void *arg),
			 void *arg)
{
	struct fr_dumps_ctx ctx = { cb, arg };
	struct fr_req req = { .valid = fr_list_dumps_reply, .arg = &ctx };
	struct nl_msg *msg = fr_msg(c, FLIGHTREC_CMD_LIST_DUMPS, NLM_F_DUMP);

	if (!msg)
		return FR_NOMSG(c, NULL, 0);
	return fr_transact(c, msg, &req);
}

/* ---- GET_DUMP -------------------------------------------------------------- */

struct fr_get_dump_ctx {
	int (*cb)(struct nlattr **tb, void *arg);
	int (*raw)(struct nlattr **tb, const struct nlattr *attrs, int attrlen,
		   void *arg);
	void *arg;
	uint64_t records;
};

static int fr_record_reply(struct nl_msg *msg, struct fr_req *req)
{
	struct fr_get_dump_ctx *ctx = req->arg;
	struct nlattr *tb[FLIGHTREC_A_MAX + 1];
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gh = nlmsg_data(nlh);
	int rc;

	if (gh->cmd != FLIGHTREC_CMD_RECORD)
		return 0;
	rc = fr_parse(msg, tb);
	if (rc) {
		snprintf(req->c->error, sizeof(req->c->error),
			 "record %llu is malformed: %s",
			 (unsigned long long)ctx->records, nl_geterror(rc));
		return -EPROTO;
	}
	ctx->records++;
	if (ctx->raw)
		return ctx->raw(tb, genlmsg_attrdata(gh, 0),
				genlmsg_attrlen(gh, 0), ctx->arg);
	return ctx->cb(tb, ctx->arg);
}

static int fr_get_dump(struct fr_client *c, uint32_t dump_id,
		       struct fr_get_dump_ctx *ctx, char *err, size_t errlen)
{
	struct fr_req req = { .valid = fr_record_reply, .arg = ctx };
	struct nl_msg *msg;
	int rc;

	msg = fr_msg(c, FLIGHTREC_CMD_GET_DUMP, NLM_F_DUMP);
	if (!msg || nla_put_u32(msg, FLIGHTREC_A_DUMP_ID, dump_id)) {
		nlmsg_free(msg);
		return FR_NOMSG(c, err, errlen);
	}
	rc = fr_transact(c, msg, &req);
	if (rc)
		fr_seterr(err, errlen, "dump %u: %s", dump_id, c->error);
	return rc;
}

int fr_client_get_dump(struct fr_client *c, uint32_t dump_id,
		       int (*cb)(struct nlattr **tb, void *arg), void *arg,
		       char *err, size_t errlen)
{
	struct fr_get_dump_ctx ctx = { .cb = cb, .arg = arg };

	return fr_get_dump(c, dump_id, &ctx, err, errlen);
}

int fr_client_get_dump_raw(struct fr_client *c, uint32_t dump_id,
			   int (*cb)(struct nlattr **tb,
				     const struct nlattr *attrs, int attrlen,
				     void *arg),
			   void *arg, char *err, size_t errlen)
{
	struct fr_get_dump_ctx ctx = { .raw = cb, .arg = arg };

	return fr_get_dump(c, dump_id, &ctx, err, errlen);
}

int fr_client_get_records(struct fr_client *c, uint32_t pid,
			  int (*cb)(struct nlattr **tb,
				    const struct nlattr *attrs, int attrlen,
				    void *arg),
			  void *arg, char *err, size_t errlen)
{
	struct fr_get_dump_ctx ctx = { .raw = cb, .arg = arg };
	struct fr_req req = { .valid = fr_record_reply, .arg = &ctx };
	struct nl_msg *msg;
	int rc;

	msg = fr_msg(c, FLIGHTREC_CMD_GET_RECORDS, NLM_F_DUMP);
	if (!msg || nla_put_u32(msg, FLIGHTREC_A_PID, pid)) {
		nlmsg_free(msg);
		return FR_NOMSG(c, err, errlen);
	}
	rc = fr_transact(c, msg, &req);
	if (rc)
		fr_seterr(err, errlen, "records of %u: %s", pid, c->error);
	return rc;
}

/* ---- events ------------------------------------------------------------------ */

int fr_client_subscribe(struct fr_client *c, char *err, size_t errlen)
{
	int grp, rc;

	if (c->ev)
		return 0;
	grp = c->ev_group;	/* from the family's lookup (fr_client_open) */
	if (grp <= 0) {
		fr_seterr(err, errlen, "the flightrec family has no \"%s\" group",
			  FLIGHTREC_MCGRP_EVENTS);
		return -ENOENT;
	}
	rc = fr_socket(&c->ev, err, errlen);
	if (rc)
		return rc;
	nl_socket_disable_seq_check(c->ev);
	rc = nl_socket_add_membership(c->ev, grp);
	if (rc) {
		fr_seterr(err, errlen, "cannot join the \"%s\" group: %s",
			  FLIGHTREC_MCGRP_EVENTS, nl_geterror(rc));
		nl_socket_free(c->ev);
		c->ev = NULL;
		return fr_nlerr(rc);
	}
	return 0;
}

int fr_client_event_fd(const struct fr_client *c)
{
	return c->ev ? nl_socket_get_fd(c->ev) : -1;
}

struct fr_ev_ctx {
	struct fr_event *ev;
	int got;
};

static int fr_cb_event(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FLIGHTREC_A_MAX + 1];
	struct fr_ev_ctx *ctx = arg;
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));

	if (gh->cmd != FLIGHTREC_CMD_EVENT || fr_parse(msg, tb) ||
	    !tb[FLIGHTREC_A_EVENT])
		return NL_SKIP;
	ctx->ev->event = fr_u32(tb, FLIGHTREC_A_EVENT);
	ctx->ev->pid = fr_u32(tb, FLIGHTREC_A_PID);
	ctx->ev->dump_id = fr_u32(tb, FLIGHTREC_A_DUMP_ID);
	ctx->ev->stop_reason = fr_u32(tb, FLIGHTREC_A_STOP_REASON);
	ctx->got = 1;
	return NL_STOP;
}

int fr_client_next_event(struct fr_client *c, int timeout_ms,
			 struct fr_event *ev)
{
	struct fr_ev_ctx ctx = { .ev = ev };
	struct pollfd pfd;
	struct nl_cb *cb;
	int rc;

	if (!c->ev)
		return -EBADF;
	pfd.fd = nl_socket_get_fd(c->ev);
	pfd.events = POLLIN;
	for (;;) {
		rc = poll(&pfd, 1, timeout_ms);
		if (rc < 0)
			return errno == EINTR ? -EINTR : -errno;
		if (!rc)
			return 0;
		/* a clone of the socket's: it keeps the disabled sequence check */
		cb = nl_cb_clone(nl_socket_get_cb(c->ev));
		if (!cb)
			return -ENOMEM;
		nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, fr_cb_event, &ctx);
		rc = nl_recvmsgs(c->ev, cb);
		nl_cb_put(cb);
		if (ctx.got)
			return 1;
		if (rc < 0) {
			/* ENOBUFS: the socket overflowed, events were lost */
			rc = fr_nlerr(rc);
			snprintf(c->error, sizeof(c->error),
				 "reading events: %s", strerror(-rc));
			return rc == -ENOMEM ? -ENOBUFS : rc;
		}
		/* not an event: wait again (the timeout restarts) */
	}
}

const char *fr_event_name(uint32_t event)
{
	switch (event) {
	case FLIGHTREC_EVENT_INTERVAL:	return "interval";
	case FLIGHTREC_EVENT_FAULT:	return "fault";
	case FLIGHTREC_EVENT_DUMP:	return "dump";
	case FLIGHTREC_EVENT_EXIT:	return "exit";
	case FLIGHTREC_EVENT_DROP:	return "drop";
	case FLIGHTREC_EVENT_STOPPED:	return "stopped";
	default:			return "unknown";
	}
}

const char *fr_stop_reason_name(uint32_t reason)
{
	switch (reason) {
	case FLIGHTREC_STOP_NONE:		return "none";
	case FLIGHTREC_STOP_EXEC_CREDS:		return "exec-changed-credentials";
	case FLIGHTREC_STOP_NOT_DUMPABLE:	return "not-dumpable";
	case FLIGHTREC_STOP_YAMA:		return "yama-ptrace-scope";
	case FLIGHTREC_STOP_SIGKILL:		return "killed-by-sigkill";
	default:				return "unknown";
	}
}
