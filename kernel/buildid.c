// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec: ELF build IDs of the files a dumped process maps, so that
 * symbols can be found for a checkpoint on another machine (by build ID,
 * from a debug directory).  build_id_parse() is not exported: the note is
 * read from the mapped file itself, the very file the process has open,
 * whatever the path holds today.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/elf.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include "flightrec.h"

#define FR_NOTES_MAX	4096
/* include/uapi/linux/elf.h lacks it; <elf.h> and lib/buildid.c say 3 */
#define FR_NT_GNU_BUILD_ID	3
#define FR_PHDRS_MAX	64

/* Finds NT_GNU_BUILD_ID in a note segment. */
static int fr_note_build_id(const u8 *n, size_t len, u8 *id)
{
	size_t off = 0;

	while (off + sizeof(Elf64_Nhdr) <= len) {
		const Elf64_Nhdr *h = (const void *)(n + off);
		size_t name = ALIGN(h->n_namesz, 4), desc = ALIGN(h->n_descsz, 4);

		off += sizeof(*h);
		if (name > len - off || desc > len - off - name)
			return -EINVAL;
		if (h->n_type == FR_NT_GNU_BUILD_ID && h->n_namesz == 4 &&
		    !memcmp(n + off, "GNU", 4) && h->n_descsz &&
		    h->n_descsz <= FR_BUILD_ID_MAX) {
			memcpy(id, n + off + name, h->n_descsz);
			return h->n_descsz;
		}
		off += name + desc;
	}
	return -ENOENT;
}

/* The build ID of an ELF file: its length, or -errno. */
static int fr_file_build_id(struct file *f, u8 *id)
{
	Elf64_Ehdr eh;
	Elf64_Phdr *ph;
	u8 *notes;
	loff_t pos = 0;
	int i, n = -ENOENT;

	if (kernel_read(f, &eh, sizeof(eh), &pos) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(*ph) || !eh.e_phnum || eh.e_phnum > FR_PHDRS_MAX)
		return -ENOEXEC;
	ph = kmalloc_array(eh.e_phnum, sizeof(*ph), GFP_KERNEL);
	notes = kmalloc(FR_NOTES_MAX, GFP_KERNEL);
	if (!ph || !notes) {
		n = -ENOMEM;
		goto out;
	}
	pos = eh.e_phoff;
	if (kernel_read(f, ph, eh.e_phnum * sizeof(*ph), &pos) !=
	    eh.e_phnum * sizeof(*ph)) {
		n = -EIO;
		goto out;
	}
	for (i = 0; i < eh.e_phnum && n < 0; i++) {
		size_t len = min_t(u64, ph[i].p_filesz, FR_NOTES_MAX);

		if (ph[i].p_type != PT_NOTE)
			continue;
		pos = ph[i].p_offset;
		if (kernel_read(f, notes, len, &pos) != len)
			continue;
		n = fr_note_build_id(notes, len, id);
	}
out:
	kfree(notes);
	kfree(ph);
	return n;
}

/*
 * Fills in the build IDs of the dump's file maps, each file read once, also
 * when it has none: a map of a file looked at already takes its answer
 * (build_id_tried), so 1500 mappings of one file without a build ID are
 * one read, not one read and a search of every map per mapping (which
 * took minutes at a freeze).
 * At the freeze, in a thread of the process: mm is current's.
 */
void fr_dump_build_ids(struct fr_dump *dump, struct mm_struct *mm)
{
	struct vm_area_struct *vma;
	struct fr_interval *iv, *jv;
	struct fr_map *m;
	u32 i, j;
	int n;

	mmap_read_lock(mm);
	list_for_each_entry(iv, &dump->intervals, node) {
		for (i = 0; i < iv->nr_maps; i++) {
			bool done = false;

			m = &iv->maps[i];
			if (!m->inode || m->build_id_tried)
				continue;
			/* another map of the same file was looked at already */
			list_for_each_entry(jv, &dump->intervals, node) {
				for (j = 0; j < jv->nr_maps && !done; j++) {
					struct fr_map *o = &jv->maps[j];

					if (o->build_id_tried && o->inode == m->inode &&
					    o->dev == m->dev) {
						memcpy(m->build_id, o->build_id,
						       o->build_id_len);
						m->build_id_len = o->build_id_len;
						m->build_id_tried = true;
						done = true;
					}
				}
			}
			if (done)
				continue;
			vma = find_vma(mm, m->start);
			if (!vma || vma->vm_start > m->start || !vma->vm_file ||
			    file_inode(vma->vm_file)->i_ino != m->inode)
				continue;	/* gone: another map of it may say */
			m->build_id_tried = true;
			n = fr_file_build_id(vma->vm_file, m->build_id);
			if (n > 0)
				m->build_id_len = n;
		}
	}
	mmap_read_unlock(mm);
}
