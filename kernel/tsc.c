// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec: the rdtsc and rdtscp of recorded threads.
 *
 * A recorded thread runs with CR4.TSD set, as PR_SET_TSC(PR_TSC_SIGSEGV)
 * would set it (TIF_NOTSC; the context switch keeps CR4 in step with the
 * flag).  Its rdtsc and rdtscp then raise #GP, which the kernel turns into a
 * SIGSEGV (SI_KERNEL, trap_nr X86_TRAP_GP).  The signal_generate probe
 * (trigger.c) queues fr_tsc_work for it, and get_signal() runs that before
 * it dequeues the signal: the work checks the instruction, dequeues the
 * SIGSEGV, executes the instruction for the thread (the TSC the thread would
 * have read), steps rip over it and records the value as a
 * FLIGHTREC_NR_RDTSC record in the syscall stream.
 *
 * Only a thread may flip its own TIF_NOTSC (the context switch toggles CR4
 * when the flags of the two tasks differ, so the flag of a running task must
 * match its CPU's CR4): it is set in the thread's boundary task_work
 * (fr_tsc_own), inherited by its threads and children, and cleared at
 * unregistration by a TWA_RESUME task_work queued on each thread
 * (fr_tsc_release), which first emulates an rdtsc that trapped in between.
 * A thread that had TIF_NOTSC before (the program asked for SIGSEGV itself)
 * is left alone, and so is one whose program calls PR_SET_TSC(PR_TSC_SIGSEGV)
 * later (fr_tsc_prctl_set drops ownership).
 *
 * Side effects the program may see: force_sig() unblocks SIGSEGV and resets
 * an ignored SIGSEGV to SIG_DFL before the work can run.  PR_GET_TSC answers
 * PR_TSC_ENABLE (syscall.c rewrites the answer), PR_SET_TSC(PR_TSC_ENABLE)
 * keeps the trap (fr_tsc_prctl_set), and the kernel log shows no line for a
 * trapped rdtsc (fr_tsc_log_entry).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/signal.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/task_work.h>
#include <linux/prctl.h>
#include <linux/kprobes.h>
#include <asm/tlbflush.h>
#include <asm/trapnr.h>
#include "flightrec.h"

struct fr_tsc_work {
	struct fr_tw tw;		/* tw.task: the thread */
	struct list_head node;		/* fr_tsc_releases, release works only */
};

/* release works queued, not yet run: their tasks still trap */
static LIST_HEAD(fr_tsc_releases);
static DEFINE_SPINLOCK(fr_tsc_lock);

static void fr_tsc_set_current(bool on)
{
	preempt_disable();
	if (on) {
		if (!test_and_set_thread_flag(TIF_NOTSC))
			cr4_set_bits(X86_CR4_TSD);
	} else if (test_and_clear_thread_flag(TIF_NOTSC)) {
		cr4_clear_bits(X86_CR4_TSD);
	}
	preempt_enable();
}

static bool fr_tsc_releasing(struct task_struct *task);

/*
 * In the thread's own task_work: trap its rdtsc from now on.  A flag whose
 * release is still queued (unregistered, registered again before it ran)
 * is ours, not the program's: taken back, and fr_tsc_release_fn() leaves it.
 */
void fr_tsc_own(struct fr_thread *t)
{
	if (t->tsc_trapped)
		return;		/* ours already */
	if (test_thread_flag(TIF_NOTSC) && !fr_tsc_releasing(current))
		return;		/* the program's own setting */
	fr_tsc_set_current(true);
	WRITE_ONCE(t->tsc_trapped, true);
}

/* A child registered by fr_child_fn, which inherited the flag from a parent. */
void fr_tsc_inherit(struct fr_thread *t, bool parent_trapped)
{
	if (parent_trapped && test_thread_flag(TIF_NOTSC))
		WRITE_ONCE(t->tsc_trapped, true);
}

/*
 * At fork: is the parent's flag ours (@t traps it, or a release of it is
 * queued), so that the child's copy is ours too?
 */
bool fr_tsc_parent_ours(struct task_struct *parent, struct fr_thread *t)
{
	return (t && READ_ONCE(t->tsc_trapped)) || fr_tsc_releasing(parent);
}

/* A child that could not be registered: give it its rdtsc back. */
void fr_tsc_disown_current(void)
{
	fr_tsc_set_current(false);
}

/* Is a release of @task's flag queued and not run yet? */
static bool fr_tsc_releasing(struct task_struct *task)
{
	struct fr_tsc_work *w;
	bool found = false;
	unsigned long flags;

	spin_lock_irqsave(&fr_tsc_lock, flags);
	list_for_each_entry(w, &fr_tsc_releases, node) {
		if (w->tw.task == task) {
			found = true;
			break;
		}
	}
	spin_unlock_irqrestore(&fr_tsc_lock, flags);
	return found;
}

/*
 * sched_process_fork, before the child first runs (wake_up_new_task() comes
 * after): @child copied @parent's flags.  If the parent's TIF_NOTSC is ours
 * (@t recorded with it, or a release of it pending) and @tracked is false
 * (the child will not be recorded with it: its process is not followed, the
 * parent's is dying, an allocation failed), the child's flag goes: it is
 * not running, so its flag may change from outside.  A TIF_NOTSC that is
 * the program's own (PR_SET_TSC) is inherited as the kernel does.
 */
void fr_tsc_fork(struct task_struct *parent, struct fr_thread *t,
		 struct task_struct *child, bool tracked)
{
	if (tracked || !test_tsk_thread_flag(child, TIF_NOTSC))
		return;
	if (fr_tsc_parent_ours(parent, t))
		clear_tsk_thread_flag(child, TIF_NOTSC);
}

/*
 * The instruction at rip: 2 for rdtsc, 3 for rdtscp, 0 for anything else.
 * @nofault: in atomic context (the kretprobe), where no page is faulted in.
 */
static int fr_tsc_insn(unsigned long ip, bool nofault)
{
	const void __user *p = (const void __user *)ip;
	u8 b[3];

	if (nofault ? copy_from_user_nofault(b, p, 2) : copy_from_user(b, p, 2))
		return 0;
	if (b[0] == 0x0f && b[1] == 0x31)
		return 2;
	if (b[0] != 0x0f || b[1] != 0x01 ||
	    (nofault ? copy_from_user_nofault(b, p, 3) : copy_from_user(b, p, 3)) ||
	    b[2] != 0xf9)
		return 0;
	return 3;
}

/*
 * If the SIGSEGV pending for current is the trap of an rdtsc/rdtscp at its
 * user rip, takes it away and executes the instruction for the thread.
 * Returns the instruction's length (0: not one) and the values read.
 */
static int fr_tsc_emulate(u64 *tsc, u32 *aux)
{
	struct pt_regs *regs = task_pt_regs(current);
	/* current's own: only current replaces it (exec) */
	struct sighand_struct *sh = rcu_dereference_protected(current->sighand, 1);
	struct sigqueue *q;
	kernel_siginfo_t info;
	enum pid_type type;
	bool ours = false;
	sigset_t mask;
	u32 lo, hi, c = 0;
	int len;

	len = fr_tsc_insn(regs->ip, false);
	if (!len)
		return 0;
	spin_lock_irq(&sh->siglock);
	list_for_each_entry(q, &current->pending.list, list) {
		if (q->info.si_signo == SIGSEGV) {
			ours = q->info.si_code == SI_KERNEL;
			break;
		}
	}
	if (ours) {
		sigfillset(&mask);
		sigdelset(&mask, SIGSEGV);
		ours = fr_dequeue_signal(&mask, &info, &type) == SIGSEGV;
	}
	spin_unlock_irq(&sh->siglock);
	if (!ours)
		return 0;
	if (len == 2)
		asm volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi));
	else
		asm volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(c));
	regs->ax = lo;
	regs->dx = hi;
	if (len == 3)
		regs->cx = c;
	regs->ip += len;
	*tsc = (u64)hi << 32 | lo;
	*aux = c;
	return len;
}

static void fr_tsc_record(u64 ip, int len, u64 tsc, u32 aux)
{
	struct fr_thread *t;
	u64 args[6] = { aux, len, 0, 0, ip, 0 };

	rcu_read_lock();
	t = fr_thread_find(current);
	if (t && t->tsc_trapped)
		fr_sc_record_event(t, FLIGHTREC_NR_RDTSC, args, (s64)tsc,
				   NULL, 0, NULL, 0);
	rcu_read_unlock();
}

/* get_signal() runs this before it dequeues the SIGSEGV of the trap. */
static void fr_tsc_trap_fn(struct fr_tw *tw)
{
	struct fr_thread *t;
	u64 ip = task_pt_regs(current)->ip, tsc;
	bool owned;
	u32 aux;
	int len;

	rcu_read_lock();
	t = fr_thread_find(current);
	owned = t && t->tsc_trapped;
	rcu_read_unlock();
	if (!owned)
		owned = fr_tsc_releasing(current);
	len = owned ? fr_tsc_emulate(&tsc, &aux) : 0;
	if (len)
		fr_tsc_record(ip, len, tsc, aux);
	else
		fr_fault_deferred(SIGSEGV);	/* a real #GP: the trigger's turn */
	kfree(container_of(tw, struct fr_tsc_work, tw));
}

/*
 * signal_generate probe (siglock held): a SIGSEGV that may be the trap of an
 * rdtsc of ours.  Returns true when it queued the work that decides (the
 * fault trigger then waits for it).
 */
bool fr_tsc_trapped(struct task_struct *task, int sig,
		    struct kernel_siginfo *info)
{
	struct fr_tsc_work *w;

	if (sig != SIGSEGV || task != current ||
	    (unsigned long)info <= (unsigned long)SEND_SIG_PRIV ||
	    info->si_code != SI_KERNEL ||
	    !test_tsk_thread_flag(task, TIF_NOTSC) ||
	    task->thread.trap_nr != X86_TRAP_GP)
		return false;
	w = kmalloc(sizeof(*w), GFP_ATOMIC | __GFP_NOWARN);
	if (!w)
		return false;
	INIT_LIST_HEAD(&w->node);
	if (fr_tw_add(task, w, fr_tsc_trap_fn, NULL, TWA_RESUME)) {
		kfree(w);
		return false;
	}
	return true;
}

/* In the released thread: emulate a trap that came first, then untrap. */
static void fr_tsc_release_fn(struct fr_tw *tw)
{
	struct fr_tsc_work *w = container_of(tw, struct fr_tsc_work, tw);
	struct fr_thread *t;
	unsigned long flags;
	bool again;
	u64 tsc;
	u32 aux;

	/* registered again, and its fr_tsc_own() took the flag back: kept */
	rcu_read_lock();
	t = fr_thread_find(current);
	again = t && READ_ONCE(t->tsc_trapped);
	rcu_read_unlock();
	if (!again && signal_pending(current))
		fr_tsc_emulate(&tsc, &aux);
	if (!again)
		fr_tsc_set_current(false);
	spin_lock_irqsave(&fr_tsc_lock, flags);
	list_del(&w->node);
	spin_unlock_irqrestore(&fr_tsc_lock, flags);
	kfree(w);
}

/*
 * The kernel log.  The #GP of a trapped rdtsc goes through show_signal()
 * before it becomes a SIGSEGV, and show_signal() logs "traps: NAME[PID]
 * general protection fault ..." for a task without a SIGSEGV handler when
 * printk_ratelimit() allows: one line per rdtsc of every recorded program,
 * which operators read as crashes.  A kretprobe on __printk_ratelimit()
 * answers "no" to show_signal() for exactly those traps: current traps
 * rdtsc for us and #GP'd at an rdtsc or rdtscp.  Any other line, a real
 * #GP of a recorded program included, is logged as before.
 */
static int fr_tsc_log_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	const char *func = (const char *)regs->di;
	struct fr_thread *t;
	bool ours;

	if (!atomic_read(&fr_nr_threads) && list_empty(&fr_tsc_releases))
		return 1;
	if (!func || strcmp(func, "show_signal") || in_interrupt() ||
	    !current->mm || !test_thread_flag(TIF_NOTSC) ||
	    current->thread.trap_nr != X86_TRAP_GP)
		return 1;
	rcu_read_lock();
	t = fr_thread_find(current);
	ours = t && READ_ONCE(t->tsc_trapped);
	rcu_read_unlock();
	if (!ours && !fr_tsc_releasing(current))
		return 1;
	return fr_tsc_insn(task_pt_regs(current)->ip, true) ? 0 : 1;
}

static int fr_tsc_log_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	regs->ax = 0;		/* not now: show_signal() prints nothing */
	return 0;
}

static struct kretprobe fr_tsc_log_probe = {
	.kp.symbol_name = "__printk_ratelimit",
	.entry_handler = fr_tsc_log_entry,
	.handler = fr_tsc_log_ret,
	.maxactive = 64,
};
static bool fr_tsc_log_on;

void fr_tsc_init(void)
{
	int err = register_kretprobe(&fr_tsc_log_probe);

	/* not fatal: the traps are then logged, as without the probe */
	if (err)
		pr_info("rdtsc traps of recorded programs will show in the kernel log (kretprobe: %d)\n",
			err);
	fr_tsc_log_on = !err;
}

/* Unload, after the last trap: no recorded thread is left. */
void fr_tsc_exit(void)
{
	if (fr_tsc_log_on)
		unregister_kretprobe(&fr_tsc_log_probe);
	fr_tsc_log_on = false;
}

/*
 * Unload, in stop_machine() (twork.c): @task did not run, and will not run,
 * the work that would give it rdtsc back.  No task runs now, so its flag may
 * change from outside: each CPU goes back from its stopper thread (no
 * TIF_NOTSC) to a task whose CR4.TSD the context switch sets from the flag.
 */
void fr_tsc_untrap_stopped(struct task_struct *task)
{
	clear_tsk_thread_flag(task, TIF_NOTSC);
}

static void fr_tsc_release_orphan(struct fr_tw *tw)
{
	struct fr_tsc_work *w = container_of(tw, struct fr_tsc_work, tw);

	spin_lock(&fr_tsc_lock);
	list_del(&w->node);
	spin_unlock(&fr_tsc_lock);
	fr_tsc_untrap_stopped(tw->task);
}

/* Unregistration: @t stops being recorded; give its thread rdtsc back. */
void fr_tsc_release(struct fr_thread *t)
{
	struct fr_tsc_work *w;
	unsigned long flags;

	if (!t->tsc_trapped)
		return;
	w = kmalloc(sizeof(*w), GFP_ATOMIC | __GFP_NOWARN);
	if (!w) {
		pr_warn_ratelimited("tid %d keeps CR4.TSD: rdtsc will raise SIGSEGV\n",
				    t->tid);
		return;
	}
	/* listed before it stops being ours: a trap always finds an owner */
	spin_lock_irqsave(&fr_tsc_lock, flags);
	list_add(&w->node, &fr_tsc_releases);
	spin_unlock_irqrestore(&fr_tsc_lock, flags);
	WRITE_ONCE(t->tsc_trapped, false);
	/*
	 * TWA_RESUME: a thread blocked in a syscall executes no rdtsc before
	 * it returns, and then it runs this first; interrupting it would make
	 * some calls fail with EINTR.
	 */
	if (fr_tw_add(t->task, w, fr_tsc_release_fn, fr_tsc_release_orphan,
		      TWA_RESUME)) {
		/* exiting: no more user code */
		spin_lock_irqsave(&fr_tsc_lock, flags);
		list_del(&w->node);
		spin_unlock_irqrestore(&fr_tsc_lock, flags);
		kfree(w);
	}
}

/*
 * sys_exit of the thread's successful PR_SET_TSC(@mode).  PR_TSC_SIGSEGV: the
 * program wants the SIGSEGV itself, the flag is no longer ours.
 * PR_TSC_ENABLE: the kernel cleared the flag; the program sees an enabled
 * TSC (PR_GET_TSC says so, fr_sc_prctl_get) and its rdtsc stays recorded.
 * Preemption is off (the probe): the flag and CR4 change together.
 */
void fr_tsc_prctl_set(struct fr_thread *t, unsigned long mode)
{
	t->tsc_trapped = false;
	if (mode == PR_TSC_ENABLE && !READ_ONCE(t->proc->dying))
		fr_tsc_own(t);
}
