// SPDX-License-Identifier: GPL-2.0
/*
 * netlink - the generic netlink family "flightrec" through libflightrec, and
 * raw requests libflightrec would never send: the ABI version, REGISTER,
 * UNREGISTER, LIST, DUMP / LIST_DUMPS / GET_DUMP / RELEASE_DUMP, the events
 * group, the errnos and extack messages of refusals, the strict policy,
 * permissions, and the flightrec command's exit codes.
 */
#include "kselftest_harness.h"
#include "fr_test.h"
#include "fr_privs.h"

#include <grp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <linux/genetlink.h>
#include <netlink/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include "flightrec.h"		/* uapi */
#include "libflightrec.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* ---- helpers ---------------------------------------------------------------------- */

struct found {
	pid_t pid;
	int hits;
	struct fr_proc_info info;
};

static int find_proc(const struct fr_proc_info *info, void *arg)
{
	struct found *f = arg;

	if (info->pid == (uint32_t)f->pid) {
		f->hits++;
		f->info = *info;
	}
	return 0;
}

/* How many times pid appears in LIST (its entry in *info); -errno on error. */
static int listed(struct fr_client *c, pid_t pid, struct fr_proc_info *info)
{
	struct found f = { .pid = pid };
	int rc = fr_client_list(c, find_proc, &f);

	if (rc)
		return rc;
	if (info)
		*info = f.info;
	return f.hits;
}

static int count_procs(const struct fr_proc_info *info, void *arg)
{
	(void)info;
	(*(int *)arg)++;
	return 0;
}

/* ---- raw requests ---------------------------------------------------------------------- */

struct raw_ans {
	int done, err;
	char msg[256];
};

static int raw_err(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)e - 1;
	struct raw_ans *a = arg;
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	int len = sizeof(*nlh) + sizeof(int) + sizeof(*nlh);

	(void)nla;
	a->done = 1;
	a->err = e->error;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		len += e->msg.nlmsg_len - sizeof(*nlh);
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && (int)nlh->nlmsg_len > len &&
	    !nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((char *)nlh + len),
		       nlh->nlmsg_len - len, NULL) && tb[NLMSGERR_ATTR_MSG])
		snprintf(a->msg, sizeof(a->msg), "%s",
			 (char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	return NL_STOP;
}

static int raw_ack(struct nl_msg *msg, void *arg)
{
	(void)msg;
	((struct raw_ans *)arg)->done = 1;
	return NL_STOP;
}

static int raw_finish(struct nl_msg *msg, void *arg)
{
	(void)msg;
	((struct raw_ans *)arg)->done = 1;
	return NL_STOP;
}

/*
 * Sends cmd with the attributes put by fill (a do request, ack asked) and
 * returns the kernel's errno (0 on success) with its extack message.
 */
static int raw_request(uint8_t cmd, int dump,
		       int (*fill)(struct nl_msg *msg, void *arg), void *arg,
		       struct raw_ans *a)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_msg *msg;
	struct nl_cb *cb;
	int family, one = 1, rc;

	memset(a, 0, sizeof(*a));
	if (!sk || genl_connect(sk))
		return -ENOTCONN;
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one,
		   sizeof(one));
	family = genl_ctrl_resolve(sk, FLIGHTREC_GENL_NAME);
	if (family < 0) {
		nl_socket_free(sk);
		return -ENOENT;
	}
	msg = nlmsg_alloc();
	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
		    dump ? NLM_F_DUMP : 0, cmd, FLIGHTREC_GENL_VERSION);
	if (fill && fill(msg, arg)) {
		nlmsg_free(msg);
		nl_socket_free(sk);
		return -EMSGSIZE;
	}
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	nl_cb_err(cb, NL_CB_CUSTOM, raw_err, a);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, raw_ack, a);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, raw_finish, a);
	rc = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	while (rc >= 0 && !a->done)
		rc = nl_recvmsgs(sk, cb);
	nl_cb_put(cb);
	nl_socket_free(sk);
	return a->done ? a->err : -EIO;
}

struct attrs {
	int n;
	struct { int type, len; uint64_t val; } a[4];
};

static int fill_attrs(struct nl_msg *msg, void *arg)
{
	struct attrs *at = arg;
	int i;

	for (i = 0; i < at->n; i++)
		if (nla_put(msg, at->a[i].type, at->a[i].len, &at->a[i].val))
			return -1;
	return 0;
}

/* ---- fixture: a client and a child ------------------------------------------------------ */

FIXTURE(nl) {
	struct fr_client *c;
	pid_t a;
	char err[256];
};

FIXTURE_SETUP(nl)
{
	FR_REQUIRE_MODULE();
	FR_REQUIRE_ROOT();
	ASSERT_EQ(0, fr_client_open(&self->c, self->err, sizeof(self->err)))
		TH_LOG("%s", self->err);
	self->a = spawn_sleeper();
	ASSERT_LT(0, self->a);
}

FIXTURE_TEARDOWN(nl)
{
	char err[256];

	if (self->c && self->a > 0)
		fr_client_unregister(self->c, self->a, err, sizeof(err));
	fr_kill_wait(self->a);
	fr_client_close(self->c);
}

TEST_F(nl, version)
{
	uint32_t abi = 0;
	const char *v = fr_client_version(self->c, &abi);

	char status[256], line[96];

	struct nl_sock *sk = nl_socket_alloc();
	struct nl_cache *cache = NULL;
	struct genl_family *f;

	EXPECT_EQ(FLIGHTREC_ABI_VERSION, abi);
	/* asked of the module when wanted: the lookup did not need it */
	ASSERT_NE(0, v[0]);
	/*
	 * The family's version is the ABI version: fr_client_open() checks
	 * the ABI on the family lookup alone when it finds its own there.
	 */
	ASSERT_NE(NULL, sk);
	ASSERT_EQ(0, genl_connect(sk));
	ASSERT_EQ(0, genl_ctrl_alloc_cache(sk, &cache));
	f = genl_ctrl_search_by_name(cache, FLIGHTREC_GENL_NAME);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(FLIGHTREC_ABI_VERSION, genl_family_get_version(f));
	genl_family_put(f);
	nl_cache_free(cache);
	nl_socket_free(sk);
	/* the same as the status file says */
	ASSERT_LT(0, fr_read_file(FR_PROC_DIR "/status", status, sizeof(status)));
	snprintf(line, sizeof(line), "version %s abi %d\n", v, FLIGHTREC_ABI_VERSION);
	EXPECT_EQ(0, strncmp(status, line, strlen(line))) TH_LOG("%s", status);
}

TEST_F(nl, register_list_unregister)
{
	struct fr_proc_info info;

	ASSERT_EQ(0, listed(self->c, self->a, NULL));
	ASSERT_EQ(0, fr_client_register(self->c, self->a, 120, 3, 1, self->err,
					sizeof(self->err))) TH_LOG("%s", self->err);
	ASSERT_EQ(1, listed(self->c, self->a, &info));
	EXPECT_EQ(120, info.interval_ms);
	EXPECT_EQ(3, info.keep);
	EXPECT_EQ(1, info.at_exit);
	EXPECT_EQ(1, info.nr_threads);
	EXPECT_EQ(0, info.frozen);
	EXPECT_STREQ("netlink", info.comm);
	ASSERT_EQ(0, fr_client_unregister(self->c, self->a, self->err,
					  sizeof(self->err))) TH_LOG("%s", self->err);
	EXPECT_EQ(0, listed(self->c, self->a, NULL));

	/* defaults: 0 / -1 leave them to the module */
	ASSERT_EQ(0, fr_client_register(self->c, self->a, 0, 0, -1, self->err,
					sizeof(self->err)));
	ASSERT_EQ(1, listed(self->c, self->a, &info));
	EXPECT_EQ(0, info.at_exit);
	EXPECT_LE(FLIGHTREC_INTERVAL_MS_MIN, info.interval_ms);
	EXPECT_LE(FLIGHTREC_KEEP_MIN, info.keep);
}

/* seconds on Debian's kernel under TCG; past 120 s on the debug kernel, twice */
TEST_F_TIMEOUT(nl, list_many, 120)
{
	pid_t kids[20];
	int i, n = 0;

	for (i = 0; i < 20; i++) {
		kids[i] = spawn_sleeper();
		ASSERT_LT(0, kids[i]);
		ASSERT_EQ(0, fr_client_register(self->c, kids[i], 0, 0, -1,
						self->err, sizeof(self->err)));
	}
	ASSERT_EQ(0, fr_client_list(self->c, count_procs, &n));
	EXPECT_EQ(20, n);
	for (i = 0; i < 20; i++) {
		EXPECT_EQ(1, listed(self->c, kids[i], NULL));
		EXPECT_EQ(0, fr_client_unregister(self->c, kids[i], self->err,
						  sizeof(self->err)));
		fr_kill_wait(kids[i]);
	}
	n = 0;
	ASSERT_EQ(0, fr_client_list(self->c, count_procs, &n));
	EXPECT_EQ(0, n);
}

/* The errnos of the control file, each with the kernel's message. */
TEST_F(nl, refusals_have_messages)
{
	pid_t gone = free_pid();
	uint32_t id;

	ASSERT_LT(0, gone);
	EXPECT_EQ(-ESRCH, fr_client_register(self->c, gone, 0, 0, -1, self->err,
					     sizeof(self->err)));
	EXPECT_STREQ("no process with this PID", self->err);

	EXPECT_EQ(-ENOENT, fr_client_unregister(self->c, self->a, self->err,
						sizeof(self->err)));
	EXPECT_STREQ("the process is not registered", self->err);

	EXPECT_EQ(-EINVAL, fr_client_register(self->c, self->a, 9, 0, -1,
					      self->err, sizeof(self->err)));
	EXPECT_STREQ("interval_ms out of range (10-60000)", self->err);
	EXPECT_EQ(-EINVAL, fr_client_register(self->c, self->a, 60001, 0, -1,
					      self->err, sizeof(self->err)));
	EXPECT_EQ(-EINVAL, fr_client_register(self->c, self->a, 0, 65, -1,
					      self->err, sizeof(self->err)));
	EXPECT_STREQ("keep out of range (1-64)", self->err);

	EXPECT_EQ(-EPERM, fr_client_register(self->c, 2, 0, 0, -1, self->err,
					     sizeof(self->err)));
	EXPECT_STREQ("kernel threads cannot be recorded", self->err);

	EXPECT_EQ(-EINVAL, fr_client_register(self->c, 0, 0, 0, -1, self->err,
					      sizeof(self->err)));
	EXPECT_STREQ("PID must be from 1 to 2147483647", self->err);
	EXPECT_EQ(-EINVAL, fr_client_register(self->c, 0x80000000u, 0, 0, -1,
					      self->err, sizeof(self->err)));
	EXPECT_EQ(-EINVAL, fr_client_unregister(self->c, 0, self->err,
						sizeof(self->err)));
	EXPECT_EQ(-EINVAL, fr_client_dump(self->c, 0xffffffffu, &id, self->err,
					  sizeof(self->err)));

	ASSERT_EQ(0, fr_client_register(self->c, self->a, 0, 0, -1, self->err,
					sizeof(self->err)));
	EXPECT_EQ(-EEXIST, fr_client_register(self->c, self->a, 0, 0, -1,
					      self->err, sizeof(self->err)));
	EXPECT_STREQ("the process is already registered", self->err);

	EXPECT_EQ(-ENOENT, fr_client_release_dump(self->c, 0x7fffffff, self->err,
						  sizeof(self->err)));
	EXPECT_STREQ("no dump with this ID", self->err);
	/* nothing above changed the registration */
	EXPECT_EQ(1, listed(self->c, self->a, NULL));
}

/* The strict policy, and requests libflightrec does not send. */
TEST_F(nl, strict_policy)
{
	struct raw_ans ans;
	struct attrs at;

	/* no PID */
	EXPECT_EQ(-EINVAL, raw_request(FLIGHTREC_CMD_REGISTER, 0, NULL, NULL, &ans));
	EXPECT_STREQ("flightrec: PID is required", ans.msg);
	EXPECT_EQ(-EINVAL, raw_request(FLIGHTREC_CMD_UNREGISTER, 0, NULL, NULL, &ans));
	EXPECT_EQ(-EINVAL, raw_request(FLIGHTREC_CMD_DUMP, 0, NULL, NULL, &ans));
	EXPECT_EQ(-EINVAL, raw_request(FLIGHTREC_CMD_RELEASE_DUMP, 0, NULL, NULL, &ans));
	EXPECT_STREQ("flightrec: DUMP_ID is required", ans.msg);

	/* a PID of the wrong size */
	at = (struct attrs){ 1, { { FLIGHTREC_A_PID, 2, self->a } } };
	EXPECT_EQ(-EINVAL, raw_request(FLIGHTREC_CMD_REGISTER, 0, fill_attrs, &at, &ans));
	EXPECT_NE(0, ans.msg[0]);
	at = (struct attrs){ 1, { { FLIGHTREC_A_PID, 8, self->a } } };
	EXPECT_EQ(-EINVAL, raw_request(FLIGHTREC_CMD_REGISTER, 0, fill_attrs, &at, &ans));

	/* an attribute a request may not carry */
	at = (struct attrs){ 2, { { FLIGHTREC_A_PID, 4, self->a },
				  { FLIGHTREC_A_BYTES, 8, 1 } } };
	EXPECT_EQ(-EINVAL, raw_request(FLIGHTREC_CMD_REGISTER, 0, fill_attrs, &at, &ans));
	EXPECT_NE(0, ans.msg[0]);

	/* an attribute past the end of the enum */
	at = (struct attrs){ 2, { { FLIGHTREC_A_PID, 4, self->a },
				  { FLIGHTREC_A_MAX + 1, 4, 1 } } };
	EXPECT_EQ(-EINVAL, raw_request(FLIGHTREC_CMD_REGISTER, 0, fill_attrs, &at, &ans));

	/* at_exit is 0 or 1 */
	at = (struct attrs){ 2, { { FLIGHTREC_A_PID, 4, self->a },
				  { FLIGHTREC_A_AT_EXIT, 1, 2 } } };
	EXPECT_EQ(-EINVAL, raw_request(FLIGHTREC_CMD_REGISTER, 0, fill_attrs, &at, &ans));

	/* a command the family does not have */
	EXPECT_EQ(-EOPNOTSUPP, raw_request(FLIGHTREC_CMD_MAX + 1, 0, NULL, NULL, &ans));
	/* messages the module sends are not requests */
	EXPECT_EQ(-EOPNOTSUPP, raw_request(FLIGHTREC_CMD_EVENT, 0, NULL, NULL, &ans));

	/* none of it registered anything */
	EXPECT_EQ(0, listed(self->c, self->a, NULL));

	/* the same request, well formed, works */
	at = (struct attrs){ 1, { { FLIGHTREC_A_PID, 4, self->a } } };
	EXPECT_EQ(0, raw_request(FLIGHTREC_CMD_REGISTER, 0, fill_attrs, &at, &ans));
	EXPECT_EQ(1, listed(self->c, self->a, NULL));
}

struct dump_seen {
	uint32_t id;
	int hits;
	struct fr_dump_info info;
};

static int find_dump(const struct fr_dump_info *info, void *arg)
{
	struct dump_seen *d = arg;

	if (info->id == d->id) {
		d->hits++;
		d->info = *info;
	}
	return 0;
}

struct rec_count {
	uint64_t n, types[__FLIGHTREC_REC_MAX];
	uint32_t first;
};

static int count_records(struct nlattr **tb, void *arg)
{
	struct rec_count *rc = arg;
	uint32_t t;

	if (!tb[FLIGHTREC_A_REC_TYPE])
		return -EPROTO;
	t = nla_get_u32(tb[FLIGHTREC_A_REC_TYPE]);
	if (!rc->n)
		rc->first = t;
	rc->n++;
	if (t < __FLIGHTREC_REC_MAX)
		rc->types[t]++;
	return 0;
}

static int stop_at_three(struct nlattr **tb, void *arg)
{
	(void)tb;
	return ++*(int *)arg == 3 ? -ECANCELED : 0;
}

TEST_F(nl, dumps)
{
	struct rec_count rc = { 0 };
	struct dump_seen seen = { 0 };
	uint32_t id = 0;
	int n = 0;

	ASSERT_EQ(0, fr_client_register(self->c, self->a, 50, 4, -1, self->err,
					sizeof(self->err)));
	usleep(300000);
	ASSERT_EQ(0, fr_client_dump(self->c, self->a, &id, self->err,
				    sizeof(self->err))) TH_LOG("%s", self->err);
	ASSERT_NE(0, id);

	seen.id = id;
	ASSERT_EQ(0, fr_client_list_dumps(self->c, find_dump, &seen));
	EXPECT_EQ(1, seen.hits);
	EXPECT_EQ((uint32_t)self->a, seen.info.pid);
	EXPECT_EQ(FLIGHTREC_END_DUMP, seen.info.end_kind);

	ASSERT_EQ(0, fr_client_get_dump(self->c, id, count_records, &rc,
					self->err, sizeof(self->err)))
		TH_LOG("%s", self->err);
	EXPECT_LT(3, rc.n);
	EXPECT_EQ(1, rc.types[FLIGHTREC_REC_PROCESS]);
	EXPECT_EQ(1, rc.types[FLIGHTREC_REC_END]);
	EXPECT_LE(1, rc.types[FLIGHTREC_REC_INTERVAL]);

	/* a callback that stops: its error comes back, the socket stays usable */
	EXPECT_EQ(-ECANCELED, fr_client_get_dump(self->c, id, stop_at_three, &n,
						 self->err, sizeof(self->err)));
	EXPECT_EQ(3, n);
	EXPECT_EQ(1, listed(self->c, self->a, NULL));

	ASSERT_EQ(0, fr_client_release_dump(self->c, id, self->err,
					    sizeof(self->err)));
	EXPECT_EQ(-ENOENT, fr_client_get_dump(self->c, id, count_records, &rc,
					      self->err, sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "no such dump")) TH_LOG("%s", self->err);
	EXPECT_EQ(-ENOENT, fr_client_release_dump(self->c, id, self->err,
						  sizeof(self->err)));
	seen.hits = 0;
	ASSERT_EQ(0, fr_client_list_dumps(self->c, find_dump, &seen));
	EXPECT_EQ(0, seen.hits);

	EXPECT_EQ(-ENOENT, fr_client_dump(self->c, free_pid(), &id, self->err,
					  sizeof(self->err)));
}

/* The events group: a manual dump, then the exit of the process. */
TEST_F(nl, events)
{
	struct fr_event ev;
	uint32_t id = 0;
	int i, rc, got_dump = 0, got_exit = 0;

	ASSERT_EQ(0, fr_client_subscribe(self->c, self->err, sizeof(self->err)))
		TH_LOG("%s", self->err);
	ASSERT_LE(0, fr_client_event_fd(self->c));
	ASSERT_EQ(0, fr_client_register(self->c, self->a, 50, 2, -1, self->err,
					sizeof(self->err)));
	usleep(200000);
	ASSERT_EQ(0, fr_client_dump(self->c, self->a, &id, self->err,
				    sizeof(self->err))) TH_LOG("%s", self->err);
	kill(self->a, SIGKILL);
	waitpid(self->a, NULL, 0);
	for (i = 0; i < 200 && !(got_dump && got_exit); i++) {
		rc = fr_client_next_event(self->c, 5000, &ev);
		ASSERT_LE(0, rc) TH_LOG("next_event: %d", rc);
		if (!rc)
			break;
		if (ev.pid != (uint32_t)self->a)
			continue;
		if (ev.event == FLIGHTREC_EVENT_DUMP && ev.dump_id == id)
			got_dump = 1;
		if (ev.event == FLIGHTREC_EVENT_EXIT)
			got_exit = 1;
	}
	self->a = 0;
	EXPECT_TRUE(got_dump);
	EXPECT_TRUE(got_exit);
	EXPECT_EQ(0, fr_client_release_dump(self->c, id, self->err,
					    sizeof(self->err)));
	/* nothing more: the next wait times out */
	do
		rc = fr_client_next_event(self->c, 300, &ev);
	while (rc == 1 && ev.event == FLIGHTREC_EVENT_INTERVAL);
	EXPECT_EQ(0, rc);
}

TEST_F_TIMEOUT(nl, thousand_cycles, 300)
{
	int i;

	for (i = 0; i < 1000; i++) {
		ASSERT_EQ(0, fr_client_register(self->c, self->a, 0, 0, -1,
						self->err, sizeof(self->err)))
			TH_LOG("cycle %d: %s", i, self->err);
		ASSERT_EQ(0, fr_client_unregister(self->c, self->a, self->err,
						  sizeof(self->err)))
			TH_LOG("cycle %d: %s", i, self->err);
	}
	EXPECT_EQ(0, listed(self->c, self->a, NULL));
}

/* ---- permissions ---------------------------------------------------------------------- */

/* uid 65534: GET_VERSION works, nothing else does */
static int nobody_client(void *arg)
{
	pid_t target = *(pid_t *)arg;
	struct fr_client *c;
	char err[256];
	uint32_t id;
	int n = 0;

	if (drop_to_nobody())
		return 10;
	if (fr_client_open(&c, err, sizeof(err)))
		return 11;
	if (fr_client_register(c, target, 0, 0, -1, err, sizeof(err)) != -EPERM)
		return 12;
	if (fr_client_unregister(c, target, err, sizeof(err)) != -EPERM)
		return 13;
	if (fr_client_list(c, count_procs, &n) != -EPERM)
		return 14;
	if (fr_client_dump(c, target, &id, err, sizeof(err)) != -EPERM)
		return 15;
	if (fr_client_list_dumps(c, NULL, NULL) != -EPERM)
		return 16;
	if (fr_client_release_dump(c, 1, err, sizeof(err)) != -EPERM)
		return 17;
	if (fr_client_subscribe(c, err, sizeof(err)) != -EPERM)
		return 18;
	fr_client_close(c);
	return 0;
}

/* root without CAP_SYS_ADMIN (CAP_NET_ADMIN kept): refused, with a message */
static int no_sys_admin_client(void *arg)
{
	pid_t target = *(pid_t *)arg;
	struct fr_client *c;
	char err[256];
	int n = 0;

	if (drop_caps(CAPBIT(CAP_SYS_ADMIN)))
		return 10;
	if (fr_client_open(&c, err, sizeof(err)))
		return 11;
	if (fr_client_register(c, target, 0, 0, -1, err, sizeof(err)) != -EPERM)
		return 12;
	if (strcmp(err, "CAP_SYS_ADMIN is required"))
		return 13;
	if (fr_client_list(c, count_procs, &n) != -EPERM)
		return 14;
	fr_client_close(c);
	return 0;
}

/* without CAP_SYS_PTRACE: a process of another uid is refused */
static int no_ptrace_client(void *arg)
{
	pid_t target = *(pid_t *)arg;
	struct fr_client *c;
	char err[256];

	if (drop_caps(CAPBIT(CAP_SYS_PTRACE)))
		return 10;
	if (fr_client_open(&c, err, sizeof(err)))
		return 11;
	if (fr_client_register(c, target, 0, 0, -1, err, sizeof(err)) != -EPERM)
		return 12;
	if (!strstr(err, "ptrace"))
		return 13;
	fr_client_close(c);
	return 0;
}

TEST_F(nl, permissions)
{
	pid_t other;
	int ready[2];
	char ch;

	ASSERT_EQ(0, fr_client_register(self->c, self->a, 0, 0, -1, self->err,
					sizeof(self->err)));
	EXPECT_EQ(0, in_child(nobody_client, &self->a));
	EXPECT_EQ(0, in_child(no_sys_admin_client, &self->a));
	EXPECT_EQ(1, listed(self->c, self->a, NULL));

	ASSERT_EQ(0, pipe(ready));
	other = fork();
	ASSERT_LE(0, other);
	if (other == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (drop_to_nobody())
			_exit(1);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			usleep(2000);
	}
	ASSERT_EQ(1, read(ready[0], &ch, 1));
	EXPECT_EQ(0, in_child(no_ptrace_client, &other));
	EXPECT_EQ(0, listed(self->c, other, NULL));
	fr_kill_wait(other);
}

/* ---- the flightrec command ---------------------------------------------------------------- */

static int tool(char *out, size_t outsz, const char *a1, const char *a2,
		const char *a3, const char *a4)
{
	char *argv[] = { (char *)fr_tool("flightrec"), (char *)a1, (char *)a2,
			 (char *)a3, (char *)a4, NULL };
	int status;

	if (fr_run(argv, out, outsz, &status))
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_F(nl, command_exit_codes)
{
	char out[8192], pid[16], bad[16], want[96];

	if (access(fr_tool("flightrec"), X_OK))
		SKIP(return, "user/flightrec is not built");
	snprintf(pid, sizeof(pid), "%d", self->a);
	snprintf(bad, sizeof(bad), "%d", free_pid());

	EXPECT_EQ(FR_EXIT_OK, tool(out, sizeof(out), "version", NULL, NULL, NULL));
	EXPECT_EQ(0, strncmp(out, "flightrec ", 10));
	snprintf(want, sizeof(want), "\nmodule %s (ABI %d)\n",
		 fr_client_version(self->c, NULL), FLIGHTREC_ABI_VERSION);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);

	EXPECT_EQ(FR_EXIT_OK, tool(out, sizeof(out), "register", pid,
				   "--interval-ms", "200"));
	EXPECT_EQ(FR_EXIT_FAIL, tool(out, sizeof(out), "register", pid, NULL, NULL));
	EXPECT_EQ(FR_EXIT_OK, tool(out, sizeof(out), "list", NULL, NULL, NULL));
	EXPECT_NE(NULL, strstr(out, pid));
	EXPECT_NE(NULL, strstr(out, " 200 "));
	EXPECT_EQ(FR_EXIT_OK, tool(out, sizeof(out), "unregister", pid, NULL, NULL));
	EXPECT_EQ(FR_EXIT_FAIL, tool(out, sizeof(out), "unregister", pid, NULL, NULL));
	EXPECT_EQ(FR_EXIT_FAIL, tool(out, sizeof(out), "register", bad, NULL, NULL));

	EXPECT_EQ(FR_EXIT_USAGE, tool(out, sizeof(out), "register", NULL, NULL, NULL));
	EXPECT_EQ(FR_EXIT_USAGE, tool(out, sizeof(out), "register", "12x", NULL, NULL));
	EXPECT_EQ(FR_EXIT_USAGE, tool(out, sizeof(out), "register", pid, "--keep", "0"));
	EXPECT_EQ(FR_EXIT_USAGE, tool(out, sizeof(out), "register", pid,
				      "--interval-ms", "5"));
	EXPECT_EQ(FR_EXIT_USAGE, tool(out, sizeof(out), "register", pid, "--bogus", NULL));
	EXPECT_EQ(FR_EXIT_USAGE, tool(out, sizeof(out), "unregister", NULL, NULL, NULL));
	EXPECT_EQ(FR_EXIT_USAGE, tool(out, sizeof(out), "list", "x", NULL, NULL));
	EXPECT_EQ(FR_EXIT_USAGE, tool(out, sizeof(out), "no-such-command", NULL, NULL, NULL));
	EXPECT_EQ(0, listed(self->c, self->a, NULL));

	EXPECT_EQ(FR_EXIT_OK, tool(out, sizeof(out), "--help", NULL, NULL, NULL));
	EXPECT_NE(NULL, strstr(out, "exit status:"));
	EXPECT_NE(NULL, strstr(out, "register"));
}

TEST_HARNESS_MAIN
