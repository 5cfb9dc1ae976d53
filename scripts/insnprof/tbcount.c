// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin: how many times each translated block of guest kernel
 * code ran, and how many instructions it holds; user code gets one total,
 * and with the argument user=1 its blocks too (lines "u ADDR N COUNT":
 * user addresses of every process alike, which report.py --user tells
 * apart only where the binaries sit at known addresses).  scripts/insnprof.sh loads
 * it into the test VM; report.py turns the counts into instructions per
 * kernel function.  Counting is exact and the same from run to run, where
 * timing the emulator moves by several percent: it shows which code a
 * change removed, not what that is worth in time (atomic operations and
 * user-access windows cost the emulator more than their count says).
 *
 * Two marker instructions, which scripts/insnprof/mark.c executes in user
 * mode, bound what is counted: "nopl 0x544b4d46(%rax)" (FMKT, start) sets
 * every count to zero, "nopl 0x504b4d46(%rax)" (FMKP, stop) freezes them; the
 * output holds what ran in between.  Without markers, the whole boot.
 *
 * Plugin API version 1 (QEMU 7.2, Debian 12).  Its few declarations are
 * written out here: the distribution ships no qemu-plugin.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
typedef void (*insn_exec_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*atexit_cb_t)(qemu_plugin_id_t id, void *p);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, atexit_cb_t cb, void *p);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    insn_exec_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* one per translation: a block translated again gets another */
struct block {
	uint64_t vaddr, insns, count;
	uint64_t frozen;		/* count at the stop marker */
	struct block *next;
};

static struct block *blocks;
static uint64_t user_insns;		/* all of user code, in one count */
static uint64_t user_frozen;
static int stopped;			/* the stop marker ran: print frozen */

/* nopl disp32(%rax): 0f 1f 80, then the marker's four bytes */
static const unsigned char mark_start[7] = { 0x0f, 0x1f, 0x80, 'F', 'M', 'K', 'T' };
static const unsigned char mark_stop[7] = { 0x0f, 0x1f, 0x80, 'F', 'M', 'K', 'P' };
static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *out_path = "tbcount.txt";

/* below the x86-64 kernel half: user code of any process */
static int user_va(uint64_t va)
{
	return va < 0xffff800000000000ull;
}
static int user_blocks;			/* user=1: user blocks one by one too */

static void marker(unsigned int vcpu, void *stop)
{
	struct block *b;

	(void)vcpu;
	pthread_mutex_lock(&blocks_lock);
	for (b = blocks; b; b = b->next) {
		if (stop)
			b->frozen = b->count;
		else
			b->count = 0;
	}
	if (stop) {
		user_frozen = user_insns;
		stopped = 1;
	} else {
		user_insns = 0;
		stopped = 0;
	}
	pthread_mutex_unlock(&blocks_lock);
}

/* a marker instruction in the block gets a callback */
static void find_markers(struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const void *d = qemu_plugin_insn_data(insn);

		if (qemu_plugin_insn_size(insn) != sizeof(mark_start))
			continue;
		if (!memcmp(d, mark_start, sizeof(mark_start)))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker,
					QEMU_PLUGIN_CB_NO_REGS, NULL);
		else if (!memcmp(d, mark_stop, sizeof(mark_stop)))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker,
					QEMU_PLUGIN_CB_NO_REGS, (void *)1);
	}
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t va = qemu_plugin_tb_vaddr(tb);
	struct block *b;

	(void)id;
	if (user_va(va)) {	/* user code: a total */
		find_markers(tb);
		qemu_plugin_register_vcpu_tb_exec_inline(tb,
				QEMU_PLUGIN_INLINE_ADD_U64, &user_insns,
				qemu_plugin_tb_n_insns(tb));
		if (!user_blocks)
			return;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return;
	b->vaddr = va;
	b->insns = qemu_plugin_tb_n_insns(tb);
	pthread_mutex_lock(&blocks_lock);
	b->next = blocks;
	blocks = b;
	pthread_mutex_unlock(&blocks_lock);
	/* not atomic across vCPUs: a lost increment now and then */
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->count, 1);
}

static void finished(qemu_plugin_id_t id, void *p)
{
	FILE *f = fopen(out_path, "w");
	struct block *b;

	(void)id;
	(void)p;
	if (!f) {
		perror(out_path);
		return;
	}
	fprintf(f, "user %llu\n",
		(unsigned long long)(stopped ? user_frozen : user_insns));
	for (b = blocks; b; b = b->next) {
		uint64_t c = stopped ? b->frozen : b->count;

		if (c)
			fprintf(f, "%s%llx %llu %llu\n", user_va(b->vaddr) ? "u " : "",
				(unsigned long long)b->vaddr,
				(unsigned long long)b->insns,
				(unsigned long long)c);
	}
	if (fclose(f))
		perror(out_path);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			out_path = argv[i] + 4;
		else if (!strcmp(argv[i], "user=1"))
			user_blocks = 1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	qemu_plugin_register_atexit_cb(id, finished, NULL);
	return 0;
}
