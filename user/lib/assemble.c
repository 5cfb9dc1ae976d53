// SPDX-License-Identifier: GPL-2.0
/*
 * Assembly of a checkpoint file from the records of one frozen dump.
 * See assemble.h for the shape and docs/checkpoint-format.md for the result.
 */
#include <cpuid.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/user.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>
#include <netlink/attr.h>

#include "assemble.h"
#include "checkpoint.h"
#include "fr_htab.h"
#include "x86sites.h"
#include "libflightrec.h"
#include "flightrec.h"		/* uapi */

#define SPOOL_BUF	(256u << 10)
#define UTS_LEN		65
#define MAX_XSAVE	(64u << 10)
#define MAX_BUILD_ID	64

enum { SP_MAP, SP_THREAD, SP_SIGACTION, SP_PAGE, SP_SYSCALL, NR_SPOOLS };

static const int spool_rank[NR_SPOOLS] = {
	[SP_MAP] = FLRC_RANK_MAP,
	[SP_THREAD] = FLRC_RANK_THREAD,
	[SP_SIGACTION] = FLRC_RANK_SIGACTION,
	[SP_PAGE] = FLRC_RANK_PAGE,
	[SP_SYSCALL] = FLRC_RANK_SYSCALL,
};

/* Framed entries of one kind, in an unnamed file, in arrival order. */
struct spool {
	int fd;
	uint8_t *buf;
	size_t blen;
	uint64_t len;		/* bytes appended, buffered ones included */
};

/* Where a stored page's entry lies in the page spool. */
struct stored_page {
	uint64_t off;
	uint32_t len;
};

struct build_id {
	char *path;
	uint32_t dev;
	uint64_t ino;
	uint8_t id[MAX_BUILD_ID];
	size_t len;		/* 0: none could be read */
};

struct fr_asm {
	struct fr_asm_opts o;
	char *dir;
	char err[512];
	FILE *warn;
	struct spool sp[NR_SPOOLS];

	/* header */
	bool have_sysinfo, have_process;
	char *uts[6];
	Flightrec__CpuidLeaf **cpuid, **cpuid_local;
	size_t n_cpuid, cap_cpuid, n_cpuid_local, cap_cpuid_local;
	uint64_t *csites;	/* cpuid instructions of the mapped code */
	size_t n_csites, cap_csites;
	bool has_xcr0;
	uint64_t xcr0;
	Flightrec__ProcessInfo proc;
	char *comm, *exe;
	char **argv;
	size_t n_argv;
	/* a command line that comes in CMDLINE_CHUNK records */
	char *cmdline;
	uint32_t cmdline_len, cmdline_have;
	uint64_t *auxv;
	size_t n_auxv;
	Flightrec__IntervalInfo **iv;
	size_t n_iv, cap_iv;
	Flightrec__End *end;
	uint32_t prev_dump;		/* PROCESS's PREV_DUMP */
	struct fr_asm *before_exec;	/* its image, written first */
	struct pend_sc *pend;		/* the last syscall record */
	bool have_seq;
	uint64_t last_seq, max_seq;
	uint32_t last_seq_iv;		/* interval of last_seq */

	/* pages */
	ZSTD_CCtx *cctx;
	ZSTD_DCtx *dctx;
	uint8_t *zbuf;
	size_t zcap;
	struct fr_htab by_hash;		/* hash -> stored_page index */
	struct stored_page *stored;
	size_t n_stored, cap_stored;
	struct fr_htab seen;		/* addresses of the current page interval */
	uint32_t seen_interval;
	bool seen_valid;
	uint8_t *cmpbuf;		/* a stored page, decompressed */

	/* maps */
	uint32_t map_interval;
	uint64_t map_end;
	bool map_valid;
	struct build_id bid_tmp;	/* a build id not cached */

	uint8_t *frame;
	size_t frame_cap;
	uint64_t warned;		/* one-time warnings given (bits) */
	struct timespec last_progress;
	bool progress_shown;
	struct fr_asm_stats st;
};

enum {
	WARN_CPUID_LOCAL = 1,
	WARN_CPUID_TABLE = 2,
	WARN_EARLY = 4,
	WARN_COMPACTED = 8,
};

static void warn(struct fr_asm *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct fr_asm *a, const char *fmt, ...)
{
	va_list ap;

	a->st.warnings++;
	if (a->progress_shown) {
		fputs("\r\033[K", stderr);
		a->progress_shown = false;
	}
	fputs("flightrec: warning: ", a->warn);
	va_start(ap, fmt);
	vfprintf(a->warn, fmt, ap);
	va_end(ap);
	fputc('\n', a->warn);
}

static int afail(struct fr_asm *a, int error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int afail(struct fr_asm *a, int error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->err, sizeof(a->err), fmt, ap);
	va_end(ap);
	return error;
}

const char *fr_asm_error(const struct fr_asm *a)
{
	return a->err;
}

uint32_t fr_asm_prev_dump(const struct fr_asm *a)
{
	return a->prev_dump;
}

void fr_asm_set_before_exec(struct fr_asm *a, struct fr_asm *before)
{
	fr_asm_abort(a->before_exec);
	a->before_exec = before;
}

uint32_t fr_asm_pid(const struct fr_asm *a)
{
	return a->have_process ? a->proc.pid : 0;
}

/* ------------------------------------------------------------------ */
/* Spools */

static int spool_open(struct spool *s, const char *dir)
{
	char *tmpl;

	s->buf = malloc(SPOOL_BUF);
	if (!s->buf)
		return -ENOMEM;
	s->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (s->fd >= 0)
		return 0;
	/* No O_TMPFILE here: a named file, unlinked at once. */
	if (asprintf(&tmpl, "%s/.flightrec-spool-XXXXXX", dir) < 0)
		return -ENOMEM;
	s->fd = mkostemp(tmpl, O_CLOEXEC);
	if (s->fd < 0) {
		int err = -errno;

		free(tmpl);
		return err;
	}
	unlink(tmpl);
	free(tmpl);
	return 0;
}

static void spool_close(struct spool *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	free(s->buf);
	s->buf = NULL;
}

static int spool_flush(struct spool *s)
{
	int err = flrc_write_all(s->fd, s->buf, s->blen);

	if (!err)
		s->blen = 0;
	return err;
}

static int spool_put(struct fr_asm *a, int kind, const Flightrec__Entry *e,
		     uint64_t *off, uint32_t *len)
{
	struct spool *s = &a->sp[kind];
	size_t n = flrc_framed_size(e);
	int err;

	if (n - 4 > FLRC_MAX_ENTRY)
		return -EFBIG;
	if (off)
		*off = s->len;
	if (len)
		*len = (uint32_t)n;
	if (s->blen + n > SPOOL_BUF) {
		err = spool_flush(s);
		if (err)
			return err;
	}
	if (n <= SPOOL_BUF) {
		flrc_frame(e, s->buf + s->blen);
		s->blen += n;
	} else {
		if (n > a->frame_cap) {
			uint8_t *f = realloc(a->frame, n);

			if (!f)
				return -ENOMEM;
			a->frame = f;
			a->frame_cap = n;
		}
		flrc_frame(e, a->frame);
		err = flrc_write_all(s->fd, a->frame, n);
		if (err)
			return err;
	}
	s->len += n;
	return 0;
}

/* Reads back len bytes at off (buffered or already written). */
static int spool_read(struct spool *s, uint64_t off, void *buf, size_t len)
{
	uint64_t flushed = s->len - s->blen;
	uint8_t *p = buf;

	if (off >= flushed) {
		memcpy(buf, s->buf + (off - flushed), len);
		return 0;
	}
	if (off + len > flushed) {
		int err = spool_flush(s);

		if (err)
			return err;
	}
	while (len) {
		ssize_t n = pread(s->fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		off += n;
		len -= n;
	}
	return 0;
}

static int spooled(struct fr_asm *a, int kind, const Flightrec__Entry *e)
{
	int err = spool_put(a, kind, e, NULL, NULL);

	if (err)
		return afail(a, err, "%s: writing a spool file: %s", a->dir,
			     strerror(-err));
	return 0;
}

/* ------------------------------------------------------------------ */
/* Attributes */

static bool a_u32(struct nlattr **tb, int t, uint32_t *v)
{
	if (!tb[t] || nla_len(tb[t]) < 4)
		return false;
	memcpy(v, nla_data(tb[t]), 4);
	return true;
}

static bool a_u64(struct nlattr **tb, int t, uint64_t *v)
{
	if (!tb[t] || nla_len(tb[t]) < 8)
		return false;
	memcpy(v, nla_data(tb[t]), 8);
	return true;
}

static char *a_str(const struct nlattr *nla)
{
	if (!nla || nla_len(nla) <= 0)
		return NULL;
	return strndup(nla_data(nla), nla_len(nla));
}

#define OPT_U32(tb, t, msg, f) \
	((msg)->has_##f = a_u32((tb), (t), &(msg)->f))
#define OPT_U64(tb, t, msg, f) \
	((msg)->has_##f = a_u64((tb), (t), &(msg)->f))

static const char *rec_name(uint32_t type)
{
	static const char *const names[] = {
		[FLIGHTREC_REC_PROCESS] = "PROCESS",
		[FLIGHTREC_REC_INTERVAL] = "INTERVAL",
		[FLIGHTREC_REC_MAP] = "MAP",
		[FLIGHTREC_REC_THREAD] = "THREAD",
		[FLIGHTREC_REC_PAGE] = "PAGE",
		[FLIGHTREC_REC_SYSCALL] = "SYSCALL",
		[FLIGHTREC_REC_SIGACTION] = "SIGACTION",
		[FLIGHTREC_REC_END] = "END",
		[FLIGHTREC_REC_SYSINFO] = "SYSINFO",
		[FLIGHTREC_REC_OUT_CHUNK] = "OUT_CHUNK",
		[FLIGHTREC_REC_CMDLINE_CHUNK] = "CMDLINE_CHUNK",
		[FLIGHTREC_REC_LIVE_END] = "LIVE_END",
	};

	if (type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return "unknown";
}

static int dropped(struct fr_asm *a, uint32_t type, const char *why)
{
	a->st.dropped++;
	warn(a, "%s record %s: left out", rec_name(type), why);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Intervals */

static Flightrec__IntervalInfo *find_interval(struct fr_asm *a, uint32_t idx)
{
	size_t i;

	/* Records come interval by interval: look from the newest. */
	for (i = a->n_iv; i-- > 0;)
		if (a->iv[i]->index == idx)
			return a->iv[i];
	return NULL;
}

static Flightrec__IntervalInfo *new_interval(struct fr_asm *a, uint32_t idx)
{
	Flightrec__IntervalInfo *iv;

	if (a->n_iv == a->cap_iv) {
		size_t ncap = a->cap_iv ? a->cap_iv * 2 : 16;
		void *n = realloc(a->iv, ncap * sizeof(*a->iv));

		if (!n)
			return NULL;
		a->iv = n;
		a->cap_iv = ncap;
	}
	iv = malloc(sizeof(*iv));
	if (!iv)
		return NULL;
	flightrec__interval_info__init(iv);
	iv->index = idx;
	a->iv[a->n_iv++] = iv;
	a->st.intervals++;
	return iv;
}

/* The interval a record refers to; made up (with a warning) if unseen. */
static Flightrec__IntervalInfo *rec_interval(struct fr_asm *a, uint32_t type,
					     struct nlattr **tb, int *err)
{
	Flightrec__IntervalInfo *iv;
	uint32_t idx;

	*err = 0;
	if (!a_u32(tb, FLIGHTREC_A_INTERVAL, &idx)) {
		dropped(a, type, "without INTERVAL");
		return NULL;
	}
	iv = find_interval(a, idx);
	if (iv)
		return iv;
	if (!(a->warned & WARN_EARLY))
		warn(a, "%s record for interval %u before its INTERVAL record",
		     rec_name(type), idx);
	a->warned |= WARN_EARLY;
	iv = new_interval(a, idx);
	if (!iv)
		*err = afail(a, -ENOMEM, "out of memory");
	return iv;
}

static int rec_interval_info(struct fr_asm *a, struct nlattr **tb)
{
	Flightrec__IntervalInfo *iv;
	uint32_t idx;

	if (!a_u32(tb, FLIGHTREC_A_INTERVAL, &idx))
		return dropped(a, FLIGHTREC_REC_INTERVAL, "without INTERVAL");
	iv = find_interval(a, idx);
	if (!iv) {
		iv = new_interval(a, idx);
		if (!iv)
			return afail(a, -ENOMEM, "out of memory");
	}
	OPT_U64(tb, FLIGHTREC_A_START_NS, iv, start_ns);
	OPT_U64(tb, FLIGHTREC_A_END_NS, iv, end_ns);
	if (a_u32(tb, FLIGHTREC_A_INTERVAL_FLAGS, &idx)) {
		iv->flags |= idx;
		iv->has_flags = 1;
	}
	OPT_U64(tb, FLIGHTREC_A_NR_SYSCALLS, iv, nr_syscalls);
	OPT_U64(tb, FLIGHTREC_A_LOST, iv, lost);
	OPT_U64(tb, FLIGHTREC_A_BRK, iv, brk);
	if (!a->proc.has_brk_start)
		OPT_U64(tb, FLIGHTREC_A_BRK_START, &a->proc, brk_start);
	if (iv->has_lost && iv->lost) {
		iv->flags |= FLIGHTREC_IF_LOST_RECORD;
		iv->has_flags = 1;
	}
	return 0;
}

static void flag_interval(Flightrec__IntervalInfo *iv, uint32_t flag)
{
	if (iv) {
		iv->flags |= flag;
		iv->has_flags = 1;
	}
}

/* ------------------------------------------------------------------ */
/* SYSINFO and PROCESS */

static int rec_uname(struct fr_asm *a, const struct nlattr *nla)
{
	const char *u = nla_data(nla);
	int i;

	if (nla_len(nla) < 6 * UTS_LEN) {
		warn(a, "UNAME attribute of %d bytes (want %d): ignored",
		     nla_len(nla), 6 * UTS_LEN);
		return 0;
	}
	for (i = 0; i < 6; i++) {
		free(a->uts[i]);
		a->uts[i] = strndup(u + i * UTS_LEN, UTS_LEN);
		if (!a->uts[i])
			return afail(a, -ENOMEM, "out of memory");
	}
	return 0;
}

static Flightrec__CpuidLeaf *new_leaf(uint32_t leaf, uint32_t sub, uint32_t eax,
				      uint32_t ebx, uint32_t ecx, uint32_t edx)
{
	Flightrec__CpuidLeaf *l = malloc(sizeof(*l));

	if (!l)
		return NULL;
	flightrec__cpuid_leaf__init(l);
	l->leaf = leaf;
	l->subleaf = sub;
	l->eax = eax;
	l->ebx = ebx;
	l->ecx = ecx;
	l->edx = edx;
	return l;
}

static int push_leaf(Flightrec__CpuidLeaf ***v, size_t *n, size_t *cap,
		     Flightrec__CpuidLeaf *l)
{
	if (!l)
		return -ENOMEM;
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 32;
		void *nv = realloc(*v, ncap * sizeof(**v));

		if (!nv) {
			free(l);
			return -ENOMEM;
		}
		*v = nv;
		*cap = ncap;
	}
	(*v)[(*n)++] = l;
	return 0;
}

static int rec_sysinfo(struct fr_asm *a, struct nlattr **tb)
{
	const struct nlattr *c = tb[FLIGHTREC_A_CPUID];
	int err = 0;

	a->have_sysinfo = true;
	if (tb[FLIGHTREC_A_UNAME])
		err = rec_uname(a, tb[FLIGHTREC_A_UNAME]);
	if (!err && c) {
		const struct flightrec_cpuid_leaf *l = nla_data(c);
		size_t i, n = nla_len(c) / sizeof(*l);

		if (nla_len(c) % sizeof(*l))
			warn(a, "CPUID attribute of %d bytes is not a whole number of leaves",
			     nla_len(c));
		for (i = 0; i < n && !err; i++) {
			struct flightrec_cpuid_leaf x;

			memcpy(&x, l + i, sizeof(x));
			err = push_leaf(&a->cpuid, &a->n_cpuid, &a->cap_cpuid,
					new_leaf(x.leaf, x.subleaf, x.eax, x.ebx,
						 x.ecx, x.edx));
		}
		if (err)
			return afail(a, err, "out of memory");
	}
	a->has_xcr0 = a_u64(tb, FLIGHTREC_A_XCR0, &a->xcr0) || a->has_xcr0;
	return err;
}

/* argv from a command line: NUL-separated arguments. */
static int set_argv(struct fr_asm *a, const char *s, size_t len)
{
	const char *end = s + len;
	size_t n = 0;

	while (s < end) {
		size_t l = strnlen(s, end - s);
		char **nv = realloc(a->argv, (n + 1) * sizeof(*nv));

		if (!nv)
			return afail(a, -ENOMEM, "out of memory");
		a->argv = nv;
		a->argv[n] = strndup(s, l);
		if (!a->argv[n])
			return afail(a, -ENOMEM, "out of memory");
		a->n_argv = ++n;
		s += l + 1;
	}
	return 0;
}

/* A piece of the command line: in order, within CMDLINE_LEN. */
static int rec_cmdline_chunk(struct fr_asm *a, struct nlattr **tb)
{
	const struct nlattr *nla = tb[FLIGHTREC_A_CMDLINE];
	uint32_t off, len;
	int err;

	if (!nla || !a_u32(tb, FLIGHTREC_A_CMDLINE_OFFSET, &off))
		return dropped(a, FLIGHTREC_REC_CMDLINE_CHUNK,
			       "without CMDLINE or CMDLINE_OFFSET");
	if (!a->cmdline)
		return dropped(a, FLIGHTREC_REC_CMDLINE_CHUNK,
			       "without a PROCESS record with CMDLINE_LEN before it");
	len = nla_len(nla);
	if (off != a->cmdline_have || len > a->cmdline_len - off) {
		warn(a, "CMDLINE_CHUNK of %u bytes at offset %u, expected offset %u of %u bytes: command line left out",
		     len, off, a->cmdline_have, a->cmdline_len);
		a->st.dropped++;
		free(a->cmdline);
		a->cmdline = NULL;
		return 0;
	}
	memcpy(a->cmdline + off, nla_data(nla), len);
	a->cmdline_have += len;
	if (a->cmdline_have < a->cmdline_len)
		return 0;
	err = set_argv(a, a->cmdline, a->cmdline_len);
	free(a->cmdline);
	a->cmdline = NULL;
	return err;
}

static int rec_process(struct fr_asm *a, struct nlattr **tb)
{
	Flightrec__ProcessInfo *p = &a->proc;
	const struct nlattr *nla;

	if (!a_u32(tb, FLIGHTREC_A_PID, &p->pid) || !p->pid)
		return dropped(a, FLIGHTREC_REC_PROCESS, "without PID");
	a->have_process = true;
	OPT_U32(tb, FLIGHTREC_A_PPID, p, ppid);
	OPT_U32(tb, FLIGHTREC_A_PERSONALITY, p, personality);
	OPT_U64(tb, FLIGHTREC_A_BRK_START, p, brk_start);
	a_u32(tb, FLIGHTREC_A_PREV_DUMP, &a->prev_dump);
	free(a->comm);
	free(a->exe);
	a->comm = a_str(tb[FLIGHTREC_A_COMM]);
	a->exe = a_str(tb[FLIGHTREC_A_EXE]);
	nla = tb[FLIGHTREC_A_CMDLINE];
	if (nla && nla_len(nla) > 0 && !a->argv && !a->cmdline) {
		int err = set_argv(a, nla_data(nla), nla_len(nla));

		if (err)
			return err;
	} else if (!nla && tb[FLIGHTREC_A_CMDLINE_LEN] && !a->argv &&
		   !a->cmdline) {
		/* CMDLINE_CHUNK records follow (uapi/flightrec.h) */
		a->cmdline_len = nla_get_u32(tb[FLIGHTREC_A_CMDLINE_LEN]);
		a->cmdline_have = 0;
		if (a->cmdline_len) {
			a->cmdline = malloc(a->cmdline_len);
			if (!a->cmdline)
				return afail(a, -ENOMEM, "out of memory");
		}
	}
	nla = tb[FLIGHTREC_A_AUXV];
	if (nla && !a->auxv) {
		size_t n = nla_len(nla) / 16 * 2;

		a->auxv = malloc((n ? n : 1) * sizeof(uint64_t));
		if (!a->auxv)
			return afail(a, -ENOMEM, "out of memory");
		memcpy(a->auxv, nla_data(nla), n * sizeof(uint64_t));
		a->n_auxv = n;
	}
	if (tb[FLIGHTREC_A_UNAME])
		return rec_uname(a, tb[FLIGHTREC_A_UNAME]);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Maps and build ids */

static uint32_t encode_dev(dev_t d)
{
	uint32_t ma = major(d), mi = minor(d);

	return (mi & 0xff) | (ma << 8) | ((mi & ~0xffu) << 12);
}

static int note_build_id(const uint8_t *n, size_t len, uint8_t *id,
			 size_t *idlen)
{
	while (len >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr h;
		size_t nsz, dsz, total;

		memcpy(&h, n, sizeof(h));
		nsz = (h.n_namesz + 3) & ~3ul;
		dsz = (h.n_descsz + 3) & ~3ul;
		if (nsz > len || dsz > len)
			return -ENOENT;
		total = sizeof(h) + nsz + dsz;
		if (total > len)
			return -ENOENT;
		if (h.n_type == NT_GNU_BUILD_ID && h.n_namesz == 4 &&
		    !memcmp(n + sizeof(h), "GNU", 4) && h.n_descsz &&
		    h.n_descsz <= MAX_BUILD_ID) {
			memcpy(id, n + sizeof(h) + nsz, h.n_descsz);
			*idlen = h.n_descsz;
			return 0;
		}
		n += total;
		len -= total;
	}
	return -ENOENT;
}

#define ELF_HEAD	8192	/* one read: the headers and, usually, the notes */

/* Bytes [off, off + len) of the file: from head when there, else read. */
static const uint8_t *file_range(int fd, const uint8_t *head, size_t hlen,
				 uint64_t off, size_t len, uint8_t **buf)
{
	if (off <= hlen && len <= hlen - off)
		return head + off;
	free(*buf);
	*buf = malloc(len ? len : 1);
	if (!*buf || pread(fd, *buf, len, off) != (ssize_t)len)
		return NULL;
	return *buf;
}

int fr_read_build_id(const char *path, uint32_t dev, uint64_t ino,
		     uint8_t *id, size_t *idlen)
{
	const Elf64_Ehdr *eh;
	const uint8_t *ph, *notes;
	uint8_t *head, *phbuf = NULL, *nbuf = NULL;
	struct stat st;
	ssize_t hlen;
	int fd, i, ret = -ENOENT;

	*idlen = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	head = malloc(ELF_HEAD);
	if (!head) {
		close(fd);
		return -ENOMEM;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		goto out;
	if ((ino && st.st_ino != ino) || (dev && encode_dev(st.st_dev) != dev)) {
		ret = -ESTALE;		/* another file is at that path now */
		goto out;
	}
	hlen = pread(fd, head, ELF_HEAD, 0);
	eh = (const Elf64_Ehdr *)head;
	if (hlen < (ssize_t)sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum > 1024)
		goto out;
	ph = file_range(fd, head, hlen, eh->e_phoff,
			(size_t)eh->e_phnum * sizeof(Elf64_Phdr), &phbuf);
	for (i = 0; ph && i < eh->e_phnum; i++) {
		Elf64_Phdr p;

		memcpy(&p, ph + i * sizeof(p), sizeof(p));
		if (p.p_type != PT_NOTE || !p.p_filesz || p.p_filesz > 65536)
			continue;
		notes = file_range(fd, head, hlen, p.p_offset, p.p_filesz, &nbuf);
		if (notes && !note_build_id(notes, p.p_filesz, id, idlen)) {
			ret = 0;
			break;
		}
	}
out:
	free(phbuf);
	free(nbuf);
	free(head);
	close(fd);
	return ret;
}

/*
 * Build ids, cached for the life of the process: a watch daemon reads libc's
 * once, not at every crash.  Keyed by (path, dev, inode): a file replaced by
 * a package upgrade has a new inode.  Not thread-safe, like the rest.
 */
#define MAX_BIDS	4096

static struct build_id *bids;
static size_t n_bids, cap_bids;

static const struct build_id *lookup_build_id(const char *path, uint32_t dev,
					      uint64_t ino, struct build_id *tmp)
{
	struct build_id *b;
	size_t i;

	for (i = 0; i < n_bids; i++) {
		b = &bids[i];
		if (b->dev == dev && b->ino == ino && !strcmp(b->path, path))
			return b;
	}
	b = tmp;
	if (ino && n_bids < MAX_BIDS) {
		if (n_bids == cap_bids) {
			size_t ncap = cap_bids ? cap_bids * 2 : 64;
			void *n = realloc(bids, ncap * sizeof(*bids));

			if (n) {
				bids = n;
				cap_bids = ncap;
			}
		}
		if (n_bids < cap_bids)
			b = &bids[n_bids];
	}
	memset(b, 0, sizeof(*b));
	b->dev = dev;
	b->ino = ino;
	if (fr_read_build_id(path, dev, ino, b->id, &b->len))
		b->len = 0;
	if (b != tmp) {
		b->path = strdup(path);
		if (b->path)
			n_bids++;
	}
	return b;
}

/*
 * The cpuid sites of mapped files (x86sites.c), cached for the life of the
 * process like the build ids, keyed the same way.
 */
struct site_file {
	char *path;
	uint32_t dev;
	uint64_t ino;
	struct fr_sites s;
};

static struct site_file *site_files;
static size_t n_site_files, cap_site_files;

static const struct site_file *lookup_sites(struct fr_asm *a, const char *path, uint32_t dev,
					    uint64_t ino)
{
	struct site_file *f;
	struct stat st;
	char why[256];
	size_t i;
	int fd, err;

	for (i = 0; i < n_site_files; i++) {
		f = &site_files[i];
		if (f->dev == dev && f->ino == ino && !strcmp(f->path, path))
			return f;
	}
	if (n_site_files == cap_site_files) {
		size_t ncap = cap_site_files ? cap_site_files * 2 : 32;
		void *n;

		if (ncap > MAX_BIDS)
			return NULL;
		n = realloc(site_files, ncap * sizeof(*site_files));
		if (!n)
			return NULL;
		site_files = n;
		cap_site_files = ncap;
	}
	f = &site_files[n_site_files];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return NULL;
	f->dev = dev;
	f->ino = ino;
	n_site_files++;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		err = -errno;
		snprintf(why, sizeof(why), "%s", strerror(errno));
	} else if (fstat(fd, &st) || (ino && st.st_ino != ino) ||
		   (dev && encode_dev(st.st_dev) != dev)) {
		err = -ESTALE;
		snprintf(why, sizeof(why), "another file is at that path now");
	} else {
		err = fr_cpuid_sites(fd, &f->s, why, sizeof(why));
	}
	if (fd >= 0)
		close(fd);
	if (err)
		warn(a, "%s: its cpuid instructions are unknown (%s): a replay on a CPU that "
		     "cannot make cpuid fault reads that CPU where this code runs cpuid", path, why);
	return f;
}

/* The sites of @m's file that @m maps, as addresses, into a->csites. */
static void map_cpuid_sites(struct fr_asm *a, const Flightrec__Map *m)
{
	const struct site_file *f = lookup_sites(a, m->path, m->dev, m->inode);
	uint64_t len = m->end - m->start;
	size_t i;

	for (i = 0; f && i < f->s.n; i++) {
		uint64_t off = f->s.off[i];

		if (off < m->offset || off - m->offset > len - 2)
			continue;
		if (a->n_csites == a->cap_csites) {
			size_t ncap = a->cap_csites ? a->cap_csites * 2 : 64;
			uint64_t *n;

			if (ncap > FLRC_MAX_CPUID_SITES)
				return;
			n = realloc(a->csites, ncap * sizeof(*n));
			if (!n)
				return;
			a->csites = n;
			a->cap_csites = ncap;
		}
		a->csites[a->n_csites++] = m->start + (off - m->offset);
	}
}

static int cmp_addr(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

static int rec_map(struct fr_asm *a, struct nlattr **tb)
{
	Flightrec__Entry e = FLIGHTREC__ENTRY__INIT;
	Flightrec__Map m = FLIGHTREC__MAP__INIT;
	Flightrec__IntervalInfo *iv;
	char *path;
	int err;

	iv = rec_interval(a, FLIGHTREC_REC_MAP, tb, &err);
	if (!iv)
		return err;
	m.interval = iv->index;
	if (!a_u64(tb, FLIGHTREC_A_START, &m.start) ||
	    !a_u64(tb, FLIGHTREC_A_END, &m.end) ||
	    !a_u32(tb, FLIGHTREC_A_PROT, &m.prot) ||
	    !a_u32(tb, FLIGHTREC_A_MAP_FLAGS, &m.flags))
		return dropped(a, FLIGHTREC_REC_MAP, "without START, END, PROT or MAP_FLAGS");
	if (m.start >= m.end || (m.start | m.end) & (FLRC_PAGE_SIZE - 1))
		return dropped(a, FLIGHTREC_REC_MAP, "with a bad range");
	if (a->map_valid && a->map_interval == m.interval && m.start < a->map_end)
		return dropped(a, FLIGHTREC_REC_MAP, "overlapping the previous map");
	a->map_valid = true;
	a->map_interval = m.interval;
	a->map_end = m.end;

	OPT_U64(tb, FLIGHTREC_A_PGOFF, &m, offset);
	OPT_U64(tb, FLIGHTREC_A_INODE, &m, inode);
	OPT_U32(tb, FLIGHTREC_A_DEV, &m, dev);
	path = a_str(tb[FLIGHTREC_A_PATH]);
	m.path = path;
	if (tb[FLIGHTREC_A_BUILD_ID] && nla_len(tb[FLIGHTREC_A_BUILD_ID]) > 0 &&
	    nla_len(tb[FLIGHTREC_A_BUILD_ID]) <= MAX_BUILD_ID) {
		m.has_build_id = 1;
		m.build_id.data = nla_data(tb[FLIGHTREC_A_BUILD_ID]);
		m.build_id.len = nla_len(tb[FLIGHTREC_A_BUILD_ID]);
	} else if (path && path[0] == '/' && !(m.flags & FLIGHTREC_MAPF_ANON)) {
		const struct build_id *b = lookup_build_id(path, m.dev, m.inode,
							    &a->bid_tmp);

		if (b->len) {
			m.has_build_id = 1;
			m.build_id.data = (uint8_t *)b->id;
			m.build_id.len = b->len;
		}
	}
	if ((m.prot & PROT_EXEC) && path && path[0] == '/' && !(m.flags & FLIGHTREC_MAPF_ANON))
		map_cpuid_sites(a, &m);
	e.e_case = FLIGHTREC__ENTRY__E_MAP;
	e.map = &m;
	err = spooled(a, SP_MAP, &e);
	free(path);
	if (!err)
		a->st.maps++;
	return err;
}

/* ------------------------------------------------------------------ */
/* Registers */

static int take_regs(struct fr_asm *a, const struct nlattr *nla,
		     Flightrec__Regs *r)
{
	struct user_regs_struct u;

	if (!nla || nla_len(nla) < (int)sizeof(u))
		return -EINVAL;
	memcpy(&u, nla_data(nla), sizeof(u));
	(void)a;
	r->r15 = u.r15;
	r->r14 = u.r14;
	r->r13 = u.r13;
	r->r12 = u.r12;
	r->rbp = u.rbp;
	r->rbx = u.rbx;
	r->r11 = u.r11;
	r->r10 = u.r10;
	r->r9 = u.r9;
	r->r8 = u.r8;
	r->rax = u.rax;
	r->rcx = u.rcx;
	r->rdx = u.rdx;
	r->rsi = u.rsi;
	r->rdi = u.rdi;
	r->orig_rax = u.orig_rax;
	r->rip = u.rip;
	r->cs = u.cs;
	r->eflags = u.eflags;
	r->rsp = u.rsp;
	r->ss = u.ss;
	r->fs_base = u.fs_base;
	r->gs_base = u.gs_base;
	r->has_ds = r->has_es = r->has_fs = r->has_gs = 1;
	r->ds = u.ds;
	r->es = u.es;
	r->fs = u.fs;
	r->gs = u.gs;
	return 0;
}

/* Standard-format offsets, for when neither the recorded nor this CPU says. */
static const struct { uint32_t off, size; } xsave_std[] = {
	[2] = { 576, 256 },	[3] = { 960, 64 },	[4] = { 1024, 64 },
	[5] = { 1088, 64 },	[6] = { 1152, 512 },	[7] = { 1664, 1024 },
	[9] = { 2688, 8 },
};

static const Flightrec__CpuidLeaf *find_leaf(Flightrec__CpuidLeaf **v, size_t n,
					     uint32_t leaf, uint32_t sub)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i]->leaf == leaf && v[i]->subleaf == sub)
			return v[i];
	return NULL;
}

/* Size, standard offset and alignment bit of XSAVE component i. */
static int xsave_layout(struct fr_asm *a, unsigned int i, uint32_t *size,
			uint32_t *off, bool *align64)
{
	const Flightrec__CpuidLeaf *l;
	unsigned int eax, ebx, ecx, edx;

	l = find_leaf(a->cpuid, a->n_cpuid, 0xd, i);
	if (!l)
		l = find_leaf(a->cpuid_local, a->n_cpuid_local, 0xd, i);
	if (!l && __get_cpuid_max(0, NULL) >= 0xd) {
		__cpuid_count(0xd, i, eax, ebx, ecx, edx);
		if (eax) {
			if (!(a->warned & WARN_CPUID_LOCAL))
				warn(a, "the module recorded no CPUID leaf 0xd for the XSAVE layout: using this machine's (kept in SystemInfo.cpuid_local)");
			a->warned |= WARN_CPUID_LOCAL;
			if (push_leaf(&a->cpuid_local, &a->n_cpuid_local,
				      &a->cap_cpuid_local,
				      new_leaf(0xd, i, eax, ebx, ecx, edx)))
				return -ENOMEM;
			l = a->cpuid_local[a->n_cpuid_local - 1];
		}
	}
	if (l && l->eax) {
		*size = l->eax;
		*off = l->ebx;
		*align64 = l->ecx & 2;
		return 0;
	}
	if (i < sizeof(xsave_std) / sizeof(xsave_std[0]) && xsave_std[i].size) {
		if (!(a->warned & WARN_CPUID_TABLE))
			warn(a, "no CPUID leaf 0xd subleaf %u, here or recorded: using the usual standard-format layout", i);
		a->warned |= WARN_CPUID_TABLE;
		*size = xsave_std[i].size;
		*off = xsave_std[i].off;
		*align64 = false;
		return 0;
	}
	return -ENOENT;
}

static uint16_t rd16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

struct xsave_buf {
	Flightrec__Xsave x;
	ProtobufCBinaryData st[8], xmm[16];
	Flightrec__XsaveComponent comp[64], *compp[64];
};

/* Splits a standard-format (or compacted) XSAVE area into named parts. */
static int take_xsave(struct fr_asm *a, const struct nlattr *nla,
		      struct xsave_buf *xb, const char *who)
{
	Flightrec__Xsave *x = &xb->x;
	const uint8_t *d = nla_data(nla);
	size_t len = nla_len(nla);
	uint64_t bv, comp;
	uint32_t coff = 576;
	unsigned int i;
	int err;

	flightrec__xsave__init(x);
	if (len < 512 || len > MAX_XSAVE) {
		warn(a, "%s: XSAVE area of %zu bytes: left out", who, len);
		return 0;
	}
	x->has_fcw = x->has_fsw = x->has_ftw = x->has_fop = 1;
	x->has_fip = x->has_fdp = x->has_mxcsr = x->has_mxcsr_mask = 1;
	x->has_size = 1;
	x->fcw = rd16(d);
	x->fsw = rd16(d + 2);
	x->ftw = d[4];
	x->fop = rd16(d + 6);
	x->fip = get64(d + 8);
	x->fdp = get64(d + 16);
	x->mxcsr = get32(d + 24);
	x->mxcsr_mask = get32(d + 28);
	x->size = len;
	for (i = 0; i < 8; i++) {
		xb->st[i].data = (uint8_t *)d + 32 + 16 * i;
		xb->st[i].len = 16;
	}
	for (i = 0; i < 16; i++) {
		xb->xmm[i].data = (uint8_t *)d + 160 + 16 * i;
		xb->xmm[i].len = 16;
	}
	x->n_st = 8;
	x->st = xb->st;
	x->n_xmm = 16;
	x->xmm = xb->xmm;
	if (len < 576)
		return 0;
	bv = get64(d + 512);
	comp = get64(d + 520);
	x->has_xstate_bv = x->has_xcomp_bv = 1;
	x->xstate_bv = bv;
	x->xcomp_bv = comp;
	if ((comp >> 63) && !(a->warned & WARN_COMPACTED)) {
		warn(a, "%s: XSAVE area in compacted format: converting offsets", who);
		a->warned |= WARN_COMPACTED;
	}
	x->components = xb->compp;
	for (i = 2; i < 63; i++) {
		Flightrec__XsaveComponent *c = &xb->comp[x->n_components];
		uint32_t size, off;
		bool align64;

		if ((comp >> 63) && !(comp & (1ull << i)))
			continue;
		if (!(bv & (1ull << i)) && !(comp >> 63))
			continue;
		err = xsave_layout(a, i, &size, &off, &align64);
		if (err == -ENOMEM)
			return afail(a, err, "out of memory");
		if (err) {
			warn(a, "%s: XSAVE component %u: layout unknown, left out", who, i);
			continue;
		}
		if (comp >> 63) {
			if (align64)
				coff = (coff + 63) & ~63u;
			off = coff;
			coff += size;
			if (!(bv & (1ull << i)))
				continue;	/* in its initial state */
		}
		if ((uint64_t)off + size > len) {
			warn(a, "%s: XSAVE component %u at %u+%u is past the %zu-byte area: left out",
			     who, i, off, size, len);
			continue;
		}
		flightrec__xsave_component__init(c);
		c->index = i;
		c->name = (char *)flrc_xsave_component_name(i);
		c->data.data = (uint8_t *)d + off;
		c->data.len = size;
		xb->compp[x->n_components++] = c;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Threads and sigactions */

static int rec_thread(struct fr_asm *a, struct nlattr **tb)
{
	Flightrec__Entry e = FLIGHTREC__ENTRY__INIT;
	Flightrec__Thread t = FLIGHTREC__THREAD__INIT;
	Flightrec__Regs r = FLIGHTREC__REGS__INIT;
	Flightrec__IntervalInfo *iv;
	struct xsave_buf *xb = NULL;
	char who[64];
	uint32_t v;
	int err;

	iv = rec_interval(a, FLIGHTREC_REC_THREAD, tb, &err);
	if (!iv)
		return err;
	t.interval = iv->index;
	if (!a_u32(tb, FLIGHTREC_A_TID, &t.tid) || !t.tid)
		return dropped(a, FLIGHTREC_REC_THREAD, "without TID");
	if (take_regs(a, tb[FLIGHTREC_A_REGS], &r)) {
		flag_interval(iv, FLIGHTREC_IF_LOST_RECORD);
		return dropped(a, FLIGHTREC_REC_THREAD, "without REGS");
	}
	a_u64(tb, FLIGHTREC_A_FS_BASE, &r.fs_base);
	a_u64(tb, FLIGHTREC_A_GS_BASE, &r.gs_base);
	t.regs = &r;
	snprintf(who, sizeof(who), "thread %u interval %u", t.tid, t.interval);
	if (tb[FLIGHTREC_A_XSAVE]) {
		xb = malloc(sizeof(*xb));
		if (!xb)
			return afail(a, -ENOMEM, "out of memory");
		err = take_xsave(a, tb[FLIGHTREC_A_XSAVE], xb, who);
		if (err)
			goto out;
		if (xb->x.has_size)
			t.xsave = &xb->x;
	}
	OPT_U64(tb, FLIGHTREC_A_SIGMASK, &t, sigmask);
	OPT_U64(tb, FLIGHTREC_A_SAS_SP, &t, sas_sp);
	OPT_U64(tb, FLIGHTREC_A_SAS_SIZE, &t, sas_size);
	OPT_U32(tb, FLIGHTREC_A_SAS_FLAGS, &t, sas_flags);
	OPT_U64(tb, FLIGHTREC_A_RSEQ, &t, rseq);
	OPT_U32(tb, FLIGHTREC_A_RSEQ_LEN, &t, rseq_len);
	OPT_U32(tb, FLIGHTREC_A_RSEQ_SIG, &t, rseq_sig);
	OPT_U64(tb, FLIGHTREC_A_ROBUST_LIST, &t, robust_list);
	OPT_U64(tb, FLIGHTREC_A_ROBUST_LEN, &t, robust_len);
	OPT_U64(tb, FLIGHTREC_A_CLEAR_CHILD_TID, &t, clear_child_tid);
	if (a_u32(tb, FLIGHTREC_A_IN_SYSCALL, &v)) {
		t.has_in_syscall = 1;
		t.in_syscall = (int32_t)v;
	}
	e.e_case = FLIGHTREC__ENTRY__E_THREAD;
	e.thread = &t;
	err = spooled(a, SP_THREAD, &e);
	if (!err)
		a->st.threads++;
out:
	free(xb);
	return err;
}

static int rec_sigaction(struct fr_asm *a, struct nlattr **tb)
{
	Flightrec__Entry e = FLIGHTREC__ENTRY__INIT;
	Flightrec__SigAction s = FLIGHTREC__SIG_ACTION__INIT;
	Flightrec__IntervalInfo *iv;
	int err;

	iv = rec_interval(a, FLIGHTREC_REC_SIGACTION, tb, &err);
	if (!iv)
		return err;
	s.interval = iv->index;
	if (!a_u32(tb, FLIGHTREC_A_SIGNO, &s.signo) || s.signo < 1 ||
	    s.signo > 64 || !a_u64(tb, FLIGHTREC_A_HANDLER, &s.handler))
		return dropped(a, FLIGHTREC_REC_SIGACTION, "without a valid SIGNO or HANDLER");
	OPT_U64(tb, FLIGHTREC_A_SA_FLAGS, &s, flags);
	OPT_U64(tb, FLIGHTREC_A_RESTORER, &s, restorer);
	OPT_U64(tb, FLIGHTREC_A_SA_MASK, &s, mask);
	e.e_case = FLIGHTREC__ENTRY__E_SIGACTION;
	e.sigaction = &s;
	err = spooled(a, SP_SIGACTION, &e);
	if (!err)
		a->st.sigactions++;
	return err;
}

/* ------------------------------------------------------------------ */
/* Pages */

static bool all_zero(const uint8_t *p)
{
	static const uint8_t zero[64];
	size_t i;

	for (i = 0; i < FLRC_PAGE_SIZE; i += sizeof(zero))
		if (memcmp(p + i, zero, sizeof(zero)))
			return false;
	return true;
}

/* Are bytes the contents of stored page sp?  Read back and compared. */
static int same_bytes(struct fr_asm *a, const struct stored_page *sp,
		      const uint8_t *bytes)
{
	Flightrec__Entry *e;
	uint8_t *buf;
	size_t n;
	int ret;

	buf = malloc(sp->len);
	if (!buf)
		return -ENOMEM;
	ret = spool_read(&a->sp[SP_PAGE], sp->off, buf, sp->len);
	if (ret) {
		free(buf);
		return ret;
	}
	e = flightrec__entry__unpack(NULL, sp->len - 4, buf + 4);
	free(buf);
	if (!e || e->e_case != FLIGHTREC__ENTRY__E_PAGE || !e->page->has_zdata) {
		if (e)
			flightrec__entry__free_unpacked(e, NULL);
		return -EIO;
	}
	n = ZSTD_decompressDCtx(a->dctx, a->cmpbuf, FLRC_PAGE_SIZE,
				e->page->zdata.data, e->page->zdata.len);
	flightrec__entry__free_unpacked(e, NULL);
	if (ZSTD_isError(n) || n != FLRC_PAGE_SIZE)
		return -EIO;
	return !memcmp(a->cmpbuf, bytes, FLRC_PAGE_SIZE);
}

static int page_seen(struct fr_asm *a, uint32_t interval, uint64_t addr)
{
	int r;

	if (!a->seen_valid || a->seen_interval != interval) {
		fr_htab_clear(&a->seen);
		a->seen_interval = interval;
		a->seen_valid = true;
	}
	r = fr_htab_put(&a->seen, addr, 0);
	return r < 0 ? r : r == 1;
}

static int rec_page(struct fr_asm *a, struct nlattr **tb)
{
	Flightrec__Entry e = FLIGHTREC__ENTRY__INIT;
	Flightrec__Page pg = FLIGHTREC__PAGE__INIT;
	Flightrec__IntervalInfo *iv;
	const struct nlattr *data = tb[FLIGHTREC_A_DATA];
	const uint8_t *bytes = NULL;
	struct stored_page sp;
	uint32_t flags = 0, idx;
	bool written;
	int err;

	iv = rec_interval(a, FLIGHTREC_REC_PAGE, tb, &err);
	if (!iv)
		return err;
	pg.interval = iv->index;
	if (!a_u64(tb, FLIGHTREC_A_ADDR, &pg.addr) ||
	    (pg.addr & (FLRC_PAGE_SIZE - 1))) {
		flag_interval(iv, FLIGHTREC_IF_LOST_PAGE);
		return dropped(a, FLIGHTREC_REC_PAGE, "without a page-aligned ADDR");
	}
	a_u32(tb, FLIGHTREC_A_PAGE_FLAGS, &flags);
	pg.has_flags = 1;
	pg.flags = flags;
	if (!(flags & FLIGHTREC_PAGE_ZERO)) {
		if (!data || nla_len(data) != FLRC_PAGE_SIZE) {
			flag_interval(iv, FLIGHTREC_IF_LOST_PAGE);
			return dropped(a, FLIGHTREC_REC_PAGE, "without 4096 bytes of DATA");
		}
		bytes = nla_data(data);
	}
	err = page_seen(a, pg.interval, pg.addr);
	if (err < 0)
		return afail(a, err, "out of memory");
	if (err) {
		warn(a, "page %#llx twice in interval %u: the second left out",
		     (unsigned long long)pg.addr, pg.interval);
		a->st.dropped++;
		return 0;
	}
	written = flags & FLIGHTREC_PAGE_WRITTEN;

	e.e_case = FLIGHTREC__ENTRY__E_PAGE;
	e.page = &pg;
	if (!bytes || all_zero(bytes)) {
		pg.kind = FLIGHTREC__PAGE_KIND__PAGE_ZERO;
		err = spooled(a, SP_PAGE, &e);
		a->st.pages_zero++;
		goto out;
	}
	pg.has_hash = 1;
	pg.hash = flrc_hash(bytes, FLRC_PAGE_SIZE);
	if (fr_htab_get(&a->by_hash, pg.hash, &idx)) {
		err = same_bytes(a, &a->stored[idx], bytes);
		if (err < 0)
			return afail(a, err, "%s: reading back a stored page: %s",
				     a->dir, strerror(-err));
		if (err) {
			pg.kind = FLIGHTREC__PAGE_KIND__PAGE_SAME_AS;
			pg.has_same_as = 1;
			pg.same_as = pg.hash;
			err = spooled(a, SP_PAGE, &e);
			a->st.pages_same++;
			goto out;
		}
		/* A hash collision: stored in full, and never referred to. */
	}
	{
		size_t z = ZSTD_compress2(a->cctx, a->zbuf, a->zcap, bytes,
					  FLRC_PAGE_SIZE);

		if (ZSTD_isError(z))
			return afail(a, -EIO, "zstd: %s", ZSTD_getErrorName(z));
		pg.kind = FLIGHTREC__PAGE_KIND__PAGE_DATA;
		pg.has_zdata = 1;
		pg.zdata.data = a->zbuf;
		pg.zdata.len = z;
	}
	err = spool_put(a, SP_PAGE, &e, &sp.off, &sp.len);
	if (err)
		return afail(a, err, "%s: writing a spool file: %s", a->dir,
			     strerror(-err));
	if (!fr_htab_get(&a->by_hash, pg.hash, &idx)) {
		if (a->n_stored == a->cap_stored) {
			size_t ncap = a->cap_stored ? a->cap_stored * 2 : 1024;
			void *n = realloc(a->stored, ncap * sizeof(*a->stored));

			if (!n)
				return afail(a, -ENOMEM, "out of memory");
			a->stored = n;
			a->cap_stored = ncap;
		}
		a->stored[a->n_stored] = sp;
		if (fr_htab_put(&a->by_hash, pg.hash, (uint32_t)a->n_stored) < 0)
			return afail(a, -ENOMEM, "out of memory");
		a->n_stored++;
	}
	a->st.pages_data++;
	a->st.zbytes += pg.zdata.len;
	if (written)
		a->st.zbytes_written += pg.zdata.len;
out:
	if (!err) {
		a->st.pages++;
		if (written)
			a->st.pages_written++;
	}
	return err;
}

/* ------------------------------------------------------------------ */
/* Syscalls and the end */

/*
 * A syscall record stays pending until the next record: its large
 * out-buffers follow in OUT_CHUNK records (uapi/flightrec.h).
 */
struct pend_out {
	Flightrec__OutBuf o;
	uint32_t want;		/* the whole length (OUT_LEN), or the data's */
	uint32_t have;		/* bytes received, in order */
};

struct pend_sc {
	bool active;
	Flightrec__Syscall s;
	Flightrec__IntervalInfo *iv;
	uint64_t args[6];
	struct pend_out *out;
	size_t n_out, cap_out;
	size_t bytes;		/* all out-buffers together */
};

static void pend_clear(struct pend_sc *p)
{
	size_t i;

	for (i = 0; i < p->n_out; i++)
		free(p->out[i].o.data.data);
	p->n_out = 0;
	p->bytes = 0;
	p->active = false;
}

/* Out-buffer idx of the pending record, made on first sight. */
static struct pend_out *pend_out(struct pend_sc *p, uint32_t idx)
{
	if (idx >= 4096)
		return NULL;
	while (p->n_out <= idx) {
		struct pend_out *po;

		if (p->n_out == p->cap_out) {
			size_t ncap = p->cap_out ? p->cap_out * 2 : 4;
			void *n = realloc(p->out, ncap * sizeof(*p->out));

			if (!n)
				return NULL;
			p->out = n;
			p->cap_out = ncap;
		}
		po = &p->out[p->n_out++];
		memset(po, 0, sizeof(*po));
		flightrec__out_buf__init(&po->o);
		po->o.arg = FLIGHTREC_OUT_ARG_DERIVED;
	}
	return &p->out[idx];
}

/*
 * Adds len bytes at off to out-buffer po of the record (whole length want).
 * Pieces come in order; one that does not follow is left out.
 */
static int pend_data(struct fr_asm *a, struct pend_sc *p, struct pend_out *po,
		     uint32_t want, uint32_t off, const void *data, uint32_t len)
{
	uint8_t *nd;

	if (!po->o.data.data) {
		if (p->bytes + want > FLRC_MAX_ENTRY - 65536) {
			warn(a, "syscall seq %llu: out-buffers over %u bytes: cut",
			     (unsigned long long)p->s.seq, FLRC_MAX_ENTRY);
			p->s.has_flags = 1;
			p->s.flags |= FLIGHTREC_SC_TRUNCATED;
			return 0;
		}
		nd = malloc(want ? want : 1);
		if (!nd)
			return -ENOMEM;
		po->o.data.data = nd;
		po->want = want;
		p->bytes += want;
	}
	if (off != po->have || len > po->want - po->have) {
		warn(a, "syscall seq %llu: an out-buffer piece at %u+%u does not follow %u of %u: left out",
		     (unsigned long long)p->s.seq, off, len, po->have, po->want);
		a->st.dropped++;
		return 0;
	}
	memcpy(po->o.data.data + off, data, len);
	po->have += len;
	return 0;
}

static int pend_out_attr(struct fr_asm *a, struct pend_sc *p, uint32_t idx,
			 struct nlattr *nest, bool chunk)
{
	struct nlattr *otb[FLIGHTREC_OUT_MAX + 1];
	const struct nlattr *d;
	struct pend_out *po;
	uint32_t want, off = 0, arg;

	if (nla_parse_nested(otb, FLIGHTREC_OUT_MAX, nest, NULL) < 0 ||
	    !otb[FLIGHTREC_OUT_DATA]) {
		warn(a, "syscall seq %llu: an OUT attribute without DATA: left out",
		     (unsigned long long)p->s.seq);
		a->st.dropped++;
		return 0;
	}
	d = otb[FLIGHTREC_OUT_DATA];
	a_u32(otb, FLIGHTREC_OUT_INDEX, &idx);
	want = nla_len(d);
	if (chunk && (!a_u32(otb, FLIGHTREC_OUT_LEN, &want) ||
		      !a_u32(otb, FLIGHTREC_OUT_OFFSET, &off))) {
		warn(a, "syscall seq %llu: an OUT_CHUNK without OUT_LEN or OUT_OFFSET: left out",
		     (unsigned long long)p->s.seq);
		a->st.dropped++;
		return 0;
	}
	po = pend_out(p, idx);
	if (!po)
		return idx >= 4096 ? 0 : -ENOMEM;
	if (a_u32(otb, FLIGHTREC_OUT_ARG, &arg))
		po->o.arg = arg;
	a_u64(otb, FLIGHTREC_OUT_ADDR, &po->o.addr);
	return pend_data(a, p, po, want, off, nla_data(d), nla_len(d));
}

/* Writes the pending syscall record, if any. */
static int flush_syscall(struct fr_asm *a)
{
	struct pend_sc *p = a->pend;
	Flightrec__Entry e = FLIGHTREC__ENTRY__INIT;
	Flightrec__OutBuf **op;
	size_t i, n = 0;
	int err;

	if (!p || !p->active)
		return 0;
	op = malloc((p->n_out + 1) * sizeof(*op));
	if (!op)
		return afail(a, -ENOMEM, "out of memory");
	for (i = 0; i < p->n_out; i++) {
		struct pend_out *po = &p->out[i];

		if (!po->o.data.data)
			continue;	/* never came, or cut */
		if (po->have < po->want) {
			warn(a, "syscall seq %llu: out-buffer %zu has %u of its %u bytes",
			     (unsigned long long)p->s.seq, i, po->have, po->want);
			p->s.has_flags = 1;
			p->s.flags |= FLIGHTREC_SC_TRUNCATED;
		}
		po->o.data.len = po->have;
		op[n++] = &po->o;
	}
	p->s.n_out = n;
	p->s.out = op;
	p->s.n_args = 6;
	p->s.args = p->args;
	e.e_case = FLIGHTREC__ENTRY__E_SYSCALL;
	e.syscall = &p->s;
	err = spooled(a, SP_SYSCALL, &e);
	if (!err) {
		a->st.syscalls++;
		a->st.syscall_bytes += flrc_framed_size(&e);
	}
	free(op);
	pend_clear(p);
	return err;
}

static int rec_syscall(struct fr_asm *a, struct nlattr **tb,
		       const struct nlattr *attrs, int attrlen)
{
	struct pend_sc *p = a->pend;
	Flightrec__IntervalInfo *iv;
	Flightrec__Syscall s = FLIGHTREC__SYSCALL__INIT;
	uint32_t idx = 0;
	int err = 0;

	iv = rec_interval(a, FLIGHTREC_REC_SYSCALL, tb, &err);
	if (!iv)
		return err;
	s.interval = iv->index;
	if (!a_u64(tb, FLIGHTREC_A_SEQ, &s.seq) ||
	    !a_u32(tb, FLIGHTREC_A_TID, &s.tid) ||
	    !a_u32(tb, FLIGHTREC_A_NR, &s.nr) ||
	    !a_u64(tb, FLIGHTREC_A_RET, (uint64_t *)&s.ret)) {
		flag_interval(iv, FLIGHTREC_IF_LOST_RECORD);
		return dropped(a, FLIGHTREC_REC_SYSCALL, "without SEQ, TID, NR or RET");
	}
	/* increasing within an interval (flightrec_reader's rule) */
	if (a->have_seq && s.interval == a->last_seq_iv && s.seq <= a->last_seq) {
		flag_interval(iv, FLIGHTREC_IF_LOST_RECORD);
		a->st.dropped++;
		warn(a, "syscall seq %llu after seq %llu: left out",
		     (unsigned long long)s.seq, (unsigned long long)a->last_seq);
		return 0;
	}
	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p)
			return afail(a, -ENOMEM, "out of memory");
		a->pend = p;
	}
	p->s = s;
	p->iv = iv;
	memset(p->args, 0, sizeof(p->args));
	if (tb[FLIGHTREC_A_ARGS]) {
		size_t n = nla_len(tb[FLIGHTREC_A_ARGS]) / 8;

		memcpy(p->args, nla_data(tb[FLIGHTREC_A_ARGS]),
		       (n > 6 ? 6 : n) * 8);
	}
	OPT_U32(tb, FLIGHTREC_A_SC_FLAGS, &p->s, flags);
	OPT_U64(tb, FLIGHTREC_A_IN_HASH, &p->s, in_hash);
	OPT_U64(tb, FLIGHTREC_A_IN_HASH_SA, &p->s, in_hash_sa);
	OPT_U64(tb, FLIGHTREC_A_IN_HASH_FULL, &p->s, in_hash_full);
	OPT_U64(tb, FLIGHTREC_A_IN_HASH_W, &p->s, in_hash_w);
	OPT_U32(tb, FLIGHTREC_A_RSEQ_CPU, &p->s, rseq_cpu);
	OPT_U32(tb, FLIGHTREC_A_RSEQ_NODE, &p->s, rseq_node);
	OPT_U32(tb, FLIGHTREC_A_RSEQ_MM_CID, &p->s, rseq_mm_cid);
	OPT_U64(tb, FLIGHTREC_A_TIME_NS, &p->s, time_ns);
	if (p->s.has_flags && (p->s.flags & FLIGHTREC_SC_UNKNOWN_OUT))
		flag_interval(iv, FLIGHTREC_IF_UNKNOWN_SYSCALL);
	p->active = true;
	a->have_seq = true;
	a->last_seq = s.seq;
	a->last_seq_iv = s.interval;
	if (s.seq > a->max_seq)
		a->max_seq = s.seq;
	if (attrs) {
		const struct nlattr *nla;
		int rem;

		nla_for_each_attr(nla, attrs, attrlen, rem) {
			if (nla_type(nla) != FLIGHTREC_A_OUT)
				continue;
			err = pend_out_attr(a, p, idx++, (struct nlattr *)nla, false);
			if (err)
				break;
		}
	} else if (tb[FLIGHTREC_A_OUT]) {
		err = pend_out_attr(a, p, 0, tb[FLIGHTREC_A_OUT], false);
	}
	if (err)
		return afail(a, err, "out of memory");
	return 0;
}

static int rec_out_chunk(struct fr_asm *a, struct nlattr **tb)
{
	struct pend_sc *p = a->pend;
	uint64_t seq;
	uint32_t tid;
	int err;

	if (!a_u64(tb, FLIGHTREC_A_SEQ, &seq) || !a_u32(tb, FLIGHTREC_A_TID, &tid) ||
	    !tb[FLIGHTREC_A_OUT])
		return dropped(a, FLIGHTREC_REC_OUT_CHUNK, "without SEQ, TID or OUT");
	if (!p || !p->active || p->s.seq != seq || p->s.tid != tid) {
		a->st.dropped++;
		warn(a, "a piece of the out-buffers of syscall seq %llu, which is not the one just before: left out",
		     (unsigned long long)seq);
		return 0;
	}
	err = pend_out_attr(a, p, 0, tb[FLIGHTREC_A_OUT], true);
	if (err)
		return afail(a, err, "out of memory");
	return 0;
}

static void free_xsave(Flightrec__Xsave *x)
{
	size_t i;

	if (!x)
		return;
	for (i = 0; i < x->n_st; i++)
		free(x->st[i].data);
	for (i = 0; i < x->n_xmm; i++)
		free(x->xmm[i].data);
	for (i = 0; i < x->n_components; i++)
		free(x->components[i]->data.data);
	free(x->st);
	free(x->xmm);
	if (x->components)
		free(x->components[0]);	/* one array, see keep_xsave */
	free(x->components);
	free(x);
}

static void free_end(Flightrec__End *e)
{
	if (!e)
		return;
	free_xsave(e->xsave);
	free(e->regs);
	free(e);
}

static uint8_t *dup_bytes(const void *p, size_t n)
{
	uint8_t *d = malloc(n ? n : 1);

	if (d)
		memcpy(d, p, n);
	return d;
}

/* A deep copy of an Xsave whose bytes point into a netlink message. */
static Flightrec__Xsave *keep_xsave(const Flightrec__Xsave *x)
{
	Flightrec__Xsave *k = malloc(sizeof(*k));
	Flightrec__XsaveComponent *c;
	size_t i;
	bool ok = true;

	if (!k)
		return NULL;
	*k = *x;
	k->st = calloc(8, sizeof(*k->st));
	k->xmm = calloc(16, sizeof(*k->xmm));
	k->components = calloc(x->n_components + 1, sizeof(*k->components));
	c = calloc(x->n_components + 1, sizeof(*c));
	if (!k->st || !k->xmm || !k->components || !c) {
		free(k->st);
		free(k->xmm);
		free(k->components);
		free(c);
		free(k);
		return NULL;
	}
	k->components[0] = c;
	for (i = 0; i < x->n_st; i++) {
		k->st[i].len = x->st[i].len;
		k->st[i].data = dup_bytes(x->st[i].data, x->st[i].len);
		ok &= !!k->st[i].data;
	}
	for (i = 0; i < x->n_xmm; i++) {
		k->xmm[i].len = x->xmm[i].len;
		k->xmm[i].data = dup_bytes(x->xmm[i].data, x->xmm[i].len);
		ok &= !!k->xmm[i].data;
	}
	for (i = 0; i < x->n_components; i++) {
		c[i] = *x->components[i];
		c[i].data.data = dup_bytes(x->components[i]->data.data,
					   x->components[i]->data.len);
		ok &= !!c[i].data.data;
		k->components[i] = &c[i];
	}
	if (!ok) {
		free_xsave(k);
		return NULL;
	}
	return k;
}

static int rec_end(struct fr_asm *a, struct nlattr **tb)
{
	Flightrec__End *e;
	uint32_t v;
	int err = 0;

	if (a->end) {
		warn(a, "a second END record: left out");
		a->st.dropped++;
		return 0;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return afail(a, -ENOMEM, "out of memory");
	flightrec__end__init(e);
	if (!a_u32(tb, FLIGHTREC_A_END_KIND, &e->kind)) {
		free(e);
		return dropped(a, FLIGHTREC_REC_END, "without END_KIND");
	}
	OPT_U32(tb, FLIGHTREC_A_TID, e, tid);
	OPT_U32(tb, FLIGHTREC_A_SIGNO, e, signo);
	if (a_u32(tb, FLIGHTREC_A_SI_CODE, &v)) {
		e->has_si_code = 1;
		e->si_code = (int32_t)v;
	}
	OPT_U64(tb, FLIGHTREC_A_FAULT_ADDR, e, fault_addr);
	OPT_U32(tb, FLIGHTREC_A_EXIT_CODE, e, exit_code);
	if (e->has_signo && e->signo > 64) {
		warn(a, "END record with signal %u: signal left out", e->signo);
		e->has_signo = 0;
	}
	if (tb[FLIGHTREC_A_REGS]) {
		e->regs = malloc(sizeof(*e->regs));
		if (!e->regs) {
			free_end(e);
			return afail(a, -ENOMEM, "out of memory");
		}
		flightrec__regs__init(e->regs);
		if (take_regs(a, tb[FLIGHTREC_A_REGS], e->regs)) {
			warn(a, "END record with a short REGS attribute: registers left out");
			free(e->regs);
			e->regs = NULL;
		}
	}
	if (tb[FLIGHTREC_A_XSAVE]) {
		struct xsave_buf *xb = malloc(sizeof(*xb));

		if (!xb) {
			free_end(e);
			return afail(a, -ENOMEM, "out of memory");
		}
		err = take_xsave(a, tb[FLIGHTREC_A_XSAVE], xb, "end");
		if (!err && xb->x.has_size) {
			e->xsave = keep_xsave(&xb->x);
			if (!e->xsave)
				err = afail(a, -ENOMEM, "out of memory");
		}
		free(xb);
	}
	if (err) {
		free_end(e);
		return err;
	}
	a->end = e;
	return 0;
}

/* ------------------------------------------------------------------ */

static void progress(struct fr_asm *a, bool final)
{
	struct timespec now;

	if (!a->o.progress)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!final && (now.tv_sec - a->last_progress.tv_sec) * 1000000000ll +
		      (now.tv_nsec - a->last_progress.tv_nsec) < 250000000ll)
		return;
	a->last_progress = now;
	fprintf(stderr, "\r\033[Kassembling: %llu records, %llu pages (%llu stored, %.1f MiB compressed), %llu syscalls",
		(unsigned long long)a->st.records,
		(unsigned long long)a->st.pages,
		(unsigned long long)a->st.pages_data,
		a->st.zbytes / 1048576.0, (unsigned long long)a->st.syscalls);
	a->progress_shown = true;
	if (final) {
		fputs("\r\033[K", stderr);
		a->progress_shown = false;
	}
}

int fr_asm_record(struct fr_asm *a, struct nlattr **tb,
		  const struct nlattr *attrs, int attrlen)
{
	uint32_t type;
	int err;

	a->st.records++;
	if (!a_u32(tb, FLIGHTREC_A_REC_TYPE, &type)) {
		a->st.dropped++;
		warn(a, "a record without REC_TYPE: left out");
		return 0;
	}
	if (type != FLIGHTREC_REC_OUT_CHUNK) {
		err = flush_syscall(a);
		if (err)
			return err;
	}
	switch (type) {
	case FLIGHTREC_REC_OUT_CHUNK:
		err = rec_out_chunk(a, tb);
		break;
	case FLIGHTREC_REC_SYSINFO:
		err = rec_sysinfo(a, tb);
		break;
	case FLIGHTREC_REC_PROCESS:
		err = rec_process(a, tb);
		break;
	case FLIGHTREC_REC_CMDLINE_CHUNK:
		err = rec_cmdline_chunk(a, tb);
		break;
	case FLIGHTREC_REC_INTERVAL:
		err = rec_interval_info(a, tb);
		break;
	case FLIGHTREC_REC_MAP:
		err = rec_map(a, tb);
		break;
	case FLIGHTREC_REC_THREAD:
		err = rec_thread(a, tb);
		break;
	case FLIGHTREC_REC_SIGACTION:
		err = rec_sigaction(a, tb);
		break;
	case FLIGHTREC_REC_PAGE:
		err = rec_page(a, tb);
		break;
	case FLIGHTREC_REC_SYSCALL:
		err = rec_syscall(a, tb, attrs, attrlen);
		break;
	case FLIGHTREC_REC_END:
		err = rec_end(a, tb);
		break;
	default:
		/* A record type from a newer module: nothing to keep. */
		a->st.dropped++;
		warn(a, "record type %u unknown to this flightrec: left out", type);
		err = 0;
	}
	progress(a, false);
	return err;
}

int fr_asm_cb(struct nlattr **tb, void *arg)
{
	return fr_asm_record(arg, tb, NULL, 0);
}

int fr_asm_raw_cb(struct nlattr **tb, const struct nlattr *attrs, int attrlen,
		  void *arg)
{
	return fr_asm_record(arg, tb, attrs, attrlen);
}

int fr_asm_begin(struct fr_asm **ap, const char *dir,
		 const struct fr_asm_opts *opts, char *err, size_t errlen)
{
	struct fr_asm *a;
	int i, ret;

	*ap = NULL;
	a = calloc(1, sizeof(*a));
	if (!a)
		goto out_nomem;
	for (i = 0; i < NR_SPOOLS; i++)
		a->sp[i].fd = -1;
	if (opts)
		a->o = *opts;
	if (!a->o.level)
		a->o.level = 3;
	a->o.progress = a->o.progress && isatty(2);
	a->warn = a->o.warn ? a->o.warn : stderr;
	flightrec__process_info__init(&a->proc);
	a->dir = strdup(dir);
	a->cctx = ZSTD_createCCtx();
	a->dctx = ZSTD_createDCtx();
	a->zcap = ZSTD_compressBound(FLRC_PAGE_SIZE);
	a->zbuf = malloc(a->zcap);
	a->cmpbuf = malloc(FLRC_PAGE_SIZE);
	if (!a->dir || !a->cctx || !a->dctx || !a->zbuf || !a->cmpbuf)
		goto out_nomem;
	ZSTD_CCtx_setParameter(a->cctx, ZSTD_c_compressionLevel, a->o.level);
	ZSTD_CCtx_setParameter(a->cctx, ZSTD_c_contentSizeFlag, 1);
	ZSTD_CCtx_setParameter(a->cctx, ZSTD_c_checksumFlag, 0);
	for (i = 0; i < NR_SPOOLS; i++) {
		ret = spool_open(&a->sp[i], dir);
		if (ret) {
			snprintf(err, errlen, "%s: a spool file: %s", dir,
				 strerror(-ret));
			fr_asm_abort(a);
			return ret;
		}
	}
	*ap = a;
	return 0;

out_nomem:
	snprintf(err, errlen, "out of memory");
	fr_asm_abort(a);
	return -ENOMEM;
}

void fr_asm_abort(struct fr_asm *a)
{
	size_t i;

	if (!a)
		return;
	fr_asm_abort(a->before_exec);
	for (i = 0; i < NR_SPOOLS; i++)
		spool_close(&a->sp[i]);
	for (i = 0; i < 6; i++)
		free(a->uts[i]);
	for (i = 0; i < a->n_cpuid; i++)
		free(a->cpuid[i]);
	for (i = 0; i < a->n_cpuid_local; i++)
		free(a->cpuid_local[i]);
	free(a->cpuid);
	free(a->cpuid_local);
	free(a->csites);
	free(a->comm);
	free(a->exe);
	for (i = 0; i < a->n_argv; i++)
		free(a->argv[i]);
	free(a->argv);
	free(a->cmdline);
	free(a->auxv);
	for (i = 0; i < a->n_iv; i++)
		free(a->iv[i]);
	free(a->iv);
	free_end(a->end);
	if (a->pend) {
		pend_clear(a->pend);
		free(a->pend->out);
		free(a->pend);
	}
	ZSTD_freeCCtx(a->cctx);
	ZSTD_freeDCtx(a->dctx);
	free(a->zbuf);
	free(a->cmpbuf);
	fr_htab_clear(&a->by_hash);
	fr_htab_clear(&a->seen);
	free(a->stored);
	free(a->frame);
	free(a->dir);
	free(a);
}

static int cmp_iv(const void *x, const void *y)
{
	const Flightrec__IntervalInfo *a = *(Flightrec__IntervalInfo *const *)x;
	const Flightrec__IntervalInfo *b = *(Flightrec__IntervalInfo *const *)y;

	return a->index < b->index ? -1 : a->index > b->index;
}

static int write_file(struct fr_asm *a, struct flrc_writer *w)
{
	Flightrec__Entry e = FLIGHTREC__ENTRY__INIT;
	Flightrec__Header h = FLIGHTREC__HEADER__INIT;
	Flightrec__SystemInfo s = FLIGHTREC__SYSTEM_INFO__INIT;
	struct utsname me;
	struct timespec now;
	size_t i;
	int err;

	s.sysname = a->uts[0];
	s.nodename = a->uts[1];
	s.release = a->uts[2];
	s.version = a->uts[3];
	s.machine = a->uts[4];
	s.n_cpuid = a->n_cpuid;
	s.cpuid = a->cpuid;
	s.n_cpuid_local = a->n_cpuid_local;
	s.cpuid_local = a->cpuid_local;
	s.has_xcr0 = a->has_xcr0;
	s.xcr0 = a->xcr0;
	s.has_page_size = 1;
	s.page_size = FLRC_PAGE_SIZE;

	a->proc.comm = a->comm;
	a->proc.exe = a->exe;
	a->proc.n_argv = a->n_argv;
	a->proc.argv = a->argv;
	a->proc.n_auxv = a->n_auxv;
	a->proc.auxv = a->auxv;
	/* each interval lists the maps again: once per address */
	if (a->n_csites)
		qsort(a->csites, a->n_csites, sizeof(*a->csites), cmp_addr);
	for (i = 0; i < a->n_csites; i++)
		if (!a->proc.n_cpuid_sites || a->csites[i] != a->csites[a->proc.n_cpuid_sites - 1])
			a->csites[a->proc.n_cpuid_sites++] = a->csites[i];
	a->proc.cpuid_sites = a->csites;

	qsort(a->iv, a->n_iv, sizeof(*a->iv), cmp_iv);
	h.format_version = FLRC_FORMAT_VERSION;
	h.tool_version = FR_TOOL_VERSION;
	clock_gettime(CLOCK_REALTIME, &now);
	h.has_created_unix_ns = 1;
	h.created_unix_ns = now.tv_sec * 1000000000ull + now.tv_nsec;
	h.system = &s;
	h.process = &a->proc;
	h.n_intervals = a->n_iv;
	h.intervals = a->iv;
	h.has_flags = 1;
	for (i = 0; i < a->n_iv; i++)
		h.flags |= a->iv[i]->flags;
	h.has_abi_version = !!a->o.abi_version;
	h.abi_version = a->o.abi_version;
	h.has_dump_id = !!a->o.dump_id;
	h.dump_id = a->o.dump_id;
	if (!uname(&me))
		h.assembled_on = me.nodename;

	e.e_case = FLIGHTREC__ENTRY__E_HEADER;
	e.header = &h;
	err = flrc_writer_add(w, &e);
	for (i = 0; i < NR_SPOOLS && !err; i++) {
		err = spool_flush(&a->sp[i]);
		if (err) {
			afail(a, err, "%s: writing a spool file: %s", a->dir,
			      strerror(-err));
			return err;
		}
		if (a->sp[i].len)
			err = flrc_writer_copy_fd(w, spool_rank[i], a->sp[i].fd,
						  a->sp[i].len);
	}
	if (!err && a->end) {
		a->end->has_last_seq = a->have_seq;
		a->end->last_seq = a->max_seq;
		e.e_case = FLIGHTREC__ENTRY__E_END;
		e.end = a->end;
		err = flrc_writer_add(w, &e);
	}
	if (err)
		afail(a, err, "%s", flrc_writer_error(w));
	return err;
}

/* The last record placed, and what a file needs checked: 0 or -errno. */
static int settle(struct fr_asm *a, char *err, size_t errlen)
{
	int ret = flush_syscall(a);

	if (ret) {
		snprintf(err, errlen, "%s", a->err);
		return ret;
	}
	if (!a->have_process) {
		snprintf(err, errlen, "the dump has no PROCESS record");
		return -EBADMSG;
	}
	if (a->cmdline) {
		warn(a, "the command line is incomplete (%u of %u bytes): left out",
		     a->cmdline_have, a->cmdline_len);
		a->st.dropped++;
	}
	if (!a->n_iv) {
		snprintf(err, errlen, "the dump has no interval");
		return -EBADMSG;
	}
	if (!a->have_sysinfo)
		warn(a, "the dump has no SYSINFO record: the source system is unknown");
	if (!a->end) {
		/* The end entry marks a whole file: there always is one. */
		warn(a, "the dump has no END record: the end is unknown");
		a->end = calloc(1, sizeof(*a->end));
		if (!a->end) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		flightrec__end__init(a->end);
		a->end->kind = FLIGHTREC_END_UNSPEC;
	}
	return 0;
}

/* The images before the execs (oldest first), then a's. */
static int write_images(struct fr_asm *a, struct flrc_writer *w)
{
	int ret = a->before_exec ? write_images(a->before_exec, w) : 0;

	return ret ? ret : write_file(a, w);
}

static void add_stats(struct fr_asm_stats *to, const struct fr_asm_stats *st)
{
	uint64_t *t = (uint64_t *)to;
	const uint64_t *s = (const uint64_t *)st;
	size_t i;

	for (i = 0; i < sizeof(*st) / sizeof(uint64_t); i++)
		t[i] += s[i];
}

int fr_asm_finish(struct fr_asm *a, const char *name, char *path,
		  size_t pathlen, struct fr_asm_stats *stats, char *err,
		  size_t errlen)
{
	struct flrc_writer *w;
	struct fr_asm *b;
	char def[64];
	int ret;

	progress(a, true);
	for (b = a; b; b = b->before_exec) {
		ret = settle(b, err, errlen);
		if (ret) {
			if (b != a) {	/* that image is left out, said so */
				warn(a, "the image before exec (dump %u) is left out: %s",
				     a->prev_dump, err);
				fr_asm_set_before_exec(a, NULL);
				ret = 0;
				break;
			}
			goto out;
		}
	}
	if (!name) {
		if (a->o.dump_id)
			snprintf(def, sizeof(def), "%u-%u.flrc", a->proc.pid,
				 a->o.dump_id);
		else
			snprintf(def, sizeof(def), "%u.flrc", a->proc.pid);
		name = def;
	}
	ret = flrc_writer_begin(&w, a->dir, name, err, errlen);
	if (ret)
		goto out;
	ret = write_images(a, w);
	if (ret) {
		for (b = a; b; b = b->before_exec)
			if (b->err[0])
				snprintf(err, errlen, "%s", b->err);
		flrc_writer_abort(w);
		goto out;
	}
	for (b = a->before_exec; b; b = b->before_exec)
		add_stats(&a->st, &b->st);
	a->st.file_bytes = flrc_writer_offset(w);
	ret = flrc_writer_finish(w, path, pathlen, err, errlen);
out:
	if (stats)
		*stats = a->st;
	fr_asm_abort(a);
	return ret;
}
