// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec replay --gdbserver [HOST:]PORT: the replay as a target of the
 * GDB remote serial protocol (gdb's "Remote Protocol" appendix), written
 * for flightrec.
 *
 * The loader runs as in a plain replay, in the same sandbox (seccomp filter,
 * empty-root namespaces), under this process's ptrace (PTRACE_SEIZE before
 * it execs).  We are its only debugger; gdb talks to us over TCP and never
 * sees the loader:
 *
 *  - signals that are the loader's business (Syscall User Dispatch's SIGSYS
 *    for every application system call, the #GP of a trapped rdtsc, the
 *    SIGILL of a patched rdtsc site, anything delivered while a thread runs
 *    the loader's own code) are passed on without a stop;
 *  - a thread that waits in the loader is, to gdb, a thread in a system
 *    call: its registers are the application's as it entered the loader
 *    (the loader keeps them for us, struct fri_gdb_thread);
 *  - a step over an instruction that enters the loader (a syscall, rdtsc)
 *    runs the loader with PTRACE_SYSCALL until its rt_sigreturn lands back
 *    in the application, and stops there, on the next instruction;
 *  - threads are named by their recorded pid and tids;
 *  - hardware breakpoints and watchpoints are the CPU's debug registers
 *    (PTRACE_POKEUSER), set in every thread; a watchpoint that the loader
 *    triggers (writing a system call's recorded out-buffer) stops when that
 *    thread is back in the application, after the system call.  On a
 *    machine whose debug registers do not trigger (fr_debugregs_trigger(),
 *    asked once at the start) they are refused with an error and a note,
 *    never accepted to be silently passed by;
 *  - the library list (qXfer:libraries-svr4:read) comes from ld.so's
 *    r_debug in the replayed memory, each library named by the symbol file
 *    the checkpoint's build ID picks; TLS addresses (qGetTLSAddr) from the
 *    thread's DTV.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include "gdbserver.h"
#include "libflightrec.h"
#include "flightrec.h"
#include "loader/image.h"

#define PFX "flightrec replay: gdbserver: "
#define MAX_THREADS	1024
#define PKT_MAX		16384
#define XSAVE_MAX	16384

#ifndef NT_X86_XSTATE
#define NT_X86_XSTATE	0x202
#endif
#ifndef PTRACE_EVENT_STOP
#define PTRACE_EVENT_STOP 128
#endif

enum run_mode { RUN_CONT, RUN_STEP, RUN_SYSSTEP };

struct gthread {
	pid_t tid;
	uint32_t rec_tid;		/* 0: not announced yet (not shown to gdb) */
	uint64_t last_addr, has_last_addr;
	int alive;
	int stopped;
	int interrupt_pending;
	int mode;
	int inject;			/* Linux signal to deliver on resume */
	int deferred;			/* a signal stop kept while stopping the others */
	int dsig;
	uint64_t pending_watch;		/* hit in the loader: report back in the app */
	int startup;			/* the first entry into the application */
	uint64_t last_event;		/* G.events at its latest loader event */
	uint64_t prev_event;		/* and at the one before */
	int ibp_step;			/* stepping over the seek breakpoint */
	uint64_t bp_step;		/* stepping over gdb's breakpoint here (re-executing) */
	int held;			/* an event's signal kept at a stop on it */
	uint64_t lbp_step_addr;		/* &the loader's bp_step of this thread (fri_gdb_thread) */
};

/*
 * A point of the replay, for reverse execution: the number of loader
 * events (system calls, trapped rdtsc: the signals the loader answers for
 * the application) before it, the thread, and its general registers.
 * Replay is deterministic: re-executed from the start, the same point
 * comes after the same number of events, the first time that thread is at
 * that rip with those registers.
 */
struct pos {
	uint64_t before_event;		/* or: before this event (at its syscall instruction) */
	uint64_t events;
	uint64_t tev;			/* the thread's latest event before it */
	uint32_t rec_tid;
	struct user_regs_struct regs;
	/*
	 * Where known (a point reverse-stepi reached): single steps to it
	 * from its base, the `hits`-th arrival of the thread at `anchor` in
	 * the segment (hits 0: the segment's first instruction, after tev).
	 * The next reverse-stepi then needs no counting run.
	 */
	int steps_known;
	uint64_t steps;
	uint64_t anchor, hits;
};

/*
 * A snapshot: a fork of the loader at the signal stop of one event (its
 * signal not delivered yet), kept stopped under our ptrace; restored by
 * forking it again, so it serves any number of times.  Taken only where
 * the replay has one thread (fork copies only the calling thread).
 */
#define MAX_SNAPS	48
/*
 * Step snapshots: inside a thread's segment (after event `events`), at a
 * known number of single steps from a base (the segment's first
 * instruction, or an arrival of the thread at an address), taken by
 * reverse-stepi on its way; the next reverse-stepi steps from the nearest
 * one instead of from the base.  The oldest goes first.
 */
#define MAX_STEP_SNAPS	16
#define STEP_SNAP_FIRST	256	/* counting: at 256, 512, 1024... steps */
#define STEP_SNAP_NEAR	256	/* and this many steps before where it goes */

struct snap {
	pid_t pid;
	uint64_t events;		/* G.events at its stop */
	struct gthread th;		/* the thread as it was (tid: the loader's then) */
	struct user_regs_struct regs;	/* the application's, at the stop */
	siginfo_t si;			/* the event's signal, to deliver */
	uint64_t steps;			/* a step snapshot: single steps from its base: */
	uint64_t anchor, hits;		/* arrival `hits` at anchor in the segment (0: its start) */
	size_t n_cc;			/* our int3s in its memory, with the bytes under them */
	uint64_t *cc_addr;
	uint8_t *cc_orig;
};

struct hwslot {
	int used;
	int type;			/* 1 exec, 2 write, 3 read (refused), 4 access */
	uint64_t addr;
	int len;
};

struct swbp {
	uint64_t addr;
	uint8_t orig;
};

enum stop_kind { STOP_NONE, STOP_SIGNAL, STOP_EXITED, STOP_KILLED };

struct report {
	int kind;
	struct gthread *t;
	int sig;			/* Linux signal (STOP_SIGNAL, STOP_KILLED) */
	int code;			/* STOP_EXITED */
	const char *why;		/* "swbreak", "hwbreak", "watch", "awatch" or NULL */
	uint64_t addr;
};

static struct {
	struct fr_gdbserver *s;
	int sock;
	int noack;
	int multiprocess;
	int memfd;
	int sigfd;
	uint32_t rec_pid;
	uint64_t sigreturn_insn;
	uint8_t sigreturn_orig;
	int startup_bp;			/* the int3 at fr_sigreturn_insn is in */
	int started;			/* stopped at the first application instruction */
	struct gthread th[MAX_THREADS];
	int n_th;
	struct gthread *cur;		/* Hg */
	struct gthread *last_stop;
	struct report stop;		/* the last stop, for '?' */
	struct hwslot hw[4];
	int dregs;			/* fr_debugregs_trigger(): 0 refuses Z1, Z2, Z4 */
	int dregs_said;
	struct swbp *bps;
	size_t n_bps, cap_bps;
	int avx;
	/* reverse execution */
	uint64_t events;		/* loader events since the start of this execution */
	struct pos cur_pos;		/* where the last stop is */
	int have_cur_pos;
	int rev_steps_known;		/* reverse_step_from() stopped rev_steps in */
	uint64_t rev_steps, rev_anchor, rev_hits;	/* from this base */
	struct pos start_pos;		/* the first instruction */
	int seeking;			/* run to `seek` (the int3 `ibp` at its rip) */
	struct pos seek;
	int ibp_in;
	uint64_t ibp_addr;
	uint8_t ibp_orig;
	uint64_t stop_at_event;		/* stop at the signal of this event (0: no) */
	int scanning;			/* bc: record breakpoint hits on the way */
	int have_hit;
	uint64_t at_before_event;	/* the stop is before this event (bs, bc put it there) */
	int hit_back;			/* the hit is after a write: the point is one step back */
	uint64_t hit_event;		/* or before this event (a write by the loader), or 0 */
	struct pos hit;
	const char *hit_why;
	uint64_t hit_addr;
	/* snapshots of the replay (forks kept stopped), by event */
	struct snap *snaps;
	int n_snaps;
	struct snap ssnaps[MAX_STEP_SNAPS];
	int n_ssnaps;
	int snap_ok;			/* the loader has the gadget; not turned off */
	uint64_t snap_syscall;		/* fr_snap_syscall, fr_snap_trap in the loader */
	uint64_t snap_trap;
	uint64_t loader_text, loader_etext;	/* its Syscall User Dispatch range */
	pid_t injecting;		/* the thread whose fork we let through */
	int at_snap;			/* restored, not run yet: */
	uint64_t at_snap_event;		/* at this event, its signal held (or the start: 0) */
	int live;			/* G.s->pid is there (not killed and reaped) */
	int bps_check;			/* a breakpoint was not mapped: check_bps() at events */
	uint64_t lbp_addr;		/* &the loader's struct fri_gdb_bp, 0: not told yet */
	uint64_t n_lbp_traps;		/* the loader's int3 and steps past it, passed on */
	uint64_t want_snap_event;	/* take one at this event whatever the spacing */
	uint64_t snap_last_ns;		/* when the latest was taken (this execution) */
	uint64_t snap_gap_ns;		/* the spacing: 20 ms, or 20 times a fork's cost */
	int snap_gap_fixed;		/* FLIGHTREC_GDBSERVER_SNAP_GAP_MS set it */
	unsigned long n_taken, n_restored, n_restarts, n_start_restored, n_step_restored;
	int debug;			/* FLIGHTREC_GDBSERVER_DEBUG: the ptrace events on stderr */
	int ended;
	int end_status;			/* the replay's exit status, for ours */
	char *xml;			/* qXfer documents, built on demand */
	size_t xml_len;
	char inbuf[PKT_MAX * 2];
	size_t in_len;
} G;

/* SIGKILL to a stopped tracee of ours (a snapshot, a fork), reaped */
static void kill_reap(pid_t pid)
{
	int st;

	kill(pid, SIGKILL);
	while (waitpid(pid, &st, __WALL) == pid && !WIFEXITED(st) && !WIFSIGNALED(st))
		;
}

/* snapshots (below, with reverse execution) */
static void seccomp_decide(pid_t tid);
static void maybe_snap(struct gthread *t, const siginfo_t *si);
static void put_bps(void);
static void check_bps(void);
static struct swbp *find_bp(uint64_t addr);
static int lbp_read(struct fri_gdb_bp *b);

/* ------------------------------------------------------------------ */
/* Linux and gdb signal numbers (gdb's are its own: include/gdb/signals.def) */

static const int lx2gdb[] = {
	[1] = 1, [2] = 2, [3] = 3, [4] = 4, [5] = 5, [6] = 6, [7] = 10, [8] = 8,
	[9] = 9, [10] = 30, [11] = 11, [12] = 31, [13] = 13, [14] = 14, [15] = 15,
	[16] = 143, [17] = 20, [18] = 19, [19] = 17, [20] = 18, [21] = 21, [22] = 22,
	[23] = 16, [24] = 24, [25] = 25, [26] = 26, [27] = 27, [28] = 28, [29] = 23,
	[30] = 32, [31] = 12,
};

static int to_gdb_sig(int sig)
{
	if (sig > 0 && sig < (int)(sizeof(lx2gdb) / sizeof(lx2gdb[0])))
		return lx2gdb[sig];
	if (sig == 32)
		return 77;
	if (sig >= 33 && sig <= 63)
		return 45 + sig - 33;
	if (sig == 64)
		return 78;
	return 143;
}

static int to_linux_sig(int gsig)
{
	int i;

	for (i = 1; i < (int)(sizeof(lx2gdb) / sizeof(lx2gdb[0])); i++)
		if (lx2gdb[i] == gsig && gsig != 143)
			return i;
	if (gsig == 77)
		return 32;
	if (gsig >= 45 && gsig <= 75)
		return gsig - 45 + 33;
	if (gsig == 78)
		return 64;
	return 0;
}

/* ------------------------------------------------------------------ */
/* threads */

static int in_window(uint64_t a)
{
	return a >= FRI_WINDOW_START && a < FRI_WINDOW_END;
}

static struct gthread *find_tid(pid_t tid)
{
	int i;

	for (i = 0; i < G.n_th; i++)
		if (G.th[i].tid == tid && G.th[i].alive)
			return &G.th[i];
	return NULL;
}

static struct gthread *find_rec(uint32_t rec)
{
	int i;

	for (i = 0; i < G.n_th; i++)
		if (G.th[i].alive && G.th[i].rec_tid == rec)
			return &G.th[i];
	return NULL;
}

static struct gthread *add_thread(pid_t tid)
{
	struct gthread *t = find_tid(tid);
	int i;

	if (t)
		return t;
	for (i = 0; i < G.n_th; i++)
		if (!G.th[i].alive)
			break;
	if (i == G.n_th) {
		if (G.n_th == MAX_THREADS)
			return NULL;
		G.n_th++;
	}
	t = &G.th[i];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->alive = 1;
	return t;
}

/* the loader's announcements: which loader thread replays which recorded one */
static void drain_chan(void)
{
	struct fri_gdb_thread m;
	struct gthread *t;

	while (read(G.s->chan, &m, sizeof(m)) == (ssize_t)sizeof(m)) {
		if (m.magic != FRI_GDB_MAGIC)
			continue;
		/*
		 * Every loader thread is known from its clone event before it
		 * runs; one that is gone already (its exit reaped before we
		 * read this) stays gone.
		 */
		t = find_tid((pid_t)m.tid);
		if (!t)
			continue;
		t->rec_tid = m.rec_tid;
		t->last_addr = m.last;
		t->has_last_addr = m.has_last;
		t->lbp_step_addr = m.bp_step;
		G.lbp_addr = m.bp;
	}
}

/* ------------------------------------------------------------------ */
/* memory */

static int mem_read(uint64_t addr, void *buf, size_t len)
{
	ssize_t n = pread(G.memfd, buf, len, (off_t)addr);

	return n == (ssize_t)len ? 0 : -1;
}

static int mem_write(uint64_t addr, const void *buf, size_t len)
{
	ssize_t n = pwrite(G.memfd, buf, len, (off_t)addr);

	return n == (ssize_t)len ? 0 : -1;
}

/* what gdb reads: the application's bytes, without our breakpoints */
static ssize_t mem_read_app(uint64_t addr, uint8_t *buf, size_t len)
{
	ssize_t n = pread(G.memfd, buf, len, (off_t)addr);
	struct fri_gdb_bp lb;
	size_t i;

	if (n <= 0)
		return -1;
	for (i = 0; i < G.n_bps; i++)
		if (G.bps[i].addr >= addr && G.bps[i].addr < addr + (uint64_t)n)
			buf[G.bps[i].addr - addr] = G.bps[i].orig;
	if (G.startup_bp && G.sigreturn_insn >= addr && G.sigreturn_insn < addr + (uint64_t)n)
		buf[G.sigreturn_insn - addr] = G.sigreturn_orig;
	if (lbp_read(&lb) && lb.addr >= addr && lb.addr < addr + (uint64_t)n && !find_bp(lb.addr))
		buf[lb.addr - addr] = lb.byte;
	return n;
}

static int read_u64(uint64_t addr, uint64_t *v)
{
	return mem_read(addr, v, sizeof(*v));
}

/* ------------------------------------------------------------------ */
/* registers */

struct tregs {
	struct user_regs_struct r;
	uint8_t xs[XSAVE_MAX] __attribute__((aligned(64)));
	size_t xs_len;
	int parked;			/* from the loader's copy: the thread waits in it */
};

static int get_regs(struct gthread *t, struct tregs *tr)
{
	struct iovec io = { tr->xs, sizeof(tr->xs) };
	int has_last = 0;

	tr->parked = 0;
	if (ptrace(PTRACE_GETREGS, t->tid, 0, &tr->r)) {
		if (G.debug)
			fprintf(stderr, PFX "debug: GETREGS %d: %s (stopped %d)\n", (int)t->tid,
				strerror(errno), t->stopped);
		return -1;
	}
	memset(tr->xs, 0, sizeof(tr->xs));
	if (ptrace(PTRACE_GETREGSET, t->tid, NT_X86_XSTATE, &io) == 0) {
		tr->xs_len = io.iov_len;
	} else {
		io.iov_len = 512;
		if (ptrace(PTRACE_GETREGSET, t->tid, NT_PRFPREG, &io))
			return -1;
		tr->xs_len = 512;
	}
	if (in_window(tr->r.rip) && t->last_addr && t->has_last_addr &&
	    !mem_read(t->has_last_addr, &has_last, sizeof(has_last)) && has_last) {
		struct fri_regs fr;

		_Static_assert(sizeof(fr) == sizeof(tr->r), "fri_regs is user_regs_struct");
		if (!mem_read(t->last_addr, &fr, sizeof(fr))) {
			memcpy(&tr->r, &fr, sizeof(fr));
			tr->parked = 1;
		}
	}
	return 0;
}

static int set_regs(struct gthread *t, struct tregs *tr)
{
	struct iovec io = { tr->xs, tr->xs_len };

	if (tr->parked)
		return -1;	/* the loader would put its own copy back */
	if (ptrace(PTRACE_SETREGS, t->tid, 0, &tr->r))
		return -1;
	if (ptrace(PTRACE_SETREGSET, t->tid, tr->xs_len > 512 ? NT_X86_XSTATE : NT_PRFPREG, &io))
		return -1;
	return 0;
}

enum rkind { R_GPR, R_GPR32, R_FX, R_TAG, R_FOP, R_YMMH };

struct rdesc {
	const char *name;
	int bits;
	const char *type;
	const char *group;
	int kind;
	size_t off;			/* user_regs_struct or XSAVE offset */
	const char *feature;
};

#define GPR(n, f, ty) { n, 64, ty, NULL, R_GPR, offsetof(struct user_regs_struct, f), "core" }
#define SEG(n, f) { n, 32, "int32", NULL, R_GPR32, offsetof(struct user_regs_struct, f), "core" }
#define ST(i) { "st" #i, 80, "i387_ext", NULL, R_FX, 32 + 16 * (i), "core" }
#define FX32(n, o) { n, 32, "int", "float", R_FX, o, "core" }
#define XMM(i) { "xmm" #i, 128, "vec128", NULL, R_FX, 160 + 16 * (i), "sse" }
#define YMMH(i) { "ymm" #i "h", 128, "uint128", NULL, R_YMMH, 576 + 16 * (i), "avx" }

static const struct rdesc regs[] = {
	GPR("rax", rax, "int64"), GPR("rbx", rbx, "int64"), GPR("rcx", rcx, "int64"),
	GPR("rdx", rdx, "int64"), GPR("rsi", rsi, "int64"), GPR("rdi", rdi, "int64"),
	GPR("rbp", rbp, "data_ptr"), GPR("rsp", rsp, "data_ptr"),
	GPR("r8", r8, "int64"), GPR("r9", r9, "int64"), GPR("r10", r10, "int64"),
	GPR("r11", r11, "int64"), GPR("r12", r12, "int64"), GPR("r13", r13, "int64"),
	GPR("r14", r14, "int64"), GPR("r15", r15, "int64"),
	GPR("rip", rip, "code_ptr"),
	{ "eflags", 32, "i386_eflags", NULL, R_GPR32, offsetof(struct user_regs_struct, eflags),
	  "core" },
	SEG("cs", cs), SEG("ss", ss), SEG("ds", ds), SEG("es", es), SEG("fs", fs), SEG("gs", gs),
	ST(0), ST(1), ST(2), ST(3), ST(4), ST(5), ST(6), ST(7),
	FX32("fctrl", 0), FX32("fstat", 2), { "ftag", 32, "int", "float", R_TAG, 4, "core" },
	FX32("fiseg", 12), FX32("fioff", 8), FX32("foseg", 20), FX32("fooff", 16),
	{ "fop", 32, "int", "float", R_FOP, 6, "core" },
	XMM(0), XMM(1), XMM(2), XMM(3), XMM(4), XMM(5), XMM(6), XMM(7),
	XMM(8), XMM(9), XMM(10), XMM(11), XMM(12), XMM(13), XMM(14), XMM(15),
	{ "mxcsr", 32, "i386_mxcsr", "vector", R_FX, 24, "sse" },
	{ "orig_rax", 64, "int", "system", R_GPR, offsetof(struct user_regs_struct, orig_rax),
	  "linux" },
	{ "fs_base", 64, "int", NULL, R_GPR, offsetof(struct user_regs_struct, fs_base),
	  "segments" },
	{ "gs_base", 64, "int", NULL, R_GPR, offsetof(struct user_regs_struct, gs_base),
	  "segments" },
	YMMH(0), YMMH(1), YMMH(2), YMMH(3), YMMH(4), YMMH(5), YMMH(6), YMMH(7),
	YMMH(8), YMMH(9), YMMH(10), YMMH(11), YMMH(12), YMMH(13), YMMH(14), YMMH(15),
};
#define N_BASE_REGS	60		/* without the ymm halves */

static int n_regs(void)
{
	return G.avx ? (int)(sizeof(regs) / sizeof(regs[0])) : N_BASE_REGS;
}

/* the full x87 tag word from FXSAVE's abridged one (as the CPU's FSAVE has it) */
static uint32_t full_tag(const uint8_t *fx)
{
	uint16_t fsw = (uint16_t)(fx[2] | fx[3] << 8);
	int top = (fsw >> 11) & 7, phys;
	uint32_t tag = 0;

	for (phys = 0; phys < 8; phys++) {
		const uint8_t *st = fx + 32 + 16 * ((phys - top + 8) & 7);
		uint16_t exp = (uint16_t)((st[9] << 8 | st[8]) & 0x7fff);
		uint64_t mant;
		int t;

		memcpy(&mant, st, 8);
		if (!(fx[4] & (1 << phys)))
			t = 3;
		else if (exp == 0x7fff)
			t = 2;
		else if (exp == 0)
			t = mant ? 2 : 1;
		else
			t = (mant >> 63) ? 0 : 2;
		tag |= (uint32_t)t << (2 * phys);
	}
	return tag;
}

/* register i's bytes (little-endian, bits/8 of them) */
static void reg_bytes(const struct rdesc *d, const struct tregs *tr, uint8_t *out)
{
	uint32_t v;

	memset(out, 0, 16);
	switch (d->kind) {
	case R_GPR:
		memcpy(out, (const uint8_t *)&tr->r + d->off, 8);
		break;
	case R_GPR32:
		memcpy(out, (const uint8_t *)&tr->r + d->off, 4);
		break;
	case R_FX:
		memcpy(out, tr->xs + d->off, d->bits == 32 && (d->off == 0 || d->off == 2) ? 2 :
		       (size_t)(d->bits / 8));
		break;
	case R_TAG:
		v = full_tag(tr->xs);
		memcpy(out, &v, 4);
		break;
	case R_FOP:
		v = (uint32_t)(tr->xs[6] | tr->xs[7] << 8) & 0x7ff;
		memcpy(out, &v, 4);
		break;
	case R_YMMH:
		if (tr->xs_len >= d->off + 16)
			memcpy(out, tr->xs + d->off, 16);
		break;
	}
}

static void set_reg_bytes(const struct rdesc *d, struct tregs *tr, const uint8_t *in)
{
	uint32_t v;
	int phys;

	switch (d->kind) {
	case R_GPR:
		memcpy((uint8_t *)&tr->r + d->off, in, 8);
		break;
	case R_GPR32:
		memset((uint8_t *)&tr->r + d->off, 0, 8);
		memcpy((uint8_t *)&tr->r + d->off, in, 4);
		break;
	case R_FX:
		memcpy(tr->xs + d->off, in, d->bits == 32 && (d->off == 0 || d->off == 2) ? 2 :
		       (size_t)(d->bits / 8));
		break;
	case R_TAG:
		memcpy(&v, in, 4);
		tr->xs[4] = 0;
		for (phys = 0; phys < 8; phys++)
			if (((v >> (2 * phys)) & 3) != 3)
				tr->xs[4] |= (uint8_t)(1 << phys);
		break;
	case R_FOP:
		memcpy(&v, in, 4);
		tr->xs[6] = (uint8_t)v;
		tr->xs[7] = (uint8_t)((v >> 8) & 7);
		break;
	case R_YMMH:
		if (tr->xs_len >= d->off + 16) {
			memcpy(tr->xs + d->off, in, 16);
			tr->xs[512] |= 4;	/* XSTATE_BV: the AVX state is not init */
		}
		break;
	}
}

/* ------------------------------------------------------------------ */
/* packets */

static const char hexd[] = "0123456789abcdef";

static int hexv(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* hex digits at *p to a number; moves *p past them */
static uint64_t parse_hex(const char **p)
{
	uint64_t v = 0;
	int d;

	while ((d = hexv(**p)) >= 0) {
		v = v << 4 | (uint64_t)d;
		(*p)++;
	}
	return v;
}

static int hex_to_bin(const char *h, uint8_t *out, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int a = hexv(h[2 * i]), b = a < 0 ? -1 : hexv(h[2 * i + 1]);

		if (a < 0 || b < 0)
			return -1;
		out[i] = (uint8_t)(a << 4 | b);
	}
	return 0;
}

struct obuf {
	char *p;
	size_t len, cap;
};

static void ob_add(struct obuf *o, const void *d, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 1024;
		char *p;

		while (cap < o->len + n + 1)
			cap *= 2;
		p = realloc(o->p, cap);
		if (!p)
			return;
		o->p = p;
		o->cap = cap;
	}
	memcpy(o->p + o->len, d, n);
	o->len += n;
	o->p[o->len] = 0;
}

static void ob_str(struct obuf *o, const char *s)
{
	ob_add(o, s, strlen(s));
}

static void __attribute__((format(printf, 2, 3))) ob_fmt(struct obuf *o, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		ob_add(o, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

static void ob_hex(struct obuf *o, const uint8_t *d, size_t n)
{
	size_t i;
	char b[2];

	for (i = 0; i < n; i++) {
		b[0] = hexd[d[i] >> 4];
		b[1] = hexd[d[i] & 15];
		ob_add(o, b, 2);
	}
}

static int send_all(const void *d, size_t n)
{
	const char *p = d;

	while (n) {
		ssize_t w = send(G.sock, p, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* one byte from gdb; -1 at the end of the connection */
static int get_byte(void)
{
	if (!G.in_len) {
		ssize_t n;

		do
			n = recv(G.sock, G.inbuf, sizeof(G.inbuf), 0);
		while (n < 0 && errno == EINTR);
		if (n <= 0)
			return -1;
		G.in_len = (size_t)n;
	}
	{
		int c = (unsigned char)G.inbuf[0];

		memmove(G.inbuf, G.inbuf + 1, --G.in_len);
		return c;
	}
}

/* sends a packet with its binary data escaped; waits for the ack */
static int put_packet(const char *d, size_t n)
{
	struct obuf o = { 0 };
	unsigned int sum = 0;
	size_t i;
	char tail[4];
	int c;

	ob_str(&o, "$");
	for (i = 0; i < n; i++) {
		char ch = d[i];

		if (ch == '$' || ch == '#' || ch == '}' || ch == '*') {
			char e[2] = { '}', (char)(ch ^ 0x20) };

			ob_add(&o, e, 2);
			sum += (unsigned char)'}' + (unsigned char)(ch ^ 0x20);
		} else {
			ob_add(&o, &ch, 1);
			sum += (unsigned char)ch;
		}
	}
	snprintf(tail, sizeof(tail), "#%02x", sum & 0xff);
	ob_str(&o, tail);
	for (;;) {
		if (!o.p || send_all(o.p, o.len)) {
			free(o.p);
			return -1;
		}
		if (G.noack)
			break;
		c = get_byte();
		if (c == '+')
			break;
		if (c != '-') {
			free(o.p);
			return -1;
		}
	}
	free(o.p);
	return 0;
}

static int put_str(const char *s)
{
	return put_packet(s, strlen(s));
}

/* reads one packet into buf (unescaped, NUL-terminated); 0x03 alone is "\003" */
static int get_packet(char *buf, size_t size)
{
	int c;
	size_t n;
	unsigned int sum;

	for (;;) {
		c = get_byte();
		if (c < 0)
			return -1;
		if (c == 3) {
			buf[0] = 3;
			buf[1] = 0;
			return 1;
		}
		if (c != '$')
			continue;
		n = 0;
		sum = 0;
		while ((c = get_byte()) >= 0 && c != '#') {
			sum += (unsigned int)c;
			if (c == '}') {
				int e = get_byte();

				if (e < 0)
					return -1;
				sum += (unsigned int)e;
				c = e ^ 0x20;
			}
			if (n + 1 < size)
				buf[n++] = (char)c;
		}
		if (c < 0)
			return -1;
		{
			int a = get_byte(), b = get_byte();

			if (a < 0 || b < 0)
				return -1;
			if (!G.noack) {
				if ((unsigned int)(hexv(a) << 4 | hexv(b)) != (sum & 0xff)) {
					send_all("-", 1);
					continue;
				}
				send_all("+", 1);
			}
		}
		buf[n] = 0;
		return (int)n;
	}
}

/* ------------------------------------------------------------------ */
/* ptrace control */

static void set_dregs(struct gthread *t)
{
	uint64_t dr7 = 0;
	int i;

	for (i = 0; i < 4; i++) {
		struct hwslot *h = &G.hw[i];
		uint64_t rw, len;

		ptrace(PTRACE_POKEUSER, t->tid, offsetof(struct user, u_debugreg[i]),
		       h->used ? h->addr : 0);
		if (!h->used)
			continue;
		rw = h->type == 1 ? 0 : h->type == 2 ? 1 : 3;
		len = h->type == 1 ? 0 : h->len == 1 ? 0 : h->len == 2 ? 1 : h->len == 8 ? 2 : 3;
		dr7 |= 1ull << (2 * i) | rw << (16 + 4 * i) | len << (18 + 4 * i);
	}
	ptrace(PTRACE_POKEUSER, t->tid, offsetof(struct user, u_debugreg[7]), dr7);
}

static void set_dregs_all(void)
{
	int i;

	for (i = 0; i < G.n_th; i++)
		if (G.th[i].alive && G.th[i].stopped)
			set_dregs(&G.th[i]);
}

static int resume(struct gthread *t)
{
	struct user_regs_struct r;
	int req = PTRACE_CONT;

	if (t->mode == RUN_STEP || t->mode == RUN_SYSSTEP) {
		if (!ptrace(PTRACE_GETREGS, t->tid, 0, &r) && in_window(r.rip))
			t->mode = RUN_SYSSTEP;
		req = t->mode == RUN_SYSSTEP ? PTRACE_SYSCALL : PTRACE_SINGLESTEP;
	}
	if (ptrace(req, t->tid, 0, t->inject)) {
		if (errno == ESRCH) {
			t->stopped = 0;	/* gone: its exit is on the way */
			return 0;
		}
		return -1;
	}
	t->inject = 0;
	t->stopped = 0;
	return 0;
}

static int is_tsc_insn(uint64_t rip)
{
	uint8_t b[3];

	if (mem_read(rip, b, 3))
		return 0;
	return (b[0] == 0x0f && b[1] == 0x31) || (b[0] == 0x0f && b[1] == 0x01 && b[2] == 0xf9);
}

/* cpuid, which faults (#GP, SIGSEGV) where the loader enables cpuid faulting */
static int is_cpuid_insn(uint64_t rip)
{
	uint8_t b[2];

	return !mem_read(rip, b, 2) && b[0] == 0x0f && b[1] == 0xa2;
}

static int is_ud2(uint64_t rip)
{
	uint8_t b[2];

	return !mem_read(rip, b, 2) && b[0] == 0x0f && b[1] == 0x0b;
}

static struct swbp *find_bp(uint64_t addr)
{
	size_t i;

	for (i = 0; i < G.n_bps; i++)
		if (G.bps[i].addr == addr)
			return &G.bps[i];
	return NULL;
}

/*
 * The loader's int3 (struct fri_gdb_bp in image.h), read from its memory:
 * 1 and *b while it is armed.  The loader reads the byte it replaces from
 * the application's memory: where one of our int3s was there already, it
 * read ours, and is given the application's (it writes that byte back when
 * it steps past its int3 or takes it out).
 */
static int lbp_read(struct fri_gdb_bp *b)
{
	struct swbp *sw;
	uint8_t orig;

	if (!G.lbp_addr)
		drain_chan();
	if (!G.lbp_addr || mem_read(G.lbp_addr, b, sizeof(*b)) || !b->armed)
		return 0;
	if (b->byte == 0xcc) {
		sw = find_bp(b->addr);
		orig = sw ? sw->orig : G.ibp_in && G.ibp_addr == b->addr ? G.ibp_orig : 0xcc;
		if (orig != 0xcc &&
		    !mem_write(G.lbp_addr + offsetof(struct fri_gdb_bp, byte), &orig, 1))
			b->byte = orig;
	}
	return 1;
}

/* is the loader's int3 armed at addr? */
static int lbp_at(uint64_t addr)
{
	struct fri_gdb_bp b;

	return lbp_read(&b) && b.addr == addr;
}

/* what belongs at addr when one of our int3s there goes: the loader's may stay */
static uint8_t unbp_byte(uint64_t addr, uint8_t orig)
{
	return lbp_at(addr) ? 0xcc : orig;
}

static void remove_startup_bp(void)
{
	if (G.startup_bp) {
		mem_write(G.sigreturn_insn, &G.sigreturn_orig, 1);
		G.startup_bp = 0;
	}
}


/* ------------------------------------------------------------------ */
/* reverse execution: points, and the breakpoint that finds one */

static int regs_match(const struct user_regs_struct *a, const struct user_regs_struct *b)
{
	/* the general registers and the arithmetic flags (not TF, RF) */
	return a->rip == b->rip && a->rsp == b->rsp && a->rbp == b->rbp && a->rax == b->rax &&
	       a->rbx == b->rbx && a->rcx == b->rcx && a->rdx == b->rdx && a->rsi == b->rsi &&
	       a->rdi == b->rdi && a->r8 == b->r8 && a->r9 == b->r9 && a->r10 == b->r10 &&
	       a->r11 == b->r11 && a->r12 == b->r12 && a->r13 == b->r13 && a->r14 == b->r14 &&
	       a->r15 == b->r15 && a->fs_base == b->fs_base &&
	       (a->eflags & 0xcd5) == (b->eflags & 0xcd5);
}

static void pos_of(struct gthread *t, const struct user_regs_struct *r, struct pos *p)
{
	memset(p, 0, sizeof(*p));
	p->events = G.events;
	p->tev = t->last_event;
	p->rec_tid = t->rec_tid;
	p->regs = *r;
}

/* the byte under addr as the application has it (not our int3s) */
static uint8_t app_byte(uint64_t addr)
{
	struct swbp *b = find_bp(addr);
	struct fri_gdb_bp lb;
	uint8_t v = 0;

	if (b)
		return b->orig;
	if (G.ibp_in && addr == G.ibp_addr)
		return G.ibp_orig;
	if (lbp_read(&lb) && lb.addr == addr)
		return lb.byte;
	mem_read(addr, &v, 1);
	return v;
}

static void ibp_insert(void)
{
	uint8_t cc = 0xcc;

	if (G.ibp_in)
		return;
	G.ibp_addr = G.seek.regs.rip;
	G.ibp_orig = app_byte(G.ibp_addr);
	if (!mem_write(G.ibp_addr, &cc, 1))
		G.ibp_in = 1;
}

static void ibp_remove(void)
{
	uint8_t v;

	if (!G.ibp_in)
		return;
	G.ibp_in = 0;
	v = find_bp(G.ibp_addr) ? 0xcc : unbp_byte(G.ibp_addr, G.ibp_orig);
	mem_write(G.ibp_addr, &v, 1);
}

/* runs one instruction at an int3 of ours (the byte put back meanwhile) */
static void step_over(struct gthread *t, uint64_t addr)
{
	uint8_t orig = app_byte(addr);

	mem_write(addr, &orig, 1);
	if (ptrace(PTRACE_SINGLESTEP, t->tid, 0, 0) == 0)
		t->stopped = 0;
}

/* after step_over: the int3s that belong at addr again */
static void step_over_done(uint64_t addr)
{
	uint8_t cc = 0xcc;

	if (find_bp(addr) || (G.ibp_in && G.ibp_addr == addr))
		mem_write(addr, &cc, 1);
}

/*
 * A SIGTRAP of the loader's (its int3, or its single step past it) goes on
 * to it, as its SIGSYS does.  Not an event (G.events): replay is
 * deterministic, and its traps come again at the same points.  A step of
 * gdb's that took one goes on through the loader to the application
 * (RUN_SYSSTEP), as a step over a system call does.
 */
static int lbp_pass(struct gthread *t, struct user_regs_struct *r, int rewound)
{
	if (rewound) {
		r->rip++;	/* where the loader finds its int3's trap */
		ptrace(PTRACE_SETREGS, t->tid, 0, r);
	}
	if (G.debug)
		fprintf(stderr, PFX "debug: tid %d: the loader's trap at rip %#llx, passed on\n",
			(int)t->tid, (unsigned long long)r->rip);
	G.n_lbp_traps++;
	t->inject = SIGTRAP;
	if (t->mode == RUN_STEP)
		t->mode = RUN_SYSSTEP;
	resume(t);
	return 0;
}

/*
 * The loader's SIGTRAP at r: 1 when it is.  `ours`: where one of gdb's
 * breakpoints is at the same place (and in memory), the trap is that one.
 */
static int is_lbp_trap(struct gthread *t, const siginfo_t *si, const struct user_regs_struct *r,
		       int ours)
{
	struct fri_gdb_bp lb;
	int step = 0;

	if (si->si_code == SI_KERNEL && lbp_read(&lb) && r->rip - 1 == lb.addr &&
	    !(ours && find_bp(lb.addr)))
		return 1;
	if (!t->lbp_step_addr)
		drain_chan();
	return t->lbp_step_addr && !mem_read(t->lbp_step_addr, &step, sizeof(step)) && step;
}

/* t is at the loader's int3, single-stepping (TF) past it */
static int lbp_stepping(struct gthread *t, const struct user_regs_struct *r)
{
	struct fri_gdb_bp lb;
	int step = 0;

	return t->lbp_step_addr && !mem_read(t->lbp_step_addr, &step, sizeof(step)) && step &&
	       lbp_read(&lb) && lb.addr == r->rip;
}

static void record_hit(struct gthread *t, const struct user_regs_struct *r, const char *why,
		       uint64_t addr)
{
	struct pos p;

	if (!G.scanning)
		return;
	drain_chan();
	pos_of(t, r, &p);
	/* the point we go back from is not before itself */
	if (p.events == G.seek.events && p.rec_tid == G.seek.rec_tid &&
	    regs_match(&p.regs, &G.seek.regs))
		return;
	G.hit = p;
	G.hit_why = why;
	G.hit_addr = addr;
	G.have_hit = 1;
	/*
	 * A watchpoint traps after the write; going backwards the stop is
	 * before it, where the old value is still there: one instruction
	 * back, or before the system call whose result the loader wrote.
	 */
	G.hit_back = strcmp(why, "swbreak") && strcmp(why, "hwbreak");
	G.hit_event = 0;
}

/*
 * A signal-delivery stop of t: the loader's own (passed on, resumed) or
 * one for gdb (returns 1 and fills rep).
 */
static int classify_signal(struct gthread *t, int sig, struct report *rep)
{
	struct user_regs_struct r;
	siginfo_t si;
	uint64_t dr6 = 0;

	memset(&si, 0, sizeof(si));
	if (ptrace(PTRACE_GETSIGINFO, t->tid, 0, &si) || ptrace(PTRACE_GETREGS, t->tid, 0, &r))
		return 0;
	memset(rep, 0, sizeof(*rep));
	rep->kind = STOP_SIGNAL;
	rep->t = t;
	rep->sig = sig;
	if (G.debug)
		fprintf(stderr, PFX "debug: tid %d signal %d code %d at rip %#llx (event %llu)\n",
			(int)t->tid, sig, si.si_code, (unsigned long long)r.rip,
			(unsigned long long)G.events);
	if (sig == SIGTRAP) {
		errno = 0;
		dr6 = (uint64_t)ptrace(PTRACE_PEEKUSER, t->tid, offsetof(struct user, u_debugreg[6]),
				       0);
		if (errno)
			dr6 = 0;
		/* re-executing: the step over one of our int3s is done */
		if (t->ibp_step || t->bp_step) {
			step_over_done(t->ibp_step ? G.ibp_addr : t->bp_step);
			t->ibp_step = 0;
			t->bp_step = 0;
			if (!(dr6 & 0xf)) {
				resume(t);
				return 0;
			}
		}
		/* re-executing to a point: its breakpoint */
		if (G.ibp_in && si.si_code == SI_KERNEL && r.rip - 1 == G.ibp_addr) {
			r.rip--;
			ptrace(PTRACE_SETREGS, t->tid, 0, &r);
			drain_chan();
			if (t->rec_tid == G.seek.rec_tid && regs_match(&r, &G.seek.regs)) {
				ibp_remove();
				rep->why = "seek";
				return 1;
			}
			if (find_bp(r.rip))
				record_hit(t, &r, "swbreak", 0);
			/* the loader's int3 too: its trap, and its own step past it */
			if (lbp_at(r.rip))
				return lbp_pass(t, &r, 1);
			t->ibp_step = 1;
			step_over(t, r.rip);
			return 0;
		}
		/* our int3 where the loader enters the application */
		if (si.si_code == SI_KERNEL && r.rip - 1 == G.sigreturn_insn) {
			r.rip--;
			ptrace(PTRACE_SETREGS, t->tid, 0, &r);
			if (!G.started) {
				remove_startup_bp();
				t->startup = 1;
				t->mode = RUN_SYSSTEP;
			}
			resume(t);
			return 0;
		}
		if (dr6 & 0xf) {
			int i;

			ptrace(PTRACE_POKEUSER, t->tid, offsetof(struct user, u_debugreg[6]), 0);
			for (i = 0; i < 4; i++) {
				if (!(dr6 & (1u << i)) || !G.hw[i].used)
					continue;
				if ((G.seeking || G.scanning) && !in_window(r.rip)) {
					/* re-executing: noted (bc), and on */
					record_hit(t, &r, G.hw[i].type == 1 ? "hwbreak" :
						   G.hw[i].type == 2 ? "watch" : "awatch", G.hw[i].addr);
					if (G.hw[i].type == 1) {
						r.eflags |= 0x10000;	/* RF: on past it */
						ptrace(PTRACE_SETREGS, t->tid, 0, &r);
					}
					resume(t);
					return 0;
				}
				if (in_window(r.rip)) {
					/* the loader wrote it for the application: stop after the call */
					t->pending_watch = G.hw[i].addr | (uint64_t)i << 62;
					t->mode = RUN_SYSSTEP;
					resume(t);
					return 0;
				}
				rep->why = G.hw[i].type == 1 ? "hwbreak" : G.hw[i].type == 2 ?
					   "watch" : "awatch";
				rep->addr = G.hw[i].addr;
				return 1;
			}
			if (!(dr6 & 0x4000)) {		/* not also a single step */
				resume(t);
				return 0;
			}
		}
		/* after the watchpoints: a step of the loader's that hit one stops for gdb */
		if (is_lbp_trap(t, &si, &r, 1))
			return lbp_pass(t, &r, 0);
		if (si.si_code == SI_KERNEL && find_bp(r.rip - 1)) {
			r.rip--;
			ptrace(PTRACE_SETREGS, t->tid, 0, &r);
			if (G.seeking || G.scanning) {
				/* re-executing: noted (bc), and on */
				record_hit(t, &r, "swbreak", 0);
				if (lbp_at(r.rip))
					return lbp_pass(t, &r, 1);
				t->bp_step = r.rip;
				step_over(t, r.rip);
				return 0;
			}
			/* a resume runs the int3 again: the loader's, where it is also there */
			rep->why = "swbreak";
			return 1;
		}
		if (in_window(r.rip)) {
			resume(t);
			return 0;
		}
		return 1;	/* a step ended, or the application's own trap */
	}
	if (in_window(r.rip) ||
	    (sig == SIGSYS && si.si_code == 2 /* SYS_USER_DISPATCH */) ||
	    (sig == SIGSEGV && si.si_code == SI_KERNEL &&
	     (is_tsc_insn(r.rip) || is_cpuid_insn(r.rip))) ||
	    (sig == SIGILL && (G.s->tsc_patched || G.s->cpuid_patched) && is_ud2(r.rip))) {
		if (!in_window(r.rip)) {
			/* an event: the loader answers the application */
			G.events++;
			t->prev_event = t->last_event;
			t->last_event = G.events;
			if (t->ibp_step || t->bp_step) {
				/* the step over our int3 ended in the loader */
				step_over_done(t->ibp_step ? G.ibp_addr : t->bp_step);
				t->ibp_step = 0;
				t->bp_step = 0;
			}
			if (G.bps_check)
				check_bps();
			maybe_snap(t, &si);
			if (G.stop_at_event && G.events == G.stop_at_event) {
				t->held = sig;
				rep->why = "event";
				return 1;
			}
			if (G.seeking && G.events == G.seek.events)
				ibp_insert();
		}
		t->inject = sig;
		if (t->mode == RUN_STEP)
			t->mode = RUN_SYSSTEP;
		resume(t);
		return 0;
	}
	return 1;
}

/* a syscall stop in RUN_SYSSTEP: back in the application yet? */
static int classify_sysstop(struct gthread *t, struct report *rep)
{
	struct user_regs_struct r;

	if (ptrace(PTRACE_GETREGS, t->tid, 0, &r))
		return 0;
	if (t->mode != RUN_SYSSTEP || in_window(r.rip)) {
		resume(t);
		return 0;
	}
	/*
	 * Back at the loader's int3 that it now steps past (TF): a step of
	 * gdb's runs that instruction too, not stopping where it began.
	 */
	if (!t->pending_watch && !t->startup && lbp_stepping(t, &r)) {
		t->mode = RUN_STEP;
		resume(t);
		return 0;
	}
	memset(rep, 0, sizeof(*rep));
	rep->kind = STOP_SIGNAL;
	rep->t = t;
	rep->sig = SIGTRAP;
	if (t->pending_watch && (G.seeking || G.scanning) && !t->startup) {
		int i = (int)(t->pending_watch >> 62);

		record_hit(t, &r, G.hw[i].type == 2 ? "watch" : "awatch",
			   t->pending_watch & ~(3ull << 62));
		if (G.have_hit && G.hit.tev == t->last_event && G.hit_back)
			G.hit_event = t->last_event;	/* written by the loader */
		t->pending_watch = 0;
		t->mode = RUN_CONT;
		resume(t);
		return 0;
	}
	if (t->pending_watch) {
		int i = (int)(t->pending_watch >> 62);

		rep->why = G.hw[i].type == 2 ? "watch" : G.hw[i].type == 1 ? "hwbreak" : "awatch";
		rep->addr = t->pending_watch & ~(3ull << 62);
		t->pending_watch = 0;
	}
	if (t->startup) {
		t->startup = 0;
		G.started = 1;
	}
	t->mode = RUN_STEP;
	return 1;
}

/*
 * One wait status of tid.  stopping: we are stopping every thread, so a
 * thread that stops stays stopped (a signal is kept for later).  Returns 1
 * with rep filled when gdb is to hear of it.
 */
static int handle_status(pid_t tid, int st, int stopping, struct report *rep)
{
	struct gthread *t = find_tid(tid);
	int sig, ev;

	if (G.debug)
		fprintf(stderr, PFX "debug: tid %d status %#x%s\n", (int)tid, st,
			stopping ? " (stopping)" : "");
	if (WIFEXITED(st) || WIFSIGNALED(st)) {
		if (t)
			t->alive = 0;
		if (tid == G.s->pid) {
			memset(rep, 0, sizeof(*rep));
			rep->kind = WIFEXITED(st) ? STOP_EXITED : STOP_KILLED;
			rep->code = WIFEXITED(st) ? WEXITSTATUS(st) : 0;
			rep->sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
			return 1;
		}
		return 0;
	}
	if (!WIFSTOPPED(st))
		return 0;
	if (!t) {
		t = add_thread(tid);	/* a new thread, before its parent's event */
		if (!t)
			return 0;
	}
	t->stopped = 1;
	sig = WSTOPSIG(st);
	ev = st >> 16;
	if (ev == PTRACE_EVENT_CLONE) {
		unsigned long child = 0;
		struct gthread *n;

		if (!ptrace(PTRACE_GETEVENTMSG, tid, 0, &child) && (n = add_thread((pid_t)child)))
			(void)n;
		if (!stopping)
			resume(t);
		return 0;
	}
	if (ev == PTRACE_EVENT_SECCOMP) {
		seccomp_decide(tid);
		if (!stopping)
			resume(t);
		return 0;
	}
	if (ev == PTRACE_EVENT_FORK) {
		unsigned long child = 0;

		/* only ours (inject_fork) are let through: never here */
		if (!ptrace(PTRACE_GETEVENTMSG, tid, 0, &child) && child)
			kill_reap((pid_t)child);
		if (!stopping)
			resume(t);
		return 0;
	}
	if (ev == PTRACE_EVENT_EXEC) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/mem", (int)G.s->pid);
		if (G.memfd >= 0)
			close(G.memfd);
		G.memfd = open(path, O_RDWR | O_CLOEXEC);
		if (G.memfd >= 0 && !mem_read(G.sigreturn_insn, &G.sigreturn_orig, 1)) {
			uint8_t cc = 0xcc;

			if (!mem_write(G.sigreturn_insn, &cc, 1))
				G.startup_bp = 1;
		}
		resume(t);
		return 0;
	}
	if (ev == PTRACE_EVENT_STOP) {
		if (t->interrupt_pending) {
			t->interrupt_pending = 0;
			if (stopping)
				return 0;
		}
		set_dregs(t);
		if (!stopping)
			resume(t);
		return 0;
	}
	if (sig == (SIGTRAP | 0x80)) {
		if (stopping)
			return 0;
		return classify_sysstop(t, rep);
	}
	if (stopping) {
		t->deferred = 1;
		t->dsig = sig;
		return 0;
	}
	return classify_signal(t, sig, rep);
}

static int all_stopped(void)
{
	int i;

	for (i = 0; i < G.n_th; i++)
		if (G.th[i].alive && !G.th[i].stopped)
			return 0;
	return 1;
}

/* stops every running thread (all-stop); 1 if the process ended meanwhile */
static int stop_all(struct report *end)
{
	int i, st;
	pid_t w;
	struct report rep;

	for (i = 0; i < G.n_th; i++) {
		struct gthread *t = &G.th[i];

		if (t->alive && !t->stopped && !t->interrupt_pending) {
			if (ptrace(PTRACE_INTERRUPT, t->tid, 0, 0) == 0)
				t->interrupt_pending = 1;
		}
	}
	while (!all_stopped()) {
		w = waitpid(-1, &st, __WALL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (handle_status(w, st, 1, &rep) && rep.kind != STOP_SIGNAL) {
			*end = rep;
			return 1;
		}
	}
	drain_chan();
	return 0;
}

/*
 * Resumes the threads as set (mode, inject) and waits for the next stop gdb
 * is to hear of; then every thread is stopped again.  A stop kept while
 * stopping the others comes first.  ^C from gdb stops everything (SIGINT).
 */
static void run_until_stop(struct report *rep)
{
	struct pollfd pf[2];
	struct signalfd_siginfo ssi;
	int i, st;
	pid_t w;

	for (i = 0; i < G.n_th; i++) {
		struct gthread *t = &G.th[i];

		if (t->alive && t->stopped && t->deferred) {
			t->deferred = 0;
			if (classify_signal(t, t->dsig, rep)) {
				stop_all(rep);
				return;
			}
		}
	}
	for (i = 0; i < G.n_th; i++)
		if (G.th[i].alive && G.th[i].stopped)
			resume(&G.th[i]);
	for (;;) {
		while ((w = waitpid(-1, &st, __WALL | WNOHANG)) > 0) {
			if (handle_status(w, st, 0, rep)) {
				if (rep->kind == STOP_SIGNAL) {
					struct report end;

					if (stop_all(&end))
						*rep = end;
				}
				drain_chan();
				return;
			}
		}
		if (w < 0 && errno == ECHILD) {
			rep->kind = STOP_EXITED;
			rep->code = FR_EXIT_FAIL;
			return;
		}
		pf[0].fd = G.sigfd;
		pf[0].events = POLLIN;
		pf[1].fd = G.sock;
		pf[1].events = POLLIN;
		if (poll(pf, G.sock >= 0 ? 2 : 1, -1) < 0 && errno != EINTR)
			continue;
		if (pf[0].revents & POLLIN)
			while (read(G.sigfd, &ssi, sizeof(ssi)) > 0)
				;
		if (G.sock >= 0 && (pf[1].revents & (POLLIN | POLLHUP | POLLERR))) {
			char ch;
			ssize_t n = recv(G.sock, &ch, 1, MSG_PEEK);

			if (n <= 0 || ch == 3) {
				if (n > 0)
					recv(G.sock, &ch, 1, 0);
				if (n <= 0) {
					/* gdb went away: the replay is killed */
					kill(G.s->pid, SIGKILL);
					close(G.sock);
					G.sock = -1;
					continue;
				}
				memset(rep, 0, sizeof(*rep));
				rep->kind = STOP_SIGNAL;
				rep->sig = SIGINT;
				if (!stop_all(rep)) {
					rep->kind = STOP_SIGNAL;
					rep->sig = SIGINT;
					rep->t = G.last_stop && G.last_stop->alive ? G.last_stop : NULL;
					for (i = 0; !rep->t && i < G.n_th; i++)
						if (G.th[i].alive && G.th[i].rec_tid)
							rep->t = &G.th[i];
				}
				return;
			} else {
				/* a packet while running: only ^C is meant; wait for the stop */
				usleep(1000);
			}
		}
	}
}


/*
 * From a seized loader (not yet exec'd) to the first instruction of the
 * application, every thread stopped.  0, the replay's status when it ended
 * first, or -1.
 */
static int to_first_insn(struct report *rep)
{
	struct user_regs_struct r;
	int st;
	pid_t w;

	G.started = 0;
	G.events = 0;
	add_thread(G.s->pid);
	memset(rep, 0, sizeof(*rep));
	for (;;) {
		w = waitpid(-1, &st, __WALL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, PFX "waitpid: %s\n", strerror(errno));
			return -1;
		}
		if (!handle_status(w, st, 0, rep))
			continue;
		if (rep->kind != STOP_SIGNAL)
			return rep->kind == STOP_EXITED && rep->code ? rep->code : -1;
		if (G.started)
			break;
		/* the application stopped before its first instruction?  Not ours. */
		rep->t->inject = rep->sig;
		resume(rep->t);
	}
	if (stop_all(rep))
		return rep->kind == STOP_EXITED && rep->code ? rep->code : -1;
	drain_chan();
	set_dregs_all();
	if (!ptrace(PTRACE_GETREGS, rep->t->tid, 0, &r)) {
		pos_of(rep->t, &r, &G.cur_pos);
		G.have_cur_pos = 1;
	}
	return 0;
}

static void snap_drop_all(void);

/*
 * Kills the replay's process and reaps every thread of it.  Its leader's
 * exit comes last (after every other thread's); the snapshots, stopped,
 * report nothing meanwhile.
 */
static void kill_live(void)
{
	pid_t w;
	int st;

	if (!G.live)
		return;
	G.live = 0;
	kill(G.s->pid, SIGKILL);
	for (;;) {
		w = waitpid(-1, &st, __WALL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 || (w == G.s->pid && (WIFEXITED(st) || WIFSIGNALED(st))))
			break;
	}
	if (G.memfd >= 0)
		close(G.memfd);
	G.memfd = -1;
	memset(G.th, 0, sizeof(G.th));
	G.n_th = 0;
	G.cur = G.last_stop = NULL;
	G.startup_bp = 0;
	G.ibp_in = 0;
	G.at_snap = 0;
	G.bps_check = 0;
}

static int snap_restore(uint64_t k, int with_bps);
static void snap_take_start(void);

/*
 * Reverse execution starts over: the replay at its first instruction,
 * from the snapshot taken there or else a fresh loader on the same image
 * (the live one killed), gdb's breakpoints in its memory where with_bps.
 * 0 or -1.
 */
static int restart(int with_bps)
{
	struct report rep;
	pid_t pid;
	int chan;

	/* the snapshot at the first instruction, where there is one */
	if (!snap_restore(0, with_bps))
		return 0;
	/*
	 * A fresh loader replaces the output files (-F): the snapshots'
	 * descriptors would write to the old ones.  They go.
	 */
	snap_drop_all();
	kill_live();
	close(G.s->chan);
	G.n_restarts++;
	G.snap_last_ns = 0;
	if (!G.s->respawn || G.s->respawn(G.s->respawn_ctx, &pid, &chan))
		return -1;
	G.s->pid = pid;
	G.live = 1;
	G.s->chan = chan;
	fcntl(chan, F_SETFL, O_NONBLOCK);
	G.lbp_addr = 0;
	if (to_first_insn(&rep))
		return -1;
	G.last_stop = G.cur = rep.t;
	snap_take_start();
	if (with_bps)
		put_bps();
	return 0;
}

/*
 * gdb's breakpoints into the replayed memory (after a restart without
 * them).  A breakpoint whose page is not mapped yet (going back to before ld.so
 * mapped its library) goes in later: from then on, at every event of this
 * execution, each breakpoint's byte is checked and put back (ld.so maps a
 * library whole, then its segments over it: the loader fills the pages
 * again).
 */
static void put_bps(void)
{
	uint8_t cc = 0xcc;
	size_t i;

	for (i = 0; i < G.n_bps; i++)
		if (mem_write(G.bps[i].addr, &cc, 1))
			G.bps_check = 1;
}

/* at an event: the breakpoints that are not in memory, in (see put_bps) */
static void check_bps(void)
{
	uint8_t b, cc = 0xcc;
	size_t i;
	int k;

	for (k = 0; k < G.n_th; k++)
		if (G.th[k].alive && (G.th[k].ibp_step || G.th[k].bp_step))
			return;	/* a thread steps over one of them now */
	for (i = 0; i < G.n_bps; i++)
		if (!mem_read(G.bps[i].addr, &b, 1) && b != 0xcc)
			mem_write(G.bps[i].addr, &cc, 1);
}

/* ------------------------------------------------------------------ */
/*
 * Snapshots of the replay, for reverse execution (docs/replay.md): at the
 * signal stop of some events, the loader (one thread then) is made to
 * fork: clone(CLONE_PARENT | SIGCHLD) injected at fr_snap_syscall, which
 * the loader's filter hands to us (SECCOMP_RET_TRACE) and we let through
 * only for that thread then.  The child, auto-attached, stays stopped: a
 * copy of the whole process as it was (memory, files' offsets aside: the
 * loader writes its output files at offsets it keeps).  Going back to an
 * event at or after a snapshot's forks the snapshot again and runs the
 * copy on from there, instead of a fresh loader from the first
 * instruction.  CLONE_PARENT makes every copy a child of ours, reaped here.
 */

#define SNAP_CLONE_FLAGS	(CLONE_PARENT | SIGCHLD)
#define SNAP_GAP_MIN_NS		20000000ull	/* at most one per 20 ms of replay */

/* a PTRACE_EVENT_SECCOMP stop: the loader's filter asks us (sandbox.c) */
static void seccomp_decide(pid_t tid)
{
	struct user_regs_struct r;
	int ok = 0;

	if (ptrace(PTRACE_GETREGS, tid, 0, &r))
		return;
	switch (r.orig_rax) {
	case __NR_tgkill:
	case __NR_process_vm_readv:
	case __NR_process_vm_writev:
		ok = r.rdi == (uint64_t)G.s->pid;	/* on itself only */
		break;
	case __NR_clone:
		ok = G.injecting == tid && r.rdi == SNAP_CLONE_FLAGS && r.rip == G.snap_trap;
		break;
	}
	if (ok)
		return;
	if (G.debug)
		fprintf(stderr, PFX "debug: tid %d: system call %llu refused\n", (int)tid,
			(unsigned long long)r.orig_rax);
	r.orig_rax = (unsigned long long)-1;	/* not made */
	r.rax = (unsigned long long)-EPERM;
	ptrace(PTRACE_SETREGS, tid, 0, &r);
}

/*
 * Makes stopped thread tid (of a process with no other thread) make system
 * call nr at fr_snap_syscall and run on to the int3 after it; its
 * registers are put back, and it is left at that int3's SIGTRAP stop.
 * *ret: the call's result.  A fork's child (child not NULL) is waited for
 * at its first stop.  0, or -1 (the registers put back where it stopped).
 */
static int inject_call(pid_t tid, long nr, const unsigned long long a[5], long *ret,
		       pid_t *child)
{
	struct user_regs_struct saved, r;
	unsigned long msg;
	pid_t w, c = -1;
	int st, n, ok = 0;

	if (ptrace(PTRACE_GETREGS, tid, 0, &saved))
		return -1;
	r = saved;
	r.rip = G.snap_syscall;
	r.eflags &= ~0x100ull;			/* TF: not single-stepped */
	r.orig_rax = (unsigned long long)-1;	/* no restart of an interrupted call */
	r.rax = (unsigned long long)nr;
	r.rdi = a[0];
	r.rsi = a[1];
	r.rdx = a[2];
	r.r10 = a[3];
	r.r8 = a[4];
	if (ptrace(PTRACE_SETREGS, tid, 0, &r))
		return -1;
	G.injecting = tid;
	if (ptrace(PTRACE_CONT, tid, 0, 0))
		goto out;
	for (n = 0;; n++) {
		int sig = 0;

		w = waitpid(tid, &st, __WALL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w != tid || !WIFSTOPPED(st))
			goto out;	/* gone */
		if (st >> 16 == PTRACE_EVENT_SECCOMP) {
			seccomp_decide(tid);
		} else if (st >> 16 == PTRACE_EVENT_FORK) {
			msg = 0;
			if (!ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg))
				c = (pid_t)msg;
		} else if (!(st >> 16) && WSTOPSIG(st) == SIGTRAP &&
			   !ptrace(PTRACE_GETREGS, tid, 0, &r) && r.rip == G.snap_trap + 1) {
			*ret = (long)r.rax;
			ok = 1;
			break;
		} else if (!(st >> 16) && WSTOPSIG(st) != SIGTRAP &&
			   WSTOPSIG(st) != (SIGTRAP | 0x80)) {
			sig = WSTOPSIG(st);	/* not ours: delivered as it would have been */
		}
		if (n == 64 || ptrace(PTRACE_CONT, tid, 0, sig))
			goto out;	/* stopped, short of the int3: given up */
	}
out:
	G.injecting = 0;
	/* put back wherever it stopped (a thread that is gone refuses it) */
	ptrace(PTRACE_SETREGS, tid, 0, &saved);
	if (c > 0) {
		/* its first stop (PTRACE_EVENT_STOP: we seized its ancestor) */
		do {
			w = waitpid(c, &st, __WALL);
		} while (w < 0 && errno == EINTR);
		if (w != c || !WIFSTOPPED(st) || !ok || !child) {
			kill_reap(c);
			c = -1;
		}
	}
	if (child)
		*child = c;
	return ok ? 0 : -1;
}

/* a fork of stopped tid (see inject_call), at its first stop, or -1 */
static pid_t inject_fork(pid_t tid)
{
	static const unsigned long long a[5] = { SNAP_CLONE_FLAGS };
	pid_t c = -1;
	long r;

	if (inject_call(tid, __NR_clone, a, &r, &c) || r <= 0)
		return -1;
	return c;
}

static void snap_free(struct snap *sn)
{
	if (sn->pid > 0)
		kill_reap(sn->pid);
	free(sn->cc_addr);
	free(sn->cc_orig);
	memset(sn, 0, sizeof(*sn));
}

static void snap_remove(int i)
{
	snap_free(&G.snaps[i]);
	memmove(&G.snaps[i], &G.snaps[i + 1], (size_t)(G.n_snaps - i - 1) * sizeof(*G.snaps));
	G.n_snaps--;
}

static void snap_drop_all(void)
{
	while (G.n_snaps)
		snap_remove(G.n_snaps - 1);
	while (G.n_ssnaps)
		snap_free(&G.ssnaps[--G.n_ssnaps]);
}

/*
 * Full: one goes, the one whose loss leaves the smallest gap between its
 * neighbours (the first and the latest stay): they thin out, evenly.
 */
static void snap_thin(void)
{
	uint64_t best = UINT64_MAX;
	int i, k = 0;

	for (i = 1; i + 1 < G.n_snaps; i++) {
		uint64_t gap = G.snaps[i + 1].events - G.snaps[i - 1].events;

		if (gap < best) {
			best = gap;
			k = i;
		}
	}
	snap_remove(k);
}

/* the replay's only thread? */
static int single_thread(void)
{
	int i, alive = 0;

	for (i = 0; i < G.n_th; i++)
		alive += G.th[i].alive;
	return alive == 1;
}

/* signals pending for the process (a fork would not have them) */
static int signals_pending(pid_t pid)
{
	char path[64], line[128];
	FILE *f;
	int pend = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f))
		if ((!strncmp(line, "SigPnd:", 7) || !strncmp(line, "ShdPnd:", 7)) &&
		    strtoull(line + 7, NULL, 16))
			pend = 1;
	fclose(f);
	return pend;
}

static void snap_take(struct gthread *t, const siginfo_t *si);

/*
 * At the signal stop of event G.events of t, the replay's only thread:
 * a snapshot, when none is at this event and the latest in this execution
 * is far enough behind (or this event is wanted).  si: the event's signal.
 */
static void maybe_snap(struct gthread *t, const siginfo_t *si)
{
	uint64_t t0;
	int i;

	if (!G.snap_ok || !G.started || t->pending_watch || !single_thread())
		return;
	for (i = 0; i < G.n_snaps; i++)
		if (G.snaps[i].events == G.events)
			return;
	t0 = fr_mono_ns();
	if (G.events != G.want_snap_event && G.snap_last_ns && t0 - G.snap_last_ns < G.snap_gap_ns)
		return;
	snap_take(t, si);
}

/*
 * Forks stopped thread t into *sn (zeroed first): its registers, the
 * event's signal (si, or NULL: none held), our int3s in its memory.
 * 0, or -1 (*sn left empty).
 */
static int snap_fill(struct snap *sn, struct gthread *t, const siginfo_t *si)
{
	size_t k;
	pid_t c;

	memset(sn, 0, sizeof(*sn));
	if (signals_pending(G.s->pid))
		return -1;
	c = inject_fork(t->tid);
	/* the event's signal is delivered from the int3's stop, as it was */
	if (si)
		ptrace(PTRACE_SETSIGINFO, t->tid, 0, si);
	if (c < 0) {
		fprintf(stderr, PFX "note: cannot take a snapshot of the replay; reverse "
			"execution goes on from the start each time\n");
		G.snap_ok = 0;
		return -1;
	}
	sn->pid = c;
	sn->events = G.events;
	sn->th = *t;
	if (si)
		sn->si = *si;
	ptrace(PTRACE_GETREGS, t->tid, 0, &sn->regs);
	/* our int3s in its memory: taken out when it is restored */
	sn->cc_addr = calloc(G.n_bps + 1, sizeof(*sn->cc_addr));
	sn->cc_orig = calloc(G.n_bps + 1, 1);
	if (!sn->cc_addr || !sn->cc_orig) {
		snap_free(sn);
		return -1;
	}
	for (k = 0; k < G.n_bps; k++) {
		sn->cc_addr[sn->n_cc] = G.bps[k].addr;
		sn->cc_orig[sn->n_cc++] = G.bps[k].orig;
	}
	if (G.ibp_in) {
		sn->cc_addr[sn->n_cc] = G.ibp_addr;
		sn->cc_orig[sn->n_cc++] = G.ibp_orig;
	}
	G.n_taken++;
	return 0;
}

/*
 * A snapshot of the replay's only thread t, stopped at an event's signal
 * (si) or at the first instruction (si NULL).
 */
static void snap_take(struct gthread *t, const siginfo_t *si)
{
	struct snap sn;
	uint64_t t0 = fr_mono_ns(), now;
	int i;

	if (G.n_snaps == MAX_SNAPS)
		snap_thin();
	if (snap_fill(&sn, t, si))
		return;
	for (i = G.n_snaps; i > 0 && G.snaps[i - 1].events > G.events; i--)
		;
	memmove(&G.snaps[i + 1], &G.snaps[i], (size_t)(G.n_snaps - i) * sizeof(*G.snaps));
	G.n_snaps++;
	G.snaps[i] = sn;
	now = fr_mono_ns();
	G.snap_last_ns = now;
	if (!G.snap_gap_fixed)
		G.snap_gap_ns = 20 * (now - t0) > SNAP_GAP_MIN_NS ? 20 * (now - t0) :
			SNAP_GAP_MIN_NS;
	if (G.debug)
		fprintf(stderr, PFX "debug: snapshot at event %llu: pid %d (%llu us)\n",
			(unsigned long long)G.events, (int)sn.pid,
			(unsigned long long)((now - t0) / 1000));
}

/* does step snapshot x belong to the base (anchor, hits) of thread rec_tid's segment after tev? */
static int same_base(const struct snap *x, uint64_t tev, uint32_t rec_tid, uint64_t anchor,
		     uint64_t hits)
{
	return x->events == tev && x->th.rec_tid == rec_tid && x->hits == hits &&
	       (!hits || x->anchor == anchor);
}

/*
 * A step snapshot of t, `steps` single steps from the base (anchor, hits)
 * of its segment after event tev.
 */
static void step_snap_take(struct gthread *t, uint64_t tev, uint64_t anchor, uint64_t hits,
			   uint64_t steps)
{
	struct snap sn;
	int i;

	if (!G.snap_ok || !single_thread())
		return;
	for (i = 0; i < G.n_ssnaps; i++)
		if (same_base(&G.ssnaps[i], tev, t->rec_tid, anchor, hits) &&
		    G.ssnaps[i].steps == steps)
			return;
	if (G.n_ssnaps == MAX_STEP_SNAPS) {
		snap_free(&G.ssnaps[0]);
		memmove(&G.ssnaps[0], &G.ssnaps[1], (MAX_STEP_SNAPS - 1) * sizeof(*G.ssnaps));
		G.n_ssnaps--;
	}
	if (snap_fill(&sn, t, NULL))
		return;
	sn.events = tev;
	sn.steps = steps;
	sn.anchor = anchor;
	sn.hits = hits;
	G.ssnaps[G.n_ssnaps++] = sn;
	if (G.debug)
		fprintf(stderr, PFX "debug: step snapshot %llu steps after arrival %llu at %#llx "
			"after event %llu: pid %d\n", (unsigned long long)steps,
			(unsigned long long)hits, (unsigned long long)anchor,
			(unsigned long long)tev, (int)sn.pid);
}

/* the step snapshot of that base nearest before `steps` single steps from it */
static struct snap *step_snap_find(uint64_t tev, uint32_t rec_tid, uint64_t anchor,
				   uint64_t hits, uint64_t steps)
{
	struct snap *best = NULL;
	int i;

	for (i = 0; i < G.n_ssnaps; i++) {
		struct snap *x = &G.ssnaps[i];

		if (same_base(x, tev, rec_tid, anchor, hits) && x->steps <= steps &&
		    (!best || x->steps > best->steps))
			best = x;
	}
	return best;
}

/*
 * At the first instruction (every thread stopped there): the snapshot
 * that restart() goes back to, with no fresh loader, where the replay has
 * one thread then.
 */
static void snap_take_start(void)
{
	if (!G.snap_ok || !G.started || !single_thread() || !G.cur || G.events)
		return;
	snap_take(G.cur, NULL);
}

/*
 * Back to the latest snapshot at or before event k: the replay's process
 * killed, a fork of the snapshot in its place, stopped at that event's
 * signal (held, as to_event leaves it), our int3s as they are now (with
 * gdb's breakpoints where with_bps).  0; -1: none there (nothing changed),
 * or it failed (the replay killed: the caller starts over).
 */
static int snap_restore_one(struct snap *sn, int with_bps);

static int snap_restore(uint64_t k, int with_bps)
{
	struct snap *sn = NULL;
	int i;

	for (i = G.n_snaps - 1; i >= 0 && !sn; i--)
		if (G.snaps[i].events <= k)
			sn = &G.snaps[i];
	if (!sn)
		return -1;
	return snap_restore_one(sn, with_bps);
}

/* snapshot sn in place of the replay's process (see snap_restore) */
static int snap_restore_one(struct snap *sn, int with_bps)
{
	struct user_regs_struct r;
	struct gthread *t;
	char path[64];
	size_t j;
	pid_t c, w;
	int st;

	kill_live();
	c = inject_fork(sn->pid);
	if (c < 0)
		goto bad;
	/* from its first stop to a signal stop, where the event's signal can wait */
	if (ptrace(PTRACE_GETREGS, c, 0, &r))
		goto bad_child;
	r.rip = G.snap_trap;
	if (ptrace(PTRACE_SETREGS, c, 0, &r) || ptrace(PTRACE_CONT, c, 0, 0))
		goto bad_child;
	do {
		w = waitpid(c, &st, __WALL);
	} while (w < 0 && errno == EINTR);
	if (w != c || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP)
		goto bad_child;
	/*
	 * Syscall User Dispatch is not inherited by fork: on again as the
	 * loader sets it (its text, no selector).  The TSC and cpuid modes,
	 * the alternate stack and the fs base are.
	 */
	{
		unsigned long long a[5] = { PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON,
					    G.loader_text, G.loader_etext - G.loader_text, 0 };
		long ret = -1;

		if (inject_call(c, __NR_prctl, a, &ret, NULL) || ret)
			goto bad_child;
	}
	if (ptrace(PTRACE_SETREGS, c, 0, &sn->regs) ||
	    (sn->si.si_signo && ptrace(PTRACE_SETSIGINFO, c, 0, &sn->si)))
		goto bad_child;
	G.s->pid = c;
	G.live = 1;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)c);
	G.memfd = open(path, O_RDWR | O_CLOEXEC);
	if (G.memfd < 0)
		return -1;
	t = &G.th[0];
	*t = sn->th;
	t->tid = c;
	t->alive = 1;
	t->stopped = 1;
	t->interrupt_pending = t->deferred = t->dsig = 0;
	t->inject = 0;
	t->held = sn->si.si_signo;
	t->ibp_step = 0;
	t->bp_step = 0;
	t->pending_watch = 0;
	t->mode = RUN_CONT;
	G.n_th = 1;
	G.cur = G.last_stop = t;
	G.events = sn->events;
	G.started = 1;
	G.at_snap = 1;
	G.at_snap_event = sn->events;
	for (j = 0; j < sn->n_cc; j++) {
		uint8_t v = unbp_byte(sn->cc_addr[j], sn->cc_orig[j]);

		mem_write(sn->cc_addr[j], &v, 1);
	}
	if (with_bps)
		put_bps();
	set_dregs_all();
	G.snap_last_ns = fr_mono_ns();
	G.n_restored++;
	G.n_start_restored += !sn->events;
	G.n_step_restored += sn->steps || sn->hits;
	if (G.debug)
		fprintf(stderr, PFX "debug: restored the snapshot at event %llu (+%llu steps): "
			"pid %d\n", (unsigned long long)sn->events,
			(unsigned long long)sn->steps, (int)c);
	return 0;
bad_child:
	kill_reap(c);
bad:
	/* that snapshot is no use: it goes, and so do the others */
	fprintf(stderr, PFX "note: a snapshot of the replay could not be restored; "
		"starting over\n");
	snap_drop_all();
	G.snap_ok = 0;
	return -1;
}

/*
 * Back to event k at the latest (its signal stop, or before it): the
 * latest snapshot at or before it, else a fresh start.  0 or -1.
 */
static int rewind_to(uint64_t k, int with_bps)
{
	if (!snap_restore(k, with_bps))
		return 0;
	return restart(with_bps);
}

/*
 * Restored at a snapshot's event (its signal held): to_event(k) for that
 * event is there already (1); otherwise the signal goes on its way when
 * the thread runs.
 */
static int at_snapshot(uint64_t k, struct report *rep)
{
	struct gthread *t = &G.th[0];
	uint64_t at = G.at_snap_event;

	if (!G.at_snap)
		return 0;
	G.at_snap = 0;
	if (!t->held)
		return 0;	/* the first instruction */
	if (at == k) {
		memset(rep, 0, sizeof(*rep));
		rep->kind = STOP_SIGNAL;
		rep->t = t;
		rep->sig = t->held;
		rep->why = "event";
		return 1;
	}
	t->inject = t->held;
	t->held = 0;
	return 0;
}

/* resumes every stopped thread as set and waits for a stop to report (others run on) */
static void run_exec(struct report *rep)
{
	int i, st;
	pid_t w;

	memset(rep, 0, sizeof(*rep));
	for (i = 0; i < G.n_th; i++)
		if (G.th[i].alive && G.th[i].stopped)
			resume(&G.th[i]);
	for (;;) {
		w = waitpid(-1, &st, __WALL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			rep->kind = STOP_EXITED;
			rep->code = FR_EXIT_FAIL;
			return;
		}
		if (handle_status(w, st, 0, rep))
			return;
	}
}

static struct gthread *thread_of(uint32_t rec_tid)
{
	drain_chan();
	return find_rec(rec_tid);
}

/*
 * From a fresh start, to point p: every thread runs on until the event
 * count reaches p's, then to the first time p's thread is at p's rip with
 * p's registers (the int3 `ibp`).  Stops everything there.  0 or -1.
 */
static int to_event(uint64_t k, struct report *rep);

static int seek_to(const struct pos *p, struct report *rep)
{
	int i;

	if (p->before_event) {
		/* bc scanning up to the event (its system call not made yet) */
		G.seek = *p;
		return to_event(p->before_event, rep);
	}
	at_snapshot(0, rep);
	G.seek = *p;
	G.seeking = 1;
	if (G.events == p->events)
		ibp_insert();
	for (i = 0; i < G.n_th; i++)
		G.th[i].mode = RUN_CONT;
	for (;;) {
		run_exec(rep);
		if (rep->kind != STOP_SIGNAL || (rep->why && !strcmp(rep->why, "seek")))
			break;
		/* a stop gdb would have seen on the way: not where we go */
		rep->t->inject = rep->sig == SIGTRAP ? 0 : rep->sig;
		if (G.events > p->events)
			break;
	}
	G.seeking = 0;
	ibp_remove();
	if (rep->kind != STOP_SIGNAL || !rep->why || strcmp(rep->why, "seek")) {
		struct report end;

		if (rep->kind == STOP_SIGNAL)
			stop_all(&end);
		return -1;
	}
	stop_all(rep);
	rep->why = NULL;
	rep->sig = SIGTRAP;
	return 0;
}

/* from a fresh start to the signal stop of event k (its signal held) */
static int to_event(uint64_t k, struct report *rep)
{
	int i;

	if (at_snapshot(k, rep))
		return 0;
	G.stop_at_event = k;
	for (i = 0; i < G.n_th; i++)
		G.th[i].mode = RUN_CONT;
	for (;;) {
		run_exec(rep);
		if (rep->kind != STOP_SIGNAL || (rep->why && !strcmp(rep->why, "event")))
			break;
		rep->t->inject = rep->sig == SIGTRAP ? 0 : rep->sig;
	}
	G.stop_at_event = 0;
	if (rep->kind != STOP_SIGNAL)
		return -1;
	stop_all(rep);
	return 0;
}

/*
 * From a fresh start to where thread rec_tid is first back in the
 * application after event tev (its segment's first instruction), or at
 * the start if tev is 0.  Every thread stopped.
 */
static struct gthread *to_segment_start(uint64_t tev, uint32_t rec_tid, struct report *rep)
{
	struct gthread *t;
	int i;

	if (tev) {
		if (to_event(tev, rep))
			return NULL;
		t = rep->t;
		t->inject = t->held;
		t->held = 0;
		for (i = 0; i < G.n_th; i++)
			G.th[i].mode = RUN_CONT;
		t->mode = RUN_SYSSTEP;
		for (;;) {
			run_exec(rep);
			if (rep->kind != STOP_SIGNAL)
				return NULL;
			if (rep->t == t && !rep->why)
				break;
			rep->t->inject = rep->sig == SIGTRAP ? 0 : rep->sig;
		}
		stop_all(rep);
		return t;
	}
	t = thread_of(rec_tid);
	return t;
}

#define MAX_REVERSE_STEPS	20000000ull

static int before_event(uint64_t k, struct report *rep);

/* the thread at the first instruction of cur's segment, on a fresh run; or NULL */
static struct gthread *seg_start(const struct pos *cur, struct report *rep)
{
	G.want_snap_event = cur->tev;	/* the next reverse-stepi starts there */
	if (rewind_to(cur->tev, 0))
		return NULL;
	return to_segment_start(cur->tev, cur->rec_tid, rep);
}

/*
 * Stopped t (nothing else runs) at a SIGTRAP of the loader's: on through
 * the loader back to the application (the exit of its rt_sigreturn), where
 * it is stopped again.  Where the loader steps past its int3 (TF), that
 * instruction and its trap are run too: the thread is then after it, or
 * at the handler of the signal the loader delivered there.  For the
 * single-step loops of reverse execution, which see the application only:
 * to them all this is one step.  0 or -1.
 */
static int lbp_through(struct gthread *t)
{
	struct user_regs_struct r;
	int st, sig = SIGTRAP, k;

	for (k = 0; k < 2; k++) {
		for (;;) {
			G.n_lbp_traps += sig == SIGTRAP;
			if (ptrace(PTRACE_SYSCALL, t->tid, 0, sig) ||
			    waitpid(t->tid, &st, __WALL) != t->tid || !WIFSTOPPED(st) || (st >> 16) ||
			    ptrace(PTRACE_GETREGS, t->tid, 0, &r))
				return -1;
			sig = 0;
			if (WSTOPSIG(st) == (SIGTRAP | 0x80)) {
				if (!in_window(r.rip))
					break;	/* rt_sigreturn's exit: in the application */
				continue;
			}
			if (!in_window(r.rip))
				return -1;
			sig = WSTOPSIG(st);	/* the loader's own signal */
		}
		if (!lbp_stepping(t, &r))
			return 0;
		if (ptrace(PTRACE_SINGLESTEP, t->tid, 0, 0) || waitpid(t->tid, &st, __WALL) != t->tid ||
		    !WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP)
			return -1;
		sig = SIGTRAP;
	}
	return 0;
}

/* is stopped t at a SIGTRAP of the loader's (its int3, its step past it)? */
static int at_lbp_trap(struct gthread *t, int st)
{
	struct user_regs_struct r;
	siginfo_t si;

	return WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP && !(st >> 16) &&
	       !ptrace(PTRACE_GETSIGINFO, t->tid, 0, &si) && !ptrace(PTRACE_GETREGS, t->tid, 0, &r) &&
	       is_lbp_trap(t, &si, &r, 0);
}

/*
 * One instruction of stopped t (nothing else runs): a single step, with
 * the loader's traps run through (lbp_through).  *st: the stop.  0 or -1.
 */
static int raw_step(struct gthread *t, int *st)
{
	if (ptrace(PTRACE_SINGLESTEP, t->tid, 0, 0) || waitpid(t->tid, st, __WALL) != t->tid ||
	    !WIFSTOPPED(*st))
		return -1;
	return at_lbp_trap(t, *st) ? lbp_through(t) : 0;
}

/*
 * Runs stopped t (nothing else runs) to its `hits`-th arrival at a, or
 * (want not NULL) to the first arrival with want's registers, counting
 * arrivals (*n): an int3 at a, stepped over each time.  Anything else
 * that stops it (an event: the point is not in this segment) fails.  The
 * debug registers are off meanwhile.  0 or -1.
 */
static int run_to_hit(struct gthread *t, uint64_t a, uint64_t hits,
		      const struct user_regs_struct *want, uint64_t *n)
{
	struct user_regs_struct r;
	uint8_t orig = app_byte(a), cc = 0xcc;
	uint64_t count = 0;
	int st, ret = -1, sig = 0;

	ptrace(PTRACE_POKEUSER, t->tid, offsetof(struct user, u_debugreg[7]), 0);
	if (mem_write(a, &cc, 1))
		goto out;
	for (;;) {
		if (ptrace(PTRACE_CONT, t->tid, 0, sig) || waitpid(t->tid, &st, __WALL) != t->tid ||
		    !WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP || (st >> 16) ||
		    ptrace(PTRACE_GETREGS, t->tid, 0, &r))
			goto out;
		sig = 0;
		if (r.rip != a + 1) {
			/* the loader's int3 elsewhere, or its step past it: its own */
			if (!at_lbp_trap(t, st))
				goto out;
			sig = SIGTRAP;
			continue;
		}
		r.rip = a;
		if (ptrace(PTRACE_SETREGS, t->tid, 0, &r))
			goto out;
		count++;
		if (want ? regs_match(&r, want) : count == hits)
			break;
		if (count >= MAX_REVERSE_STEPS)
			goto out;
		if (lbp_at(a)) {
			/* the loader's int3 is this one: its trap, run through it */
			r.rip = a + 1;
			if (ptrace(PTRACE_SETREGS, t->tid, 0, &r) || lbp_through(t) ||
			    mem_write(a, &cc, 1))
				goto out;
			continue;
		}
		/* over the int3: the instruction's byte back for one step */
		if (mem_write(a, &orig, 1) || raw_step(t, &st) || WSTOPSIG(st) != SIGTRAP ||
		    mem_write(a, &cc, 1))
			goto out;
	}
	*n = count;
	ret = 0;
out:
	orig = unbp_byte(a, orig);
	mem_write(a, &orig, 1);
	set_dregs(t);
	return ret;
}

/*
 * The thread at the base (anchor, hits) of cur's segment plus *done
 * single steps (at most max): from the nearest step snapshot, or a fresh
 * run to the base (whose step snapshot is then taken).  NULL on failure.
 */
static struct gthread *to_base(const struct pos *cur, uint64_t anchor, uint64_t hits,
			       uint64_t max, uint64_t *done, struct report *rep)
{
	struct snap *ss = step_snap_find(cur->tev, cur->rec_tid, anchor, hits, max);
	struct gthread *t;
	uint64_t n;

	*done = 0;
	if (ss && !snap_restore_one(ss, 0)) {
		G.at_snap = 0;
		*done = ss->steps;
		return &G.th[0];
	}
	t = seg_start(cur, rep);
	if (!t)
		return NULL;
	if (hits) {
		if (run_to_hit(t, anchor, hits, NULL, &n))
			return NULL;
		step_snap_take(t, cur->tev, anchor, hits, 0);
	}
	return t;
}

/*
 * Single steps from where t is (the base) to cur: its registers or, for a
 * point before an event, the instruction whose step enters the loader.
 * *n: how many; step snapshots on the way at 256, 512, 1024... 0 or -1.
 */
static int count_steps(struct gthread *t, const struct pos *cur, uint64_t anchor, uint64_t hits,
		       uint64_t *n)
{
	struct user_regs_struct r;
	uint64_t k;
	int st;

	for (k = 0; k < MAX_REVERSE_STEPS; k++) {
		if (raw_step(t, &st))
			return -1;
		if (WSTOPSIG(st) != SIGTRAP) {
			if (!cur->before_event)
				return -1;	/* an event on the way: not in this segment */
			break;			/* k steps to the point */
		}
		if (ptrace(PTRACE_GETREGS, t->tid, 0, &r))
			return -1;
		if (!cur->before_event && regs_match(&r, &cur->regs)) {
			k++;
			break;
		}
		/* on the way: at 256, 512, 1024... steps (the next pass starts there) */
		if (k + 1 >= STEP_SNAP_FIRST && !((k + 1) & k))
			step_snap_take(t, cur->tev, anchor, hits, k + 1);
	}
	if (k == MAX_REVERSE_STEPS)
		return -1;
	*n = k;
	return 0;
}

/*
 * reverse-stepi of the thread at `from`: its previous instruction.
 *
 * A point is found from a base in its segment (after the thread's latest
 * event): the arrival of the thread at the point's rip before the one
 * that is the point (counted with an int3 there from the segment's first
 * instruction), or the segment's first instruction where there is none
 * (or the point is before an event).  Single steps from the base to the
 * point are counted; then the thread goes to the base again (a step
 * snapshot there) and steps one fewer.  In a loop the base is one pass
 * back, so a long segment costs one run with a breakpoint and the steps of
 * one pass, not single steps all the way.  The point reached is known by
 * its base and steps: the next reverse-stepi needs no counting run.
 * Where the point is the segment's first instruction, the previous one is
 * the instruction that entered the loader: the thread is stopped at the
 * event, before it (a system call is made again when it goes on).
 */
static int reverse_step_from(const struct pos *from, struct report *rep)
{
	struct pos cur = *from;
	struct user_regs_struct r;
	struct gthread *t;
	uint64_t anchor = 0, hits = 0, n, done, i, near;
	int st;

	G.rev_steps_known = 0;
	if (regs_match(&cur.regs, &G.start_pos.regs) && cur.events == G.start_pos.events &&
	    cur.rec_tid == G.start_pos.rec_tid)
		return 1;	/* the beginning */
	if (cur.steps_known && !cur.before_event && cur.steps) {
		/* known: straight to the step before it */
		anchor = cur.anchor;
		hits = cur.hits;
		n = cur.steps;
		goto go;
	}
	if (cur.steps_known && !cur.before_event) {
		/* at its base: the arrival there before, or the segment's start */
		if (!cur.hits)
			return cur.tev ? before_event(cur.tev, rep) : -1;
		anchor = cur.anchor;
		hits = cur.hits - 1;
	} else if (!cur.before_event) {
		/* a point not met before: count the arrivals at its rip */
		t = seg_start(&cur, rep);
		if (!t || ptrace(PTRACE_GETREGS, t->tid, 0, &r))
			return -1;
		if (regs_match(&r, &cur.regs))	/* the segment's first instruction */
			return cur.tev ? before_event(cur.tev, rep) : -1;
		if (run_to_hit(t, cur.regs.rip, 0, &cur.regs, &n))
			return -1;
		anchor = cur.regs.rip;
		hits = n - 1;
	}
	t = to_base(&cur, anchor, hits, 0, &done, rep);
	if (!t || count_steps(t, &cur, anchor, hits, &n))
		return -1;
	if (!n)		/* the point is the segment's first instruction */
		return cur.tev ? before_event(cur.tev, rep) : -1;
go:
	t = to_base(&cur, anchor, hits, n - 1, &done, rep);
	if (!t)
		return -1;
	near = n - 1 > STEP_SNAP_NEAR ? n - 1 - STEP_SNAP_NEAR : 0;
	for (i = done; i + 1 < n; i++) {
		/* near the end: where the next reverse-stepi will start */
		if (i == near && near >= done + STEP_SNAP_NEAR)
			step_snap_take(t, cur.tev, anchor, hits, i);
		if (raw_step(t, &st))
			return -1;
	}
	rep->t = t;
	rep->why = NULL;
	rep->sig = SIGTRAP;
	rep->kind = STOP_SIGNAL;
	G.rev_steps_known = 1;
	G.rev_steps = n - 1;
	G.rev_anchor = anchor;
	G.rev_hits = hits;
	return 0;
}

static int reverse_step(struct report *rep)
{
	return reverse_step_from(&G.cur_pos, rep);
}

/* before event k: its thread at the instruction that entered the loader */
static int before_event(uint64_t k, struct report *rep)
{
	struct user_regs_struct r;
	struct gthread *t;

	if (rewind_to(k, 1) || to_event(k, rep))
		return -1;
	t = rep->t;
	if (ptrace(PTRACE_GETREGS, t->tid, 0, &r))
		return -1;
	if (t->held == SIGSYS) {
		r.rip -= 2;	/* the syscall instruction; rax is its number */
		ptrace(PTRACE_SETREGS, t->tid, 0, &r);
	}
	t->held = 0;
	G.events--;
	t->last_event = t->prev_event;
	G.at_before_event = k;
	rep->why = NULL;
	rep->sig = SIGTRAP;
	return 0;
}

/*
 * reverse-continue: from a fresh start to the current point with gdb's
 * breakpoints and watchpoints in, noting each hit; then to the last hit
 * (or the beginning: 1).
 */
static int reverse_continue(struct report *rep)
{
	struct pos cur = G.cur_pos, hit;
	const char *why;
	uint64_t addr, k, upper;

	/*
	 * From the latest snapshot before the point to the point; with no
	 * hit there, from the one before it to it, and so on back to the
	 * first instruction: each stretch is run once.
	 */
	k = cur.before_event ? cur.before_event - 1 : cur.events;
	G.have_hit = 0;
	for (upper = 0;;) {
		uint64_t from;
		int r;

		if (rewind_to(k, 1))
			return -1;
		from = G.at_snap ? G.at_snap_event : 0;
		G.scanning = 1;
		r = upper ? to_event(upper, rep) : seek_to(&cur, rep);
		G.scanning = 0;
		if (r)
			return -1;
		if (G.have_hit || !from)
			break;
		upper = from;
		k = from - 1;
	}
	if (!G.have_hit) {
		if (restart(1))
			return -1;
		return 1;
	}
	hit = G.hit;
	why = G.hit_why;
	addr = G.hit_addr;
	if (G.hit_event) {
		if (before_event(G.hit_event, rep))
			return -1;
	} else if (G.hit_back) {
		if (reverse_step_from(&hit, rep) < 0)
			return -1;
		put_bps();
	} else if (rewind_to(hit.events, 1) || seek_to(&hit, rep)) {
		return -1;
	}
	rep->why = why;
	rep->addr = addr;
	return 0;
}

/* ------------------------------------------------------------------ */
/* replies */

static void thread_id(struct obuf *o, const struct gthread *t)
{
	if (G.multiprocess)
		ob_fmt(o, "p%x.%x", G.rec_pid, t->rec_tid);
	else
		ob_fmt(o, "%x", t->rec_tid);
}

static void stop_reply(struct obuf *o, const struct report *r)
{
	if (r->kind == STOP_EXITED) {
		ob_fmt(o, "W%02x", r->code & 0xff);
		if (G.multiprocess)
			ob_fmt(o, ";process:%x", G.rec_pid);
		return;
	}
	if (r->kind == STOP_KILLED) {
		ob_fmt(o, "X%02x", to_gdb_sig(r->sig));
		if (G.multiprocess)
			ob_fmt(o, ";process:%x", G.rec_pid);
		return;
	}
	ob_fmt(o, "T%02x", to_gdb_sig(r->sig));
	if (r->why && (!strcmp(r->why, "swbreak") || !strcmp(r->why, "hwbreak")))
		ob_fmt(o, "%s:;", r->why);
	else if (r->why)
		ob_fmt(o, "%s:%llx;", r->why, (unsigned long long)r->addr);
	if (r->t && r->t->rec_tid) {
		ob_str(o, "thread:");
		thread_id(o, r->t);
		ob_str(o, ";");
	}
}

/* a thread id from gdb: "p<pid>.<tid>", "<tid>", -1 (all) or 0 (any) */
static struct gthread *parse_thread(const char **p, int *all)
{
	long long tid;
	int neg = 0;

	*all = 0;
	if (**p == 'p') {
		(*p)++;
		if (**p == '-') {
			*p += 2;
		} else {
			parse_hex(p);
		}
		if (**p != '.') {
			*all = 1;
			return NULL;
		}
		(*p)++;
	}
	if (**p == '-') {
		neg = 1;
		(*p)++;
	}
	tid = (long long)parse_hex(p);
	if (neg || tid == 0) {
		*all = 1;
		return NULL;
	}
	return find_rec((uint32_t)tid);
}

static struct gthread *any_thread(void)
{
	int i;

	if (G.cur && G.cur->alive && G.cur->rec_tid)
		return G.cur;
	if (G.last_stop && G.last_stop->alive && G.last_stop->rec_tid)
		return G.last_stop;
	for (i = 0; i < G.n_th; i++)
		if (G.th[i].alive && G.th[i].rec_tid)
			return &G.th[i];
	return NULL;
}

/* ------------------------------------------------------------------ */
/* qXfer documents */

static void xml_escape(struct obuf *o, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': ob_str(o, "&lt;"); break;
		case '>': ob_str(o, "&gt;"); break;
		case '&': ob_str(o, "&amp;"); break;
		case '"': ob_str(o, "&quot;"); break;
		case '\'': ob_str(o, "&apos;"); break;
		default: ob_add(o, s, 1);
		}
	}
}

static void target_xml(struct obuf *o)
{
	static const char *const feats[] = { "core", "sse", "linux", "segments", "avx" };
	size_t f;
	int i;

	ob_str(o, "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
	       "<target version=\"1.0\">\n<architecture>i386:x86-64</architecture>\n"
	       "<osabi>GNU/Linux</osabi>\n");
	for (f = 0; f < sizeof(feats) / sizeof(feats[0]); f++) {
		if (!strcmp(feats[f], "avx") && !G.avx)
			continue;
		/* pieces: gcc's -fsanitize build sees a NULL %s here */
		ob_str(o, "<feature name=\"org.gnu.gdb.i386.");
		ob_str(o, feats[f]);
		ob_str(o, "\">\n");
		if (!strcmp(feats[f], "core"))
			ob_str(o, "<flags id=\"i386_eflags\" size=\"4\">"
			       "<field name=\"CF\" start=\"0\" end=\"0\"/>"
			       "<field name=\"\" start=\"1\" end=\"1\"/>"
			       "<field name=\"PF\" start=\"2\" end=\"2\"/>"
			       "<field name=\"AF\" start=\"4\" end=\"4\"/>"
			       "<field name=\"ZF\" start=\"6\" end=\"6\"/>"
			       "<field name=\"SF\" start=\"7\" end=\"7\"/>"
			       "<field name=\"TF\" start=\"8\" end=\"8\"/>"
			       "<field name=\"IF\" start=\"9\" end=\"9\"/>"
			       "<field name=\"DF\" start=\"10\" end=\"10\"/>"
			       "<field name=\"OF\" start=\"11\" end=\"11\"/>"
			       "<field name=\"NT\" start=\"14\" end=\"14\"/>"
			       "<field name=\"RF\" start=\"16\" end=\"16\"/>"
			       "<field name=\"VM\" start=\"17\" end=\"17\"/>"
			       "<field name=\"AC\" start=\"18\" end=\"18\"/>"
			       "<field name=\"VIF\" start=\"19\" end=\"19\"/>"
			       "<field name=\"VIP\" start=\"20\" end=\"20\"/>"
			       "<field name=\"ID\" start=\"21\" end=\"21\"/></flags>\n");
		if (!strcmp(feats[f], "sse"))
			ob_str(o, "<vector id=\"v4f\" type=\"ieee_single\" count=\"4\"/>"
			       "<vector id=\"v2d\" type=\"ieee_double\" count=\"2\"/>"
			       "<vector id=\"v16i8\" type=\"int8\" count=\"16\"/>"
			       "<vector id=\"v8i16\" type=\"int16\" count=\"8\"/>"
			       "<vector id=\"v4i32\" type=\"int32\" count=\"4\"/>"
			       "<vector id=\"v2i64\" type=\"int64\" count=\"2\"/>"
			       "<union id=\"vec128\"><field name=\"v4_float\" type=\"v4f\"/>"
			       "<field name=\"v2_double\" type=\"v2d\"/>"
			       "<field name=\"v16_int8\" type=\"v16i8\"/>"
			       "<field name=\"v8_int16\" type=\"v8i16\"/>"
			       "<field name=\"v4_int32\" type=\"v4i32\"/>"
			       "<field name=\"v2_int64\" type=\"v2i64\"/>"
			       "<field name=\"uint128\" type=\"uint128\"/></union>"
			       "<flags id=\"i386_mxcsr\" size=\"4\">"
			       "<field name=\"IE\" start=\"0\" end=\"0\"/>"
			       "<field name=\"DE\" start=\"1\" end=\"1\"/>"
			       "<field name=\"ZE\" start=\"2\" end=\"2\"/>"
			       "<field name=\"OE\" start=\"3\" end=\"3\"/>"
			       "<field name=\"UE\" start=\"4\" end=\"4\"/>"
			       "<field name=\"PE\" start=\"5\" end=\"5\"/>"
			       "<field name=\"DAZ\" start=\"6\" end=\"6\"/>"
			       "<field name=\"IM\" start=\"7\" end=\"7\"/>"
			       "<field name=\"DM\" start=\"8\" end=\"8\"/>"
			       "<field name=\"ZM\" start=\"9\" end=\"9\"/>"
			       "<field name=\"OM\" start=\"10\" end=\"10\"/>"
			       "<field name=\"UM\" start=\"11\" end=\"11\"/>"
			       "<field name=\"PM\" start=\"12\" end=\"12\"/>"
			       "<field name=\"FZ\" start=\"15\" end=\"15\"/></flags>\n");
		for (i = 0; i < n_regs(); i++) {
			if (strcmp(regs[i].feature, feats[f]))
				continue;
			ob_fmt(o, "<reg name=\"%s\" bitsize=\"%d\" type=\"%s\" regnum=\"%d\"",
			       regs[i].name, regs[i].bits, regs[i].type, i);
			if (regs[i].group)
				ob_fmt(o, " group=\"%s\"", regs[i].group);
			ob_str(o, "/>\n");
		}
		ob_str(o, "</feature>\n");
	}
	ob_str(o, "</target>\n");
}

static uint64_t auxv_get(uint64_t key)
{
	const Flightrec__ProcessInfo *p = G.s->c->hdr->process;
	size_t i;

	for (i = 0; p && i + 1 < p->n_auxv; i += 2)
		if (p->auxv[i] == key)
			return p->auxv[i + 1];
	return 0;
}

static void auxv_doc(struct obuf *o)
{
	const Flightrec__ProcessInfo *p = G.s->c->hdr->process;
	uint64_t z[2] = { 0, 0 };

	if (p && p->n_auxv)
		ob_add(o, p->auxv, p->n_auxv * sizeof(uint64_t));
	ob_add(o, z, sizeof(z));
}

/* the recorded file mapping at offset 0 that holds addr, or NULL */
static const Flightrec__Map *map_at(uint64_t addr, int need_zero_off)
{
	const struct flrc *c = G.s->c;
	size_t i;

	for (i = 0; i < c->n_maps; i++) {
		const Flightrec__Map *m = c->maps[i];

		if (m->interval < G.s->from || !m->path || m->path[0] != '/')
			continue;
		if (addr >= m->start && addr < m->end && (!need_zero_off || !m->offset))
			return m;
	}
	return NULL;
}

static const Flightrec__Map *map_named(const char *path)
{
	const struct flrc *c = G.s->c;
	size_t i;

	for (i = 0; i < c->n_maps; i++) {
		const Flightrec__Map *m = c->maps[i];

		if (m->interval >= G.s->from && m->path && !strcmp(m->path, path) && !m->offset)
			return m;
	}
	return NULL;
}

/* the file gdb should read for a recorded mapping: the symbol file its build ID picks */
static bool file_for_code(const Flightrec__Map *m, bool need_code, char *out, size_t len)
{
	char bid[129] = "";
	size_t k;

	for (k = 0; k < m->build_id.len && k < 64; k++)
		sprintf(bid + 2 * k, "%02x", m->build_id.data[k]);
	return G.s->find_symbols &&
	       G.s->find_symbols(G.s->find_ctx, m->path, bid, need_code, out, len);
}

static void file_for(const Flightrec__Map *m, char *out, size_t len)
{
	if (file_for_code(m, false, out, len))
		return;
	/* no file with the recorded build ID here: a name gdb finds nothing at */
	snprintf(out, len, "/flightrec-no-symbols%s", m->path);
}

bool fr_elf_has_code(const char *path)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd = open(path, O_RDONLY | O_CLOEXEC), i;
	bool code = false;

	if (fd < 0)
		return false;
	if (pread(fd, &eh, sizeof(eh), 0) == (ssize_t)sizeof(eh) &&
	    !memcmp(eh.e_ident, ELFMAG, SELFMAG) && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
	    eh.e_phnum <= 256)
		for (i = 0; i < eh.e_phnum && !code; i++)
			if (pread(fd, &ph, sizeof(ph),
				  (off_t)(eh.e_phoff + (uint64_t)i * sizeof(ph))) == (ssize_t)sizeof(ph) &&
			    ph.p_type == PT_LOAD && (ph.p_flags & PF_X) && ph.p_filesz)
				code = true;
	close(fd);
	return code;
}

/* reads ELF program headers from a file: PT_DYNAMIC vaddr, PT_TLS present, first PT_LOAD */
struct elfph {
	int ok, has_tls, has_dyn;
	uint64_t dyn_vaddr, phdr_vaddr, first_load, entry;
};

static int file_phdrs(const char *path, struct elfph *e)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd = open(path, O_RDONLY | O_CLOEXEC), i, first = 1;

	memset(e, 0, sizeof(*e));
	if (fd < 0)
		return -1;
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phnum > 256) {
		close(fd);
		return -1;
	}
	e->entry = eh.e_entry;
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (uint64_t)i * sizeof(ph))) !=
		    (ssize_t)sizeof(ph))
			break;
		if (ph.p_type == PT_TLS)
			e->has_tls = 1;
		if (ph.p_type == PT_DYNAMIC) {
			e->has_dyn = 1;
			e->dyn_vaddr = ph.p_vaddr;
		}
		if (ph.p_type == PT_PHDR)
			e->phdr_vaddr = ph.p_vaddr;
		if (ph.p_type == PT_LOAD && first) {
			e->first_load = ph.p_vaddr & ~0xfffull;
			first = 0;
		}
	}
	close(fd);
	e->ok = 1;
	return 0;
}

struct lmap {
	uint64_t lm, l_addr, l_ld;
	char name[PATH_MAX];		/* as recorded (l_name) */
	const Flightrec__Map *map;
	int has_tls;			/* -1: not known */
};

/* ld.so's list of loaded objects in the replayed memory (r_debug.r_map) */
static int link_maps(struct lmap *out, int max, uint64_t *main_lm)
{
	uint64_t phdr = auxv_get(AT_PHDR), phnum = auxv_get(AT_PHNUM), entry = auxv_get(AT_ENTRY);
	uint64_t bias = 0, dyn = 0, rdebug = 0, lm;
	const Flightrec__Map *mm = map_at(entry ? entry : phdr, 0);
	char file[PATH_MAX];
	struct elfph eph;
	int n = 0, i;

	*main_lm = 0;
	/* the main program's PT_DYNAMIC: from its file (the header page may not be in the dump) */
	if (mm) {
		file_for(mm, file, sizeof(file));
		if (file_phdrs(file, &eph) || !eph.has_dyn)
			file_phdrs(mm->path, &eph);
		if (eph.ok && eph.has_dyn) {
			bias = entry && eph.entry ? entry - eph.entry :
			       phdr - eph.phdr_vaddr;
			dyn = bias + eph.dyn_vaddr;
		}
	}
	if (!dyn && phdr && phnum && phnum < 64) {
		for (i = 0; i < (int)phnum; i++) {
			Elf64_Phdr ph;

			if (mem_read(phdr + (uint64_t)i * sizeof(ph), &ph, sizeof(ph)))
				break;
			if (ph.p_type == PT_PHDR)
				bias = phdr - ph.p_vaddr;
			if (ph.p_type == PT_DYNAMIC)
				dyn = ph.p_vaddr;
		}
		if (dyn)
			dyn += bias;
	}
	for (i = 0; dyn && i < 512; i++) {
		uint64_t d[2];

		if (mem_read(dyn + 16 * (uint64_t)i, d, sizeof(d)) || d[0] == DT_NULL)
			break;
		if (d[0] == DT_DEBUG) {
			rdebug = d[1];
			break;
		}
	}
	if (!rdebug || read_u64(rdebug + 8, &lm))
		return -1;
	*main_lm = lm;
	for (; lm && n < max; n++) {
		uint64_t f[4], name, k;
		struct lmap *e = &out[n];

		/* l_addr, l_name, l_ld, l_next */
		if (mem_read(lm, f, sizeof(f)))
			return -1;
		memset(e, 0, sizeof(*e));
		e->lm = lm;
		e->l_addr = f[0];
		e->l_ld = f[2];
		name = f[1];
		for (k = 0; name && k + 1 < sizeof(e->name); k++) {
			if (mem_read(name + k, &e->name[k], 1)) {
				e->name[k] = 0;
				break;
			}
			if (!e->name[k])
				break;
		}
		e->has_tls = -1;
		if (n == 0) {
			e->map = mm;
		} else if (e->name[0]) {
			e->map = map_named(e->name);
			if (!e->map)
				e->map = map_at(e->l_addr, 1);
		}
		if (e->map) {
			file_for(e->map, file, sizeof(file));
			if (!file_phdrs(file, &eph) || !file_phdrs(e->map->path, &eph))
				e->has_tls = eph.has_tls;
		} else if (!e->name[0] || !strncmp(e->name, "linux-vdso", 10)) {
			e->has_tls = 0;	/* the vDSO */
		}
		lm = f[3];
	}
	return n;
}

static void libraries_doc(struct obuf *o)
{
	static struct lmap lms[512];
	uint64_t main_lm;
	char file[PATH_MAX];
	int n = link_maps(lms, 512, &main_lm), i;

	ob_str(o, "<library-list-svr4 version=\"1.0\"");
	if (n > 0)
		ob_fmt(o, " main-lm=\"0x%llx\"", (unsigned long long)main_lm);
	ob_str(o, ">");
	for (i = 1; i < n; i++) {
		if (!lms[i].name[0])
			continue;
		if (lms[i].map)
			file_for(lms[i].map, file, sizeof(file));
		else
			snprintf(file, sizeof(file), "%s", lms[i].name);
		ob_str(o, "<library name=\"");
		xml_escape(o, file);
		ob_fmt(o, "\" lm=\"0x%llx\" l_addr=\"0x%llx\" l_ld=\"0x%llx\" lmid=\"0x0\"/>",
		       (unsigned long long)lms[i].lm, (unsigned long long)lms[i].l_addr,
		       (unsigned long long)lms[i].l_ld);
	}
	ob_str(o, "</library-list-svr4>");
}

static void exec_file_doc(struct obuf *o)
{
	uint64_t entry = auxv_get(AT_ENTRY);
	const Flightrec__Map *m = map_at(entry, 0);
	char file[PATH_MAX];

	/*
	 * gdb relocates the program it loads by comparing its segments with
	 * the replayed memory: a separate debug file (segments without bytes)
	 * cannot be the program, only symbols added at the recorded bias
	 * (flightrec gdb does that).
	 */
	if (!m || !file_for_code(m, true, file, sizeof(file)))
		return;
	ob_str(o, file);
}

/*
 * The address of a TLS variable: module `offset` of the object whose
 * link_map is lm, in thread t.  x86-64 glibc: the DTV is at fs_base + 8,
 * 16 bytes per module (the block, then what to free); the module ids of the
 * objects loaded at start are given in link-map order to those with a
 * PT_TLS segment, the main program first (as gdb 16's own lookup does).
 */
static int tls_addr(struct gthread *t, uint64_t offset, uint64_t lm, uint64_t *out)
{
	static struct lmap lms[512];
	static struct tregs tr;
	uint64_t main_lm, dtv, block, modid = 0;
	int n = link_maps(lms, 512, &main_lm), i;

	if (n <= 0 || get_regs(t, &tr))
		return -1;
	for (i = 0; i < n; i++) {
		if (lms[i].has_tls < 0)
			return -1;	/* an object before it we know nothing of */
		modid += (uint64_t)lms[i].has_tls;
		if (lms[i].lm == lm)
			break;
	}
	if (i == n || !lms[i].has_tls)
		return -1;
	if (read_u64(tr.r.fs_base + 8, &dtv) || read_u64(dtv + 16 * modid, &block) ||
	    !block || block == (uint64_t)-1)
		return -1;
	*out = block + offset;
	return 0;
}

static void send_xfer(const char *doc, size_t len, const char *args)
{
	const char *p = args;
	uint64_t off, n;
	struct obuf o = { 0 };

	off = parse_hex(&p);
	if (*p++ != ',') {
		put_str("E01");
		return;
	}
	n = parse_hex(&p);
	if (off > len)
		off = len;
	if (n > PKT_MAX - 16)
		n = PKT_MAX - 16;
	ob_add(&o, off + n < len ? "m" : "l", 1);
	ob_add(&o, doc + off, off + n < len ? n : len - off);
	put_packet(o.p, o.len);
	free(o.p);
}

static void handle_xfer(const char *pkt)
{
	char object[64], annex[256];
	const char *p = pkt + strlen("qXfer:"), *colon;
	struct obuf o = { 0 };
	size_t n;

	colon = strchr(p, ':');
	if (!colon || (size_t)(colon - p) >= sizeof(object)) {
		put_str("");
		return;
	}
	n = (size_t)(colon - p);
	memcpy(object, p, n);
	object[n] = 0;
	p = colon + 1;
	if (strncmp(p, "read:", 5)) {
		put_str("");
		return;
	}
	p += 5;
	colon = strchr(p, ':');
	if (!colon || (size_t)(colon - p) >= sizeof(annex)) {
		put_str("E00");
		return;
	}
	memcpy(annex, p, (size_t)(colon - p));
	annex[colon - p] = 0;
	p = colon + 1;
	if (!strcmp(object, "features") && !strcmp(annex, "target.xml"))
		target_xml(&o);
	else if (!strcmp(object, "auxv"))
		auxv_doc(&o);
	else if (!strcmp(object, "libraries-svr4"))
		libraries_doc(&o);
	else if (!strcmp(object, "exec-file")) {
		exec_file_doc(&o);
		if (!o.len) {
			put_str("E01");
			return;
		}
	}
	else if (!strcmp(object, "siginfo")) {
		struct gthread *t = any_thread();
		siginfo_t si;

		/* the signal of the last stop, as the kernel gave it */
		if (!t || G.stop.t != t || G.stop.kind != STOP_SIGNAL ||
		    ptrace(PTRACE_GETSIGINFO, t->tid, 0, &si)) {
			put_str("E01");
			return;
		}
		ob_add(&o, &si, sizeof(si));
	}
	else {
		put_str("E00");
		return;
	}
	send_xfer(o.p ? o.p : "", o.len, p);
	free(o.p);
}

/* ------------------------------------------------------------------ */
/* breakpoints */

static int insert_sw(uint64_t addr)
{
	uint8_t orig, cc = 0xcc;
	struct swbp *b;

	if (find_bp(addr))
		return 0;
	if (mem_read(addr, &orig, 1))
		return -1;
	if (orig == 0xcc)
		orig = app_byte(addr);	/* the loader's int3 */
	if (mem_write(addr, &cc, 1))
		return -1;
	if (G.n_bps == G.cap_bps) {
		size_t cap = G.cap_bps ? 2 * G.cap_bps : 16;
		struct swbp *n = realloc(G.bps, cap * sizeof(*n));

		if (!n) {
			mem_write(addr, &orig, 1);
			return -1;
		}
		G.bps = n;
		G.cap_bps = cap;
	}
	b = &G.bps[G.n_bps++];
	b->addr = addr;
	b->orig = orig;
	return 0;
}

static int remove_sw(uint64_t addr)
{
	struct swbp *b = find_bp(addr);

	uint8_t v;

	if (!b)
		return 0;
	/* not mapped (here, before ld.so maps its library): nothing to take out */
	v = unbp_byte(addr, b->orig);
	if (mem_write(addr, &v, 1) && !mem_read(addr, &v, 1))
		return -1;
	*b = G.bps[--G.n_bps];
	return 0;
}

/*
 * Hardware: each aligned piece of 1, 2, 4 or 8 bytes takes a debug
 * register (4 in all).  Read-only watchpoints do not exist on x86 (Z3 is
 * refused, as gdbserver does; gdb then offers awatch).
 */
static int insert_hw(int type, uint64_t addr, uint64_t len)
{
	struct hwslot save[4];
	int i;

	if (type == 3)
		return 1;
	memcpy(save, G.hw, sizeof(save));
	if (type == 1)
		len = 1;
	while (len) {
		uint64_t size = 8;

		while (size > 1 && ((addr & (size - 1)) || size > len))
			size /= 2;
		for (i = 0; i < 4 && G.hw[i].used; i++)
			;
		if (i == 4) {
			memcpy(G.hw, save, sizeof(save));
			return -1;
		}
		G.hw[i].used = 1;
		G.hw[i].type = type;
		G.hw[i].addr = addr;
		G.hw[i].len = (int)size;
		addr += size;
		len -= size;
	}
	set_dregs_all();
	return 0;
}

/*
 * Where the debug registers do not trigger, a hardware breakpoint or
 * watchpoint accepted would never stop: refused (gdb says it could not
 * insert it), and the user told why and what works instead, once.
 */
static int refuse_hw(int type)
{
	if (!G.dregs_said && !G.s->quiet)
		fprintf(stderr, PFX "hardware %s refused: this machine's debug registers do not "
			"trigger (a hypervisor that does not pass them on); use break, or watch "
			"after 'set can-use-hw-watchpoints 0' (gdb's software watchpoints)\n",
			type == 1 ? "breakpoint" : "watchpoint");
	G.dregs_said = 1;
	return -1;
}

static int remove_hw(int type, uint64_t addr, uint64_t len)
{
	int i;

	if (type == 1)
		len = 1;
	for (i = 0; i < 4; i++)
		if (G.hw[i].used && G.hw[i].type == type && G.hw[i].addr >= addr &&
		    G.hw[i].addr < addr + len)
			G.hw[i].used = 0;
	set_dregs_all();
	return 0;
}

/* ------------------------------------------------------------------ */
/* the session */

static void end_replay(const struct report *r)
{
	char shown[64];

	G.ended = 1;
	if (r->kind == STOP_EXITED) {
		G.end_status = r->code;
	} else {
		/* the recorded fatal signal, delivered by gdb, is the recorded end */
		const Flightrec__End *e = G.s->c->end;

		G.end_status = e && e->kind == FLIGHTREC_END_FAULT && (int)e->signo == r->sig ?
			       FR_EXIT_OK : FR_EXIT_MISMATCH;
		if (!G.s->quiet)
			fprintf(stderr, PFX "the replay ended with %s\n",
				fr_escape(strsignal(r->sig), shown, sizeof(shown)));
	}
	if (G.s->status_fd >= 0)
		dprintf(G.s->status_fd, "ended %d\n", G.end_status);
}

/* gdb's vCont: actions for threads, the first that names a thread wins */
static int handle_vcont(const char *p)
{
	int i, default_act = 0, default_sig = 0;

	for (i = 0; i < G.n_th; i++) {
		G.th[i].mode = -1;
		G.th[i].inject = 0;
	}
	while (*p == ';') {
		char act;
		int sig = 0, all;
		struct gthread *t = NULL;

		p++;
		act = *p++;
		if (act == 'C' || act == 'S')
			sig = to_linux_sig((int)parse_hex(&p));
		if (act == 'r')
			return -1;	/* range stepping: not offered */
		if (*p == ':') {
			p++;
			t = parse_thread(&p, &all);
			if (all)
				t = NULL;
			else if (!t)
				continue;
		}
		if (t) {
			if (t->mode == -1) {
				t->mode = (act == 's' || act == 'S') ? RUN_STEP : RUN_CONT;
				t->inject = sig;
			}
		} else if (!default_act) {
			default_act = act;
			default_sig = sig;
		}
	}
	for (i = 0; i < G.n_th; i++) {
		struct gthread *t = &G.th[i];

		if (t->mode != -1)
			continue;
		if (!default_act || !t->rec_tid) {
			t->mode = RUN_CONT;	/* threads gdb does not know run on */
			continue;
		}
		t->mode = (default_act == 's' || default_act == 'S') ? RUN_STEP : RUN_CONT;
		/* a signal without a thread is the current thread's */
		if (default_sig && t == G.last_stop)
			t->inject = default_sig;
	}
	return 0;
}

static void do_resume(void)
{
	struct report rep;
	struct obuf o = { 0 };

	memset(&rep, 0, sizeof(rep));
	run_until_stop(&rep);
	if (rep.kind == STOP_EXITED || rep.kind == STOP_KILLED) {
		end_replay(&rep);
	} else if (rep.t) {
		struct user_regs_struct r;

		G.last_stop = G.cur = rep.t;
		if (!ptrace(PTRACE_GETREGS, rep.t->tid, 0, &r)) {
			pos_of(rep.t, &r, &G.cur_pos);
			G.have_cur_pos = 1;
		}
	}
	G.stop = rep;
	stop_reply(&o, &rep);
	put_str(o.p ? o.p : "E01");
	free(o.p);
}

/* bs, bc: the stop reply, and where the replay is now */
static void do_reverse(int cont)
{
	struct report rep;
	struct user_regs_struct r;
	struct obuf o = { 0 };
	int res;

	memset(&rep, 0, sizeof(rep));
	G.at_before_event = 0;
	res = cont ? reverse_continue(&rep) : reverse_step(&rep);
	if (res < 0) {
		/* the replay is lost: say so; gdb shows the error */
		fprintf(stderr, PFX "reverse execution failed\n");
		put_str("E01");
		return;
	}
	if (!cont && res == 0)
		put_bps();
	if (res == 1) {
		/* the beginning: gdb says "No more reverse-execution history" */
		rep.kind = STOP_SIGNAL;
		rep.sig = SIGTRAP;
		rep.t = G.cur;
	}
	drain_chan();
	G.last_stop = G.cur = rep.t;
	G.stop = rep;
	if (rep.t && !ptrace(PTRACE_GETREGS, rep.t->tid, 0, &r)) {
		pos_of(rep.t, &r, &G.cur_pos);
		G.cur_pos.before_event = G.at_before_event;
		G.have_cur_pos = 1;
		if (!cont && res == 0 && G.rev_steps_known && !G.at_before_event) {
			G.cur_pos.steps_known = 1;
			G.cur_pos.steps = G.rev_steps;
			G.cur_pos.anchor = G.rev_anchor;
			G.cur_pos.hits = G.rev_hits;
		}
	}
	if (res == 1)
		ob_str(&o, "T05replaylog:begin;");
	if (res == 1 && rep.t) {
		ob_str(&o, "thread:");
		thread_id(&o, rep.t);
		ob_str(&o, ";");
	} else if (res != 1) {
		stop_reply(&o, &rep);
	}
	put_str(o.p);
	free(o.p);
}

static void handle_registers(const char *pkt)
{
	static struct tregs tr;
	struct gthread *t = any_thread();
	struct obuf o = { 0 };
	uint8_t b[16];
	int i;

	if (!t || get_regs(t, &tr)) {
		put_str("E01");
		return;
	}
	if (pkt[0] == 'g') {
		for (i = 0; i < n_regs(); i++) {
			reg_bytes(&regs[i], &tr, b);
			ob_hex(&o, b, (size_t)regs[i].bits / 8);
		}
		put_str(o.p);
		free(o.p);
		return;
	}
	if (pkt[0] == 'p') {
		const char *p = pkt + 1;
		uint64_t n = parse_hex(&p);

		if (n >= (uint64_t)n_regs()) {
			put_str("E01");
			return;
		}
		reg_bytes(&regs[n], &tr, b);
		ob_hex(&o, b, (size_t)regs[n].bits / 8);
		put_str(o.p);
		free(o.p);
		return;
	}
	if (pkt[0] == 'P') {
		const char *p = pkt + 1;
		uint64_t n = parse_hex(&p);

		if (*p++ != '=' || n >= (uint64_t)n_regs() ||
		    strlen(p) != (size_t)regs[n].bits / 4 ||
		    hex_to_bin(p, b, (size_t)regs[n].bits / 8)) {
			put_str("E01");
			return;
		}
		set_reg_bytes(&regs[n], &tr, b);
	} else {	/* G */
		const char *p = pkt + 1;

		for (i = 0; i < n_regs(); i++) {
			size_t w = (size_t)regs[i].bits / 8;

			if (strlen(p) < 2 * w || hex_to_bin(p, b, w))
				break;
			set_reg_bytes(&regs[i], &tr, b);
			p += 2 * w;
		}
	}
	put_str(set_regs(t, &tr) ? "E01" : "OK");
}

static void handle_memory(const char *pkt)
{
	const char *p = pkt + 1;
	uint64_t addr = parse_hex(&p), len;
	struct obuf o = { 0 };
	uint8_t *buf;
	ssize_t n;

	if (*p++ != ',') {
		put_str("E01");
		return;
	}
	len = parse_hex(&p);
	if (pkt[0] == 'm') {
		if (len > PKT_MAX / 2 - 16)
			len = PKT_MAX / 2 - 16;
		buf = malloc(len + 1);
		n = buf ? mem_read_app(addr, buf, len) : -1;
		if (n <= 0)
			put_str("E01");
		else {
			ob_hex(&o, buf, (size_t)n);
			put_str(o.p);
		}
		free(buf);
		free(o.p);
		return;
	}
	if (*p++ != ':' || len > PKT_MAX) {
		put_str("E01");
		return;
	}
	buf = malloc(len + 1);
	if (!buf) {
		put_str("E01");
		return;
	}
	if (pkt[0] == 'M') {
		if (strlen(p) < 2 * len || hex_to_bin(p, buf, len)) {
			free(buf);
			put_str("E01");
			return;
		}
	} else {	/* X: binary, already unescaped by get_packet */
		memcpy(buf, p, len);
	}
	put_str(!len || !mem_write(addr, buf, len) ? "OK" : "E01");
	free(buf);
}

static void handle_query(const char *pkt)
{
	struct obuf o = { 0 };
	int i, first = 1;

	if (!strncmp(pkt, "qSupported", 10)) {
		G.multiprocess = strstr(pkt, "multiprocess+") != NULL;
		ob_fmt(&o, "PacketSize=%x;QStartNoAckMode+;qXfer:features:read+;"
		       "qXfer:auxv:read+;qXfer:libraries-svr4:read+;qXfer:exec-file:read+;"
		       "qXfer:siginfo:read+;"
		       "swbreak+;hwbreak+;vContSupported+;ReverseStep+;ReverseContinue+%s",
		       PKT_MAX,
		       G.multiprocess ? ";multiprocess+" : "");
		put_str(o.p);
	} else if (!strncmp(pkt, "qXfer:", 6)) {
		handle_xfer(pkt);
	} else if (!strcmp(pkt, "qfThreadInfo")) {
		ob_str(&o, "m");
		for (i = 0; i < G.n_th; i++) {
			if (!G.th[i].alive || !G.th[i].rec_tid)
				continue;
			if (!first)
				ob_str(&o, ",");
			thread_id(&o, &G.th[i]);
			first = 0;
		}
		put_str(first ? "l" : o.p);
	} else if (!strcmp(pkt, "qsThreadInfo")) {
		put_str("l");
	} else if (!strcmp(pkt, "qC")) {
		struct gthread *t = any_thread();

		if (!t) {
			put_str("");
		} else {
			ob_str(&o, "QC");
			thread_id(&o, t);
			put_str(o.p);
		}
	} else if (!strncmp(pkt, "qAttached", 9)) {
		put_str("0");		/* we started it: gdb kills it when done */
	} else if (!strncmp(pkt, "qSymbol", 7)) {
		put_str("OK");
	} else if (!strncmp(pkt, "qGetTLSAddr:", 12)) {
		const char *p = pkt + 12;
		struct gthread *t;
		uint64_t off, lm, a;
		int all;

		t = parse_thread(&p, &all);
		if (*p++ != ',') {
			put_str("E01");
			goto out;
		}
		off = parse_hex(&p);
		if (*p++ != ',') {
			put_str("E01");
			goto out;
		}
		lm = parse_hex(&p);
		if (!t)
			t = any_thread();
		if (!t || tls_addr(t, off, lm, &a)) {
			put_str("E01");
			goto out;
		}
		ob_fmt(&o, "%llx", (unsigned long long)a);
		put_str(o.p);
	} else if (!strncmp(pkt, "qThreadExtraInfo,", 17)) {
		const char *p = pkt + 17;
		struct gthread *t;
		static struct tregs tr;
		int all;
		const char *s;

		t = parse_thread(&p, &all);
		s = !t ? "" : get_regs(t, &tr) ? "" : tr.parked ?
		    "in a system call (waits in the replay)" : "";
		ob_hex(&o, (const uint8_t *)s, strlen(s));
		put_str(o.p ? o.p : "");
	} else {
		put_str("");
	}
out:
	free(o.p);
}

static int handle_kill(void)
{
	int st;

	snap_drop_all();
	if (G.live)
		kill(G.s->pid, SIGKILL);
	G.live = 0;
	while (waitpid(-1, &st, __WALL) > 0)
		;
	if (!G.ended && !G.s->quiet)
		fprintf(stderr, PFX "gdb killed the replay before its end\n");
	return 0;
}

/* one gdb session; returns when gdb is done: 1 when it detached */
static int serve(void)
{
	static char pkt[PKT_MAX + 1];
	struct obuf o;
	int n;

	while ((n = get_packet(pkt, sizeof(pkt))) >= 0) {
		memset(&o, 0, sizeof(o));
		if (G.debug)
			fprintf(stderr, PFX "debug: packet %.60s\n", pkt);
		if (pkt[0] == 3)
			continue;	/* ^C while stopped */
		if (!strcmp(pkt, "QStartNoAckMode")) {
			put_str("OK");
			G.noack = 1;
		} else if (pkt[0] == 'q') {
			handle_query(pkt);
		} else if (!strcmp(pkt, "?")) {
			stop_reply(&o, &G.stop);
			put_str(o.p);
		} else if (pkt[0] == 'H') {
			const char *p = pkt + 2;
			int all;
			struct gthread *t = parse_thread(&p, &all);

			if (t && pkt[1] == 'g')
				G.cur = t;
			put_str(t || all ? "OK" : "E01");
		} else if (pkt[0] == 'T') {
			const char *p = pkt + 1;
			int all;

			put_str(parse_thread(&p, &all) ? "OK" : "E01");
		} else if (pkt[0] == 'g' || pkt[0] == 'G' || pkt[0] == 'p' || pkt[0] == 'P') {
			handle_registers(pkt);
		} else if (pkt[0] == 'm' || pkt[0] == 'M' || pkt[0] == 'X') {
			handle_memory(pkt);
		} else if (!strcmp(pkt, "bs") || !strcmp(pkt, "bc")) {
			if (G.ended || !G.have_cur_pos)
				put_str("E01");
			else
				do_reverse(pkt[1] == 'c');
		} else if (!strcmp(pkt, "vCont?")) {
			put_str("vCont;c;C;s;S");
		} else if (!strncmp(pkt, "vCont;", 6)) {
			if (G.ended || handle_vcont(pkt + 5))
				put_str("E01");
			else
				do_resume();
		} else if (pkt[0] == 'c' || pkt[0] == 's' || pkt[0] == 'C' || pkt[0] == 'S') {
			char v[32];

			if (pkt[0] == 'C' || pkt[0] == 'S')
				snprintf(v, sizeof(v), ";%c%.2s", pkt[0], pkt + 1);
			else
				snprintf(v, sizeof(v), ";%c", pkt[0]);
			if (G.ended || handle_vcont(v))
				put_str("E01");
			else
				do_resume();
		} else if (pkt[0] == 'Z' || pkt[0] == 'z') {
			const char *p = pkt + 1;
			int type = *p++ - '0', r;
			uint64_t addr, len;

			if (*p++ != ',') {
				put_str("E01");
				continue;
			}
			addr = parse_hex(&p);
			if (*p++ != ',') {
				put_str("E01");
				continue;
			}
			len = parse_hex(&p);
			if (type == 0)
				r = pkt[0] == 'Z' ? insert_sw(addr) : remove_sw(addr);
			else if (type >= 1 && type <= 4 && pkt[0] == 'Z' && !G.dregs && type != 3)
				r = refuse_hw(type);
			else if (type >= 1 && type <= 4)
				r = pkt[0] == 'Z' ? insert_hw(type, addr, len) :
				    remove_hw(type, addr, len);
			else
				r = 1;
			put_str(r > 0 ? "" : r ? "E01" : "OK");
		} else if (pkt[0] == 'k' || !strncmp(pkt, "vKill", 5)) {
			if (pkt[0] == 'v')
				put_str("OK");
			handle_kill();
			return 0;
		} else if (pkt[0] == 'D') {
			/* detach: the replay goes on to its end without gdb */
			int i;

			remove_hw(1, 0, ~0ull);
			for (i = 0; i < 4; i++)
				G.hw[i].used = 0;
			set_dregs_all();
			while (G.n_bps)
				remove_sw(G.bps[0].addr);
			for (i = 0; i < G.n_th; i++)
				if (G.th[i].alive)
					ptrace(PTRACE_DETACH, G.th[i].tid, 0, G.th[i].inject);
			put_str("OK");
			return 1;
		} else if (!strncmp(pkt, "vMustReplyEmpty", 15)) {
			put_str("");
		} else {
			put_str("");
		}
		free(o.p);
	}
	return 0;
}

/* fr_sigreturn_insn in the loader's symbol table */
static uint64_t loader_symbol(const char *path, const char *name)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	const uint8_t *m;
	const Elf64_Ehdr *eh;
	uint64_t v = 0;
	size_t i;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		close(fd);
		return 0;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return 0;
	eh = (const Elf64_Ehdr *)m;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > (uint64_t)st.st_size)
		goto out;
	for (i = 0; i < eh->e_shnum && !v; i++) {
		const Elf64_Shdr *sh = (const Elf64_Shdr *)(m + eh->e_shoff) + i, *strs;
		size_t k;

		if (sh->sh_type != SHT_SYMTAB || sh->sh_link >= eh->e_shnum ||
		    sh->sh_offset + sh->sh_size > (uint64_t)st.st_size)
			continue;
		strs = (const Elf64_Shdr *)(m + eh->e_shoff) + sh->sh_link;
		if (strs->sh_offset + strs->sh_size > (uint64_t)st.st_size)
			continue;
		for (k = 0; k < sh->sh_size / sizeof(Elf64_Sym); k++) {
			const Elf64_Sym *sym = (const Elf64_Sym *)(m + sh->sh_offset) + k;

			if (sym->st_name < strs->sh_size &&
			    !strncmp((const char *)m + strs->sh_offset + sym->st_name, name,
				     strs->sh_size - sym->st_name)) {
				v = sym->st_value;
				break;
			}
		}
	}
out:
	munmap((void *)m, (size_t)st.st_size);
	return v;
}

int fr_gdbserver_listen(const char *spec, char *name, size_t len)
{
	char host[256] = "127.0.0.1", shown[300];
	const char *colon = strrchr(spec, ':'), *port = spec;
	struct addrinfo hints, *ai = NULL, *a;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char hbuf[NI_MAXHOST], pbuf[NI_MAXSERV];
	uint32_t pn;
	int fd = -1, one = 1, r;

	if (colon) {
		size_t hl = (size_t)(colon - spec);

		if (hl >= sizeof(host)) {
			fprintf(stderr, PFX "host name too long\n");
			return -1;
		}
		if (hl) {
			memcpy(host, spec, hl);
			host[hl] = 0;
		}
		port = colon + 1;
		if (host[0] == '[' && hl > 2 && host[hl - 1] == ']') {
			memmove(host, host + 1, hl - 2);
			host[hl - 2] = 0;
		}
	}
	if (!fr_parse_u32(port, 0, 65535, &pn)) {
		fprintf(stderr, "flightrec: --gdbserver takes [HOST:]PORT, not '%s'\n",
			fr_escape(spec, shown, sizeof(shown)));
		return -2;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	r = getaddrinfo(host, port, &hints, &ai);
	if (r) {
		fprintf(stderr, PFX "%s: %s\n", fr_escape(host, shown, sizeof(shown)),
			gai_strerror(r));
		return -1;
	}
	for (a = ai; a; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (!bind(fd, a->ai_addr, a->ai_addrlen) && !listen(fd, 1))
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	if (fd < 0) {
		fprintf(stderr, PFX "cannot listen on %s: %s\n",
			fr_escape(spec, shown, sizeof(shown)), strerror(errno));
		return -1;
	}
	if (!getsockname(fd, (struct sockaddr *)&ss, &sl) &&
	    !getnameinfo((struct sockaddr *)&ss, sl, hbuf, sizeof(hbuf), pbuf, sizeof(pbuf),
			 NI_NUMERICHOST | NI_NUMERICSERV))
		snprintf(name, len, strchr(hbuf, ':') ? "[%s]:%s" : "%s:%s", hbuf, pbuf);
	else
		snprintf(name, len, "%s", spec);
	return fd;
}

int fr_gdbserver_run(struct fr_gdbserver *s)
{
	struct report rep;
	const char *gap;
	sigset_t mask;
	int st, one = 1, detached, r;
	pid_t w;

	memset(&G, 0, sizeof(G));
	G.s = s;
	G.memfd = -1;
	G.sock = -1;
	G.rec_pid = s->c->hdr->process ? s->c->hdr->process->pid : 1;
	G.avx = s->c->hdr->system && (s->c->hdr->system->xcr0 & 4);
	G.debug = !!getenv("FLIGHTREC_GDBSERVER_DEBUG");
	/*
	 * Before SIGCHLD is blocked for the signalfd: the probe's child is
	 * waited for by its pid and leaves nothing pending.  -1 (could not
	 * tell) accepts them, as before.  FLIGHTREC_GDBSERVER_DREGS=0 acts as
	 * where they do not trigger (the tests of the refusal).
	 */
	G.dregs = getenv("FLIGHTREC_GDBSERVER_DREGS") &&
		  !strcmp(getenv("FLIGHTREC_GDBSERVER_DREGS"), "0") ? 0 : fr_debugregs_trigger();
	G.sigreturn_insn = loader_symbol(s->loader, "fr_sigreturn_insn");
	if (!G.sigreturn_insn) {
		fprintf(stderr, PFX "%s has no symbol fr_sigreturn_insn\n", s->loader);
		kill(s->pid, SIGKILL);
		return FR_EXIT_FAIL;
	}
	G.snap_gap_ns = SNAP_GAP_MIN_NS;
	gap = getenv("FLIGHTREC_GDBSERVER_SNAP_GAP_MS");
	if (gap) {
		/* the least replay time between two snapshots, fixed (tests: 0) */
		char *end;
		unsigned long ms;

		errno = 0;
		ms = strtoul(gap, &end, 10);
		if (*end || end == gap || errno || ms > 3600000 || *gap == '-') {
			fprintf(stderr, PFX "FLIGHTREC_GDBSERVER_SNAP_GAP_MS=%s: not a number of "
				"milliseconds from 0 to 3600000\n", gap);
			kill(s->pid, SIGKILL);
			return FR_EXIT_USAGE;
		}
		G.snap_gap_ns = ms * 1000000ull;
		G.snap_gap_fixed = 1;
	}
	G.live = 1;
	G.snap_syscall = loader_symbol(s->loader, "fr_snap_syscall");
	G.snap_trap = loader_symbol(s->loader, "fr_snap_trap");
	G.loader_text = loader_symbol(s->loader, "__executable_start");
	G.loader_etext = loader_symbol(s->loader, "etext");
	G.snaps = calloc(MAX_SNAPS + 1, sizeof(*G.snaps));
	G.snap_ok = G.snap_syscall && G.snap_trap && G.snaps &&
		    G.loader_text && G.loader_etext > G.loader_text &&
		    !(getenv("FLIGHTREC_GDBSERVER_SNAPSHOTS") &&
		      !strcmp(getenv("FLIGHTREC_GDBSERVER_SNAPSHOTS"), "0"));
	fcntl(s->chan, F_SETFL, O_NONBLOCK);
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	G.sigfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	r = to_first_insn(&rep);
	if (r)
		return r < 0 ? FR_EXIT_FAIL : r;
	G.stop = rep;
	G.stop.sig = SIGTRAP;
	G.stop.why = NULL;
	G.last_stop = G.cur = rep.t;
	G.start_pos = G.cur_pos;
	snap_take_start();
	if (!s->quiet)
		fprintf(stderr, PFX "stopped at the first instruction of interval %u; "
			"listening on %s (gdb: target remote %s)\n", s->from, s->listen_name,
			s->listen_name);
	if (s->status_fd >= 0)
		dprintf(s->status_fd, "ready\n");
	G.sock = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	close(s->listen_fd);
	if (G.sock < 0) {
		fprintf(stderr, PFX "accept: %s\n", strerror(errno));
		kill(s->pid, SIGKILL);
		return FR_EXIT_FAIL;
	}
	setsockopt(G.sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	detached = serve();
	if (G.sock >= 0)
		close(G.sock);
	if (!G.ended && !detached) {
		/* gdb went away without a word: the replay goes with it */
		if (G.live)
			kill(s->pid, SIGKILL);
		handle_kill();
	} else if (!G.ended) {
		/* gdb left without killing (detach, or the connection closed) */
		snap_drop_all();
		for (;;) {
			w = waitpid(-1, &st, __WALL);
			if (w < 0)
				break;
			if (w == s->pid && (WIFEXITED(st) || WIFSIGNALED(st))) {
				memset(&rep, 0, sizeof(rep));
				rep.kind = WIFEXITED(st) ? STOP_EXITED : STOP_KILLED;
				rep.code = WIFEXITED(st) ? WEXITSTATUS(st) : 0;
				rep.sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
				if (rep.sig != SIGKILL)
					end_replay(&rep);
			}
		}
	}
	snap_drop_all();
	free(G.snaps);
	if (!s->quiet && (G.n_restored || G.n_restarts))
		fprintf(stderr, PFX "reverse execution: %lu snapshots taken, %lu restored "
			"(%lu at the first instruction, %lu inside a segment), %lu fresh loaders\n",
			G.n_taken, G.n_restored, G.n_start_restored, G.n_step_restored,
			G.n_restarts);
	if (!s->quiet && G.n_lbp_traps)
		fprintf(stderr, PFX "the loader's own traps passed on: %lu (its int3 that places "
			"a signal or dump point in user code, and the steps past it)\n",
			G.n_lbp_traps);
	free(G.bps);
	if (G.memfd >= 0)
		close(G.memfd);
	return G.ended ? G.end_status : FR_EXIT_FAIL;
}
