// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin: how many times each translated block of guest kernel
 * code ran, and how many instructions it holds; user code gets one total.  scripts/insnprof.sh loads
 * it into the test VM; report.py turns the counts into instructions per
 * kernel function.  Counting is exact and the same from run to run, where
 * timing the emulator moves by several percent: it shows which code a
 * change removed, not what that is worth in time (atomic operations and
 * user-access windows cost the emulator more than their count says).
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
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*atexit_cb_t)(qemu_plugin_id_t id, void *p);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, atexit_cb_t cb, void *p);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* one per translation: a block translated again gets another */
struct block {
	uint64_t vaddr, insns, count;
	struct block *next;
};

static struct block *blocks;
static uint64_t user_insns;		/* all of user code, in one count */
static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *out_path = "tbcount.txt";

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t va = qemu_plugin_tb_vaddr(tb);
	struct block *b;

	(void)id;
	if (va < 0xffff800000000000ull) {	/* user code: a total only */
		qemu_plugin_register_vcpu_tb_exec_inline(tb,
				QEMU_PLUGIN_INLINE_ADD_U64, &user_insns,
				qemu_plugin_tb_n_insns(tb));
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
	fprintf(f, "user %llu\n", (unsigned long long)user_insns);
	for (b = blocks; b; b = b->next)
		if (b->count)
			fprintf(f, "%llx %llu %llu\n", (unsigned long long)b->vaddr,
				(unsigned long long)b->insns,
				(unsigned long long)b->count);
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
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	qemu_plugin_register_atexit_cb(id, finished, NULL);
	return 0;
}
