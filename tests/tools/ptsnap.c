// SPDX-License-Identifier: GPL-2.0
/*
 * ptsnap: a test fixture that writes real flightrec checkpoints with ptrace,
 * so replay can be tested without the kernel module.
 *
 *   ptsnap -o FILE [--skip N | --marker] [--every M --intervals K]
 *          [--dump-after N | --dump-in-user MS] [--quiet] [--tamper-nr I:NR]
 *          [--tamper-hash I]
 *          [--tamper-signal SIG] [--hold-exit[=N]]
 *          -- PROGRAM [ARGS...]
 *
 * It runs PROGRAM under ptrace.  The vDSO is hidden from it (AT_SYSINFO_EHDR
 * becomes AT_IGNORE) so that time calls are system calls, as the module
 * makes them.  At the snapshot point (the return of the N-th system call, or
 * of the marker `syscall(SYS_getpid, PTSNAP_MARKER)`) it takes the start
 * state of interval 0: the memory map, every page that holds data (file
 * pages within the file, anonymous pages present or swapped), registers,
 * fs/gs base and XSAVE state.  With --every M it starts a new interval every
 * M system calls (single-threaded programs) and keeps the last K.  Then it
 * records every system call of every thread: arguments at entry, return
 * value and out-buffers at exit (as the syscall table describes them), the
 * in-data hash, until the process exits (End EXIT), faults (End FAULT with
 * the siginfo and registers), or --dump-after N syscalls were recorded (End
 * DUMP: the thread stopped at the entry of the next syscall).  With
 * --dump-in-user MS the dump comes MS milliseconds after the snapshot, in
 * user code (End DUMP with the registers there): the program is stopped
 * (SIGSTOP), and stopped again later where that caught it at a syscall's
 * return; the program is to be in a loop that makes no syscall by then.
 * Sequence numbers: replay runs the user code of each thread up to a syscall
 * in the order of the sequence numbers.  A futex call gets its number at
 * entry (the thread decided to wait or wake then), and so do clone, fork,
 * exit (a child's first syscalls come after the clone), any other call at exit
 * (so writes to a shared file are numbered in the order their bytes landed).
 *
 * Signals and rdtsc, as the module records them (uapi/flightrec.h): a signal
 * that goes to a handler of the program becomes a FLIGHTREC_NR_SIGNAL
 * record at its signal-delivery-stop (the siginfo; the registers when it
 * interrupted user code), classified from the stops before it: a fault
 * (SYNC), at the return of the syscall the thread just made (or of the
 * handler setup of the signal before), or inside user code (IN_USER).  A
 * syscall that a signal interrupted (-ERESTART*) is recorded with -EINTR
 * when the kernel turns it into EINTR (EINTR), and not at all when it
 * restarts (RESTART: its next attempt is recorded).  The program runs with
 * PR_SET_TSC/PR_TSC_SIGSEGV; each rdtsc/rdtscp traps, ptsnap executes it and
 * writes the result into the registers, and records a FLIGHTREC_NR_RDTSC.
 * Signal dispositions are followed (rt_sigaction) and written per interval.
 *
 * --hold-exit[=N] keeps a thread (not the leader; with N, only the N-th to
 * exit after the snapshot) at its exit event (PTRACE_EVENT_EXIT, before the
 * kernel clears its clear_child_tid word) until another thread enters a
 * futex call or exit_group (not at all while one is in such a call): a
 * pthread_join that checks the thread's tid word while the thread is in
 * its exit, as happens when the join races the exit, made to happen every
 * time.
 *
 * --tamper-nr/--tamper-hash damage the I-th record (from 0) of the written
 * log, for divergence tests, --tamper-signal SIG makes the first signal
 * record (and its siginfo) say signal SIG; --add-cpu-feature LEAF:REG:BIT records a CPUID
 * feature this CPU lacks, for the CPU check.
 *
 * The checkpoint is written with the library's writer (user/lib/checkpoint.h).
 */
#include <cpuid.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <x86intrin.h>
#include <zstd.h>
#include "checkpoint.h"
#include "syscalls.h"
#include "flightrec.h"
#include "flightrec_inhash.h"

#define PTSNAP_MARKER	0x464c5243ul	/* "FLRC": syscall(SYS_getpid, PTSNAP_MARKER) */
#define MAX_THREADS	64
#define MAX_INTERVALS	64
#define PG		4096ul

#ifndef NT_X86_XSTATE
#define NT_X86_XSTATE	0x202
#endif

static bool quiet;

#define die(...) do { fprintf(stderr, "ptsnap: " __VA_ARGS__); fputc('\n', stderr); \
		      exit(1); } while (0)

/* ------------------------------------------------------------------ */
/* Tracee memory */

static int memfd = -1;

static int rd(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	return pread(memfd, buf, len, (off_t)addr) == (ssize_t)len ? 0 : -1;
}

static void *rd_alloc(uint64_t addr, size_t len)
{
	void *p = malloc(len ? len : 1);

	if (!p || (len && rd(NULL, addr, p, len))) {
		free(p);
		return NULL;
	}
	return p;
}

/* ------------------------------------------------------------------ */
/* Snapshots: maps, pages, threads */

struct page {
	uint64_t addr;
	uint8_t *data;		/* NULL: zero */
	size_t order;		/* insertion order: the first copy of an address wins */
};

struct tstate {
	pid_t tid;
	bool in_sc;		/* between syscall entry and exit */
	bool fresh;		/* attached by clone, initial SIGSTOP pending */
	uint64_t args[6];
	long nr;
	uint32_t ptrlen_before[6];
	uint64_t in_hash;
	bool has_hash;
	bool hash_sa;		/* in_hash is by FR_IN_RULE_SOCKADDR: in_hash_sa */
	uint64_t time_ns;	/* at its entry */
	Flightrec__Syscall *noret;	/* recorded at entry: a NORETURN call */
	uint64_t seq;		/* given at entry */
	uint64_t clear_child_tid;
	uint64_t sa_new[4];	/* rt_sigaction's new action, read at entry */
	bool sa_read;
	/* what the last stop said, to place a signal */
	bool exit_stop;		/* the last stop was a syscall exit ... */
	uint64_t exit_rip, exit_orig_rax;	/* ... with these registers */
	bool restart_pending;	/* ... that returned -ERESTART*: not recorded yet */
	long restart_ret;
	bool after_signal;	/* the last stop delivered a signal to a handler at ... */
	uint64_t handler_rip;
	bool held;		/* --hold-exit: kept at its exit event */
};

struct interval {
	uint32_t index;
	uint32_t flags;		/* FLIGHTREC_IF_* */
	uint64_t sa[65][4];	/* dispositions at the start: handler, flags, restorer, mask */
	Flightrec__Map **maps;
	size_t n_maps;
	Flightrec__Thread **threads;
	size_t n_threads;
	struct page *pages;
	size_t n_pages;
	uint64_t start_ns;
};

static struct interval ivs[MAX_INTERVALS];
static size_t n_ivs;
static uint32_t next_index;
static struct tstate threads[MAX_THREADS];
static size_t n_threads;
static pid_t pid;
static uint64_t exec_auxv[128];	/* what the program found on its stack */
static size_t n_exec_auxv;
static uint64_t sa_now[65][4];	/* the program's dispositions, followed */

static struct tstate *thread_of(pid_t tid, bool create)
{
	size_t i;

	for (i = 0; i < n_threads; i++)
		if (threads[i].tid == tid)
			return &threads[i];
	if (!create)
		return NULL;
	if (n_threads == MAX_THREADS)
		die("more than %d threads", MAX_THREADS);
	memset(&threads[n_threads], 0, sizeof(threads[0]));
	threads[n_threads].tid = tid;
	return &threads[n_threads++];
}

/* Another thread is in a futex call or exit_group: --hold-exit lets t go on. */
static bool waiting_other(const struct tstate *t)
{
	size_t i;

	for (i = 0; i < n_threads; i++)
		if (&threads[i] != t && threads[i].in_sc &&
		    (threads[i].nr == SYS_futex || threads[i].nr == SYS_exit_group))
			return true;
	return false;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool read_build_id(const char *path, uint8_t *out, size_t *len)
{
	int fd = open(path, O_RDONLY);
	Elf64_Ehdr eh;
	size_t i;
	bool ok = false;

	*len = 0;
	if (fd < 0)
		return false;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64)
		goto out;
	for (i = 0; i < eh.e_phnum && !ok; i++) {
		Elf64_Phdr ph;
		uint8_t notes[4096];
		size_t p, n;

		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) != sizeof(ph) ||
		    ph.p_type != PT_NOTE)
			continue;
		n = ph.p_filesz < sizeof(notes) ? ph.p_filesz : sizeof(notes);
		if (pread(fd, notes, n, ph.p_offset) != (ssize_t)n)
			continue;
		for (p = 0; p + 12 <= n;) {
			Elf64_Nhdr *nh = (Elf64_Nhdr *)(notes + p);
			size_t desc = p + 12 + ((nh->n_namesz + 3) & ~3u);

			if (desc + nh->n_descsz > n)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    nh->n_descsz <= 64) {
				memcpy(out, notes + desc, nh->n_descsz);
				*len = nh->n_descsz;
				ok = true;
				break;
			}
			p = desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
out:
	close(fd);
	return ok;
}

static bool all_zero(const uint8_t *p)
{
	size_t i;

	for (i = 0; i < PG; i += 8)
		if (*(const uint64_t *)(p + i))
			return false;
	return true;
}

static void add_page(struct interval *iv, uint64_t addr, const uint8_t *data)
{
	struct page *p;

	if (!(iv->n_pages & 1023)) {
		iv->pages = realloc(iv->pages, (iv->n_pages + 1024) * sizeof(*iv->pages));
		if (!iv->pages)
			die("out of memory");
	}
	p = &iv->pages[iv->n_pages];
	p->order = iv->n_pages++;
	p->addr = addr;
	p->data = NULL;
	if (data && !all_zero(data)) {
		p->data = malloc(PG);
		memcpy(p->data, data, PG);
	}
}

/* The pages of [start, end) that hold data. */
static void snap_pages(struct interval *iv, uint64_t start, uint64_t end, bool file,
		       uint64_t file_end, int pagemap)
{
	static uint8_t buf[PG * 256];
	uint64_t a;

	for (a = start; a < end;) {
		uint64_t n = (end - a) / PG, i;
		uint64_t pm[256];

		if (n > 256)
			n = 256;
		if (!file) {
			if (pread(pagemap, pm, n * 8, (off_t)(a / PG * 8)) != (ssize_t)(n * 8))
				memset(pm, 0xff, sizeof(pm));
		}
		if (pread(memfd, buf, n * PG, (off_t)a) != (ssize_t)(n * PG)) {
			/* some page is unreadable: page by page */
			for (i = 0; i < n; i++) {
				uint64_t pa = a + i * PG;

				if (file ? pa >= file_end : !(pm[i] >> 62 & 3))
					continue;
				if (pread(memfd, buf, PG, (off_t)pa) == (ssize_t)PG)
					add_page(iv, pa, buf);
			}
		} else {
			for (i = 0; i < n; i++) {
				uint64_t pa = a + i * PG;

				if (file ? pa >= file_end : !(pm[i] >> 62 & 3))
					continue;
				add_page(iv, pa, buf + i * PG);
			}
		}
		a += n * PG;
	}
}

static void snap_maps(struct interval *iv)
{
	char path[64], line[4096];
	FILE *f;
	int pagemap;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	snprintf(path, sizeof(path), "/proc/%d/pagemap", pid);
	pagemap = open(path, O_RDONLY);
	if (!f || pagemap < 0)
		die("cannot read the maps of %d: %s", pid, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off, inode;
		unsigned int maj, min;
		char perms[8], name[4096] = "";
		Flightrec__Map *m;
		int n;
		bool file;
		uint64_t file_end = 0;

		n = sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %4095[^\n]", &start, &end, perms,
			   &off, &maj, &min, &inode, name);
		if (n < 7)
			continue;
		{
			char *nm = name;

			while (*nm == ' ')
				nm++;
			memmove(name, nm, strlen(nm) + 1);
		}
		m = calloc(1, sizeof(*m));
		flightrec__map__init(m);
		m->interval = iv->index;
		m->start = start;
		m->end = end;
		m->prot = (perms[0] == 'r' ? 1 : 0) | (perms[1] == 'w' ? 2 : 0) |
			  (perms[2] == 'x' ? 4 : 0);
		m->flags = perms[3] == 's' ? 1 : 2;
		m->has_offset = 1;
		m->offset = off;
		m->has_inode = 1;
		m->inode = inode;
		m->has_dev = 1;
		m->dev = (maj << 20) | min;
		file = inode && name[0] == '/';
		if (!file)
			m->flags |= FLIGHTREC_MAPF_ANON;
		if (!strcmp(name, "[stack]"))
			m->flags |= FLIGHTREC_MAPF_STACK;
		if (!strcmp(name, "[heap]"))
			m->flags |= FLIGHTREC_MAPF_HEAP;
		if (!strcmp(name, "[vdso]"))
			m->flags |= FLIGHTREC_MAPF_VDSO;
		if (!strncmp(name, "[vvar", 5))
			m->flags |= FLIGHTREC_MAPF_VVAR | FLIGHTREC_MAPF_PFNMAP;
		if (name[0]) {
			m->path = strdup(name);
			if (file) {
				uint8_t bid[64];
				size_t blen;
				struct stat st;

				if (read_build_id(name, bid, &blen)) {
					m->has_build_id = 1;
					m->build_id.data = malloc(blen);
					memcpy(m->build_id.data, bid, blen);
					m->build_id.len = blen;
				}
				if (!stat(name, &st)) {
					uint64_t fe = (st.st_size + PG - 1) & ~(PG - 1);

					file_end = fe > off ? start + (fe - off) : start;
				}
			}
		}
		iv->maps = realloc(iv->maps, (iv->n_maps + 1) * sizeof(*iv->maps));
		iv->maps[iv->n_maps++] = m;
		if (start >= 0x800000000000ull || (m->flags & FLIGHTREC_MAPF_VVAR))
			continue;
		snap_pages(iv, start, end, file, file_end, pagemap);
	}
	fclose(f);
	close(pagemap);
}

static Flightrec__Regs *regs_msg(const struct user_regs_struct *r)
{
	Flightrec__Regs *m = calloc(1, sizeof(*m));

	flightrec__regs__init(m);
	m->r15 = r->r15; m->r14 = r->r14; m->r13 = r->r13; m->r12 = r->r12;
	m->rbp = r->rbp; m->rbx = r->rbx; m->r11 = r->r11; m->r10 = r->r10;
	m->r9 = r->r9; m->r8 = r->r8; m->rax = r->rax; m->rcx = r->rcx;
	m->rdx = r->rdx; m->rsi = r->rsi; m->rdi = r->rdi; m->orig_rax = r->orig_rax;
	m->rip = r->rip; m->cs = r->cs; m->eflags = r->eflags; m->rsp = r->rsp;
	m->ss = r->ss; m->fs_base = r->fs_base; m->gs_base = r->gs_base;
	m->has_ds = m->has_es = m->has_fs = m->has_gs = 1;
	m->ds = r->ds; m->es = r->es; m->fs = r->fs; m->gs = r->gs;
	return m;
}

static ProtobufCBinaryData bin(const void *p, size_t n)
{
	ProtobufCBinaryData d = { n, malloc(n ? n : 1) };

	memcpy(d.data, p, n);
	return d;
}

/* The XSAVE area split per component (this machine's standard offsets). */
static Flightrec__Xsave *xsave_msg(pid_t tid)
{
	static uint8_t area[65536] __attribute__((aligned(64)));
	struct iovec iov = { area, sizeof(area) };
	Flightrec__Xsave *x;
	uint64_t bv, xf;
	size_t i;

	if (ptrace(PTRACE_GETREGSET, tid, NT_X86_XSTATE, &iov))
		return NULL;
	x = calloc(1, sizeof(*x));
	flightrec__xsave__init(x);
	x->has_fcw = x->has_fsw = x->has_ftw = x->has_fop = x->has_fip = x->has_fdp = 1;
	x->fcw = *(uint16_t *)(area + 0);
	x->fsw = *(uint16_t *)(area + 2);
	x->ftw = area[4];
	x->fop = *(uint16_t *)(area + 6);
	x->fip = *(uint64_t *)(area + 8);
	x->fdp = *(uint64_t *)(area + 16);
	x->has_mxcsr = x->has_mxcsr_mask = 1;
	x->mxcsr = *(uint32_t *)(area + 24);
	x->mxcsr_mask = *(uint32_t *)(area + 28);
	x->n_st = 8;
	x->st = calloc(8, sizeof(*x->st));
	for (i = 0; i < 8; i++)
		x->st[i] = bin(area + 32 + 16 * i, 16);
	x->n_xmm = 16;
	x->xmm = calloc(16, sizeof(*x->xmm));
	for (i = 0; i < 16; i++)
		x->xmm[i] = bin(area + 160 + 16 * i, 16);
	bv = *(uint64_t *)(area + 512);
	xf = *(uint64_t *)(area + 464 + 8);	/* sw_reserved.xfeatures */
	x->has_xstate_bv = x->has_xcomp_bv = x->has_size = 1;
	x->xstate_bv = bv;
	x->xcomp_bv = 0;
	x->size = (uint32_t)iov.iov_len;
	x->components = calloc(64, sizeof(*x->components));
	for (i = 2; i < 64; i++) {
		uint32_t a, b, c, d;
		Flightrec__XsaveComponent *xc;

		if (!(bv >> i & 1) || !(xf >> i & 1))
			continue;
		__cpuid_count(0xd, (uint32_t)i, a, b, c, d);
		if (!a || b + a > iov.iov_len)
			continue;
		xc = calloc(1, sizeof(*xc));
		flightrec__xsave_component__init(xc);
		xc->index = (uint32_t)i;
		xc->data = bin(area + b, a);
		x->components[x->n_components++] = xc;
	}
	return x;
}

static Flightrec__Thread *thread_msg(uint32_t index, pid_t tid)
{
	struct user_regs_struct r;
	Flightrec__Thread *t = calloc(1, sizeof(*t));

	if (ptrace(PTRACE_GETREGS, tid, 0, &r))
		die("PTRACE_GETREGS %d: %s", tid, strerror(errno));
	flightrec__thread__init(t);
	t->interval = index;
	t->tid = (uint32_t)tid;
	t->regs = regs_msg(&r);
	t->xsave = xsave_msg(tid);
	t->has_in_syscall = 1;
	t->in_syscall = -1;
	return t;
}

static void snapshot(pid_t tid, size_t keep)
{
	struct interval *iv;

	if (n_threads > 1)
		die("a snapshot needs a single-threaded tracee (it has %zu threads)", n_threads);
	if (n_ivs == keep) {
		/* drop the oldest interval: its pages and state */
		size_t i;

		for (i = 0; i < ivs[0].n_pages; i++)
			free(ivs[0].pages[i].data);
		free(ivs[0].pages);
		/* built with malloc: the default allocator frees them */
		for (i = 0; i < ivs[0].n_maps; i++)
			flightrec__map__free_unpacked(ivs[0].maps[i], NULL);
		free(ivs[0].maps);
		for (i = 0; i < ivs[0].n_threads; i++)
			flightrec__thread__free_unpacked(ivs[0].threads[i], NULL);
		free(ivs[0].threads);
		memmove(ivs, ivs + 1, (n_ivs - 1) * sizeof(ivs[0]));
		n_ivs--;
	}
	iv = &ivs[n_ivs++];
	memset(iv, 0, sizeof(*iv));
	iv->index = next_index++;
	iv->start_ns = now_ns();
	memcpy(iv->sa, sa_now, sizeof(iv->sa));
	snap_maps(iv);
	iv->threads = calloc(1, sizeof(*iv->threads));
	iv->threads[iv->n_threads++] = thread_msg(iv->index, tid);
}

/* ------------------------------------------------------------------ */
/* Syscall records */

static Flightrec__Syscall **scs;
static size_t n_scs, cap_scs;
static uint64_t seq;

static void add_out(Flightrec__Syscall *s, uint32_t arg, uint64_t addr, uint64_t len)
{
	Flightrec__OutBuf *o;
	void *data;

	if (!addr || !len)
		return;
	if (len > (64u << 20))
		len = 64u << 20;
	data = rd_alloc(addr, len);
	if (!data) {
		s->has_flags = 1;
		s->flags |= FLIGHTREC_SC_COPY_FAILED;
		return;
	}
	o = calloc(1, sizeof(*o));
	flightrec__out_buf__init(o);
	o->arg = arg;
	o->addr = addr;
	o->data.data = data;
	o->data.len = len;
	s->out = realloc(s->out, (s->n_out + 1) * sizeof(*s->out));
	s->out[s->n_out++] = o;
}

static void out_iov(Flightrec__Syscall *s, uint64_t iov, uint64_t cnt, uint64_t total)
{
	uint64_t i, v[2];

	for (i = 0; i < cnt && total; i++) {
		uint64_t n;

		if (rd(NULL, iov + 16 * i, v, sizeof(v)))
			return;
		n = v[1] < total ? v[1] : total;
		add_out(s, FLIGHTREC_OUT_ARG_DERIVED, v[0], n);
		total -= n;
	}
}

static void out_desc(Flightrec__Syscall *s, const struct fr_data_desc *d, const uint64_t *a,
		     long ret, const struct tstate *t)
{
	uint64_t addr = a[d->arg % 6], mul = d->p2 ? d->p2 : 1;

	switch (d->kind) {
	case FR_SZ_FIXED:
		add_out(s, d->arg, addr, d->p1);
		break;
	case FR_SZ_RET:
		if (ret > 0)
			add_out(s, d->arg, addr, (uint64_t)ret * mul);
		break;
	case FR_SZ_ARG:
		add_out(s, d->arg, addr, a[d->p1 % 6] * mul);
		break;
	case FR_SZ_ARG_RET:
		if (ret >= 0)
			add_out(s, d->arg, addr,
				((uint64_t)ret < a[d->p1 % 6] ? (uint64_t)ret : a[d->p1 % 6]) * mul);
		break;
	case FR_SZ_PTRLEN: {
		uint32_t after = 0, before = t->ptrlen_before[d->p1 % 6];

		if (a[d->p1 % 6] && !rd(NULL, a[d->p1 % 6], &after, 4))
			add_out(s, d->arg, addr, after < before ? after : before);
		break;
	}
	case FR_SZ_IOV:
		if (ret > 0)
			out_iov(s, addr, a[d->p1 % 6], (uint64_t)ret);
		break;
	case FR_SZ_MSGHDR: {
		uint64_t m[7];

		if (!addr || rd(NULL, addr, m, 56))
			break;
		add_out(s, d->arg, addr, 56);
		add_out(s, FLIGHTREC_OUT_ARG_DERIVED, m[0], (uint32_t)m[1]);
		if (ret > 0)
			out_iov(s, m[2], m[3], (uint64_t)ret);
		add_out(s, FLIGHTREC_OUT_ARG_DERIVED, m[4], m[5]);
		break;
	}
	case FR_SZ_MMSGHDR: {
		long i;

		for (i = 0; i < ret; i++) {
			uint64_t m[8];

			if (rd(NULL, addr + 64 * i, m, 64))
				break;
			add_out(s, FLIGHTREC_OUT_ARG_DERIVED, addr + 64 * i, 64);
			add_out(s, FLIGHTREC_OUT_ARG_DERIVED, m[0], (uint32_t)m[1]);
			out_iov(s, m[2], m[3], (uint32_t)m[7]);
			add_out(s, FLIGHTREC_OUT_ARG_DERIVED, m[4], m[5]);
		}
		break;
	}
	case FR_SZ_FDSET:
		add_out(s, d->arg, addr, (a[d->p1 % 6] + 7) / 8);
		break;
	case FR_SZ_MSGBUF:
		if (ret >= 0)
			add_out(s, d->arg, addr, 8 + (uint64_t)ret);
		break;
	case FR_SZ_IOV1: {
		uint64_t v[2];

		if (ret >= 0 && addr && !rd(NULL, addr, v, sizeof(v)))
			add_out(s, FLIGHTREC_OUT_ARG_DERIVED, v[0], v[1]);
		break;
	}
	default:
		break;
	}
}

static void record_outs(Flightrec__Syscall *s, const struct tstate *t, long ret)
{
	const struct fr_syscall *row = fr_syscall((unsigned int)s->nr);
	const struct fr_request *rq;
	int i;

	if (!row)
		return;
	if (ret < 0 && !(row->flags & FR_F_OUTERR))
		return;
	for (i = 0; i < 3; i++)
		out_desc(s, &row->out[i], s->args, ret, t);
	if (!(row->flags & FR_F_IRREGULAR))
		return;
	rq = fr_syscall_request((unsigned int)s->nr, s->args);
	if (rq) {
		for (i = 0; i < 2; i++)
			out_desc(s, &rq->out[i], s->args, ret, t);
	} else if (s->nr == SYS_ioctl && (_IOC_DIR(s->args[1]) & _IOC_READ)) {
		add_out(s, 2, s->args[2], _IOC_SIZE(s->args[1]));
	}
}

static int hash_rule = FR_IN_RULE_SOCKADDR;	/* --hash-rule */

static void hash_in(struct tstate *t)
{
	const struct fr_syscall *row = fr_syscall((unsigned int)t->nr);

	t->has_hash = false;
	if (!row || (row->in[0].kind == FR_SZ_NONE && row->in[1].kind == FR_SZ_NONE))
		return;
	/*
	 * the sockaddr rule (uapi/flightrec_inhash.h), the first with
	 * --hash-rule=bytes, the words rule (the module's general path) on
	 * every call with --hash-rule=words
	 */
	t->hash_sa = hash_rule == FR_IN_RULE_SOCKADDR && fr_in_has_sockaddr(row->in);
	t->in_hash = fr_in_hash_desc(row->in, t->args, hash_rule, rd, NULL);
	t->has_hash = true;
}

static void ptrlen_before(struct tstate *t)
{
	const struct fr_syscall *row = fr_syscall((unsigned int)t->nr);
	const struct fr_request *rq;
	int i;

	memset(t->ptrlen_before, 0, sizeof(t->ptrlen_before));
	if (!row)
		return;
	for (i = 0; i < 3; i++)
		if (row->out[i].kind == FR_SZ_PTRLEN && t->args[row->out[i].p1 % 6])
			rd(NULL, t->args[row->out[i].p1 % 6], &t->ptrlen_before[row->out[i].p1 % 6], 4);
	rq = (row->flags & FR_F_IRREGULAR) ? fr_syscall_request((unsigned int)t->nr, t->args) : NULL;
	for (i = 0; rq && i < 2; i++)
		if (rq->out[i].kind == FR_SZ_PTRLEN && t->args[rq->out[i].p1 % 6])
			rd(NULL, t->args[rq->out[i].p1 % 6], &t->ptrlen_before[rq->out[i].p1 % 6], 4);
}

static bool is_err_ret(long r)
{
	return (unsigned long)r >= (unsigned long)-4095;
}

/*
 * A file mapped inside an interval: its bytes become out-buffers of the
 * mmap record (as the seed's "pages linked with the syscall record"), so a
 * later MAP_FIXED over part of it gets its own bytes.  Zero pages are left
 * out (replay maps zeros).
 */
static void snap_mmap(Flightrec__Syscall *s, const struct tstate *t, uint64_t addr)
{
	static uint8_t buf[PG * 64];
	char path[64];
	struct stat st;
	uint64_t len = (t->args[1] + PG - 1) & ~(PG - 1), end, a;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, (int)t->args[4]);
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return;
	end = ((uint64_t)st.st_size + PG - 1) & ~(PG - 1);
	end = end > t->args[5] ? addr + (end - t->args[5]) : addr;
	if (end > addr + len)
		end = addr + len;
	for (a = addr; a < end;) {
		uint64_t n = (end - a) / PG < 64 ? (end - a) / PG : 64, i, run = 0;

		if (rd(NULL, a, buf, n * PG))
			break;
		for (i = 0; i <= n; i++) {
			if (i < n && !all_zero(buf + i * PG)) {
				run++;
				continue;
			}
			if (run) {
				uint64_t from = a + (i - run) * PG;

				add_out(s, FLIGHTREC_OUT_ARG_DERIVED, from, run * PG);
				run = 0;
			}
		}
		a += n * PG;
	}
}

static Flightrec__Syscall *new_record(struct tstate *t, long ret, bool noreturn)
{
	Flightrec__Syscall *s = calloc(1, sizeof(*s));
	int i;

	flightrec__syscall__init(s);
	s->interval = ivs[n_ivs - 1].index;
	s->seq = t->seq;
	s->tid = (uint32_t)t->tid;
	s->nr = (uint32_t)t->nr;
	s->n_args = 6;
	s->args = calloc(6, sizeof(uint64_t));
	for (i = 0; i < 6; i++)
		s->args[i] = t->args[i];
	s->ret = ret;
	if (noreturn) {
		s->has_flags = 1;
		s->flags |= FLIGHTREC_SC_NO_RETURN;
	}
	if (t->has_hash && hash_rule != FR_IN_RULE_BYTES &&
	    (fr_syscall((unsigned int)t->nr)->flags & FR_F_IN_RET) &&
	    (ret > FR_IN_HASH_MAX ||
	     (ret >= 0 && fr_syscall((unsigned int)t->nr)->in[0].kind == FR_SZ_MMSGHDR))) {
		/* more than 64 KiB taken, or messages: all of it, as the module hashes it */
		s->has_in_hash_full = 1;
		s->in_hash_full = fr_in_hash_rule(fr_syscall((unsigned int)t->nr)->in, t->args,
						  FR_IN_RULE_FULL, (uint64_t)ret, rd, NULL);
		s->has_flags = 1;
		s->flags |= FLIGHTREC_SC_IN_HASH_FULL;
	} else if (t->has_hash && hash_rule == FR_IN_RULE_WORDS) {
		s->has_in_hash_w = 1;
		s->in_hash_w = t->in_hash;
		s->has_flags = 1;
		s->flags |= FLIGHTREC_SC_IN_HASH_W;
	} else if (t->has_hash && t->hash_sa) {
		s->has_in_hash_sa = 1;
		s->in_hash_sa = t->in_hash;
		s->has_flags = 1;
		s->flags |= FLIGHTREC_SC_IN_HASH_SA;
	} else if (t->has_hash) {
		s->has_in_hash = 1;
		s->in_hash = t->in_hash;
	}
	if (t->time_ns) {
		s->has_time_ns = 1;
		s->time_ns = t->time_ns;
	}
	if (n_scs == cap_scs) {
		cap_scs = cap_scs ? 2 * cap_scs : 4096;
		scs = realloc(scs, cap_scs * sizeof(*scs));
	}
	scs[n_scs++] = s;
	return s;
}

/* An out-buffer with the given bytes (a pseudo-record's, at address 0). */
static void add_out_data(Flightrec__Syscall *s, uint32_t arg, const void *data, size_t len)
{
	Flightrec__OutBuf *o = calloc(1, sizeof(*o));

	flightrec__out_buf__init(o);
	o->arg = arg;
	o->addr = 0;
	o->data = bin(data, len);
	s->out = realloc(s->out, (s->n_out + 1) * sizeof(*s->out));
	s->out[s->n_out++] = o;
}

/* A record that is not a syscall (uapi/flightrec.h), numbered now. */
static Flightrec__Syscall *new_pseudo(pid_t tid, uint32_t nr, const uint64_t a[6], long ret)
{
	Flightrec__Syscall *s = calloc(1, sizeof(*s));

	flightrec__syscall__init(s);
	s->interval = ivs[n_ivs - 1].index;
	s->seq = ++seq;
	s->tid = (uint32_t)tid;
	s->nr = nr;
	s->n_args = 6;
	s->args = calloc(6, sizeof(uint64_t));
	memcpy(s->args, a, 6 * sizeof(uint64_t));
	s->ret = ret;
	/* as the module stamps them: when the record is made */
	s->has_time_ns = 1;
	s->time_ns = now_ns();
	if (n_scs == cap_scs) {
		cap_scs = cap_scs ? 2 * cap_scs : 4096;
		scs = realloc(scs, cap_scs * sizeof(*scs));
	}
	scs[n_scs++] = s;
	return s;
}

#define SA_RESTART_	0x10000000ul
#define SA_RESETHAND_	0x80000000ul

static bool is_restart_err(long r)
{
	return r == -512 || r == -513 || r == -514 || r == -516;
}

/*
 * A syscall that returned -ERESTART*, now that the thread's next event is
 * known.  handled: a signal goes to a handler (sa_flags its flags); the
 * kernel then turns the error into -EINTR or restarts the call.  Without a
 * handler the call restarts.  Returns FLIGHTREC_SIG_EINTR or _RESTART.
 */
static uint32_t settle_restart(struct tstate *t, bool handled, uint64_t sa_flags)
{
	long r = t->restart_ret;
	uint32_t how;

	if (!t->restart_pending)
		return 0;
	t->restart_pending = false;
	if (!handled || r == -513 || (r == -512 && (sa_flags & SA_RESTART_)))
		how = FLIGHTREC_SIG_RESTART;
	else
		how = FLIGHTREC_SIG_EINTR;
	if (how == FLIGHTREC_SIG_EINTR) {
		Flightrec__Syscall *s;

		if (!t->seq)
			t->seq = ++seq;
		s = new_record(t, -EINTR, false);
		record_outs(s, t, -EINTR);
	}
	return how;
}

/*
 * A signal-delivery-stop of a signal the program handles: its record.
 * Where it came from is told by the stop before: a fault of the
 * instruction at rip (SYNC), the exit of the syscall the thread just made
 * (rip and orig_rax as at that exit; with -ERESTART*, EINTR or RESTART),
 * the setup of the handler of the signal delivered just before (rip at
 * that handler), or else user code (IN_USER, with its registers).
 */
static void record_signal(struct tstate *t, int sig, const siginfo_t *si,
			  const struct user_regs_struct *r)
{
	uint64_t a[6] = { (uint64_t)sig, (uint64_t)(int64_t)si->si_code, r->orig_rax, r->rax,
			  r->rip, 0 };
	bool fault = (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
		      sig == SIGTRAP) && si->si_code > 0;
	Flightrec__Syscall *s;
	uint8_t info[128];

	if (fault) {
		a[5] = FLIGHTREC_SIG_SYNC;
	} else if (t->exit_stop && r->rip == t->exit_rip && r->orig_rax == t->exit_orig_rax) {
		a[5] = settle_restart(t, true, sa_now[sig][1]);
	} else if (t->after_signal && r->rip == t->handler_rip) {
		/* at the entry of the handler just set up */
	} else {
		a[5] = FLIGHTREC_SIG_IN_USER;
		a[2] = (uint64_t)-1;
		ivs[n_ivs - 1].flags |= FLIGHTREC_IF_ASYNC_SIGNAL;
	}
	s = new_pseudo(t->tid, FLIGHTREC_NR_SIGNAL, a, 0);
	memset(info, 0, sizeof(info));
	memcpy(info, si, sizeof(*si) < sizeof(info) ? sizeof(*si) : sizeof(info));
	add_out_data(s, 0, info, sizeof(info));
	if (a[5] & FLIGHTREC_SIG_IN_USER)
		add_out_data(s, 1, r, sizeof(*r));
}

/*
 * rdtsc/rdtscp trapped (PR_TSC_SIGSEGV: SIGSEGV, SI_KERNEL, at the
 * instruction): executed here, the result written into the thread's
 * registers.  Returns whether it was one (then the SIGSEGV is dropped).
 */
static bool emulate_rdtsc(pid_t tid, const siginfo_t *si, bool snapped)
{
	struct user_regs_struct r;
	uint8_t code[3];
	uint64_t v, a[6] = { 0 };
	unsigned int aux = 0, len;

	if (si->si_code != SI_KERNEL || ptrace(PTRACE_GETREGS, tid, 0, &r) ||
	    rd(NULL, r.rip, code, 3))
		return false;
	if (code[0] == 0x0f && code[1] == 0x31)
		len = 2;
	else if (code[0] == 0x0f && code[1] == 0x01 && code[2] == 0xf9)
		len = 3;
	else
		return false;
	v = len == 3 ? __rdtscp(&aux) : __rdtsc();
	if (snapped) {
		a[0] = len == 3 ? aux : 0;
		a[1] = len;
		a[4] = r.rip;
		new_pseudo(tid, FLIGHTREC_NR_RDTSC, a, (long)v);
	}
	r.rax = v & 0xffffffffu;
	r.rdx = v >> 32;
	if (len == 3)
		r.rcx = aux;
	r.rip += len;
	if (ptrace(PTRACE_SETREGS, tid, 0, &r))
		die("SETREGS after rdtsc: %s", strerror(errno));
	return true;
}

/* ------------------------------------------------------------------ */
/* Writing */

static Flightrec__End *end_msg;
static long tamper_idx = -1, tamper_nr = -1, tamper_hash_idx = -1, tamper_sig = -1;
static unsigned int add_leaf, add_bit;
static char add_reg;
static int exit_status = -1;

static void add(struct flrc_writer *w, Flightrec__Entry *e)
{
	if (flrc_writer_add(w, e))
		die("writing: %s", flrc_writer_error(w));
}

static void cpuid_leaf(Flightrec__SystemInfo *si, uint32_t leaf, uint32_t sub)
{
	Flightrec__CpuidLeaf *l, **v;
	uint32_t a, b, c, d;

	if (leaf > __get_cpuid_max(leaf & 0x80000000u, NULL))
		return;
	l = calloc(1, sizeof(*l));
	if (!l)
		die("out of memory");
	__cpuid_count(leaf, sub, a, b, c, d);
	flightrec__cpuid_leaf__init(l);
	l->leaf = leaf;
	l->subleaf = sub;
	l->eax = a; l->ebx = b; l->ecx = c; l->edx = d;
	v = realloc(si->cpuid, (si->n_cpuid + 1) * sizeof(*si->cpuid));
	if (!v)
		die("out of memory");
	si->cpuid = v;
	si->cpuid[si->n_cpuid++] = l;
}

/* Every leaf from first to min(last, the CPU's max), subleaves where they exist. */
static void cpuid_all(Flightrec__SystemInfo *si, uint32_t first, uint32_t last)
{
	uint32_t max = __get_cpuid_max(first, NULL), leaf, sub;

	for (leaf = first; leaf <= max && leaf <= last; leaf++) {
		uint32_t nsub = leaf == 0xd ? 64 : (leaf == 4 || leaf == 7 || leaf == 0xb ||
			leaf == 0xf || leaf == 0x10 || leaf == 0x12 || leaf == 0x14 ||
			leaf == 0x17 || leaf == 0x18 || leaf == 0x1d || leaf == 0x1e ||
			leaf == 0x1f || leaf == 0x20 || leaf == 0x8000001d) ? 16 : 1;

		for (sub = 0; sub < nsub; sub++) {
			uint32_t a, b, c, d;

			__cpuid_count(leaf, sub, a, b, c, d);
			if (sub && !a && !b && !c && !d)
				continue;
			cpuid_leaf(si, leaf, sub);
		}
	}
}

/* The page at addr among the first n of iv's (sorted by address), or NULL. */
static const struct page *find_page_n(const struct interval *iv, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (iv->pages[mid].addr < addr)
			lo = mid + 1;
		else if (iv->pages[mid].addr > addr)
			hi = mid;
		else
			return &iv->pages[mid];
	}
	return NULL;
}

/* An earlier interval's copy of a page equal to the next one's is dropped. */
static const struct page *find_page(const struct interval *iv, uint64_t addr)
{
	return find_page_n(iv, iv->n_pages, addr);
}

static bool same_page(const struct page *a, const struct page *b)
{
	if (!a->data || !b->data)
		return !a->data && !b->data;
	return !memcmp(a->data, b->data, PG);
}

static int cmp_page(const void *a, const void *b)
{
	const struct page *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void sort_pages(struct interval *iv)
{
	size_t i, j;

	qsort(iv->pages, iv->n_pages, sizeof(*iv->pages), cmp_page);
	for (i = j = 0; i < iv->n_pages; i++) {
		if (j && iv->pages[j - 1].addr == iv->pages[i].addr) {
			free(iv->pages[i].data);
			continue;
		}
		iv->pages[j++] = iv->pages[i];
	}
	iv->n_pages = j;
}

static int cmp_seq(const void *a, const void *b)
{
	const Flightrec__Syscall *x = *(Flightrec__Syscall * const *)a;
	const Flightrec__Syscall *y = *(Flightrec__Syscall * const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void write_file(const char *path, char **argv)
{
	Flightrec__Entry e;
	Flightrec__Header h = FLIGHTREC__HEADER__INIT;
	Flightrec__SystemInfo si = FLIGHTREC__SYSTEM_INFO__INIT;
	Flightrec__ProcessInfo pi = FLIGHTREC__PROCESS_INFO__INIT;
	Flightrec__IntervalInfo **ii;
	struct flrc_writer *w;
	struct utsname u;
	char dir[PATH_MAX], err[512], comm[64] = "", fpath[64];
	const char *name;
	char *slash;
	size_t i, j, k;
	uint32_t lo, hi;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = 0;
		name = slash + 1;
	} else {
		strcpy(dir, ".");
		name = path;
	}
	unlink(path);
	for (i = 0; i < n_ivs; i++)
		sort_pages(&ivs[i]);
	/*
	 * Interval i - 1's snapshot holds every page that had data then.  A page
	 * of interval i's snapshot missing from it was zero or not mapped at the
	 * start of i - 1 (anonymous memory touched later, a mapping made during
	 * i - 1): replaying from i - 1 must see it zero (a file's bytes come from
	 * the mmap record's out-buffers), not as interval i found it.
	 */
	for (i = n_ivs - 1; i > 0; i--) {
		struct interval *prev = &ivs[i - 1];
		size_t n0 = prev->n_pages;

		for (j = 0; j < ivs[i].n_pages; j++) {
			uint64_t a = ivs[i].pages[j].addr;

			if (find_page_n(prev, n0, a))
				continue;
			add_page(prev, a, NULL);
		}
		if (prev->n_pages != n0)
			sort_pages(prev);
	}
	if (flrc_writer_begin(&w, dir, name, err, sizeof(err)))
		die("%s: %s", path, err);

	uname(&u);
	si.sysname = u.sysname;
	si.nodename = u.nodename;
	si.release = u.release;
	si.version = u.version;
	si.machine = u.machine;
	si.has_page_size = 1;
	si.page_size = PG;
	cpuid_all(&si, 0, 0x24);
	cpuid_all(&si, 0x80000000, 0x80000028);
	for (i = 0; add_reg && i < si.n_cpuid; i++) {
		Flightrec__CpuidLeaf *l = si.cpuid[i];
		uint32_t *r = add_reg == 'a' ? &l->eax : add_reg == 'b' ? &l->ebx :
			      add_reg == 'c' ? &l->ecx : &l->edx;

		if (l->leaf == add_leaf && l->subleaf == 0)
			*r |= 1u << add_bit;
	}
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	si.has_xcr0 = 1;
	si.xcr0 = ((uint64_t)hi << 32) | lo;
	pi.pid = (uint32_t)pid;
	snprintf(fpath, sizeof(fpath), "/proc/%d/comm", pid);
	f = fopen(fpath, "r");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
	if (!comm[0]) {
		const char *b = strrchr(argv[0], '/');

		snprintf(comm, sizeof(comm), "%.15s", b ? b + 1 : argv[0]);
	}
	pi.comm = comm;
	/* the auxiliary vector the program saw (the core file's NT_AUXV) */
	pi.auxv = exec_auxv;
	pi.n_auxv = n_exec_auxv;
	snprintf(fpath, sizeof(fpath), "/proc/%d/stat", pid);
	f = fopen(fpath, "r");
	if (f) {
		char st[4096], *p;
		unsigned long long v = 0;
		int field = 2;

		if (fgets(st, sizeof(st), f) && (p = strrchr(st, ')'))) {
			/* fields after the comm: (3) state ... (47) start_brk (proc(5)) */
			for (p++; *p && field < 47; p++)
				if (*p == ' ')
					field++;
			if (sscanf(p, "%llu", &v) == 1 && v) {
				pi.has_brk_start = 1;
				pi.brk_start = v;
			}
		}
		fclose(f);
	}
	pi.exe = argv[0];
	for (pi.n_argv = 0; argv[pi.n_argv]; pi.n_argv++)
		;
	pi.argv = argv;
	h.format_version = FLRC_FORMAT_VERSION;
	h.tool_version = "ptsnap";
	h.has_created_unix_ns = 1;
	h.created_unix_ns = (uint64_t)time(NULL) * 1000000000ull;
	h.system = &si;
	h.process = &pi;
	ii = calloc(n_ivs, sizeof(*ii));
	for (i = 0; i < n_ivs; i++) {
		ii[i] = calloc(1, sizeof(**ii));
		flightrec__interval_info__init(ii[i]);
		ii[i]->index = ivs[i].index;
		ii[i]->has_start_ns = ii[i]->has_end_ns = 1;
		ii[i]->start_ns = ivs[i].start_ns;
		ii[i]->end_ns = i + 1 < n_ivs ? ivs[i + 1].start_ns : now_ns();
		ii[i]->has_nr_syscalls = 1;
		for (k = 0; k < n_scs; k++)
			ii[i]->nr_syscalls += scs[k]->interval == ivs[i].index;
		if (ivs[i].flags) {
			ii[i]->has_flags = 1;
			ii[i]->flags = ivs[i].flags;
			h.has_flags = 1;
			h.flags |= ivs[i].flags;
		}
	}
	h.n_intervals = n_ivs;
	h.intervals = ii;
	flightrec__entry__init(&e);
	e.e_case = FLIGHTREC__ENTRY__E_HEADER;
	e.header = &h;
	add(w, &e);
	for (i = 0; i < n_ivs; i++)
		for (j = 0; j < ivs[i].n_maps; j++) {
			e.e_case = FLIGHTREC__ENTRY__E_MAP;
			e.map = ivs[i].maps[j];
			add(w, &e);
		}
	for (i = 0; i < n_ivs; i++)
		for (j = 0; j < ivs[i].n_threads; j++) {
			e.e_case = FLIGHTREC__ENTRY__E_THREAD;
			e.thread = ivs[i].threads[j];
			add(w, &e);
		}
	for (i = 0; i < n_ivs; i++)
		for (j = 1; j <= 64; j++) {
			Flightrec__SigAction sa = FLIGHTREC__SIG_ACTION__INIT;

			if (!ivs[i].sa[j][0] && !ivs[i].sa[j][1])
				continue;	/* SIG_DFL without flags */
			sa.interval = ivs[i].index;
			sa.signo = (uint32_t)j;
			sa.handler = ivs[i].sa[j][0];
			sa.flags = ivs[i].sa[j][1];
			sa.restorer = ivs[i].sa[j][2];
			sa.mask = ivs[i].sa[j][3];
			e.e_case = FLIGHTREC__ENTRY__E_SIGACTION;
			e.sigaction = &sa;
			add(w, &e);
		}
	for (i = 0; i < n_ivs; i++) {
		for (j = 0; j < ivs[i].n_pages; j++) {
			const struct page *p = &ivs[i].pages[j], *nx;
			Flightrec__Page pg = FLIGHTREC__PAGE__INIT;
			uint8_t z[PG + 512];
			size_t zn;

			if (i + 1 < n_ivs && (nx = find_page(&ivs[i + 1], p->addr)) && same_page(p, nx))
				continue;
			pg.addr = p->addr;
			pg.interval = ivs[i].index;
			if (!p->data) {
				pg.kind = FLIGHTREC__PAGE_KIND__PAGE_ZERO;
			} else {
				zn = ZSTD_compress(z, sizeof(z), p->data, PG, 1);
				if (ZSTD_isError(zn))
					die("zstd: %s", ZSTD_getErrorName(zn));
				pg.kind = FLIGHTREC__PAGE_KIND__PAGE_DATA;
				pg.has_zdata = 1;
				pg.zdata.data = z;
				pg.zdata.len = zn;
			}
			e.e_case = FLIGHTREC__ENTRY__E_PAGE;
			e.page = &pg;
			add(w, &e);
		}
	}
	qsort(scs, n_scs, sizeof(*scs), cmp_seq);
	/* test hooks: damage the log to provoke a divergence */
	if (tamper_idx >= 0 && (size_t)tamper_idx < n_scs)
		scs[tamper_idx]->nr = (uint32_t)tamper_nr;
	for (i = 0; tamper_sig > 0 && i < n_scs; i++) {
		if (scs[i]->nr != FLIGHTREC_NR_SIGNAL)
			continue;
		scs[i]->args[0] = (uint64_t)tamper_sig;
		if (scs[i]->n_out && scs[i]->out[0]->data.len >= 4)
			memcpy(scs[i]->out[0]->data.data, &(int){ (int)tamper_sig }, 4);
		break;
	}
	if (tamper_hash_idx >= 0 && (size_t)tamper_hash_idx < n_scs) {
		if (scs[tamper_hash_idx]->has_in_hash_full) {
			scs[tamper_hash_idx]->in_hash_full ^= 1;
		} else if (scs[tamper_hash_idx]->has_in_hash_w) {
			scs[tamper_hash_idx]->in_hash_w ^= 1;
		} else if (scs[tamper_hash_idx]->has_in_hash_sa) {
			scs[tamper_hash_idx]->in_hash_sa ^= 1;
		} else {
			scs[tamper_hash_idx]->has_in_hash = 1;
			scs[tamper_hash_idx]->in_hash ^= 1;
		}
	}
	for (i = 0; i < n_scs; i++) {
		if (scs[i]->interval < ivs[0].index)
			continue;	/* of an interval the ring dropped */
		e.e_case = FLIGHTREC__ENTRY__E_SYSCALL;
		e.syscall = scs[i];
		add(w, &e);
	}
	if (end_msg) {
		e.e_case = FLIGHTREC__ENTRY__E_END;
		e.end = end_msg;
		add(w, &e);
	}
	if (flrc_writer_finish(w, NULL, 0, err, sizeof(err)))
		die("%s: %s", path, err);
	for (i = 0; i < si.n_cpuid; i++)
		free(si.cpuid[i]);
	free(si.cpuid);
	for (i = 0; i < n_ivs; i++)
		free(ii[i]);
	free(ii);
}

/* ------------------------------------------------------------------ */
/* Tracing */

static void hide_vdso(pid_t tid)
{
	struct user_regs_struct r;
	uint64_t sp, v, argc;

	if (ptrace(PTRACE_GETREGS, tid, 0, &r))
		die("GETREGS at exec: %s", strerror(errno));
	sp = r.rsp;
	if (rd(NULL, sp, &argc, 8))
		die("cannot read the new stack");
	sp += 8 * (argc + 2);		/* argc, argv[], NULL */
	do {				/* envp[], NULL */
		if (rd(NULL, sp, &v, 8))
			die("cannot read envp");
		sp += 8;
	} while (v);
	for (;; sp += 16) {		/* auxv */
		uint64_t kv[2];

		if (rd(NULL, sp, kv, 16))
			die("cannot read auxv");
		if (kv[0] == AT_NULL)
			break;
		if (kv[0] == AT_SYSINFO_EHDR) {
			kv[0] = AT_IGNORE;
			if (pwrite(memfd, kv, 8, (off_t)sp) != 8)
				die("cannot hide the vDSO: %s", strerror(errno));
		}
		if (n_exec_auxv + 2 <= sizeof(exec_auxv) / sizeof(exec_auxv[0])) {
			exec_auxv[n_exec_auxv++] = kv[0];
			exec_auxv[n_exec_auxv++] = kv[1];
		}
	}
}

/* Whether the thread's process has a handler for sig (SigCgt in its status). */
static bool caught(pid_t tid, int sig)
{
	char path[64], line[256];
	unsigned long long mask = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SigCgt: %llx", &mask) == 1)
			break;
	fclose(f);
	return mask >> (sig - 1) & 1;
}

/* End DUMP: thread tid with registers r; the program is killed */
static void dump_end(pid_t pid, pid_t tid, const struct user_regs_struct *r)
{
	end_msg = calloc(1, sizeof(*end_msg));
	flightrec__end__init(end_msg);
	end_msg->kind = FLIGHTREC_END_DUMP;
	end_msg->has_tid = 1;
	end_msg->tid = (uint32_t)tid;
	end_msg->regs = regs_msg(r);
	end_msg->has_last_seq = 1;
	end_msg->last_seq = seq;
	kill(pid, SIGKILL);
}

/* --dump-in-user: the program, stopped when the timer expires */
static volatile pid_t dump_user_pid;

static void on_dump_timer(int sig)
{
	(void)sig;
	kill(dump_user_pid, SIGSTOP);
}

static void arm_dump_timer(long ms)
{
	struct itimerval it = { { 0, 0 }, { ms / 1000, ms % 1000 * 1000 } };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_dump_timer;
	sa.sa_flags = SA_RESTART;	/* our reads of its memory go on */
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

static void usage(void)
{
	fprintf(stderr, "usage: ptsnap -o FILE [--skip N | --marker] [--every M --intervals K] "
		"[--dump-after N | --dump-in-user MS] [--quiet] [--tamper-nr I:NR] [--tamper-hash I] "
		"[--tamper-signal SIG] "
		"[--hash-rule bytes|sockaddr|words] [--hold-exit[=N]] -- PROGRAM [ARGS...]\n");
	exit(64);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "skip", required_argument, NULL, 's' },
		{ "marker", no_argument, NULL, 'm' },
		{ "every", required_argument, NULL, 'e' },
		{ "intervals", required_argument, NULL, 'k' },
		{ "dump-after", required_argument, NULL, 'd' },
		{ "dump-in-user", required_argument, NULL, 'U' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "tamper-nr", required_argument, NULL, 'T' },
		{ "tamper-hash", required_argument, NULL, 'H' },
		{ "tamper-signal", required_argument, NULL, 'S' },
		{ "add-cpu-feature", required_argument, NULL, 'C' },
		{ "hash-rule", required_argument, NULL, 'R' },
		{ "hold-exit", optional_argument, NULL, 'X' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	long skip = -1, every = 0, keep = 1, dump_after = -1, dump_user = -1, n_sc = 0, n_rec = 0;
	bool marker = false, snapped = false, exec_seen = false, hold_exit = false;
	size_t n_held = 0;
	long hold_which = 0, n_exits = 0;
	char mpath[64];
	int ch, status;

	while ((ch = getopt_long(argc, argv, "+o:s:me:k:d:q", lo, NULL)) != -1) {
		switch (ch) {
		case 'o': out = optarg; break;
		case 's': skip = atol(optarg); break;
		case 'm': marker = true; break;
		case 'e': every = atol(optarg); break;
		case 'k': keep = atol(optarg); break;
		case 'd': dump_after = atol(optarg); break;
		case 'U': dump_user = atol(optarg); break;
		case 'q': quiet = true; break;
		case 'X':	/* [=N]  every exiting thread, or the N-th (from 1) */
			hold_exit = true;
			hold_which = optarg ? atol(optarg) : 0;
			if (optarg && hold_which < 1)
				usage();
			break;
		case 'T':	/* INDEX:NR  the INDEX-th record (from 0) gets number NR */
			if (sscanf(optarg, "%ld:%ld", &tamper_idx, &tamper_nr) != 2)
				usage();
			break;
		case 'H':	/* INDEX  the INDEX-th record's in_hash is flipped */
			tamper_hash_idx = atol(optarg);
			break;
		case 'R':	/* bytes|sockaddr|words  the in_hash rule (default sockaddr) */
			if (!strcmp(optarg, "bytes"))
				hash_rule = FR_IN_RULE_BYTES;
			else if (!strcmp(optarg, "words"))
				hash_rule = FR_IN_RULE_WORDS;
			else if (!strcmp(optarg, "sockaddr"))
				hash_rule = FR_IN_RULE_SOCKADDR;
			else
				usage();
			break;
		case 'S':	/* SIG  the first signal record says SIG */
			tamper_sig = atol(optarg);
			break;
		case 'C':	/* LEAF:REG:BIT  pretend the CPU had this feature */
			if (sscanf(optarg, "%i:%c:%u", (int *)&add_leaf, &add_reg, &add_bit) != 3)
				usage();
			break;
		default: usage();
		}
	}
	if (!out || optind >= argc || (skip < 0 && !marker) || keep < 1 || keep > MAX_INTERVALS)
		usage();
	argv += optind;

	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(126);
		/* rdtsc/rdtscp fault, in the program too: ptsnap answers and records them */
		if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0))
			_exit(125);
		raise(SIGSTOP);
		execvp(argv[0], argv);
		fprintf(stderr, "ptsnap: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		die("the child did not stop");
	if (ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC |
		   PTRACE_O_EXITKILL | PTRACE_O_TRACECLONE |
		   (hold_exit ? PTRACE_O_TRACEEXIT : 0)))
		die("PTRACE_SETOPTIONS: %s", strerror(errno));
	snprintf(mpath, sizeof(mpath), "/proc/%d/mem", pid);
	memfd = open(mpath, O_RDWR);
	if (memfd < 0)
		die("%s: %s", mpath, strerror(errno));
	thread_of(pid, true);
	ptrace(PTRACE_SYSCALL, pid, 0, 0);

	for (;;) {
		pid_t tid = waitpid(-1, &status, __WALL);
		struct tstate *t;
		siginfo_t sinfo;
		bool release = false;
		int sig = 0;

		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		t = thread_of(tid, true);
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (tid == pid) {
				exit_status = status;
				break;
			}
			continue;
		}
		if (!WIFSTOPPED(status))
			continue;
		sig = WSTOPSIG(status);
		if (sig == (SIGTRAP | 0x80)) {
			struct user_regs_struct r;

			sig = 0;
			if (ptrace(PTRACE_GETREGS, tid, 0, &r))
				die("GETREGS: %s", strerror(errno));
			if (!t->in_sc) {
				/* entry */
				t->in_sc = true;
				/* a call that -ERESTART* left pending is made again */
				settle_restart(t, false, 0);
				t->exit_stop = t->after_signal = false;
				t->nr = (long)r.orig_rax;
				t->args[0] = r.rdi; t->args[1] = r.rsi; t->args[2] = r.rdx;
				t->args[3] = r.r10; t->args[4] = r.r8; t->args[5] = r.r9;
				release = n_held && (t->nr == SYS_futex || t->nr == SYS_exit_group);
				t->sa_read = t->nr == SYS_rt_sigaction && t->args[1] &&
					     t->args[0] >= 1 && t->args[0] <= 64 &&
					     !rd(NULL, t->args[1], t->sa_new, sizeof(t->sa_new));
				if (snapped) {
					const struct fr_syscall *row = fr_syscall((unsigned int)t->nr);

					if (dump_after >= 0 && n_rec >= dump_after) {
						/* the dump point: this thread, at this entry */
						dump_end(pid, tid, &r);
						goto done;
					}
					t->seq = t->nr == SYS_futex || (row && (row->flags & FR_F_PROCESS)) ?
						 ++seq : 0;
					hash_in(t);
					t->time_ns = now_ns();
					ptrlen_before(t);
					t->noret = NULL;
					if (row && (row->flags & FR_F_NORETURN)) {
						t->noret = new_record(t, 0, true);
						n_rec++;
					}
				}
			} else {
				/* exit */
				t->in_sc = false;
				n_sc++;
				t->exit_stop = true;
				t->exit_rip = r.rip;
				t->exit_orig_rax = r.orig_rax;
				if (t->sa_read && (long)r.rax == 0)
					memcpy(sa_now[t->args[0]], t->sa_new, sizeof(t->sa_new));
				t->sa_read = false;
				if (snapped && !t->noret && is_restart_err((long)r.rax)) {
					/* interrupted: -EINTR or made again, as the next stop tells */
					t->restart_pending = true;
					t->restart_ret = (long)r.rax;
				} else if (snapped && t->noret) {
					/* a NORETURN call that returned (a failed execve) */
					t->noret->ret = (long)r.rax;
					t->noret->flags &= ~FLIGHTREC_SC_NO_RETURN;
					t->noret = NULL;
				} else if (snapped) {
					Flightrec__Syscall *s;

					if (!t->seq)
						t->seq = ++seq;
					s = new_record(t, (long)r.rax, false);

					record_outs(s, t, (long)r.rax);
					if (t->nr == SYS_mmap && !is_err_ret((long)r.rax) &&
					    !(t->args[3] & MAP_ANONYMOUS))
						snap_mmap(s, t, (uint64_t)r.rax);
					n_rec++;
					if (every > 0 && n_rec % every == 0 && n_threads == 1)
						snapshot(tid, (size_t)keep);
				} else if (exec_seen && ((marker && t->nr == SYS_getpid &&
							 t->args[0] == PTSNAP_MARKER) ||
							(!marker && n_sc >= skip))) {
					snapshot(tid, (size_t)keep);
					snapped = true;
					if (dump_user > 0) {
						dump_user_pid = pid;
						arm_dump_timer(dump_user);
					}
					if (!quiet)
						fprintf(stderr, "ptsnap: snapshot of %d after %ld syscalls\n",
							pid, n_sc);
				}
			}
		} else if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXEC << 8))) {
			sig = 0;
			exec_seen = true;
			n_sc = 0;
			for (ch = 1; ch <= 64; ch++)	/* exec: handled signals become SIG_DFL */
				if (sa_now[ch][0] > 1)
					memset(sa_now[ch], 0, sizeof(sa_now[ch]));
			close(memfd);	/* the new program has a new mm */
			memfd = open(mpath, O_RDWR);
			if (memfd < 0)
				die("%s: %s", mpath, strerror(errno));
			hide_vdso(tid);
		} else if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXIT << 8))) {
			if (snapped && tid != pid && !t->held && !waiting_other(t) &&
			    (!hold_which || ++n_exits == hold_which)) {
				t->held = true;		/* --hold-exit */
				n_held++;
				continue;
			}
			sig = 0;
		} else if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_CLONE << 8))) {
			unsigned long child;

			sig = 0;
			ptrace(PTRACE_GETEVENTMSG, tid, 0, &child);
			thread_of((pid_t)child, true)->fresh = true;
		} else if (sig == SIGSTOP && t->fresh) {
			t->fresh = false;
			sig = 0;
		} else if (sig == SIGSTOP && snapped && dump_user > 0) {
			struct user_regs_struct r;

			sig = 0;
			if (ptrace(PTRACE_GETREGS, tid, 0, &r))
				die("GETREGS at the dump: %s", strerror(errno));
			if (t->in_sc || r.rip == t->exit_rip) {
				/* at a syscall's return, not in user code: later */
				arm_dump_timer(1);
			} else {
				/* the dump point: this thread, in its user code */
				signal(SIGALRM, SIG_IGN);
				dump_end(pid, tid, &r);
				goto done;
			}
		} else if (sig == SIGSEGV && !ptrace(PTRACE_GETSIGINFO, tid, 0, &sinfo) &&
			   emulate_rdtsc(tid, &sinfo, snapped)) {
			sig = 0;
		} else if (snapped && sig >= 1 && sig <= 64 && sa_now[sig][0] > 1 &&
			   !ptrace(PTRACE_GETSIGINFO, tid, 0, &sinfo)) {
			/* to a handler of the program */
			struct user_regs_struct r;

			if (ptrace(PTRACE_GETREGS, tid, 0, &r))
				die("GETREGS at a signal: %s", strerror(errno));
			record_signal(t, sig, &sinfo, &r);
			t->exit_stop = false;
			t->after_signal = true;
			t->handler_rip = sa_now[sig][0];
			if (sa_now[sig][1] & SA_RESETHAND_)
				sa_now[sig][0] = 0;
		} else if (snapped && (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE ||
				       sig == SIGILL || sig == SIGABRT) && !caught(tid, sig)) {
			siginfo_t si;
			struct user_regs_struct r;

			ptrace(PTRACE_GETSIGINFO, tid, 0, &si);
			ptrace(PTRACE_GETREGS, tid, 0, &r);
			end_msg = calloc(1, sizeof(*end_msg));
			flightrec__end__init(end_msg);
			end_msg->kind = FLIGHTREC_END_FAULT;
			end_msg->has_tid = end_msg->has_signo = end_msg->has_si_code = 1;
			end_msg->tid = (uint32_t)tid;
			end_msg->signo = (uint32_t)sig;
			end_msg->si_code = si.si_code;
			end_msg->has_fault_addr = 1;
			end_msg->fault_addr = (uint64_t)si.si_addr;
			if (si.si_code <= 0)
				end_msg->fault_addr = 0;
			end_msg->regs = regs_msg(&r);
			end_msg->xsave = xsave_msg(tid);
			end_msg->has_last_seq = 1;
			end_msg->last_seq = seq;
		} else if (snapped && !quiet && sig != SIGCHLD) {
			fprintf(stderr, "ptsnap: warning: signal %d delivered to %d (not replayed)\n",
				sig, tid);
		}
		ptrace(PTRACE_SYSCALL, tid, 0, sig);
		for (size_t i = 0; release && i < n_threads; i++)
			if (threads[i].held) {
				threads[i].held = false;
				n_held--;
				ptrace(PTRACE_CONT, threads[i].tid, 0, 0);
			}
	}
done:
	if (!snapped)
		die("the program ended before the snapshot point");
	if (!end_msg) {
		end_msg = calloc(1, sizeof(*end_msg));
		flightrec__end__init(end_msg);
		end_msg->kind = FLIGHTREC_END_EXIT;
		end_msg->has_tid = 1;
		end_msg->tid = (uint32_t)pid;
		end_msg->has_exit_code = 1;
		end_msg->exit_code = (uint32_t)exit_status;
		end_msg->has_last_seq = 1;
		end_msg->last_seq = seq;
	}
	write_file(out, argv);
	if (!quiet)
		fprintf(stderr, "ptsnap: wrote %s: %zu interval(s), %zu syscalls, end %u\n", out,
			n_ivs, n_scs, end_msg->kind);
	/* exit as the program did, so tests can compare */
	if (exit_status >= 0 && WIFEXITED(exit_status))
		return WEXITSTATUS(exit_status);
	if (exit_status >= 0 && WIFSIGNALED(exit_status))
		return 128 + WTERMSIG(exit_status);
	return 0;
}
