/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flightrec: the differences between the kernel series the module supports
 * (Debian's 6.1 and 6.12 LTS), in one place.  The rest of the module calls
 * the fr_* helpers here and has no version test of its own.
 *
 * An interface that a macro marks is tested by it (copy_to_nontemporal);
 * the others are told apart by the release that changed them (named with
 * the upstream commit's subject), as nothing else marks them.
 */
#ifndef FR_COMPAT_H
#define FR_COMPAT_H

#include <linux/version.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <net/genetlink.h>

/*
 * 6.12 "move asm/unaligned.h to linux/unaligned.h" (a version test, not
 * __has_include: sparse 0.6.4 does not know it)
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * 6.3 "rseq: Extend struct rseq with numa node id" and "... with per-memory-map
 * concurrency id": from then on the kernel writes node_id and mm_cid into
 * the rseq area with cpu_id (rseq_update_cpu_node_id()); 6.1 writes
 * cpu_id_start and cpu_id only.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#define FR_RSEQ_NODE_CID	1
#define fr_task_mm_cid(t)	((u32)task_mm_cid(t))
#else
#define FR_RSEQ_NODE_CID	0
#define fr_task_mm_cid(t)	0U
#endif

/*
 * 6.2 "genetlink: introduce split op representation": pre_doit/post_doit
 * take a struct genl_split_ops, and a dump's attributes and family are in
 * genl_dumpit_info()->info.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define fr_genl_split_ops genl_split_ops
static inline struct nlattr **fr_dumpit_attrs(struct netlink_callback *cb)
{
	return genl_dumpit_info(cb)->info.attrs;
}

static inline const struct genl_family *
fr_dumpit_family(struct netlink_callback *cb)
{
	return genl_dumpit_info(cb)->info.family;
}
#else
#define fr_genl_split_ops genl_ops
static inline struct nlattr **fr_dumpit_attrs(struct netlink_callback *cb)
{
	return genl_dumpit_info(cb)->attrs;
}

static inline const struct genl_family *
fr_dumpit_family(struct netlink_callback *cb)
{
	return genl_dumpit_info(cb)->family;
}
#endif

/*
 * 6.7 "file: convert to SLAB_TYPESAFE_BY_RCU": a struct file may be reused
 * while an RCU reader looks at it, so get_file_rcu() takes the __rcu
 * pointer and rechecks it after taking the reference.  get_mm_exe_file()
 * is not exported on either series.
 */
static inline struct file *fr_get_mm_exe_file(struct mm_struct *mm)
{
	struct file *exe;

	rcu_read_lock();
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	exe = get_file_rcu(&mm->exe_file);
#else
	exe = rcu_dereference(mm->exe_file);
	if (exe && !get_file_rcu(exe))
		exe = NULL;
#endif
	rcu_read_unlock();
	return exe;
}

/* 6.11 "signal: Remove task argument from dequeue_signal()"; siglock held */
static inline int fr_dequeue_signal(sigset_t *mask, kernel_siginfo_t *info,
				    enum pid_type *type)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
	return dequeue_signal(mask, info, type);
#else
	return dequeue_signal(current, mask, info, type);
#endif
}

/* 6.5 "mm/gup: remove vmas parameter from get_user_pages_remote()" */
static inline long fr_get_user_pages_remote(struct mm_struct *mm,
					    unsigned long start,
					    unsigned long nr_pages,
					    unsigned int gup_flags,
					    struct page **pages)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	return get_user_pages_remote(mm, start, nr_pages, gup_flags, pages,
				     NULL);
#else
	return get_user_pages_remote(mm, start, nr_pages, gup_flags, pages,
				     NULL, NULL);
#endif
}

/*
 * 6.7 "mm: shrinker: remove old APIs": shrinkers are allocated by the
 * kernel (shrinker_alloc) and freed after an RCU grace period.  Here both
 * series allocate one, so callers hold a pointer either way.
 */
static inline struct shrinker *
fr_shrinker_create(unsigned long (*count)(struct shrinker *,
					  struct shrink_control *),
		   unsigned long (*scan)(struct shrinker *,
					 struct shrink_control *),
		   const char *name)
{
	struct shrinker *s;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	s = shrinker_alloc(0, "%s", name);
	if (!s)
		return ERR_PTR(-ENOMEM);
	s->count_objects = count;
	s->scan_objects = scan;
	s->seeks = DEFAULT_SEEKS;
	shrinker_register(s);
#else
	int err;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);
	s->count_objects = count;
	s->scan_objects = scan;
	s->seeks = DEFAULT_SEEKS;
	err = register_shrinker(s, "%s", name);
	if (err) {
		kfree(s);
		return ERR_PTR(err);
	}
#endif
	return s;
}

static inline void fr_shrinker_destroy(struct shrinker *s)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	shrinker_free(s);
#else
	unregister_shrinker(s);
	kfree(s);
#endif
}

/*
 * The uncached user copy (x86): __copy_from_user_inatomic_nocache() became
 * copy_from_user_inatomic_nontemporal() with the x86 copy_to_nontemporal()
 * (6.12 backports, 6.13 upstream), which defines a macro of its name.
 */
#ifdef copy_to_nontemporal
#define fr_copy_from_user_inatomic_nocache copy_from_user_inatomic_nontemporal
#else
#define fr_copy_from_user_inatomic_nocache __copy_from_user_inatomic_nocache
#endif

/*
 * The PTEs of one page table, [addr, end) within one PMD, mm's mmap_lock held
 * for read: @fn(pte, addr, data) for each that is not none, PTE lock held.
 * 0, or -EAGAIN when the table went away or was replaced before any PTE was
 * seen: the caller reads the PMD again.
 *
 * 6.5 "mm/pgtable: allow pte_offset_map[_lock]() to fail": the table can be
 * freed (after an RCU grace period) or replaced by khugepaged's
 * retract_page_tables() with mmap_lock held for read only, and faults run
 * under the VMA lock alone; pte_offset_map_lock() then returns NULL.  It is
 * also out of line and not exported from then on: the exported walker that
 * maps and locks the table by those rules is apply_to_existing_page_range(),
 * which says -EINVAL for such a table (and warns on a huge PMD, so the
 * caller checks the PMD first).  Before 6.5 the table cannot change under
 * mmap_lock, and pte_offset_map_lock() is inline.
 */
static __always_inline int fr_walk_pte_table(struct mm_struct *mm, pmd_t *pmd,
					     unsigned long addr,
					     unsigned long end,
					     pte_fn_t fn, void *data)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	int err = apply_to_existing_page_range(mm, addr, end - addr, fn, data);

	return err == -EINVAL ? -EAGAIN : err;
#else
	pte_t *start, *pte;
	spinlock_t *ptl;
	int err = 0;

	start = pte = pte_offset_map_lock(mm, pmd, addr, &ptl);
	for (; addr < end; addr += PAGE_SIZE, pte++) {
		if (pte_none(ptep_get(pte)))
			continue;
		err = fn(pte, addr, data);
		if (err)
			break;
	}
	pte_unmap_unlock(start, ptl);
	return err;
#endif
}

/*
 * PREEMPT_RT (Debian's linux-image-rt-amd64): spinlock_t is a sleeping lock
 * there and the allocators take sleeping locks.  The syscall, fault and
 * signal probes run with preemption (the page-fault tracepoint also with
 * interrupts) off, the interval timer in hard IRQ context, and they take
 * spinlock_t (proc->lock, the XArray locks) and allocate with GFP_NOWAIT:
 * a bug on RT.  The module refuses to load there (flightrec_init) rather
 * than half work; scripts/check-rt.sh boots an RT kernel and checks that.
 */
#define FR_PREEMPT_RT IS_ENABLED(CONFIG_PREEMPT_RT)

/*
 * A held syscall (munmap, madvise, exit_group...: kernel/syscall.c) is
 * skipped by setting its number to -1 in the sys_enter tracepoint, which
 * works only if the entry code reads the number again after the
 * tracepoint.  5.11's "core/entry: Report syscall correctly for trace and
 * audit" dropped that re-read; "entry: Respect changes to system call
 * number by trace_sys_enter()" (upstream fb13b11d5387, 6.9) restored it,
 * and the stable kernels 6.1.84, 6.6.24, 6.7.12 and 6.8.3 took it.  On a
 * kernel without it a held call would run, and then run again with its own
 * result: the module refuses to load there (flightrec_init; issue 24 #11).
 */
#define FR_KV(a, b, c)	KERNEL_VERSION(a, b, c)
#define FR_ENTRY_REREADS_NR						\
	(LINUX_VERSION_CODE >= FR_KV(6, 8, 3) ||			\
	 (LINUX_VERSION_CODE >= FR_KV(6, 7, 12) &&			\
	  LINUX_VERSION_CODE < FR_KV(6, 8, 0)) ||			\
	 (LINUX_VERSION_CODE >= FR_KV(6, 6, 24) &&			\
	  LINUX_VERSION_CODE < FR_KV(6, 7, 0)) ||			\
	 (LINUX_VERSION_CODE >= FR_KV(6, 1, 84) &&			\
	  LINUX_VERSION_CODE < FR_KV(6, 2, 0)))

#endif /* FR_COMPAT_H */
