// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec-loader: the replay loader.
 *
 * A static, freestanding program linked at FRI_LOADER_TEXT, in an address
 * range applications do not use (image.h).  `flightrec replay` decodes a
 * checkpoint into a replay image and execs us with it.  We
 *   1. map the image, move to our own stack and unmap what the kernel gave
 *      us outside our window (the initial stack, vDSO, vvar);
 *   2. map every recorded region at its address (anonymous memory filled
 *      with the recorded pages, long runs of them mapped from the image
 *      instead of copied, then given its recorded protection);
 *   3. install our handlers on a per-thread sigaltstack (frames never touch
 *      application memory), create the output files, install the sandbox
 *      (sandbox.c: no_new_privs and a seccomp filter that allows only what
 *      we do from here on), trap rdtsc, turn on Syscall User Dispatch for
 *      everything outside our text, and enter each application thread with
 *      rt_sigreturn from a frame holding its recorded registers and XSAVE
 *      state;
 *   4. answer every system call of the application from the log (SIGSYS),
 *      re-executing address-space and thread-area calls at the recorded
 *      addresses, writing output calls' data to files, creating threads for
 *      clone, and stopping with a report at the first divergence;
 *   5. at the end of the log, check that the recorded end happens again.
 *
 * Exit status: FR_EXIT_OK when the recorded end was reproduced,
 * FR_EXIT_DIVERGED, FR_EXIT_MISMATCH, FR_EXIT_BLOCKED when the sandbox
 * stopped a system call, FR_EXIT_BADFILE for a bad image and FR_EXIT_FAIL
 * when the loader could not set up (each with a message).
 */
#include <stddef.h>
#include <stdint.h>
#include <asm/unistd.h>
#include <asm/signal.h>
#include <asm/siginfo.h>
#include <asm/prctl.h>
#include <linux/mman.h>
#include <linux/errno.h>
#include <linux/auxvec.h>
#include <linux/fcntl.h>
#include <linux/futex.h>
#include <linux/prctl.h>
#include <linux/sched.h>
#include <linux/time.h>
#include "sys.h"
#include "image.h"
#include "sandbox.h"
#include "core.h"
#include "../../uapi/flightrec_inhash.h"
#include "../lib/libflightrec.h"
#include "../../uapi/flightrec.h"
#include "../../uapi/flightrec_syscalls.h"

#define PFX "flightrec replay: "
#define MAX_THREADS	256
#define SLOT_SIZE	0x100000UL		/* per thread: stack + altstack */
#define STACK_OFF	0x10000UL
#define STACK_SIZE	0x70000UL
#define ALT_OFF		0x90000UL
#define ALT_SIZE	0x70000UL
#define FP_AREA_MAX	0x4000			/* XSAVE area of an entry frame */
#define TURN_TIMEOUT_S	60
/* the loader's threads: the only clone the sandbox allows */
#define THREAD_CLONE_FLAGS	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
				 CLONE_THREAD | CLONE_SYSVSEM)

#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH	59
#define PR_SYS_DISPATCH_OFF		0
#define PR_SYS_DISPATCH_ON		1
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE	0x100000
#endif
#ifndef SYS_USER_DISPATCH
#define SYS_USER_DISPATCH	2
#endif
#ifndef SYS_SECCOMP
#define SYS_SECCOMP		1
#endif
#ifndef O_NOFOLLOW
#define O_NOFOLLOW		0400000
#endif
#ifndef F_GET_SEALS
#define F_GET_SEALS		1034
#define F_SEAL_SHRINK		0x0002
#define F_SEAL_GROW		0x0004
#define F_SEAL_WRITE		0x0008
#endif
/*
 * Runs of at least MAP_RUN_MIN pages, at consecutive addresses and
 * consecutive in the image, are mapped from it (map_runs()); at most
 * MAP_RUNS_MAX runs, each of which splits a region's mapping in up to three.
 */
#define MAP_RUN_MIN	8
#define MAP_RUNS_MAX	2048
#define FM_ON		0x80	/* g.fmap[i]: mapped from the image; low bits: its prot */

extern char __executable_start[], etext[];
void switch_stack(void *sp, void (*fn)(void *), void *arg) __attribute__((noreturn));
void fr_restorer(void);
void fr_enter_app(void *uc) __attribute__((noreturn));
long fr_clone_thread(unsigned long flags, void *stack, void (*fn)(void *), void *arg);
void loader_main(uint64_t *sp) __attribute__((noreturn, used));

/* Syscall names, from the one table. */
#define FR_NAME_ROW(nr, name, nargs, flags, types, i1, i2, o1, o2, o3) [nr] = #name,
static const char *const sc_names[FR_NR_SYSCALLS] = {
	FLIGHTREC_SYSCALL_TABLE(FR_NAME_ROW)
};
#define FR_IN_ROW(nr, name, nargs, flags, types, i1, i2, o1, o2, o3) [nr] = { i1, i2 },
static const struct fr_data_desc sc_in[FR_NR_SYSCALLS][2] = {
	FLIGHTREC_SYSCALL_TABLE(FR_IN_ROW)
};

static int read_self(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	memcpy(buf, (const void *)addr, len);
	return 0;
}

/* rule: FR_IN_RULE_*, the one the record's hash was made by; ret: its result */
static uint64_t fr_in_hash(uint32_t nr, const uint64_t *args, int rule, int64_t ret)
{
	if (nr >= FR_NR_SYSCALLS)
		return FR_FNV_OFFSET;
	return fr_in_hash_rule(sc_in[nr], args, rule, (uint64_t)ret, read_self, NULL);
}

static int nul_within(const uint8_t *p, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n && i < 4096; i++)
		if (!p[i])
			return 1;
	return 0;
}

/*
 * The x86_64 signal frame, as the kernel writes and rt_sigreturn reads it
 * (asm/sigcontext.h, asm/ucontext.h), with uint64_t fields.
 */
struct sigcontext {
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip, eflags;
	uint16_t cs, gs, fs, ss;
	uint64_t err, trapno, oldmask, cr2;
	void *fpstate;
	uint64_t reserved1[8];
};

struct ucontext {
	uint64_t uc_flags;
	struct ucontext *uc_link;
	stack_t uc_stack;
	struct sigcontext uc_mcontext;
	uint64_t uc_sigmask;
};

#define UC_FP_XSTATE		0x1
#define UC_SIGCONTEXT_SS	0x2
#define UC_STRICT_RESTORE_SS	0x4

/* In the FXSAVE area's software-available bytes 464..511. */
struct _fpx_sw_bytes {
	uint32_t magic1;
	uint32_t extended_size;
	uint64_t xfeatures;
	uint32_t xstate_size;
	uint32_t padding[7];
};
#define FP_XSTATE_MAGIC1	0x46505853U
#define FP_XSTATE_MAGIC2	0x46505845U
#define FP_XSTATE_MAGIC2_SIZE	4

/* The frame rt_sigreturn reads: the kernel's struct rt_sigframe. */
struct sigframe {
	uint64_t pretcode;
	struct ucontext uc;
	siginfo_t info;
};

struct lthread {
	uint32_t used;
	uint32_t tid;			/* recorded tid */
	uint64_t cur;			/* index of the next record, or FRI_NO_NEXT */
	uint64_t clear_child_tid;
	uint64_t rseq;			/* its registered rseq area (as recorded), or 0 */
	uint64_t nr_done;
	int at_end;			/* its log is exhausted */
	int parked;			/* in its unfinished call, or stopped after its log */
	int bp_step;			/* single-stepping over the breakpoint's instruction */
	uint64_t app_mask;		/* the application's signal mask (emulated) */
	uint64_t saved_mask;		/* with restore_mask: the mask to come back */
	int restore_mask;		/* a call's temporary mask is in app_mask */
	uint64_t app_ss_sp, app_ss_size;	/* its sigaltstack (emulated) */
	uint32_t app_ss_flags;
	uint64_t fs_base, gs_base;	/* as set for the application */
	int has_last;			/* last: its registers when it last entered the loader */
	struct fri_regs last;		/* (for the core file) */
	struct sigframe frame;		/* entry frame */
	uint8_t fp[FP_AREA_MAX] __attribute__((aligned(64)));
};

/* distinct rdtsc/rdtscp instructions a replay can patch (find_tsc_sites) */
#define MAX_TSC_SITES	1024

static struct {
	const struct fri_header *h;
	const uint8_t *base;
	const struct fri_region *regions;
	const struct fri_page *pages;
	const struct fri_thread *threads;
	const struct fri_syscall *sc;
	uint32_t flags;
	int outdir;
	int corefd;			/* -c: the core file at the end, or -1 */
	int gdbfd;			/* -G: the gdbserver's channel (fri_gdb_thread), or -1 */
	int force;			/* -F: replace existing fdN.out (never follow them) */
	int append;			/* -A: go on with existing fdN.out (the image after an exec) */
	int outfd[1024];
	uint64_t outoff[1024];		/* where the next byte of fdN.out goes */
	unsigned int n_outfds;
	struct fr_sandbox sb;
	uint64_t brk;
	uint64_t *init_sp;
	uint64_t vdso;
	uint8_t *filled;		/* per page: deferred page filled */
	uint8_t *fmap;			/* per page: FM_ON | prot, mapped from the image */
	uint64_t n_fmapped;		/* pages with fmap set */
	uint64_t n_runs;		/* runs mapped from the image */
	int imgfd;			/* the sealed image, for map_runs(); or -1 */
	/* what the kernel puts in a signal frame's fx_sw_bytes here */
	struct _fpx_sw_bytes sw;
	int have_xsave;
	uint64_t t_start, t_loaded;
	volatile uint32_t turn;		/* index of the next record to run */
	volatile uint32_t nthreads;
	uint32_t rdtsc_warned;
	uint32_t cpuid_warned;
	uint32_t n_tsc_sites;		/* recorded rdtsc sites patched to ud2, by rip */
	struct tsc_site {
		uint64_t rip;
		uint32_t len;		/* 2: rdtsc, 3: rdtscp */
	} tsc_sites[MAX_TSC_SITES];
	int cpuid_untrapped;
	/*
	 * XSAVE components at different offsets in the recording CPU's
	 * standard layout (its CPUID 0xd) and this one's: a recorded signal
	 * frame's FPU state is moved component by component (xsave_move()).
	 * xmask: the components both have; xconv: the recorded layout is
	 * known, so frames on the application's stack are in it.
	 */
	uint64_t xmask;
	int xconv;
	struct { uint32_t rec, here, size; } xoff[64];
	const struct fri_cpuid *cpuid;
	const uint64_t *cpuid_sites;	/* FRI_F_PATCH_CPUID: patched to ud2, ascending */
	struct {			/* the int3 that finds an IN_USER signal's instruction */
		struct fri_gdb_bp at;	/* where, and the byte (the gdbserver reads it) */
		uint64_t idx;		/* its signal record; FRI_NO_NEXT: the dump point */
		uint64_t hits;
		struct lthread *owner;
		int reprotect;		/* the page was made writable: read+exec at disarm */
	} bp;
	int dump_bp_done;		/* the dump point's search gave up (DUMP_PASSES_MAX) */
	int dump_stopped;		/* gdb was stopped at the dump point: going on ends it */
	struct app_sigaction {
		uint64_t handler, flags, restorer, mask;
	} sa[65];			/* the application's dispositions (emulated) */
} g;

static struct lthread threads[MAX_THREADS];

/* -------------------------------------------------------------------- */
/* Reporting */

static __attribute__((noreturn)) void die(int code, const char *f, ...)
	__attribute__((format(printf, 2, 3)));

static void die(int code, const char *f, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, f);
	vfmt(buf, sizeof(buf), f, ap);
	va_end(ap);
	fdprintf(2, PFX "%s\n", buf);
	sys_exit_group(code);
}

#define info(...) do { if (!(g.flags & FRI_F_QUIET)) fdprintf(2, PFX __VA_ARGS__); } while (0)

static const char *scname(uint32_t nr)
{
	if (nr < FR_NR_SYSCALLS && sc_names[nr])
		return sc_names[nr];
	if (nr == FLIGHTREC_NR_SIGNAL)
		return "signal";
	if (nr == FLIGHTREC_NR_RDTSC)
		return "rdtsc";
	if (nr == FLIGHTREC_NR_PREEMPT)
		return "preempt";
	if (nr == FLIGHTREC_NR_PTRACE)
		return "ptrace changes";
	return "syscall";
}

static const char *signame(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	case SIGABRT: return "SIGABRT";
	case SIGTRAP: return "SIGTRAP";
	case SIGSYS: return "SIGSYS";
	case SIGKILL: return "SIGKILL";
	case SIGTERM: return "SIGTERM";
	case SIGUSR1: return "SIGUSR1";
	case SIGUSR2: return "SIGUSR2";
	case SIGALRM: return "SIGALRM";
	case SIGCHLD: return "SIGCHLD";
	case SIGINT: return "SIGINT";
	case SIGHUP: return "SIGHUP";
	case SIGPIPE: return "SIGPIPE";
	case SIGVTALRM: return "SIGVTALRM";
	case SIGPROF: return "SIGPROF";
	case SIGIO: return "SIGIO";
	case SIGURG: return "SIGURG";
	case SIGWINCH: return "SIGWINCH";
	case SIGQUIT: return "SIGQUIT";
	default: return sig >= 32 && sig <= 64 ? "SIGRT" : "signal";
	}
}

static void fmt_call(char *buf, size_t size, uint32_t nr, const uint64_t *a, int nargs)
{
	int n = fmt(buf, size, "%s(", scname(nr));
	int i;

	for (i = 0; i < nargs && n < (int)size; i++)
		n += fmt(buf + n, size - n, "%s0x%lx", i ? ", " : "", a[i]);
	if (n < (int)size)
		fmt(buf + n, size - n, ")");
}

static uint64_t ms10(uint64_t ns)	/* hundredths of a millisecond */
{
	return ns / 10000;
}

static void print_times(const char *what)
{
	uint64_t now = now_ns();

	if (g.flags & FRI_F_QUIET)
		return;
	fdprintf(2, PFX "%s: load %lu.%02lu ms (decode %lu.%02lu ms, map %lu.%02lu ms), "
		 "re-execute %lu.%02lu ms\n", what,
		 ms10(g.t_loaded - g.h->t0_ns) / 100, ms10(g.t_loaded - g.h->t0_ns) % 100,
		 ms10(g.h->decode_ns - g.h->t0_ns) / 100,
		 ms10(g.h->decode_ns - g.h->t0_ns) % 100,
		 ms10(g.t_loaded - g.t_start) / 100, ms10(g.t_loaded - g.t_start) % 100,
		 ms10(now - g.t_loaded) / 100, ms10(now - g.t_loaded) % 100);
}

/* -------------------------------------------------------------------- */
/* The image */

static int in_window(uint64_t start, uint64_t end);

static int in_image(uint64_t off, uint64_t len)
{
	return off <= g.h->size && len <= g.h->size - off;
}

static void check_image(void)
{
	const struct fri_header *h = g.h;
	uint64_t i;

	if (h->magic != FRI_MAGIC || h->version != FRI_VERSION)
		die(FR_EXIT_BADFILE, "not a replay image (magic %x version %u)",
		    h->magic, h->version);
	if (!in_image(h->regions_off, (uint64_t)h->n_regions * sizeof(struct fri_region)) ||
	    !in_image(h->threads_off, (uint64_t)h->n_threads * sizeof(struct fri_thread)) ||
	    h->n_pages > h->size || h->n_syscalls > h->size ||
	    !in_image(h->pages_off, h->n_pages * sizeof(struct fri_page)) ||
	    !in_image(h->syscalls_off, h->n_syscalls * sizeof(struct fri_syscall)) ||
	    (h->regions_off | h->threads_off | h->pages_off | h->syscalls_off) & 7)
		die(FR_EXIT_BADFILE, "replay image: a table lies outside the image");
	if (!h->n_threads || h->n_threads > MAX_THREADS)
		die(FR_EXIT_BADFILE, "replay image: %u threads", h->n_threads);
	if (h->n_syscalls >= 0xffffffffULL)
		die(FR_EXIT_BADFILE, "replay image: too many syscall records");
	g.regions = (const void *)(g.base + h->regions_off);
	g.threads = (const void *)(g.base + h->threads_off);
	g.pages = (const void *)(g.base + h->pages_off);
	g.sc = (const void *)(g.base + h->syscalls_off);
	if (!in_image(h->cpuid_off, (uint64_t)h->n_cpuid * sizeof(struct fri_cpuid)) ||
	    (h->cpuid_off & 7))
		die(FR_EXIT_BADFILE, "replay image: the CPUID table lies outside the image");
	g.cpuid = (const void *)(g.base + h->cpuid_off);
	if (h->flags & FRI_F_PATCH_CPUID) {
		if (!in_image(h->cpuid_sites_off, (uint64_t)h->n_cpuid_sites * 8) ||
		    (h->cpuid_sites_off & 7))
			die(FR_EXIT_BADFILE, "replay image: the cpuid sites lie outside the image");
		g.cpuid_sites = (const void *)(g.base + h->cpuid_sites_off);
		for (i = 1; i < h->n_cpuid_sites; i++)
			if (g.cpuid_sites[i] <= g.cpuid_sites[i - 1])
				die(FR_EXIT_BADFILE, "replay image: the cpuid sites are not in "
				    "ascending order");
	}
	if (h->n_auxv > 65 || !in_image(h->auxv_off, (uint64_t)h->n_auxv * 16) ||
	    (h->auxv_off & 7) ||
	    (h->n_auxv && ((const uint64_t *)(g.base + h->auxv_off))[2 * (h->n_auxv - 1)]))
		die(FR_EXIT_BADFILE, "replay image: the auxiliary vector lies outside the image "
		    "or does not end with AT_NULL");
	if (!in_image(h->sigactions_off, (uint64_t)h->n_sigactions * sizeof(struct fri_sigaction)) ||
	    (h->sigactions_off & 7))
		die(FR_EXIT_BADFILE, "replay image: the signal table lies outside the image");
	for (i = 0; i < h->n_sigactions; i++) {
		const struct fri_sigaction *fs =
			(const void *)(g.base + h->sigactions_off) + i * sizeof(*fs);

		if (fs->signo >= 1 && fs->signo <= 64) {
			g.sa[fs->signo].handler = fs->handler;
			g.sa[fs->signo].flags = fs->flags;
			g.sa[fs->signo].restorer = fs->restorer;
			g.sa[fs->signo].mask = fs->mask;
		}
	}
	for (i = 0; i < h->n_regions; i++) {
		const struct fri_region *r = &g.regions[i];

		if (r->start >= r->end || (r->start | r->end) & (FRI_PAGE_SIZE - 1) ||
		    (i && r->start < g.regions[i - 1].end))
			die(FR_EXIT_BADFILE, "replay image: bad region %lu", i);
		if (r->name_off && (!in_image(r->name_off, 1) ||
				    !nul_within(g.base + r->name_off, h->size - r->name_off)))
			die(FR_EXIT_BADFILE, "replay image: bad region name %lu", i);
	}
	for (i = 0; i < h->n_pages; i++) {
		const struct fri_page *p = &g.pages[i];

		if ((p->addr & (FRI_PAGE_SIZE - 1)) ||
		    (i && (p->addr < g.pages[i - 1].addr ||
			   (p->addr == g.pages[i - 1].addr &&
			    p->interval <= g.pages[i - 1].interval))) ||
		    (p->data_off && !in_image(p->data_off, FRI_PAGE_SIZE)))
			die(FR_EXIT_BADFILE, "replay image: bad page %lu", i);
	}
	for (i = 0; i < h->n_threads; i++) {
		const struct fri_thread *t = &g.threads[i];

		if ((t->first_sc != FRI_NO_NEXT && t->first_sc >= h->n_syscalls) ||
		    t->xsave_size > FP_AREA_MAX || !in_image(t->xsave_off, t->xsave_size))
			die(FR_EXIT_BADFILE, "replay image: bad thread %lu", i);
	}
	for (i = 0; i < h->n_syscalls; i++) {
		const struct fri_syscall *s = &g.sc[i];
		const struct fri_out *o = (const void *)(g.base + s->out_off);
		uint32_t j;

		if ((s->next_same_tid != FRI_NO_NEXT &&
		     (s->next_same_tid <= i || s->next_same_tid >= h->n_syscalls)) ||
		    s->nargs > 6 || (s->out_off & 7) ||
		    !in_image(s->out_off, (uint64_t)s->n_out * sizeof(*o)))
			die(FR_EXIT_BADFILE, "replay image: bad syscall record %lu", i);
		for (j = 0; j < s->n_out; j++) {
			if (!in_image(o[j].data_off, o[j].len))
				die(FR_EXIT_BADFILE, "replay image: bad out-buffer in record %lu", i);
			if (o[j].addr + o[j].len < o[j].addr ||
			    o[j].addr + o[j].len > 0x800000000000ULL ||
			    in_window(o[j].addr, o[j].addr + o[j].len))
				die(FR_EXIT_BADFILE, "replay image: syscall record %lu (thread %u, "
				    "seq %lu, %s) has an out-buffer at 0x%lx-0x%lx, outside user "
				    "space or in the loader's window %lx-%lx: a damaged or crafted "
				    "checkpoint", i, s->tid, s->seq, scname(s->nr), o[j].addr,
				    o[j].addr + o[j].len, FRI_WINDOW_START, FRI_WINDOW_END);
		}
		if (s->kind == FRI_K_SIGNAL) {
			const struct fri_signal *fs = (const void *)(g.base + s->out_off);

			if (!in_image(s->out_off, sizeof(*fs)) || fs->signo < 1 || fs->signo > 64 ||
			    (fs->frame_len && (!in_image(fs->frame_off, fs->frame_len) ||
					       fs->frame_addr + fs->frame_len < fs->frame_addr ||
					       fs->frame_addr + fs->frame_len > 0x800000000000ULL ||
					       in_window(fs->frame_addr,
							 fs->frame_addr + fs->frame_len))))
				die(FR_EXIT_BADFILE, "replay image: bad signal record %lu", i);
		}
		if (s->kind == FRI_K_PREEMPT &&
		    (!in_image(s->out_off, sizeof(struct fri_signal)) ||
		     !((const struct fri_signal *)(g.base + s->out_off))->has_regs))
			die(FR_EXIT_BADFILE, "replay image: bad preemption record %lu", i);
	}
}

/* -------------------------------------------------------------------- */
/* Memory */

static int mapped(uint64_t addr)
{
	unsigned char v;

	return sys3(__NR_mincore, addr, FRI_PAGE_SIZE, &v) == 0;
}

/* Unmaps the block of contiguous mappings around addr (outside our window). */
static void unmap_block(uint64_t addr, const char *what)
{
	uint64_t lo = addr & ~(FRI_PAGE_SIZE - 1), hi = lo + FRI_PAGE_SIZE;
	long r;

	if (!mapped(lo))
		return;
	while (lo > FRI_PAGE_SIZE && mapped(lo - FRI_PAGE_SIZE))
		lo -= FRI_PAGE_SIZE;
	while (hi < 0x800000000000ULL && mapped(hi))
		hi += FRI_PAGE_SIZE;
	if (lo < FRI_WINDOW_END && hi > FRI_WINDOW_START)
		return;
	r = sys2(__NR_munmap, lo, hi - lo);
	if (r)
		die(FR_EXIT_FAIL, "cannot unmap the kernel's %s at %lx-%lx: %s", what, lo, hi,
		    errname(r));
}

static int in_window(uint64_t start, uint64_t end)
{
	return start < FRI_WINDOW_END && end > FRI_WINDOW_START;
}

static const struct fri_region *region_of(uint64_t addr)
{
	uint32_t lo = 0, hi = g.h->n_regions;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (g.regions[mid].end <= addr)
			lo = mid + 1;
		else if (g.regions[mid].start > addr)
			hi = mid;
		else
			return &g.regions[mid];
	}
	return NULL;
}

/*
 * The index of the first of @n entries of @size bytes at @arr, sorted by a
 * leading uint64_t key, whose key is @key or above (@n when none is).
 */
static uint64_t lower_bound(const void *arr, uint64_t n, size_t size, uint64_t key)
{
	uint64_t lo = 0, hi = n;

	while (lo < hi) {
		uint64_t mid = (lo + hi) / 2;

		if (*(const uint64_t *)((const uint8_t *)arr + mid * size) < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint64_t first_page_from(uint64_t addr)
{
	return lower_bound(g.pages, g.h->n_pages, sizeof(g.pages[0]), addr);
}

/*
 * rdtsc where it does not trap.  Replay answers rdtsc and rdtscp from the
 * recording by making them fault (PR_SET_TSC sets CR4.TSD); some machines
 * ignore that bit for guests (seen on an AMD EPYC guest of a hypervisor that
 * intercepts rdtsc itself), and some CPUs have no rdtscp.  There the
 * loader replaces each instruction the recording saw execute (the
 * FLIGHTREC_NR_RDTSC records' rip and length) with ud2, whose #UD (SIGILL)
 * is answered as the trap would have been.  An rdtsc at a site the
 * recording never executed runs on this machine's clock, unseen: the
 * replay says so when it starts.
 */
/* The first patched site at or above @addr (the rip leads struct tsc_site). */
static uint32_t tsc_site_from(uint64_t addr)
{
	return (uint32_t)lower_bound(g.tsc_sites, g.n_tsc_sites, sizeof(g.tsc_sites[0]), addr);
}

/* The length of the rdtsc (2) or rdtscp (3) patched at @rip, or 0. */
static uint32_t tsc_site_at(uint64_t rip)
{
	uint32_t i = tsc_site_from(rip);

	return i < g.n_tsc_sites && g.tsc_sites[i].rip == rip ? g.tsc_sites[i].len : 0;
}

/* The first cpuid site at or above @addr (FRI_F_PATCH_CPUID). */
static uint32_t cpuid_site_from(uint64_t addr)
{
	return (uint32_t)lower_bound(g.cpuid_sites, g.cpuid_sites ? g.h->n_cpuid_sites : 0,
				     sizeof(g.cpuid_sites[0]), addr);
}

/* Whether a cpuid site patched to ud2 is at @rip. */
static int cpuid_site_at(uint64_t rip)
{
	uint32_t i = cpuid_site_from(rip);

	return g.cpuid_sites && i < g.h->n_cpuid_sites && g.cpuid_sites[i] == rip;
}

/*
 * ud2 over the recorded rdtsc sites in the page just filled at @page
 * (writable): where its bytes are the instruction the recording executed.
 * A site that crosses into the next page is left as it is (its next page
 * may be filled later, over the patch): its rdtsc then runs unanswered and
 * replay stops at the divergence it causes.  The same for the cpuid sites
 * the recording machine found in the code (FRI_F_PATCH_CPUID): one that
 * crosses a page reads this CPU.
 */
static void patch_tsc_page(uint64_t page)
{
	uint32_t i;

	for (i = cpuid_site_from(page); g.cpuid_sites && i < g.h->n_cpuid_sites &&
	     g.cpuid_sites[i] + 2 <= page + FRI_PAGE_SIZE; i++) {
		uint8_t *p = (uint8_t *)g.cpuid_sites[i];

		if (p[0] == 0x0f && p[1] == 0xa2)
			p[1] = 0x0b;	/* 0f 0b: ud2 */
	}

	for (i = tsc_site_from(page); i < g.n_tsc_sites &&
	     g.tsc_sites[i].rip + g.tsc_sites[i].len <= page + FRI_PAGE_SIZE; i++) {
		uint8_t *p = (uint8_t *)g.tsc_sites[i].rip;

		if (p[0] == 0x0f && (g.tsc_sites[i].len == 2 ? p[1] == 0x31 :
				     p[1] == 0x01 && p[2] == 0xf9))
			p[1] = 0x0b;	/* 0f 0b: ud2 */
	}
}

/*
 * Fills the pages of [start, end) that a call of interval @interval just
 * mapped (or mapped again): each address gets its entry of the smallest
 * interval >= @interval, its bytes as this life of the address had them
 * (the entries are sorted by address, then interval).  An address with no
 * such entry is not read again in the log's intervals and stays as mapped.
 */
static void fill_deferred(uint64_t start, uint64_t end, uint32_t interval)
{
	uint64_t i;

	for (i = first_page_from(start); i < g.h->n_pages && g.pages[i].addr < end; i++) {
		const struct fri_page *p = &g.pages[i];

		/*
		 * A mapping made (or made again) by the replayed call: its pages
		 * get the bytes the page set holds for them, also where an earlier
		 * mapping of the range was filled before (ld.so maps a library
		 * whole, then each segment over it with MAP_FIXED).  The page set
		 * holds one life per address and interval: a second life inside
		 * the interval (FLIGHTREC_IF_TWO_LIVES) rides on the call's record
		 * as out-buffers, copied after this (copy_outs); one mapped in a
		 * later interval has that interval's entry here.
		 */
		if (p->interval < interval)
			continue;
		if (i && g.pages[i - 1].addr == p->addr && g.pages[i - 1].interval >= interval)
			continue;	/* an earlier entry of this address was the one */
		g.filled[i] = 1;
		if (p->data_off) {
			memcpy((void *)p->addr, g.base + p->data_off, FRI_PAGE_SIZE);
			patch_tsc_page(p->addr);
		}
	}
}

/*
 * Pages mapped from the image.  map_regions() maps long runs of recorded
 * pages straight from the replay image (a sealed memfd: its bytes cannot
 * change) as private file mappings, instead of copying each page into
 * anonymous memory: under emulation the copy and the zeroing of each new
 * page were most of the loader's start (issue 28, item 6).  A private
 * file mapping reads and writes like the anonymous memory it stands for,
 * except where the application's address-space calls tell them apart, so
 * those calls turn the mapped pages they touch into anonymous memory
 * first, or after:
 *   - madvise(MADV_DONTNEED) would bring the image's bytes back, not zeros:
 *     the pages become fresh anonymous memory (zeros), their protection kept;
 *   - mremap needs its old range in one mapping, and would grow a file
 *     mapping with more of the image: the old range becomes one anonymous
 *     mapping with the same bytes first;
 *   - an mprotect the kernel refuses for a file mapping (PROT_EXEC where a
 *     policy forbids executing a memfd's pages) is tried again on
 *     anonymous copies.
 * munmap, mmap over them and brk only forget them.  g.fmap[i] holds, for
 * the first entry of each mapped address, FM_ON and the page's protection.
 */
static uint64_t fm_first(uint64_t start)
{
	return g.n_fmapped ? first_page_from(start) : g.h->n_pages;
}

static int fm_any(uint64_t start, uint64_t end)
{
	uint64_t i;

	for (i = fm_first(start); i < g.h->n_pages && g.pages[i].addr < end; i++)
		if (g.fmap[i])
			return 1;
	return 0;
}

static void fm_forget(uint64_t start, uint64_t end)
{
	uint64_t i;

	for (i = fm_first(start); i < g.h->n_pages && g.pages[i].addr < end; i++)
		if (g.fmap[i]) {
			g.fmap[i] = 0;
			g.n_fmapped--;
		}
}

static void fm_protect(uint64_t start, uint64_t end, uint32_t prot)
{
	uint64_t i;

	for (i = fm_first(start); i < g.h->n_pages && g.pages[i].addr < end; i++)
		if (g.fmap[i])
			g.fmap[i] = FM_ON | (prot & 7);
}

/* [s, e) as one anonymous mapping with the bytes it holds now, then prot */
static long anon_copy(uint64_t s, uint64_t e, uint32_t prot)
{
	uint64_t len = e - s;
	long r;
	void *tmp;

	if (!(prot & PROT_READ)) {
		r = sys3(__NR_mprotect, s, len, PROT_READ);
		if (r)
			return r;
	}
	tmp = sys_mmap(0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (is_err((long)tmp))
		return (long)tmp;
	memcpy(tmp, (const void *)s, len);
	r = sys5(__NR_mremap, tmp, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, s);
	if (is_err(r)) {
		sys2(__NR_munmap, tmp, len);
		return r;
	}
	return sys3(__NR_mprotect, s, len, prot);
}

/*
 * The mapped pages in [start, end) become anonymous memory with their
 * protection: zeros (@keep 0: what MADV_DONTNEED leaves) or their bytes.
 */
static long fm_to_anon(uint64_t start, uint64_t end, int keep)
{
	uint64_t i = fm_first(start), j, s, e;
	uint32_t prot;
	long r;
	void *p;

	while (i < g.h->n_pages && g.pages[i].addr < end) {
		if (!g.fmap[i]) {
			i++;
			continue;
		}
		s = g.pages[i].addr;
		e = s + FRI_PAGE_SIZE;
		prot = g.fmap[i] & 7;
		for (j = i + 1; j < g.h->n_pages && g.pages[j].addr < end; j++) {
			if (g.pages[j].addr == e - FRI_PAGE_SIZE)
				continue;	/* a later life of the address */
			if (g.pages[j].addr != e || !g.fmap[j] || (g.fmap[j] & 7) != prot)
				break;
			e += FRI_PAGE_SIZE;
		}
		if (keep) {
			r = anon_copy(s, e, prot);
		} else {
			p = sys_mmap(s, e - s, (int)prot,
				     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
			r = is_err((long)p) ? (long)p : 0;
		}
		if (r)
			return r;
		fm_forget(s, e);
		i = j;
	}
	return 0;
}

/* mremap's old range [s, e): one anonymous mapping, as it was recorded */
static long fm_flatten(uint64_t s, uint64_t e)
{
	uint64_t i;
	long r;

	for (i = fm_first(s); i < g.h->n_pages && g.pages[i].addr < e; i++)
		if (g.fmap[i])
			break;
	if (i == g.h->n_pages || g.pages[i].addr >= e)
		return 0;
	/* one mapping when recorded: one protection, the mapped page's */
	r = anon_copy(s, e, g.fmap[i] & 7);
	if (!r)
		fm_forget(s, e);
	return r;
}

static long map_anon(uint64_t addr, uint64_t len, int growsdown)
{
	void *p;

	if (in_window(addr, addr + len))
		return -EEXIST;
	p = sys_mmap(addr, len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE |
		     (growsdown ? MAP_GROWSDOWN : 0), -1, 0);
	if (is_err((long)p))
		return (long)p;
	if (p != (void *)addr)
		return -EFAULT;
	fm_forget(addr, addr + len);
	return 0;
}

/* The parts of [start, end) in FRI_R_NODUMP regions stay PROT_NONE. */
static void keep_nodump_none(uint64_t start, uint64_t end)
{
	uint64_t i;

	for (i = 0; i < g.h->n_regions; i++) {
		const struct fri_region *reg = &g.regions[i];
		uint64_t s = reg->start > start ? reg->start : start;
		uint64_t e = reg->end < end ? reg->end : end;

		if ((reg->flags & FRI_R_NODUMP) && s < e)
			sys3(__NR_mprotect, s, e - s, PROT_NONE);
	}
}

/*
 * The first entry of each address from i on that map_regions() fills, in
 * a region that may be mapped from the image: its index, or n_pages.
 */
static uint64_t next_mappable(uint64_t i, const struct fri_region **regp)
{
	const struct fri_region *reg;

	for (; i < g.h->n_pages; i++) {
		const struct fri_page *p = &g.pages[i];

		if (!p->data_off || (p->data_off & (FRI_PAGE_SIZE - 1)) ||
		    (i && g.pages[i - 1].addr == p->addr))
			continue;
		reg = region_of(p->addr);
		/*
		 * Not the stack (MAP_GROWSDOWN), nor code: a policy may refuse
		 * to execute a memfd's pages.
		 */
		if (!reg || reg->flags & (FRI_R_STACK | FRI_R_NODATA | FRI_R_NODUMP) ||
		    reg->prot & PROT_EXEC)
			continue;
		*regp = reg;
		return i;
	}
	return i;
}

/* Maps the long runs of image pages (see fm_first()); the rest is copied. */
static void map_runs(void)
{
	const struct fri_region *reg = NULL;
	uint64_t i, j, last, n;
	void *m;

	if (g.imgfd < 0)
		return;
	for (i = next_mappable(0, &reg); i < g.h->n_pages && g.n_runs < MAP_RUNS_MAX;
	     i = next_mappable(last + 1, &reg)) {
		const struct fri_page *p = &g.pages[i];

		n = 1;
		last = i;
		for (j = i + 1; j < g.h->n_pages; j++) {
			if (g.pages[j].addr == g.pages[last].addr)
				continue;	/* a later life */
			if (g.pages[j].addr != p->addr + n * FRI_PAGE_SIZE ||
			    g.pages[j].addr >= reg->end ||
			    g.pages[j].data_off != p->data_off + n * FRI_PAGE_SIZE)
				break;
			n++;
			last = j;
		}
		if (n < MAP_RUN_MIN)
			continue;
		m = sys_mmap(p->addr, n * FRI_PAGE_SIZE, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_FIXED, g.imgfd, p->data_off);
		if (is_err((long)m) || m != (void *)p->addr) {
			/* (a limit on mappings): copied like the others */
			if (!is_err((long)m) || map_anon(p->addr, n * FRI_PAGE_SIZE, 0))
				die(FR_EXIT_FAIL, "cannot map pages at %lx: %s", p->addr,
				    errname((long)m));
			break;
		}
		g.n_runs++;
		for (j = i; j <= last; j++) {
			if (j > i && g.pages[j].addr == g.pages[j - 1].addr)
				continue;
			g.fmap[j] = FM_ON | (reg->prot & 7);
			g.n_fmapped++;
			patch_tsc_page(g.pages[j].addr);
		}
	}
}

static void map_regions(void)
{
	uint64_t i, bytes = 0;
	long r;

	for (i = 0; i < g.h->n_regions; i++) {
		const struct fri_region *reg = &g.regions[i];
		const char *name = reg->name_off ? (const char *)g.base + reg->name_off : "";

		if (reg->start >= 0x800000000000ULL)
			continue;	/* [vsyscall]: the kernel's, above user space */
		if (in_window(reg->start, reg->end))
			die(FR_EXIT_FAIL, "recorded region %lx-%lx %s overlaps the loader's window "
			    "%lx-%lx: this checkpoint cannot be replayed with this loader",
			    reg->start, reg->end, name, FRI_WINDOW_START, FRI_WINDOW_END);
		r = map_anon(reg->start, reg->end - reg->start, reg->flags & FRI_R_STACK);
		if (r)
			die(FR_EXIT_FAIL, "cannot map region %lx-%lx %s: %s", reg->start,
			    reg->end, name, errname(r));
	}
	map_runs();
	for (i = 0; i < g.h->n_pages; i++) {
		const struct fri_page *p = &g.pages[i];

		if (!region_of(p->addr))
			continue;
		if (i && g.pages[i - 1].addr == p->addr)
			continue;	/* a later life's: filled when it is mapped */
		if (p->data_off && !g.fmap[i]) {
			memcpy((void *)p->addr, g.base + p->data_off, FRI_PAGE_SIZE);
			patch_tsc_page(p->addr);
			bytes += FRI_PAGE_SIZE;
		}
	}
	for (i = 0; i < g.h->n_regions; i++) {
		const struct fri_region *reg = &g.regions[i];

		if (reg->start >= 0x800000000000ULL)
			continue;
		/* MADV_DONTDUMP: no bytes; a touch faults (on_fault) */
		r = sys3(__NR_mprotect, reg->start, reg->end - reg->start,
			 reg->flags & FRI_R_NODUMP ? PROT_NONE : reg->prot);
		if (r)
			die(FR_EXIT_FAIL, "cannot protect region %lx-%lx: %s", reg->start,
			    reg->end, errname(r));
		core_map(reg->start, reg->end, reg->flags & FRI_R_NODUMP ? PROT_NONE : reg->prot);
		fm_protect(reg->start, reg->end, reg->prot);
	}
	if (g.imgfd >= 0)
		sys1(__NR_close, g.imgfd);
	g.imgfd = -1;
	if (g.flags & FRI_F_VERBOSE)
		fdprintf(2, PFX "pages: %lu mapped from the image in %lu runs, %lu copied\n",
			 g.n_fmapped, g.n_runs, bytes / FRI_PAGE_SIZE);
}

/* -------------------------------------------------------------------- */
/* Threads and entering the application */

static struct lthread *self(void)
{
	uint64_t sp = (uint64_t)__builtin_frame_address(0);
	uint64_t idx = (sp - FRI_STACKS_ADDR) / SLOT_SIZE;

	if (sp < FRI_STACKS_ADDR || idx >= MAX_THREADS)
		die(FR_EXIT_FAIL, "internal error: handler not on a loader stack (sp %lx)", sp);
	return &threads[idx];
}

static uint64_t slot_addr(struct lthread *t)
{
	return FRI_STACKS_ADDR + (uint64_t)(t - threads) * SLOT_SIZE;
}

static void alloc_slot(struct lthread *t)
{
	uint64_t base = slot_addr(t);
	void *p;

	p = sys_mmap(base + STACK_OFF, STACK_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != (void *)(base + STACK_OFF))
		die(FR_EXIT_FAIL, "cannot map a loader stack at %lx: %s", base + STACK_OFF,
		    errname((long)p));
	p = sys_mmap(base + ALT_OFF, ALT_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != (void *)(base + ALT_OFF))
		die(FR_EXIT_FAIL, "cannot map a signal stack at %lx: %s", base + ALT_OFF,
		    errname((long)p));
}

static struct lthread *new_thread(uint32_t tid, uint64_t first)
{
	uint32_t i;

	for (i = 0; i < MAX_THREADS; i++) {
		if (!threads[i].used) {
			threads[i].used = 1;
			threads[i].tid = tid;
			threads[i].cur = first;
			return &threads[i];
		}
	}
	die(FR_EXIT_FAIL, "more than %d threads", MAX_THREADS);
}

/*
 * An argument the kernel does not read for this call, given the others
 * (compared already): whatever register garbage the program left there
 * may differ on another CPU and means nothing.  clone(2)'s parent_tid,
 * child_tid and tls are read only with the flags that name them (glibc's
 * syscall() passes its own leftovers for a raw clone(SIGCHLD, stack); seen
 * as "different arguments" on the host for strace's clone-flags test,
 * the leftover being ld.so's XSAVE size).
 */
static int arg_unused(const struct fri_syscall *s, int i)
{
	uint64_t fl = s->args[0];

	if (s->nr != __NR_clone)
		return 0;
	switch (i) {
	case 2:
		return !(fl & (CLONE_PARENT_SETTID | CLONE_PIDFD));
	case 3:
		return !(fl & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID));
	case 4:
		return !(fl & CLONE_SETTLS);
	default:
		return 0;
	}
}

static void on_sigsys(int sig, siginfo_t *si, void *uc);
static void on_fault(int sig, siginfo_t *si, void *uc);
static void on_trap(int sig, siginfo_t *si, void *uc);
static void back_to_app(struct lthread *t, struct ucontext *uc);
static void wait_resume(struct lthread *t, struct sigcontext *mc);

static void set_handler(int sig, void (*fn)(int, siginfo_t *, void *))
{
	struct sigaction sa;
	long r;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = (__sighandler_t)(void *)fn;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTORER | SA_NODEFER;
	sa.sa_restorer = fr_restorer;
	r = sys4(__NR_rt_sigaction, sig, &sa, NULL, 8);
	if (r)
		die(FR_EXIT_FAIL, "rt_sigaction(%d): %s", sig, errname(r));
}

static void set_altstack(struct lthread *t)
{
	stack_t ss = {
		.ss_sp = (void *)(slot_addr(t) + ALT_OFF),
		.ss_flags = 0,
		.ss_size = ALT_SIZE,
	};
	long r = sys2(__NR_sigaltstack, &ss, NULL);

	if (r)
		die(FR_EXIT_FAIL, "sigaltstack: %s", errname(r));
}

/* The probe: learn what this kernel writes into a signal frame's FPU area. */
static void on_probe(int sig, siginfo_t *si, void *ucv)
{
	struct ucontext *uc = ucv;
	const uint8_t *fp = (const uint8_t *)uc->uc_mcontext.fpstate;

	(void)sig;
	(void)si;
	if (!fp)
		return;
	memcpy(&g.sw, fp + 464, sizeof(g.sw));
	g.have_xsave = (uc->uc_flags & UC_FP_XSTATE) && g.sw.magic1 == FP_XSTATE_MAGIC1 &&
		       g.sw.xstate_size <= FP_AREA_MAX - 4 && g.sw.xstate_size >= 576;
}

static const struct fri_cpuid *rec_leaf(uint32_t leaf, uint32_t sub)
{
	uint32_t i;

	for (i = 0; i < g.h->n_cpuid; i++)
		if (g.cpuid[i].leaf == leaf && g.cpuid[i].subleaf == sub)
			return &g.cpuid[i];
	return NULL;
}

/*
 * Where each user XSAVE component lies in the recording CPU's standard
 * layout and in this one's.  They differ between CPUs (PKRU is at 0xa80
 * on Intel's and QEMU's, at 0x980 on AMD's Zen), and a recorded frame
 * restored byte for byte here loads the bytes at this CPU's offsets:
 * garbage into PKRU denies the application its own memory.  Before
 * cpuid faults for the loader (enter()).
 */
static void xsave_layouts(void)
{
	uint64_t rec = g.h->rec_xstate_size, here = g.sw.xstate_size;
	uint32_t i, a, b, c, d;

	if (!g.have_xsave || rec < 576 || rec > FP_AREA_MAX - 4)
		return;		/* the frames are this kernel's (fp_frame_room()) */
	for (i = 2; i < 64; i++) {
		const struct fri_cpuid *l = rec_leaf(0xd, i);

		if (i == 18 || !(g.sw.xfeatures >> i & 1) || !l || !l->eax)
			continue;	/* AMX tiles: not in frames */
		__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0xd), "c"(i));
		if (!a || a != l->eax || (c & 2) || (uint64_t)b + a > here ||
		    (uint64_t)l->ebx + l->eax > rec || l->ebx < 576 || b < 576)
			continue;	/* not the same component, or outside a frame */
		g.xoff[i].rec = l->ebx;
		g.xoff[i].here = b;
		g.xoff[i].size = a;
		g.xmask |= 1ULL << i;
	}
	g.xconv = 1;
}

/*
 * The XSAVE area @src, in the recorded layout (to_here) or this CPU's,
 * into @dst in the other, @dst_size bytes: the legacy region as it is,
 * the components both CPUs have at their offsets, the others left out
 * (init state: their XSTATE_BV bits cleared).  XCOMP_BV 0: standard form.
 */
static void xsave_move(uint8_t *dst, uint64_t dst_size, const uint8_t *src, int to_here)
{
	uint64_t bv, i;

	memcpy(dst, src, 512);
	memset(dst + 512, 0, dst_size - 512);
	memcpy(&bv, src + 512, 8);
	bv &= 3 | g.xmask;
	memcpy(dst + 512, &bv, 8);
	for (i = 2; i < 64; i++)
		if (bv >> i & 1)
			memcpy(dst + (to_here ? g.xoff[i].here : g.xoff[i].rec),
			       src + (to_here ? g.xoff[i].rec : g.xoff[i].here), g.xoff[i].size);
}

static void probe_fpu(void)
{
	long pid = sys0(__NR_getpid), tid = sys0(__NR_gettid);

	set_handler(SIGUSR2, on_probe);
	sys3(__NR_tgkill, pid, tid, SIGUSR2);
	xsave_layouts();
}

/*
 * The recorded rdtsc sites to patch (FRI_F_PATCH_TSC: flightrec replay
 * found that rdtsc does not trap here or that this CPU has no rdtscp, or
 * was asked to), in rip order.
 */
static void find_tsc_sites(void)
{
	uint64_t i, j;

	if (!(g.flags & FRI_F_PATCH_TSC) || !(g.flags & FRI_F_TSC_RECORDED))
		return;
	for (i = 0; i < g.h->n_syscalls; i++) {
		const struct fri_syscall *s = &g.sc[i];
		uint64_t rip = s->args[4];

		if (s->kind != FRI_K_RDTSC || !rip || (s->args[1] != 2 && s->args[1] != 3))
			continue;
		for (j = g.n_tsc_sites; j > 0 && g.tsc_sites[j - 1].rip > rip; j--)
			;
		if (j > 0 && g.tsc_sites[j - 1].rip == rip)
			continue;
		if (g.n_tsc_sites == MAX_TSC_SITES)
			die(FR_EXIT_FAIL, "the recording has more than %d rdtsc sites to patch",
			    MAX_TSC_SITES);
		memmove(&g.tsc_sites[j + 1], &g.tsc_sites[j],
			(g.n_tsc_sites - j) * sizeof(g.tsc_sites[0]));
		g.tsc_sites[j].rip = rip;
		g.tsc_sites[j].len = (uint32_t)s->args[1];
		g.n_tsc_sites++;
	}
	info("note: the %u recorded rdtsc sites answer from the recording (patched to ud2); "
	     "any other rdtsc reads this machine's clock\n", g.n_tsc_sites);
}

static void note_cpuid_sites(void)
{
	if (g.cpuid_sites)
		info("note: the %u cpuid instructions of the recorded code answer from the "
		     "recording (patched to ud2); any other cpuid reads this CPU\n",
		     g.h->n_cpuid_sites);
}

static void prepare_fp(struct lthread *t, const uint8_t *src, uint64_t len)
{
	uint8_t *fp = t->fp;
	uint64_t size = g.have_xsave ? g.sw.xstate_size : 512;

	memset(fp, 0, sizeof(t->fp));
	if (src && len >= 512) {
		memcpy(fp, src, len < size ? len : size);
	} else {
		*(uint16_t *)fp = 0x37f;		/* fcw */
		*(uint32_t *)(fp + 24) = 0x1f80;	/* mxcsr */
		*(uint32_t *)(fp + 28) = 0xffff;	/* mxcsr_mask */
		if (g.have_xsave)
			*(uint64_t *)(fp + 512) = 3;
	}
	*(uint32_t *)(fp + 24) &= 0xffff;	/* reserved MXCSR bits fault in XRSTOR */
	memset(fp + 464, 0, 48);
	if (g.have_xsave) {
		struct _fpx_sw_bytes sw = g.sw;

		sw.extended_size = (uint32_t)size + FP_XSTATE_MAGIC2_SIZE;
		memcpy(fp + 464, &sw, sizeof(sw));
		*(uint64_t *)(fp + 512) &= g.sw.xfeatures;	/* xstate_bv */
		*(uint64_t *)(fp + 520) = 0;			/* xcomp_bv: standard */
		*(uint32_t *)(fp + size) = FP_XSTATE_MAGIC2;
	}
}

static void prepare_frame(struct lthread *t, const struct fri_regs *r)
{
	struct ucontext *uc = &t->frame.uc;
	struct sigcontext *mc = &uc->uc_mcontext;

	memset(&t->frame, 0, sizeof(t->frame));
	uc->uc_flags = (g.have_xsave ? UC_FP_XSTATE : 0) | UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
	uc->uc_stack.ss_sp = (void *)(slot_addr(t) + ALT_OFF);
	uc->uc_stack.ss_size = ALT_SIZE;
	uc->uc_sigmask = 0;
	mc->r8 = r->r8; mc->r9 = r->r9; mc->r10 = r->r10; mc->r11 = r->r11;
	mc->r12 = r->r12; mc->r13 = r->r13; mc->r14 = r->r14; mc->r15 = r->r15;
	mc->rdi = r->rdi; mc->rsi = r->rsi; mc->rbp = r->rbp; mc->rbx = r->rbx;
	mc->rdx = r->rdx; mc->rax = r->rax; mc->rcx = r->rcx; mc->rsp = r->rsp;
	mc->rip = r->rip;
	mc->eflags = r->eflags;
	mc->cs = 0x33;
	mc->ss = 0x2b;
	mc->fpstate = t->fp;
}

/* Thread-specific setup, then into the application; never returns. */
static void enter(struct lthread *t, uint64_t fs_base, uint64_t gs_base)
{
	uint64_t text = (uint64_t)__executable_start;
	long r;

	set_altstack(t);
	r = sys2(__NR_prctl, PR_SET_TSC, PR_TSC_SIGSEGV);
	if (r)
		die(FR_EXIT_FAIL, "prctl(PR_SET_TSC): %s", errname(r));
	/* cpuid faults (when the CPU can): the recorded CPU answers */
	if (g.h->n_cpuid && sys2(__NR_arch_prctl, ARCH_SET_CPUID, 0))
		g.cpuid_untrapped = 1;
	r = sys2(__NR_arch_prctl, ARCH_SET_FS, fs_base);
	if (r)
		die(FR_EXIT_FAIL, "arch_prctl(ARCH_SET_FS, %lx): %s", fs_base, errname(r));
	t->fs_base = fs_base;
	t->gs_base = gs_base;
	r = sys2(__NR_arch_prctl, ARCH_SET_GS, gs_base);
	if (r)
		die(FR_EXIT_FAIL, "arch_prctl(ARCH_SET_GS, %lx): %s", gs_base, errname(r));
	r = sys5(__NR_prctl, PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, text,
		 (uint64_t)etext - text, 0);
	if (r)
		die(FR_EXIT_FAIL, "cannot enable Syscall User Dispatch (Linux 5.11 or later "
		    "is needed): %s", errname(r));
	back_to_app(t, &t->frame.uc);
	if (g.gdbfd >= 0) {
		struct fri_gdb_thread m = {
			.magic = FRI_GDB_MAGIC, .tid = (uint32_t)sys0(__NR_gettid),
			.rec_tid = t->tid, .last = (uint64_t)&t->last,
			.has_last = (uint64_t)&t->has_last, .bp = (uint64_t)&g.bp.at,
			.bp_step = (uint64_t)&t->bp_step,
		};

		r = sys3(__NR_write, g.gdbfd, (long)&m, sizeof(m));
		if (r != (long)sizeof(m))
			die(FR_EXIT_FAIL, "cannot tell the gdbserver about thread %u: %s",
			    t->tid, errname(r < 0 ? r : -EIO));
	}
	fr_enter_app(&t->frame.uc);
}

static void thread_start(void *arg)
{
	struct lthread *t = arg;

	enter(t, t->frame.uc.uc_mcontext.reserved1[0], t->frame.uc.uc_mcontext.reserved1[1]);
}

static void spawn(struct lthread *t, uint64_t fs_base, uint64_t gs_base)
{
	long r;

	/* the child reads its bases from the frame's unused words */
	t->frame.uc.uc_mcontext.reserved1[0] = fs_base;
	t->frame.uc.uc_mcontext.reserved1[1] = gs_base;
	__atomic_add_fetch(&g.nthreads, 1, __ATOMIC_SEQ_CST);
	r = fr_clone_thread(THREAD_CLONE_FLAGS, (void *)(slot_addr(t) + STACK_OFF + STACK_SIZE),
			    thread_start, t);
	if (r < 0)
		die(FR_EXIT_FAIL, "cannot create a thread: %s", errname(r));
}

/* A thread whose interval began inside a syscall re-enters it. */
static void start_regs(const struct fri_thread *th, struct fri_regs *r)
{
	*r = th->regs;
	if (th->in_syscall >= 0) {
		r->rip -= 2;
		r->rax = (uint64_t)th->in_syscall;
	}
}

/* -------------------------------------------------------------------- */
/* Replaying system calls */

static uint64_t *greg_arg(struct sigcontext *mc, int i)
{
	switch (i) {
	case 0: return &mc->rdi;
	case 1: return &mc->rsi;
	case 2: return &mc->rdx;
	case 3: return &mc->r10;
	case 4: return &mc->r8;
	default: return &mc->r9;
	}
}

static void get_args(struct sigcontext *mc, uint64_t *a)
{
	int i;

	for (i = 0; i < 6; i++)
		a[i] = *greg_arg(mc, i);
}

/* Index of thread tid's last record before index end, or FRI_NO_NEXT. */
static uint64_t prev_of(uint32_t tid, uint64_t end)
{
	while (end-- > 0)
		if (g.sc[end].tid == tid)
			return end;
	return FRI_NO_NEXT;
}

/* Whether tid is in named[] already; adds it when not (and there is room). */
static int race_named(uint32_t *named, unsigned int *n, uint32_t tid)
{
	unsigned int j;

	for (j = 0; j < *n; j++)
		if (named[j] == tid)
			return 1;
	if (*n < MAX_THREADS)
		named[(*n)++] = tid;
	return 0;
}

/* "seq N (name)" of record idx, or "its start" */
static void fmt_rec(char *buf, size_t size, uint64_t idx)
{
	if (idx == FRI_NO_NEXT)
		fmt(buf, size, "its start");
	else
		fmt(buf, size, "seq %lu (%s)", g.sc[idx].seq, scname(g.sc[idx].nr));
}

/*
 * After a divergence report, for a recording that was not serial
 * (FRI_F_SERIAL clear): the threads whose user code may have run at the
 * same time as t's when recorded.  Replay runs t's user code from its
 * previous record (P) to the diverging one (s; none past its log) after
 * every record numbered below s, the other threads waiting; when recorded
 * it could overlap any other thread's segment that ended after P and began
 * before s: one that ended with a record in between, or the one each live
 * thread is in now (up to its next record, or past its log).  A race
 * between them on memory without a system call (a lock taken in user
 * space, a flag) can take t where it did not go.  Those threads are named,
 * each with the records its segment lies between.
 */
static void race_note(const struct lthread *t, const struct fri_syscall *s)
{
	uint64_t end = s ? (uint64_t)(s - g.sc) : g.h->n_syscalls;
	uint64_t p = prev_of(t->tid, end), i;
	uint32_t named[MAX_THREADS];
	unsigned int n = 0, k;
	char a[96], b[96];

	if (g.flags & FRI_F_SERIAL)
		return;
	for (i = p == FRI_NO_NEXT ? 0 : p + 1; i < end; i++) {
		uint32_t tid = g.sc[i].tid;

		if (tid == t->tid || race_named(named, &n, tid))
			continue;
		fmt_rec(a, sizeof(a), prev_of(tid, i));
		fmt_rec(b, sizeof(b), i);
		fdprintf(2, PFX "  race: thread %u ran user code from %s to %s\n", tid, a, b);
	}
	for (k = 0; k < MAX_THREADS; k++) {
		const struct lthread *v = &threads[k];

		if (!v->used || v == t || v->parked || (v->cur == FRI_NO_NEXT && !v->at_end))
			continue;	/* parked where it was at the end, or gone */
		if (race_named(named, &n, v->tid))
			continue;
		fmt_rec(a, sizeof(a), prev_of(v->tid, v->cur == FRI_NO_NEXT ? g.h->n_syscalls : v->cur));
		if (v->cur == FRI_NO_NEXT)
			fmt(b, sizeof(b), "past its log");
		else
			fmt_rec(b, sizeof(b), v->cur);
		fdprintf(2, PFX "  race: thread %u ran user code from %s to %s\n", v->tid, a, b);
	}
	if (!n)
		return;
	fmt_rec(a, sizeof(a), p);
	if (s)
		fmt_rec(b, sizeof(b), end);
	else
		fmt(b, sizeof(b), "past its log");
	fdprintf(2, PFX "  race: not a --serial recording: thread %u, user code from %s to %s, may "
		 "have run at the same time as theirs (above) when recorded; a race between them "
		 "on memory, between system calls, can take it elsewhere (record with --serial to "
		 "replay it exactly)\n", t->tid, a, b);
}

static __attribute__((noreturn)) void diverged(struct lthread *t, const struct fri_syscall *s,
					       struct sigcontext *mc, const char *why)
{
	char exp[256], got[256];
	uint64_t a[6];

	get_args(mc, a);
	fmt_call(got, sizeof(got), (uint32_t)mc->rax, a, s ? (s->nargs ? s->nargs : 6) : 6);
	if (s) {
		fmt_call(exp, sizeof(exp), s->nr, s->args, s->nargs);
		fdprintf(2, PFX "DIVERGED: thread %u, seq %lu, rip 0x%lx: %s\n"
			 PFX "  expected %s = %ld\n" PFX "  got      %s\n",
			 t->tid, s->seq, mc->rip, why, exp, s->ret, got);
	} else {
		fdprintf(2, PFX "DIVERGED: thread %u, rip 0x%lx: %s\n" PFX "  got %s\n",
			 t->tid, mc->rip, why, got);
	}
	race_note(t, s);
	print_times("diverged");
	sys_exit_group(FR_EXIT_DIVERGED);
}

/* Waits until record idx is the next in the recorded order. */
static void wait_turn(struct lthread *t, uint64_t idx, struct sigcontext *mc)
{
	uint64_t waited = 0;

	while (1) {
		uint32_t cur = __atomic_load_n(&g.turn, __ATOMIC_ACQUIRE);
		struct timespec ts = { 1, 0 };

		if (cur == idx)
			return;
		if (cur > idx)
			diverged(t, &g.sc[idx], mc, "internal error: record order");
		sys6(__NR_futex, (long)&g.turn, FUTEX_WAIT_PRIVATE, cur, (long)&ts, 0, 0);
		if (++waited > TURN_TIMEOUT_S * 10 && cur == __atomic_load_n(&g.turn, __ATOMIC_ACQUIRE)) {
			const struct fri_syscall *o = &g.sc[cur];
			char buf[64];

			fmt(buf, sizeof(buf), "waited %ds for thread %u to make seq %lu (%s)",
			    TURN_TIMEOUT_S, o->tid, o->seq, scname(o->nr));
			diverged(t, &g.sc[idx], mc, buf);
		}
	}
}

/*
 * Threads run one at a time: a thread goes back to (or into) application
 * code only when its next record is the next in the recorded order, so the
 * user code between two syscalls of one thread runs while the others wait
 * in the loader.  Threads that share memory without syscalls then see each
 * other's writes in the order the recorded syscalls imply.
 */
static void wait_resume(struct lthread *t, struct sigcontext *mc)
{
	uint64_t want = t->cur == FRI_NO_NEXT ? g.h->n_syscalls : t->cur;

	while (__atomic_load_n(&g.turn, __ATOMIC_ACQUIRE) < want) {
		uint32_t cur = __atomic_load_n(&g.turn, __ATOMIC_ACQUIRE);

		if (cur >= want)
			break;
		if (t->cur != FRI_NO_NEXT) {
			wait_turn(t, want, mc);
			return;
		}
		sys4(__NR_futex, (long)&g.turn, FUTEX_WAIT_PRIVATE, cur, NULL);
	}
}

static void advance_turn(uint64_t idx)
{
	__atomic_store_n(&g.turn, (uint32_t)idx + 1, __ATOMIC_RELEASE);
	if (g.nthreads > 1)
		sys3(__NR_futex, (long)&g.turn, FUTEX_WAKE_PRIVATE, 0x7fffffff);
}

/*
 * Output: the bytes the call passes in, as its table row's in1 describes,
 * go to DIR/fdN.out.  The files are created before the sandbox is
 * installed (open_outputs), since it allows no open.
 */
static int out_file(uint64_t fd)
{
	if (fd >= 1024)
		fd = 1023;
	return g.outfd[fd] > 0 ? g.outfd[fd] : -1;
}

static int is_output(const struct fri_syscall *s)
{
	return s->kind == FRI_K_OUTPUT && s->ret > 0 && s->in_arg <= 5 &&
	       (s->in_kind == FR_SZ_ARG || s->in_kind == FR_SZ_IOV || s->in_kind == FR_SZ_MSGHDR);
}

/*
 * Creates DIR/fdN.out for every fd the log writes to: O_EXCL|O_NOFOLLOW,
 * mode 0600, relative to the directory's fd, so that a file or a symlink
 * already there is never written through.  With -F (`--force`) an existing
 * entry of that name is unlinked first (a symlink itself, not its target).
 * With -A (the image after an exec: the same process's output goes on) an
 * existing file is written on from its end; a symlink is still refused.
 * Then the directory fd is closed: nothing else is opened in it.
 */
static void open_outputs(void)
{
	uint64_t i;

	if (g.outdir < 0)
		return;
	for (i = 0; i < g.h->n_syscalls; i++) {
		const struct fri_syscall *s = &g.sc[i];
		uint64_t fd = s->args[0] >= 1024 ? 1023 : s->args[0];
		char name[32];
		long r;

		if (!is_output(s) || g.outfd[fd] > 0)
			continue;
		fmt(name, sizeof(name), "fd%lu.out", fd);
		if (g.append) {
			r = sys4(__NR_openat, g.outdir, name,
				 O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
			if (r >= 0) {
				long end = sys3(__NR_lseek, r, 0, 2 /* SEEK_END */);

				g.outoff[fd] = end > 0 ? (uint64_t)end : 0;
				goto opened;
			}
			die(FR_EXIT_FAIL, "cannot open output file %s: %s%s", name, errname(r),
			    r == -ELOOP ? " (a symbolic link: never followed)" : "");
		}
		if (g.force) {
			r = sys3(__NR_unlinkat, g.outdir, name, 0);
			if (r && r != -ENOENT)
				die(FR_EXIT_FAIL, "cannot replace output file %s: %s", name,
				    errname(r));
		}
		r = sys4(__NR_openat, g.outdir, name,
			 O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (r < 0)
			die(FR_EXIT_FAIL, "cannot create output file %s: %s%s", name, errname(r),
			    r == -EEXIST ? " (it exists; never overwritten: --force replaces it)" :
			    r == -ELOOP ? " (a symbolic link: never followed)" : "");
opened:
		if (g.n_outfds < FR_SANDBOX_MAX_FDS)
			g.sb.fds[g.n_outfds++] = (int)r;
		else
			die(FR_EXIT_FAIL, "more than %d output files", FR_SANDBOX_MAX_FDS);
		g.outfd[fd] = (int)r;
	}
	sys1(__NR_close, g.outdir);
	g.outdir = -1;
}

/*
 * off: where in the file (the output files), or NULL (fd 1, 2).  An output
 * file is written at offsets this process keeps: the gdbserver's snapshots
 * of the replay are forks that share the file's offset, and one resumed
 * later writes where its own past left off.
 */
static void write_all(int fd, const void *buf, uint64_t len, uint64_t *off)
{
	const char *p = buf;

	while (len) {
		long r = off ? sys4(__NR_pwrite64, fd, p, len, *off) : sys_write(fd, p, len);

		if (r <= 0)
			die(FR_EXIT_FAIL, "cannot write output: %s", errname(r));
		p += r;
		len -= (uint64_t)r;
		if (off)
			*off += (uint64_t)r;
	}
}

static void emit(uint64_t fd, const void *buf, uint64_t len)
{
	int f = out_file(fd);

	if (f >= 0)
		write_all(f, buf, len, &g.outoff[fd >= 1024 ? 1023 : fd]);
	if ((g.flags & FRI_F_SHOW_OUTPUT) && (fd == 1 || fd == 2))
		write_all((int)fd, buf, len, NULL);
}

struct iov {
	uint64_t base, len;
};

static void emit_iov(uint64_t fd, const struct iov *iov, uint64_t cnt, uint64_t total)
{
	uint64_t i;

	for (i = 0; i < cnt && total; i++) {
		uint64_t n = iov[i].len < total ? iov[i].len : total;

		emit(fd, (const void *)iov[i].base, n);
		total -= n;
	}
}

static void replay_output(const struct fri_syscall *s)
{
	uint64_t fd = s->args[0], n = (uint64_t)s->ret;

	if (!is_output(s))
		return;
	switch (s->in_kind) {
	case FR_SZ_ARG: {
		uint64_t len = s->args[s->in_p1 % 6] * (s->in_p2 ? s->in_p2 : 1);

		emit(fd, (const void *)s->args[s->in_arg], len < n ? len : n);
		break;
	}
	case FR_SZ_IOV:
		emit_iov(fd, (const void *)s->args[s->in_arg], s->args[s->in_p1 % 6], n);
		break;
	case FR_SZ_MSGHDR: {
		const uint64_t *msg = (const void *)s->args[s->in_arg];

		/* struct msghdr: name, namelen, iov, iovlen, ... */
		emit_iov(fd, (const void *)msg[2], msg[3], n);
		break;
	}
	default:
		break;
	}
}

/*
 * Under gdb, the pages of a copy into the application are read (the
 * checkpoint's side) and written (the application's: a byte stored back
 * as it is) one instruction each before the copy, so that the copy's `rep
 * movs` takes no page fault.  A watchpoint on the application's buffer
 * fires inside that instruction, and QEMU 10.0.2's emulation (TCG) drops
 * the report when a later step of the same instruction faults (measured: a
 * copy over two pages, the second shared copy-on-write by a fork, stopped
 * none of 5 times).  The architecture reports it after the iteration that
 * hit, and QEMU 7.2 does (5 of 5).  The gdbserver's snapshots fork the
 * replay at its events, which left the pages of the next read()'s buffer
 * shared: gdb's `watch` on it missed stops.
 */
static void touch_pages(const uint8_t *src, uint8_t *dst, uint64_t len)
{
	uint64_t off = 0;

	while (off < len) {
		volatile const uint8_t *s = src + off;
		volatile uint8_t *d = dst + off;
		uint64_t step = FRI_PAGE_SIZE - ((uint64_t)(dst + off) & (FRI_PAGE_SIZE - 1));

		if (step > len - off)
			step = len - off;
		(void)*s;
		*d = *d;
		/* the checkpoint's pages are not aligned with the application's */
		if (((uint64_t)(src + off) & (FRI_PAGE_SIZE - 1)) + step > FRI_PAGE_SIZE)
			(void)*(s + step - 1);
		off += step;
	}
}

static void copy_outs(const struct fri_syscall *s)
{
	const struct fri_out *o = (const void *)(g.base + s->out_off);
	uint32_t i;

	for (i = 0; i < s->n_out; i++) {
		if (g.flags & FRI_F_GDB)
			touch_pages(g.base + o[i].data_off, (uint8_t *)o[i].addr, o[i].len);
		memcpy((void *)o[i].addr, g.base + o[i].data_off, o[i].len);
	}
}

static uint64_t page_up(uint64_t x)
{
	return (x + FRI_PAGE_SIZE - 1) & ~(FRI_PAGE_SIZE - 1);
}

static void check_real(struct lthread *t, const struct fri_syscall *s, struct sigcontext *mc,
		       long r, long want)
{
	char buf[128];

	if (r == want)
		return;
	fmt(buf, sizeof(buf), "re-executing %s here returned %ld (%s), the recording %ld",
	    scname(s->nr), r, r < 0 ? errname(r) : "ok", want);
	diverged(t, s, mc, buf);
}

static void replay_addrspace(struct lthread *t, const struct fri_syscall *s,
			     struct sigcontext *mc)
{
	const uint64_t *a = s->args;
	long r;

	if (s->ret < 0 && s->nr != __NR_brk)
		return;		/* it failed when recorded: nothing changed */
	switch (s->nr) {
	case __NR_mmap: {
		uint64_t addr = (uint64_t)s->ret, len = page_up(a[1]);

		r = map_anon(addr, len, a[3] & MAP_GROWSDOWN);
		check_real(t, s, mc, r, 0);
		fill_deferred(addr, addr + len, s->interval);
		copy_outs(s);	/* a file's bytes, when the record carries them */
		r = sys3(__NR_mprotect, addr, len, a[2]);
		check_real(t, s, mc, r, 0);
		core_map(addr, addr + len, (uint32_t)a[2]);
		break;
	}
	case __NR_munmap:
		if (in_window(a[0], a[0] + page_up(a[1])))
			diverged(t, s, mc, "munmap of the loader's window");
		r = sys2(__NR_munmap, a[0], a[1]);
		check_real(t, s, mc, r, s->ret);
		core_unmap(a[0], a[0] + page_up(a[1]));
		fm_forget(a[0], a[0] + page_up(a[1]));
		break;
	case __NR_mprotect:
	case __NR_pkey_mprotect:
		if (in_window(a[0], a[0] + page_up(a[1])))
			diverged(t, s, mc, "mprotect of the loader's window");
		r = sys3(__NR_mprotect, a[0], a[1], a[2]);
		if (r && fm_any(a[0], a[0] + page_up(a[1])) &&
		    !fm_to_anon(a[0], a[0] + page_up(a[1]), 1))
			r = sys3(__NR_mprotect, a[0], a[1], a[2]);
		check_real(t, s, mc, r, s->ret);
		fm_protect(a[0], a[0] + page_up(a[1]), (uint32_t)a[2]);
		core_protect(a[0], a[0] + page_up(a[1]), (uint32_t)a[2]);
		keep_nodump_none(a[0], a[0] + page_up(a[1]));
		break;
	case __NR_mremap: {
		uint64_t to = (uint64_t)s->ret, oldlen = page_up(a[1]), newlen = page_up(a[2]);

		if (in_window(to, to + newlen) || in_window(a[0], a[0] + oldlen))
			diverged(t, s, mc, "mremap into the loader's window");
		r = fm_flatten(a[0], a[0] + oldlen);
		check_real(t, s, mc, r, 0);
		if (to == a[0])
			r = sys5(__NR_mremap, a[0], a[1], a[2], 0, 0);
		else
			r = sys5(__NR_mremap, a[0], a[1], a[2],
				 MREMAP_MAYMOVE | MREMAP_FIXED | (a[3] & MREMAP_DONTUNMAP), to);
		check_real(t, s, mc, r, s->ret);
		fm_forget(to, to + newlen);
		if (newlen > oldlen)
			fill_deferred(to + oldlen, to + newlen, s->interval);
		if (!(a[3] & MREMAP_DONTUNMAP) || to == a[0])
			core_move(a[0], oldlen, to, newlen);
		else
			core_map(to, to + newlen, PROT_READ | PROT_WRITE);
		break;
	}
	case __NR_brk: {
		uint64_t old = page_up(g.brk), new = page_up((uint64_t)s->ret);

		if (!g.brk) {	/* the start of the heap was not recorded: learn it */
			g.brk = (uint64_t)s->ret;
			break;
		}
		if (new > old) {
			r = map_anon(old, new - old, 0);
			check_real(t, s, mc, r, 0);
			fill_deferred(old, new, s->interval);
			core_map(old, new, PROT_READ | PROT_WRITE);
		} else if (new < old) {
			r = sys2(__NR_munmap, new, old - new);
			check_real(t, s, mc, r, 0);
			core_unmap(new, old);
			fm_forget(new, old);
		}
		g.brk = (uint64_t)s->ret;
		break;
	}
	case __NR_madvise:
		if (a[2] == MADV_DONTNEED || a[2] == MADV_REMOVE) {
			r = sys3(__NR_madvise, a[0], a[1], MADV_DONTNEED);
			check_real(t, s, mc, r, s->ret);
			/* zeros, as anonymous memory gives, not the image's bytes */
			r = fm_to_anon(a[0], a[0] + page_up(a[1]), 0);
			check_real(t, s, mc, r, 0);
		}
		break;
	default:
		/* mlock, msync, ...: their result is all the application sees */
		break;
	}
}

static void replay_threadarea(struct lthread *t, const struct fri_syscall *s,
			      struct sigcontext *mc)
{
	long r;

	switch (s->nr) {
	case __NR_arch_prctl:
		if (s->ret == 0 && (s->args[0] == ARCH_SET_FS || s->args[0] == ARCH_SET_GS)) {
			r = sys2(__NR_arch_prctl, s->args[0], s->args[1]);
			check_real(t, s, mc, r, 0);
			*(s->args[0] == ARCH_SET_FS ? &t->fs_base : &t->gs_base) = s->args[1];
		}
		break;
	case __NR_set_tid_address:
		t->clear_child_tid = s->args[0];
		break;
	case __NR_rseq:
		/*
		 * Not registered with this kernel (it would write the area at its
		 * will), but the writes the application relies on are done: at
		 * registration the kernel sets cpu_id_start and cpu_id (glibc's
		 * pthread_create registers rseq in new threads only if the
		 * creator's cpu_id is >= 0); at unregistration cpu_id becomes
		 * RSEQ_CPU_ID_UNINITIALIZED.  The CPU is called 0.
		 */
		if (s->ret == 0 && s->args[0]) {
			volatile uint32_t *area = (volatile uint32_t *)s->args[0];

			area[0] = 0;
			area[1] = (s->args[2] & 1) ? 0xffffffffU : 0;
			/* the recorded CPU follows (rseq_write) where the record has it */
			t->rseq = (s->args[2] & 1) ? 0 : s->args[0];
		}
		break;
	default:
		/* set_robust_list, ...: emulated, the kernel must not act on them */
		break;
	}
}

/*
 * What the kernel wrote into the thread's rseq area on its way back to user
 * space after record s, when the recorder noted it (it does when it changed
 * since the thread's previous record): cpu_id_start and cpu_id, and node_id
 * and mm_cid where the recording kernel writes them (issue 25, class 11).
 */
static void rseq_write(const struct lthread *t, const struct fri_syscall *s)
{
	volatile uint32_t *area = (volatile uint32_t *)t->rseq;

	if (!area || !(s->flags & FRI_S_RSEQ_CPU))
		return;
	if (t->rseq + 32 > 0x800000000000ULL || in_window(t->rseq, t->rseq + 32))
		die(FR_EXIT_BADFILE, "thread %u: its rseq area at 0x%lx is outside user space "
		    "or in the loader's window: a damaged or crafted checkpoint", t->tid, t->rseq);
	area[0] = s->rseq_cpu;		/* cpu_id_start */
	area[1] = s->rseq_cpu;		/* cpu_id */
	if (s->flags & FRI_S_RSEQ_NODE) {
		area[5] = s->rseq_node;	/* node_id, at 20 */
		area[6] = s->rseq_cid;	/* mm_cid, at 24 */
	}
}

static int rec_is_last(const struct fri_syscall *s)
{
	return s->next_same_tid == FRI_NO_NEXT;
}

/* -------------------------------------------------------------------- */
/* The core file (core.c, flightrec replay --core) */

static uint64_t fp_frame_size(void);

/* a thread's registers as a core holds them: in a syscall, rax -ENOSYS and orig_rax its number */
static void regs_of(const struct lthread *t, const struct sigcontext *mc, int in_syscall,
		    struct fri_regs *r)
{
	memset(r, 0, sizeof(*r));
	r->r15 = mc->r15;
	r->r14 = mc->r14;
	r->r13 = mc->r13;
	r->r12 = mc->r12;
	r->rbp = mc->rbp;
	r->rbx = mc->rbx;
	r->r11 = mc->r11;
	r->r10 = mc->r10;
	r->r9 = mc->r9;
	r->r8 = mc->r8;
	r->rax = in_syscall ? (uint64_t)-ENOSYS : mc->rax;
	r->rcx = mc->rcx;
	r->rdx = mc->rdx;
	r->rsi = mc->rsi;
	r->rdi = mc->rdi;
	r->orig_rax = in_syscall ? mc->rax : (uint64_t)-1;
	r->rip = mc->rip;
	r->cs = mc->cs;
	r->eflags = mc->eflags;
	r->rsp = mc->rsp;
	r->ss = mc->ss;
	r->fs_base = t->fs_base;
	r->gs_base = t->gs_base;
}

/* each entry into the loader: the registers the core shows for a thread that is not the last */
static void note_regs(struct lthread *t, const struct sigcontext *mc, int in_syscall)
{
	if ((g.corefd < 0 && g.gdbfd < 0) || !t)
		return;
	regs_of(t, mc, in_syscall, &t->last);
	t->has_last = 1;
}

/*
 * The replay's end: the application as a core file.  The thread that ended
 * it with its registers and FPU state now; the others with their registers
 * as they last entered the loader (at a system call, parked, in a serial
 * replay: exact).
 */
static void write_core(struct lthread *t, const struct ucontext *uc, int sig, int code,
		       uint64_t addr, int in_syscall)
{
	static struct core_thread ct[MAX_THREADS];
	struct core_info ci;
	const char *why;
	uint32_t n = 0, i;
	uint64_t fs = 0, gs = 0;
	long r;

	if (g.corefd < 0)
		return;
	sys2(__NR_arch_prctl, ARCH_GET_FS, &fs);
	sys2(__NR_arch_prctl, ARCH_GET_GS, &gs);
	t->fs_base = fs;
	t->gs_base = gs;
	memset(&ct[0], 0, sizeof(ct[0]));
	ct[0].tid = t->tid;
	regs_of(t, &uc->uc_mcontext, in_syscall, &ct[0].regs);
	ct[0].fp = uc->uc_mcontext.fpstate;
	ct[0].fp_size = ct[0].fp ? (uint32_t)fp_frame_size() : 0;
	ct[0].sigmask = t->app_mask;
	n = 1;
	for (i = 0; i < MAX_THREADS; i++) {
		const struct lthread *o = &threads[i];

		if (!o->used || o == t || !o->has_last)
			continue;
		memset(&ct[n], 0, sizeof(ct[n]));
		ct[n].tid = o->tid;
		ct[n].regs = o->last;
		ct[n].sigmask = o->app_mask;
		n++;
	}
	memset(&ci, 0, sizeof(ci));
	ci.fd = g.corefd;
	ci.pid = (int)g.h->pid;
	ci.sig = sig;
	ci.code = code;
	ci.fault_addr = addr;
	ci.comm = g.h->comm;
	ci.regions = g.regions;
	ci.n_regions = g.h->n_regions;
	ci.base = g.base;
	ci.auxv = g.h->n_auxv ? (const uint64_t *)(g.base + g.h->auxv_off) : NULL;
	ci.threads = ct;
	ci.n_threads = n;
	r = core_write(&ci, &why);
	g.corefd = -1;		/* not closed: the sandbox allows no close, and the end is near */
	if (r)
		fdprintf(2, PFX "cannot write the core file: %s: %s\n", why, errname(r));
	else if (!(g.flags & FRI_F_QUIET))
		fdprintf(2, PFX "wrote the core file: %u thread%s, %s\n", n, n == 1 ? "" : "s",
			 sig ? signame(sig) : in_syscall ? "in a system call" : "no signal");
}

static __attribute__((noreturn)) void finish_exit(struct lthread *t, const struct fri_syscall *s,
						 const struct ucontext *uc)
{
	const struct fri_end *e = &g.h->end;
	int status = (int)(s->args[0] & 0xff);

	print_times("end");
	write_core(t, uc, 0, 0, 0, 1);
	if (e->kind == FLIGHTREC_END_EXIT) {
		int rec = (int)((e->exit_code >> 8) & 0xff);

		if ((e->exit_code & 0x7f) == 0 && rec != status) {
			fdprintf(2, PFX "MISMATCH: exited with status %d, the recording with %d\n",
				 status, rec);
			sys_exit_group(FR_EXIT_MISMATCH);
		}
		fdprintf(2, PFX "exited with status %d (thread %u, seq %lu), as recorded\n",
			 status, t->tid, s->seq);
		sys_exit_group(FR_EXIT_OK);
	}
	fdprintf(2, PFX "exited with status %d (thread %u, seq %lu), as the log says; "
		 "the recording ended with %s\n", status, t->tid, s->seq,
		 e->kind == FLIGHTREC_END_FAULT ? "a fault" : "a dump");
	sys_exit_group(e->kind == FLIGHTREC_END_EXIT ? FR_EXIT_OK : FR_EXIT_MISMATCH);
}

static void app_write_u32(uint64_t addr, uint32_t v);
static void clear_pending_addr(uint64_t addr);

static void replay_clone(struct lthread *t, const struct fri_syscall *s, struct ucontext *uc)
{
	struct sigcontext *mc = &uc->uc_mcontext;
	uint64_t flags, stack = 0, ptid, ctid, tls, i;
	struct lthread *c;
	struct fri_regs r;
	uint64_t fs = 0, gs = 0;

	if (s->ret <= 0)
		return;
	if (s->nr == __NR_clone3) {
		const uint64_t *ca = (const void *)s->args[0];

		/* struct clone_args: flags pidfd child_tid parent_tid exit_signal stack stack_size tls */
		flags = ca[0];
		ctid = ca[2];
		ptid = ca[3];
		if (ca[5])
			stack = ca[5] + ca[6];
		tls = ca[7];
	} else if (s->nr == __NR_clone) {
		flags = s->args[0];
		stack = s->args[1];
		ptid = s->args[2];
		ctid = s->args[3];
		tls = s->args[4];
	} else {
		return;		/* fork, vfork: the child is another process */
	}
	if (!(flags & CLONE_THREAD))
		return;
	if (!(flags & CLONE_VM))
		diverged(t, s, mc, "clone of a thread without CLONE_VM");
	for (i = (uint64_t)(s - g.sc) + 1; i < g.h->n_syscalls; i++)
		if (g.sc[i].tid == (uint32_t)s->ret)
			break;
	c = new_thread((uint32_t)s->ret, i < g.h->n_syscalls ? i : FRI_NO_NEXT);
	c->app_mask = t->app_mask;
	c->app_ss_flags = 2;	/* SS_DISABLE: a new thread has no sigaltstack */
	alloc_slot(c);
	if (flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID))
		clear_pending_addr(ctid);
	if (flags & CLONE_PARENT_SETTID)
		app_write_u32(ptid, (uint32_t)s->ret);
	if (flags & CLONE_CHILD_SETTID)
		app_write_u32(ctid, (uint32_t)s->ret);
	if (flags & CLONE_CHILD_CLEARTID)
		c->clear_child_tid = ctid;
	memset(&r, 0, sizeof(r));
	r.r8 = mc->r8; r.r9 = mc->r9; r.r10 = mc->r10; r.r11 = mc->r11;
	r.r12 = mc->r12; r.r13 = mc->r13; r.r14 = mc->r14; r.r15 = mc->r15;
	r.rdi = mc->rdi; r.rsi = mc->rsi; r.rbp = mc->rbp; r.rbx = mc->rbx;
	r.rdx = mc->rdx; r.rcx = mc->rcx; r.rip = mc->rip; r.eflags = mc->eflags;
	r.rax = 0;
	r.rsp = stack ? stack : mc->rsp;
	prepare_frame(c, &r);
	prepare_fp(c, (const uint8_t *)mc->fpstate, g.have_xsave ? g.sw.xstate_size : 512);
	sys2(__NR_arch_prctl, ARCH_GET_FS, &fs);
	sys2(__NR_arch_prctl, ARCH_GET_GS, &gs);
	if (flags & CLONE_SETTLS)
		fs = tls;
	spawn(c, fs, gs);
}

static void end_of_log(struct lthread *t, struct ucontext *uc, int after);
static int compare_regs(struct ucontext *uc, const struct fri_regs *w, int quiet);

/* ---- The application's signals, emulated ---- */

#define SS_ONSTACK_	1
#define SS_DISABLE_	2
#define SA_NODEFER_	0x40000000UL
#define SA_RESETHAND_	0x80000000UL
#define SA_ONSTACK_	0x08000000UL

static void app_signal_state(struct lthread *t, const struct fri_thread *th)
{
	t->app_mask = th->sigmask;
	t->app_ss_sp = th->ss_sp;
	t->app_ss_size = th->ss_size;
	t->app_ss_flags = th->ss_flags;
}

/*
 * The temporary signal mask a call that was interrupted waits with
 * (rt_sigsuspend, ppoll, pselect6, epoll_pwait, epoll_pwait2): the signals
 * delivered at its return are delivered under it, the first frame keeps
 * the mask the thread had, and the kernel puts that mask back when no
 * handler runs (restore_sigmask).  Returns 0 when the call has none.
 */
/* an iovec of process_vm_readv/writev */
struct lvec {
	void *base;
	uint64_t len;
};

/* len bytes of application memory at addr, without a fault; 0 or -1 */
static int app_read(void *dst, uint64_t addr, uint64_t len)
{
	struct lvec l = { dst, len }, rv = { (void *)addr, len };

	return sys6(__NR_process_vm_readv, sys0(__NR_getpid), (long)&l, 1, (long)&rv, 1, 0) ==
	       (long)len ? 0 : -1;
}

/*
 * A word the kernel writes into the application with put_user, ignoring a
 * fault (the tid words of clone and set_tid_address): the same here, so a
 * word at an address that is not writable any more (or never was: a
 * program may give set_tid_address any pointer) is left alone, not a crash
 * of the replay (issue 25, class 9).
 */
static void app_write_u32(uint64_t addr, uint32_t v)
{
	struct lvec l = { &v, sizeof(v) }, rv = { (void *)addr, sizeof(v) };
	long r = sys6(__NR_process_vm_writev, sys0(__NR_getpid), (long)&l, 1, (long)&rv, 1, 0);

	if (r == -ENOSYS || r == -EPERM)	/* not offered here: as before */
		*(volatile uint32_t *)addr = v;
}

static int temp_mask(const struct fri_syscall *s, uint64_t *mask)
{
	const uint64_t *a = s->args;
	uint64_t p = 0, size = 0, ps[2];

	switch (s->nr) {
	case __NR_rt_sigsuspend:
		p = a[0];
		size = a[1];
		break;
	case __NR_ppoll:
		p = a[3];
		size = a[4];
		break;
	case __NR_epoll_pwait:
	case __NR_epoll_pwait2:
		p = a[4];
		size = a[5];
		break;
	case __NR_pselect6:
		if (!a[5] || app_read(ps, a[5], sizeof(ps)))
			return 0;
		p = ps[0];
		size = ps[1];
		break;
	default:
		return 0;
	}
	if (!p || size != 8 || app_read(mask, p, 8))
		return 0;
	*mask &= ~((1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1)));
	return 1;
}

/* What the recorded calls changed: dispositions, mask, sigaltstack. */
static void track_signal_calls(struct lthread *t, const struct fri_syscall *s)
{
	const uint64_t *a = s->args;

	if (s->ret != 0)
		return;
	switch (s->nr) {
	case __NR_rt_sigaction:
		if (a[1] && a[0] >= 1 && a[0] <= 64)
			memcpy(&g.sa[a[0]], (const void *)a[1], sizeof(g.sa[0]));
		break;
	case __NR_rt_sigprocmask:
		if (a[1]) {
			uint64_t set = *(const uint64_t *)a[1];

			if (a[0] == 0)
				t->app_mask |= set;
			else if (a[0] == 1)
				t->app_mask &= ~set;
			else
				t->app_mask = set;
		}
		break;
	case __NR_sigaltstack:
		if (a[0]) {
			const uint64_t *ss = (const void *)a[0];

			t->app_ss_sp = ss[0];
			t->app_ss_flags = (uint32_t)ss[1];
			t->app_ss_size = ss[2];
		}
		break;
	default:
		break;
	}
}

static int app_on_altstack(const struct lthread *t, uint64_t sp)
{
	return t->app_ss_size && sp > t->app_ss_sp && sp - t->app_ss_sp <= t->app_ss_size;
}

/* The FPU state in a signal frame here: what the loader's frames hold. */
static uint64_t fp_frame_size(void)
{
	return g.have_xsave ? g.sw.extended_size : 512;
}

/*
 * The room the recording kernel gave the FPU state in a frame (its XSAVE
 * size + the end magic), so that a handler's stack addresses are the
 * recorded ones; this kernel's when unknown.
 */
static uint64_t fp_frame_room(void)
{
	if (g.have_xsave && g.h->rec_xstate_size >= 576 && g.h->rec_xstate_size < 0x10000)
		return g.h->rec_xstate_size + FP_XSTATE_MAGIC2_SIZE;
	return fp_frame_size();
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * The frame the recording kernel wrote for signal record @fs, when it was
 * recorded and is the one to write here: at @sp, with the FPU state at @fp,
 * for the context @mc.  Returns NULL when deliver() is to build one.
 */
static const struct sigframe *recorded_frame(const struct fri_signal *fs, uint64_t sp,
					     uint64_t fp, const struct sigcontext *mc)
{
	const struct sigframe *rf;

	if (!fs || !fs->frame_len || fs->frame_addr != sp || fs->frame_len < sizeof(*rf))
		return NULL;
	rf = (const struct sigframe *)(g.base + fs->frame_off);
	if ((uint64_t)rf->uc.uc_mcontext.fpstate != fp || rf->uc.uc_mcontext.rip != mc->rip ||
	    rf->uc.uc_mcontext.rsp != mc->rsp)
		return NULL;
	return rf;
}

/*
 * Delivers a signal to the application's handler as the kernel would: an
 * rt_sigframe on its stack (or sigaltstack) holding the interrupted
 * context, its FPU state and the siginfo; the handler runs with a fresh FPU
 * state and returns through its sa_restorer to rt_sigreturn, which the
 * loader replays (replay_sigreturn).  With the frame the recording kernel
 * wrote (@fs, when recorded), the stack gets exactly its bytes: what the
 * kernel leaves untouched in a frame (padding, reserved words, the XSAVE
 * areas of features not in use) is then as it was when recorded, for the
 * application may read it later as uninitialised memory (issue 25,
 * class 10).
 */
static void deliver(struct lthread *t, int sig, siginfo_t *si, struct ucontext *uc,
		    const struct fri_signal *fs)
{
	const struct sigframe *rf;
	struct sigcontext *mc = &uc->uc_mcontext;
	struct app_sigaction *sa = &g.sa[sig];
	uint64_t sp = mc->rsp - 128, fp;
	struct sigframe *f;
	uint8_t *lfp = mc->fpstate;

	if ((sa->flags & SA_ONSTACK_) && !(t->app_ss_flags & SS_DISABLE_) && t->app_ss_size &&
	    !app_on_altstack(t, mc->rsp))
		sp = t->app_ss_sp + t->app_ss_size;
	fp = (sp - fp_frame_room()) & ~63UL;
	sp = ((fp - sizeof(struct sigframe)) & ~15UL) - 8;
	f = (struct sigframe *)sp;
	rf = recorded_frame(fs, sp, fp, mc);
	if (rf) {
		memcpy(f, rf, fs->frame_len);
		goto regs;
	}
	if (lfp && g.xconv) {
		/* the recorded layout, as the frames recorded_frame() gives */
		xsave_move((uint8_t *)fp, fp_frame_room() - FP_XSTATE_MAGIC2_SIZE, lfp, 0);
		*(uint32_t *)(fp + fp_frame_room() - FP_XSTATE_MAGIC2_SIZE) = FP_XSTATE_MAGIC2;
	} else if (lfp) {
		memcpy((void *)fp, lfp, min_u64(fp_frame_size(), fp_frame_room()));
	}
	memset(f, 0, sizeof(*f));
	f->pretcode = sa->restorer;
	f->uc.uc_flags = uc->uc_flags;
	f->uc.uc_stack.ss_sp = (void *)t->app_ss_sp;
	f->uc.uc_stack.ss_size = t->app_ss_size;
	f->uc.uc_stack.ss_flags = (int)(t->app_ss_flags & SS_DISABLE_ ? SS_DISABLE_ :
					app_on_altstack(t, mc->rsp) ? SS_ONSTACK_ : 0);
	f->uc.uc_mcontext = *mc;
	f->uc.uc_mcontext.fpstate = lfp ? (void *)fp : NULL;
	f->uc.uc_sigmask = t->restore_mask ? t->saved_mask : t->app_mask;
	memcpy(&f->info, si, sizeof(f->info));
regs:
	t->restore_mask = 0;	/* the frame holds the mask to come back */
	t->app_mask |= sa->mask | (sa->flags & SA_NODEFER_ ? 0 : 1UL << (sig - 1));
	mc->rip = sa->handler;
	mc->rsp = sp;
	mc->rdi = (uint64_t)sig;
	mc->rsi = (uint64_t)&f->info;
	mc->rdx = (uint64_t)&f->uc;
	mc->rax = 0;
	mc->eflags &= ~(0x400UL | 0x10000UL | 0x100UL);	/* DF RF TF */
	if (sa->flags & SA_RESETHAND_)
		sa->handler = 0;
	if (lfp) {	/* the handler starts with a clean FPU */
		*(uint16_t *)lfp = 0x37f;
		*(uint32_t *)(lfp + 24) = 0x1f80;
		if (g.have_xsave)
			*(uint64_t *)(lfp + 512) = 0;
	}
}

/* rt_sigreturn from the application's handler: its frame is at rsp. */
static void replay_sigreturn(struct lthread *t, struct ucontext *uc)
{
	struct sigcontext *mc = &uc->uc_mcontext;
	const struct ucontext *au = (const struct ucontext *)mc->rsp;
	const struct sigcontext *am = &au->uc_mcontext;
	void *lfp = mc->fpstate;

	mc->r8 = am->r8; mc->r9 = am->r9; mc->r10 = am->r10; mc->r11 = am->r11;
	mc->r12 = am->r12; mc->r13 = am->r13; mc->r14 = am->r14; mc->r15 = am->r15;
	mc->rdi = am->rdi; mc->rsi = am->rsi; mc->rbp = am->rbp; mc->rbx = am->rbx;
	mc->rdx = am->rdx; mc->rax = am->rax; mc->rcx = am->rcx; mc->rsp = am->rsp;
	mc->rip = am->rip;
	mc->eflags = (mc->eflags & ~0x50dd5UL) | (am->eflags & 0x50dd5UL);
	if (lfp && am->fpstate) {
		struct _fpx_sw_bytes sw;

		/*
		 * The frame may be the recording kernel's (deliver()): its
		 * software bytes and XSAVE header name the recording CPU's
		 * features; this kernel restores what this CPU has.
		 */
		memcpy(&sw, (uint8_t *)lfp + 464, sizeof(sw));
		if (g.xconv)
			xsave_move(lfp, fp_frame_size() - FP_XSTATE_MAGIC2_SIZE,
				   (const uint8_t *)am->fpstate, 1);
		else
			memcpy(lfp, am->fpstate, min_u64(fp_frame_size(), fp_frame_room()) -
			       FP_XSTATE_MAGIC2_SIZE);
		memcpy((uint8_t *)lfp + 464, &sw, sizeof(sw));
		if (g.have_xsave) {
			*(uint64_t *)((uint8_t *)lfp + 512) &= g.sw.xfeatures;
			*(uint64_t *)((uint8_t *)lfp + 520) = 0;	/* XCOMP_BV: standard form */
		}
	}
	t->app_mask = au->uc_sigmask;
	if (!(au->uc_stack.ss_flags & SS_ONSTACK_)) {
		t->app_ss_sp = (uint64_t)au->uc_stack.ss_sp;
		t->app_ss_size = au->uc_stack.ss_size;
		t->app_ss_flags = (uint32_t)au->uc_stack.ss_flags;
	}
}

/*
 * The kernel clears a dying thread's clear_child_tid word (and wakes its
 * futex) just after the thread's exit entry.  Replay clears it at the exit
 * record, unless the log shows a futex wait on that word, for that thread's
 * tid, that was entered before the clear: one woken by it (0), or one that
 * found the word changed under it (EAGAIN).  Then the clear happens when
 * that wait is replayed, so the waiter's check of the word, just before its
 * futex call, still sees the thread alive, as it did when recorded
 * (pthread_join racing the thread's exit).  A wait that ended otherwise (a
 * timeout, a signal) saw the word still set: the clear comes after it.  The
 * search ends at any other futex call on the word, at a wait for another
 * value (the word has a new owner), and at a clone that names the word:
 * glibc gives a new thread a finished one's stack, tid word included, only
 * once the kernel has cleared it.  A clone3's word is in its clone_args,
 * which hold what the program writes later: replay_clone() makes a clear
 * still pending for the word it names happen then (clear_pending_addr()).
 */
static int is_futex_wait(const struct fri_syscall *s)
{
	int cmd = (int)(s->args[1] & FUTEX_CMD_MASK);

	return s->nr == __NR_futex &&
	       (cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET);
}

static struct {
	uint64_t addr, at;		/* clear addr after record at */
} pending[MAX_THREADS];

/*
 * How far the search looks: the wait it looks for was entered within
 * moments of the exit (the waiter checked the word before the clear), and
 * a program that makes threads without joining them (detached, or a word
 * no one waits on) would have every exit search the whole log.
 */
#define TID_SCAN_MAX	4096

static void clear_tid_later(uint64_t idx, uint64_t addr, uint32_t tid)
{
	uint64_t i, end = g.h->n_syscalls;
	unsigned int k;

	if (end - idx > TID_SCAN_MAX)
		end = idx + TID_SCAN_MAX;
	for (i = idx + 1; i < end; i++) {
		const struct fri_syscall *s = &g.sc[i];

		if (s->nr == __NR_clone && s->kind == FRI_K_CLONE && s->args[3] == addr &&
		    (s->args[0] & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)))
			break;	/* a new thread takes the word (a reused stack) */
		if (s->nr != __NR_futex || s->args[0] != addr)
			continue;
		if (!is_futex_wait(s) || (uint32_t)s->args[2] != tid)
			break;
		if (s->ret != 0 && s->ret != -EAGAIN)
			continue;	/* timed out, interrupted: the word was set */
		for (k = 0; k < MAX_THREADS; k++)
			if (!pending[k].addr) {
				pending[k].addr = addr;
				pending[k].at = i;
				return;
			}
		break;
	}
	app_write_u32(addr, 0);
}

static void clear_pending(uint64_t idx)
{
	unsigned int k;

	for (k = 0; k < MAX_THREADS; k++)
		if (pending[k].addr && pending[k].at == idx) {
			app_write_u32(pending[k].addr, 0);
			pending[k].addr = 0;
		}
}

/* A clone names addr as its new thread's tid word: a clear still pending there came first. */
static void clear_pending_addr(uint64_t addr)
{
	unsigned int k;

	for (k = 0; k < MAX_THREADS; k++)
		if (pending[k].addr == addr) {
			app_write_u32(addr, 0);
			pending[k].addr = 0;
		}
}

/* ---- Recorded signals (FLIGHTREC_NR_SIGNAL records, kind FRI_K_SIGNAL) ---- */

static const struct fri_signal *sig_of(const struct fri_syscall *s)
{
	return (const struct fri_signal *)(g.base + s->out_off);
}

static const struct fri_syscall *next_rec(const struct lthread *t)
{
	return t->cur == FRI_NO_NEXT ? NULL : &g.sc[t->cur];
}

/* A signal record whose FLIGHTREC_SIG_* flags, under mask, are want. */
static int is_signal_rec(const struct fri_syscall *s, uint32_t mask, uint32_t want)
{
	return s && s->kind == FRI_K_SIGNAL && (sig_of(s)->flags & mask) == want;
}

/*
 * A record placed in user code, at an instruction the thread reaches with
 * the recorded registers: a signal that interrupted user code, or a serial
 * recording's preemption (FRI_K_PREEMPT: sig_of() gives its registers).
 */
static int is_in_user_rec(const struct fri_syscall *s)
{
	return (s && s->kind == FRI_K_PREEMPT) ||
	       is_signal_rec(s, FLIGHTREC_SIG_SYNC | FLIGHTREC_SIG_IN_USER, FLIGHTREC_SIG_IN_USER);
}

/*
 * A preemption record's divergence: the thread did something else before
 * it reached the instruction where the recording made it yield.
 */
static __attribute__((noreturn)) void preempt_diverged(struct lthread *t,
							const struct fri_syscall *s,
							struct sigcontext *mc, const char *why,
							const char *got)
{
	fdprintf(2, PFX "DIVERGED: thread %u, seq %lu, rip 0x%lx: %s\n"
		 PFX "  expected the thread at rip 0x%lx (rsp 0x%lx), where the serial recording "
		 "made it yield in user code\n" PFX "  got      %s\n",
		 t->tid, s->seq, mc->rip, why, sig_of(s)->regs.rip, sig_of(s)->regs.rsp, got);
	print_times("diverged");
	sys_exit_group(FR_EXIT_DIVERGED);
}

#define SIG_PLACE (FLIGHTREC_SIG_SYNC | FLIGHTREC_SIG_IN_USER | FLIGHTREC_SIG_RESTART)

static void fmt_signal(char *buf, size_t size, const struct fri_signal *fs)
{
	int n = fmt(buf, size, "%s (%d) code %d at rip 0x%lx", signame(fs->signo), fs->signo,
		    fs->si_code, fs->rip);

	if (n >= (int)size)
		return;
	if (fs->flags & FLIGHTREC_SIG_SYNC)
		fmt(buf + n, size - n, ", raised by that instruction");
	else if (fs->flags & FLIGHTREC_SIG_IN_USER)
		fmt(buf + n, size - n, ", in user code");
	else if (fs->orig_rax < 0)
		fmt(buf + n, size - n, ", at a return to user code");
	else
		fmt(buf + n, size - n, ", after %s = %ld%s", scname((uint32_t)fs->orig_rax), fs->rax,
		    fs->flags & FLIGHTREC_SIG_RESTART ? ", restarted" :
		    fs->flags & FLIGHTREC_SIG_EINTR ? ", EINTR" : "");
}

static __attribute__((noreturn)) void sig_diverged(struct lthread *t, const struct fri_syscall *s,
						   struct sigcontext *mc, const char *why,
						   const char *got)
{
	char exp[256];

	fmt_signal(exp, sizeof(exp), sig_of(s));
	fdprintf(2, PFX "DIVERGED: thread %u, seq %lu, rip 0x%lx: %s\n"
		 PFX "  expected signal %s\n" PFX "  got      %s\n",
		 t->tid, s->seq, mc->rip, why, exp, got);
	race_note(t, s);
	print_times("diverged");
	sys_exit_group(FR_EXIT_DIVERGED);
}

/* Record s (the thread's next, its turn) is done. */
static void consume(struct lthread *t, const struct fri_syscall *s)
{
	t->nr_done++;
	t->cur = s->next_same_tid;
	if (t->cur == FRI_NO_NEXT)
		t->at_end = 1;
	advance_turn((uint64_t)(s - g.sc));
}

/*
 * Delivers the recorded signal s (the thread's next record, its turn) to the
 * application's handler, with the recorded siginfo and the context in uc.
 * What the recording says must hold here: the siginfo is the record's
 * signal, the emulated disposition is a handler, the signal is not blocked.
 */
static void deliver_record(struct lthread *t, const struct fri_syscall *s, struct ucontext *uc)
{
	const struct fri_signal *fs = sig_of(s);
	struct sigcontext *mc = &uc->uc_mcontext;
	int sig = fs->signo;
	siginfo_t si;
	char got[128];

	memcpy(&si, fs->siginfo, sizeof(si));
	if (si.si_signo != sig || si.si_code != fs->si_code) {
		fmt(got, sizeof(got), "a recorded siginfo of signal %d code %d", si.si_signo,
		    si.si_code);
		sig_diverged(t, s, mc, "damaged signal record", got);
	}
	if (g.sa[sig].handler <= 1) {
		fmt(got, sizeof(got), "its disposition is %s here",
		    g.sa[sig].handler ? "SIG_IGN" : "SIG_DFL");
		sig_diverged(t, s, mc, "the signal went to a handler when recorded", got);
	}
	if (t->app_mask >> (sig - 1) & 1)
		sig_diverged(t, s, mc, "the signal went to a handler when recorded",
			     "it is blocked here");
	if (g.flags & FRI_F_VERBOSE) {
		char buf[256];

		fmt_signal(buf, sizeof(buf), fs);
		fdprintf(2, PFX "[%u #%lu] <signal %s> to handler 0x%lx, frame %s\n", t->tid, s->seq,
			 buf, g.sa[sig].handler, !fs->frame_len ? "not recorded" :
			 recorded_frame(fs, fs->frame_addr, (uint64_t)((const struct sigframe *)
				(g.base + fs->frame_off))->uc.uc_mcontext.fpstate, mc) ?
			 "as recorded" : "recorded, elsewhere");
	}
	rseq_write(t, s);	/* the delivery rewrites the rseq area */
	deliver(t, sig, &si, uc, fs);
	consume(t, s);
}

/*
 * The signals the thread got at this syscall boundary: its next records,
 * while they are signals that no fault raised, that did not interrupt user
 * code and that restart no syscall.  Each one is delivered in turn, with
 * the state now as its context: after the syscall just answered (its
 * result in rax, -EINTR included), or the entry of the handler that the
 * previous one started.
 */
static void signals_now(struct lthread *t, struct ucontext *uc)
{
	struct sigcontext *mc = &uc->uc_mcontext;
	const struct fri_syscall *s;

	while ((s = next_rec(t)) && is_signal_rec(s, SIG_PLACE, 0)) {
		wait_turn(t, t->cur, mc);
		if (mc->rip != sig_of(s)->rip) {
			char got[96];

			fmt(got, sizeof(got), "the thread at rip 0x%lx", mc->rip);
			sig_diverged(t, s, mc, "the signal came at another place", got);
		}
		deliver_record(t, s, uc);
	}
}

/* The general registers of an IN_USER signal record against a context. */
static int regs_match(const struct sigcontext *mc, const struct fri_regs *w)
{
	return mc->rip == w->rip && mc->rsp == w->rsp && mc->rax == w->rax &&
	       mc->rbx == w->rbx && mc->rcx == w->rcx && mc->rdx == w->rdx &&
	       mc->rsi == w->rsi && mc->rdi == w->rdi && mc->rbp == w->rbp &&
	       mc->r8 == w->r8 && mc->r9 == w->r9 && mc->r10 == w->r10 &&
	       mc->r11 == w->r11 && mc->r12 == w->r12 && mc->r13 == w->r13 &&
	       mc->r14 == w->r14 && mc->r15 == w->r15 &&
	       (mc->eflags & 0xcd5) == (w->eflags & 0xcd5);
}

/*
 * Makes the page of application code at addr writable for the breakpoint
 * (and remembers the byte there).  process_vm_readv/writev on ourselves
 * tell whether the page is readable and writable without a fault; a page
 * that is not writable is made so until disarm(), which gives it back
 * read+exec (it is code that the thread runs).  Returns 0 or -errno.
 */
static long open_code(uint64_t addr)
{
	uint64_t page = addr & ~(FRI_PAGE_SIZE - 1);
	long pid = sys0(__NR_getpid), r;
	uint8_t b = 0;
	struct lvec l = { &b, 1 }, rv = { (void *)addr, 1 };

	g.bp.reprotect = 0;
	r = sys6(__NR_process_vm_readv, pid, (long)&l, 1, (long)&rv, 1, 0);
	if (r != 1 && r != -ENOSYS && r != -EPERM)
		return r < 0 ? r : -EFAULT;
	if (r != 1)
		b = *(volatile uint8_t *)addr;
	g.bp.at.byte = b;
	if (r == 1 && sys6(__NR_process_vm_writev, pid, (long)&l, 1, (long)&rv, 1, 0) == 1)
		return 0;
	r = sys3(__NR_mprotect, page, FRI_PAGE_SIZE, PROT_READ | PROT_WRITE | PROT_EXEC);
	if (r)
		return r;
	g.bp.reprotect = 1;
	return 0;
}

static void poke(uint8_t v)
{
	*(volatile uint8_t *)g.bp.at.addr = v;
}

static void disarm(void)
{
	if (g.bp.at.armed) {
		poke(g.bp.at.byte);
		if (g.bp.reprotect)
			sys3(__NR_mprotect, g.bp.at.addr & ~(FRI_PAGE_SIZE - 1), FRI_PAGE_SIZE,
			     PROT_READ | PROT_EXEC);
	}
	g.bp.at.armed = 0;
	g.bp.owner = NULL;
}

/*
 * The thread is where in-user record s (its next) was made: a signal is
 * delivered there; at a preemption the thread's turn ends, and it goes on
 * from here when its next record's turn comes (back_to_app()).
 */
static void arrived(struct lthread *t, const struct fri_syscall *s, struct ucontext *uc)
{
	wait_turn(t, t->cur, &uc->uc_mcontext);
	if (s->kind != FRI_K_PREEMPT) {
		deliver_record(t, s, uc);
		return;
	}
	if (g.flags & FRI_F_VERBOSE)
		fdprintf(2, PFX "[%u #%lu] <preempt> at rip 0x%lx: the serial recording made it "
			 "yield here\n", t->tid, s->seq, uc->uc_mcontext.rip);
	consume(t, s);
}

/*
 * A signal that interrupted user code (FLIGHTREC_SIG_IN_USER), or a
 * preemption of a serial recording (FRI_K_PREEMPT): it is placed where
 * the thread is at the recorded rip with the recorded general registers.
 * An int3 at that rip stops the thread each time it gets there (on_trap);
 * the registers are compared, and if they differ the original instruction
 * is single-stepped (TF) and the int3 put back.  Returns 1 when the thread
 * is there now (arrived()), 0 when armed.
 */
static int place_in_user(struct lthread *t, const struct fri_syscall *s, struct ucontext *uc)
{
	const struct fri_signal *fs = sig_of(s);
	struct sigcontext *mc = &uc->uc_mcontext;
	int pre = s->kind == FRI_K_PREEMPT;
	char got[160];
	long r;

	if (!fs->has_regs)
		sig_diverged(t, s, mc, "a signal interrupted user code and its registers were "
			     "not recorded: replay cannot place it", "-");
	if (regs_match(mc, &fs->regs)) {
		arrived(t, s, uc);
		return 1;
	}
	/* under the gdbserver its SIGTRAPs come to us (struct fri_gdb_bp); not under gdb alone */
	if ((g.flags & FRI_F_GDB) && g.gdbfd < 0) {
		fmt(got, sizeof(got), "replay under gdb cannot place it (its int3 at 0x%lx "
		    "would stop gdb)", fs->regs.rip);
		if (pre)
			preempt_diverged(t, s, mc, "the serial recording made the thread yield in "
					 "user code", got);
		sig_diverged(t, s, mc, "a signal interrupted user code", got);
	}
	if (g.bp.at.armed && g.bp.at.addr != fs->regs.rip)
		disarm();
	g.bp.owner = t;
	g.bp.idx = t->cur;
	g.bp.hits = 0;
	if (!g.bp.at.armed) {
		r = open_code(fs->regs.rip);
		if (r) {
			fmt(got, sizeof(got), "no breakpoint possible at rip 0x%lx: %s", fs->regs.rip,
			    errname(r));
			if (pre)
				preempt_diverged(t, s, mc, "the serial recording made the thread "
						 "yield in user code; replay cannot place it", got);
			sig_diverged(t, s, mc, "a signal interrupted user code; replay cannot "
				     "place it", got);
		}
		g.bp.at.addr = fs->regs.rip;
		g.bp.at.armed = 1;
		poke(0xcc);
	}
	return 0;
}

/* passes through the dump point's rip with other registers before replay runs on */
#define DUMP_PASSES_MAX	100000

/* gdb went on from the dump point where the replay stopped it (end_at_dump) */
static __attribute__((noreturn)) void ended_at_dump(void)
{
	fdprintf(2, PFX "the replay ends at the dump point (gdb went on from it)\n");
	sys_exit_group(FR_EXIT_OK);
}

/* The int3 of the dump point at rip, for thread t (owner); not where it cannot be written. */
static void arm_dump_point(struct lthread *t, uint64_t rip)
{
	if (g.bp.at.armed && g.bp.at.addr != rip)
		disarm();
	g.bp.owner = t;
	g.bp.idx = FRI_NO_NEXT;
	if (g.bp.at.armed)
		return;
	g.bp.hits = 0;
	if (open_code(rip))
		return;
	g.bp.at.addr = rip;
	g.bp.at.armed = 1;
	poke(0xcc);
}

/*
 * The replay has reached its recorded end, a dump point, where thread t
 * returns to uc: it ends there, but under the gdbserver it stops gdb
 * there first.  A SIGTRAP sent to the thread, pending until it is back in
 * the application, is the stop gdb sees; when the thread goes on, the
 * replay ends (g.dump_stopped): at the int3 put back at its rip (`int3`:
 * a point in user code), or at the system call it is at (its rip moved
 * back to the instruction, rax its number, so that it makes the call
 * again).  Returns only then.
 */
static void end_at_dump(struct lthread *t, struct ucontext *uc, int int3)
{
	uint64_t set = 1ULL << (SIGTRAP - 1);
	struct sigcontext *mc = &uc->uc_mcontext;

	if (g.gdbfd < 0)
		sys_exit_group(FR_EXIT_OK);
	if (int3) {
		arm_dump_point(t, mc->rip);
		if (!g.bp.at.armed || g.bp.at.addr != mc->rip)
			sys_exit_group(FR_EXIT_OK);	/* nothing would stop it going on */
	} else {
		mc->rip -= 2;			/* the syscall instruction */
	}
	fdprintf(2, PFX "gdb stops there (SIGTRAP); the replay ends when it goes on\n");
	g.dump_stopped = 1;
	sys4(__NR_rt_sigprocmask, SIG_BLOCK, (long)&set, 0, 8);
	uc->uc_sigmask &= ~set;
	sys3(__NR_tgkill, sys0(__NR_getpid), sys0(__NR_gettid), SIGTRAP);
}

/* The dump point in user code, reached: every register as the recording's end. */
static void at_dump_point(struct lthread *t, struct ucontext *uc, uint64_t hits)
{
	print_times("end");
	write_core(t, uc, 0, 0, 0, 0);
	fdprintf(2, PFX "reached the dump point: thread %u at rip 0x%lx in user code (pass %lu "
		 "through it after its log), as recorded\n", t->tid, uc->uc_mcontext.rip, hits);
	end_at_dump(t, uc, 1);
}

/*
 * The thread that ended a recording by a dump, past its log: the dump
 * point may be in user code (a thread that ran its own code when the dump
 * was asked for), where replay would otherwise run on to the next syscall,
 * through code and data the recording never reached, or forever in a loop
 * that makes none (a hung process, dumped: the replay never ended).  The
 * int3 of place_in_user() stops the thread at the recorded rip each time;
 * where every general register is the recorded one, the dump point is
 * reached.  A loop whose registers repeat stops at its first such pass; one
 * whose registers change at every pass is searched DUMP_PASSES_MAX passes.
 * Not under gdb without the gdbserver (its int3 would stop gdb), nor when
 * the breakpoint is another thread's, nor at a page the replay cannot
 * write: then as before.
 */
static void place_dump_point(struct lthread *t, struct ucontext *uc)
{
	const struct fri_end *e = &g.h->end;

	if (t->cur != FRI_NO_NEXT || e->kind != FLIGHTREC_END_DUMP || !e->has_regs ||
	    (e->tid && e->tid != t->tid) || ((g.flags & FRI_F_GDB) && g.gdbfd < 0) ||
	    g.dump_bp_done || g.dump_stopped)
		return;
	if (regs_match(&uc->uc_mcontext, &e->regs)) {
		at_dump_point(t, uc, 0);
		return;
	}
	if (g.bp.at.armed && (g.bp.owner != t || g.bp.idx != FRI_NO_NEXT)) {
		if (g.bp.owner && g.bp.owner != t)
			return;
		disarm();
	}
	arm_dump_point(t, e->regs.rip);
}

/*
 * Everything due before the thread runs application code again (after a
 * record was answered, at its first entry, after a delivery): the signals
 * of this boundary, its turn, and the breakpoint for a signal that will
 * interrupt its user code, or for the dump point past its log.
 */
static void back_to_app(struct lthread *t, struct ucontext *uc)
{
	const struct fri_syscall *s;

	for (;;) {
		signals_now(t, uc);
		if (g.nthreads > 1)
			wait_resume(t, &uc->uc_mcontext);
		s = next_rec(t);
		if (!s)
			place_dump_point(t, uc);
		if (!is_in_user_rec(s) || !place_in_user(t, s, uc))
			return;
	}
}

/*
 * The thread trapped into a syscall where its next record is a signal.
 * Two are right.  A restart: the signal interrupted this very syscall
 * (FLIGHTREC_SIG_RESTART), whose record comes after the handler.  It is
 * delivered with the context the kernel gives a restarted call (rip back
 * on the syscall instruction, rax its number), so after rt_sigreturn the
 * application makes the call again and its record answers it.  And the
 * SIGSYS of the application's own seccomp filter (SECCOMP_RET_TRAP,
 * si_code SYS_SECCOMP): the kernel did not make the call (no record of it)
 * and delivered the signal right after the syscall instruction, rax the
 * call's number (syscall_rollback()); the handler decides what the
 * application sees (issue 25, class 11).
 */
static void signal_at_syscall(struct lthread *t, const struct fri_syscall *s,
			      struct ucontext *uc)
{
	const struct fri_signal *fs = sig_of(s);
	struct sigcontext *mc = &uc->uc_mcontext;
	int seccomp = fs->signo == SIGSYS && fs->si_code == 1 /* SYS_SECCOMP */ &&
		      (fs->flags & FLIGHTREC_SIG_SYNC);
	char got[256];
	uint64_t a[6];

	get_args(mc, a);
	fmt_call(got, sizeof(got), (uint32_t)mc->rax, a, 6);
	if (!(fs->flags & FLIGHTREC_SIG_RESTART) && !seccomp)
		sig_diverged(t, s, mc, fs->flags & FLIGHTREC_SIG_IN_USER ?
			     "a system call before the place where the signal interrupted user code" :
			     fs->flags & FLIGHTREC_SIG_SYNC ?
			     "a system call where the recording faulted" :
			     "a system call where the recording got a signal", got);
	if ((uint32_t)mc->rax != (uint64_t)fs->orig_rax || mc->rip != fs->rip)
		sig_diverged(t, s, mc, "another system call than the one the signal interrupted",
			     got);
	wait_turn(t, t->cur, mc);
	if (!seccomp)
		mc->rip -= 2;
	/* seccomp: rax at delivery, the number again (syscall_rollback()) */
	mc->rax = (uint64_t)(seccomp ? fs->rax : fs->orig_rax);
	deliver_record(t, s, uc);
	back_to_app(t, uc);
}

/*
 * SIGTRAP: the breakpoint of an IN_USER signal, the single step over its
 * instruction, or the application's own (a fault like the others).
 */
static void on_trap(int sig, siginfo_t *si, void *ucv)
{
	struct ucontext *uc = ucv;
	struct sigcontext *mc = &uc->uc_mcontext;
	struct lthread *t = self();

	if (t->bp_step) {
		t->bp_step = 0;
		mc->eflags &= ~0x100UL;
		if (g.bp.at.armed)
			poke(0xcc);
		if (si->si_code != SI_KERNEL || mc->rip != g.bp.at.addr + 1)
			return;
		/* the stepped instruction led straight back to the int3: a hit */
	}
	if (g.bp.at.armed && si->si_code == SI_KERNEL && mc->rip == g.bp.at.addr + 1) {
		const struct fri_syscall *s = g.bp.idx == FRI_NO_NEXT ? NULL : &g.sc[g.bp.idx];

		mc->rip = g.bp.at.addr;
		g.bp.hits++;
		if (!s && t == g.bp.owner && g.dump_stopped)
			ended_at_dump();
		if (!s && t == g.bp.owner && t->cur == FRI_NO_NEXT &&
		    regs_match(mc, &g.h->end.regs)) {
			disarm();
			at_dump_point(t, uc, g.bp.hits);
			return;
		}
		/*
		 * Two signals a pass: a dump point in a hot loop whose registers
		 * change at every pass (a counter) would take minutes.  After
		 * DUMP_PASSES_MAX the search ends and the thread runs on to
		 * its next syscall, as where no breakpoint can be placed.
		 */
		if (!s && t == g.bp.owner && g.bp.hits >= DUMP_PASSES_MAX) {
			fdprintf(2, PFX "note: thread %u passed the dump point's instruction (rip "
				 "0x%lx) %lu times, never with the recorded registers: it runs on "
				 "to its next syscall\n", t->tid, g.bp.at.addr, g.bp.hits);
			disarm();
			g.dump_bp_done = 1;
			return;
		}
		if (s && t == g.bp.owner && t->cur == g.bp.idx && regs_match(mc, &sig_of(s)->regs)) {
			if (g.flags & FRI_F_VERBOSE)
				fdprintf(2, PFX "[%u] the interrupted instruction reached (pass %lu "
					 "through rip 0x%lx)\n", t->tid, g.bp.hits, g.bp.at.addr);
			disarm();
			arrived(t, s, uc);
			back_to_app(t, uc);
			return;
		}
		poke(g.bp.at.byte);
		t->bp_step = 1;
		mc->eflags |= 0x100UL;
		return;
	}
	on_fault(sig, si, ucv);
}

/*
 * The sandbox (sandbox.c) stopped a system call: SECCOMP_RET_TRAP skipped it
 * and sent SIGSYS with si_code SYS_SECCOMP.  Only a call the loader itself
 * never makes gets here: the application reached a `syscall` instruction
 * that Syscall User Dispatch let through (one in the loader's text), or an
 * int 0x80.  The replay ends; the call was not made.
 */
static __attribute__((noreturn)) void blocked(siginfo_t *si, struct sigcontext *mc)
{
	/* not self(): the application may have moved our signal stack */
	uint64_t sp = (uint64_t)__builtin_frame_address(0);
	uint64_t idx = (sp - FRI_STACKS_ADDR) / SLOT_SIZE;
	const struct lthread *t = sp >= FRI_STACKS_ADDR && idx < MAX_THREADS ? &threads[idx] : NULL;
	uint64_t rip = mc->rip - 2;	/* the syscall instruction */
	uint64_t a[6];
	char buf[256];
	int x86_64 = si->si_arch == 0xc000003eU;	/* AUDIT_ARCH_X86_64 */
	uint32_t nr = (uint32_t)si->si_syscall;

	get_args(mc, a);
	if (x86_64)
		fmt_call(buf, sizeof(buf), nr, a, 6);
	else
		fmt(buf, sizeof(buf), "a call of another ABI (arch %#x)", si->si_arch);
	fdprintf(2, PFX "blocked system call %s (%u) at rip 0x%lx%s, thread %u%s\n"
		 PFX "  %s\n"
		 PFX "  the replay sandbox allows only the loader's own calls: the checkpoint "
		 "is damaged or crafted; nothing was done\n",
		 x86_64 ? scname(nr) : "?", nr, rip,
		 rip >= (uint64_t)__executable_start && rip < (uint64_t)etext ?
		 " (in the loader's text)" : "", t ? t->tid : 0,
		 t && t->cur == FRI_NO_NEXT ? " (after its log)" : "", buf);
	print_times("blocked");
	sys_exit_group(FR_EXIT_BLOCKED);
}

/*
 * The thread's last record is a call it had entered and not returned from
 * when the recording ended (FLIGHTREC_SC_UNFINISHED; the module numbers
 * futex waits, and every call in serial mode, at entry): its user code up
 * to here ran before the records numbered after it, and it got no further.
 * Its turn passes on, and it stays in the call.
 */
static void park_unfinished(struct lthread *t, const struct fri_syscall *s, uint64_t idx)
{
	if (g.flags & FRI_F_VERBOSE) {
		char buf[256];

		fmt_call(buf, sizeof(buf), s->nr, s->args, s->nargs);
		fdprintf(2, PFX "[%u #%lu] %s: unfinished at the end, parked\n", t->tid, s->seq,
			 buf);
	}
	if (s->nr == __NR_futex)
		clear_pending(idx);
	consume(t, s);
	t->at_end = 1;
	t->parked = 1;
	for (;;) {
		uint32_t z = 0;

		sys4(__NR_futex, (long)&z, FUTEX_WAIT_PRIVATE, 0, NULL);
	}
}

/* ---- What the recording's tracer changed (FRI_K_PTRACE) ---- */

/* its registers as the tracer left them (out 0, address 0), or NULL */
static const struct fri_regs *pt_regs_of(const struct fri_syscall *s)
{
	const struct fri_out *o = (const void *)(g.base + s->out_off);
	uint32_t i;

	for (i = 0; i < s->n_out; i++)
		if (!o[i].addr && o[i].len >= sizeof(struct fri_regs))
			return (const void *)(g.base + o[i].data_off);
	return NULL;
}

/*
 * len bytes at addr, written as the tracer wrote them: through the page's
 * protection (ptrace writes with FOLL_FORCE).  A page that
 * process_vm_writev() cannot write is not writable: code, where a tracer
 * puts a breakpoint; it is read+exec again after.  0, or -1 when the
 * address is not mapped.
 */
static int pt_poke(uint64_t addr, const uint8_t *p, uint64_t len)
{
	long pid = sys0(__NR_getpid), r;

	while (len) {
		uint64_t page = addr & ~(FRI_PAGE_SIZE - 1);
		uint64_t n = page + FRI_PAGE_SIZE - addr;
		struct lvec l, v;

		if (n > len)
			n = len;
		l.base = (void *)p;
		l.len = n;
		v.base = (void *)addr;
		v.len = n;
		r = sys6(__NR_process_vm_writev, pid, (long)&l, 1, (long)&v, 1, 0);
		if (r == -ENOSYS || r == -EPERM) {
			memcpy((void *)addr, p, n);	/* the sandbox refused it */
		} else if (r != (long)n) {
			if (sys3(__NR_mprotect, page, FRI_PAGE_SIZE,
				 PROT_READ | PROT_WRITE | PROT_EXEC))
				return -1;
			memcpy((void *)addr, p, n);
			sys3(__NR_mprotect, page, FRI_PAGE_SIZE, PROT_READ | PROT_EXEC);
		}
		addr += n;
		p += n;
		len -= n;
	}
	return 0;
}

/*
 * Applies record s: the memory the tracer wrote, then the registers it set.
 * @entry: at a syscall entry, where rax becomes the number of the call the
 * thread makes (orig_rax: the tracer may have changed it, or made it -1).
 */
static void pt_apply(struct lthread *t, const struct fri_syscall *s, struct sigcontext *mc,
		     int entry)
{
	const struct fri_out *o = (const void *)(g.base + s->out_off);
	const struct fri_regs *r = pt_regs_of(s);
	uint32_t i;

	if (s->args[2] & FLIGHTREC_PT_FPU)
		diverged(t, s, mc, "the recording's tracer changed the thread's FPU state here "
			 "(not recorded)");
	if (s->args[2] & FLIGHTREC_PT_OTHER)
		diverged(t, s, mc, "the recording's tracer changed the thread's debug registers, "
			 "fs or gs base, TLS or signal mask here (not recorded)");
	if (s->args[2] & FLIGHTREC_PT_LOST)
		diverged(t, s, mc, "the recording's tracer wrote memory here that the recording "
			 "could not keep");
	for (i = 0; i < s->n_out; i++)
		if (o[i].addr && pt_poke(o[i].addr, g.base + o[i].data_off, o[i].len))
			diverged(t, s, mc, "the recording's tracer wrote memory that is not mapped "
				 "in replay");
	if (g.flags & FRI_F_VERBOSE)
		fdprintf(2, PFX "[%u #%lu] the tracer's changes: %s, %u write(s)\n", t->tid, s->seq,
			 r ? "registers" : "no registers", s->n_out - (r != NULL));
	if (!r)
		return;
	mc->r15 = r->r15;
	mc->r14 = r->r14;
	mc->r13 = r->r13;
	mc->r12 = r->r12;
	mc->rbp = r->rbp;
	mc->rbx = r->rbx;
	mc->r11 = r->r11;
	mc->r10 = r->r10;
	mc->r9 = r->r9;
	mc->r8 = r->r8;
	mc->rax = entry ? r->orig_rax : r->rax;
	mc->rcx = r->rcx;
	mc->rdx = r->rdx;
	mc->rsi = r->rsi;
	mc->rdi = r->rdi;
	mc->rip = r->rip;
	mc->rsp = r->rsp;
	/*
	 * The arithmetic flags and DF: what a tracer may set that replay can
	 * follow.  fs_base and gs_base are not in the record (a change of
	 * them is FLIGHTREC_PT_OTHER).
	 */
	mc->eflags = (mc->eflags & ~0xcd5UL) | (r->eflags & 0xcd5);
}

/*
 * Takes the thread's tracer records due here, in order: at a syscall entry
 * (@entry) those made at that entry (FLIGHTREC_PT_AT_ENTRY: a syscall-entry
 * stop), else those made as the syscall it returns from went back to user
 * space (a syscall-exit stop, a stop after it).  The others are placed
 * nowhere: the thread meets them as a divergence (pt_misplaced()).
 */
static void pt_take(struct lthread *t, struct ucontext *uc, int entry)
{
	struct sigcontext *mc = &uc->uc_mcontext;

	while (t->cur != FRI_NO_NEXT) {
		uint64_t idx = t->cur;
		const struct fri_syscall *s = &g.sc[idx];

		if (s->kind != FRI_K_PTRACE)
			return;
		if (entry ? s->args[0] != FLIGHTREC_PT_AT_ENTRY :
			    s->args[0] != FLIGHTREC_PT_AT_RESUME ||
			    !(s->args[2] & FLIGHTREC_PT_AT_SYSCALL))
			return;
		wait_turn(t, idx, mc);
		pt_apply(t, s, mc, entry);
		t->nr_done++;
		t->cur = s->next_same_tid;
		advance_turn(idx);
		if (!entry && rec_is_last(s))
			end_of_log(t, uc, 1);
	}
}

/* What tracer record s (not placed by pt_take()) says, for a report. */
static void pt_why(char *buf, size_t len, const char *what, const struct fri_syscall *s)
{
	fmt(buf, len, s->args[0] == FLIGHTREC_PT_AT_SIGNAL ?
	    "%s where the recording's tracer changed the thread at a signal's delivery, "
	    "stopped at rip 0x%lx (not replayed)" :
	    "%s where the recording's tracer changed the thread in a stop in user code "
	    "(a breakpoint, a step or a signal) at rip 0x%lx (not replayed)", what, s->args[3]);
}

/* A tracer record that pt_take() does not place, met at a syscall. */
static void pt_misplaced(struct lthread *t, const struct fri_syscall *s, struct sigcontext *mc)
{
	char buf[200];

	pt_why(buf, sizeof(buf), "a system call", s);
	diverged(t, s, mc, buf);
}

static void on_sigsys(int sig, siginfo_t *si, void *ucv)
{
	struct ucontext *uc = ucv;
	struct sigcontext *mc = &uc->uc_mcontext;
	struct lthread *t;
	const struct fri_syscall *s;
	uint64_t a[6], idx;
	int i;

	(void)sig;
	if (si->si_code == SYS_SECCOMP)
		blocked(si, mc);
	t = self();
	if (si->si_code != SYS_USER_DISPATCH)
		die(FR_EXIT_FAIL, "unexpected SIGSYS (code %d) at rip %lx", si->si_code, mc->rip);
	note_regs(t, mc, 1);
	if (t->cur != FRI_NO_NEXT && g.sc[t->cur].kind == FRI_K_PTRACE) {
		/* a syscall-entry stop: the call is the one the tracer left */
		pt_take(t, uc, 1);
		note_regs(t, mc, 1);
	}
	get_args(mc, a);
	idx = t->cur;
	if (idx == FRI_NO_NEXT) {
		end_of_log(t, uc, 0);
		return;
	}
	s = &g.sc[idx];
	if (s->kind == FRI_K_PTRACE)
		pt_misplaced(t, s, mc);
	if (s->kind == FRI_K_RDTSC)
		diverged(t, s, mc, "a syscall where the recording executed rdtsc");
	if (s->kind == FRI_K_SIGNAL) {
		signal_at_syscall(t, s, uc);
		return;
	}
	if (s->kind == FRI_K_PREEMPT) {
		char got[256];

		fmt_call(got, sizeof(got), (uint32_t)mc->rax, a, 6);
		preempt_diverged(t, s, mc, "a system call before the place where the serial "
				 "recording made the thread yield", got);
	}
	if ((uint32_t)mc->rax != s->nr)
		diverged(t, s, mc, "another system call");
	for (i = 0; i < s->nargs; i++)
		if (a[i] != s->args[i] && !arg_unused(s, i))
			diverged(t, s, mc, "different arguments");
	if (s->flags & FRI_S_IN_HASH) {
		int rule = s->flags & FRI_S_IN_HASH_W ? FR_IN_RULE_WORDS :
			   s->flags & FRI_S_IN_HASH_FULL ? FR_IN_RULE_FULL :
			   s->flags & FRI_S_IN_HASH_SA ? FR_IN_RULE_SOCKADDR : FR_IN_RULE_BYTES;
		uint64_t hsh = fr_in_hash(s->nr, a, rule, s->ret);

		if (hsh != s->in_hash)
			diverged(t, s, mc, "different data passed in (hash)");
	}
	wait_turn(t, idx, mc);
	if (s->sc_flags & FLIGHTREC_SC_UNFINISHED) {
		park_unfinished(t, s, idx);
		return;
	}
	if (g.flags & FRI_F_VERBOSE) {
		char buf[256];

		fmt_call(buf, sizeof(buf), s->nr, s->args, s->nargs);
		fdprintf(2, PFX "[%u #%lu] %s = %ld\n", t->tid, s->seq, buf, s->ret);
	}
	/*
	 * Its output went to MADV_DONTDUMP memory, which no checkpoint holds:
	 * what the program reads there next is not known.  Said here, at the
	 * call, rather than later as some other difference it causes.
	 */
	if (s->sc_flags & FLIGHTREC_SC_NODUMP)
		diverged(t, s, mc, "its output went to memory not in the dump (MADV_DONTDUMP): "
			 "what the program read there is unknown");
	track_signal_calls(t, s);
	if (s->ret == -EINTR && is_signal_rec(g.sc[idx].next_same_tid == FRI_NO_NEXT ? NULL :
					     &g.sc[s->next_same_tid], SIG_PLACE, 0)) {
		uint64_t m;

		if (temp_mask(s, &m)) {
			t->saved_mask = t->app_mask;
			t->restore_mask = 1;
			t->app_mask = m;
		}
	}
	if (s->nr == __NR_rt_sigreturn) {
		replay_sigreturn(t, uc);
		t->nr_done++;
		t->cur = s->next_same_tid;
		advance_turn(idx);
		if (rec_is_last(s))
			end_of_log(t, uc, 1);
		back_to_app(t, uc);
		return;
	}
	switch (s->kind) {
	case FRI_K_ADDRSPACE:
		replay_addrspace(t, s, mc);
		break;
	case FRI_K_THREADAREA:
		replay_threadarea(t, s, mc);
		break;
	case FRI_K_OUTPUT:
		replay_output(s);
		break;
	case FRI_K_CLONE:
		replay_clone(t, s, uc);
		break;
	case FRI_K_EXIT:
		if (s->nr == __NR_exit_group || g.nthreads <= 1)
			finish_exit(t, s, uc);
		if (t->clear_child_tid)
			clear_tid_later(idx, t->clear_child_tid, t->tid);
		t->cur = FRI_NO_NEXT;	/* the slot is not reused: its stack is in use until exit */
		/* wake the waiters while they are counted (the last one waits too) */
		advance_turn(idx);
		__atomic_sub_fetch(&g.nthreads, 1, __ATOMIC_SEQ_CST);
		for (;;)
			sys1(__NR_exit, 0);
	default:
		break;
	}
	if (!(s->kind == FRI_K_ADDRSPACE && s->nr == __NR_mmap))
		copy_outs(s);
	rseq_write(t, s);
	if (s->nr == __NR_futex)
		clear_pending(idx);
	mc->rax = (uint64_t)s->ret;
	t->nr_done++;
	t->cur = s->next_same_tid;
	advance_turn(idx);
	/* a syscall-exit stop: what the tracer changed as the call returned */
	if (t->cur != FRI_NO_NEXT && g.sc[t->cur].kind == FRI_K_PTRACE)
		pt_take(t, uc, 0);
	if (rec_is_last(s))
		end_of_log(t, uc, 1);
	back_to_app(t, uc);
	if (t->restore_mask) {	/* no handler ran: the call's mask goes */
		t->app_mask = t->saved_mask;
		t->restore_mask = 0;
	}
}

/* -------------------------------------------------------------------- */
/* The end */

struct regcmp {
	const char *name;
	uint64_t got, want;
};

static int compare_regs(struct ucontext *uc, const struct fri_regs *w, int quiet)
{
	struct sigcontext *mc = &uc->uc_mcontext;
	uint64_t fs = 0;
	struct regcmp c[] = {
		{ "rip", mc->rip, w->rip }, { "rsp", mc->rsp, w->rsp },
		{ "rax", mc->rax, w->rax }, { "rbx", mc->rbx, w->rbx },
		{ "rcx", mc->rcx, w->rcx }, { "rdx", mc->rdx, w->rdx },
		{ "rsi", mc->rsi, w->rsi }, { "rdi", mc->rdi, w->rdi },
		{ "rbp", mc->rbp, w->rbp }, { "r8", mc->r8, w->r8 },
		{ "r9", mc->r9, w->r9 }, { "r10", mc->r10, w->r10 },
		{ "r11", mc->r11, w->r11 }, { "r12", mc->r12, w->r12 },
		{ "r13", mc->r13, w->r13 }, { "r14", mc->r14, w->r14 },
		{ "r15", mc->r15, w->r15 },
		{ "eflags", mc->eflags & 0xcd5, w->eflags & 0xcd5 },
		{ "fs_base", 0, w->fs_base },
	};
	unsigned int i;
	int bad = 0;

	sys2(__NR_arch_prctl, ARCH_GET_FS, &fs);
	c[18].got = fs;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		if (c[i].got == c[i].want)
			continue;
		if (!quiet)
			fdprintf(2, PFX "  %-7s 0x%lx, recorded 0x%lx\n", c[i].name, c[i].got,
				 c[i].want);
		bad++;
	}
	return bad;
}

/*
 * Under gdb, a fatal signal the process sent itself (abort's SIGABRT)
 * arrives for real once the application runs again: gdb stops at it with
 * the application's registers, in raise under abort under its caller, as
 * it would have in the recorded run, and its default action then ends the
 * process.  Blocked until this handler returns, so that it is not
 * delivered in the loader's frame; the application's context has it
 * unblocked.
 */
static void raise_in_app(struct ucontext *uc, int sig)
{
	uint64_t set = 1ULL << (sig - 1);
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sys4(__NR_rt_sigaction, sig, &sa, NULL, 8);
	sys4(__NR_rt_sigprocmask, SIG_BLOCK, (long)&set, 0, 8);
	uc->uc_sigmask &= ~set;
	sys3(__NR_tgkill, sys0(__NR_getpid), sys0(__NR_gettid), sig);
}

/*
 * A thread ran out of log.  `after` is 1 right after its last record was
 * replayed, 0 when it makes a syscall with no record left.
 *
 * The recorded end decides: a signal the process sent itself (abort() is
 * raise(SIGABRT) is tgkill) happens right after the last syscall; a dump
 * point is reached as the last call returns when every register there is
 * the dump's (its work ran at that return), else at the first syscall after
 * the log (a dump taken inside a blocking syscall is that syscall: rip and
 * number are checked); an exit
 * was the last record itself; a fault comes by itself (on_fault).  A thread
 * other than the one that ended the recording did not get further when
 * recorded: it is parked at its next syscall.
 */
static void end_of_log(struct lthread *t, struct ucontext *uc, int after)
{
	const struct fri_end *e = &g.h->end;
	struct sigcontext *mc = &uc->uc_mcontext;
	char buf[160];

	t->at_end = 1;
	if (e->tid && e->tid != t->tid) {
		if (after)
			return;
		t->parked = 1;
		for (;;) {
			uint32_t z = 0;

			sys4(__NR_futex, (long)&z, FUTEX_WAIT_PRIVATE, 0, NULL);
		}
	}
	if (g.dump_stopped)
		ended_at_dump();
	if (after) {
		/*
		 * A dump taken as the last call returned, before any user code
		 * ran (its work at that return): every register as recorded
		 * here.  Running on to the next syscall would run code that the
		 * recording never reached, whose pages it need not hold.
		 */
		if (e->kind == FLIGHTREC_END_DUMP && e->has_regs &&
		    !compare_regs(uc, &e->regs, 1)) {
			print_times("end");
			write_core(t, uc, 0, 0, 0, 0);
			fdprintf(2, PFX "reached the dump point: thread %u at rip 0x%lx, as its "
				 "last call returned, as recorded\n", t->tid, mc->rip);
			end_at_dump(t, uc, 1);
			return;
		}
		if (e->kind != FLIGHTREC_END_FAULT || e->si_code > 0)
			return;
		print_times("end");
		write_core(t, uc, (int)e->signo, e->si_code, 0, 0);
		if (e->has_regs && compare_regs(uc, &e->regs, 0)) {
			fdprintf(2, PFX "MISMATCH: %s (sent by the process) at rip 0x%lx: registers "
				 "differ from the recording (above)\n", signame((int)e->signo),
				 mc->rip);
			sys_exit_group(FR_EXIT_MISMATCH);
		}
		fdprintf(2, PFX "reproduced %s at rip 0x%lx (sent by the process itself, "
			 "si_code %d), as recorded\n", signame((int)e->signo), mc->rip, e->si_code);
		if (g.flags & FRI_F_GDB) {
			raise_in_app(uc, (int)e->signo);
			return;
		}
		sys_exit_group(FR_EXIT_OK);
	}
	if (e->kind == FLIGHTREC_END_DUMP) {
		print_times("end");
		write_core(t, uc, 0, 0, 0, 1);
		/*
		 * Taken in that syscall, or at it: a call the recorder held
		 * at its entry (to capture what it unmaps) is at its syscall
		 * instruction, its number in rax, orig_rax -1; here just
		 * after the instruction.
		 */
		if (e->has_regs &&
		    ((e->regs.rip == mc->rip &&
		      (uint32_t)e->regs.orig_rax == (uint32_t)mc->rax) ||
		     (e->regs.rip + 2 == mc->rip && e->regs.orig_rax == UINT64_MAX &&
		      (uint32_t)e->regs.rax == (uint32_t)mc->rax))) {
			fdprintf(2, PFX "reached the dump point: thread %u in %s at rip 0x%lx, "
				 "as recorded\n", t->tid, scname((uint32_t)mc->rax), mc->rip);
		} else {
			fdprintf(2, PFX "reached the dump point: the end of the log; thread %u's "
				 "next syscall is %s at rip 0x%lx (the dump was taken at rip 0x%lx)\n",
				 t->tid, scname((uint32_t)mc->rax), mc->rip,
				 e->has_regs ? e->regs.rip : 0);
		}
		end_at_dump(t, uc, 0);
		return;
	}
	if (e->kind == FLIGHTREC_END_EXEC &&
	    ((uint32_t)mc->rax == __NR_execve || (uint32_t)mc->rax == __NR_execveat)) {
		/* recorded held at the syscall instruction, here just after it */
		struct fri_regs w = e->regs;

		print_times("end");
		w.rip += 2;
		if (e->has_regs && compare_regs(uc, &w, 0)) {
			fdprintf(2, PFX "MISMATCH: %s at rip 0x%lx, where the recording exec'd: "
				 "registers differ from the recording (above)\n",
				 scname((uint32_t)mc->rax), mc->rip);
			sys_exit_group(FR_EXIT_MISMATCH);
		}
		if (!(g.flags & FRI_F_QUIET))
			fdprintf(2, PFX "reached the exec: thread %u calls %s at rip 0x%lx, "
				 "as recorded\n", t->tid, scname((uint32_t)mc->rax), mc->rip);
		sys_exit_group(FR_EXIT_EXEC);
	}
	if (e->kind == FLIGHTREC_END_EXIT &&
	    ((uint32_t)mc->rax == __NR_exit_group || (uint32_t)mc->rax == __NR_exit)) {
		/* a recorder that ends the log before the exit syscall itself */
		struct fri_syscall last = { .nr = (uint32_t)mc->rax, .tid = t->tid };

		last.args[0] = mc->rdi;
		last.seq = e->last_seq;
		finish_exit(t, &last, uc);
	}
	fmt(buf, sizeof(buf), "a system call after the end of the log (the recording "
	    "ended with %s at rip 0x%lx)", e->kind == FLIGHTREC_END_FAULT ?
	    signame((int)e->signo) : "an exit", e->has_regs ? e->regs.rip : 0);
	diverged(t, NULL, mc, buf);
}

/*
 * n bytes of code at rip, for the fault handlers (0: read): directly in a
 * replayed region, else through process_vm_readv, which fails on a page
 * that is not there.  Not mincore(), which these handlers used before: the
 * sandbox does not allow it, and on a host where cpuid faults every fault
 * outside the regions (the loader's own text) then ended the replay as
 * "blocked system call mincore" (replay_portable, portable_outside on a
 * 6.18 host).
 */
static int code_at(uint64_t rip, uint8_t *b, uint64_t n)
{
	uint64_t i;

	if (region_of(rip) && region_of(rip + n - 1)) {
		for (i = 0; i < n; i++)
			b[i] = ((const uint8_t *)rip)[i];
		return 0;
	}
	return app_read(b, rip, n);
}

static int is_rdtsc(uint64_t rip, int *len)
{
	uint8_t b[3];

	if (code_at(rip, b, 2) || b[0] != 0x0f)
		return 0;
	if (b[1] == 0x31) {
		*len = 2;
		return 1;
	}
	if (b[1] == 0x01 && !code_at(rip + 2, b + 2, 1) && b[2] == 0xf9) {
		*len = 3;
		return 2;
	}
	return 0;
}

static __attribute__((noreturn)) void rdtsc_diverged(struct lthread *t,
						     const struct fri_syscall *s,
						     struct sigcontext *mc, int kind,
						     const char *why)
{
	char exp[256];

	if (s->kind == FRI_K_RDTSC)
		fmt(exp, sizeof(exp), "%s at rip 0x%lx = 0x%lx", s->args[1] == 3 ? "rdtscp" : "rdtsc",
		    s->args[4], (uint64_t)s->ret);
	else if (s->kind == FRI_K_SIGNAL)
		fmt_signal(exp, sizeof(exp), sig_of(s));
	else if (s->kind == FRI_K_PREEMPT)
		fmt(exp, sizeof(exp), "the thread at rip 0x%lx, where the serial recording made "
		    "it yield", sig_of(s)->regs.rip);
	else
		fmt_call(exp, sizeof(exp), s->nr, s->args, s->nargs);
	fdprintf(2, PFX "DIVERGED: thread %u, seq %lu, rip 0x%lx: %s\n"
		 PFX "  expected %s\n" PFX "  got      %s at rip 0x%lx\n",
		 t->tid, s->seq, mc->rip, why, exp, kind == 2 ? "rdtscp" : "rdtsc", mc->rip);
	race_note(t, s);
	print_times("diverged");
	sys_exit_group(FR_EXIT_DIVERGED);
}

static void emulate_rdtsc(struct lthread *t, struct ucontext *uc, int kind, int len)
{
	struct sigcontext *mc = &uc->uc_mcontext;
	uint64_t v;

	if (t->cur != FRI_NO_NEXT && g.sc[t->cur].kind == FRI_K_RDTSC) {
		const struct fri_syscall *s = &g.sc[t->cur];

		wait_turn(t, t->cur, mc);
		if ((s->args[4] && s->args[4] != mc->rip) || (s->args[1] && s->args[1] != (uint64_t)len))
			rdtsc_diverged(t, s, mc, kind, "the recorded rdtsc was at another place");
		v = (uint64_t)s->ret;
		if (kind == 2)
			mc->rcx = s->args[0];
		mc->rax = v & 0xffffffffULL;
		mc->rdx = v >> 32;
		mc->rip += (uint64_t)len;
		consume(t, s);
		back_to_app(t, uc);
		return;
	} else if (g.flags & FRI_F_TSC_RECORDED) {
		if (t->cur == FRI_NO_NEXT) {
			char buf[96];

			fmt(buf, sizeof(buf), "%s at rip 0x%lx after the end of the log",
			    kind == 2 ? "rdtscp" : "rdtsc", mc->rip);
			diverged(t, NULL, mc, buf);
		}
		if (g.sc[t->cur].kind == FRI_K_PTRACE) {
			char buf[200];

			pt_why(buf, sizeof(buf), "an rdtsc", &g.sc[t->cur]);
			rdtsc_diverged(t, &g.sc[t->cur], mc, kind, buf);
		}
		rdtsc_diverged(t, &g.sc[t->cur], mc, kind, "rdtsc where the recording did not");
	} else {
		if (g.rdtsc_warned++ < 5)
			fdprintf(2, PFX "warning: %s at rip 0x%lx not recorded: replay gives this "
				 "machine's clock (may diverge)\n", kind == 2 ? "rdtscp" : "rdtsc",
				 mc->rip);
		v = now_ns();
		if (kind == 2)
			mc->rcx = 0;
	}
	mc->rax = v & 0xffffffffULL;
	mc->rdx = v >> 32;
	mc->rip += (uint64_t)len;
}

static int is_cpuid(uint64_t rip)
{
	uint8_t b[2];

	return !code_at(rip, b, 2) && b[0] == 0x0f && b[1] == 0xa2;
}

/* Leaves whose ecx selects a subleaf. */
static int has_subleaves(uint32_t leaf)
{
	switch (leaf) {
	case 4: case 7: case 0xb: case 0xd: case 0xf: case 0x10: case 0x12: case 0x14:
	case 0x17: case 0x18: case 0x1d: case 0x1e: case 0x1f: case 0x20: case 0x23:
	case 0x24: case 0x8000001d: case 0x80000020: case 0x80000026:
		return 1;
	default:
		return 0;
	}
}

/*
 * cpuid in the application: the recorded CPU's leaf.  Leaf 0xd describes
 * this machine's XSAVE layout (the state was translated to it): local.
 * Leaves not recorded: local, reported.
 */
static void emulate_cpuid(struct ucontext *uc)
{
	struct sigcontext *mc = &uc->uc_mcontext;
	uint32_t leaf = (uint32_t)mc->rax, sub = (uint32_t)mc->rcx, i;
	uint32_t a, b, c, d;

	for (i = 0; leaf != 0xd && i < g.h->n_cpuid; i++) {
		const struct fri_cpuid *l = &g.cpuid[i];

		if (l->leaf == leaf && (l->subleaf == sub || !has_subleaves(leaf))) {
			mc->rax = l->eax;
			mc->rbx = l->ebx;
			mc->rcx = l->ecx;
			mc->rdx = l->edx;
			mc->rip += 2;
			return;
		}
	}
	for (i = 0; leaf != 0xd && has_subleaves(leaf) && i < g.h->n_cpuid; i++) {
		if (g.cpuid[i].leaf == leaf) {
			/* recorders leave out all-zero subleaves */
			mc->rax = mc->rbx = mc->rcx = mc->rdx = 0;
			mc->rip += 2;
			return;
		}
	}
	if (leaf != 0xd && g.cpuid_warned++ < 5)
		fdprintf(2, PFX "warning: cpuid leaf 0x%x.%u at rip 0x%lx not recorded: this "
			 "CPU's value (may diverge)\n", leaf, sub, mc->rip);
	sys2(__NR_arch_prctl, ARCH_SET_CPUID, 1);
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(leaf), "c"(sub));
	sys2(__NR_arch_prctl, ARCH_SET_CPUID, 0);
	mc->rax = a;
	mc->rbx = b;
	mc->rcx = c;
	mc->rdx = d;
	mc->rip += 2;
}

static void on_fault(int sig, siginfo_t *si, void *ucv)
{
	struct ucontext *uc = ucv;
	struct sigcontext *mc = &uc->uc_mcontext;
	const struct fri_end *e = &g.h->end;
	struct lthread *t = self();
	uint64_t addr = (uint64_t)si->si_addr;
	const struct fri_region *reg;
	int len, kind, bad = 0;

	note_regs(t, mc, 0);
	/* by the application or by the loader on its behalf */
	if (sig == SIGSEGV && (reg = region_of(addr)) && (reg->flags & FRI_R_NODUMP))
		die(FR_EXIT_DIVERGED, "DIVERGED: thread %u touched a page not in the dump "
		    "(MADV_DONTDUMP) at 0x%lx, rip 0x%lx", t->tid, addr, mc->rip);
	if (mc->rip >= (uint64_t)__executable_start && mc->rip < (uint64_t)etext) {
		if (sig == SIGSEGV || sig == SIGBUS)
			die(FR_EXIT_DIVERGED, "DIVERGED: thread %u: the loader got %s at rip 0x%lx "
			    "touching application memory at 0x%lx (a recorded buffer does not fit "
			    "the replayed address space)", t->tid, signame(sig), mc->rip, addr);
		die(FR_EXIT_FAIL, "internal error: %s in the loader at rip 0x%lx", signame(sig),
		    mc->rip);
	}
	if (sig == SIGSEGV && si->si_code == SI_KERNEL && (kind = is_rdtsc(mc->rip, &len))) {
		emulate_rdtsc(t, uc, kind, len);
		return;
	}
	/* a recorded rdtsc site patched to ud2 (find_tsc_sites) */
	if (sig == SIGILL && (len = (int)tsc_site_at(mc->rip))) {
		emulate_rdtsc(t, uc, len == 3 ? 2 : 1, len);
		return;
	}
	if (sig == SIGSEGV && si->si_code == SI_KERNEL && is_cpuid(mc->rip)) {
		emulate_cpuid(uc);
		return;
	}
	/* a cpuid site patched to ud2 (FRI_F_PATCH_CPUID) */
	if (sig == SIGILL && cpuid_site_at(mc->rip)) {
		emulate_cpuid(uc);
		return;
	}
	if (t->cur != FRI_NO_NEXT && sig >= 1 && sig <= 64 && g.sa[sig].handler > 1 &&
	    !(t->app_mask >> (sig - 1) & 1)) {
		const struct fri_syscall *s = &g.sc[t->cur];

		/* the application handles it: as when recorded */
		if (is_signal_rec(s, FLIGHTREC_SIG_SYNC, FLIGHTREC_SIG_SYNC)) {
			const struct fri_signal *fs = sig_of(s);

			if (fs->signo != sig || fs->si_code != si->si_code || fs->rip != mc->rip) {
				char got[128];

				fmt(got, sizeof(got), "%s (%d) code %d at rip 0x%lx", signame(sig),
				    sig, si->si_code, mc->rip);
				sig_diverged(t, s, mc, "another fault", got);
			}
			wait_turn(t, t->cur, mc);
			if (g.flags & FRI_F_VERBOSE)
				fdprintf(2, PFX "[%u #%lu] <signal %s> raised at rip 0x%lx\n", t->tid,
					 s->seq, signame(sig), mc->rip);
			deliver(t, sig, si, uc, fs);
			consume(t, s);
			back_to_app(t, uc);
			return;
		}
		deliver(t, sig, si, uc, NULL);
		return;
	}
	/*
	 * A dump taken where the thread's next instruction needs memory it had
	 * not touched since the interval's start (one cut at a new image's
	 * first instruction has no page at all): the fault is at the dump
	 * point, every register as recorded, and what follows was not.
	 */
	if ((sig == SIGSEGV || sig == SIGBUS) && t->cur == FRI_NO_NEXT &&
	    e->kind == FLIGHTREC_END_DUMP && e->has_regs &&
	    (!e->tid || e->tid == t->tid) && !compare_regs(uc, &e->regs, 1)) {
		print_times("end");
		write_core(t, uc, 0, 0, 0, 1);
		fdprintf(2, PFX "reached the dump point: thread %u at rip 0x%lx, as recorded; "
			 "its next instruction needs memory the recording did not reach "
			 "(%s at 0x%lx)\n", t->tid, mc->rip, signame(sig), addr);
		sys_exit_group(FR_EXIT_OK);
	}
	print_times("end");
	write_core(t, uc, sig, si->si_code, addr, 0);
	if (t->cur != FRI_NO_NEXT) {
		const struct fri_syscall *s = &g.sc[t->cur];

		fdprintf(2, PFX "DIVERGED: thread %u got %s at rip 0x%lx (addr 0x%lx) before the "
			 "end of its log (next: seq %lu %s)\n", t->tid, signame(sig), mc->rip,
			 addr, s->seq, scname(s->nr));
		if (s->kind == FRI_K_PTRACE) {
			char buf[200];

			pt_why(buf, sizeof(buf), "a signal", s);
			fdprintf(2, PFX "  %s\n", buf);
		}
		sys_exit_group(FR_EXIT_DIVERGED);
	}
	if (e->kind != FLIGHTREC_END_FAULT) {
		fdprintf(2, PFX "MISMATCH: %s at rip 0x%lx (addr 0x%lx); the recording ended "
			 "with %s\n", signame(sig), mc->rip, addr,
			 e->kind == FLIGHTREC_END_EXIT ? "an exit" : "a dump");
		sys_exit_group(FR_EXIT_MISMATCH);
	}
	if ((uint32_t)sig != e->signo) {
		fdprintf(2, PFX "  signal  %s, recorded %s\n", signame(sig), signame((int)e->signo));
		bad++;
	}
	if ((sig == SIGSEGV || sig == SIGBUS) && addr != e->fault_addr) {
		fdprintf(2, PFX "  addr    0x%lx, recorded 0x%lx\n", addr, e->fault_addr);
		bad++;
	}
	if (e->tid && e->tid != t->tid) {
		fdprintf(2, PFX "  thread  %u, recorded %u\n", t->tid, e->tid);
		bad++;
	}
	if (e->has_regs)
		bad += compare_regs(uc, &e->regs, 0);
	if (bad) {
		fdprintf(2, PFX "MISMATCH: %s at rip 0x%lx (addr 0x%lx) differs from the "
			 "recorded end (above)\n", signame(sig), mc->rip, addr);
		sys_exit_group(FR_EXIT_MISMATCH);
	}
	fdprintf(2, PFX "reproduced %s at rip 0x%lx (addr 0x%lx), as recorded\n",
		 signame(sig), mc->rip, addr);
	sys_exit_group(FR_EXIT_OK);
}

/* -------------------------------------------------------------------- */
/* Start */

/*
 * From here on the loader makes only the calls that sandbox.c lists; so
 * does every thread it creates (a seccomp filter is inherited by clone).
 */
static void sandbox(void)
{
	long r;

	g.sb.pid = (int)sys0(__NR_getpid);
	g.sb.stdout_ok = !!(g.flags & FRI_F_SHOW_OUTPUT);
	g.sb.clone_flags = THREAD_CLONE_FLAGS;
	g.sb.traced = g.gdbfd >= 0;
	g.sb.n_fds = g.n_outfds;
	if (g.corefd >= 0 && g.sb.n_fds < FR_SANDBOX_MAX_FDS)
		g.sb.fds[g.sb.n_fds++] = g.corefd;
	if (g.gdbfd >= 0 && g.sb.n_fds < FR_SANDBOX_MAX_FDS)
		g.sb.fds[g.sb.n_fds++] = g.gdbfd;
	if ((g.flags & FRI_F_GDB) && g.h->end.kind == FLIGHTREC_END_FAULT)
		g.sb.raise_sig = (int)g.h->end.signo;
	/* the stop at a dump point in user code (at_dump_point) */
	if (g.gdbfd >= 0 && g.h->end.kind == FLIGHTREC_END_DUMP)
		g.sb.raise_sig = SIGTRAP;
	r = fr_sandbox_install(&g.sb);
	if (r)
		die(FR_EXIT_FAIL, "cannot install the replay sandbox (seccomp filter): %s; "
		    "not replaying without it", errname(r));
}

static void stage2(void *arg)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct lthread *main_t = arg;
	const struct fri_thread *th0 = NULL;
	struct fri_regs r;
	uint64_t i, nfill;
	void *p;

	/* what the kernel mapped for us outside the window */
	unmap_block((uint64_t)g.init_sp, "stack");
	if (g.vdso)
		unmap_block(g.vdso, "vDSO");
	check_image();
	/* g.filled and g.fmap: a byte per page each */
	nfill = (2 * g.h->n_pages + FRI_PAGE_SIZE - 1) & ~(FRI_PAGE_SIZE - 1);
	if (nfill) {
		p = sys_mmap(0, nfill, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (is_err((long)p))
			die(FR_EXIT_FAIL, "cannot allocate: %s", errname((long)p));
		if (!in_window((uint64_t)p, (uint64_t)p + nfill)) {
			/* keep our own memory in the window, away from the application's */
			sys2(__NR_munmap, p, nfill);
			p = sys_mmap(FRI_IMAGE_ADDR - page_up(nfill) - 0x1000000, nfill,
				     PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
			if (is_err((long)p))
				die(FR_EXIT_FAIL, "cannot allocate: %s", errname((long)p));
		}
		g.filled = p;
		g.fmap = (uint8_t *)p + g.h->n_pages;
	}
	find_tsc_sites();
	note_cpuid_sites();
	map_regions();
	g.brk = g.h->brk;
	if (!g.brk) {
		g.brk = g.h->brk_start;
		for (i = 0; i < g.h->n_regions; i++)
			if (g.regions[i].flags & FRI_R_HEAP)
				g.brk = g.regions[i].end;
	}
	set_altstack(main_t);
	probe_fpu();
	set_handler(SIGSYS, on_sigsys);
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		set_handler(fatal[i], on_fault);
	set_handler(SIGTRAP, on_trap);
	open_outputs();
	sandbox();

	/* the thread that ended the recording runs here; the others get threads */
	for (i = 0; i < g.h->n_threads; i++)
		if (!th0 || g.threads[i].tid == g.h->end.tid)
			th0 = &g.threads[i];
	main_t->tid = th0->tid;
	main_t->cur = th0->first_sc;
	g.nthreads = 1;
	for (i = 0; i < g.h->n_threads; i++) {
		const struct fri_thread *th = &g.threads[i];
		struct lthread *t;

		if (th == th0)
			continue;
		t = new_thread(th->tid, th->first_sc);
		t->clear_child_tid = th->clear_child_tid;
		t->rseq = th->rseq;
		app_signal_state(t, th);
		alloc_slot(t);
		start_regs(th, &r);
		prepare_frame(t, &r);
		prepare_fp(t, th->xsave_size ? g.base + th->xsave_off : NULL, th->xsave_size);
		spawn(t, th->regs.fs_base, th->regs.gs_base);
	}
	main_t->clear_child_tid = th0->clear_child_tid;
	main_t->rseq = th0->rseq;
	app_signal_state(main_t, th0);
	start_regs(th0, &r);
	prepare_frame(main_t, &r);
	prepare_fp(main_t, th0->xsave_size ? g.base + th0->xsave_off : NULL, th0->xsave_size);
	if (g.h->n_cpuid && sys2(__NR_arch_prctl, ARCH_SET_CPUID, 1) &&
	    !(g.flags & FRI_F_QUIET))
		fdprintf(2, PFX "note: this CPU cannot trap cpuid: the application sees this "
			 "CPU's identification, not the recorded one\n");
	g.t_loaded = now_ns();
	if (!(g.flags & FRI_F_QUIET))
		fdprintf(2, PFX "%s: %u regions, %lu pages, %lu syscalls, %u threads; "
			 "entering at rip 0x%lx\n", g.h->comm, g.h->n_regions, g.h->n_pages,
			 g.h->n_syscalls, g.h->n_threads, th0->regs.rip);
	enter(main_t, th0->regs.fs_base, th0->regs.gs_base);
}

static void usage(void)
{
	die(FR_EXIT_USAGE, "usage: flightrec-loader (IMAGE | -f FD) [-o OUTDIR | -d DIRFD] "
	    "[-c COREFD] [-G GDBFD] [-q] [-s] [-v] [-g] [-F] [-A]\n  (started by `flightrec replay`; not meant to be run by hand)");
}

void loader_main(uint64_t *sp)
{
	int argc = (int)sp[0], i, fd = -1;
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1;
	uint64_t *auxv, size = 0, extra_flags = 0;
	const char *path = NULL, *outdir = NULL;
	struct lthread *main_t;
	void *img;
	long r;

	g.t_start = now_ns();
	g.init_sp = sp;
	g.imgfd = -1;
	g.outdir = -1;
	g.corefd = -1;
	g.gdbfd = -1;
	while (*envp)
		envp++;
	for (auxv = (uint64_t *)(envp + 1); auxv[0] != AT_NULL; auxv += 2)
		if (auxv[0] == AT_SYSINFO_EHDR)
			g.vdso = auxv[1];
	for (i = 1; i < argc; i++) {
		uint64_t v;

		if (!strcmp(argv[i], "-f") && i + 1 < argc) {
			if (parse_u64(argv[++i], &v))
				usage();
			fd = (int)v;
		} else if (!strcmp(argv[i], "-d") && i + 1 < argc) {
			if (parse_u64(argv[++i], &v))
				usage();
			g.outdir = (int)v;
		} else if (!strcmp(argv[i], "-c") && i + 1 < argc) {
			if (parse_u64(argv[++i], &v) || v > 1 << 20)
				usage();
			g.corefd = (int)v;
		} else if (!strcmp(argv[i], "-G") && i + 1 < argc) {
			if (parse_u64(argv[++i], &v) || v > 1 << 20)
				usage();
			g.gdbfd = (int)v;
			extra_flags |= FRI_F_GDB;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			outdir = argv[++i];
		} else if (!strcmp(argv[i], "-q")) {
			extra_flags |= FRI_F_QUIET;
		} else if (!strcmp(argv[i], "-s")) {
			extra_flags |= FRI_F_SHOW_OUTPUT;
		} else if (!strcmp(argv[i], "-v")) {
			extra_flags |= FRI_F_VERBOSE;
		} else if (!strcmp(argv[i], "-g")) {
			extra_flags |= FRI_F_GDB;
		} else if (!strcmp(argv[i], "-F")) {
			g.force = 1;
		} else if (!strcmp(argv[i], "-A")) {
			g.append = 1;
		} else if (argv[i][0] != '-' && !path) {
			path = argv[i];
		} else {
			usage();
		}
	}
	if (path) {
		fd = (int)sys3(__NR_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die(FR_EXIT_BADFILE, "cannot open replay image %s: %s", path, errname(fd));
	}
	if (fd < 0)
		usage();
	r = sys3(__NR_lseek, fd, 0, 2 /* SEEK_END */);
	if (r < (long)sizeof(struct fri_header) || (uint64_t)r > FRI_IMAGE_MAX)
		die(FR_EXIT_BADFILE, "replay image: bad size %ld", r);
	size = (uint64_t)r;
	img = sys_mmap(FRI_IMAGE_ADDR, size, PROT_READ, MAP_PRIVATE | MAP_FIXED_NOREPLACE, fd, 0);
	if (img != (void *)FRI_IMAGE_ADDR)
		die(FR_EXIT_FAIL, "cannot map the replay image: %s", errname((long)img));
	/*
	 * A sealed image (flightrec replay's memfd) cannot change under us:
	 * map_runs() maps pages from it.  Any other is copied from.
	 */
	r = sys2(__NR_fcntl, fd, F_GET_SEALS);
	if (r >= 0 && (r & (F_SEAL_WRITE | F_SEAL_SHRINK)) == (F_SEAL_WRITE | F_SEAL_SHRINK))
		g.imgfd = fd;
	else
		sys1(__NR_close, fd);
	g.base = img;
	g.h = img;
	if (g.h->size != size)
		die(FR_EXIT_BADFILE, "replay image: size %lu, header says %lu", size, g.h->size);
	g.flags = g.h->flags | (uint32_t)extra_flags;
	/*
	 * No core file of the replay (the application's memory) where the
	 * process happens to be: not dumpable, from before the first page of
	 * it is loaded.  Under gdb it must stay dumpable, or gdb could no
	 * longer read its memory.
	 */
	if (!(g.flags & FRI_F_GDB)) {
		r = sys2(__NR_prctl, PR_SET_DUMPABLE, 0);
		if (r)
			die(FR_EXIT_FAIL, "prctl(PR_SET_DUMPABLE, 0): %s", errname(r));
	}
	if (outdir) {
		r = sys3(__NR_openat, AT_FDCWD, outdir,
			 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (r < 0)
			die(FR_EXIT_FAIL, "cannot open output directory %s: %s", outdir, errname(r));
		g.outdir = (int)r;
	}
	main_t = new_thread(0, FRI_NO_NEXT);
	alloc_slot(main_t);
	switch_stack((void *)(slot_addr(main_t) + STACK_OFF + STACK_SIZE), stage2, main_t);
}
