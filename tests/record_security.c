// SPDX-License-Identifier: GPL-2.0
/*
 * record_security: who may record, and where recording stops (issue 23,
 * docs/security.md "Who may record").
 *
 * - registering needs CAP_SYS_PTRACE in the initial user namespace (the LSM
 *   ptrace hook is not exported to modules), on the control file and netlink;
 * - a process that is not dumpable is not registered;
 * - PR_SET_DUMPABLE 0 and an exec that changes credentials (a set-user-ID
 *   root copy of tests/progs/dumpable, run by uid 65534) stop the recording:
 *   EVENT_STOPPED with the reason, the ring dropped, dump refused (EPERM),
 *   no dump at exit even with at_exit;
 * - the pages of a MADV_DONTDUMP or memfd_secret mapping are not in the checkpoint (its map
 *   is marked FLIGHTREC_MAPF_DONTDUMP) and replay reports a touch of one;
 * - in a pid namespace (unshare --pid) every tid of a checkpoint (syscall
 *   records, thread contexts, the end) is the one the program saw;
 * - Yama ptrace_scope 3 refuses registration and the following of children.
 *   Setting it is one-way until reboot, so that case runs only with
 *   FR_YAMA3=1, in a VM of its own (scripts/check.sh does so).
 */
#include "kselftest_harness.h"
#include "fr_test.h"
#include "fr_dump.h"
#include "checkpoint.h"
#include "progs/nodump_secret.h"

#ifndef SYS_memfd_secret
#define SYS_memfd_secret 447
#endif
#include <dirent.h>
#include <grp.h>
#include <poll.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#define NOBODY	65534

struct sec_child {
	pid_t pid;
	int gate;	/* write a byte: the program goes on */
	int ready;	/* a byte: the program reached its next step */
	int out;	/* its stdout */
};

/* Runs tests/progs/dumpable with args, as uid (or -1: unchanged). */
static int sec_spawn(struct sec_child *ch, int uid, const char *a1, const char *a2)
{
	int g[2], r[2], o[2];
	pid_t pid;

	if (pipe(g) || pipe(r) || pipe(o))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (dup2(g[0], 3) != 3 || dup2(r[1], 4) != 4 || dup2(o[1], 1) != 1)
			_exit(120);
		if (uid >= 0 && (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
				 setresuid(uid, uid, uid)))
			_exit(121);
		execl(fr_prog("dumpable"), "dumpable", a1, a2, (char *)NULL);
		_exit(122);
	}
	close(g[0]);
	close(r[1]);
	close(o[1]);
	ch->pid = pid;
	ch->gate = g[1];
	ch->ready = r[0];
	ch->out = o[0];
	return 0;
}

static int sec_wait_ready(struct sec_child *ch)
{
	struct pollfd p = { .fd = ch->ready, .events = POLLIN };
	char c;

	if (poll(&p, 1, 20000) != 1 || read(ch->ready, &c, 1) != 1)
		return -ETIMEDOUT;
	return 0;
}

static void sec_close(struct sec_child *ch)
{
	fr_kill_wait(ch->pid);
	close(ch->gate);
	close(ch->ready);
	close(ch->out);
	ch->pid = 0;
}

/* The next event about pid of one of two types; 0 on a timeout. */
static int sec_event(struct fr_client *c, pid_t pid, uint32_t t1, uint32_t t2,
		     struct fr_event *ev)
{
	int rc;

	for (;;) {
		rc = fr_client_next_event(c, 20000, ev);
		if (rc <= 0 && rc != -ENOBUFS)
			return rc;
		if (rc > 0 && ev->pid == (uint32_t)pid &&
		    (ev->event == t1 || ev->event == t2))
			return 1;
	}
}

/* Its line of /proc/flightrec/status, or "" when it is not listed. */
static void sec_status(pid_t pid, char *line, size_t size)
{
	static char buf[65536];
	char key[32], *p, *e;

	line[0] = '\0';
	if (fr_read_file(FR_PROC_DIR "/status", buf, sizeof(buf)) < 0)
		return;
	snprintf(key, sizeof(key), "pid %d ", pid);
	for (p = buf; p && *p; p = e ? e + 1 : NULL) {
		e = strchr(p, '\n');
		if (!strncmp(p, key, strlen(key))) {
			snprintf(line, size, "%.*s", e ? (int)(e - p) : (int)strlen(p), p);
			return;
		}
	}
}

struct sec_find {
	pid_t pid;
	struct fr_proc_info info;
	int found;
};

static int sec_list_cb(const struct fr_proc_info *info, void *arg)
{
	struct sec_find *f = arg;

	if (info->pid == (uint32_t)f->pid) {
		f->info = *info;
		f->found = 1;
	}
	return 0;
}

static int sec_dump_cb(const struct fr_dump_info *info, void *arg)
{
	struct sec_find *f = arg;

	if (info->pid == (uint32_t)f->pid)
		f->found++;
	return 0;
}

FIXTURE(sec) {
	struct fr_client *c;
	struct sec_child ch;
	char err[256];
};

FIXTURE_SETUP(sec)
{
	FR_REQUIRE_MODULE();
	FR_REQUIRE_ROOT();
	ASSERT_EQ(0, fr_client_open(&self->c, self->err, sizeof(self->err)))
		TH_LOG("%s", self->err);
	ASSERT_EQ(0, fr_client_subscribe(self->c, self->err, sizeof(self->err)))
		TH_LOG("%s", self->err);
}

FIXTURE_TEARDOWN(sec)
{
	if (self->ch.pid > 0) {
		fr_client_unregister(self->c, self->ch.pid, self->err, sizeof(self->err));
		sec_close(&self->ch);
	}
	if (self->c)
		fr_client_close(self->c);
}

/*
 * In a child that keeps CAP_SYS_ADMIN and CAP_NET_ADMIN but drops
 * CAP_SYS_PTRACE from its effective set: both control planes refuse to
 * register with EPERM, netlink saying why.
 */
TEST_F(sec, register_needs_cap_sys_ptrace)
{
	struct { int ctl, nl; char msg[200]; } res = { 1, 1, "" };
	int p[2], status;
	pid_t pid;

	ASSERT_EQ(0, sec_spawn(&self->ch, -1, "nodump", NULL));
	ASSERT_EQ(0, sec_wait_ready(&self->ch));
	/* a dumpable target: the sleeper of this very test */
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2];
		struct fr_client *c;
		pid_t target = getppid();

		if (syscall(SYS_capget, &h, d))
			_exit(1);
		d[CAP_TO_INDEX(CAP_SYS_PTRACE)].effective &= ~CAP_TO_MASK(CAP_SYS_PTRACE);
		if (syscall(SYS_capset, &h, d))
			_exit(2);
		res.ctl = fr_control("register %d\n", target);
		if (fr_client_open(&c, res.msg, sizeof(res.msg)))
			_exit(3);
		res.nl = fr_client_register(c, target, 100, 2, 0, res.msg,
					    sizeof(res.msg));
		fr_client_close(c);
		if (write(p[1], &res, sizeof(res)) != sizeof(res))
			_exit(4);
		_exit(0);
	}
	close(p[1]);
	ASSERT_EQ(sizeof(res), read(p[0], &res, sizeof(res)));
	close(p[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	/* in case it was registered after all */
	fr_client_unregister(self->c, getpid(), self->err, sizeof(self->err));
	EXPECT_EQ(-EPERM, res.ctl);
	EXPECT_EQ(-EPERM, res.nl);
	EXPECT_NE(NULL, strstr(res.msg, "CAP_SYS_PTRACE")) TH_LOG("%s", res.msg);
}

/* A process that made itself not dumpable is not registered, even by root. */
TEST_F(sec, register_not_dumpable)
{
	int rc;

	ASSERT_EQ(0, sec_spawn(&self->ch, -1, "nodump", NULL));
	ASSERT_EQ(0, sec_wait_ready(&self->ch));
	EXPECT_EQ(-EPERM, fr_control("register %d\n", self->ch.pid));
	rc = fr_client_register(self->c, self->ch.pid, 100, 2, 0, self->err,
				sizeof(self->err));
	EXPECT_EQ(-EPERM, rc);
	EXPECT_NE(NULL, strstr(self->err, "not dumpable")) TH_LOG("%s", self->err);
}

/*
 * PR_SET_DUMPABLE 0 while recorded: EVENT_STOPPED (NOT_DUMPABLE), the
 * ring is gone (status: stopped 2, intervals 0, bytes 0), LIST says why,
 * a dump is refused with EPERM, and the exit brings no dump despite at_exit.
 */
TEST_F_TIMEOUT(sec, prctl_dumpable_stops, 120)
{
	struct sec_find f = { 0 };
	struct fr_event ev;
	char line[1024];
	uint32_t id = 0;
	int status;

	ASSERT_EQ(0, sec_spawn(&self->ch, -1, "prctl", NULL));
	ASSERT_EQ(0, sec_wait_ready(&self->ch));
	ASSERT_EQ(0, fr_client_register(self->c, self->ch.pid, 20, 4, 1, self->err,
					sizeof(self->err))) TH_LOG("%s", self->err);
	usleep(100000);
	ASSERT_EQ(1, write(self->ch.gate, "g", 1));
	ASSERT_EQ(1, sec_event(self->c, self->ch.pid, FLIGHTREC_EVENT_STOPPED,
			       FLIGHTREC_EVENT_EXIT, &ev));
	EXPECT_EQ(FLIGHTREC_EVENT_STOPPED, ev.event);
	EXPECT_EQ(FLIGHTREC_STOP_NOT_DUMPABLE, ev.stop_reason);
	ASSERT_EQ(0, sec_wait_ready(&self->ch));	/* its secret syscalls are done */

	sec_status(self->ch.pid, line, sizeof(line));
	EXPECT_NE(NULL, strstr(line, " intervals 0 ")) TH_LOG("%s", line);
	EXPECT_NE(NULL, strstr(line, " bytes 0 ")) TH_LOG("%s", line);
	EXPECT_NE(NULL, strstr(line, " stopped 2")) TH_LOG("%s", line);
	f.pid = self->ch.pid;
	ASSERT_EQ(0, fr_client_list(self->c, sec_list_cb, &f));
	ASSERT_EQ(1, f.found);
	EXPECT_EQ(FLIGHTREC_STOP_NOT_DUMPABLE, f.info.stop_reason);
	EXPECT_EQ(0, f.info.nr_intervals);
	EXPECT_EQ(0, f.info.bytes);
	EXPECT_EQ(-EPERM, fr_control("dump %d\n", self->ch.pid));
	EXPECT_EQ(-EPERM, fr_client_dump(self->c, self->ch.pid, &id, self->err,
					 sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "not dumpable")) TH_LOG("%s", self->err);

	ASSERT_EQ(1, write(self->ch.gate, "g", 1));
	ASSERT_EQ(0, fr_wait_timeout(self->ch.pid, &status, 20000));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ASSERT_EQ(1, sec_event(self->c, self->ch.pid, FLIGHTREC_EVENT_EXIT,
			       FLIGHTREC_EVENT_EXIT, &ev));
	EXPECT_EQ(0, ev.dump_id);
	f.found = 0;
	ASSERT_EQ(0, fr_client_list_dumps(self->c, sec_dump_cb, &f));
	EXPECT_EQ(0, f.found);
	self->ch.pid = 0;
}

/*
 * uid 65534 execs a set-user-ID root copy of dumpable: EVENT_STOPPED
 * (EXEC_CREDS); nothing of the privileged image is kept, no dump at exit.
 */
TEST_F_TIMEOUT(sec, setuid_exec_stops, 120)
{
	static const char suid[] = "/tmp/fr_dumpable_suid";
	struct sec_find f = { 0 };
	struct fr_event ev;
	char line[1024], out[64] = "";
	ssize_t n;
	int status;

	ASSERT_EQ(0, fr_sh("cp '%s' %s && chown 0:0 %s && chmod 4755 %s",
			   fr_prog("dumpable"), suid, suid, suid));
	ASSERT_EQ(0, sec_spawn(&self->ch, NOBODY, "exec", suid));
	ASSERT_EQ(0, sec_wait_ready(&self->ch));
	ASSERT_EQ(0, fr_client_register(self->c, self->ch.pid, 20, 4, 1, self->err,
					sizeof(self->err))) TH_LOG("%s", self->err);
	usleep(100000);
	ASSERT_EQ(1, write(self->ch.gate, "g", 1));
	ASSERT_EQ(1, sec_event(self->c, self->ch.pid, FLIGHTREC_EVENT_STOPPED,
			       FLIGHTREC_EVENT_EXIT, &ev));
	EXPECT_EQ(FLIGHTREC_EVENT_STOPPED, ev.event);
	EXPECT_EQ(FLIGHTREC_STOP_EXEC_CREDS, ev.stop_reason);
	ASSERT_EQ(0, fr_wait_timeout(self->ch.pid, &status, 20000));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	n = read(self->ch.out, out, sizeof(out) - 1);
	out[n > 0 ? n : 0] = '\0';
	/* the exec did make it root: otherwise this test proves nothing */
	EXPECT_STREQ("euid 0\n", out);
	ASSERT_EQ(1, sec_event(self->c, self->ch.pid, FLIGHTREC_EVENT_EXIT,
			       FLIGHTREC_EVENT_EXIT, &ev));
	EXPECT_EQ(0, ev.dump_id);
	f.pid = self->ch.pid;
	ASSERT_EQ(0, fr_client_list_dumps(self->c, sec_dump_cb, &f));
	EXPECT_EQ(0, f.found);
	sec_status(self->ch.pid, line, sizeof(line));
	EXPECT_STREQ("", line);
	unlink(suid);
	self->ch.pid = 0;
}

/* The *.flrc file of dir (the first), 1 when there is exactly one. */
static int sec_flrc(const char *dir, char *path, size_t size)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l > 5 && !strcmp(de->d_name + l - 5, ".flrc") && !n++)
			snprintf(path, size, "%s/%s", dir, de->d_name);
	}
	closedir(d);
	return n;
}

/*
 * A program recorded by `flightrec record` makes itself not dumpable, then
 * crashes: no checkpoint (recording stopped), and record says so and why,
 * not only that there is none.
 */
TEST_F_TIMEOUT(sec, record_says_why_no_checkpoint, 120)
{
	char dir[PATH_MAX], out[PATH_MAX + 8], path[2 * PATH_MAX], *err;
	int status;

	ASSERT_EQ(0, fr_mkdtemp(dir, sizeof(dir)));
	status = fr_sh("'%s' record --interval-ms 20 -o '%s/out' -- '%s' crash 2>'%s/stderr'",
		       fr_tool("flightrec"), dir, fr_prog("dumpable"), dir);
	err = fr_slurp(dir, "stderr", NULL);
	ASSERT_NE(NULL, err);
	EXPECT_EQ(128 + SIGSEGV, status) TH_LOG("%s", err);
	snprintf(out, sizeof(out), "%s/out", dir);
	EXPECT_EQ(0, sec_flrc(out, path, sizeof(path)));
	EXPECT_NE(NULL, strstr(err, "dumpable killed by SIGSEGV, no checkpoint: not recorded: "
				    "not-dumpable\n")) TH_LOG("record said: %s", err);
	free(err);
	fr_sh("rm -rf '%s'", dir);
}

/*
 * A secret in a MADV_DONTDUMP page, read in every interval: no page of
 * that mapping in the checkpoint, not one 16-byte piece of the secret in
 * any page (decompressed by the reader) nor in the file, its map marked;
 * replay stops at the first touch with the divergence.
 */
static void nodump_case(struct __test_metadata *_metadata, const char *mode)
{
	char dir[64], out[128], path[PATH_MAX], err[256], line[64];
	char *replay_out = NULL;
	unsigned char secret[4096];
	unsigned long long addr = 0;
	size_t i, k, hits = 0, raw_len = 0;
	int status, marked = 0, pages_in = 0, read_rec = 0;
	unsigned char *raw = NULL;
	char *rec_err = NULL;
	struct flrc *c;
	FILE *f;

	nodump_secret_fill(secret);
	ASSERT_EQ(0, fr_mkdtemp(dir, sizeof(dir)));
	snprintf(out, sizeof(out), "%s/out", dir);
	/*
	 * 8 intervals of 50 ms, the last 400 ms or more, must start after the
	 * program's first rounds: on a slow kernel boundaries come less often
	 * (they take at most a third of the process's time), and with 40
	 * rounds the window reached back to the start on the debug kernel.
	 */
	status = fr_sh("'%s' record --interval-ms 50 --keep 8 -o '%s' -- '%s' %s %u > '%s/stdout' "
		       "2>'%s/stderr'", fr_tool("flightrec"), out, fr_prog("nodump_secret"), mode,
		       40 * fr_timeout_scale(), dir, dir);
	/* what record said: every way to lose the checkpoint says why */
	rec_err = fr_slurp(dir, "stderr", NULL);
	ASSERT_EQ(128 + SIGSEGV, status) TH_LOG("record said: %s", rec_err ? rec_err : "?");
	snprintf(path, sizeof(path), "%s/stdout", dir);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	fclose(f);
	addr = strtoull(line, NULL, 16);
	ASSERT_NE(0, addr);
	ASSERT_EQ(1, sec_flrc(out, path, sizeof(path)))
		TH_LOG("record said: %s", rec_err ? rec_err : "?");
	free(rec_err);
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	for (i = 0; i < c->n_maps; i++)
		if (c->maps[i]->start <= addr && addr < c->maps[i]->end &&
		    (c->maps[i]->flags & FLIGHTREC_MAPF_DONTDUMP))
			marked++;
	for (i = 0; i < c->n_pages; i++) {
		const struct flrc_page *p = &c->pages[i];

		if (p->addr == addr || p->addr == addr + 4096)
			pages_in++;
		for (k = 0; p->data && k < sizeof(secret); k += 16)
			if (memmem(p->data, 4096, secret + k, 16))
				hits++;
	}
	/* the read() that copied it into the second page: kept, its buffer not */
	for (i = 0; i < c->n_syscalls; i++) {
		const Flightrec__Syscall *s = c->syscalls[i];

		if (s->nr == SYS_read && s->ret == 4096 && s->n_args > 1 &&
		    s->args[1] == addr + 4096) {
			read_rec++;
			EXPECT_EQ(0, s->n_out);
			EXPECT_TRUE(s->flags & FLIGHTREC_SC_NODUMP);
		}
		for (k = 0; k < s->n_out; k++)
			if (s->out[k]->data.len >= 16 &&
			    memmem(s->out[k]->data.data, s->out[k]->data.len, secret, 16))
				hits++;
	}
	flrc_free(c);
	EXPECT_LT(0, marked);
	EXPECT_EQ(0, pages_in);
	EXPECT_EQ(1, read_rec);
	EXPECT_EQ(0, hits);
	/* and not in the file's own bytes either */
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	raw = malloc(64 << 20);
	ASSERT_NE(NULL, raw);
	raw_len = fread(raw, 1, 64 << 20, f);
	fclose(f);
	for (hits = 0, k = 0; k < sizeof(secret); k += 16)
		if (memmem(raw, raw_len, secret + k, 16))
			hits++;
	free(raw);
	EXPECT_EQ(0, hits);

	/*
	 * replay: the first touch of the page is the divergence, or, where
	 * the window reached back to the read() that filled it (a loaded
	 * debug kernel: 4 VMs on 2 CPUs did), that read, with its reason
	 * (dontdump_output_in_window is that case on purpose)
	 */
	status = fr_sh("cd '%s' && '%s' replay '%s' > replay.txt 2>&1", dir,
		       fr_tool("flightrec"), path);
	EXPECT_EQ(5, status);	/* FR_EXIT_DIVERGED */
	snprintf(path, sizeof(path), "%s/replay.txt", dir);
	replay_out = malloc(65536);
	ASSERT_NE(NULL, replay_out);
	ASSERT_LE(0, fr_read_file(path, replay_out, 65536));
	EXPECT_TRUE(strstr(replay_out, "touched a page not in the dump (MADV_DONTDUMP)") ||
		    strstr(replay_out, "its output went to memory not in the dump "
				       "(MADV_DONTDUMP)"))
		TH_LOG("%s", replay_out);
	free(replay_out);
	fr_sh("rm -rf '%s'", dir);
}

TEST_F_TIMEOUT(sec, dontdump_pages_absent, 180)
{
	nodump_case(_metadata, "madvise");
}

/*
 * A window that begins before the madvise: its pages are in no checkpoint,
 * and the read() that copied the secret into the second one has no output
 * kept.  Replay must stop at that read with the reason, not run on with a
 * page the read did not fill (it then printed a smaller sum and diverged at
 * the next write, "different arguments", on the debug kernel).  One
 * interval of 60 s: the window is the whole run.
 */
TEST_F_TIMEOUT(sec, dontdump_output_in_window, 180)
{
	char dir[64], out[128], path[PATH_MAX], buf[8192];
	int status;

	ASSERT_EQ(0, fr_mkdtemp(dir, sizeof(dir)));
	snprintf(out, sizeof(out), "%s/out", dir);
	status = fr_sh("'%s' record --interval-ms 60000 --keep 2 -o '%s' -- '%s' madvise 12 "
		       "> '%s/stdout' 2>'%s/stderr'", fr_tool("flightrec"), out,
		       fr_prog("nodump_secret"), dir, dir);
	ASSERT_EQ(128 + SIGSEGV, status);
	ASSERT_EQ(1, sec_flrc(out, path, sizeof(path)));
	status = fr_sh("cd '%s' && '%s' replay '%s' > replay.txt 2>&1", dir,
		       fr_tool("flightrec"), path);
	EXPECT_EQ(5, status);	/* FR_EXIT_DIVERGED */
	snprintf(path, sizeof(path), "%s/replay.txt", dir);
	ASSERT_LE(0, fr_read_file(path, buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "its output went to memory not in the dump (MADV_DONTDUMP)"))
		TH_LOG("%s", buf);
	EXPECT_NE(NULL, strstr(buf, "expected read(")) TH_LOG("%s", buf);
	fr_sh("rm -rf '%s'", dir);
}

/*
 * The same with the pages a memfd_secret(2) mapping (VM_DONTDUMP set by the
 * kernel).  The 6.1 kernel has memfd_secret only when booted with
 * secretmem.enable=1, as scripts/check.sh boots the VM.
 */
TEST_F_TIMEOUT(sec, secretmem_pages_absent, 180)
{
	long fd = syscall(SYS_memfd_secret, 0);

	if (fd < 0)
		SKIP(return, "no memfd_secret here (%s): boot with secretmem.enable=1",
		     strerror(errno));
	close((int)fd);
	nodump_case(_metadata, "secretmem");
}

static int sec_has(const long *v, int n, long x)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/*
 * Recorded inside `unshare --pid --fork --mount-proc` by flightrec record
 * running there too: the process pid and every tid in the checkpoint
 * (syscall records, thread contexts, end) are the ones the program printed
 * (gettid() in its namespace), and all four threads appear in the records.
 */
TEST_F_TIMEOUT(sec, pidns_tids_consistent, 180)
{
	char dir[64], out[128], path[PATH_MAX], err[256], line[64];
	long tids[8], pid = 0, v;
	int ntids = 0, status, bad = 0, seen[8] = { 0 };
	struct flrc *c;
	size_t i;
	FILE *f;

	ASSERT_EQ(0, fr_sh("unshare --help >/dev/null 2>&1"));
	ASSERT_EQ(0, fr_mkdtemp(dir, sizeof(dir)));
	snprintf(out, sizeof(out), "%s/out", dir);
	status = fr_sh("unshare --pid --fork --mount-proc '%s' record -o '%s' -- '%s' > '%s/stdout' 2>'%s/stderr'",
		       fr_tool("flightrec"), out, fr_prog("pidns_threads"), dir, dir);
	ASSERT_EQ(128 + SIGABRT, status);
	snprintf(path, sizeof(path), "%s/stdout", dir);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "pid %ld", &v) == 1)
			pid = v;
		else if (sscanf(line, "tid %ld", &v) == 1 && ntids < 8)
			tids[ntids++] = v;
	}
	fclose(f);
	ASSERT_EQ(4, ntids);
	/* a namespace of its own: small numbers, not the VM's */
	EXPECT_GT(10, pid);
	ASSERT_EQ(1, sec_flrc(out, path, sizeof(path)));
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(pid, (long)c->hdr->process->pid);
	for (i = 0; i < c->n_syscalls; i++) {
		long t = c->syscalls[i]->tid;
		int k;

		if (!sec_has(tids, ntids, t) && bad++ < 5)
			TH_LOG("syscall seq %llu: tid %ld not printed by the program",
			       (unsigned long long)c->syscalls[i]->seq, t);
		for (k = 0; k < ntids; k++)
			seen[k] |= tids[k] == t;
	}
	for (i = 0; i < c->n_threads; i++)
		if (!sec_has(tids, ntids, c->threads[i]->tid) && bad++ < 10)
			TH_LOG("thread context: tid %u not printed by the program",
			       c->threads[i]->tid);
	EXPECT_TRUE(c->end->has_tid);
	EXPECT_TRUE(sec_has(tids, ntids, c->end->tid)) TH_LOG("end tid %u", c->end->tid);
	EXPECT_EQ(0, bad);
	for (i = 0; i < (size_t)ntids; i++)
		EXPECT_TRUE(seen[i]) TH_LOG("tid %ld has no syscall record", tids[i]);
	flrc_free(c);
	fr_sh("rm -rf '%s'", dir);
}

/*
 * Yama ptrace_scope 3: no registration, and a recorded process's new child
 * is not followed (EVENT_STOPPED, YAMA, about the child).  One-way until
 * reboot: only with FR_YAMA3=1.
 */
TEST_F_TIMEOUT(sec, yama_scope3, 120)
{
	char scope[16];
	struct fr_event ev;
	int rc;

	if (!getenv("FR_YAMA3") || strcmp(getenv("FR_YAMA3"), "1"))
		SKIP(return, "sets Yama ptrace_scope to 3 until reboot: run alone with FR_YAMA3=1 (scripts/check.sh does)");
	ASSERT_LT(0, fr_read_file("/proc/sys/kernel/yama/ptrace_scope", scope, sizeof(scope)));
	ASSERT_EQ(0, sec_spawn(&self->ch, -1, "prctl", NULL));
	ASSERT_EQ(0, sec_wait_ready(&self->ch));
	if (atoi(scope) < 3)
		ASSERT_EQ(0, fr_client_register(self->c, getpid(), 100, 2, 0,
						self->err, sizeof(self->err)))
			TH_LOG("%s", self->err);
	ASSERT_EQ(0, fr_write_file("/proc/sys/kernel/yama/ptrace_scope", "3\n", 2));
	/* a child of this recorded test process: not followed */
	rc = fork();
	ASSERT_LE(0, rc);
	if (rc == 0)
		_exit(0);
	ASSERT_EQ(rc, waitpid(rc, NULL, 0));
	ASSERT_EQ(1, sec_event(self->c, rc, FLIGHTREC_EVENT_STOPPED,
			       FLIGHTREC_EVENT_EXIT, &ev));
	EXPECT_EQ(FLIGHTREC_EVENT_STOPPED, ev.event);
	EXPECT_EQ(FLIGHTREC_STOP_YAMA, ev.stop_reason);
	fr_client_unregister(self->c, getpid(), self->err, sizeof(self->err));
	EXPECT_EQ(-EPERM, fr_control("register %d\n", self->ch.pid));
	EXPECT_EQ(-EPERM, fr_client_register(self->c, self->ch.pid, 100, 2, 0,
					     self->err, sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "Yama")) TH_LOG("%s", self->err);
}

TEST_HARNESS_MAIN
