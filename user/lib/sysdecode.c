// SPDX-License-Identifier: GPL-2.0
/*
 * libflightrec: strace-style decoding of recorded syscalls.
 *
 * Everything syscall-specific comes from the table: the argument letters of a
 * row say how each argument is shown, its descriptors say which arguments
 * carry data, FR_F_RETPTR says the result is an address, and the request
 * sub-table names ioctl/fcntl/prctl/futex... requests.  The values below are
 * those of the x86_64 kernel ABI (not of the host's libc headers: O_LARGEFILE
 * is 0 in glibc's x86_64 headers but a real bit in the kernel's).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/user.h>
#include <linux/ioctl.h>
#include <asm/unistd.h>
#include "syscalls.h"
#include "sysdecode.h"
#include "flightrec.h"		/* uapi: the pseudo-records */

struct fr_bitname {
	uint64_t bit;
	const char *name;
};

#define FR_N(a) (sizeof(a) / sizeof((a)[0]))

static const struct fr_bitname fr_open_flags[] = {
	{ 00000100, "O_CREAT" },	{ 00000200, "O_EXCL" },
	{ 00000400, "O_NOCTTY" },	{ 00001000, "O_TRUNC" },
	{ 00002000, "O_APPEND" },	{ 00004000, "O_NONBLOCK" },
	{ 04010000, "O_SYNC" },		{ 00010000, "O_DSYNC" },
	{ 00020000, "O_ASYNC" },	{ 00040000, "O_DIRECT" },
	{ 00100000, "O_LARGEFILE" },	{ 020200000, "O_TMPFILE" },
	{ 00200000, "O_DIRECTORY" },	{ 00400000, "O_NOFOLLOW" },
	{ 01000000, "O_NOATIME" },	{ 02000000, "O_CLOEXEC" },
	{ 010000000, "O_PATH" },
};

#define FR_O_CREATING	(00000100 | 020000000)	/* O_CREAT, __O_TMPFILE */

static const struct fr_bitname fr_prot_flags[] = {
	{ 0x1, "PROT_READ" },		{ 0x2, "PROT_WRITE" },
	{ 0x4, "PROT_EXEC" },		{ 0x8, "PROT_SEM" },
	{ 0x01000000, "PROT_GROWSDOWN" }, { 0x02000000, "PROT_GROWSUP" },
};

static const struct fr_bitname fr_map_flags[] = {
	{ 0x10, "MAP_FIXED" },		{ 0x20, "MAP_ANONYMOUS" },
	{ 0x40, "MAP_32BIT" },		{ 0x100, "MAP_GROWSDOWN" },
	{ 0x800, "MAP_DENYWRITE" },	{ 0x1000, "MAP_EXECUTABLE" },
	{ 0x2000, "MAP_LOCKED" },	{ 0x4000, "MAP_NORESERVE" },
	{ 0x8000, "MAP_POPULATE" },	{ 0x10000, "MAP_NONBLOCK" },
	{ 0x20000, "MAP_STACK" },	{ 0x40000, "MAP_HUGETLB" },
	{ 0x80000, "MAP_SYNC" },	{ 0x100000, "MAP_FIXED_NOREPLACE" },
	{ 0x4000000, "MAP_UNINITIALIZED" },
};

static const struct fr_bitname fr_at_flags[] = {
	{ 0x100, "AT_SYMLINK_NOFOLLOW" }, { 0x200, "AT_REMOVEDIR" },
	{ 0x400, "AT_SYMLINK_FOLLOW" },	{ 0x800, "AT_NO_AUTOMOUNT" },
	{ 0x1000, "AT_EMPTY_PATH" },	{ 0x2000, "AT_STATX_FORCE_SYNC" },
	{ 0x4000, "AT_STATX_DONT_SYNC" }, { 0x8000, "AT_RECURSIVE" },
};

static const struct fr_bitname fr_sock_flags[] = {
	{ 00004000, "SOCK_NONBLOCK" },	{ 02000000, "SOCK_CLOEXEC" },
};

static const struct fr_bitname fr_futex_flags[] = {
	{ 128, "FUTEX_PRIVATE_FLAG" },	{ 256, "FUTEX_CLOCK_REALTIME" },
};

static const char *const fr_signames[] = {
	NULL, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT",
	"SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2",
	"SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT",
	"SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU",
	"SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO", "SIGPWR",
	"SIGSYS", "SIGRTMIN",
};

static const char *const fr_clocks[] = {
	"CLOCK_REALTIME", "CLOCK_MONOTONIC", "CLOCK_PROCESS_CPUTIME_ID",
	"CLOCK_THREAD_CPUTIME_ID", "CLOCK_MONOTONIC_RAW",
	"CLOCK_REALTIME_COARSE", "CLOCK_MONOTONIC_COARSE", "CLOCK_BOOTTIME",
	"CLOCK_REALTIME_ALARM", "CLOCK_BOOTTIME_ALARM", NULL, "CLOCK_TAI",
};

static const char *const fr_sig_how[] = { "SIG_BLOCK", "SIG_UNBLOCK", "SIG_SETMASK" };
static const char *const fr_whence[] = {
	"SEEK_SET", "SEEK_CUR", "SEEK_END", "SEEK_DATA", "SEEK_HOLE",
};
static const char *const fr_sock_types[] = {
	NULL, "SOCK_STREAM", "SOCK_DGRAM", "SOCK_RAW", "SOCK_RDM",
	"SOCK_SEQPACKET", "SOCK_DCCP", NULL, NULL, NULL, "SOCK_PACKET",
};

static const struct fr_bitname fr_families[] = {
	{ 0, "AF_UNSPEC" },	{ 1, "AF_UNIX" },	{ 2, "AF_INET" },
	{ 10, "AF_INET6" },	{ 16, "AF_NETLINK" },	{ 17, "AF_PACKET" },
	{ 38, "AF_ALG" },	{ 40, "AF_VSOCK" },
};

/* kernel-internal restart codes that a sys_exit probe can see */
static const struct {
	int err;
	const char *name, *desc;
} fr_restarts[] = {
	{ 512, "ERESTARTSYS", "To be restarted if SA_RESTART is set" },
	{ 513, "ERESTARTNOINTR", "To be restarted" },
	{ 514, "ERESTARTNOHAND", "To be restarted if no handler" },
	{ 515, "ENOIOCTLCMD", "Unknown ioctl command" },
	{ 516, "ERESTART_RESTARTBLOCK", "Interrupted by signal" },
};

/* SIGRTMIN + n as strace shows them; the kernel's SIGRTMIN is 32 */
static const char *const fr_rtsignames[] = {
	"SIGRT_1", "SIGRT_2", "SIGRT_3", "SIGRT_4", "SIGRT_5", "SIGRT_6",
	"SIGRT_7", "SIGRT_8", "SIGRT_9", "SIGRT_10", "SIGRT_11", "SIGRT_12",
	"SIGRT_13", "SIGRT_14", "SIGRT_15", "SIGRT_16", "SIGRT_17", "SIGRT_18",
	"SIGRT_19", "SIGRT_20", "SIGRT_21", "SIGRT_22", "SIGRT_23", "SIGRT_24",
	"SIGRT_25", "SIGRT_26", "SIGRT_27", "SIGRT_28", "SIGRT_29", "SIGRT_30",
	"SIGRT_31", "SIGRT_32"
};

const char *fr_signal_name(int sig)
{
	if (sig > 0 && sig < (int)FR_N(fr_signames))
		return fr_signames[sig];
	if (sig > 32 && sig <= 64)
		return fr_rtsignames[sig - 33];
	return NULL;
}

static const char *fr_name_of(const char *const *names, size_t n, uint64_t v)
{
	return v < n ? names[v] : NULL;
}

/* Prints the named bits of v, then what is left in hex; "0" for none. */
static void fr_print_bits(FILE *f, uint64_t v, const struct fr_bitname *t,
			  size_t n, bool any)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if ((v & t[i].bit) != t[i].bit)
			continue;
		fprintf(f, "%s%s", any ? "|" : "", t[i].name);
		v &= ~t[i].bit;
		any = true;
	}
	if (v)
		fprintf(f, "%s%#" PRIx64, any ? "|" : "", v);
	else if (!any)
		fputc('0', f);
}

int fr_sysdecode_escape(FILE *f, const uint8_t *d, size_t len)
{
	int n = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		uint8_t c = d[i];
		bool digit_next = i + 1 < len && d[i + 1] >= '0' && d[i + 1] <= '7';

		switch (c) {
		case '"':  n += fprintf(f, "\\\""); break;
		case '\\': n += fprintf(f, "\\\\"); break;
		case '\n': n += fprintf(f, "\\n"); break;
		case '\t': n += fprintf(f, "\\t"); break;
		case '\r': n += fprintf(f, "\\r"); break;
		case '\v': n += fprintf(f, "\\v"); break;
		case '\f': n += fprintf(f, "\\f"); break;
		default:
			if (c >= 0x20 && c < 0x7f)
				n += fprintf(f, "%c", c);
			else
				n += fprintf(f, digit_next ? "\\%03o" : "\\%o", c);
		}
	}
	return n;
}

static void fr_print_buf(FILE *f, const uint8_t *d, size_t len, unsigned int flags)
{
	size_t n = len;

	if (!(flags & FR_SD_FULL) && n > FR_SD_ABBREV)
		n = FR_SD_ABBREV;
	fputc('"', f);
	fr_sysdecode_escape(f, d, n);
	fputc('"', f);
	if (n < len)
		fputs("...", f);
}

/* A string argument: up to its NUL, never abbreviated (paths). */
static void fr_print_str(FILE *f, const uint8_t *d, size_t len)
{
	const uint8_t *nul = memchr(d, 0, len);

	fputc('"', f);
	fr_sysdecode_escape(f, d, nul ? (size_t)(nul - d) : len);
	fputc('"', f);
	if (!nul)
		fputs("...", f);
}

static void fr_print_ptr(FILE *f, uint64_t v)
{
	if (v)
		fprintf(f, "%#" PRIx64, v);
	else
		fputs("NULL", f);
}

/* The descriptor of the row that covers argument arg, if any. */
static const struct fr_data_desc *fr_desc_of(const struct fr_syscall *sc,
					     unsigned int arg)
{
	int i;

	for (i = 0; i < 3; i++)
		if (sc->out[i].kind != FR_SZ_NONE && sc->out[i].arg == arg)
			return &sc->out[i];
	for (i = 0; i < 2; i++)
		if (sc->in[i].kind != FR_SZ_NONE && sc->in[i].arg == arg)
			return &sc->in[i];
	return NULL;
}

static size_t fr_views_of(const struct fr_out_view *v, size_t n,
			  unsigned int arg, const struct fr_out_view **first)
{
	size_t i, cnt = 0;

	*first = NULL;
	for (i = 0; i < n; i++) {
		if (v[i].arg != arg || !v[i].data)
			continue;
		if (!cnt)
			*first = &v[i];
		cnt++;
	}
	return cnt;
}

static int64_t fr_le(const uint8_t *d, size_t len)
{
	int32_t i32;
	int64_t i64;

	if (len == 4) {
		memcpy(&i32, d, 4);
		return i32;
	}
	memcpy(&i64, d, 8);
	return i64;
}

/* The recorded data of one argument; false if there is none to show. */
static bool fr_print_data(FILE *f, const struct fr_syscall *sc, unsigned int arg,
			  const struct fr_out_view *v, size_t nv,
			  unsigned int flags)
{
	const struct fr_data_desc *d = fr_desc_of(sc, arg);
	const struct fr_out_view *first;
	size_t i, n = fr_views_of(v, nv, arg, &first);
	bool list;

	if (!n)
		return false;
	if (sc->argtypes[arg] == 's') {
		fr_print_str(f, first->data, first->len);
		return true;
	}
	if (d && d->kind == FR_SZ_FIXED && n == 1 && first->len == d->p1) {
		if (d->p1 == 4) {
			fprintf(f, "[%" PRId64 "]", fr_le(first->data, 4));
			return true;
		}
		if (d->p1 == 8 && (sc->nr == __NR_pipe || sc->nr == __NR_pipe2 ||
				   sc->nr == __NR_socketpair)) {
			fprintf(f, "[%" PRId64 ", %" PRId64 "]",
				fr_le(first->data, 4), fr_le(first->data + 4, 4));
			return true;
		}
		if (d->p1 == 8 && sc->argtypes[arg] == 'p') {
			fprintf(f, "[%" PRId64 "]", fr_le(first->data, 8));
			return true;
		}
	}
	list = n > 1 || (d && (d->kind == FR_SZ_IOV || d->kind == FR_SZ_MSGHDR ||
			       d->kind == FR_SZ_MMSGHDR));
	if (list)
		fputc('[', f);
	for (i = 0; i < nv; i++) {
		if (v[i].arg != arg || !v[i].data)
			continue;
		if (&v[i] != first)
			fputs(", ", f);
		fr_print_buf(f, v[i].data, v[i].len, flags);
	}
	if (list)
		fputc(']', f);
	return true;
}

static void fr_print_request(FILE *f, const struct fr_syscall *sc, uint64_t v)
{
	const struct fr_request *r;
	size_t i, n;
	uint32_t cmd = (uint32_t)v;

	r = fr_syscall_requests(sc->nr, &n);
	for (i = 0; i < n; i++) {
		if ((v & r[i].mask) != r[i].value)
			continue;
		if (sc->nr == __NR_quotactl || sc->nr == __NR_quotactl_fd) {
			fprintf(f, "QCMD(%s, %u)", r[i].name, cmd & 0xff);
			return;
		}
		fputs(r[i].name, f);
		if (sc->nr == __NR_futex)
			fr_print_bits(f, v & ~(uint64_t)r[i].mask, fr_futex_flags,
				      FR_N(fr_futex_flags), true);
		return;
	}
	if (sc->nr == __NR_ioctl && _IOC_TYPE(cmd) && _IOC_DIR(cmd) != _IOC_NONE) {
		static const char *const dirs[] = {
			"_IOC_NONE", "_IOC_WRITE", "_IOC_READ",
			"_IOC_READ|_IOC_WRITE",
		};

		fprintf(f, "_IOC(%s, %#x, %#x, %#x)", dirs[_IOC_DIR(cmd) & 3],
			_IOC_TYPE(cmd), _IOC_NR(cmd), _IOC_SIZE(cmd));
		return;
	}
	fprintf(f, "%#" PRIx64, v);
}

static void fr_print_named(FILE *f, const char *name, int64_t v)
{
	if (name)
		fputs(name, f);
	else
		fprintf(f, "%" PRId64, v);
}

static void fr_print_arg(FILE *f, const struct fr_syscall *sc, unsigned int i,
			 uint64_t v, const struct fr_out_view *ins, size_t nins,
			 const struct fr_out_view *outs, size_t nouts,
			 unsigned int flags, const char *fdpath)
{
	char t = sc->argtypes[i];
	const struct fr_bitname *fam = NULL;
	size_t k;

	if (t == 'p' || t == 's') {
		if (fr_print_data(f, sc, i, outs, nouts, flags) ||
		    fr_print_data(f, sc, i, ins, nins, flags))
			return;
		fr_print_ptr(f, v);
		return;
	}
	switch (t) {
	case 'D':
		if ((int32_t)v == -100) {
			fputs("AT_FDCWD", f);
			break;
		}
		/* fall through */
	case 'd':
		if (fdpath) {
			fprintf(f, "%" PRId32 "<%s>", (int32_t)v, fdpath);
			break;
		}
		/* fall through */
	case 'i':
	case 'P':
		fprintf(f, "%" PRId32, (int32_t)v);
		break;
	case 'u':
		fprintf(f, "%" PRIu32, (uint32_t)v);
		break;
	case 'l':
		fprintf(f, "%" PRIu64, v);
		break;
	case 'I':
		fprintf(f, "%" PRId64, (int64_t)v);
		break;
	case 'm':
		fprintf(f, "%#03" PRIo64, v);
		break;
	case 'o':
		fputs((v & 3) == 0 ? "O_RDONLY" : (v & 3) == 1 ? "O_WRONLY" :
		      (v & 3) == 2 ? "O_RDWR" : "O_ACCMODE", f);
		fr_print_bits(f, v & ~(uint64_t)3, fr_open_flags,
			      FR_N(fr_open_flags), true);
		break;
	case 'O':
		fr_print_bits(f, v, fr_open_flags, FR_N(fr_open_flags), false);
		break;
	case 'r':
		if (!v)
			fputs("PROT_NONE", f);
		else
			fr_print_bits(f, v, fr_prot_flags,
				      FR_N(fr_prot_flags), false);
		break;
	case 'f':
		fputs((v & 0xf) == 1 ? "MAP_SHARED" : (v & 0xf) == 2 ?
		      "MAP_PRIVATE" : (v & 0xf) == 3 ? "MAP_SHARED_VALIDATE" :
		      "MAP_TYPE?", f);
		fr_print_bits(f, v & ~(uint64_t)0xf, fr_map_flags,
			      FR_N(fr_map_flags), true);
		break;
	case 'a':
		if (sc->nr == __NR_faccessat2 && (v & 0x200)) {
			fputs("AT_EACCESS", f);
			fr_print_bits(f, v & ~(uint64_t)0x200, fr_at_flags,
				      FR_N(fr_at_flags), true);
			break;
		}
		fr_print_bits(f, v, fr_at_flags, FR_N(fr_at_flags), false);
		break;
	case 'S':
		fr_print_named(f, fr_signal_name((int32_t)v), (int32_t)v);
		break;
	case 'c':
		fr_print_named(f, fr_name_of(fr_clocks, FR_N(fr_clocks), v),
			       (int32_t)v);
		break;
	case 'h':
		fr_print_named(f, fr_name_of(fr_sig_how, FR_N(fr_sig_how), v),
			       (int32_t)v);
		break;
	case 'w':
		fr_print_named(f, fr_name_of(fr_whence, FR_N(fr_whence), v),
			       (int32_t)v);
		break;
	case 'k':
		for (k = 0; k < FR_N(fr_families); k++)
			if (fr_families[k].bit == (uint32_t)v)
				fam = &fr_families[k];
		fr_print_named(f, fam ? fam->name : NULL, (int32_t)v);
		break;
	case 'T':
		fr_print_named(f, fr_name_of(fr_sock_types,
					     FR_N(fr_sock_types), v & 0xf),
			       v & 0xf);
		fr_print_bits(f, v & ~(uint64_t)0xf, fr_sock_flags,
			      FR_N(fr_sock_flags), true);
		break;
	case 'R':
		fr_print_request(f, sc, v);
		break;
	case 'x':
	default:
		if (v)
			fprintf(f, "%#" PRIx64, v);
		else
			fputc('0', f);
		break;
	}
}

static void fr_print_ret(FILE *f, const struct fr_syscall *sc, int64_t ret,
			 unsigned int flags, const char *fdpath)
{
	const char *name, *desc;
	size_t i;

	if (flags & FR_SD_NORET) {
		fputs(" = ?", f);
		return;
	}
	if (ret < 0 && ret >= -4095) {
		int err = (int)-ret;

		for (i = 0; i < FR_N(fr_restarts); i++) {
			if (fr_restarts[i].err == err) {
				fprintf(f, " = ? %s (%s)", fr_restarts[i].name,
					fr_restarts[i].desc);
				return;
			}
		}
		name = strerrorname_np(err);
		desc = strerrordesc_np(err);
		if (name)
			fprintf(f, " = -1 %s (%s)", name, desc ? desc : "");
		else
			fprintf(f, " = -1 E%d (Unknown error %d)", err, err);
		return;
	}
	if (sc && (sc->flags & FR_F_RETPTR))
		fprintf(f, " = %#" PRIx64, (uint64_t)ret);
	else if (fdpath)
		fprintf(f, " = %" PRId64 "<%s>", ret, fdpath);
	else
		fprintf(f, " = %" PRId64, ret);
}

void fr_sysdecode_unknown_name(char *buf, size_t len, unsigned int nr)
{
	snprintf(buf, len, nr < 0x1000 ? "syscall_%u" : "syscall_%#x", nr);
}

const char *fr_pseudo_name(unsigned int nr)
{
	switch (nr) {
	case FLIGHTREC_NR_SIGNAL:
		return "<signal>";
	case FLIGHTREC_NR_RDTSC:
		return "<rdtsc>";
	case FLIGHTREC_NR_PREEMPT:
		return "<preempt>";
	case FLIGHTREC_NR_PTRACE:
		return "<ptrace>";
	default:
		return NULL;
	}
}

/* A syscall result as the kernel left it: 0, 3, -EINTR, -ERESTARTSYS */
static void fr_print_raw_ret(FILE *f, int64_t v)
{
	const char *name;
	size_t i;

	if (v < 0 && v >= -4095) {
		for (i = 0; i < FR_N(fr_restarts); i++) {
			if (fr_restarts[i].err == -v) {
				fprintf(f, "-%s", fr_restarts[i].name);
				return;
			}
		}
		name = strerrorname_np((int)-v);
		if (name) {
			fprintf(f, "-%s", name);
			return;
		}
	}
	fprintf(f, "%" PRId64, v);
}

/*
 * The pseudo-records of the syscall stream (uapi/flightrec.h):
 *   4242 <signal SIGUSR1 code 0 after read = -ERESTARTSYS, restart>
 *   4242 <signal SIGALRM code -2 in user code at rip 0x401136>
 *   4242 <signal SIGSEGV code 2 fault at rip 0x401136 addr 0x7f0000000000>
 *   4242 <rdtscp> = 0x2a6f1e3c5d7 aux 0x3 at rip 0x401150
 *   4242 <preempt in user code at rip 0x401136 rsp 0x7ffc3a1e2f80>
 *   4242 <ptrace: tracer changed registers, 8 bytes at 0x404028, at syscall-exit stop>
 */
static void fr_print_pseudo(FILE *f, unsigned int nr, const uint64_t a[6], int64_t ret,
			    const struct fr_out_view *outs, size_t nouts)
{
	const char *name;
	size_t i;

	if (nr == FLIGHTREC_NR_RDTSC) {
		fprintf(f, "<%s> = %#" PRIx64, a[1] == 3 ? "rdtscp" : "rdtsc", (uint64_t)ret);
		if (a[1] == 3)
			fprintf(f, " aux %#" PRIx64, a[0]);
		fprintf(f, " at rip %#" PRIx64 "\n", a[4]);
		return;
	}
	if (nr == FLIGHTREC_NR_PREEMPT) {
		/* serial mode: the thread yielded the token here */
		fprintf(f, "<preempt in user code at rip %#" PRIx64, a[4]);
		for (i = 0; i < nouts; i++)
			if (outs[i].arg == 0 && outs[i].len >= sizeof(struct user_regs_struct)) {
				unsigned long long sp;

				memcpy(&sp, outs[i].data + offsetof(struct user_regs_struct, rsp),
				       sizeof(sp));
				fprintf(f, " rsp %#llx", sp);
			}
		fprintf(f, ">\n");
		return;
	}
	if (nr == FLIGHTREC_NR_PTRACE) {
		static const char *const stops[] = {
			[FLIGHTREC_PT_STOP_SC_ENTRY] = "syscall-entry stop",
			[FLIGHTREC_PT_STOP_SC_EXIT] = "syscall-exit stop",
			[FLIGHTREC_PT_STOP_OTHER] = "signal or event stop",
		};
		const char *sep = " ";

		fputs("<ptrace: tracer changed", f);
		if (a[2] & FLIGHTREC_PT_REGS) {
			fputs(" registers", f);
			sep = ", ";
		}
		for (i = 0; i < nouts; i++)
			if (outs[i].arg == 1) {
				fprintf(f, "%s%zu bytes at %#" PRIx64, sep, (size_t)outs[i].len,
					outs[i].addr);
				sep = ", ";
			}
		if (a[2] & FLIGHTREC_PT_FPU)
			fprintf(f, "%sthe FPU state (not recorded)", sep);
		if (a[2] & FLIGHTREC_PT_OTHER)
			fprintf(f, "%sdebug registers, fs/gs base, TLS or signal mask (not recorded)", sep);
		if (a[2] & FLIGHTREC_PT_LOST)
			fprintf(f, "%smemory, not all kept", sep);
		fprintf(f, ", at %s>\n", a[1] < FR_N(stops) && stops[a[1]] ? stops[a[1]] : "a stop");
		return;
	}
	name = fr_signal_name((int)a[0]);
	if (name)
		fprintf(f, "<signal %s code %d", name, (int)a[1]);
	else
		fprintf(f, "<signal %d code %d", (int)a[0], (int)a[1]);
	if (a[5] & FLIGHTREC_SIG_SYNC) {
		fprintf(f, " fault at rip %#" PRIx64, a[4]);
		for (i = 0; i < nouts; i++)
			if (outs[i].arg == 0 && outs[i].len >= 24)
				fprintf(f, " addr %#" PRIx64, (uint64_t)fr_le(outs[i].data + 16, 8));
	} else if ((a[5] & FLIGHTREC_SIG_IN_USER) || (int64_t)a[2] < 0) {
		fprintf(f, " in user code at rip %#" PRIx64, a[4]);
	} else {
		const struct fr_syscall *sc = fr_syscall((unsigned int)a[2]);

		if (sc)
			fprintf(f, " after %s = ", sc->name);
		else
			fprintf(f, " after syscall_%" PRIu64 " = ", a[2]);
		fr_print_raw_ret(f, (int64_t)a[3]);
		if (a[5] & FLIGHTREC_SIG_RESTART)
			fputs(", restart", f);
		if (a[5] & FLIGHTREC_SIG_EINTR)
			fputs(", EINTR", f);
	}
	fputs(">\n", f);
}

void fr_sysdecode_print_io(FILE *f, pid_t tid, unsigned int nr,
			   const uint64_t args[6], int64_t ret,
			   const struct fr_out_view *ins, size_t nins,
			   const struct fr_out_view *outs, size_t nouts,
			   unsigned int flags, const char *const *fdpaths)
{
	const struct fr_syscall *sc = fr_syscall(nr);
	unsigned int i;

	if (!(flags & FR_SD_NOTID))
		fprintf(f, "%d ", (int)tid);
	if (!(flags & FR_SD_REAL_NR) && fr_pseudo_name(nr)) {
		fr_print_pseudo(f, nr, args, ret, outs, nouts);
		return;
	}
	if (!sc) {
		char name[32];

		fr_sysdecode_unknown_name(name, sizeof(name), nr);
		fprintf(f, "%s(", name);
		for (i = 0; i < 6; i++)
			fprintf(f, "%s%#" PRIx64, i ? ", " : "", args[i]);
	} else {
		fprintf(f, "%s(", sc->name);
		for (i = 0; i < sc->nargs; i++) {
			if (i)
				fputs(", ", f);
			fr_print_arg(f, sc, i, args[i], ins, nins, outs, nouts,
				     flags, fdpaths ? fdpaths[i] : NULL);
			/* the mode (and mq_open's attr) only count with O_CREAT */
			if (sc->argtypes[i] == 'o' && !(args[i] & FR_O_CREATING))
				break;
		}
	}
	fputc(')', f);
	fr_print_ret(f, sc, ret, flags, fdpaths ? fdpaths[6] : NULL);
	fputc('\n', f);
}

void fr_sysdecode_print(FILE *f, pid_t tid, unsigned int nr,
			const uint64_t args[6], int64_t ret,
			const struct fr_out_view *outs, size_t nouts,
			unsigned int flags)
{
	fr_sysdecode_print_io(f, tid, nr, args, ret, NULL, 0, outs, nouts, flags,
			      NULL);
}
