/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loader's own system calls and the few library routines it needs.
 * No libc: every call below is a `syscall` instruction inside the loader's
 * text, which is the region Syscall User Dispatch lets through.
 */
#ifndef FLIGHTREC_LOADER_SYS_H
#define FLIGHTREC_LOADER_SYS_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <asm/unistd.h>

/* Everything is in this one static binary: no GOT, rip-relative access. */
#pragma GCC visibility push(hidden)

static inline long sys6(long n, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

#define sys0(n)			sys6(n, 0, 0, 0, 0, 0, 0)
#define sys1(n, a)		sys6(n, (long)(a), 0, 0, 0, 0, 0)
#define sys2(n, a, b)		sys6(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define sys3(n, a, b, c)	sys6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define sys4(n, a, b, c, d)	sys6(n, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define sys5(n, a, b, c, d, e)	sys6(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)

static inline int is_err(long r)
{
	return (unsigned long)r >= (unsigned long)-4095;
}

static inline long sys_write(int fd, const void *buf, size_t n)
{
	return sys3(__NR_write, fd, buf, n);
}

static inline void *sys_mmap(uint64_t addr, size_t len, int prot, int flags,
			     int fd, uint64_t off)
{
	return (void *)sys6(__NR_mmap, (long)addr, (long)len, prot, flags, fd, (long)off);
}

static inline __attribute__((noreturn)) void sys_exit_group(int code)
{
	for (;;)
		sys1(__NR_exit_group, code);
}

/* lib.c */
void *memcpy(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int vfmt(char *buf, size_t size, const char *fmt, va_list ap);
int fmt(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void fdprintf(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int parse_u64(const char *s, uint64_t *out);
const char *errname(long err);
uint64_t now_ns(void);

#endif /* FLIGHTREC_LOADER_SYS_H */
