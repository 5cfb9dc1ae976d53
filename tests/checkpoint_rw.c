// SPDX-License-Identifier: GPL-2.0
/*
 * Checkpoint files: a synthetic dump (the records the module hands over,
 * built with libnl's nla_* helpers) is assembled into a file, read back and
 * compared field by field and page by page; then the reader is given
 * truncated, corrupted and hostile files.
 *
 * With FLRC_CORPUS_DIR set, the corpus test also leaves a few small valid
 * files there: the seed corpus of tests/fuzz_checkpoint.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/user.h>
#include <unistd.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <zstd.h>

#include "kselftest_harness.h"
#include "checkpoint.h"
#include "assemble.h"
#include "x86sites.h"
#include "flightrec.h"

#define PID		4242
#define NIV		4
#define PG		FLRC_PAGE_SIZE
#define CODE		0x400000ull
#define HEAP		0x600000ull
#define HEAP2		0x601000ull
#define STACK		0x7ffffffde000ull
#define STACK_PG	0x7fffffffe000ull
#define XSAVE_SIZE	2696

static uint8_t code_page[PG], heap_a[PG], heap_b[PG], stack_pg[NIV][PG];
static char self_exe[PATH_MAX];
static struct stat self_st;

static void fill(uint8_t *p, uint32_t seed, bool compressible)
{
	uint64_t x = 0x9e3779b97f4a7c15ull ^ seed;
	size_t i;

	for (i = 0; i < PG; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = compressible ? (uint8_t)("flightrec"[i % 9] + (i / 512) + seed) :
				      (uint8_t)x;
	}
}

static void init_data(bool compressible)
{
	int i;

	fill(code_page, 1, compressible);
	fill(heap_a, 2, compressible);
	fill(heap_b, 3, compressible);
	for (i = 0; i < NIV; i++)
		fill(stack_pg[i], 10 + i, compressible);
	if (!realpath("/proc/self/exe", self_exe) || stat(self_exe, &self_st))
		self_exe[0] = '\0';
}

static uint64_t regval(uint32_t interval, int field)
{
	return 0x100000ull * (interval + 1) + field * 0x11 + 1;
}

static void make_regs(struct user_regs_struct *u, uint32_t interval)
{
	uint64_t *w = (uint64_t *)u;
	size_t i;

	for (i = 0; i < sizeof(*u) / 8; i++)
		w[i] = regval(interval, i);
}

static void make_xsave(uint8_t *x, uint32_t interval, uint64_t bv)
{
	uint16_t fcw = 0x37f, fsw = 0x1200 + interval, fop = 0x55;
	uint64_t fip = 0x1111222233334444ull, fdp = 0x5555666677778888ull;
	uint32_t mxcsr = 0x1f80, mask = 0xffff, pkru = 0x55555554;
	size_t i;

	memset(x, 0, XSAVE_SIZE);
	memcpy(x, &fcw, 2);
	memcpy(x + 2, &fsw, 2);
	x[4] = 0xab;
	memcpy(x + 6, &fop, 2);
	memcpy(x + 8, &fip, 8);
	memcpy(x + 16, &fdp, 8);
	memcpy(x + 24, &mxcsr, 4);
	memcpy(x + 28, &mask, 4);
	for (i = 32; i < 416; i++)
		x[i] = (uint8_t)(i * 7 + interval);
	memcpy(x + 512, &bv, 8);
	for (i = 576; i < 832; i++)		/* AVX: YMM_Hi128 */
		x[i] = (uint8_t)(i * 3 + interval);
	memcpy(x + 2688, &pkru, 4);		/* PKRU */
}

/* ---- records ---- */

static struct nl_msg *rec(uint32_t type)
{
	struct nl_msg *m = nlmsg_alloc_size(64 * 1024);

	if (m)
		nla_put_u32(m, FLIGHTREC_A_REC_TYPE, type);
	return m;
}

static int feed(struct fr_asm *a, struct nl_msg *m)
{
	struct nlmsghdr *nlh = nlmsg_hdr(m);
	struct nlattr *tb[FLIGHTREC_A_MAX + 1];
	int ret;

	ret = nla_parse(tb, FLIGHTREC_A_MAX, nlmsg_attrdata(nlh, 0),
			nlmsg_attrlen(nlh, 0), NULL);
	if (!ret)
		ret = fr_asm_record(a, tb, nlmsg_attrdata(nlh, 0),
				    nlmsg_attrlen(nlh, 0));
	nlmsg_free(m);
	return ret;
}

struct gen {
	int nr_intervals;	/* intervals 0..n-1 */
	bool cpuid;		/* leaf 0xd in SYSINFO */
	bool minimal;		/* one map, one page, one syscall */
	bool no_end;
	bool distinct_code;	/* the code page differs in every interval */
	bool chunks;		/* large out-buffers, sent in OUT_CHUNK pieces */
	/* the command line in CMDLINE_CHUNK pieces: 1 in order, 2 one missing */
	int cmdline_chunks;
	uint64_t xstate_bv;
	uint32_t first_iv;	/* the first interval's number */
	uint32_t end_kind;	/* 0: FLIGHTREC_END_FAULT */
	uint32_t pid;		/* 0: PID */
	uint32_t prev_dump;	/* FLIGHTREC_A_PREV_DUMP */
};

#define LONG_CMDLINE	(2 * FLIGHTREC_OUT_CHUNK + 100)

/* "synth\0" then 'a'..'z' repeated, then "\0x y\0": three arguments */
static char *long_cmdline(void)
{
	static char s[LONG_CMDLINE];
	size_t i;

	memcpy(s, "synth", 6);
	for (i = 6; i < LONG_CMDLINE - 5; i++)
		s[i] = 'a' + i % 26;
	memcpy(s + LONG_CMDLINE - 5, "\0x y", 5);
	return s;
}

static int gen_sysinfo(struct fr_asm *a, const struct gen *g)
{
	static const char *const uts[6] = {
		"Linux", "srchost", "6.1.0-test", "#1 SMP", "x86_64", "(none)",
	};
	struct flightrec_cpuid_leaf l[3] = {
		{ .leaf = 0, .eax = 0xd, .ebx = 0x756e6547 },
		{ .leaf = 0xd, .subleaf = 2, .eax = 256, .ebx = 576 },
		{ .leaf = 0xd, .subleaf = 9, .eax = 8, .ebx = 2688 },
	};
	char u[6 * 65] = { 0 };
	struct nl_msg *m = rec(FLIGHTREC_REC_SYSINFO);
	int i;

	for (i = 0; i < 6; i++)
		strcpy(u + 65 * i, uts[i]);
	nla_put(m, FLIGHTREC_A_UNAME, sizeof(u), u);
	nla_put(m, FLIGHTREC_A_CPUID, (g->cpuid ? 3 : 1) * sizeof(l[0]), l);
	nla_put_u64(m, FLIGHTREC_A_XCR0, 0x207);
	return feed(a, m);
}

static int gen_process(struct fr_asm *a, const struct gen *g)
{
	static const char cmdline[] = "synth\0--flag\0x y";
	uint64_t auxv[4] = { 6 /* AT_PAGESZ */, 4096, 0, 0 };
	struct nl_msg *m = rec(FLIGHTREC_REC_PROCESS);
	const char *lc = long_cmdline();
	uint32_t off, len;
	int err;

	nla_put_u32(m, FLIGHTREC_A_PID, g->pid ?: PID);
	nla_put_u32(m, FLIGHTREC_A_PPID, 1);
	if (g->prev_dump)
		nla_put_u32(m, FLIGHTREC_A_PREV_DUMP, g->prev_dump);
	nla_put_string(m, FLIGHTREC_A_COMM, "synth");
	nla_put_string(m, FLIGHTREC_A_EXE, "/usr/bin/synth");
	if (g->cmdline_chunks)
		nla_put_u32(m, FLIGHTREC_A_CMDLINE_LEN, LONG_CMDLINE);
	else
		nla_put(m, FLIGHTREC_A_CMDLINE, sizeof(cmdline), cmdline);
	nla_put(m, FLIGHTREC_A_AUXV, sizeof(auxv), auxv);
	nla_put_u32(m, FLIGHTREC_A_PERSONALITY, 0);
	nla_put_u64(m, FLIGHTREC_A_BRK_START, HEAP);
	err = feed(a, m);
	for (off = 0; !err && g->cmdline_chunks && off < LONG_CMDLINE; off += len) {
		len = LONG_CMDLINE - off < FLIGHTREC_OUT_CHUNK ?
		      LONG_CMDLINE - off : FLIGHTREC_OUT_CHUNK;
		if (g->cmdline_chunks == 2 && off == FLIGHTREC_OUT_CHUNK)
			continue;	/* lost */
		m = rec(FLIGHTREC_REC_CMDLINE_CHUNK);
		nla_put_u32(m, FLIGHTREC_A_CMDLINE_OFFSET, off);
		nla_put(m, FLIGHTREC_A_CMDLINE, len, lc + off);
		err = feed(a, m);
	}
	return err;
}

static uint32_t encode_dev(dev_t d)
{
	return (minor(d) & 0xff) | (major(d) << 8) | ((minor(d) & ~0xffu) << 12);
}

static int gen_map(struct fr_asm *a, uint32_t iv, uint64_t start, uint64_t end,
		   uint32_t prot, uint32_t flags, const char *path)
{
	struct nl_msg *m = rec(FLIGHTREC_REC_MAP);

	nla_put_u32(m, FLIGHTREC_A_INTERVAL, iv);
	nla_put_u64(m, FLIGHTREC_A_START, start);
	nla_put_u64(m, FLIGHTREC_A_END, end);
	nla_put_u32(m, FLIGHTREC_A_PROT, prot);
	nla_put_u32(m, FLIGHTREC_A_MAP_FLAGS, flags);
	nla_put_u64(m, FLIGHTREC_A_PGOFF, 0);
	if (path && path == self_exe) {
		nla_put_u64(m, FLIGHTREC_A_INODE, self_st.st_ino);
		nla_put_u32(m, FLIGHTREC_A_DEV, encode_dev(self_st.st_dev));
	}
	if (path)
		nla_put_string(m, FLIGHTREC_A_PATH, path);
	return feed(a, m);
}

static int gen_page(struct fr_asm *a, uint32_t iv, uint64_t addr,
		    uint32_t flags, const uint8_t *data)
{
	struct nl_msg *m = rec(FLIGHTREC_REC_PAGE);

	nla_put_u32(m, FLIGHTREC_A_INTERVAL, iv);
	nla_put_u64(m, FLIGHTREC_A_ADDR, addr);
	nla_put_u32(m, FLIGHTREC_A_PAGE_FLAGS, flags);
	if (data)
		nla_put(m, FLIGHTREC_A_DATA, PG, data);
	return feed(a, m);
}

static int gen_out(struct nl_msg *m, uint32_t arg, uint64_t addr,
		   const void *data, int len)
{
	struct nlattr *n = nla_nest_start(m, FLIGHTREC_A_OUT);

	nla_put_u32(m, FLIGHTREC_OUT_ARG, arg);
	nla_put_u64(m, FLIGHTREC_OUT_ADDR, addr);
	nla_put(m, FLIGHTREC_OUT_DATA, len, data);
	nla_nest_end(m, n);
	return 0;
}

#define BIG	40000

static uint8_t big_byte(size_t i)
{
	return (uint8_t)(i * 31 + (i >> 8));
}

static int gen_chunk(struct fr_asm *a, uint64_t seq, uint32_t idx,
		     uint32_t len, uint32_t off, uint32_t n)
{
	struct nl_msg *m = rec(FLIGHTREC_REC_OUT_CHUNK);
	struct nlattr *nest;
	uint8_t *d = malloc(n);
	uint32_t i;

	for (i = 0; i < n; i++)
		d[i] = big_byte(off + i);
	nla_put_u64(m, FLIGHTREC_A_SEQ, seq);
	nla_put_u32(m, FLIGHTREC_A_TID, PID);
	nest = nla_nest_start(m, FLIGHTREC_A_OUT);
	nla_put_u32(m, FLIGHTREC_OUT_ARG, 1);
	nla_put_u32(m, FLIGHTREC_OUT_INDEX, idx);
	nla_put_u64(m, FLIGHTREC_OUT_ADDR, HEAP);
	nla_put_u32(m, FLIGHTREC_OUT_LEN, len);
	nla_put_u32(m, FLIGHTREC_OUT_OFFSET, off);
	nla_put(m, FLIGHTREC_OUT_DATA, n, d);
	nla_nest_end(m, nest);
	free(d);
	return feed(a, m);
}

/* seq+2: a 40000-byte read in three pieces; seq+3: one piece missing. */
static int gen_chunked(struct fr_asm *a, uint32_t iv, uint64_t seq)
{
	uint64_t args[6] = { 3, HEAP, BIG, 0, 0, 0 };
	struct nl_msg *m;
	int i, err = 0;

	for (i = 2; i <= 3 && !err; i++) {
		uint32_t len = i == 2 ? BIG : 20000;

		m = rec(FLIGHTREC_REC_SYSCALL);
		nla_put_u32(m, FLIGHTREC_A_INTERVAL, iv);
		nla_put_u64(m, FLIGHTREC_A_SEQ, seq + i);
		nla_put_u32(m, FLIGHTREC_A_TID, PID);
		nla_put_u32(m, FLIGHTREC_A_NR, 0);
		nla_put(m, FLIGHTREC_A_ARGS, sizeof(args), args);
		nla_put_u64(m, FLIGHTREC_A_RET, len);
		err = feed(a, m) ?:
		      gen_chunk(a, seq + i, 0, len, 0, FLIGHTREC_OUT_CHUNK);
		if (i == 2)
			err = err ?:
			      gen_chunk(a, seq + i, 0, len, FLIGHTREC_OUT_CHUNK,
					FLIGHTREC_OUT_CHUNK) ?:
			      gen_chunk(a, seq + i, 0, len, 2 * FLIGHTREC_OUT_CHUNK,
					BIG - 2 * FLIGHTREC_OUT_CHUNK);
	}
	return err;
}

static int gen_syscalls(struct fr_asm *a, uint32_t iv, bool minimal)
{
	uint64_t args[6] = { 1, HEAP + 0x100, 5, 0, 0, 0 };
	uint64_t seq = 10 * iv;
	struct nl_msg *m;
	int err;

	m = rec(FLIGHTREC_REC_SYSCALL);
	nla_put_u32(m, FLIGHTREC_A_INTERVAL, iv);
	nla_put_u64(m, FLIGHTREC_A_SEQ, seq + 1);
	nla_put_u32(m, FLIGHTREC_A_TID, PID);
	nla_put_u32(m, FLIGHTREC_A_NR, 1);	/* write */
	nla_put(m, FLIGHTREC_A_ARGS, sizeof(args), args);
	nla_put_u64(m, FLIGHTREC_A_RET, 5);
	nla_put_u32(m, FLIGHTREC_A_SC_FLAGS, 0);
	err = feed(a, m);
	if (err || minimal)
		return err;

	m = rec(FLIGHTREC_REC_SYSCALL);
	args[0] = 0;
	args[1] = HEAP + 0x200;
	args[2] = 64;
	nla_put_u32(m, FLIGHTREC_A_INTERVAL, iv);
	nla_put_u64(m, FLIGHTREC_A_SEQ, seq + 2);
	nla_put_u32(m, FLIGHTREC_A_TID, PID + 1);
	nla_put_u32(m, FLIGHTREC_A_NR, 0);	/* read */
	nla_put(m, FLIGHTREC_A_ARGS, sizeof(args), args);
	nla_put_u64(m, FLIGHTREC_A_RET, 3);
	gen_out(m, 1, HEAP + 0x200, "abc", 3);
	err = feed(a, m);
	if (err)
		return err;

	m = rec(FLIGHTREC_REC_SYSCALL);
	nla_put_u32(m, FLIGHTREC_A_INTERVAL, iv);
	nla_put_u64(m, FLIGHTREC_A_SEQ, seq + 3);
	nla_put_u32(m, FLIGHTREC_A_TID, PID);
	nla_put_u32(m, FLIGHTREC_A_NR, 7);	/* poll */
	nla_put(m, FLIGHTREC_A_ARGS, sizeof(args), args);
	nla_put_u64(m, FLIGHTREC_A_RET, (uint64_t)-4);	/* -EINTR */
	nla_put_u32(m, FLIGHTREC_A_SC_FLAGS,
		    iv == 2 ? FLIGHTREC_SC_TRUNCATED : 0);
	gen_out(m, 0, HEAP + 0x300, "12345678", 8);
	gen_out(m, FLIGHTREC_OUT_ARG_DERIVED, HEAP + 0x400, "wxyz", 4);
	return feed(a, m);
}

static int gen_thread(struct fr_asm *a, uint32_t iv, uint32_t tid,
		      const struct gen *g)
{
	struct user_regs_struct u;
	uint8_t x[XSAVE_SIZE];
	struct nl_msg *m = rec(FLIGHTREC_REC_THREAD);

	make_regs(&u, iv);
	make_xsave(x, iv, g->xstate_bv);
	nla_put_u32(m, FLIGHTREC_A_INTERVAL, iv);
	nla_put_u32(m, FLIGHTREC_A_TID, tid);
	nla_put(m, FLIGHTREC_A_REGS, sizeof(u), &u);
	nla_put(m, FLIGHTREC_A_XSAVE, sizeof(x), x);
	nla_put_u64(m, FLIGHTREC_A_FS_BASE, u.fs_base);
	nla_put_u64(m, FLIGHTREC_A_GS_BASE, u.gs_base);
	nla_put_u64(m, FLIGHTREC_A_SIGMASK, 0x4000 + iv);
	nla_put_u64(m, FLIGHTREC_A_SAS_SP, 0);
	nla_put_u64(m, FLIGHTREC_A_SAS_SIZE, 0);
	nla_put_u32(m, FLIGHTREC_A_SAS_FLAGS, 2);
	nla_put_u64(m, FLIGHTREC_A_RSEQ, 0x7f0000001000ull + tid);
	nla_put_u32(m, FLIGHTREC_A_RSEQ_LEN, 32);
	nla_put_u32(m, FLIGHTREC_A_RSEQ_SIG, 0x53053053);
	nla_put_u64(m, FLIGHTREC_A_ROBUST_LIST, 0x7f0000002000ull);
	nla_put_u64(m, FLIGHTREC_A_ROBUST_LEN, 24);
	nla_put_u32(m, FLIGHTREC_A_IN_SYSCALL, tid == PID ? (uint32_t)-1 : 7);
	return feed(a, m);
}

/* A dump of NIV intervals: see the checks in roundtrip and splice. */
static int gen_dump(struct fr_asm *a, const struct gen *g)
{
	static const uint8_t zero[PG];
	int err, i;

	err = gen_sysinfo(a, g) ?: gen_process(a, g);
	for (i = 0; i < g->nr_intervals && !err; i++) {
		struct nl_msg *m = rec(FLIGHTREC_REC_INTERVAL);
		uint32_t iv = i + g->first_iv;

		nla_put_u32(m, FLIGHTREC_A_INTERVAL, iv);
		nla_put_u64(m, FLIGHTREC_A_START_NS, 1000000000ull * (i + 1));
		nla_put_u64(m, FLIGHTREC_A_END_NS, 1000000000ull * (i + 2));
		nla_put_u32(m, FLIGHTREC_A_INTERVAL_FLAGS,
			    i == g->nr_intervals - 1 ? FLIGHTREC_IF_PARTIAL : 0);
		nla_put_u64(m, FLIGHTREC_A_NR_SYSCALLS, g->minimal ? 1 : 3);
		nla_put_u64(m, FLIGHTREC_A_LOST, 0);
		nla_put_u64(m, FLIGHTREC_A_BRK, HEAP + 0x2000);
		err = feed(a, m);

		err = err ?: gen_map(a, iv, CODE, CODE + PG, 5, 0x2,
				     self_exe[0] ? self_exe : NULL);
		if (!g->minimal)
			err = err ?: gen_map(a, iv, HEAP, HEAP + 2 * PG, 3,
					     0x2 | FLIGHTREC_MAPF_ANON | FLIGHTREC_MAPF_HEAP,
					     "[heap]") ?:
				gen_map(a, iv, STACK, STACK + 0x21000, 3,
					0x2 | FLIGHTREC_MAPF_ANON | FLIGHTREC_MAPF_STACK,
					"[stack]");
		err = err ?: gen_thread(a, iv, PID, g);
		if (!g->minimal)
			err = err ?: gen_thread(a, iv, PID + 1, g);
		if (!err && !g->minimal) {
			m = rec(FLIGHTREC_REC_SIGACTION);
			nla_put_u32(m, FLIGHTREC_A_INTERVAL, iv);
			nla_put_u32(m, FLIGHTREC_A_SIGNO, SIGSEGV);
			nla_put_u64(m, FLIGHTREC_A_HANDLER, CODE + 0x10);
			nla_put_u64(m, FLIGHTREC_A_SA_FLAGS, 0x04000004);
			nla_put_u64(m, FLIGHTREC_A_RESTORER, CODE + 0x20);
			nla_put_u64(m, FLIGHTREC_A_SA_MASK, 1ull << 9);
			err = feed(a, m);
		}
		if (g->distinct_code) {
			uint8_t c[PG];

			memcpy(c, code_page, PG);
			c[0] ^= i;
			err = err ?: gen_page(a, iv, CODE, FLIGHTREC_PAGE_DATA, c);
		} else {
			err = err ?: gen_page(a, iv, CODE, FLIGHTREC_PAGE_DATA, code_page);
		}
		if (!g->minimal) {
			if (i == 1)
				err = err ?: gen_page(a, iv, HEAP, FLIGHTREC_PAGE_DATA |
						      FLIGHTREC_PAGE_WRITTEN, heap_a);
			if (i == 3)
				err = err ?: gen_page(a, iv, HEAP, FLIGHTREC_PAGE_DATA |
						      FLIGHTREC_PAGE_WRITTEN, heap_b);
			if (i == 0)
				err = err ?: gen_page(a, iv, HEAP2, FLIGHTREC_PAGE_ZERO, NULL);
			if (i == 2)
				err = err ?: gen_page(a, iv, HEAP2, FLIGHTREC_PAGE_DATA, zero);
			err = err ?: gen_page(a, iv, STACK_PG, FLIGHTREC_PAGE_DATA |
					      FLIGHTREC_PAGE_WRITTEN, stack_pg[i]);
		}
		err = err ?: gen_syscalls(a, iv, g->minimal);
		if (g->chunks)
			err = err ?: gen_chunked(a, iv, 10 * i);
	}
	if (!err && !g->no_end) {
		struct nl_msg *m = rec(FLIGHTREC_REC_END);
		struct user_regs_struct u;
		uint8_t x[XSAVE_SIZE];

		make_regs(&u, 99);
		make_xsave(x, 99, g->xstate_bv);
		nla_put_u32(m, FLIGHTREC_A_END_KIND, g->end_kind ?: FLIGHTREC_END_FAULT);
		nla_put_u32(m, FLIGHTREC_A_TID, PID);
		nla_put_u32(m, FLIGHTREC_A_SIGNO, SIGSEGV);
		nla_put_u32(m, FLIGHTREC_A_SI_CODE, 1);
		nla_put_u64(m, FLIGHTREC_A_FAULT_ADDR, 0xdead000);
		nla_put(m, FLIGHTREC_A_REGS, sizeof(u), &u);
		nla_put(m, FLIGHTREC_A_XSAVE, sizeof(x), x);
		nla_put_u32(m, FLIGHTREC_A_EXIT_CODE, 0);
		err = feed(a, m);
	}
	return err;
}

static const struct gen full = {
	.nr_intervals = NIV, .cpuid = true, .xstate_bv = 0x207,
};

static FILE *devnull(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

/* Assembles a dump into dir; the path of the file goes to path. */
static int make_file(const char *dir, const struct gen *g, const char *name,
		     char *path, size_t pathlen, struct fr_asm_stats *st)
{
	struct fr_asm_opts o = { .abi_version = 1, .dump_id = 7, .warn = devnull() };
	char err[512];
	struct fr_asm *a;
	int ret;

	ret = fr_asm_begin(&a, dir, &o, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "fr_asm_begin: %s\n", err);
		return ret;
	}
	ret = gen_dump(a, g);
	if (ret) {
		fprintf(stderr, "gen_dump: %s\n", fr_asm_error(a));
		fr_asm_abort(a);
		return ret;
	}
	ret = fr_asm_finish(a, name, path, pathlen, st, err, sizeof(err));
	if (ret)
		fprintf(stderr, "fr_asm_finish: %s\n", err);
	return ret;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = malloc(st.st_size + 1);
	if (buf && read(fd, buf, st.st_size) != st.st_size) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	*len = st.st_size;
	return buf;
}

static char *tmpdir(void)
{
	const char *t = getenv("TMPDIR");
	char *d;

	if (asprintf(&d, "%s/flrc-test-XXXXXX", t ? t : "/tmp") < 0)
		return NULL;
	return mkdtemp(d);
}

static void rmtree(char *dir)
{
	char *cmd;

	if (dir && asprintf(&cmd, "rm -rf '%s'", dir) >= 0) {
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", dir);
		free(cmd);
	}
	free(dir);
}

FIXTURE(file) {
	char *dir;
	char path[PATH_MAX];
	struct fr_asm_stats st;
	uint8_t *buf;
	size_t len;
};

FIXTURE_SETUP(file)
{
	init_data(false);
	self->dir = tmpdir();
	ASSERT_NE(NULL, self->dir);
	ASSERT_EQ(0, make_file(self->dir, &full, NULL, self->path,
			       sizeof(self->path), &self->st));
	self->buf = slurp(self->path, &self->len);
	ASSERT_NE(NULL, self->buf);
}

FIXTURE_TEARDOWN(file)
{
	free(self->buf);
	rmtree(self->dir);
}

/* The same dump with compressible pages: a small file, for the tests that
 * read it once per byte. */
FIXTURE(small) {
	char *dir;
	char path[PATH_MAX];
	uint8_t *buf;
	size_t len;
};

FIXTURE_SETUP(small)
{
	init_data(true);
	self->dir = tmpdir();
	ASSERT_NE(NULL, self->dir);
	ASSERT_EQ(0, make_file(self->dir, &full, NULL, self->path,
			       sizeof(self->path), NULL));
	self->buf = slurp(self->path, &self->len);
	ASSERT_NE(NULL, self->buf);
}

FIXTURE_TEARDOWN(small)
{
	free(self->buf);
	rmtree(self->dir);
}

static void check_regs(struct __test_metadata *_metadata,
		       const Flightrec__Regs *r, uint32_t iv)
{
	ASSERT_NE(NULL, r);
	EXPECT_EQ(regval(iv, 0), r->r15);
	EXPECT_EQ(regval(iv, 1), r->r14);
	EXPECT_EQ(regval(iv, 2), r->r13);
	EXPECT_EQ(regval(iv, 3), r->r12);
	EXPECT_EQ(regval(iv, 4), r->rbp);
	EXPECT_EQ(regval(iv, 5), r->rbx);
	EXPECT_EQ(regval(iv, 6), r->r11);
	EXPECT_EQ(regval(iv, 7), r->r10);
	EXPECT_EQ(regval(iv, 8), r->r9);
	EXPECT_EQ(regval(iv, 9), r->r8);
	EXPECT_EQ(regval(iv, 10), r->rax);
	EXPECT_EQ(regval(iv, 11), r->rcx);
	EXPECT_EQ(regval(iv, 12), r->rdx);
	EXPECT_EQ(regval(iv, 13), r->rsi);
	EXPECT_EQ(regval(iv, 14), r->rdi);
	EXPECT_EQ(regval(iv, 15), r->orig_rax);
	EXPECT_EQ(regval(iv, 16), r->rip);
	EXPECT_EQ(regval(iv, 17), r->cs);
	EXPECT_EQ(regval(iv, 18), r->eflags);
	EXPECT_EQ(regval(iv, 19), r->rsp);
	EXPECT_EQ(regval(iv, 20), r->ss);
	EXPECT_EQ(regval(iv, 21), r->fs_base);
	EXPECT_EQ(regval(iv, 22), r->gs_base);
	EXPECT_EQ(regval(iv, 23), r->ds);
	EXPECT_EQ(regval(iv, 24), r->es);
	EXPECT_EQ(regval(iv, 25), r->fs);
	EXPECT_EQ(regval(iv, 26), r->gs);
}

static void check_xsave(struct __test_metadata *_metadata,
			const Flightrec__Xsave *x, uint32_t iv, uint64_t bv)
{
	uint8_t ref[XSAVE_SIZE];
	size_t i;

	make_xsave(ref, iv, bv);
	ASSERT_NE(NULL, x);
	EXPECT_EQ(0x37f, x->fcw);
	EXPECT_EQ(0x1200 + iv, x->fsw);
	EXPECT_EQ(0xab, x->ftw);
	EXPECT_EQ(0x55, x->fop);
	EXPECT_EQ(0x1111222233334444ull, x->fip);
	EXPECT_EQ(0x5555666677778888ull, x->fdp);
	EXPECT_EQ(0x1f80, x->mxcsr);
	EXPECT_EQ(0xffff, x->mxcsr_mask);
	EXPECT_EQ(bv, x->xstate_bv);
	EXPECT_EQ(0, x->xcomp_bv);
	EXPECT_EQ(XSAVE_SIZE, x->size);
	ASSERT_EQ(8, x->n_st);
	ASSERT_EQ(16, x->n_xmm);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(0, memcmp(x->st[i].data, ref + 32 + 16 * i, 16));
	for (i = 0; i < 16; i++)
		EXPECT_EQ(0, memcmp(x->xmm[i].data, ref + 160 + 16 * i, 16));
	ASSERT_EQ(bv == 0x207 ? 2 : 1, x->n_components);
	EXPECT_EQ(2, x->components[0]->index);
	EXPECT_STREQ("AVX", x->components[0]->name);
	ASSERT_EQ(256, x->components[0]->data.len);
	EXPECT_EQ(0, memcmp(x->components[0]->data.data, ref + 576, 256));
	if (bv == 0x207) {
		EXPECT_EQ(9, x->components[1]->index);
		EXPECT_STREQ("PKRU", x->components[1]->name);
		ASSERT_EQ(8, x->components[1]->data.len);
		EXPECT_EQ(0, memcmp(x->components[1]->data.data, ref + 2688, 8));
	}
}

TEST_F(file, roundtrip)
{
	char err[512];
	struct flrc *c;
	const Flightrec__Header *h;
	size_t i, k;

	ASSERT_EQ(0, flrc_read(self->path, &c, err, sizeof(err))) TH_LOG("%s", err);
	h = c->hdr;
	EXPECT_EQ(FLRC_FORMAT_VERSION, h->format_version);
	EXPECT_STREQ("Linux", h->system->sysname);
	EXPECT_STREQ("srchost", h->system->nodename);
	EXPECT_STREQ("6.1.0-test", h->system->release);
	EXPECT_STREQ("#1 SMP", h->system->version);
	EXPECT_STREQ("x86_64", h->system->machine);
	EXPECT_EQ(0x207, h->system->xcr0);
	EXPECT_EQ(PG, h->system->page_size);
	ASSERT_EQ(3, h->system->n_cpuid);
	EXPECT_EQ(0xd, h->system->cpuid[1]->leaf);
	EXPECT_EQ(2, h->system->cpuid[1]->subleaf);
	EXPECT_EQ(256, h->system->cpuid[1]->eax);
	EXPECT_EQ(576, h->system->cpuid[1]->ebx);
	EXPECT_EQ(0, h->system->n_cpuid_local);
	EXPECT_EQ(1, h->abi_version);
	EXPECT_EQ(7, h->dump_id);

	EXPECT_EQ(PID, h->process->pid);
	EXPECT_EQ(1, h->process->ppid);
	EXPECT_STREQ("synth", h->process->comm);
	EXPECT_STREQ("/usr/bin/synth", h->process->exe);
	ASSERT_EQ(3, h->process->n_argv);
	EXPECT_STREQ("synth", h->process->argv[0]);
	EXPECT_STREQ("--flag", h->process->argv[1]);
	EXPECT_STREQ("x y", h->process->argv[2]);
	ASSERT_EQ(4, h->process->n_auxv);
	EXPECT_EQ(6, h->process->auxv[0]);
	EXPECT_EQ(4096, h->process->auxv[1]);
	EXPECT_EQ(HEAP, h->process->brk_start);

	ASSERT_EQ(NIV, flrc_nr_intervals(c));
	EXPECT_EQ(0, flrc_first_interval(c));
	for (i = 0; i < NIV; i++) {
		const Flightrec__IntervalInfo *iv = h->intervals[i];

		EXPECT_EQ(i, iv->index);
		EXPECT_EQ(1000000000ull * (i + 1), iv->start_ns);
		EXPECT_EQ(1000000000ull * (i + 2), iv->end_ns);
		EXPECT_EQ(i == NIV - 1 ? FLIGHTREC_IF_PARTIAL : 0, iv->flags);
		EXPECT_EQ(3, iv->nr_syscalls);
		EXPECT_EQ(HEAP + 0x2000, iv->brk);
		EXPECT_EQ(iv, flrc_interval(c, i));
	}
	EXPECT_EQ(NULL, flrc_interval(c, NIV));
	EXPECT_EQ(FLIGHTREC_IF_PARTIAL, h->flags);

	ASSERT_EQ(3 * NIV, c->n_maps);
	for (i = 0; i < c->n_maps; i++) {
		const Flightrec__Map *m = c->maps[i];

		EXPECT_EQ(i / 3, m->interval);
		switch (i % 3) {
		case 0:
			EXPECT_EQ(CODE, m->start);
			EXPECT_EQ(CODE + PG, m->end);
			EXPECT_EQ(5, m->prot);
			EXPECT_EQ(2, m->flags);
			if (self_exe[0]) {
				uint8_t id[64];
				size_t idlen;

				EXPECT_STREQ(self_exe, m->path);
				EXPECT_EQ(self_st.st_ino, m->inode);
				if (!fr_read_build_id(self_exe, 0, 0, id, &idlen)) {
					ASSERT_TRUE(m->has_build_id);
					ASSERT_EQ(idlen, m->build_id.len);
					EXPECT_EQ(0, memcmp(id, m->build_id.data, idlen));
				}
			}
			break;
		case 1:
			EXPECT_EQ(HEAP, m->start);
			EXPECT_STREQ("[heap]", m->path);
			EXPECT_EQ(0x2 | FLIGHTREC_MAPF_ANON | FLIGHTREC_MAPF_HEAP, m->flags);
			EXPECT_FALSE(m->has_build_id);
			break;
		case 2:
			EXPECT_EQ(STACK, m->start);
			EXPECT_EQ(STACK + 0x21000, m->end);
			EXPECT_STREQ("[stack]", m->path);
			break;
		}
	}

	ASSERT_EQ(2 * NIV, c->n_threads);
	for (i = 0; i < c->n_threads; i++) {
		const Flightrec__Thread *t = c->threads[i];
		uint32_t iv = i / 2;

		EXPECT_EQ(iv, t->interval);
		EXPECT_EQ(PID + i % 2, t->tid);
		check_regs(_metadata, t->regs, iv);
		check_xsave(_metadata, t->xsave, iv, 0x207);
		EXPECT_EQ(0x4000 + iv, t->sigmask);
		EXPECT_EQ(2, t->sas_flags);
		EXPECT_EQ(0x7f0000001000ull + t->tid, t->rseq);
		EXPECT_EQ(32, t->rseq_len);
		EXPECT_EQ(0x53053053, t->rseq_sig);
		EXPECT_EQ(0x7f0000002000ull, t->robust_list);
		EXPECT_EQ(24, t->robust_len);
		EXPECT_TRUE(t->has_in_syscall);
		EXPECT_EQ(t->tid == PID ? -1 : 7, t->in_syscall);
	}

	ASSERT_EQ(NIV, c->n_sigactions);
	for (i = 0; i < NIV; i++) {
		EXPECT_EQ(i, c->sigactions[i]->interval);
		EXPECT_EQ(SIGSEGV, c->sigactions[i]->signo);
		EXPECT_EQ(CODE + 0x10, c->sigactions[i]->handler);
		EXPECT_EQ(0x04000004, c->sigactions[i]->flags);
		EXPECT_EQ(CODE + 0x20, c->sigactions[i]->restorer);
		EXPECT_EQ(1ull << 9, c->sigactions[i]->mask);
	}

	/* Every page, byte for byte, in (interval, addr) order. */
	ASSERT_EQ(12, c->n_pages);
	for (i = 1; i < c->n_pages; i++)
		EXPECT_TRUE(c->pages[i - 1].interval < c->pages[i].interval ||
			    (c->pages[i - 1].interval == c->pages[i].interval &&
			     c->pages[i - 1].addr < c->pages[i].addr));
	for (i = 0; i < c->n_pages; i++) {
		const struct flrc_page *p = &c->pages[i];
		const uint8_t *want = NULL;

		if (p->addr == CODE)
			want = code_page;
		else if (p->addr == HEAP)
			want = p->interval == 1 ? heap_a : heap_b;
		else if (p->addr == STACK_PG)
			want = stack_pg[p->interval];
		if (want) {
			ASSERT_FALSE(p->zero);
			ASSERT_NE(NULL, p->data);
			EXPECT_EQ(0, memcmp(want, p->data, PG));
		} else {
			EXPECT_EQ(HEAP2, p->addr);
			EXPECT_TRUE(p->zero);
			EXPECT_EQ(NULL, p->data);
		}
		EXPECT_TRUE(p->flags & (FLIGHTREC_PAGE_DATA | FLIGHTREC_PAGE_ZERO));
	}

	ASSERT_EQ(3 * NIV, c->n_syscalls);
	for (i = 0; i < c->n_syscalls; i++) {
		const Flightrec__Syscall *s = c->syscalls[i];
		uint32_t iv = i / 3;

		EXPECT_EQ(iv, s->interval);
		EXPECT_EQ(10 * iv + i % 3 + 1, s->seq);
		ASSERT_EQ(6, s->n_args);
		switch (i % 3) {
		case 0:
			EXPECT_EQ(1, s->nr);
			EXPECT_EQ(PID, s->tid);
			EXPECT_EQ(5, s->ret);
			EXPECT_EQ(1, s->args[0]);
			EXPECT_EQ(HEAP + 0x100, s->args[1]);
			EXPECT_EQ(5, s->args[2]);
			EXPECT_EQ(0, s->n_out);
			break;
		case 1:
			EXPECT_EQ(0, s->nr);
			EXPECT_EQ(PID + 1, s->tid);
			EXPECT_EQ(3, s->ret);
			ASSERT_EQ(1, s->n_out);
			EXPECT_EQ(1, s->out[0]->arg);
			EXPECT_EQ(HEAP + 0x200, s->out[0]->addr);
			ASSERT_EQ(3, s->out[0]->data.len);
			EXPECT_EQ(0, memcmp("abc", s->out[0]->data.data, 3));
			break;
		case 2:
			EXPECT_EQ(7, s->nr);
			EXPECT_EQ(-4, s->ret);
			EXPECT_EQ(iv == 2 ? FLIGHTREC_SC_TRUNCATED : 0, s->flags);
			ASSERT_EQ(2, s->n_out);
			EXPECT_EQ(0, s->out[0]->arg);
			EXPECT_EQ(HEAP + 0x300, s->out[0]->addr);
			ASSERT_EQ(8, s->out[0]->data.len);
			EXPECT_EQ(0, memcmp("12345678", s->out[0]->data.data, 8));
			EXPECT_EQ(FLIGHTREC_OUT_ARG_DERIVED, s->out[1]->arg);
			EXPECT_EQ(HEAP + 0x400, s->out[1]->addr);
			ASSERT_EQ(4, s->out[1]->data.len);
			EXPECT_EQ(0, memcmp("wxyz", s->out[1]->data.data, 4));
			break;
		}
	}

	ASSERT_NE(NULL, c->end);
	EXPECT_EQ(FLIGHTREC_END_FAULT, c->end->kind);
	EXPECT_EQ(PID, c->end->tid);
	EXPECT_EQ(SIGSEGV, c->end->signo);
	EXPECT_EQ(1, c->end->si_code);
	EXPECT_EQ(0xdead000, c->end->fault_addr);
	EXPECT_EQ(10 * (NIV - 1) + 3, c->end->last_seq);
	check_regs(_metadata, c->end->regs, 99);
	check_xsave(_metadata, c->end->xsave, 99, 0x207);
	(void)k;
	flrc_free(c);
}

/* A page read in 1 and written in 3 (bytes differ): the right bytes from
 * every start; a page only in interval 0 and 2: not there from 3 on. */
TEST_F(file, splice)
{
	char err[512];
	struct flrc *c;
	const struct flrc_page *p;
	uint32_t from;

	ASSERT_EQ(0, flrc_read_mem(self->buf, self->len, &c, err, sizeof(err)))
		TH_LOG("%s", err);
	for (from = 0; from < NIV; from++) {
		p = flrc_page_at(c, from, HEAP);
		ASSERT_NE(NULL, p);
		EXPECT_EQ(from <= 1 ? 1 : 3, p->interval);
		EXPECT_EQ(0, memcmp(from <= 1 ? heap_a : heap_b, p->data, PG));
		/* any address in the page finds it */
		EXPECT_EQ(p, flrc_page_at(c, from, HEAP + 123));

		p = flrc_page_at(c, from, CODE);
		ASSERT_NE(NULL, p);
		EXPECT_EQ(from, p->interval);
		EXPECT_EQ(0, memcmp(code_page, p->data, PG));

		p = flrc_page_at(c, from, STACK_PG);
		ASSERT_NE(NULL, p);
		EXPECT_EQ(from, p->interval);
		EXPECT_EQ(0, memcmp(stack_pg[from], p->data, PG));

		p = flrc_page_at(c, from, HEAP2);
		if (from <= 2) {
			ASSERT_NE(NULL, p);
			EXPECT_EQ(from == 0 ? 0 : 2, p->interval);
			EXPECT_TRUE(p->zero);
		} else {
			EXPECT_EQ(NULL, p);
		}
	}
	EXPECT_EQ(NULL, flrc_page_at(c, NIV, HEAP));
	EXPECT_EQ(NULL, flrc_page_at(c, 0, 0x500000));
	EXPECT_EQ(NULL, flrc_page_at(c, 0, 0));
	flrc_free(c);
}

/* Identical pages are stored once; zero pages are markers. */
TEST_F(file, dedup)
{
	char err[512];
	struct flrc *c;
	const uint8_t *first = NULL;
	size_t i, n = 0;

	EXPECT_EQ(12, self->st.pages);
	EXPECT_EQ(7, self->st.pages_data);	/* code once, heap 2, stack 4 */
	EXPECT_EQ(3, self->st.pages_same);	/* code in intervals 1..3 */
	EXPECT_EQ(2, self->st.pages_zero);
	EXPECT_EQ(self->len, self->st.file_bytes);
	/* The pages are random: the same dump with 4 different code pages
	 * is 3 pages bigger. */
	{
		struct gen g = full;
		struct fr_asm_stats st2;
		char p2[PATH_MAX];

		g.distinct_code = true;
		ASSERT_EQ(0, make_file(self->dir, &g, "distinct.flrc", p2,
				       sizeof(p2), &st2));
		EXPECT_EQ(10, st2.pages_data);
		EXPECT_EQ(0, st2.pages_same);
		EXPECT_GE(st2.file_bytes, self->len + 3 * PG);
		EXPECT_LT(st2.file_bytes, self->len + 3 * (PG + 64));
		TH_LOG("deduplicated %zu bytes, not %llu", self->len,
		       (unsigned long long)st2.file_bytes);
	}

	ASSERT_EQ(0, flrc_read_mem(self->buf, self->len, &c, err, sizeof(err)));
	for (i = 0; i < c->n_pages; i++) {
		if (c->pages[i].addr != CODE)
			continue;
		n++;
		if (!first)
			first = c->pages[i].data;
		EXPECT_EQ(first, c->pages[i].data);	/* one copy in memory too */
	}
	EXPECT_EQ(NIV, n);
	flrc_free(c);
}

/*
 * Every page's hash is its bytes' (the replay image dedups by it without
 * decompressing each page again), the same in both read modes, a SAME_AS
 * page's is its original's, and its frame is the one in the file.
 */
TEST_F(file, page_hash_and_frame)
{
	static const unsigned int modes[] = { 0, FLRC_LAZY_PAGES };
	uint8_t bytes[PG], zeros[PG] = { 0 };
	size_t i, m, n_data = 0, n_zero = 0, same = 0;
	struct flrc *c;
	char err[512];

	for (m = 0; m < 2; m++) {
		ASSERT_EQ(0, flrc_read_mem_flags(self->buf, self->len, modes[m], &c,
						 err, sizeof(err))) TH_LOG("%s", err);
		for (i = 0; i < c->n_pages; i++) {
			const struct flrc_page *p = &c->pages[i];

			ASSERT_EQ(0, flrc_page_load(c, p, bytes));
			if (p->zero) {
				EXPECT_EQ(0, p->hash);
				EXPECT_EQ(0, memcmp(bytes, zeros, PG));
				n_zero++;
				continue;
			}
			EXPECT_EQ(flrc_hash(bytes, PG), p->hash);
			/* the frame lies in the file's bytes */
			ASSERT_NE(NULL, p->zframe);
			EXPECT_TRUE(p->zframe >= self->buf &&
				    p->zframe + p->zframe_len <= self->buf + self->len);
			if (!p->stored)
				same++;	/* SAME_AS: the original's frame */
			n_data++;
		}
		flrc_free(c);
	}
	EXPECT_EQ(2 * (self->st.pages_data + self->st.pages_same), n_data);
	EXPECT_EQ(2 * self->st.pages_same, same);
	EXPECT_EQ(2 * self->st.pages_zero, n_zero);
}

/* A dump into an assembler, not yet written. */
static struct fr_asm *gen_asm(const char *dir, const struct gen *g)
{
	struct fr_asm_opts o = { .abi_version = 1, .dump_id = 7, .warn = devnull() };
	char err[512];
	struct fr_asm *a;

	if (fr_asm_begin(&a, dir, &o, err, sizeof(err)))
		return NULL;
	if (gen_dump(a, g)) {
		fr_asm_abort(a);
		return NULL;
	}
	return a;
}

/*
 * A process that exec'd (issue 25, class 4): the image before the exec is
 * a dump of its own, named by the next one's PREV_DUMP, and the file holds
 * both, the first ending with an End of kind EXEC.  flrc_read() gives the
 * last image with the first at before_exec.  Before the change the reader
 * refused the second header ("header after end").
 */
TEST(images)
{
	struct gen g1 = full, g2 = full;
	char path[PATH_MAX], err[512], *dir = tmpdir();
	struct fr_asm *a1, *a2;
	struct fr_asm_stats st;
	uint8_t *buf;
	struct flrc *c;
	size_t len, i;

	ASSERT_NE(NULL, dir);
	init_data(false);
	g1.nr_intervals = 3;
	g1.end_kind = FLIGHTREC_END_EXEC;
	g2.first_iv = 5;
	g2.nr_intervals = 2;
	g2.prev_dump = 6;
	a1 = gen_asm(dir, &g1);
	a2 = gen_asm(dir, &g2);
	ASSERT_NE(NULL, a1);
	ASSERT_NE(NULL, a2);
	EXPECT_EQ(6, fr_asm_prev_dump(a2));
	EXPECT_EQ(0, fr_asm_prev_dump(a1));
	fr_asm_set_before_exec(a2, a1);
	ASSERT_EQ(0, fr_asm_finish(a2, "two.flrc", path, sizeof(path), &st, err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_EQ(5, st.intervals);
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_NE(NULL, c->before_exec);
	EXPECT_EQ(NULL, c->before_exec->before_exec);
	EXPECT_EQ(FLIGHTREC_END_EXEC, c->before_exec->end->kind);
	EXPECT_EQ(FLIGHTREC_END_FAULT, c->end->kind);
	ASSERT_EQ(3, c->before_exec->hdr->n_intervals);
	ASSERT_EQ(2, c->hdr->n_intervals);
	EXPECT_EQ(0, c->before_exec->hdr->intervals[0]->index);
	EXPECT_EQ(5, c->hdr->intervals[0]->index);
	/* each image's pages, syscalls and threads are its own */
	for (i = 0; i < c->before_exec->n_pages; i++)
		EXPECT_GT(5, c->before_exec->pages[i].interval);
	for (i = 0; i < c->n_pages; i++)
		EXPECT_LE(5, c->pages[i].interval);
	for (i = 0; i < c->n_syscalls; i++)
		EXPECT_LE(5, c->syscalls[i]->interval);
	EXPECT_LT(0, c->before_exec->n_syscalls);
	EXPECT_EQ(4, c->n_threads);
	flrc_free(c);
	buf = slurp(path, &len);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, flrc_read_mem(buf, len, &c, err, sizeof(err))) TH_LOG("%s", err);
	flrc_free(c);

	/*
	 * refused: a header after an end that is not an exec's (the writer
	 * refuses to write one; made here from two files)
	 */
	{
		size_t l1, l2;
		uint8_t *b1, *b2, *cat;

		g1.end_kind = FLIGHTREC_END_DUMP;
		a1 = gen_asm(dir, &g1);
		a2 = gen_asm(dir, &g2);
		ASSERT_NE(NULL, a1);
		ASSERT_NE(NULL, a2);
		fr_asm_set_before_exec(a2, a1);
		EXPECT_EQ(-EINVAL, fr_asm_finish(a2, "dump.flrc", path, sizeof(path), &st, err,
						 sizeof(err)));
		EXPECT_NE(NULL, strstr(err, "header after end")) TH_LOG("%s", err);
		ASSERT_EQ(0, make_file(dir, &g1, "d1.flrc", path, sizeof(path), &st));
		b1 = slurp(path, &l1);
		ASSERT_EQ(0, make_file(dir, &g2, "d2.flrc", path, sizeof(path), &st));
		b2 = slurp(path, &l2);
		ASSERT_NE(NULL, b1);
		ASSERT_NE(NULL, b2);
		cat = malloc(l1 + l2);
		ASSERT_NE(NULL, cat);
		memcpy(cat, b1, l1);
		memcpy(cat + l1, b2 + 8, l2 - 8);
		EXPECT_EQ(-EBADMSG, flrc_read_mem(cat, l1 + l2 - 8, &c, err, sizeof(err)));
		EXPECT_NE(NULL, strstr(err, "header after end")) TH_LOG("%s", err);
		free(cat);
		free(b1);
		free(b2);
	}
	/* refused: another pid */
	g1.end_kind = FLIGHTREC_END_EXEC;
	g2.pid = PID + 50;
	a1 = gen_asm(dir, &g1);
	a2 = gen_asm(dir, &g2);
	fr_asm_set_before_exec(a2, a1);
	ASSERT_EQ(0, fr_asm_finish(a2, "pid.flrc", path, sizeof(path), &st, err, sizeof(err)));
	EXPECT_EQ(-EBADMSG, flrc_read(path, &c, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "image 2 is of pid")) TH_LOG("%s", err);
	/* refused: intervals that do not come after the image before */
	g2.pid = 0;
	g2.first_iv = 2;
	a1 = gen_asm(dir, &g1);
	a2 = gen_asm(dir, &g2);
	fr_asm_set_before_exec(a2, a1);
	ASSERT_EQ(0, fr_asm_finish(a2, "order.flrc", path, sizeof(path), &st, err, sizeof(err)));
	EXPECT_EQ(-EBADMSG, flrc_read(path, &c, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "starts at interval 2, not after")) TH_LOG("%s", err);
	/* refused: more images than the module keeps intervals (65 of one each) */
	{
		struct fr_asm *prev = NULL, *cur;
		int n;

		g1.nr_intervals = 1;
		g1.minimal = true;
		for (n = 0; n < 65; n++) {
			g1.first_iv = n;
			g1.end_kind = n < 64 ? FLIGHTREC_END_EXEC : FLIGHTREC_END_FAULT;
			cur = gen_asm(dir, &g1);
			ASSERT_NE(NULL, cur);
			if (prev)
				fr_asm_set_before_exec(cur, prev);
			prev = cur;
		}
		ASSERT_EQ(0, fr_asm_finish(prev, "many.flrc", path, sizeof(path), &st, err,
					   sizeof(err))) TH_LOG("%s", err);
		EXPECT_EQ(-EBADMSG, flrc_read(path, &c, err, sizeof(err)));
		EXPECT_NE(NULL, strstr(err, "more than 64 images")) TH_LOG("%s", err);
	}
	free(buf);
	rmtree(dir);
}

/* Compressible pages get smaller. */
TEST(compression)
{
	struct fr_asm_stats st;
	char path[PATH_MAX];
	char *dir = tmpdir();

	init_data(true);
	ASSERT_NE(NULL, dir);
	ASSERT_EQ(0, make_file(dir, &full, NULL, path, sizeof(path), &st));
	EXPECT_EQ(7, st.pages_data);
	EXPECT_LT(st.zbytes, 7 * PG / 10) TH_LOG("%llu compressed bytes",
						 (unsigned long long)st.zbytes);
	TH_LOG("synthetic dump: %llu pages, %llu stored, %llu compressed bytes, file %llu bytes",
	       (unsigned long long)st.pages, (unsigned long long)st.pages_data,
	       (unsigned long long)st.zbytes, (unsigned long long)st.file_bytes);
	rmtree(dir);
}

static void check_mode(struct __test_metadata *_metadata, mode_t mask)
{
	char path[PATH_MAX];
	struct stat st;
	char *dir = tmpdir();

	ASSERT_NE(NULL, dir);
	umask(mask);
	ASSERT_EQ(0, make_file(dir, &full, NULL, path, sizeof(path), NULL));
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(0600, st.st_mode & 07777) TH_LOG("mode %o with umask %o",
						   st.st_mode & 07777, mask);
	rmtree(dir);
}

TEST(mode_0600)
{
	init_data(false);
	check_mode(_metadata, 0);
	check_mode(_metadata, 022);
	check_mode(_metadata, 0777);
}

/* Files are never replaced; no temporary file stays behind. */
TEST(no_overwrite)
{
	char p1[PATH_MAX], p2[PATH_MAX], p3[PATH_MAX], *dir = tmpdir();
	char *want;
	struct stat st;
	int n = 0;
	FILE *ls;
	char line[PATH_MAX], *cmd;

	init_data(true);
	ASSERT_NE(NULL, dir);
	ASSERT_EQ(0, make_file(dir, &full, NULL, p1, sizeof(p1), NULL));
	ASSERT_EQ(0, make_file(dir, &full, NULL, p2, sizeof(p2), NULL));
	ASSERT_EQ(0, make_file(dir, &full, "x.flrc", p3, sizeof(p3), NULL));
	ASSERT_LE(0, asprintf(&want, "%s/%u-7.flrc", dir, PID));
	EXPECT_STREQ(want, p1);
	free(want);
	ASSERT_LE(0, asprintf(&want, "%s/%u-7.1.flrc", dir, PID));
	EXPECT_STREQ(want, p2);
	free(want);
	EXPECT_EQ(0, stat(p3, &st));
	ASSERT_LE(0, asprintf(&cmd, "ls -A '%s'", dir));
	ls = popen(cmd, "r");
	ASSERT_NE(NULL, ls);
	while (fgets(line, sizeof(line), ls)) {
		n++;
		EXPECT_NE('.', line[0]) TH_LOG("left behind: %s", line);
	}
	pclose(ls);
	free(cmd);
	EXPECT_EQ(3, n);
	rmtree(dir);
}

/* Without leaf 0xd recorded, the layout comes from this CPU (and says so). */
TEST(cpuid_fallback)
{
	struct gen g = full;
	char path[PATH_MAX], err[512], *dir = tmpdir();
	struct flrc *c;

	init_data(true);
	g.cpuid = false;
	g.xstate_bv = 0x7;		/* AVX is at 576 on every x86 CPU */
	ASSERT_NE(NULL, dir);
	ASSERT_EQ(0, make_file(dir, &g, NULL, path, sizeof(path), NULL));
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(1, c->hdr->system->n_cpuid);
	check_xsave(_metadata, c->threads[0]->xsave, 0, 0x7);
	flrc_free(c);
	rmtree(dir);
}

/* Out-buffers larger than FLIGHTREC_OUT_CHUNK come in pieces. */
TEST(out_chunks)
{
	struct gen g = full;
	struct fr_asm_stats st;
	char path[PATH_MAX], err[512], *dir = tmpdir();
	const Flightrec__Syscall *s;
	struct flrc *c;
	size_t i;

	init_data(true);
	g.minimal = true;
	g.nr_intervals = 1;
	g.chunks = true;
	ASSERT_NE(NULL, dir);
	ASSERT_EQ(0, make_file(dir, &g, NULL, path, sizeof(path), &st));
	EXPECT_EQ(0, st.dropped);
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(3, c->n_syscalls);
	s = c->syscalls[1];
	EXPECT_EQ(2, s->seq);
	EXPECT_EQ(0, s->flags & FLIGHTREC_SC_TRUNCATED);
	ASSERT_EQ(1, s->n_out);
	EXPECT_EQ(1, s->out[0]->arg);
	EXPECT_EQ(HEAP, s->out[0]->addr);
	ASSERT_EQ(BIG, s->out[0]->data.len);
	for (i = 0; i < BIG; i++)
		if (s->out[0]->data.data[i] != big_byte(i))
			break;
	EXPECT_EQ(BIG, i);
	s = c->syscalls[2];
	EXPECT_EQ(3, s->seq);
	EXPECT_TRUE(s->flags & FLIGHTREC_SC_TRUNCATED);
	ASSERT_EQ(1, s->n_out);
	EXPECT_EQ(FLIGHTREC_OUT_CHUNK, s->out[0]->data.len);
	EXPECT_EQ(3, c->end->last_seq);
	flrc_free(c);
	rmtree(dir);
}

/*
 * A command line in CMDLINE_CHUNK records is put together byte for byte;
 * with a piece missing it is left out, counted and said, never made up.
 */
TEST(cmdline_chunks)
{
	struct gen g = full;
	struct fr_asm_stats st;
	char path[PATH_MAX], err[512], *dir = tmpdir();
	const char *lc = long_cmdline();
	struct flrc *c;

	init_data(true);
	g.minimal = true;
	g.nr_intervals = 1;
	g.cmdline_chunks = 1;
	ASSERT_NE(NULL, dir);
	ASSERT_EQ(0, make_file(dir, &g, NULL, path, sizeof(path), &st));
	EXPECT_EQ(0, st.dropped);
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(3, c->hdr->process->n_argv);
	EXPECT_STREQ("synth", c->hdr->process->argv[0]);
	EXPECT_EQ(0, strcmp(lc + 6, c->hdr->process->argv[1]));
	EXPECT_EQ(LONG_CMDLINE - 11, strlen(c->hdr->process->argv[1]));
	EXPECT_STREQ("x y", c->hdr->process->argv[2]);
	flrc_free(c);
	rmtree(dir);

	dir = tmpdir();
	g.cmdline_chunks = 2;
	ASSERT_NE(NULL, dir);
	ASSERT_EQ(0, make_file(dir, &g, NULL, path, sizeof(path), &st));
	/* the piece after the gap */
	EXPECT_EQ(1, st.dropped);
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(0, c->hdr->process->n_argv);
	flrc_free(c);
	rmtree(dir);
}

/* A dump without an END record still gets an end entry. */
TEST(no_end_record)
{
	struct gen g = full;
	char path[PATH_MAX], err[512], *dir = tmpdir();
	struct flrc *c;

	init_data(true);
	g.no_end = true;
	ASSERT_NE(NULL, dir);
	ASSERT_EQ(0, make_file(dir, &g, NULL, path, sizeof(path), NULL));
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_NE(NULL, c->end);
	EXPECT_EQ(FLIGHTREC_END_UNSPEC, c->end->kind);
	flrc_free(c);
	rmtree(dir);
}

/*
 * How read_buf() reads: 0, or FLRC_LAZY_PAGES | FLRC_CHECK_ON_LOAD (then it
 * loads every page, and a page that does not load is its error).
 */
static unsigned int read_flags;

static int read_buf(const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	static uint8_t page[PG];
	struct flrc *c;
	int ret = flrc_read_mem_flags(buf, len, read_flags, &c, err, errlen);

	if (!ret && (read_flags & FLRC_CHECK_ON_LOAD)) {
		size_t i;

		for (i = 0; !ret && i < c->n_pages; i++) {
			ret = flrc_page_load(c, &c->pages[i], page);
			if (ret)
				flrc_page_error(c, &c->pages[i], page, err, errlen);
		}
		flrc_free(c);
		return ret;
	}

	if (!ret) {
		/* walk what was read, so a bad pointer would show */
		size_t i;
		volatile uint8_t sink = 0;

		for (i = 0; i < c->n_pages; i++)
			if (c->pages[i].data)
				sink ^= c->pages[i].data[PG - 1];
		(void)sink;
		flrc_free(c);
	}
	return ret;
}

/* Cut anywhere: always an error, never a crash. */
TEST_F_TIMEOUT(small, truncated, 300)
{
	char err[512];
	size_t n;
	uint8_t *copy;

	for (n = 0; n < self->len; n++) {
		/* a copy of exactly n bytes, so ASan sees any overread */
		copy = malloc(n ? n : 1);
		ASSERT_NE(NULL, copy);
		memcpy(copy, self->buf, n);
		err[0] = '\0';
		ASSERT_EQ(-EBADMSG, read_buf(copy, n, err, sizeof(err)))
			TH_LOG("truncated at %zu: accepted", n);
		ASSERT_NE('\0', err[0]);
		free(copy);
	}
	ASSERT_EQ(0, read_buf(self->buf, self->len, err, sizeof(err)));
}

/* Any byte changed: valid or an error, never a crash. */
TEST_F_TIMEOUT(small, flipped, 300)
{
	static const uint8_t xors[] = { 0xff, 0x01, 0x80 };
	char err[512];
	size_t i, x, bad = 0;

	for (x = 0; x < sizeof(xors); x++) {
		for (i = 0; i < self->len; i++) {
			int ret;

			self->buf[i] ^= xors[x];
			ret = read_buf(self->buf, self->len, err, sizeof(err));
			self->buf[i] ^= xors[x];
			ASSERT_TRUE(ret == 0 || ret == -EBADMSG)
				TH_LOG("offset %zu: %d", i, ret);
			bad += ret != 0;
		}
	}
	/* page data has a content hash, lengths and tags are checked; a
	 * changed register is still a valid file */
	EXPECT_GT(bad * 4, 3 * self->len);
	TH_LOG("%zu of %zu changed files rejected", bad, 3 * self->len);
}

static uint32_t le32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* Lengths that lie: an error naming the offset. */
TEST_F(small, hostile_lengths)
{
	static const uint32_t lies[] = {
		0xffffffffu, FLRC_MAX_ENTRY + 1, 0x7fffffffu,
	};
	char err[512], want[64];
	size_t off = 8, i;
	int entries = 0;

	/* each entry's length, in turn */
	while (off + 4 <= self->len && entries < 64) {
		uint32_t len = le32_at(self->buf + off);

		for (i = 0; i < sizeof(lies) / sizeof(lies[0]); i++) {
			put32(self->buf + off, lies[i]);
			ASSERT_EQ(-EBADMSG, read_buf(self->buf, self->len, err,
						     sizeof(err)));
			snprintf(want, sizeof(want), "offset %zu:", off);
			EXPECT_EQ(0, strncmp(err, want, strlen(want))) TH_LOG("%s", err);
		}
		put32(self->buf + off, (uint32_t)(self->len - off - 4 + 1));
		ASSERT_EQ(-EBADMSG, read_buf(self->buf, self->len, err, sizeof(err)));
		EXPECT_NE(NULL, strstr(err, "exceeds the")) TH_LOG("%s", err);
		put32(self->buf + off, len);
		off += 4 + len;
		entries++;
	}
	ASSERT_EQ(self->len, off);
	ASSERT_EQ(0, read_buf(self->buf, self->len, err, sizeof(err)));
}

TEST(bad_heads)
{
	uint8_t b[16] = { 0 };
	char err[512];

	EXPECT_EQ(-EBADMSG, read_buf(b, 0, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "too short"));
	EXPECT_EQ(-EBADMSG, read_buf(b, 16, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "bad magic")) TH_LOG("%s", err);
	put32(b, FLRC_MAGIC);
	put32(b + 4, FLRC_FORMAT_VERSION + 1);
	EXPECT_EQ(-EBADMSG, read_buf(b, 16, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "newer")) TH_LOG("%s", err);
	put32(b + 4, FLRC_FORMAT_VERSION);
	EXPECT_EQ(-EBADMSG, read_buf(b, 8, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "no entries")) TH_LOG("%s", err);
	/* a zero-length entry: an empty Entry, not a header */
	EXPECT_EQ(-EBADMSG, read_buf(b, 12, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "not the header")) TH_LOG("%s", err);
	/* a file that is not regular, and one that is missing */
	EXPECT_EQ(-EBADMSG, flrc_read("/", &(struct flrc *){ NULL }, err, sizeof(err)));
	EXPECT_EQ(-ENOENT, flrc_read("/nonexistent/x.flrc", &(struct flrc *){ NULL },
				     err, sizeof(err)));
}

/* ---- files written entry by entry, to break one rule each ---- */

struct craft {
	Flightrec__Header h;
	Flightrec__SystemInfo s;
	Flightrec__ProcessInfo p;
	Flightrec__IntervalInfo iv[2], *ivp[2];
};

static void craft_init(struct craft *k)
{
	flightrec__header__init(&k->h);
	flightrec__system_info__init(&k->s);
	flightrec__process_info__init(&k->p);
	flightrec__interval_info__init(&k->iv[0]);
	flightrec__interval_info__init(&k->iv[1]);
	k->iv[0].index = 5;
	k->iv[1].index = 6;
	k->ivp[0] = &k->iv[0];
	k->ivp[1] = &k->iv[1];
	k->h.format_version = FLRC_FORMAT_VERSION;
	k->h.system = &k->s;
	k->h.process = &k->p;
	k->h.n_intervals = 2;
	k->h.intervals = k->ivp;
	k->p.pid = 1;
}

enum breakage {
	OK, PAGE_UNALIGNED, PAGE_NO_INTERVAL, PAGE_TWICE, ZSTD_SHORT,
	ZSTD_NOSIZE, ZSTD_TRAILING, SAME_AS_MISSING, HASH_WRONG, NO_END,
	INTERVALS_UNSORTED, MAP_OVERLAP, SEQ_BACKWARDS, THREAD_TWICE,
	END_NOT_LAST, CPUID_SITES_UNSORTED, CPUID_SITE_KERNEL,
	BYTES_WRONG,	/* the stored bytes are not those the hash is of */
};

static int crafted(enum breakage b, char *err, size_t errlen)
{
	Flightrec__Entry e = FLIGHTREC__ENTRY__INIT;
	Flightrec__Map m[2] = { FLIGHTREC__MAP__INIT, FLIGHTREC__MAP__INIT };
	Flightrec__Thread t = FLIGHTREC__THREAD__INIT;
	Flightrec__Regs r = FLIGHTREC__REGS__INIT;
	Flightrec__Page pg = FLIGHTREC__PAGE__INIT;
	Flightrec__Syscall sc = FLIGHTREC__SYSCALL__INIT;
	Flightrec__End end = FLIGHTREC__END__INIT;
	struct flrc_writer *w;
	struct craft k;
	uint8_t page[PG], z[PG + 64];
	size_t zn, len;
	char path[PATH_MAX], *dir = tmpdir();
	uint8_t *buf;
	int ret, i;

	craft_init(&k);
	if (b == INTERVALS_UNSORTED)
		k.iv[1].index = 4;
	{
		static uint64_t sites[2][2] = {
			{ 0x401000, 0x400ff0 },			/* descending */
			{ 0x401000, 0xffffffff81000000ull },	/* the kernel's */
		};

		if (b == CPUID_SITES_UNSORTED || b == CPUID_SITE_KERNEL) {
			k.p.n_cpuid_sites = 2;
			k.p.cpuid_sites = sites[b == CPUID_SITE_KERNEL];
		}
	}
	memset(page, 0x5a, PG);
	page[100] ^= b == BYTES_WRONG;
	zn = ZSTD_compress(z, sizeof(z), page, b == ZSTD_SHORT ? PG - 1 : PG, 3);
	page[100] = 0x5a;
	if (b == ZSTD_NOSIZE) {
		ZSTD_CCtx *cc = ZSTD_createCCtx();

		ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0);
		/* streaming with no pledged size: the frame says nothing */
		{
			ZSTD_outBuffer o = { z, sizeof(z), 0 };
			ZSTD_inBuffer in = { page, PG, 0 };

			ZSTD_compressStream2(cc, &o, &in, ZSTD_e_end);
			zn = o.pos;
		}
		ZSTD_freeCCtx(cc);
	}
	if (b == ZSTD_TRAILING)
		z[zn++] = 0;

	if (flrc_writer_begin(&w, dir, "c.flrc", err, errlen))
		return -1;
	e.e_case = FLIGHTREC__ENTRY__E_HEADER;
	e.header = &k.h;
	flrc_writer_add(w, &e);

	for (i = 0; i < 2; i++) {
		m[i].interval = 5;
		m[i].start = 0x1000 * (i + 1);
		m[i].end = m[i].start + (b == MAP_OVERLAP ? 0x2000 : 0x1000);
		e.e_case = FLIGHTREC__ENTRY__E_MAP;
		e.map = &m[i];
		flrc_writer_add(w, &e);
	}
	t.interval = 5;
	t.tid = 1;
	t.regs = &r;
	e.e_case = FLIGHTREC__ENTRY__E_THREAD;
	e.thread = &t;
	flrc_writer_add(w, &e);
	if (b == THREAD_TWICE)
		flrc_writer_add(w, &e);

	pg.addr = b == PAGE_UNALIGNED ? 0x1010 : 0x1000;
	pg.interval = b == PAGE_NO_INTERVAL ? 7 : 5;
	pg.kind = FLIGHTREC__PAGE_KIND__PAGE_DATA;
	pg.has_zdata = 1;
	pg.zdata.data = z;
	pg.zdata.len = zn;
	pg.has_hash = 1;
	pg.hash = flrc_hash(page, PG) ^ (b == HASH_WRONG);
	e.e_case = FLIGHTREC__ENTRY__E_PAGE;
	e.page = &pg;
	flrc_writer_add(w, &e);
	if (b == PAGE_TWICE)
		flrc_writer_add(w, &e);
	pg.interval = 6;
	pg.kind = FLIGHTREC__PAGE_KIND__PAGE_SAME_AS;
	pg.has_zdata = 0;
	pg.has_same_as = 1;
	pg.same_as = flrc_hash(page, PG) ^ (b == SAME_AS_MISSING);
	flrc_writer_add(w, &e);

	sc.interval = 6;
	sc.seq = 10;
	sc.tid = 1;
	e.e_case = FLIGHTREC__ENTRY__E_SYSCALL;
	e.syscall = &sc;
	flrc_writer_add(w, &e);
	sc.seq = b == SEQ_BACKWARDS ? 9 : 11;
	flrc_writer_add(w, &e);

	if (b != NO_END) {
		e.e_case = FLIGHTREC__ENTRY__E_END;
		e.end = &end;
		flrc_writer_add(w, &e);
	}
	ret = flrc_writer_finish(w, path, sizeof(path), err, errlen);
	if (ret)
		return -1;
	buf = slurp(path, &len);
	if (buf && b == END_NOT_LAST) {
		/* a copy of the last syscall entry after the end entry */
		size_t off = 8, sc = 0, l;
		uint8_t *nb;

		while (off < len) {
			if (buf[off + 4] == (7 << 3 | 2))
				sc = off;
			off += 4 + le32_at(buf + off);
		}
		l = 4 + le32_at(buf + sc);
		nb = realloc(buf, len + l);
		if (nb) {
			buf = nb;
			memcpy(buf + len, buf + sc, l);
			len += l;
		}
	}
	ret = read_buf(buf, len, err, errlen);
	free(buf);
	rmtree(dir);
	return ret;
}

TEST(semantic_checks)
{
	static const struct { enum breakage b; const char *msg; } cases[] = {
		{ PAGE_UNALIGNED, "not page-aligned" },
		{ PAGE_NO_INTERVAL, "does not list" },
		{ PAGE_TWICE, "twice in interval 5" },
		{ ZSTD_SHORT, "holds 4095 bytes" },
		{ ZSTD_NOSIZE, "without a content size" },
		{ ZSTD_TRAILING, "not exactly one frame" },
		{ SAME_AS_MISSING, "matches no earlier page" },
		{ HASH_WRONG, "hash mismatch" },
		{ BYTES_WRONG, "page 0x1000: content hash mismatch" },
		{ NO_END, "no end entry" },
		{ INTERVALS_UNSORTED, "must increase" },
		{ MAP_OVERLAP, "overlaps" },
		{ SEQ_BACKWARDS, "seq 9 after seq 10" },
		{ THREAD_TWICE, "thread 1 appears twice" },
		{ END_NOT_LAST, "syscall after end" },
		{ CPUID_SITES_UNSORTED, "cpuid site 1 (0x400ff0) is not a user address above" },
		{ CPUID_SITE_KERNEL, "cpuid site 1 (0xffffffff81000000) is not a user address" },
	};
	char err[512];
	size_t i;

	ASSERT_EQ(0, crafted(OK, err, sizeof(err))) TH_LOG("%s", err);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		EXPECT_EQ(-EBADMSG, crafted(cases[i].b, err, sizeof(err)))
			TH_LOG("case %zu accepted", i);
		EXPECT_NE(NULL, strstr(err, cases[i].msg))
			TH_LOG("case %zu: want '%s', got '%s'", i, cases[i].msg, err);
		EXPECT_EQ(0, strncmp(err, "offset ", 7)) TH_LOG("%s", err);
	}
}

/*
 * FLRC_CHECK_ON_LOAD (flightrec replay's reader): every check but a page's
 * bytes when the file is read, the same errors; a page's bytes when it is
 * loaded, with the page's address.  Both pages of the crafted file (the
 * data page and the SAME_AS page that shares its frame) are refused.
 */
TEST(check_on_load)
{
	static const enum breakage same[] = {
		PAGE_UNALIGNED, PAGE_NO_INTERVAL, PAGE_TWICE, ZSTD_SHORT, ZSTD_NOSIZE,
		ZSTD_TRAILING, SAME_AS_MISSING, NO_END, SEQ_BACKWARDS, END_NOT_LAST,
	};
	char err[512], want[512];
	size_t i;

	read_flags = FLRC_LAZY_PAGES | FLRC_CHECK_ON_LOAD;
	err[0] = '\0';
	EXPECT_EQ(0, crafted(OK, err, sizeof(err))) TH_LOG("%s", err);
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		read_flags = 0;
		ASSERT_EQ(-EBADMSG, crafted(same[i], want, sizeof(want)));
		read_flags = FLRC_LAZY_PAGES | FLRC_CHECK_ON_LOAD;
		err[0] = '\0';
		EXPECT_EQ(-EBADMSG, crafted(same[i], err, sizeof(err))) TH_LOG("case %zu", i);
		EXPECT_STREQ(want, err);
	}
	/* a wrong hash: the SAME_AS page that names the right one is refused */
	err[0] = '\0';
	EXPECT_EQ(-EBADMSG, crafted(HASH_WRONG, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "page 0x1000: SAME_AS 283db95e45241946 matches no earlier"))
		TH_LOG("%s", err);
	/* other bytes than the hash is of: read, refused when the page is loaded */
	err[0] = '\0';
	EXPECT_EQ(-EBADMSG, crafted(BYTES_WRONG, err, sizeof(err)));
	EXPECT_STREQ("page 0x1000: content hash mismatch (damaged data)", err);
	read_flags = 0;
}

/*
 * The cpuid sites of an ELF file (user/lib/x86sites.c), on
 * tests/progs/cpuid_sites: the cpuid at its label fr_cpuid_here is one;
 * the 0f a2 inside the immediate of the mov at fr_decoy_here is not; and
 * every site listed holds 0f a2.
 */
static uint64_t sym_offset(const char *prog, const char *sym)
{
	char cmd[PATH_MAX + 256], line[256];
	unsigned long long va = 0, off = 0, pva, poff, fsz;
	FILE *f;

	/* the symbol's address, then the file offset of its PT_LOAD */
	snprintf(cmd, sizeof(cmd), "nm %s | awk '$3 == \"%s\" { print $1 }'", prog, sym);
	f = popen(cmd, "r");
	if (!f || !fgets(line, sizeof(line), f) || sscanf(line, "%llx", &va) != 1)
		va = 0;
	if (f)
		pclose(f);
	snprintf(cmd, sizeof(cmd), "readelf -lW %s | awk '$1 == \"LOAD\" { print $2, $3, $5 }'",
		 prog);
	f = popen(cmd, "r");
	while (f && va && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %llx %llx", &poff, &pva, &fsz) == 3 && va >= pva &&
		    va < pva + fsz)
			off = va - pva + poff;
	if (f)
		pclose(f);
	return off;
}

/* The same, from the helper flightrec-sites (user/lib/x86sites.c). */
static int sites_by_helper(int fd, struct fr_sites *s, char *why, size_t whylen)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/user/flightrec-sites", getenv("FR_TOP") ?: "..");
	setenv("FLIGHTREC_SITES", path, 1);
	return fr_cpuid_sites(fd, s, why, whylen);
}

TEST(cpuid_sites_of_code)
{
	int (*const how[])(int, struct fr_sites *, char *, size_t) = {
		fr_cpuid_scan, sites_by_helper,
	};
	char prog[PATH_MAX], why[256] = "";
	struct fr_sites s, first = { 0 };
	uint64_t site, decoy;
	uint8_t b[2];
	size_t i, h, found;
	int fd;

	snprintf(prog, sizeof(prog), "%s/tests/bin/progs/cpuid_sites", getenv("FR_TOP") ?: "..");
	site = sym_offset(prog, "fr_cpuid_here");
	decoy = sym_offset(prog, "fr_decoy_here");
	ASSERT_NE(0, site) TH_LOG("no fr_cpuid_here in %s", prog);
	ASSERT_NE(0, decoy);
	for (h = 0; h < 2; h++) {
		TH_LOG("%s", h ? "by the helper" : "in this process");
		fd = open(prog, O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		/* the decoy's bytes: b8+r imm32 90 0f a2 90, cpuid's bytes at +2 */
		ASSERT_EQ(2, pread(fd, b, 2, (off_t)decoy + 2));
		ASSERT_EQ(0x0f, b[0]);
		ASSERT_EQ(0xa2, b[1]);
		ASSERT_EQ(0, how[h](fd, &s, why, sizeof(why))) TH_LOG("%s", why);
		/* the three cpuid of main() */
		EXPECT_EQ(3, s.n);
		found = 0;
		for (i = 0; i < s.n; i++) {
			found += s.off[i] == site;
			EXPECT_NE(decoy + 2, s.off[i]);
			ASSERT_EQ(2, pread(fd, b, 2, (off_t)s.off[i]));
			EXPECT_EQ(0x0f, b[0]);
			EXPECT_EQ(0xa2, b[1]);
			if (i)
				EXPECT_LT(s.off[i - 1], s.off[i]);
		}
		EXPECT_EQ(1, found);
		EXPECT_LE(1, s.unverified);	/* the decoy at least */
		if (h) {
			EXPECT_EQ(first.unverified, s.unverified);
			ASSERT_EQ(first.n, s.n);
			EXPECT_EQ(0, memcmp(first.off, s.off, s.n * sizeof(*s.off)));
			fr_sites_free(&s);
			fr_sites_free(&first);
		} else {
			first = s;
		}
		/* not an ELF file: refused, with the reason */
		EXPECT_EQ(-ENOEXEC, how[h](fd = (close(fd), open("/proc/self/status", O_RDONLY)),
					   &s, why, sizeof(why)));
		EXPECT_STREQ("not an ELF file", why);
		close(fd);
	}
}

/*
 * The helper flightrec-sites runs sandboxed, in a process group of its own,
 * and a helper that cannot run or dies is reported; the next call starts a
 * new one.
 */
TEST(cpuid_sites_helper)
{
	char path[PATH_MAX], line[256], why[256] = "";
	struct fr_sites s;
	int pid, fd, seccomp = -1, nnp = -1;
	FILE *f;

	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, sites_by_helper(fd, &s, why, sizeof(why))) TH_LOG("%s", why);
	fr_sites_free(&s);
	pid = fr_sites_helper_pid();
	ASSERT_LT(0, pid);
	EXPECT_EQ(pid, getpgid(pid));
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "Seccomp: %d", &seccomp);
		sscanf(line, "NoNewPrivs: %d", &nnp);
	}
	fclose(f);
	EXPECT_EQ(2, seccomp);		/* SECCOMP_MODE_FILTER */
	EXPECT_EQ(1, nnp);
	/* the same helper answers again */
	ASSERT_EQ(0, fr_cpuid_sites(fd, &s, why, sizeof(why))) TH_LOG("%s", why);
	fr_sites_free(&s);
	EXPECT_EQ(pid, fr_sites_helper_pid());
	/* it ends at end of file, and well (not by its sandbox's SIGSYS) */
	EXPECT_EQ(0, fr_sites_helper_stop());
	EXPECT_EQ(-1, fr_sites_helper_stop());
	EXPECT_EQ(0, fr_sites_helper_pid());
	EXPECT_EQ(-1, kill(pid, 0));	/* waited for */

	/* none there */
	setenv("FLIGHTREC_SITES", "/nonexistent/flightrec-sites", 1);
	EXPECT_EQ(-ENOENT, fr_cpuid_sites(fd, &s, why, sizeof(why)));
	EXPECT_STREQ("cannot run /nonexistent/flightrec-sites: No such file or directory", why);
	EXPECT_EQ(0, fr_sites_helper_pid());
	/* one that ends without an answer */
	setenv("FLIGHTREC_SITES", "/bin/true", 1);
	EXPECT_EQ(-EPIPE, fr_cpuid_sites(fd, &s, why, sizeof(why)));
	EXPECT_STREQ("the helper flightrec-sites: it ended", why);
	EXPECT_EQ(0, fr_sites_helper_pid());
	/* and the next call starts a working one */
	ASSERT_EQ(0, sites_by_helper(fd, &s, why, sizeof(why))) TH_LOG("%s", why);
	fr_sites_free(&s);
	EXPECT_EQ(0, fr_sites_helper_stop());
	close(fd);
}

/* Lines of COMMAND's output (stdout and stderr) that hold WORD. */
static int lines_with(const char *command, const char *word)
{
	char cmd[PATH_MAX + 256], line[1024];
	int n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s 2>&1", command);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p))
		n += !!strstr(line, word);
	pclose(p);
	return n;
}

/*
 * flightrec is one static PIE (user/Makefile, issue 28, item 4): no
 * dynamic loader at its start (the larger part of every command's start
 * under emulation), no library to install beside it and its static
 * loader where a checkpoint is replayed, and still a random load address.
 * A sanitizer build is dynamic.
 */
TEST(tool_is_static_pie)
{
	static const char *const tools[] = { "flightrec", "flightrec-sites" };
	char cmd[PATH_MAX + 64];
	size_t i;

	for (i = 0; i < 2; i++) {
		snprintf(cmd, sizeof(cmd), "readelf -hlWd %s/user/%s",
			 getenv("FR_TOP") ?: "..", tools[i]);
		ASSERT_EQ(1, lines_with(cmd, "Machine:")) TH_LOG("readelf shows nothing: %s", cmd);
		if (lines_with(cmd, "libasan"))
			SKIP(return, "a sanitizer build of the tool: dynamic");
		EXPECT_EQ(1, lines_with(cmd, "DYN (Position-Independent Executable file)"))
			TH_LOG("%s", tools[i]);
		EXPECT_EQ(0, lines_with(cmd, "INTERP")) TH_LOG("%s", tools[i]);
		EXPECT_EQ(0, lines_with(cmd, "(NEEDED)")) TH_LOG("%s", tools[i]);
	}
}

/*
 * capstone is in the helper only: flightrec's start does not relocate its
 * tables (issue 28, item 4).
 */
TEST(capstone_only_in_the_helper)
{
	char cmd[PATH_MAX + 64];
	const char *top = getenv("FR_TOP") ?: "..";

	snprintf(cmd, sizeof(cmd), "nm %s/user/flightrec", top);
	ASSERT_LT(100, lines_with(cmd, " T ")) TH_LOG("no symbols: %s", cmd);
	EXPECT_EQ(0, lines_with(cmd, " cs_open"));
	EXPECT_EQ(0, lines_with(cmd, " fr_cpuid_scan"));
	snprintf(cmd, sizeof(cmd), "nm %s/user/flightrec-sites", top);
	EXPECT_EQ(1, lines_with(cmd, " cs_open\n"));	/* T, or U in a sanitizer build */
}

/* The writer refuses entries out of order. */
TEST(writer_order)
{
	Flightrec__Entry e = FLIGHTREC__ENTRY__INIT;
	Flightrec__End end = FLIGHTREC__END__INIT;
	struct flrc_writer *w;
	struct craft k;
	char err[512], *dir = tmpdir();

	craft_init(&k);
	ASSERT_EQ(0, flrc_writer_begin(&w, dir, "o.flrc", err, sizeof(err)));
	e.e_case = FLIGHTREC__ENTRY__E_END;
	e.end = &end;
	EXPECT_EQ(-EINVAL, flrc_writer_add(w, &e));
	EXPECT_NE(NULL, strstr(flrc_writer_error(w), "before the header"));
	flrc_writer_abort(w);

	ASSERT_EQ(0, flrc_writer_begin(&w, dir, "o.flrc", err, sizeof(err)));
	e.e_case = FLIGHTREC__ENTRY__E_HEADER;
	e.header = &k.h;
	EXPECT_EQ(0, flrc_writer_add(w, &e));
	EXPECT_EQ(-EINVAL, flrc_writer_add(w, &e));
	EXPECT_NE(0, flrc_writer_finish(w, NULL, 0, err, sizeof(err)));
	EXPECT_EQ(-EINVAL, flrc_writer_begin(&w, dir, "../x", err, sizeof(err)));
	EXPECT_EQ(-EINVAL, flrc_writer_begin(&w, dir, ".hidden", err, sizeof(err)));
	rmtree(dir);
}

/*
 * The reader sorts what the writer may put in any order within a kind
 * (pages, maps, threads): a file with them shuffled reads the same as one
 * in order, and a duplicate or an overlap far from its twin is still
 * found.  The writer's own order is one run for the reader's sort; this
 * makes it merge many (issue 28, item 6 replaced qsort_r() there).
 */
#define SH_ADDRS	53	/* addresses; each interval lacks some */

enum shuffle_break { SH_OK, SH_PAGE_TWICE, SH_MAP_OVERLAP, SH_THREAD_TWICE };

static uint8_t sh_byte(uint32_t iv, uint64_t addr)
{
	return (uint8_t)(iv * 31 + (addr >> 12) * 7 + 1);
}

/* interval 5 lacks every third address, interval 6 every fifth */
static bool sh_has(uint32_t iv, unsigned int i)
{
	return iv == 5 ? i % 3 != 0 : i % 5 != 0;
}

/* Writes and reads the file; *bufp (the file's bytes) outlives *out. */
static int shuffled(enum shuffle_break b, struct flrc **out, uint8_t **bufp,
		    char *err, size_t errlen)
{
	Flightrec__Entry e = FLIGHTREC__ENTRY__INIT;
	Flightrec__Map m = FLIGHTREC__MAP__INIT;
	Flightrec__Thread t = FLIGHTREC__THREAD__INIT;
	Flightrec__Regs r = FLIGHTREC__REGS__INIT;
	Flightrec__Page pg = FLIGHTREC__PAGE__INIT;
	Flightrec__End end = FLIGHTREC__END__INIT;
	/* by descending address: interval 6's two, then interval 5's two */
	static const uint64_t map_start[] = { 0x9000000, 0x1000, 0x5000000, 0x300000 };
	static const uint32_t tids[] = { 7, 3, 9, 1, 5 };
	uint32_t order[2 * SH_ADDRS + 1], x = 12345;
	size_t n = 0, i, zn, len;
	struct flrc_writer *w;
	struct craft k;
	uint8_t page[PG], z[PG + 64];
	char path[PATH_MAX], *dir = tmpdir();
	int ret;

	*out = NULL;
	*bufp = NULL;
	craft_init(&k);
	if (flrc_writer_begin(&w, dir, "s.flrc", err, errlen))
		return -1;
	e.e_case = FLIGHTREC__ENTRY__E_HEADER;
	e.header = &k.h;
	flrc_writer_add(w, &e);
	for (i = 0; i < 4; i++) {
		m.interval = i < 2 ? 6 : 5;
		m.start = map_start[i];
		m.end = m.start + 0x10000;
		if (b == SH_MAP_OVERLAP && i == 1)
			m.end = map_start[0] + 0x1000;	/* into interval 6's other map */
		e.e_case = FLIGHTREC__ENTRY__E_MAP;
		e.map = &m;
		flrc_writer_add(w, &e);
	}
	for (i = 0; i < 5 + (b == SH_THREAD_TWICE); i++) {
		t.interval = i & 1 && i < 5 ? 5 : 6;
		t.tid = tids[i % 5];	/* the sixth: the first one's twin */
		t.regs = &r;
		e.e_case = FLIGHTREC__ENTRY__E_THREAD;
		e.thread = &t;
		flrc_writer_add(w, &e);
	}
	/* every (interval, address) pair, in a pseudo-random order */
	for (i = 0; i < 2 * SH_ADDRS; i++)
		if (sh_has(5 + (uint32_t)(i / SH_ADDRS), (unsigned int)(i % SH_ADDRS)))
			order[n++] = (uint32_t)i;
	for (i = n - 1; i > 0; i--) {
		uint32_t j, v;

		x = x * 1103515245u + 12345u;
		j = (x >> 8) % (uint32_t)(i + 1);
		v = order[i];
		order[i] = order[j];
		order[j] = v;
	}
	if (b == SH_PAGE_TWICE)
		order[n++] = order[1];	/* at the end, far from its twin */
	for (i = 0; i < n; i++) {
		uint32_t iv = 5 + order[i] / SH_ADDRS;
		uint64_t addr = 0x400000 + (uint64_t)(order[i] % SH_ADDRS) * PG;

		memset(page, sh_byte(iv, addr), PG);
		zn = ZSTD_compress(z, sizeof(z), page, PG, 1);
		pg.addr = addr;
		pg.interval = iv;
		pg.kind = FLIGHTREC__PAGE_KIND__PAGE_DATA;
		pg.has_zdata = 1;
		pg.zdata.data = z;
		pg.zdata.len = zn;
		pg.has_hash = 1;
		pg.hash = flrc_hash(page, PG);
		e.e_case = FLIGHTREC__ENTRY__E_PAGE;
		e.page = &pg;
		flrc_writer_add(w, &e);
	}
	e.e_case = FLIGHTREC__ENTRY__E_END;
	e.end = &end;
	flrc_writer_add(w, &e);
	ret = flrc_writer_finish(w, path, sizeof(path), err, errlen);
	if (!ret) {
		*bufp = slurp(path, &len);
		ret = *bufp ? flrc_read_mem(*bufp, len, out, err, errlen) : -1;
	}
	rmtree(dir);
	return ret;
}

TEST(entries_in_any_order)
{
	static const struct { enum shuffle_break b; const char *msg; } bad[] = {
		{ SH_PAGE_TWICE, "appears twice in interval" },
		{ SH_MAP_OVERLAP, "map 0x9000000-0x9010000 overlaps map 0x1000-0x9001000 in interval 6" },
		{ SH_THREAD_TWICE, "thread 7 appears twice in interval 6" },
	};
	uint8_t *buf, got[PG];
	struct flrc *c;
	char err[512];
	unsigned int i;
	size_t k;

	ASSERT_EQ(0, shuffled(SH_OK, &c, &buf, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ((size_t)(SH_ADDRS - 18 + SH_ADDRS - 11), c->n_pages);
	for (k = 1; k < c->n_pages; k++)	/* (interval, addr), as documented */
		ASSERT_TRUE(c->pages[k - 1].interval < c->pages[k].interval ||
			    (c->pages[k - 1].interval == c->pages[k].interval &&
			     c->pages[k - 1].addr < c->pages[k].addr)) TH_LOG("page %zu", k);
	for (i = 0; i < SH_ADDRS; i++) {
		uint64_t addr = 0x400000 + (uint64_t)i * PG;
		uint32_t from;

		for (from = 5; from <= 6; from++) {
			const struct flrc_page *p = flrc_page_at(c, from, addr + 99);
			uint32_t want = sh_has(from, i) ? from : from == 5 && sh_has(6, i) ? 6 : 0;

			if (!want) {
				EXPECT_EQ(NULL, p) TH_LOG("%#llx from %u", (unsigned long long)addr, from);
				continue;
			}
			ASSERT_NE(NULL, p) TH_LOG("%#llx from %u", (unsigned long long)addr, from);
			EXPECT_EQ(addr, p->addr);
			EXPECT_EQ(want, p->interval);
			ASSERT_EQ(0, flrc_page_load(c, p, got));
			EXPECT_EQ(sh_byte(want, addr), got[0]);
			EXPECT_EQ(sh_byte(want, addr), got[PG - 1]);
		}
	}
	EXPECT_EQ(NULL, flrc_page_at(c, 5, 0x400000 + (uint64_t)SH_ADDRS * PG));
	flrc_free(c);
	free(buf);

	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		err[0] = '\0';
		EXPECT_EQ(-EBADMSG, shuffled(bad[k].b, &c, &buf, err, sizeof(err)))
			TH_LOG("case %zu accepted", k);
		EXPECT_NE(NULL, strstr(err, bad[k].msg))
			TH_LOG("case %zu: want '%s', got '%s'", k, bad[k].msg, err);
		flrc_free(c);
		free(buf);
	}
}

/* XXH64 reference values (seed 0). */
TEST(hash)
{
	EXPECT_EQ(0xEF46DB3751D8E999ull, flrc_hash("", 0));
	EXPECT_EQ(0xD24EC4F1A98C6E5Bull, flrc_hash("a", 1));
	EXPECT_EQ(0x44BC2CF5AD770999ull, flrc_hash("abc", 3));
	EXPECT_EQ(0xFBCEA83C8A378BF1ull,
		  flrc_hash("Nobody inspects the spammish repetition", 39));
}

/* With FLRC_CORPUS_DIR set: small valid files for the fuzzer's corpus. */
TEST(corpus)
{
	const char *out = getenv("FLRC_CORPUS_DIR");
	struct gen g = full;
	char path[PATH_MAX], dst[PATH_MAX + 32];

	if (!out)
		SKIP(return, "FLRC_CORPUS_DIR not set");
	init_data(true);
	self_exe[0] = '\0';		/* no host path in the corpus */
	g.minimal = true;
	g.nr_intervals = 1;
	ASSERT_EQ(0, make_file(out, &g, "minimal.flrc", path, sizeof(path), NULL));
	g.nr_intervals = 2;
	g.xstate_bv = 0x3;
	ASSERT_EQ(0, make_file(out, &g, "two-intervals.flrc", path, sizeof(path), NULL));
	ASSERT_EQ(0, make_file(out, &full, "full.flrc", path, sizeof(path), NULL));
	snprintf(dst, sizeof(dst), "%s", path);
	TH_LOG("wrote %s and friends", dst);
}

TEST_HARNESS_MAIN
