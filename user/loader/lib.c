// SPDX-License-Identifier: GPL-2.0
/* The loader's library: memory and string routines, a small formatter. */
#include <linux/time.h>
#include "sys.h"

/*
 * Eight bytes a step, then the rest: as fast as rep movsb where the CPU
 * makes that fast, and eight times fewer steps under emulation (TCG runs
 * rep movsb a byte at a time).  Forward: memmove relies on it.
 */
void *memcpy(void *d, const void *s, size_t n)
{
	void *ret = d;
	size_t q = n >> 3;

	n &= 7;
	__asm__ volatile("rep movsq" : "+D"(d), "+S"(s), "+c"(q) : : "memory");
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
	return ret;
}

void *memmove(void *d, const void *s, size_t n)
{
	unsigned char *dp = d;
	const unsigned char *sp = s;

	if (dp <= sp || dp >= sp + n)
		return memcpy(d, s, n);
	while (n--)
		dp[n] = sp[n];
	return d;
}

void *memset(void *d, int c, size_t n)
{
	void *ret = d;
	size_t q = n >> 3;
	uint64_t v = (uint8_t)c * 0x0101010101010101ULL;

	n &= 7;
	__asm__ volatile("rep stosq" : "+D"(d), "+c"(q) : "a"(v) : "memory");
	__asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(v) : "memory");
	return ret;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	size_t i;

	for (i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_num(struct out *o, unsigned long long v, int base, int width,
		    char pad, int neg)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (neg)
		tmp[n++] = '-';
	while (width-- > n)
		put(o, pad);
	while (n)
		put(o, tmp[--n]);
}

/* %s %c %d %u %x %lx %llx %ld %lu %p %%, with an optional 0 and width. */
int vfmt(char *buf, size_t size, const char *f, va_list ap)
{
	struct out o = { buf, size, 0 };

	for (; *f; f++) {
		int width = 0, lng = 0;
		char pad = ' ';

		if (*f != '%') {
			put(&o, *f);
			continue;
		}
		f++;
		if (*f == '0')
			pad = '0';
		while (*f >= '0' && *f <= '9')
			width = width * 10 + (*f++ - '0');
		while (*f == 'l' || *f == 'z') {
			lng = 1;
			f++;
		}
		switch (*f) {
		case 's': {
			const char *s = va_arg(ap, const char *);

			if (!s)
				s = "(null)";
			width -= (int)strlen(s);
			while (width-- > 0)
				put(&o, ' ');
			while (*s)
				put(&o, *s++);
			break;
		}
		case 'c':
			put(&o, (char)va_arg(ap, int));
			break;
		case 'd': {
			long long v = lng ? va_arg(ap, long) : va_arg(ap, int);

			put_num(&o, v < 0 ? -(unsigned long long)v : (unsigned long long)v,
				10, width, pad, v < 0);
			break;
		}
		case 'u':
			put_num(&o, lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int),
				10, width, pad, 0);
			break;
		case 'x':
			put_num(&o, lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int),
				16, width, pad, 0);
			break;
		case 'p':
			put(&o, '0');
			put(&o, 'x');
			put_num(&o, (unsigned long)va_arg(ap, void *), 16, width, pad, 0);
			break;
		case '%':
			put(&o, '%');
			break;
		default:
			put(&o, '%');
			put(&o, *f);
			break;
		}
	}
	if (o.size)
		o.buf[o.len < o.size ? o.len : o.size - 1] = 0;
	return (int)o.len;
}

int fmt(char *buf, size_t size, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vfmt(buf, size, f, ap);
	va_end(ap);
	return n;
}

void fdprintf(int fd, const char *f, ...)
{
	char buf[1024];
	va_list ap;
	size_t n, off = 0;

	va_start(ap, f);
	n = (size_t)vfmt(buf, sizeof(buf), f, ap);
	va_end(ap);
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	while (off < n) {
		long r = sys_write(fd, buf + off, n - off);

		if (r <= 0)
			return;
		off += (size_t)r;
	}
}

int parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	int base = 10;

	if (s[0] == '0' && s[1] == 'x') {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else
			return -1;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

const char *errname(long err)
{
	switch (-err) {
	case 1: return "EPERM";
	case 2: return "ENOENT";
	case 9: return "EBADF";
	case 12: return "ENOMEM";
	case 13: return "EACCES";
	case 14: return "EFAULT";
	case 16: return "EBUSY";
	case 17: return "EEXIST";
	case 22: return "EINVAL";
	case 28: return "ENOSPC";
	case 38: return "ENOSYS";
	default: return "error";
	}
}

uint64_t now_ns(void)
{
	struct timespec ts;

	if (sys2(__NR_clock_gettime, CLOCK_MONOTONIC, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}
