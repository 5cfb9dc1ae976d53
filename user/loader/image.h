/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The replay image: what `flightrec replay` hands to the replay loader.
 *
 * `flightrec replay` (a normal program: libc, protobuf-c, zstd) reads and
 * checks a checkpoint and flattens the interval to replay into this simple
 * format, in one buffer (a memfd, or a file for gdb).  The loader
 * (user/loader/, no libc) maps it read-only and needs no parsing beyond
 * bounds checks.  Both sides are built from this header, so the format has
 * no compatibility rules beyond FRI_VERSION: it never outlives one run.
 *
 * Layout: struct fri_header at offset 0, then arrays at the offsets the
 * header names, then page data (page-aligned) and out-buffer data.  Every
 * offset is from the start of the image; every array entry is 8-aligned.
 */
#ifndef FLIGHTREC_LOADER_IMAGE_H
#define FLIGHTREC_LOADER_IMAGE_H

#include <stdint.h>

#define FRI_MAGIC	0x49524c46u	/* "FLRI" little-endian */
#define FRI_VERSION	6
#define FRI_PAGE_SIZE	4096UL

/*
 * The loader's window: its text, data, stacks and the mapped image live in
 * [FRI_WINDOW_START, FRI_WINDOW_END), an address range no Linux x86_64
 * program normally uses (PIE executables load near 0x55..., shared objects,
 * mmap and the stack sit below 0x7fff..., ASan's shadow ends at
 * 0x10007fff8000).  A recorded map inside it is refused with a message.
 */
#define FRI_WINDOW_START	0x2f0000000000UL
#define FRI_WINDOW_END		0x2f8000000000UL
#define FRI_LOADER_TEXT		0x2f0000000000UL	/* -Ttext-segment */
#define FRI_STACKS_ADDR		0x2f0080000000UL	/* loader stacks */
#define FRI_IMAGE_ADDR		0x2f0100000000UL	/* the image */
#define FRI_IMAGE_MAX		(FRI_WINDOW_END - FRI_IMAGE_ADDR)

/* fri_header.flags */
#define FRI_F_SHOW_OUTPUT	0x1	/* copy fd 1/2 output to the real stdout/stderr */
#define FRI_F_QUIET		0x2	/* only errors and the final verdict */
#define FRI_F_GDB		0x4	/* under a debugger: with -G, the gdbserver (fri_gdb_*) */
#define FRI_F_VERBOSE		0x8	/* trace every replayed syscall on stderr */
#define FRI_F_TSC_RECORDED	0x10	/* the recorder trapped rdtsc: an unrecorded one diverges */
#define FRI_F_PATCH_TSC		0x20	/* patch the recorded rdtsc sites to ud2 */
#define FRI_F_PATCH_CPUID	0x40	/* patch the cpuid sites (cpuid_sites_off) to ud2 */
#define FRI_F_SERIAL		0x80	/* every interval replayed was recorded in serial mode */

/*
 * flightrec replay --gdbserver: the loader runs under the server's ptrace
 * with -G FD, and each thread writes one of these to FD just before it
 * first enters the application, so the server knows the recorded tid of
 * each loader thread, and where to read the application's registers of a
 * thread that waits in the loader (at a system call, from the server's and
 * gdb's view).
 */
#define FRI_GDB_MAGIC	0x42444746u	/* "FGDB" */
struct fri_gdb_thread {
	uint32_t magic;
	uint32_t tid;		/* the loader thread (real tid) */
	uint32_t rec_tid;	/* the recorded thread it replays */
	uint32_t pad;
	uint64_t last;		/* &struct fri_regs: as it last entered the loader */
	uint64_t has_last;	/* &int: last is valid */
	uint64_t bp;		/* &struct fri_gdb_bp: the loader's int3 (all threads') */
	uint64_t bp_step;	/* &int: this thread single-steps (TF) past that int3 */
};

/*
 * The loader's own int3 in application code: where a signal that
 * interrupted user code (or a serial recording's preemption) is delivered,
 * or the dump point of a dump taken in user code.  The thread stops there
 * each time it gets there; the loader compares its registers, and steps the
 * original instruction with TF when they differ.  Under the gdbserver those
 * SIGTRAPs are the loader's business (passed on, as its SIGSYS), and gdb
 * reads the application's byte, not the int3.
 */
struct fri_gdb_bp {
	uint64_t addr;
	uint32_t armed;		/* the int3 is in place (or put back after a step) */
	uint8_t byte;		/* the application's byte at addr */
	uint8_t pad[3];
};

/* fri_region.flags */
#define FRI_R_STACK	0x1	/* grows down: mapped MAP_GROWSDOWN */
#define FRI_R_HEAP	0x2	/* the [heap]: brk moves its end */
#define FRI_R_NODATA	0x4	/* contents not recorded ([vvar], PFN maps): zeros */
#define FRI_R_SHARED	0x8	/* was MAP_SHARED: replayed as private memory */
#define FRI_R_NODUMP	0x10	/* VM_DONTDUMP: its pages are not in the dump; mapped
				 * PROT_NONE, a touch is a divergence */

/* Registers in the order of struct user_regs_struct and of the .proto Regs. */
struct fri_regs {
	uint64_t r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8;
	uint64_t rax, rcx, rdx, rsi, rdi, orig_rax, rip, cs, eflags, rsp, ss;
	uint64_t fs_base, gs_base, ds, es, fs, gs;
};

struct fri_region {
	uint64_t start, end;
	uint32_t prot;		/* PROT_* as recorded */
	uint32_t flags;		/* FRI_R_* */
	uint64_t name_off;	/* NUL-terminated name ("[stack]", a path), or 0 */
	uint64_t offset;	/* a file mapping's offset in the file */
};

/*
 * A page of the page set: its bytes as of the start of interval `interval`
 * (the replayed interval or a later one).  Sorted by (addr, interval),
 * unique.  data_off == 0: a page of zeros.  The first entry of each address
 * is its initial page (the smallest interval >= the replayed one).  Pages
 * that lie in no region are deferred: they are filled in when a replayed
 * mmap, mremap or brk maps their address (a file mapped inside the
 * interval), each with the entry of the smallest interval >= the call's.
 * An address has a later entry only where a call of a later interval maps
 * it again (a second life of the address: issue 25, class 8); its earlier
 * entries are the earlier life's bytes.
 */
struct fri_page {
	uint64_t addr;
	uint64_t data_off;
	uint32_t interval;	/* the interval start whose state these bytes are */
	uint32_t pad;
};

struct fri_thread {
	uint32_t tid;		/* as recorded */
	int32_t in_syscall;	/* -1, or the syscall it was blocked in */
	uint64_t first_sc;	/* index of its first syscall record, or ~0 */
	uint64_t sigmask;	/* the application's mask (emulated) */
	uint64_t xsave_off;	/* XSAVE area, standard format, this CPU's offsets */
	uint64_t xsave_size;	/* 0: no FPU state recorded (init state) */
	uint64_t clear_child_tid;
	uint64_t rseq;		/* its registered rseq area, or 0 */
	uint64_t ss_sp, ss_size;	/* the application's sigaltstack */
	uint32_t ss_flags, pad;
	struct fri_regs regs;
};

/* A recorded CPUID leaf. */
struct fri_cpuid {
	uint32_t leaf, subleaf;
	uint32_t eax, ebx, ecx, edx;
};

/* The application's signal dispositions at the start (emulated by the loader). */
struct fri_sigaction {
	uint32_t signo, pad;
	uint64_t handler, flags, restorer, mask;
};

/* fri_syscall.kind: set by flightrec replay from the syscall table's flags. */
#define FRI_K_EMULATE	0	/* set the result, copy out-buffers */
#define FRI_K_ADDRSPACE	1	/* FR_F_ADDRSPACE: re-executed at the recorded addresses */
#define FRI_K_THREADAREA 2	/* FR_F_THREADAREA: re-executed (arch_prctl) or tracked */
#define FRI_K_OUTPUT	3	/* FR_F_OUTPUT: data goes to the output files */
#define FRI_K_EXIT	4	/* exit, exit_group */
#define FRI_K_CLONE	5	/* clone, clone3, fork, vfork */
#define FRI_K_RDTSC	6	/* a recorded rdtsc/rdtscp value (ret), not a syscall */
#define FRI_K_SIGNAL	7	/* a signal delivered to a handler: out_off is a fri_signal */
#define FRI_K_PREEMPT	8	/* serial mode: the thread yielded in user code; out_off is a
				 * fri_signal (signo 0, FLIGHTREC_SIG_IN_USER, its regs) */
#define FRI_K_PTRACE	9	/* the tracer changed the thread (FLIGHTREC_NR_PTRACE): args as
				 * recorded; out 0 at address 0: its user_regs_struct
				 * (FLIGHTREC_PT_REGS), the others: memory written */

#define FRI_NO_NEXT	(~0UL)

struct fri_syscall {
	uint64_t seq;
	uint32_t tid;
	uint32_t nr;
	uint64_t args[6];
	int64_t ret;
	uint64_t next_same_tid;	/* index of this thread's next record, or FRI_NO_NEXT */
	uint64_t out_off;	/* n_out struct fri_out */
	uint64_t in_hash;	/* hash of the data passed in, when FRI_S_IN_HASH;
				 * its rule: FRI_S_IN_HASH_SA, _FULL, _W, or
				 * none of them: FR_IN_RULE_BYTES */
	uint32_t kind;		/* FRI_K_* */
	uint32_t n_out;
	uint32_t sc_flags;	/* FLIGHTREC_SC_* */
	uint16_t table_flags;	/* FR_F_* of the syscall table row */
	uint8_t nargs;		/* arguments compared for divergence */
	uint8_t flags;		/* FRI_S_* */
	/* in1 data descriptor of the table row (outputs: the data written) */
	uint8_t in_arg, in_kind;
	uint16_t in_p1, in_p2;
	uint16_t pad;
	uint32_t interval;	/* the recorded interval of the call */
	/* with FRI_S_RSEQ_CPU (_NODE): what the kernel wrote into the rseq area after it */
	uint32_t rseq_cpu, rseq_node, rseq_cid;
};

#define FRI_S_IN_HASH	0x1
#define FRI_S_IN_HASH_SA	0x2	/* in_hash is by FR_IN_RULE_SOCKADDR (with FRI_S_IN_HASH) */
#define FRI_S_RSEQ_CPU	0x4	/* rseq_cpu: the rseq area's cpu_id_start and cpu_id after it */
#define FRI_S_RSEQ_NODE	0x8	/* rseq_node, rseq_cid: its node_id and mm_cid after it */
#define FRI_S_IN_HASH_FULL	0x10	/* in_hash is by FR_IN_RULE_FULL (with FRI_S_IN_HASH) */
#define FRI_S_IN_HASH_W	0x20	/* in_hash is by FR_IN_RULE_WORDS (with FRI_S_IN_HASH) */

/*
 * A FRI_K_SIGNAL record (FLIGHTREC_NR_SIGNAL): the fri_syscall's out_off
 * names one of these (n_out is 0).  flags are FLIGHTREC_SIG_*.  A
 * FRI_K_PREEMPT record (FLIGHTREC_NR_PREEMPT) has one too, with signo 0,
 * FLIGHTREC_SIG_IN_USER and the registers where the thread yielded.
 */
struct fri_signal {
	int32_t signo;
	int32_t si_code;
	uint32_t flags;
	uint32_t has_regs;	/* FLIGHTREC_SIG_IN_USER: regs of the interrupted code */
	int64_t orig_rax;	/* the syscall it came out of, or -1 */
	int64_t rax;		/* rax at delivery (before the restart handling) */
	uint64_t rip;		/* rip at delivery (before the restart rewind) */
	uint8_t siginfo[128];
	struct fri_regs regs;
	/*
	 * The frame the recording kernel wrote for the handler (OUT arg 2 of
	 * the record): frame_len bytes at frame_addr, at frame_off in the
	 * image; frame_len 0 when not recorded.
	 */
	uint64_t frame_addr, frame_len, frame_off;
};

struct fri_out {
	uint64_t addr;
	uint64_t len;
	uint64_t data_off;
};

/* fri_end.kind: enum flightrec_end_kind (uapi/flightrec.h) */
struct fri_end {
	uint32_t kind;
	uint32_t tid;
	uint32_t signo;
	int32_t si_code;
	uint64_t fault_addr;
	uint32_t exit_code;
	uint32_t has_regs;
	uint64_t last_seq;
	struct fri_regs regs;
};

struct fri_header {
	uint32_t magic;
	uint32_t version;
	uint64_t size;			/* bytes in the image */
	uint32_t flags;			/* FRI_F_* */
	uint32_t from_interval;		/* interval index replayed from */
	uint32_t n_regions;
	uint32_t n_threads;
	uint64_t n_pages;
	uint64_t n_syscalls;
	uint64_t regions_off;
	uint64_t threads_off;
	uint64_t pages_off;
	uint64_t syscalls_off;
	uint64_t brk_start;		/* program break: start of the heap */
	uint64_t brk;			/* program break at the interval start */
	uint64_t t0_ns;			/* CLOCK_MONOTONIC when flightrec replay started */
	uint64_t decode_ns;		/* CLOCK_MONOTONIC when the image was complete */
	uint64_t data_bytes;		/* page bytes recorded (for the load report) */
	uint64_t sigactions_off;
	uint32_t n_sigactions;
	uint32_t n_cpuid;		/* recorded CPUID leaves, answered to cpuid */
	uint64_t cpuid_off;
	uint64_t rec_xstate_size;	/* the recording kernel's XSAVE area size, or 0 */
	struct fri_end end;
	uint32_t pid;			/* the recorded process's */
	uint32_t n_auxv;		/* (type, value) pairs at auxv_off, AT_NULL last */
	uint64_t auxv_off;		/* its auxiliary vector, for the core file */
	/* FRI_F_PATCH_CPUID: the cpuid instructions of the code, ascending */
	uint64_t cpuid_sites_off;
	uint32_t n_cpuid_sites;
	uint32_t pad2;
	char comm[32];
};

#endif /* FLIGHTREC_LOADER_IMAGE_H */
