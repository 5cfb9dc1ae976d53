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
#include <linux/highmem.h>
#include <linux/pagemap.h>
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

/*
 * Reads [pos, pos + len) of f from the page cache alone: no I/O, so no
 * filesystem is entered with mmap_lock and work_lock held (issue 24 #9: a
 * recorded FUSE daemon would be asked to serve a read while its threads are
 * stopped at the cut, and XFS takes i_rwsem, which ranks above mmap_lock).
 * Returns the bytes copied, short at the file's end, -EAGAIN when a page is
 * not cached and up to date, or -EINVAL for a file that cannot be read.
 */
ssize_t fr_file_read_cached(struct file *f, void *buf, size_t len, loff_t pos)
{
	loff_t size = i_size_read(file_inode(f));
	size_t done = 0;

	/*
	 * What kernel_read() refuses, refused: a file without read
	 * (memfd_secret's pages are not even in the direct map).
	 */
	if (!(f->f_mode & FMODE_CAN_READ))
		return -EINVAL;
	if (pos < 0 || pos >= size)
		return 0;
	len = min_t(loff_t, len, size - pos);
	while (done < len) {
		loff_t at = pos + done;
		size_t off = offset_in_page(at);
		size_t n = min_t(size_t, len - done, PAGE_SIZE - off);
		struct page *page = find_get_page(f->f_mapping, at >> PAGE_SHIFT);
		void *p;

		if (!page)
			return -EAGAIN;
		if (!PageUptodate(page)) {
			put_page(page);
			return -EAGAIN;
		}
		p = kmap_local_page(page);
		memcpy(buf + done, p + off, n);
		kunmap_local(p);
		put_page(page);
		done += n;
	}
	return done;
}

/* len bytes at pos, from the page cache alone (cached) or by a read */
static int fr_bid_read(struct file *f, void *buf, size_t len, loff_t pos,
		       bool cached)
{
	ssize_t n = cached ? fr_file_read_cached(f, buf, len, pos) :
			     kernel_read(f, buf, len, &pos);

	if (n == -EAGAIN)
		return n;
	return n == len ? 0 : -EIO;
}

/*
 * The build ID of an ELF file: its length, or -errno; -EAGAIN when cached
 * and a page it needs is not in the page cache.
 */
static int fr_file_build_id(struct file *f, u8 *id, bool cached)
{
	Elf64_Ehdr eh;
	Elf64_Phdr *ph;
	u8 *notes;
	int i, err, n = -ENOENT;

	err = fr_bid_read(f, &eh, sizeof(eh), 0, cached);
	if (err == -EAGAIN)
		return err;
	if (err || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(*ph) || !eh.e_phnum || eh.e_phnum > FR_PHDRS_MAX)
		return -ENOEXEC;
	ph = kmalloc_array(eh.e_phnum, sizeof(*ph), GFP_KERNEL);
	notes = kmalloc(FR_NOTES_MAX, GFP_KERNEL);
	if (!ph || !notes) {
		n = -ENOMEM;
		goto out;
	}
	err = fr_bid_read(f, ph, eh.e_phnum * sizeof(*ph), eh.e_phoff, cached);
	if (err) {
		n = err;
		goto out;
	}
	for (i = 0; i < eh.e_phnum && n < 0; i++) {
		size_t len = min_t(u64, ph[i].p_filesz, FR_NOTES_MAX);

		if (ph[i].p_type != PT_NOTE)
			continue;
		err = fr_bid_read(f, notes, len, ph[i].p_offset, cached);
		if (err == -EAGAIN) {
			n = err;
			break;
		}
		if (err)
			continue;
		n = fr_note_build_id(notes, len, id);
	}
out:
	kfree(notes);
	kfree(ph);
	return n;
}

/* Whether the dump holds f's file for a read at GET_DUMP already. */
static bool fr_bid_deferred(const struct fr_dump *dump, const struct fr_map *m)
{
	u32 k;

	for (k = 0; k < dump->nr_bid_files; k++) {
		struct inode *inode = file_inode(dump->bid_files[k]);

		if (inode->i_ino == m->inode &&
		    new_encode_dev(inode->i_sb->s_dev) == m->dev)
			return true;
	}
	return false;
}

/*
 * Keeps a reference to f, whose build ID is read at the first GET_DUMP
 * (fr_dump_late_build_ids); a failed allocation leaves it unknown.
 */
static void fr_bid_defer(struct fr_dump *dump, struct file *f)
{
	struct file **a;

	a = krealloc_array(dump->bid_files, dump->nr_bid_files + 1, sizeof(*a),
			   GFP_KERNEL | __GFP_NOWARN);
	if (!a)
		return;
	dump->bid_files = a;
	a[dump->nr_bid_files++] = get_file(f);
}

/* Sets the build ID of every map of f's file in the dump. */
static void fr_bid_set(struct fr_dump *dump, u64 inode, u32 dev, const u8 *id,
		       int n)
{
	struct fr_interval *iv;
	u32 i;

	list_for_each_entry(iv, &dump->intervals, node) {
		for (i = 0; i < iv->nr_maps; i++) {
			struct fr_map *m = &iv->maps[i];

			if (m->inode != inode || m->dev != dev || m->build_id_tried)
				continue;
			m->build_id_tried = true;
			if (n > 0) {
				memcpy(m->build_id, id, n);
				m->build_id_len = n;
			}
		}
	}
}

/*
 * Fills in the build IDs of the dump's file maps, each file read once, also
 * when it has none: a map of a file looked at already takes its answer
 * (build_id_tried), so 1500 mappings of one file without a build ID are
 * one read, not one read and a search of every map per mapping (which
 * took minutes at a freeze).
 * At the freeze, in a thread of the process, mmap_lock and work_lock held
 * while the other threads are stopped: from the page cache alone.  A file
 * whose pages are not cached is kept for fr_dump_late_build_ids().
 */
void fr_dump_build_ids(struct fr_dump *dump, struct mm_struct *mm)
{
	struct vm_area_struct *vma;
	struct fr_interval *iv;
	struct fr_map *m;
	u8 id[FR_BUILD_ID_MAX];
	u32 i;
	int n;

	mmap_read_lock(mm);
	list_for_each_entry(iv, &dump->intervals, node) {
		for (i = 0; i < iv->nr_maps; i++) {
			m = &iv->maps[i];
			/* looked at, as another map of the same file maybe */
			if (!m->inode || m->build_id_tried || fr_bid_deferred(dump, m))
				continue;
			vma = find_vma(mm, m->start);
			if (!vma || vma->vm_start > m->start || !vma->vm_file ||
			    file_inode(vma->vm_file)->i_ino != m->inode)
				continue;	/* gone: another map of it may say */
			n = fr_file_build_id(vma->vm_file, id, true);
			if (n == -EAGAIN)
				fr_bid_defer(dump, vma->vm_file);
			else
				fr_bid_set(dump, m->inode, m->dev, id, n);
		}
	}
	mmap_read_unlock(mm);
}

/*
 * The build IDs the freeze could not read from the page cache, read now,
 * before the first GET_DUMP hands out a map: in the reader's context, with
 * no lock of the recorded process held and its threads running (a FUSE
 * daemon serves the read).  Concurrent readers wait for the first.
 */
void fr_dump_late_build_ids(struct fr_dump *dump)
{
	u8 id[FR_BUILD_ID_MAX];
	struct inode *inode;
	struct file *f;
	u32 k;
	int n;

	mutex_lock(&dump->bid_lock);
	for (k = 0; k < dump->nr_bid_files; k++) {
		f = dump->bid_files[k];
		inode = file_inode(f);
		n = fr_file_build_id(f, id, false);
		fr_bid_set(dump, inode->i_ino, new_encode_dev(inode->i_sb->s_dev),
			   id, n);
		fput(f);
	}
	kfree(dump->bid_files);
	dump->bid_files = NULL;
	dump->nr_bid_files = 0;
	mutex_unlock(&dump->bid_lock);
}

/* The files a dump freed unread holds (fr_dump_free). */
void fr_dump_put_bid_files(struct fr_dump *dump)
{
	u32 k;

	for (k = 0; k < dump->nr_bid_files; k++)
		fput(dump->bid_files[k]);
	kfree(dump->bid_files);
	dump->bid_files = NULL;
	dump->nr_bid_files = 0;
}
