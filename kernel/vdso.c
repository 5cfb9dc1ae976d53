// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec: vDSO time calls become real syscalls for registered processes.
 *
 * clock_gettime, gettimeofday, time, getcpu and clock_getres answer from the
 * vDSO without entering the kernel, reading [vvar], which cannot be recorded
 * (VM_PFNMAP).  As rr does, each of these entry points in the process's own
 * copy of the vDSO is overwritten with "mov $nr, %eax; syscall; ret": the
 * calls then reach the syscall tracepoints and the log.  [vdso] is a private
 * mapping with VM_MAYWRITE ("to allow gdb to COW"), so a forced write gives
 * the process a private copy; other processes keep the shared one.
 *
 * From 6.11 the x86 vDSO also has getrandom, which fills the buffer from a
 * ChaCha state in the caller's memory keyed from [vvar]: random bytes with
 * no syscall.  It cannot be the getrandom syscall (its first call asks for
 * the state's parameters, which the syscall would answer 0 without writing
 * them), so it becomes "mov $-ENOSYS, %rax; ret": the C library then finds
 * the vDSO function unusable and makes the syscall (glibc 2.41 tests the
 * parameter query's result).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/mm.h>
#include <linux/elf.h>
#include <linux/slab.h>
#include <linux/sched/mm.h>
#include <linux/sched/task_stack.h>
#include <asm/unistd.h>
#include "flightrec.h"

/* a vDSO image is two or three pages; more would not be the kernel's */
#define FR_VDSO_MAX	(8 * PAGE_SIZE)

static const struct {
	const char *name;
	u32 nr;
} fr_vdso_funcs[] = {
	{ "__vdso_clock_gettime", __NR_clock_gettime },
	{ "__vdso_gettimeofday", __NR_gettimeofday },
	{ "__vdso_time", __NR_time },
	{ "__vdso_getcpu", __NR_getcpu },
	{ "__vdso_clock_getres", __NR_clock_getres },
	{ "__vdso_getrandom", 0 },	/* -ENOSYS */
};

static bool fr_in(const void *p, size_t len, const void *base, size_t size)
{
	return p >= base && len <= size &&
	       (const u8 *)p - (const u8 *)base <= size - len;
}

/* The offset of symbol `name` in the vDSO image, or 0. */
static unsigned long fr_vdso_sym(const u8 *img, size_t size, const char *name)
{
	const Elf64_Ehdr *eh = (const void *)img;
	const Elf64_Shdr *sh, *symtab = NULL, *strtab;
	const Elf64_Sym *sym;
	u32 i, n;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_shentsize != sizeof(*sh))
		return 0;
	sh = (const void *)(img + eh->e_shoff);
	if (!fr_in(sh, (size_t)eh->e_shnum * sizeof(*sh), img, size))
		return 0;
	for (i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_type == SHT_DYNSYM)
			symtab = &sh[i];
	if (!symtab || symtab->sh_link >= eh->e_shnum)
		return 0;
	strtab = &sh[symtab->sh_link];
	sym = (const void *)(img + symtab->sh_offset);
	n = symtab->sh_size / sizeof(*sym);
	if (!fr_in(sym, (size_t)n * sizeof(*sym), img, size) ||
	    !fr_in(img + strtab->sh_offset, strtab->sh_size, img, size))
		return 0;
	for (i = 0; i < n; i++) {
		const char *s = (const char *)img + strtab->sh_offset + sym[i].st_name;

		if (sym[i].st_name >= strtab->sh_size || !sym[i].st_value)
			continue;
		if (strnlen(s, strtab->sh_size - sym[i].st_name) ==
		    strtab->sh_size - sym[i].st_name)
			continue;
		if (!strcmp(s, name))
			return sym[i].st_value;
	}
	return 0;
}

/*
 * Is the user rip of a thread of proc (current included) strictly inside
 * [lo, lo + len)?  At the entry itself the new bytes run whole; past it,
 * the thread would resume in the middle of them.
 */
static bool fr_vdso_ip_inside(struct fr_proc *proc, unsigned long lo, size_t len)
{
	struct fr_thread *t;
	bool in = false;

	rcu_read_lock();
	list_for_each_entry_rcu(t, &proc->threads, pnode) {
		unsigned long ip = READ_ONCE(task_pt_regs(t->task)->ip);

		if (ip > lo && ip < lo + len) {
			in = true;
			break;
		}
	}
	rcu_read_unlock();
	return in;
}

/*
 * Patches current's vDSO.  Returns the number of entry points patched, or
 * -errno: -EAGAIN when a thread's rip is inside the bytes one entry point
 * would get (it would resume in the middle of the new instructions):
 * nothing is written then.  task_work context of a registered thread,
 * every other thread of proc stopped (fr_boundary): none runs the vDSO
 * while it changes.
 */
int fr_vdso_patch(struct fr_proc *proc)
{
	struct mm_struct *mm = current->mm;
	unsigned long base, end, off;
	struct vm_area_struct *vma;
	u8 stub[8];
	/* mov $nr, %eax; syscall; ret */
	static const u8 sys_stub[8] = { 0xb8, 0, 0, 0, 0, 0x0f, 0x05, 0xc3 };
	/* mov $-ENOSYS, %rax; ret */
	static const u8 enosys_stub[8] = { 0x48, 0xc7, 0xc0, 0xda, 0xff, 0xff,
					   0xff, 0xc3 };
	unsigned long offs[ARRAY_SIZE(fr_vdso_funcs)];
	u8 *img;
	size_t size;
	int i, done = 0;

	if (!mm || !mm->context.vdso)
		return -ENOENT;
	base = (unsigned long)mm->context.vdso;
	mmap_read_lock(mm);
	vma = find_vma(mm, base);
	end = (vma && vma->vm_start <= base) ? vma->vm_end : 0;
	mmap_read_unlock(mm);
	if (!end)
		return -ENOENT;
	size = min_t(unsigned long, end - base, FR_VDSO_MAX);
	img = kvmalloc(size, GFP_KERNEL);
	if (!img)
		return -ENOMEM;
	if (access_process_vm(current, base, img, size, FOLL_FORCE) != size) {
		kvfree(img);
		return -EFAULT;
	}
	for (i = 0; i < ARRAY_SIZE(fr_vdso_funcs); i++) {
		off = fr_vdso_sym(img, size, fr_vdso_funcs[i].name);
		offs[i] = off + sizeof(stub) > size ? 0 : off;
		if (offs[i] && fr_vdso_ip_inside(proc, base + off, sizeof(stub))) {
			kvfree(img);
			return -EAGAIN;
		}
	}
	for (i = 0; i < ARRAY_SIZE(fr_vdso_funcs); i++) {
		off = offs[i];
		if (!off)
			continue;
		if (fr_vdso_funcs[i].nr) {
			memcpy(stub, sys_stub, sizeof(stub));
			memcpy(&stub[1], &fr_vdso_funcs[i].nr, 4);
		} else {
			memcpy(stub, enosys_stub, sizeof(stub));
		}
		if (!memcmp(img + off, stub, sizeof(stub))) {
			done++;
			continue;
		}
		if (access_process_vm(current, base + off, stub, sizeof(stub),
				      FOLL_FORCE | FOLL_WRITE) == sizeof(stub))
			done++;
	}
	kvfree(img);
	return done;
}
