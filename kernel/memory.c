// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec: memory tracking (seed 004, sections 4 and 4.1).
 *
 * At each boundary the page tables of the registered mm are walked under the
 * mmap lock: a page whose accessed bit is set was touched in the interval
 * that closes, and joins its initial page set; the bit is cleared.  Every
 * writable PTE is write-protected.  The TLB generation of the mm is bumped
 * and the CPUs running it flush, so that no cached accessed or writable
 * translation hides a later access.
 *
 * The first write to a page in an interval then faults; the x86 page-fault
 * tracepoints fire before the PTE is made writable (IRQs off, no mmap lock),
 * and the probe copies the page's bytes (fr_copy_user_page(): copy_page()
 * of the page a GUP-fast walk finds, never sleeping): its content at the
 * interval start.  A write fault on a page that is not
 * present has no bytes to copy; the boundary resolves it from the mapping
 * (zero for anonymous memory, the file's bytes for a private file mapping).
 *
 * A page only read in interval k has the same bytes at the start of k as at
 * the start of the first later interval that wrote it, or, if none did, as
 * now.  At a freeze the pages that need "now" are copied (fr_mem_resolve),
 * and the serialiser (dump.c) applies the rule.
 *
 * What this does to the kernel's own use of the bits: the accessed bit is
 * what reclaim reads to find recently used pages; clearing it is what
 * page_idle and clear_refs do too.  We pass the information on with
 * SetPageReferenced() so that reclaim still sees the page as used.  The dirty
 * bit is never cleared (file writeback depends on it).  Write protection is
 * what fork and soft-dirty do: the write fault makes the page writable again
 * (reusing an exclusive anonymous page, or going through page_mkwrite for
 * shared file pages).  Soft-dirty bits are left alone; the write fault sets
 * them as usual.  Pages pinned for DMA are not write-protected (as the
 * soft-dirty code does); writes to them can be missed and the interval is
 * flagged FLIGHTREC_IF_GUP_WRITE.  VMAs registered with userfaultfd, hugetlb,
 * VM_PFNMAP/VM_IO mappings are not touched.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/mm.h>
#include <linux/bitmap.h>
#include <linux/highmem.h>
#include <linux/pgtable.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/userfaultfd_k.h>
#include <linux/page-flags.h>
#include <linux/fs.h>
#include <asm/tlbflush.h>
#include <asm/trap_pf.h>
#include "flightrec.h"

/* value entries (no data) of an interval's page set; FR_PG_RETIRED on both */
#define FR_PG_ACCESSED	0x100	/* accessed: bytes come from later (seed rule);
				 * iv->acc holds these (fr_pageset_find) */
#define FR_PG_NOTPRESENT 0x200	/* written while not present: resolve at boundary */
#define FR_PG_RETIRED	0x400	/* its mapping went away in the interval: a new
				 * access is a second life (FLIGHTREC_IF_TWO_LIVES) */
#define FR_PG_SWAPPED	0x800	/* with FR_PG_NOTPRESENT: written while out in
				 * swap (or migrating): its bytes are lost */

/*
 * Marks the FR_PG_NOTPRESENT entries, so that a boundary visits those alone
 * (fr_resolve_notpresent) and not the whole page set.
 */
#define FR_XA_NOTPRESENT XA_MARK_0

static inline u32 fr_pg_flags(void *e)
{
	return xa_is_value(e) ? xa_to_value(e) : ((struct fr_page *)e)->flags;
}

static struct tracepoint *fr_tp_pf_user, *fr_tp_pf_kernel;

static inline bool fr_pg_has_bytes(void *e)
{
	return e && (!xa_is_value(e) ||
		     (xa_to_value(e) & FLIGHTREC_PAGE_ZERO));
}

/* Sets or clears FR_PG_RETIRED on entry e of index idx; proc->lock held. */
static void fr_pg_retire(struct fr_interval *iv, unsigned long idx, void *e,
			 bool on)
{
	if (xa_is_value(e)) {
		unsigned long v = xa_to_value(e);

		v = on ? v | FR_PG_RETIRED : v & ~FR_PG_RETIRED;
		xa_store(&iv->pages, idx, xa_mk_value(v), GFP_ATOMIC | __GFP_NOWARN);
	} else if (on) {
		((struct fr_page *)e)->flags |= FR_PG_RETIRED;
	} else {
		((struct fr_page *)e)->flags &= ~FR_PG_RETIRED;
	}
}

/*
 * Copies the page at user address addr (page aligned, current's mm) into
 * dst.  A present page is copied through its struct page with copy_page(),
 * the kernel's own page copy, found by a lockless GUP-fast walk that never
 * sleeps; otherwise by a user copy, which faults the page in only when
 * may_fault.  0, or -EFAULT when the page cannot be read.
 */
static int fr_copy_user_page(void *dst, unsigned long addr, bool may_fault)
{
	const void __user *uaddr = (const void __user *)addr;
	struct page *page;
	void *src;

	if (get_user_page_fast_only(addr, 0, &page)) {
		src = kmap_local_page(page);
		copy_page(dst, src);
		kunmap_local(src);
		put_page(page);
		return 0;
	}
	if (may_fault)
		return copy_from_user(dst, uaddr, PAGE_SIZE) ? -EFAULT : 0;
	return copy_from_user_nofault(dst, uaddr, PAGE_SIZE) ? -EFAULT : 0;
}

/* ------------------------------------------------------------------ */
/* the write-fault probe */

/*
 * Whether entry @old of iv's page set is the original of its page already
 * (proc->lock held).  A write to a page whose mapping went away in the
 * interval is a second life.
 */
static bool fr_pg_entry_known(struct fr_interval *iv, void *old)
{
	if (!old)
		return false;
	if (fr_pg_flags(old) & FR_PG_RETIRED)
		iv->flags |= FLIGHTREC_IF_TWO_LIVES;
	return !xa_is_value(old) ||
	       (xa_to_value(old) & (FR_PG_NOTPRESENT | FLIGHTREC_PAGE_ZERO));
}

/*
 * Stores @entry (NULL: none, only the look) as page idx of the open interval
 * iv, unless the page set holds its original already: one walk of the tree
 * for both.  1: known already, 0: stored, or -ENOMEM.  proc->lock held.
 */
static int fr_pg_store_new(struct fr_interval *iv, unsigned long idx,
			   void *entry)
{
	XA_STATE(xas, &iv->pages, idx);
	int known;

	do {
		xas_lock_irq(&xas);
		known = fr_pg_entry_known(iv, xas_load(&xas));
		if (!known && entry) {
			xas_store(&xas, entry);
			if (!xas_error(&xas) && xa_is_value(entry))
				xas_set_mark(&xas, FR_XA_NOTPRESENT);
		}
		xas_unlock_irq(&xas);
	} while (!known && xas_nomem(&xas, GFP_NOWAIT | __GFP_NOWARN));
	return known ? 1 : xas_error(&xas);
}

/*
 * Whether the PTE of user address addr in mm holds an entry that is not
 * present but not empty either: the page is out in swap, or being
 * migrated, or poisoned.  Its bytes exist but cannot be read without
 * sleeping.  A lockless walk, as GUP-fast's: interrupts off, so the page
 * tables it reads are not freed under it (their freeing waits for this
 * CPU).  Any context.
 */
static bool fr_pte_swapped(struct mm_struct *mm, unsigned long addr)
{
	unsigned long flags;
	bool swapped = false;
	pgd_t *pgd;
	p4d_t *p4d;
	pud_t *pud, pudval;
	pmd_t *pmd, pmdval;
	pte_t pte;

	local_irq_save(flags);
	pgd = pgd_offset(mm, addr);
	if (pgd_none(READ_ONCE(*pgd)))
		goto out;
	p4d = p4d_offset(pgd, addr);
	if (p4d_none(READ_ONCE(*p4d)))
		goto out;
	pud = pud_offset(p4d, addr);
	pudval = READ_ONCE(*pud);
	if (pud_none(pudval) || !pud_present(pudval) || pud_leaf(pudval))
		goto out;
	pmd = pmd_offset(pud, addr);
	pmdval = READ_ONCE(*pmd);
	if (pmd_none(pmdval))
		goto out;
	if (!pmd_present(pmdval)) {
		swapped = true;	/* a huge page migrating */
		goto out;
	}
	if (pmd_leaf(pmdval) || pmd_bad(pmdval))
		goto out;
	pte = ptep_get(pte_offset_kernel(&pmdval, addr));
	swapped = !pte_none(pte) && !pte_present(pte);
out:
	local_irq_restore(flags);
	return swapped;
}

/*
 * The first write to page addr in the open interval: its bytes before the
 * write join the interval's page set.  The page is copied outside
 * proc->lock, which every recorded syscall of the process takes: a 4 KiB
 * copy under it made the other threads' calls and faults wait (issue 28,
 * a memcached profile).  The copy is kept only if no cut came between the
 * read of proc->next_index before it and the look under the lock (it moves
 * at every cut, under the lock): within one interval the page cannot have
 * been written meanwhile without a write fault that stored its own
 * original first (the PTE stays write-protected until a fault's probe has
 * returned), and that one is found by the look.  After a cut the page is
 * copied again under the lock, as the new interval's original.
 *
 * The page set is looked up once, under the lock, and the entry stored by
 * the same XArray walk (every writer of the open interval's page set holds
 * proc->lock).  Until s60 a first look before the copy and a look and a
 * store after it walked the tree three times, about 900 instructions of
 * the 5,600 a tracked first write cost: the look before the copy only
 * spared a copy for a page already known, which takes a second write
 * fault on a page in one interval (fork, mprotect), so it is gone.
 */
static void fr_write_fault(struct fr_proc *proc, unsigned long addr)
{
	unsigned long idx = addr >> PAGE_SHIFT;
	struct fr_interval *iv;
	struct fr_page *pg = NULL;
	void *data = NULL;
	LIST_HEAD(drop);
	bool present, swapped;
	void *entry;
	int err;
	u32 gen;

	/*
	 * Read before the copy (acquire: the copy's loads come after it); a
	 * cut from here on moves it, under proc->lock, where it is read again.
	 */
	gen = smp_load_acquire(&proc->next_index);
	if (!READ_ONCE(proc->cur))
		return;
	data = fr_page_alloc(GFP_NOWAIT);
	pg = kmalloc(sizeof(*pg), GFP_NOWAIT | __GFP_NOWARN);
	/*
	 * Not present: the boundary finds out what it held, unless it is out
	 * in swap, where only the fault that follows can read it.
	 */
	present = data && !fr_copy_user_page(data, addr, false);
	swapped = !present && fr_pte_swapped(current->mm, addr);

	spin_lock(&proc->lock);
	iv = proc->cur;
	if (!iv)
		goto out;
	if (proc->next_index != gen) {
		if (fr_pg_entry_known(iv, xa_load(&iv->pages, idx)))
			goto out;
		if (data)
			present = !fr_copy_user_page(data, addr, false);
	}
	/*
	 * Charged before the look: making room may drop old intervals, which
	 * is done under proc->lock and not under the page set's IRQ-safe lock.
	 * A page found known then gives its charge back.
	 */
	if (!fr_charge_locked(proc, PAGE_SIZE + sizeof(*pg), &drop)) {
		iv->flags |= FLIGHTREC_IF_LOST_PAGE;
		proc->lost_pages++;
		goto out;
	}
	if (present && pg) {
		pg->flags = FLIGHTREC_PAGE_DATA | FLIGHTREC_PAGE_WRITTEN;
		pg->data = data;
		entry = pg;
	} else {
		entry = xa_mk_value(FR_PG_NOTPRESENT | FLIGHTREC_PAGE_WRITTEN |
				    (swapped ? FR_PG_SWAPPED : 0));
	}
	err = fr_pg_store_new(iv, idx, data && pg ? entry : NULL);
	if (err > 0) {
		fr_uncharge(PAGE_SIZE + sizeof(*pg));
		goto out;
	}
	if (!data || !pg || err) {
		fr_uncharge(PAGE_SIZE + sizeof(*pg));
		iv->flags |= FLIGHTREC_IF_LOST_PAGE;
		proc->lost_pages++;
		goto out;
	}
	if (entry == pg) {
		iv->bytes += PAGE_SIZE + sizeof(*pg);
		pg = NULL;
		data = NULL;
	} else {
		fr_uncharge(PAGE_SIZE + sizeof(*pg));
	}
out:
	spin_unlock(&proc->lock);
	kfree(pg);
	fr_page_free(data);
	fr_intervals_free(&drop);
}

/*
 * A write fault in a VM_DONTDUMP mapping: its page is not copied.  The probe
 * runs without the mmap lock and cannot sleep: a trylock, and when it fails
 * the copy is made and only kept out of dumps (fr_mem_nodump).
 */
static bool fr_fault_nodump(unsigned long address)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	bool nodump = false;

	if (!mm || !mmap_read_trylock(mm))
		return false;
	vma = vma_lookup(mm, address);
	if (vma && (vma->vm_flags & VM_DONTDUMP))
		nodump = true;
	mmap_read_unlock(mm);
	return nodump;
}

static void fr_pf_probe(void *data, unsigned long address,
			struct pt_regs *regs, unsigned long error_code)
{
	struct fr_thread *t;
	struct fr_proc *proc;

	if (likely(!atomic_read(&fr_nr_threads)))
		return;
	if (!(error_code & X86_PF_WRITE) || address >= TASK_SIZE_MAX)
		return;
	/*
	 * Not from interrupt context, nor from code running with interrupts
	 * off (which may hold an IRQ-safe lock: proc->lock must not nest in
	 * one, see the lock order).  Neither can sleep, so such a fault is not
	 * handled and the write does not happen; a retry from task context
	 * faults again.
	 */
	if (!in_task() || !(regs->flags & X86_EFLAGS_IF))
		return;
	rcu_read_lock();
	t = fr_thread_find(current);
	if (t) {
		proc = t->proc;
		if (smp_load_acquire(&proc->started) && !READ_ONCE(proc->dying) &&
		    !fr_fault_nodump(address))
			fr_write_fault(proc, address & PAGE_MASK);
	}
	rcu_read_unlock();
}

/*
 * A mapping call just made [start, end): the addresses of it whose page the
 * open interval holds from an earlier life (retired) get their new bytes
 * recorded as out-buffers of the call (fn(arg, addr, len) per run of pages);
 * with `clear` (once the record is kept) they stop being retired.  Any
 * context; called with no lock held.
 */
void fr_mem_new_life(struct fr_proc *proc, unsigned long start, unsigned long end,
		     void (*fn)(void *arg, unsigned long addr, unsigned long len),
		     void *arg, bool clear)
{
	unsigned long idx, run = 0, runlen = 0;
	struct fr_interval *iv;
	void *e;

	if (start >= end)
		return;
	spin_lock(&proc->lock);
	iv = proc->cur;
	if (!iv)
		goto out;
	xa_for_each_range(&iv->pages, idx, e, start >> PAGE_SHIFT,
			  (end - 1) >> PAGE_SHIFT) {
		if (!(fr_pg_flags(e) & FR_PG_RETIRED))
			continue;
		if (clear)
			fr_pg_retire(iv, idx, e, false);
		if (!fn)
			continue;
		if (runlen && idx == run + runlen) {
			runlen++;
			continue;
		}
		if (runlen)
			fn(arg, run << PAGE_SHIFT, runlen << PAGE_SHIFT);
		run = idx;
		runlen = 1;
	}
	if (fn && runlen)
		fn(arg, run << PAGE_SHIFT, runlen << PAGE_SHIFT);
out:
	spin_unlock(&proc->lock);
}

/* ------------------------------------------------------------------ */
/* page-table walks */

struct fr_walk {
	struct fr_proc *proc;
	struct fr_interval *closed;	/* gets the accessed pages; may be NULL */
	bool wrprotect;
	bool flush;
	bool huge;			/* met a huge page it could not track */
	/* fr_mem_boundary: PMD-mapped THPs met, to split after the walk */
	bool split;
	u32 nthp;
	unsigned long thp[16];
	/* fr_mem_boundary: accessed pages to store (fr_boundary_flush) */
	u32 nbatch;
	unsigned long batch[64];
	u32 flags;			/* FLIGHTREC_IF_* for closed */
	/* the XArray leaves of closed->acc the walk filled: charged after it */
	unsigned long acc_leaf;		/* the last one's index + 1 */
	u32 acc_leaves;
	/* fr_mem_rewrprotect: the range's pages whose original is kept */
	unsigned long *known, known_first, known_n;
	/*
	 * fr_mem_capture_range: addresses to copy, the range, its new
	 * mapping.  The walk stops before a PMD whose PTEs might not all fit
	 * in addrs (resume: where the next batch starts); [lo, hi) is the
	 * part of [start, end) the batch in addrs covers.
	 */
	unsigned long *addrs;
	u32 naddrs, maxaddrs;
	bool full;			/* a present page found no room */
	bool batched;
	unsigned long resume;
	unsigned long start, end, lo, hi;
	struct file *newfile;
	u64 newoff;
};

static bool fr_vma_trackable(struct vm_area_struct *vma)
{
	/* VM_DONTDUMP: never copied (docs/security.md), so not tracked */
	if (vma->vm_flags & (VM_PFNMAP | VM_IO | VM_HUGETLB | VM_DONTDUMP))
		return false;
	if (userfaultfd_armed(vma))
		return false;
	return true;
}

static __always_inline bool fr_pte_pinned(struct vm_area_struct *vma, pte_t pte)
{
	struct page *page;

	if (likely(!test_bit(MMF_HAS_PINNED, &vma->vm_mm->flags)))
		return false;
	if (pte_special(pte) || !pfn_valid(pte_pfn(pte)))
		return false;
	page = pte_page(pte);
	return folio_maybe_dma_pinned(page_folio(page));
}

/*
 * The pages found accessed (fr_boundary_pte) go into the closed interval's
 * page set in batches of up to ARRAY_SIZE(w->batch), in address order (the
 * walk goes up; fr_split_thps, which walks again, flushes first).  An
 * entry is the page index shifted left by one; bit 0 says that the PTE was
 * writable and dirty, so a write may have happened with no write fault.
 *
 * They are kept as bits (iv->acc, FR_ACC_BITS pages to an XArray value
 * entry), not as an entry each in iv->pages: a process that reads 1 GiB
 * has 262144 of them at every boundary, and a store per page cost more than
 * the rest of the walk.  The pages the closed interval holds an entry for
 * already (written, retired) are found by one pass of a cursor over
 * iv->pages across the batch's range, merged with it.  The interval is
 * closed: nobody else writes its page set now (the write-fault probe and
 * fr_mem_capture_range write the open one), and nobody reads it before it
 * is in the ring.  PTE lock held or not.
 */
static void fr_boundary_flush(struct fr_walk *w)
{
	struct fr_interval *iv = w->closed;
	unsigned long lo = w->batch[0] >> 1;
	unsigned long hi = w->batch[w->nbatch - 1] >> 1;
	XA_STATE(xas, &iv->pages, lo);
	XA_STATE(acc, &iv->acc, 0);
	unsigned long chunk, mask, idx;
	u32 i = 0, n = w->nbatch;
	bool next = false;
	void *e;

	rcu_read_lock();
	xas_for_each(&xas, e, hi) {
		if (xas_retry(&xas, e))
			continue;
		for (; i < n && (w->batch[i] >> 1) < xas.xa_index; i++)
			if (w->batch[i] & 1)
				w->flags |= FLIGHTREC_IF_GUP_WRITE;
		if (i < n && (w->batch[i] >> 1) == xas.xa_index) {
			/* an entry says more than a bit: written, or retired */
			if (fr_pg_flags(e) & FR_PG_RETIRED)
				w->flags |= FLIGHTREC_IF_TWO_LIVES;
			i++;
		}
	}
	rcu_read_unlock();
	/* writable, dirty, yet no write fault was seen in the interval */
	for (; i < n; i++)
		if (w->batch[i] & 1)
			w->flags |= FLIGHTREC_IF_GUP_WRITE;

	xas_lock(&acc);
	for (i = 0; i < n;) {
		idx = w->batch[i] >> 1;
		chunk = idx >> FR_ACC_SHIFT;
		mask = 0;
		do {
			mask |= 1UL << (idx & (FR_ACC_BITS - 1));
			if (++i == n)
				break;
			idx = w->batch[i] >> 1;
		} while (idx >> FR_ACC_SHIFT == chunk);
		if (next && acc.xa_index + 1 == chunk) {
			e = xas_next(&acc);
		} else {
			xas_set(&acc, chunk);
			e = xas_load(&acc);
		}
		next = true;
		if (e)
			mask |= xa_to_value(e);
		if (e == xa_mk_value(mask))
			continue;
		if (!e && (chunk >> XA_CHUNK_SHIFT) + 1 != w->acc_leaf) {
			w->acc_leaf = (chunk >> XA_CHUNK_SHIFT) + 1;
			w->acc_leaves++;
		}
		do {
			xas_store(&acc, xa_mk_value(mask));
		} while (xas_nomem(&acc, GFP_ATOMIC | __GFP_NOWARN));
		if (xas_error(&acc)) {
			w->flags |= FLIGHTREC_IF_LOST_PAGE;
			next = false;	/* the cursor is in its error state */
		}
	}
	xas_unlock(&acc);
	w->nbatch = 0;
}

/*
 * One present PTE at a boundary; PTE lock held.  Inlined into the walk: it
 * runs for every resident page at every boundary, so the common cases (not
 * accessed and not writable; accessed; to write-protect) cost one compare
 * and exchange of the PTE, clearing the accessed bit and the writable bit
 * together, and no call.
 */
static __always_inline void fr_boundary_pte(struct fr_walk *w,
					    struct vm_area_struct *vma,
					    unsigned long addr, pte_t *ptep)
{
	pte_t pte = ptep_get(ptep), new;
	bool wp = w->wrprotect && pte_write(pte);
	struct folio *folio;

	BUILD_BUG_ON(!IS_ENABLED(CONFIG_ARCH_HAS_PTE_SPECIAL));
	if (unlikely(wp) && fr_pte_pinned(vma, pte)) {
		w->flags |= FLIGHTREC_IF_GUP_WRITE;
		wp = false;
	}
	if (!wp && !pte_young(pte))
		return;	/* not accessed since the last boundary, nothing to do */
	/*
	 * The CPU may set the accessed or dirty bit under us (the PTE lock
	 * does not stop it): retry until no bit was lost.
	 */
	do {
		new = pte_mkold(pte);
		if (wp)
			new = pte_wrprotect(new);
	} while (!try_cmpxchg((pteval_t *)&ptep->pte, &pte.pte, new.pte));
	if (wp)
		w->flush = true;
	if (!pte_young(pte))
		return;
	/*
	 * Reclaim learns from the page that it was used.  A PTE that is not
	 * special maps a page with a struct page (vm_normal_page()'s rule on
	 * x86); most are referenced already: no atomic operation for those.
	 */
	if (!pte_special(pte)) {
		folio = page_folio(pte_page(pte));
		if (!folio_test_referenced(folio))
			folio_set_referenced(folio);
	}
	if (!w->closed)
		return;
	/* wp: the walk write-protects only VM_WRITE mappings */
	w->batch[w->nbatch++] = (addr >> PAGE_SHIFT) << 1 |
		(wp && pte_dirty(pte));
	if (w->nbatch == ARRAY_SIZE(w->batch))
		fr_boundary_flush(w);
}

/*
 * Whether the mapping that replaces `vma` at addr (mmap(MAP_FIXED) of
 * newfile at offset newoff for the range starting at start) shows the same
 * bytes: the same file at the same offset (ld.so's segment overlays).
 */
static bool fr_same_bytes(struct fr_walk *w, struct vm_area_struct *vma,
			  unsigned long addr)
{
	u64 oldoff = ((u64)vma->vm_pgoff << PAGE_SHIFT) + addr - vma->vm_start;

	return w->newfile && vma->vm_file &&
	       file_inode(vma->vm_file) == file_inode(w->newfile) &&
	       oldoff == w->newoff + addr - w->start;
}

/*
 * One present PTE in a range about to be unmapped; PTE lock held.  Bit 0 of
 * the address kept says the page was accessed since the last boundary, bit 1
 * that the new mapping shows the same bytes (not a new life).
 */
static void fr_capture_pte(struct fr_walk *w, struct vm_area_struct *vma,
			   unsigned long addr, pte_t *ptep)
{
	bool same = fr_same_bytes(w, vma, addr) && !pte_dirty(*ptep);

	if (w->naddrs < w->maxaddrs)
		w->addrs[w->naddrs++] = addr | (pte_young(*ptep) ? 1 : 0) |
					(same ? 2 : 0);
	else
		w->full = true;
}

/*
 * Marks the open interval's entries of the batch's [lo, hi) retired, but
 * those the new mapping shows unchanged.  mmap_lock held, proc->work_lock
 * held.
 */
static void fr_retire_range(struct fr_walk *w, struct mm_struct *mm)
{
	struct fr_interval *iv = w->proc->cur;
	unsigned long idx;
	u32 first = 0, *pos = &first;
	void *e;

	if (!iv)
		return;
	spin_lock(&w->proc->lock);
	xa_for_each_range(&iv->pages, idx, e, w->lo >> PAGE_SHIFT,
			  (w->hi - 1) >> PAGE_SHIFT) {
		unsigned long addr = idx << PAGE_SHIFT;
		struct vm_area_struct *vma = find_vma(mm, addr);
		bool same;

		/* a present page: what the walk saw (w->addrs is in address order) */
		while (*pos < w->naddrs && (w->addrs[*pos] & PAGE_MASK) < addr)
			(*pos)++;
		if (*pos < w->naddrs && (w->addrs[*pos] & PAGE_MASK) == addr) {
			same = w->addrs[*pos] & 2;
			/*
			 * Retired by an earlier call of this interval, mapped
			 * and accessed again since: its second life, noted
			 * now.  The boundary would find it, but a cut before
			 * this call runs takes the mark off the whole range
			 * (fr_mem_unretire_held), the earlier call's too.
			 */
			if ((w->addrs[*pos] & 1) && (fr_pg_flags(e) & FR_PG_RETIRED))
				iv->flags |= FLIGHTREC_IF_TWO_LIVES;
		} else
			same = vma && vma->vm_start <= addr &&
			       fr_same_bytes(w, vma, addr);
		if (same && !(fr_pg_flags(e) & FLIGHTREC_PAGE_WRITTEN))
			continue;
		fr_pg_retire(iv, idx, e, true);
	}
	spin_unlock(&w->proc->lock);
}

/*
 * At the cut of iv: a held call whose capture retired pages of iv has not
 * run yet, and will be recorded in the next interval (where it is held and
 * captured again), or, past the stop deadline, is running and will be:
 * in iv those pages had one life, whatever the boundary finds accessed.
 * proc->lock held, the other threads stopped.
 */
void fr_mem_unretire_held(struct fr_proc *proc, struct fr_interval *iv)
{
	unsigned long idx;
	struct fr_thread *t;
	void *e;
	int i;

	lockdep_assert_held(&proc->lock);
	list_for_each_entry(t, &proc->threads, pnode) {
		if (!READ_ONCE(t->held_cap) ||
		    !(READ_ONCE(t->held_done) || READ_ONCE(t->in_sc)))
			continue;
		for (i = 0; i < ARRAY_SIZE(t->held_start); i++) {
			if (t->held_start[i] >= t->held_end[i])
				continue;
			xa_for_each_range(&iv->pages, idx, e,
					  t->held_start[i] >> PAGE_SHIFT,
					  (t->held_end[i] - 1) >> PAGE_SHIFT) {
				if (fr_pg_flags(e) & FR_PG_RETIRED)
					fr_pg_retire(iv, idx, e, false);
			}
		}
	}
}

/* what the walkers pass to each present PTE (fr_walk_pte_table, compat.h) */
struct fr_apply {
	struct fr_walk *w;
	struct vm_area_struct *vma;
};

static int fr_boundary_apply(pte_t *ptep, unsigned long addr, void *data)
{
	struct fr_apply *a = data;

	if (pte_present(ptep_get(ptep)))
		fr_boundary_pte(a->w, a->vma, addr, ptep);
	return 0;
}

static int fr_capture_apply(pte_t *ptep, unsigned long addr, void *data)
{
	struct fr_apply *a = data;

	if (pte_present(ptep_get(ptep)))
		fr_capture_pte(a->w, a->vma, addr, ptep);
	return 0;
}

/*
 * The walkers are inlined into each caller, which passes a constant @fn:
 * where the PTE loop is the module's own (before 6.5), the call per present
 * PTE is then direct, not an indirect call through a retpoline (262144 of
 * them for 1 GiB resident, at every boundary).  From 6.5 the PTE table is
 * mapped and locked by the kernel's apply_to_existing_page_range()
 * (fr_walk_pte_table, compat.h), which calls @fn indirectly.
 */
static __always_inline void fr_walk_pmd(struct fr_walk *w, struct vm_area_struct *vma,
			pmd_t *pmd, unsigned long addr, unsigned long end,
			pte_fn_t fn)
{
	struct fr_apply a = { .w = w, .vma = vma };
	pmd_t pmdval, seen;
	int err;

	pmdval = READ_ONCE(*pmd);
again:
	if (pmd_none(pmdval) || !pmd_present(pmdval))
		return;
	if (pmd_trans_huge(pmdval) || pmd_devmap(pmdval) || pmd_bad(pmdval)) {
		/*
		 * A transparent huge page (THP is disabled for registered
		 * processes: one made before registration): its accesses are
		 * not tracked; a boundary splits it (fr_split_thps).
		 */
		w->huge = true;
		if (w->split && pmd_trans_huge(pmdval) &&
		    w->nthp < ARRAY_SIZE(w->thp))
			w->thp[w->nthp++] = addr;
		return;
	}
	err = fr_walk_pte_table(vma->vm_mm, pmd, addr, end, fn, &a);
	if (err != -EAGAIN)
		return;
	/*
	 * The PTE table went away or was replaced (khugepaged retracting it,
	 * mmap_lock held for read only) before any PTE of it was seen: walk
	 * what the PMD holds now.  The same PMD again cannot be mapped:
	 * count the range as lost rather than loop.
	 */
	seen = pmdval;
	pmdval = READ_ONCE(*pmd);
	if (!pmd_same(seen, pmdval))
		goto again;
	w->flags |= FLIGHTREC_IF_LOST_PAGE;
}

static __always_inline void fr_walk_vma(struct fr_walk *w,
					struct vm_area_struct *vma,
					unsigned long addr, unsigned long end,
					pte_fn_t fn)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long next_pgd, next_p4d, next_pud, next_pmd, a;
	pgd_t *pgd;
	p4d_t *p4d;
	pud_t *pud;
	pmd_t *pmd;

	for (; addr < end; addr = next_pgd) {
		next_pgd = pgd_addr_end(addr, end);
		pgd = pgd_offset(mm, addr);
		if (pgd_none(*pgd) || pgd_bad(*pgd))
			continue;
		for (a = addr; a < next_pgd; a = next_p4d) {
			unsigned long b, c;

			next_p4d = p4d_addr_end(a, next_pgd);
			p4d = p4d_offset(pgd, a);
			if (p4d_none(*p4d) || p4d_bad(*p4d))
				continue;
			for (b = a; b < next_p4d; b = next_pud) {
				next_pud = pud_addr_end(b, next_p4d);
				pud = pud_offset(p4d, b);
				if (pud_none(*pud) || !pud_present(*pud))
					continue;
				if (pud_trans_huge(*pud) || pud_bad(*pud)) {
					w->huge = true;
					continue;
				}
				for (c = b; c < next_pud; c = next_pmd) {
					next_pmd = pmd_addr_end(c, next_pud);
					/* a batch: this PMD in the next one */
					if (w->batched && w->naddrs +
					    ((next_pmd - c) >> PAGE_SHIFT) >
					    w->maxaddrs) {
						w->resume = c;
						return;
					}
					pmd = pmd_offset(pud, c);
					fr_walk_pmd(w, vma, pmd, c, next_pmd, fn);
					cond_resched();
				}
			}
		}
	}
}

/*
 * fr_walk_vma() over the trackable VMAs in [start, end), with @writable
 * only those that may be written.  mmap_lock held.
 */
static __always_inline void fr_walk_range(struct fr_walk *w,
					  struct mm_struct *mm,
					  unsigned long start,
					  unsigned long end, bool writable,
					  pte_fn_t fn)
{
	struct vm_area_struct *vma;

	VMA_ITERATOR(vmi, mm, start);

	for_each_vma_range(vmi, vma, end) {
		if (!fr_vma_trackable(vma) ||
		    (writable && !(vma->vm_flags & VM_WRITE)))
			continue;
		fr_walk_vma(w, vma, max(start, vma->vm_start),
			    min(end, vma->vm_end), fn);
		if (w->resume)
			break;
	}
}

static void fr_flush_ipi(void *info)
{
	__flush_tlb_all();
}

/*
 * Flushes every CPU's cached translations of mm.  The bumped TLB generation
 * makes a CPU that switches to mm later flush too (switch_mm_irqs_off).
 */
static void fr_flush_mm(struct mm_struct *mm)
{
	/*
	 * inc_mm_tlb_gen() is hidden from modules; this is its body.  A full
	 * barrier: the PTE writes above are ordered before mm_cpumask is read.
	 */
	atomic64_inc_return(&mm->context.tlb_gen);
	on_each_cpu_cond_mask(NULL, fr_flush_ipi, NULL, true, mm_cpumask(mm));
}

/*
 * Resolves the pages of [first, last] (page indexes) written while not
 * present in interval iv, from the mapping: mmap_lock held.  A file's page
 * comes from the page cache alone, where the write fault that made the copy
 * put it; one no longer cached is flagged lost (no I/O under mmap_lock).
 */
static void fr_resolve_notpresent(struct fr_proc *proc, struct fr_interval *iv,
				  struct mm_struct *mm, unsigned long first,
				  unsigned long last)
{
	unsigned long idx;
	void *e;

	/* the marked entries alone: most intervals have none */
	for (idx = first, e = xa_find(&iv->pages, &idx, last, FR_XA_NOTPRESENT);
	     e; e = xa_find_after(&iv->pages, &idx, last, FR_XA_NOTPRESENT)) {
		unsigned long addr = idx << PAGE_SHIFT;
		struct vm_area_struct *vma;
		struct fr_page *pg;
		void *data, *repl;
		bool lost = false;
		size_t add = 0;
		loff_t pos;
		ssize_t n;

		/* replaced since by a copy (fr_mem_capture_range): done */
		if (!xa_is_value(e) || !(xa_to_value(e) & FR_PG_NOTPRESENT))
			continue;
		if (xa_to_value(e) & FR_PG_SWAPPED) {
			/* its bytes were in swap: gone with the write */
			repl = xa_mk_value(FLIGHTREC_PAGE_WRITTEN);
			lost = true;
			goto store;
		}
		vma = find_vma(mm, addr);
		if (!vma || vma->vm_start > addr || !vma->vm_file) {
			/* anonymous memory, stack growth: it was zero */
			repl = xa_mk_value(FLIGHTREC_PAGE_ZERO |
					   FLIGHTREC_PAGE_WRITTEN);
			goto store;
		}
		repl = xa_mk_value(FLIGHTREC_PAGE_WRITTEN);	/* unknown */
		if (vma->vm_flags & VM_SHARED) {
			/* the file holds the new bytes already */
			lost = true;
			goto store;
		}
		if (!fr_charge(proc, PAGE_SIZE + sizeof(*pg))) {
			lost = true;
			goto store;
		}
		data = fr_page_alloc(GFP_KERNEL);
		pg = kmalloc(sizeof(*pg), GFP_KERNEL);
		if (data)
			clear_page(data);	/* past the file's end: zeroes */
		if (!data || !pg) {
			fr_page_free(data);
			kfree(pg);
			fr_uncharge(PAGE_SIZE + sizeof(*pg));
			lost = true;
			goto store;
		}
		pos = ((loff_t)((addr - vma->vm_start) >> PAGE_SHIFT) +
		       vma->vm_pgoff) << PAGE_SHIFT;
		/* no I/O under mmap_lock: the write fault cached it (#9) */
		n = fr_file_read_cached(vma->vm_file, data, PAGE_SIZE, pos);
		if (n < 0) {
			fr_page_free(data);
			kfree(pg);
			fr_uncharge(PAGE_SIZE + sizeof(*pg));
			lost = true;
			goto store;
		}
		pg->flags = FLIGHTREC_PAGE_DATA | FLIGHTREC_PAGE_WRITTEN;
		pg->data = data;
		repl = pg;
		add = PAGE_SIZE + sizeof(*pg);
store:
		/*
		 * Replaces an entry: allocates nothing, cannot fail.  iv may be
		 * the open interval, whose counters the probes change under
		 * proc->lock.
		 */
		spin_lock(&proc->lock);
		iv->bytes += add;
		if (lost) {
			iv->flags |= FLIGHTREC_IF_LOST_PAGE;
			proc->lost_pages++;
		}
		xa_lock_irq(&iv->pages);
		__xa_store(&iv->pages, idx, repl, GFP_ATOMIC | __GFP_NOWARN);
		__xa_clear_mark(&iv->pages, idx, FR_XA_NOTPRESENT);
		xa_unlock_irq(&iv->pages);
		spin_unlock(&proc->lock);
	}
}

/* a present PTE of fr_mem_rewrprotect()'s range: writable no more */
static int fr_rewrprotect_apply(pte_t *ptep, unsigned long addr, void *data)
{
	struct fr_apply *a = data;
	unsigned long i = (addr >> PAGE_SHIFT) - a->w->known_first;
	pte_t pte = ptep_get(ptep);

	if (!pte_present(pte) || !pte_write(pte))
		return 0;
	/* written in this interval already: its copy is made */
	if (a->w->known && i < a->w->known_n && test_bit(i, a->w->known))
		return 0;
	if (fr_pte_pinned(a->vma, pte)) {
		a->w->flags |= FLIGHTREC_IF_GUP_WRITE;
		return 0;
	}
	/* the accessed and dirty bits stay: the next boundary reads them */
	while (!try_cmpxchg((pteval_t *)&ptep->pte, &pte.pte,
			    pte_wrprotect(pte).pte))
		;
	a->w->flush = true;
	return 0;
}

/*
 * An mprotect() or pkey_mprotect() that gave write permission to
 * [start, end) has made writable at once the PTEs of the dirty pages
 * there that a boundary had write-protected (mm/mprotect.c,
 * can_change_pte_writable: exclusive anonymous pages, and shared ones
 * whose file needs no write notification): their next write would take
 * no fault, so their bytes at the interval start would never be copied.
 * The thread that made the call write-protects them again, as a boundary
 * does, before it runs user code (its task_work; the syscall's exit asked
 * for it, fr_sys_exit_special).  Another thread of the process can write
 * such a page between the call's change and this walk: that window is not
 * closed (docs/recording.md, "Known limits").
 *
 * A page written in the open interval already (its original kept) stays
 * writable: write-protected, it would only take a second fault, whose copy
 * is thrown away (a JIT or a collector that flips a page's protection at
 * every use).  Which pages those are is read once, under proc->lock, for a
 * range of at most FR_REWP_KNOWN_MAX pages.  A boundary after that read
 * write-protects every writable PTE itself, after its cut: no page is left
 * writable in an interval that does not hold its original.  current is a
 * thread of proc.
 */
#define FR_REWP_KNOWN_MAX	4096

static void fr_rewrprotect_known(struct fr_proc *proc, struct fr_walk *w,
				 unsigned long start, unsigned long end)
{
	unsigned long first = start >> PAGE_SHIFT;
	unsigned long n = (end - start) >> PAGE_SHIFT;
	unsigned long idx;
	void *e;

	if (n > FR_REWP_KNOWN_MAX)
		return;
	w->known = bitmap_zalloc(n, GFP_KERNEL | __GFP_NOWARN);
	if (!w->known)
		return;		/* every writable PTE is write-protected */
	w->known_first = first;
	w->known_n = n;
	spin_lock(&proc->lock);
	if (proc->cur)
		xa_for_each_range(&proc->cur->pages, idx, e, first, first + n - 1)
			/* its original: a copy, or bytes known to be zeros */
			if (!(fr_pg_flags(e) & FR_PG_RETIRED) &&
			    (!xa_is_value(e) ||
			     (xa_to_value(e) & (FR_PG_NOTPRESENT | FLIGHTREC_PAGE_ZERO))))
				__set_bit(idx - first, w->known);
	spin_unlock(&proc->lock);
}

void fr_mem_rewrprotect(struct fr_proc *proc, unsigned long start,
			unsigned long end)
{
	struct mm_struct *mm = current->mm;
	struct fr_walk w = {
		.proc = proc,
		.wrprotect = true,
	};

	if (!mm || start >= end)
		return;
	fr_rewrprotect_known(proc, &w, start, end);
	mmap_read_lock(mm);
	fr_walk_range(&w, mm, start, end, true, fr_rewrprotect_apply);
	if (w.flush)
		fr_flush_mm(mm);
	mmap_read_unlock(mm);
	bitmap_free(w.known);
	if (w.flags)
		fr_cur_flag(proc, w.flags);
}

/*
 * The huge pages the walk met are split into page-table entries, with
 * FOLL_SPLIT_PMD (as uprobes does): the huge page stays, mapped by 512 PTEs
 * that carry the PMD's accessed and dirty bits, so from now on every page of
 * it is tracked like any other.  The range is then walked again: all of its
 * pages count as accessed in the closing interval (the PMD had one bit for
 * them), and they are write-protected.  Writes in the closing interval were
 * not seen: it keeps FLIGHTREC_IF_LOST_PAGE.  Up to 16 per boundary; the
 * rest go at the next.  mmap_lock held for read.
 */
static void fr_split_thps(struct fr_walk *w, struct mm_struct *mm)
{
	struct vm_area_struct *vma;
	unsigned long addr, end;
	struct page *page;
	u32 i;

	w->split = false;
	if (w->nbatch)
		fr_boundary_flush(w);	/* a batch is in address order */
	for (i = 0; i < w->nthp; i++) {
		addr = w->thp[i];
		if (fr_get_user_pages_remote(mm, addr, 1,
					     FOLL_SPLIT_PMD | FOLL_NOFAULT,
					     &page) == 1)
			put_page(page);
		vma = vma_lookup(mm, addr);
		if (!vma || !fr_vma_trackable(vma))
			continue;
		end = min(ALIGN(addr + 1, PMD_SIZE), vma->vm_end);
		w->wrprotect = !!(vma->vm_flags & VM_WRITE);
		fr_walk_vma(w, vma, addr, end, fr_boundary_apply);
	}
	w->nthp = 0;
}

/*
 * What the bits of the pages a boundary found accessed take: they carry no
 * bytes of their own, but their XArray does: a leaf node per XA_CHUNK_SIZE
 * value entries of FR_ACC_BITS pages, 4.7 MB for a process that reads 64
 * GiB in every interval.  Charged as the interval's, like its records: the
 * leaves the walk filled, and a node above per XA_CHUNK_SIZE of them (an
 * estimate: the upper levels, and a leaf met again after a THP split, are
 * rounded up).
 */
static size_t fr_acc_bytes(u32 leaves)
{
	return (leaves + DIV_ROUND_UP(leaves, XA_CHUNK_SIZE)) *
	       sizeof(struct xa_node);
}

/*
 * Pages [start, end) of iv taken as accessed: their bits set in iv->acc.
 * proc->lock held (iv->bytes); a new leaf is counted as the boundary's
 * walk counts its own (fr_acc_bytes), and charged without eviction, as the
 * fault probe charges (the next boundary enforces the cap).
 */
static void fr_acc_add(struct fr_interval *iv, unsigned long start,
		       unsigned long end)
{
	unsigned long idx = start >> PAGE_SHIFT, last = (end - 1) >> PAGE_SHIFT;
	XA_STATE(xas, &iv->acc, 0);
	size_t bytes = 0;

	xas_lock(&xas);
	while (idx <= last) {
		unsigned long chunk = idx >> FR_ACC_SHIFT, mask = 0;
		bool leaf;
		void *e;

		do {
			mask |= 1UL << (idx & (FR_ACC_BITS - 1));
		} while (++idx <= last && idx >> FR_ACC_SHIFT == chunk);
		xas_set(&xas, chunk);
		e = xas_load(&xas);
		leaf = xas.xa_node && !xas_invalid(&xas) && !xas.xa_node->shift;
		if (e)
			mask |= xa_to_value(e);
		if (e == xa_mk_value(mask))
			continue;
		do {
			xas_store(&xas, xa_mk_value(mask));
		} while (xas_nomem(&xas, GFP_ATOMIC | __GFP_NOWARN));
		if (xas_error(&xas)) {
			iv->flags |= FLIGHTREC_IF_LOST_PAGE;
			break;
		}
		if (!leaf)
			bytes += fr_acc_bytes(1);
	}
	xas_unlock(&xas);
	iv->bytes += bytes;
	atomic64_add(bytes, &fr_bytes);
}

/*
 * Reclaim or idle page tracking cleared the accessed bits of [start, end)
 * of proc's mm (its MMU notifier, registry.c): the bits the next boundary
 * would have read.  Whether they were set is not said, so the pages are
 * taken as accessed in the open interval, and in the one a boundary is
 * closing (its walk may not have reached them).  A page so taken that was
 * not accessed costs its bytes in the dump, never wrong ones: it was not
 * written either (a write faults first), and the serialiser gives it the
 * bytes of the interval's start by the rule of pages only read.  Under the
 * PTE lock, from reclaim: no sleeping, no lock but proc->lock and the
 * XArray's.
 */
void fr_mem_young_cleared(struct fr_proc *proc, unsigned long start,
			  unsigned long end)
{
	if (start >= end)
		return;
	spin_lock(&proc->lock);
	if (proc->cur)
		fr_acc_add(proc->cur, start, end);
	if (proc->closing)
		fr_acc_add(proc->closing, start, end);
	spin_unlock(&proc->lock);
}

/*
 * A context of iv inside a call (in_syscall: a thread blocked in it at the
 * cut, or whose work ran inside it or before its sys_enter): its replay
 * makes the call again from its syscall instruction, the two bytes before
 * ip, which the thread fetched before the cut.  The page or two that hold
 * them are taken as read in iv: a thread whose call then returned and
 * whose process was dumped before it ran more of its own code read none
 * of them in iv, and its replay stopped at once for want of the
 * instruction (tests/checkpoint_cmds.c, event.*_dump_at_return).  Pages of
 * a mapping the walk does not track are left out, as it leaves them.
 * mmap_lock held (mm is the proc's), proc->lock held.
 */
void fr_mem_ctx_insn(struct fr_proc *proc, struct fr_interval *iv,
		     struct mm_struct *mm, const struct fr_thread_ctx *ctx)
{
	unsigned long ip = ctx->regs.ip, a;
	struct vm_area_struct *vma;

	lockdep_assert_held(&proc->lock);
	/* not mmap_assert_locked(): its dump_mm() is not exported */
	lockdep_assert_held(&mm->mmap_lock);
	if (ctx->in_syscall < 0 || ip < 2 || ip > TASK_SIZE_MAX)
		return;
	for (a = ip - 2; a < ip; a = (a | ~PAGE_MASK) + 1) {
		vma = vma_lookup(mm, a);
		if (vma && (vma->vm_flags & VM_EXEC) && fr_vma_trackable(vma))
			fr_acc_add(iv, a & PAGE_MASK, (a & PAGE_MASK) + PAGE_SIZE);
	}
}

/*
 * What a walk put into w->closed's page set: its flags, and the bytes of
 * the XArray leaves it filled, charged whatever the cap says, as the
 * boundary's map is.
 */
static void fr_walk_account(struct fr_walk *w)
{
	struct fr_proc *proc = w->proc;
	size_t bytes = fr_acc_bytes(w->acc_leaves);

	spin_lock(&proc->lock);
	w->closed->flags |= w->flags;
	w->closed->bytes += bytes;
	spin_unlock(&proc->lock);
	if (!fr_charge(proc, bytes))
		atomic64_add(bytes, &fr_bytes);
}

/*
 * The page walk of a boundary: accessed pages go to `closed` (NULL at the
 * first boundary), writable PTEs are write-protected.  mmap_lock held for
 * read; current is a thread of proc.
 */
void fr_mem_boundary(struct fr_proc *proc, struct fr_interval *closed,
		     struct fr_interval *next)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct fr_walk w = {
		.proc = proc,
		.closed = closed,
		.wrprotect = true,
	};

	VMA_ITERATOR(vmi, mm, 0);

	/* as prctl(PR_SET_THP_DISABLE): huge pages would hide accesses */
	set_bit(MMF_DISABLE_THP, &mm->flags);
	w.split = true;
	for_each_vma(vmi, vma) {
		if (!fr_vma_trackable(vma))
			continue;
		w.wrprotect = !!(vma->vm_flags & VM_WRITE);
		fr_walk_vma(&w, vma, vma->vm_start, vma->vm_end, fr_boundary_apply);
	}
	fr_split_thps(&w, mm);
	if (w.nbatch)
		fr_boundary_flush(&w);
	/* accessed bits were cleared too: flush even without write-protection */
	fr_flush_mm(mm);
	if (w.huge)
		w.flags |= FLIGHTREC_IF_LOST_PAGE;
	if (closed) {
		fr_walk_account(&w);
		fr_resolve_notpresent(proc, closed, mm, 0, ULONG_MAX);
	}
	/* enforce the cap for what the fault probe added without evicting */
	fr_charge(proc, 0);
}

/* a present PTE of fr_mem_harvest_young()'s range: noted if accessed */
static int fr_harvest_apply(pte_t *ptep, unsigned long addr, void *data)
{
	struct fr_walk *w = ((struct fr_apply *)data)->w;
	pte_t pte = ptep_get(ptep);

	if (!pte_present(pte) || !pte_young(pte))
		return 0;
	/* bit 0 clear: nothing said of a write */
	w->batch[w->nbatch++] = (addr >> PAGE_SHIFT) << 1;
	if (w->nbatch == ARRAY_SIZE(w->batch))
		fr_boundary_flush(w);
	return 0;
}

/*
 * A held madvise(MADV_COLD) or madvise(MADV_PAGEOUT) of [start, end) is
 * about to clear the accessed bits of the range's pages: those set are
 * taken into the open interval's page set now, as its boundary would have
 * found them (tests/record_memory.c, pages_read_then_made_cold).  The bits
 * are left for the call to clear; a boundary that comes first finds them
 * itself.  What another thread reads in the range between this walk and
 * the call is not seen (docs/recording.md, "Known limits").  In the
 * thread's task_work, work_lock held: no boundary moves proc->cur.
 */
void fr_mem_harvest_young(struct fr_proc *proc, unsigned long start,
			  unsigned long end)
{
	struct mm_struct *mm = current->mm;
	struct fr_walk w = {
		.proc = proc,
		.closed = proc->cur,
	};

	lockdep_assert_held(&proc->work_lock);
	if (!mm || !w.closed || start >= end || end > TASK_SIZE_MAX)
		return;
	mmap_read_lock(mm);
	fr_walk_range(&w, mm, start, end, false, fr_harvest_apply);
	if (w.nbatch)
		fr_boundary_flush(&w);
	mmap_read_unlock(mm);
	/* a huge page's accesses are its PMD's: not seen page by page */
	if (w.huge)
		w.flags |= FLIGHTREC_IF_LOST_PAGE;
	fr_walk_account(&w);
}

/* Copies the current bytes of `addr` into a new struct fr_page. */
static struct fr_page *fr_page_copy_user(unsigned long addr)
{
	struct fr_page *pg = kmalloc(sizeof(*pg), GFP_KERNEL);
	void *data = fr_page_alloc(GFP_KERNEL);

	if (!pg || !data)
		goto out_free;
	if (fr_copy_user_page(data, addr, true))
		goto out_free;
	pg->flags = FLIGHTREC_PAGE_DATA;
	pg->data = data;
	return pg;

out_free:
	fr_page_free(data);
	kfree(pg);
	return NULL;
}

/* Whether page idx is in iv's initial page set. */
bool fr_pageset_has(struct fr_interval *iv, unsigned long idx)
{
	void *a = xa_load(&iv->acc, idx >> FR_ACC_SHIFT);

	if (a && (xa_to_value(a) & (1UL << (idx & (FR_ACC_BITS - 1)))))
		return true;
	return xa_load(&iv->pages, idx);
}

/*
 * The first page of iv's initial page set at or after *idx, which it sets:
 * its entry in iv->pages, or for a page only found accessed (iv->acc), a
 * value entry of FR_PG_ACCESSED.  NULL when there is none.  The interval is
 * in the ring or a dump, or proc->lock is held.
 */
void *fr_pageset_find(struct fr_interval *iv, unsigned long *idx)
{
	unsigned long chunk = *idx >> FR_ACC_SHIFT, bits = 0, first = *idx;
	unsigned long q = ULONG_MAX;
	void *a, *e;

	for (a = xa_find(&iv->acc, &chunk, ULONG_MAX >> FR_ACC_SHIFT, XA_PRESENT);
	     a; a = xa_find_after(&iv->acc, &chunk, ULONG_MAX >> FR_ACC_SHIFT,
				  XA_PRESENT)) {
		bits = xa_to_value(a);
		if (chunk == *idx >> FR_ACC_SHIFT)
			bits &= ~0UL << (*idx & (FR_ACC_BITS - 1));
		if (bits) {
			q = chunk << FR_ACC_SHIFT | __ffs(bits);
			break;
		}
	}
	/* an entry of pages comes first if it is not after q */
	e = xa_find(&iv->pages, &first, q, XA_PRESENT);
	if (e) {
		*idx = first;
		return e;
	}
	if (!bits)
		return NULL;
	*idx = q;
	return xa_mk_value(FR_PG_ACCESSED);
}

static bool fr_ring_references(struct fr_proc *proc, unsigned long idx)
{
	struct fr_interval *iv;
	bool ref = false;

	spin_lock(&proc->lock);
	list_for_each_entry(iv, &proc->ring, node) {
		if (fr_pageset_has(iv, idx)) {
			ref = true;
			break;
		}
	}
	spin_unlock(&proc->lock);
	return ref;
}

/*
 * Copies the pages of the batch in w->addrs that the open interval needs
 * (see fr_mem_capture_range); false when the cap refused one.
 */
static bool fr_capture_copy(struct fr_proc *proc, struct fr_walk *w)
{
	u32 i;

	for (i = 0; i < w->naddrs; i++) {
		unsigned long addr = w->addrs[i] & PAGE_MASK;
		unsigned long idx = addr >> PAGE_SHIFT;
		bool young = w->addrs[i] & 1;
		struct fr_interval *iv;
		struct fr_page *pg;
		void *old;
		bool need;

		spin_lock(&proc->lock);
		iv = proc->cur;
		old = iv ? xa_load(&iv->pages, idx) : NULL;
		need = iv && !fr_pg_has_bytes(old);
		spin_unlock(&proc->lock);
		/* not accessed in the open interval, nor needed by the ring */
		if (!need || (!old && !young && !fr_ring_references(proc, idx)))
			continue;
		if (!fr_charge(proc, PAGE_SIZE + sizeof(*pg)))
			return false;
		pg = fr_page_copy_user(addr);
		if (!pg) {
			fr_uncharge(PAGE_SIZE + sizeof(*pg));
			continue;
		}
		spin_lock(&proc->lock);
		iv = proc->cur;
		if (iv && !fr_pg_has_bytes(xa_load(&iv->pages, idx)) &&
		    !xa_err(xa_store(&iv->pages, idx, pg, GFP_ATOMIC | __GFP_NOWARN))) {
			iv->bytes += PAGE_SIZE + sizeof(*pg);
			pg = NULL;
		}
		spin_unlock(&proc->lock);
		if (pg) {
			fr_page_free(pg->data);
			kfree(pg);
			fr_uncharge(PAGE_SIZE + sizeof(*pg));
		}
	}
	return true;
}

/*
 * Before [start, end) is unmapped or discarded: the pages of it that the
 * open interval accessed, or that the ring still needs the bytes of, are
 * copied into the open interval now (their bytes at its start: a page
 * written in it has its original already).  task_work of a thread of proc.
 *
 * In batches: the walk lists the present pages of as many PMDs as fit in
 * one page of the page pool (512 addresses, not cleared: nothing is read
 * that the walk did not write), their copies are made, their entries
 * retired, and the walk goes on where it stopped.  Most ranges are one
 * batch (a thread's stack that glibc discards at the thread's exit, a freed
 * malloc block); none is too big (an array sized for the range came cleared
 * from the allocator, init_on_alloc: 16 KiB for an 8 MiB stack at every
 * thread's exit, and gave up past 1 GiB present).
 */
void fr_mem_capture_range(struct fr_proc *proc, unsigned long start,
			  unsigned long end, struct file *newfile, u64 newoff)
{
	struct mm_struct *mm = current->mm;
	struct fr_walk w = {
		.proc = proc,
		.start = start,
		.end = end,
		.newfile = newfile,
		.newoff = newoff,
		.batched = true,
		.maxaddrs = PAGE_SIZE / sizeof(*w.addrs),
	};
	unsigned long pos;
	bool ok = true;

	BUILD_BUG_ON(PAGE_SIZE / sizeof(*w.addrs) < PTRS_PER_PTE);
	if (!mm || start >= end || end > TASK_SIZE_MAX)
		return;
	w.addrs = fr_page_alloc(GFP_KERNEL);
	if (!w.addrs) {
		fr_cur_flag(proc, FLIGHTREC_IF_LOST_PAGE);
		return;
	}
	for (pos = start; pos < end; pos = w.hi) {
		w.naddrs = 0;
		w.resume = 0;
		mmap_read_lock(mm);
		/* written while not present: their origin (zero, the file) goes too */
		if (proc->cur)
			fr_resolve_notpresent(proc, proc->cur, mm,
					      pos >> PAGE_SHIFT,
					      (end - 1) >> PAGE_SHIFT);
		fr_walk_range(&w, mm, pos, end, false, fr_capture_apply);
		mmap_read_unlock(mm);
		/* a batch stops after a page it listed: resume > pos */
		w.lo = pos;
		w.hi = w.resume ?: end;
		ok = fr_capture_copy(proc, &w);
		if (!ok)
			break;
		/* what is left of the batch is a new life, unless it shows the same bytes */
		mmap_read_lock(mm);
		fr_retire_range(&w, mm);
		mmap_read_unlock(mm);
	}
	fr_page_free(w.addrs);
	/* out of room, or a THP: reported as lost */
	if (!ok || w.huge || w.full || (w.flags & FLIGHTREC_IF_LOST_PAGE))
		fr_cur_flag(proc, FLIGHTREC_IF_LOST_PAGE);
}

/* false when the array is full */
static bool fr_nodump_add(unsigned long *r, u32 *n, u32 max, u64 start, u64 end)
{
	if (*n >= max)
		return false;
	r[2 * *n] = start >> PAGE_SHIFT;
	r[2 * *n + 1] = end >> PAGE_SHIFT;
	(*n)++;
	return true;
}

/*
 * dump->nodump: the VM_DONTDUMP mappings of every interval of the dump (as
 * each began) and of the freeze.  Returns an error when it cannot be built
 * whole (no memory, more mappings than counted): the caller then hands out
 * no page at all rather than risk one.
 */
static int fr_nodump_ranges(struct fr_dump *dump, struct mm_struct *mm)
{
	struct vm_area_struct *vma;
	struct fr_interval *iv;
	u32 max = 0, n = 0, i;
	bool full = false;

	VMA_ITERATOR(vmi, mm, 0);

	list_for_each_entry(iv, &dump->intervals, node)
		for (i = 0; i < iv->nr_maps; i++)
			max += !!(iv->maps[i].flags & FLIGHTREC_MAPF_DONTDUMP);
	mmap_read_lock(mm);
	for_each_vma(vmi, vma)
		max += !!(vma->vm_flags & VM_DONTDUMP);
	mmap_read_unlock(mm);
	if (!max)
		return 0;
	max += 16;	/* room for some made since the count; more: fail closed */
	dump->nodump = kmalloc_array(2 * max, sizeof(*dump->nodump), GFP_KERNEL);
	if (!dump->nodump)
		return -ENOMEM;
	list_for_each_entry(iv, &dump->intervals, node)
		for (i = 0; i < iv->nr_maps; i++)
			if (iv->maps[i].flags & FLIGHTREC_MAPF_DONTDUMP)
				fr_nodump_add(dump->nodump, &n, max,
					      iv->maps[i].start, iv->maps[i].end);
	mmap_read_lock(mm);
	vma_iter_init(&vmi, mm, 0);
	for_each_vma(vmi, vma)
		if ((vma->vm_flags & VM_DONTDUMP) &&
		    !fr_nodump_add(dump->nodump, &n, max, vma->vm_start,
				   vma->vm_end))
			full = true;
	mmap_read_unlock(mm);
	dump->nr_nodump = n;
	return full ? -ENOSPC : 0;
}

/* Pages [first, last] meet a VM_DONTDUMP mapping of the dump. */
bool fr_mem_nodump_range(const struct fr_dump *dump, unsigned long first,
			 unsigned long last)
{
	u32 i;

	if (dump->nr_nodump == U32_MAX)
		return true;
	for (i = 0; i < dump->nr_nodump; i++)
		if (first < dump->nodump[2 * i + 1] && last >= dump->nodump[2 * i])
			return true;
	return false;
}

/* Page idx lies in a VM_DONTDUMP mapping of the dump: not handed out. */
bool fr_mem_nodump(const struct fr_dump *dump, unsigned long idx)
{
	u32 i;

	if (dump->nr_nodump == U32_MAX)
		return true;	/* the ranges are unknown: no page at all */
	for (i = 0; i < dump->nr_nodump; i++)
		if (idx >= dump->nodump[2 * i] && idx < dump->nodump[2 * i + 1])
			return true;
	return false;
}

/*
 * At a freeze: every page of the dump whose bytes are "as now" (no later
 * interval of the dump holds them) is copied into dump->final, except those
 * of VM_DONTDUMP mappings (fr_nodump_ranges).  Called without mmap_lock.
 */
int fr_mem_resolve(struct fr_dump *dump, struct mm_struct *mm)
{
	struct fr_interval *iv, *later;
	unsigned long idx;
	void *e, *data;
	int lost = 0;

	if (fr_nodump_ranges(dump, mm))
		dump->nr_nodump = U32_MAX;
	list_for_each_entry(iv, &dump->intervals, node) {
		for (idx = 0; (e = fr_pageset_find(iv, &idx)); idx++) {
			bool found = false;

			if (fr_pg_has_bytes(e) || fr_mem_nodump(dump, idx))
				continue;
			later = iv;
			list_for_each_entry_continue(later, &dump->intervals, node) {
				if (fr_pg_has_bytes(xa_load(&later->pages, idx))) {
					found = true;
					break;
				}
			}
			if (found || xa_load(&dump->final, idx))
				continue;
			/* evicts older frozen dumps, never this one */
			if (!fr_charge(NULL, PAGE_SIZE)) {
				iv->flags |= FLIGHTREC_IF_LOST_PAGE;
				lost++;
				continue;
			}
			data = fr_page_alloc(GFP_KERNEL);
			if (!data ||
			    fr_copy_user_page(data, idx << PAGE_SHIFT, true) ||
			    xa_err(xa_store(&dump->final, idx, data, GFP_KERNEL))) {
				fr_page_free(data);
				fr_uncharge(PAGE_SIZE);
				iv->flags |= FLIGHTREC_IF_LOST_PAGE;
				lost++;
				continue;
			}
			dump->bytes += PAGE_SIZE;
		}
	}
	return lost ? -EFAULT : 0;
}

/*
 * The bytes of page idx at the start of interval iv of dump, by the seed's
 * rule; NULL if unknown.  *zero is set for a zero page.
 */
const void *fr_mem_page_bytes(struct fr_dump *dump, struct fr_interval *iv,
			      unsigned long idx, bool *zero)
{
	struct fr_interval *later = iv;
	void *e = xa_load(&iv->pages, idx);

	*zero = false;
	for (;;) {
		if (e && !xa_is_value(e))
			return ((struct fr_page *)e)->data;
		if (e && (xa_to_value(e) & FLIGHTREC_PAGE_ZERO)) {
			*zero = true;
			return NULL;
		}
		if (list_is_last(&later->node, &dump->intervals))
			break;
		later = list_next_entry(later, node);
		e = xa_load(&later->pages, idx);
	}
	return xa_load(&dump->final, idx);
}

static void fr_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "page_fault_user"))
		fr_tp_pf_user = tp;
	else if (!strcmp(tp->name, "page_fault_kernel"))
		fr_tp_pf_kernel = tp;
}

int fr_memory_init(void)
{
	int err;

	for_each_kernel_tracepoint(fr_find_tp, NULL);
	if (!fr_tp_pf_user || !fr_tp_pf_kernel) {
		pr_err("page_fault_user/page_fault_kernel tracepoints not found\n");
		return -ENOENT;
	}
	err = tracepoint_probe_register(fr_tp_pf_user, fr_pf_probe, NULL);
	if (err)
		return err;
	err = tracepoint_probe_register(fr_tp_pf_kernel, fr_pf_probe, NULL);
	if (err)
		goto out_user;
	return 0;

out_user:
	tracepoint_probe_unregister(fr_tp_pf_user, fr_pf_probe, NULL);
	tracepoint_synchronize_unregister();
	return err;
}

void fr_memory_exit(void)
{
	tracepoint_probe_unregister(fr_tp_pf_kernel, fr_pf_probe, NULL);
	tracepoint_probe_unregister(fr_tp_pf_user, fr_pf_probe, NULL);
	tracepoint_synchronize_unregister();
}
