// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec: intervals, the ring, boundaries and frozen dumps.
 *
 * A registered process's execution is cut into intervals.  A boundary is
 * requested by the process's hrtimer every interval_ms and reached by each
 * thread in task_work, on its way back to user space, where its whole user
 * state is in pt_regs.  The first thread to reach a boundary closes the open
 * interval, walks the page tables (memory.c) and opens the next interval.
 *
 * Threads blocked in a syscall when the boundary is reached have their user
 * state saved at syscall entry; they are recorded as starting "inside" that
 * syscall (in_syscall), whose record then belongs to the new interval.
 *
 * The ring keeps the last `keep` closed intervals.  A freeze (fatal signal,
 * manual dump, exit with at_exit) closes the open interval at that point,
 * moves the ring into a struct fr_dump, resolves every page to its bytes at
 * the start of its interval, and announces the dump on the event group.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/stringify.h>
#include <linux/slab.h>
#include <linux/sched/mm.h>
#include <linux/sched/coredump.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/futex.h>
#include <linux/mmap_lock.h>
#include <linux/regset.h>
#include <linux/elf.h>
#include <linux/ktime.h>
#include <linux/file.h>
#include <linux/namei.h>
#include <linux/mount.h>
#include <linux/rcupdate.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/math64.h>
#include <asm/tsc.h>
#include "flightrec.h"

atomic64_t fr_bytes = ATOMIC64_INIT(0);
LIST_HEAD(fr_dumps);
DEFINE_SPINLOCK(fr_dumps_lock);
static atomic_t fr_next_dump_id = ATOMIC_INIT(0);

/*
 * How long a boundary waits for the other threads to stop (fr_stop_wait):
 * a thread that has not reported by then (asleep in the kernel outside a
 * syscall, in a page fault say) is recorded when it next passes, and the
 * interval is flagged FLIGHTREC_IF_THREAD_LATE.
 */
#define FR_STOP_WAIT_MS	150

struct fr_twork {
	struct fr_tw tw;
};

static void fr_twork_fn(struct fr_tw *tw);

/*
 * Queues the thread's task_work unless one is queued already.  Callable from
 * any context, hard IRQ included (the hrtimer).
 *
 * t->twork_queued: 0 none, FR_TW_ADDING a context is adding one now,
 * FR_TW_QUEUED one is on the task's list.  One TWA_RESUME work at a time is
 * enough, once it is on the list.  The thread itself must not count on one
 * that another CPU is still adding: it queues its work from sys_exit (a
 * record to finish, an exec, a wait for the token) and that work must run
 * before it is back in user space.  A TWA_RESUME work added a moment later
 * sends no IPI: it ran at the thread's next exit from the kernel, at the
 * end of its next call, with that call's state, and recorded it a second
 * time with the first one's result (roundtrip_module on the debug kernel:
 * a pread's record lost, the next nanosleep's twice, "seq 62 after seq 62").
 */
bool fr_twork_queue(struct fr_thread *t, enum task_work_notify_mode mode)
{
	int old = atomic_cmpxchg(&t->twork_queued, 0, FR_TW_ADDING);
	struct fr_twork *w;

	if (mode != TWA_SIGNAL &&
	    (old == FR_TW_QUEUED || (old == FR_TW_ADDING && t->task != current)))
		return true;
	/* a TWA_SIGNAL one must wake a thread blocked in a syscall */
	w = kmalloc(sizeof(*w), GFP_ATOMIC | __GFP_NOWARN);
	if (!w)
		goto out_clear;
	if (mode == TWA_SIGNAL)
		WRITE_ONCE(t->sig_kicked, true);
	if (!fr_tw_add(t->task, w, fr_twork_fn, NULL, mode)) {
		/*
		 * On the list now, unless it ran already and cleared the
		 * state (then a later call queues another: two runs of the
		 * work do no harm, a state saying "queued" with none queued
		 * would lose every later one).
		 */
		atomic_cmpxchg(&t->twork_queued, FR_TW_ADDING, FR_TW_QUEUED);
		return true;
	}
	kfree(w);
out_clear:
	if (!old)
		atomic_cmpxchg(&t->twork_queued, FR_TW_ADDING, 0);
	return false;
}

/* ------------------------------------------------------------------ */
/* intervals */

DEFINE_STATIC_KEY_FALSE(fr_tsc_stamps);

/*
 * CLOCK_MONOTONIC and the TSC read as one pair, the ends of the segments
 * fr_stamp_ns() interpolates on: the clock read between two TSC reads,
 * interrupts off, paired with their middle.  A hypervisor can still stop
 * the CPU between them: of up to FR_PIN_TRIES tries, the closest, and no
 * more tries once two reads came within 2 us.
 */
#define FR_PIN_TRIES	3

static void fr_pin(u64 *ns, u64 *tsc)
{
	u64 best = U64_MAX, t0, t1, now;
	unsigned long flags;
	int i;

	*tsc = 0;
	if (!static_branch_likely(&fr_tsc_stamps)) {
		*ns = ktime_get_ns();
		return;
	}
	/* the first try always sets the pair */
	for (i = 0; i < FR_PIN_TRIES && best > 2ull * tsc_khz / 1000; i++) {
		local_irq_save(flags);
		t0 = rdtsc_ordered();
		now = ktime_get_ns();
		t1 = rdtsc_ordered();
		local_irq_restore(flags);
		if (t1 - t0 < best) {
			best = t1 - t0;
			*ns = now;
			*tsc = t0 + best / 2;
		}
	}
}

/* a * mul / div, or U64_MAX where that needs more than 64 bits (divq faults) */
static u64 fr_scale(u64 a, u64 mul, u64 div)
{
	if (!div)
		return 0;
	if (mul && a / div >= U64_MAX / mul)
		return U64_MAX;
	return mul_u64_u64_div_u64(a, mul, div);
}

/*
 * Segments shorter than this many TSC ticks per MHz (10 us) take the slope
 * of tsc_khz: a pair's two reads are some ticks apart, a big share of so
 * short a segment.
 */
#define FR_PIN_MIN_TICKS_PER_MHZ	10

/*
 * A stamp (fr_stamp) of a record of @iv as CLOCK_MONOTONIC.  With TSC
 * stamps: interpolated on the segment of the two pairs around it (the
 * interval's start and end, or the one before's start and this start for a
 * call that entered before the interval began), extrapolated on the nearest
 * segment outside them; where a segment is missing or too short, the slope
 * of tsc_khz from its start.  The pieces meet at each pair, so the stamps of
 * one thread stay in order across boundaries, and the error is that of
 * CLOCK_MONOTONIC's own rate change (NTP) within one segment.  0 stays 0
 * (no time).
 */
u64 fr_stamp_ns(const struct fr_interval *iv, u64 stamp)
{
	u64 a_tsc = iv->start_tsc, a_ns = iv->start_ns, b_tsc, b_ns;
	u64 min_ticks = (u64)tsc_khz * FR_PIN_MIN_TICKS_PER_MHZ / 1000;

	if (!static_branch_likely(&fr_tsc_stamps) || !stamp || !a_tsc)
		return stamp;
	if (stamp < a_tsc && iv->prev_tsc) {
		/* the segment before: from the previous start to this one */
		b_tsc = a_tsc;
		b_ns = a_ns;
		a_tsc = iv->prev_tsc;
		a_ns = iv->prev_ns;
	} else {
		b_tsc = iv->end_tsc;
		b_ns = iv->end_ns;
	}
	if (!b_tsc || b_tsc < a_tsc + min_ticks || b_ns < a_ns) {
		/* no end yet (the open interval), or too short a segment */
		b_tsc = tsc_khz;
		b_ns = NSEC_PER_MSEC;
	} else {
		b_tsc -= a_tsc;
		b_ns -= a_ns;
	}
	if (stamp >= a_tsc)
		return a_ns + min(fr_scale(stamp - a_tsc, b_ns, b_tsc),
				  U64_MAX - a_ns);
	/* before the first pair: never 0, which says "no time" */
	return a_ns - min(fr_scale(a_tsc - stamp, b_ns, b_tsc), a_ns - 1);
}

struct fr_interval *fr_interval_new(struct fr_proc *proc, gfp_t gfp)
{
	struct fr_interval *iv = kzalloc(sizeof(*iv), gfp | __GFP_NOWARN);

	if (!iv)
		return NULL;
	INIT_LIST_HEAD(&iv->syscalls);
	INIT_LIST_HEAD(&iv->threads);
	xa_init_flags(&iv->pages, XA_FLAGS_LOCK_IRQ);
	xa_init(&iv->acc);
	fr_pin(&iv->start_ns, &iv->start_tsc);
	iv->bytes = sizeof(*iv);
	/* replay tells a race from a divergence with it */
	if (proc->serial)
		iv->flags |= FLIGHTREC_IF_SERIAL;
	return iv;
}

static void fr_ctx_free(struct fr_thread_ctx *ctx)
{
	if (!ctx)
		return;
	fr_kvfree(ctx->xsave);	/* any context: the cap evicts in probes */
	kfree(ctx);
}

/*
 * Frees a page set and the copies it holds, with one cursor over it, not a
 * lookup from the root per entry (it may hold every page of a large
 * process).  Nobody else sees it now.
 */
static void fr_pages_free(struct xarray *pages)
{
	XA_STATE(xas, pages, 0);
	struct fr_page *pg;

	rcu_read_lock();
	xas_for_each(&xas, pg, ULONG_MAX) {
		if (xas_retry(&xas, pg) || xa_is_value(pg))
			continue;
		fr_page_free(pg->data);
		kfree(pg);
	}
	rcu_read_unlock();
	xa_destroy(pages);
}

void fr_interval_free(struct fr_interval *iv)
{
	struct fr_thread_ctx *ctx, *ctmp;
	u32 i;

	if (!iv)
		return;
	/* first: the record pools may keep what is freed here (arena.c) */
	fr_uncharge(iv->bytes);
	fr_sc_recs_free(&iv->syscalls);
	list_for_each_entry_safe(ctx, ctmp, &iv->threads, node)
		fr_ctx_free(ctx);
	for (i = 0; i < iv->nr_maps; i++)
		kfree(iv->maps[i].path);
	fr_kvfree(iv->maps);	/* any context: the cap evicts in probes */
	fr_pages_free(&iv->pages);
	xa_destroy(&iv->acc);	/* value entries */
	kfree(iv);
}

/* ------------------------------------------------------------------ */
/* capturing state at an interval start (process context, current) */

static const struct user_regset *fr_regset(unsigned int note)
{
	const struct user_regset_view *view = task_user_regset_view(current);
	unsigned int i;

	for (i = 0; i < view->n; i++)
		if (view->regsets[i].core_note_type == note)
			return &view->regsets[i];
	return NULL;
}

/*
 * Is the user FPU state of task (not current) in its fpstate in memory, and
 * how many times has it been switched out?  It is while the task is off
 * CPU: the switch away saved its registers there (or they were there
 * already, TIF_NEED_FPU_LOAD), and they change only in the task itself.
 */
static bool fr_fpu_saved(struct task_struct *task, unsigned long *switches)
{
	smp_rmb();
	if (READ_ONCE(task->on_cpu))
		return false;
	*switches = READ_ONCE(task->nvcsw) + READ_ONCE(task->nivcsw);
	return true;
}

/*
 * The XSAVE area of task into ctx: current's own registers, or the saved
 * state of another thread of the process that is in the kernel (blocked in
 * a syscall, or stopped in its task_work).  The copy is kept only if that
 * thread was off CPU before and after it, and was not switched in and out
 * in between.  A thread running in the kernel at the cut gets none, or,
 * with @may_wait, an area allocated for it to write itself
 * (ctx->xsave_wait, fr_ctx_xsave_fill).
 */
static void fr_ctx_xsave(struct fr_thread_ctx *ctx, struct task_struct *task,
			 gfp_t gfp, bool may_wait)
{
	const struct user_regset *rs = fr_regset(NT_X86_XSTATE);
	unsigned long before = 0, after = 0;
	bool saved;

	if (!rs)
		return;
	saved = task == current || fr_fpu_saved(task, &before);
	if (!saved && !may_wait)
		return;
	ctx->xsave_size = rs->n * rs->size;
	ctx->xsave = kvzalloc(ctx->xsave_size, (gfp & ~__GFP_NOFAIL) | __GFP_NOWARN);
	ctx->lost = !ctx->xsave;
	if (!ctx->xsave) {
		ctx->xsave_size = 0;
		return;
	}
	if (saved && regset_get(task, rs, ctx->xsave_size, ctx->xsave) >= 0 &&
	    (task == current ||
	     (fr_fpu_saved(task, &after) && after == before)))
		return;
	if (may_wait && task != current) {
		ctx->xsave_wait = true;
		return;
	}
	kvfree(ctx->xsave);
	ctx->xsave = NULL;
	ctx->xsave_size = 0;
}

static void fr_ctx_xsave_fill_iv(struct fr_interval *iv, pid_t tid,
				 const struct user_regset *rs)
{
	struct fr_thread_ctx *ctx;

	list_for_each_entry(ctx, &iv->threads, node)
		if (ctx->xsave_wait && ctx->tid == tid && rs &&
		    regset_get(current, rs, ctx->xsave_size, ctx->xsave) >= 0)
			ctx->xsave_wait = false;
}

/*
 * t is current, and a boundary took a context of it from outside while it
 * ran in the kernel on another CPU (t->xsave_wait): it writes its own XSAVE
 * area into every such context still in its process's intervals.  Called
 * where its user FPU state is still that of the cut: at the exit of the
 * syscall it was in (fr_sys_exit; a syscall leaves that state as it found
 * it), or in the task_work it was stopped in.  @write false: the state
 * changed (rt_sigreturn, execve), the areas stay unwritten and are not
 * handed out.  The intervals it looks in: the open one, the one a
 * boundary has just closed (proc->closing: until its push into the ring;
 * s58, tests/record_threads.c long_call_xsave) and the ring's.  An interval
 * frozen meanwhile keeps its context without one.
 */
void fr_ctx_xsave_fill(struct fr_thread *t, bool write)
{
	const struct user_regset *rs = write ? fr_regset(NT_X86_XSTATE) : NULL;
	struct fr_proc *proc = t->proc;
	pid_t tid = task_pid_vnr(current);
	struct fr_interval *iv;

	spin_lock(&proc->lock);
	t->xsave_wait = false;
	if (rs) {
		if (proc->cur)
			fr_ctx_xsave_fill_iv(proc->cur, tid, rs);
		if (proc->closing)
			fr_ctx_xsave_fill_iv(proc->closing, tid, rs);
		list_for_each_entry(iv, &proc->ring, node)
			fr_ctx_xsave_fill_iv(iv, tid, rs);
	}
	spin_unlock(&proc->lock);
}

static struct fr_thread_ctx *fr_ctx_take(struct task_struct *task, gfp_t gfp,
					  bool may_wait);

/*
 * Registers of `task` from its pt_regs (user state at the last kernel entry),
 * and its XSAVE area (fr_ctx_xsave).
 */
struct fr_thread_ctx *fr_ctx_capture(struct task_struct *task, gfp_t gfp)
{
	return fr_ctx_take(task, gfp, false);
}

static struct fr_thread_ctx *fr_ctx_take(struct task_struct *task, gfp_t gfp,
					  bool may_wait)
{
	struct fr_thread_ctx *ctx = kzalloc(sizeof(*ctx), gfp | __GFP_NOWARN);
	struct pt_regs *regs = task_pt_regs(task);
	const struct user_regset *rs;

	if (!ctx)
		return NULL;
	ctx->tid = task_pid_vnr(task);
	ctx->in_syscall = -1;
	BUILD_BUG_ON(offsetof(struct user_regs_struct, ss) !=
		     offsetof(struct pt_regs, ss));
	memcpy(&ctx->regs, regs, offsetof(struct user_regs_struct, ss) +
	       sizeof(ctx->regs.ss));
	if (task == current) {
		rs = fr_regset(NT_PRSTATUS);
		if (rs)
			regset_get(current, rs, sizeof(ctx->regs), &ctx->regs);
	} else {
		ctx->regs.fs_base = task->thread.fsbase;
		ctx->regs.gs_base = task->thread.gsbase;
	}
	fr_ctx_xsave(ctx, task, gfp, may_wait);
	ctx->fs_base = ctx->regs.fs_base;
	ctx->gs_base = ctx->regs.gs_base;
	ctx->sigmask = task->blocked.sig[0];
	ctx->sas_sp = task->sas_ss_sp;
	ctx->sas_size = task->sas_ss_size;
	ctx->sas_flags = task->sas_ss_flags;
	ctx->clear_child_tid = (u64)(unsigned long)task->clear_child_tid;
#ifdef CONFIG_RSEQ
	ctx->rseq = (u64)(unsigned long)task->rseq;
	ctx->rseq_sig = task->rseq_sig;
	ctx->rseq_len = task->rseq ? 32 : 0;
#endif
#ifdef CONFIG_FUTEX
	ctx->robust_list = (u64)(unsigned long)task->robust_list;
	ctx->robust_len = task->robust_list ? sizeof(struct robust_list_head) : 0;
#endif
	return ctx;
}

static u32 fr_vma_prot(struct vm_area_struct *vma)
{
	u32 prot = 0;

	if (vma->vm_flags & VM_READ)
		prot |= PROT_READ;
	if (vma->vm_flags & VM_WRITE)
		prot |= PROT_WRITE;
	if (vma->vm_flags & VM_EXEC)
		prot |= PROT_EXEC;
	return prot;
}

/*
 * The name of a mapping (in @buf for a file, or a constant), or NULL.
 * @buf: PATH_MAX bytes to build a file's path in (NULL: it could not be
 * allocated; *lost is set).
 */
static const char *fr_vma_path(struct vm_area_struct *vma, struct mm_struct *mm,
			       u32 *flags, char *buf, bool *lost)
{
	const char *name = NULL;
	char *p;

	if (vma->vm_file) {
		if (!buf) {
			*lost = true;
			return NULL;
		}
		p = file_path(vma->vm_file, buf, PATH_MAX);
		return IS_ERR(p) ? NULL : p;	/* too long: a limit, not a loss */
	}
	*flags |= FLIGHTREC_MAPF_ANON;
	if (vma->vm_ops && vma->vm_ops->name)
		name = vma->vm_ops->name(vma);
	if (name && !strcmp(name, "[vdso]"))
		*flags |= FLIGHTREC_MAPF_VDSO;
	else if (name && !strcmp(name, "[vvar]"))
		*flags |= FLIGHTREC_MAPF_VVAR;
	if (!name && vma->vm_start <= mm->brk && vma->vm_end >= mm->start_brk) {
		name = "[heap]";
		*flags |= FLIGHTREC_MAPF_HEAP;
	}
	if (!name && vma->vm_start <= mm->start_stack &&
	    vma->vm_end >= mm->start_stack)
		name = "[stack]";
	return name;
}

/* Mappings a boundary's map array has room for beyond those counted first. */
#define FR_MAPS_SLACK	64

static u32 fr_count_vmas(struct mm_struct *mm)
{
	struct vm_area_struct *vma;
	u32 n = 0;

	VMA_ITERATOR(vmi, mm, 0);

	for_each_vma(vmi, vma)
		n++;
	return n;
}

/*
 * The memory map, brk and signal dispositions.  mmap_lock held for read.
 * @maps: room for @cap entries, allocated and charged before the cut
 * (fr_boundary; NULL and 0 when that failed), taken over by iv.  What it
 * adds besides is charged here, before it is allocated (a file's path is up
 * to 4 KiB, and 65530 mappings may have one each): what the cap cannot hold
 * is not kept, and *lost is set, as when memory is short (iv is then
 * flagged FLIGHTREC_IF_LOST_STATE).  Returns the bytes charged here (the
 * caller adds them to iv's: iv may be open).
 */
static size_t fr_capture_process(struct fr_proc *proc, struct fr_interval *iv,
				 struct mm_struct *mm, struct fr_map *maps,
				 u32 cap, bool *lost)
{
	struct vm_area_struct *vma;
	/* current's sighand cannot change under it */
	struct sighand_struct *sh = rcu_dereference_protected(current->sighand, 1);
	size_t bytes = 0;
	u32 n, i;
	char *buf;

	VMA_ITERATOR(vmi, mm, 0);

	n = fr_count_vmas(mm);
	if (n > cap || !maps) {
		/* more than counted before the threads stopped */
		size_t more_bytes = (size_t)max(n, 1U) * sizeof(*maps);
		size_t grow = more_bytes - (size_t)cap * sizeof(*maps);
		struct fr_map *more = NULL;

		if (fr_charge(proc, grow)) {
			more = kvcalloc(max(n, 1U), sizeof(*more),
					GFP_KERNEL | __GFP_NOWARN);
			if (!more)
				fr_uncharge(grow);
		}
		if (more) {
			kvfree(maps);
			maps = more;
			cap = max(n, 1U);
			bytes += grow;
		}
	}
	if (!maps) {
		*lost = true;
		return 0;
	}
	iv->maps = maps;
	if (n > cap) {
		*lost = true;	/* the first cap mappings only */
		n = cap;
	}
	/*
	 * One buffer for every file's path: each allocation is cleared
	 * (init_on_alloc), 4 KiB per mapped file and boundary otherwise.
	 */
	buf = kmalloc(PATH_MAX, GFP_KERNEL | __GFP_NOWARN);
	for_each_vma(vmi, vma) {
		const char *name;
		struct fr_map *m;

		if (iv->nr_maps == n)
			break;
		m = &iv->maps[iv->nr_maps++];
		m->start = vma->vm_start;
		m->end = vma->vm_end;
		m->prot = fr_vma_prot(vma);
		m->flags = (vma->vm_flags & VM_SHARED) ? MAP_SHARED : MAP_PRIVATE;
		if (vma->vm_flags & VM_GROWSDOWN)
			m->flags |= FLIGHTREC_MAPF_STACK;
		if (vma->vm_flags & (VM_PFNMAP | VM_IO))
			m->flags |= FLIGHTREC_MAPF_PFNMAP;
		if (vma->vm_flags & VM_DONTDUMP)
			m->flags |= FLIGHTREC_MAPF_DONTDUMP;
		m->pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT;
		if (vma->vm_file) {
			struct inode *inode = file_inode(vma->vm_file);

			m->inode = inode->i_ino;
			m->dev = new_encode_dev(inode->i_sb->s_dev);
		}
		name = fr_vma_path(vma, mm, &m->flags, buf, lost);
		if (name) {
			size_t len = strlen(name) + 1;

			if (fr_charge(proc, len)) {
				m->path = kmemdup(name, len, GFP_KERNEL | __GFP_NOWARN);
				if (m->path)
					bytes += len;
				else
					fr_uncharge(len);
			}
			*lost |= !m->path;
		}
	}
	kfree(buf);
	iv->brk_start = mm->start_brk;
	iv->brk = mm->brk;

	spin_lock_irq(&sh->siglock);
	for (i = 0; i < 64; i++) {
		struct sigaction *sa = &sh->action[i].sa;

		iv->sigactions[i].handler = (u64)(unsigned long)sa->sa_handler;
		iv->sigactions[i].flags = sa->sa_flags;
		iv->sigactions[i].restorer = (u64)(unsigned long)sa->sa_restorer;
		iv->sigactions[i].mask = sa->sa_mask.sig[0];
	}
	spin_unlock_irq(&sh->siglock);
	return bytes;
}

/*
 * Stopping the threads at a boundary.
 *
 * The thread that makes a boundary (T0, in its task_work, holding
 * work_lock) makes it one cut through all threads: every other thread is
 * stopped where it is before the cut, and stays stopped until the page walk
 * is over, so the registers of each thread and the memory are of one moment.
 *
 * - A thread blocked in a syscall (in_sc) is stopped already: its user state
 *   is in pt_regs, its context is taken remotely and says "inside the call"
 *   (the record of the call, placed after the cut, is in the new
 *   interval: fr_cut_gate), and a queued TWA_RESUME work stops it in
 *   task_work if the call returns before the walk is over.  It is not interrupted:
 *   TWA_SIGNAL would make calls that the kernel does not restart (epoll_wait,
 *   io_getevents, ...) fail with EINTR in the program at every boundary.
 *   Not a held call that has its capture (held_cap): T0 waits for its
 *   record, so that the call lands in the interval of its capture.
 * - Any other thread is kicked with TWA_SIGNAL: running user code, an IPI
 *   brings it into the kernel.  Its task_work finds work_lock taken, takes
 *   its own context (registers, XSAVE: fr_ctx_capture(current)) and reports
 *   in (fr_stop_report), then blocks on work_lock; it reaches user space
 *   only after T0 released work_lock, which is after the walk.
 * - T0 waits, killable and at most FR_STOP_WAIT_MS, until every thread is
 *   stopped; then, with mmap_lock and proc->lock held, it checks once more
 *   (fr_cut_gate) and makes the cut (fr_gather_threads).  A thread that did
 *   not report in time is recorded as before, when it next passes
 *   (fr_boundary_late), and the interval is flagged FLIGHTREC_IF_THREAD_LATE.
 *
 * A process with one thread pays nothing: no kick, no wait.
 */


/* Its context as the boundary records it.  t is current, in task_work. */
static struct fr_thread_ctx *fr_ctx_own(struct fr_thread *t)
{
	struct fr_thread_ctx *ctx;

	fr_sc_settle(t);
	ctx = fr_ctx_capture(current, GFP_KERNEL);
	if (ctx)
		fr_sc_ctx_fix(t, ctx);
	return ctx;
}

/* t is about to wait for work_lock: it stops here and says so. */
static void fr_stop_report(struct fr_proc *proc, struct fr_thread *t)
{
	struct fr_thread_ctx *ctx, *old;

	if (!smp_load_acquire(&proc->started) || READ_ONCE(proc->dying) ||
	    !current->mm)
		return;
	ctx = fr_ctx_own(t);
	spin_lock(&proc->lock);
	old = t->stop_ctx;
	t->stop_ctx = ctx;
	WRITE_ONCE(t->stopped, true);
	spin_unlock(&proc->lock);
	fr_ctx_free(old);
	wake_up(&proc->stop_wq);
}

/* t holds work_lock and is about to release it: it may run again. */
static void fr_stop_release(struct fr_proc *proc, struct fr_thread *t)
{
	struct fr_thread_ctx *ctx;

	if (!READ_ONCE(t->stopped))
		return;
	spin_lock(&proc->lock);
	ctx = t->stop_ctx;
	t->stop_ctx = NULL;
	WRITE_ONCE(t->stopped, false);
	spin_unlock(&proc->lock);
	fr_ctx_free(ctx);
}

/*
 * A thread in a held call whose capture is made (held_cap) is waited for
 * until the call is recorded: the call belongs with its capture.
 */
static bool fr_thread_stopped(struct fr_thread *t)
{
	return READ_ONCE(t->stopped) ||
	       (READ_ONCE(t->in_sc) && !READ_ONCE(t->held_cap)) ||
	       (READ_ONCE(t->task->flags) & PF_EXITING);
}

/* Every thread but current stopped?  Under RCU or proc->lock. */
static bool fr_threads_stopped(struct fr_proc *proc)
{
	struct fr_thread *t;

	list_for_each_entry_rcu(t, &proc->threads, pnode,
				lockdep_is_held(&proc->lock))
		if (t->task != current && !fr_thread_stopped(t))
			return false;
	return true;
}

/*
 * fr_threads_stopped() for the cut, proc->lock held.  Holds the threads'
 * logs (fr_logs_hold: sets proc->cutting), then waits for each thread
 * that was placing a record or leaving its call on its own (fr_log_wait);
 * until the cut clears cutting, every thread does both under proc->lock
 * (fr_log_put).  So what the cut reads of the threads (in a call or not,
 * held_cap, the logs) stays as read until it is made.  Every thread,
 * stopped or not: the cut is made anyway past the deadline.
 */
static bool fr_cut_gate(struct fr_proc *proc)
{
	struct fr_thread *t;
	bool stopped = true;

	fr_logs_hold(proc);
	list_for_each_entry(t, &proc->threads, pnode) {
		fr_log_wait(t);
		if (t->task != current && !fr_thread_stopped(t))
			stopped = false;
	}
	return stopped;
}

static bool fr_stop_done(struct fr_proc *proc)
{
	bool done;

	rcu_read_lock();
	done = fr_threads_stopped(proc);
	rcu_read_unlock();
	return done || READ_ONCE(proc->dying);
}

/*
 * Kicks the threads not kicked yet for this boundary, then waits until all
 * are stopped or the deadline.  Returns false when there is no point in
 * waiting again (deadline, fatal signal, dying).
 */
static bool fr_stop_wait(struct fr_proc *proc, unsigned long deadline)
{
	struct fr_thread *t;
	bool wait = false;
	long left;

	rcu_read_lock();
	list_for_each_entry_rcu(t, &proc->threads, pnode) {
		if (t->task == current || READ_ONCE(t->stopped))
			continue;
		if (READ_ONCE(t->kick_seq) != proc->stop_seq) {
			WRITE_ONCE(t->kick_seq, proc->stop_seq);
			/*
			 * In a syscall: stop it on its way out, do not wake it
			 * (one TWA_RESUME work pending is enough).  Otherwise
			 * one TWA_SIGNAL kick at a time: a thread asleep outside
			 * a syscall for long does not collect one per boundary.
			 */
			if (READ_ONCE(t->in_sc))
				fr_twork_queue(t, TWA_RESUME);
			else if (!atomic_xchg(&t->kick_pending, 1) &&
				 !fr_twork_queue(t, TWA_SIGNAL))
				atomic_set(&t->kick_pending, 0);
		}
		wait |= !fr_thread_stopped(t);
	}
	rcu_read_unlock();
	if (!wait)
		return true;
	left = (long)(deadline - jiffies);
	if (left <= 0 || fatal_signal_pending(current) || READ_ONCE(proc->dying))
		return false;
	/* in slices: a thread born meanwhile is kicked on the next round */
	left = wait_event_killable_timeout(proc->stop_wq, fr_stop_done(proc),
					   min_t(long, left, HZ / 50 + 1));
	return left >= 0;
}

/*
 * The cut: the contexts of the other threads into iv.  proc->lock held (and
 * mmap_lock, work_lock).  Returns the bytes added.
 */
static size_t fr_gather_threads(struct fr_proc *proc, struct fr_interval *iv,
				u32 gen)
{
	struct fr_thread_ctx *ctx;
	struct fr_thread *t;
	size_t bytes = 0;

	list_for_each_entry(t, &proc->threads, pnode) {
		if (t->task == current || (READ_ONCE(t->task->flags) & PF_EXITING))
			continue;
		ctx = NULL;
		if (READ_ONCE(t->stopped)) {
			/* stopped in its task_work: its own context */
			ctx = t->stop_ctx;
			t->stop_ctx = NULL;
			if (!ctx) {
				/*
				 * Taken by an earlier boundary: pt_regs are still
				 * it.  It may be spinning for work_lock, on a CPU:
				 * then it writes its XSAVE area on its way out.
				 */
				ctx = fr_ctx_take(t->task, GFP_ATOMIC | __GFP_NOWARN,
						  true);
				if (ctx)
					fr_sc_ctx_fix(t, ctx);
			}
		} else if (READ_ONCE(t->in_sc)) {
			smp_rmb();	/* in_sc before sc_nr: fr_sys_enter */
			/* running in the call: it writes its area at its exit */
			ctx = fr_ctx_take(t->task, GFP_ATOMIC | __GFP_NOWARN, true);
			if (ctx)
				fr_ctx_in_syscall(ctx, READ_ONCE(t->sc_nr),
						  ctx->regs.ip);
		}
		if (ctx && ctx->lost) {
			/* no memory for its XSAVE area: it takes its own later */
			fr_ctx_free(ctx);
			ctx = NULL;
		}
		if (!ctx) {
			/* recorded when it passes (fr_boundary_late) */
			iv->flags |= FLIGHTREC_IF_THREAD_LATE;
			t->seen_boundary = gen - 1;
			continue;
		}
		t->seen_boundary = gen;
		if (ctx->xsave_wait)
			t->xsave_wait = true;
		list_add_tail(&ctx->node, &iv->threads);
		bytes += sizeof(*ctx) + ctx->xsave_size;
	}
	return bytes;
}

/* ------------------------------------------------------------------ */
/* the ring */

/* Drops the oldest closed interval of proc; returns it (to free) or NULL. */
static struct fr_interval *fr_ring_pop_locked(struct fr_proc *proc)
{
	struct fr_interval *iv;

	iv = list_first_entry_or_null(&proc->ring, struct fr_interval, node);
	if (!iv)
		return NULL;
	list_del(&iv->node);
	proc->nr_ring--;
	return iv;
}

static void fr_ring_push(struct fr_proc *proc, struct fr_interval *closed)
{
	struct fr_interval *drop[FLIGHTREC_KEEP_MAX + 1];
	int n = 0, i;

	spin_lock(&proc->lock);
	list_add_tail(&closed->node, &proc->ring);
	proc->nr_ring++;
	if (proc->closing == closed)
		proc->closing = NULL;
	while (proc->nr_ring > proc->keep && n < ARRAY_SIZE(drop))
		drop[n++] = fr_ring_pop_locked(proc);
	spin_unlock(&proc->lock);
	for (i = 0; i < n; i++)
		fr_interval_free(drop[i]);
}

/*
 * The images parked at execs (fr_exec_park): the list and each one's
 * intervals change under proc->lock (the cap evicts them from any
 * context), the dumps are freed without it.
 */

/* Their oldest interval, taken out (proc->lock held), or NULL. */
static struct fr_interval *fr_exec_pop_locked(struct fr_proc *proc)
{
	struct fr_interval *iv;
	struct fr_dump *d;

	list_for_each_entry(d, &proc->exec_dumps, node) {
		if (!d->nr_intervals)
			continue;
		iv = list_first_entry(&d->intervals, struct fr_interval, node);
		list_del(&iv->node);
		d->nr_intervals--;
		proc->nr_exec_ivs--;
		return iv;
	}
	return NULL;
}

/* The oldest whole image, taken out (its bytes too: at the cap), or NULL. */
static struct fr_dump *fr_exec_pop_image(struct fr_proc *proc)
{
	struct fr_dump *d;

	spin_lock(&proc->lock);
	d = list_first_entry_or_null(&proc->exec_dumps, struct fr_dump, node);
	if (d) {
		list_del_init(&d->node);
		proc->nr_exec_ivs -= d->nr_intervals;
		proc->dropped += d->nr_intervals;
	}
	spin_unlock(&proc->lock);
	return d;
}

/*
 * fr_charge() at the cap: the oldest whole interval of the charging process
 * goes first, then the oldest frozen dump that was collected (read to its
 * end), until the bytes fit; a kept interval is always complete.  A dump
 * nobody has read yet - a crash waiting for its reader - is never
 * reclaimed for live recording, and nothing is evicted for a request that
 * cannot fit even in an empty cap.  Any context.
 */
bool fr_charge_evict(struct fr_proc *proc, size_t bytes)
{
	struct fr_interval *iv;
	struct fr_dump *dump, *d;
	unsigned long flags;

	if ((u64)bytes > (u64)READ_ONCE(fr_ring_mb) << 20)
		return false;
	while (!fr_charge_fits(bytes)) {
		iv = NULL;
		if (proc) {
			/* the images parked at execs are its oldest */
			dump = fr_exec_pop_image(proc);
			if (dump) {
				fr_dump_put(dump);
				continue;
			}
			spin_lock(&proc->lock);
			iv = fr_ring_pop_locked(proc);
			if (iv)
				proc->dropped++;
			spin_unlock(&proc->lock);
		}
		if (iv) {
			fr_interval_free(iv);
			continue;
		}
		dump = NULL;
		spin_lock_irqsave(&fr_dumps_lock, flags);
		list_for_each_entry(d, &fr_dumps, node) {
			if (READ_ONCE(d->collected)) {
				dump = d;
				list_del_init(&dump->node);
				break;
			}
		}
		spin_unlock_irqrestore(&fr_dumps_lock, flags);
		if (!dump)
			return false;
		fr_dump_put(dump);
	}
	return true;
}

/*
 * The same with proc->lock held (the write-fault probe): only the process's
 * own ring is evicted; the dropped intervals go to `drop`, to be freed with
 * fr_intervals_free() after the lock is released.
 */
bool fr_charge_locked(struct fr_proc *proc, size_t bytes, struct list_head *drop)
{
	struct fr_interval *iv;

	while (!fr_charge_fits(bytes)) {
		iv = fr_exec_pop_locked(proc) ?: fr_ring_pop_locked(proc);
		if (!iv)
			return false;
		proc->dropped++;
		list_add_tail(&iv->node, drop);
	}
	return true;
}

void fr_intervals_free(struct list_head *list)
{
	struct fr_interval *iv, *tmp;

	list_for_each_entry_safe(iv, tmp, list, node) {
		list_del(&iv->node);
		fr_interval_free(iv);
	}
}

/*
 * After ring_mb was lowered: the record pools shrink to a quarter of it,
 * frozen dumps go first, oldest first, then the oldest closed intervals of
 * the recorded processes, until the recorded data fits the new cap (open
 * intervals stay: they are charged as they grow).
 */
void fr_enforce_cap(void)
{
	u64 cap = (u64)READ_ONCE(fr_ring_mb) << 20;
	struct fr_interval *iv;
	struct fr_dump *dump;
	struct fr_proc *proc;
	unsigned long flags;

	fr_arena_enforce_cap();

	while (atomic64_read(&fr_bytes) > cap) {
		spin_lock_irqsave(&fr_dumps_lock, flags);
		dump = list_first_entry_or_null(&fr_dumps, struct fr_dump, node);
		if (dump)
			list_del_init(&dump->node);
		spin_unlock_irqrestore(&fr_dumps_lock, flags);
		if (dump) {
			fr_dump_put(dump);
			continue;
		}
		iv = NULL;
		mutex_lock(&fr_registry_lock);
		list_for_each_entry(proc, &fr_proc_list, lnode) {
			spin_lock(&proc->lock);
			iv = fr_exec_pop_locked(proc) ?: fr_ring_pop_locked(proc);
			if (iv)
				proc->dropped++;
			spin_unlock(&proc->lock);
			if (iv)
				break;
		}
		mutex_unlock(&fr_registry_lock);
		if (!iv)
			return;
		fr_interval_free(iv);
	}
}

void fr_uncharge(size_t bytes)
{
	atomic64_sub(bytes, &fr_bytes);
}

/* ------------------------------------------------------------------ */
/* boundaries */

/*
 * Closes the open interval and opens the next one.  Runs in the task_work of
 * a thread of proc, with proc->work_lock held.  Returns the closed interval
 * (not yet in the ring) or NULL.
 *
 * A kept interval is complete: what its start needs and can be allocated
 * before the cut (the interval, this thread's context and XSAVE area, the
 * map array) is, and when that fails there is no boundary - the open
 * interval goes on, whole.  A freeze (@freeze) must cut: then, and for what
 * can fail only after the cut (a file's path, a mapping made meanwhile, a
 * late thread's context), the new interval is flagged
 * FLIGHTREC_IF_LOST_STATE instead.  Never a silent gap.
 */
/* what fr_boundary() cuts for */
enum fr_cut {
	FR_CUT_BOUNDARY,	/* a periodic boundary: it may fail */
	FR_CUT_FREEZE,		/* a dump's freeze: it cuts, whatever fits */
	FR_CUT_EXEC,		/* a freeze that parks the image at an execve */
};

static struct fr_interval *fr_boundary(struct fr_proc *proc, struct fr_thread *t,
				       enum fr_cut cut)
{
	bool freeze = cut != FR_CUT_BOUNDARY;
	struct mm_struct *mm = current->mm;
	struct fr_interval *next, *closed;
	struct fr_thread_ctx *own, *ctx, *tmp;
	struct fr_map *maps = NULL;
	unsigned long deadline;
	u32 gen = atomic_read(&proc->boundary_gen);
	size_t pre, bytes, ctx_bytes;
	bool lost = false, charged, vdso_todo;
	LIST_HEAD(drop);
	LIST_HEAD(recs);
	u32 cap;
	u64 t0;

	t->seen_boundary = gen;
	/* a new image's (an exec's mm), or one that failed before: retried */
	fr_mn_ensure(proc, mm);
	next = fr_interval_new(proc, freeze ? GFP_KERNEL | __GFP_NOFAIL : GFP_KERNEL);
	if (!next)
		return NULL;
	if (!fr_charge(proc, next->bytes)) {
		if (!freeze) {
			kfree(next);
			return NULL;
		}
		atomic64_add(next->bytes, &fr_bytes);	/* a few hundred bytes */
	}
	own = fr_ctx_own(t);
	mmap_read_lock(mm);
	cap = fr_count_vmas(mm) + FR_MAPS_SLACK;
	mmap_read_unlock(mm);
	/* under the cap, charged before it is allocated (issue 24.3) */
	pre = (size_t)cap * sizeof(*maps) + (own ? sizeof(*own) + own->xsave_size : 0);
	charged = fr_charge(proc, pre);
	if (charged)
		maps = kvcalloc(cap, sizeof(*maps), GFP_KERNEL | __GFP_NOWARN);
	if (!charged || !own || own->lost || !maps) {
		if (!freeze) {
			fr_ctx_free(own);
			kvfree(maps);
			if (charged)
				fr_uncharge(pre);
			fr_interval_free(next);	/* uncharges it */
			return NULL;
		}
		/* a freeze cuts all the same: what fits is kept, flagged */
		lost = true;
		if (charged)
			fr_uncharge(pre);
		pre = 0;
		if (own && !own->lost && fr_charge(proc, sizeof(*own) + own->xsave_size)) {
			pre += sizeof(*own) + own->xsave_size;
		} else {
			fr_ctx_free(own);
			own = NULL;
		}
		if (maps && fr_charge(proc, (size_t)cap * sizeof(*maps))) {
			pre += (size_t)cap * sizeof(*maps);
		} else {
			kvfree(maps);
			maps = NULL;
			cap = 0;
		}
	}
	proc->boundary_done_gen = gen;
	vdso_todo = proc->vdso_patched != mm->context.vdso;

	t0 = ktime_get_ns();
	proc->stop_seq++;
	deadline = jiffies + msecs_to_jiffies(FR_STOP_WAIT_MS);
	for (;;) {
		bool more = fr_stop_wait(proc, deadline);

		/*
		 * The vDSO is patched (issue 24.8) once every other thread is
		 * stopped - none runs its code while it changes - and, checked
		 * by fr_vdso_patch(), none is stopped inside the bytes it
		 * changes; else at a later boundary.  Before the walk, so that
		 * the patched pages are write-protected.  The stopped threads
		 * reach user space only after work_lock is released.
		 */
		if (vdso_todo && !READ_ONCE(proc->dying) && fr_stop_done(proc)) {
			int ret = fr_vdso_patch(proc);

			vdso_todo = false;
			if (ret < 0 && ret != -EAGAIN)
				pr_warn_ratelimited("pid %d: vDSO not patched: time calls are not recorded\n",
						    proc->tgid);
			if (ret != -EAGAIN)
				proc->vdso_patched = mm->context.vdso;
		}
		mmap_read_lock(mm);
		spin_lock(&proc->lock);
		if (fr_cut_gate(proc) || !more)
			break;
		/* one left the kernel between the wait and the locks */
		fr_logs_unhold(proc, true);
		spin_unlock(&proc->lock);
		mmap_read_unlock(mm);
	}
	/* the cut */
	closed = proc->cur;
	if (closed)
		fr_mem_unretire_held(proc, closed);
	/* a freeze's goes into its dump (fr_freeze) */
	if (!freeze)
		proc->closing = closed;
	next->index = proc->next_index;
	/* read without locks by fr_sys_enter_work (a held call) */
	WRITE_ONCE(proc->next_index, next->index + 1);
	if (closed) {
		/* fr_stamp_ns()'s pairs; closed is no one else's until pushed */
		closed->end_ns = next->start_ns;
		closed->end_tsc = next->start_tsc;
		next->prev_ns = closed->start_ns;
		next->prev_tsc = closed->start_tsc;
	}
	proc->cur = next;
	/* what the threads placed until now (none before the first cut) */
	fr_logs_take(proc, closed, &recs);
	if (own)
		list_add_tail(&own->node, &next->threads);
	ctx_bytes = fr_gather_threads(proc, next, gen);
	/*
	 * Not at an exec's park: an exec that succeeds ends every other
	 * thread, and one that fails puts the intervals back into the ring,
	 * where a call's unfinished record would be a second one.
	 */
	if (cut == FR_CUT_FREEZE && closed)
		fr_sc_unfinished(proc, closed);
	fr_logs_unhold(proc, true);
	spin_unlock(&proc->lock);
	fr_sc_recs_free(&recs);

	bytes = pre + fr_capture_process(proc, next, mm, maps, cap, &lost);
	fr_mem_boundary(proc, closed, next);
	spin_lock(&proc->lock);
	list_for_each_entry(ctx, &next->threads, node)
		fr_mem_ctx_insn(proc, next, mm, ctx);
	spin_unlock(&proc->lock);
	mmap_read_unlock(mm);
	t0 = ktime_get_ns() - t0;
	proc->nr_boundaries++;
	proc->boundary_ns += t0;
	proc->boundary_max_ns = max(proc->boundary_max_ns, t0);

	/*
	 * The other threads' contexts, taken at the cut: when the cap cannot
	 * hold them they are not kept, and that is said.  next->bytes gets
	 * only what was charged here: records placed in next since the cut
	 * were charged by their writers.
	 */
	if (ctx_bytes && fr_charge(proc, ctx_bytes)) {
		bytes += ctx_bytes;
		ctx_bytes = 0;
	}
	spin_lock(&proc->lock);
	if (ctx_bytes) {
		list_for_each_entry_safe(ctx, tmp, &next->threads, node)
			if (ctx != own)
				list_move(&ctx->node, &drop);
		lost = true;
	}
	next->bytes += bytes;
	if (lost)
		next->flags |= FLIGHTREC_IF_LOST_STATE;
	spin_unlock(&proc->lock);
	list_for_each_entry_safe(ctx, tmp, &drop, node)
		fr_ctx_free(ctx);
	return closed;
}

/* A thread that passes a boundary another thread already made. */
static void fr_boundary_late(struct fr_proc *proc, struct fr_thread *t)
{
	struct mm_struct *insn_mm;
	struct fr_thread_ctx *ctx;

	t->seen_boundary = proc->boundary_done_gen;
	/* the context it reported before it waited for work_lock, if any */
	spin_lock(&proc->lock);
	ctx = t->stop_ctx;
	t->stop_ctx = NULL;
	spin_unlock(&proc->lock);
	if (!ctx)
		ctx = fr_ctx_own(t);
	if (!ctx || ctx->lost) {
		/* too late for a later try: said, not silent */
		fr_cur_flag(proc, FLIGHTREC_IF_LOST_STATE);
		if (!ctx)
			return;
	}
	if (!fr_charge(proc, sizeof(*ctx) + ctx->xsave_size)) {
		/* over the cap: not kept, and said */
		fr_cur_flag(proc, FLIGHTREC_IF_LOST_STATE);
		fr_ctx_free(ctx);
		return;
	}
	/* inside a call: its syscall instruction's page (fr_mem_ctx_insn) */
	insn_mm = ctx->in_syscall >= 0 && current->mm == proc->mm ?
		  current->mm : NULL;
	if (insn_mm)
		mmap_read_lock(insn_mm);
	spin_lock(&proc->lock);
	if (proc->cur) {
		list_add_tail(&ctx->node, &proc->cur->threads);
		proc->cur->bytes += sizeof(*ctx) + ctx->xsave_size;
		if (insn_mm)
			fr_mem_ctx_insn(proc, proc->cur, insn_mm, ctx);
		ctx = NULL;
	}
	spin_unlock(&proc->lock);
	if (insn_mm)
		mmap_read_unlock(insn_mm);
	if (ctx) {
		fr_uncharge(sizeof(*ctx) + ctx->xsave_size);
		fr_ctx_free(ctx);
	}
}

/*
 * A periodic boundary, timed whole for fr_timer_may_cut(): what it
 * allocates and frees (at the cap, the evicted intervals) costs as much as
 * the page walk on a slow kernel.
 */
static void fr_exec_trim(struct fr_proc *proc, u32 max);

static void fr_boundary_and_push(struct fr_proc *proc, struct fr_thread *t)
{
	struct fr_interval *closed;

	WRITE_ONCE(proc->cut_start_ns, ktime_get_ns());
	closed = fr_boundary(proc, t, FR_CUT_BOUNDARY);
	if (closed) {
		fr_ring_push(proc, closed);
		fr_nl_event(FLIGHTREC_EVENT_INTERVAL, proc->tgid, 0);
		/* a dump now keeps the ring's nr_ring + 1 intervals at least */
		if (unlikely(!list_empty(&proc->exec_dumps)))
			fr_exec_trim(proc, proc->keep -
				     min(proc->keep, READ_ONCE(proc->nr_ring) + 1));
	}
	WRITE_ONCE(proc->cut_end_ns, ktime_get_ns());
}

/*
 * The boundary asked of t, if any: passed late when another thread made it,
 * else made now.  Not made while t's held call has its capture and has not
 * run yet: the call would land in the next interval, the capture in this
 * one.  The next request's task_work makes it (an interval a period
 * longer); one made by another thread meanwhile sends the call back to be
 * held (fr_sc_held_moved).
 */
static void fr_boundary_pass(struct fr_proc *proc, struct fr_thread *t)
{
	u32 gen = atomic_read(&proc->boundary_gen);

	if (t->seen_boundary == gen)
		return;
	if (proc->boundary_done_gen == gen)
		fr_boundary_late(proc, t);
	else if (!(t->held_cap && t->held_done))
		fr_boundary_and_push(proc, t);
}

/* ------------------------------------------------------------------ */
/* frozen dumps */

void fr_dump_free(struct fr_dump *dump)
{
	struct fr_interval *iv, *tmp;
	unsigned long idx;
	void *data;

	list_for_each_entry_safe(iv, tmp, &dump->intervals, node)
		fr_interval_free(iv);
	xa_for_each(&dump->final, idx, data)
		fr_page_free(data);
	xa_destroy(&dump->final);
	kfree(dump->nodump);
	fr_dump_put_bid_files(dump);
	if (dump->end.ctx)
		fr_ctx_free(dump->end.ctx);
	kfree(dump->exe);
	fr_kvfree(dump->cmdline);	/* kvmalloc'd: vmalloc under fragmentation */
	fr_uncharge(dump->bytes);
	kfree(dump);
}

void fr_dump_put(struct fr_dump *dump)
{
	if (dump && refcount_dec_and_test(&dump->ref))
		fr_dump_free(dump);
}

/* Drops the oldest intervals of a dump not yet published, down to @max. */
static void fr_dump_trim(struct fr_dump *dump, u32 max)
{
	struct fr_interval *iv, *tmp;

	list_for_each_entry_safe(iv, tmp, &dump->intervals, node) {
		if (dump->nr_intervals <= max)
			break;
		list_del(&iv->node);
		fr_interval_free(iv);
		dump->nr_intervals--;
	}
}

/* A frozen dump gets its id and can be read (GET_DUMP). */
static void fr_dump_publish(struct fr_dump *dump)
{
	unsigned long flags;

	dump->id = atomic_inc_return(&fr_next_dump_id);
	spin_lock_irqsave(&fr_dumps_lock, flags);
	list_add_tail(&dump->node, &fr_dumps);
	spin_unlock_irqrestore(&fr_dumps_lock, flags);
}

/*
 * The images parked at execs keep at most @max intervals together, the
 * newest: a dump holds the last keep intervals, whichever image ran them.
 * work_lock held.
 */
static void fr_exec_trim(struct fr_proc *proc, u32 max)
{
	struct fr_interval *iv;
	struct fr_dump *d, *tmp;
	LIST_HEAD(ivs);
	LIST_HEAD(dumps);

	spin_lock(&proc->lock);
	while (proc->nr_exec_ivs > max && (iv = fr_exec_pop_locked(proc)))
		list_add_tail(&iv->node, &ivs);
	list_for_each_entry_safe(d, tmp, &proc->exec_dumps, node)
		if (!d->nr_intervals)
			list_move_tail(&d->node, &dumps);
	spin_unlock(&proc->lock);
	fr_intervals_free(&ivs);
	list_for_each_entry_safe(d, tmp, &dumps, node) {
		list_del_init(&d->node);
		fr_dump_put(d);
	}
}

struct fr_dump *fr_dump_get(u32 id)
{
	struct fr_dump *dump, *found = NULL;

	spin_lock_irq(&fr_dumps_lock);
	list_for_each_entry(dump, &fr_dumps, node) {
		if (dump->id == id) {
			refcount_inc(&dump->ref);
			found = dump;
			break;
		}
	}
	spin_unlock_irq(&fr_dumps_lock);
	return found;
}

/*
 * Releases dump id, and the images before its execs with it (its
 * PREV_DUMP, and theirs): they are never announced, a reader that does not
 * know them must not leave them behind.  One that reads them releases
 * them first, or finds them gone (ENOENT).
 */
int fr_dump_release(u32 id)
{
	struct fr_dump *dump, *found;
	bool any = false;

	for (; id; any = true) {
		found = NULL;
		spin_lock_irq(&fr_dumps_lock);
		list_for_each_entry(dump, &fr_dumps, node) {
			if (dump->id == id && (!any || dump->end.kind == FLIGHTREC_END_EXEC)) {
				list_del_init(&dump->node);
				found = dump;
				break;
			}
		}
		spin_unlock_irq(&fr_dumps_lock);
		if (!found)
			break;
		id = found->prev_id;
		fr_dump_put(found);
	}
	return any ? 0 : -ENOENT;
}

static void fr_dump_process_info(struct fr_dump *dump, struct mm_struct *mm)
{
	struct file *exe;
	unsigned long len;
	char *buf, *p;

	dump->pid = task_tgid_vnr(current);
	rcu_read_lock();
	dump->ppid = task_tgid_vnr(rcu_dereference(current->real_parent));
	rcu_read_unlock();
	get_task_comm(dump->comm, current);
	dump->personality = current->personality;
	BUILD_BUG_ON(sizeof(dump->auxv) < sizeof(mm->saved_auxv));
	memcpy(dump->auxv, mm->saved_auxv, sizeof(mm->saved_auxv));
	dump->auxv_len = sizeof(mm->saved_auxv);

	/* get_mm_exe_file() is not exported: the same, by hand */
	exe = fr_get_mm_exe_file(mm);
	if (exe) {
		buf = kmalloc(PATH_MAX, GFP_KERNEL);
		if (buf) {
			p = file_path(exe, buf, PATH_MAX);
			if (!IS_ERR(p))
				dump->exe = kstrdup(p, GFP_KERNEL);
			kfree(buf);
		}
		fput(exe);
	}
	len = mm->arg_end - mm->arg_start;
	if (mm->arg_end > mm->arg_start && len <= PAGE_SIZE * 32) {
		dump->cmdline = kvmalloc(len, GFP_KERNEL);
		if (dump->cmdline &&
		    copy_from_user(dump->cmdline, (void __user *)mm->arg_start, len)) {
			kvfree(dump->cmdline);
			dump->cmdline = NULL;
		}
		if (dump->cmdline)
			dump->cmdline_len = len;
	}
}

static void fr_exec_unpark(struct fr_proc *proc);

/*
 * Freezes the ring: closes the open interval here, moves the ring into a
 * new dump, resolves its pages.  proc->work_lock held; current is a thread
 * of proc with its mm.
 */
static struct fr_dump *fr_freeze(struct fr_proc *proc, struct fr_thread *t,
				 u32 kind)
{
	struct fr_dump *dump, *iv_d, *d_tmp;
	struct fr_interval *closed, *iv;
	u32 n = 0, prev = 0;

	if (kind != FLIGHTREC_END_EXEC && proc->exec_parker)
		fr_exec_unpark(proc);
	/*
	 * A crash's dump is not lost to a failed allocation of its header (a
	 * few hundred bytes; the fault pass saw an exit dump never come).
	 */
	dump = kzalloc(sizeof(*dump), GFP_KERNEL | __GFP_NOFAIL);
	refcount_set(&dump->ref, 1);
	INIT_LIST_HEAD(&dump->intervals);
	INIT_LIST_HEAD(&dump->node);
	xa_init(&dump->final);
	mutex_init(&dump->bid_lock);
	dump->created_ns = ktime_get_ns();
	dump->end.kind = kind;
	dump->end.tid = task_pid_vnr(current);
	/* the end's registers: a few hundred bytes, not to be lost */
	dump->end.ctx = fr_ctx_capture(current, GFP_KERNEL | __GFP_NOFAIL);
	if (kind == FLIGHTREC_END_FAULT) {
		dump->end.signo = t->fault_signo;
		dump->end.si_code = t->fault_code;
		dump->end.fault_addr = t->fault_addr;
	} else if (kind == FLIGHTREC_END_EXIT) {
		/* held at exit_group(status) or exit(status): a wait status */
		dump->end.exit_code = (task_pt_regs(current)->di & 0xff) << 8;
	}

	closed = fr_boundary(proc, t, kind == FLIGHTREC_END_EXEC ?
				 FR_CUT_EXEC : FR_CUT_FREEZE);
	spin_lock(&proc->lock);
	if (closed)
		closed->flags |= FLIGHTREC_IF_PARTIAL;	/* cut short by the freeze */
	list_splice_tail_init(&proc->ring, &dump->intervals);
	proc->nr_ring = 0;
	if (closed)
		list_add_tail(&closed->node, &dump->intervals);
	list_for_each_entry(iv, &dump->intervals, node)
		n++;
	if (kind != FLIGHTREC_END_EXEC)
		proc->nr_dumps++;
	spin_unlock(&proc->lock);
	dump->nr_intervals = n;
	fr_dump_trim(dump, proc->keep);

	fr_dump_process_info(dump, current->mm);
	fr_mem_resolve(dump, current->mm);
	fr_dump_build_ids(dump, current->mm);

	if (kind != FLIGHTREC_END_EXEC) {
		LIST_HEAD(chain);

		/* the images before the execs, then this one */
		fr_exec_trim(proc, proc->keep - dump->nr_intervals);
		spin_lock(&proc->lock);
		list_splice_init(&proc->exec_dumps, &chain);
		proc->nr_exec_ivs = 0;
		spin_unlock(&proc->lock);
		list_for_each_entry_safe(iv_d, d_tmp, &chain, node) {
			list_del_init(&iv_d->node);
			if (!iv_d->nr_intervals) {	/* the cap took them */
				fr_dump_put(iv_d);
				continue;
			}
			iv_d->prev_id = prev;
			fr_dump_publish(iv_d);
			prev = iv_d->id;
		}
		dump->prev_id = prev;
		fr_dump_publish(dump);
	}
	return dump;
}

/*
 * Would the held execve of @t find its file?  A shell or execvp() tries
 * each $PATH entry in turn: only the call that can succeed parks the
 * image.  One that fails anyway (a format the kernel refuses, no
 * permission) puts it back (fr_exec_unpark).
 */
static bool fr_exec_may_succeed(struct fr_thread *t)
{
	struct pt_regs *regs = task_pt_regs(current);
	unsigned int lookup = LOOKUP_FOLLOW;
	const char __user *uname;
	struct path path;
	bool ok = false;
	char *name;
	long len;

	if (t->held_nr == __NR_execveat) {
		if ((int)regs->di != AT_FDCWD || (regs->r8 & AT_EMPTY_PATH))
			return true;	/* a descriptor: not looked up here */
		if (regs->r8 & AT_SYMLINK_NOFOLLOW)
			lookup = 0;
		uname = (const char __user *)regs->si;
	} else {
		uname = (const char __user *)regs->di;
	}
	name = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!name)
		return true;
	len = strncpy_from_user(name, uname, PATH_MAX);
	if (len > 0 && len < PATH_MAX && !kern_path(name, lookup, &path)) {
		/* path_noexec() is not exported: the same test */
		ok = d_is_reg(path.dentry) &&
		     !(path.mnt->mnt_flags & MNT_NOEXEC) &&
		     !(path.mnt->mnt_sb->s_iflags & SB_I_NOEXEC);
		path_put(&path);
	}
	kfree(name);
	return ok;
}

/*
 * The held execve of @t (replay across exec, docs/recording.md): the ring
 * is frozen now, while the old image's memory is there, into a dump parked
 * on proc->exec_dumps.  The exec's success keeps it (the next freeze
 * publishes it in front of its own dump); a failure puts it back.
 */
static void fr_exec_park(struct fr_proc *proc, struct fr_thread *t)
{
	struct fr_dump *dump;

	if (!proc->exec_chain)
		return;
	/*
	 * A park whose call never ran (a handler that longjmp'd away from
	 * the restarted execve; its thread's next task_work would put it
	 * back) is still the process's image: back first.
	 */
	if (proc->exec_parker)
		fr_exec_unpark(proc);
	dump = fr_freeze(proc, t, FLIGHTREC_END_EXEC);
	spin_lock(&proc->lock);
	list_add_tail(&dump->node, &proc->exec_dumps);
	proc->nr_exec_ivs += dump->nr_intervals;
	spin_unlock(&proc->lock);
	WRITE_ONCE(proc->exec_parker, task_pid_vnr(current));
	/* the new image will have one interval at least */
	fr_exec_trim(proc, proc->keep - 1);
}

/*
 * The newest parked image is still the process's: its execve failed, or
 * the process is frozen before the call ran.  Its intervals go back to the
 * front of the ring.  The parked bytes of its pages are not needed: the
 * tracking went on meanwhile (a page written since has its original in a
 * later interval, one not written is as it is now).  work_lock held.
 */
static void fr_exec_unpark(struct fr_proc *proc)
{
	struct fr_interval *iv, *tmp;
	struct fr_dump *d = NULL;
	LIST_HEAD(drop);
	u32 n;

	WRITE_ONCE(proc->exec_parker, 0);
	spin_lock(&proc->lock);
	if (list_empty(&proc->exec_dumps)) {
		spin_unlock(&proc->lock);
		return;		/* the cap took it meanwhile */
	}
	d = list_last_entry(&proc->exec_dumps, struct fr_dump, node);
	list_del_init(&d->node);
	n = d->nr_intervals;
	proc->nr_exec_ivs -= n;
	d->nr_intervals = 0;
	if (n) {
		iv = list_last_entry(&d->intervals, struct fr_interval, node);
		iv->flags &= ~FLIGHTREC_IF_PARTIAL;
	}
	list_splice_init(&d->intervals, &proc->ring);
	proc->nr_ring += n;
	while (proc->nr_ring > proc->keep) {
		iv = fr_ring_pop_locked(proc);
		list_add_tail(&iv->node, &drop);
	}
	spin_unlock(&proc->lock);
	list_for_each_entry_safe(iv, tmp, &drop, node)
		fr_interval_free(iv);
	fr_dump_put(d);
}

static void fr_freeze_and_announce(struct fr_proc *proc, struct fr_thread *t,
				   u32 kind, u32 event)
{
	struct fr_dump *dump = fr_freeze(proc, t, kind);

	if (proc->dump_done && kind == FLIGHTREC_END_DUMP) {
		proc->dump_err = dump ? 0 : -ENOMEM;
		proc->dump_result = dump ? dump->id : 0;
		proc->dump_req_id = 0;
		complete(proc->dump_done);
		proc->dump_done = NULL;
	}
	if (dump)
		fr_nl_event(event, proc->tgid, dump->id);
}

/* ------------------------------------------------------------------ */
/* the per-thread task_work */

static void fr_thread_work(struct fr_proc *proc, struct fr_thread *t)
{
	bool exec_may = false;

	/* a big write's hash: its own bytes, not under work_lock */
	if (t->sc_slow && t->sc_in_defer)
		fr_sc_hash_in_full(t);
	/*
	 * A held execve's path, looked up not under work_lock: the lookup
	 * may wait for a FUSE server that is a thread of this process.
	 */
	if (t->held && !t->held_done &&
	    (t->held_nr == __NR_execve || t->held_nr == __NR_execveat) &&
	    READ_ONCE(proc->exec_chain))
		exec_may = fr_exec_may_succeed(t);
	/*
	 * Someone holds work_lock, maybe a boundary waiting for this thread
	 * to stop: it stops here, with its context, before it waits.
	 */
	if (!mutex_trylock(&proc->work_lock)) {
		fr_stop_report(proc, t);
		mutex_lock(&proc->work_lock);
	}
	if (proc->dying || !proc->started || !current->mm)
		goto out;
	/* under work_lock a thread of a live proc is only removed by itself */
	if (fr_thread_find(current) != t)
		goto out;
	atomic_set(&t->twork_queued, 0);
	/*
	 * Inside an execve past its point of no return: ptrace_notify() runs
	 * task_work at the PTRACE_EVENT_EXEC stop (a tracer with
	 * PTRACE_O_TRACEEXEC: strace -f, gdb), before the call returns.  The
	 * new image's mm is in, exec_pending is not set yet.  No boundary or
	 * freeze of the old image's ring against the new mm, and the parked
	 * image is not a failed exec's to take back (it was, and was lost:
	 * dump_during_exec_chain on the debug kernel).  The exec's own work
	 * follows at its sys_exit (exec_pending: then proc->mm is the old
	 * one until fr_proc_exec_reset()), a dump asked for meanwhile with it.
	 */
	if (unlikely(current->mm != proc->mm) && !t->exec_pending)
		goto out_unlock;
	fr_tsc_own(t);

	if (t->sc_slow)
		fr_sc_finish_slow(t);
	/*
	 * A syscall-exit or signal stop's changes: after the call's record.
	 * An exec's (its PTRACE_EVENT_EXEC stop) are in the new image's start,
	 * which the ring's restart below takes.
	 */
	if (READ_ONCE(t->pt_pending)) {
		if (t->exec_pending)
			fr_pt_forget(t);
		else
			fr_sc_ptrace(t, FLIGHTREC_PT_AT_RESUME);
	}
	/* before any freeze or boundary: nothing of a privileged image */
	if (!fr_proc_check_dumpable(proc, t))
		goto out;
	/* before user code, and before a dump takes the pages */
	if (t->wp_pending) {
		t->wp_pending = false;
		fr_mem_rewrprotect(proc, t->wp_start, t->wp_end);
	}
	if (t->exec_pending) {
		/*
		 * Its image stays parked.  Cleared whoever parked it: a thread
		 * other than the leader that execs takes the leader's pid.
		 */
		WRITE_ONCE(proc->exec_parker, 0);
		t->exec_pending = false;
		WRITE_ONCE(proc->exec_chain, true);	/* START_AT_EXEC: from now */
		fr_proc_exec_reset(proc);
		fr_boundary_and_push(proc, t);
		/*
		 * A dump asked for during the exec: its work and the exec's
		 * are this one (fr_twork_queue queues one), and no other may
		 * come (a shell next waits in wait4()).  Served here, at the
		 * new image's first instruction.
		 */
		if (proc->dump_req_id)
			fr_freeze_and_announce(proc, t, FLIGHTREC_END_DUMP,
					       FLIGHTREC_EVENT_DUMP);
		goto out;
	}
	/* the execve that parked the image returned: it failed */
	if (unlikely(proc->exec_parker == task_pid_vnr(current)) && !t->held_done)
		fr_exec_unpark(proc);
	if (t->fault_pending) {
		t->fault_pending = false;
		if (!proc->frozen) {
			proc->frozen = true;
			fr_freeze_and_announce(proc, t, FLIGHTREC_END_FAULT,
					       FLIGHTREC_EVENT_FAULT);
		}
		goto out;
	}
	if (t->held && !t->held_done) {
		if (t->held_nr == __NR_execve || t->held_nr == __NR_execveat) {
			if (exec_may)
				fr_exec_park(proc, t);
		} else {
			WRITE_ONCE(t->held_cap, fr_sc_held_work(proc, t));
		}
		t->held_iv = proc->next_index;
		t->held_done = true;
		if (proc->at_exit && !proc->at_exit_done &&
		    fr_sc_is_exit(t->held_nr)) {
			proc->at_exit_done = true;
			fr_sc_record_held_exit(t);
			fr_freeze_and_announce(proc, t, FLIGHTREC_END_EXIT,
					       FLIGHTREC_EVENT_EXIT);
			goto out;
		}
		/*
		 * A dump asked for meanwhile may have no work but this one
		 * (fr_twork_queue queues one): served now, before the call.
		 * The capture then lands in the dump, and the call, its
		 * interval moved on, is held again (fr_sc_held_moved).
		 */
		if (!proc->dump_req_id)
			goto out;
	}
	if (proc->dump_req_id) {
		fr_freeze_and_announce(proc, t, FLIGHTREC_END_DUMP,
				       FLIGHTREC_EVENT_DUMP);
		goto out;
	}
	fr_boundary_pass(proc, t);
out:
	/* stopped since the cut: its user FPU state is still the cut's */
	if (READ_ONCE(t->xsave_wait))
		fr_ctx_xsave_fill(t, true);
out_unlock:
	/* before work_lock goes: a boundary must not count it stopped now */
	fr_stop_release(proc, t);
	mutex_unlock(&proc->work_lock);
}

/*
 * The open interval leaves proc->cur, to be freed, with what the threads'
 * logs hold for it (what they place from now on finds no interval).
 * proc->lock held; @drop as for fr_logs_take().
 */
static struct fr_interval *fr_cur_take(struct fr_proc *proc,
				       struct list_head *drop)
{
	struct fr_interval *cur = proc->cur;

	proc->cur = NULL;
	fr_logs_take(proc, cur, drop);
	return cur;
}

/*
 * Ptrace loses access to a process that is no longer dumpable (an exec that
 * changed credentials, PR_SET_DUMPABLE 0, a set*id call: see
 * commit_creds()), and so does flightrec, as core dumps do: even a
 * privileged recorder does not keep what such a process holds.  Its ring is
 * dropped now; it stays registered, dying (every probe ignores it), with the
 * reason in status and LIST, until its threads exit (the reaper) or it is
 * unregistered.  A dump request waiting on it fails with EPERM.
 * In the recorded thread's task_work, work_lock held: the thread whose
 * syscall changed dumpability runs this before its next user instruction
 * (fr_sys_exit queues the work); any other thread of the process runs it
 * before it could freeze or close an interval.  Returns false when the
 * process was stopped.
 */
bool fr_proc_check_dumpable(struct fr_proc *proc, struct fr_thread *t)
{
	struct fr_interval *iv, *tmp, *cur;
	struct fr_thread *thr;
	LIST_HEAD(ring);
	LIST_HEAD(recs);
	u32 reason;

	lockdep_assert_held(&proc->work_lock);
	if (likely(get_dumpable(current->mm) == SUID_DUMP_USER))
		return true;
	reason = t->exec_pending ? FLIGHTREC_STOP_EXEC_CREDS :
				   FLIGHTREC_STOP_NOT_DUMPABLE;
	t->exec_pending = false;
	/* the images before its execs go too: nothing more is dumped */
	WRITE_ONCE(proc->exec_parker, 0);
	fr_exec_trim(proc, 0);
	spin_lock(&proc->lock);
	proc->stop_reason = reason;
	WRITE_ONCE(proc->dying, true);
	list_splice_init(&proc->ring, &ring);
	proc->nr_ring = 0;
	cur = fr_cur_take(proc, &recs);
	spin_unlock(&proc->lock);
	fr_sc_recs_free(&recs);
	/* the timer sees dying and does not rearm; it takes no work_lock */
	hrtimer_cancel(&proc->timer);
	if (proc->dump_done) {
		proc->dump_err = -EPERM;
		proc->dump_req_id = 0;
		complete(proc->dump_done);
		proc->dump_done = NULL;
	}
	list_for_each_entry_safe(iv, tmp, &ring, node)
		fr_interval_free(iv);
	fr_interval_free(cur);
	/* rdtsc back to every thread now: a dying proc traps nothing */
	rcu_read_lock();
	list_for_each_entry_rcu(thr, &proc->threads, pnode)
		fr_tsc_release(thr);
	rcu_read_unlock();
	fr_nl_event_stop(FLIGHTREC_EVENT_STOPPED, proc->tgid, 0, reason);
	return false;
}

static void fr_twork_fn(struct fr_tw *tw)
{
	struct fr_thread *t;

	kfree(container_of(tw, struct fr_twork, tw));
	rcu_read_lock();
	t = fr_thread_find(current);
	if (t && !refcount_inc_not_zero(&t->ref))
		t = NULL;
	rcu_read_unlock();
	if (t) {
		atomic_set(&t->kick_pending, 0);
		WRITE_ONCE(t->sig_kicked, false);
		/* before a boundary can take this thread's stop */
		fr_sc_flush_signal(t);
		/* t holds a reference on its proc */
		fr_thread_work(t->proc, t);
		fr_serial_wait(t->proc);
		fr_thread_put(t);
	}
}

/* Asks every thread of proc to pass a boundary. */
void fr_boundary_request(struct fr_proc *proc)
{
	struct fr_thread *t;

	atomic_inc(&proc->boundary_gen);
	rcu_read_lock();
	list_for_each_entry_rcu(t, &proc->threads, pnode)
		fr_twork_queue(t, TWA_RESUME);
	rcu_read_unlock();
}

/*
 * Boundaries take at most a third of a process's time: after one that took
 * D, none is asked for until the process has had FR_CUT_SHARE * D since.
 */
#define FR_CUT_SHARE	2

/*
 * Whether the process has had its share of time since the last boundary.
 * A boundary costs time of its own (the page walk, the other threads
 * stopped, its allocations); where that nears the interval (a large process
 * at a short interval, a slow kernel), or where many recorded processes
 * share few CPUs (each boundary then takes as long in wall time as its
 * process waits for a CPU), periodic requests would start the next one as
 * soon as this one ends, and the program would barely run: on a debug
 * kernel a fork tree of 85 processes took 185 s with a half-interval rule,
 * almost all in boundaries, and 12 s with this one.  So no request while
 * a boundary is being made, and none within FR_CUT_SHARE times the last
 * one's duration of its end.  Both are wall time, so under load both
 * stretch alike, and the share holds.  A cheap boundary (the usual case)
 * leaves every tick its request.
 */
static bool fr_timer_may_cut(struct fr_proc *proc)
{
	u64 start = READ_ONCE(proc->cut_start_ns), end = READ_ONCE(proc->cut_end_ns);

	if (start > end)
		return false;
	return ktime_get_ns() - end >= FR_CUT_SHARE * (end - start);
}

static enum hrtimer_restart fr_timer_fn(struct hrtimer *timer)
{
	struct fr_proc *proc = container_of(timer, struct fr_proc, timer);

	if (READ_ONCE(proc->dying))
		return HRTIMER_NORESTART;
	if (fr_timer_may_cut(proc))
		fr_boundary_request(proc);
	hrtimer_forward_now(timer, ms_to_ktime(proc->interval_ms));
	return HRTIMER_RESTART;
}

/*
 * Starts recording a registered process: its threads are in the registry.
 * The first interval opens when its threads next return to user space.
 */
void fr_proc_start(struct fr_proc *proc)
{
	/* work_lock and stop_wq are set up at allocation: the threads' work may use them */
	hrtimer_init(&proc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	proc->timer.function = fr_timer_fn;
	smp_store_release(&proc->started, true);
	fr_syscall_track(proc);
	fr_boundary_request(proc);
	hrtimer_start(&proc->timer, ms_to_ktime(proc->interval_ms),
		      HRTIMER_MODE_REL);
}

/* Stops recording and frees the ring; frozen dumps stay.  May sleep. */
void fr_proc_stop(struct fr_proc *proc)
{
	struct fr_interval *iv, *tmp, *cur;
	LIST_HEAD(ring);
	LIST_HEAD(recs);

	if (!proc->started)
		return;
	WRITE_ONCE(proc->dying, true);
	hrtimer_cancel(&proc->timer);
	mutex_lock(&proc->work_lock);
	if (proc->dump_done) {
		proc->dump_err = -ESRCH;
		complete(proc->dump_done);
		proc->dump_done = NULL;
	}
	WRITE_ONCE(proc->exec_parker, 0);
	fr_exec_trim(proc, 0);
	spin_lock(&proc->lock);
	list_splice_init(&proc->ring, &ring);
	proc->nr_ring = 0;
	cur = fr_cur_take(proc, &recs);
	spin_unlock(&proc->lock);
	mutex_unlock(&proc->work_lock);
	fr_sc_recs_free(&recs);
	list_for_each_entry_safe(iv, tmp, &ring, node)
		fr_interval_free(iv);
	fr_interval_free(cur);
}

/* exec replaced the address space: the ring described the old one. */
void fr_proc_exec_reset(struct fr_proc *proc)
{
	struct fr_interval *iv, *tmp, *cur;
	struct mm_struct *old;
	LIST_HEAD(ring);
	LIST_HEAD(recs);

	spin_lock(&proc->lock);
	list_splice_init(&proc->ring, &ring);
	proc->nr_ring = 0;
	cur = fr_cur_take(proc, &recs);
	spin_unlock(&proc->lock);
	fr_sc_recs_free(&recs);
	list_for_each_entry_safe(iv, tmp, &ring, node)
		fr_interval_free(iv);
	fr_interval_free(cur);
	/* a new vDSO, unpatched, maybe at the old one's address */
	proc->vdso_patched = NULL;
	old = proc->mm;
	if (old != current->mm) {
		mmgrab(current->mm);
		proc->mm = current->mm;
		mmdrop(old);
	}
	atomic_inc(&proc->boundary_gen);
}

/* how long a dump request waits for a thread of the process to serve it */
#define FR_DUMP_WAIT_S	10

/*
 * Why no thread served a dump request: one that runs, or that sleeps
 * interruptibly in a syscall, would have.  A thread in a job-control or
 * ptrace stop is not woken by the request, nor is one in an
 * uninterruptible sleep.
 */
static void fr_dump_late_msg(struct fr_proc *proc,
			     struct netlink_ext_ack *extack)
{
	bool dstate = false, running = false;
	struct fr_thread *t;

	rcu_read_lock();
	list_for_each_entry_rcu(t, &proc->threads, pnode) {
		if (task_is_stopped_or_traced(t->task))
			continue;
		if (READ_ONCE(t->task->__state) & TASK_UNINTERRUPTIBLE)
			dstate = true;
		else
			running = true;
	}
	rcu_read_unlock();
	if (running)
		NL_SET_ERR_MSG_MOD(extack,
				   "the process did not reach a dump point in time");
	else if (dstate)
		NL_SET_ERR_MSG_MOD(extack,
				   "no thread of the process ran within "
				   __stringify(FR_DUMP_WAIT_S)
				   " s: each is stopped (SIGSTOP or ptrace) or in an uninterruptible sleep (D state)");
	else
		NL_SET_ERR_MSG_MOD(extack,
				   "the process is stopped (SIGSTOP or a ptrace stop): a dump is made by one of its threads when it runs");
}

int fr_dump_request(pid_t pid, u32 *dump_id, struct netlink_ext_ack *extack)
{
	DECLARE_COMPLETION_ONSTACK(done);
	struct fr_proc *proc;
	struct fr_thread *t;
	long left;
	int err;

	proc = fr_proc_get(pid);
	if (!proc) {
		NL_SET_ERR_MSG_MOD(extack, "process is not registered");
		return -ENOENT;
	}
	mutex_lock(&proc->work_lock);
	if (proc->stop_reason) {
		mutex_unlock(&proc->work_lock);
		fr_proc_put(proc);
		NL_SET_ERR_MSG_MOD(extack,
				   "recording of this process stopped: it is not dumpable (see its stop reason in status)");
		return -EPERM;
	}
	if (proc->dying || proc->frozen) {
		mutex_unlock(&proc->work_lock);
		fr_proc_put(proc);
		NL_SET_ERR_MSG_MOD(extack, "process is exiting");
		return -ESRCH;
	}
	if (proc->dump_done) {
		mutex_unlock(&proc->work_lock);
		fr_proc_put(proc);
		NL_SET_ERR_MSG_MOD(extack, "a dump of this process is in progress");
		return -EBUSY;
	}
	proc->dump_done = &done;
	proc->dump_req_id = 1;
	mutex_unlock(&proc->work_lock);

	/*
	 * TWA_SIGNAL: a thread blocked in a syscall is interrupted; the call
	 * restarts transparently (the interrupted attempt is not recorded),
	 * also one that the kernel ends with EINTR (fr_sc_eintr_ours).
	 */
	rcu_read_lock();
	list_for_each_entry_rcu(t, &proc->threads, pnode)
		fr_twork_queue(t, TWA_SIGNAL);
	rcu_read_unlock();

	left = wait_for_completion_killable_timeout(&done,
						    FR_DUMP_WAIT_S * HZ);
	mutex_lock(&proc->work_lock);
	if (proc->dump_done == &done) {
		/* not completed: withdraw the request */
		proc->dump_done = NULL;
		proc->dump_req_id = 0;
		err = left < 0 ? -EINTR : -ETIMEDOUT;
		fr_dump_late_msg(proc, extack);
	} else {
		err = proc->dump_err;
		*dump_id = proc->dump_result;
		if (err == -EPERM)
			NL_SET_ERR_MSG_MOD(extack,
					   "recording of this process stopped: it is not dumpable (see its stop reason in status)");
		else if (err == -ESRCH)
			NL_SET_ERR_MSG_MOD(extack,
					   "the process exited before a thread of it could make the dump");
		else if (err)
			NL_SET_ERR_MSG_MOD(extack, "the dump could not be made");
	}
	mutex_unlock(&proc->work_lock);
	fr_proc_put(proc);
	return err;
}

/*
 * TSC stamps unless the kernel has found the TSC unfit for its clock
 * (check_tsc_unstable: CPUs out of step, a rate that changed with the
 * frequency, a TSC that stopped in idle; what makes it leave the tsc
 * clocksource); else ktime_get_ns() per record.  Decided once, at load: a
 * recording never mixes the two.  A TSC found unstable later can only
 * misplace a stamp within its segment: fr_stamp_ns() interpolates between
 * pairs that ktime_get_ns() read.
 */
int fr_interval_init(void)
{
	if (boot_cpu_has(X86_FEATURE_TSC) && tsc_khz && !check_tsc_unstable())
		static_branch_enable(&fr_tsc_stamps);
	return 0;
}

/*
 * Unload: every registered process is gone (fr_unregister_all ran first), so
 * no new task_work is queued.  Queued ones run or are orphaned, and their
 * tasks leave the module's text (fr_tw_drain).
 */
void fr_interval_exit(void)
{
	struct fr_dump *dump, *tmp;
	LIST_HEAD(dumps);

	fr_tw_drain();
	spin_lock_irq(&fr_dumps_lock);
	list_splice_init(&fr_dumps, &dumps);
	spin_unlock_irq(&fr_dumps_lock);
	list_for_each_entry_safe(dump, tmp, &dumps, node) {
		list_del_init(&dump->node);
		fr_dump_put(dump);
	}
	/* everything recorded is freed: the accounting must be back to zero */
	if (atomic64_read(&fr_bytes))
		pr_err("leak: %lld bytes of recorded data still accounted at unload\n",
		       (long long)atomic64_read(&fr_bytes));
}
