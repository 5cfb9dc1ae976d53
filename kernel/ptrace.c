// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec: what the tracer of a recorded thread changes in it (issue 25,
 * class 11).
 *
 * A program that uses ptrace on a recorded process (a sandbox that rewrites
 * syscalls, a fault injector, a debugger) changes the tracee while it is
 * stopped: its registers, its memory.  Neither reaches the tracee's records
 * on its own: the register changes at a syscall-exit stop come after the
 * sys_exit tracepoint (ptrace_report_syscall_exit() runs after
 * trace_sys_exit()), and the tracer's writes go through
 * access_process_vm(), which no fault tracepoint sees.
 *
 * Two kretprobes, in the tracer's context, note what it changes in a
 * recorded thread (fr_pt_note): on arch_ptrace() (every request that
 * writes: PTRACE_POKE*, _SETREGS, _SETREGSET, _ARCH_PRCTL...), and on
 * access_remote_vm() (writes to /proc/PID/mem, which gdb uses) when the
 * writer traces a stopped thread of that mm.  The tracee is stopped
 * meanwhile (ptrace_check_attach(); for /proc/PID/mem, task_is_traced()).
 * The thread itself turns the notes into a FLIGHTREC_NR_PTRACE record
 * (syscall.c, fr_sc_ptrace_build) where it goes on: at its next syscall
 * entry (a syscall-entry stop comes before the sys_enter tracepoint), at
 * the delivery of the signal it was stopped for, or as it returns to user
 * space (its task_work, queued here).  Replay applies the record there.
 *
 * Not covered, each reported in the record's flags rather than lost: the
 * FPU state (FLIGHTREC_PT_FPU), debug registers, the fs and gs bases
 * (PTRACE_ARCH_PRCTL), TLS descriptors and the signal mask
 * (FLIGHTREC_PT_OTHER), writes over the size limit
 * (FLIGHTREC_PT_LOST).  Writes with process_vm_writev(), and by a process
 * that is not the tracer of a stopped thread, are not seen here (the
 * boundary's FLIGHTREC_IF_GUP_WRITE may flag them).  A 32-bit tracer
 * (compat_arch_ptrace) is not probed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/elf.h>
#include <linux/mm.h>
#include <asm/prctl.h>
#include <asm/ptrace-abi.h>
#include "flightrec.h"

/* the most bytes of memory writes kept for one stop */
#define FR_PT_MAX	(64U << 10)

/* Frees what the tracer changed and no record took (thread teardown). */
void fr_pt_drop(struct fr_thread *t)
{
	struct fr_pt_write *w, *tmp;

	list_for_each_entry_safe(w, tmp, &t->pt_writes, node)
		kfree(w);
	INIT_LIST_HEAD(&t->pt_writes);
}

/*
 * Forgets what the tracer changed: the thread exec'd, and its new image's
 * first interval starts after the changes (its context and pages are taken
 * from then on).  The thread's own context.
 */
void fr_pt_forget(struct fr_thread *t)
{
	unsigned long irqf;
	LIST_HEAD(writes);
	struct fr_pt_write *w, *tmp;

	spin_lock_irqsave(&t->pt_lock, irqf);
	list_splice_init(&t->pt_writes, &writes);
	t->pt_flags = 0;
	t->pt_bytes = 0;
	WRITE_ONCE(t->pt_pending, false);
	spin_unlock_irqrestore(&t->pt_lock, irqf);
	list_for_each_entry_safe(w, tmp, &writes, node)
		kfree(w);
}

/* The kind of ptrace stop @child is in (FLIGHTREC_PT_STOP_*).  Stopped. */
static u8 fr_pt_stop_of(struct task_struct *child)
{
	const kernel_siginfo_t *si = child->last_siginfo;

	/* ptrace_report_syscall(): SIGTRAP (| 0x80), the message says which */
	if (si && si->si_signo == SIGTRAP &&
	    (si->si_code == SIGTRAP || si->si_code == (SIGTRAP | 0x80))) {
		if (child->ptrace_message == PTRACE_EVENTMSG_SYSCALL_ENTRY)
			return FLIGHTREC_PT_STOP_SC_ENTRY;
		if (child->ptrace_message == PTRACE_EVENTMSG_SYSCALL_EXIT)
			return FLIGHTREC_PT_STOP_SC_EXIT;
	}
	return FLIGHTREC_PT_STOP_OTHER;
}

/*
 * The tracer changed @child, a stopped task: @flags (FLIGHTREC_PT_*), and
 * @len bytes at @addr when @len.  @ip0 is its rip before the change.  Any
 * context (a kretprobe's handler).
 */
static void fr_pt_note(struct task_struct *child, u8 flags, u64 ip0,
		       u64 addr, const void *buf, u32 len)
{
	struct fr_pt_write *w = NULL;
	struct fr_thread *t;
	unsigned long irqf;

	rcu_read_lock();
	t = fr_thread_find(child);
	if (!t || !smp_load_acquire(&t->proc->started) ||
	    READ_ONCE(t->proc->dying))
		goto out;
	if (len) {
		w = kmalloc(struct_size(w, data, len), GFP_ATOMIC | __GFP_NOWARN);
		if (w) {
			w->addr = addr;
			w->len = len;
			memcpy(w->data, buf, len);
		}
	}
	spin_lock_irqsave(&t->pt_lock, irqf);
	if (!t->pt_pending) {
		t->pt_stop = fr_pt_stop_of(child);
		t->pt_ip0 = ip0;
	}
	t->pt_flags |= flags;
	if (len) {
		if (!w || t->pt_bytes + len > FR_PT_MAX) {
			t->pt_flags |= FLIGHTREC_PT_LOST;
			kfree(w);
		} else {
			list_add_tail(&w->node, &t->pt_writes);
			t->pt_bytes += len;
		}
	}
	WRITE_ONCE(t->pt_pending, true);
	spin_unlock_irqrestore(&t->pt_lock, irqf);
	/* a syscall-exit or signal stop: the record is made on the way out */
	fr_twork_queue(t, TWA_RESUME);
out:
	rcu_read_unlock();
}

/* ---- arch_ptrace(child, request, addr, data) ---- */

struct fr_pt_req {
	struct task_struct *child;
	unsigned long addr, data;
	u64 ip0;
	u8 flags;
	bool poke;
};

/* What request @req on @addr changes: FLIGHTREC_PT_* (0: nothing we keep). */
static u8 fr_pt_req_flags(long req, unsigned long addr, bool *poke)
{
	*poke = false;
	switch (req) {
	case PTRACE_POKETEXT:
	case PTRACE_POKEDATA:
		*poke = true;
		return 0;
	case PTRACE_POKEUSR:
		return addr < sizeof(struct user_regs_struct) ?
		       FLIGHTREC_PT_REGS : FLIGHTREC_PT_OTHER;
	case PTRACE_SETREGS:
		return FLIGHTREC_PT_REGS;
	case PTRACE_SETFPREGS:
	case PTRACE_SETFPXREGS:
		return FLIGHTREC_PT_FPU;
	case PTRACE_SETREGSET:
		if (addr == NT_PRSTATUS)
			return FLIGHTREC_PT_REGS;
		if (addr == NT_PRFPREG || addr == NT_PRXFPREG ||
		    addr == NT_X86_XSTATE)
			return FLIGHTREC_PT_FPU;
		return FLIGHTREC_PT_OTHER;
	case PTRACE_ARCH_PRCTL:
		/* the record's registers leave fs_base and gs_base out */
		return addr == ARCH_SET_FS || addr == ARCH_SET_GS ?
		       FLIGHTREC_PT_OTHER : 0;
	case PTRACE_SET_THREAD_AREA:
	case PTRACE_SETSIGMASK:
		return FLIGHTREC_PT_OTHER;
	}
	return 0;
}

static int fr_pt_req_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct fr_pt_req *d = (void *)ri->data;
	struct task_struct *child = (struct task_struct *)regs->di;
	struct fr_thread *t;

	d->flags = fr_pt_req_flags((long)regs->si, regs->dx, &d->poke);
	if (!d->flags && !d->poke)
		return 1;
	rcu_read_lock();
	t = fr_thread_find(child);
	/* a kernel whose ptrace_access_vm() calls access_remote_vm() (6.12) */
	if (t && d->poke)
		WRITE_ONCE(t->pt_poking, true);
	rcu_read_unlock();
	if (!t)
		return 1;
	/* ptrace holds a reference on the child while the request runs */
	d->child = child;
	d->addr = regs->dx;
	d->data = regs->cx;
	d->ip0 = task_pt_regs(child)->ip;
	return 0;
}

static int fr_pt_req_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct fr_pt_req *d = (void *)ri->data;
	struct fr_thread *t;

	if (d->poke) {
		rcu_read_lock();
		t = fr_thread_find(d->child);
		if (t)
			WRITE_ONCE(t->pt_poking, false);
		rcu_read_unlock();
	}
	if (regs_return_value(regs))
		return 0;	/* refused: nothing changed */
	if (d->poke)
		fr_pt_note(d->child, 0, d->ip0, d->addr, &d->data,
			   sizeof(d->data));
	else
		fr_pt_note(d->child, d->flags, d->ip0, 0, NULL, 0);
	return 0;
}

/* ---- access_remote_vm(mm, addr, buf, len, gup_flags) ---- */

struct fr_pt_mem {
	struct task_struct *child;	/* get_task_struct()ed */
	unsigned long addr;
	const void *buf;
	u64 ip0;
};

static int fr_pt_mem_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct fr_pt_mem *d = (void *)ri->data;
	struct task_struct *child;
	struct fr_thread *t;

	if (!(regs->r8 & FOLL_WRITE) || !atomic_read(&fr_nr_threads))
		return 1;
	rcu_read_lock();
	child = fr_pt_tracee_of((struct mm_struct *)regs->di);
	t = child ? fr_thread_find(child) : NULL;
	/* a PTRACE_POKE* through here: arch_ptrace's probe notes it */
	if (!t || READ_ONCE(t->pt_poking))
		child = NULL;
	if (child)
		get_task_struct(child);
	rcu_read_unlock();
	if (!child)
		return 1;
	d->child = child;
	d->addr = regs->si;
	d->buf = (const void *)regs->dx;
	d->ip0 = task_pt_regs(child)->ip;
	return 0;
}

static int fr_pt_mem_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct fr_pt_mem *d = (void *)ri->data;
	long n = (long)regs_return_value(regs);

	if (n > 0)
		fr_pt_note(d->child, 0, d->ip0, d->addr, d->buf, n);
	put_task_struct(d->child);
	return 0;
}

static struct kretprobe fr_pt_krp[] = {
	{
		.kp.symbol_name = "arch_ptrace",
		.entry_handler = fr_pt_req_entry,
		.handler = fr_pt_req_ret,
		.data_size = sizeof(struct fr_pt_req),
		.maxactive = 16,
	}, {
		.kp.symbol_name = "access_remote_vm",
		.entry_handler = fr_pt_mem_entry,
		.handler = fr_pt_mem_ret,
		.data_size = sizeof(struct fr_pt_mem),
		.maxactive = 16,
	},
};
static struct kretprobe *fr_pt_krps[ARRAY_SIZE(fr_pt_krp)];
static bool fr_pt_probed;

/*
 * Without the probes a tracer's changes are not recorded (replay of the
 * tracee then reports a divergence where they matter): not a reason to
 * refuse loading.
 */
int fr_ptrace_init(void)
{
	int i, err;

	for (i = 0; i < ARRAY_SIZE(fr_pt_krp); i++)
		fr_pt_krps[i] = &fr_pt_krp[i];
	err = register_kretprobes(fr_pt_krps, ARRAY_SIZE(fr_pt_krps));
	if (err)
		pr_info("a tracer's changes to recorded threads are not recorded (kretprobe: %d)\n",
			err);
	fr_pt_probed = !err;
	return 0;
}

void fr_ptrace_exit(void)
{
	if (fr_pt_probed)
		unregister_kretprobes(fr_pt_krps, ARRAY_SIZE(fr_pt_krps));
	fr_pt_probed = false;
}
