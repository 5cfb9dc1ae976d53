// SPDX-License-Identifier: GPL-2.0
/*
 * craft_replay: makes hostile checkpoints for the replay sandbox tests
 * (tests/replay_sandbox.c) out of a REAL recording.  The crafted-checkpoint
 * corpus is generated, not stored: each mode reads a checkpoint written by
 * a recorder, changes one thing, and writes it back through the library's
 * writer (every page re-stored as PAGE_DATA or PAGE_ZERO, so content
 * hashes stay right):
 *
 *   craft_replay jump-loader PATH  IN OUT
 *	The code at the entry rip of the thread that runs first is replaced
 *	by a scan of the loader's text for a `syscall` instruction (0f 05)
 *	and a jump there with mkdir(PATH, 0700) in the registers: Syscall
 *	User Dispatch lets calls from the loader's text through.
 *   craft_replay jump-fork - IN OUT
 *	The same scan, and a jump there with clone(CLONE_PARENT | SIGCHLD) in
 *	the registers: the fork the gdbserver's snapshots are made with, which
 *	the filter hands to the gdbserver under it (and it must refuse).
 *   craft_replay spin - IN OUT
 *	The same place holds `jmp .`: a replay that runs until it is killed.
 *   craft_replay outbuf-window ADDR IN OUT
 *	The first out-buffer of the log is aimed at ADDR (the loader's
 *	window, say): replay would copy recorded bytes over the loader.
 *   craft_replay bad-bytes - IN OUT
 *	The first data page of the first interval is stored with one byte
 *	changed and the hash of its real bytes: a damaged page that only
 *	decompressing it shows.  Its address is printed on stdout.
 *   craft_replay out-byte OFF IN OUT
 *	Byte OFF of the first read(2)'s out-buffer (of the first interval
 *	on) that is longer than OFF gets its bit 0x20 flipped: a read answered with one
 *	other byte, which a program that writes what it read passes on.  The
 *	call's seq is printed on stdout.
 *   craft_replay comm STRING IN OUT
 *	The recorded comm, exe and argv[0] become STRING (C escapes \e \a \n
 *	\xNN are decoded): terminal escapes in untrusted strings.
 *
 *   craft_replay xsave-move - IN OUT
 *	The recording CPU's XSAVE layout is made another: its CPUID leaf
 *	0xd.2 puts the AVX component (YMM_Hi128) at the first free offset
 *	past its own, and every recorded signal frame's FPU state holds it
 *	there (zeros where it was).  A replay that restores a frame at this
 *	CPU's offsets loses the upper halves of the YMM registers.  The new
 *	offset is printed on stdout.
 *
 * Resource attacks (tests/bounds.c, docs/security.md "Resource bounds"):
 * small files that a careless reader turns into much memory or time.
 * Pages and maps go into a fresh region at EXTRA_BASE of the first interval.
 *
 *   craft_replay expand N IN OUT
 *	N distinct PAGE_DATA pages that compress to ~20 bytes each (a
 *	counter in a page of zeros): 4 KiB of memory per ~45 bytes of file.
 *   craft_replay same N IN OUT
 *	One data page and N-1 pages marked PAGE_SAME_AS it.
 *   craft_replay zero N IN OUT
 *	N PAGE_DATA pages of zeros (stored as data, not as PAGE_ZERO).
 *   craft_replay tids N IN OUT
 *	N getpid records at the end of the log, each from another thread id.
 *   craft_replay counts N IN OUT
 *	N more (empty) intervals and N one-page maps in the first interval:
 *	per-interval copies of the map list grow as N squared.
 *
 * OUT is written 0600 and never over an existing file (the writer's rules).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libgen.h>
#include <zstd.h>
#include "checkpoint.h"
#include "flightrec.h"

#define PG FLRC_PAGE_SIZE
#define WINDOW_TEXT	0x2f0000001000ULL	/* the loader's text (user/loader/image.h) */
#define EXTRA_BASE	0x100000000000ULL	/* the crafted region: far from all else */
#define MAX_EXTRA	(16u << 20)

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "craft_replay: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

/* Pages as the writer stores them, each one a copy we may change. */
struct page {
	uint64_t addr;
	uint32_t interval, flags;
	uint8_t *data;		/* NULL: zeros */
};

static void patch_bytes(struct page *pages, size_t n, uint64_t addr, const uint8_t *code,
			size_t len)
{
	size_t i, k, hit = 0;

	for (k = 0; k < len; k++) {
		uint64_t a = addr + k, pa = a & ~(uint64_t)(PG - 1);

		for (i = 0; i < n; i++) {
			if (pages[i].addr != pa)
				continue;
			if (!pages[i].data)
				pages[i].data = calloc(1, PG);
			if (!pages[i].data)
				die("%s", "out of memory");
			pages[i].data[a - pa] = code[k];
			hit++;
		}
	}
	if (!hit)
		die("%s", "the entry rip's page is not in the checkpoint");
}

/*
 * x86-64, position independent:
 *	movabs $WINDOW_TEXT, %rbx
 * 1:	cmpw   $0x050f, (%rbx)
 *	je     2f
 *	inc    %rbx
 *	jmp    1b
 * 2:	lea    path(%rip), %rdi
 *	mov    $0700, %esi
 *	mov    $83, %eax		# mkdir
 *	jmp    *%rbx
 * path: .asciz PATH
 */
static size_t jump_code(uint8_t *c, const char *path)
{
	size_t n = 0, plen = strlen(path) + 1;
	uint64_t text = WINDOW_TEXT;
	int32_t disp = 41 - 29;

	c[n++] = 0x48; c[n++] = 0xbb;
	memcpy(c + n, &text, 8); n += 8;
	c[n++] = 0x66; c[n++] = 0x81; c[n++] = 0x3b; c[n++] = 0x0f; c[n++] = 0x05;
	c[n++] = 0x74; c[n++] = 5;
	c[n++] = 0x48; c[n++] = 0xff; c[n++] = 0xc3;
	c[n++] = 0xeb; c[n++] = (uint8_t)-12;
	c[n++] = 0x48; c[n++] = 0x8d; c[n++] = 0x3d;
	memcpy(c + n, &disp, 4); n += 4;
	c[n++] = 0xbe; c[n++] = 0xc0; c[n++] = 0x01; c[n++] = 0; c[n++] = 0;
	c[n++] = 0xb8; c[n++] = 83; c[n++] = 0; c[n++] = 0; c[n++] = 0;
	c[n++] = 0xff; c[n++] = 0xe3;
	memcpy(c + n, path, plen);
	return n + plen;
}

/* the same scan, then clone(CLONE_PARENT | SIGCHLD) there */
static size_t fork_code(uint8_t *c)
{
	size_t n = jump_code(c, "") - 20;	/* the scan (22 bytes): up to the lea */

	c[n++] = 0xbf; c[n++] = 0x11; c[n++] = 0x80; c[n++] = 0; c[n++] = 0;	/* mov $0x8011, %edi */
	c[n++] = 0xb8; c[n++] = 56; c[n++] = 0; c[n++] = 0; c[n++] = 0;	/* mov $56, %eax */
	c[n++] = 0xff; c[n++] = 0xe3;						/* jmp *%rbx */
	return n;
}

/* \e \a \n \t \\ \xNN decoded */
static char *unescape(const char *s)
{
	char *o = malloc(strlen(s) + 1), *p = o;

	if (!o)
		die("%s", "out of memory");
	while (*s) {
		if (*s != '\\' || !s[1]) {
			*p++ = *s++;
			continue;
		}
		s++;
		switch (*s) {
		case 'e': *p++ = 033; s++; break;
		case 'a': *p++ = 007; s++; break;
		case 'n': *p++ = '\n'; s++; break;
		case 't': *p++ = '\t'; s++; break;
		case 'x': *p++ = (char)strtoul(s + 1, (char **)&s, 16); break;
		default: *p++ = *s++; break;
		}
	}
	*p = 0;
	return o;
}

static void add(struct flrc_writer *w, Flightrec__Entry *e)
{
	if (flrc_writer_add(w, e))
		die("write: %s", flrc_writer_error(w));
}

/* pg becomes a PAGE_DATA page of these bytes, compressed into z */
static void data_page(Flightrec__Page *pg, const uint8_t *bytes, uint8_t *z, size_t zcap,
		      int level)
{
	size_t zn = ZSTD_compress(z, zcap, bytes, PG, level);

	if (ZSTD_isError(zn))
		die("zstd: %s", ZSTD_getErrorName(zn));
	pg->kind = FLIGHTREC__PAGE_KIND__PAGE_DATA;
	pg->has_zdata = 1;
	pg->zdata.data = z;
	pg->zdata.len = zn;
	pg->has_hash = 1;
	pg->hash = flrc_hash(bytes, PG);
}

/*
 * n pages at EXTRA_BASE.  'e': each a page of zeros with its index in the
 * first 8 bytes (distinct, ~20-byte frames); 's': the first a patterned
 * page, the others PAGE_SAME_AS it; 'z': PAGE_DATA pages of zeros.
 */
static void extra_pages(struct flrc_writer *w, char how, unsigned long n, uint32_t from)
{
	static uint8_t page[PG], z[PG + 512];
	Flightrec__Entry e = FLIGHTREC__ENTRY__INIT;
	uint64_t first_hash = 0;
	unsigned long k;

	for (k = 0; k < n; k++) {
		Flightrec__Page pg = FLIGHTREC__PAGE__INIT;
		size_t j;

		pg.addr = EXTRA_BASE + (uint64_t)k * PG;
		pg.interval = from;
		memset(page, 0, PG);
		if (how == 'e') {
			uint64_t v = k + 1;

			memcpy(page, &v, sizeof(v));
		} else if (how == 's') {
			for (j = 0; j < PG; j++)
				page[j] = (uint8_t)(j * 7 + 1);
		}
		if (how == 's' && k) {
			pg.kind = FLIGHTREC__PAGE_KIND__PAGE_SAME_AS;
			pg.has_same_as = 1;
			pg.same_as = first_hash;
		} else {
			data_page(&pg, page, z, sizeof(z), 19);
			first_hash = pg.hash;
		}
		e.e_case = FLIGHTREC__ENTRY__E_PAGE;
		e.page = &pg;
		add(w, &e);
	}
}

static Flightrec__CpuidLeaf *leaf_of(struct flrc *c, uint32_t leaf, uint32_t sub)
{
	size_t i;

	for (i = 0; i < c->hdr->system->n_cpuid; i++)
		if (c->hdr->system->cpuid[i]->leaf == leaf &&
		    c->hdr->system->cpuid[i]->subleaf == sub)
			return c->hdr->system->cpuid[i];
	return NULL;
}

/* xsave-move: see the top.  Returns the frames changed. */
#define FRAME_FPSTATE	232	/* rt_sigframe: pretcode, uc_flags, uc_link, uc_stack, then
				 * sigcontext's fpstate after its 23 words */
static size_t xsave_move(struct flrc *c, uint32_t *newp)
{
	const Flightrec__SystemInfo *si = c->hdr->system;
	Flightrec__CpuidLeaf *avx = leaf_of(c, 0xd, 2), *l;
	uint32_t off, end = 576, i, n = 0;
	size_t k, j;

	if (!si->has_xcr0 || !(si->xcr0 & 4) || !avx || !avx->eax)
		die("%s", "the recording has no AVX state in its frames");
	for (i = 2; i < 64; i++)
		if ((si->xcr0 >> i & 1) && i != 18 && (l = leaf_of(c, 0xd, i)) &&
		    l->ebx + l->eax > end)
			end = l->ebx + l->eax;
	/* the first 64-byte slot past AVX's own that no enabled component uses */
	for (off = avx->ebx + avx->eax; off + avx->eax <= end; off += 64) {
		for (i = 3; i < 64; i++)
			if ((si->xcr0 >> i & 1) && i != 18 && (l = leaf_of(c, 0xd, i)) &&
			    off < l->ebx + l->eax && l->ebx < off + avx->eax)
				break;
		if (i == 64)
			break;
	}
	if (off + avx->eax > end)
		die("%s", "no room for AVX elsewhere in the recorded layout");
	for (k = 0; k < c->n_syscalls; k++) {
		Flightrec__Syscall *s = c->syscalls[k];

		if (s->nr != FLIGHTREC_NR_SIGNAL)
			continue;
		for (j = 0; j < s->n_out; j++) {
			Flightrec__OutBuf *o = s->out[j];
			uint64_t fp;
			uint8_t *x;

			if (o->arg != 2 || o->data.len < FRAME_FPSTATE + 8)
				continue;
			memcpy(&fp, o->data.data + FRAME_FPSTATE, 8);
			if (fp < o->addr || fp - o->addr + end > o->data.len)
				die("%s", "a recorded frame does not hold its FPU state");
			x = o->data.data + (fp - o->addr);
			memcpy(x + off, x + avx->ebx, avx->eax);
			memset(x + avx->ebx, 0, avx->eax);
			n++;
		}
	}
	avx->ebx = off;
	*newp = off;
	return n;
}

int main(int argc, char **argv)
{
	const char *mode, *arg, *in, *out;
	char err[512], *dirc, *basec;
	struct flrc_writer *w;
	Flightrec__Entry e = FLIGHTREC__ENTRY__INIT;
	struct flrc *c;
	struct page *pages;
	char *old[3] = { NULL, NULL, NULL }, *comm = NULL;
	ProtobufCBinaryData *byte_at = NULL;	/* out-byte: its buffer, copied */
	uint8_t *byte_old = NULL;
	uint32_t from;
	size_t i, k;
	int done = 0, bad_bytes = 0;
	/* resource attacks */
	unsigned long n_extra = 0;
	int attack = 0;
	enum { A_NONE, A_EXPAND, A_SAME, A_ZERO, A_TIDS, A_COUNTS };
	Flightrec__IntervalInfo **ivs = NULL, **old_ivs = NULL, *xivs = NULL;
	size_t n_ivs_old = 0;

	if (argc != 5) {
		fprintf(stderr, "usage: craft_replay (jump-loader PATH | jump-fork - | spin - | outbuf-window ADDR | "
			"comm STRING | out-byte OFF | bad-bytes - | xsave-move - | expand N | same N | zero N | tids N | counts N) IN OUT\n");
		return 64;
	}
	mode = argv[1];
	arg = argv[2];
	in = argv[3];
	out = argv[4];
	if (flrc_read(in, &c, err, sizeof(err)))
		die("%s", err);
	from = flrc_first_interval(c);
	pages = calloc(c->n_pages + 1, sizeof(*pages));
	if (!pages)
		die("%s", "out of memory");
	for (i = 0; i < c->n_pages; i++) {
		pages[i].addr = c->pages[i].addr;
		pages[i].interval = c->pages[i].interval;
		pages[i].flags = c->pages[i].flags;
		if (!c->pages[i].zero && c->pages[i].data) {
			pages[i].data = malloc(PG);
			if (!pages[i].data)
				die("%s", "out of memory");
			memcpy(pages[i].data, c->pages[i].data, PG);
		}
	}

	if (!strcmp(mode, "jump-loader") || !strcmp(mode, "spin") || !strcmp(mode, "jump-fork")) {
		static const uint8_t spin[] = { 0xeb, 0xfe };	/* jmp . */
		const Flightrec__Thread *t = NULL;
		uint8_t code[512];
		size_t len;

		if (strlen(arg) > 400)
			die("%s: path too long", arg);
		/* the thread that ended the recording enters first (the loader's th0) */
		for (i = 0; i < c->n_threads; i++) {
			const Flightrec__Thread *x = c->threads[i];

			if (x->interval != from)
				continue;
			if (!t || (c->end->has_tid && x->tid == c->end->tid))
				t = x;
		}
		if (!t)
			die("%s", "no thread at the first interval");
		if (!strcmp(mode, "spin")) {
			memcpy(code, spin, sizeof(spin));
			len = sizeof(spin);
		} else if (!strcmp(mode, "jump-fork")) {
			len = fork_code(code);
		} else {
			len = jump_code(code, arg);
		}
		/* at rip: after the syscall a thread blocked in it re-enters */
		patch_bytes(pages, c->n_pages, t->regs->rip, code, len);
		done = 1;
	} else if (!strcmp(mode, "outbuf-window")) {
		uint64_t addr = strtoull(arg, NULL, 0);

		for (i = 0; i < c->n_syscalls && !done; i++) {
			Flightrec__Syscall *s = c->syscalls[i];

			if (s->interval < from || !s->n_out)
				continue;
			s->out[0]->addr = addr;
			done = 1;
		}
	} else if (!strcmp(mode, "out-byte")) {
		uint64_t off = strtoull(arg, NULL, 0);

		for (i = 0; i < c->n_syscalls && !done; i++) {
			Flightrec__Syscall *s = c->syscalls[i];

			if (s->interval < from || s->nr != 0)	/* read */
				continue;
			for (k = 0; k < s->n_out && !done; k++) {
				ProtobufCBinaryData *d = &s->out[k]->data;
				uint8_t *copy;

				if (d->len <= off)
					continue;
				copy = malloc(d->len);
				if (!copy)
					die("%s", "out of memory");
				memcpy(copy, d->data, d->len);
				copy[off] ^= 0x20;
				byte_old = d->data;
				byte_at = d;
				d->data = copy;
				printf("%" PRIu64 "\n", s->seq);
				done = 1;
			}
		}
	} else if (!strcmp(mode, "comm")) {
		Flightrec__ProcessInfo *p = c->hdr->process;

		if (!p)
			die("%s", "no process info");
		comm = unescape(arg);
		old[0] = p->comm;
		old[1] = p->exe;
		p->comm = comm;
		p->exe = comm;
		if (p->n_argv) {
			old[2] = p->argv[0];
			p->argv[0] = comm;
		}
		done = 1;
	} else if (!strcmp(mode, "xsave-move")) {
		uint32_t off;

		done = xsave_move(c, &off) > 0;
		printf("%#x\n", off);
	} else if (!strcmp(mode, "bad-bytes")) {
		bad_bytes = 1;
		for (i = 0; i < c->n_pages && !done; i++)
			done = pages[i].data && pages[i].interval == from;
	} else if (!strcmp(mode, "expand") || !strcmp(mode, "same") ||
		   !strcmp(mode, "zero") || !strcmp(mode, "tids") ||
		   !strcmp(mode, "counts")) {
		char *end;

		n_extra = strtoul(arg, &end, 0);
		if (*end || !n_extra || n_extra > MAX_EXTRA)
			die("%s: a count 1..16M", arg);
		attack = !strcmp(mode, "expand") ? A_EXPAND : !strcmp(mode, "same") ? A_SAME :
			 !strcmp(mode, "zero") ? A_ZERO : !strcmp(mode, "tids") ? A_TIDS :
			 A_COUNTS;
		if (attack == A_COUNTS) {
			/* N more intervals after the last, each empty */
			Flightrec__Header *h = c->hdr;
			uint32_t last = h->intervals[h->n_intervals - 1]->index;

			n_ivs_old = h->n_intervals;
			ivs = calloc(n_ivs_old + n_extra, sizeof(*ivs));
			xivs = calloc(n_extra, sizeof(*xivs));
			if (!ivs || !xivs)
				die("%s", "out of memory");
			memcpy(ivs, h->intervals, n_ivs_old * sizeof(*ivs));
			for (k = 0; k < n_extra; k++) {
				flightrec__interval_info__init(&xivs[k]);
				xivs[k].index = last + 1 + (uint32_t)k;
				ivs[n_ivs_old + k] = &xivs[k];
			}
			old_ivs = h->intervals;
			h->intervals = ivs;
			h->n_intervals = n_ivs_old + n_extra;
		}
		done = 1;
	} else {
		die("unknown mode %s", mode);
	}
	if (!done)
		die("%s: nothing to change in this checkpoint", mode);

	dirc = strdup(out);
	basec = strdup(out);
	if (!dirc || !basec)
		die("%s", "out of memory");
	if (flrc_writer_begin(&w, dirname(dirc), basename(basec), err, sizeof(err)))
		die("%s", err);
	e.e_case = FLIGHTREC__ENTRY__E_HEADER;
	e.header = c->hdr;
	add(w, &e);
	for (i = 0; i < c->n_maps; i++) {
		e.e_case = FLIGHTREC__ENTRY__E_MAP;
		e.map = c->maps[i];
		add(w, &e);
	}
	if (attack == A_EXPAND || attack == A_SAME || attack == A_ZERO) {
		Flightrec__Map m = FLIGHTREC__MAP__INIT;

		m.interval = from;
		m.start = EXTRA_BASE;
		m.end = EXTRA_BASE + (uint64_t)n_extra * PG;
		m.prot = 3;		/* PROT_READ | PROT_WRITE */
		m.flags = 2 | FLIGHTREC_MAPF_ANON;	/* MAP_PRIVATE */
		e.e_case = FLIGHTREC__ENTRY__E_MAP;
		e.map = &m;
		add(w, &e);
	} else if (attack == A_COUNTS) {
		for (k = 0; k < n_extra; k++) {
			Flightrec__Map m = FLIGHTREC__MAP__INIT;

			m.interval = from;
			m.start = EXTRA_BASE + 2 * k * PG;
			m.end = m.start + PG;
			m.prot = 1;
			m.flags = 2 | FLIGHTREC_MAPF_ANON;
			e.e_case = FLIGHTREC__ENTRY__E_MAP;
			e.map = &m;
			add(w, &e);
		}
	}
	for (i = 0; i < c->n_threads; i++) {
		e.e_case = FLIGHTREC__ENTRY__E_THREAD;
		e.thread = c->threads[i];
		add(w, &e);
	}
	for (i = 0; i < c->n_sigactions; i++) {
		e.e_case = FLIGHTREC__ENTRY__E_SIGACTION;
		e.sigaction = c->sigactions[i];
		add(w, &e);
	}
	for (i = 0; i < c->n_pages; i++) {
		Flightrec__Page pg = FLIGHTREC__PAGE__INIT;
		uint8_t z[PG + 512];

		pg.addr = pages[i].addr;
		pg.interval = pages[i].interval;
		if (pages[i].flags) {
			pg.has_flags = 1;
			pg.flags = pages[i].flags;
		}
		if (!pages[i].data) {
			pg.kind = FLIGHTREC__PAGE_KIND__PAGE_ZERO;
		} else if (bad_bytes && pages[i].interval == from) {
			uint64_t h = flrc_hash(pages[i].data, PG);

			pages[i].data[100] ^= 0x20;
			data_page(&pg, pages[i].data, z, sizeof(z), 1);
			pg.hash = h;
			printf("%#llx\n", (unsigned long long)pg.addr);
			bad_bytes = 0;
		} else {
			data_page(&pg, pages[i].data, z, sizeof(z), 1);
		}
		e.e_case = FLIGHTREC__ENTRY__E_PAGE;
		e.page = &pg;
		add(w, &e);
	}
	if (attack == A_EXPAND || attack == A_SAME || attack == A_ZERO)
		extra_pages(w, attack == A_EXPAND ? 'e' : attack == A_SAME ? 's' : 'z',
			    n_extra, from);
	for (i = 0; i < c->n_syscalls; i++) {
		e.e_case = FLIGHTREC__ENTRY__E_SYSCALL;
		e.syscall = c->syscalls[i];
		add(w, &e);
	}
	if (attack == A_TIDS) {
		const Flightrec__Syscall *l = c->syscalls[c->n_syscalls - 1];

		for (k = 0; k < n_extra; k++) {
			Flightrec__Syscall s = FLIGHTREC__SYSCALL__INIT;

			s.interval = l->interval;
			s.seq = l->seq + 1 + k;
			s.tid = 1000000 + (uint32_t)k;
			s.nr = 39;	/* getpid */
			s.ret = c->hdr->process->pid;
			e.e_case = FLIGHTREC__ENTRY__E_SYSCALL;
			e.syscall = &s;
			add(w, &e);
		}
	}
	e.e_case = FLIGHTREC__ENTRY__E_END;
	e.end = c->end;
	add(w, &e);
	if (flrc_writer_finish(w, NULL, 0, err, sizeof(err)))
		die("%s", err);
	for (k = 0; k < c->n_pages; k++)
		free(pages[k].data);
	free(pages);
	free(dirc);
	free(basec);
	if (ivs) {	/* the reader's intervals back, for flrc_free */
		c->hdr->intervals = old_ivs;
		c->hdr->n_intervals = n_ivs_old;
		free(ivs);
		free(xivs);
	}
	if (comm) {	/* the reader's strings back, for flrc_free */
		c->hdr->process->comm = old[0];
		c->hdr->process->exe = old[1];
		if (c->hdr->process->n_argv)
			c->hdr->process->argv[0] = old[2];
		free(comm);
	}
	if (byte_at) {	/* the reader's bytes back, for flrc_free */
		free(byte_at->data);
		byte_at->data = byte_old;
	}
	flrc_free(c);
	return 0;
}
