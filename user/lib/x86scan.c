// SPDX-License-Identifier: GPL-2.0
/*
 * x86scan.c - the cpuid instructions of an ELF file's code, found in this
 * process (fr_cpuid_scan, x86sites.h).  Only the helper flightrec-sites
 * (user/sites.c) runs it; the tools ask that helper (x86sites.c).
 *
 * Bytes 0f a2 are cpuid only where an instruction starts.  x86 code has no
 * marks of where instructions start, but each function does: .eh_frame_hdr
 * holds the sorted start addresses of every function with unwind
 * information (all of a distribution's compiled code; glibc's assembly
 * carries CFI too).  Each candidate is disassembled (capstone) from the
 * start of the function that holds it; it is a site if an instruction
 * starts there and is cpuid.  Any other candidate (no function start before
 * it, a byte the disassembler does not know on the way) is counted as
 * unverified and left alone: patching a byte inside another instruction
 * would change the program.
 *
 * capstone is linked into the helper only.  Its tables hold 77,000
 * pointers, which a static PIE relocates at every start: in flightrec they
 * were a third of every command's start under emulation (issue 28, item
 * 4), for a scan that only writing a checkpoint needs.  The helper also
 * keeps the disassembly of a recorded program's code (untrusted input) in a
 * process that can do nothing else (sites.c).
 */
#include "x86sites.h"

#include <capstone/capstone.h>
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

/* A function larger than this is not swept from its start. */
#define MAX_SWEEP	(1u << 20)
/* More candidates than this in one file: the rest are not looked at. */
#define MAX_CANDIDATES	FR_SITES_MAX
/* Bytes disassembled per file at most (a crafted file cannot make it slow). */
#define MAX_SWEPT	(64u << 20)

#define DW_EH_PE_omit	0xff
#define DW_EH_PE_udata4	0x03
#define DW_EH_PE_sdata4	0x0b
#define DW_EH_PE_datarel_sdata4	0x3b

struct elf_view {
	const uint8_t *base;
	size_t size;
	const int32_t *table;	/* (initial_loc, fde) pairs, datarel */
	uint64_t table_base;	/* the vaddr initial_loc is relative to */
	uint32_t n_fn;
};

static int fail(char *why, size_t whylen, int err, const char *f, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(char *why, size_t whylen, int err, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(why, whylen, f, ap);
	va_end(ap);
	return err;
}

static bool in_file(const struct elf_view *v, uint64_t off, uint64_t len)
{
	return off <= v->size && len <= v->size - off;
}

static uint64_t fn_start(const struct elf_view *v, uint32_t i)
{
	int32_t rel;

	memcpy(&rel, &v->table[2 * (size_t)i], sizeof(rel));
	return v->table_base + (uint64_t)(int64_t)rel;
}

/* The start of the last function at or below @addr; false if none. */
static bool fn_of(const struct elf_view *v, uint64_t addr, uint64_t *start)
{
	uint32_t lo = 0, hi = v->n_fn;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (fn_start(v, mid) <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return false;
	*start = fn_start(v, lo - 1);
	return true;
}

static int eh_table(struct elf_view *v, const Elf64_Phdr *ph, char *why,
		    size_t whylen)
{
	const uint8_t *h;
	uint32_t count;
	size_t pos = 4;

	if (!in_file(v, ph->p_offset, ph->p_filesz) || ph->p_filesz < 4)
		return fail(why, whylen, -EINVAL, "PT_GNU_EH_FRAME lies outside the file");
	h = v->base + ph->p_offset;
	if (h[0] != 1)
		return fail(why, whylen, -EOPNOTSUPP, ".eh_frame_hdr version %u", h[0]);
	switch (h[1] & 0x0f) {		/* eh_frame_ptr: skipped */
	case DW_EH_PE_udata4: case DW_EH_PE_sdata4: pos += 4; break;
	case 0x00: case 0x04: case 0x0c: pos += 8; break;
	default:
		return fail(why, whylen, -EOPNOTSUPP, ".eh_frame_hdr pointer encoding 0x%x", h[1]);
	}
	if ((h[2] != DW_EH_PE_udata4 && h[2] != DW_EH_PE_sdata4) ||
	    h[3] != DW_EH_PE_datarel_sdata4)
		return fail(why, whylen, -EOPNOTSUPP, ".eh_frame_hdr without a search table "
			    "of 4-byte entries (encodings 0x%x, 0x%x)", h[2], h[3]);
	if (pos + 4 > ph->p_filesz)
		return fail(why, whylen, -EINVAL, ".eh_frame_hdr is truncated");
	memcpy(&count, h + pos, 4);
	pos += 4;
	if ((uint64_t)count * 8 > ph->p_filesz - pos)
		return fail(why, whylen, -EINVAL, ".eh_frame_hdr: %u entries do not fit", count);
	v->table = (const int32_t *)(h + pos);
	v->table_base = ph->p_vaddr;
	v->n_fn = count;
	return 0;
}

static int push(struct fr_sites *s, size_t *cap, uint64_t off)
{
	if (s->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		uint64_t *n = realloc(s->off, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->off = n;
		*cap = ncap;
	}
	s->off[s->n++] = off;
	return 0;
}

/* The candidates of one executable segment. */
static int scan_segment(const struct elf_view *v, const Elf64_Phdr *ph, csh h,
			cs_insn *insn, struct fr_sites *s, size_t *cap, size_t *seen,
			uint64_t *swept)
{
	const uint8_t *seg = v->base + ph->p_offset, *p = seg;
	const uint8_t *end = seg + ph->p_filesz;
	/* the sweep in progress: the function it started at, where it is */
	uint64_t sweep_fn = 0, addr = 0;
	const uint8_t *code = NULL;
	size_t left = 0;
	bool sweeping = false;
	int err;

	while (p + 1 < end && (p = memmem(p, (size_t)(end - p), "\x0f\xa2", 2))) {
		uint64_t va = ph->p_vaddr + (uint64_t)(p - seg), fn;

		p++;
		if (++*seen > MAX_CANDIDATES) {
			s->unverified++;
			continue;
		}
		if (!fn_of(v, va, &fn) || fn < ph->p_vaddr || va - fn > MAX_SWEEP) {
			s->unverified++;
			continue;
		}
		if (!sweeping || sweep_fn != fn || addr > va)
			*swept += va - fn;
		else
			*swept += va - addr;
		if (*swept > MAX_SWEPT) {
			s->unverified++;
			continue;
		}
		if (!sweeping || sweep_fn != fn || addr > va) {
			sweeping = true;
			sweep_fn = fn;
			addr = fn;
			code = seg + (fn - ph->p_vaddr);
			left = (size_t)(end - code);
		}
		while (addr < va && cs_disasm_iter(h, &code, &left, &addr, insn))
			;
		if (addr != va) {
			s->unverified++;	/* inside an instruction, or lost */
			if (addr < va)
				sweeping = false;
			continue;
		}
		if (!cs_disasm_iter(h, &code, &left, &addr, insn)) {
			s->unverified++;
			sweeping = false;
			continue;
		}
		if (insn->id != X86_INS_CPUID)
			continue;
		err = push(s, cap, ph->p_offset + (va - ph->p_vaddr));
		if (err)
			return err;
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int fr_cpuid_scan(int fd, struct fr_sites *s, char *why, size_t whylen)
{
	struct elf_view v = { 0 };
	const Elf64_Ehdr *eh;
	const Elf64_Phdr *ph = NULL;
	size_t cap = 0, seen = 0;
	uint64_t swept = 0;
	struct stat st;
	cs_insn *insn = NULL;
	csh h = 0;
	void *map;
	int i, err;

	memset(s, 0, sizeof(*s));
	if (fstat(fd, &st) < 0)
		return fail(why, whylen, -errno, "fstat: %s", strerror(errno));
	if (!S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(Elf64_Ehdr))
		return fail(why, whylen, -ENOEXEC, "not an ELF file");
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return fail(why, whylen, -errno, "mmap: %s", strerror(errno));
	v.base = map;
	v.size = (size_t)st.st_size;
	eh = map;
	err = fail(why, whylen, -ENOEXEC, "not a 64-bit x86 ELF file");
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_machine != EM_X86_64 || eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    !in_file(&v, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr)))
		goto out;
	ph = (const Elf64_Phdr *)(v.base + eh->e_phoff);
	err = fail(why, whylen, -ENOENT, "no .eh_frame_hdr (PT_GNU_EH_FRAME): function "
		   "starts unknown");
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_GNU_EH_FRAME) {
			err = eh_table(&v, &ph[i], why, whylen);
			break;
		}
	if (err)
		goto out;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK) {
		err = fail(why, whylen, -ENOMEM, "capstone: cs_open failed");
		goto out;
	}
	insn = cs_malloc(h);
	if (!insn) {
		err = fail(why, whylen, -ENOMEM, "capstone: out of memory");
		goto out;
	}
	for (i = 0; i < eh->e_phnum && !err; i++)
		if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X) &&
		    in_file(&v, ph[i].p_offset, ph[i].p_filesz))
			err = scan_segment(&v, &ph[i], h, insn, s, &cap, &seen, &swept);
	if (err)
		fail(why, whylen, err, "%s", strerror(-err));
	else if (s->n)
		qsort(s->off, s->n, sizeof(*s->off), cmp_u64);
out:
	if (insn)
		cs_free(insn, 1);
	if (h)
		cs_close(&h);
	munmap(map, (size_t)st.st_size);
	if (err)
		fr_sites_free(s);
	return err;
}
