/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The divergence hash of the data a syscall passes in (Syscall.in_hash).
 *
 * FNV-1a 64 over the bytes the syscall table's in1 then in2 descriptors
 * name, at most FR_IN_HASH_MAX bytes per descriptor:
 *   FR_SZ_FIXED  p1 bytes at the argument
 *   FR_SZ_ARG    args[p1] * (p2 ? p2 : 1) bytes
 *   FR_SZ_STR    the string without its NUL (at most 4096 bytes)
 *   FR_SZ_IOV    each iovec's bytes in full (args[p1] entries)
 *   FR_SZ_MSGHDR msg_name, each iovec, msg_control
 *   FR_SZ_FDSET  (args[p1] + 7) / 8 bytes
 *   FR_SZ_SOCKADDR args[p1] bytes, by the rule below
 * A NULL pointer contributes nothing; an unreadable range ends that
 * descriptor.  Memory is read through a callback, so the same code serves the
 * replay loader (its own address space) and a recorder (another process's).
 * Used by the module (kernel/syscall.c, at syscall entry), the replay loader
 * and tests/tools/ptsnap.c: one definition, so a recorder's in_hash is
 * exactly what replay computes.
 *
 * Two rules, which differ only in how a socket address is hashed (an
 * FR_SZ_SOCKADDR descriptor, and msg_name of an FR_SZ_MSGHDR):
 *   FR_IN_RULE_BYTES     all of its given length, like FR_SZ_ARG: the first
 *                        rule, of every record with FLIGHTREC_SC_IN_HASH
 *                        (Syscall.in_hash);
 *   FR_IN_RULE_SOCKADDR  what the kernel reads of it: an AF_UNIX pathname
 *                        address (length 3..110, sun_path[0] != 0) up to and
 *                        including sun_path's first NUL (all of the given
 *                        length when there is none); anything else (abstract
 *                        and unnamed AF_UNIX, other families, an AF_UNIX
 *                        length the kernel refuses) all of its given length.
 *                        Records with FLIGHTREC_SC_IN_HASH_SA
 *                        (Syscall.in_hash_sa); issue 25, class 10: tar
 *                        passes a sockaddr_un whose bytes after the path are
 *                        stack garbage, which another CPU leaves otherwise.
 * A recorder using the second rule marks the calls whose hash can depend on
 * it (fr_in_has_sockaddr()) with FLIGHTREC_SC_IN_HASH_SA instead of
 * FLIGHTREC_SC_IN_HASH, so that a reader that knows only the first rule
 * skips their check rather than reporting a false divergence, and a
 * checkpoint recorded under the first rule is still checked by it.
 *
 * A third rule, for the calls that return how much of their data they
 * took (FR_F_IN_RET: write, pwrite64, writev, pwritev, pwritev2, sendto,
 * sendmsg, sendmmsg) and returned ret >= 0:
 *   FR_IN_RULE_FULL      the data they took, all of it: the first ret bytes
 *                        of in1's FR_SZ_ARG or FR_SZ_IOV bytes, or of a
 *                        msghdr's iovecs; of an mmsghdr array (sendmmsg),
 *                        the first ret messages, each as a msghdr with
 *                        all its iovecs' bytes; no FR_IN_HASH_MAX cap, 16 bytes
 *                        at a time (fr_hash_words(); a range's last 0-7
 *                        bytes by FNV-1a); a socket address, msg_name and
 *                        msg_control as by FR_IN_RULE_SOCKADDR.
 *                        Records with FLIGHTREC_SC_IN_HASH_FULL
 *                        (Syscall.in_hash_full): the calls that passed in
 *                        more than FR_IN_HASH_MAX bytes, which the first two
 *                        rules check on their first FR_IN_HASH_MAX only
 *                        (issue 25), and every sendmmsg, whose messages
 *                        the first two rules do not read at all.  The recorder hashes them as the call
 *                        returns, when ret is known, and a replay before it
 *                        answers the call with the recorded ret.
 *
 * A fourth rule, FR_IN_RULE_SOCKADDR with another hash of the bytes:
 *   FR_IN_RULE_WORDS     the same bytes as FR_IN_RULE_SOCKADDR (the same
 *                        descriptors, the same FR_IN_HASH_MAX caps, socket
 *                        addresses by FNV-1a as that rule hashes them),
 *                        every other range by fr_hash_words() (its last
 *                        0-7 bytes by FNV-1a), as FR_IN_RULE_FULL hashes its
 *                        data; a string's bytes up to its NUL alike, in
 *                        the pieces fr_hash_range() reads (to the end of a
 *                        page, at most 512 bytes: each piece's words start
 *                        at its start).  Records with FLIGHTREC_SC_IN_HASH_W
 *                        (Syscall.in_hash_w): every call the module hashes
 *                        at entry (a writev, a sendmsg, a write; until s60
 *                        one of at most FR_SMALL_COPY bytes of fixed or
 *                        argument-given size kept the first rule), where
 *                        FNV-1a byte by byte was most of what hashing cost
 *                        (issue 28: nginx's headers, memcached's values, a
 *                        64-byte write's 4 instructions a byte).
 *                        A reader that knows only the first three rules
 *                        skips their check.
 */
#ifndef FLIGHTREC_INHASH_H
#define FLIGHTREC_INHASH_H

#ifdef __KERNEL__
#include <linux/types.h>
typedef u64 fr_hash_u64;	/* the arguments' type on each side */
/*
 * Buffers the reader fills before they are read: not zeroed at every call
 * (CONFIG_INIT_STACK_ALL_ZERO would clear 512 bytes per hashed call).
 */
#define FR_HASH_NOINIT __uninitialized
#else
#define FR_HASH_NOINIT
#include <stddef.h>
#include <stdint.h>
typedef uint64_t fr_hash_u64;
#endif
#include "flightrec_syscalls.h"

#define FR_IN_HASH_MAX	65536
#define FR_IN_RULE_BYTES	0
#define FR_IN_RULE_SOCKADDR	1
#define FR_SA_UNIX_MAX		110	/* sizeof(struct sockaddr_un) */
#define FR_AF_UNIX		1
#define FR_FNV_OFFSET	0xcbf29ce484222325ULL
#define FR_FNV_PRIME	0x100000001b3ULL
#define FR_IN_RULE_FULL		2
#define FR_IN_RULE_WORDS	3
#define FR_WORD_MUL	0x9e3779b97f4a7c15ULL	/* 2^64 / the golden ratio, odd */
#define FR_WORD_MUL2	0xe7037ed1a0b428dbULL	/* another odd constant (one wyhash uses) */
/* how fr_hash_range() reads and hashes its range */
#define FR_HR_BYTES	0	/* FNV-1a, byte by byte */
#define FR_HR_STR	1	/* FNV-1a, up to the first NUL */
#define FR_HR_WORDS	2	/* fr_hash_words(), the last 0-7 bytes by FNV-1a */
#define FR_HR_STRW	3	/* up to the first NUL, as FR_HR_WORDS hashes */

/* Reads len bytes at addr into buf; returns 0 or -1. */
typedef int (*fr_read_fn)(void *ctx, fr_hash_u64 addr, void *buf, size_t len);

/*
 * The steps of the hashes, one each: fr_fnv1a() and fr_hash_words() below
 * loop over a buffer with them, and the module's probe over user memory it
 * reads in place (kernel/syscall.c, fr_hash_user_words), so both compute
 * one hash from one definition.
 */
static inline fr_hash_u64 fr_fnv1a_step(fr_hash_u64 h, unsigned char b)
{
	return (h ^ b) * FR_FNV_PRIME;
}

static inline fr_hash_u64 fr_fnv1a(fr_hash_u64 h, const void *p, size_t n)
{
	const unsigned char *b = (const unsigned char *)p;

	while (n--)
		h = fr_fnv1a_step(h, *b++);
	return h;
}

/* The 128-bit product of a and b, its two halves xored. */
static inline fr_hash_u64 fr_mum(fr_hash_u64 a, fr_hash_u64 b)
{
	unsigned __int128 p = (unsigned __int128)a * b;

	return (fr_hash_u64)p ^ (fr_hash_u64)(p >> 64);
}

/*
 * FR_IN_RULE_FULL's hash of the first n & ~7 bytes at p, as little-endian
 * 64-bit words: two at a time, h = fr_mum(h ^ w0, w1 ^ FR_WORD_MUL2) ^ h;
 * an odd last one, h = (h ^ w) * FR_WORD_MUL, h ^= h >> 29.  One multiply
 * per 16 bytes where FNV-1a makes 16 (about 10 times faster here, 8 under
 * an emulator).
 */
static inline fr_hash_u64 fr_hash_pair_step(fr_hash_u64 h, fr_hash_u64 w0,
					    fr_hash_u64 w1)
{
	return h ^ fr_mum(h ^ w0, w1 ^ FR_WORD_MUL2);
}

static inline fr_hash_u64 fr_hash_word_step(fr_hash_u64 h, fr_hash_u64 w)
{
	h = (h ^ w) * FR_WORD_MUL;
	return h ^ (h >> 29);
}

static inline fr_hash_u64 fr_hash_words(fr_hash_u64 h, const void *p, size_t n)
{
	const unsigned char *b = (const unsigned char *)p;
	fr_hash_u64 w0, w1;

	/* two scalars, not an array: kept in registers, not on the stack */
	for (; n >= 16; n -= 16, b += 16) {
		__builtin_memcpy(&w0, b, sizeof(w0));
		__builtin_memcpy(&w1, b + 8, sizeof(w1));
		h = fr_hash_pair_step(h, w0, w1);
	}
	if (n >= sizeof(w0)) {
		__builtin_memcpy(&w0, b, sizeof(w0));
		h = fr_hash_word_step(h, w0);
	}
	return h;
}

/*
 * A reader may hash a FR_HR_WORDS piece where it lies rather than have it
 * copied into fr_hash_range()'s buffer first (the module does, in its
 * probes): FR_HASH_IN_PLACE(rd, ctx, addr, n, h) is 0 when it hashed the n
 * bytes at addr into *h exactly as fr_hash_range() hashes a piece it read
 * (fr_hash_words() over n & ~7 bytes, then fr_fnv1a() over the rest), -1
 * when it could not read them (*h untouched, as when rd fails), 1 when it
 * does not do that for rd: then rd reads them.
 */
#ifndef FR_HASH_IN_PLACE
#define FR_HASH_IN_PLACE(rd, ctx, addr, n, h) 1
#endif

/*
 * Hashes up to max bytes at addr, how: FR_HR_*; returns the bytes hashed, or
 * -1 on a read error.  Every piece read but the last is a whole buffer, so
 * the words of FR_HR_WORDS start at multiples of 16 from addr (the odd
 * word only in the last piece).
 */
static inline long fr_hash_range(fr_hash_u64 *h, fr_hash_u64 addr, fr_hash_u64 len, fr_hash_u64 max,
				 int how, fr_read_fn rd, void *ctx)
{
	unsigned char buf[512] FR_HASH_NOINIT;
	fr_hash_u64 done = 0;

	if (!addr)
		return 0;
	if (len > max)
		len = max;
	while (done < len) {
		size_t n = len - done < sizeof(buf) ? (size_t)(len - done) : sizeof(buf);
		size_t i;

		if (how == FR_HR_STR || how == FR_HR_STRW) {	/* strings: up to the page end */
			fr_hash_u64 pe = ((addr + done) | 4095) + 1;

			if (n > pe - (addr + done))
				n = (size_t)(pe - (addr + done));
		}
		if (how == FR_HR_WORDS) {
			int r = FR_HASH_IN_PLACE(rd, ctx, addr + done, n, h);

			if (r < 0)
				return -1;
			if (!r) {
				done += n;
				continue;
			}
		}
		if (rd(ctx, addr + done, buf, n))
			return -1;
		if (how == FR_HR_STR || how == FR_HR_STRW) {
			size_t w;

			for (i = 0; i < n && buf[i]; i++)
				;
			w = how == FR_HR_STRW ? i & ~(size_t)7 : 0;
			*h = fr_hash_words(*h, buf, w);
			*h = fr_fnv1a(*h, buf + w, i - w);
			done += i;
			if (i < n)
				break;
			continue;
		}
		i = how == FR_HR_WORDS ? n & ~(size_t)7 : 0;
		*h = fr_hash_words(*h, buf, i);
		*h = fr_fnv1a(*h, buf + i, n - i);
		done += n;
	}
	return (long)done;
}

/*
 * Each iovec's bytes, in all at most *max (FR_IN_HASH_MAX for each iovec
 * array of the first two rules; what is left of ret for the third), which
 * goes down by what was hashed.
 */
static inline void fr_hash_iov(fr_hash_u64 *h, fr_hash_u64 iov, fr_hash_u64 cnt, fr_hash_u64 *max,
			       int how, fr_read_fn rd, void *ctx)
{
	fr_hash_u64 i, v[2] FR_HASH_NOINIT;

	for (i = 0; i < cnt && i < 1024 && *max; i++) {
		long n;

		if (rd(ctx, iov + 16 * i, v, sizeof(v)))
			return;
		n = fr_hash_range(h, v[0], v[1], *max, how, rd, ctx);
		if (n < 0)
			return;
		*max -= (fr_hash_u64)n;
	}
}

/*
 * A socket address of len bytes at addr, by FR_IN_RULE_SOCKADDR.  Read in
 * one piece, as fr_hash_range() reads it (len < its buffer): a read error
 * ends it the same way.
 */
static inline void fr_hash_sockaddr(fr_hash_u64 *h, fr_hash_u64 addr, fr_hash_u64 len,
				    fr_read_fn rd, void *ctx)
{
	unsigned char sa[FR_SA_UNIX_MAX] FR_HASH_NOINIT;
	size_t n;

	if (!addr || len <= 2 || len > sizeof(sa)) {
		fr_hash_range(h, addr, len, FR_IN_HASH_MAX, 0, rd, ctx);
		return;
	}
	if (rd(ctx, addr, sa, (size_t)len))
		return;
	n = (size_t)len;
	if ((sa[0] | sa[1] << 8) == FR_AF_UNIX && sa[2]) {
		for (n = 2; n < len && sa[n]; n++)
			;
		if (n < len)
			n++;	/* its NUL */
	}
	*h = fr_fnv1a(*h, sa, n);
}

/*
 * FR_IN_RULE_FULL's sendmmsg: the first n of the vlen struct mmsghdr (64
 * bytes each) at vec, each message as FR_SZ_MSGHDR by that rule, its
 * iovecs whole (at most 1024 messages, UIO_MAXIOV, as the kernel takes).
 */
static inline void fr_hash_mmsg(fr_hash_u64 *h, fr_hash_u64 vec, fr_hash_u64 vlen, fr_hash_u64 n,
				fr_read_fn rd, void *ctx)
{
	fr_hash_u64 i, m[6] FR_HASH_NOINIT, all;

	for (i = 0; i < n && i < vlen && i < 1024; i++) {
		if (rd(ctx, vec + 64 * i, m, sizeof(m)))
			return;
		/* name, namelen, iov, iovlen, control, controllen */
		fr_hash_sockaddr(h, m[0], (unsigned int)m[1], rd, ctx);
		all = ~0ULL;
		fr_hash_iov(h, m[2], m[3], &all, FR_HR_WORDS, rd, ctx);
		fr_hash_range(h, m[4], m[5], FR_IN_HASH_MAX, 0, rd, ctx);
	}
}

/* Whether the rule can change the hash of a call with these in1, in2. */
static inline int fr_in_has_sockaddr(const struct fr_data_desc *d)
{
	return d[0].kind == FR_SZ_SOCKADDR || d[1].kind == FR_SZ_SOCKADDR ||
	       d[0].kind == FR_SZ_MSGHDR || d[1].kind == FR_SZ_MSGHDR;
}

/*
 * d: the row's in1 and in2 descriptors; rule: FR_IN_RULE_*; ret: the call's
 * result, by which FR_IN_RULE_FULL counts (ret >= 0; the other rules ignore
 * it).
 */
static inline fr_hash_u64 fr_in_hash_rule(const struct fr_data_desc *d, const fr_hash_u64 *args,
				       int rule, fr_hash_u64 ret, fr_read_fn rd, void *ctx)
{
	fr_hash_u64 h = FR_FNV_OFFSET, max, took = ret;
	int i, how = FR_HR_BYTES, oth = FR_HR_BYTES, full = rule == FR_IN_RULE_FULL;

	/* how: the data (FR_SZ_ARG, iovecs); oth: the other ranges */
	if (full || rule == FR_IN_RULE_WORDS)
		how = FR_HR_WORDS;
	if (rule == FR_IN_RULE_WORDS)
		oth = FR_HR_WORDS;
	for (i = 0; i < 2; i++) {
		unsigned int p1 = d[i].p1, p2 = d[i].p2;
		fr_hash_u64 a = args[d[i].arg % 6];

		max = FR_IN_HASH_MAX;

		switch (d[i].kind) {
		case FR_SZ_FIXED:
			fr_hash_range(&h, a, p1, FR_IN_HASH_MAX, oth, rd, ctx);
			break;
		case FR_SZ_SOCKADDR:
			if (rule != FR_IN_RULE_BYTES)
				fr_hash_sockaddr(&h, a, args[p1 % 6], rd, ctx);
			else	/* FR_SZ_ARG's, p2 0 */
				fr_hash_range(&h, a, args[p1 % 6], FR_IN_HASH_MAX, 0, rd, ctx);
			break;
		case FR_SZ_ARG:
			if (full) {
				long n = fr_hash_range(&h, a, args[p1 % 6] * (p2 ? p2 : 1), took,
						       how, rd, ctx);

				took -= n > 0 ? (fr_hash_u64)n : 0;
				break;
			}
			fr_hash_range(&h, a, args[p1 % 6] * (p2 ? p2 : 1), FR_IN_HASH_MAX, how,
				      rd, ctx);
			break;
		case FR_SZ_STR:
			fr_hash_range(&h, a, 4096, 4096,
				      rule == FR_IN_RULE_WORDS ? FR_HR_STRW : FR_HR_STR, rd, ctx);
			break;
		case FR_SZ_IOV:
			fr_hash_iov(&h, a, args[p1 % 6], full ? &took : &max, how, rd, ctx);
			break;
		case FR_SZ_MSGHDR: {
			fr_hash_u64 m[6] FR_HASH_NOINIT;

			if (!a || rd(ctx, a, m, sizeof(m)))
				break;
			/* name, namelen, iov, iovlen, control, controllen */
			if (rule != FR_IN_RULE_BYTES)
				fr_hash_sockaddr(&h, m[0], (unsigned int)m[1], rd, ctx);
			else
				fr_hash_range(&h, m[0], (unsigned int)m[1], FR_IN_HASH_MAX, 0,
					      rd, ctx);
			fr_hash_iov(&h, m[2], m[3], full ? &took : &max, how, rd, ctx);
			fr_hash_range(&h, m[4], m[5], FR_IN_HASH_MAX, oth, rd, ctx);
			break;
		}
		case FR_SZ_FDSET:
			fr_hash_range(&h, a, (args[p1 % 6] + 7) / 8, FR_IN_HASH_MAX, oth, rd, ctx);
			break;
		case FR_SZ_MMSGHDR:	/* the first two rules read none of it */
			if (full && a)
				fr_hash_mmsg(&h, a, args[p1 % 6], took, rd, ctx);
			break;
		default:
			break;
		}
	}
	return h;
}

/* The rules that do not depend on the call's result (all but FR_IN_RULE_FULL). */
static inline fr_hash_u64 fr_in_hash_desc(const struct fr_data_desc *d, const fr_hash_u64 *args,
				       int rule, fr_read_fn rd, void *ctx)
{
	return fr_in_hash_rule(d, args, rule, 0, rd, ctx);
}

#endif /* FLIGHTREC_INHASH_H */
