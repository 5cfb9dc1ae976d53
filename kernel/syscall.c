// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec: syscall capture.
 *
 * The sys_enter/sys_exit tracepoints make every syscall of every process take
 * the slow path into these probes; an unregistered task returns after one
 * atomic read (no thread registered) or one RCU hash lookup.
 *
 * At sys_exit the out-buffers named by the syscall table are copied with
 * copy_from_user_nofault() into memory allocated without sleeping.  When that
 * is not possible (a page not resident, a large buffer, no memory at once)
 * the copy is finished by the thread's task_work before it returns to user
 * space, where it may sleep: no record is dropped for lack of a page.
 *
 * Some syscalls are held back at sys_enter (made a no-op and re-executed once
 * the thread's task_work ran): exit_group/exit of an at_exit process (the
 * ring freezes with the memory still there), and calls that unmap memory
 * (munmap, mremap, brk shrinking, madvise(MADV_DONTNEED)...), whose accessed
 * pages are captured before they vanish (seed 004, section 4.1), and
 * madvise(MADV_COLD or MADV_PAGEOUT), which clears the accessed bits that
 * the next boundary would read.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/socket.h>
#include <linux/mman.h>
#include <linux/prctl.h>
#include <linux/fcntl.h>
#include <linux/ioctl.h>
#include <linux/percpu.h>
#include <linux/file.h>
#include <linux/workqueue.h>
#include <linux/sched/signal.h>
#include <linux/sched/coredump.h>
#include <linux/thread_info.h>
#include <linux/compat.h>
#include <linux/sched/task_stack.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include <asm/prctl.h>
#include <asm/sigframe.h>
#include <asm/fpu/signal.h>
#include <linux/futex.h>
#include <linux/sched.h>
#include <linux/kprobes.h>
#include <linux/list_sort.h>
#include <linux/delay.h>
#include "flightrec.h"
#include "../uapi/flightrec_syscalls.h"
#include "../uapi/flightrec_syscall_check.h"
/*
 * The probes' in-hash readers hash a range's pieces where they lie
 * (fr_hash_in_place, below), not through fr_hash_range()'s buffer.
 */
static int fr_hash_read(void *ctx, u64 addr, void *buf, size_t len);
static int fr_hash_read_user(void *ctx, u64 addr, void *buf, size_t len);
static int fr_hash_in_place(void *ctx, u64 addr, size_t len, u64 *h);
static int fr_hash_in_place_user(void *ctx, u64 addr, size_t len, u64 *h);
#define FR_HASH_IN_PLACE(rd, ctx, addr, n, h)				\
	((rd) == fr_hash_read ? fr_hash_in_place(ctx, addr, n, h) :	\
	 (rd) == fr_hash_read_user ? fr_hash_in_place_user(ctx, addr, n, h) : 1)
#include "../uapi/flightrec_inhash.h"

/* 40 bytes: a row's address is one scaled add from its number */
struct fr_kdesc {
	u16 flags;
	u8 valid;
	struct fr_data_desc in[2];
	struct fr_data_desc out[3];
} __aligned(8);

#define FR_KROW(nr, name, nargs, flags, types, i1, i2, o1, o2, o3) \
	[nr] = { (flags), 1, { i1, i2 }, { o1, o2, o3 } },
static const struct fr_kdesc fr_table[FR_NR_SYSCALLS] = {
	FLIGHTREC_SYSCALL_TABLE(FR_KROW)
};
#undef FR_KROW

/*
 * What the probes do for a call beyond the common path, per number, derived
 * from fr_table and the switches below when the module loads
 * (fr_fast_init): one load tells sys_enter and sys_exit which of their
 * checks apply, rather than a switch per check on every call.
 */
#define FR_FE_HOLD	BIT(0)	/* fr_sc_needs_hold() may hold it */
#define FR_FE_SEQ	BIT(1)	/* numbered at entry (fr_seq_at_entry) */
#define FR_FE_IN	BIT(2)	/* passes data in: hashed at entry */
#define FR_FE_IN1	BIT(3)	/* one buffer of fixed or argument-given size */
#define FR_FE_BRK	BIT(4)	/* the break is kept at entry */
#define FR_FE_EXIT	BIT(5)	/* no sys_exit follows */
#define FR_FE_SMALL	BIT(6)	/* fr_build_small() may build its record */
#define FR_FE_NEWLIFE	BIT(7)	/* fr_collect_new_life() looks at it */
#define FR_FE_XEXIT	BIT(8)	/* sys_exit looks: prctl, execve(at), connect */
#define FR_FE_EINTR	BIT(9)	/* EINTR without effect: restartable (fr_sc_eintr_ours) */
#define FR_FE_OUT2	BIT(10)	/* FR_FE_SMALL with more out-buffers (fr_build_small) */
static u16 fr_fe[FR_NR_SYSCALLS + 1] __read_mostly;	/* and 0 past the end */

/*
 * The next number of proc's sequence, taken by current, a thread of proc.
 * While it is the process's only thread no one else takes one, and a plain
 * increment does (an atomic operation per call costs more than the rest of
 * the number's work).  Threads are added before recording starts
 * (registration) or by a recorded thread's own clone, in its context; one
 * that is gone took its last number before it was counted out.
 */
static __always_inline u64 fr_seq_next(struct fr_proc *proc)
{
	if (smp_load_acquire(&proc->nr_threads) == 1) {
		u64 n = atomic64_read(&proc->seq) + 1;

		atomic64_set(&proc->seq, n);
		return n;
	}
	return atomic64_inc_return(&proc->seq);
}

/*
 * A number outside the table (-1, or one the kernel answers ENOSYS): none.
 * Without a branch (a compare and a move): the probes then test one value
 * for each of its bits, rather than a copy of each bit kept for both ways.
 */
static __always_inline u16 fr_fe_of(long nr)
{
	return fr_fe[min_t(unsigned long, nr, FR_NR_SYSCALLS)];
}

/* the largest out-buffer kept per syscall; the rest is cut and flagged */
#define FR_OUT_MAX	(16U << 20)
/* records larger than this are built in task_work, never in the probe */
#define FR_ATOMIC_MAX	FR_REC_CHUNKED
#define FR_MAX_SPANS	64

struct fr_span {
	u64 addr;
	u32 len;
	u8 arg;
};

struct fr_spans {
	struct fr_span s[FR_MAX_SPANS];
	u32 n;
	u32 flags;
	size_t total;
};

static DEFINE_PER_CPU(struct fr_spans, fr_scratch);
static struct tracepoint *fr_tp_enter, *fr_tp_exit;

/*
 * Most out-buffers are a few bytes (a 1-byte read, a 16-byte timespec).  In
 * the probes those are read word by word between user_access_begin() and
 * user_access_end(), no page fault served (a fault takes the exception
 * fixup to -EFAULT), rather than by copy_from_user_nofault(), whose
 * per-copy checks (hardened usercopy's bounds of the destination object)
 * cost more than such a copy: the destination is the record being built,
 * sized for it (fr_build).
 */
#define FR_SMALL_COPY	64

/*
 * The biggest out-buffer of a record built without the span list
 * (fr_build_small): a stat (144 bytes), a statx (256), an epoll_wait's
 * few dozen events, an HTTP request's read.  Past FR_SMALL_COPY it is
 * copied as the general path copies it (fr_read_nofault), and the record
 * still fits a small chunk (FR_SMALL_MAX).
 */
#define FR_SMALL_OUT	512

/*
 * The probes run with preemption disabled (__DO_TRACE), so a user access
 * that faults there takes its exception fixup at once, as under
 * pagefault_disable(): faulthandler_disabled() sees in_atomic().  That
 * needs CONFIG_PREEMPT_COUNT; without it, faults are disabled the long way
 * (two per-CPU updates per copy, on every recorded call otherwise).
 * Callers in sleepable context (task_work) may then fault pages in, which
 * is what they would want anyway.
 */
static __always_inline void fr_nofault_begin(void)
{
	if (!IS_ENABLED(CONFIG_PREEMPT_COUNT))
		pagefault_disable();
}

static __always_inline void fr_nofault_end(void)
{
	if (!IS_ENABLED(CONFIG_PREEMPT_COUNT))
		pagefault_enable();
}

static __always_inline int fr_read_small(u8 *dst, const void __user *src,
					 size_t len)
{
	const u8 __user *s = src;
	u64 w;
	u8 b;

	if (!user_access_begin(s, len))
		return -EFAULT;
	for (; len >= sizeof(w); len -= sizeof(w), s += sizeof(w), dst += sizeof(w)) {
		unsafe_get_user(w, (const u64 __user *)s, fault);
		put_unaligned(w, (u64 *)dst);
	}
	for (; len; len--, s++, dst++) {
		unsafe_get_user(b, s, fault);
		*dst = b;
	}
	user_access_end();
	return 0;
fault:
	user_access_end();
	return -EFAULT;
}

/* A copy of at most FR_SMALL_COPY bytes, inline where every call makes one. */
static __always_inline int fr_read_small_nofault(void *dst,
						 const void __user *src,
						 size_t len)
{
	int err;

	fr_nofault_begin();
	err = fr_read_small(dst, src, len);
	fr_nofault_end();
	return err;
}

/*
 * Out-buffers of FR_BULK_MIN bytes and more (a 256 KiB read's data) go to
 * the ring with non-temporal stores (__copy_user_nocache(), as
 * copy_from_iter_nocache() uses): the ring is written once and read only
 * when a dump is taken, so its bytes have no business displacing the
 * recorded program's cache lines.  It also copies eight bytes at a time,
 * where copy_from_user() is rep movsb, one byte per step under emulation.
 */
#define FR_BULK_MIN	1024

/*
 * More than FR_SMALL_COPY bytes (so at least 8), 16 a step; the last 1-8
 * bytes as the word that ends the range, over bytes already copied.
 */
static int fr_read_mid(u8 *dst, const void __user *src, size_t len)
{
	const u8 __user *s = src;
	u64 w0, w1;

	if (!user_access_begin(s, len))
		return -EFAULT;
	for (; len >= 16; len -= 16, s += 16, dst += 16) {
		unsafe_get_user(w0, (const u64 __user *)s, fault);
		unsafe_get_user(w1, (const u64 __user *)s + 1, fault);
		put_unaligned(w0, (u64 *)dst);
		put_unaligned(w1, (u64 *)dst + 1);
	}
	if (len > 8) {
		unsafe_get_user(w0, (const u64 __user *)s, fault);
		put_unaligned(w0, (u64 *)dst);
		len -= 8;
		s += 8;
		dst += 8;
	}
	if (len) {
		unsafe_get_user(w0, (const u64 __user *)(s + len - 8), fault);
		put_unaligned(w0, (u64 *)(dst + len - 8));
	}
	user_access_end();
	return 0;
fault:
	user_access_end();
	return -EFAULT;
}

/*
 * A copy that never serves a fault, in any context.  Up to FR_BULK_MIN
 * bytes (an HTTP request's read, a write's in-hash piece) word by word
 * (fr_read_mid): copy_from_user_nofault() pays the hardened
 * usercopy walk (__check_object_size: which slab, which stack frame) on
 * every variable-sized copy, for a destination this module sized itself:
 * with its own checks about 90 instructions a copy besides the bytes
 * (nginx's 4 KiB requests: about 460 a request), and its rep movsb goes a
 * byte per step under emulation.
 */
static int fr_read_nofault(void *dst, const void __user *src, size_t len)
{
	int err;

	if (len <= FR_SMALL_COPY)
		return fr_read_small_nofault(dst, src, len);
	if (len >= FR_BULK_MIN)
		return copy_from_user_nofault(dst, src, len);
	pagefault_disable();
	err = fr_read_mid(dst, src, len);
	pagefault_enable();
	return err;
}

static int fr_read_bulk(void *dst, u64 src, size_t len, bool atomic)
{
	const void __user *s = (const void __user *)src;
	long left;

	if (len > UINT_MAX || !access_ok(s, len))
		return -EFAULT;
	if (atomic)
		pagefault_disable();
	left = fr_copy_from_user_inatomic_nocache(dst, s, len);
	if (atomic)
		pagefault_enable();
	return left ? -EFAULT : 0;
}

static int fr_read(void *dst, u64 src, size_t len, bool atomic)
{
	if (atomic)
		return fr_read_nofault(dst, (const void __user *)src, len);
	return copy_from_user(dst, (const void __user *)src, len) ? -EFAULT : 0;
}

static void fr_span_add(struct fr_spans *sp, u8 arg, u64 addr, u64 len)
{
	if (!addr || !len)
		return;
	if (sp->n == FR_MAX_SPANS) {
		sp->flags |= FLIGHTREC_SC_TRUNCATED;
		return;
	}
	if (len > FR_OUT_MAX) {
		len = FR_OUT_MAX;
		sp->flags |= FLIGHTREC_SC_TRUNCATED;
	}
	sp->s[sp->n].addr = addr;
	sp->s[sp->n].len = len;
	sp->s[sp->n].arg = arg;
	sp->n++;
	sp->total += len;
}

/* Spreads `bytes` over an iovec array, as the kernel filled it. */
static int fr_span_iov(struct fr_spans *sp, u8 arg, u64 uiov, u64 cnt,
		       u64 bytes, bool atomic)
{
	struct iovec iov;
	u64 i;

	if (cnt > UIO_MAXIOV)
		cnt = UIO_MAXIOV;
	for (i = 0; i < cnt && bytes; i++) {
		if (fr_read(&iov, uiov + i * sizeof(iov), sizeof(iov), atomic))
			return -EFAULT;
		fr_span_add(sp, arg, (u64)(unsigned long)iov.iov_base,
			    min_t(u64, iov.iov_len, bytes));
		bytes -= min_t(u64, iov.iov_len, bytes);
	}
	return 0;
}

/* A struct user_msghdr the kernel filled: itself, name, iov data, control. */
static int fr_span_msghdr(struct fr_spans *sp, u8 arg, u64 umsg, u64 bytes,
			  bool atomic)
{
	struct user_msghdr m;

	if (fr_read(&m, umsg, sizeof(m), atomic))
		return -EFAULT;
	fr_span_add(sp, arg, umsg, sizeof(m));
	fr_span_add(sp, FLIGHTREC_OUT_ARG_DERIVED, (u64)(unsigned long)m.msg_name,
		    m.msg_namelen);
	fr_span_add(sp, FLIGHTREC_OUT_ARG_DERIVED,
		    (u64)(unsigned long)m.msg_control, m.msg_controllen);
	return fr_span_iov(sp, FLIGHTREC_OUT_ARG_DERIVED,
			   (u64)(unsigned long)m.msg_iov, m.msg_iovlen, bytes,
			   atomic);
}

static int fr_span_desc(struct fr_spans *sp, const struct fr_data_desc *d,
			const u64 *args, long ret, bool atomic, bool outerr)
{
	u64 a = args[d->arg], mul = d->p2 ? d->p2 : 1;
	struct mmsghdr mm __uninitialized;	/* read before use: FR_SZ_MMSGHDR */
	u32 len;
	long i;
	int err;

	switch (d->kind) {
	case FR_SZ_FIXED:
		/* more than the kernel wrote is harmless: replay rewrites the same bytes */
		fr_span_add(sp, d->arg, a, d->p1);
		break;
	case FR_SZ_RET:
		if (ret > 0)
			fr_span_add(sp, d->arg, a, (u64)ret * mul);
		break;
	case FR_SZ_ARG:
		/* with FR_F_OUTERR (poll's revents on EINTR) even on failure */
		if (ret >= 0 || outerr)
			fr_span_add(sp, d->arg, a, args[d->p1] * mul);
		break;
	case FR_SZ_ARG_RET:
		if (ret >= 0)
			fr_span_add(sp, d->arg, a, min_t(u64, args[d->p1], ret) * mul);
		break;
	case FR_SZ_PTRLEN:
		if (ret < 0 || !args[d->p1])
			break;
		if (fr_read(&len, args[d->p1], sizeof(len), atomic))
			return -EFAULT;
		/*
		 * The value after the call is the object's whole size (an
		 * address longer than the buffer: accept, getsockname); the
		 * kernel wrote no more than the buffer held, which ends at the
		 * latest where the memory does.  Cut at the first page that
		 * cannot be read: more than the kernel wrote is harmless, past
		 * the mapping is a failed copy.  In the probe an unreadable
		 * page may only be absent: the sleeping retry decides.
		 */
		for (i = (long)(PAGE_ALIGN(a + 1) - a); i > 0 && i < len; i += PAGE_SIZE) {
			u8 b;

			if (fr_read(&b, a + i, 1, atomic)) {
				if (atomic)
					return -EFAULT;
				len = i;
				break;
			}
		}
		fr_span_add(sp, d->arg, a, len);
		break;
	case FR_SZ_MSGBUF:
		if (ret >= 0)
			fr_span_add(sp, d->arg, a, 8 + (u64)ret);
		break;
	case FR_SZ_FDSET:
		if (ret >= 0)
			fr_span_add(sp, d->arg, a, DIV_ROUND_UP(args[d->p1], 64) * 8);
		break;
	case FR_SZ_IOV:
		if (ret > 0)
			return fr_span_iov(sp, d->arg, a, args[d->p1], ret, atomic);
		break;
	case FR_SZ_IOV1:
		if (ret >= 0) {
			struct iovec iov;

			if (fr_read(&iov, a, sizeof(iov), atomic))
				return -EFAULT;
			fr_span_add(sp, FLIGHTREC_OUT_ARG_DERIVED,
				    (u64)(unsigned long)iov.iov_base, iov.iov_len);
		}
		break;
	case FR_SZ_MSGHDR:
		if (ret >= 0)
			return fr_span_msghdr(sp, d->arg, a, ret, atomic);
		break;
	case FR_SZ_MMSGHDR:
		for (i = 0; i < ret && i < UIO_MAXIOV; i++) {
			u64 um = a + i * sizeof(mm);

			if (fr_read(&mm, um, sizeof(mm), atomic))
				return -EFAULT;
			err = fr_span_msghdr(sp, d->arg, um, mm.msg_len, atomic);
			if (err)
				return err;
			fr_span_add(sp, d->arg, um + offsetof(struct mmsghdr, msg_len),
				    sizeof(mm.msg_len));
		}
		break;
	default:
		break;
	}
	return 0;
}

/* The request sub-table: rows grouped by syscall number. */
struct fr_kreq {
	u16 nr;
	u8 arg;
	u16 flags;
	u32 mask, value;
	struct fr_data_desc out[2];
};

#define FR_KREQ(nr, sysname, arg, mask, value, reqname, flags, in1, o1, o2) \
	{ (nr), (arg), (flags), (mask), (value), { o1, o2 } },
static const struct fr_kreq fr_reqs[] = {
	FLIGHTREC_REQUEST_TABLE(FR_KREQ)
};
#undef FR_KREQ

/* the first request row of each syscall, and how many it has */
static u16 fr_req_first[FR_NR_SYSCALLS], fr_req_count[FR_NR_SYSCALLS];

static void fr_reqs_index(void)
{
	int i;

	for (i = ARRAY_SIZE(fr_reqs) - 1; i >= 0; i--) {
		fr_req_first[fr_reqs[i].nr] = i;
		fr_req_count[fr_reqs[i].nr]++;
	}
}

static const struct fr_kreq *fr_req_find(u32 nr, const u64 *args)
{
	u32 i, end = fr_req_first[nr] + fr_req_count[nr];

	for (i = fr_req_first[nr]; i < end; i++)
		if ((args[fr_reqs[i].arg] & fr_reqs[i].mask) == fr_reqs[i].value)
			return &fr_reqs[i];
	return NULL;
}

/*
 * The irregular rows: what their descriptors cannot say.  Calls chosen by a
 * request code take the descriptors of their request row; the others are
 * the cases the table's comments name.  The one place in the module that
 * knows about them.
 */
static int fr_span_irregular(struct fr_spans *sp, u32 nr, const u64 *args,
			     long ret, u32 *rflags, bool atomic)
{
	const struct fr_kreq *rq;
	u32 len;
	int i, err;

	if (fr_req_count[nr]) {
		rq = fr_req_find(nr, args);
		if (!rq) {
			/* an ioctl built with _IOR/_IOWR says its size */
			if (nr == __NR_ioctl && _IOC_TYPE(args[1]) &&
			    _IOC_DIR(args[1]) != _IOC_NONE) {
				if ((_IOC_DIR(args[1]) & _IOC_READ) && ret >= 0)
					fr_span_add(sp, 2, args[2], _IOC_SIZE(args[1]));
				return 0;
			}
			sp->flags |= FLIGHTREC_SC_UNKNOWN_OUT;
			return 0;
		}
		*rflags |= rq->flags;
		if (ret < 0 && !(*rflags & FR_F_OUTERR))
			return 0;
		for (i = 0; i < 2; i++) {
			if (rq->out[i].kind == FR_SZ_NONE)
				continue;
			err = fr_span_desc(sp, &rq->out[i], args, ret, atomic,
					   *rflags & FR_F_OUTERR);
			if (err)
				return err;
		}
		return 0;
	}
	switch (nr) {
	case __NR_select:
	case __NR_pselect6:
		/* the remaining time, written back even on EINTR */
		fr_span_add(sp, 4, args[4], 16);
		return 0;
	case __NR_mincore:
		if (ret >= 0)
			fr_span_add(sp, 2, args[2], DIV_ROUND_UP(args[1], PAGE_SIZE));
		return 0;
	case __NR_clone:
		if (ret > 0 && (args[0] & (CLONE_PARENT_SETTID | CLONE_PIDFD)))
			fr_span_add(sp, 2, args[2], 4);
		return 0;
	case __NR_clone3: {
		u64 ca[4];	/* flags, pidfd, child_tid, parent_tid */

		if (ret <= 0 || args[1] < sizeof(ca))
			return 0;
		if (fr_read(ca, args[0], sizeof(ca), atomic))
			return -EFAULT;
		if (ca[0] & CLONE_PIDFD)
			fr_span_add(sp, FLIGHTREC_OUT_ARG_DERIVED, ca[1], 4);
		if (ca[0] & CLONE_PARENT_SETTID)
			fr_span_add(sp, FLIGHTREC_OUT_ARG_DERIVED, ca[3], 4);
		return 0;
	}
	case __NR_get_mempolicy:
		if (ret >= 0 && args[2])
			fr_span_add(sp, 1, args[1], ALIGN(args[2] - 1, 64) / 8);
		return 0;
	case __NR_name_to_handle_at:
		if (!args[2])
			return 0;
		if (fr_read(&len, args[2], sizeof(len), atomic))
			return -EFAULT;
		fr_span_add(sp, 2, args[2], ret >= 0 ? 8 + (u64)len : 4);
		return 0;
	case __NR_restart_syscall:
		/* recorded under the row of the call it continues */
		return 0;
	}
	/* io_getevents' asynchronously filled buffers, and the rest */
	sp->flags |= FLIGHTREC_SC_UNKNOWN_OUT;
	return 0;
}

static void fr_span_new_life(void *arg, unsigned long addr, unsigned long len)
{
	fr_span_add(arg, FLIGHTREC_OUT_ARG_DERIVED, addr, len);
}

/* The calls fr_collect_new_life() looks at (a quick test for the others). */
static bool fr_nr_new_life_nr(u32 nr)
{
	return nr == __NR_mmap || nr == __NR_brk || nr == __NR_mremap;
}

static __always_inline bool fr_nr_new_life(u16 fe, long ret)
{
	return ret >= 0 && (fe & FR_FE_NEWLIFE);
}

/*
 * The memory a mapping call made, where an address had another life earlier
 * in the interval (munmap then mmap, brk down then up): its bytes as made
 * (zero, the file's) ride on the record as out-buffers, which replay writes
 * after re-making the mapping (seed 004 links such pages to the record).
 */
static void fr_collect_new_life(struct fr_spans *sp, struct fr_thread *t,
				u32 nr, const u64 *args, long ret, bool clear)
{
	unsigned long start, end;

	switch (nr) {
	case __NR_mmap:
		start = ret;
		end = ret + PAGE_ALIGN(args[1]);
		break;
	case __NR_brk:
		start = PAGE_ALIGN(t->sc_brk);
		end = PAGE_ALIGN(ret);
		break;
	case __NR_mremap:
		start = ret + PAGE_ALIGN(args[1]);
		end = ret + PAGE_ALIGN(args[2]);
		break;
	default:
		return;
	}
	if (start < end && end <= TASK_SIZE_MAX)
		fr_mem_new_life(t->proc, start, end, clear ? NULL : fr_span_new_life,
				sp, clear);
}

/*
 * A string the call read (its path), with its NUL, at most FR_IN_STR_MAX
 * bytes: kept as FLIGHTREC_OUT_ARG_IN so that `flightrec log` shows what
 * the program built in the interval, which the pages of the interval's
 * start do not hold.  Read at exit: the kernel does not change it.  In the
 * probe a page that is not resident sends the record to the sleeping retry;
 * there an unreadable string (the call's EFAULT) is left out.
 */
#define FR_IN_STR_MAX	PATH_MAX

static int fr_span_in_str(struct fr_spans *sp, const struct fr_data_desc *d,
			  const u64 *args, bool atomic)
{
	u64 a = args[d->arg], n = 0;
	char buf[64];

	if (!a)
		return 0;
	/* its length, NUL included: chunks that stay within a page */
	while (n < FR_IN_STR_MAX) {
		size_t len = min_t(u64, sizeof(buf), PAGE_SIZE - ((a + n) & ~PAGE_MASK));
		const char *nul;

		len = min_t(u64, len, FR_IN_STR_MAX - n);
		if (fr_read(buf, a + n, len, atomic))
			return atomic ? -EFAULT : 0;
		nul = memchr(buf, 0, len);
		if (nul) {
			n += nul - buf + 1;
			break;
		}
		n += len;
	}
	fr_span_add(sp, FLIGHTREC_OUT_ARG_IN | d->arg, a, n);
	return 0;
}

static int fr_collect(struct fr_spans *sp, u32 nr, const u64 *args, long ret,
		      bool atomic)
{
	const struct fr_kdesc *d;
	u32 flags;
	int i, err;

	sp->n = 0;
	sp->flags = 0;
	sp->total = 0;
	if (nr >= FR_NR_SYSCALLS || !fr_table[nr].valid) {
		/*
		 * A number outside the table (a probe for a newer call, a
		 * private number, an x32 one): recorded with its result like
		 * any other.  One the kernel answered -ENOSYS did nothing,
		 * and has nothing to copy back; any other result may have
		 * written memory that no row describes.
		 */
		if (ret != -ENOSYS)
			sp->flags |= FLIGHTREC_SC_UNKNOWN_OUT;
		if (nr >= FLIGHTREC_NR_EVENT_FIRST && nr <= FLIGHTREC_NR_EVENT_LAST)
			sp->flags |= FLIGHTREC_SC_REAL_NR;
		return 0;
	}
	d = &fr_table[nr];
	flags = d->flags;
	if (flags & FR_F_IRREGULAR) {
		err = fr_span_irregular(sp, nr, args, ret, &flags, atomic);
		if (err)
			return err;
	}
	if (flags & FR_F_UNSAFE)
		sp->flags |= FLIGHTREC_SC_UNKNOWN_OUT;
	/*
	 * The paths it read, failed or not (an open's ENOENT is worth
	 * reading); not after an exec that succeeded: its memory is gone.
	 */
	for (i = 0; i < 2 && !(ret >= 0 && (nr == __NR_execve || nr == __NR_execveat)); i++) {
		if (d->in[i].kind != FR_SZ_STR)
			continue;
		err = fr_span_in_str(sp, &d->in[i], args, atomic);
		if (err)
			return err;
	}
	if (ret < 0 && !(flags & FR_F_OUTERR))
		return 0;
	for (i = 0; i < 3; i++) {
		if (d->out[i].kind == FR_SZ_NONE)
			continue;
		err = fr_span_desc(sp, &d->out[i], args, ret, atomic,
				   flags & FR_F_OUTERR);
		if (err)
			return err;
	}
	return 0;
}

/*
 * What the kernel writes into the rseq area of the current thread when it
 * returns to user space from here (rseq_update_cpu_node_id(), at a
 * syscall's return and at a signal's delivery): cpu_id_start and cpu_id,
 * and from 6.3 node_id and mm_cid.  Noted on @rec when it differs from what
 * the thread's last record said, so replay writes it at the same point
 * (issue 25, class 11: glibc's sched_getcpu() reads cpu_id).  The CPU is
 * this one: a thread moved between here and its return to user space (a
 * preemption after the probe) sees another, and one moved while it runs
 * user code gets the new value at that return, which no record marks:
 * replay writes it at the thread's next record (docs/replay.md, "Limits").
 * The thread's last note is what its last placed record said
 * (fr_rseq_placed): a record built and then given up (a copy retried in
 * task_work, a record lost) leaves it, so the next one says it again.  It
 * is kept as one key of the CPU and mm_cid (the node is the CPU's), one
 * compare per record.
 */
static __always_inline u64 fr_rseq_key(u32 cpu, u32 cid)
{
	return (u64)cid << 32 | (cpu + 1);	/* never 0 */
}

static __always_inline void fr_rseq_note(struct fr_thread *t,
					 struct fr_sc_rec *rec)
{
	u32 cpu, cid;

	rec->rseq_has = 0;
#ifdef CONFIG_RSEQ
	if (t->task != current || !current->rseq) {
		t->rseq_key = 0;	/* registered again: said again */
		return;
	}
	cpu = raw_smp_processor_id();
	cid = fr_task_mm_cid(current);
	if (t->rseq_key == fr_rseq_key(cpu, cid))
		return;
	rec->rseq_has = FR_RSEQ_NODE_CID ? FR_RSEQ_HAS_CPU | FR_RSEQ_HAS_NODE_CID :
					   FR_RSEQ_HAS_CPU;
	rec->rseq_cpu = cpu;
	rec->rseq_node = FR_RSEQ_NODE_CID ? cpu_to_node(cpu) : 0;
	rec->rseq_cid = cid;
#endif
}

/* @rec, with an rseq note, is in the ring: the thread's last note (thread's own) */
static __always_inline void fr_rseq_placed(struct fr_thread *t,
					   const struct fr_sc_rec *rec)
{
	t->rseq_key = fr_rseq_key(rec->rseq_cpu, rec->rseq_cid);
}

/* The record's header, for the call t is finishing; no out-buffer yet. */
static __always_inline void fr_rec_head(struct fr_thread *t,
					struct fr_sc_rec *rec, u32 flags,
					long ret, size_t size)
{
	rec->seq = t->sc_seq;
	rec->tid = t->tid;
	rec->nr = t->sc_nr;
	/* in_hash is only read with the flag (dump.c): copied either way */
	rec->flags = flags | t->sc_in_flags;
	rec->in_hash = t->sc_in_hash;
	rec->time_ns = t->sc_ns;
	memcpy(rec->args, t->sc_args, sizeof(rec->args));
	rec->ret = ret;
	rec->nouts = 0;
	rec->size = size;
	if (flags & FLIGHTREC_SC_UNFINISHED)
		rec->rseq_has = 0;	/* another thread's, not returned */
	else
		fr_rseq_note(t, rec);
}

/* out[1] and out[2] of a FR_FE_OUT2 row: does either have a pointer? */
static __always_inline bool fr_small_more_outs(const struct fr_thread *t)
{
	const struct fr_data_desc *d = fr_table[t->sc_nr].out;

	return (d[1].kind != FR_SZ_NONE && t->sc_args[d[1].arg]) ||
	       (d[2].kind != FR_SZ_NONE && t->sc_args[d[2].arg]);
}

/*
 * The common shape, built without the span list (fr_collect, fr_build): a
 * regular row with at most one out-buffer (and others whose pointers are
 * NULL), of fixed, returned or argument-given size, up to FR_SMALL_OUT
 * bytes (a 1-byte read, a stat, a timespec, a few epoll events).  The same
 * record as the general path makes.  In the probe;
 * returns NULL when the call is not of that shape, ERR_PTR(-EAGAIN) when
 * the general path's sleeping retry is needed.
 */
static __always_inline struct fr_sc_rec *fr_build_small(struct fr_thread *t,
							 long ret, u16 fe)
{
	struct fr_data_desc o;
	struct fr_sc_rec *rec;
	u64 addr = 0, len = 0, n;
	size_t size;

	if (!(fe & FR_FE_SMALL))
		return NULL;
	/* one copy of the row's fields: the stores below alias nothing of it */
	o = fr_table[t->sc_nr].out[0];
	if (ret >= 0 || (fr_table[t->sc_nr].flags & FR_F_OUTERR)) {
		/*
		 * More out-buffers only when their pointers are NULL, as they
		 * nearly always are where the row has them (gettimeofday's
		 * tz, wait4's rusage, recvfrom's address): then they add no
		 * span (fr_span_add).
		 */
		if (unlikely(fe & FR_FE_OUT2) && fr_small_more_outs(t))
			return NULL;
		switch (o.kind) {
		case FR_SZ_NONE:
			break;
		case FR_SZ_FIXED:
			len = o.p1;
			break;
		case FR_SZ_RET:
			n = ret > 0 ? ret : 0;
			goto scaled;
		case FR_SZ_ARG:
			n = t->sc_args[o.p1];
			goto scaled;
		case FR_SZ_ARG_RET:
			n = ret >= 0 ? min_t(u64, t->sc_args[o.p1], ret) : 0;
scaled:
			if (n > FR_SMALL_OUT)
				return NULL;
			len = o.p2 ? n * o.p2 : n;
			break;
		default:
			return NULL;
		}
		if (len > FR_SMALL_OUT)
			return NULL;
		addr = t->sc_args[o.arg];
		if (!addr)
			len = 0;
	}
	size = sizeof(*rec) + (len ? sizeof(struct fr_sc_out) : 0) + len;
	rec = fr_rec_alloc_small(t, size);
	if (!rec)
		return ERR_PTR(-EAGAIN);
	fr_rec_head(t, rec, 0, ret, size);
	if (len) {
		struct fr_sc_out *out = &rec->outs[0];
		u8 *p = (u8 *)(out + 1);

		if (len <= FR_SMALL_COPY ?
		    fr_read_small_nofault(p, (const void __user *)addr, len) :
		    fr_read_nofault(p, (const void __user *)addr, len)) {
			fr_sc_rec_free(rec);
			return ERR_PTR(-EAGAIN);
		}
		out->arg = o.arg;
		out->addr = addr;
		out->len = len;
		out->data = p;
		rec->nouts = 1;
	}
	return rec;
}

static struct fr_sc_rec *fr_build(struct fr_thread *t, struct fr_spans *sp,
				  long ret, bool atomic)
{
	size_t hdr = sizeof(struct fr_sc_rec) + sp->n * sizeof(struct fr_sc_out);
	size_t size = hdr + sp->total;
	struct fr_sc_rec *rec;
	u8 *p;
	u32 i;

	if (atomic) {
		if (size > FR_ATOMIC_MAX)
			return ERR_PTR(-EAGAIN);
		rec = fr_rec_alloc(t, size, GFP_NOWAIT);
		if (!rec)
			return ERR_PTR(-EAGAIN);
	} else {
		/*
		 * A big record (a readv of 64 x 16 MiB is 1 GiB) is charged
		 * before it is allocated, into the thread's credit, which
		 * fr_append_rec() then spends: memory past the cap is never
		 * taken, not even for a moment.
		 */
		if (size > FR_REC_CHUNKED) {
			if (size > U32_MAX - t->credit ||
			    !fr_charge(t->proc, size))
				return ERR_PTR(-ENOSPC);
			t->credit += size;
		}
		rec = fr_rec_alloc(t, size, GFP_KERNEL);
		if (!rec) {
			if (size > FR_REC_CHUNKED) {
				t->credit -= size;
				fr_uncharge(size);
			}
			return ERR_PTR(-ENOMEM);
		}
	}
	fr_rec_head(t, rec, sp->flags, ret, size);
	p = (u8 *)rec + hdr;
	for (i = 0; i < sp->n; i++) {
		struct fr_sc_out *o = &rec->outs[rec->nouts];

		if (sp->s[i].len >= FR_BULK_MIN ?
		    fr_read_bulk(p, sp->s[i].addr, sp->s[i].len, atomic) :
		    fr_read(p, sp->s[i].addr, sp->s[i].len, atomic)) {
			if (atomic) {
				fr_sc_rec_free(rec);
				return ERR_PTR(-EAGAIN);
			}
			/* a path gone since it was measured: no out-buffer lost */
			if (!FLIGHTREC_OUT_IS_IN(sp->s[i].arg))
				rec->flags |= FLIGHTREC_SC_COPY_FAILED;
			continue;
		}
		o->arg = sp->s[i].arg;
		o->addr = sp->s[i].addr;
		o->len = sp->s[i].len;
		o->data = p;
		p += o->len;
		rec->nouts++;
	}
	return rec;
}

/*
 * list_add_tail(new, next) for a record joining an interval, without
 * CONFIG_DEBUG_LIST's check (an out-of-line call that cost 17 of the
 * record's instructions, as __skb_queue_tail links skbs without it).  The
 * neighbours are in the thread's log (fr_log_own); a record is
 * linked once, into one list, and never unlinked alone (whole logs are
 * spliced, fr_sc_recs_free frees a whole interval).
 */
static __always_inline void fr_rec_link(struct list_head *new,
					struct list_head *prev,
					struct list_head *next)
{
	next->prev = new;
	new->next = next;
	new->prev = prev;
	WRITE_ONCE(prev->next, new);
}

/*
 * Record bytes are charged against ring_mb ahead, a few KiB at a time, and
 * spent from t->credit: no atomic operation per record on the global count
 * (fr_bytes, one cache line for every recording CPU).  What is left goes
 * back when the thread is freed (fr_thread_free_rcu).  Only t spends or
 * refills its credit: every record of t is appended in t's own context, as
 * its chunk is cut (arena.c).  Unspent credit counts as used ("bytes" in
 * status): at most FR_CREDIT per recording thread, and none under a cap of
 * less than FR_CREDIT_MIN_CAP, where many threads could hold a real share.
 */
#define FR_CREDIT		(4U << 10)
#define FR_CREDIT_MIN_CAP	(64ULL << 20)

static noinline bool fr_charge_refill(struct fr_thread *t, u32 size)
{
	u32 need = size - t->credit;
	u32 ahead = ((u64)READ_ONCE(fr_ring_mb) << 20) >= FR_CREDIT_MIN_CAP ?
		    FR_CREDIT : 0;

	if (ahead && fr_charge(t->proc, need + ahead)) {
		t->credit = ahead;
		return true;
	}
	/* at the cap: no more than needed, evicting as fr_charge() does */
	if (fr_charge(t->proc, need)) {
		t->credit = 0;
		return true;
	}
	return false;
}

static __always_inline bool fr_charge_rec(struct fr_thread *t, u32 size)
{
	if (likely(t->credit >= size)) {
		t->credit -= size;
		return true;
	}
	return fr_charge_refill(t, size);
}

/*
 * At a freeze's cut (interval.c, fr_boundary; proc->lock held, current the
 * thread that freezes): each other thread inside a call that was numbered
 * at entry (futex, clone, ... and every call in serial mode) gets a record
 * of that call in the closed interval, flagged FLIGHTREC_SC_UNFINISHED: it
 * had decided to make the call, and ran its user code up to it, before the
 * end.  Without it replay cannot place that user code among the other
 * threads' (issue 25, class 5: a main thread that unlocked a mutex on its
 * way into a condvar wait, then the worker that took the mutex crashed;
 * replay let the worker run first, and it found the mutex held).  When its
 * call returns later, the thread records it in the new interval, which the
 * dump does not hold.  No memory (GFP_ATOMIC): the interval says a record
 * was lost, as for any record.
 */
void fr_sc_unfinished(struct fr_proc *proc, struct fr_interval *iv)
{
	struct fr_thread *t;
	struct fr_sc_rec *rec;
	size_t size = ALIGN(sizeof(*rec), 8);

	lockdep_assert_held(&proc->lock);
	list_for_each_entry(t, &proc->threads, pnode) {
		if (t->task == current || !READ_ONCE(t->in_sc))
			continue;
		smp_rmb();	/* in_sc before sc_*: fr_sys_enter */
		/* stable while in_sc: not cleared while proc->cutting */
		if (!t->sc_seq)
			continue;
		rec = fr_rec_alloc_alone(size, GFP_ATOMIC | __GFP_NOWARN);
		if (!rec) {
			proc->lost++;
			iv->lost++;
			iv->flags |= FLIGHTREC_IF_LOST_RECORD;
			continue;
		}
		fr_rec_head(t, rec, FLIGHTREC_SC_UNFINISHED, 0, size);
		/* charged as the freeze's other small allocations: it must cut */
		atomic64_add(size, &fr_bytes);
		/* put in sequence order with the rest (fr_iv_sort) */
		list_add_tail(&rec->node, &iv->syscalls);
		iv->unsorted = true;
		iv->nr_syscalls++;
		iv->bytes += size;
		proc->nr_syscalls++;
	}
}

static void fr_lost(struct fr_proc *proc);

/*
 * A thread places its records and leaves its calls on its own
 * (fr_log_own: no lock), but while the logs are held (proc->cutting: a cut
 * is being made, or the logs taken) under proc->lock: what the holder
 * read of t (in_sc, held_cap, its log) does not change until it lets go.
 * The holder sets cutting under proc->lock, then waits for every thread
 * that was placing a record on its own (fr_logs_hold, fr_log_wait).
 */

/*
 * t's syscall stops being open for a boundary (fr_gather_threads): on
 * its own (fr_log_own), or under proc->lock while the logs are held.
 */
static __always_inline void fr_sc_closed(struct fr_thread *t)
{
	WRITE_ONCE(t->in_sc, false);
	WRITE_ONCE(t->held_cap, false);
}

/*
 * Tests only (tests/record_threads.c, logs_held_while_busy): a delay of
 * log_delay_us inside every record's placement, between its link into
 * the log and the log's count, which widens the window in which a thread
 * works on its log on its own from a few dozen instructions to that
 * long.  A holder that did not wait for the thread (fr_log_wait) would
 * then take a log whose count does not match its records.  Off, it is a
 * jump label: one no-op instruction per record.
 */
static DEFINE_STATIC_KEY_FALSE(fr_log_delay_key);
static unsigned int fr_log_delay_us;
static DEFINE_MUTEX(fr_log_delay_lock);

static int fr_set_log_delay_us(const char *val, const struct kernel_param *kp)
{
	unsigned int us;
	int err = kstrtouint(val, 10, &us);

	if (err || us > 1000)
		return -EINVAL;
	mutex_lock(&fr_log_delay_lock);
	WRITE_ONCE(fr_log_delay_us, us);
	if (us && !static_key_enabled(&fr_log_delay_key))
		static_branch_enable(&fr_log_delay_key);
	else if (!us && static_key_enabled(&fr_log_delay_key))
		static_branch_disable(&fr_log_delay_key);
	mutex_unlock(&fr_log_delay_lock);
	return 0;
}

static const struct kernel_param_ops fr_log_delay_ops = {
	.set = fr_set_log_delay_us,
	.get = param_get_uint,
};

module_param_cb(log_delay_us, &fr_log_delay_ops, &fr_log_delay_us, 0600);
MODULE_PARM_DESC(log_delay_us,
		 "tests only: a delay inside every record's placement, in microseconds (0-1000, default 0)");

/* What fr_log_put() did. */
enum fr_put {
	FR_PUT_PLACED,
	FR_PUT_LOST,		/* recording had started: a real loss */
	FR_PUT_NOT_RECORDING,
	FR_PUT_HELD,		/* not done: the logs are held (fr_log_own) */
};

/*
 * rec into t's log (the open interval's, taken into it at the next cut:
 * fr_log_take), or not.  With `closes`, the thread's syscall stops being
 * open (in_sc) under the same lock: a cut (interval.c, fr_gather_threads)
 * that finds it open takes its context as "inside the call", and the
 * record then lands in the new interval.  `plain`: rec is
 * fr_build_small()'s, with no flag that marks the interval.  Sequence
 * order is made when the interval is read (fr_iv_sort).  t's log owned
 * (fr_log_own), or proc->lock held.
 */
static __always_inline enum fr_put fr_log_put(struct fr_thread *t,
					      struct fr_sc_rec *rec,
					      bool closes, bool plain, bool ok)
{
	if (IS_ENABLED(CONFIG_PROVE_LOCKING))
		WARN_ON_ONCE(t->task != current);
	if (closes)
		fr_sc_closed(t);
	/* the logs are taken whenever cur changes, after it changed */
	if (!READ_ONCE(t->proc->cur))
		return FR_PUT_NOT_RECORDING;
	if (!ok)
		return FR_PUT_LOST;
	if (unlikely(rec->rseq_has))
		fr_rseq_placed(t, rec);
	fr_rec_link(&rec->node, t->log.prev, &t->log);
	if (static_branch_unlikely(&fr_log_delay_key))
		udelay(READ_ONCE(fr_log_delay_us));
	t->log_nr++;
	t->log_bytes += rec->size;
	if (!plain && unlikely(rec->flags & (FLIGHTREC_SC_UNKNOWN_OUT |
					     FLIGHTREC_SC_TRUNCATED |
					     FLIGHTREC_SC_COPY_FAILED))) {
		if (rec->flags & FLIGHTREC_SC_UNKNOWN_OUT)
			t->log_flags |= FLIGHTREC_IF_UNKNOWN_SYSCALL;
		if (rec->flags & (FLIGHTREC_SC_TRUNCATED |
				  FLIGHTREC_SC_COPY_FAILED))
			t->log_flags |= FLIGHTREC_IF_LOST_RECORD;
	}
	/* only fr_sc_flush_signal appends signals (closes false) */
	if (!closes && rec->nr == FLIGHTREC_NR_SIGNAL &&
	    !(rec->flags & FLIGHTREC_SC_REAL_NR) &&
	    (rec->args[5] & FLIGHTREC_SIG_IN_USER))
		t->log_flags |= FLIGHTREC_IF_ASYNC_SIGNAL;
	/* the flag with its record: a cut between them split the two */
	if (!plain && unlikely(rec->nr == FLIGHTREC_NR_PREEMPT) &&
	    !(rec->flags & FLIGHTREC_SC_REAL_NR))
		t->log_flags |= FLIGHTREC_IF_PREEMPTED;
	return FR_PUT_PLACED;
}

/* fr_log_put() while the logs are held: after the holder lets go. */
static noinline enum fr_put fr_log_put_cutting(struct fr_thread *t,
					       struct fr_sc_rec *rec,
					       bool closes, bool plain, bool ok)
{
	enum fr_put put;

	spin_lock(&t->proc->lock);
	put = fr_log_put(t, rec, closes, plain, ok);
	spin_unlock(&t->proc->lock);
	return put;
}

/*
 * Puts a record of t into the open interval (its log), or counts it lost;
 * see fr_log_put().  @probe: from a syscall probe, preemption off (the
 * tracepoint's); else in t's task context.
 */
static __always_inline void fr_append_rec(struct fr_thread *t,
					  struct fr_sc_rec *rec, bool closes,
					  bool plain, bool probe)
{
	bool ok = fr_charge_rec(t, rec->size);
	enum fr_put put;

	/* a holder spins for the log: not while this thread is off a CPU */
	if (probe)
		lockdep_assert_preemption_disabled();
	else
		preempt_disable_notrace();
	put = FR_PUT_HELD;
	if (likely(fr_log_own(t))) {
		put = fr_log_put(t, rec, closes, plain, ok);
		fr_log_disown(t);
	}
	if (!probe)
		preempt_enable_notrace();
	if (unlikely(put == FR_PUT_HELD))
		put = fr_log_put_cutting(t, rec, closes, plain, ok);
	if (likely(put == FR_PUT_PLACED))
		return;
	if (put == FR_PUT_LOST)
		fr_lost(t->proc);
	if (ok)
		fr_uncharge(rec->size);
	fr_sc_rec_free(rec);
}

/*
 * Holds every thread's log of proc (proc->lock held): from here until
 * fr_logs_unhold(), a thread places records and leaves its calls only
 * under proc->lock (fr_log_own() fails).  A thread that was doing so on
 * its own may still be at it: fr_log_wait() waits for it.  Returns false
 * when the logs were held already (a cut being made), true when the
 * caller must let them go.
 */
bool fr_logs_hold(struct fr_proc *proc)
{
	lockdep_assert_held(&proc->lock);
	if (proc->cutting)
		return false;
	WRITE_ONCE(proc->cutting, true);
	smp_mb();	/* cutting before log_busy: pairs with fr_log_own() */
	return true;
}

void fr_logs_unhold(struct fr_proc *proc, bool held)
{
	lockdep_assert_held(&proc->lock);
	if (held)
		/* what the holder did to the logs, before: fr_log_own() */
		smp_store_release(&proc->cutting, false);
}

/*
 * The logs held (fr_logs_hold), t's is the caller's once t is done with
 * what it was doing on its own (a few dozen instructions, preemption off).
 */
void fr_log_wait(struct fr_thread *t)
{
	lockdep_assert_held(&t->proc->lock);
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	lock_map_acquire(&t->log_map);
	lock_map_release(&t->log_map);
#endif
	smp_cond_load_acquire(&t->log_busy, !VAL);
}

/*
 * Takes t's log into iv, or onto @drop (uncharged, for the caller to free
 * after its locks) when there is no interval to take it into.  proc->lock
 * held; holds t's log meanwhile, unless a cut does.
 */
void fr_log_take(struct fr_proc *proc, struct fr_thread *t,
		 struct fr_interval *iv, struct list_head *drop)
{
	bool held = fr_logs_hold(proc);

	fr_log_wait(t);
	if (list_empty(&t->log))
		goto out;
	if (iv) {
		list_splice_tail_init(&t->log, &iv->syscalls);
		iv->unsorted = true;
		iv->nr_syscalls += t->log_nr;
		iv->bytes += t->log_bytes;
		iv->flags |= t->log_flags;
		proc->nr_syscalls += t->log_nr;
	} else {
		list_splice_tail_init(&t->log, drop);
		fr_uncharge(t->log_bytes);
	}
	t->log_nr = 0;
	t->log_bytes = 0;
	t->log_flags = 0;
out:
	fr_logs_unhold(proc, held);
}

/*
 * Every thread's log into iv (see fr_log_take), proc->lock held: at a cut,
 * into the interval it closes; before the open interval is read (status,
 * `flightrec log`); into an interval about to be freed, after proc->cur
 * stopped pointing at it (a record placed after that sees no interval).
 */
void fr_logs_take(struct fr_proc *proc, struct fr_interval *iv,
		  struct list_head *drop)
{
	bool held = fr_logs_hold(proc);
	struct fr_thread *t;

	list_for_each_entry(t, &proc->threads, pnode)
		fr_log_take(proc, t, iv, drop);
	fr_logs_unhold(proc, held);
}

static int fr_rec_cmp(void *priv, const struct list_head *a,
		      const struct list_head *b)
{
	return list_entry(a, struct fr_sc_rec, node)->seq >
	       list_entry(b, struct fr_sc_rec, node)->seq;
}

/*
 * Merges @more (in sequence order) into @done (in sequence order), stably:
 * on equal numbers @done's records first.  The new records mostly follow
 * all of @done: the walk back from its end covers only those of @done that
 * a new one goes before, so a read of a growing interval costs its new
 * records, not the whole interval.  Leaves @more empty.
 */
static void fr_rec_merge(struct list_head *done, struct list_head *more)
{
	struct fr_sc_rec *m, *n;
	struct list_head *pos = done;	/* insert before pos; done: at the end */
	u64 first;

	if (list_empty(more))
		return;
	first = list_first_entry(more, struct fr_sc_rec, node)->seq;
	while (pos->prev != done &&
	       list_entry(pos->prev, struct fr_sc_rec, node)->seq > first)
		pos = pos->prev;
	list_for_each_entry_safe(m, n, more, node) {
		while (pos != done &&
		       list_entry(pos, struct fr_sc_rec, node)->seq <= m->seq)
			pos = pos->next;
		if (pos == done) {
			/* m and all after it follow every record of done */
			list_splice_tail_init(more, done);
			return;
		}
		list_move_tail(&m->node, pos);
	}
}

/*
 * Puts iv's records in sequence order (stable: one thread's records keep
 * theirs), before anything reads them in order: the dump, `flightrec log`.
 * Not at the cut, where the other threads wait for it to end.  Whoever
 * calls it owns iv's list (proc->lock for the ring's and the open
 * interval, the dump's bid_lock for a dump's).  Only the records placed
 * since the last call are sorted (one pass when they are in order already:
 * one thread, or threads that took turns) and merged into the rest: `flightrec
 * log PID` reads the open interval a skb at a time, each read taking the
 * logs into it, under proc->lock.
 */
void fr_iv_sort(struct fr_interval *iv)
{
	LIST_HEAD(done);
	struct fr_sc_rec *r;
	u64 last = 0;

	if (!iv->unsorted)
		return;
	iv->unsorted = false;
	if (iv->sorted_end)
		list_cut_position(&done, &iv->syscalls, iv->sorted_end);
	list_for_each_entry(r, &iv->syscalls, node) {
		if (r->seq < last) {
			list_sort(NULL, &iv->syscalls, fr_rec_cmp);
			break;
		}
		last = r->seq;
	}
	fr_rec_merge(&done, &iv->syscalls);
	list_splice(&done, &iv->syscalls);
	iv->sorted_end = list_empty(&iv->syscalls) ? NULL : iv->syscalls.prev;
}

/*
 * How many of iv's records placed since the last fr_iv_sort() are numbered
 * before @seq: those its merge puts before a record numbered @seq (on equal
 * numbers the new ones go after).  O(new records).  The caller owns iv's
 * list, as for fr_iv_sort().
 */
u32 fr_iv_new_before(struct fr_interval *iv, u64 seq)
{
	struct list_head *pos;
	u32 n = 0;

	if (!iv->unsorted)
		return 0;
	pos = iv->sorted_end ?: &iv->syscalls;
	list_for_each_continue(pos, &iv->syscalls)
		n += list_entry(pos, struct fr_sc_rec, node)->seq < seq;
	return n;
}

static void fr_append(struct fr_thread *t, struct fr_sc_rec *rec)
{
	fr_append_rec(t, rec, true, false, false);
}

static void fr_lost_n(struct fr_proc *proc, u32 n)
{
	spin_lock(&proc->lock);
	proc->lost += n;
	if (proc->cur) {
		proc->cur->lost += n;
		proc->cur->flags |= FLIGHTREC_IF_LOST_RECORD;
	}
	spin_unlock(&proc->lock);
}

static void fr_lost(struct fr_proc *proc)
{
	fr_lost_n(proc, 1);
}

/*
 * Records the syscall t is finishing, from the probe (atomic) or task_work.
 * With `defer` (the signal-delivery probe: atomic, a call that failed with
 * -EINTR, so no new life), the record goes on that list, not into the ring.
 */
static int fr_record_spans(struct fr_thread *t, long ret, bool atomic,
			   struct list_head *defer, bool new_life)
{
	struct fr_spans *sp;
	struct fr_sc_rec *rec;
	int err;

	if (atomic) {
		sp = this_cpu_ptr(&fr_scratch);
	} else {
		sp = kmalloc(sizeof(*sp), GFP_KERNEL | __GFP_NOWARN);
		if (!sp) {
			fr_lost(t->proc);
			return -ENOMEM;
		}
	}
	err = fr_collect(sp, t->sc_nr, t->sc_args, ret, atomic);
	if (!err && new_life)
		fr_collect_new_life(sp, t, t->sc_nr, t->sc_args, ret, false);
	if (err && atomic)
		return -EAGAIN;
	if (err)
		sp->flags |= FLIGHTREC_SC_COPY_FAILED;
	rec = fr_build(t, sp, ret, atomic);
	if (!atomic)
		kfree(sp);
	if (IS_ERR(rec)) {
		if (PTR_ERR(rec) == -EAGAIN)
			return -EAGAIN;
		fr_lost(t->proc);
		return PTR_ERR(rec);
	}
	if (defer) {
		/* atomic: every failure above was -EAGAIN, no lock taken */
		list_add_tail(&rec->node, defer);
		return 0;
	}
	fr_append(t, rec);
	/* its new-life pages are on the record now */
	if (new_life)
		fr_collect_new_life(NULL, t, t->sc_nr, t->sc_args, ret, true);
	return 0;
}

/*
 * The common shape first (fr_build_small), then the general one.  Inline in
 * sys_exit, where most records are made; @fe is fr_fe_of(t->sc_nr).
 */
static __always_inline int fr_record_fe(struct fr_thread *t, long ret,
					bool atomic, struct list_head *defer,
					u16 fe)
{
	bool new_life = fr_nr_new_life(fe, ret);
	struct fr_sc_rec *rec;

	if (atomic && !new_life) {
		rec = fr_build_small(t, ret, fe);
		if (IS_ERR(rec))
			return -EAGAIN;		/* its only error */
		if (rec) {
			if (defer)
				list_add_tail(&rec->node, defer);
			else
				fr_append_rec(t, rec, true, true, true);
			return 0;
		}
	}
	return fr_record_spans(t, ret, atomic, defer, new_life);
}

static int fr_record_to(struct fr_thread *t, long ret, bool atomic,
			struct list_head *defer)
{
	return fr_record_fe(t, ret, atomic, defer, fr_fe_of(t->sc_nr));
}

static int fr_record(struct fr_thread *t, long ret, bool atomic)
{
	return fr_record_to(t, ret, atomic, NULL);
}

/*
 * A record that is not a syscall (FLIGHTREC_NR_SIGNAL, FLIGHTREC_NR_RDTSC),
 * numbered now, with up to two out-buffers at address 0.  ERR_PTR(-ENOMEM)
 * when it cannot be allocated, NULL when the process is not being recorded.
 * Any context.
 */
/* The head of event record @rec of @size bytes, numbered now, no outs yet. */
static void fr_event_head(struct fr_thread *t, struct fr_sc_rec *rec, u32 nr,
			  const u64 *args, s64 ret, size_t size)
{
	rec->seq = fr_seq_next(t->proc);
	rec->tid = t->tid;
	rec->nr = nr;
	rec->flags = 0;
	rec->in_hash = 0;
	rec->time_ns = fr_stamp();
	/* a signal's delivery rewrites the rseq area (rseq_signal_deliver()) */
	if (nr == FLIGHTREC_NR_SIGNAL)
		fr_rseq_note(t, rec);
	else
		rec->rseq_has = 0;
	memcpy(rec->args, args, sizeof(rec->args));
	rec->ret = ret;
	rec->nouts = 0;
	rec->size = size;
}

static struct fr_sc_rec *fr_event_build(struct fr_thread *t, u32 nr,
					const u64 *args, s64 ret,
					const void *out0, u32 len0,
					const void *out1, u32 len1)
{
	struct fr_proc *proc = t->proc;
	const void *src[2] = { out0, out1 };
	u32 len[2] = { out0 ? len0 : 0, out1 ? len1 : 0 };
	size_t hdr = sizeof(struct fr_sc_rec) + 2 * sizeof(struct fr_sc_out);
	struct fr_sc_rec *rec;
	u8 *p;
	int i;

	if (!smp_load_acquire(&proc->started) || READ_ONCE(proc->dying))
		return NULL;
	rec = fr_rec_alloc(t, hdr + len[0] + len[1], GFP_NOWAIT);
	if (!rec)
		return ERR_PTR(-ENOMEM);
	fr_event_head(t, rec, nr, args, ret, hdr + len[0] + len[1]);
	p = (u8 *)rec + hdr;
	for (i = 0; i < 2; i++) {
		struct fr_sc_out *o;

		if (!src[i])
			continue;
		o = &rec->outs[rec->nouts++];
		o->arg = i;
		o->addr = 0;
		o->len = len[i];
		o->data = p;
		memcpy(p, src[i], len[i]);
		p += len[i];
	}
	return rec;
}

/* An event record (fr_event_build()) into the open interval.  Task context. */
void fr_sc_record_event(struct fr_thread *t, u32 nr, const u64 *args, s64 ret,
			const void *out0, u32 len0, const void *out1, u32 len1)
{
	struct fr_sc_rec *rec = fr_event_build(t, nr, args, ret, out0, len0,
					       out1, len1);

	if (IS_ERR(rec))
		fr_lost(t->proc);
	else if (rec)
		fr_append(t, rec);
}

static void fr_user_regs(struct user_regs_struct *u, const struct pt_regs *r);

/*
 * The FLIGHTREC_NR_PTRACE record of what current's tracer changed in it
 * (ptrace.c, fr_pt_note), placed @at (FLIGHTREC_PT_AT_*): its registers now
 * (out arg 0) and the bytes written (out arg 1, in order).  The notes are
 * taken even when no record can be made (NULL, ERR_PTR): they say nothing
 * of a later stop.  The thread's own context: sys_enter, the signal probe
 * (siglock, IRQs off), its task_work.
 */
struct fr_sc_rec *fr_sc_ptrace_build(struct fr_thread *t, u32 at)
{
	struct pt_regs *regs = task_pt_regs(current);
	struct fr_proc *proc = t->proc;
	struct fr_pt_write *w, *tmp;
	struct user_regs_struct ur;
	struct fr_sc_rec *rec = NULL;
	u64 args[6] = { at };
	unsigned long irqf;
	LIST_HEAD(writes);
	u32 n = 0, bytes = 0, flags;
	size_t hdr;
	u64 ip0;
	u8 *p;

	spin_lock_irqsave(&t->pt_lock, irqf);
	list_splice_init(&t->pt_writes, &writes);
	flags = t->pt_flags;
	args[1] = t->pt_stop;
	ip0 = t->pt_ip0;
	t->pt_flags = 0;
	t->pt_bytes = 0;
	WRITE_ONCE(t->pt_pending, false);
	spin_unlock_irqrestore(&t->pt_lock, irqf);

	if (!smp_load_acquire(&proc->started) || READ_ONCE(proc->dying))
		goto out;
	/* returning from a syscall: the stop was at its end (or after it) */
	if (at == FLIGHTREC_PT_AT_RESUME && t->sig_boundary && ip0 == t->sig_ip)
		flags |= FLIGHTREC_PT_AT_SYSCALL;
	args[2] = flags;
	args[3] = ip0;
	args[4] = regs->ip;
	list_for_each_entry(w, &writes, node) {
		n++;
		bytes += w->len;
	}
	n += !!(flags & FLIGHTREC_PT_REGS);
	hdr = sizeof(*rec) + n * sizeof(struct fr_sc_out);
	if (flags & FLIGHTREC_PT_REGS)
		bytes += sizeof(ur);
	rec = fr_rec_alloc(t, hdr + bytes, GFP_NOWAIT);
	if (!rec) {
		rec = ERR_PTR(-ENOMEM);
		goto out;
	}
	fr_event_head(t, rec, FLIGHTREC_NR_PTRACE, args, 0, hdr + bytes);
	p = (u8 *)rec + hdr;
	if (flags & FLIGHTREC_PT_REGS) {
		struct fr_sc_out *o = &rec->outs[rec->nouts++];

		fr_user_regs(&ur, regs);
		o->arg = 0;
		o->addr = 0;
		o->len = sizeof(ur);
		o->data = p;
		memcpy(p, &ur, sizeof(ur));
		p += sizeof(ur);
	}
	list_for_each_entry(w, &writes, node) {
		struct fr_sc_out *o = &rec->outs[rec->nouts++];

		o->arg = 1;
		o->addr = w->addr;
		o->len = w->len;
		o->data = p;
		memcpy(p, w->data, w->len);
		p += w->len;
	}
out:
	list_for_each_entry_safe(w, tmp, &writes, node)
		kfree(w);
	return rec;
}

/* The record of fr_sc_ptrace_build() into the open interval.  Task context. */
void fr_sc_ptrace(struct fr_thread *t, u32 at)
{
	struct fr_sc_rec *rec = fr_sc_ptrace_build(t, at);

	if (IS_ERR(rec))
		fr_lost(t->proc);
	else if (rec)
		fr_append_rec(t, rec, false, false, false);
}

/* the most of a signal frame kept (rt_sigframe, FPU state, alignment) */
#define FR_SIGFRAME_MAX		(32U << 10)

/*
 * The signal frame the kernel wrote at @sp for signal record @rec, if it is
 * one (@ctx, the context its handler starts with, is the record's signal
 * and points at it): a copy of @rec with the frame's bytes as
 * out-buffer 2 (address @sp), from sp to the end of its FPU state.  Replay
 * writes exactly these bytes, so what the kernel left untouched in the
 * frame (padding, reserved words, XSAVE areas not in use) stays as it was.
 * Sets *@below to the stack pointer of the context the frame holds (the
 * frame of an earlier signal delivered at the same return is there).
 * NULL when there is nothing to add.  Atomic context: nofault reads.
 */
static struct fr_sc_rec *fr_sigframe_rec(struct fr_thread *t,
					 struct fr_sc_rec *rec, u64 sp,
					 const u64 ctx[3], u64 *below)
{
	struct rt_sigframe __user *f = (struct rt_sigframe __user *)sp;
	struct _fpx_sw_bytes sw;
	u64 fpstate, end, rsp;
	struct fr_arena *arena;
	struct fr_sc_rec *n;
	size_t len;
	u32 i;
	u8 *p;

	if (rec->nr != FLIGHTREC_NR_SIGNAL || rec->nouts != 1 + !!(rec->args[5] &
							   FLIGHTREC_SIG_IN_USER))
		return NULL;
	if (ctx[0] != rec->args[0] ||
	    ctx[1] != sp + offsetof(struct rt_sigframe, info) ||
	    ctx[2] != sp + offsetof(struct rt_sigframe, uc))
		return NULL;
	/* the siginfo is written there only for an SA_SIGINFO handler */
	if (fr_read_nofault(&fpstate, &f->uc.uc_mcontext.fpstate,
			    sizeof(fpstate)) ||
	    fr_read_nofault(&rsp, &f->uc.uc_mcontext.sp, sizeof(rsp)))
		return NULL;
	*below = rsp;
	end = sp + sizeof(*f);
	if (fpstate) {
		if (fpstate < end || fpstate - sp > FR_SIGFRAME_MAX)
			return NULL;
		end = fpstate + sizeof(struct fxregs_state);
		if (!fr_read_nofault(&sw, (void __user *)(fpstate +
				offsetof(struct fxregs_state, sw_reserved)),
				sizeof(sw)) &&
		    sw.magic1 == FP_XSTATE_MAGIC1 &&
		    sw.extended_size >= sizeof(struct fxregs_state))
			end = fpstate + sw.extended_size;
	}
	len = end - sp;
	if (len > FR_SIGFRAME_MAX)
		return NULL;
	n = fr_rec_alloc(t, rec->size + sizeof(struct fr_sc_out) + len,
			 GFP_NOWAIT);
	if (!n)
		return NULL;
	arena = n->arena;
	*n = *rec;
	n->arena = arena;
	n->size = rec->size + sizeof(struct fr_sc_out) + len;
	p = (u8 *)&n->outs[rec->nouts + 1];
	for (i = 0; i < rec->nouts; i++) {
		n->outs[i] = rec->outs[i];
		n->outs[i].data = p;
		memcpy(p, rec->outs[i].data, rec->outs[i].len);
		p += rec->outs[i].len;
	}
	if (fr_read_nofault(p, (void __user *)sp, len)) {
		fr_sc_rec_free(n);
		return NULL;
	}
	n->outs[i].arg = 2;
	n->outs[i].addr = sp;
	n->outs[i].len = len;
	n->outs[i].data = p;
	n->nouts = i + 1;
	return n;
}

/*
 * The frames of the handlers about to run: the last signal record's at the
 * thread's stack pointer, an earlier one's below the context each frame
 * holds.  Each record with its frame replaces the record without.
 */
static void fr_sigframes(struct fr_thread *t)
{
	struct pt_regs *regs = task_pt_regs(current);
	u64 sp = regs->sp, ctx[3] = { regs->di, regs->si, regs->dx };
	struct fr_sc_rec *rec, *n;

	list_for_each_entry_reverse(rec, &t->sig_recs, node) {
		struct rt_sigframe __user *f = (struct rt_sigframe __user *)sp;
		u64 below = 0;

		if (rec->nr != FLIGHTREC_NR_SIGNAL)
			continue;
		n = fr_sigframe_rec(t, rec, sp, ctx, &below);
		if (!n)
			return;
		if (fr_read_nofault(&ctx[0], &f->uc.uc_mcontext.di, 8) ||
		    fr_read_nofault(&ctx[1], &f->uc.uc_mcontext.si, 8) ||
		    fr_read_nofault(&ctx[2], &f->uc.uc_mcontext.dx, 8))
			below = 0;
		list_replace(&rec->node, &n->node);
		fr_sc_rec_free(rec);
		rec = n;
		sp = below;
		if (!sp)
			return;
	}
}

/*
 * Appends what the signal-delivery probe left (t->sig_recs, t->sig_lost),
 * in t's own context: its task_work before it returns to user space, its
 * next syscall, its exit.  The records keep the numbers they got in the
 * probe; fr_append_rec() puts them in order.  By then the kernel has
 * written the handlers' frames (fr_sigframes).
 */
void fr_sc_flush_signal(struct fr_thread *t)
{
	struct fr_sc_rec *rec, *tmp;

	t->sig_pending = false;
	if (!list_empty(&t->sig_recs) && !(current->flags & PF_EXITING))
		fr_sigframes(t);
	list_for_each_entry_safe(rec, tmp, &t->sig_recs, node) {
		list_del(&rec->node);
		fr_append_rec(t, rec, false, false, false);
	}
	if (t->sig_lost) {
		fr_lost_n(t->proc, t->sig_lost);
		t->sig_lost = 0;
	}
}

struct fr_full_ctx {
	size_t since;		/* bytes read since the last cond_resched() */
	bool failed;
};

/* After a read of len bytes by fr_sc_hash_in_full()'s reader, @err its result. */
static int fr_full_read_done(struct fr_full_ctx *c, int err, size_t len)
{
	if (err) {
		c->failed = true;
		return -1;
	}
	c->since += len;
	if (c->since >= SZ_64K) {
		c->since = 0;
		cond_resched();
	}
	return 0;
}

/* fr_sc_hash_in_full()'s reader: the thread's own memory, faults served. */
static int fr_hash_read_user(void *ctx, fr_hash_u64 addr, void *buf,
			     size_t len)
{
	struct fr_full_ctx *c = ctx;

	/*
	 * fr_read_small() at any length: word loads (copy_from_user()'s rep
	 * movsb goes a byte at a time under TCG), faults served here
	 */
	return fr_full_read_done(c, fatal_signal_pending(current) ? -EINTR :
				 fr_read_small(buf, (const void __user *)addr, len),
				 len);
}

/*
 * task_work (before work_lock): the data a call of fr_in_hash_later() took,
 * by FR_IN_RULE_FULL now that its result is known.  No hash when it failed,
 * or when the data cannot be read (replay then checks its arguments).
 */
void fr_sc_hash_in_full(struct fr_thread *t)
{
	struct fr_full_ctx c = { 0 };
	u64 h;

	t->sc_in_defer = false;
	if (t->sc_ret < 0 || t->sc_nr >= FR_NR_SYSCALLS || !current->mm ||
	    (current->flags & PF_EXITING))
		return;
	h = fr_in_hash_rule(fr_table[t->sc_nr].in, t->sc_args, FR_IN_RULE_FULL,
			    t->sc_ret, fr_hash_read_user, &c);
	if (c.failed)
		return;
	t->sc_in_hash = h;
	t->sc_in_flags = FLIGHTREC_SC_IN_HASH_FULL;
}

/* task_work: the copy the probe could not make, or the hash it left. */
void fr_sc_finish_slow(struct fr_thread *t)
{
	t->sc_slow = false;
	if (t->sc_in_defer)
		fr_sc_hash_in_full(t);
	fr_record(t, t->sc_ret, false);
}


bool fr_sc_is_exit(u32 nr)
{
	return nr == __NR_exit_group || nr == __NR_exit;
}

/*
 * Calls whose memory effects must be captured before they happen: the range
 * they unmap or discard, as [start, end).  Returns false for other calls.
 */
static __always_inline bool fr_sc_unmaps(struct fr_proc *proc, u32 nr,
					 const u64 *a, unsigned long *start,
					 unsigned long *end)
{
	struct mm_struct *mm = current->mm;

	switch (nr) {
	case __NR_munmap:
		*start = a[0];
		*end = a[0] + PAGE_ALIGN(a[1]);
		return true;
	case __NR_mremap:
		/* and, with MREMAP_FIXED, the destination: fr_sc_held_work */
		*start = a[0];
		*end = a[0] + PAGE_ALIGN(a[1]);
		return true;
	case __NR_shmdt:
		/* the segment's extent: fr_sc_held_work finds it */
		*start = a[0];
		*end = a[0] + PAGE_SIZE;
		return offset_in_page(a[0]) == 0;
	case __NR_madvise:
		if (a[2] != MADV_DONTNEED && a[2] != MADV_FREE &&
		    a[2] != MADV_REMOVE && a[2] != MADV_DONTNEED_LOCKED)
			return false;
		*start = a[0];
		*end = a[0] + PAGE_ALIGN(a[1]);
		return true;
	case __NR_brk:
		if (!mm || a[0] >= mm->brk || a[0] < mm->start_brk)
			return false;
		*start = PAGE_ALIGN(a[0]);
		*end = PAGE_ALIGN(mm->brk);
		return *start < *end;
	case __NR_mmap:
		if (!(a[3] & (MAP_FIXED | MAP_FIXED_NOREPLACE)) ||
		    (a[3] & MAP_FIXED_NOREPLACE))
			return false;
		*start = a[0];
		*end = a[0] + PAGE_ALIGN(a[1]);
		return true;
	}
	return false;
}

/*
 * madvise(MADV_COLD) and madvise(MADV_PAGEOUT) clear the accessed bits of
 * the range's pages (mm/madvise.c, madvise_cold_or_pageout_pte_range): the
 * call is held, and the pages the open interval accessed are taken into
 * its page set first (fr_mem_harvest_young), as its boundary would have.
 */
static __always_inline bool fr_sc_clears_young(u32 nr, const u64 *a,
					       unsigned long *start,
					       unsigned long *end)
{
	if (nr != __NR_madvise || (a[2] != MADV_COLD && a[2] != MADV_PAGEOUT))
		return false;
	*start = a[0];
	*end = a[0] + PAGE_ALIGN(a[1]);
	return *start < *end;
}

static __always_inline bool fr_sc_needs_hold(struct fr_proc *proc,
					     struct fr_thread *t, u32 nr,
					     const u64 *args)
{
	unsigned long s, e;

	/*
	 * The process ends: its freeze with at_exit, or a dump asked for, is
	 * made before the call (after it, in exit_task_work, the mm is gone).
	 */
	if (fr_sc_is_exit(nr))
		return ((proc->at_exit && !proc->at_exit_done) ||
			READ_ONCE(proc->dump_req_id)) &&
		       (nr == __NR_exit_group || READ_ONCE(proc->nr_threads) == 1);
	/* the old image is parked before it goes (fr_exec_park) */
	if (nr == __NR_execve || nr == __NR_execveat)
		return READ_ONCE(proc->exec_chain);
	if (fr_sc_clears_young(nr, args, &s, &e))
		return true;
	return fr_sc_unmaps(proc, nr, args, &s, &e) && s < e &&
	       READ_ONCE(proc->nr_ring) + 1 > 0;
}

/*
 * The end of the System V segment attached at @start, as shmdt() will
 * detach it: the mappings of the same shm file from @start on, adjacent.
 * @start itself when there is none.
 */
static unsigned long fr_shm_end(unsigned long start)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	unsigned long end = start;
	struct file *file;

	mmap_read_lock(mm);
	vma = find_vma(mm, start);
	if (vma && vma->vm_start == start && vma->vm_file) {
		file = vma->vm_file;
		do {
			end = vma->vm_end;
			vma = find_vma(mm, end);
		} while (vma && vma->vm_start == end && vma->vm_file == file);
	}
	mmap_read_unlock(mm);
	return end;
}

/*
 * task_work of a held syscall (work_lock held): capture what it is about to
 * destroy, or note the accessed pages whose bits it is about to clear.
 * True when it captured (the call unmaps): the call then belongs with its
 * capture's interval.
 */
bool fr_sc_held_work(struct fr_proc *proc, struct fr_thread *t)
{
	unsigned long start, end;
	u64 args[6];

	struct file *file = NULL;

	syscall_get_arguments(current, task_pt_regs(current),
			      (unsigned long *)args);
	if (fr_sc_clears_young(t->held_nr, args, &start, &end)) {
		fr_mem_harvest_young(proc, start, end);
		return false;
	}
	if (!fr_sc_unmaps(proc, t->held_nr, args, &start, &end))
		return false;
	if (t->held_nr == __NR_shmdt)
		end = fr_shm_end(start);
	t->held_start[0] = start;
	t->held_end[0] = end;
	t->held_start[1] = 0;
	t->held_end[1] = 0;
	/* mremap(MREMAP_FIXED) unmaps whatever is at its destination first */
	if (t->held_nr == __NR_mremap && (args[3] & MREMAP_FIXED)) {
		t->held_start[1] = args[4];
		t->held_end[1] = args[4] + PAGE_ALIGN(args[2]);
		fr_mem_capture_range(proc, t->held_start[1], t->held_end[1],
				     NULL, 0);
	}
	/* mmap(MAP_FIXED, fd): the new mapping may show the same bytes */
	if (t->held_nr == __NR_mmap && !(args[3] & MAP_ANONYMOUS))
		file = fget(args[4]);
	fr_mem_capture_range(proc, start, end, file, args[5]);
	if (file)
		fput(file);
	return true;
}

/*
 * The per-process sequence number orders the threads' segments for replay.
 * A call that makes other threads' progress depend on it (futex: it decided
 * to wait; clone/fork: the child runs after it; exit) is numbered when it is
 * entered; every other call when it returns, so that effects are ordered as
 * they landed (two writers of one pipe, say).  docs/replay.md.
 */
static bool fr_seq_at_entry(long nr)
{
	switch (nr) {
	case __NR_futex: case __NR_futex_waitv: case __NR_clone:
	case __NR_clone3: case __NR_fork: case __NR_vfork: case __NR_exit:
	case __NR_exit_group:
		return true;
	}
	return false;
}

static void fr_fast_init(void)
{
	u32 nr;

	for (nr = 0; nr < FR_NR_SYSCALLS; nr++) {
		const struct fr_kdesc *d = &fr_table[nr];
		const struct fr_data_desc *in = &d->in[0];
		u16 fe = 0;

		switch (nr) {
		case __NR_munmap: case __NR_mremap: case __NR_madvise:
		case __NR_brk: case __NR_mmap: case __NR_exit:
		case __NR_exit_group: case __NR_shmdt: case __NR_execve:
		case __NR_execveat:
			fe |= FR_FE_HOLD;	/* fr_sc_needs_hold() */
		}
		if (fr_seq_at_entry(nr))
			fe |= FR_FE_SEQ;
		if (nr == __NR_brk)
			fe |= FR_FE_BRK;
		if (fr_sc_is_exit(nr))
			fe |= FR_FE_EXIT;
		if (fr_nr_new_life_nr(nr))
			fe |= FR_FE_NEWLIFE;
		if (nr == __NR_prctl || nr == __NR_execve ||
		    nr == __NR_execveat || nr == __NR_connect ||
		    nr == __NR_mprotect || nr == __NR_pkey_mprotect)
			fe |= FR_FE_XEXIT;
		switch (nr) {
		/*
		 * Interrupted, these fail with EINTR (the kernel does not
		 * restart them) and have done nothing: fr_sc_eintr_ours.
		 * fallocate: shmem (memfd, tmpfs) and hugetlbfs fail with
		 * EINTR at signal_pending(), which a boundary's kick makes
		 * true when it lands between the call's entry and in_sc;
		 * shmem undoes what it allocated, and every mode that can
		 * fail so (allocate, keep size, punch a hole) gives the same
		 * file when made again (s58: 2 of 6 recordings of
		 * tests/progs/threads_syscall_fpu got one).
		 * A socket with a receive or send timeout (SO_RCVTIMEO,
		 * SO_SNDTIMEO) fails a wait in read, recv*, accept*, write
		 * or send* with EINTR (sock_intr_errno): one that took or
		 * sent nothing, as every EINTR of these (a part sent is a
		 * count; tests/transparency.c, a dump requested in recv
		 * and in send).  So does connect: a unix one has done
		 * nothing then, and a TCP one made again waits for the same
		 * handshake, as the kernel itself restarts one without a
		 * timeout; only its -EALREADY at a timeout is the first
		 * call's -EINPROGRESS (fr_connect_exit).
		 */
		case __NR_epoll_wait: case __NR_epoll_pwait:
		case __NR_epoll_pwait2: case __NR_io_getevents:
		case __NR_io_pgetevents: case __NR_semop: case __NR_semtimedop:
		case __NR_msgrcv: case __NR_msgsnd: case __NR_mq_timedsend:
		case __NR_mq_timedreceive: case __NR_rt_sigtimedwait:
		case __NR_fallocate: case __NR_read: case __NR_readv:
		case __NR_recvfrom: case __NR_recvmsg: case __NR_recvmmsg:
		case __NR_accept: case __NR_accept4: case __NR_write:
		case __NR_writev: case __NR_sendto: case __NR_sendmsg:
		case __NR_sendmmsg: case __NR_connect:
			fe |= FR_FE_EINTR;
		}
		if (d->valid && (in[0].kind != FR_SZ_NONE ||
				 in[1].kind != FR_SZ_NONE)) {
			fe |= FR_FE_IN;
			if (in[1].kind == FR_SZ_NONE && in[0].arg < 6 &&
			    (in[0].kind == FR_SZ_FIXED ||
			     (in[0].kind == FR_SZ_ARG && in[0].p1 < 6)))
				fe |= FR_FE_IN1;
		}
		/*
		 * A path read (fr_span_in_str) takes the general path; so does
		 * a second or third out-buffer whose pointer is not NULL
		 * (fr_build_small).
		 */
		if (d->valid && !(d->flags & (FR_F_IRREGULAR | FR_F_UNSAFE)) &&
		    in[0].kind != FR_SZ_STR && in[1].kind != FR_SZ_STR)
			fe |= FR_FE_SMALL |
			      (d->out[1].kind != FR_SZ_NONE ||
			       d->out[2].kind != FR_SZ_NONE ? FR_FE_OUT2 : 0);
		fr_fe[nr] = fe;
	}
}

/*
 * Hashing costs a pass over the data in the syscall path, preemption off:
 * at most this much is read per call, which is what the hash covers of any
 * one descriptor (FR_IN_HASH_MAX, uapi/flightrec_inhash.h): a write of up
 * to 64 KiB is checked whole, a longer one on its first 64 KiB.  It was
 * 4 KiB, and a longer write had no hash, so a replay that wrote other bytes
 * there ended "as recorded" (issue 25).  Cost: `make bench BENCH=ddbig`.
 */
#define FR_IN_HASH_BUDGET	FR_IN_HASH_MAX

struct fr_hash_ctx {
	size_t budget;
	bool failed;
	bool over;		/* failed: more than the budget */
};

/* What the data passed in adds up to, as far as the arguments tell. */
static u64 fr_in_known_size(const struct fr_data_desc *d, const u64 *args)
{
	u64 n = 0;
	int i;

	for (i = 0; i < 2; i++) {
		switch (d[i].kind) {
		case FR_SZ_FIXED:
			n += d[i].p1;
			break;
		case FR_SZ_SOCKADDR:	/* at most its given length */
		case FR_SZ_ARG:
			/* capped first: no overflow; the hash reads no more */
			n += min_t(u64, args[d[i].p1 % 6], FR_IN_HASH_MAX) *
			     (d[i].p2 ? d[i].p2 : 1);
			break;
		default:
			break;	/* read to know: the budget decides */
		}
	}
	return n;
}

/* the inhash reader: nofault, within the budget; any failure voids the hash */
static int fr_hash_read(void *ctx, fr_hash_u64 addr, void *buf, size_t len)
{
	struct fr_hash_ctx *h = ctx;

	if (len > h->budget) {
		h->failed = true;
		h->over = true;
		return -1;
	}
	if (fr_read_nofault(buf, (const void __user *)addr, len)) {
		h->failed = true;
		return -1;
	}
	h->budget -= len;
	return 0;
}

/*
 * The divergence hash of the data the call passes in, as replay computes it
 * (uapi/flightrec_inhash.h).  At entry, without sleeping: when some of the
 * data is not resident, or there is more than FR_IN_HASH_BUDGET of it, the
 * call gets no hash (replay then checks number and arguments only).
 */
static bool fr_in_simple(const struct fr_data_desc *d)
{
	return d->kind == FR_SZ_NONE || d->kind == FR_SZ_FIXED ||
	       d->kind == FR_SZ_ARG;
}

/*
 * fr_hash_range()'s FR_HR_WORDS hash of len bytes of user memory (one
 * piece: len is at most FR_SMALL_COPY), read in place: fr_hash_words()'s
 * 16 bytes a multiply (with @pairs), its odd word, then the last 0-7 bytes
 * by FNV-1a, with their steps (uapi/flightrec_inhash.h): only the reading
 * is this function's own.  No page fault served in the probes
 * (fr_nofault_begin).
 */
static __always_inline int fr_hash_user_words_at(u64 *hash,
						 const void __user *src,
						 size_t len, bool pairs)
{
	const u8 __user *s = src;
	u64 h = *hash, w0, w1;
	u8 b;

	if (!user_access_begin(s, len))
		return -EFAULT;
	for (; pairs && len >= 2 * sizeof(w0);
	     len -= 2 * sizeof(w0), s += 2 * sizeof(w0)) {
		unsafe_get_user(w0, (const u64 __user *)s, fault);
		unsafe_get_user(w1, (const u64 __user *)s + 1, fault);
		h = fr_hash_pair_step(h, w0, w1);
	}
	if (len >= sizeof(w0)) {
		unsafe_get_user(w0, (const u64 __user *)s, fault);
		h = fr_hash_word_step(h, w0);
		len -= sizeof(w0);
		s += sizeof(w0);
	}
	for (; len; len--, s++) {
		unsafe_get_user(b, s, fault);
		h = fr_fnv1a_step(h, b);
	}
	user_access_end();
	*hash = h;
	return 0;
fault:
	user_access_end();
	return -EFAULT;
}

static __always_inline int fr_hash_user_words(u64 *hash,
					      const void __user *src,
					      size_t len, bool pairs)
{
	int err;

	fr_nofault_begin();
	err = fr_hash_user_words_at(hash, src, len, pairs);
	fr_nofault_end();
	return err;
}

/*
 * FR_HASH_IN_PLACE for fr_hash_read(): a piece of up to 512 bytes hashed as
 * it lies, with that reader's budget and failures, never serving a fault.
 * Copied first, a piece cost a copy as long as the hash (memcached's 1 KiB
 * values: about 900 bytes a request).
 */
static int fr_hash_in_place(void *ctx, u64 addr, size_t len, u64 *h)
{
	struct fr_hash_ctx *hc = ctx;
	int err;

	if (len > hc->budget) {
		hc->failed = true;
		hc->over = true;
		return -1;
	}
	pagefault_disable();
	err = fr_hash_user_words_at(h, (const void __user *)addr, len, true);
	pagefault_enable();
	if (err) {
		hc->failed = true;
		return -1;
	}
	hc->budget -= len;
	return 0;
}

/* FR_HASH_IN_PLACE for fr_hash_read_user(): the same, faults served */
static int fr_hash_in_place_user(void *ctx, u64 addr, size_t len, u64 *h)
{
	return fr_full_read_done(ctx, fatal_signal_pending(current) ? -EINTR :
				 fr_hash_user_words_at(h, (const void __user *)addr,
						       len, true), len);
}

/*
 * fr_in_hash_desc() by FR_IN_RULE_WORDS for data of fixed or
 * argument-given size, at most FR_SMALL_COPY bytes in all (a write of a
 * few bytes, a timespec): hashed in place, without its reader callback and
 * its page-sized buffer.  The same bytes in the same pieces (one per
 * range), so the same hash.  Until s60 these calls kept FR_IN_RULE_BYTES,
 * FNV-1a byte by byte: 4 instructions a byte, most of sys_enter's cost for
 * a 64-byte write.
 */
static bool fr_hash_small(const struct fr_data_desc *d, const u64 *args,
			  u64 *hash)
{
	u64 h = FR_FNV_OFFSET;
	int i;

	for (i = 0; i < 2; i++) {
		u64 a = args[d[i].arg % 6], len;

		if (d[i].kind == FR_SZ_NONE || !a)
			continue;
		len = d[i].kind == FR_SZ_FIXED ? d[i].p1 :
		      args[d[i].p1 % 6] * (d[i].p2 ? d[i].p2 : 1);
		if (!len)
			continue;
		if (fr_hash_user_words(&h, (const void __user *)a, len, true))
			return false;
	}
	*hash = h;
	return true;
}

/*
 * A call that returns how much of its data it took (FR_F_IN_RET: write,
 * send...) and passes in more than FR_IN_HASH_MAX bytes is hashed as it
 * returns, whole, by FR_IN_RULE_FULL: its record is made in task_work
 * (fr_sc_finish_slow), where the thread may sleep and fault its pages in.
 * The call's own bytes: between its entry and that task_work the thread
 * runs no user code (another thread changing them races with the call).
 */
static bool fr_in_hash_later(struct fr_thread *t, const struct fr_kdesc *d,
			     const u64 *args)
{
	const struct fr_data_desc *in = &d->in[0];

	if (!(d->flags & FR_F_IN_RET))
		return false;
	if (in->kind == FR_SZ_ARG && args[in->p1 % 6] <= FR_IN_HASH_MAX)
		return false;
	/* FR_SZ_MMSGHDR (sendmmsg): always; only this rule reads it */
	t->sc_in_defer = true;
	return true;
}

static void fr_sc_hash_in_slow(struct fr_thread *t, const struct fr_kdesc *d,
			       const u64 *args)
{
	struct fr_hash_ctx h = { .budget = FR_IN_HASH_BUDGET };
	u64 size = fr_in_known_size(d->in, args);

	if ((size > FR_IN_HASH_BUDGET || d->in[0].kind == FR_SZ_ARG ||
	     d->in[0].kind == FR_SZ_MMSGHDR) && fr_in_hash_later(t, d, args))
		return;
	if (size > FR_IN_HASH_BUDGET)
		return;		/* a big write: not read only to be given up */
	if (size <= FR_SMALL_COPY && fr_in_simple(&d->in[0]) &&
	    fr_in_simple(&d->in[1])) {
		t->sc_in_flags = fr_hash_small(d->in, args, &t->sc_in_hash) ?
				 FLIGHTREC_SC_IN_HASH_W : 0;
		return;
	}
	/*
	 * 16 bytes a multiply where FNV-1a makes 16: nginx's headers (writev)
	 * cost 1,942 instructions a request byte by byte
	 */
	t->sc_in_hash = fr_in_hash_desc(d->in, args, FR_IN_RULE_WORDS,
					fr_hash_read, &h);
	if (h.over && fr_in_hash_later(t, d, args))
		t->sc_in_flags = 0;	/* iovecs of more than the budget */
	else if (h.failed)
		t->sc_in_flags = 0;
	else
		t->sc_in_flags = FLIGHTREC_SC_IN_HASH_W;
}

/*
 * fr_sc_hash_in1() of 16 to FR_SMALL_COPY bytes, out of line: inline, its
 * 128-bit multiply took sys_enter more registers, and every call 3 to 4
 * more instructions of prologue and epilogue (dd bs=1's 1-byte write has
 * no word to multiply).  It sets t's fields itself: a hash handed back
 * through a pointer would put it on sys_enter's stack, with a canary.
 */
static noinline void fr_sc_hash_in1_pairs(struct fr_thread *t, u64 a, u64 len)
{
	u64 h = FR_FNV_OFFSET;

	if (fr_hash_user_words(&h, (const void __user *)a, len, true))
		return;		/* not resident: no hash */
	t->sc_in_hash = h;
	t->sc_in_flags = FLIGHTREC_SC_IN_HASH_W;
}

/*
 * One buffer of at most FR_SMALL_COPY bytes, its size given by the row or an
 * argument (a write of a few bytes): fr_hash_small() without its loop and
 * table walk.  The same bytes, so the same hash.  False when the buffer is
 * bigger: the general path decides.  Inline in sys_enter: a call and its
 * prologue were a fifth of its cost for a 1-byte write.
 */
static __always_inline bool fr_sc_hash_in1(struct fr_thread *t, long nr,
					   const u64 *args)
{
	const struct fr_data_desc *in = &fr_table[nr].in[0];
	u64 a = args[in->arg], len = in->p1, h = FR_FNV_OFFSET;

	if (in->kind == FR_SZ_ARG) {
		len = args[in->p1];
		if (len > FR_SMALL_COPY)
			return false;
		len *= in->p2 ? in->p2 : 1;
	}
	if (len > FR_SMALL_COPY)
		return false;
	if (a && len >= 16) {
		fr_sc_hash_in1_pairs(t, a, len);
		return true;
	}
	if (a && len && fr_hash_user_words(&h, (const void __user *)a, len,
					   false))
		return true;	/* not resident: no hash */
	t->sc_in_hash = h;
	t->sc_in_flags = FLIGHTREC_SC_IN_HASH_W;
	return true;
}

/* Inline: most calls (a read) pass nothing in; @fe is fr_fe_of(nr). */
static __always_inline void fr_sc_hash_in(struct fr_thread *t, long nr,
					  const u64 *args, u16 fe)
{
	t->sc_in_flags = 0;
	t->sc_in_defer = false;
	if (!(fe & FR_FE_IN))
		return;
	if ((fe & FR_FE_IN1) && fr_sc_hash_in1(t, nr, args))
		return;
	fr_sc_hash_in_slow(t, &fr_table[nr], args);
}

/*
 * The held exit_group/exit of an at_exit freeze, recorded now so that the
 * dump ends with it (the call itself comes after the freeze).  task_work.
 */
void fr_sc_record_held_exit(struct fr_thread *t)
{
	t->sc_nr = t->held_nr;
	syscall_get_arguments(current, task_pt_regs(current),
			      (unsigned long *)t->sc_args);
	fr_sc_hash_in(t, t->sc_nr, t->sc_args, fr_fe_of(t->sc_nr));
	t->sc_seq = fr_seq_next(t->proc);
	t->sc_ns = fr_stamp();
	fr_record(t, 0, false);
}

/*
 * -ERESTARTSYS, -ERESTARTNOINTR, -ERESTARTNOHAND or -ERESTART_RESTARTBLOCK
 * (512-514, 516): one range test on every return, the hole (515) after it.
 */
static __always_inline bool fr_is_restart(long ret)
{
	BUILD_BUG_ON(ERESTARTSYS != 512 || ERESTARTNOINTR != 513 ||
		     ERESTARTNOHAND != 514 || ERESTART_RESTARTBLOCK != 516);
	return unlikely((unsigned long)(ret + ERESTART_RESTARTBLOCK) <=
			ERESTART_RESTARTBLOCK - ERESTARTSYS) &&
	       ret != -(ERESTARTNOHAND + 1);
}

/*
 * The syscall of t is over as far as a boundary is concerned (the sys_exit
 * probe).
 */
static void fr_sc_close(struct fr_thread *t)
{
	if (!READ_ONCE(t->in_sc))
		return;
	lockdep_assert_preemption_disabled();	/* the probe's */
	if (likely(fr_log_own(t))) {
		fr_sc_closed(t);
		fr_log_disown(t);
		return;
	}
	/* after the holder, as fr_log_put_cutting() */
	spin_lock(&t->proc->lock);
	fr_sc_closed(t);
	spin_unlock(&t->proc->lock);
}

/*
 * After a -ERESTART* return, t is "about to re-enter" the call while its
 * user registers say so: before the kernel's restart fixup (ip after the
 * syscall instruction, ax the restart code) or after it (ip on the
 * instruction, ax the call or restart_syscall, as arch_do_signal_or_restart
 * leaves them).  Anywhere else a signal handler runs: the program saw EINTR.
 */
static bool fr_sc_at_restart(struct fr_thread *t, u64 ip, u64 ax, u64 orig_ax)
{
	if (ip == t->restart_ip)
		return fr_is_restart((long)ax);
	return ip == t->restart_ip - 2 &&
	       (ax == orig_ax || ax == __NR_restart_syscall);
}

/*
 * The representation of a thread inside (or about to re-enter) syscall nr
 * that the loader and replay expect, as the entry left pt_regs: ip after the
 * syscall instruction, ax -ENOSYS, orig_ax the call; in_syscall the call as
 * it is recorded (a call continued by restart_syscall keeps the number it
 * was entered with: fr_sys_enter).
 */
void fr_ctx_in_syscall(struct fr_thread_ctx *ctx, u32 nr, u64 ip)
{
	ctx->in_syscall = nr;
	ctx->regs.ip = ip;
	ctx->regs.ax = (u64)-ENOSYS;
	ctx->regs.orig_ax = nr;
}

/*
 * Task_work of t, current: a handler ran after the syscall returned
 * -ERESTART*, so the program saw EINTR.  Records that now, before a context
 * is taken at the handler: the record belongs before it.
 */
void fr_sc_settle(struct fr_thread *t)
{
	struct pt_regs *regs = task_pt_regs(current);

	if (!t->restart_pending ||
	    fr_sc_at_restart(t, regs->ip, regs->ax, regs->orig_ax))
		return;
	t->restart_pending = false;
	if (!t->sc_seq)
		t->sc_seq = fr_seq_next(t->proc);
	fr_record(t, -EINTR, false);
}

/*
 * Task_work the kernel runs on a syscall's way in, before sys_enter has
 * seen the call: ptrace_notify() runs it at a syscall-entry stop (when it
 * was queued after the thread entered the kernel) and at a seccomp stop
 * (SECCOMP_RET_TRACE).  pt_regs are then as the entry left them (ax
 * -ENOSYS, orig_ax the call, ip after a syscall instruction), which is
 * also what a call that failed with ENOSYS leaves for the task_work on its
 * way out: after one, the thread's last, at the same instruction, the
 * state is taken for that.  Any other return to user space has orig_ax -1
 * (interrupt, sigreturn) or an exception's error code; at an exception
 * right after a syscall instruction, rax is still the call's result, so
 * -ENOSYS only after a call that failed so.  @r: t's registers, t of
 * current's process (the instruction is read in current's mm, without
 * faulting).
 */
static bool fr_sc_pre_entry(struct fr_thread *t,
			    const struct user_regs_struct *r)
{
	u16 insn;

	if (r->ax != (u64)-ENOSYS || r->orig_ax >= FR_NR_SYSCALLS)
		return false;
	if (r->ip == t->enosys_ip)
		return false;
	return !copy_from_user_nofault(&insn, (const void __user *)(r->ip - 2),
				       sizeof(insn)) &&
	       insn == 0x050f;	/* syscall */
}

/*
 * A context of t's user registers taken in task_work (t stopped there): a
 * call whose record is not placed yet (slow copy, restart) is still open,
 * and the context says the thread is inside it, as for a blocked thread.
 * So does one whose task_work the kernel ran inside a call (in_sc: at a
 * PTRACE_EVENT_FORK, _CLONE, _VFORK or _VFORK_DONE stop) or before
 * sys_enter saw it (fr_sc_pre_entry): the loader makes the call again, and
 * its record, placed at its sys_exit, is in the interval this context
 * starts.  Before, such a context was after the call, with rax -ENOSYS: a
 * replay from it skipped the call (checkpoint_cmds
 * boundary_during_fork_event, boundary_during_seccomp_event).
 */
void fr_sc_ctx_fix(struct fr_thread *t, struct fr_thread_ctx *ctx)
{
	struct user_regs_struct *r = &ctx->regs;

	if (t->sc_slow || READ_ONCE(t->in_sc))
		fr_ctx_in_syscall(ctx, t->sc_nr, r->ip);
	else if (t->restart_pending &&
		 fr_sc_at_restart(t, r->ip, r->ax, r->orig_ax))
		fr_ctx_in_syscall(ctx, t->sc_nr, t->restart_ip);
	else if (fr_sc_pre_entry(t, r))
		fr_ctx_in_syscall(ctx, t->restart_pending &&
				  r->ip == t->restart_ip ? t->sc_nr : r->orig_ax,
				  r->ip);
}

/* Raised by the instruction the thread executed (a fault). */
static bool fr_sig_is_sync(int sig, const struct kernel_siginfo *info)
{
	switch (sig) {
	case SIGSEGV: case SIGBUS: case SIGFPE: case SIGILL: case SIGTRAP:
	case SIGSYS:
		return info->si_code > 0;
	}
	return false;
}

static void fr_user_regs(struct user_regs_struct *u, const struct pt_regs *r)
{
	memset(u, 0, sizeof(*u));
	u->r15 = r->r15; u->r14 = r->r14; u->r13 = r->r13; u->r12 = r->r12;
	u->bp = r->bp; u->bx = r->bx; u->r11 = r->r11; u->r10 = r->r10;
	u->r9 = r->r9; u->r8 = r->r8; u->ax = r->ax; u->cx = r->cx;
	u->dx = r->dx; u->si = r->si; u->di = r->di; u->orig_ax = r->orig_ax;
	u->ip = r->ip; u->cs = r->cs; u->flags = r->flags; u->sp = r->sp;
	u->ss = r->ss;
}

/*
 * signal_deliver probe (siglock held, interrupts off): current is about to
 * run the handler of @sig.  Records it (FLIGHTREC_NR_SIGNAL) where replay
 * must deliver it: at the syscall boundary it came out of, or in user code.
 * A syscall it interrupted with -ERESTART* is settled here, as the kernel
 * will settle it: recorded with -EINTR before the signal, or re-executed
 * after the handler (a fresh call then).  proc->lock is not taken under
 * siglock (see the lock order): the records wait on t->sig_recs.
 */
void fr_sc_signal(struct fr_thread *t, int sig, struct kernel_siginfo *info,
		  struct k_sigaction *ka)
{
	struct pt_regs *regs = task_pt_regs(current);
	struct user_regs_struct ur;
	u8 si[128];	/* sizeof(siginfo_t) */
	long nr = syscall_get_nr(current, regs), ax = (long)regs->ax;
	u64 args[6] = { sig, info->si_code, nr, ax, regs->ip, 0 };
	struct fr_sc_rec *rec;
	bool in_user;

	if (!smp_load_acquire(&t->proc->started) || READ_ONCE(t->proc->dying))
		return;
	if (t->restart_pending && nr >= 0 && fr_is_restart(ax)) {
		t->restart_pending = false;
		if (ax == -ERESTARTNOINTR ||
		    (ax == -ERESTARTSYS && (ka->sa.sa_flags & SA_RESTART))) {
			args[5] |= FLIGHTREC_SIG_RESTART;
		} else {
			args[5] |= FLIGHTREC_SIG_EINTR;
			if (!t->sc_seq)
				t->sc_seq = fr_seq_next(t->proc);
			if (fr_record_to(t, -EINTR, true, &t->sig_recs))
				t->sig_lost++;
		}
	}
	/* its signal-delivery stop came first: what the tracer changed there */
	if (t->pt_pending) {
		rec = fr_sc_ptrace_build(t, FLIGHTREC_PT_AT_SIGNAL);
		if (IS_ERR(rec))
			t->sig_lost++;
		else if (rec)
			list_add_tail(&rec->node, &t->sig_recs);
	}
	in_user = !t->sig_boundary || regs->ip != t->sig_ip;
	if (fr_sig_is_sync(sig, info)) {
		args[5] |= FLIGHTREC_SIG_SYNC;
		in_user = false;
	}
	if (in_user) {
		/* the interval gets FLIGHTREC_IF_ASYNC_SIGNAL with the record */
		args[5] |= FLIGHTREC_SIG_IN_USER;
		fr_user_regs(&ur, regs);
	}
	/* the siginfo as the handler sees it: kernel_siginfo, padded */
	BUILD_BUG_ON(sizeof(*info) > sizeof(si));
	memset(si, 0, sizeof(si));
	memcpy(si, info, sizeof(*info));
	rec = fr_event_build(t, FLIGHTREC_NR_SIGNAL, args, 0, si, sizeof(si),
			     in_user ? &ur : NULL, sizeof(ur));
	if (IS_ERR(rec))
		t->sig_lost++;
	else if (rec)
		list_add_tail(&rec->node, &t->sig_recs);
	/* appended before the handler runs (or at the next syscall, or exit) */
	if (!list_empty(&t->sig_recs) || t->sig_lost) {
		t->sig_pending = true;
		fr_twork_queue(t, TWA_RESUME);
	}
	/* a signal that comes next is delivered before the handler runs */
	t->sig_boundary = true;
	t->sig_ip = (u64)(unsigned long)ka->sa.sa_handler;
}

/*
 * Serial mode.  Replay runs one thread at a time, each up to its next
 * syscall, in sequence order.  Threads that ran user code at the same time
 * when recorded may have raced on memory between syscalls in ways that
 * order does not capture (two consumers popping a queue under an
 * uncontended mutex).  In serial mode the recording runs as replay will:
 * only the thread that holds proc->token runs user code; it passes the
 * token on when it enters a syscall (numbered at entry then, so that
 * sequence order is the order of the user-code segments), and a thread
 * goes back to user space only with the token (its task_work waits for it).
 * A holder that keeps the token FR_TOKEN_YIELD_MS while another waits is
 * made to yield in user code (a spin loop, a long computation): a
 * FLIGHTREC_NR_PREEMPT record, numbered before the token goes, holds its
 * registers there, and replay stops the thread at the same instruction
 * (the first time it is at that rip with those registers); the interval
 * that holds the record is flagged FLIGHTREC_IF_PREEMPTED (fr_log_put).
 */
#define FR_TOKEN_YIELD_MS	50

/*
 * Output calls (write, send...) keep the token until they return: two
 * threads' writes to one file then land in sequence order, which is the
 * order replay writes them in.  exit keeps it until the thread is gone
 * (fr_serial_exit), after the kernel cleared its clear_child_tid word, as
 * replay clears it at the exit record: a joiner sees either the thread or
 * the cleared word, in both.  Other calls pass it at entry.
 */
static bool fr_serial_holds(long nr)
{
	if (nr == __NR_exit || nr == __NR_exit_group)
		return true;
	return nr >= 0 && nr < FR_NR_SYSCALLS && (fr_table[nr].flags & FR_F_OUTPUT);
}

static bool fr_token_try(struct fr_proc *proc)
{
	struct task_struct *o = READ_ONCE(proc->token);

	if (o == current)
		return true;
	return !o && !cmpxchg(&proc->token, NULL, current);
}

/* Any context: @task gives the token up (syscall entry, exit). */
static void fr_token_release(struct fr_proc *proc, struct task_struct *task)
{
	if (READ_ONCE(proc->token) == task &&
	    cmpxchg(&proc->token, task, NULL) == task &&
	    wq_has_sleeper(&proc->token_wq))
		wake_up_all(&proc->token_wq);
}

/* A recorded thread of a serial proc exits. */
void fr_serial_exit(struct fr_proc *proc, struct task_struct *task)
{
	cmpxchg(&proc->token_to, task, NULL);
	/* PF_EXITING (set before) against fr_token_yield()'s handover */
	smp_mb();
	fr_token_release(proc, task);
}

/*
 * current, asked to yield, hands the token to the thread that asked.  In
 * user code that is a preemption, recorded where it happened
 * (FLIGHTREC_NR_PREEMPT: the user registers, numbered while current still
 * holds the token, so before every record the next holder makes); a call
 * blocked while it held the token (an output call) restarts, which replay
 * follows.  Task context (the thread's task_work), no lock held.
 */
static void fr_token_yield(struct fr_proc *proc, struct fr_thread *t,
			   bool in_call)
{
	struct task_struct *to = xchg(&proc->token_to, NULL);
	struct pt_regs *regs = task_pt_regs(current);
	struct fr_thread *tt;

	/* only the holder gives the token away: no one takes it meanwhile */
	if (READ_ONCE(proc->token) != current)
		return;
	/*
	 * Right after a syscall (an output call that kept the token) the
	 * thread is at the syscall boundary, which its records place: no
	 * preemption there.
	 */
	if (t->sig_boundary && regs->ip == t->sig_ip)
		in_call = true;
	if (!in_call) {
		u64 args[6] = { 0, 0, 0, 0, regs->ip, 0 };
		struct user_regs_struct ur;

		fr_user_regs(&ur, regs);
		fr_sc_record_event(t, FLIGHTREC_NR_PREEMPT, args, 0, &ur,
				   sizeof(ur), NULL, 0);
	}
	if (cmpxchg(&proc->token, current, to) != current)
		return;
	/*
	 * The thread that asked may be exiting: its exit probe gave nothing
	 * back (fr_serial_exit saw another holder), so a token handed to it
	 * now would never come back and every thread would wait for it.
	 * Handed over first, checked after (cmpxchg is a full barrier,
	 * fr_serial_exit has one): either it sees PF_EXITING here, or its
	 * exit probe sees the token its own and releases it.  RCU: a
	 * recorded thread holds its task.
	 */
	rcu_read_lock();
	tt = to ? fr_thread_find(to) : NULL;
	if (to && (!tt || tt->proc != proc ||
		   (READ_ONCE(to->flags) & PF_EXITING)))
		cmpxchg(&proc->token, to, NULL);
	rcu_read_unlock();
	wake_up_all(&proc->token_wq);
}

/* current has waited long: ask the holder to yield to it. */
static void fr_token_ask(struct fr_proc *proc)
{
	struct task_struct *h;
	struct fr_thread *ht;

	rcu_read_lock();
	h = READ_ONCE(proc->token);
	ht = h && h != current ? fr_thread_find(h) : NULL;
	if (ht && ht->proc == proc && !READ_ONCE(ht->token_yield)) {
		cmpxchg(&proc->token_to, NULL, current);
		WRITE_ONCE(ht->token_yield, true);
		/* TWA_SIGNAL: it may be running user code on another CPU */
		fr_twork_queue(ht, TWA_SIGNAL);
	}
	rcu_read_unlock();
}

/*
 * In the thread's task_work, last: back to user space only with the token.
 * Returns without it when the proc goes away, the thread is dying or
 * stopping, or more of our task_work is queued (which waits again).
 */
void fr_serial_wait(struct fr_proc *proc)
{
	struct task_struct *holder = NULL;
	unsigned long since = jiffies;
	struct fr_thread *t;
	bool yield = false, in_call = false;
	atomic_t *queued;

	if (!READ_ONCE(proc->serial) || !smp_load_acquire(&proc->started))
		return;
	rcu_read_lock();
	t = fr_thread_find(current);
	if (t && t->proc == proc) {
		yield = READ_ONCE(t->token_yield);
		WRITE_ONCE(t->token_yield, false);
		in_call = t->restart_pending || READ_ONCE(t->in_sc);
		fr_thread_get(t);
	} else {
		t = NULL;
	}
	rcu_read_unlock();
	if (!t)
		return;
	if (yield)
		fr_token_yield(proc, t, in_call);
	queued = &t->twork_queued;
	while (!fr_token_try(proc)) {
		struct task_struct *h = READ_ONCE(proc->token);

		if (READ_ONCE(proc->dying) || fatal_signal_pending(current) ||
		    (current->jobctl & JOBCTL_STOP_PENDING) ||
		    atomic_read(queued) == FR_TW_QUEUED)
			break;
		/* the same holder for FR_TOKEN_YIELD_MS of real time: ask it */
		if (h != holder) {
			holder = h;
			since = jiffies;
		} else if (h && time_after_eq(jiffies, since +
					      msecs_to_jiffies(FR_TOKEN_YIELD_MS))) {
			fr_token_ask(proc);
			since = jiffies;
		}
		wait_event_idle_timeout(proc->token_wq, !READ_ONCE(proc->token) ||
					READ_ONCE(proc->token) == current ||
					READ_ONCE(proc->dying), msecs_to_jiffies(10));
	}
	fr_thread_put(t);
}

/*
 * The probes.  Tracepoints call them with preemption disabled (__DO_TRACE),
 * a read-side critical section of RCU since its flavours were consolidated
 * (5.0): a thread found with fr_thread_find() and its proc stay until the
 * probe returns, as under rcu_read_lock() (fr_thread_put frees after a grace
 * period).
 */
/*
 * sys_enter of a call that fr_sc_needs_hold(): skip it now, run our
 * task_work, then execute it again.  Returns whether it was held.
 */
static noinline bool fr_sc_enter_hold(struct fr_proc *proc,
				      struct fr_thread *t,
				      struct pt_regs *regs, long id)
{
	u64 args[6] __uninitialized;	/* syscall_get_arguments() fills it */

	syscall_get_arguments(current, regs, (unsigned long *)args);
	if (!fr_sc_needs_hold(proc, t, id, args))
		return false;
	t->held = true;
	t->held_nr = id;
	WRITE_ONCE(t->held_cap, false);
	regs->orig_ax = -1;
	regs->ax = id;
	regs->ip -= 2;
	if (!fr_twork_queue(t, TWA_RESUME)) {
		t->held_done = true;
		fr_lost(proc);
	}
	return true;
}

/*
 * sys_enter of a held call let through after its capture: a boundary since
 * then put the capture in the interval before the one that will record the
 * call (its pages retired there, the new one not knowing them), so it is
 * held again and captured anew.  After FR_HELD_TRIES captures overtaken so
 * (an interval shorter than the copy), it goes through and its interval is
 * flagged: its page set may lack the originals of what the call destroys.
 * True: held again.
 */
#define FR_HELD_TRIES	3

static noinline bool fr_sc_held_moved(struct fr_proc *proc,
				      struct fr_thread *t,
				      struct pt_regs *regs, long id)
{
	bool moved = t->held_iv != READ_ONCE(proc->next_index);

	if (moved && id == t->held_nr && t->held_tries < FR_HELD_TRIES) {
		t->held_tries++;
		if (fr_sc_enter_hold(proc, t, regs, id))
			return true;
	}
	t->held_tries = 0;
	if (moved)
		fr_cur_flag(proc, FLIGHTREC_IF_LOST_PAGE);
	return false;
}

/*
 * sys_enter after a call returned -ERESTART*: the same call restarted (true:
 * it stays the open call, with the arguments of its first entry), or a new
 * one after a handler ran, the old one then recorded as EINTR (false).
 */
static noinline bool fr_sc_enter_restart(struct fr_proc *proc,
					 struct fr_thread *t,
					 struct pt_regs *regs, long id)
{
	t->restart_pending = false;
	if (regs->ip == t->restart_ip &&
	    (id == t->sc_nr || id == __NR_restart_syscall)) {
		/* the kernel restarts it: one call as the program sees it */
		WRITE_ONCE(t->in_sc, true);
		return true;
	}
	/* a handler ran and the program saw EINTR */
	t->connect_kicked = false;
	if (!t->sc_seq)
		t->sc_seq = fr_seq_next(proc);
	if (fr_record(t, -EINTR, true) == -EAGAIN)
		fr_lost(proc);
	return false;
}

/*
 * What sys_enter does first when t->enter_work says there is any: signal
 * records to place, a held call to let through, a call that returned
 * -ERESTART*.  True: the call is dealt with (held, or restarted).
 */
static noinline bool fr_sys_enter_work(struct fr_proc *proc,
				       struct fr_thread *t,
				       struct pt_regs *regs, long id, u16 fe)
{
	if (t->sig_pending)
		fr_sc_flush_signal(t);
	/* a syscall-entry stop comes before sys_enter: before the call's record */
	if (t->pt_pending)
		fr_sc_ptrace(t, FLIGHTREC_PT_AT_ENTRY);
	if (t->held_done) {
		t->held = false;
		t->held_done = false;
		if (t->held_cap && fr_sc_held_moved(proc, t, regs, id))
			return true;
	} else if ((fe & FR_FE_HOLD) && fr_sc_enter_hold(proc, t, regs, id)) {
		return true;
	}
	return t->restart_pending && fr_sc_enter_restart(proc, t, regs, id);
}

/*
 * A 64-bit call's arguments, as syscall_get_arguments() copies them once
 * it has seen that the call is not an ia32 one (fr_sys_enter has).
 */
static __always_inline void fr_args_of(u64 *args, const struct pt_regs *regs)
{
	args[0] = regs->di;
	args[1] = regs->si;
	args[2] = regs->dx;
	args[3] = regs->r10;
	args[4] = regs->r8;
	args[5] = regs->r9;
}

/*
 * An int $0x80 (ia32) call of a recorded 64-bit process: its number is of
 * another table, so it is not recorded, and replay cannot answer it.  Never
 * a silent gap: the interval is flagged.  (A syscall instruction's number is
 * always recorded, an x32 one or one outside the table included.)
 */
static noinline void fr_sc_foreign(struct fr_proc *proc)
{
	fr_cur_flag(proc, FLIGHTREC_IF_FOREIGN_SYSCALL);
}

static notrace void fr_sys_enter(void *data, struct pt_regs *regs, long id)
{
	struct fr_thread *t;
	struct fr_proc *proc;
	u16 fe;

	t = fr_thread_current();	/* NULL at once when none is recorded */
	if (!t)
		goto out;
	proc = t->proc;
	if (!smp_load_acquire(&proc->started) || READ_ONCE(proc->dying))
		goto out;
	if (unlikely(in_ia32_syscall())) {
		fr_sc_foreign(proc);
		goto out;
	}
	/*
	 * The kernel runs the low 32 bits of rax, sign-extended
	 * (do_syscall_64); any such number is recorded, x32 ones included
	 * (fr_collect).
	 */
	id = (int)id;
	t->sig_boundary = false;
	fe = fr_fe_of(id);
	if (unlikely(t->enter_work)) {
		if (fr_sys_enter_work(proc, t, regs, id, fe))
			goto out;
	} else if (unlikely(fe & FR_FE_HOLD) &&
		   fr_sc_enter_hold(proc, t, regs, id)) {
		goto out;
	}

	/*
	 * The previous call is closed (in_sc clear) and recorded: its
	 * arguments may go.  No boundary reads them while in_sc is clear.
	 */
	t->sc_nr = id;
	t->sc_ns = fr_stamp();
	fr_args_of(t->sc_args, regs);
	fr_sc_hash_in(t, id, t->sc_args, fe);
	if ((fe & FR_FE_BRK) && current->mm)
		t->sc_brk = current->mm->brk;
	t->sc_seq = (fe & FR_FE_SEQ) || proc->serial ?
		    fr_seq_next(proc) : 0;
	smp_wmb();	/* sc_nr before in_sc: fr_gather_threads() */
	WRITE_ONCE(t->in_sc, true);
	if (fe & FR_FE_EXIT) {
		/* no sys_exit follows */
		WRITE_ONCE(t->in_sc, false);
		if (fr_record(t, 0, true) == -EAGAIN)
			fr_lost(proc);
	}
out:
	/* numbered: the next thread's user code comes after */
	if (t && proc->serial && !fr_serial_holds(id))
		fr_token_release(proc, current);
}

/*
 * sys_exit of a call that returned 0 and that FR_FE_XEXIT marks: the
 * program's own PR_SET_TSC, an mprotect that gave write permission, or a
 * new program (true: the call is dealt with).
 */
static noinline bool fr_sys_exit_special(struct fr_thread *t, u32 nr)
{
	if (nr == __NR_mprotect || nr == __NR_pkey_mprotect) {
		u64 start = t->sc_args[0], len = PAGE_ALIGN(t->sc_args[1]);

		/* PTEs it made writable: write-protected again (task_work) */
		if ((t->sc_args[2] & PROT_WRITE) && len &&
		    start + len > start) {
			t->wp_start = start;
			t->wp_end = start + len;
			t->wp_pending = true;
			if (!fr_twork_queue(t, TWA_RESUME)) {
				t->wp_pending = false;
				fr_cur_flag(t->proc, FLIGHTREC_IF_LOST_PAGE);
			}
		}
		return false;
	}
	if (nr == __NR_prctl) {
		if (t->sc_args[0] == PR_SET_TSC) {
			fr_tsc_prctl_set(t, t->sc_args[1]);
		} else if (t->sc_args[0] == PR_GET_TSC && t->tsc_trapped) {
			/*
			 * The kernel answered PR_TSC_SIGSEGV: the flag is ours,
			 * the program's mode is PR_TSC_ENABLE.  Before the
			 * record copies the answer.  The kernel has just
			 * written that int: only another thread unmapping it
			 * now makes the nofault write fail.
			 */
			int mode = PR_TSC_ENABLE;

			if (copy_to_user_nofault((int __user *)t->sc_args[1],
						 &mode, sizeof(mode)))
				fr_lost(t->proc);
		}
		return false;
	}
	/* execve, execveat: the ring restarts at the new first instruction */
	t->exec_pending = true;
	fr_sc_close(t);
	fr_twork_queue(t, TWA_RESUME);
	return true;
}

/*
 * An EINTR that only our own TWA_SIGNAL work caused (a dump request, a
 * boundary's kick: t->sig_kicked), with no signal of the program's pending,
 * from a call that did nothing when it failed so: unrecorded, the call
 * would have gone on waiting.  It becomes -ERESTARTNOHAND, which the kernel
 * turns into a restart of the call after our work ran (or into EINTR, as it
 * would have been, when a signal with a handler arrives meanwhile).  The
 * call restarts with its arguments: a timeout starts again.
 */
static __always_inline bool fr_sc_eintr_ours(struct fr_thread *t,
					     struct pt_regs *regs, long ret)
{
	return unlikely(ret == -EINTR) && READ_ONCE(t->sig_kicked) &&
	       (fr_fe_of(syscall_get_nr(current, regs)) & FR_FE_EINTR) &&
	       !task_sigpending(current);
}

/*
 * The exit of a connect (FR_FE_XEXIT).  One that our kick interrupted was
 * made a restart (fr_sc_eintr_ours); made again, it finds its socket
 * connecting already, and when its send timeout then runs out it returns
 * -EALREADY, where the call the program made would have returned
 * -EINPROGRESS: the program gets that.  Returns what the call returns.
 */
static noinline long fr_connect_exit(struct fr_thread *t,
				     struct pt_regs *regs, long ret)
{
	if (fr_is_restart(ret))
		return ret;	/* to be made again: still the same call */
	if (ret == -EALREADY && t->connect_kicked) {
		ret = -EINPROGRESS;
		regs->ax = ret;
	}
	t->connect_kicked = false;
	return ret;
}

static notrace struct fr_thread *fr_sys_exit_rec(struct pt_regs *regs, long ret)
{
	struct fr_thread *t;
	int err;
	u32 nr;
	u16 fe;

	t = fr_thread_current();
	if (t && t->proc->serial && smp_load_acquire(&t->proc->started)) {
		/* an output call done: others may take the token now */
		if (READ_ONCE(t->in_sc) && fr_serial_holds(t->sc_nr))
			fr_token_release(t->proc, current);
		if (!fr_token_try(t->proc))
			fr_twork_queue(t, TWA_RESUME);	/* waits for the token */
	}
	if (!t)
		return t;
	/* with at_exit: a signal that ends the process may be deliverable now */
	if (unlikely(task_sigpending(current)) && READ_ONCE(t->proc->at_exit))
		fr_kill_pending(t);
	if (fr_sc_eintr_ours(t, regs, ret)) {
		regs->ax = -ERESTARTNOHAND;
		ret = -ERESTARTNOHAND;
		if (syscall_get_nr(current, regs) == __NR_connect)
			t->connect_kicked = true;
	}
	/* also for a call not recorded (entered before the process started) */
	t->enosys_ip = ret == -ENOSYS ? regs->ip : 0;
	if (!t->in_sc)
		return t;
	/*
	 * in_sc stays set until the record is in an interval (fr_append), or
	 * until the call is known to stay open (restart, slow copy), and is
	 * cleared by t on its own (fr_log_own), never while a cut is being
	 * made (fr_log_put): a boundary sees either the call open and its pt_regs
	 * untouched, or the call done and its record placed.
	 */
	nr = t->sc_nr;
	fe = fr_fe_of(nr);
	/*
	 * The call made the process not dumpable (PR_SET_DUMPABLE, set*id,
	 * an exec that changed credentials): recording stops in the task_work
	 * before its next instruction (fr_proc_check_dumpable).  One load.
	 */
	if (unlikely(get_dumpable(current->mm) != SUID_DUMP_USER))
		fr_twork_queue(t, TWA_RESUME);
	/* a signal delivered on this way out is at the syscall boundary */
	t->sig_boundary = true;
	t->sig_ip = regs->ip;
	if (unlikely(fe & FR_FE_XEXIT)) {
		if (nr == __NR_connect)
			ret = fr_connect_exit(t, regs, ret);
		else if (!ret && fr_sys_exit_special(t, nr))
			return t;
		/* an execve that parked the image failed: it goes back */
		else if (ret &&
			 READ_ONCE(t->proc->exec_parker) == task_pid_vnr(current))
			fr_twork_queue(t, TWA_RESUME);
	}
	if (fr_is_restart(ret)) {
		t->restart_pending = true;
		t->restart_ip = regs->ip;
		fr_sc_close(t);
		return t;
	}
	if (!t->sc_seq)
		t->sc_seq = fr_seq_next(t->proc);
	/* a big write is hashed in task_work (fr_in_hash_later) */
	err = unlikely(t->sc_in_defer) ? -EAGAIN :
	      fr_record_fe(t, ret, true, NULL, fe);
	if (likely(!err))
		return t;	/* placed, and closed with it (fr_append_rec) */
	if (err == -EAGAIN) {
		t->sc_ret = ret;
		t->sc_slow = true;
		if (!fr_twork_queue(t, TWA_RESUME)) {
			t->sc_slow = false;
			fr_lost(t->proc);
		}
	}
	fr_sc_close(t);
	return t;
}

/*
 * Did the call that ends here leave the user FPU state as it found it?
 * Every call does but a sigreturn and an exec; a 32-bit (int 0x80) or x32
 * call is not looked at and counts as one that did not.
 */
static bool fr_fpu_kept(const struct pt_regs *regs)
{
	unsigned long nr = regs->orig_ax;

	return !in_ia32_syscall() && nr < __X32_SYSCALL_BIT &&
	       nr != __NR_rt_sigreturn && nr != __NR_execve && nr != __NR_execveat;
}

static notrace void fr_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	struct fr_thread *t = fr_sys_exit_rec(regs, ret);

	/*
	 * A boundary took its context from outside while it ran in this call
	 * on another CPU: it writes its XSAVE area now, after in_sc was
	 * cleared (fr_log_put: so no later boundary can take it inside
	 * this call) and before any signal delivery.  The call left its user
	 * FPU state as it found it, unless it was rt_sigreturn or an exec.
	 */
	if (t && unlikely(READ_ONCE(t->xsave_wait)))
		fr_ctx_xsave_fill(t, fr_fpu_kept(regs));
}

/*
 * Focus.  Registering a probe on sys_enter/sys_exit sets a work bit on every
 * task of the system, which then takes the slow syscall path into the probe
 * (syscall_regfunc).  While flightrec is the only user of these tracepoints
 * the bit is kept only on recorded threads (children inherit it at fork), so
 * unregistered processes pay nothing.  When another tracer (perf, ftrace's
 * syscall events) shares the tracepoints, every task gets the bit back; the
 * check runs every second and whenever a process is registered.
 */
static bool fr_focused;
static bool fr_focus_allowed;	/* the registration probes are in place */
static DEFINE_MUTEX(fr_focus_lock);	/* fr_focus_update vs fr_syscall_track */
static void fr_focus_workfn(struct work_struct *work);
static DECLARE_DELAYED_WORK(fr_focus_work, fr_focus_workfn);

static int fr_tp_users(struct tracepoint *tp)
{
	struct tracepoint_func *f;
	int n = 0;

	rcu_read_lock_sched();
	f = rcu_dereference_sched(tp->funcs);
	for (; f && f->func; f++)
		n++;
	rcu_read_unlock_sched();
	return n;
}

/*
 * A task keeps the bit if it is recorded, or if its thread group leader or
 * parent is: a thread or child being born is in the registry only after
 * copy_process() gave it its parent's bit.
 */
static bool fr_focus_keep(struct task_struct *t)
{
	return fr_thread_find(t) || fr_thread_find(t->group_leader) ||
	       fr_thread_find(rcu_dereference(t->real_parent));
}

/* Every task takes the slow syscall path again.  Any context. */
static void fr_focus_all(void)
{
	struct task_struct *p, *t;

	rcu_read_lock();
	for_each_process_thread(p, t)
		if (!(t->flags & PF_KTHREAD))
			set_task_syscall_work(t, SYSCALL_TRACEPOINT);
	rcu_read_unlock();
}

static bool fr_tp_sole(void)
{
	return fr_tp_users(fr_tp_enter) == 1 && fr_tp_users(fr_tp_exit) == 1;
}

static void fr_focus_update(bool sole)
{
	struct task_struct *p, *t;

	mutex_lock(&fr_focus_lock);
	rcu_read_lock();
	for_each_process_thread(p, t) {
		if (t->flags & PF_KTHREAD)
			continue;
		if (!sole || fr_focus_keep(t))
			set_task_syscall_work(t, SYSCALL_TRACEPOINT);
		else
			clear_task_syscall_work(t, SYSCALL_TRACEPOINT);
	}
	rcu_read_unlock();
	/*
	 * A tracer that registered during the walk: its probe gave every
	 * task the bit (fr_focus_tp_ret) after the tracepoint had two users,
	 * and the walk may have cleared some since.  Seen here: every task
	 * gets it again.  Not seen: it registered after this load, and its
	 * probe runs after the walk.
	 */
	smp_mb();
	if (sole && !fr_tp_sole()) {
		fr_focus_all();
		sole = false;
	}
	WRITE_ONCE(fr_focused, sole);
	mutex_unlock(&fr_focus_lock);
}

/*
 * Another user of sys_enter/sys_exit (perf, ftrace's syscall events, a BPF
 * raw tracepoint) registering while focused: the tracepoint's regfunc only
 * runs for the first user, so nothing would give the other tasks their bit
 * back before the next check, up to 1 s later (issue 24.7: the new tracer
 * misses every syscall of every other process meanwhile).  A kretprobe on
 * the registration functions gives every task the bit as the registration
 * returns, before the tracer sees its first event.  Without these probes
 * there is no focus: every task keeps the slow path.
 */
struct fr_focus_tp_data {
	struct tracepoint *tp;
};

static int fr_focus_tp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct fr_focus_tp_data *d = (void *)ri->data;

	d->tp = (struct tracepoint *)regs->di;
	return d->tp == fr_tp_enter || d->tp == fr_tp_exit ? 0 : 1;
}

static int fr_focus_tp_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (regs_return_value(regs) == 0 && READ_ONCE(fr_focused)) {
		fr_focus_all();
		WRITE_ONCE(fr_focused, false);
	}
	return 0;
}

#define FR_FOCUS_KRP(sym) {					\
	.kp.symbol_name = sym,					\
	.entry_handler = fr_focus_tp_entry,			\
	.handler = fr_focus_tp_ret,				\
	.data_size = sizeof(struct fr_focus_tp_data),		\
	.maxactive = 8,						\
}
static struct kretprobe fr_focus_krp[] = {
	FR_FOCUS_KRP("tracepoint_probe_register"),
	FR_FOCUS_KRP("tracepoint_probe_register_prio"),
	FR_FOCUS_KRP("tracepoint_probe_register_prio_may_exist"),
};
static struct kretprobe *fr_focus_krps[ARRAY_SIZE(fr_focus_krp)];

static void fr_focus_probes(void)
{
	int i, err;

	for (i = 0; i < ARRAY_SIZE(fr_focus_krp); i++)
		fr_focus_krps[i] = &fr_focus_krp[i];
	err = register_kretprobes(fr_focus_krps, ARRAY_SIZE(fr_focus_krps));
	fr_focus_allowed = !err;
	if (err)
		pr_info("every process takes the slow syscall path while the module is loaded (kretprobe: %d)\n",
			err);
}

static void fr_focus_workfn(struct work_struct *work)
{
	bool sole = fr_focus_allowed && fr_tp_sole();

	/* a sole user rescans to drop processes that were unregistered */
	if (sole || READ_ONCE(fr_focused))
		fr_focus_update(sole);
	schedule_delayed_work(&fr_focus_work, HZ);
}

/* The threads of a newly registered process take the syscall slow path. */
void fr_syscall_track(struct fr_proc *proc)
{
	struct fr_thread *t;

	mutex_lock(&fr_focus_lock);
	rcu_read_lock();
	list_for_each_entry_rcu(t, &proc->threads, pnode)
		set_task_syscall_work(t->task, SYSCALL_TRACEPOINT);
	rcu_read_unlock();
	mutex_unlock(&fr_focus_lock);
}

static void fr_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sys_enter"))
		fr_tp_enter = tp;
	else if (!strcmp(tp->name, "sys_exit"))
		fr_tp_exit = tp;
}

int fr_syscall_init(void)
{
	int err;

	for_each_kernel_tracepoint(fr_find_tp, NULL);
	if (!fr_tp_enter || !fr_tp_exit) {
		pr_err("sys_enter/sys_exit tracepoints not found\n");
		return -ENOENT;
	}
	fr_reqs_index();
	fr_fast_init();
	err = tracepoint_probe_register(fr_tp_enter, fr_sys_enter, NULL);
	if (err)
		return err;
	err = tracepoint_probe_register(fr_tp_exit, fr_sys_exit, NULL);
	if (err)
		goto out_enter;
	fr_focus_probes();
	fr_focus_workfn(NULL);
	return 0;

out_enter:
	tracepoint_probe_unregister(fr_tp_enter, fr_sys_enter, NULL);
	tracepoint_synchronize_unregister();
	return err;
}

void fr_syscall_exit(void)
{
	cancel_delayed_work_sync(&fr_focus_work);
	if (fr_focus_allowed)
		unregister_kretprobes(fr_focus_krps, ARRAY_SIZE(fr_focus_krps));
	tracepoint_probe_unregister(fr_tp_exit, fr_sys_exit, NULL);
	tracepoint_probe_unregister(fr_tp_enter, fr_sys_enter, NULL);
	tracepoint_synchronize_unregister();
	/* the tracepoints' other users see every task again */
	if (fr_focused && (fr_tp_users(fr_tp_enter) || fr_tp_users(fr_tp_exit)))
		fr_focus_update(false);
}
