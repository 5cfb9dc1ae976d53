// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec: the registry of recorded processes and their threads.
 *
 * A registered process is a struct fr_proc, found by its pid in fr_procs
 * (RCU hash, writers under fr_registry_lock) and on fr_proc_list.  Each of
 * its threads is a struct fr_thread in fr_threads, a global RCU hash keyed by
 * the task_struct pointer: the syscall, fault and signal probes call
 * fr_thread_find(current) on every event of every task on the machine, so the
 * lookup is a counter test (nothing registered) or one hash bucket walk; the
 * syscall probes look in their CPU's slot first (fr_thread_current).
 *
 * References: the registry holds one on each proc (dropped at
 * unregistration); every fr_thread holds one on its proc and one on its task.
 * A thread holds its own reference count: one for the hash, one for each
 * user that may outlive its removal (fr_thread_get/put).  The last put frees
 * the thread after an RCU grace period, so a probe that found it under RCU can
 * use it and its proc until it leaves the read-side section.
 *
 * Exit: the trigger probes call fr_thread_remove() for every exiting thread.
 * When the last thread of a process is gone, the reaper work drops the
 * process (process context, fr_registry_lock), as an unregister would, and
 * announces FLIGHTREC_EVENT_EXIT.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/rculist.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/cred.h>
#include <linux/capability.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/sched/signal.h>
#include <linux/sched/coredump.h>
#include <linux/pid_namespace.h>
#include <linux/math64.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/mmu_notifier.h>
#include "flightrec.h"

DEFINE_MUTEX(fr_registry_lock);
LIST_HEAD(fr_proc_list);
atomic_t fr_nr_threads = ATOMIC_INIT(0);
u32 fr_registry_gen;
atomic_t fr_live_procs = ATOMIC_INIT(0);
atomic_t fr_live_threads = ATOMIC_INIT(0);

#define FR_PROCS_BITS	6

static DEFINE_HASHTABLE(fr_procs, FR_PROCS_BITS);	/* by tgid, init ns */
DEFINE_HASHTABLE(fr_threads, FR_THREADS_BITS);	/* by task pointer */
static DEFINE_SPINLOCK(fr_threads_lock);
static DECLARE_WAIT_QUEUE_HEAD(fr_threads_freed);

static bool fr_registry_closed;	/* unload began: no new registration */

static void fr_reap_workfn(struct work_struct *work);
static DECLARE_WORK(fr_reap_work, fr_reap_workfn);

/* ---- threads ---------------------------------------------------------- */

void fr_thread_get(struct fr_thread *thr)
{
	refcount_inc(&thr->ref);
}

static void fr_thread_free_rcu(struct rcu_head *head)
{
	struct fr_thread *thr = container_of(head, struct fr_thread, rcu);
	struct fr_sc_rec *rec, *tmp;

	/* signal records of a thread that never got back to append them */
	list_for_each_entry_safe(rec, tmp, &thr->sig_recs, node)
		fr_sc_rec_free(rec);
	/* records it placed after it left its proc (an unregistration) */
	fr_uncharge(thr->log_bytes);
	fr_sc_recs_free(&thr->log);
	/* what its tracer changed after its last record */
	fr_pt_drop(thr);
	put_task_struct(thr->task);
	fr_thread_arena_drop(thr);
	fr_uncharge(thr->credit);	/* bytes charged ahead, unspent */
	fr_proc_put(thr->proc);
	kfree(thr);
	if (atomic_dec_and_test(&fr_live_threads))
		wake_up(&fr_threads_freed);
}

void fr_thread_put(struct fr_thread *thr)
{
	if (refcount_dec_and_test(&thr->ref)) {
		/* what hangs off a thread belongs to whoever holds a reference */
		WARN_ON_ONCE(thr->sc_pending);
		call_rcu(&thr->rcu, fr_thread_free_rcu);
	}
}

DEFINE_PER_CPU(struct fr_thread *, fr_cpu_thread);

/*
 * fr_thread_current() when current's thread is not in this CPU's slot: the
 * hash, and the thread found goes into the slot.  The store, then a check
 * that the thread is still hashed, against fr_thread_uncache()'s unhash,
 * then a read of the slots: one of the two sees the other's write, so no
 * slot keeps a thread that was taken out.
 */
struct fr_thread *fr_thread_current_slow(void)
{
	struct fr_thread *thr;

	lockdep_assert_preemption_disabled();
	thr = fr_thread_find(current);
	if (!thr)
		return NULL;
	this_cpu_write(fr_cpu_thread, thr);
	smp_mb();	/* the slot before ->hnode: fr_thread_uncache() */
	if (unlikely(hlist_unhashed_lockless(&thr->hnode)))
		this_cpu_write(fr_cpu_thread, NULL);
	return thr;
}

/*
 * Clears every CPU's slot that holds @thr, which is out of the hash: after
 * that no fr_thread_current() finds it, as none finds it in the hash.
 * Every possible CPU, an offline one included (its slot would be read
 * again when it comes back).
 */
static void fr_thread_uncache(struct fr_thread *thr)
{
	int cpu;

	smp_mb();	/* ->hnode before the slots: fr_thread_current_slow() */
	for_each_possible_cpu(cpu) {
		struct fr_thread **slot = per_cpu_ptr(&fr_cpu_thread, cpu);

		if (READ_ONCE(*slot) == thr)
			cmpxchg(slot, thr, NULL);
	}
}

/* Takes thr off its proc's list; the caller holds a reference on thr. */
static void fr_thread_unlink(struct fr_thread *thr)
{
	struct fr_proc *proc = thr->proc;
	LIST_HEAD(recs);
	bool last;

	spin_lock(&proc->lock);
	list_del_rcu(&thr->pnode);	/* fr_boundary_request() walks it under RCU */
	proc->nr_threads--;
	/* its records belong to the open interval */
	fr_log_take(proc, thr, proc->cur, &recs);
	/* a stopped proc (fr_proc_check_dumpable): dying, still registered */
	last = !proc->nr_threads && (!proc->dying || proc->stop_reason);
	spin_unlock(&proc->lock);
	fr_sc_recs_free(&recs);
	if (last)
		schedule_work(&fr_reap_work);
}

/*
 * Removes thr from the thread hash, then from its proc.  Only the caller that
 * takes it out of the hash does the rest, so an exit probe and an
 * unregistration can race on the same thread.  Returns whether it did.
 */
static bool fr_thread_unhash(struct fr_thread *thr)
{
	unsigned long flags;

	spin_lock_irqsave(&fr_threads_lock, flags);
	if (hlist_unhashed(&thr->hnode)) {
		spin_unlock_irqrestore(&fr_threads_lock, flags);
		return false;
	}
	hash_del_rcu(&thr->hnode);
	atomic_dec(&fr_nr_threads);
	spin_unlock_irqrestore(&fr_threads_lock, flags);

	fr_thread_uncache(thr);
	fr_thread_unlink(thr);
	fr_thread_put(thr);	/* the hash's reference */
	return true;
}

static struct fr_thread *fr_thread_lookup_locked(struct task_struct *task)
{
	struct fr_thread *thr;

	hash_for_each_possible(fr_threads, thr, hnode, (unsigned long)task)
		if (thr->task == task)
			return thr;
	return NULL;
}

#ifdef CONFIG_DEBUG_LOCK_ALLOC
static struct lock_class_key fr_log_key;	/* every thread's log_map */
#endif

/*
 * Adds @task to @proc.  Any context (the fork probe calls it with preemption
 * off): the allocation does not sleep.  Returns 0 when the task is recorded
 * (also when it already was), -ESRCH when @proc is being unregistered or the
 * task is exiting, -ENOMEM.
 */
int fr_thread_add(struct fr_proc *proc, struct task_struct *task)
{
	struct fr_thread *thr;
	unsigned long flags;
	bool dup;

	thr = kzalloc(sizeof(*thr), GFP_ATOMIC | __GFP_NOWARN);
	if (!thr)
		return -ENOMEM;
	atomic_inc(&fr_live_threads);
	INIT_HLIST_NODE(&thr->hnode);
	INIT_LIST_HEAD(&thr->pnode);
	INIT_LIST_HEAD(&thr->sig_recs);
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	lockdep_init_map(&thr->log_map, "fr_thread.log", &fr_log_key, 0);
#endif
	INIT_LIST_HEAD(&thr->log);
	spin_lock_init(&thr->pt_lock);
	INIT_LIST_HEAD(&thr->pt_writes);
	refcount_set(&thr->ref, 2);	/* the hash's and ours, until we return */
	get_task_struct(task);
	thr->task = task;
	/*
	 * The tid the thread itself sees (gettid() in its own pid namespace),
	 * as its contexts, the end record and clone()'s results carry it: a
	 * checkpoint uses the recorded process's tid space throughout.  Not
	 * task_pid_vnr(): the registrant may live in another namespace.
	 */
	thr->tid = task_pid_nr_ns(task, task_active_pid_ns(task));
	refcount_inc(&proc->ref);
	thr->proc = proc;

	/*
	 * Onto the proc's list first, then into the hash: whoever takes a
	 * thread out of the hash also takes it off the list (fr_thread_unhash).
	 */
	spin_lock(&proc->lock);
	if (proc->dying) {
		spin_unlock(&proc->lock);
		fr_thread_put(thr);
		fr_thread_put(thr);
		return -ESRCH;
	}
	/*
	 * A thread created while recording runs passed the last boundary
	 * (its parent's clone is in the log): no late context for it.  At
	 * registration both generations are 0 and the first boundary is
	 * still to come.
	 */
	thr->seen_boundary = READ_ONCE(proc->boundary_done_gen);
	list_add_tail_rcu(&thr->pnode, &proc->threads);
	proc->nr_threads++;
	spin_unlock(&proc->lock);

	spin_lock_irqsave(&fr_threads_lock, flags);
	dup = fr_thread_lookup_locked(task);
	if (!dup) {
		hash_add_rcu(fr_threads, &thr->hnode, (unsigned long)task);
		atomic_inc(&fr_nr_threads);
	}
	spin_unlock_irqrestore(&fr_threads_lock, flags);

	if (dup) {
		/* an unregistration may hold a reference taken from the list */
		fr_thread_unlink(thr);
		fr_thread_put(thr);	/* the one meant for the hash */
		fr_thread_put(thr);
		return 0;
	}

	/*
	 * A thread that began exiting before it was in the hash may already
	 * have passed the exit probe: nobody else would remove it.  Pairs
	 * with the ordering of PF_EXITING before the exit tracepoint.
	 */
	smp_mb();
	if (task->flags & PF_EXITING) {
		fr_thread_unhash(thr);
		fr_thread_put(thr);
		return -ESRCH;
	}
	fr_thread_put(thr);
	return 0;
}

/* Any context.  A no-op for a task that is not recorded. */
void fr_thread_remove(struct task_struct *task)
{
	struct fr_thread *thr;
	unsigned long flags;

	if (!atomic_read(&fr_nr_threads))
		return;
	spin_lock_irqsave(&fr_threads_lock, flags);
	thr = fr_thread_lookup_locked(task);
	if (thr)
		fr_thread_get(thr);
	spin_unlock_irqrestore(&fr_threads_lock, flags);
	if (!thr)
		return;
	fr_thread_unhash(thr);
	fr_thread_put(thr);
}

/* Removes every thread of a dying proc.  Process context. */
static void fr_proc_remove_threads(struct fr_proc *proc)
{
	struct fr_thread *thr;

	for (;;) {
		spin_lock(&proc->lock);
		thr = list_first_entry_or_null(&proc->threads,
					       struct fr_thread, pnode);
		if (thr)
			fr_thread_get(thr);
		spin_unlock(&proc->lock);
		if (!thr)
			break;
		fr_tsc_release(thr);
		/* not hashed: its adder or an exit probe is between the steps */
		if (!fr_thread_unhash(thr))
			cond_resched();
		fr_thread_put(thr);
	}
}

/* ---- processes -------------------------------------------------------- */

/* the last puts of procs, in process context (fr_proc_put) */
static struct workqueue_struct *fr_free_wq;

static void fr_proc_free_workfn(struct work_struct *work)
{
	struct fr_proc *proc = container_of(work, struct fr_proc, free_work);

	mmdrop(proc->mm);
	put_pid(proc->pid);
	atomic_dec(&fr_live_procs);
	kfree_rcu(proc, rcu);
}

/*
 * Any context.  The last put often comes from a thread's RCU callback
 * (softirq), where mmdrop() must not run: freeing the page tables takes
 * pgd_lock, which is not softirq-safe, so a softirq that interrupted a
 * fork holding it on the same CPU spun forever (seen in the test VM).
 * The rest goes to a work item; unload flushes them.
 */
void fr_proc_put(struct fr_proc *proc)
{
	if (!refcount_dec_and_test(&proc->ref))
		return;
	INIT_WORK(&proc->free_work, fr_proc_free_workfn);
	queue_work(fr_free_wq, &proc->free_work);
}

/*
 * Reclaim clears the accessed bits of the PTEs it looks at
 * (folio_referenced: kswapd, direct reclaim, a cgroup's memory.reclaim or
 * limit), and so does idle page tracking; a page accessed in the open
 * interval would then be missing from its page set.  Both tell the mm's
 * MMU notifiers (clear_flush_young, clear_young: the secondary MMUs of KVM
 * and of devices), and a recorded mm has one of ours, which takes the
 * pages they name into the open interval of the proc it points to
 * (fr_mem_young_cleared).
 *
 * The notifier is the mm's, one per mm (mmu_notifier_get), and a proc
 * holds a reference on it while it records on that mm: taken at
 * registration and at the first boundary of each new image (an exec's mm),
 * dropped when recording stops or the image goes.  Dropping does not wait:
 * mmu_notifier_put() frees through one SRCU callback (free_notifier), and
 * unload waits for those (mmu_notifier_synchronize).  The notifier points
 * to its proc through an RCU pointer, set and cleared under fr_mn_lock; the
 * callback reads it under rcu_read_lock(), and procs are freed by
 * kfree_rcu().  Two procs on one mm (a vfork child registered by PID
 * before its exec; the fork follower waits for the exec) share the
 * notifier, which points to the first: the second's pages that reclaim
 * looks at in that window are not noted.
 */
#ifdef CONFIG_MMU_NOTIFIER
struct fr_mn {
	struct mmu_notifier mn;
	struct fr_proc __rcu *proc;
};

/* writers of fr_mn.proc; taken under work_lock, or alone */
static DEFINE_SPINLOCK(fr_mn_lock);

/* no secondary MMU of ours: nothing of its own was young */
static int fr_mn_clear_young(struct mmu_notifier *mn, struct mm_struct *mm,
			     unsigned long start, unsigned long end)
{
	struct fr_proc *proc;

	rcu_read_lock();
	proc = rcu_dereference(container_of(mn, struct fr_mn, mn)->proc);
	if (proc)
		fr_mem_young_cleared(proc, start, end);
	rcu_read_unlock();
	return 0;
}

static struct mmu_notifier *fr_mn_alloc(struct mm_struct *mm)
{
	struct fr_mn *m = kzalloc(sizeof(*m), GFP_KERNEL);

	return m ? &m->mn : ERR_PTR(-ENOMEM);
}

/* from an SRCU callback, after the last put */
static void fr_mn_free_notifier(struct mmu_notifier *mn)
{
	kfree(container_of(mn, struct fr_mn, mn));
}

static const struct mmu_notifier_ops fr_mn_ops = {
	.clear_flush_young = fr_mn_clear_young,
	.clear_young = fr_mn_clear_young,
	.alloc_notifier = fr_mn_alloc,
	.free_notifier = fr_mn_free_notifier,
};

/* proc's reference on its notifier dropped; work_lock held, or not visible */
static void fr_mn_drop(struct fr_proc *proc)
{
	struct fr_mn *m = proc->mn;

	if (!m)
		return;
	spin_lock(&fr_mn_lock);
	if (rcu_access_pointer(m->proc) == proc)
		RCU_INIT_POINTER(m->proc, NULL);
	spin_unlock(&fr_mn_lock);
	mmu_notifier_put(&m->mn);
	proc->mn = NULL;
}

/*
 * proc's notifier on @mm (proc->mm), unless it has one there already.
 * mm_take_all_locks() makes registering fail while a signal is pending:
 * the next boundary tries again.  work_lock held, or the proc not yet
 * visible (fr_register); no mmap_lock held.
 */
int fr_mn_ensure(struct fr_proc *proc, struct mm_struct *mm)
{
	struct mmu_notifier *mn;
	struct fr_mn *m;

	/* torn down: fr_mn_detach() has run, or will */
	if ((proc->mn && proc->mn->mn.mm == mm) || READ_ONCE(proc->dying))
		return 0;
	/* registering needs users of the mm (a BUG_ON): none, it is exiting */
	if (!mmget_not_zero(mm))
		return -ESRCH;
	mn = mmu_notifier_get(&fr_mn_ops, mm);
	mmput(mm);
	if (IS_ERR(mn))
		return PTR_ERR(mn);
	fr_mn_drop(proc);	/* an older image's */
	m = container_of(mn, struct fr_mn, mn);
	spin_lock(&fr_mn_lock);
	if (!rcu_access_pointer(m->proc))
		rcu_assign_pointer(m->proc, proc);
	spin_unlock(&fr_mn_lock);
	proc->mn = m;
	return 0;
}

/* proc's notifier goes (recording stopped, or the image it is on went) */
void fr_mn_detach(struct fr_proc *proc)
{
	mutex_lock(&proc->work_lock);
	fr_mn_drop(proc);
	mutex_unlock(&proc->work_lock);
}

/* unload: the notifiers' frees (module code) have all run */
static void fr_mn_exit(void)
{
	mmu_notifier_synchronize();
}
#else
/* a kernel without MMU notifiers: what reclaim clears is not seen */
int fr_mn_ensure(struct fr_proc *proc, struct mm_struct *mm)
{
	return 0;
}

void fr_mn_detach(struct fr_proc *proc)
{
}

static void fr_mn_exit(void)
{
}
#endif

static struct fr_proc *fr_proc_lookup(struct pid *pid)
{
	struct fr_proc *proc;

	hash_for_each_possible_rcu(fr_procs, proc, hnode, pid_nr(pid))
		if (proc->pid == pid)
			return proc;
	return NULL;
}

/*
 * The recorded thread of @mm that current traces and that is stopped for it
 * (ptrace.c: a write to /proc/PID/mem names an mm, not a thread), or NULL.
 * RCU held: the task is valid until rcu_read_unlock().
 */
struct task_struct *fr_pt_tracee_of(struct mm_struct *mm)
{
	struct fr_thread *t;
	struct fr_proc *proc;
	int bkt;

	hash_for_each_rcu(fr_procs, bkt, proc, hnode) {
		if (READ_ONCE(proc->mm) != mm)
			continue;
		list_for_each_entry_rcu(t, &proc->threads, pnode)
			if (t->task->ptrace && task_is_traced(t->task) &&
			    rcu_access_pointer(t->task->parent) == current)
				return t->task;
	}
	return NULL;
}

/* @nr is a pid in the caller's pid namespace.  Process context. */
struct fr_proc *fr_proc_get(pid_t nr)
{
	struct fr_proc *proc = NULL;
	struct pid *pid;

	if (nr <= 0)
		return NULL;
	rcu_read_lock();
	pid = find_vpid(nr);
	if (pid)
		proc = fr_proc_lookup(pid);
	if (proc && !refcount_inc_not_zero(&proc->ref))
		proc = NULL;
	rcu_read_unlock();
	return proc;
}

/*
 * The check ptrace_may_access(task, PTRACE_MODE_ATTACH_REALCREDS) makes,
 * from exported pieces (ptrace_may_access itself is not exported): the
 * caller is in the same thread group, or has the target's real, effective
 * and saved uid and gid, or CAP_SYS_PTRACE in the target's user namespace;
 * and the target is dumpable or the caller has CAP_SYS_PTRACE over its mm.
 * The LSM hook (security_ptrace_access_check: Yama, SELinux) is not exported
 * either and is not consulted: fr_register() therefore also requires
 * CAP_SYS_PTRACE in the initial user namespace, refuses everything under
 * Yama's ptrace_scope 3, and refuses a target that is not dumpable (the
 * rule recording keeps afterwards, fr_proc_check_dumpable).  Called with
 * task_lock(task) held, as the kernel does.
 */
static bool fr_may_attach(struct task_struct *task)
{
	const struct cred *cred = current_cred(), *tcred;
	struct mm_struct *mm;
	bool ok;

	if (same_thread_group(task, current))
		return true;
	rcu_read_lock();
	tcred = __task_cred(task);
	ok = (uid_eq(cred->uid, tcred->euid) &&
	      uid_eq(cred->uid, tcred->suid) &&
	      uid_eq(cred->uid, tcred->uid) &&
	      gid_eq(cred->gid, tcred->egid) &&
	      gid_eq(cred->gid, tcred->sgid) &&
	      gid_eq(cred->gid, tcred->gid)) ||
	     ns_capable(tcred->user_ns, CAP_SYS_PTRACE);
	rcu_read_unlock();
	if (!ok)
		return false;
	/* dumpability is read after the credentials (see __ptrace_may_access) */
	smp_rmb();
	mm = task->mm;
	if (mm)
		return get_dumpable(mm) == SUID_DUMP_USER ||
		       ns_capable(mm->user_ns, CAP_SYS_PTRACE);
	return task->user_dumpable || ns_capable(&init_user_ns, CAP_SYS_PTRACE);
}

/*
 * Yama's kernel.yama.ptrace_scope, read from the sysctl file of a procfs
 * instance of our own (fr_registry_init): Yama exports neither the value nor
 * its hook, and the caller's /proc may be missing or another namespace's.
 * 0 when Yama is not built in; 3 (refuse) when the value cannot be read.
 */
static struct vfsmount *fr_procfs_mnt;

int fr_yama_scope(void)
{
	char buf[16] = "";
	struct file *f;
	loff_t pos = 0;
	ssize_t n;
	int scope;

	f = file_open_root_mnt(fr_procfs_mnt, "sys/kernel/yama/ptrace_scope",
			       O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f) == -ENOENT ? 0 : 3;
	n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	fput(f);
	if (n <= 0)
		return 3;
	buf[n] = '\0';
	if (kstrtoint(strim(buf), 10, &scope))
		return 3;
	return scope;
}

/*
 * Finds the process @nr (caller's pid namespace), checks the caller may
 * record it (@follow: a child of a recorded process, registered by itself
 * with the rights of its parent's registrant: only its dumpability) and
 * takes a reference on its mm.  Returns the task with a reference, or an
 * ERR_PTR.
 */
static struct task_struct *fr_find_target(pid_t nr, struct pid **pidp,
					  struct mm_struct **mmp, bool follow,
					  struct netlink_ext_ack *extack)
{
	struct task_struct *task;
	struct pid *pid;
	int err;

	pid = find_get_pid(nr);
	if (!pid) {
		NL_SET_ERR_MSG_MOD(extack, "no process with this PID");
		return ERR_PTR(-ESRCH);
	}
	task = get_pid_task(pid, PIDTYPE_TGID);
	if (!task) {
		NL_SET_ERR_MSG_MOD(extack,
				   "no process with this PID (a thread ID is not a process ID)");
		err = -ESRCH;
		goto out_put_pid;
	}
	if (task->flags & PF_KTHREAD) {
		NL_SET_ERR_MSG_MOD(extack, "kernel threads cannot be recorded");
		err = -EPERM;
		goto out_put_task;
	}
	task_lock(task);
	if (!follow && !fr_may_attach(task)) {
		task_unlock(task);
		NL_SET_ERR_MSG_MOD(extack,
				   "permission denied: the caller may not ptrace-attach to this process");
		err = -EPERM;
		goto out_put_task;
	}
	if (task->mm && get_dumpable(task->mm) != SUID_DUMP_USER) {
		task_unlock(task);
		NL_SET_ERR_MSG_MOD(extack,
				   "permission denied: the process is not dumpable (set-user-ID/set-group-ID or file capabilities, changed credentials, or PR_SET_DUMPABLE 0)");
		err = -EPERM;
		goto out_put_task;
	}
	*mmp = task->mm;
	if (*mmp)
		mmgrab(*mmp);
	task_unlock(task);
	if (!*mmp || (task->flags & PF_EXITING)) {
		NL_SET_ERR_MSG_MOD(extack, "the process is exiting");
		err = -ESRCH;
		goto out_mmdrop;
	}
	*pidp = pid;
	return task;

out_mmdrop:
	if (*mmp)
		mmdrop(*mmp);
out_put_task:
	put_task_struct(task);
out_put_pid:
	put_pid(pid);
	return ERR_PTR(err);
}

static int fr_check_settings(u32 interval_ms, u32 keep,
			     struct netlink_ext_ack *extack)
{
	if (interval_ms < FLIGHTREC_INTERVAL_MS_MIN ||
	    interval_ms > FLIGHTREC_INTERVAL_MS_MAX) {
		NL_SET_ERR_MSG_MOD(extack,
				   "interval_ms out of range (" __stringify(FLIGHTREC_INTERVAL_MS_MIN)
				   "-" __stringify(FLIGHTREC_INTERVAL_MS_MAX) ")");
		return -EINVAL;
	}
	if (keep < FLIGHTREC_KEEP_MIN || keep > FLIGHTREC_KEEP_MAX) {
		NL_SET_ERR_MSG_MOD(extack,
				   "keep out of range (" __stringify(FLIGHTREC_KEEP_MIN)
				   "-" __stringify(FLIGHTREC_KEEP_MAX) ")");
		return -EINVAL;
	}
	return 0;
}

/*
 * Unregisters @proc: unlinks it, stops its recording (fr_proc_stop), removes
 * its threads, drops the registry's reference.  fr_registry_lock held.
 */
static void fr_proc_teardown(struct fr_proc *proc)
{

	lockdep_assert_held(&fr_registry_lock);
	spin_lock(&proc->lock);
	proc->dying = true;	/* fr_thread_add() refuses from here on */
	spin_unlock(&proc->lock);
	hash_del_rcu(&proc->hnode);
	list_del_init(&proc->lnode);
	fr_registry_gen++;
	fr_proc_stop(proc);
	fr_mn_detach(proc);
	fr_proc_remove_threads(proc);
	fr_proc_put(proc);
}

/*
 * @follow: the fork follower registers a child of a recorded process from
 * the child itself (trigger.c); the registrant's rights, checked when its
 * parent was registered, carry over (its CAP_SYS_PTRACE in the initial user
 * namespace covers every namespace), the child's dumpability and Yama are
 * checked again.
 * @start_at_exec: what the process runs before its next exec is not kept
 * (flightrec record's child, between its fork and the command's exec).
 */
int fr_register(pid_t nr, u32 interval_ms, u32 keep, bool at_exit,
		bool serial, bool follow, bool start_at_exec,
		struct netlink_ext_ack *extack)
{
	struct task_struct *task, *t;
	struct mm_struct *mm = NULL;
	struct fr_proc *proc;
	struct pid *pid;
	int err;

	err = fr_check_settings(interval_ms, keep, extack);
	if (err)
		return err;
	if (nr <= 0) {
		NL_SET_ERR_MSG_MOD(extack, "invalid PID");
		return -EINVAL;
	}
	/* the LSM ptrace hook is not exported: no CAP_SYS_PTRACE, no recording */
	if (!follow && !capable(CAP_SYS_PTRACE)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "permission denied: recording needs CAP_SYS_PTRACE in the initial user namespace (modules cannot ask the LSM ptrace check)");
		return -EPERM;
	}
	if (fr_yama_scope() >= 3) {
		NL_SET_ERR_MSG_MOD(extack,
				   "permission denied: Yama ptrace_scope is 3 (no process may be attached to)");
		return -EPERM;
	}
	task = fr_find_target(nr, &pid, &mm, follow, extack);
	if (IS_ERR(task))
		return PTR_ERR(task);

	mutex_lock(&fr_registry_lock);
	if (fr_registry_closed) {
		NL_SET_ERR_MSG_MOD(extack, "the module is being unloaded");
		err = -ENODEV;
		goto out_unlock;
	}
	rcu_read_lock();
	proc = fr_proc_lookup(pid);
	rcu_read_unlock();
	if (proc) {
		NL_SET_ERR_MSG_MOD(extack, "the process is already registered");
		err = -EEXIST;
		goto out_unlock;
	}

	proc = kzalloc(sizeof(*proc), GFP_KERNEL);
	if (!proc) {
		err = -ENOMEM;
		goto out_unlock;
	}
	atomic_inc(&fr_live_procs);
	refcount_set(&proc->ref, 1);
	proc->pid = pid;
	proc->tgid = pid_nr(pid);
	proc->mm = mm;
	proc->interval_ms = interval_ms;
	proc->keep = keep;
	proc->at_exit = at_exit;
	proc->serial = serial;
	proc->exec_chain = !start_at_exec;
	INIT_LIST_HEAD(&proc->exec_dumps);
	init_waitqueue_head(&proc->token_wq);
	spin_lock_init(&proc->lock);
	INIT_LIST_HEAD(&proc->threads);
	INIT_LIST_HEAD(&proc->ring);
	INIT_LIST_HEAD(&proc->lnode);
	INIT_HLIST_NODE(&proc->hnode);
	/* once, before any thread is added: its task_work takes work_lock */
	mutex_init(&proc->work_lock);
	init_waitqueue_head(&proc->stop_wq);
	/* the proc owns pid and mm from here: fr_proc_put() releases them */
	pid = NULL;
	mm = NULL;

	/*
	 * Threads cloned while we walk are added by the fork probe: a thread
	 * is linked at the list tail before its parent's fork tracepoint
	 * fires, so either the walk sees it or its parent is in the hash.
	 */
	rcu_read_lock();
	for_each_thread(task, t) {
		err = fr_thread_add(proc, t);
		if (err == -ESRCH)
			err = 0;	/* an exiting thread: not recorded */
		if (err)
			break;
	}
	rcu_read_unlock();
	if (!err && !proc->nr_threads) {
		NL_SET_ERR_MSG_MOD(extack, "the process is exiting");
		err = -ESRCH;
	}
	if (err) {
		spin_lock(&proc->lock);
		proc->dying = true;
		spin_unlock(&proc->lock);
		fr_proc_remove_threads(proc);
		fr_proc_put(proc);
		goto out_unlock;
	}

	/*
	 * Not visible yet: no boundary changes proc->mn.  A failure (no
	 * memory, a signal pending) is tried again at the next boundary.
	 */
	fr_mn_ensure(proc, proc->mm);
	/* started before it can be found: fr_dump_request() needs it so */
	fr_proc_start(proc);
	hash_add_rcu(fr_procs, &proc->hnode, proc->tgid);
	list_add_tail(&proc->lnode, &fr_proc_list);
	fr_registry_gen++;
	mutex_unlock(&fr_registry_lock);
	put_task_struct(task);
	return 0;

out_unlock:
	mutex_unlock(&fr_registry_lock);
	if (mm)
		mmdrop(mm);
	put_pid(pid);
	put_task_struct(task);
	return err;
}

int fr_unregister(pid_t nr, struct netlink_ext_ack *extack)
{
	struct fr_proc *proc = NULL;
	struct pid *pid;

	if (nr <= 0) {
		NL_SET_ERR_MSG_MOD(extack, "invalid PID");
		return -EINVAL;
	}
	mutex_lock(&fr_registry_lock);
	rcu_read_lock();
	pid = find_vpid(nr);
	if (pid)
		proc = fr_proc_lookup(pid);
	rcu_read_unlock();
	if (!proc) {
		mutex_unlock(&fr_registry_lock);
		NL_SET_ERR_MSG_MOD(extack, "the process is not registered");
		return -ENOENT;
	}
	fr_proc_teardown(proc);
	mutex_unlock(&fr_registry_lock);
	return 0;
}

/* Drops every process whose threads have all exited. */
static void fr_reap_workfn(struct work_struct *work)
{
	struct fr_proc *proc, *next;
	bool gone, announced, killed;
	pid_t tgid;

	mutex_lock(&fr_registry_lock);
	list_for_each_entry_safe(proc, next, &fr_proc_list, lnode) {
		spin_lock(&proc->lock);
		gone = !proc->nr_threads;
		spin_unlock(&proc->lock);
		if (!gone)
			continue;
		tgid = proc->tgid;
		/* with at_exit, the freeze at exit_group announced it */
		announced = proc->at_exit_done;
		/* ... unless SIGKILL ended it first: why there is no dump */
		killed = proc->at_exit && !announced && !proc->frozen &&
			 READ_ONCE(proc->killed);
		fr_proc_teardown(proc);
		if (killed)
			fr_nl_event_stop(FLIGHTREC_EVENT_STOPPED, tgid, 0,
					 FLIGHTREC_STOP_SIGKILL);
		if (!announced)
			fr_nl_event(FLIGHTREC_EVENT_EXIT, tgid, 0);
	}
	mutex_unlock(&fr_registry_lock);
}

void fr_unregister_all(void)
{
	struct fr_proc *proc;

	mutex_lock(&fr_registry_lock);
	/* a child registered by the fork follower's task_work must not sneak in */
	fr_registry_closed = true;
	while ((proc = list_first_entry_or_null(&fr_proc_list,
						struct fr_proc, lnode))) {
		fr_proc_teardown(proc);
	}
	mutex_unlock(&fr_registry_lock);
	/* every proc is dying now: nothing queues the reaper again */
	cancel_work_sync(&fr_reap_work);
}

/* pid of @proc in the caller's pid namespace, 0 where it is not visible */
pid_t fr_proc_vpid(struct fr_proc *proc)
{
	return pid_vnr(proc->pid);
}

void fr_proc_stats(struct fr_proc *proc, struct fr_proc_stats *st)
{
	struct task_struct *task;
	struct fr_interval *iv;
	LIST_HEAD(recs);

	memset(st, 0, sizeof(*st));
	st->pid = fr_proc_vpid(proc);
	st->interval_ms = proc->interval_ms;
	st->keep = proc->keep;
	st->at_exit = proc->at_exit;
	st->serial = proc->serial;
	st->stop_reason = READ_ONCE(proc->stop_reason);
	rcu_read_lock();
	task = pid_task(proc->pid, PIDTYPE_TGID);
	if (task)
		__get_task_comm(st->comm, sizeof(st->comm), task);
	rcu_read_unlock();
	spin_lock(&proc->lock);
	/* the open interval's records, counted */
	fr_logs_take(proc, proc->cur, &recs);
	st->nr_threads = proc->nr_threads;
	st->nr_ring = proc->nr_ring;
	st->frozen = proc->frozen;
	st->nr_syscalls = proc->nr_syscalls;
	st->lost = proc->lost;
	st->dropped = proc->dropped;
	st->lost_pages = proc->lost_pages;
	st->nr_dumps = proc->nr_dumps;
	st->nr_boundaries = proc->nr_boundaries;
	st->boundary_ns_avg = proc->nr_boundaries ?
			      div64_u64(proc->boundary_ns, proc->nr_boundaries) : 0;
	st->boundary_ns_max = proc->boundary_max_ns;
	list_for_each_entry(iv, &proc->ring, node)
		st->bytes += iv->bytes;
	if (proc->cur)
		st->bytes += proc->cur->bytes;
	spin_unlock(&proc->lock);
	fr_sc_recs_free(&recs);
}

int fr_registry_init(void)
{
	struct file_system_type *proc_fs;

	/* built in: get_fs_type() takes no module reference on it */
	proc_fs = get_fs_type("proc");
	if (!proc_fs)
		return -ENODEV;
	fr_procfs_mnt = kern_mount(proc_fs);
	if (IS_ERR(fr_procfs_mnt))
		return PTR_ERR(fr_procfs_mnt);
	fr_free_wq = alloc_workqueue("flightrec_free", 0, 0);
	if (!fr_free_wq) {
		kern_unmount(fr_procfs_mnt);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Last step of unload: every proc was torn down by fr_unregister_all();
 * wait until the references still held on threads are dropped and their RCU
 * callbacks have run (they are module code).
 */
void fr_registry_exit(void)
{
	fr_unregister_all();
	wait_event(fr_threads_freed, !atomic_read(&fr_live_threads));
	rcu_barrier();
	/* the procs' last puts the threads' callbacks queued, then their kfree_rcu */
	destroy_workqueue(fr_free_wq);
	rcu_barrier();
	fr_mn_exit();
	kern_unmount(fr_procfs_mnt);
	WARN_ON_ONCE(atomic_read(&fr_nr_threads));
	if (atomic_read(&fr_live_procs))
		pr_err("%d process records still referenced at unload\n",
		       atomic_read(&fr_live_procs));
}
