/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * flightrec: the kernel-user contract (generic netlink family "flightrec").
 *
 * This header is the only definition of the ABI.  The module and the userspace
 * tools both include it.  Rules for evolving it:
 *   - enums only grow at the end, just before their __*_MAX entry;
 *   - an attribute never changes type or meaning; a new meaning is a new attribute;
 *   - FLIGHTREC_ABI_VERSION is bumped on any incompatible change; the tools refuse
 *     a module whose ABI version differs from theirs.
 *
 * Every record the module hands over is one netlink message carrying
 * FLIGHTREC_A_REC_TYPE and the attributes listed for that record type.
 */
#ifndef _UAPI_LINUX_FLIGHTREC_H
#define _UAPI_LINUX_FLIGHTREC_H

#include <linux/types.h>

#define FLIGHTREC_GENL_NAME		"flightrec"
#define FLIGHTREC_ABI_VERSION		1
/*
 * The family's version (CTRL_ATTR_VERSION of its lookup) is the ABI version:
 * a tool that finds its own there needs no GET_VERSION round trip.
 */
#define FLIGHTREC_GENL_VERSION		FLIGHTREC_ABI_VERSION
#define FLIGHTREC_MCGRP_EVENTS		"events"

/* Limits shared by the control file, netlink and the tools. */
#define FLIGHTREC_INTERVAL_MS_MIN	10
#define FLIGHTREC_INTERVAL_MS_MAX	60000
#define FLIGHTREC_KEEP_MIN		1
#define FLIGHTREC_KEEP_MAX		64
#define FLIGHTREC_CTL_LINE_MAX		4096

enum flightrec_cmd {
	FLIGHTREC_CMD_UNSPEC,
	FLIGHTREC_CMD_GET_VERSION,	/* do: reply ABI_VERSION, VERSION */
	FLIGHTREC_CMD_REGISTER,		/* do: PID, [INTERVAL_MS], [KEEP], [AT_EXIT] */
	FLIGHTREC_CMD_UNREGISTER,	/* do: PID */
	FLIGHTREC_CMD_LIST,		/* dump: one PROC message per registered process */
	FLIGHTREC_CMD_DUMP,		/* do: PID; freezes the ring; reply DUMP_ID */
	FLIGHTREC_CMD_GET_DUMP,		/* dump: DUMP_ID; the records of a frozen dump */
	FLIGHTREC_CMD_RELEASE_DUMP,	/* do: DUMP_ID; frees a frozen dump */
	FLIGHTREC_CMD_GET_RECORDS,	/* dump: PID; syscall records of the live ring */
	FLIGHTREC_CMD_EVENT,		/* multicast "events": EVENT, PID, [DUMP_ID] */
	FLIGHTREC_CMD_RECORD,		/* reply messages of GET_DUMP / GET_RECORDS */
	FLIGHTREC_CMD_PROC,		/* reply messages of LIST */
	FLIGHTREC_CMD_LIST_DUMPS,	/* dump: one message per frozen dump: DUMP_ID, PID,
					 * PPID, COMM, END_KIND, BYTES, [SIGNO] */

	__FLIGHTREC_CMD_MAX,
};
#define FLIGHTREC_CMD_MAX (__FLIGHTREC_CMD_MAX - 1)

enum flightrec_event {
	FLIGHTREC_EVENT_UNSPEC,
	FLIGHTREC_EVENT_INTERVAL,	/* an interval closed */
	FLIGHTREC_EVENT_FAULT,		/* a fatal signal froze the ring: DUMP_ID */
	FLIGHTREC_EVENT_DUMP,		/* a manual dump froze a copy: DUMP_ID */
	FLIGHTREC_EVENT_EXIT,		/* a registered process exited; [DUMP_ID] with at_exit */
	FLIGHTREC_EVENT_DROP,		/* the cap dropped the oldest interval */
	FLIGHTREC_EVENT_STOPPED,	/* recording of PID stopped, or a followed child was
					 * not recorded: STOP_REASON says why */
	__FLIGHTREC_EVENT_MAX,
};

enum flightrec_rec_type {
	FLIGHTREC_REC_UNSPEC,
	FLIGHTREC_REC_PROCESS,	/* PID, PPID, COMM, EXE, CMDLINE, AUXV, PERSONALITY, [PREV_DUMP] */
	FLIGHTREC_REC_INTERVAL,	/* INTERVAL, START_NS, END_NS, FLAGS, NR_SYSCALLS, LOST */
	FLIGHTREC_REC_MAP,	/* INTERVAL, START, END, PROT, MAP_FLAGS, PGOFF, INODE, DEV, PATH */
	FLIGHTREC_REC_THREAD,	/* INTERVAL, TID, REGS, XSAVE, FS_BASE, GS_BASE, SIGMASK, ... */
	FLIGHTREC_REC_PAGE,	/* INTERVAL, ADDR, PAGE_FLAGS, [DATA] */
	FLIGHTREC_REC_SYSCALL,	/* INTERVAL, SEQ, TID, NR, ARGS, RET, SC_FLAGS, [OUT]* */
	FLIGHTREC_REC_SIGACTION,/* INTERVAL, SIGNO, HANDLER, SA_FLAGS, RESTORER, SA_MASK */
	FLIGHTREC_REC_END,	/* END_KIND, TID, [SIGNO, SI_CODE, FAULT_ADDR, REGS, XSAVE], EXIT_CODE */
	FLIGHTREC_REC_SYSINFO,	/* UNAME, CPUID, XCR0 */
	/*
	 * SEQ, TID, OUT (with OUT_INDEX, OUT_LEN, OUT_OFFSET): a piece of an
	 * out-buffer of the SYSCALL record with that SEQ just before it.  When
	 * a record's out-buffers add up to more than FLIGHTREC_OUT_CHUNK bytes,
	 * the SYSCALL message carries no OUT and all of them follow in pieces
	 * of at most FLIGHTREC_OUT_CHUNK bytes, in order.
	 */
	FLIGHTREC_REC_OUT_CHUNK,
	/*
	 * CMDLINE, CMDLINE_OFFSET: a piece of the command line of the PROCESS
	 * record just before.  A command line longer than
	 * FLIGHTREC_OUT_CHUNK bytes does not fit one message: the PROCESS
	 * record then carries CMDLINE_LEN (its whole length) and no CMDLINE,
	 * and all of it follows in CMDLINE_CHUNK records of at most
	 * FLIGHTREC_OUT_CHUNK bytes, in order.
	 */
	FLIGHTREC_REC_CMDLINE_CHUNK,
	/*
	 * LOST, DROPPED: the last message of GET_RECORDS, what the read of a
	 * live ring could not give.  LOST: records it left out because they
	 * were placed after it had passed their place (another thread's
	 * call, numbered at its entry, that returned meanwhile).  DROPPED:
	 * intervals the ring dropped (or gave to a dump) before it had read
	 * all of them.  The records made after the request are not counted:
	 * they are not part of the read.
	 */
	FLIGHTREC_REC_LIVE_END,
	__FLIGHTREC_REC_MAX,
};

/* FLIGHTREC_A_END_KIND */
enum flightrec_end_kind {
	FLIGHTREC_END_UNSPEC,
	FLIGHTREC_END_FAULT,	/* a fatal signal */
	FLIGHTREC_END_DUMP,	/* a manual dump */
	FLIGHTREC_END_EXIT,	/* the process exited (at_exit) */
	/*
	 * The process called execve: the image before it, parked at the
	 * call and published as the PREV_DUMP of the new image's next dump
	 * (never announced on its own).  The end's registers are at the
	 * syscall instruction, rax the call's number.
	 */
	FLIGHTREC_END_EXEC,
};

/*
 * FLIGHTREC_A_STOP_REASON: why recording of a process stopped where ptrace
 * would lose access to it (docs/security.md, "Who may record").  Its ring is
 * dropped; it stays listed (LIST, status) until it exits or is unregistered,
 * and DUMP of it fails with EPERM.
 */
enum flightrec_stop_reason {
	FLIGHTREC_STOP_NONE,
	FLIGHTREC_STOP_EXEC_CREDS,	/* an exec changed credentials: set-user-ID,
					 * set-group-ID or file capabilities */
	FLIGHTREC_STOP_NOT_DUMPABLE,	/* the process became not dumpable:
					 * PR_SET_DUMPABLE 0, a set*id or capset call */
	FLIGHTREC_STOP_YAMA,		/* a followed child: Yama ptrace_scope is 3 */
	FLIGHTREC_STOP_SIGKILL,		/* an at_exit process killed by SIGKILL: it runs
					 * no more code, nothing froze its ring (sent
					 * as it is reaped, before its EXIT event; for
					 * a followed child killed before its first
					 * instruction, as it dies) */
};

/* FLIGHTREC_A_PAGE_FLAGS */
#define FLIGHTREC_PAGE_DATA	0x1	/* DATA holds the bytes as of the interval start */
#define FLIGHTREC_PAGE_ZERO	0x2	/* the page was zero (new anonymous memory) */
#define FLIGHTREC_PAGE_WRITTEN	0x4	/* the page was written in the interval */
#define FLIGHTREC_PAGE_LATER	0x8	/* bytes are those of a later interval start (no write since) */

/* FLIGHTREC_A_INTERVAL_FLAGS: why an interval may not replay */
#define FLIGHTREC_IF_LOST_RECORD	0x1	/* a syscall record was lost */
#define FLIGHTREC_IF_UNKNOWN_SYSCALL	0x2	/* a syscall with unknown out-semantics */
#define FLIGHTREC_IF_LOST_PAGE		0x4	/* an original page copy could not be kept */
#define FLIGHTREC_IF_GUP_WRITE		0x8	/* memory written behind the tracker's back */
#define FLIGHTREC_IF_PARTIAL		0x10	/* the interval is the one still open at the dump */
#define FLIGHTREC_IF_TWO_LIVES		0x20	/* an address was unmapped and used again in it:
						 * its page set holds the first life's bytes */
#define FLIGHTREC_IF_PREEMPTED		0x100	/* serial mode: a thread was made to yield in
						 * user code (not at a syscall): its
						 * FLIGHTREC_NR_PREEMPT record says where */
#define FLIGHTREC_IF_ASYNC_SIGNAL	0x40	/* a signal interrupted user code between
						 * syscalls: replay must find the instruction */
#define FLIGHTREC_IF_THREAD_LATE	0x80	/* a thread did not stop at the interval start
						 * in time: its context is from a little later */
#define FLIGHTREC_IF_FOREIGN_SYSCALL	0x200	/* a 32-bit (int $0x80) syscall of the
						 * 64-bit process: not recorded */
#define FLIGHTREC_IF_LOST_STATE		0x400	/* part of the start state could not be kept
						 * (no memory): the memory map or a file's
						 * path, a thread's registers or XSAVE area */
#define FLIGHTREC_IF_SERIAL		0x800	/* recorded in serial mode: the threads ran
						 * user code one at a time (not a reason the
						 * interval may not replay) */

/*
 * Records that are not syscalls travel in the syscall stream (SYSCALL
 * records, and Syscall entries of a checkpoint), numbered from the same
 * per-process sequence, with NR one of these (above every syscall number of
 * the table; a program's own call of one of them is told apart below).
 *
 * FLIGHTREC_NR_SIGNAL: a signal delivered to a handler of the thread.
 *   ARGS[0] signo, [1] si_code, [2] the syscall it came out of (orig_rax, or
 *   -1 when it interrupted user code), [3] rax at delivery (that syscall's
 *   result, -ERESTART* included, before the kernel's restart handling),
 *   [4] rip at delivery (before the restart's rewind), [5] FLIGHTREC_SIG_*.
 *   RET 0.  OUT arg 0 (address 0): the siginfo, 128 bytes.  OUT arg 1
 *   (address 0), with FLIGHTREC_SIG_IN_USER only: struct user_regs_struct
 *   of the interrupted user code.  OUT arg 2 (when the kernel wrote one):
 *   the handler's signal frame as the kernel left it, from the handler's
 *   stack pointer (its address) to the end of the frame's FPU state.
 * FLIGHTREC_NR_RDTSC: an rdtsc or rdtscp the thread executed (trapped with
 *   CR4.TSD).  ARGS[0] TSC_AUX (rcx of rdtscp), [1] instruction length (2:
 *   rdtsc, 3: rdtscp), [4] rip of the instruction.  RET the 64-bit TSC.
 * FLIGHTREC_NR_PREEMPT: serial mode (FLIGHTREC_A_SERIAL) made the thread
 *   yield the token in user code, not at a syscall (it held it too long
 *   while another thread waited): its user code up to here ran before the
 *   records numbered after this one, the rest after its next turn.  ARGS[4]
 *   rip.  RET 0.  OUT arg 0 (address 0): struct user_regs_struct of the
 *   interrupted user code, where replay stops the thread.  The interval is
 *   flagged FLIGHTREC_IF_PREEMPTED.
 * FLIGHTREC_NR_PTRACE: the thread's tracer (ptrace) changed it while it was
 *   stopped: its registers (PTRACE_SETREGS, _POKEUSER, _SETREGSET
 *   NT_PRSTATUS, _ARCH_PRCTL) or its memory (PTRACE_POKEDATA, _POKETEXT, a
 *   write to /proc/PID/mem by the tracer of a stopped thread).  Made where
 *   the thread goes on: ARGS[0] FLIGHTREC_PT_AT_* (where replay applies
 *   it), [1] FLIGHTREC_PT_STOP_* (the stop it was made in), [2]
 *   FLIGHTREC_PT_* flags, [3] rip when the stop began, [4] rip as the
 *   tracer left it.  RET 0.  OUT arg 0
 *   (address 0), with FLIGHTREC_PT_REGS: struct user_regs_struct as the
 *   tracer left them, but fs_base and gs_base (0: a change of those is
 *   FLIGHTREC_PT_OTHER).  OUT arg 1, one per write in the order made: the bytes
 *   written, at their address.
 *
 * Every syscall instruction is recorded with its number, whatever it is (the
 * low 32 bits of rax, as the kernel reads them): one outside the table, an
 * x32 one, -1.  A program may call 0x10000 to 0x10003 itself: that record
 * has FLIGHTREC_SC_REAL_NR, and FLIGHTREC_IS_EVENT() tells the two apart.
 */
#define FLIGHTREC_NR_SIGNAL		0x10000
#define FLIGHTREC_NR_RDTSC		0x10001
#define FLIGHTREC_NR_PREEMPT		0x10002
#define FLIGHTREC_NR_PTRACE		0x10003
#define FLIGHTREC_NR_EVENT_FIRST	FLIGHTREC_NR_SIGNAL
#define FLIGHTREC_NR_EVENT_LAST		FLIGHTREC_NR_PTRACE

/* whether a record of NR and FLIGHTREC_SC_* FLAGS is the event EV (above) */
#define FLIGHTREC_IS_EVENT(nr, flags, ev) \
	((nr) == (ev) && !((flags) & FLIGHTREC_SC_REAL_NR))

/* ARGS[5] of FLIGHTREC_NR_SIGNAL */
#define FLIGHTREC_SIG_SYNC		0x1	/* raised by the instruction at rip (a fault) */
#define FLIGHTREC_SIG_IN_USER		0x2	/* interrupted user code, not at a syscall */
#define FLIGHTREC_SIG_RESTART		0x4	/* the syscall of ARGS[2] is re-executed after
						 * the handler (rip rewound by 2, rax = nr) */
#define FLIGHTREC_SIG_EINTR		0x8	/* the syscall of ARGS[2] returned -EINTR (its
						 * record comes just before this one) */

/* ARGS[0] of FLIGHTREC_NR_PTRACE: where it is placed */
#define FLIGHTREC_PT_AT_ENTRY		1	/* at the thread's next syscall entry, before its
						 * record (number and arguments as the tracer
						 * left them) */
#define FLIGHTREC_PT_AT_SIGNAL		2	/* before the signal record that follows */
#define FLIGHTREC_PT_AT_RESUME		3	/* as the thread returns to user space */
/* ARGS[1] of FLIGHTREC_NR_PTRACE: the stop */
#define FLIGHTREC_PT_STOP_SC_ENTRY	1	/* syscall-entry stop (PTRACE_SYSCALL) */
#define FLIGHTREC_PT_STOP_SC_EXIT	2	/* syscall-exit stop */
#define FLIGHTREC_PT_STOP_OTHER		3	/* signal-delivery, event or group stop */
/* ARGS[2] of FLIGHTREC_NR_PTRACE */
#define FLIGHTREC_PT_REGS		0x1	/* registers changed: OUT arg 0 holds them */
#define FLIGHTREC_PT_FPU		0x2	/* the FPU/XSAVE state changed: not recorded */
#define FLIGHTREC_PT_OTHER		0x4	/* debug registers, the fs or gs base, TLS
						 * or the signal mask changed: not recorded */
#define FLIGHTREC_PT_LOST		0x8	/* a memory write could not be kept */
#define FLIGHTREC_PT_AT_SYSCALL		0x10	/* FLIGHTREC_PT_AT_RESUME: the thread returns
						 * from a syscall (its record comes just
						 * before), not to user code it was stopped in */

/* FLIGHTREC_A_SC_FLAGS */
#define FLIGHTREC_SC_UNKNOWN_OUT	0x1	/* out-semantics unknown: may not replay */
#define FLIGHTREC_SC_TRUNCATED		0x2	/* an out-buffer was cut at the size limit */
#define FLIGHTREC_SC_COPY_FAILED	0x4	/* an out-buffer could not be read (EFAULT) */
#define FLIGHTREC_SC_NO_RETURN		0x8	/* the syscall did not return (exit, execve ok) */
#define FLIGHTREC_SC_IN_HASH		0x10	/* IN_HASH: the data passed in, hashed at entry */
#define FLIGHTREC_SC_NODUMP		0x20	/* an out-buffer in VM_DONTDUMP memory was left
						 * out (its OUT is missing) */
#define FLIGHTREC_SC_REAL_NR		0x40	/* a syscall whose number is that of an event
						 * record (FLIGHTREC_NR_*): the syscall */
#define FLIGHTREC_SC_UNFINISHED	0x80	/* entered (numbered at entry) by a thread
						 * other than the one that ended the
						 * recording, and not returned at the end:
						 * RET and OUT mean nothing; replay parks
						 * the thread in it */
#define FLIGHTREC_SC_IN_HASH_SA	0x100	/* IN_HASH_SA: the data passed in, hashed at
						 * entry by the sockaddr rule
						 * (FR_IN_RULE_SOCKADDR, flightrec_inhash.h);
						 * a call with an address passed in
						 * (connect, bind, sendto, sendmsg) has this
						 * instead of FLIGHTREC_SC_IN_HASH */
#define FLIGHTREC_SC_IN_HASH_FULL	0x200	/* IN_HASH_FULL: the data passed in, all of
						 * it, hashed by FR_IN_RULE_FULL
						 * (flightrec_inhash.h): a call passing in
						 * more than FR_IN_HASH_MAX bytes (a big
						 * write), and every sendmmsg, has this
						 * instead of the two above, hashed as it
						 * returns */
#define FLIGHTREC_SC_IN_HASH_W		0x400	/* IN_HASH_W: the data passed in, hashed at
						 * entry by FR_IN_RULE_WORDS
						 * (flightrec_inhash.h): the calls the
						 * module hashes on its general path (a
						 * writev, a sendmsg, a write of more
						 * than 64 bytes, a call that passes a
						 * path or a socket address) have this
						 * instead of IN_HASH and IN_HASH_SA */

enum flightrec_attr {
	FLIGHTREC_A_UNSPEC,
	FLIGHTREC_A_PAD,
	FLIGHTREC_A_ABI_VERSION,	/* u32 */
	FLIGHTREC_A_VERSION,		/* string: module version */
	FLIGHTREC_A_PID,		/* u32: process id (tgid) */
	FLIGHTREC_A_INTERVAL_MS,	/* u32 */
	FLIGHTREC_A_KEEP,		/* u32 */
	FLIGHTREC_A_AT_EXIT,		/* u8: 1 = freeze the ring at a normal exit */
	FLIGHTREC_A_DUMP_ID,		/* u32 */
	FLIGHTREC_A_EVENT,		/* u32: enum flightrec_event */
	FLIGHTREC_A_REC_TYPE,		/* u32: enum flightrec_rec_type */
	FLIGHTREC_A_INTERVAL,		/* u32: interval index, counted from 0 at registration */
	FLIGHTREC_A_START_NS,		/* u64: CLOCK_MONOTONIC */
	FLIGHTREC_A_END_NS,		/* u64 */
	FLIGHTREC_A_INTERVAL_FLAGS,	/* u32: FLIGHTREC_IF_* */
	FLIGHTREC_A_NR_SYSCALLS,	/* u64 */
	FLIGHTREC_A_LOST,		/* u64: records lost */
	FLIGHTREC_A_PPID,		/* u32 */
	FLIGHTREC_A_COMM,		/* string */
	FLIGHTREC_A_EXE,		/* string: path of the executable */
	FLIGHTREC_A_CMDLINE,		/* binary: NUL-separated arguments */
	FLIGHTREC_A_AUXV,		/* binary: u64 pairs */
	FLIGHTREC_A_PERSONALITY,	/* u32 */
	FLIGHTREC_A_UNAME,		/* binary: struct new_utsname */
	FLIGHTREC_A_START,		/* u64: map start */
	FLIGHTREC_A_END,		/* u64: map end */
	FLIGHTREC_A_PROT,		/* u32: PROT_* */
	FLIGHTREC_A_MAP_FLAGS,		/* u32: MAP_SHARED / MAP_PRIVATE | FLIGHTREC_MAPF_* */
	FLIGHTREC_A_PGOFF,		/* u64: file offset in bytes */
	FLIGHTREC_A_INODE,		/* u64 */
	FLIGHTREC_A_DEV,		/* u32: new_encode_dev() */
	FLIGHTREC_A_PATH,		/* string: file path, or [heap] [stack] [vdso] [vvar] */
	FLIGHTREC_A_TID,		/* u32 */
	FLIGHTREC_A_REGS,		/* binary: struct user_regs_struct (asm/ptrace.h) */
	FLIGHTREC_A_XSAVE,		/* binary: XSAVE area, standard format (NT_X86_XSTATE) */
	FLIGHTREC_A_FS_BASE,		/* u64 */
	FLIGHTREC_A_GS_BASE,		/* u64 */
	FLIGHTREC_A_SIGMASK,		/* u64: blocked signals */
	FLIGHTREC_A_ADDR,		/* u64: page address */
	FLIGHTREC_A_PAGE_FLAGS,		/* u32: FLIGHTREC_PAGE_* */
	FLIGHTREC_A_DATA,		/* binary: page bytes (PAGE_SIZE) */
	FLIGHTREC_A_SEQ,		/* u64: per-process syscall sequence number */
	FLIGHTREC_A_NR,			/* u32: syscall number */
	FLIGHTREC_A_ARGS,		/* binary: 6 x u64 arguments */
	FLIGHTREC_A_RET,		/* s64: return value */
	FLIGHTREC_A_SC_FLAGS,		/* u32: FLIGHTREC_SC_* */
	FLIGHTREC_A_OUT,		/* nested: FLIGHTREC_OUT_*; one per out-buffer */
	FLIGHTREC_A_SIGNO,		/* u32 */
	FLIGHTREC_A_HANDLER,		/* u64 */
	FLIGHTREC_A_SA_FLAGS,		/* u64 */
	FLIGHTREC_A_RESTORER,		/* u64 */
	FLIGHTREC_A_SA_MASK,		/* u64 */
	FLIGHTREC_A_END_KIND,		/* u32: enum flightrec_end_kind */
	FLIGHTREC_A_SI_CODE,		/* s32 */
	FLIGHTREC_A_FAULT_ADDR,		/* u64 */
	FLIGHTREC_A_EXIT_CODE,		/* u32: wait status */
	FLIGHTREC_A_CPUID,		/* binary: struct flightrec_cpuid_leaf[] */
	FLIGHTREC_A_XCR0,		/* u64 */
	FLIGHTREC_A_NR_THREADS,		/* u32 */
	FLIGHTREC_A_NR_INTERVALS,	/* u32: intervals in the ring */
	FLIGHTREC_A_DROPPED,		/* u64: whole intervals dropped by the cap */
	FLIGHTREC_A_BYTES,		/* u64: ring memory in use */
	FLIGHTREC_A_FROZEN,		/* u8: the ring is frozen */
	FLIGHTREC_A_SAS_SP,		/* u64: sigaltstack */
	FLIGHTREC_A_SAS_SIZE,		/* u64 */
	FLIGHTREC_A_SAS_FLAGS,		/* u32 */
	FLIGHTREC_A_RSEQ,		/* u64: rseq area address */
	FLIGHTREC_A_RSEQ_LEN,		/* u32 */
	FLIGHTREC_A_RSEQ_SIG,		/* u32 */
	FLIGHTREC_A_ROBUST_LIST,	/* u64 */
	FLIGHTREC_A_ROBUST_LEN,		/* u64 */
	FLIGHTREC_A_BRK_START,		/* u64 */
	FLIGHTREC_A_BRK,		/* u64 */
	FLIGHTREC_A_IN_SYSCALL,		/* s32: syscall the thread was blocked in at the start, or -1 */
	FLIGHTREC_A_BUILD_ID,		/* binary: ELF NT_GNU_BUILD_ID of a file mapping */
	FLIGHTREC_A_NR_DUMPS,		/* u32 */
	FLIGHTREC_A_LOST_PAGES,		/* u64: original page copies that could not be kept */
	FLIGHTREC_A_CLEAR_CHILD_TID,	/* u64: set_tid_address() of a thread (0: none) */
	FLIGHTREC_A_IN_HASH,		/* u64: FNV-1a of a syscall's in-data (flightrec_inhash.h) */
	FLIGHTREC_A_SERIAL,		/* u8: 1 = serial mode: the process's threads run user
					 * code one at a time, switching at syscalls */
	FLIGHTREC_A_STOP_REASON,	/* u32: enum flightrec_stop_reason (EVENT_STOPPED, PROC) */
	FLIGHTREC_A_CMDLINE_LEN,	/* u32: the whole command line, in CMDLINE_CHUNKs */
	FLIGHTREC_A_CMDLINE_OFFSET,	/* u32: where this CMDLINE piece goes (CMDLINE_CHUNK) */
	FLIGHTREC_A_TIME_NS,		/* u64: CLOCK_MONOTONIC at a syscall's entry (a signal's or
					 * rdtsc's record: when it was made) */
	FLIGHTREC_A_IN_HASH_SA,		/* u64: IN_HASH by the sockaddr rule (FLIGHTREC_SC_IN_HASH_SA) */
	/*
	 * SYSCALL (a syscall's or a signal's record): what the kernel wrote
	 * into the thread's rseq area on its way back to user space after it
	 * (struct rseq's cpu_id_start and cpu_id; node_id and mm_cid on
	 * kernels that write them, 6.3+), present only when it differs from
	 * the thread's previous record's.
	 */
	FLIGHTREC_A_RSEQ_CPU,		/* u32 */
	FLIGHTREC_A_RSEQ_NODE,		/* u32 */
	FLIGHTREC_A_RSEQ_MM_CID,	/* u32 */
	FLIGHTREC_A_IN_HASH_FULL,	/* u64: IN_HASH by the full rule (FLIGHTREC_SC_IN_HASH_FULL) */
	/*
	 * REGISTER: 1 = what the process runs before its next exec is not
	 * kept (a launcher's child between fork and exec); by default an
	 * exec keeps the old image's intervals (FLIGHTREC_END_EXEC).
	 */
	FLIGHTREC_A_START_AT_EXEC,	/* u8 */
	/*
	 * PROCESS of a dump: the dump of the image this one's exec replaced,
	 * ending at that execve (END_KIND FLIGHTREC_END_EXEC); fetched with
	 * GET_DUMP like any other, and released on its own.
	 */
	FLIGHTREC_A_PREV_DUMP,		/* u32: dump id */
	FLIGHTREC_A_IN_HASH_W,		/* u64: IN_HASH by the words rule (FLIGHTREC_SC_IN_HASH_W) */

	__FLIGHTREC_A_MAX,
};
#define FLIGHTREC_A_MAX (__FLIGHTREC_A_MAX - 1)

/* FLIGHTREC_A_OUT nest: one out-buffer of a syscall */
enum flightrec_out_attr {
	FLIGHTREC_OUT_UNSPEC,
	FLIGHTREC_OUT_ARG,		/* u32: argument index, or FLIGHTREC_OUT_ARG_DERIVED */
	FLIGHTREC_OUT_ADDR,		/* u64: user address written */
	FLIGHTREC_OUT_DATA,		/* binary: the bytes the kernel wrote */
	FLIGHTREC_OUT_PAD,
	FLIGHTREC_OUT_INDEX,		/* u32: which out-buffer of the record (0...) */
	FLIGHTREC_OUT_LEN,		/* u32: its whole length (OUT_CHUNK) */
	FLIGHTREC_OUT_OFFSET,		/* u32: where this DATA goes in it (OUT_CHUNK) */
	__FLIGHTREC_OUT_MAX,
};
#define FLIGHTREC_OUT_CHUNK	16384
#define FLIGHTREC_OUT_MAX (__FLIGHTREC_OUT_MAX - 1)
/* an out-buffer found through another (an iovec element, msg_control, ...) */
#define FLIGHTREC_OUT_ARG_DERIVED	0xff
/*
 * Not an out-buffer: a string the call read (a path), FLIGHTREC_OUT_ARG_IN
 * plus its argument index, as it was at the call's exit, for the log.
 * Replay writes nothing from it.
 */
#define FLIGHTREC_OUT_ARG_IN		0x40
#define FLIGHTREC_OUT_IS_IN(arg)	(((arg) & ~0x7u) == FLIGHTREC_OUT_ARG_IN)

/* FLIGHTREC_A_MAP_FLAGS beyond MAP_SHARED/MAP_PRIVATE */
#define FLIGHTREC_MAPF_ANON	0x100	/* no file behind it */
#define FLIGHTREC_MAPF_STACK	0x200	/* grows down */
#define FLIGHTREC_MAPF_VDSO	0x400
#define FLIGHTREC_MAPF_VVAR	0x800
#define FLIGHTREC_MAPF_HEAP	0x1000
#define FLIGHTREC_MAPF_PFNMAP	0x2000	/* device or vvar: contents not readable */
#define FLIGHTREC_MAPF_DONTDUMP	0x4000	/* VM_DONTDUMP (MADV_DONTDUMP, memfd_secret): its
					 * pages are never in a dump; replay keeps it
					 * inaccessible and reports a touch */

struct flightrec_cpuid_leaf {
	__u32 leaf, subleaf;
	__u32 eax, ebx, ecx, edx;
};

#endif /* _UAPI_LINUX_FLIGHTREC_H */
