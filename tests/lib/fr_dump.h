/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fr_dump.h - collects the records of a frozen dump into plain arrays, for
 * tests that check what the module recorded byte for byte.
 *
 * Needs libflightrec (fr_client_*) and libnl.  Include after fr_test.h.
 */
#ifndef FR_DUMP_H
#define FR_DUMP_H

#include <stdint.h>
#include <netlink/attr.h>
#include <sys/user.h>
#include <elf.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include "libflightrec.h"
#include "flightrec.h"

struct frd_out {
	uint32_t arg;
	uint64_t addr;
	uint32_t len;
	uint8_t *data;
};

struct frd_sc {
	uint32_t interval, tid, nr, flags;
	uint64_t seq, args[6];
	int64_t ret;
	uint64_t in_hash;	/* with FLIGHTREC_SC_IN_HASH, _IN_HASH_SA, _FULL or _W */
	uint64_t time_ns;	/* CLOCK_MONOTONIC at its entry (0: none) */
	uint32_t nouts;
	struct frd_out *outs;
};

struct frd_page {
	uint32_t interval, flags;
	uint64_t addr;
	uint8_t *data;		/* 4096 bytes, NULL for a zero page */
};

struct frd_thread {
	uint32_t interval, tid;
	int32_t in_syscall;
	struct user_regs_struct regs;
	uint32_t xsave_len;
	uint8_t *xsave;		/* xsave_len bytes, or NULL */
};

struct frd_interval {
	uint32_t index, flags;
	uint64_t nr_syscalls, lost;
};

struct frd_map {
	uint32_t interval, prot, flags;
	uint64_t start, end;
	char path[256];
	uint8_t build_id[64];
	uint32_t build_id_len;	/* 0: none */
};

struct frd {
	struct frd_sc *sc;
	size_t nsc, capsc;
	struct frd_page *pg;
	size_t npg, cappg;
	struct frd_thread th[256];
	size_t nth;
	struct frd_interval iv[128];
	size_t niv;
	struct frd_map *maps;
	size_t nmaps, capmaps;
	uint32_t pid, ppid;
	char comm[16];
	int have_end;
	uint32_t end_kind, end_tid, end_signo;
	int32_t end_code;
	uint64_t end_addr;
	struct user_regs_struct end_regs;
	int have_sysinfo;
	size_t ncpuid;
};

static inline void *frd_grow(void *p, size_t *cap, size_t n, size_t sz)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 64;
	p = realloc(p, *cap * sz);
	if (!p)
		abort();
	return p;
}

static inline uint8_t *frd_dup(const struct nlattr *a, uint32_t *len)
{
	uint8_t *p = malloc(nla_len(a) ? nla_len(a) : 1);

	if (!p)
		abort();
	memcpy(p, nla_data(a), nla_len(a));
	if (len)
		*len = nla_len(a);
	return p;
}

static inline uint64_t frd_u64(struct nlattr **tb, int a)
{
	return tb[a] ? nla_get_u64(tb[a]) : 0;
}

static inline uint32_t frd_u32(struct nlattr **tb, int a)
{
	return tb[a] ? nla_get_u32(tb[a]) : 0;
}

static inline int frd_cb(struct nlattr **tb, const struct nlattr *attrs,
			 int attrlen, void *arg)
{
	struct frd *d = arg;
	const struct nlattr *a;
	int rem;

	switch (frd_u32(tb, FLIGHTREC_A_REC_TYPE)) {
	case FLIGHTREC_REC_SYSINFO:
		d->have_sysinfo = 1;
		if (tb[FLIGHTREC_A_CPUID])
			d->ncpuid = nla_len(tb[FLIGHTREC_A_CPUID]) /
				    sizeof(struct flightrec_cpuid_leaf);
		break;
	case FLIGHTREC_REC_PROCESS:
		d->pid = frd_u32(tb, FLIGHTREC_A_PID);
		d->ppid = frd_u32(tb, FLIGHTREC_A_PPID);
		if (tb[FLIGHTREC_A_COMM])
			snprintf(d->comm, sizeof(d->comm), "%s",
				 nla_get_string(tb[FLIGHTREC_A_COMM]));
		break;
	case FLIGHTREC_REC_INTERVAL:
		if (d->niv < 128) {
			struct frd_interval *iv = &d->iv[d->niv++];

			iv->index = frd_u32(tb, FLIGHTREC_A_INTERVAL);
			iv->flags = frd_u32(tb, FLIGHTREC_A_INTERVAL_FLAGS);
			iv->nr_syscalls = frd_u64(tb, FLIGHTREC_A_NR_SYSCALLS);
			iv->lost = frd_u64(tb, FLIGHTREC_A_LOST);
		}
		break;
	case FLIGHTREC_REC_MAP: {
		struct frd_map *m;

		d->maps = frd_grow(d->maps, &d->capmaps, d->nmaps, sizeof(*m));
		m = &d->maps[d->nmaps++];
		memset(m, 0, sizeof(*m));
		m->interval = frd_u32(tb, FLIGHTREC_A_INTERVAL);
		m->start = frd_u64(tb, FLIGHTREC_A_START);
		m->end = frd_u64(tb, FLIGHTREC_A_END);
		m->prot = frd_u32(tb, FLIGHTREC_A_PROT);
		m->flags = frd_u32(tb, FLIGHTREC_A_MAP_FLAGS);
		if (tb[FLIGHTREC_A_PATH])
			snprintf(m->path, sizeof(m->path), "%s",
				 nla_get_string(tb[FLIGHTREC_A_PATH]));
		if (tb[FLIGHTREC_A_BUILD_ID] &&
		    nla_len(tb[FLIGHTREC_A_BUILD_ID]) <= (int)sizeof(m->build_id)) {
			m->build_id_len = nla_len(tb[FLIGHTREC_A_BUILD_ID]);
			memcpy(m->build_id, nla_data(tb[FLIGHTREC_A_BUILD_ID]),
			       m->build_id_len);
		}
		break;
	}
	case FLIGHTREC_REC_THREAD:
		if (d->nth < 256) {
			struct frd_thread *t = &d->th[d->nth++];

			t->interval = frd_u32(tb, FLIGHTREC_A_INTERVAL);
			t->tid = frd_u32(tb, FLIGHTREC_A_TID);
			t->in_syscall = (int32_t)frd_u32(tb, FLIGHTREC_A_IN_SYSCALL);
			if (tb[FLIGHTREC_A_REGS] &&
			    nla_len(tb[FLIGHTREC_A_REGS]) == sizeof(t->regs))
				memcpy(&t->regs, nla_data(tb[FLIGHTREC_A_REGS]),
				       sizeof(t->regs));
			t->xsave_len = 0;
			t->xsave = tb[FLIGHTREC_A_XSAVE] ?
				   frd_dup(tb[FLIGHTREC_A_XSAVE], &t->xsave_len) : NULL;
		}
		break;
	case FLIGHTREC_REC_PAGE: {
		struct frd_page *p;

		d->pg = frd_grow(d->pg, &d->cappg, d->npg, sizeof(*p));
		p = &d->pg[d->npg++];
		p->interval = frd_u32(tb, FLIGHTREC_A_INTERVAL);
		p->addr = frd_u64(tb, FLIGHTREC_A_ADDR);
		p->flags = frd_u32(tb, FLIGHTREC_A_PAGE_FLAGS);
		p->data = tb[FLIGHTREC_A_DATA] ? frd_dup(tb[FLIGHTREC_A_DATA], NULL) : NULL;
		break;
	}
	case FLIGHTREC_REC_SYSCALL: {
		struct frd_sc *s;

		d->sc = frd_grow(d->sc, &d->capsc, d->nsc, sizeof(*s));
		s = &d->sc[d->nsc++];
		memset(s, 0, sizeof(*s));
		s->interval = frd_u32(tb, FLIGHTREC_A_INTERVAL);
		s->seq = frd_u64(tb, FLIGHTREC_A_SEQ);
		s->tid = frd_u32(tb, FLIGHTREC_A_TID);
		s->nr = frd_u32(tb, FLIGHTREC_A_NR);
		s->ret = (int64_t)frd_u64(tb, FLIGHTREC_A_RET);
		s->flags = frd_u32(tb, FLIGHTREC_A_SC_FLAGS);
		/* any rule's (FLIGHTREC_SC_IN_HASH, _SA, _FULL or _W says which) */
		s->in_hash = frd_u64(tb, (s->flags & FLIGHTREC_SC_IN_HASH_W) ?
					 FLIGHTREC_A_IN_HASH_W :
					 (s->flags & FLIGHTREC_SC_IN_HASH_FULL) ?
					 FLIGHTREC_A_IN_HASH_FULL :
					 (s->flags & FLIGHTREC_SC_IN_HASH_SA) ?
					 FLIGHTREC_A_IN_HASH_SA : FLIGHTREC_A_IN_HASH);
		s->time_ns = frd_u64(tb, FLIGHTREC_A_TIME_NS);
		if (tb[FLIGHTREC_A_ARGS] && nla_len(tb[FLIGHTREC_A_ARGS]) == 48)
			memcpy(s->args, nla_data(tb[FLIGHTREC_A_ARGS]), 48);
		nla_for_each_attr(a, attrs, attrlen, rem) {
			struct nlattr *ot[FLIGHTREC_OUT_MAX + 1];
			struct frd_out *o;

			if (nla_type(a) != FLIGHTREC_A_OUT)
				continue;
			if (nla_parse_nested(ot, FLIGHTREC_OUT_MAX, (struct nlattr *)a,
					     (struct nla_policy *)fr_nl_out_attr_policy()))
				return -EINVAL;
			s->outs = realloc(s->outs, (s->nouts + 1) * sizeof(*o));
			if (!s->outs)
				abort();
			o = &s->outs[s->nouts++];
			o->arg = ot[FLIGHTREC_OUT_ARG] ? nla_get_u32(ot[FLIGHTREC_OUT_ARG]) : 0;
			o->addr = ot[FLIGHTREC_OUT_ADDR] ? nla_get_u64(ot[FLIGHTREC_OUT_ADDR]) : 0;
			o->data = ot[FLIGHTREC_OUT_DATA] ?
				  frd_dup(ot[FLIGHTREC_OUT_DATA], &o->len) : NULL;
		}
		break;
	}
	case FLIGHTREC_REC_OUT_CHUNK: {
		/* a piece of an out-buffer of the last syscall record */
		struct nlattr *ot[FLIGHTREC_OUT_MAX + 1];
		struct frd_sc *s = d->nsc ? &d->sc[d->nsc - 1] : NULL;
		uint32_t idx, len, off;
		struct frd_out *o;

		if (!s || s->seq != frd_u64(tb, FLIGHTREC_A_SEQ) ||
		    !tb[FLIGHTREC_A_OUT] ||
		    nla_parse_nested(ot, FLIGHTREC_OUT_MAX, tb[FLIGHTREC_A_OUT],
				     (struct nla_policy *)fr_nl_out_attr_policy()) ||
		    !ot[FLIGHTREC_OUT_INDEX] || !ot[FLIGHTREC_OUT_LEN] ||
		    !ot[FLIGHTREC_OUT_OFFSET] || !ot[FLIGHTREC_OUT_DATA])
			return -EINVAL;
		idx = nla_get_u32(ot[FLIGHTREC_OUT_INDEX]);
		len = nla_get_u32(ot[FLIGHTREC_OUT_LEN]);
		off = nla_get_u32(ot[FLIGHTREC_OUT_OFFSET]);
		if (idx > s->nouts || (uint64_t)off + nla_len(ot[FLIGHTREC_OUT_DATA]) > len)
			return -EINVAL;
		if (idx == s->nouts) {
			s->outs = realloc(s->outs, (s->nouts + 1) * sizeof(*o));
			if (!s->outs)
				abort();
			o = &s->outs[s->nouts++];
			o->arg = nla_get_u32(ot[FLIGHTREC_OUT_ARG]);
			o->addr = nla_get_u64(ot[FLIGHTREC_OUT_ADDR]);
			o->len = len;
			o->data = calloc(1, len ? len : 1);
			if (!o->data)
				abort();
		}
		o = &s->outs[idx];
		memcpy(o->data + off, nla_data(ot[FLIGHTREC_OUT_DATA]),
		       nla_len(ot[FLIGHTREC_OUT_DATA]));
		break;
	}
	case FLIGHTREC_REC_END:
		d->have_end = 1;
		d->end_kind = frd_u32(tb, FLIGHTREC_A_END_KIND);
		d->end_tid = frd_u32(tb, FLIGHTREC_A_TID);
		d->end_signo = frd_u32(tb, FLIGHTREC_A_SIGNO);
		d->end_code = (int32_t)frd_u32(tb, FLIGHTREC_A_SI_CODE);
		d->end_addr = frd_u64(tb, FLIGHTREC_A_FAULT_ADDR);
		if (tb[FLIGHTREC_A_REGS] &&
		    nla_len(tb[FLIGHTREC_A_REGS]) == sizeof(d->end_regs))
			memcpy(&d->end_regs, nla_data(tb[FLIGHTREC_A_REGS]),
			       sizeof(d->end_regs));
		break;
	}
	return 0;
}

static inline void frd_free(struct frd *d)
{
	size_t i, j;

	for (i = 0; i < d->nsc; i++) {
		for (j = 0; j < d->sc[i].nouts; j++)
			free(d->sc[i].outs[j].data);
		free(d->sc[i].outs);
	}
	for (i = 0; i < d->npg; i++)
		free(d->pg[i].data);
	for (i = 0; i < d->nth; i++)
		free(d->th[i].xsave);
	free(d->sc);
	free(d->pg);
	free(d->maps);
	memset(d, 0, sizeof(*d));
}

static inline int frd_cmp_seq(const void *a, const void *b)
{
	const struct frd_sc *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Reads dump `id` into d (syscalls sorted by seq). 0 or -errno. */
static inline int frd_read(struct fr_client *c, uint32_t id, struct frd *d)
{
	char err[256] = "";
	int ret;

	memset(d, 0, sizeof(*d));
	ret = fr_client_get_dump_raw(c, id, frd_cb, d, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "get_dump %u: %s\n", id, err);
		return ret;
	}
	if (d->nsc)
		qsort(d->sc, d->nsc, sizeof(*d->sc), frd_cmp_seq);
	return 0;
}

/*
 * Waits for an event of `type` about `pid` (FLIGHTREC_EVENT_*) and returns
 * its dump id (>0), or -errno / -ETIMEDOUT.
 */
struct frd_find_dump {
	uint32_t pid, kind, id;
};

static inline int frd_find_dump_cb(const struct fr_dump_info *info, void *arg)
{
	struct frd_find_dump *f = arg;

	if (info->pid == f->pid && info->end_kind == f->kind && info->id > f->id)
		f->id = info->id;
	return 0;
}

/*
 * When events were lost (-ENOBUFS: a process with short intervals sends an
 * INTERVAL event at each boundary, and a test blocked in waitpid() does not
 * read them), the one awaited may be among them: the dump is then looked
 * for in the list of dumps, every 200 ms until the timeout.
 */
static inline int frd_wait_event(struct fr_client *c, uint32_t type,
				 uint32_t pid, int timeout_ms)
{
	uint32_t kind = type == FLIGHTREC_EVENT_EXIT ? FLIGHTREC_END_EXIT :
			type == FLIGHTREC_EVENT_FAULT ? FLIGHTREC_END_FAULT : 0;
	struct fr_event ev;
	int ret, lost = 0, left = timeout_ms;

	for (;;) {
		if (lost && kind) {
			struct frd_find_dump f = { pid, kind, 0 };

			if (!fr_client_list_dumps(c, frd_find_dump_cb, &f) && f.id)
				return (int)f.id;
		}
		if (lost && left <= 0)
			return -ETIMEDOUT;
		ret = fr_client_next_event(c, lost ? 200 : timeout_ms, &ev);
		if (lost)
			left -= 200;
		if (ret == 0 && !lost)
			return -ETIMEDOUT;
		if (ret == -ENOBUFS)
			lost = 1;
		else if (ret < 0)
			return ret;
		if (ret > 0 && ev.event == type && ev.pid == pid)
			return ev.dump_id ? (int)ev.dump_id : -ENOENT;
	}
}

/* The first syscall record with nr and args[0..1] == a0, a1; -1 if none. */
static inline long frd_find(const struct frd *d, size_t from, uint32_t nr,
			    uint64_t a0, uint64_t a1)
{
	size_t i;

	for (i = from; i < d->nsc; i++)
		if (d->sc[i].nr == nr && d->sc[i].args[0] == a0 &&
		    d->sc[i].args[1] == a1)
			return (long)i;
	return -1;
}

/* The out-buffer of record s for argument arg (FLIGHTREC_OUT_ARG_DERIVED...) */
static inline const struct frd_out *frd_out(const struct frd_sc *s,
					    uint32_t arg, size_t nth)
{
	uint32_t i;

	for (i = 0; i < s->nouts; i++)
		if (s->outs[i].arg == arg && nth-- == 0)
			return &s->outs[i];
	return NULL;
}

struct frd_rel {
	pid_t pid;
	int n;
	uint32_t ids[64];
};

static inline int frd_rel_cb(const struct fr_dump_info *i, void *arg)
{
	struct frd_rel *r = arg;

	if ((i->pid == (uint32_t)r->pid || i->ppid == (uint32_t)r->pid) && r->n < 64)
		r->ids[r->n++] = i->id;
	return 0;
}

/*
 * Releases every dump the module holds of pid and of its children (a
 * followed child's at-exit dump): how many, or -errno.  A test leaves
 * nothing held for the next (tests/run.sh checks).
 */
static inline int frd_release_dumps_of(struct fr_client *c, pid_t pid)
{
	struct frd_rel r = { .pid = pid };
	char err[256];
	int i, ret = fr_client_list_dumps(c, frd_rel_cb, &r);

	if (ret)
		return ret;
	for (i = 0; i < r.n; i++) {
		ret = fr_client_release_dump(c, r.ids[i], err, sizeof(err));
		if (ret)
			return ret;
	}
	return r.n;
}

/*
 * Runs argv registered (at_exit) to its end and reads the dump; releases
 * it and its children's.
 */
static inline int frd_run_recorded_opts(struct fr_client *c, char *const argv[],
					const struct fr_reg_opts *o, struct frd *d,
					pid_t *pidp, int *status)
{
	char err[256];
	int gate = -1, id, ret;
	pid_t pid;

	pid = fr_spawn_gated(argv, &gate);
	if (pid < 0)
		return pid;
	*pidp = pid;
	ret = fr_client_register_opts(c, pid, o, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "register: %s\n", err);
		fr_kill_wait(pid);
		return ret;
	}
	fr_gate_open(gate);
	ret = fr_wait_timeout(pid, status, 120000);
	if (ret) {
		/* not left running, recorded, under the next cases */
		fr_kill_wait(pid);
		return ret;
	}
	id = frd_wait_event(c, WIFSIGNALED(*status) ? FLIGHTREC_EVENT_FAULT :
			    FLIGHTREC_EVENT_EXIT, pid, 10000);
	if (id <= 0)
		return id ? id : -ENOENT;
	ret = frd_read(c, id, d);
	fr_client_release_dump(c, id, err, sizeof(err));
	frd_release_dumps_of(c, pid);
	return ret;
}

static inline int frd_run_recorded(struct fr_client *c, char *const argv[],
				   uint32_t interval_ms, uint32_t keep, struct frd *d,
				   pid_t *pidp, int *status)
{
	struct fr_reg_opts o = { interval_ms, keep, 1, -1, 1 };

	return frd_run_recorded_opts(c, argv, &o, d, pidp, status);
}

/* frd_run_recorded_opts with the program's stdout in @out (NUL-terminated). */
static inline int frd_run_capture(struct fr_client *c, const char *dir, char *const argv[],
				  const struct fr_reg_opts *o, struct frd *d, pid_t *pid,
				  int *status, char *out, size_t size)
{
	char path[512];
	int fd, saved, ret;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/stdout", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -errno;
	fflush(stdout);
	saved = dup(1);
	dup2(fd, 1);
	ret = frd_run_recorded_opts(c, argv, o, d, pid, status);
	dup2(saved, 1);
	close(saved);
	n = pread(fd, out, size - 1, 0);
	close(fd);
	out[n > 0 ? n : 0] = 0;
	return ret;
}

/* The value of symbol name in the ELF file path (its symtab), 0 if none. */
static inline uint64_t frd_sym_offset(const char *path, const char *name)
{
	static uint8_t img[1 << 20];
	Elf64_Ehdr *eh = (void *)img;
	Elf64_Shdr *sh;
	ssize_t n;
	int fd, i;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, img, sizeof(img));
	close(fd);
	if (n < (ssize_t)sizeof(*eh))
		return 0;
	sh = (void *)(img + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		Elf64_Sym *sym = (void *)(img + sh[i].sh_offset);
		const char *str = (const char *)img + sh[sh[i].sh_link].sh_offset;
		size_t j;

		if (sh[i].sh_type != SHT_SYMTAB)
			continue;
		for (j = 0; j < sh[i].sh_size / sizeof(*sym); j++)
			if (!strcmp(str + sym[j].st_name, name))
				return sym[j].st_value;
	}
	return 0;
}

/* the lowest map of `path` in the dump's first interval: the load base */
static inline uint64_t frd_load_base(const struct frd *d, const char *path)
{
	uint64_t base = 0;
	size_t i;

	for (i = 0; i < d->nmaps; i++)
		if (!strcmp(d->maps[i].path, path) &&
		    (!base || d->maps[i].start < base))
			base = d->maps[i].start;
	return base;
}

/* The count of intervals the cap dropped for a registered pid (list). */
static inline int frd_proc_dropped(struct fr_client *c, pid_t pid, uint64_t *dropped)
{
	struct ctx { pid_t pid; uint64_t *dropped; int found; } x = { pid, dropped, 0 };
	int cb(const struct fr_proc_info *info, void *arg)
	{
		struct ctx *x = arg;

		if (info->pid == (uint32_t)x->pid) {
			*x->dropped = info->dropped;
			x->found = 1;
		}
		return 0;
	}

	if (fr_client_list(c, cb, &x))
		return -1;
	return x.found ? 0 : -1;
}

/* A client subscribed to the module's events (fixture setups). */
static inline int frd_open(struct fr_client **c, char *err, size_t errlen)
{
	int ret = fr_client_open(c, err, errlen);

	if (!ret)
		ret = fr_client_subscribe(*c, err, errlen);
	return ret;
}

#endif /* FR_DUMP_H */
