// SPDX-License-Identifier: GPL-2.0
/*
 * The replayed application as an ELF core file (`flightrec replay --core`).
 *
 * The layout is the kernel's (fs/binfmt_elf.c): the ELF header, one
 * PT_NOTE and one PT_LOAD per mapping, then the notes, then the memory,
 * page-aligned.  Notes: per thread NT_PRSTATUS (the thread that ended the
 * run first: debuggers take it as the current one); for that thread also
 * NT_FPREGSET, NT_X86_XSTATE and NT_SIGINFO; once NT_PRPSINFO, NT_AUXV
 * (when the replay started at exec) and NT_FILE (the file mappings of the
 * interval start).  The file is written in one pass, with write() only: the
 * sandbox lets the loader write to the fds it was given and nothing else.
 *
 * The address space is tracked here as the loader changes it: no
 * /proc/self/maps inside the sandbox, and the loader's own window is not
 * the application's.  Memory the application cannot read (PROT_NONE: the
 * reserve of a malloc arena, a VM_DONTDUMP mapping) has no bytes in the
 * file, as in a kernel core; a page that cannot be read otherwise is
 * written as zeros.
 */
#include <stddef.h>
#include <stdint.h>
#include <asm/unistd.h>
#include <linux/auxvec.h>
#include <linux/elf.h>
#include <linux/errno.h>
#include <linux/mman.h>
#include "sys.h"
#include "core.h"

#define CORE_MAX_SEGS	4096
#define PAGE		FRI_PAGE_SIZE

static struct seg {
	uint64_t start, end;
	uint32_t prot;
} segs[CORE_MAX_SEGS];
static uint32_t n_segs;
static int overflowed;

/* the first segment that ends after addr */
static uint32_t seg_after(uint64_t addr)
{
	uint32_t lo = 0, hi = n_segs;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (segs[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int insert_at(uint32_t i, uint64_t start, uint64_t end, uint32_t prot)
{
	if (n_segs == CORE_MAX_SEGS) {
		overflowed = 1;
		return -1;
	}
	memmove(&segs[i + 1], &segs[i], (n_segs - i) * sizeof(segs[0]));
	segs[i] = (struct seg){ start, end, prot };
	n_segs++;
	return 0;
}

void core_unmap(uint64_t start, uint64_t end)
{
	uint32_t i = seg_after(start);

	while (i < n_segs && segs[i].start < end) {
		struct seg *s = &segs[i];

		if (s->start < start && s->end > end) {		/* a hole in the middle */
			insert_at(i + 1, end, s->end, s->prot);
			s->end = start;
			return;
		}
		if (s->start < start) {
			s->end = start;
			i++;
		} else if (s->end > end) {
			s->start = end;
			return;
		} else {
			memmove(s, s + 1, (n_segs - i - 1) * sizeof(segs[0]));
			n_segs--;
		}
	}
}

void core_map(uint64_t start, uint64_t end, uint32_t prot)
{
	if (start >= end)
		return;
	core_unmap(start, end);
	insert_at(seg_after(start), start, end, prot);
}

void core_protect(uint64_t start, uint64_t end, uint32_t prot)
{
	uint64_t cur = start;

	for (;;) {
		uint32_t i = seg_after(cur);
		uint64_t a, b;

		while (i < n_segs && segs[i].start < end && segs[i].prot == prot)
			i++;
		if (i == n_segs || segs[i].start >= end)
			return;
		a = segs[i].start > cur ? segs[i].start : cur;
		b = segs[i].end < end ? segs[i].end : end;
		core_map(a, b, prot);
		cur = b;
	}
}

void core_move(uint64_t from, uint64_t oldlen, uint64_t to, uint64_t newlen)
{
	uint32_t i = seg_after(from);
	uint32_t prot = i < n_segs && segs[i].start <= from ? segs[i].prot :
			PROT_READ | PROT_WRITE;

	if (to == from) {
		if (newlen < oldlen)
			core_unmap(from + newlen, from + oldlen);
		else
			core_map(from + oldlen, from + newlen, prot);
		return;
	}
	core_unmap(from, from + oldlen);
	core_map(to, to + newlen, prot);
}

/* -------------------------------------------------------------------- */
/* Notes */

#define NOTE_HDR	12

static uint64_t align4(uint64_t x)
{
	return (x + 3) & ~3ull;
}

static uint64_t note_size(const char *name, uint64_t desc)
{
	uint64_t n = 0;

	while (name[n])
		n++;
	return NOTE_HDR + align4(n + 1) + align4(desc);
}

/* appends a note at *p; returns a pointer to its (zeroed) descriptor */
static uint8_t *note(uint8_t **p, const char *name, uint32_t type, uint32_t desc)
{
	uint32_t n = 0, hdr[3];
	uint8_t *d;

	while (name[n])
		n++;
	hdr[0] = n + 1;
	hdr[1] = desc;
	hdr[2] = type;
	memcpy(*p, hdr, sizeof(hdr));
	memcpy(*p + NOTE_HDR, name, n);		/* the buffer is zeroed: NUL, padding */
	d = *p + NOTE_HDR + align4(n + 1);
	*p = d + align4(desc);
	return d;
}

/* struct elf_prstatus and struct elf_prpsinfo of x86_64 (linux/elfcore.h) */
#define PRSTATUS_SIZE		336
#define PRSTATUS_CURSIG		12
#define PRSTATUS_SIGHOLD	24
#define PRSTATUS_PID		32
#define PRSTATUS_REG		112
#define PRSTATUS_FPVALID	328
#define PRPSINFO_SIZE		136
#define PRPSINFO_PID		24
#define PRPSINFO_FNAME		40
#define PRPSINFO_PSARGS		56
#define SIGINFO_SIZE		128
#define FXSAVE_SIZE		512
#define XSAVE_SW_OFF		464	/* software bytes: XCR0 in a core, the frame's magic in a signal frame */
#define FP_XSTATE_MAGIC1	0x46505853U

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* the XSAVE area's size and XCR0 from a signal frame's FP area, or 0 */
static uint32_t xsave_of(const struct core_thread *t, uint64_t *xcr0)
{
	const uint8_t *fp = t->fp;
	uint32_t magic, size;

	if (!fp || t->fp_size <= FXSAVE_SIZE)
		return 0;
	memcpy(&magic, fp + XSAVE_SW_OFF, 4);
	memcpy(xcr0, fp + XSAVE_SW_OFF + 8, 8);
	memcpy(&size, fp + XSAVE_SW_OFF + 16, 4);	/* xstate_size */
	if (magic != FP_XSTATE_MAGIC1 || size <= FXSAVE_SIZE || size > t->fp_size)
		return 0;
	return size;
}

/* a file mapping's name (NT_FILE lists those), or NULL; its length in *len */
static const char *file_name(const struct core_info *ci, uint32_t i, uint64_t *len)
{
	const struct fri_region *r = &ci->regions[i];
	const char *name = r->name_off ? (const char *)ci->base + r->name_off : "";

	if (name[0] != '/')
		return NULL;
	for (*len = 0; name[*len]; (*len)++)
		;
	return name;
}

static uint64_t file_note_size(const struct core_info *ci, uint32_t *count)
{
	uint64_t size = 16, len;
	uint32_t i, n = 0;

	for (i = 0; i < ci->n_regions; i++) {
		if (!file_name(ci, i, &len))
			continue;
		size += 24 + len + 1;
		n++;
	}
	*count = n;
	return size;
}

static void file_note(uint8_t *d, const struct core_info *ci, uint32_t count)
{
	uint8_t *names = d + 16 + 24ull * count;
	uint32_t i, k = 0;
	const char *name;
	uint64_t len;

	put64(d, count);
	put64(d + 8, PAGE);
	for (i = 0; i < ci->n_regions; i++) {
		const struct fri_region *r = &ci->regions[i];

		name = file_name(ci, i, &len);
		if (!name)
			continue;
		put64(d + 16 + 24ull * k, r->start);
		put64(d + 16 + 24ull * k + 8, r->end);
		put64(d + 16 + 24ull * k + 16, r->offset / PAGE);
		memcpy(names, name, len + 1);
		names += len + 1;
		k++;
	}
}

static uint64_t auxv_len(const uint64_t *auxv)
{
	uint64_t n = 0;

	if (!auxv)
		return 0;
	while (auxv[2 * n] != AT_NULL && n < 64)
		n++;
	return (n + 1) * 16;
}

static uint64_t notes_size(const struct core_info *ci, uint32_t *files)
{
	uint64_t size = ci->n_threads * note_size("CORE", PRSTATUS_SIZE) +
			note_size("CORE", PRPSINFO_SIZE) + note_size("CORE", SIGINFO_SIZE);
	uint64_t xcr0;
	uint32_t xs = ci->n_threads ? xsave_of(&ci->threads[0], &xcr0) : 0;

	if (ci->n_threads && ci->threads[0].fp)
		size += note_size("CORE", FXSAVE_SIZE);
	if (xs)
		size += note_size("LINUX", xs);
	if (ci->auxv)
		size += note_size("CORE", auxv_len(ci->auxv));
	size += note_size("CORE", file_note_size(ci, files));
	return size;
}

static void thread_notes(uint8_t **p, const struct core_info *ci, const struct core_thread *t,
			 int first)
{
	uint8_t *d = note(p, "CORE", NT_PRSTATUS, PRSTATUS_SIZE);
	uint64_t xcr0 = 0;
	uint32_t xs;

	if (first) {
		put32(d, (uint32_t)ci->sig);
		put32(d + 4, (uint32_t)ci->code);
		put32(d + 8, (uint32_t)ci->err);
		d[PRSTATUS_CURSIG] = (uint8_t)ci->sig;
	}
	put64(d + PRSTATUS_SIGHOLD, t->sigmask);
	put32(d + PRSTATUS_PID, t->tid);
	put32(d + PRSTATUS_PID + 4, 0);			/* ppid */
	put32(d + PRSTATUS_PID + 8, (uint32_t)ci->pid);	/* pgrp */
	put32(d + PRSTATUS_PID + 12, (uint32_t)ci->pid);	/* sid */
	memcpy(d + PRSTATUS_REG, &t->regs, sizeof(t->regs));
	put32(d + PRSTATUS_FPVALID, t->fp ? 1 : 0);
	if (!first || !t->fp)
		return;
	d = note(p, "CORE", NT_PRFPREG, FXSAVE_SIZE);
	memcpy(d, t->fp, FXSAVE_SIZE);
	memset(d + XSAVE_SW_OFF, 0, FXSAVE_SIZE - XSAVE_SW_OFF);
	xs = xsave_of(t, &xcr0);
	if (xs) {
		d = note(p, "LINUX", NT_X86_XSTATE, xs);
		memcpy(d, t->fp, xs);
		/* a core's software bytes hold XCR0 (the kernel's xstateregs_get) */
		memset(d + XSAVE_SW_OFF, 0, FXSAVE_SIZE - XSAVE_SW_OFF);
		put64(d + XSAVE_SW_OFF, xcr0);
	}
}

/* -------------------------------------------------------------------- */
/* The file */

static long write_full(int fd, const void *buf, uint64_t len)
{
	const uint8_t *p = buf;

	while (len) {
		long r = sys3(__NR_write, fd, p, len);

		if (r == -EINTR)
			continue;
		if (r <= 0)
			return r ? r : -EIO;
		p += r;
		len -= (uint64_t)r;
	}
	return 0;
}

static const uint8_t zero_page[PAGE] __attribute__((aligned(64)));

/* a page of the application, or zeros where it cannot be read */
static long write_page(int fd, uint64_t addr)
{
	long r = sys3(__NR_write, fd, addr, PAGE);

	if (r == (long)PAGE)
		return 0;
	if (r == -EFAULT)
		return write_full(fd, zero_page, PAGE);
	if (r < 0)
		return r;
	return write_full(fd, zero_page, PAGE - (uint64_t)r);	/* the unreadable rest */
}

long core_write(const struct core_info *ci, const char **why)
{
	uint32_t phnum = 1 + n_segs, files = 0, i;
	uint64_t nsize = notes_size(ci, &files);
	uint64_t hsize = sizeof(Elf64_Ehdr) + phnum * sizeof(Elf64_Phdr);
	uint64_t data = (hsize + nsize + PAGE - 1) & ~(PAGE - 1), off, a, len;
	uint8_t *buf, *p, *d;
	Elf64_Ehdr *eh;
	Elf64_Phdr *ph;
	long r;

	*why = "";
	if (overflowed) {
		*why = "more mappings than the core writer tracks (4096)";
		return -E2BIG;
	}
	len = (data + PAGE - 1) & ~(PAGE - 1);
	buf = sys_mmap(0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (is_err((long)buf)) {
		*why = "no memory for the headers";
		return (long)buf;
	}
	eh = (Elf64_Ehdr *)buf;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_CORE;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(Elf64_Ehdr);
	eh->e_ehsize = sizeof(Elf64_Ehdr);
	eh->e_phentsize = sizeof(Elf64_Phdr);
	eh->e_phnum = (uint16_t)phnum;
	ph = (Elf64_Phdr *)(buf + sizeof(Elf64_Ehdr));
	ph[0].p_type = PT_NOTE;
	ph[0].p_offset = hsize;
	ph[0].p_filesz = nsize;
	ph[0].p_align = 4;
	off = data;
	for (i = 0; i < n_segs; i++) {
		const struct seg *s = &segs[i];
		Elf64_Phdr *q = &ph[1 + i];

		q->p_type = PT_LOAD;
		q->p_offset = off;
		q->p_vaddr = s->start;
		q->p_memsz = s->end - s->start;
		q->p_filesz = s->prot & PROT_READ ? q->p_memsz : 0;
		q->p_flags = (s->prot & PROT_READ ? PF_R : 0) | (s->prot & PROT_WRITE ? PF_W : 0) |
			     (s->prot & PROT_EXEC ? PF_X : 0);
		q->p_align = PAGE;
		off += q->p_filesz;
	}

	p = buf + hsize;
	for (i = 0; i < ci->n_threads; i++)
		thread_notes(&p, ci, &ci->threads[i], i == 0);
	d = note(&p, "CORE", NT_PRPSINFO, PRPSINFO_SIZE);
	d[1] = 'R';
	put32(d + PRPSINFO_PID, (uint32_t)ci->pid);
	for (i = 0; ci->comm && ci->comm[i] && i < 15; i++)
		d[PRPSINFO_FNAME + i] = (uint8_t)ci->comm[i];
	for (i = 0; ci->comm && ci->comm[i] && i < 79; i++)
		d[PRPSINFO_PSARGS + i] = (uint8_t)ci->comm[i];
	d = note(&p, "CORE", NT_SIGINFO, SIGINFO_SIZE);
	put32(d, (uint32_t)ci->sig);
	put32(d + 4, (uint32_t)ci->err);
	put32(d + 8, (uint32_t)ci->code);
	put64(d + 16, ci->fault_addr);
	if (ci->auxv) {
		d = note(&p, "CORE", NT_AUXV, (uint32_t)auxv_len(ci->auxv));
		memcpy(d, ci->auxv, auxv_len(ci->auxv));
	}
	d = note(&p, "CORE", NT_FILE, (uint32_t)file_note_size(ci, &files));
	file_note(d, ci, files);

	r = write_full(ci->fd, buf, data);
	sys2(__NR_munmap, buf, len);
	if (r) {
		*why = "writing the headers and notes";
		return r;
	}
	for (i = 0; i < n_segs; i++) {
		if (!(segs[i].prot & PROT_READ))
			continue;
		for (a = segs[i].start; a < segs[i].end; a += PAGE) {
			r = write_page(ci->fd, a);
			if (r) {
				*why = "writing the memory";
				return r;
			}
		}
	}
	return 0;
}
