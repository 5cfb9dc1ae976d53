// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec: following the process tree, and the fault triggers.
 *
 * sched_process_fork: a new thread of a registered process is recorded from
 * its first instruction; a child process is registered with its parent's
 * settings by a task_work that runs in the child before it first returns to
 * user space (registration sleeps; the probe cannot).  A child that shares
 * its parent's memory (CLONE_VM without CLONE_THREAD: vfork, posix_spawn)
 * is not a process of its own until it execs: registering it then would
 * make its boundaries walk, clear and write-protect its parent's page
 * tables under the parent's recording.  Its work waits in fr_vforks until
 * sched_process_exec (then it runs at the new image's first instruction)
 * or the child's exit (then it is dropped).
 * sched_process_exit: the thread leaves the registry; the registry drops the
 * process after its last thread.
 * signal_deliver: a signal about to run a handler is recorded (syscall.c).
 * signal_generate: the #GP of a trapped rdtsc goes to tsc.c; a fatal
 * SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT or SIGSYS (with at_exit, any
 * signal whose default action ends the process, but SIGKILL: fr_is_kill())
 * for a registered thread queues its task_work, which get_signal() runs
 * before it dequeues the signal: the ring freezes there, with the registers
 * of the faulting instruction in pt_regs and the memory still mapped.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/signal.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sched/coredump.h>
#include <linux/tracepoint.h>
#include <linux/task_work.h>
#include "flightrec.h"

static struct tracepoint *fr_tp_fork, *fr_tp_exit, *fr_tp_signal, *fr_tp_deliver, *fr_tp_exec;

struct fr_child_work {
	struct fr_tw tw;
	u32 interval_ms, keep;
	bool at_exit, serial;
	bool tsc;	/* the parent's rdtsc is trapped: so is the child's */
	struct list_head vfork;		/* on fr_vforks until the child execs */
	struct task_struct *child;	/* while on fr_vforks (no reference:
					 * its exit takes it off first) */
};

/* works of CLONE_VM children waiting for their exec; a leaf lock */
static LIST_HEAD(fr_vforks);
static DEFINE_SPINLOCK(fr_vforks_lock);

/* The work of task p on fr_vforks, taken off the list; NULL if none. */
static struct fr_child_work *fr_vfork_take(struct task_struct *p)
{
	struct fr_child_work *w, *found = NULL;

	if (list_empty_careful(&fr_vforks))
		return NULL;
	spin_lock(&fr_vforks_lock);
	list_for_each_entry(w, &fr_vforks, vfork) {
		if (w->child == p) {
			list_del_init(&w->vfork);
			found = w;
			break;
		}
	}
	spin_unlock(&fr_vforks_lock);
	return found;
}


/* a thread that could not be followed: its syscalls are missing */
static void fr_lost_thread(struct fr_proc *proc)
{

	spin_lock(&proc->lock);
	proc->lost++;
	if (proc->cur)
		proc->cur->flags |= FLIGHTREC_IF_LOST_RECORD;
	spin_unlock(&proc->lock);
}

/*
 * In the new child, before its first instruction: register it too, with the
 * rights of its parent's registrant (fr_register's @follow) but checked
 * again where they can have changed since: Yama's ptrace_scope and the
 * child's dumpability.  A child refused is announced (EVENT_STOPPED with
 * its reason) and runs unrecorded.
 */
static void fr_child_fn(struct fr_tw *tw)
{
	struct fr_child_work *w = container_of(tw, struct fr_child_work, tw);
	u32 reason = FLIGHTREC_STOP_NONE;
	int err;

	if (current->mm && !(current->flags & PF_EXITING)) {
		if (fr_yama_scope() >= 3)
			reason = FLIGHTREC_STOP_YAMA;
		else if (get_dumpable(current->mm) != SUID_DUMP_USER)
			reason = FLIGHTREC_STOP_NOT_DUMPABLE;
		err = reason ? -EPERM :
		      fr_register(task_tgid_vnr(current), w->interval_ms,
				  w->keep, w->at_exit, w->serial, true, false,
				  NULL);
		/* SIGKILL came first (registration waits killable) */
		if (!reason && err && err != -EEXIST && w->at_exit &&
		    fatal_signal_pending(current))
			reason = FLIGHTREC_STOP_SIGKILL;
		if (reason)
			fr_nl_event_stop(FLIGHTREC_EVENT_STOPPED,
					 task_tgid_nr(current), 0, reason);
		else if (err && err != -EEXIST)
			pr_warn_ratelimited("child %d not followed: %d\n",
					    task_tgid_vnr(current), err);
		if (!err || err == -EEXIST) {
			struct fr_thread *t;

			rcu_read_lock();
			t = fr_thread_find(current);
			if (t)
				fr_tsc_inherit(t, w->tsc);
			rcu_read_unlock();
			/* registered and gone again already: not ours to trap */
			if (!t && w->tsc)
				fr_tsc_disown_current();
		} else if (w->tsc) {
			fr_tsc_disown_current();
		}
	} else if (w->at_exit && (current->exit_code & 0x7f) == SIGKILL) {
		/*
		 * Killed before its first instruction (strace kills the child
		 * it tests ptrace with): never registered, no dump; the
		 * tree's recorder learns why (exit_task_work: may sleep).
		 */
		fr_nl_event_stop(FLIGHTREC_EVENT_STOPPED, task_tgid_nr(current), 0,
				 FLIGHTREC_STOP_SIGKILL);
	}
	kfree(w);
}

/* Unload, the child never ran: it was not registered, it traps nothing. */
static void fr_child_orphan(struct fr_tw *tw)
{
	struct fr_child_work *w = container_of(tw, struct fr_child_work, tw);

	if (w->tsc)
		fr_tsc_untrap_stopped(tw->task);
}

static void fr_fork_probe(void *data, struct task_struct *parent,
			  struct task_struct *child)
{
	struct fr_child_work *w;
	struct fr_thread *t;
	struct fr_proc *proc;
	bool tracked = false;

	/* no thread recorded, no TIF_NOTSC of ours (fr_tsc_fork) either */
	if (likely(!atomic_read(&fr_nr_threads)) &&
	    likely(!test_tsk_thread_flag(child, TIF_NOTSC)))
		return;
	rcu_read_lock();
	t = fr_thread_find(parent);
	if (!t)
		goto out;
	proc = t->proc;
	if (READ_ONCE(proc->dying))
		goto out;
	if (child->tgid == parent->tgid) {
		struct fr_thread *ct;

		if (fr_thread_add(proc, child)) {
			fr_lost_thread(proc);
			goto out;
		}
		/* TIF_NOTSC came with the rest of the parent's flags */
		ct = fr_thread_find(child);
		if (ct) {
			ct->tsc_trapped = t->tsc_trapped;
			tracked = true;
		}
		goto out;
	}
	if (child->flags & PF_KTHREAD)
		goto out;
	w = kmalloc(sizeof(*w), GFP_ATOMIC | __GFP_NOWARN);
	if (!w)
		goto out;
	w->interval_ms = proc->interval_ms;
	w->keep = proc->keep;
	w->at_exit = proc->at_exit;
	w->serial = proc->serial;
	/*
	 * The child's copy of the flag is ours when the parent's is, also
	 * while a release of it is queued (unregistered and registered again
	 * before it ran): it then traps in the child for the child's own
	 * recording, or goes (fr_child_fn).  Seen on the debug kernel: 2 of
	 * 55 children killed at their rdtsc.
	 */
	w->tsc = fr_tsc_parent_ours(parent, t);
	INIT_LIST_HEAD(&w->vfork);
	w->child = child;
	if (child->mm && child->mm == parent->mm) {
		/*
		 * CLONE_VM: the parent's recording goes on; the child's starts
		 * at exec, where its first thread work traps its rdtsc
		 * (fr_tsc_own).  Until then it is not recorded: untracked, it
		 * loses our TIF_NOTSC (fr_tsc_fork).
		 */
		spin_lock(&fr_vforks_lock);
		list_add(&w->vfork, &fr_vforks);
		spin_unlock(&fr_vforks_lock);
	} else if (fr_tw_add(child, w, fr_child_fn, fr_child_orphan, TWA_RESUME)) {
		kfree(w);
	} else {
		tracked = true;	/* fr_child_fn decides about its TIF_NOTSC */
	}
out:
	fr_tsc_fork(parent, t, child, tracked);
	rcu_read_unlock();
}

/* A CLONE_VM child of a recorded process execs: record the new image. */
static void fr_exec_probe(void *data, struct task_struct *p, pid_t old_pid,
			  struct linux_binprm *bprm)
{
	struct fr_child_work *w = fr_vfork_take(p);

	if (w && fr_tw_add(p, w, fr_child_fn, fr_child_orphan, TWA_RESUME))
		kfree(w);
}

static void fr_exit_probe(void *data, struct task_struct *p)
{
	struct fr_thread *t;

	kfree(fr_vfork_take(p));	/* a CLONE_VM child that never exec'd */

	if (likely(!atomic_read(&fr_nr_threads)))
		return;
	rcu_read_lock();
	t = fr_thread_find(p);
	if (t && p == current)
		fr_sc_flush_signal(t);
	/* no code of it ran after SIGKILL: the reaper says why there is no dump */
	if (t && (p->exit_code & 0x7f) == SIGKILL)
		WRITE_ONCE(t->proc->killed, true);
	if (t && t->proc->serial)
		fr_serial_exit(t->proc, p);
	rcu_read_unlock();
	fr_thread_remove(p);
}

static bool fr_is_trigger(int sig)
{
	switch (sig) {
	case SIGSEGV: case SIGBUS: case SIGFPE: case SIGILL: case SIGABRT:
	case SIGSYS:
		return true;
	}
	return false;
}

/*
 * A SIGTRAP for a traced task is its tracer's (a breakpoint, a step, the
 * SIGTRAP after an exec): the tracer takes it at the signal-delivery stop
 * and the task goes on.  Not an end: a freeze here wrote a checkpoint of a
 * process "killed by SIGTRAP" that lived on (gdb running a program).
 */
static bool fr_tracer_takes(struct task_struct *task, int sig)
{
	return sig == SIGTRAP && READ_ONCE(task->ptrace);
}

/*
 * A signal that is not a trigger but ends the process (SIGPIPE of a write to
 * a closed pipe, SIGTERM, SIGINT...: its default action, not blocked), to a
 * process recorded with at_exit (issue 25, class 3: `sort` killed by
 * SIGPIPE when `head` exits left no checkpoint): its end is that signal,
 * frozen as a trigger's, in the task_work get_signal() runs before it
 * dequeues the signal.  SIGKILL is not: it kills the other threads at
 * once, and the freeze waits for them.  Siglock held (signal_generate).
 */
static bool fr_is_kill(struct task_struct *task, int sig)
{
	struct fr_thread *t;
	bool yes = false;

	if (sig == SIGKILL || sig_kernel_ignore(sig) || sig_kernel_stop(sig) ||
	    sigismember(&task->blocked, sig) || fr_tracer_takes(task, sig))
		return false;
	rcu_read_lock();
	t = fr_thread_find(task);
	if (t)
		yes = READ_ONCE(t->proc->at_exit) && !READ_ONCE(t->proc->at_exit_done);
	rcu_read_unlock();
	return yes;
}

/* A fatal signal for t: freeze its ring in its task_work.  RCU held. */
static void fr_fault_note(struct fr_thread *t, int sig, int code, u64 addr)
{
	if (READ_ONCE(t->proc->dying) || t->fault_pending)
		return;
	t->fault_signo = sig;
	t->fault_code = code;
	t->fault_addr = addr;
	t->fault_pending = true;
	/* get_signal() runs pending task_work before dequeuing the signal */
	if (!fr_twork_queue(t, TWA_RESUME))
		t->fault_pending = false;
}

static void fr_signal_probe(void *data, int sig, struct kernel_siginfo *info,
			    struct task_struct *task, int group, int result)
{
	struct fr_thread *t;
	void __user *handler;
	int code;
	u64 addr = 0;

	if (likely(!atomic_read(&fr_nr_threads)) ||
	    result != 0 /* TRACE_SIGNAL_DELIVERED */)
		return;
	/* an rdtsc of ours, or a real #GP that fr_fault_deferred() judges */
	if (fr_tsc_trapped(task, sig, info))
		return;
	/* the signal generator holds task->sighand->siglock */
	handler = rcu_dereference_protected(task->sighand, 1)->action[sig - 1].sa.sa_handler;
	if (handler != SIG_DFL)
		return;		/* handled or ignored: not fatal */
	if (!fr_is_trigger(sig) && !fr_is_kill(task, sig))
		return;
	if ((unsigned long)info <= (unsigned long)SEND_SIG_PRIV) {
		code = info == SEND_SIG_NOINFO ? SI_USER : SI_KERNEL;
	} else {
		code = info->si_code;
		addr = (u64)(unsigned long)info->si_addr;
	}
	rcu_read_lock();
	t = fr_thread_find(task);
	if (t)
		fr_fault_note(t, sig, code, addr);
	rcu_read_unlock();
}

/*
 * In current's task_work, before get_signal() dequeues: a #GP SIGSEGV that
 * tsc.c found not to be an rdtsc of ours.  Fatal: freeze as the probe would.
 */
void fr_fault_deferred(int sig)
{
	/* current's own: only current replaces it (exec) */
	struct sighand_struct *sh = rcu_dereference_protected(current->sighand, 1);
	struct fr_thread *t;
	bool fatal;

	spin_lock_irq(&sh->siglock);
	fatal = sigismember(&current->pending.signal, sig) &&
		sh->action[sig - 1].sa.sa_handler == SIG_DFL;
	spin_unlock_irq(&sh->siglock);
	if (!fatal || !atomic_read(&fr_nr_threads))
		return;
	rcu_read_lock();
	t = fr_thread_find(current);
	if (t)
		fr_fault_note(t, sig, SI_KERNEL, 0);
	rcu_read_unlock();
}

/*
 * At a syscall's exit, a thread of an at_exit process with a signal pending
 * (fr_sys_exit; preemption off): a signal that ends the process and that
 * was blocked when it came (fr_is_kill() passed it by) may be deliverable
 * now.  `sort` catches SIGPIPE, cleans up, restores the default and raises
 * it again from its handler, where it is blocked; the rt_sigreturn after
 * the handler unblocks it.  The lowest such signal, as get_signal() takes
 * them, gets its end noted as a trigger's.
 */
void fr_kill_pending(struct fr_thread *t)
{
	struct sighand_struct *sh = rcu_dereference_sched(current->sighand);
	struct sigpending *pend[2] = { &current->pending, &current->signal->shared_pending };
	int sig, i, found = 0, code = SI_USER;
	unsigned long flags;
	struct sigqueue *q;

	if (!READ_ONCE(t->proc->at_exit) || READ_ONCE(t->proc->at_exit_done) ||
	    READ_ONCE(t->fault_pending))
		return;
	spin_lock_irqsave(&sh->siglock, flags);
	for (sig = 1; sig < _NSIG && !found; sig++) {
		if (sig == SIGKILL || sig_kernel_ignore(sig) || sig_kernel_stop(sig) ||
		    sigismember(&current->blocked, sig) || fr_tracer_takes(current, sig) ||
		    sh->action[sig - 1].sa.sa_handler != SIG_DFL)
			continue;
		for (i = 0; i < 2 && !found; i++) {
			if (!sigismember(&pend[i]->signal, sig))
				continue;
			found = sig;
			list_for_each_entry(q, &pend[i]->list, list) {
				if (q->info.si_signo == sig) {
					code = q->info.si_code;
					break;
				}
			}
		}
	}
	spin_unlock_irqrestore(&sh->siglock, flags);
	if (found)
		fr_fault_note(t, found, code, 0);
}

/* get_signal(), siglock held: a handler of current is about to run. */
static void fr_deliver_probe(void *data, int sig, struct kernel_siginfo *info,
			     struct k_sigaction *ka)
{
	struct fr_thread *t;

	if (likely(!atomic_read(&fr_nr_threads)) || !ka ||
	    (unsigned long)info <= (unsigned long)SEND_SIG_PRIV ||
	    ka->sa.sa_handler == SIG_DFL || ka->sa.sa_handler == SIG_IGN)
		return;
	rcu_read_lock();
	t = fr_thread_find(current);
	if (t)
		fr_sc_signal(t, sig, info, ka);
	rcu_read_unlock();
}

static void fr_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_process_fork"))
		fr_tp_fork = tp;
	else if (!strcmp(tp->name, "sched_process_exit"))
		fr_tp_exit = tp;
	else if (!strcmp(tp->name, "signal_generate"))
		fr_tp_signal = tp;
	else if (!strcmp(tp->name, "signal_deliver"))
		fr_tp_deliver = tp;
	else if (!strcmp(tp->name, "sched_process_exec"))
		fr_tp_exec = tp;
}

int fr_trigger_init(void)
{
	int err;

	fr_tsc_init();
	for_each_kernel_tracepoint(fr_find_tp, NULL);
	if (!fr_tp_fork || !fr_tp_exit || !fr_tp_signal || !fr_tp_deliver ||
	    !fr_tp_exec) {
		pr_err("sched/signal tracepoints not found\n");
		fr_tsc_exit();
		return -ENOENT;
	}
	err = tracepoint_probe_register(fr_tp_fork, fr_fork_probe, NULL);
	if (err)
		goto out_tsc;
	err = tracepoint_probe_register(fr_tp_exit, fr_exit_probe, NULL);
	if (err)
		goto out_fork;
	err = tracepoint_probe_register(fr_tp_signal, fr_signal_probe, NULL);
	if (err)
		goto out_exit;
	err = tracepoint_probe_register(fr_tp_deliver, fr_deliver_probe, NULL);
	if (err)
		goto out_signal;
	err = tracepoint_probe_register(fr_tp_exec, fr_exec_probe, NULL);
	if (err)
		goto out_deliver;
	return 0;

out_deliver:
	tracepoint_probe_unregister(fr_tp_deliver, fr_deliver_probe, NULL);
out_signal:
	tracepoint_probe_unregister(fr_tp_signal, fr_signal_probe, NULL);
out_exit:
	tracepoint_probe_unregister(fr_tp_exit, fr_exit_probe, NULL);
out_fork:
	tracepoint_probe_unregister(fr_tp_fork, fr_fork_probe, NULL);
	tracepoint_synchronize_unregister();
out_tsc:
	fr_tsc_exit();
	return err;
}

/*
 * Called after the registry is empty.  Pending child registrations run when
 * their child returns to user space, or are orphaned (fr_tw_drain).
 */
void fr_trigger_exit(void)
{
	struct fr_child_work *w, *tmp;

	tracepoint_probe_unregister(fr_tp_exec, fr_exec_probe, NULL);
	tracepoint_probe_unregister(fr_tp_deliver, fr_deliver_probe, NULL);
	tracepoint_probe_unregister(fr_tp_signal, fr_signal_probe, NULL);
	tracepoint_probe_unregister(fr_tp_exit, fr_exit_probe, NULL);
	tracepoint_probe_unregister(fr_tp_fork, fr_fork_probe, NULL);
	tracepoint_synchronize_unregister();
	/* CLONE_VM children that have not exec'd yet stay unrecorded */
	list_for_each_entry_safe(w, tmp, &fr_vforks, vfork) {
		list_del(&w->vfork);
		kfree(w);
	}
	fr_tw_drain();
	/* a child registered while we waited is dropped again */
	fr_unregister_all();
	/* the threads given their rdtsc back: their task_work is our text */
	fr_tw_drain();
	fr_tsc_exit();
}
