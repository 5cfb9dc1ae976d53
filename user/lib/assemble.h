/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Assembly: the records of one frozen dump (uapi/flightrec.h, one netlink
 * message each) become one checkpoint file (docs/checkpoint-format.md).
 *
 *	struct fr_asm *a;
 *	fr_asm_begin(&a, dir, &opts, err, sizeof(err));
 *	fr_client_get_dump_raw(c, dump_id, fr_asm_raw_cb, a, err, sizeof(err));
 *	fr_asm_finish(a, NULL, path, sizeof(path), &stats, err, sizeof(err));
 *
 * Memory stays small whatever the dump size: the header (system, process,
 * intervals) and the end are kept in memory; maps, threads, sigactions,
 * pages and syscalls go to unnamed spool files in DIR as they arrive, one per
 * kind, and are copied behind the header at the end.  Pages are hashed
 * (XXH64): an all-zero page becomes PAGE_ZERO, a page whose bytes were stored
 * before becomes PAGE_SAME_AS (bytes compared, not just hashes), the others
 * are compressed with zstd.
 */
#ifndef FLIGHTREC_ASSEMBLE_H
#define FLIGHTREC_ASSEMBLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <netlink/attr.h>

struct fr_asm;

struct fr_asm_opts {
	uint32_t abi_version;	/* of the module the records came from; 0: unknown */
	uint32_t dump_id;	/* 0: none */
	int level;		/* zstd level; 0: 3 */
	bool progress;		/* a progress line on stderr (when it is a tty) */
	FILE *warn;		/* warnings; NULL: stderr */
};

struct fr_asm_stats {
	uint64_t records;
	uint64_t intervals, maps, threads, sigactions;
	uint64_t pages;			/* (interval, address) pairs */
	uint64_t pages_data;		/* stored compressed */
	uint64_t pages_same;		/* same bytes as a stored page */
	uint64_t pages_zero;
	uint64_t pages_written;		/* of the pages, dirtied in their interval */
	uint64_t zbytes;		/* compressed page bytes */
	uint64_t zbytes_written;	/* of which pages dirtied in their interval */
	uint64_t syscalls;
	uint64_t syscall_bytes;		/* syscall entries, out-buffers included */
	uint64_t dropped;		/* malformed records left out */
	uint64_t warnings;
	uint64_t file_bytes;
};

int fr_asm_begin(struct fr_asm **ap, const char *dir,
		 const struct fr_asm_opts *opts, char *err, size_t errlen);

/*
 * One record.  tb is indexed by FLIGHTREC_A_* (what nla_parse gives).  A
 * syscall record has one FLIGHTREC_A_OUT nest per out-buffer, which a tb
 * array cannot hold: pass the message's whole attribute stream in attrs and
 * attrlen (NULL, 0: only tb[FLIGHTREC_A_OUT] is seen).  Returns 0, or -errno
 * when the file cannot be written (a malformed record is left out with a
 * warning and counted, not an error).
 */
int fr_asm_record(struct fr_asm *a, struct nlattr **tb,
		  const struct nlattr *attrs, int attrlen);

/* fr_asm_record(arg, tb, NULL, 0), shaped for fr_client_get_dump(). */
int fr_asm_cb(struct nlattr **tb, void *arg);
/* fr_asm_record(arg, ...), shaped for fr_client_get_dump_raw(): use this. */
int fr_asm_raw_cb(struct nlattr **tb, const struct nlattr *attrs, int attrlen,
		  void *arg);

/* The process id of the PROCESS record, 0 before it came. */
uint32_t fr_asm_pid(const struct fr_asm *a);

/* The message of the last error. */
const char *fr_asm_error(const struct fr_asm *a);

/*
 * The dump of the image before the exec that started this one (the
 * PROCESS record's FLIGHTREC_A_PREV_DUMP), 0 if none.  Assembled on its
 * own, it is handed over with fr_asm_set_before_exec(): the file then
 * holds that image first, ending at its execve, then this one.  a owns
 * before from then on.
 */
uint32_t fr_asm_prev_dump(const struct fr_asm *a);
void fr_asm_set_before_exec(struct fr_asm *a, struct fr_asm *before);

/*
 * Writes DIR/NAME atomically, mode 0600, never replacing a file (see
 * flrc_writer_begin); name NULL: "PID-DUMPID.flrc" or "PID.flrc".  The final
 * path goes to path.  Frees a either way.
 */
int fr_asm_finish(struct fr_asm *a, const char *name, char *path,
		  size_t pathlen, struct fr_asm_stats *stats, char *err,
		  size_t errlen);
void fr_asm_abort(struct fr_asm *a);

/* The build id of an ELF file, if dev/ino (when non-zero) still match. */
int fr_read_build_id(const char *path, uint32_t dev, uint64_t ino,
		     uint8_t *id, size_t *idlen);

#endif /* FLIGHTREC_ASSEMBLE_H */
