// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec: the memory syscall records are cut from, and the pages that
 * page copies are made in (fr_page_alloc, below).
 *
 * Records are made in the syscall path: they come from the thread's arena,
 * a chunk that hands out space by bumping an offset and is freed when its
 * last record is (each record holds a reference, the thread one on its
 * current chunk: FR_ARENA_BIAS).  Only the thread itself allocates from it,
 * in its probes and task_work, so the bump needs no lock.  The ring's accounting charges
 * each record's own size: the unused tail of a chunk, and the space of freed
 * records in a chunk still pinned by newer ones, are not counted (at most a
 * chunk per thread in practice, as records are freed oldest first).
 *
 * A syscall-heavy process fills an interval with thousands of chunks and
 * the ring drops as many with the oldest interval at each boundary.  Freed
 * chunks are kept in a pool and handed out again, so in steady state
 * recording allocates nothing: a chunk new from the allocator costs more
 * than the records cut from it (a new slab page is cleared, and with
 * init_on_alloc every object is zeroed again).  The pools hold at most a
 * quarter of ring_mb besides the ring; the chunk pools shrink back to
 * FR_ARENA_POOL_IDLE when no chunk was taken for FR_ARENA_IDLE, and all of
 * them to nothing under memory pressure (a shrinker).
 *
 * Chunks come from their own caches, with a constructor: such objects are
 * not zeroed on allocation (init_on_alloc skips them).  A chunk's header is
 * set when it is handed out (fr_arena_get) and records are fully written
 * before they are read (fr_build).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/shrinker.h>
#include <linux/workqueue.h>
#include <linux/llist.h>
#include <linux/vmalloc.h>
#include <linux/mm.h>
#include <linux/jiffies.h>
#include "flightrec.h"

/*
 * Two classes of chunks: records up to FR_SMALL_MAX bytes (most calls) are
 * cut from 8 KiB chunks, bigger ones up to FR_REC_CHUNKED (a 32 KiB read's
 * data, say) from 128 KiB chunks, taken by a thread only when it makes such
 * a record.  Bigger still, or when no chunk can be had, a record is
 * allocated alone.
 */
#define FR_BIG_SIZE		(128U << 10)
#define FR_ARENA_POOL_IDLE	(2U << 20)	/* bytes kept when idle, per class */
#define FR_ARENA_IDLE		(2 * HZ)
static_assert(FR_REC_CHUNKED <= FR_BIG_SIZE / 2);

/*
 * A chunk's count: FR_ARENA_BIAS for the thread cutting records from it,
 * minus one per record freed.  The thread counts the records it cut (nrec,
 * its own field: no atomic operation per record) and gives back its bias
 * less that many when it moves to another chunk: what is left is then the
 * number of live records, and the last free of a record frees the chunk.
 */
#define FR_ARENA_BIAS		(1 << 30)

struct fr_arena_class {
	const char *name;
	u32 size;			/* of a chunk, header included */
	struct kmem_cache *cache;
	struct list_head pool;
	unsigned long pooled;		/* chunks in pool */
};

static struct fr_arena_class fr_classes[] = {
	{ .name = "flightrec_records", .size = FR_SMALL_SIZE },
	{ .name = "flightrec_records_big", .size = FR_BIG_SIZE },
};

static LIST_HEAD(fr_page_pool);		/* struct page, by lru */
static unsigned long fr_pages_pooled;
static LIST_HEAD(fr_alone_pool);	/* struct fr_alone */
static unsigned long fr_alone_pooled;	/* buffers */
static u64 fr_alone_bytes;		/* their capacities */
static unsigned long fr_arena_last_take;	/* jiffies */
static DEFINE_SPINLOCK(fr_arena_lock);	/* leaf lock: the pools */
static void fr_arena_trim_workfn(struct work_struct *work);
static DECLARE_DELAYED_WORK(fr_arena_trim_work, fr_arena_trim_workfn);

/* bytes in the pools; fr_arena_lock held */
static u64 fr_pooled_bytes(void)
{
	u64 n = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(fr_classes); i++)
		n += (u64)fr_classes[i].pooled * fr_classes[i].size;
	return n + fr_alone_bytes + (u64)fr_pages_pooled * PAGE_SIZE;
}

/*
 * Room for @size more bytes in the pools: they hold at most a quarter of
 * ring_mb, besides the ring.  fr_arena_lock held.
 */
static bool fr_arena_pool_room(u64 size)
{
	u64 cap = (u64)READ_ONCE(fr_ring_mb) << 20;

	return fr_pooled_bytes() + size <= cap / 4;
}

static void fr_arena_ctor(void *obj)
{
	struct fr_arena *a = obj;

	atomic_set(&a->ref, 0);
	a->used = 0;
	a->nrec = 0;
	a->class = NULL;
	INIT_LIST_HEAD(&a->pool);
}

/* Drops @n of the chunk's count; the last one frees it. */
static void fr_arena_put_n(struct fr_arena *a, int n)
{
	struct fr_arena_class *c = a->class;
	unsigned long flags;

	if (!atomic_sub_and_test(n, &a->ref))
		return;
	spin_lock_irqsave(&fr_arena_lock, flags);
	if (fr_arena_pool_room(c->size)) {
		list_add(&a->pool, &c->pool);
		c->pooled++;
		a = NULL;
	}
	spin_unlock_irqrestore(&fr_arena_lock, flags);
	if (a)
		kmem_cache_free(c->cache, a);
}

/* The thread moves off its chunk @a: its bias goes, less its records. */
static void fr_arena_release(struct fr_arena *a)
{
	fr_arena_put_n(a, FR_ARENA_BIAS - a->nrec);
}

static struct fr_arena *fr_arena_get(struct fr_arena_class *c, gfp_t gfp)
{
	struct fr_arena *a;
	unsigned long flags;

	spin_lock_irqsave(&fr_arena_lock, flags);
	fr_arena_last_take = jiffies;
	a = list_first_entry_or_null(&c->pool, struct fr_arena, pool);
	if (a) {
		list_del(&a->pool);
		c->pooled--;
	}
	spin_unlock_irqrestore(&fr_arena_lock, flags);
	if (!a)
		a = kmem_cache_alloc(c->cache, gfp | __GFP_NOWARN);
	if (a) {
		atomic_set(&a->ref, FR_ARENA_BIAS);	/* the thread's */
		a->used = 0;
		a->nrec = 0;
		a->class = c;
	}
	return a;
}

/*
 * Records bigger than a chunk allows (a 256 KiB read) are allocated alone,
 * behind a header that keeps their capacity: freed, they too go to a pool
 * (within the same ring_mb budget), and a later record takes one whose
 * capacity is at least its size and at most a quarter more.  Only the
 * sleeping path makes such records (they are over FR_REC_CHUNKED).
 */
#define FR_ALONE_POOL_MAX	128	/* buffers */

struct fr_alone {
	size_t cap;			/* bytes for the record */
	struct list_head pool;
	struct fr_sc_rec rec;		/* then its bytes */
};


static struct fr_sc_rec *fr_alone_get(size_t size, gfp_t gfp)
{
	struct fr_alone *b = NULL, *it;
	unsigned long flags;

	spin_lock_irqsave(&fr_arena_lock, flags);
	fr_arena_last_take = jiffies;
	list_for_each_entry(it, &fr_alone_pool, pool) {
		if (it->cap >= size && it->cap - size <= size / 4) {
			list_del(&it->pool);
			fr_alone_pooled--;
			fr_alone_bytes -= it->cap;
			b = it;
			break;
		}
	}
	spin_unlock_irqrestore(&fr_arena_lock, flags);
	if (!b) {
		size_t n = PAGE_ALIGN(offsetof(struct fr_alone, rec) + size);

		/*
		 * A failure is counted as a lost record (and flags the
		 * interval): no allocation-failure report in the kernel log
		 * on the recorded program's behalf.
		 */
		if (gfpflags_allow_blocking(gfp))
			b = kvmalloc(n, gfp | __GFP_NOWARN);
		else
			b = kmalloc(n, gfp | __GFP_NOWARN);
		if (!b)
			return NULL;
		b->cap = n - offsetof(struct fr_alone, rec);
	}
	b->rec.arena = NULL;
	return &b->rec;
}

/*
 * kvfree() from any context.  Records, memory maps and XSAVE areas may be
 * vmalloc'd, and they are freed where the cap evicts: in the syscall and
 * page-fault probes too, with preemption or interrupts off, where vfree()
 * may not run (it may sleep: DEBUG_ATOMIC_SLEEP reports it).  There a
 * vmalloc'd block goes to a list, its own first bytes the link, and a
 * worker frees it; the bytes were uncharged by the caller already.
 * fr_arena_exit() waits for the worker.
 */
static LLIST_HEAD(fr_vfree_list);

static void fr_vfree_fn(struct work_struct *work)
{
	struct llist_node *n, *tmp;

	llist_for_each_safe(n, tmp, llist_del_all(&fr_vfree_list))
		vfree(n);
}
static DECLARE_WORK(fr_vfree_work, fr_vfree_fn);

void fr_kvfree(const void *p)
{
	if (is_vmalloc_addr(p) &&
	    (!preemptible() || rcu_preempt_depth() || in_interrupt())) {
		if (llist_add((struct llist_node *)p, &fr_vfree_list))
			schedule_work(&fr_vfree_work);
		return;
	}
	kvfree(p);
}

static void fr_alone_put(struct fr_alone *b)
{
	unsigned long flags;

	spin_lock_irqsave(&fr_arena_lock, flags);
	if (fr_alone_pooled < FR_ALONE_POOL_MAX && fr_arena_pool_room(b->cap)) {
		list_add(&b->pool, &fr_alone_pool);
		fr_alone_pooled++;
		fr_alone_bytes += b->cap;
		b = NULL;
	}
	spin_unlock_irqrestore(&fr_arena_lock, flags);
	if (b)
		fr_kvfree(b);
}

/*
 * Page copies (a page's bytes at an interval start, a dump's final pages)
 * are whole pages, freed by the thousand when the ring drops an interval:
 * they go to a pool too, so that the next interval's copies do not come
 * cleared from the page allocator only to be overwritten.  Any context;
 * @gfp for a page new from the allocator.
 */
void *fr_page_alloc(gfp_t gfp)
{
	struct page *page;
	unsigned long flags;

	spin_lock_irqsave(&fr_arena_lock, flags);
	fr_arena_last_take = jiffies;
	page = list_first_entry_or_null(&fr_page_pool, struct page, lru);
	if (page) {
		list_del(&page->lru);
		fr_pages_pooled--;
	}
	spin_unlock_irqrestore(&fr_arena_lock, flags);
	if (!page)
		page = alloc_page(gfp | __GFP_NOWARN);
	return page ? page_address(page) : NULL;
}

void fr_page_free(void *data)
{
	struct page *page;
	unsigned long flags;

	if (!data)
		return;
	page = virt_to_page(data);
	spin_lock_irqsave(&fr_arena_lock, flags);
	if (fr_arena_pool_room(PAGE_SIZE)) {
		list_add(&page->lru, &fr_page_pool);
		fr_pages_pooled++;
		page = NULL;
	}
	spin_unlock_irqrestore(&fr_arena_lock, flags);
	if (page)
		__free_page(page);
}

/*
 * Frees pooled pages until at most @keep bytes of them are left, at most
 * @budget; returns how many went.
 */
static unsigned long fr_pages_trim(u64 keep, unsigned long budget)
{
	struct page *page, *tmp;
	unsigned long n = 0, flags;
	LIST_HEAD(list);

	spin_lock_irqsave(&fr_arena_lock, flags);
	while ((u64)fr_pages_pooled * PAGE_SIZE > keep && n < budget) {
		page = list_last_entry(&fr_page_pool, struct page, lru);
		list_move(&page->lru, &list);
		fr_pages_pooled--;
		n++;
	}
	spin_unlock_irqrestore(&fr_arena_lock, flags);
	list_for_each_entry_safe(page, tmp, &list, lru) {
		list_del(&page->lru);
		__free_page(page);
	}
	return n;
}

/* Frees pooled buffers, at most @budget; returns how many went. */
static unsigned long fr_alone_trim(unsigned long budget)
{
	struct fr_alone *b, *tmp;
	unsigned long n = 0, flags;
	LIST_HEAD(list);

	spin_lock_irqsave(&fr_arena_lock, flags);
	list_for_each_entry_safe_reverse(b, tmp, &fr_alone_pool, pool) {
		if (n >= budget)
			break;
		list_move(&b->pool, &list);
		fr_alone_pooled--;
		fr_alone_bytes -= b->cap;
		n++;
	}
	spin_unlock_irqrestore(&fr_arena_lock, flags);
	list_for_each_entry_safe(b, tmp, &list, pool)
		kvfree(b);
	return n;
}

/*
 * Frees pooled chunks of class c until at most @keep bytes of them are
 * left, at most @budget chunks; returns how many went.
 */
static unsigned long fr_arena_trim(struct fr_arena_class *c, u64 keep,
				   unsigned long budget)
{
	unsigned long n = 0, flags;
	struct fr_arena *a;
	LIST_HEAD(list);

	spin_lock_irqsave(&fr_arena_lock, flags);
	while ((u64)c->pooled * c->size > keep && n < budget) {
		a = list_last_entry(&c->pool, struct fr_arena, pool);
		list_move(&a->pool, &list);
		c->pooled--;
		n++;
	}
	spin_unlock_irqrestore(&fr_arena_lock, flags);
	while (!list_empty(&list)) {
		a = list_first_entry(&list, struct fr_arena, pool);
		list_del(&a->pool);
		kmem_cache_free(c->cache, a);
	}
	return n;
}

static void fr_arena_trim_workfn(struct work_struct *work)
{
	int i;

	if (time_after(jiffies, READ_ONCE(fr_arena_last_take) + FR_ARENA_IDLE)) {
		for (i = 0; i < ARRAY_SIZE(fr_classes); i++)
			fr_arena_trim(&fr_classes[i], FR_ARENA_POOL_IDLE,
				      ULONG_MAX);
		fr_pages_trim(FR_ARENA_POOL_IDLE, ULONG_MAX);
		fr_alone_trim(ULONG_MAX);
	}
	schedule_delayed_work(&fr_arena_trim_work, FR_ARENA_IDLE);
}

static unsigned long fr_arena_count(struct shrinker *s,
				    struct shrink_control *sc)
{
	return READ_ONCE(fr_classes[0].pooled) + READ_ONCE(fr_classes[1].pooled) +
	       READ_ONCE(fr_alone_pooled) + READ_ONCE(fr_pages_pooled);
}

static unsigned long fr_arena_scan(struct shrinker *s,
				   struct shrink_control *sc)
{
	unsigned long n = fr_alone_trim(sc->nr_to_scan);

	n += fr_arena_trim(&fr_classes[1], 0, sc->nr_to_scan - n);
	n += fr_pages_trim(0, sc->nr_to_scan - n);
	return n + fr_arena_trim(&fr_classes[0], 0, sc->nr_to_scan - n);
}

static struct shrinker *fr_arena_shrinker;

/*
 * A record of @size bytes made by t (current), from its chunk of the class
 * the size calls for; @gfp GFP_NOWAIT in the probes, GFP_KERNEL in task_work.
 * The syscall probe's small records take the inline fast path first
 * (fr_rec_alloc_small(), flightrec.h), which comes here for a new chunk.
 */
struct fr_sc_rec *fr_rec_alloc(struct fr_thread *t, size_t size, gfp_t gfp)
{
	struct fr_arena **slot;
	struct fr_arena_class *c;
	struct fr_arena *a;

	size = ALIGN(size, 8);
	if (size <= FR_SMALL_MAX) {
		c = &fr_classes[0];
		slot = &t->arena;
	} else if (size <= FR_REC_CHUNKED) {
		c = &fr_classes[1];
		slot = &t->arena_big;
	} else {
		goto alone;
	}
	a = *slot;
	if (!a || a->used + size > c->size - sizeof(*a)) {
		a = fr_arena_get(c, gfp);
		if (!a)
			goto alone;
		if (*slot)
			fr_arena_release(*slot);
		*slot = a;
	}
	return fr_arena_cut(a, size);

alone:
	return fr_alone_get(size, gfp);
}

/* A record of its own (no thread's chunk): for another thread's call. */
struct fr_sc_rec *fr_rec_alloc_alone(size_t size, gfp_t gfp)
{
	return fr_alone_get(ALIGN(size, 8), gfp);
}

void fr_sc_rec_free(struct fr_sc_rec *rec)
{
	if (rec->arena)
		fr_arena_put_n(rec->arena, 1);
	else
		fr_alone_put(container_of((void *)rec, struct fr_alone, rec));
}

/*
 * Frees the records on @list (an interval's): one count operation per run
 * of records from one chunk (a thread's consecutive calls), not per record.
 */
void fr_sc_recs_free(struct list_head *list)
{
	struct list_head *pos = list->next;

	while (pos != list) {
		struct fr_sc_rec *rec = list_entry(pos, struct fr_sc_rec, node);
		struct fr_arena *a = rec->arena;
		int n = 0;

		if (!a) {
			pos = pos->next;
			fr_sc_rec_free(rec);
			continue;
		}
		/* the run: a load and a compare per record */
		do {
			n++;
			pos = pos->next;
		} while (pos != list &&
			 list_entry(pos, struct fr_sc_rec, node)->arena == a);
		fr_arena_put_n(a, n);
	}
	INIT_LIST_HEAD(list);
}

/* The thread is freed: its current chunks go with their records. */
void fr_thread_arena_drop(struct fr_thread *t)
{
	if (t->arena)
		fr_arena_release(t->arena);
	if (t->arena_big)
		fr_arena_release(t->arena_big);
	t->arena = NULL;
	t->arena_big = NULL;
}

/*
 * After ring_mb was lowered: the pools give back what is over a quarter of
 * it (big records first).  Process context.
 */
void fr_arena_enforce_cap(void)
{
	u64 cap = ((u64)READ_ONCE(fr_ring_mb) << 20) / 4;

	while (fr_arena_pooled_bytes() > cap) {
		if (fr_alone_trim(1) || fr_arena_trim(&fr_classes[1], 0, 1) ||
		    fr_pages_trim(0, 1) || fr_arena_trim(&fr_classes[0], 0, 1))
			continue;
		break;
	}
}

/* Bytes in the pools (/proc/flightrec/status: pool). */
u64 fr_arena_pooled_bytes(void)
{
	unsigned long flags;
	u64 n;

	spin_lock_irqsave(&fr_arena_lock, flags);
	n = fr_pooled_bytes();
	spin_unlock_irqrestore(&fr_arena_lock, flags);
	return n;
}

static void fr_arena_destroy(void)
{
	int i;

	fr_alone_trim(ULONG_MAX);
	fr_pages_trim(0, ULONG_MAX);
	for (i = 0; i < ARRAY_SIZE(fr_classes); i++) {
		if (!fr_classes[i].cache)
			continue;
		fr_arena_trim(&fr_classes[i], 0, ULONG_MAX);
		kmem_cache_destroy(fr_classes[i].cache);
		fr_classes[i].cache = NULL;
	}
}

int fr_arena_init(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(fr_classes); i++) {
		struct fr_arena_class *c = &fr_classes[i];

		INIT_LIST_HEAD(&c->pool);
		/* out-buffers are copied from user memory into the chunks */
		c->cache = kmem_cache_create_usercopy(c->name, c->size, 8, 0, 0,
						      c->size, fr_arena_ctor);
		if (!c->cache) {
			fr_arena_destroy();
			return -ENOMEM;
		}
	}
	fr_arena_shrinker = fr_shrinker_create(fr_arena_count, fr_arena_scan,
					       "flightrec-records");
	if (IS_ERR(fr_arena_shrinker)) {
		fr_arena_destroy();
		return PTR_ERR(fr_arena_shrinker);
	}
	schedule_delayed_work(&fr_arena_trim_work, FR_ARENA_IDLE);
	return 0;
}

/* Unload, after the registry freed every thread: the pools go. */
void fr_arena_exit(void)
{
	cancel_delayed_work_sync(&fr_arena_trim_work);
	flush_work(&fr_vfree_work);
	fr_shrinker_destroy(fr_arena_shrinker);
	fr_arena_destroy();
}
