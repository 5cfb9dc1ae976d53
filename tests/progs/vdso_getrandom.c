// SPDX-License-Identifier: GPL-2.0
/*
 * vdso_getrandom: calls the vDSO's getrandom (x86, from Linux 6.11) the way
 * a C library does first, asking for its state's parameters
 * (NULL, 0, 0, &params, ~0UL), then asks it for 16 bytes with that state
 * when the query succeeded.  Exit status: 0 the query succeeded (the
 * vDSO answers, no syscall), 38 it returned -ENOSYS (flightrec's stub for
 * a recorded process), 2 the vDSO has no getrandom, 1 anything else.
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>

struct vgetrandom_opaque_params {
	uint32_t size_of_opaque_state;
	uint32_t mmap_prot;
	uint32_t mmap_flags;
	uint32_t reserved[13];
};

typedef long (*vgetrandom_t)(void *buf, size_t len, unsigned int flags,
			     void *state, size_t state_len);

static void *vdso_sym(const char *name)
{
	const uint8_t *img = (const void *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const void *)img;
	const Elf64_Shdr *sh, *symtab = NULL;
	const Elf64_Sym *sym;
	const char *str;
	size_t i, n;

	if (!img)
		return NULL;
	sh = (const void *)(img + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_type == SHT_DYNSYM)
			symtab = &sh[i];
	if (!symtab)
		return NULL;
	sym = (const void *)(img + symtab->sh_offset);
	str = (const char *)img + sh[symtab->sh_link].sh_offset;
	n = symtab->sh_size / sizeof(*sym);
	for (i = 0; i < n; i++)
		if (sym[i].st_value && !strcmp(str + sym[i].st_name, name))
			return (void *)(img + sym[i].st_value);
	return NULL;
}

int main(void)
{
	vgetrandom_t vgr = (vgetrandom_t)vdso_sym("__vdso_getrandom");
	struct vgetrandom_opaque_params p = { 0 };
	unsigned char buf[16];
	void *state;
	long ret;

	if (!vgr) {
		printf("no __vdso_getrandom\n");
		return 2;
	}
	ret = vgr(NULL, 0, 0, &p, ~0UL);
	printf("query %ld state %u\n", ret, p.size_of_opaque_state);
	if (ret == -ENOSYS)
		return 38;
	if (ret || !p.size_of_opaque_state)
		return 1;
	state = mmap(NULL, 4096, p.mmap_prot, p.mmap_flags, -1, 0);
	if (state == MAP_FAILED)
		return 1;
	ret = vgr(buf, sizeof(buf), 0, state, p.size_of_opaque_state);
	printf("getrandom %ld\n", ret);
	return ret == sizeof(buf) ? 0 : 1;
}
