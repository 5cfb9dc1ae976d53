// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec dump, watch, record: getting frozen dumps out of the module and
 * into checkpoint files (lib/assemble.c writes them).
 *
 * Several tools may want the same dump: `flightrec record` waits for the
 * fault of its own child, `flightrec dump` for the dump it asked for, and
 * `flightrec watch` for every fault on the machine.  Claims keep them from
 * racing: an abstract unix socket bound to "flightrec-pid-PID" says that a
 * tool owns the dumps of PID (record for its child, dump while it dumps),
 * and one bound to "flightrec-dump-ID" that a tool is writing dump ID.  A
 * claim lasts as long as its socket, so a tool that dies leaves none behind.
 * watch leaves the dumps of owned pids alone and claims a dump before it
 * reads it; the claimer writes the file and releases the dump.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "assemble.h"
#include "checkpoint.h"
#include "commands.h"
#include "libflightrec.h"
#include "sysdecode.h"
#include "flightrec.h"		/* uapi */

#define RETRY_MS	1000

static int exit_code(int err)
{
	if (err == FR_ENOMODULE)
		return FR_EXIT_NOMODULE;
	if (err == FR_EABI)
		return FR_EXIT_ABI;
	return FR_EXIT_FAIL;
}

static uint64_t now_ms(void)
{
	return fr_mono_ns() / 1000000;
}

/*
 * A claim on a name ("flightrec-dump-ID", "flightrec-pid-PID"): an fd to
 * close when done, -1 if another tool holds it, -2 if claims cannot be made
 * here (then go ahead).
 */
static int claim(const char *what, uint32_t id)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	socklen_t len;
	int fd, n;

	n = snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1,
		     "flightrec-%s-%u", what, id);
	len = offsetof(struct sockaddr_un, sun_path) + 1 + n;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -2;
	if (bind(fd, (struct sockaddr *)&sa, len) < 0) {
		int err = errno;

		close(fd);
		return err == EADDRINUSE ? -1 : -2;
	}
	return fd;
}

static int claim_dump(uint32_t id)
{
	return claim("dump", id);
}

/* Does another tool own the dumps of pid?  (A probe: claimed and let go.) */
static bool pid_owned(uint32_t pid)
{
	int fd = claim("pid", pid);

	if (fd >= 0)
		close(fd);
	return fd == -1;
}

static void unclaim(int fd)
{
	if (fd >= 0)
		close(fd);
}

/* The output directory: made (0700) when missing, with its parents. */
static int out_dir(const char *dir)
{
	char err[PATH_MAX + 64] = "";
	struct stat st;

	if (!stat(dir, &st)) {
		if (!S_ISDIR(st.st_mode)) {
			fprintf(stderr, "flightrec: %s is not a directory\n", dir);
			return -ENOTDIR;
		}
		return 0;
	}
	if (errno != ENOENT || fr_mkdir_parents(dir, err, sizeof(err)) ||
	    mkdir(dir, 0700) < 0) {
		if (!err[0])
			snprintf(err, sizeof(err), "%s: %s", dir, strerror(errno));
		fprintf(stderr, "flightrec: %s\n", err);
		return -errno;
	}
	return 0;
}

static const char *sig_name(uint32_t sig)
{
	const char *n = fr_signal_name(sig);

	return n ? n : "signal";
}

struct saved {
	char path[PATH_MAX];
	struct fr_asm_stats st;
};

/*
 * The images the process ran before its execs, each a dump of its own
 * (FLIGHTREC_A_PREV_DUMP, newest first): read into the same file, before
 * a's image.  Their ids go to ids, to be released with a's.  One that
 * cannot be read is said, and the file starts after it.
 */
static void fetch_before_exec(struct fr_client *c, struct fr_asm *a,
			      uint32_t main_id, const char *dir, uint32_t *ids,
			      size_t *n)
{
	struct fr_asm *cur = a;
	char err[512] = "";
	uint32_t id;
	int ret;

	while ((id = fr_asm_prev_dump(cur)) && *n < FLIGHTREC_KEEP_MAX) {
		struct fr_asm_opts o = { .dump_id = id };
		struct fr_asm *b;

		fr_client_version(c, &o.abi_version);
		ret = fr_asm_begin(&b, dir, &o, err, sizeof(err));
		if (!ret) {
			ret = fr_client_get_dump_raw(c, id, fr_asm_raw_cb, b,
						     err, sizeof(err));
			if (ret && fr_asm_error(b)[0])
				snprintf(err, sizeof(err), "%s", fr_asm_error(b));
			if (ret)
				fr_asm_abort(b);
		}
		if (ret) {
			fprintf(stderr, "flightrec: dump %u: the image before its exec (dump %u) is left out: %s\n",
				main_id, id, err[0] ? err : strerror(-ret));
			return;
		}
		fr_asm_set_before_exec(cur, b);
		ids[(*n)++] = id;
		cur = b;
	}
}

/*
 * Reads dump id into a file in dir and releases it.  Returns 0, -ENOENT
 * when the dump is gone (another tool took it), or another -errno with the
 * message printed.
 */
static int save_dump(struct fr_client *c, uint32_t id, const char *dir,
		     bool quiet_gone, struct saved *out)
{
	struct fr_asm_opts o = { .dump_id = id, .progress = true };
	uint32_t before[FLIGHTREC_KEEP_MAX];
	char err[512] = "";
	struct fr_asm *a;
	size_t n = 0, i;
	int ret;

	fr_client_version(c, &o.abi_version);
	ret = fr_asm_begin(&a, dir, &o, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "flightrec: %s\n", err);
		return ret;
	}
	ret = fr_client_get_dump_raw(c, id, fr_asm_raw_cb, a, err, sizeof(err));
	if (ret) {
		if (fr_asm_error(a)[0])
			snprintf(err, sizeof(err), "%s", fr_asm_error(a));
		fr_asm_abort(a);
		if (ret == -ENOENT && quiet_gone)
			return ret;
		fprintf(stderr, "flightrec: dump %u: %s\n", id,
			err[0] ? err : strerror(-ret));
		return ret;
	}
	fetch_before_exec(c, a, id, dir, before, &n);
	ret = fr_asm_finish(a, NULL, out->path, sizeof(out->path), &out->st,
			    err, sizeof(err));
	if (ret) {
		fprintf(stderr, "flightrec: dump %u: %s\n", id, err);
		return ret;
	}
	for (i = 0; i <= n; i++) {
		uint32_t rid = i ? before[i - 1] : id;

		ret = fr_client_release_dump(c, rid, err, sizeof(err));
		if (ret && ret != -ENOENT)
			fprintf(stderr, "flightrec: dump %u: release: %s\n", rid,
				err[0] ? err : strerror(-ret));
	}
	return 0;
}

/*
 * What was written, on f: stdout for dump and watch, stderr for record
 * (its stdout is the recorded program's).
 */
static void print_saved_to(FILE *f, const char *who, const struct saved *s,
			   const char *what)
{
	fprintf(f, "%s%s: %s, %llu interval%s, %llu pages (%llu stored, %.1f KiB), %llu syscalls, %.1f KiB\n",
	       who, s->path, what, (unsigned long long)s->st.intervals,
	       s->st.intervals == 1 ? "" : "s",
	       (unsigned long long)s->st.pages,
	       (unsigned long long)s->st.pages_data, s->st.zbytes / 1024.0,
	       (unsigned long long)s->st.syscalls, s->st.file_bytes / 1024.0);
	fflush(f);
}

static void print_saved(const char *who, const struct saved *s,
			const char *what)
{
	print_saved_to(stdout, who, s, what);
}

/* ------------------------------------------------------------------ */
/* dump */

/* The parent of pid from /proc, or 0. */
static uint32_t parent_of(uint32_t pid)
{
	char path[64], buf[512], *p;
	unsigned int ppid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f)) {
		p = strrchr(buf, ')');	/* comm may hold spaces and parens */
		if (!p || sscanf(p + 1, " %*c %u", &ppid) != 1)
			ppid = 0;
	}
	fclose(f);
	return ppid;
}

static bool descends_from(uint32_t pid, uint32_t ancestor)
{
	int depth;

	for (depth = 0; pid > 1 && depth < 4096; depth++) {
		pid = parent_of(pid);
		if (pid == ancestor)
			return true;
	}
	return false;
}

struct pids {
	uint32_t root;
	uint32_t *v;
	size_t n;
	bool root_found;
};

static int collect(const struct fr_proc_info *info, void *arg)
{
	struct pids *p = arg;
	uint32_t *nv;

	if (info->pid == p->root) {
		p->root_found = true;
		return 0;
	}
	if (!descends_from(info->pid, p->root))
		return 0;
	nv = realloc(p->v, (p->n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	p->v = nv;
	p->v[p->n++] = info->pid;
	return 0;
}

static void usage_dump(FILE *f)
{
	fr_usage(f, "dump");
	fprintf(f,
		"  Freezes a copy of the recording of PID and writes it to\n"
		"  DIR/PID-DUMPID.flrc; also for the registered descendants of PID\n"
		"  unless --only.  An existing file is never replaced.\n");
}

static int dump_one(struct fr_client *c, uint32_t pid, const char *dir)
{
	struct saved s;
	char err[512] = "";
	uint32_t id;
	int ret, dclaim, pclaim;

	pclaim = claim("pid", pid);	/* watch: hands off (record may own it) */
	ret = fr_client_dump(c, pid, &id, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "flightrec: dump %u: %s\n", pid,
			err[0] ? err : strerror(-ret));
		unclaim(pclaim);
		return ret;
	}
	dclaim = claim_dump(id);
	if (dclaim == -1) {
		fprintf(stderr, "flightrec: dump %u of pid %u: taken by another flightrec\n",
			id, pid);
		unclaim(pclaim);
		return -EBUSY;
	}
	ret = save_dump(c, id, dir, false, &s);
	unclaim(dclaim);
	unclaim(pclaim);
	if (!ret)
		print_saved("", &s, "dump");
	return ret;
}

int cmd_dump(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "only", no_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct pids p = { 0 };
	struct fr_client *c;
	const char *dir = NULL;
	char err[512];
	bool only = false;
	int o, ret, status = FR_EXIT_OK;
	size_t i;

	while ((o = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (o) {
		case 'o':
			dir = optarg;
			break;
		case 'O':
			only = true;
			break;
		case 'h':
			usage_dump(stdout);
			return FR_EXIT_OK;
		default:
			usage_dump(stderr);
			return FR_EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || !dir) {
		usage_dump(stderr);
		return FR_EXIT_USAGE;
	}
	if (!fr_parse_u32(argv[optind], 1, INT_MAX, &p.root)) {
		fprintf(stderr, "flightrec: dump: bad pid '%s'\n", argv[optind]);
		return FR_EXIT_USAGE;
	}
	if (out_dir(dir))
		return FR_EXIT_FAIL;
	ret = fr_client_open(&c, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "flightrec: %s\n", err);
		return exit_code(ret);
	}
	if (!only) {
		ret = fr_client_list(c, collect, &p);
		if (ret) {
			fprintf(stderr, "flightrec: list: %s\n", fr_client_error(c));
			status = FR_EXIT_FAIL;
			goto out;
		}
	}
	if (dump_one(c, p.root, dir))
		status = FR_EXIT_FAIL;
	for (i = 0; i < p.n; i++)
		if (dump_one(c, p.v[i], dir))
			status = FR_EXIT_FAIL;
out:
	free(p.v);
	fr_client_close(c);
	return status;
}

/* ------------------------------------------------------------------ */
/* watch */

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

struct pending {
	uint32_t id, pid;
	uint64_t due;
};

struct watch {
	const char *dir;
	struct fr_client *c;
	struct pending *pend;
	size_t n_pend;
	unsigned long written;
};

static void watch_queue(struct watch *w, uint32_t id, uint32_t pid,
			uint64_t due)
{
	struct pending *np;
	size_t i;

	for (i = 0; i < w->n_pend; i++)
		if (w->pend[i].id == id)
			return;
	np = realloc(w->pend, (w->n_pend + 1) * sizeof(*np));
	if (!np)
		return;		/* the next scan finds it again */
	w->pend = np;
	w->pend[w->n_pend++] = (struct pending){ id, pid, due };
}

static int scan_cb(const struct fr_dump_info *d, void *arg)
{
	struct watch *w = arg;

	/* an image before an exec: written with the dump that names it */
	if (d->end_kind != FLIGHTREC_END_EXEC)
		watch_queue(w, d->id, d->pid, now_ms());
	return 0;
}

struct find_dump {
	uint32_t id;
	struct fr_dump_info info;
	bool found;
};

static int find_cb(const struct fr_dump_info *d, void *arg)
{
	struct find_dump *f = arg;

	if (d->id == f->id) {
		f->info = *d;
		f->found = true;
	}
	return 0;
}

static void describe(char *buf, size_t len, const struct fr_dump_info *d)
{
	char comm[80];	/* the process chose it: escaped */

	fr_escape_n(d->comm, strnlen(d->comm, sizeof(d->comm)), comm, sizeof(comm));
	switch (d->end_kind) {
	case FLIGHTREC_END_FAULT:
		snprintf(buf, len, "pid %u (%s) %s", d->pid, comm, sig_name(d->signo));
		break;
	case FLIGHTREC_END_EXIT:
		snprintf(buf, len, "pid %u (%s) exit", d->pid, comm);
		break;
	default:
		snprintf(buf, len, "pid %u (%s) dump", d->pid, comm);
	}
}

/* Writes the pending dumps that are due; 0, or -errno if the module went away. */
static int watch_flush(struct watch *w)
{
	uint64_t now = now_ms();
	size_t i = 0;

	while (i < w->n_pend) {
		struct find_dump f = { .id = w->pend[i].id };
		struct saved s;
		char what[96];
		int claim, ret;

		if (w->pend[i].due > now) {
			i++;
			continue;
		}
		/* done with it whatever happens next */
		w->pend[i] = w->pend[--w->n_pend];
		ret = fr_client_list_dumps(w->c, find_cb, &f);
		if (ret)
			return ret;
		if (!f.found || pid_owned(f.info.pid))
			continue;	/* released, or record/dump's own */
		claim = claim_dump(f.id);
		if (claim == -1)
			continue;	/* record or dump is on it */
		ret = save_dump(w->c, f.id, w->dir, true, &s);
		unclaim(claim);
		if (ret == -ENOENT)
			continue;
		if (ret)
			continue;	/* said why; the dump stays for a retry */
		describe(what, sizeof(what), &f.info);
		print_saved("flightrec watch: wrote ", &s, what);
		w->written++;
	}
	return 0;
}

static void usage_watch(FILE *f)
{
	fr_usage(f, "watch");
	fprintf(f,
		"  Writes a checkpoint to DIR for every frozen dump: a recorded\n"
		"  process that faults, exits with at_exit, or is dumped.  Waits for\n"
		"  the module when it is not loaded or is unloaded meanwhile.\n"
		"  SIGINT or SIGTERM end it.\n");
}

/* One connection to the module: returns when it goes away or on a stop. */
static void watch_connected(struct watch *w)
{
	char err[512];
	uint64_t next_scan = 0;
	int ret;

	ret = fr_client_subscribe(w->c, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "flightrec watch: subscribe: %s\n", err);
		return;
	}
	printf("flightrec watch: watching; checkpoints go to %s\n", w->dir);
	fflush(stdout);
	while (!stop_signal) {
		struct fr_event ev;
		uint64_t now = now_ms();
		int timeout = 100;
		size_t i;

		/* wake up when the first pending dump is due */
		for (i = 0; i < w->n_pend; i++) {
			if (w->pend[i].due <= now)
				timeout = 0;
			else if (w->pend[i].due - now < (uint64_t)timeout)
				timeout = w->pend[i].due - now;
		}
		ret = fr_client_next_event(w->c, timeout, &ev);
		now = now_ms();
		if (ret == 1 && ev.dump_id &&
		    (ev.event == FLIGHTREC_EVENT_FAULT ||
		     ev.event == FLIGHTREC_EVENT_DUMP ||
		     ev.event == FLIGHTREC_EVENT_EXIT))
			watch_queue(w, ev.dump_id, ev.pid, now);
		else if (ret == -ENOBUFS)
			next_scan = 0;	/* events were lost: look at the list */
		else if (ret < 0 && ret != -EINTR)
			return;
		/*
		 * Once a second: the list of frozen dumps catches what the
		 * events missed, and tells whether the module is still there.
		 */
		if (now >= next_scan) {
			next_scan = now + RETRY_MS;
			if (fr_client_list_dumps(w->c, scan_cb, w))
				return;
		}
		if (watch_flush(w))
			return;
	}
}

int cmd_watch(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct watch w = { 0 };
	struct sigaction sa = { .sa_handler = on_stop };
	int o, last = 0;

	while ((o = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (o) {
		case 'o':
			w.dir = optarg;
			break;
		case 'h':
			usage_watch(stdout);
			return FR_EXIT_OK;
		default:
			usage_watch(stderr);
			return FR_EXIT_USAGE;
		}
	}
	if (optind != argc || !w.dir) {
		usage_watch(stderr);
		return FR_EXIT_USAGE;
	}
	if (out_dir(w.dir))
		return FR_EXIT_FAIL;
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	while (!stop_signal) {
		char err[512];
		int ret = fr_client_open(&w.c, err, sizeof(err));

		if (ret) {
			/* say it once per state, not once a second */
			if (ret != last)
				fprintf(stderr, "flightrec watch: %s; retrying every second\n",
					err);
			last = ret;
			usleep(RETRY_MS * 1000);
			continue;
		}
		if (last)
			printf("flightrec watch: the flightrec module is back\n");
		last = 0;
		watch_connected(&w);
		fr_client_close(w.c);
		w.c = NULL;
		w.n_pend = 0;
		if (!stop_signal) {
			fprintf(stderr, "flightrec watch: lost the flightrec module (unloaded?); waiting for it to come back, retrying every second\n");
			last = FR_ENOMODULE;
			usleep(RETRY_MS * 1000);
		}
	}
	free(w.pend);
	printf("flightrec watch: stopped by %s, %lu checkpoint%s written\n",
	       sig_name(stop_signal), w.written, w.written == 1 ? "" : "s");
	return FR_EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* record */

static void usage_record(FILE *f)
{
	fr_usage(f, "record");
	fprintf(f,
		"  Runs CMD recorded from its first instruction; when it (or a child\n"
		"  it forks) crashes, writes DIR/PID-DUMPID.flrc.  With --at-exit, also\n"
		"  when it exits normally.  With --serial, its threads run user code\n"
		"  one at a time, switching at syscalls, so that replay follows them\n"
		"  exactly (threads that share memory).  Exits with CMD's status\n"
		"  (128+N when a signal N killed it).\n");
}

#define RECORD_MAX_TREE	4096

/*
 * The process tree of a record session: the pids known to belong to it
 * (the child, and each process a written checkpoint says a tree process
 * created), and which of them have a checkpoint.  An event whose process
 * is already gone (reaped before the event was read: /proc no longer says
 * whose child it was) waits in pend until a checkpoint names it.
 */
struct record_pid {
	uint32_t pid, parent;
	bool written;
	uint32_t stop_reason;	/* FLIGHTREC_EVENT_STOPPED: why it was not recorded */
};

struct record_pend {
	uint32_t pid, dump_id;
	char what[64];
};

struct record {
	const char *dir;
	struct fr_client *c;
	pid_t child;
	bool at_exit;
	unsigned int written;
	struct record_pid tree[RECORD_MAX_TREE];
	size_t n_tree;
	struct record_pend pend[256];
	size_t n_pend;
	/*
	 * EVENT_STOPPED of pids not known to be ours when it came: a child
	 * killed and reaped before anything named it (strace's ptrace test
	 * child); it may join the tree later, from its parent's checkpoint.
	 */
	struct { uint32_t pid, reason; } unk_stops[256];
	size_t n_unk_stops;
	/* dumps that could not be written: not tried again (record_leftovers) */
	uint32_t failed[RECORD_MAX_TREE];
	size_t n_failed;
};

static bool record_failed(const struct record *r, uint32_t id)
{
	size_t i;

	for (i = 0; i < r->n_failed; i++)
		if (r->failed[i] == id)
			return true;
	return false;
}

static struct record_pid *tree_find(struct record *r, uint32_t pid)
{
	size_t i;

	for (i = 0; i < r->n_tree; i++)
		if (r->tree[i].pid == pid)
			return &r->tree[i];
	return NULL;
}

static struct record_pid *tree_add(struct record *r, uint32_t pid, uint32_t parent)
{
	struct record_pid *p = tree_find(r, pid);

	if (p || r->n_tree == RECORD_MAX_TREE)
		return p;
	p = &r->tree[r->n_tree++];
	*p = (struct record_pid){ .pid = pid, .parent = parent };
	return p;
}

static bool ours(struct record *r, uint32_t pid)
{
	if (pid == (uint32_t)r->child || tree_find(r, pid))
		return true;
	if (!descends_from(pid, r->child))
		return false;
	tree_add(r, pid, 0);
	return true;
}

/* The processes the checkpoint at path says pid created join the tree. */
static void record_children(struct record *r, const char *path, uint32_t pid)
{
	uint32_t kids[RECORD_MAX_TREE];
	char err[256];
	struct flrc *c;
	size_t i, n;

	if (flrc_read(path, &c, err, sizeof(err))) {
		fprintf(stderr, "flightrec record: %s: %s\n", path, err);
		return;
	}
	n = flrc_children(c, kids, RECORD_MAX_TREE);
	for (i = 0; i < n && i < RECORD_MAX_TREE; i++)
		tree_add(r, kids[i], pid);
	flrc_free(c);
}

static void record_take(struct record *r, uint32_t pid, uint32_t id, const char *what)
{
	struct record_pid *p = tree_add(r, pid, 0);
	struct saved s;
	size_t i;
	int claim;

	/* its event may wait in pend, found by the list of dumps first */
	for (i = 0; i < r->n_pend; i++)
		if (r->pend[i].dump_id == id)
			r->pend[i--] = r->pend[--r->n_pend];
	claim = claim_dump(id);

	if (claim == -1) {
		/* someone else is writing it: said, so that none goes unexplained */
		fprintf(stderr, "flightrec record: %s: dump %u taken by another flightrec\n",
			what, id);
		return;
	}
	/* a dump of the tree that is gone: someone released it, said */
	if (!save_dump(r->c, id, r->dir, false, &s)) {
		print_saved_to(stderr, "flightrec record: wrote ", &s, what);
		r->written++;
		if (p)
			p->written = true;
		record_children(r, s.path, pid);
	} else if (r->n_failed < sizeof(r->failed) / sizeof(r->failed[0])) {
		/* said once (save_dump); the dump stays for `flightrec dump` */
		r->failed[r->n_failed++] = id;
	}
	unclaim(claim);
}

/* Pending events whose process a checkpoint has named since. */
static void record_pending(struct record *r)
{
	size_t i = 0;

	while (i < r->n_pend) {
		struct record_pend e = r->pend[i];

		if (!tree_find(r, e.pid)) {
			i++;
			continue;
		}
		r->pend[i] = r->pend[--r->n_pend];
		record_take(r, e.pid, e.dump_id, e.what);
		i = 0;	/* taking one may have named more */
	}
}

static void record_event(struct record *r, const struct fr_event *ev)
{
	char what[64];

	if (ev->event == FLIGHTREC_EVENT_STOPPED) {
		struct record_pid *p = ours(r, ev->pid) ? tree_find(r, ev->pid) : NULL;

		if (p) {
			p->stop_reason = ev->stop_reason;
		} else if (r->n_unk_stops < sizeof(r->unk_stops) / sizeof(r->unk_stops[0])) {
			r->unk_stops[r->n_unk_stops].pid = ev->pid;
			r->unk_stops[r->n_unk_stops++].reason = ev->stop_reason;
		}
		return;
	}
	if (!ev->dump_id)
		return;
	if (ev->event == FLIGHTREC_EVENT_FAULT) {
		snprintf(what, sizeof(what), "pid %u fault", ev->pid);
	} else if (ev->event == FLIGHTREC_EVENT_EXIT && r->at_exit) {
		snprintf(what, sizeof(what), "pid %u exit", ev->pid);
	} else {
		return;
	}
	if (!ours(r, ev->pid)) {
		/* gone already, or not ours: a checkpoint of the tree may name it */
		if (r->n_pend < sizeof(r->pend) / sizeof(r->pend[0])) {
			struct record_pend *e = &r->pend[r->n_pend++];

			e->pid = ev->pid;
			e->dump_id = ev->dump_id;
			snprintf(e->what, sizeof(e->what), "%s", what);
		}
		return;
	}
	record_take(r, ev->pid, ev->dump_id, what);
	record_pending(r);
}

struct record_scan {
	struct record *r;
	uint32_t ids[64], pids[64];
	char what[64][64];
	size_t n;
};

static int record_scan_cb(const struct fr_dump_info *d, void *arg)
{
	struct record_scan *rs = arg;

	if (rs->n == 64 || record_failed(rs->r, d->id))
		return 0;
	/*
	 * A child that ended before its parent's checkpoint could name it
	 * (its fork out of the parent's kept intervals, its /proc entry
	 * gone): the module's dump says who its parent was.
	 */
	if (!ours(rs->r, d->pid)) {
		if (!d->ppid || !tree_find(rs->r, d->ppid))
			return 0;
		tree_add(rs->r, d->pid, d->ppid);
	}
	if (d->end_kind == FLIGHTREC_END_FAULT ||
	    (d->end_kind == FLIGHTREC_END_EXIT && rs->r->at_exit)) {
		snprintf(rs->what[rs->n], sizeof(rs->what[0]), "pid %u %s",
			 d->pid, d->end_kind == FLIGHTREC_END_FAULT ?
			 sig_name(d->signo) : "exit");
		rs->pids[rs->n] = d->pid;
		rs->ids[rs->n++] = d->id;
	}
	return 0;
}

/* After the child is gone: dumps of it whose event was missed. */
static void record_leftovers(struct record *r)
{
	struct record_scan rs = { .r = r };
	struct fr_event ev;
	size_t i;
	int ret;

	/* events sent before the child died are already queued: no wait */
	while (fr_client_next_event(r->c, 0, &ev) == 1)
		record_event(r, &ev);
	/* until no checkpoint names another process of the tree */
	do {
		rs.n = 0;
		ret = fr_client_list_dumps(r->c, record_scan_cb, &rs);
		if (ret) {
			fprintf(stderr, "flightrec record: listing the dumps: %s\n",
				fr_client_error(r->c)[0] ? fr_client_error(r->c) :
				strerror(-ret));
			break;
		}
		for (i = 0; i < rs.n; i++)
			record_take(r, rs.pids[i], rs.ids[i], rs.what[i]);
		record_pending(r);
	} while (rs.n);
	if (!r->at_exit)
		return;
	/* every process of the tree ends in a checkpoint, or we say why not */
	for (i = 0; i < r->n_tree; i++) {
		struct record_pid *p = &r->tree[i];

		if (p->written)
			continue;
		for (size_t k = 0; !p->stop_reason && k < r->n_unk_stops; k++)
			if (r->unk_stops[k].pid == p->pid)
				p->stop_reason = r->unk_stops[k].reason;
		fprintf(stderr, "flightrec record: pid %u", p->pid);
		if (p->parent)
			fprintf(stderr, " (created by pid %u)", p->parent);
		if (p->stop_reason == FLIGHTREC_STOP_SIGKILL)
			fprintf(stderr, ": no checkpoint: killed by SIGKILL, which ends a "
				"process before any more of its code runs (nothing froze "
				"its recording)\n");
		else if (p->stop_reason)
			fprintf(stderr, ": no checkpoint: not recorded: %s\n",
				fr_stop_reason_name(p->stop_reason));
		else
			fprintf(stderr, ": no checkpoint: the module kept no recording of its end\n");
	}
}

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "at-exit", no_argument, NULL, 'a' },
		{ "serial", no_argument, NULL, 's' },
		{ "interval-ms", required_argument, NULL, 'i' },
		{ "keep", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct record r = { 0 };
	uint32_t interval_ms = 0, keep = 0;
	/* the child runs our code until it execs the command: not kept */
	struct fr_reg_opts ro = { .at_exit = -1, .serial = -1, .start_at_exec = 1 };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	char err[512], go = 'g';
	int o, ret, pipefd[2], status, pid_claim = -2, pidfd;

	while ((o = getopt_long(argc, argv, "+o:h", opts, NULL)) != -1) {
		switch (o) {
		case 'o':
			r.dir = optarg;
			break;
		case 'a':
			r.at_exit = true;
			break;
		case 's':
			ro.serial = 1;
			break;
		case 'i':
			if (!fr_parse_u32(optarg, FLIGHTREC_INTERVAL_MS_MIN,
					  FLIGHTREC_INTERVAL_MS_MAX, &interval_ms)) {
				fprintf(stderr, "flightrec: record: --interval-ms must be %u..%u\n",
					FLIGHTREC_INTERVAL_MS_MIN,
					FLIGHTREC_INTERVAL_MS_MAX);
				return FR_EXIT_USAGE;
			}
			break;
		case 'k':
			if (!fr_parse_u32(optarg, FLIGHTREC_KEEP_MIN, FLIGHTREC_KEEP_MAX,
					  &keep)) {
				fprintf(stderr, "flightrec: record: --keep must be %u..%u\n",
					FLIGHTREC_KEEP_MIN, FLIGHTREC_KEEP_MAX);
				return FR_EXIT_USAGE;
			}
			break;
		case 'h':
			usage_record(stdout);
			return FR_EXIT_OK;
		default:
			usage_record(stderr);
			return FR_EXIT_USAGE;
		}
	}
	if (optind >= argc || !r.dir) {
		usage_record(stderr);
		return FR_EXIT_USAGE;
	}
	if (out_dir(r.dir))
		return FR_EXIT_FAIL;
	ret = fr_client_open(&r.c, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "flightrec: %s\n", err);
		return exit_code(ret);
	}
	/* subscribed before the child exists: no event can be missed */
	ret = fr_client_subscribe(r.c, err, sizeof(err));
	if (ret || pipe2(pipefd, O_CLOEXEC) < 0) {
		fprintf(stderr, "flightrec: record: %s\n",
			ret ? err : strerror(errno));
		fr_client_close(r.c);
		return FR_EXIT_FAIL;
	}
	fflush(NULL);
	r.child = fork();
	if (r.child < 0) {
		fprintf(stderr, "flightrec: record: fork: %s\n", strerror(errno));
		fr_client_close(r.c);
		return FR_EXIT_FAIL;
	}
	if (!r.child) {
		char c;

		close(pipefd[1]);
		/* wait until registered: recorded from the first instruction */
		if (read(pipefd[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "flightrec: record: %s: %s\n", argv[optind],
			strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	close(pipefd[0]);
	/* like a shell: ^C and ^\ are for the child */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);

	/* the dumps of the child are ours: watch leaves them alone */
	pid_claim = claim("pid", r.child);
	tree_add(&r, r.child, 0);
	ro.interval_ms = interval_ms;
	ro.keep = keep;
	ro.at_exit = r.at_exit ? 1 : -1;
	ret = fr_client_register_opts(r.c, r.child, &ro, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "flightrec: record: register %d: %s\n", r.child,
			err);
		close(pipefd[1]);	/* the child exits without running CMD */
		waitpid(r.child, NULL, 0);
		unclaim(pid_claim);
		fr_client_close(r.c);
		return exit_code(ret);
	}
	if (write(pipefd[1], &go, 1) != 1)
		fprintf(stderr, "flightrec: record: starting the child: %s\n",
			strerror(errno));
	close(pipefd[1]);

	/*
	 * Events and the child's end, whichever comes: a pidfd says when the
	 * child can be reaped (without one, look every 100 ms).  The module's
	 * exit event comes before the child is a zombie.
	 */
	pidfd = (int)syscall(SYS_pidfd_open, r.child, 0);
	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = fr_client_event_fd(r.c), .events = POLLIN },
			{ .fd = pidfd, .events = POLLIN },
		};
		struct fr_event ev;
		pid_t w;

		if (pidfd >= 0 && poll(pfd, 2, -1) < 0 && errno != EINTR) {
			/* no status yet: go on without the pidfd, as without one */
			close(pidfd);
			pidfd = -1;
		}
		ret = fr_client_next_event(r.c, pidfd >= 0 ? 0 : 100, &ev);
		if (ret == 1)
			record_event(&r, &ev);
		w = waitpid(r.child, &status, WNOHANG);
		if (w == r.child)
			break;
		if (w < 0 && errno != EINTR) {
			status = 0;
			break;
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	record_leftovers(&r);
	unclaim(pid_claim);
	fr_client_close(r.c);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (WIFSIGNALED(status)) {
		const struct record_pid *p = tree_find(&r, r.child);

		if (!r.written)
			fprintf(stderr, "flightrec record: %s killed by %s, no checkpoint%s%s\n",
				argv[optind], sig_name(WTERMSIG(status)),
				p && p->stop_reason ? ": not recorded: " : "",
				p && p->stop_reason ? fr_stop_reason_name(p->stop_reason) : "");
		return 128 + WTERMSIG(status);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : FR_EXIT_FAIL;
}
