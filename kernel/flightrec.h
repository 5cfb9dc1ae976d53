/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flightrec: definitions shared by the module's files.
 *
 * Lock order (outer first):
 *   fr_registry_lock (mutex: registration, unregistration, unload)
 *     -> proc->work_lock (mutex: boundaries and freezes, taken by the recorded
 *        thread's task_work, and by fr_proc_stop())
 *       -> mm->mmap_lock (read: boundary page walks)
 *         -> proc->lock (spinlock: ring, current interval, counters)
 *           -> a thread's log (t->log_busy, a flag not a lock: the
 *              thread's log and in_sc.  The thread sets it alone for
 *              each record; whoever takes logs into an interval or makes
 *              a cut holds proc->lock, sets proc->cutting and waits for
 *              the flag to clear: fr_log_own(), fr_logs_hold().  Lockdep
 *              sees it as a lock, t->log_map)
 *   fr_threads_lock (spinlock, irqsave: the task -> fr_thread hash),
 *   fr_dumps_lock (spinlock: the list of frozen dumps), fr_arena_lock
 *   (spinlock, irqsave, arena.c: record chunks and page copies kept for
 *   reuse; taken under proc->lock by a freeze's fr_sc_unfinished) and
 *   fr_tsc_lock (spinlock, irqsave, tsc.c: threads giving rdtsc back) and
 *   fr_tw_lock (spinlock, irqsave, twork.c: queued task_work) and
 *   fr_vforks_lock (spinlock, trigger.c: CLONE_VM children waiting for
 *   their exec; taken by the fork, exec and exit probes) and t->pt_lock
 *   (spinlock, irqsave, ptrace.c: what a tracer changed; taken by the
 *   tracer's probes, and by the thread under siglock) are leaf locks,
 *   but for unload's orphaning (in stop_machine()), which takes
 *   fr_tsc_lock under fr_tw_lock.
 *   The xa_locks of an interval's page set are leaf locks: pages's (irq,
 *   under proc->lock: the write-fault probe, the boundary's resolution)
 *   and acc's (the boundary walk, under a PTE lock; the MMU notifier,
 *   under proc->lock; memory.c).
 *   A PTE lock -> proc->lock: the MMU notifier of a recorded mm, called
 *   by reclaim under the PTE lock (registry.c, fr_mem_young_cleared).
 *   proc->lock is never held while a PTE lock is taken.
 *   fr_registry_lock and work_lock -> the target's mmap_lock (write) and
 *   the locks of mm_take_all_locks(): mmu_notifier_get (fr_mn_ensure).
 *   work_lock -> fr_mn_lock (spinlock, registry.c: the notifier's proc
 *   pointer) and the mm's notifier list lock (mmu_notifier_put); the
 *   notifier's callback takes neither (it reads the pointer under RCU).
 *   fr_focus_lock (mutex, syscall.c) is taken under fr_registry_lock or alone.
 *   fr_registry_lock is never taken under proc->work_lock.
 *   fr_nl_sem (rwsem, netlink.c) is taken for reading by every event, also
 *   under work_lock (freezes, fr_proc_check_dumpable), never the other way.
 *   The write-fault probe only trylocks mmap_lock (fr_fault_nodump), under
 *   nothing but RCU.  fr_yama_scope() opens a sysctl file: no lock held.
 * Stopping threads at a boundary: a thread's task_work that finds
 * proc->work_lock taken reports its own context first (proc->lock only,
 * fr_stop_report) and only then blocks on work_lock; the work_lock holder
 * waits for those reports (bounded, killable) holding neither mmap_lock nor
 * proc->lock, so a thread it waits for never waits for it.
 * Lookups from probes use RCU only (fr_thread_find).
 * proc->lock does not disable interrupts (the syscall path takes it for
 * every record): it is never taken in interrupt context, nor under a lock
 * that is (an IRQ could then wait on that lock while its CPU holds
 * proc->lock).  So the signal-delivery probe, which runs under siglock,
 * leaves its records on the thread (fr_sc_flush_signal), and the write-fault
 * probe ignores faults taken with interrupts off; the latter takes
 * proc->lock with interrupts off, which is fine.
 */
#ifndef _FLIGHTREC_H
#define _FLIGHTREC_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/hashtable.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/hrtimer.h>
#include <linux/task_work.h>
#include <linux/xarray.h>
#include <linux/sched.h>
#include <linux/pid.h>
#include <linux/netlink.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include <linux/wait.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/timekeeping.h>
#include <asm/msr.h>
#include <asm/user.h>
#include <net/genetlink.h>
#include "../uapi/flightrec.h"
#include "compat.h"

/*
 * The version of the module, its ABI and the tools: the top-level VERSION
 * file, which kernel/Kbuild passes as -DFR_VERSION (one source of truth).
 */
#ifndef FR_VERSION
#error "FR_VERSION is not defined: build through kernel/Kbuild, which reads VERSION"
#endif

/* module parameters (main.c) */
extern unsigned int fr_ring_mb;
extern unsigned int fr_interval_ms;
extern unsigned int fr_keep;

struct fr_proc;

/* global accounting of recorded data against ring_mb */
extern atomic64_t fr_bytes;
bool fr_charge_evict(struct fr_proc *proc, size_t bytes);

/*
 * Adds bytes to fr_bytes if they fit under ring_mb.  A compare-and-exchange,
 * not an add taken back: fr_bytes never passes the cap, not even for an
 * instant (a 200 KiB read record over the cap would show in status).
 */
static inline bool fr_charge_fits(size_t bytes)
{
	u64 cap = (u64)READ_ONCE(fr_ring_mb) << 20;
	s64 cur = atomic64_read(&fr_bytes);

	do {
		if ((u64)cur + bytes > cap)
			return false;
	} while (!atomic64_try_cmpxchg(&fr_bytes, &cur, cur + bytes));
	return true;
}

/*
 * Charges recorded bytes against ring_mb; at the cap, evicts first
 * (fr_charge_evict).  Any context.  Inline: every record is charged.
 */
static inline bool fr_charge(struct fr_proc *proc, size_t bytes)
{
	if (likely(fr_charge_fits(bytes)))
		return true;
	return fr_charge_evict(proc, bytes);
}
bool fr_charge_locked(struct fr_proc *proc, size_t bytes, struct list_head *drop);
void fr_intervals_free(struct list_head *list);
void fr_uncharge(size_t bytes);
void fr_enforce_cap(void);

struct fr_proc;

/* A recorded syscall: header + out-buffers, allocated in one piece. */
struct fr_sc_out {
	u8 arg;
	u32 len;
	u64 addr;
	u8 *data;	/* points into the record's tail */
};

struct fr_arena;

/* fr_sc_rec.rseq_has */
#define FR_RSEQ_HAS_CPU		0x1	/* rseq_cpu: cpu_id_start and cpu_id */
#define FR_RSEQ_HAS_NODE_CID	0x2	/* rseq_node, rseq_cid: node_id, mm_cid */

struct fr_sc_rec {
	struct list_head node;
	struct fr_arena *arena;	/* arena.c: the chunk it is in, or NULL */
	u64 seq;
	pid_t tid;
	u32 nr;
	u32 flags;	/* FLIGHTREC_SC_* */
	u64 args[6];
	s64 ret;
	u64 in_hash;	/* with FLIGHTREC_SC_IN_HASH, _IN_HASH_SA, _FULL or _W */
	u64 time_ns;	/* the call's entry: fr_stamp(), fr_stamp_ns() reads it */
	/*
	 * What the kernel writes into the thread's rseq area on its way back to
	 * user space from here, when it differs from the thread's last record
	 * (fr_rseq_note): FR_RSEQ_HAS_* say which fields are set.
	 */
	u8 rseq_has;
	u32 rseq_cpu, rseq_node, rseq_cid;
	u32 nouts;
	size_t size;	/* bytes charged */
	struct fr_sc_out outs[];	/* then the bytes */
};

/* Thread context at an interval start. */
struct fr_thread_ctx {
	struct list_head node;
	pid_t tid;
	struct user_regs_struct regs;
	u64 fs_base, gs_base;
	u64 sigmask;
	u64 sas_sp, sas_size;
	u32 sas_flags;
	u64 rseq;
	u32 rseq_len, rseq_sig;
	u64 robust_list, robust_len;
	u64 clear_child_tid;
	s32 in_syscall;
	u32 xsave_size;
	void *xsave;
	bool lost;	/* its XSAVE area could not be allocated */
	/*
	 * xsave is allocated but not yet written: the thread was running in
	 * the kernel on another CPU at the cut, and writes its own area
	 * when it next passes the module with its user FPU state unchanged
	 * (fr_ctx_xsave_fill).  Under proc->lock; an area still waiting
	 * when its interval is frozen is not handed out.
	 */
	bool xsave_wait;
};

#define FR_BUILD_ID_MAX	32

struct fr_map {
	u64 start, end, pgoff, inode;
	u32 prot, flags, dev;
	char *path;	/* kmalloc'd, may be NULL */
	u8 build_id_len;	/* 0: none known (filled at a freeze) */
	bool build_id_tried;	/* looked for at the freeze (found or not) */
	u8 build_id[FR_BUILD_ID_MAX];
};

struct fr_sigaction {
	u64 handler, flags, restorer, mask;
};

/* One page of an interval's initial page set. */
struct fr_page {
	u32 flags;	/* FLIGHTREC_PAGE_* */
	void *data;	/* PAGE_SIZE bytes or NULL */
};

struct fr_interval {
	struct list_head node;
	u32 index;
	u64 start_ns, end_ns;
	/*
	 * With TSC stamps (fr_stamp), the TSC read together with start_ns
	 * and end_ns, and the pair of the interval before (the start of the
	 * segment a call that entered before this one started falls in):
	 * fr_stamp_ns() turns a record's stamp into CLOCK_MONOTONIC with them.
	 */
	u64 start_tsc, end_tsc, prev_tsc, prev_ns;
	u32 flags;	/* FLIGHTREC_IF_* */
	u64 nr_syscalls, lost;
	u64 brk_start, brk;
	struct list_head syscalls;	/* struct fr_sc_rec, seq order */
	struct list_head threads;	/* struct fr_thread_ctx */
	struct fr_map *maps;
	u32 nr_maps;
	struct fr_sigaction sigactions[64];
	/*
	 * The initial page set is pages plus acc.  pages: page index -> a
	 * struct fr_page * (bytes kept) or a value entry (memory.c: written
	 * while not present, zero, retired...).  acc: the pages the closing
	 * boundary found accessed, FR_ACC_BITS to an entry (index >>
	 * FR_ACC_SHIFT -> value entry, a bit per page), filled once, when
	 * the interval is closed (fr_boundary_flush).  A page in both is
	 * what its pages entry says.  fr_pageset_find() iterates the union.
	 */
	struct xarray pages;
	struct xarray acc;
	size_t bytes;			/* charged to fr_bytes */
	/*
	 * syscalls holds the threads' logs spliced one after another
	 * (fr_log_take): in sequence order only once fr_iv_sort() ran.
	 * Records join it only at its tail and leave it only when the
	 * interval is freed: sorted_end, the last record fr_iv_sort() put in
	 * order (NULL: none), stays valid, and only what follows it is new.
	 */
	bool unsorted;
	struct list_head *sorted_end;
};

/* End of a frozen dump. */
struct fr_end {
	u32 kind;	/* enum flightrec_end_kind */
	pid_t tid;
	u32 signo;
	s32 si_code;
	u64 fault_addr;
	u32 exit_code;
	struct fr_thread_ctx *ctx;	/* registers at the fault */
};

/* A frozen ring, waiting to be read by userspace. */
struct fr_dump {
	struct list_head node;		/* fr_dumps, under fr_dumps_lock */
	refcount_t ref;
	u32 id;
	struct xarray final;		/* page index -> bytes at the freeze */
	/*
	 * Page index ranges [start, end) of VM_DONTDUMP mappings, in any
	 * interval's map or at the freeze (fr_mem_resolve): no page of them
	 * is copied at the freeze or handed out (fr_mem_nodump).
	 */
	unsigned long *nodump;
	u32 nr_nodump;
	pid_t pid, ppid;
	char comm[TASK_COMM_LEN];
	char *exe;
	char *cmdline;
	size_t cmdline_len;
	u64 auxv[2 * 64];
	u32 auxv_len;
	u32 personality;
	struct list_head intervals;	/* oldest first */
	u32 nr_intervals;		/* parked dumps only (exec_dumps) */
	/* the dump of the image before the exec that started this one */
	u32 prev_id;
	struct fr_end end;
	size_t bytes;
	u64 created_ns;
	/* read to its end once (GET_DUMP): the cap may reclaim it now */
	bool collected;
	/*
	 * Files whose build ID was not in the page cache at the freeze,
	 * references held: read at the first GET_DUMP, under bid_lock
	 * (fr_dump_late_build_ids), or put when the dump is freed unread.
	 */
	struct mutex bid_lock;
	struct file **bid_files;
	u32 nr_bid_files;
};

struct fr_thread {
	struct hlist_node hnode;	/* fr_threads, keyed by task */
	struct list_head pnode;		/* proc->threads */
	struct rcu_head rcu;
	struct task_struct *task;	/* reference held */
	pid_t tid;
	struct fr_proc *proc;		/* reference held */
	/* the syscall in progress (sys_enter -> sys_exit) */
	bool in_sc;
	u32 sc_nr;
	u64 sc_args[6];
	u64 sc_seq;
	u64 sc_ns;		/* fr_stamp() at its entry */
	struct fr_sc_rec *sc_pending;	/* out-copy to finish in task_work */
	long sc_ret;			/* its return value, for the slow path */
	bool sc_slow;			/* out-buffers to copy in task_work */
	u64 sc_brk;			/* the program break when brk() was entered */
	u64 sc_in_hash;			/* of the data passed in, at entry */
	u32 sc_in_flags;		/* FLIGHTREC_SC_IN_HASH: sc_in_hash is */
	bool sc_in_defer;		/* hashed at exit: fr_sc_hash_in_full() */
	/*
	 * The rseq values of the thread's last record that had them, as one
	 * key (fr_rseq_key: the node follows the CPU); 0: none yet.
	 */
	u64 rseq_key;
	/*
	 * Records the signal-delivery probe made under siglock, where
	 * proc->lock is not taken: the thread itself appends them
	 * (fr_sc_flush_signal) before it runs user code again.  Only the
	 * thread touches them.
	 */
	struct list_head sig_recs;
	u32 sig_lost;			/* records it could not make */
	/*
	 * A syscall held back at sys_enter so that task_work can run first
	 * (at_exit freeze before exit_group, page capture before munmap):
	 * the call is made a no-op and re-executed on return to user.
	 */
	u32 held_nr;
	bool held;			/* sys_enter turned it into a no-op */
	/*
	 * held_cap: its task_work captured what the call will destroy into
	 * the interval open while proc->next_index was held_iv; cleared when
	 * the call is recorded (with in_sc, fr_log_put).  A boundary
	 * between the capture and the call moves the call to the next
	 * interval: sys_enter holds it again (FR_HELD_TRIES times at most).
	 * One while the call runs waits for it (fr_thread_stopped).
	 */
	bool held_cap;
	u8 held_tries;
	u32 held_iv;
	unsigned long held_start[2], held_end[2];	/* what it captured */
	/* boundary work */
	atomic_t twork_queued;		/* 0, FR_TW_ADDING or FR_TW_QUEUED */
	/* a context of it waits for its XSAVE area (ctx->xsave_wait, proc->lock) */
	bool xsave_wait;
	u32 seen_boundary;		/* last boundary generation it passed */
	bool fault_pending;		/* set by the signal probe */
	u32 fault_signo;
	int fault_code;
	u64 fault_addr;
	bool exec_pending;		/* the process exec'd: restart the ring */
	/* an mprotect gave write permission: fr_mem_rewrprotect() these */
	bool wp_pending;
	unsigned long wp_start, wp_end;
	/*
	 * What sys_enter has to look at before the call, tested as one word
	 * (enter_work) on every call.  sig_pending: sig_recs or sig_lost has
	 * something (the signal probe sets it, fr_sc_flush_signal clears it);
	 * held_done: the held call's work ran, let it through once;
	 * restart_pending: a syscall returned -ERESTART*, and the next entry
	 * restarts it or the program saw EINTR (restart_ip); pt_pending: its
	 * tracer changed it in a ptrace stop (ptrace.c).
	 */
	union {
		struct {
			bool sig_pending;
			bool held_done;
			bool restart_pending;
			bool pt_pending;
		};
		u32 enter_work;
	};
	u64 restart_ip;
	/*
	 * What the tracer changed while the thread was in a ptrace stop
	 * (ptrace.c, fr_pt_note): FLIGHTREC_PT_* flags, the stop's kind, rip
	 * when the stop began, the memory it wrote (struct fr_pt_write).
	 * Under pt_lock (irqsave: the signal probe takes it with IRQs off);
	 * the thread makes its FLIGHTREC_NR_PTRACE record of them
	 * (fr_sc_ptrace) at its next syscall entry, signal delivery or
	 * return to user space.
	 */
	spinlock_t pt_lock;
	bool pt_poking;		/* a PTRACE_POKE* runs: not noted twice */
	u8 pt_flags;
	u8 pt_stop;
	u32 pt_bytes;
	u64 pt_ip0;
	struct list_head pt_writes;
	/*
	 * Stopped at a boundary (interval.c): set by the thread in its
	 * task_work before it blocks on work_lock, cleared by it before it
	 * releases work_lock; stop_ctx is its context from then (or NULL once
	 * a boundary took it).  Both under proc->lock.
	 */
	bool stopped;
	struct fr_thread_ctx *stop_ctx;
	u32 kick_seq;			/* proc->stop_seq of its last kick */
	atomic_t kick_pending;		/* a TWA_SIGNAL kick not run yet */
	/*
	 * A TWA_SIGNAL work of ours is queued and has not run: an EINTR at
	 * sys_exit with no real signal pending is ours (fr_sc_eintr_ours).
	 */
	bool sig_kicked;
	/*
	 * Its connect failed with an EINTR of ours, made a restart: the
	 * restarted call's -EALREADY is the first one's -EINPROGRESS
	 * (fr_connect_exit).  The thread's own.
	 */
	bool connect_kicked;
	/* signals: delivered at sig_ip right after a syscall, or in user code */
	bool sig_boundary;
	u64 sig_ip;
	/*
	 * Its last call failed with -ENOSYS: the ip after its syscall
	 * instruction; else 0 (fr_sc_pre_entry).
	 */
	u64 enosys_ip;
	bool tsc_trapped;		/* tsc.c: we set its TIF_NOTSC */
	/*
	 * Its log: the records it placed since its log was last taken into
	 * an interval (fr_log_take: at every cut, and whenever the open
	 * interval is read or goes away), with their count, bytes and the
	 * FLIGHTREC_IF_* flags they give the interval.  They belong to the
	 * open interval.  The thread's own while it sets log_busy and finds
	 * proc->cutting clear (fr_log_own), for every record: no lock and no
	 * cache line shared with the process's other threads per record
	 * (issue 28).  Anyone else reads or takes it under proc->lock with
	 * cutting set, once log_busy is clear (fr_logs_hold, fr_log_wait).
	 */
	u8 log_busy;
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	struct lockdep_map log_map;	/* log_busy, as lockdep sees it */
#endif
	struct list_head log;
	u32 log_nr, log_flags;
	size_t log_bytes;
	struct fr_arena *arena;		/* arena.c: records are cut from it */
	struct fr_arena *arena_big;	/* arena.c: and the big ones from it */
	u32 credit;			/* syscall.c: record bytes charged ahead */
	bool token_yield;		/* serial mode: asked to yield the token */
	refcount_t ref;			/* registry.c: fr_thread_get/put */
};

struct fr_proc {
	struct hlist_node hnode;	/* fr_procs, keyed by tgid */
	struct list_head lnode;		/* fr_proc_list */
	refcount_t ref;
	pid_t tgid;
	struct pid *pid;
	struct mm_struct *mm;		/* mmgrab()ed */
	u32 interval_ms, keep;
	bool at_exit;
	/*
	 * Serial mode (syscall.c): one thread at a time runs user code, the
	 * one that holds the token; it passes at syscall entry.
	 */
	bool serial;
	struct task_struct *token;	/* cmpxchg; NULL: free */
	struct task_struct *token_to;	/* handed over to it when it yields */
	wait_queue_head_t token_wq;
	spinlock_t lock;
	/*
	 * The threads' logs are held (fr_logs_hold, under lock): a cut is
	 * being made (fr_boundary), or the logs are being taken into an
	 * interval.  A thread then does not place a record, nor leave its
	 * call (in_sc), on its own (fr_log_own), but under lock (fr_log_put),
	 * so that what the holder read of every thread stays true until it
	 * lets go.
	 */
	bool cutting;
	struct list_head threads;	/* fr_thread.pnode, under lock */
	u32 nr_threads;
	struct list_head ring;		/* closed intervals, oldest first */
	u32 nr_ring;
	struct fr_interval *cur;	/* the open interval */
	/*
	 * A boundary's closed interval from the cut until it is in the ring
	 * (fr_ring_push): in no list meanwhile, but a thread inside a call
	 * at the cut before may still owe its XSAVE area to one of its
	 * contexts (fr_ctx_xsave_fill).  Under lock; NULL otherwise.
	 */
	struct fr_interval *closing;
	u32 next_index;
	atomic64_t seq;
	struct hrtimer timer;
	atomic_t boundary_gen;		/* bumped by the timer / dump */
	bool dying, frozen;
	/*
	 * Recording stopped where ptrace would lose access (the process
	 * became not dumpable): enum flightrec_stop_reason, set once, under
	 * proc->lock and work_lock, with dying (fr_proc_check_dumpable).
	 * The threads stay in the registry, ignored, until they exit.
	 */
	u32 stop_reason;
	u32 boundary_done_gen;		/* generation whose page walk ran */
	wait_queue_head_t stop_wq;	/* threads reporting in (fr_stop_report) */
	u32 stop_seq;			/* boundaries that stopped threads (work_lock) */
	/* a dump in progress (fr_dump_request waits for it) */
	u32 dump_req_id;
	int dump_err;
	struct completion *dump_done;
	bool at_exit_done;
	bool killed;		/* it ended by SIGKILL (the exit probe) */
	bool started;			/* fr_proc_start() ran */
	/*
	 * Replay across exec (interval.c, fr_exec_park): at an execve the
	 * ring is frozen into a dump of the old image, parked here (oldest
	 * first, fr_dump.node) until the next freeze publishes it in front of
	 * its own dump, or the new image's ring alone fills keep.  Parked,
	 * added and taken out under work_lock; the list, nr_exec_ivs and each
	 * one's intervals change under proc->lock too (the cap evicts them
	 * first, from any context).  exec_chain: an exec keeps the old image (false until the
	 * first exec when registered FLIGHTREC_A_START_AT_EXEC).
	 */
	bool exec_chain;
	struct list_head exec_dumps;
	u32 nr_exec_ivs;		/* intervals in exec_dumps */
	/* the thread whose execve parked the newest, until it returns */
	pid_t exec_parker;
	void __user *vdso_patched;	/* the vDSO base patched for time calls */
	/*
	 * registry.c: the MMU notifier that hears of accessed bits cleared
	 * by reclaim (fr_mn_ensure), proc's reference on it; changed under
	 * work_lock
	 */
	struct fr_mn *mn;
	struct mutex work_lock;		/* boundaries, freezes, stop */
	u32 dump_result;		/* id of the dump the request produced */
	struct work_struct exit_work;	/* teardown after the last thread exits */
	struct work_struct free_work;	/* registry.c: the last put's mmdrop() */
	/* counters shown in status */
	u64 nr_syscalls, lost, dropped, lost_pages, nr_dumps;
	/* boundaries made, and the time their page walks took (work_lock) */
	u64 nr_boundaries, boundary_ns, boundary_max_ns;
	/*
	 * The last periodic boundary's start and end (CLOCK_MONOTONIC;
	 * written under work_lock, read by the timer without locks): the
	 * timer asks for no boundary while one is being made, nor within
	 * twice its duration of its end (fr_timer_may_cut).
	 */
	u64 cut_start_ns, cut_end_ns;
	struct rcu_head rcu;		/* registry.c: freed after a grace period */
};

/* registry.c */
extern struct mutex fr_registry_lock;
extern struct list_head fr_proc_list;
extern atomic_t fr_nr_threads;
int fr_register(pid_t pid, u32 interval_ms, u32 keep, bool at_exit,
		bool serial, bool follow, bool start_at_exec,
		struct netlink_ext_ack *extack);
int fr_yama_scope(void);	/* Yama's ptrace_scope, 0 without Yama */
int fr_unregister(pid_t pid, struct netlink_ext_ack *extack);
#define FR_THREADS_BITS	10
extern struct hlist_head fr_threads[1 << FR_THREADS_BITS];	/* by task */

/*
 * The thread of @task, or NULL.  Under RCU (a probe's preempt-disabled
 * section counts).  Inline: every syscall of a recorded thread makes two.
 */
static inline struct fr_thread *fr_thread_find(struct task_struct *task)
{
	struct fr_thread *thr;

	if (likely(!atomic_read(&fr_nr_threads)))
		return NULL;
	hash_for_each_possible_rcu(fr_threads, thr, hnode, (unsigned long)task)
		if (thr->task == task)
			return thr;
	return NULL;
}

/*
 * The thread of current, from the syscall probes (preemption off), where
 * every call of a recorded thread makes two lookups.  Each CPU keeps the
 * last thread that one of them found (fr_cpu_thread): a thread that stays
 * on its CPU is found with one load and one compare, not a bucket walk.  A
 * slot never outlives its thread: the slow path caches a thread only while
 * it is hashed, and fr_thread_unhash() clears every slot that holds the
 * thread it takes out (fr_thread_uncache), before its grace period.
 */
/*
 * A thread's log without a lock (issue 28): the thread sets t->log_busy,
 * then reads proc->cutting; a holder (proc->lock held) sets cutting, then
 * reads log_busy.  With a full barrier between each one's write and read,
 * at least one sees the other's write: either the thread finds cutting
 * set and does its work under proc->lock, or the holder finds it busy and
 * waits until it is done.  The thread's side runs with preemption off, so
 * a holder spinning under proc->lock waits for a thread that is running.
 * Only the thread itself (current) places records into its log.
 */
static __always_inline bool fr_log_own(struct fr_thread *t)
{
	WRITE_ONCE(t->log_busy, 1);
	smp_mb();	/* busy before cutting: pairs with fr_logs_hold() */
	/* and a last holder's work on the log before ours: fr_logs_unhold() */
	if (likely(!smp_load_acquire(&t->proc->cutting))) {
#ifdef CONFIG_DEBUG_LOCK_ALLOC
		lock_map_acquire(&t->log_map);
#endif
		return true;
	}
	WRITE_ONCE(t->log_busy, 0);	/* nothing done: nothing to order */
	return false;	/* held: under proc->lock */
}

/* The end of fr_log_own(): what the thread wrote before, a holder sees. */
static __always_inline void fr_log_disown(struct fr_thread *t)
{
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	lock_map_release(&t->log_map);
#endif
	/* the log's writes before the clear: pairs with fr_log_wait() */
	smp_store_release(&t->log_busy, 0);
}

bool fr_logs_hold(struct fr_proc *proc);
void fr_logs_unhold(struct fr_proc *proc, bool held);
void fr_log_wait(struct fr_thread *t);

DECLARE_PER_CPU(struct fr_thread *, fr_cpu_thread);
struct fr_thread *fr_thread_current_slow(void);

static __always_inline struct fr_thread *fr_thread_current(void)
{
	struct fr_thread *thr = this_cpu_read(fr_cpu_thread);

	if (likely(thr && thr->task == current))
		return thr;
	/* nothing recorded (every slot is clear): no call */
	if (!atomic_read(&fr_nr_threads))
		return NULL;
	return fr_thread_current_slow();
}

/*
 * Marks the open interval, if there is one, with FLIGHTREC_IF_* @flags:
 * what it lost, what it cannot vouch for.  Takes proc->lock.
 */
static inline void fr_cur_flag(struct fr_proc *proc, u32 flags)
{
	spin_lock(&proc->lock);
	if (proc->cur)
		proc->cur->flags |= flags;
	spin_unlock(&proc->lock);
}

struct fr_proc *fr_proc_get(pid_t pid);	/* with a reference, or NULL */
void fr_proc_put(struct fr_proc *proc);
int fr_thread_add(struct fr_proc *proc, struct task_struct *task);
void fr_thread_remove(struct task_struct *task);
int fr_registry_init(void);
void fr_registry_exit(void);

/* procfs.c */
int fr_procfs_init(void);
void fr_procfs_exit(void);
int fr_ctl_exec(char *line, struct netlink_ext_ack *extack);

/* netlink.c */
int fr_netlink_init(void);
void fr_netlink_exit(void);
void fr_nl_event(u32 event, pid_t pid, u32 dump_id);
void fr_nl_event_stop(u32 event, pid_t pid, u32 dump_id, u32 reason);

/* syscall.c */
int fr_syscall_init(void);
void fr_syscall_exit(void);
void fr_syscall_track(struct fr_proc *proc);

/* arena.c */
#define FR_REC_CHUNKED	(64U << 10)	/* bigger records are allocated alone */
#define FR_SMALL_SIZE	8192		/* a chunk of small records */
#define FR_SMALL_MAX	1024		/* the biggest record cut from one */

struct fr_arena_class;

struct fr_arena {
	atomic_t ref;
	u32 used;
	u32 nrec;			/* records cut; the thread's */
	struct fr_arena_class *class;
	struct list_head pool;		/* in class->pool when free */
	u8 data[] __aligned(8);
};

int fr_arena_init(void);
void fr_arena_exit(void);
struct fr_sc_rec *fr_rec_alloc(struct fr_thread *t, size_t size, gfp_t gfp);

/* A record of @size bytes (aligned) from chunk @a, which has room for it. */
static __always_inline struct fr_sc_rec *fr_arena_cut(struct fr_arena *a,
						      size_t size)
{
	struct fr_sc_rec *rec = (struct fr_sc_rec *)(a->data + a->used);

	a->used += size;
	a->nrec++;
	rec->arena = a;
	return rec;
}

/*
 * fr_rec_alloc(t, size, GFP_NOWAIT) for a small record: inline, as the
 * syscall probe makes one per call, while the thread's chunk has room.
 */
static __always_inline struct fr_sc_rec *
fr_rec_alloc_small(struct fr_thread *t, size_t size)
{
	struct fr_arena *a = t->arena;

	size = ALIGN(size, 8);
	if (unlikely(!a || size > FR_SMALL_MAX ||
		     a->used + size > FR_SMALL_SIZE - sizeof(*a)))
		return fr_rec_alloc(t, size, GFP_NOWAIT);
	return fr_arena_cut(a, size);
}
struct fr_sc_rec *fr_rec_alloc_alone(size_t size, gfp_t gfp);
void fr_sc_rec_free(struct fr_sc_rec *rec);
void fr_sc_recs_free(struct list_head *list);
void *fr_page_alloc(gfp_t gfp);	/* a page copy's bytes (arena.c) */
void fr_page_free(void *data);
void fr_kvfree(const void *p);
void fr_thread_arena_drop(struct fr_thread *t);
u64 fr_arena_pooled_bytes(void);
void fr_arena_enforce_cap(void);

/* memory.c */
int fr_memory_init(void);
void fr_memory_exit(void);
void fr_mem_rewrprotect(struct fr_proc *proc, unsigned long start,
			unsigned long end);
void fr_mem_boundary(struct fr_proc *proc, struct fr_interval *closed,
		     struct fr_interval *next);
int fr_mem_resolve(struct fr_dump *dump, struct mm_struct *mm);
bool fr_mem_nodump(const struct fr_dump *dump, unsigned long idx);
bool fr_mem_nodump_range(const struct fr_dump *dump, unsigned long first,
			 unsigned long last);

/* interval.c */
struct fr_interval *fr_interval_new(struct fr_proc *proc, gfp_t gfp);

/*
 * A record's time stamp (its call's entry): the TSC, unless the kernel
 * had found it unstable when the module loaded (fr_tsc_stamps, set once in
 * fr_interval_init), a few instructions where ktime_get_ns() takes about
 * 40 (issue 28, item 2); else ktime_get_ns() itself.  fr_stamp_ns() makes it CLOCK_MONOTONIC when
 * the record is read, from the pairs its interval took at its ends.
 */
DECLARE_STATIC_KEY_FALSE(fr_tsc_stamps);

static __always_inline u64 fr_stamp(void)
{
	if (static_branch_likely(&fr_tsc_stamps))
		return rdtsc();
	return ktime_get_ns();
}

u64 fr_stamp_ns(const struct fr_interval *iv, u64 stamp);
void fr_interval_free(struct fr_interval *iv);
void fr_proc_start(struct fr_proc *proc);
void fr_proc_stop(struct fr_proc *proc);
void fr_boundary_request(struct fr_proc *proc);
int fr_dump_request(pid_t pid, u32 *dump_id, struct netlink_ext_ack *extack);
void fr_dump_free(struct fr_dump *dump);
struct fr_dump *fr_dump_get(u32 id);	/* with a reference, or NULL */
void fr_dump_put(struct fr_dump *dump);
int fr_dump_release(u32 id);
extern spinlock_t fr_dumps_lock;
/* fr_thread.twork_queued: a struct fr_twork is being added, or is queued */
#define FR_TW_ADDING	2
#define FR_TW_QUEUED	1
bool fr_twork_queue(struct fr_thread *t, enum task_work_notify_mode mode);
int fr_interval_init(void);
void fr_interval_exit(void);
extern struct list_head fr_dumps;

/* trigger.c */
int fr_trigger_init(void);
void fr_trigger_exit(void);

/* more of syscall.c, interval.c, memory.c */
void fr_sc_finish_slow(struct fr_thread *t);
void fr_sc_hash_in_full(struct fr_thread *t);
bool fr_sc_held_work(struct fr_proc *proc, struct fr_thread *t);
void fr_mem_unretire_held(struct fr_proc *proc, struct fr_interval *iv);
bool fr_sc_is_exit(u32 nr);
void fr_sc_record_held_exit(struct fr_thread *t);
void fr_sc_settle(struct fr_thread *t);
void fr_sc_ctx_fix(struct fr_thread *t, struct fr_thread_ctx *ctx);
void fr_sc_unfinished(struct fr_proc *proc, struct fr_interval *iv);
void fr_log_take(struct fr_proc *proc, struct fr_thread *t,
		 struct fr_interval *iv, struct list_head *drop);
void fr_logs_take(struct fr_proc *proc, struct fr_interval *iv,
		  struct list_head *drop);
void fr_iv_sort(struct fr_interval *iv);
u32 fr_iv_new_before(struct fr_interval *iv, u64 seq);
void fr_ctx_in_syscall(struct fr_thread_ctx *ctx, u32 nr, u64 ip);
void fr_proc_exec_reset(struct fr_proc *proc);
bool fr_proc_check_dumpable(struct fr_proc *proc, struct fr_thread *t);
struct fr_thread_ctx *fr_ctx_capture(struct task_struct *task, gfp_t gfp);
void fr_ctx_xsave_fill(struct fr_thread *t, bool write);
void fr_mem_new_life(struct fr_proc *proc, unsigned long start, unsigned long end,
		     void (*fn)(void *arg, unsigned long addr, unsigned long len),
		     void *arg, bool clear);
void fr_mem_capture_range(struct fr_proc *proc, unsigned long start,
			  unsigned long end, struct file *newfile, u64 newoff);
void fr_mem_harvest_young(struct fr_proc *proc, unsigned long start,
			  unsigned long end);
void fr_mem_ctx_insn(struct fr_proc *proc, struct fr_interval *iv,
		     struct mm_struct *mm, const struct fr_thread_ctx *ctx);
void fr_mem_young_cleared(struct fr_proc *proc, unsigned long start,
			  unsigned long end);
int fr_mn_ensure(struct fr_proc *proc, struct mm_struct *mm);
void fr_mn_detach(struct fr_proc *proc);
/* page sets: 32 pages per entry of an interval's acc (a value entry) */
#define FR_ACC_SHIFT	5
#define FR_ACC_BITS	(1U << FR_ACC_SHIFT)
void *fr_pageset_find(struct fr_interval *iv, unsigned long *idx);
bool fr_pageset_has(struct fr_interval *iv, unsigned long idx);
const void *fr_mem_page_bytes(struct fr_dump *dump, struct fr_interval *iv,
			      unsigned long idx, bool *zero);
void fr_sysinfo_cpuid(struct flightrec_cpuid_leaf *leaves, u32 *n, u32 max);

void fr_serial_wait(struct fr_proc *proc);
void fr_serial_exit(struct fr_proc *proc, struct task_struct *task);
void fr_sc_record_event(struct fr_thread *t, u32 nr, const u64 *args, s64 ret,
			const void *out0, u32 len0, const void *out1, u32 len1);
void fr_sc_flush_signal(struct fr_thread *t);
void fr_sc_ptrace(struct fr_thread *t, u32 at);
struct fr_sc_rec *fr_sc_ptrace_build(struct fr_thread *t, u32 at);

/* ptrace.c: what the tracer of a recorded thread changes in it */
struct fr_pt_write {
	struct list_head node;
	u64 addr;
	u32 len;
	u8 data[];
};
int fr_ptrace_init(void);
void fr_ptrace_exit(void);
void fr_pt_drop(struct fr_thread *t);
void fr_pt_forget(struct fr_thread *t);
struct task_struct *fr_pt_tracee_of(struct mm_struct *mm);
struct k_sigaction;
void fr_sc_signal(struct fr_thread *t, int sig, struct kernel_siginfo *info,
		  struct k_sigaction *ka);

/* tsc.c: rdtsc and rdtscp of recorded threads */
void fr_tsc_own(struct fr_thread *t);
void fr_tsc_inherit(struct fr_thread *t, bool parent_trapped);
bool fr_tsc_parent_ours(struct task_struct *parent, struct fr_thread *t);
void fr_tsc_fork(struct task_struct *parent, struct fr_thread *t,
		 struct task_struct *child, bool tracked);
void fr_tsc_disown_current(void);
void fr_tsc_prctl_set(struct fr_thread *t, unsigned long mode);
void fr_tsc_release(struct fr_thread *t);
bool fr_tsc_trapped(struct task_struct *task, int sig,
		    struct kernel_siginfo *info);
void fr_tsc_untrap_stopped(struct task_struct *task);
void fr_tsc_init(void);
void fr_tsc_exit(void);
/* trigger.c: a fatal signal the probe left for a task_work to judge */
void fr_fault_deferred(int sig);
void fr_kill_pending(struct fr_thread *t);

/*
 * twork.c: every task_work of the module is a struct fr_tw, the first member
 * of a kmalloc'd object whose callback frees it; unload orphans those that
 * a stopped task would run too late (fr_tw_drain).
 */
struct fr_tw;
typedef void (*fr_tw_fn)(struct fr_tw *w);
struct fr_tw {
	struct callback_head cb;	/* first: an orphan is kfree(&cb)'d */
	struct list_head node;		/* twork.c's list until it runs */
	struct task_struct *task;	/* queued on it */
	fr_tw_fn fn;			/* in task; frees the object */
	fr_tw_fn orphan;		/* unload, stop_machine(): it will not run */
};
int __fr_tw_add(struct task_struct *task, struct fr_tw *w, fr_tw_fn fn,
		fr_tw_fn orphan, enum task_work_notify_mode mode);
/* obj: a pointer to a struct whose first member is struct fr_tw tw */
#define fr_tw_add(task, obj, fn, orphan, mode) ({			\
	BUILD_BUG_ON(offsetof(typeof(*(obj)), tw) != 0);		\
	__fr_tw_add(task, &(obj)->tw, fn, orphan, mode);		\
})
void fr_tw_drain(void);

/* vdso.c */
int fr_vdso_patch(struct fr_proc *proc);

/* buildid.c */
void fr_dump_build_ids(struct fr_dump *dump, struct mm_struct *mm);
void fr_dump_late_build_ids(struct fr_dump *dump);
void fr_dump_put_bid_files(struct fr_dump *dump);
ssize_t fr_file_read_cached(struct file *f, void *buf, size_t len, loff_t pos);

/* dump.c: netlink serialisation of frozen dumps */
int fr_nl_get_dump(struct sk_buff *skb, struct netlink_callback *cb);
int fr_nl_get_dump_done(struct netlink_callback *cb);
int fr_nl_get_records(struct sk_buff *skb, struct netlink_callback *cb);
int fr_nl_get_records_done(struct netlink_callback *cb);

/*
 * More of registry.c.
 *
 * Lifetime.  The registry holds one reference on a registered proc (dropped
 * at unregistration); every fr_thread holds one on its proc and one on its
 * task.  A thread has its own count, thr->ref: one for the thread hash, one
 * for each holder that may outlive its removal (fr_thread_get/put).  The
 * last put frees it after an RCU grace period and only then drops the proc
 * reference: a probe that found a thread with fr_thread_find() may use it and
 * thr->proc until it leaves its RCU read-side section.  The last proc put
 * (any context) drops mm and pid and frees the proc after a grace period.
 * Whatever hangs off a thread (sc_pending, ...) must be freed by its owner
 * before the last put.
 *
 * Threads.  fr_thread_add() and fr_thread_remove() may be called from any
 * context (probes: GFP_ATOMIC, irqsave locks).  fr_thread_add() returns 0
 * when the task is recorded (also when it already was), -ESRCH when the proc
 * is dying or the task exiting, -ENOMEM.  proc->threads is an RCU list:
 * readers may walk it under rcu_read_lock(); writers hold proc->lock.
 * fr_thread_remove() of a task not recorded does nothing.
 *
 * Exit.  When the last thread of a proc is removed, a work item drops the
 * proc as fr_unregister() would and, unless proc->at_exit_done, announces
 * FLIGHTREC_EVENT_EXIT (pid of the initial namespace, no dump id).
 *
 * Registration (fr_register), under fr_registry_lock: proc allocated, its
 * threads added (probes can see them, proc->started is false), then
 * fr_proc_start(), then the proc is linked into fr_proc_list and the pid hash
 * (fr_proc_get can find it).  Unregistration (fr_unregister, exit, unload),
 * under fr_registry_lock: proc->dying set (fr_thread_add refuses), unlinked,
 * fr_proc_stop(), its threads removed, the registry reference dropped.
 * PIDs given to fr_register/fr_unregister/fr_proc_get are in the caller's pid
 * namespace; proc->tgid is in the initial one (events), thr->tid in the
 * recorded process's own (records, like its contexts and end record).
 */
extern u32 fr_registry_gen;		/* bumped at each (un)registration */
extern atomic_t fr_live_procs;		/* allocated fr_proc, for status */
extern atomic_t fr_live_threads;	/* allocated fr_thread, for status */
void fr_thread_get(struct fr_thread *thr);
void fr_thread_put(struct fr_thread *thr);
void fr_unregister_all(void);		/* unload: before the parts' exits */
pid_t fr_proc_vpid(struct fr_proc *proc);	/* caller's ns, 0 if unseen */

struct fr_proc_stats {
	pid_t pid;			/* in the caller's pid namespace */
	char comm[TASK_COMM_LEN];
	u32 interval_ms, keep, nr_threads, nr_ring;
	bool at_exit, frozen, serial;
	u32 stop_reason;		/* enum flightrec_stop_reason */
	u64 nr_syscalls, lost, dropped, lost_pages, nr_dumps, bytes;
	u64 nr_boundaries, boundary_ns_avg, boundary_ns_max;
};
void fr_proc_stats(struct fr_proc *proc, struct fr_proc_stats *st);

#endif /* _FLIGHTREC_H */
