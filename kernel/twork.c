// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec: the module's task_work, and how unload gets rid of it.
 *
 * Every task_work the module queues (boundaries, child registration, rdtsc
 * traps and releases) is a struct fr_tw, listed in fr_tw_list from the moment
 * it is queued until it starts to run.  Its callback is module text, so
 * unload may not leave it queued; but a module cannot cancel queued work
 * (task_work_cancel is not exported), and a task stopped by SIGSTOP or
 * ptrace, or asleep uninterruptibly, runs it only when it continues, maybe
 * never.  Unload therefore waits only a little (FR_TW_GRACE) for works to
 * run; then, with every CPU held in stop_machine() so that no task runs,
 * it orphans what is still listed: the work's ->orphan hook does from
 * outside what must not be skipped (a task that would have run a TSC
 * release gets its TIF_NOTSC cleared: tsc.c), the work is unlisted and its
 * callback is pointed at kfree() - kernel text, so when the task continues
 * it frees the work and no module code runs.  A task that had read the old
 * callback before the switch reaches fr_tw_run(), finds its work unlisted
 * and frees it; synchronize_rcu_tasks() waits for such tasks to leave the
 * module's text.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/stop_machine.h>
#include <linux/task_work.h>
#include "flightrec.h"

/* how long unload lets queued works run before it orphans them */
#define FR_TW_GRACE	(HZ / 10)

static LIST_HEAD(fr_tw_list);
static DEFINE_SPINLOCK(fr_tw_lock);
/* works listed or running: unload waits for the running ones */
static atomic_t fr_tw_count = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(fr_tw_wq);

static void fr_tw_put(void)
{
	if (atomic_dec_and_test(&fr_tw_count))
		wake_up(&fr_tw_wq);
}

/* Unlists w; true when it was listed (not orphaned).  Any context. */
static bool fr_tw_unlist(struct fr_tw *w)
{
	unsigned long flags;
	bool listed;

	spin_lock_irqsave(&fr_tw_lock, flags);
	listed = !list_empty(&w->node);
	list_del_init(&w->node);
	spin_unlock_irqrestore(&fr_tw_lock, flags);
	return listed;
}

static void fr_tw_run(struct callback_head *cb)
{
	struct fr_tw *w = container_of(cb, struct fr_tw, cb);

	if (!fr_tw_unlist(w)) {
		/* orphaned by unload after task_work_run() read ->func */
		kfree(w);
		return;
	}
	w->fn(w);	/* frees w */
	fr_tw_put();
}

/*
 * Queues w (the first member of a kmalloc'd object, which fn frees) on task.
 * Any context, hard IRQ included.  Returns task_work_add()'s error (the task
 * is exiting); the caller then still owns w.
 */
int __fr_tw_add(struct task_struct *task, struct fr_tw *w, fr_tw_fn fn,
		fr_tw_fn orphan, enum task_work_notify_mode mode)
{
	unsigned long flags;
	int err;

	init_task_work(&w->cb, fr_tw_run);
	w->fn = fn;
	w->orphan = orphan;
	w->task = task;
	atomic_inc(&fr_tw_count);
	spin_lock_irqsave(&fr_tw_lock, flags);
	list_add_tail(&w->node, &fr_tw_list);
	spin_unlock_irqrestore(&fr_tw_lock, flags);
	err = task_work_add(task, &w->cb, mode);
	if (err && fr_tw_unlist(w))
		fr_tw_put();
	return err;
}

/*
 * stop_machine(): no task runs, so none is between reading a work's
 * callback and calling it, and a task's TIF_NOTSC may change (each CPU
 * returns from its stopper thread, which has no TIF_NOTSC, to a task whose
 * CR4.TSD is then set from the flag as it is now).
 */
static int fr_tw_orphan_all(void *data)
{
	unsigned int *n = data;
	struct fr_tw *w, *tmp;

	spin_lock(&fr_tw_lock);
	list_for_each_entry_safe(w, tmp, &fr_tw_list, node) {
		if (w->orphan)
			w->orphan(w);
		list_del_init(&w->node);
		/* kfree(&w->cb) frees w: cb is its first member */
		WRITE_ONCE(w->cb.func, (task_work_func_t)(void *)kfree);
		atomic_dec(&fr_tw_count);
		(*n)++;
	}
	spin_unlock(&fr_tw_lock);
	return 0;
}

/*
 * Unload, after nothing queues works any more: every work has run, runs, or
 * is orphaned; on return no task is in the module's text because of one.
 */
void fr_tw_drain(void)
{
	unsigned int n = 0;

	if (!wait_event_timeout(fr_tw_wq, !atomic_read(&fr_tw_count),
				FR_TW_GRACE)) {
		stop_machine(fr_tw_orphan_all, &n, NULL);
		if (n)
			pr_debug("unload: %u task_work items of stopped tasks orphaned\n",
				 n);
	}
	/* the ones running now finish (a dying proc stops nobody) */
	wait_event(fr_tw_wq, !atomic_read(&fr_tw_count));
	synchronize_rcu_tasks();
}
