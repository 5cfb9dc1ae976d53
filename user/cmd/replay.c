// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec replay, flightrec gdb.
 *
 * Both read a checkpoint, check it can replay here (the CPU features the
 * recorded code may use, the loader's address window), flatten the chosen
 * interval into a replay image (user/loader/image.h) and run the static
 * replay loader on it: directly (replay), or under gdb with symbols loaded
 * at the recorded addresses (gdb).  See docs/replay.md.
 */
#include <cpuid.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <sys/ptrace.h>
#include <asm/prctl.h>
#include "checkpoint.h"
#include "cmd/gdbserver.h"
#include "commands.h"
#include "fr_htab.h"
#include "libflightrec.h"
#include "flightrec.h"
#include "flightrec_syscalls.h"
#include "loader/image.h"

#define PFX "flightrec replay: "

/* What replay needs of the one syscall table. */
struct sc_row {
	const char *name;
	unsigned char nargs;
	unsigned int flags;
	struct fr_data_desc in1;
};

#define FR_ROW(nr, nm, na, fl, types, i1, i2, o1, o2, o3) \
	[nr] = { .name = #nm, .nargs = na, .flags = fl, .in1 = i1 },
static const struct sc_row sc_rows[FR_NR_SYSCALLS] = {
	FLIGHTREC_SYSCALL_TABLE(FR_ROW)
};

static const struct sc_row *sc_row(uint32_t nr)
{
	return nr < FR_NR_SYSCALLS && sc_rows[nr].name ? &sc_rows[nr] : NULL;
}

struct opts {
	const char *file;
	const char *out;
	uint32_t from;
	bool has_from;
	bool show_output, ignore_cpu, quiet, verbose, patch_rdtsc, patch_cpuid;
	bool force;			/* --force: an existing non-empty --out DIR */
	const char *save_image;
	const char *core;		/* --core PATH */
	const char *gdbserver;		/* --gdbserver [HOST:]PORT */
	/* gdb */
	const char **symbols;
	size_t n_symbols;
	const char *batch_cmds;		/* --batch FILE of gdb commands, or "-" */
	char **gdb_args;
	int n_gdb_args;
	bool notes_said;		/* an image after an exec: its notes were said */
};

/* ------------------------------------------------------------------ */
/* CPU features */

struct feat {
	uint32_t leaf, subleaf;
	char reg;		/* 'a' 'b' 'c' 'd' */
	int bit;
	const char *name;
};

/* Instruction-set features code may dispatch on (glibc ifuncs, compilers). */
static const struct feat feats[] = {
	{ 1, 0, 'c', 0, "sse3" }, { 1, 0, 'c', 1, "pclmulqdq" }, { 1, 0, 'c', 9, "ssse3" },
	{ 1, 0, 'c', 12, "fma" }, { 1, 0, 'c', 13, "cx16" }, { 1, 0, 'c', 19, "sse4_1" },
	{ 1, 0, 'c', 20, "sse4_2" }, { 1, 0, 'c', 22, "movbe" }, { 1, 0, 'c', 23, "popcnt" },
	{ 1, 0, 'c', 25, "aes" }, { 1, 0, 'c', 26, "xsave" }, { 1, 0, 'c', 28, "avx" },
	{ 1, 0, 'c', 29, "f16c" }, { 1, 0, 'c', 30, "rdrand" },
	{ 1, 0, 'd', 15, "cmov" }, { 1, 0, 'd', 23, "mmx" }, { 1, 0, 'd', 24, "fxsr" },
	{ 1, 0, 'd', 25, "sse" }, { 1, 0, 'd', 26, "sse2" },
	{ 7, 0, 'b', 0, "fsgsbase" }, { 7, 0, 'b', 3, "bmi1" }, { 7, 0, 'b', 5, "avx2" },
	{ 7, 0, 'b', 8, "bmi2" }, { 7, 0, 'b', 9, "erms" }, { 7, 0, 'b', 16, "avx512f" },
	{ 7, 0, 'b', 17, "avx512dq" }, { 7, 0, 'b', 18, "rdseed" }, { 7, 0, 'b', 19, "adx" },
	{ 7, 0, 'b', 21, "avx512ifma" }, { 7, 0, 'b', 23, "clflushopt" },
	{ 7, 0, 'b', 24, "clwb" }, { 7, 0, 'b', 28, "avx512cd" }, { 7, 0, 'b', 29, "sha_ni" },
	{ 7, 0, 'b', 30, "avx512bw" }, { 7, 0, 'b', 31, "avx512vl" },
	{ 7, 0, 'c', 1, "avx512vbmi" }, { 7, 0, 'c', 6, "avx512_vbmi2" },
	{ 7, 0, 'c', 8, "gfni" }, { 7, 0, 'c', 9, "vaes" }, { 7, 0, 'c', 10, "vpclmulqdq" },
	{ 7, 0, 'c', 11, "avx512_vnni" }, { 7, 0, 'c', 12, "avx512_bitalg" },
	{ 7, 0, 'c', 14, "avx512_vpopcntdq" }, { 7, 0, 'c', 22, "rdpid" },
	{ 7, 0, 'c', 27, "movdiri" }, { 7, 0, 'c', 28, "movdir64b" },
	{ 7, 0, 'd', 4, "fsrm" }, { 7, 0, 'd', 8, "avx512_vp2intersect" },
	{ 7, 0, 'd', 14, "serialize" }, { 7, 0, 'd', 23, "avx512_fp16" },
	{ 7, 0, 'd', 22, "amx_bf16" }, { 7, 0, 'd', 24, "amx_tile" },
	{ 7, 0, 'd', 25, "amx_int8" },
	{ 7, 1, 'a', 4, "avx_vnni" }, { 7, 1, 'a', 5, "avx512_bf16" },
	{ 0xd, 1, 'a', 0, "xsaveopt" }, { 0xd, 1, 'a', 1, "xsavec" },
	{ 0x80000001, 0, 'c', 0, "lahf_lm" }, { 0x80000001, 0, 'c', 5, "abm" },
};

/*
 * Not in the list above: rdtscp reads the clock, which replay gives back
 * from the recording anyway (FLIGHTREC_NR_RDTSC).  Where this CPU lacks it
 * the loader patches the recorded sites to ud2 and answers their #UD
 * (tsc_patch_reason).  Hypervisors often hide it (AMD EPYC guests).
 */
static const struct feat feat_rdtscp = { 0x80000001, 0, 'd', 27, "rdtscp" };

/*
 * Vendor-specific extensions no library dispatches on (glibc has no ifunc
 * variant for them; compilers emit them only when asked): missing ones are
 * reported, not refused.  QEMU's TCG "max" CPU, for one, offers sse4a.
 */
static const struct feat soft_feats[] = {
	{ 0x80000001, 0, 'c', 6, "sse4a" }, { 0x80000001, 0, 'c', 8, "3dnowprefetch" },
	{ 0x80000001, 0, 'c', 11, "xop" }, { 0x80000001, 0, 'c', 16, "fma4" },
	{ 0x80000001, 0, 'c', 21, "tbm" },
};

/* XSAVE components that hold no state ordinary code depends on: MPX, PKRU. */
#define SOFT_XSTATE	((1ull << 3) | (1ull << 4) | (1ull << 9))

static uint32_t reg_of(const uint32_t r[4], char reg)
{
	return r[reg - 'a'];
}

static bool local_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	uint32_t max = __get_cpuid_max(leaf & 0x80000000u, NULL);

	if (leaf > max) {
		memset(r, 0, 16);
		return false;
	}
	__cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
	return true;
}

static const Flightrec__CpuidLeaf *rec_leaf(const struct flrc *c, uint32_t leaf, uint32_t sub)
{
	const Flightrec__SystemInfo *s = c->hdr->system;
	size_t i;

	for (i = 0; i < s->n_cpuid; i++)
		if (s->cpuid[i]->leaf == leaf && s->cpuid[i]->subleaf == sub)
			return s->cpuid[i];
	return NULL;
}

/* Whether the recorded CPU had feature @f (false where its leaf was not kept). */
static bool recorded_has(const struct flrc *c, const struct feat *f)
{
	const Flightrec__CpuidLeaf *l = rec_leaf(c, f->leaf, f->subleaf);
	uint32_t rr[4];

	if (!l)
		return false;
	rr[0] = l->eax; rr[1] = l->ebx; rr[2] = l->ecx; rr[3] = l->edx;
	return reg_of(rr, f->reg) >> f->bit & 1;
}

static uint64_t local_xcr0(void)
{
	uint32_t r[4], lo, hi;

	local_cpuid(1, 0, r);
	if (!(r[2] & (1u << 27)))	/* osxsave */
		return 3;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static size_t list_missing(const struct flrc *c, const struct feat *f, size_t n,
			   char *out, size_t size, int *count)
{
	size_t i, len = strlen(out);

	for (i = 0; i < n; i++) {
		uint32_t lr[4];

		local_cpuid(f[i].leaf, f[i].subleaf, lr);
		if (recorded_has(c, &f[i]) && !(reg_of(lr, f[i].reg) >> f[i].bit & 1) &&
		    len + 32 < size) {
			len += snprintf(out + len, size - len, " %s", f[i].name);
			(*count)++;
		}
	}
	return len;
}

static void list_xstate(uint64_t missing, char *out, size_t size, int *count)
{
	size_t len = strlen(out);
	unsigned int i;

	for (i = 2; i < 64; i++) {
		const char *nm = flrc_xsave_component_name(i);

		if (!(missing >> i & 1) || len + 48 >= size)
			continue;
		len += snprintf(out + len, size - len, " xsave:%s", nm ? nm : "?");
		(*count)++;
	}
}

/*
 * Lists what the recorded CPU had and this one lacks.  Returns how many of
 * them may be used by the recorded code (instruction sets libraries and
 * compilers dispatch on, XSAVE state); the others are only reported.
 */
static int check_cpu(const struct flrc *c, bool quiet)
{
	char hard[2048] = "", soft[1024] = "";
	int n_hard = 0, n_soft = 0;
	uint64_t rx, lx, missing;

	if (!c->hdr->system->n_cpuid) {
		if (!quiet)
			fprintf(stderr, PFX "warning: the checkpoint holds no CPUID leaves; "
				"cannot check CPU features\n");
		return 0;
	}
	list_missing(c, feats, sizeof(feats) / sizeof(feats[0]), hard, sizeof(hard), &n_hard);
	list_missing(c, soft_feats, sizeof(soft_feats) / sizeof(soft_feats[0]), soft,
		     sizeof(soft), &n_soft);
	rx = c->hdr->system->has_xcr0 ? c->hdr->system->xcr0 : 0;
	lx = local_xcr0();
	missing = rx & ~lx & ~3ull;
	list_xstate(missing & ~SOFT_XSTATE, hard, sizeof(hard), &n_hard);
	list_xstate(missing & SOFT_XSTATE, soft, sizeof(soft), &n_soft);
	if (n_soft && !quiet)
		fprintf(stderr, PFX "note: this CPU lacks%s (recorded CPU had them; ordinary "
			"code does not use them)\n", soft);
	if (n_hard)
		fprintf(stderr, PFX "this CPU lacks %d feature%s the recorded one had:%s\n",
			n_hard, n_hard == 1 ? "" : "s", hard);
	return n_hard;
}

/*
 * Why the loader is to patch the recorded rdtsc sites to ud2 rather than
 * have rdtsc fault (docs/replay.md), or NULL where it need not.
 */
static const char *tsc_patch_reason(const struct opts *o)
{
	uint32_t r[4];

	if (o->patch_rdtsc)
		return "--patch-rdtsc";
	local_cpuid(feat_rdtscp.leaf, feat_rdtscp.subleaf, r);
	if (!(reg_of(r, feat_rdtscp.reg) >> feat_rdtscp.bit & 1))
		return "this CPU has no rdtscp";
	if (!fr_rdtsc_traps())
		return "rdtsc does not fault under PR_SET_TSC on this machine";
	return NULL;
}

/*
 * Whether cpuid can fault on this machine (ARCH_SET_CPUID, Intel's CPUID
 * faulting, AMD from Zen 4 with a kernel that supports it).  This thread's
 * setting is put back.
 */
/* long options without a short letter */
#define OPT_PATCH_CPUID	0x100

static bool cpuid_faults_here(void)
{
	if (syscall(SYS_arch_prctl, ARCH_SET_CPUID, 0))
		return false;
	syscall(SYS_arch_prctl, ARCH_SET_CPUID, 1);
	return true;
}

/* ------------------------------------------------------------------ */
/* The replay image */

struct buf {
	uint8_t *p;
	size_t len, cap;
};

static size_t buf_reserve(struct buf *b, size_t n, size_t align)
{
	size_t off = (b->len + align - 1) & ~(align - 1);

	if (off + n > b->cap) {
		size_t cap = b->cap ? b->cap : 64 << 10;

		while (cap < off + n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p) {
			fprintf(stderr, PFX "out of memory (%zu bytes)\n", cap);
			exit(FR_EXIT_FAIL);
		}
		b->cap = cap;
	}
	/*
	 * Only what is handed out (and the padding before it) is zeroed: a
	 * fresh page costs a zeroing in the kernel already, and under
	 * emulation each one is a good part of a small checkpoint's start.
	 */
	memset(b->p + b->len, 0, off + n - b->len);
	b->len = off + n;
	return off;
}

static size_t buf_add(struct buf *b, const void *data, size_t n, size_t align)
{
	size_t off = buf_reserve(b, n, align);

	if (n)
		memcpy(b->p + off, data, n);
	return off;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_map_start(const void *a, const void *b)
{
	const Flightrec__Map *x = *(Flightrec__Map * const *)a;
	const Flightrec__Map *y = *(Flightrec__Map * const *)b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static void copy_regs(struct fri_regs *d, const Flightrec__Regs *r)
{
	d->r15 = r->r15; d->r14 = r->r14; d->r13 = r->r13; d->r12 = r->r12;
	d->rbp = r->rbp; d->rbx = r->rbx; d->r11 = r->r11; d->r10 = r->r10;
	d->r9 = r->r9; d->r8 = r->r8; d->rax = r->rax; d->rcx = r->rcx;
	d->rdx = r->rdx; d->rsi = r->rsi; d->rdi = r->rdi; d->orig_rax = r->orig_rax;
	d->rip = r->rip; d->cs = r->cs; d->eflags = r->eflags; d->rsp = r->rsp;
	d->ss = r->ss; d->fs_base = r->fs_base; d->gs_base = r->gs_base;
	d->ds = r->ds; d->es = r->es; d->fs = r->fs; d->gs = r->gs;
}

/*
 * The XSAVE area in the standard (non-compacted) format of this CPU: the
 * legacy region from the named fields, components at this CPU's offsets
 * (CPUID 0xd).  Components this CPU lacks are left out (check_cpu told).
 */
static size_t build_xsave(struct buf *b, const Flightrec__Xsave *x, size_t *size)
{
	uint8_t area[16384];
	size_t end = 576, i;
	uint64_t lx = local_xcr0(), bv = 0;

	memset(area, 0, sizeof(area));
	*(uint16_t *)(area + 0) = x->has_fcw ? (uint16_t)x->fcw : 0x37f;
	*(uint16_t *)(area + 2) = (uint16_t)x->fsw;
	area[4] = (uint8_t)x->ftw;
	*(uint16_t *)(area + 6) = (uint16_t)x->fop;
	*(uint64_t *)(area + 8) = x->fip;
	*(uint64_t *)(area + 16) = x->fdp;
	*(uint32_t *)(area + 24) = x->has_mxcsr ? x->mxcsr : 0x1f80;
	*(uint32_t *)(area + 28) = x->has_mxcsr_mask ? x->mxcsr_mask : 0xffff;
	for (i = 0; i < x->n_st && i < 8; i++)
		memcpy(area + 32 + 16 * i, x->st[i].data, 16);
	for (i = 0; i < x->n_xmm && i < 16; i++)
		memcpy(area + 160 + 16 * i, x->xmm[i].data, 16);
	bv = x->has_xstate_bv ? x->xstate_bv : 3;
	for (i = 0; i < x->n_components; i++) {
		const Flightrec__XsaveComponent *xc = x->components[i];
		uint32_t r[4];

		if (xc->index >= 64 || !(lx >> xc->index & 1))
			continue;
		local_cpuid(0xd, xc->index, r);
		if (!r[0] || r[1] + (uint64_t)r[0] > sizeof(area) - 8 || (r[2] & 2))
			continue;	/* no size, too big, or supervisor/compacted-only */
		memcpy(area + r[1], xc->data.data, xc->data.len < r[0] ? xc->data.len : r[0]);
		if (r[1] + r[0] > end)
			end = r[1] + r[0];
	}
	*(uint64_t *)(area + 512) = bv & lx;
	*size = end;
	return buf_add(b, area, end, 64);
}

/*
 * The XSAVE size of a signal frame on the recording machine: the standard
 * layout of the components its XCR0 enabled, AMX tile data excepted (a
 * dynamic feature, not in frames unless asked for); from its CPUID leaf 0xd.
 * 0 when the checkpoint cannot tell.
 */
static uint64_t rec_frame_xstate(const struct flrc *c)
{
	const Flightrec__SystemInfo *si = c->hdr->system;
	uint64_t end = 576, i;

	if (!si->has_xcr0)
		return 0;
	for (i = 2; i < 64; i++) {
		const Flightrec__CpuidLeaf *l;

		if (!(si->xcr0 >> i & 1) || i == 18)
			continue;
		l = rec_leaf(c, 0xd, (uint32_t)i);
		if (!l || !l->eax)
			return 0;
		if ((uint64_t)l->ebx + l->eax > end)
			end = (uint64_t)l->ebx + l->eax;
	}
	return end;
}

static int kind_of(uint32_t nr, unsigned int flags)
{
	if (flags & FR_F_ADDRSPACE)
		return FRI_K_ADDRSPACE;
	if (flags & FR_F_THREADAREA)
		return FRI_K_THREADAREA;
	if (flags & FR_F_OUTPUT)
		return FRI_K_OUTPUT;
	if (flags & FR_F_PROCESS)
		return (flags & FR_F_NORETURN) && nr != 59 && nr != 322 ? FRI_K_EXIT :
		       (nr == 59 || nr == 322) ? FRI_K_EMULATE : FRI_K_CLONE;
	return FRI_K_EMULATE;
}

/* The kernel-internal restart codes a syscall record can hold. */
static bool restart_error(const Flightrec__Syscall *s)
{
	return s->nr < FR_NR_SYSCALLS && (s->ret == -512 || s->ret == -513 ||
					  s->ret == -514 || s->ret == -516);
}

static uint64_t sc_arg(const Flightrec__Syscall *s, size_t i)
{
	return i < s->n_args ? s->args[i] : 0;
}

/*
 * A record that ended with -ERESTART* (a signal interrupted the call): what
 * the thread saw is told by its next record.  A signal record with
 * FLIGHTREC_SIG_EINTR: the call returned -EINTR (keep it, with that value).
 * One with FLIGHTREC_SIG_RESTART, or the same call again (a restart with no
 * handler): the application makes the call once more, which the later
 * record answers, so this attempt is left out.  Returns whether to keep it.
 */
static bool restart_of(const struct flrc *c, const size_t *next, size_t i, int64_t *ret)
{
	const Flightrec__Syscall *s = c->syscalls[i], *n = NULL;

	if (next[i] != SIZE_MAX)
		n = c->syscalls[next[i]];
	if (!n)
		return true;		/* still blocked at the end: as recorded */
	if (FLIGHTREC_IS_EVENT(n->nr, n->flags, FLIGHTREC_NR_SIGNAL)) {
		if (sc_arg(n, 5) & FLIGHTREC_SIG_EINTR) {
			*ret = -EINTR;
			return true;
		}
		return !(sc_arg(n, 5) & FLIGHTREC_SIG_RESTART);
	}
	return n->nr != s->nr;
}

/* The fri_signal of a FLIGHTREC_NR_SIGNAL record (uapi/flightrec.h). */
static size_t add_signal(struct buf *b, const Flightrec__Syscall *s)
{
	struct fri_signal fs;
	size_t k;

	memset(&fs, 0, sizeof(fs));
	fs.signo = (int32_t)sc_arg(s, 0);
	fs.si_code = (int32_t)sc_arg(s, 1);
	fs.orig_rax = (int64_t)sc_arg(s, 2);
	fs.rax = (int64_t)sc_arg(s, 3);
	fs.rip = sc_arg(s, 4);
	fs.flags = (uint32_t)sc_arg(s, 5);
	/* without the recorded siginfo, what the record says */
	memcpy(fs.siginfo, &fs.signo, 4);
	memcpy(fs.siginfo + 8, &fs.si_code, 4);
	for (k = 0; k < s->n_out; k++) {
		const Flightrec__OutBuf *o = s->out[k];

		if (o->arg == 0 && o->data.len >= sizeof(fs.siginfo))
			memcpy(fs.siginfo, o->data.data, sizeof(fs.siginfo));
		if (o->arg == 1 && o->data.len >= sizeof(fs.regs) &&
		    (fs.flags & FLIGHTREC_SIG_IN_USER)) {
			memcpy(&fs.regs, o->data.data, sizeof(fs.regs));
			fs.has_regs = 1;
		}
		if (o->arg == 2 && o->data.len && !fs.frame_len) {
			fs.frame_addr = o->addr;
			fs.frame_len = o->data.len;
			fs.frame_off = buf_add(b, o->data.data, o->data.len, 8);
		}
	}
	return buf_add(b, &fs, sizeof(fs), 8);
}

/*
 * The fri_signal of a FLIGHTREC_NR_PREEMPT record: where the thread yielded
 * in user code (signo 0, FLIGHTREC_SIG_IN_USER, the registers of OUT arg 0).
 */
static size_t add_preempt(struct buf *b, const Flightrec__Syscall *s)
{
	struct fri_signal fs;
	size_t k;

	memset(&fs, 0, sizeof(fs));
	fs.orig_rax = -1;
	fs.rip = sc_arg(s, 4);
	fs.flags = FLIGHTREC_SIG_IN_USER;
	for (k = 0; k < s->n_out; k++) {
		const Flightrec__OutBuf *o = s->out[k];

		if (o->arg == 0 && o->data.len >= sizeof(fs.regs)) {
			memcpy(&fs.regs, o->data.data, sizeof(fs.regs));
			fs.has_regs = 1;
		}
	}
	return buf_add(b, &fs, sizeof(fs), 8);
}

static bool window_overlap(uint64_t s, uint64_t e)
{
	return s < FRI_WINDOW_END && e > FRI_WINDOW_START;
}

/*
 * The image is b (header, tables, records: small) followed by the page
 * bytes, one copy of each distinct non-zero page, which are not held in
 * memory: write_image() decompresses them from the checkpoint one at a time
 * as it writes (docs/security.md, "Resource bounds").
 */
struct image {
	struct buf b;
	uint32_t from;
	bool tsc;		/* rdtsc records: FRI_F_TSC_RECORDED */
	bool patch_tsc;		/* FRI_F_PATCH_TSC: their sites become ud2 */
	bool patch_cpuid;	/* FRI_F_PATCH_CPUID: the cpuid sites become ud2 */
	const struct flrc *c;
	const struct flrc_page **data;	/* the distinct pages, in image order */
	size_t n_data;			/* at b.len + k * FRI_PAGE_SIZE */
	const struct flrc_page *bad;	/* the page an -EBADMSG is about */
};

/* Why im->bad could not be loaded (the file is damaged), on stderr. */
static void say_bad_page(const char *file, const struct image *im)
{
	static uint8_t scratch[FRI_PAGE_SIZE];
	char err[256] = "a page cannot be loaded";

	if (im->bad)
		flrc_page_error(im->c, im->bad, scratch, err, sizeof(err));
	fprintf(stderr, PFX "%s: %s\n", file, err);
}

static bool all_zero(const uint8_t *p)
{
	size_t i;

	for (i = 0; i < FRI_PAGE_SIZE; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * The image slot of pg's bytes (1-based; 0: zeros), one slot for all pages
 * with the same bytes: their content hash in seen, checked byte for byte
 * against the page already there (both loaded again: nothing is kept).
 * The hash is the file's (pg->hash, which flrc_page_load() checks the
 * bytes against under FLRC_CHECK_ON_LOAD; 0 for a page the file gives no
 * hash, so that such pages meet and are compared), so a page is
 * decompressed here only when its hash is a zero page's or meets another
 * page's: the image build no longer costs a decompression and a hash per
 * page (issue 28, item 6).
 */
static int page_slot(struct image *im, struct fr_htab *seen, const struct flrc_page *pg,
		     size_t *slot)
{
	static uint8_t a[FRI_PAGE_SIZE], b[FRI_PAGE_SIZE];
	static uint64_t zero_hash;
	static bool zero_hashed;
	uint64_t h;
	uint32_t k;

	*slot = 0;
	if (!pg || pg->zero || (!pg->data && !pg->zframe))
		return 0;	/* flrc_page_load() gives zeros */
	if (!zero_hashed) {
		memset(a, 0, sizeof(a));
		zero_hash = flrc_hash(a, FRI_PAGE_SIZE);
		zero_hashed = true;
	}
	h = pg->hash;
	if (h == zero_hash) {
		im->bad = pg;
		if (flrc_page_load(im->c, pg, a))
			return -EBADMSG;
		if (all_zero(a))
			return 0;
	}
	if (fr_htab_get(seen, h, &k)) {
		im->bad = pg;
		if (flrc_page_load(im->c, pg, a))
			return -EBADMSG;
		im->bad = im->data[k];
		if (flrc_page_load(im->c, im->data[k], b))
			return -EBADMSG;
		if (!memcmp(a, b, FRI_PAGE_SIZE)) {
			*slot = (size_t)k + 1;
			return 0;
		}
	}
	if (im->n_data >= UINT32_MAX - 1)
		return -E2BIG;
	if (fr_htab_put(seen, h, (uint32_t)im->n_data) < 0)
		return -ENOMEM;
	im->data[im->n_data++] = pg;
	*slot = im->n_data;
	return 0;
}

/*
 * The whole image into fd: b, then the page bytes, decompressed as they go,
 * WRITE_PAGES at a time (one write per page was a syscall per page, which
 * costs under emulation).
 */
#define WRITE_PAGES	64
static int write_image(int fd, struct image *im)
{
	static uint8_t pages[WRITE_PAGES * FRI_PAGE_SIZE];
	size_t k, n = 0;
	int r = flrc_write_all(fd, im->b.p, im->b.len);

	for (k = 0; !r && k < im->n_data; k++) {
		im->bad = im->data[k];
		r = flrc_page_load(im->c, im->data[k], pages + n * FRI_PAGE_SIZE);
		if (!r && (++n == WRITE_PAGES || k + 1 == im->n_data)) {
			r = flrc_write_all(fd, pages, n * FRI_PAGE_SIZE);
			n = 0;
		}
	}
	return r;
}

/*
 * The image into flightrec replay's memfd: its pages allocated in one call
 * (fallocate), then filled through a shared mapping, MAP_WINDOW bytes at
 * a time (the process's memory stays bounded), each page decompressed
 * straight into its place.  write_image()'s staging copy and write()'s
 * copy into the memfd were two of the passes over every byte that cost
 * under emulation (issue 28, item 6).  Where the memfd cannot be
 * fallocated (a kernel without it for shmem), write_image().  The bytes
 * are the same.
 */
#define MAP_WINDOW	(4u << 20)
static int fill_memfd(int fd, struct image *im)
{
	size_t total = im->b.len + im->n_data * FRI_PAGE_SIZE, off, len, k = 0, pos;
	uint8_t *m;
	int r = 0;

	if (fallocate(fd, 0, 0, (off_t)total))
		return errno == EOPNOTSUPP ? write_image(fd, im) : -errno;
	for (off = 0; !r && off < total; off += len) {
		len = total - off < MAP_WINDOW ? total - off : MAP_WINDOW;
		m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
			 (off_t)off);
		if (m == MAP_FAILED)
			return -errno;
		if (off < im->b.len)
			memcpy(m, im->b.p + off, im->b.len - off < len ? im->b.len - off : len);
		/* b.len and MAP_WINDOW are whole pages: no page spans two windows */
		for (; !r && k < im->n_data &&
		       (pos = im->b.len + k * FRI_PAGE_SIZE) < off + len; k++) {
			im->bad = im->data[k];
			r = flrc_page_load(im->c, im->data[k], m + (pos - off));
		}
		munmap(m, len);
	}
	return r;
}

static void image_free(struct image *im)
{
	free(im->b.p);
	free(im->data);
	im->b.p = NULL;
	im->data = NULL;
}

struct tid_idx {
	uint32_t tid;
	size_t i;
};

static int cmp_tid_idx(const void *a, const void *b)
{
	const struct tid_idx *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * For records list[0..n): (tid, index) sorted, so that each thread's
 * records are a run in order.  With next (n entries) also: the index of the
 * same thread's next record, or SIZE_MAX.  O(n log n) where a scan per
 * record or per thread would be quadratic in a crafted tid flood.
 */
static struct tid_idx *by_tid(const Flightrec__Syscall *const *list, size_t n, size_t *next)
{
	struct tid_idx *v = malloc((n + 1) * sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < n; i++)
		v[i] = (struct tid_idx){ list[i]->tid, i };
	qsort(v, n, sizeof(*v), cmp_tid_idx);
	for (i = 0; next && i < n; i++)
		next[v[i].i] = i + 1 < n && v[i + 1].tid == v[i].tid ? v[i + 1].i : SIZE_MAX;
	return v;
}

/* The first record of thread tid in v (by_tid's), or FRI_NO_NEXT. */
static uint64_t first_of(const struct tid_idx *v, size_t n, uint32_t tid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].tid == tid ? v[lo].i : FRI_NO_NEXT;
}

struct sc_pair {
	const Flightrec__Syscall *s;
	int64_t ret;
};

static int cmp_pair_seq(const void *a, const void *b)
{
	uint64_t x = ((const struct sc_pair *)a)->s->seq, y = ((const struct sc_pair *)b)->s->seq;

	return x < y ? -1 : x > y;
}

/* Sorts the records (and their answers) by sequence number; refuses twins. */
static int sort_by_seq(const Flightrec__Syscall **list, int64_t *ret, size_t n,
		       const char *file)
{
	struct sc_pair *p;
	size_t i;

	for (i = 1; i < n && list[i - 1]->seq < list[i]->seq; i++)
		;
	if (i >= n)
		return 0;	/* already in order: the common case */
	p = calloc(n, sizeof(*p));
	if (!p) {
		fprintf(stderr, PFX "out of memory\n");
		return -1;
	}
	for (i = 0; i < n; i++)
		p[i] = (struct sc_pair){ list[i], ret[i] };
	qsort(p, n, sizeof(*p), cmp_pair_seq);
	for (i = 0; i < n; i++) {
		if (i && p[i - 1].s->seq == p[i].s->seq) {
			fprintf(stderr, PFX "%s: two records with sequence number %llu\n", file,
				(unsigned long long)p[i].s->seq);
			free(p);
			return -1;
		}
		list[i] = p[i].s;
		ret[i] = p[i].ret;
	}
	free(p);
	return 0;
}

/* One entry of the image's page set (struct fri_page, before the bytes). */
struct page_ent {
	uint64_t addr;
	uint32_t interval;
	const struct flrc_page *pg;	/* NULL: never touched (zeros) */
};

static int cmp_page_ent(const void *a, const void *b)
{
	const struct page_ent *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->interval < y->interval ? -1 : x->interval > y->interval;
}

/* Most address lookups later_lives() makes (a bound on hostile files). */
#define LATER_LIVES_MAX_LOOKUPS	(16u << 20)

/*
 * The second lives of addresses (issue 25, class 8): the loader fills the
 * pages a call maps (mmap, the growth of mremap and brk) with the entry of
 * the smallest interval >= the call's (fill_deferred).  For each such call
 * of an interval after `from`, and each touched address (addrs, sorted,
 * unique) in its range, that entry joins `ents` when it is not the
 * address's first one: ld.so's cache unmapped in one interval, a locale or
 * gconv cache mapped at its address in a later one, read there.  The brk
 * range is taken from the heap's start (more than the growth: an entry
 * too many costs its bytes, never the choice).  Appends to ents (room for
 * *n more grows); 0, or -ENOMEM.
 */
static int later_lives(const struct flrc *c, uint32_t from, const uint64_t *addrs,
		       size_t n_addrs, struct page_ent **ents, size_t *n, size_t *cap)
{
	uint64_t heap = c->hdr->process ? c->hdr->process->brk_start & ~(FRI_PAGE_SIZE - 1) : 0;
	size_t i, lookups = 0;

	for (i = 0; i < c->n_syscalls; i++) {
		const Flightrec__Syscall *sc = c->syscalls[i];
		uint64_t start, end, ret = (uint64_t)sc->ret;
		size_t lo, hi;

		if (sc->interval <= from || sc->ret < 0 ||
		    FLIGHTREC_IS_EVENT(sc->nr, sc->flags, FLIGHTREC_NR_SIGNAL) ||
		    FLIGHTREC_IS_EVENT(sc->nr, sc->flags, FLIGHTREC_NR_RDTSC) ||
		    FLIGHTREC_IS_EVENT(sc->nr, sc->flags, FLIGHTREC_NR_PREEMPT) ||
		    FLIGHTREC_IS_EVENT(sc->nr, sc->flags, FLIGHTREC_NR_PTRACE))
			continue;
		if (sc->nr == 9 /* mmap */ && sc->n_args >= 2) {
			start = ret;
			end = ret + ((sc->args[1] + FRI_PAGE_SIZE - 1) & ~(FRI_PAGE_SIZE - 1));
		} else if (sc->nr == 25 /* mremap */ && sc->n_args >= 3 &&
			   sc->args[2] > sc->args[1]) {
			start = ret + ((sc->args[1] + FRI_PAGE_SIZE - 1) & ~(FRI_PAGE_SIZE - 1));
			end = ret + ((sc->args[2] + FRI_PAGE_SIZE - 1) & ~(FRI_PAGE_SIZE - 1));
		} else if (sc->nr == 12 /* brk */ && heap && ret > heap) {
			start = heap;
			end = (ret + FRI_PAGE_SIZE - 1) & ~(FRI_PAGE_SIZE - 1);
		} else {
			continue;
		}
		if (end <= start)
			continue;	/* wrapped: a damaged record */
		for (lo = 0, hi = n_addrs; lo < hi;) {
			size_t mid = lo + (hi - lo) / 2;

			if (addrs[mid] < start)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < n_addrs && addrs[lo] < end; lo++) {
			const struct flrc_page *pg = flrc_page_at(c, sc->interval, addrs[lo]);

			if (++lookups > LATER_LIVES_MAX_LOOKUPS) {
				fprintf(stderr, PFX "note: more mapping calls over recorded pages than "
					"the image tracks: pages mapped again later may get an "
					"earlier life's bytes\n");
				return 0;
			}
			if (!pg || pg == flrc_page_at(c, from, addrs[lo]))
				continue;
			if (*n == *cap) {
				size_t ncap = *cap * 2 + 64;
				struct page_ent *p = realloc(*ents, ncap * sizeof(**ents));

				if (!p)
					return -ENOMEM;
				*ents = p;
				*cap = ncap;
			}
			(*ents)[(*n)++] = (struct page_ent){ addrs[lo], pg->interval, pg };
		}
	}
	return 0;
}

static int build_image(const struct flrc *c, const struct opts *o, struct image *im,
		       uint64_t t0)
{
	struct buf *b = &im->b;
	struct fri_header hd;
	Flightrec__Map **maps;
	uint64_t *addrs;
	const Flightrec__Syscall **sc_list;
	int64_t *sc_ret;
	size_t n_maps = 0, n_addrs = 0, n_ents = 0, ents_cap, i, j;
	struct page_ent *ents;
	size_t regions_off, pages_off, threads_off, sc_off;
	struct fr_htab seen = { 0 };
	struct tid_idx *sc_tids = NULL;
	size_t *next = NULL;
	const Flightrec__IntervalInfo *iv;
	uint32_t from = im->from;
	uint64_t first_idx = 0, n_sc = 0, data_bytes = 0;

	memset(&hd, 0, sizeof(hd));
	buf_reserve(b, sizeof(hd), 8);

	/* regions: the map at the start of `from` */
	maps = calloc(c->n_maps + 1, sizeof(*maps));
	for (i = 0; i < c->n_maps; i++)
		if (c->maps[i]->interval == from)
			maps[n_maps++] = c->maps[i];
	qsort(maps, n_maps, sizeof(*maps), cmp_map_start);
	for (i = 0; i < n_maps; i++) {
		if (maps[i]->start >= 0x800000000000ull)
			continue;
		if (window_overlap(maps[i]->start, maps[i]->end)) {
			char name[256];

			fprintf(stderr, PFX "the recorded region %#llx-%#llx %s overlaps the "
				"replay loader's window %#lx-%#lx: cannot replay this checkpoint\n",
				(unsigned long long)maps[i]->start,
				(unsigned long long)maps[i]->end,
				fr_escape(maps[i]->path ? maps[i]->path : "", name, sizeof(name)),
				FRI_WINDOW_START, FRI_WINDOW_END);
			free(maps);
			return FR_EXIT_FAIL;
		}
		if (i && maps[i]->start < maps[i - 1]->end) {
			fprintf(stderr, PFX "%s: recorded regions overlap at %#llx\n", o->file,
				(unsigned long long)maps[i]->start);
			free(maps);
			return FR_EXIT_BADFILE;
		}
	}
	regions_off = buf_reserve(b, n_maps * sizeof(struct fri_region), 8);
	hd.n_regions = 0;
	for (i = 0; i < n_maps; i++) {
		const Flightrec__Map *m = maps[i];
		struct fri_region r = { .start = m->start, .end = m->end, .prot = m->prot,
					.offset = m->has_offset ? m->offset : 0 };
		const char *path = m->path ? m->path : "";

		if (m->start >= 0x800000000000ull)
			continue;
		if ((m->flags & FLIGHTREC_MAPF_STACK) || !strcmp(path, "[stack]"))
			r.flags |= FRI_R_STACK;
		if ((m->flags & FLIGHTREC_MAPF_HEAP) || !strcmp(path, "[heap]"))
			r.flags |= FRI_R_HEAP;
		if (m->flags & (FLIGHTREC_MAPF_VVAR | FLIGHTREC_MAPF_PFNMAP) ||
		    !strcmp(path, "[vvar]") || !strcmp(path, "[vvar_vclock]"))
			r.flags |= FRI_R_NODATA;
		if ((m->flags & 3) == 1 /* MAP_SHARED */)
			r.flags |= FRI_R_SHARED;
		if (m->flags & FLIGHTREC_MAPF_DONTDUMP)
			r.flags |= FRI_R_NODUMP;
		if (*path) {
			/* only for the loader's messages: escaped, it prints them raw */
			char *shown = fr_escape_dup(path);

			if (!shown) {
				fprintf(stderr, PFX "out of memory\n");
				free(maps);
				return FR_EXIT_FAIL;
			}
			r.name_off = buf_add(b, shown, strlen(shown) + 1, 1);
			free(shown);
		}
		memcpy(b->p + regions_off + hd.n_regions * sizeof(r), &r, sizeof(r));
		hd.n_regions++;
	}
	free(maps);

	/*
	 * pages: every page touched in intervals >= from, as of the start of
	 * from; and where a later interval maps an address again, that life's
	 * page too (later_lives())
	 */
	addrs = malloc((c->n_pages + 1) * sizeof(*addrs));
	if (!addrs) {
		fprintf(stderr, PFX "out of memory\n");
		return FR_EXIT_FAIL;
	}
	for (i = 0; i < c->n_pages; i++)
		if (c->pages[i].interval >= from)
			addrs[n_addrs++] = c->pages[i].addr;
	qsort(addrs, n_addrs, sizeof(*addrs), cmp_u64);
	for (i = j = 0; i < n_addrs; i++)
		if (!j || addrs[i] != addrs[j - 1])
			addrs[j++] = addrs[i];
	n_addrs = j;
	ents_cap = n_addrs + 64;
	ents = malloc(ents_cap * sizeof(*ents));
	if (!ents) {
		fprintf(stderr, PFX "out of memory\n");
		free(addrs);
		return FR_EXIT_FAIL;
	}
	for (i = 0; i < n_addrs; i++) {
		const struct flrc_page *pg = flrc_page_at(c, from, addrs[i]);

		ents[i] = (struct page_ent){ addrs[i], pg ? pg->interval : from, pg };
	}
	n_ents = n_addrs;
	if (later_lives(c, from, addrs, n_addrs, &ents, &n_ents, &ents_cap)) {
		fprintf(stderr, PFX "out of memory\n");
		free(addrs);
		free(ents);
		return FR_EXIT_FAIL;
	}
	free(addrs);
	qsort(ents, n_ents, sizeof(*ents), cmp_page_ent);
	for (i = j = 0; i < n_ents; i++)
		if (!j || cmp_page_ent(&ents[i], &ents[j - 1]))
			ents[j++] = ents[i];
	n_ents = j;
	pages_off = buf_reserve(b, n_ents * sizeof(struct fri_page), 8);
	im->c = c;
	im->data = calloc(n_ents + 1, sizeof(*im->data));
	if (!im->data) {
		fprintf(stderr, PFX "out of memory\n");
		free(ents);
		return FR_EXIT_FAIL;
	}
	for (i = 0; i < n_ents; i++) {
		/* for now the slot (1-based); its offset once b is complete */
		struct fri_page p = { .addr = ents[i].addr, .interval = ents[i].interval };
		size_t slot;
		int e = page_slot(im, &seen, ents[i].pg, &slot);

		if (e == -EBADMSG) {
			say_bad_page(o->file, im);
			fr_htab_clear(&seen);
			free(ents);
			return FR_EXIT_BADFILE;
		}
		if (e) {
			fprintf(stderr, PFX "%s: page %#llx: %s\n", o->file,
				(unsigned long long)ents[i].addr, strerror(-e));
			fr_htab_clear(&seen);
			free(ents);
			return e == -EBADMSG ? FR_EXIT_BADFILE : FR_EXIT_FAIL;
		}
		p.data_off = slot;
		if (slot)
			data_bytes += FRI_PAGE_SIZE;
		memcpy(b->p + pages_off + i * sizeof(p), &p, sizeof(p));
	}
	fr_htab_clear(&seen);
	free(ents);

	/* syscalls of intervals >= from, in seq order */
	for (i = 0; i < c->n_syscalls && c->syscalls[i]->interval < from; i++)
		;
	first_idx = i;
	for (i = 0; i < c->n_syscalls; i++)
		if (FLIGHTREC_IS_EVENT(c->syscalls[i]->nr, c->syscalls[i]->flags,
				       FLIGHTREC_NR_RDTSC))
			hd.flags |= FRI_F_TSC_RECORDED;
	/* serial mode: the threads' user code did not overlap when recorded */
	hd.flags |= FRI_F_SERIAL;
	for (i = 0; i < c->hdr->n_intervals; i++)
		if (c->hdr->intervals[i]->index >= from &&
		    !(c->hdr->intervals[i]->flags & FLIGHTREC_IF_SERIAL))
			hd.flags &= ~FRI_F_SERIAL;
	if (hd.flags & FRI_F_TSC_RECORDED) {
		const char *why = tsc_patch_reason(o);

		im->tsc = true;
		if (why) {
			im->patch_tsc = true;
			hd.flags |= FRI_F_PATCH_TSC;
			if (!o->quiet && !o->notes_said)
				fprintf(stderr, PFX "note: %s: the loader patches the recorded "
					"rdtsc sites\n", why);
		}
	}
	n_sc = 0;
	sc_list = calloc(c->n_syscalls - first_idx + 1, sizeof(*sc_list));
	sc_ret = calloc(c->n_syscalls - first_idx + 1, sizeof(*sc_ret));
	next = calloc(c->n_syscalls + 1, sizeof(*next));
	sc_tids = next ? by_tid((const Flightrec__Syscall *const *)c->syscalls,
				c->n_syscalls, next) : NULL;
	if (!sc_list || !sc_ret || !sc_tids) {
		fprintf(stderr, PFX "out of memory\n");
		free(sc_list);
		free(sc_ret);
		free(next);
		free(sc_tids);
		return FR_EXIT_FAIL;
	}
	free(sc_tids);
	for (i = first_idx; i < c->n_syscalls; i++) {
		const Flightrec__Syscall *s = c->syscalls[i];
		int64_t ret = s->ret;

		if (restart_error(s) && !restart_of(c, next, i, &ret))
			continue;	/* the attempt a signal interrupted: re-executed */
		sc_ret[n_sc] = ret;
		sc_list[n_sc++] = s;
	}
	/*
	 * Sequence order.  A checkpoint's records increase within an interval;
	 * a call numbered at entry that ended in a later interval heads that
	 * interval with a smaller number.  The loader takes turns by index.
	 */
	free(next);
	if (sort_by_seq(sc_list, sc_ret, n_sc, o->file)) {
		free(sc_list);
		free(sc_ret);
		return FR_EXIT_BADFILE;
	}
	sc_off = buf_reserve(b, n_sc * sizeof(struct fri_syscall), 8);
	/* each record's link to its thread's next, and each thread's first */
	next = calloc(n_sc + 1, sizeof(*next));
	sc_tids = next ? by_tid(sc_list, n_sc, next) : NULL;
	if (!sc_tids) {
		fprintf(stderr, PFX "out of memory\n");
		free(sc_list);
		free(sc_ret);
		free(next);
		return FR_EXIT_FAIL;
	}
	for (i = 0; i < n_sc; i++) {
		const Flightrec__Syscall *s = sc_list[i];
		const struct sc_row *row = sc_row(s->nr);
		struct fri_syscall r;
		struct fri_out *outs = NULL;
		size_t k, out_off = 0;

		memset(&r, 0, sizeof(r));
		r.seq = s->seq;
		r.tid = s->tid;
		r.nr = s->nr;
		for (k = 0; k < s->n_args && k < 6; k++)
			r.args[k] = s->args[k];
		r.ret = sc_ret[i];
		r.sc_flags = s->flags;
		r.interval = s->interval;
		if (s->has_rseq_cpu) {	/* issue 25, class 11 */
			r.rseq_cpu = s->rseq_cpu;
			r.flags |= FRI_S_RSEQ_CPU;
			if (s->has_rseq_node && s->has_rseq_mm_cid) {
				r.rseq_node = s->rseq_node;
				r.rseq_cid = s->rseq_mm_cid;
				r.flags |= FRI_S_RSEQ_NODE;
			}
		}
		r.next_same_tid = FRI_NO_NEXT;
		if (FLIGHTREC_IS_EVENT(s->nr, s->flags, FLIGHTREC_NR_SIGNAL)) {
			r.kind = FRI_K_SIGNAL;
			r.out_off = add_signal(b, s);
		} else if (FLIGHTREC_IS_EVENT(s->nr, s->flags, FLIGHTREC_NR_RDTSC)) {
			r.kind = FRI_K_RDTSC;
		} else if (FLIGHTREC_IS_EVENT(s->nr, s->flags, FLIGHTREC_NR_PREEMPT)) {
			r.kind = FRI_K_PREEMPT;
			r.out_off = add_preempt(b, s);
		} else if (FLIGHTREC_IS_EVENT(s->nr, s->flags, FLIGHTREC_NR_PTRACE)) {
			r.kind = FRI_K_PTRACE;	/* its outs: the registers, the writes */
		} else if (row) {
			r.table_flags = (uint16_t)row->flags;
			r.kind = (uint32_t)kind_of(s->nr, row->flags);
			r.nargs = (uint8_t)(row->nargs < s->n_args ? row->nargs : s->n_args);
			r.in_arg = row->in1.arg;
			r.in_kind = row->in1.kind;
			r.in_p1 = row->in1.p1;
			r.in_p2 = row->in1.p2;
		} else {
			r.kind = FRI_K_EMULATE;
			r.nargs = (uint8_t)(s->n_args < 6 ? s->n_args : 6);
		}
		if (s->has_in_hash_w) {	/* the newest rule first */
			r.in_hash = s->in_hash_w;
			r.flags |= FRI_S_IN_HASH | FRI_S_IN_HASH_W;
		} else if (s->has_in_hash_full) {
			r.in_hash = s->in_hash_full;
			r.flags |= FRI_S_IN_HASH | FRI_S_IN_HASH_FULL;
		} else if (s->has_in_hash_sa) {
			r.in_hash = s->in_hash_sa;
			r.flags |= FRI_S_IN_HASH | FRI_S_IN_HASH_SA;
		} else if (s->has_in_hash) {
			r.in_hash = s->in_hash;
			r.flags |= FRI_S_IN_HASH;
		}
		if (r.kind == FRI_K_ADDRSPACE && r.ret > 0 &&
		    (s->nr == 9 || s->nr == 25) &&
		    window_overlap((uint64_t)r.ret, (uint64_t)r.ret + r.args[1])) {
			fprintf(stderr, PFX "the recorded %s at %#llx overlaps the replay loader's "
				"window: cannot replay this checkpoint\n", row->name,
				(unsigned long long)r.ret);
			return FR_EXIT_FAIL;
		}
		if (s->n_out && r.kind != FRI_K_SIGNAL && r.kind != FRI_K_PREEMPT) {
			size_t no = 0;

			outs = calloc(s->n_out, sizeof(*outs));
			for (k = 0; outs && k < s->n_out; k++) {
				/* a string the call read: for the log, nothing to write */
				if (FLIGHTREC_OUT_IS_IN(s->out[k]->arg))
					continue;
				outs[no].addr = s->out[k]->addr;
				outs[no].len = s->out[k]->data.len;
				outs[no].data_off = buf_add(b, s->out[k]->data.data,
							    s->out[k]->data.len, 1);
				no++;
			}
			if (no) {
				out_off = buf_add(b, outs, no * sizeof(*outs), 8);
				r.n_out = (uint32_t)no;
				r.out_off = out_off;
			}
			free(outs);
		}
		if (next[i] != SIZE_MAX)
			r.next_same_tid = next[i];
		memcpy(b->p + sc_off + i * sizeof(r), &r, sizeof(r));
	}

	/* threads at the start of from */
	hd.n_threads = 0;
	for (i = 0; i < c->n_threads; i++)
		if (c->threads[i]->interval == from)
			hd.n_threads++;
	threads_off = buf_reserve(b, hd.n_threads * sizeof(struct fri_thread), 8);
	for (i = 0, j = 0; i < c->n_threads; i++) {
		const Flightrec__Thread *t = c->threads[i];
		struct fri_thread th;

		if (t->interval != from)
			continue;
		memset(&th, 0, sizeof(th));
		th.tid = t->tid;
		th.in_syscall = t->has_in_syscall ? t->in_syscall : -1;
		th.first_sc = first_of(sc_tids, n_sc, t->tid);
		th.sigmask = t->sigmask;
		/* the kernel clears it when the thread exits (set_tid_address) */
		th.clear_child_tid = t->has_clear_child_tid ? t->clear_child_tid : 0;
		th.rseq = t->has_rseq ? t->rseq : 0;
		th.ss_sp = t->sas_sp;
		th.ss_size = t->sas_size;
		th.ss_flags = t->has_sas_flags ? t->sas_flags : 2 /* SS_DISABLE */;
		copy_regs(&th.regs, t->regs);
		if (t->xsave) {
			size_t sz;


			th.xsave_off = build_xsave(b, t->xsave, &sz);
			th.xsave_size = sz;
		}
		memcpy(b->p + threads_off + j * sizeof(th), &th, sizeof(th));
		j++;
	}
	free(next);
	free(sc_tids);
	free(sc_list);
	free(sc_ret);
	if (!hd.n_threads) {
		fprintf(stderr, PFX "%s: no thread state for interval %u\n", o->file, from);
		return FR_EXIT_BADFILE;
	}

	/* signal dispositions at the start of from */
	for (i = 0; i < c->n_sigactions; i++)
		hd.n_sigactions += c->sigactions[i]->interval == from;
	hd.sigactions_off = buf_reserve(b, hd.n_sigactions * sizeof(struct fri_sigaction), 8);
	for (i = 0, j = 0; i < c->n_sigactions; i++) {
		const Flightrec__SigAction *sa = c->sigactions[i];
		struct fri_sigaction fs = { .signo = sa->signo, .handler = sa->handler,
					    .flags = sa->flags, .restorer = sa->restorer,
					    .mask = sa->mask };

		if (sa->interval != from)
			continue;
		memcpy(b->p + hd.sigactions_off + j++ * sizeof(fs), &fs, sizeof(fs));
	}

	hd.rec_xstate_size = rec_frame_xstate(c);

	/* the recorded CPUID leaves: the loader answers the application's cpuid */
	hd.n_cpuid = (uint32_t)c->hdr->system->n_cpuid;
	hd.cpuid_off = buf_reserve(b, hd.n_cpuid * sizeof(struct fri_cpuid), 8);
	for (i = 0; i < hd.n_cpuid; i++) {
		const Flightrec__CpuidLeaf *l = c->hdr->system->cpuid[i];
		struct fri_cpuid fc = { l->leaf, l->subleaf, l->eax, l->ebx, l->ecx, l->edx };

		memcpy(b->p + hd.cpuid_off + i * sizeof(fc), &fc, sizeof(fc));
	}

	/*
	 * Where cpuid cannot fault here, the loader patches the cpuid
	 * instructions the recording machine found in the mapped code
	 * (ProcessInfo.cpuid_sites) to ud2 and answers them from that table,
	 * as it does for rdtsc.
	 */
	if (c->hdr->process->n_cpuid_sites && hd.n_cpuid &&
	    (o->patch_cpuid || !cpuid_faults_here())) {
		const Flightrec__ProcessInfo *p = c->hdr->process;

		im->patch_cpuid = true;
		hd.flags |= FRI_F_PATCH_CPUID;
		hd.n_cpuid_sites = (uint32_t)p->n_cpuid_sites;
		hd.cpuid_sites_off = buf_reserve(b, p->n_cpuid_sites * 8, 8);
		memcpy(b->p + hd.cpuid_sites_off, p->cpuid_sites, p->n_cpuid_sites * 8);
		if (!o->quiet && !o->notes_said)
			fprintf(stderr, PFX "note: %s: the loader patches the %zu cpuid "
				"instructions of the recorded code\n", o->patch_cpuid ?
				"--patch-cpuid" : "cpuid cannot fault on this machine",
				p->n_cpuid_sites);
	}

	/* the auxiliary vector (for --core's NT_AUXV), ended by AT_NULL */
	{
		const Flightrec__ProcessInfo *p = c->hdr->process;
		size_t na = p->n_auxv / 2;

		while (na && p->auxv[2 * (na - 1)] == 0)	/* AT_NULL: added below */
			na--;
		if (na > 64)
			na = 64;
		hd.n_auxv = (uint32_t)na + 1;
		hd.auxv_off = buf_reserve(b, hd.n_auxv * 16, 8);
		if (na)
			memcpy(b->p + hd.auxv_off, p->auxv, na * 16);
		memset(b->p + hd.auxv_off + na * 16, 0, 16);
	}

	/* the end */
	if (c->end) {
		const Flightrec__End *e = c->end;

		hd.end.kind = e->kind;
		hd.end.tid = e->tid;
		hd.end.signo = e->signo;
		hd.end.si_code = e->si_code;
		hd.end.fault_addr = e->fault_addr;
		hd.end.exit_code = e->exit_code;
		hd.end.last_seq = e->last_seq;
		if (e->regs) {
			hd.end.has_regs = 1;
			copy_regs(&hd.end.regs, e->regs);
		}
	} else {
		hd.end.kind = FLIGHTREC_END_DUMP;
	}

	iv = flrc_interval(c, from);
	hd.magic = FRI_MAGIC;
	hd.version = FRI_VERSION;
	hd.flags |= (o->show_output ? FRI_F_SHOW_OUTPUT : 0) | (o->quiet ? FRI_F_QUIET : 0) |
		    (o->verbose ? FRI_F_VERBOSE : 0);
	hd.from_interval = from;
	hd.n_pages = n_ents;
	hd.n_syscalls = n_sc;
	hd.regions_off = regions_off;
	hd.threads_off = threads_off;
	hd.pages_off = pages_off;
	hd.syscalls_off = sc_off;
	hd.brk_start = c->hdr->process->brk_start;
	hd.brk = iv && iv->has_brk ? iv->brk : 0;
	hd.t0_ns = t0;
	hd.data_bytes = data_bytes;
	/* the loader prints it raw: escaped here, the one place it is made */
	fr_escape(c->hdr->process->comm ? c->hdr->process->comm : "?", hd.comm, sizeof(hd.comm));
	hd.pid = c->hdr->process->pid;
	buf_reserve(b, 0, FRI_PAGE_SIZE);	/* whole pages: mmap-friendly */
	/* the page bytes follow b: slot k at b->len + (k - 1) pages */
	for (i = 0; i < n_ents; i++) {
		struct fri_page *p = (struct fri_page *)(b->p + pages_off) + i;

		if (p->data_off)
			p->data_off = b->len + (p->data_off - 1) * FRI_PAGE_SIZE;
	}
	hd.size = b->len + im->n_data * FRI_PAGE_SIZE;
	hd.decode_ns = fr_mono_ns();
	memcpy(b->p, &hd, sizeof(hd));
	return 0;
}

/* ------------------------------------------------------------------ */
/* Common setup */

static const char *find_loader(void)
{
	return fr_helper_path("FLIGHTREC_LOADER", "flightrec-loader",
			      "loader/flightrec-loader");
}

/*
 * The images of a file, oldest first: one, or one per exec the recording
 * went through (flrc.before_exec).  Returns how many (at most max).
 */
static size_t images_of(const struct flrc *c, const struct flrc **v, size_t max)
{
	size_t n = 0, i;

	for (; c && n < max; c = c->before_exec)
		v[n++] = c;
	for (i = 0; i < n / 2; i++) {
		const struct flrc *t = v[i];

		v[i] = v[n - 1 - i];
		v[n - 1 - i] = t;
	}
	return n;
}

/* The image that holds interval idx, or NULL. */
static const struct flrc *image_with(const struct flrc *c, uint32_t idx)
{
	for (; c; c = c->before_exec)
		if (flrc_interval(c, idx))
			return c;
	return NULL;
}

static int prepare(const struct opts *o, struct flrc **cp, struct image *im, uint64_t t0)
{
	const struct flrc *img, *first;
	char err[512];
	struct flrc *c;
	int r;

	/* page bytes are decompressed as the image is written, not kept */
	r = flrc_read_flags(o->file, FLRC_LAZY_PAGES | FLRC_MAP_FILE | FLRC_CHECK_ON_LOAD, &c,
			    err, sizeof(err));
	if (r) {
		fprintf(stderr, PFX "%s\n", err);
		return r == -ENOENT || r == -EACCES || r == -ENOMEM || r == -EFBIG ?
		       FR_EXIT_FAIL : FR_EXIT_BADFILE;
	}
	*cp = c;
	if (c->hdr->system->machine && strcmp(c->hdr->system->machine, "x86_64")) {
		fprintf(stderr, PFX "%s was recorded on %s; this replay runs x86_64 only\n",
			o->file, c->hdr->system->machine);
		return FR_EXIT_FAIL;
	}
	/* by default from the first interval of the first image */
	for (first = c; first->before_exec; first = first->before_exec)
		;
	im->from = o->has_from ? o->from : flrc_first_interval(first);
	img = image_with(c, im->from);
	if (!img) {
		fprintf(stderr, PFX "%s has no interval %u (it holds %u..%u%s)\n", o->file,
			im->from, flrc_first_interval(first),
			c->hdr->intervals[c->hdr->n_intervals - 1]->index,
			first != c ? ", over its execs" : "");
		return FR_EXIT_USAGE;
	}
	if (check_cpu(c, o->quiet)) {
		if (!o->ignore_cpu) {
			fprintf(stderr, PFX "refusing: the recorded code may use them "
				"(--ignore-cpu replays anyway)\n");
			return FR_EXIT_FAIL;
		}
		fprintf(stderr, PFX "--ignore-cpu: replaying anyway\n");
	}
	if (c->hdr->flags & (FLIGHTREC_IF_LOST_RECORD | FLIGHTREC_IF_LOST_PAGE |
			     FLIGHTREC_IF_UNKNOWN_SYSCALL | FLIGHTREC_IF_GUP_WRITE |
			     FLIGHTREC_IF_THREAD_LATE | FLIGHTREC_IF_FOREIGN_SYSCALL |
			     FLIGHTREC_IF_LOST_STATE))
		fprintf(stderr, PFX "warning: the recording is marked incomplete (flags %#x): "
			"replay may diverge\n", c->hdr->flags);
	return build_image(img, o, im, t0);
}

/* The image in a sealed memfd (not close-on-exec: the loader's): fd or -errno. */
static int image_memfd(struct image *im)
{
	int mfd = memfd_create("flightrec-image", MFD_ALLOW_SEALING), r;

	if (mfd < 0)
		return -errno;
	r = fill_memfd(mfd, im);
	if (r) {
		close(mfd);
		return r;
	}
	/*
	 * Sealed, its bytes cannot change: the loader then maps runs of its
	 * pages instead of copying them (loader.c, map_runs()).  Unsealed (a
	 * kernel without seals) it copies them all.
	 */
	fcntl(mfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
	return mfd;
}

#define MAX_IMAGES	FLIGHTREC_KEEP_MAX

/* Under gdb one image is replayed: where it is not the last, say so. */
static void note_one_image(const struct opts *o, const struct flrc *c, const struct image *im)
{
	const struct flrc *v[MAX_IMAGES];
	size_t n = images_of(c, v, MAX_IMAGES), k;

	for (k = 0; k + 1 < n && v[k] != im->c; k++)
		;
	if (k + 1 < n && !o->quiet)
		fprintf(stderr, PFX "note: interval %u is in image %zu of %zu (a program "
			"the process exec'd from): the replay under gdb ends at its exec "
			"(exit status 8); --from %u replays the next image\n", im->from,
			k + 1, n, flrc_first_interval(v[k + 1]));
}

static void enter_namespaces(const struct opts *o);

/*
 * A replay that starts in an image before an exec: one loader per image,
 * each a child of ours in a sandbox of its own, in turn.  A loader that
 * reaches its image's exec as recorded ends with FR_EXIT_EXEC; the next one
 * starts the new image at its first instruction and writes on in the same
 * fdN.out files (-A).  The core file is the last image's.  Returns the exit
 * status of the replay.
 */
static int run_images(const struct opts *o, const struct flrc *const *imgs, const int *mfds,
		      size_t n, int lfd, char **lav, int mfd_arg, int cfd)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	struct opts quiet = *o;	/* a missing sandbox is said once */
	char fdarg[16];
	int status = 0, ret = FR_EXIT_FAIL;
	size_t j, k;

	quiet.quiet = true;
	/* like a shell: ^C and ^\ are for the replayed program */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	for (j = 0; j < n; j++) {
		char *av[20];
		size_t m = 0;
		pid_t pid;

		for (k = 0; lav[k]; k++) {
			if ((int)k == mfd_arg) {
				snprintf(fdarg, sizeof(fdarg), "%d", mfds[j]);
				av[m++] = fdarg;
			} else if (!strcmp(lav[k], "-c") && j + 1 < n) {
				k++;	/* the core is the last image's */
			} else if (!strcmp(lav[k], "-F") && j) {
				continue;
			} else {
				av[m++] = lav[k];
			}
		}
		if (j)
			av[m++] = "-A";
		av[m] = NULL;
		if (j && !o->quiet)
			fprintf(stderr, PFX "the image after the exec: %s, from interval %u\n",
				imgs[j]->hdr->process->exe ? imgs[j]->hdr->process->exe : "?",
				flrc_first_interval(imgs[j]));
		fflush(NULL);
		pid = fork();
		if (pid < 0) {
			fprintf(stderr, PFX "fork: %s\n", strerror(errno));
			break;
		}
		if (!pid) {
			sigaction(SIGINT, &old_int, NULL);
			sigaction(SIGQUIT, &old_quit, NULL);
			for (k = 0; k < n; k++)
				if (k != j)
					close(mfds[k]);
			if (j + 1 < n && cfd >= 0)
				close(cfd);
			/* each loader in a sandbox of its own; we stay outside */
			enter_namespaces(j ? &quiet : o);
			fflush(NULL);
			syscall(SYS_execveat, lfd, "", av, environ, AT_EMPTY_PATH);
			fprintf(stderr, PFX "cannot run the loader: %s\n", strerror(errno));
			_exit(FR_EXIT_FAIL);
		}
		while (waitpid(pid, &status, 0) < 0) {
			if (errno != EINTR) {
				status = FR_EXIT_FAIL << 8;
				break;
			}
		}
		ret = WIFEXITED(status) ? WEXITSTATUS(status) :
		      WIFSIGNALED(status) ? 128 + WTERMSIG(status) : FR_EXIT_FAIL;
		if (ret != FR_EXIT_EXEC)
			break;
		if (j + 1 == n) {
			/* the last image ends at an exec: the recording did not go on */
			fprintf(stderr, PFX "the recording ends at that exec\n");
			ret = FR_EXIT_OK;
		}
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	return ret;
}

/*
 * The output directory, opened without following a symlink: --out DIR is
 * created 0700, or taken when it exists and is empty (with --force also
 * when not: the loader then replaces only the fdN.out files it writes, by
 * unlinking them, never writing through one).  Without --out: a fresh
 * private directory NAME.replay.XXXXXX in the current directory (mkdtemp,
 * 0700), always printed.  Returns its fd (path in path), or -1.
 */
static int open_outdir(const struct opts *o, const char *who, char *path, size_t len)
{
	char err[PATH_MAX + 256], prefix[PATH_MAX], shown[PATH_MAX];
	const char *base;
	size_t n;
	int fd;

	if (o->out) {
		snprintf(path, len, "%s", o->out);
		fd = fr_out_dir(path, o->force, err, sizeof(err));
	} else {
		base = strrchr(o->file, '/');
		base = base ? base + 1 : o->file;
		n = strlen(base);
		if (n > 5 && !strcmp(base + n - 5, ".flrc"))
			n -= 5;
		snprintf(prefix, sizeof(prefix), "%.*s.replay", (int)(n > 200 ? 200 : n), base);
		fd = fr_out_private_dir(prefix, path, len, err, sizeof(err));
		if (fd >= 0)
			fprintf(stderr, "%s: output of the replayed program goes to %s/\n", who,
				fr_escape(path, shown, sizeof(shown)));
	}
	if (fd < 0)
		fprintf(stderr, "%s: %s\n", who, fr_escape(err, shown, sizeof(shown)));
	return fd;
}

/* --save-image PATH: 0600, never over an existing file or through a symlink */
static int save_image(const struct opts *o, struct image *im)
{
	int fd, r;

	fd = fr_out_file(AT_FDCWD, o->save_image, o->force);
	if (fd < 0) {
		r = -errno;
	} else {
		r = write_image(fd, im);
		if (close(fd) && !r)
			r = -errno;
	}
	if (r && fd >= 0)
		unlink(o->save_image);	/* made here: no half image left */
	if (r == -EBADMSG) {
		say_bad_page(o->file, im);
		return FR_EXIT_BADFILE;
	}
	if (r) {
		fprintf(stderr, PFX "cannot write %s: %s%s\n", o->save_image, strerror(-r),
			r == -EEXIST ? " (never overwritten: remove it, or --force)" :
			r == -ELOOP ? " (a symbolic link: never followed)" : "");
		return FR_EXIT_FAIL;
	}
	return 0;
}

/*
 * Where unprivileged user namespaces work, the loader runs in a fresh user,
 * mount and network namespace whose root is an empty read-only tmpfs: on
 * top of the loader's seccomp filter, a call that got through would find no
 * file system and no network.  Where they do not (a kernel or policy that
 * refuses them), replay goes on with the filter alone, and says so.
 *
 * They are made by a child: a kernel or policy can allow the user
 * namespace and then refuse its id map or the mounts (an AppArmor userns
 * restriction), and a process left half-way there would not be in a
 * sandbox it could describe.  The child shares our memory and descriptor
 * table (CLONE_VM | CLONE_FILES) and we wait while it runs (CLONE_VFORK),
 * as posix_spawn()'s child does: no copy of the tool's page tables, no
 * copy-on-write afterwards, which under emulation cost more than the
 * namespaces.  It leaves descriptors of the namespaces it made and of its
 * root in our table and exits; we join them (setns(), user namespace
 * first) and chroot into that root.  Where they cannot be joined (no /proc
 * to open them by, setns() refused, a join failing half-way), they are
 * made here instead: the child showed that they can be.
 */
struct ns_made {
	int made;			/* fr_empty_root_fds(): CLONE_NEW* or -errno */
	int nsfd[FR_NS_FDS];
	int rootfd;
	char err[256];
};

static int ns_child(void *arg)
{
	struct ns_made *m = arg;

	m->made = fr_empty_root_fds(FR_ROOT_NET, m->nsfd, m->err, sizeof(m->err));
	if (m->made >= 0) {
		m->rootfd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (m->rootfd < 0) {
			m->made = -errno;
			snprintf(m->err, sizeof(m->err), "the empty root: %s", strerror(errno));
		}
	}
	_exit(0);
}

static void ns_made_close(struct ns_made *m)
{
	int i;

	for (i = 0; i < FR_NS_FDS; i++)
		if (m->nsfd[i] >= 0)
			close(m->nsfd[i]);
	if (m->rootfd >= 0)
		close(m->rootfd);
}

/* Has the child make the namespaces: false with the reason in m->err. */
static bool ns_make(struct ns_made *m)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	sigset_t all, old;
	pid_t pid;
	int i;

	m->made = -EAGAIN;
	m->rootfd = -1;
	for (i = 0; i < FR_NS_FDS; i++)
		m->nsfd[i] = -1;
	snprintf(m->err, sizeof(m->err), "the child that makes them did not run");
	/* no handler of ours runs on the child's stack */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	/* no exit signal: nothing left pending for the loader to inherit */
	pid = clone(ns_child, stack + sizeof(stack), CLONE_VM | CLONE_FILES | CLONE_VFORK, m);
	if (pid < 0)
		snprintf(m->err, sizeof(m->err), "clone: %s", strerror(errno));
	else
		while (waitpid(pid, NULL, __WCLONE) < 0 && errno == EINTR)
			;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (m->made >= 0)
		return true;
	ns_made_close(m);
	return false;
}

/*
 * Joins the namespaces and the root the child made: 0, 1 where the first
 * setns() failed (nothing changed), -1 where a later step did.
 */
static int ns_join(const struct ns_made *m, char *err, size_t len)
{
	bool first = true;
	int i;

	/* all or nothing: one it made and could not open (no /proc) */
	for (i = 0; i < FR_NS_FDS; i++) {
		if ((m->made & fr_ns_type[i]) && m->nsfd[i] < 0) {
			snprintf(err, len, "the child could not open its namespaces");
			return 1;
		}
	}
	for (i = 0; i < FR_NS_FDS; i++) {
		if (m->nsfd[i] < 0)
			continue;
		if (setns(m->nsfd[i], fr_ns_type[i])) {
			snprintf(err, len, "setns: %s", strerror(errno));
			return first ? 1 : -1;
		}
		first = false;
	}
	if (fchdir(m->rootfd) || chroot(".") || chdir("/")) {
		snprintf(err, len, "the empty root: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void enter_namespaces(const struct opts *o)
{
	struct ns_made m;
	char err[256] = "";
	int r;

	if (getenv("FLIGHTREC_NO_NAMESPACES"))
		return;
	if (!ns_make(&m)) {
		snprintf(err, sizeof(err), "%s", m.err);
		goto no;
	}
	/* where they cannot be joined, they are made here: the child could */
	r = ns_join(&m, err, sizeof(err));
	ns_made_close(&m);
	if (!r || fr_empty_root(FR_ROOT_NET, err, sizeof(err)) >= 0)
		return;
no:
	if (!o->quiet)
		fprintf(stderr, PFX "note: no namespace sandbox here (%s): the replay runs "
			"with its seccomp filter only\n", err);
}

/* ------------------------------------------------------------------ */
/* --gdbserver */

struct elfinfo;
static bool find_symbols(const struct opts *o, const char *path, const char *bid,
			 char *out, size_t len, struct elfinfo *ei);
static bool gs_find_symbols(void *ctx, const char *path, const char *bid, bool need_code,
			    char *out, size_t len);

/* what it takes to start the loader again (reverse execution) */
struct spawn {
	const struct opts *o;
	const char *loader;
	int lfd;
	char **lav;
	int listen_fd;
	int reruns;
};

/*
 * The loader under our ptrace (PTRACE_SEIZE before its exec), in the same
 * sandbox as a plain replay (namespaces, seccomp); *chan is the read end
 * of its -G channel.  A rerun replaces the output files (-F).
 */
static int spawn_loader(void *ctx, pid_t *pidp, int *chan)
{
	struct spawn *sp = ctx;
	char gfd[16], b, *av[24];
	int ch[2], sync[2], n, k;
	pid_t pid;

	if (pipe2(ch, O_CLOEXEC) || pipe2(sync, O_CLOEXEC)) {
		fprintf(stderr, PFX "pipe: %s\n", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, PFX "fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if (sp->listen_fd >= 0)
			close(sp->listen_fd);
		close(ch[0]);
		close(sync[1]);
		/* until the server has seized us */
		if (read(sync[0], &b, 1) != 1)
			_exit(FR_EXIT_FAIL);
		if (fcntl(ch[1], F_SETFD, 0))
			_exit(FR_EXIT_FAIL);
		snprintf(gfd, sizeof(gfd), "%d", ch[1]);
		for (n = k = 0; sp->lav[k] && n < 18; k++)
			av[n++] = sp->lav[k];
		av[n++] = "-G";
		av[n++] = gfd;
		if (sp->reruns)
			av[n++] = "-F";
		av[n] = NULL;
		enter_namespaces(sp->o);
		fflush(NULL);
		syscall(SYS_execveat, sp->lfd, "", av, environ, AT_EMPTY_PATH);
		fprintf(stderr, PFX "cannot run %s: %s\n", sp->loader, strerror(errno));
		_exit(FR_EXIT_FAIL);
	}
	close(ch[1]);
	close(sync[0]);
	if (ptrace(PTRACE_SEIZE, pid, 0, PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC |
		   PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL | PTRACE_O_TRACESECCOMP |
		   PTRACE_O_TRACEFORK)) {
		fprintf(stderr, PFX "gdbserver: cannot trace the loader: %s\n", strerror(errno));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		close(ch[0]);
		close(sync[1]);
		return -1;
	}
	if (write(sync[1], "g", 1) != 1) {
		close(ch[0]);
		close(sync[1]);
		return -1;
	}
	close(sync[1]);
	sp->reruns++;
	*pidp = pid;
	*chan = ch[0];
	return 0;
}

/*
 * The replay served to gdb (user/cmd/gdbserver.c).  lav: the loader's
 * arguments.  ready_fd (or -1) hears "ready" once the server listens at
 * the first instruction and "ended N" when the replay ends.
 */
static int run_gdbserver(const struct opts *o, const struct flrc *c, const struct image *im,
			 const char *loader, int lfd, char **lav, int listen_fd,
			 const char *listen_name, int ready_fd)
{
	struct fr_gdbserver s = { 0 };
	struct spawn sp = { o, loader, lfd, lav, listen_fd, 0 };
	int r;

	if (spawn_loader(&sp, &s.pid, &s.chan))
		return FR_EXIT_FAIL;
	sp.listen_fd = -1;	/* closed once the connection is made */
	s.c = c;
	s.from = im->from;
	s.find_symbols = gs_find_symbols;
	s.find_ctx = (void *)o;
	s.loader = loader;
	s.listen_fd = listen_fd;
	s.listen_name = listen_name;
	s.quiet = o->quiet;
	s.tsc_patched = im->patch_tsc;
	s.cpuid_patched = im->patch_cpuid;
	s.status_fd = ready_fd;
	s.respawn = spawn_loader;
	s.respawn_ctx = &sp;
	r = fr_gdbserver_run(&s);
	close(s.chan);
	return r;
}

/* ------------------------------------------------------------------ */
/* flightrec replay */

static int bad_number(const char *opt, const char *arg)
{
	char shown[64];

	fprintf(stderr, "flightrec: %s takes a decimal number, not '%s'\n", opt,
		fr_escape(arg, shown, sizeof(shown)));
	return FR_EXIT_USAGE;
}

static void usage_replay(FILE *f)
{
	fr_usage(f, "replay");
}

int cmd_replay(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "show-output", no_argument, NULL, 's' },
		{ "ignore-cpu", no_argument, NULL, 'i' },
		{ "patch-rdtsc", no_argument, NULL, 'P' },
		{ "patch-cpuid", no_argument, NULL, OPT_PATCH_CPUID },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "save-image", required_argument, NULL, 'I' },
		{ "force", no_argument, NULL, 'F' },
		{ "core", required_argument, NULL, 'c' },
		{ "gdbserver", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t t0 = fr_mono_ns();
	struct opts o = { 0 };
	struct image im = { 0 };
	struct flrc *c = NULL;
	char outdir[PATH_MAX], fdarg[16], dirarg[16], corearg[16], shown[PATH_MAX];
	char lname[320];
	const char *loader;
	char *lav[16];
	int ch, r, mfd, dfd, lfd, cfd = -1, n = 0, lsn = -1, mfd_arg = 0;
	/* the images after an exec, when the replay starts before it */
	static const struct flrc *imgs[MAX_IMAGES];
	static struct image more[MAX_IMAGES];
	int mfds[MAX_IMAGES];
	size_t n_img = 0, j, k = 0;

	while ((ch = getopt_long(argc, argv, "f:o:siqvh", lo, NULL)) != -1) {
		switch (ch) {
		case 'f':
			if (!fr_parse_u32(optarg, 0, UINT32_MAX, &o.from))
				return bad_number("--from", optarg);
			o.has_from = true;
			break;
		case 'o': o.out = optarg; break;
		case 's': o.show_output = true; break;
		case 'i': o.ignore_cpu = true; break;
		case 'q': o.quiet = true; break;
		case 'v': o.verbose = true; break;
		case 'I': o.save_image = optarg; break;
		case 'P': o.patch_rdtsc = true; break;
		case OPT_PATCH_CPUID: o.patch_cpuid = true; break;
		case 'F': o.force = true; break;
		case 'c': o.core = optarg; break;
		case 'g': o.gdbserver = optarg; break;
		case 'h': usage_replay(stdout); return 0;
		default: usage_replay(stderr); return FR_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		usage_replay(stderr);
		return FR_EXIT_USAGE;
	}
	o.file = argv[optind];
	loader = find_loader();
	if (!loader) {
		fprintf(stderr, PFX "cannot find flightrec-loader (set FLIGHTREC_LOADER)\n");
		return FR_EXIT_FAIL;
	}
	if (o.gdbserver) {
		lsn = fr_gdbserver_listen(o.gdbserver, lname, sizeof(lname));
		if (lsn < 0)
			return lsn == -2 ? FR_EXIT_USAGE : FR_EXIT_FAIL;
	}
	r = prepare(&o, &c, &im, t0);
	if (r)
		goto out;
	if (o.save_image) {
		/* for running the loader by hand: flightrec-loader IMAGE -o DIR */
		r = save_image(&o, &im);
		goto out;
	}
	/*
	 * The image first: a page that does not load (a damaged file) is
	 * refused before an output directory or a core file is made.
	 */
	n_img = images_of(c, imgs, MAX_IMAGES);
	for (k = 0; k < n_img && imgs[k] != im.c; k++)
		;
	/* under gdb one image: the replay ends at its exec */
	if (o.gdbserver)
		n_img = k + 1;
	for (j = k; j < n_img; j++) {
		struct image *cur = j == k ? &im : &more[j];

		if (j > k) {
			struct opts later = o;

			later.notes_said = true;
			cur->from = flrc_first_interval(imgs[j]);
			r = build_image(imgs[j], &later, cur, t0);
			if (r)
				goto out;
		}
		mfds[j] = image_memfd(cur);
		if (mfds[j] == -EBADMSG) {
			say_bad_page(o.file, cur);
			r = FR_EXIT_BADFILE;
			goto out;
		}
		if (mfds[j] < 0) {
			fprintf(stderr, PFX "cannot prepare the replay image: %s\n",
				strerror(-mfds[j]));
			r = FR_EXIT_FAIL;
			goto out;
		}
	}
	mfd = mfds[k];
	dfd = open_outdir(&o, "flightrec replay", outdir, sizeof(outdir));
	if (dfd < 0) {
		r = FR_EXIT_FAIL;
		goto out;
	}
	/* the fds the loader gets: no O_CLOEXEC */
	if (fcntl(dfd, F_SETFD, 0)) {
		fprintf(stderr, PFX "fcntl: %s\n", strerror(errno));
		r = FR_EXIT_FAIL;
		goto out;
	}
	lfd = open(loader, O_RDONLY | O_CLOEXEC);
	if (lfd < 0) {
		fprintf(stderr, PFX "cannot open %s: %s\n", loader, strerror(errno));
		r = FR_EXIT_FAIL;
		goto out;
	}
	/* the core file: 0600, never over an existing file or through a symlink */
	if (o.core) {
		cfd = fr_out_file(AT_FDCWD, o.core, o.force);
		if (cfd < 0 || fcntl(cfd, F_SETFD, 0)) {
			fprintf(stderr, PFX "cannot create the core file %s: %s\n",
				fr_escape(o.core, shown, sizeof(shown)), strerror(errno));
			r = FR_EXIT_FAIL;
			goto out;
		}
		snprintf(corearg, sizeof(corearg), "%d", cfd);
	}
	if (!o.gdbserver && k + 1 == n_img) {
		/* the loader replaces us: nothing to keep */
		flrc_free(c);
		c = NULL;
		image_free(&im);
	} else if (o.gdbserver) {
		note_one_image(&o, c, &im);
	}
	snprintf(fdarg, sizeof(fdarg), "%d", mfd);
	snprintf(dirarg, sizeof(dirarg), "%d", dfd);
	if (!o.quiet && o.out)
		fprintf(stderr, PFX "output of the replayed program goes to %s/\n",
			fr_escape(outdir, shown, sizeof(shown)));
	lav[n++] = "flightrec-loader";
	lav[n++] = "-f";
	mfd_arg = n;
	lav[n++] = fdarg;
	lav[n++] = "-d";
	lav[n++] = dirarg;
	if (o.force)
		lav[n++] = "-F";
	if (cfd >= 0) {
		lav[n++] = "-c";
		lav[n++] = corearg;
	}
	lav[n] = NULL;
	if (o.gdbserver) {
		r = run_gdbserver(&o, im.c, &im, loader, lfd, lav, lsn, lname, -1);
		goto out;
	}
	if (k + 1 < n_img) {
		r = run_images(&o, imgs + k, mfds + k, n_img - k, lfd, lav, mfd_arg, cfd);
		goto out;
	}
	enter_namespaces(&o);
	fflush(NULL);
	syscall(SYS_execveat, lfd, "", lav, environ, AT_EMPTY_PATH);
	fprintf(stderr, PFX "cannot run %s: %s\n", loader, strerror(errno));
	return FR_EXIT_FAIL;
out:
	if (lsn >= 0)
		close(lsn);
	if (c)
		flrc_free(c);
	image_free(&im);
	for (j = 0; j < MAX_IMAGES; j++)
		image_free(&more[j]);
	return r;
}

/* ------------------------------------------------------------------ */
/* flightrec gdb: symbols */

static int hexval(char ch)
{
	return ch >= 'a' ? ch - 'a' + 10 : ch >= 'A' ? ch - 'A' + 10 : ch - '0';
}

/* Reads an ELF file's GNU build ID (hex) and the vaddr of the segment at `off`. */
struct elfinfo {
	char build_id[129];
	bool ok;
	uint64_t phdr_vaddr[64], phdr_off[64];
	int n_load;
};

static bool read_elf(const char *path, struct elfinfo *ei)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	uint8_t *m;
	const Elf64_Ehdr *eh;
	size_t i;

	memset(ei, 0, sizeof(*ei));
	if (fd < 0)
		return false;
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(Elf64_Ehdr) || !S_ISREG(st.st_mode)) {
		close(fd);
		return false;
	}
	m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return false;
	eh = (const Elf64_Ehdr *)m;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > (uint64_t)st.st_size ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > (uint64_t)st.st_size)
		goto out;
	for (i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(m + eh->e_phoff) + i;

		if (ph->p_type == PT_LOAD && ei->n_load < 64) {
			ei->phdr_vaddr[ei->n_load] = ph->p_vaddr;
			ei->phdr_off[ei->n_load++] = ph->p_offset;
		}
	}
	for (i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *sh = (const Elf64_Shdr *)(m + eh->e_shoff) + i;
		uint64_t p, end;

		if (sh->sh_type != SHT_NOTE || sh->sh_offset + sh->sh_size > (uint64_t)st.st_size)
			continue;
		for (p = sh->sh_offset, end = p + sh->sh_size; p + 12 <= end;) {
			const Elf64_Nhdr *nh = (const Elf64_Nhdr *)(m + p);
			uint64_t desc = p + 12 + ((nh->n_namesz + 3) & ~3u);

			if (desc + nh->n_descsz > end)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(m + p + 12, "GNU", 4) && nh->n_descsz <= 64) {
				size_t k;

				for (k = 0; k < nh->n_descsz; k++)
					sprintf(ei->build_id + 2 * k, "%02x", m[desc + k]);
			}
			p = desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
	ei->ok = true;
out:
	munmap(m, st.st_size);
	return ei->ok;
}

static void hex_of(const ProtobufCBinaryData *d, char *out)
{
	size_t k;

	out[0] = 0;
	for (k = 0; k < d->len && k < 64; k++)
		sprintf(out + 2 * k, "%02x", d->data[k]);
}

/* Finds symbols for a recorded object: by build ID, then by name. */
static bool find_symbols(const struct opts *o, const char *path, const char *bid,
			 char *out, size_t len, struct elfinfo *ei)
{
	const char *base = strrchr(path, '/');
	size_t i;

	base = base ? base + 1 : path;
	for (i = 0; i < o->n_symbols; i++) {
		const char *s = o->symbols[i];
		struct stat st;

		if (stat(s, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (*bid && strlen(bid) > 2) {
				snprintf(out, len, "%s/.build-id/%.2s/%s.debug", s, bid, bid + 2);
				if (read_elf(out, ei) && !strcmp(ei->build_id, bid))
					return true;
			}
			snprintf(out, len, "%s/%s", s, base);
			if (read_elf(out, ei) && (!*bid || !*ei->build_id ||
						  !strcmp(ei->build_id, bid)))
				return true;
			snprintf(out, len, "%s/%s.debug", s, base);
			if (read_elf(out, ei) && (!*bid || !*ei->build_id ||
						  !strcmp(ei->build_id, bid)))
				return true;
			continue;
		}
		snprintf(out, len, "%s", s);
		if (!read_elf(out, ei))
			continue;
		if (*bid && *ei->build_id ? !strcmp(ei->build_id, bid) :
		    !strcmp(strrchr(s, '/') ? strrchr(s, '/') + 1 : s, base))
			return true;
		if (!strcmp(strrchr(s, '/') ? strrchr(s, '/') + 1 : s, base))
			fprintf(stderr, "flightrec gdb: warning: %s has build ID %s, the recorded "
				"%s had %s: not used\n", s, ei->build_id, path, bid);
	}
	/* the system's debug directory, then the recorded file if it is the same */
	if (*bid) {
		snprintf(out, len, "/usr/lib/debug/.build-id/%.2s/%s.debug", bid, bid + 2);
		if (read_elf(out, ei) && !strcmp(ei->build_id, bid))
			return true;
		snprintf(out, len, "%s", path);
		if (read_elf(out, ei) && !strcmp(ei->build_id, bid))
			return true;
	}
	return false;
}

static bool gs_find_symbols(void *ctx, const char *path, const char *bid, bool need_code,
			    char *out, size_t len)
{
	struct elfinfo ei;

	if (!find_symbols(ctx, path, bid, out, len, &ei))
		return false;
	if (need_code && !fr_elf_has_code(out)) {
		/* a separate debug file: the recorded file itself, if it is the same build */
		if (*bid && read_elf(path, &ei) && !strcmp(ei.build_id, bid) &&
		    fr_elf_has_code(path)) {
			snprintf(out, len, "%s", path);
			return true;
		}
		return false;
	}
	/*
	 * The system's separate debug file: gdb finds it by itself from the
	 * recorded file when that is the same build, and `info sharedlibrary`
	 * then names the library, not the debug file.
	 */
	if (!strncmp(out, "/usr/lib/debug/", 15) && read_elf(path, &ei) &&
	    !strcmp(ei.build_id, bid))
		snprintf(out, len, "%s", path);
	return true;
}

/*
 * A path as one gdb argument: in double quotes, with \\ and \" escaped (gdb
 * splits `file`, `add-symbol-file` and `set args` arguments as a shell
 * would).  A control character cannot be written into a script line.
 */
static bool gdb_quotable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

static void gdb_quote(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* Writes add-symbol-file commands for every recorded ELF mapping we find. */
static int symbol_commands(const struct flrc *c, const struct opts *o, uint32_t from, FILE *f,
			   const char *only_path)
{
	char done[256][PATH_MAX / 16];
	size_t n_done = 0, i, k;
	int found = 0;

	for (i = 0; i < c->n_maps; i++) {
		const Flightrec__Map *m = c->maps[i];
		char bid[129], sym[PATH_MAX], shown[PATH_MAX], shown2[PATH_MAX];
		struct elfinfo ei;
		uint64_t bias = 0;
		bool dup = false;
		int p;

		/*
		 * The maps of every interval replayed, the earliest first: a
		 * replay from exec starts before ld.so maps the libraries,
		 * which the next interval's map holds.
		 */
		if (m->interval < from || !m->path || m->path[0] != '/')
			continue;
		if (only_path && strcmp(only_path, m->path))
			continue;
		for (k = 0; k < n_done; k++)
			if (!strncmp(done[k], m->path, sizeof(done[k]) - 1))
				dup = true;
		if (dup || n_done >= 256)
			continue;
		snprintf(done[n_done++], sizeof(done[0]), "%s", m->path);
		hex_of(&m->build_id, bid);
		if (!find_symbols(o, m->path, bid, sym, sizeof(sym), &ei))
			continue;
		/* the load bias: the recorded start of the segment at this offset */
		for (p = 0; p < ei.n_load; p++)
			if ((ei.phdr_off[p] & ~0xfffull) == m->offset)
				break;
		if (p == ei.n_load)
			continue;
		bias = m->start - (ei.phdr_vaddr[p] & ~0xfffull);
		if (!gdb_quotable(sym)) {
			/* a line break in a gdb script is another command */
			fprintf(stderr, "flightrec gdb: not loading symbols from %s: its name "
				"has characters a gdb script cannot quote\n",
				fr_escape(sym, shown, sizeof(shown)));
			continue;
		}
		fprintf(f, "add-symbol-file ");
		gdb_quote(f, sym);
		fprintf(f, " -o %#llx\n", (unsigned long long)bias);
		if (!o->quiet && !only_path)
			fprintf(stderr, "flightrec gdb: symbols for %s: %s at %#llx\n",
				fr_escape(m->path, shown2, sizeof(shown2)), sym,
				(unsigned long long)bias);
		found++;
	}
	(void)hexval;
	return found;
}

/*
 * The program's symbols when gdb cannot load the program itself (the
 * server offers no exec file): only a separate debug file of it is here.
 * gdb's `file` would not relocate it; add-symbol-file at the recorded bias.
 */
static void main_symbols(const struct flrc *c, const struct opts *o, uint32_t from, FILE *f)
{
	const Flightrec__ProcessInfo *p = c->hdr->process;
	char bid[129], out[PATH_MAX];
	uint64_t entry = 0;
	size_t i;

	for (i = 0; p && i + 1 < p->n_auxv; i += 2)
		if (p->auxv[i] == AT_ENTRY)
			entry = p->auxv[i + 1];
	for (i = 0; entry && i < c->n_maps; i++) {
		const Flightrec__Map *m = c->maps[i];

		if (m->interval < from || !m->path || m->path[0] != '/' || entry < m->start ||
		    entry >= m->end)
			continue;
		hex_of(&m->build_id, bid);
		if (!gs_find_symbols((void *)o, m->path, bid, true, out, sizeof(out)) &&
		    symbol_commands(c, o, from, f, m->path))
			fprintf(f, "sharedlibrary\n");	/* gdb reads them now, without a program */
		return;
	}
}

static void usage_gdb(FILE *f)
{
	fr_usage(f, "gdb");
}

int cmd_gdb(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "symbols", required_argument, NULL, 'S' },
		{ "from", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "batch", required_argument, NULL, 'b' },
		{ "force", no_argument, NULL, 'F' },
		{ "ignore-cpu", no_argument, NULL, 'i' },
		{ "patch-rdtsc", no_argument, NULL, 'P' },
		{ "patch-cpuid", no_argument, NULL, OPT_PATCH_CPUID },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t t0 = fr_mono_ns();
	struct opts o = { 0 };
	struct image im = { 0 };
	struct flrc *c = NULL;
	char outdir[PATH_MAX], script[] = "/tmp/flightrec-gdb.XXXXXX";
	char shown[PATH_MAX], lname[320], fdarg[16], dirarg[16], line[64];
	const char *loader, *gdb = getenv("FLIGHTREC_GDB");
	char **av = NULL, *lav[16];
	FILE *f, *devnull;
	int ch, r, dfd = -1, lfd = -1, mfd = -1, sfd, lsn = -1, st[2] = { -1, -1 };
	int status, n = 0, ln = 0, wr = 0;
	size_t got = 0;
	ssize_t k;
	pid_t pid, srv = -1;

	o.symbols = calloc(argc + 1, sizeof(*o.symbols));
	while ((ch = getopt_long(argc, argv, "S:f:o:b:iPqh", lo, NULL)) != -1) {
		switch (ch) {
		case 'S': o.symbols[o.n_symbols++] = optarg; break;
		case 'f':
			if (!fr_parse_u32(optarg, 0, UINT32_MAX, &o.from)) {
				r = bad_number("--from", optarg);
				goto out;
			}
			o.has_from = true;
			break;
		case 'o': o.out = optarg; break;
		case 'b': o.batch_cmds = optarg; break;
		case 'F': o.force = true; break;
		case 'i': o.ignore_cpu = true; break;
		case 'P': o.patch_rdtsc = true; break;
		case OPT_PATCH_CPUID: o.patch_cpuid = true; break;
		case 'q': o.quiet = true; break;
		case 'h': usage_gdb(stdout); r = 0; goto out;
		default: usage_gdb(stderr); r = FR_EXIT_USAGE; goto out;
		}
	}
	if (optind >= argc) {
		usage_gdb(stderr);
		r = FR_EXIT_USAGE;
		goto out;
	}
	o.file = argv[optind++];
	if (optind < argc && !strcmp(argv[optind], "--"))
		optind++;
	o.gdb_args = argv + optind;
	o.n_gdb_args = argc - optind;
	loader = find_loader();
	if (!loader) {
		fprintf(stderr, "flightrec gdb: cannot find flightrec-loader (set FLIGHTREC_LOADER)\n");
		r = FR_EXIT_FAIL;
		goto out;
	}
	r = prepare(&o, &c, &im, t0);
	if (r)
		goto out;
	note_one_image(&o, c, &im);
	r = FR_EXIT_FAIL;
	/*
	 * gdb talks to our gdbserver (replay --gdbserver) on a port of the
	 * loopback interface; the loader runs in the replay's own sandbox and
	 * gets the image and the output directory as fds: no path in the
	 * script for gdb to split.
	 */
	lfd = open(loader, O_RDONLY | O_CLOEXEC);
	mfd = memfd_create("flightrec-image", 0);
	if (lfd < 0 || mfd < 0 || (wr = write_image(mfd, &im))) {
		if (wr == -EBADMSG) {
			say_bad_page(o.file, &im);
			r = FR_EXIT_BADFILE;
			goto out;
		}
		fprintf(stderr, "flightrec gdb: cannot prepare the replay: %s\n",
			strerror(wr ? -wr : errno));
		goto out;
	}
	/* after the image: a damaged file makes no output directory */
	dfd = open_outdir(&o, "flightrec gdb", outdir, sizeof(outdir));
	if (dfd < 0 || fcntl(dfd, F_SETFD, 0))
		goto out;
	/* the symbols found, said as before (gdb reads them through the server) */
	devnull = fopen("/dev/null", "w");
	if (devnull) {
		symbol_commands(im.c, &o, im.from, devnull, NULL);
		fclose(devnull);
	}
	lsn = fr_gdbserver_listen("127.0.0.1:0", lname, sizeof(lname));
	if (lsn < 0 || pipe2(st, O_CLOEXEC))
		goto out;
	snprintf(fdarg, sizeof(fdarg), "%d", mfd);
	snprintf(dirarg, sizeof(dirarg), "%d", dfd);
	lav[ln++] = "flightrec-loader";
	lav[ln++] = "-f";
	lav[ln++] = fdarg;
	lav[ln++] = "-d";
	lav[ln++] = dirarg;
	if (o.quiet)
		lav[ln++] = "-q";
	if (o.force)
		lav[ln++] = "-F";
	lav[ln] = NULL;
	fflush(NULL);
	srv = fork();
	if (srv < 0)
		goto out;
	if (srv == 0) {
		close(st[0]);
		signal(SIGINT, SIG_IGN);	/* gdb's ^C reaches us as a packet */
		_exit(run_gdbserver(&o, im.c, &im, loader, lfd, lav, lsn, lname, st[1]));
	}
	close(st[1]);
	st[1] = -1;
	close(lsn);
	lsn = -1;
	/* until the server stops at the first instruction (or the replay ends first) */
	for (;;) {
		k = read(st[0], line + got, sizeof(line) - 1 - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
		line[got] = 0;
		if (strstr(line, "ready\n") || got == sizeof(line) - 1)
			break;
	}
	if (!strstr(line, "ready\n")) {
		if (waitpid(srv, &status, 0) == srv && WIFEXITED(status))
			r = WEXITSTATUS(status);
		srv = -1;
		goto out;
	}
	memmove(line, strstr(line, "ready\n") + 6, strlen(strstr(line, "ready\n") + 6) + 1);
	got = strlen(line);
	sfd = mkstemp(script);
	if (sfd < 0 || !(f = fdopen(sfd, "w"))) {
		fprintf(stderr, "flightrec gdb: cannot write the gdb script: %s\n", strerror(errno));
		goto out_kill;
	}
	fprintf(f,
		"set pagination off\n"
		"set confirm off\n"
		"set sysroot\n"
		"target remote %s\n", lname);
	main_symbols(im.c, &o, im.from, f);
	/*
	 * And every object's symbols at its recorded bias, as before the
	 * server: gdb relocates the program and its libraries by what it
	 * reads of the replayed memory (program headers, ld.so's list), which
	 * a checkpoint of the last intervals mostly lacks (make demo: every
	 * frame '??').
	 */
	symbol_commands(im.c, &o, im.from, f, NULL);
	fprintf(f, "echo flightrec gdb: stopped at the first instruction of interval %u "
		"(replay of ", im.from);
	/* echo reads C escapes: the escaped name's backslashes doubled */
	for (ch = 0; fr_escape(o.file, shown, sizeof(shown))[ch]; ch++)
		fprintf(f, shown[ch] == '\\' ? "\\\\" : "%c", shown[ch]);
	fprintf(f, ")\\n\n");
	fclose(f);
	flrc_free(c);
	c = NULL;

	av = calloc(o.n_gdb_args + 16, sizeof(*av));
	av[n++] = (char *)(gdb && *gdb ? gdb : "gdb");
	av[n++] = "-q";
	av[n++] = "-nx";
	if (o.batch_cmds)
		av[n++] = "-batch";
	av[n++] = "-x";
	av[n++] = script;
	if (o.batch_cmds) {
		av[n++] = "-x";
		av[n++] = (char *)o.batch_cmds;
	}
	for (ch = 0; ch < o.n_gdb_args; ch++)
		av[n++] = o.gdb_args[ch];
	av[n] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execvp(av[0], av);
		fprintf(stderr, "flightrec gdb: cannot run %s: %s\n", av[0], strerror(errno));
		_exit(127);
	}
	signal(SIGINT, SIG_IGN);	/* gdb handles ^C */
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		goto out_unlink;
	r = WIFEXITED(status) ? WEXITSTATUS(status) : FR_EXIT_FAIL;
	/*
	 * The replay's status when it ended under gdb (the server says
	 * "ended N"; the recorded fatal signal, which gdb delivers, is the
	 * recorded end: 0).  gdb's own status when the replay did not end.
	 */
	while (got < sizeof(line) - 1 &&
	       (k = read(st[0], line + got, sizeof(line) - 1 - got)) > 0)
		got += (size_t)k;
	line[got] = 0;
	if (!strncmp(line, "ended ", 6)) {
		uint32_t code;

		line[strcspn(line, "\n")] = 0;
		if (fr_parse_u32(line + 6, 0, 255, &code))
			r = (int)code;
	}
out_unlink:
	unlink(script);
out_kill:
	if (srv > 0) {
		kill(srv, SIGTERM);
		waitpid(srv, NULL, 0);
		srv = -1;
	}
out:
	if (srv > 0)
		waitpid(srv, NULL, 0);
	free(av);
	if (st[0] >= 0)
		close(st[0]);
	if (st[1] >= 0)
		close(st[1]);
	if (lsn >= 0)
		close(lsn);
	if (mfd >= 0)
		close(mfd);
	if (lfd >= 0)
		close(lfd);
	if (dfd >= 0)
		close(dfd);
	if (c)
		flrc_free(c);
	image_free(&im);
	free(o.symbols);
	return r;
}
