// SPDX-License-Identifier: GPL-2.0
/*
 * The one syscall table (uapi/flightrec_syscall_table.h):
 *
 *  - no syscall is missing: every "#define __NR_name N" of the system's
 *    <asm/unistd_64.h> (and of the running kernel's own headers, when
 *    installed) has a row N called name, and the table has no row those
 *    headers lack; the running kernel answers ENOSYS for every number
 *    without a row (the holes 335..423, the FR_F_NOSYS rows, and on the 6.1
 *    test kernel every number from 451 to 511);
 *  - rows and request rows are well formed (argument letters, descriptor
 *    arguments, flags, adjacency of request rows);
 *  - the fixed sizes in the table are the sizes of the userspace structs;
 *  - the request names are the uapi constants of the same value;
 *  - the strace-style decoder prints exact lines;
 *  - the words rule of the in-hash (uapi/flightrec_inhash.h) still gives
 *    the values it gave when recordings were made with it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <mqueue.h>
#include <net/if.h>
#include <sys/epoll.h>
#include <sys/msg.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/timex.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/utsname.h>
#include <utime.h>
#include <asm/prctl.h>
#include <asm/termios.h>
#include <linux/aio_abi.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/futex.h>
#include <linux/io_uring.h>
#include <linux/keyctl.h>
#include <linux/landlock.h>
#include <linux/prctl.h>
#include <linux/sched/types.h>
#include <linux/ptrace.h>
#include <linux/quota.h>
#include <linux/seccomp.h>
#include <linux/serial.h>
#include <linux/sockios.h>

#include "flightrec_inhash.h"
#include "kselftest_harness.h"
#include "syscalls.h"
#include "sysdecode.h"

/*
 * Request names no userspace header can give here: syslog's live in the
 * kernel's include/linux/syslog.h, sysfs's options have no names (these are
 * flightrec's), and F_GETOWNER_UIDS is in <linux/fcntl.h>, which clashes
 * with glibc's <fcntl.h>.  The values are copied from those sources.
 */
#define SYSLOG_ACTION_CLOSE		0
#define SYSLOG_ACTION_OPEN		1
#define SYSLOG_ACTION_READ		2
#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_READ_CLEAR	4
#define SYSLOG_ACTION_CLEAR		5
#define SYSLOG_ACTION_CONSOLE_OFF	6
#define SYSLOG_ACTION_CONSOLE_ON	7
#define SYSLOG_ACTION_CONSOLE_LEVEL	8
#define SYSLOG_ACTION_SIZE_UNREAD	9
#define SYSLOG_ACTION_SIZE_BUFFER	10
#define SYSFS_FSINDEX			1
#define SYSFS_NFS			3
#ifndef F_GETOWNER_UIDS
#define F_GETOWNER_UIDS			17
#endif

/* Every request name is the uapi constant of that value (QCMD for quotactl). */
#define FR_CHECK_REQ_NAME(nr, sys, arg, mask, value, rname, ...)		\
	_Static_assert(((mask) == 0xffffff00u ?				\
			(uint32_t)(rname) << 8 : (uint32_t)(rname)) == (value), \
		       #rname " of " #sys);
FLIGHTREC_REQUEST_TABLE(FR_CHECK_REQ_NAME)

/* A diagnostic line; stderr, since a test's buffered stdout dies with it. */
#define note(fmt, ...) fprintf(stderr, "# " fmt, ##__VA_ARGS__)

#define FR_ALL_FLAGS (FR_F_IRREGULAR | FR_F_ADDRSPACE | FR_F_THREADAREA |	\
		      FR_F_PROCESS | FR_F_NORETURN | FR_F_OUTPUT |		\
		      FR_F_SIGNAL | FR_F_BLOCKING | FR_F_UNSAFE |		\
		      FR_F_SIGRETURN | FR_F_OUTERR | FR_F_NOSYS |		\
		      FR_F_SENDSIG | FR_F_RETPTR | FR_F_IN_RET)
#define FR_LETTERS "dDspiuxomSlPIOrfachwkTR"

/*
 * Compares one unistd_64.h with the table.  Returns the number of problems,
 * each printed; *defs gets the number of definitions read.
 */
static int check_unistd(const char *path, int *defs)
{
	bool seen[FR_NR_SYSCALLS] = { false };
	char line[256], name[128];
	unsigned int nr;
	int bad = 0, n = 0;
	FILE *f = fopen(path, "r");

	*defs = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		const struct fr_syscall *sc;

		if (sscanf(line, "#define __NR_%127s %u", name, &nr) != 2)
			continue;
		/* the kernel's generated header also says its table size */
		if (!strcmp(name, "syscalls")) {
			if (nr != FR_NR_SYSCALLS) {
				note("%s: __NR_syscalls %u, FR_NR_SYSCALLS %u\n",
				     path, nr, FR_NR_SYSCALLS);
				bad++;
			}
			continue;
		}
		n++;
		sc = fr_syscall(nr);
		if (!sc) {
			note("%s: __NR_%s %u has no row%s\n", path, name, nr,
			     nr >= FR_NR_SYSCALLS ?
			     " (newer than the table: add rows)" : "");
			bad++;
			continue;
		}
		if (strcmp(sc->name, name)) {
			note("%s: __NR_%s %u, but row %u is %s\n",
			     path, name, nr, nr, sc->name);
			bad++;
		}
		seen[nr] = true;
	}
	fclose(f);
	for (nr = 0; nr < FR_NR_SYSCALLS; nr++) {
		if (fr_syscall(nr) && !seen[nr]) {
			note("%s: row %u %s has no __NR_ there\n",
			     path, nr, fr_syscall(nr)->name);
			bad++;
		}
	}
	*defs = n;
	return bad;
}

TEST(every_unistd_number_has_a_row)
{
	static const char *const libc[] = {
		"/usr/include/x86_64-linux-gnu/asm/unistd_64.h",
		"/usr/include/asm/unistd_64.h",
	};
	char kpath[512];
	struct utsname u;
	int defs, bad;
	size_t i;

	for (i = 0; i < sizeof(libc) / sizeof(libc[0]); i++) {
		bad = check_unistd(libc[i], &defs);
		if (bad >= 0)
			break;
	}
	ASSERT_GE(bad, 0) TH_LOG("no <asm/unistd_64.h> in /usr/include");
	EXPECT_EQ(0, bad);
	EXPECT_EQ(362, defs);
	EXPECT_EQ(362, fr_syscall_count());

	/* the running kernel's own headers, when installed */
	ASSERT_EQ(0, uname(&u));
	snprintf(kpath, sizeof(kpath), "/lib/modules/%s/build/arch/x86/include/"
		 "generated/uapi/asm/unistd_64.h", u.release);
	bad = check_unistd(kpath, &defs);
	if (bad < 0) {
		note("no headers of %s installed: checked %s only\n",
		     u.release, libc[i]);
	} else {
		EXPECT_EQ(0, bad);
		EXPECT_EQ(362, defs);
	}
}

static long raw_syscall0(long nr)
{
	return syscall(nr, 0, 0, 0, 0, 0, 0);
}

/*
 * The running kernel implements nothing where the table has no syscall.
 * The FR_F_NOSYS numbers are probed on any kernel; the holes and the numbers
 * above the table only on the 6.1 test kernel, whose table this is (a newer
 * kernel has syscalls above 450, a custom one may use the holes).
 */
TEST(running_kernel_enosys_without_a_row)
{
	struct utsname u;
	unsigned int nr, nosys = 0, holes = 0;
	bool is61;
	long r;

	ASSERT_EQ(0, uname(&u));
	is61 = !strncmp(u.release, "6.1.", 4);
	for (nr = 0; nr < 512; nr++) {
		const struct fr_syscall *sc = fr_syscall(nr);

		if (sc && !(sc->flags & FR_F_NOSYS))
			continue;
		if (!sc && !is61)
			continue;
		errno = 0;
		r = raw_syscall0(nr);
		if (r == -1 && errno == EPERM)
			SKIP(return, "a seccomp filter answers EPERM for %u", nr);
		EXPECT_EQ(-1, r) TH_LOG("syscall %u", nr);
		EXPECT_EQ(ENOSYS, errno) TH_LOG("syscall %u (%s)", nr,
						sc ? sc->name : "no row");
		if (sc)
			nosys++;
		else
			holes++;
	}
	EXPECT_EQ(17U, nosys);
	if (is61) {
		EXPECT_EQ(89U + 512U - FR_NR_SYSCALLS, holes);
	} else {
		note("kernel %s is not 6.1: numbers without a row not probed\n",
		     u.release);
	}
}

static bool uses_p1_arg(int kind)
{
	return kind == FR_SZ_ARG || kind == FR_SZ_PTRLEN || kind == FR_SZ_IOV ||
	       kind == FR_SZ_MMSGHDR || kind == FR_SZ_FDSET ||
	       kind == FR_SZ_ARG_RET || kind == FR_SZ_MSGBUF || kind == FR_SZ_SOCKADDR;
}

/*
 * A descriptor: known kind, arguments in range, and (in a syscall row)
 * pointing at an argument shown as a pointer or string.  Request rows give
 * meaning to arguments the row can only show as numbers (prctl's arg2).
 */
static int check_desc(const struct fr_syscall *sc, const struct fr_data_desc *d,
		      bool out, bool req)
{
	int bad = 0;

	if (d->kind == FR_SZ_NONE)
		return 0;
	if (d->kind > FR_SZ_IOV1 || d->arg >= sc->nargs ||
	    (uses_p1_arg(d->kind) && d->p1 >= sc->nargs) ||
	    (!req && !strchr("ps", sc->argtypes[d->arg])) ||
	    (out && d->kind == FR_SZ_STR) ||
	    (d->kind == FR_SZ_FIXED && !d->p1)) {
		note("%s: bad %s descriptor {%u, %u, %u, %u}\n",
		     sc->name, out ? "out" : "in", d->arg, d->kind, d->p1, d->p2);
		bad++;
	}
	return bad;
}

TEST(rows_are_well_formed)
{
	unsigned int nr, i, j;
	int bad = 0;

	for (nr = 0; nr < 1024; nr++) {
		const struct fr_syscall *sc = fr_syscall(nr);

		if (!sc)
			continue;
		ASSERT_LT(nr, FR_NR_SYSCALLS);
		EXPECT_FALSE(nr >= 335 && nr <= 423) TH_LOG("row in hole: %u", nr);
		EXPECT_EQ(nr, sc->nr);
		EXPECT_EQ((int)nr, fr_syscall_by_name(sc->name));
		EXPECT_LE(sc->nargs, 6);
		EXPECT_EQ(sc->nargs, strlen(sc->argtypes)) TH_LOG("%s", sc->name);
		for (i = 0; i < sc->nargs; i++) {
			EXPECT_NE(NULL, strchr(FR_LETTERS, sc->argtypes[i]))
				TH_LOG("%s: letter %c", sc->name, sc->argtypes[i]);
		}
		EXPECT_EQ(0U, sc->flags & ~FR_ALL_FLAGS) TH_LOG("%s", sc->name);
		EXPECT_LT(sc->flags, 0x10000U) TH_LOG("%s: flags stored in u16",
						       sc->name);
		for (i = 0; i < 2; i++)
			bad += check_desc(sc, &sc->in[i], false, false);
		for (i = 0; i < 3; i++) {
			const struct fr_data_desc *d = &sc->out[i];
			bool len_out = false;

			bad += check_desc(sc, d, true, false);
			if (d->kind != FR_SZ_PTRLEN)
				continue;
			/* the length it reads is itself written back */
			for (j = 0; j < 3; j++)
				len_out |= sc->out[j].kind == FR_SZ_FIXED &&
					   sc->out[j].arg == d->p1 &&
					   sc->out[j].p1 == 4;
			EXPECT_TRUE(len_out) TH_LOG("%s: PTRLEN length", sc->name);
		}
		if (sc->flags & FR_F_NOSYS) {
			EXPECT_EQ(0, sc->nargs);
		}
		if (sc->flags & FR_F_RETPTR) {
			EXPECT_TRUE(sc->flags & FR_F_ADDRSPACE) TH_LOG("%s", sc->name);
		}
		if (sc->flags & FR_F_NORETURN) {
			EXPECT_TRUE(sc->flags & FR_F_PROCESS) TH_LOG("%s", sc->name);
		}
	}
	EXPECT_EQ(0, bad);
	EXPECT_EQ(-1, fr_syscall_by_name("no_such_call"));
	EXPECT_EQ(-1, fr_syscall_by_name(NULL));
	EXPECT_EQ(262, fr_syscall_by_name("newfstatat"));
	EXPECT_EQ(166, fr_syscall_by_name("umount2"));
	EXPECT_EQ(156, fr_syscall_by_name("_sysctl"));
	EXPECT_TRUE(fr_syscall(184)->flags & FR_F_NOSYS);	/* tuxcall */
	EXPECT_EQ(NULL, fr_syscall(335));
	EXPECT_EQ(NULL, fr_syscall(FR_NR_SYSCALLS));
}

TEST(request_rows_are_well_formed)
{
	unsigned int nr, seen_nr[FR_NR_SYSCALLS] = { 0 };
	size_t i, j, n, total = 0;

	for (nr = 0; nr < FR_NR_SYSCALLS; nr++) {
		const struct fr_syscall *sc = fr_syscall(nr);
		const struct fr_request *r = fr_syscall_requests(nr, &n);

		if (!r)
			continue;
		ASSERT_NE(NULL, sc);
		EXPECT_TRUE(sc->flags & FR_F_IRREGULAR) TH_LOG("%s", sc->name);
		total += n;
		seen_nr[nr]++;
		for (i = 0; i < n; i++) {
			EXPECT_EQ(nr, r[i].nr);
			EXPECT_LT(r[i].arg, sc->nargs) TH_LOG("%s", r[i].name);
			EXPECT_EQ('R', sc->argtypes[r[i].arg]) TH_LOG("%s", r[i].name);
			EXPECT_EQ(0U, r[i].value & ~r[i].mask) TH_LOG("%s", r[i].name);
			EXPECT_EQ(0U, r[i].flags & ~FR_ALL_FLAGS);
			EXPECT_EQ(0, check_desc(sc, &r[i].in, false, true));
			EXPECT_EQ(0, check_desc(sc, &r[i].out[0], true, true));
			EXPECT_EQ(0, check_desc(sc, &r[i].out[1], true, true));
			for (j = 0; j < i; j++) {
				EXPECT_NE(r[j].value, r[i].value)
					TH_LOG("%s twice", r[i].name);
			}
		}
	}
	/* the rows of one syscall are adjacent: all of them were found */
	EXPECT_EQ(312U, total);
	EXPECT_EQ(13U, (size_t)(seen_nr[__NR_ioctl] + seen_nr[__NR_fcntl] +
				seen_nr[__NR_prctl] + seen_nr[__NR_arch_prctl] +
				seen_nr[__NR_futex] + seen_nr[__NR_shmctl] +
				seen_nr[__NR_semctl] + seen_nr[__NR_msgctl] +
				seen_nr[__NR_ptrace] + seen_nr[__NR_syslog] +
				seen_nr[__NR_keyctl] + seen_nr[__NR_seccomp] +
				seen_nr[__NR_quotactl]));
}

/* The FIXED (or multiplier) size of out or in descriptor of arg, or 0. */
static unsigned int size_of(const struct fr_data_desc *descs, int n,
			    unsigned int arg)
{
	int i;

	for (i = 0; i < n; i++) {
		if (descs[i].kind == FR_SZ_NONE || descs[i].arg != arg)
			continue;
		if (descs[i].kind == FR_SZ_FIXED)
			return descs[i].p1;
		return descs[i].p2;
	}
	return 0;
}

static unsigned int row_size(const char *name, unsigned int arg)
{
	int nr = fr_syscall_by_name(name);
	const struct fr_syscall *sc = nr < 0 ? NULL : fr_syscall(nr);
	unsigned int s;

	if (!sc)
		return 0;
	s = size_of(sc->out, 3, arg);
	return s ? s : size_of(sc->in, 2, arg);
}

static unsigned int req_size(const char *sys, const char *name)
{
	int nr = fr_syscall_by_name(sys);
	const struct fr_request *r;
	size_t i, n;
	unsigned int s;

	r = fr_syscall_requests(nr, &n);
	for (i = 0; r && i < n; i++) {
		if (strcmp(r[i].name, name))
			continue;
		s = size_of(r[i].out, 2, r[i].out[0].arg);
		return s ? s : size_of(&r[i].in, 1, r[i].in.arg);
	}
	return 0;
}

/* The kernel's struct sigaction: handler, flags, restorer, 8-byte mask. */
struct k_sigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	uint64_t mask;
};

/* include/linux/types.h: struct ustat, with an unsigned long f_tinode */
struct k_ustat {
	int f_tfree;
	unsigned long f_tinode;
	char f_fname[6];
	char f_fpack[6];
};

TEST(fixed_sizes_are_the_structs)
{
	static const struct {
		const char *name;
		unsigned int arg;
		size_t size;
	} rows[] = {
		{ "stat", 1, sizeof(struct stat) },
		{ "fstat", 1, sizeof(struct stat) },
		{ "lstat", 1, sizeof(struct stat) },
		{ "newfstatat", 2, sizeof(struct stat) },
		{ "statx", 4, sizeof(struct statx) },
		{ "poll", 0, sizeof(struct pollfd) },
		{ "ppoll", 0, sizeof(struct pollfd) },
		{ "rt_sigaction", 1, sizeof(struct k_sigaction) },
		{ "rt_sigaction", 2, sizeof(struct k_sigaction) },
		{ "pipe", 0, 2 * sizeof(int) },
		{ "pipe2", 0, 2 * sizeof(int) },
		{ "socketpair", 3, 2 * sizeof(int) },
		{ "nanosleep", 1, sizeof(struct timespec) },
		{ "clock_nanosleep", 3, sizeof(struct timespec) },
		{ "clock_gettime", 1, sizeof(struct timespec) },
		{ "clock_getres", 1, sizeof(struct timespec) },
		{ "sched_rr_get_interval", 1, sizeof(struct timespec) },
		{ "ppoll", 2, sizeof(struct timespec) },
		{ "recvmmsg", 4, sizeof(struct timespec) },
		{ "getitimer", 1, sizeof(struct itimerval) },
		{ "setitimer", 2, sizeof(struct itimerval) },
		{ "timer_settime", 3, sizeof(struct itimerspec) },
		{ "timer_gettime", 1, sizeof(struct itimerspec) },
		{ "timerfd_settime", 3, sizeof(struct itimerspec) },
		{ "timerfd_gettime", 1, sizeof(struct itimerspec) },
		{ "gettimeofday", 0, sizeof(struct timeval) },
		{ "gettimeofday", 1, sizeof(struct timezone) },
		{ "settimeofday", 0, sizeof(struct timeval) },
		{ "utimes", 1, 2 * sizeof(struct timeval) },
		{ "futimesat", 2, 2 * sizeof(struct timeval) },
		{ "utimensat", 2, 2 * sizeof(struct timespec) },
		{ "utime", 1, sizeof(struct utimbuf) },
		{ "time", 0, sizeof(time_t) },
		{ "getrlimit", 1, sizeof(struct rlimit) },
		{ "setrlimit", 1, sizeof(struct rlimit) },
		{ "prlimit64", 3, sizeof(struct rlimit) },
		{ "getrusage", 1, sizeof(struct rusage) },
		{ "wait4", 1, sizeof(int) },
		{ "wait4", 3, sizeof(struct rusage) },
		{ "waitid", 2, sizeof(siginfo_t) },
		{ "waitid", 4, sizeof(struct rusage) },
		{ "rt_sigtimedwait", 1, sizeof(siginfo_t) },
		{ "rt_sigqueueinfo", 2, sizeof(siginfo_t) },
		{ "rt_tgsigqueueinfo", 3, sizeof(siginfo_t) },
		{ "pidfd_send_signal", 2, sizeof(siginfo_t) },
		{ "uname", 0, sizeof(struct utsname) },
		{ "sysinfo", 0, sizeof(struct sysinfo) },
		{ "times", 0, sizeof(struct tms) },
		{ "adjtimex", 0, sizeof(struct timex) },
		{ "clock_adjtime", 1, sizeof(struct timex) },
		{ "sigaltstack", 1, sizeof(stack_t) },
		{ "statfs", 1, sizeof(struct statfs) },
		{ "fstatfs", 1, sizeof(struct statfs) },
		{ "ustat", 1, sizeof(struct k_ustat) },
		{ "epoll_ctl", 3, sizeof(struct epoll_event) },
		{ "epoll_wait", 1, sizeof(struct epoll_event) },
		{ "epoll_pwait", 1, sizeof(struct epoll_event) },
		{ "epoll_pwait2", 1, sizeof(struct epoll_event) },
		{ "semop", 1, sizeof(struct sembuf) },
		{ "semtimedop", 1, sizeof(struct sembuf) },
		{ "sendmmsg", 1, sizeof(struct mmsghdr) },
		{ "io_getevents", 3, sizeof(struct io_event) },
		{ "io_pgetevents", 3, sizeof(struct io_event) },
		{ "io_setup", 1, sizeof(aio_context_t) },
		{ "io_submit", 2, sizeof(struct iocb *) },
		{ "timer_create", 1, sizeof(struct sigevent) },
		{ "timer_create", 2, sizeof(int) },
		{ "mq_notify", 1, sizeof(struct sigevent) },
		{ "mq_open", 3, sizeof(struct mq_attr) },
		{ "mq_getsetattr", 2, sizeof(struct mq_attr) },
		{ "sched_getparam", 1, sizeof(struct sched_param) },
		{ "sched_setattr", 1, SCHED_ATTR_SIZE_VER0 },
		{ "capget", 0, sizeof(struct __user_cap_header_struct) },
		{ "capget", 1, 2 * sizeof(struct __user_cap_data_struct) },
		{ "capset", 1, 2 * sizeof(struct __user_cap_data_struct) },
		{ "getcpu", 0, sizeof(unsigned int) },
		{ "getgroups", 1, sizeof(gid_t) },
		{ "getresuid", 0, sizeof(uid_t) },
		{ "get_robust_list", 1, sizeof(void *) },
		{ "futex_waitv", 0, sizeof(struct futex_waitv) },
		{ "futex_waitv", 3, sizeof(struct timespec) },
		{ "io_uring_setup", 1, sizeof(struct io_uring_params) },
		{ "landlock_add_rule", 2, sizeof(struct landlock_path_beneath_attr) },
		{ "process_vm_readv", 3, sizeof(struct iovec) },
		{ "process_madvise", 1, sizeof(struct iovec) },
		{ "move_pages", 4, sizeof(int) },
		{ "sendfile", 2, sizeof(off_t) },
		{ "splice", 1, sizeof(loff_t) },
		{ "copy_file_range", 3, sizeof(loff_t) },
	};
	static const struct {
		const char *sys, *name;
		size_t size;
	} reqs[] = {
		{ "ioctl", "TCGETS", sizeof(struct termios) },
		{ "ioctl", "TCSETS", sizeof(struct termios) },
		{ "ioctl", "TCGETA", sizeof(struct termio) },
		{ "ioctl", "TIOCGWINSZ", sizeof(struct winsize) },
		{ "ioctl", "TIOCSWINSZ", sizeof(struct winsize) },
		{ "ioctl", "TIOCGSERIAL", sizeof(struct serial_struct) },
		{ "ioctl", "FIONREAD", sizeof(int) },
		{ "ioctl", "FIOQSIZE", sizeof(loff_t) },
		{ "ioctl", "SIOCGSTAMP_OLD", sizeof(struct timeval) },
		{ "ioctl", "SIOCGIFFLAGS", sizeof(struct ifreq) },
		{ "ioctl", "SIOCGIFINDEX", sizeof(struct ifreq) },
		{ "ioctl", "BLKGETSIZE", sizeof(unsigned long) },
		{ "ioctl", "BLKSSZGET", sizeof(int) },
		{ "fcntl", "F_GETLK", sizeof(struct flock) },
		{ "fcntl", "F_OFD_GETLK", sizeof(struct flock) },
		{ "fcntl", "F_SETLKW", sizeof(struct flock) },
		{ "fcntl", "F_GETOWN_EX", sizeof(struct f_owner_ex) },
		{ "fcntl", "F_GET_RW_HINT", sizeof(uint64_t) },
		{ "shmctl", "IPC_STAT", sizeof(struct shmid_ds) },
		{ "shmctl", "IPC_INFO", sizeof(struct shminfo) },
		{ "shmctl", "SHM_INFO", sizeof(struct shm_info) },
		{ "semctl", "IPC_STAT", sizeof(struct semid_ds) },
		{ "semctl", "SEM_INFO", sizeof(struct seminfo) },
		{ "msgctl", "IPC_STAT", sizeof(struct msqid_ds) },
		{ "msgctl", "MSG_INFO", sizeof(struct msginfo) },
		{ "ptrace", "PTRACE_GETREGS", sizeof(struct user_regs_struct) },
		{ "ptrace", "PTRACE_GETFPREGS", sizeof(struct user_fpregs_struct) },
		{ "ptrace", "PTRACE_GETSIGINFO", sizeof(siginfo_t) },
		{ "ptrace", "PTRACE_PEEKDATA", sizeof(long) },
		{ "prctl", "PR_GET_NAME", 16 },
		{ "prctl", "PR_GET_TID_ADDRESS", sizeof(int *) },
		{ "arch_prctl", "ARCH_GET_FS", sizeof(unsigned long) },
		{ "futex", "FUTEX_WAIT", sizeof(struct timespec) },
		{ "futex", "FUTEX_WAKE_OP", sizeof(uint32_t) },
		{ "quotactl", "Q_GETQUOTA", sizeof(struct if_dqblk) },
		{ "quotactl", "Q_GETINFO", sizeof(struct if_dqinfo) },
		{ "quotactl", "Q_GETNEXTQUOTA", sizeof(struct if_nextdqblk) },
		{ "quotactl_fd", "Q_GETQUOTA", sizeof(struct if_dqblk) },
		{ "seccomp", "SECCOMP_GET_NOTIF_SIZES", sizeof(struct seccomp_notif_sizes) },
		{ "seccomp", "SECCOMP_SET_MODE_FILTER", 16 /* struct sock_fprog */ },
	};
	char what[64];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(what, sizeof(what), "%s arg %u", rows[i].name,
			 rows[i].arg);
		EXPECT_EQ(rows[i].size, row_size(rows[i].name, rows[i].arg))
			TH_LOG("%s", what);
	}
	for (i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		snprintf(what, sizeof(what), "%s %s", reqs[i].sys, reqs[i].name);
		EXPECT_EQ(reqs[i].size, req_size(reqs[i].sys, reqs[i].name))
			TH_LOG("%s", what);
	}
}

TEST(request_lookup)
{
	uint64_t a[6] = { 0 };

	a[1] = TCGETS;
	EXPECT_STREQ("TCGETS", fr_syscall_request(__NR_ioctl, a)->name);
	EXPECT_TRUE(fr_syscall_request_known(__NR_ioctl, a));
	a[1] = 0x1234;				/* _IO-less legacy, unknown */
	EXPECT_EQ(NULL, fr_syscall_request(__NR_ioctl, a));
	EXPECT_FALSE(fr_syscall_request_known(__NR_ioctl, a));
	a[1] = _IOR('x', 1, int);		/* encoded: taken at its word */
	EXPECT_TRUE(fr_syscall_request_known(__NR_ioctl, a));
	a[1] = _IO('x', 1);
	EXPECT_FALSE(fr_syscall_request_known(__NR_ioctl, a));
	a[1] = FUTEX_WAIT_PRIVATE | FUTEX_CLOCK_REALTIME;
	EXPECT_STREQ("FUTEX_WAIT", fr_syscall_request(__NR_futex, a)->name);
	a[1] = F_GETLK;
	EXPECT_EQ(32, fr_syscall_request(__NR_fcntl, a)->out[0].p1);
	a[1] = 9999;
	EXPECT_FALSE(fr_syscall_request_known(__NR_fcntl, a));
	a[0] = PR_GET_NAME;
	EXPECT_TRUE(fr_syscall_request_known(__NR_prctl, a));
	a[0] = 0x7777;
	EXPECT_FALSE(fr_syscall_request_known(__NR_prctl, a));
	a[0] = (uint32_t)Q_GETQUOTA << 8 | USRQUOTA;	/* QCMD() overflows an int */
	EXPECT_STREQ("Q_GETQUOTA", fr_syscall_request(__NR_quotactl, a)->name);
	EXPECT_TRUE(fr_syscall_request_known(__NR_read, a));
	EXPECT_TRUE(fr_syscall_request_known(__NR_clone, a));
	EXPECT_FALSE(fr_syscall_request_known(400, a));
	EXPECT_STREQ("PR_SET_NAME", fr_syscall_request_name(__NR_prctl, PR_SET_NAME));
	EXPECT_EQ(NULL, fr_syscall_request_name(__NR_read, 0));
	EXPECT_TRUE(fr_syscall_request(__NR_prctl,
			(uint64_t[6]){ PR_SET_SYSCALL_USER_DISPATCH })->flags &
		    FR_F_UNSAFE);
}

/* Decodes one call into a string. */
static char *decode(pid_t tid, unsigned int nr, const uint64_t args[6],
		    int64_t ret, const struct fr_out_view *ins, size_t nins,
		    const struct fr_out_view *outs, size_t nouts,
		    unsigned int flags)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fr_sysdecode_print_io(f, tid, nr, args, ret, ins, nins, outs, nouts,
			      flags, NULL);
	fclose(f);
	return buf;
}

#define EXPECT_DECODE(want, ...) do {					\
	char *got = decode(__VA_ARGS__);				\
	EXPECT_STREQ(want, got);					\
	free(got);							\
} while (0)

#define V(a, p, s) { .arg = (a), .addr = (p), .data = (const uint8_t *)(s), \
		     .len = sizeof(s) - 1 }

TEST(decoder_lines)
{
	static const char hosts[] =
		"127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost\n";
	struct fr_out_view path = V(1, 0x55d0c0de1000, "/etc/hosts\0");
	struct fr_out_view data = V(1, 0x7ffd0000, hosts);
	struct fr_out_view hello = V(1, 0x4000, "hello\n");
	struct fr_out_view fds = V(0, 0x7ffd1000, "\3\0\0\0\4\0\0\0");
	struct fr_out_view iov[] = { V(1, 0x5000, "ab"), V(1, 0x6000, "c\0001") };
	struct fr_out_view status = V(1, 0x7ffd2000, "\0\1\0\0");

	EXPECT_DECODE("4242 openat(AT_FDCWD, \"/etc/hosts\", O_RDONLY|O_CLOEXEC) = 3\n",
		      4242, __NR_openat,
		      (uint64_t[6]){ (uint32_t)-100, 0x55d0c0de1000, O_CLOEXEC },
		      3, &path, 1, NULL, 0, 0);
	EXPECT_DECODE("4242 openat(AT_FDCWD, 0x55d0c0de1000, O_WRONLY|O_CREAT|O_TRUNC, 0644)"
		      " = -1 ENOENT (No such file or directory)\n",
		      4242, __NR_openat,
		      (uint64_t[6]){ -100, 0x55d0c0de1000, O_WRONLY | O_CREAT | O_TRUNC, 0644 },
		      -ENOENT, NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("4242 read(3, \"127.0.0.1\\tlocalhost\\n::1\\tlocalhos\"..., 4096) = 48\n",
		      4242, __NR_read, (uint64_t[6]){ 3, 0x7ffd0000, 4096 },
		      (int64_t)sizeof(hosts) - 1, NULL, 0, &data, 1, 0);
	EXPECT_DECODE("4242 read(3, \"127.0.0.1\\tlocalhost\\n::1\\tlocalhost ip6-localhost\\n\", 4096) = 48\n",
		      4242, __NR_read, (uint64_t[6]){ 3, 0x7ffd0000, 4096 },
		      (int64_t)sizeof(hosts) - 1, NULL, 0, &data, 1, FR_SD_FULL);
	EXPECT_DECODE("read(3, 0x7ffd0000, 4096) = -1 EAGAIN (Resource temporarily unavailable)\n",
		      1, __NR_read, (uint64_t[6]){ 3, 0x7ffd0000, 4096 },
		      -EAGAIN, NULL, 0, NULL, 0, FR_SD_NOTID);
	EXPECT_DECODE("7 write(1, \"hello\\n\", 6) = 6\n",
		      7, __NR_write, (uint64_t[6]){ 1, 0x4000, 6 }, 6,
		      &hello, 1, NULL, 0, 0);
	EXPECT_DECODE("7 mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0)"
		      " = 0x7f1234560000\n",
		      7, __NR_mmap,
		      (uint64_t[6]){ 0, 8192, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS, (uint64_t)-1, 0 },
		      0x7f1234560000, NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 mmap(0x10000, 4096, PROT_NONE, MAP_SHARED|MAP_FIXED, 3, 0x1000)"
		      " = -1 EPERM (Operation not permitted)\n",
		      7, __NR_mmap,
		      (uint64_t[6]){ 0x10000, 4096, 0, MAP_SHARED | MAP_FIXED, 3, 0x1000 },
		      -EPERM, NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 pipe2([3, 4], O_NONBLOCK|O_CLOEXEC) = 0\n",
		      7, __NR_pipe2, (uint64_t[6]){ 0x7ffd1000, O_CLOEXEC | O_NONBLOCK },
		      0, NULL, 0, &fds, 1, 0);
	EXPECT_DECODE("7 tgkill(7, 8, SIGABRT) = 0\n",
		      7, __NR_tgkill, (uint64_t[6]){ 7, 8, SIGABRT }, 0,
		      NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 kill(-1, SIGRT_2) = 0\n",
		      7, __NR_kill, (uint64_t[6]){ (uint32_t)-1, 34 }, 0,
		      NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 rt_sigprocmask(SIG_SETMASK, 0x1000, NULL, 8) = 0\n",
		      7, __NR_rt_sigprocmask, (uint64_t[6]){ 2, 0x1000, 0, 8 }, 0,
		      NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 readv(3, [\"ab\", \"c\\0001\"], 2) = 5\n",
		      7, __NR_readv, (uint64_t[6]){ 3, 0x7000, 2 }, 5,
		      NULL, 0, iov, 2, 0);
	EXPECT_DECODE("7 wait4(-1, [256], 0, NULL) = 8\n",
		      7, __NR_wait4, (uint64_t[6]){ (uint64_t)-1, 0x7ffd2000, 0, 0 }, 8,
		      NULL, 0, &status, 1, 0);
	EXPECT_DECODE("7 ioctl(1, TCGETS, 0x7ffd3000) = 0\n",
		      7, __NR_ioctl, (uint64_t[6]){ 1, TCGETS, 0x7ffd3000 }, 0,
		      NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 ioctl(1, _IOC(_IOC_READ, 0x54, 0x30, 0x4), 0x10) = 0\n",
		      7, __NR_ioctl, (uint64_t[6]){ 1, 0x80045430, 0x10 }, 0,
		      NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 futex(0x601040, FUTEX_WAIT|FUTEX_PRIVATE_FLAG, 2, 0, NULL, 0) = ?"
		      " ERESTARTSYS (To be restarted if SA_RESTART is set)\n",
		      7, __NR_futex, (uint64_t[6]){ 0x601040, 128, 2 }, -512,
		      NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 prctl(PR_SET_NAME, 0x1000, 0, 0, 0) = 0\n",
		      7, __NR_prctl, (uint64_t[6]){ PR_SET_NAME, 0x1000 }, 0,
		      NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 arch_prctl(ARCH_SET_FS, 0x7f0000001740) = 0\n",
		      7, __NR_arch_prctl, (uint64_t[6]){ ARCH_SET_FS, 0x7f0000001740 },
		      0, NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 clock_gettime(CLOCK_MONOTONIC, 0x7ffd4000) = 0\n",
		      7, __NR_clock_gettime, (uint64_t[6]){ 1, 0x7ffd4000 }, 0,
		      NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 socket(AF_INET6, SOCK_STREAM|SOCK_CLOEXEC, 0) = 3\n",
		      7, __NR_socket, (uint64_t[6]){ AF_INET6, SOCK_STREAM | SOCK_CLOEXEC },
		      3, NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 newfstatat(3, \"\", 0x7ffd5000, AT_EMPTY_PATH) = 0\n",
		      7, __NR_newfstatat, (uint64_t[6]){ 3, 0x1000, 0x7ffd5000, AT_EMPTY_PATH },
		      0, (struct fr_out_view[]){ V(1, 0x1000, "\0") }, 1, NULL, 0, 0);
	EXPECT_DECODE("7 lseek(3, -2, SEEK_END) = 98\n",
		      7, __NR_lseek, (uint64_t[6]){ 3, (uint64_t)-2, SEEK_END }, 98,
		      NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 exit_group(1) = ?\n",
		      7, __NR_exit_group, (uint64_t[6]){ 1 }, 0,
		      NULL, 0, NULL, 0, FR_SD_NORET);
	EXPECT_DECODE("7 tuxcall() = -1 ENOSYS (Function not implemented)\n",
		      7, 184, (uint64_t[6]){ 0 }, -ENOSYS, NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 syscall_400(0x1, 0x2, 0, 0, 0, 0) = -1 ENOSYS (Function not implemented)\n",
		      7, 400, (uint64_t[6]){ 1, 2 }, -ENOSYS, NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 brk(NULL) = 0x55d0c0e00000\n",
		      7, __NR_brk, (uint64_t[6]){ 0 }, 0x55d0c0e00000,
		      NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 umask(022) = 18\n",
		      7, __NR_umask, (uint64_t[6]){ 022 }, 022, NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 mq_open(0x1000, O_RDWR|O_CREAT, 0600, NULL) = 3\n",
		      7, __NR_mq_open, (uint64_t[6]){ 0x1000, O_RDWR | O_CREAT, 0600 },
		      3, NULL, 0, NULL, 0, 0);
	EXPECT_DECODE("7 mq_open(0x1000, O_RDONLY) = 3\n",
		      7, __NR_mq_open, (uint64_t[6]){ 0x1000, O_RDONLY, 0600 },
		      3, NULL, 0, NULL, 0, 0);
}

TEST(decoder_escapes)
{
	static const uint8_t bytes[] = { 0, '1', 0, 'x', '"', '\\', 0x7f, 0xff, '\r' };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ASSERT_NE(NULL, f);
	fr_sysdecode_escape(f, bytes, sizeof(bytes));
	fclose(f);
	EXPECT_STREQ("\\0001\\0x\\\"\\\\\\177\\377\\r", buf);
	free(buf);
	EXPECT_STREQ("SIGSEGV", fr_signal_name(SIGSEGV));
	EXPECT_STREQ("SIGRTMIN", fr_signal_name(32));
	EXPECT_STREQ("SIGRT_32", fr_signal_name(64));
	EXPECT_EQ(NULL, fr_signal_name(0));
	EXPECT_EQ(NULL, fr_signal_name(65));
}

/*
 * The in-hash's words rule, as fr_hash_range() reads a range (FR_HR_WORDS)
 * and as fr_hash_words() hashes a buffer, on 0 to 1037 bytes of a fixed
 * pattern: the values it gave when it was written (s60).  Every reader of
 * a recording compares against hashes a module made, so a change of the
 * rule's code that changes a value breaks replay of older recordings; the
 * module's own reader (fr_hash_user_words) is checked against
 * fr_hash_words() by record_syscalls.
 */
static int inhash_rd(void *ctx, fr_hash_u64 addr, void *buf, size_t len)
{
	(void)ctx;
	memcpy(buf, (const void *)(uintptr_t)addr, len);
	return 0;
}

TEST(inhash_words_rule_unchanged)
{
	static const struct {
		size_t len;
		uint64_t words, range;	/* fr_hash_words(), fr_hash_range() */
	} v[] = {
		{ 0, 0xcbf29ce484222325ULL, 0xcbf29ce484222325ULL },
		{ 7, 0xcbf29ce484222325ULL, 0xfcf25e868166b7a9ULL },
		{ 8, 0x302e8c9b6b2ebe11ULL, 0x302e8c9b6b2ebe11ULL },
		{ 15, 0x302e8c9b6b2ebe11ULL, 0x9a1d73b28a53cd7dULL },
		{ 16, 0xdc35080c65251e72ULL, 0xdc35080c65251e72ULL },
		{ 17, 0xdc35080c65251e72ULL, 0x533ad60fde123fabULL },
		{ 31, 0xbe60ddf132043afbULL, 0xf607279c93d3b557ULL },
		{ 40, 0x377feeb5c92030e6ULL, 0x377feeb5c92030e6ULL },
		{ 512, 0x5409811445eaf56cULL, 0x5409811445eaf56cULL },
		{ 513, 0x5409811445eaf56cULL, 0xb71bbc72ce3efe05ULL },
		{ 1037, 0x160941b364ab9b3eULL, 0xfe58dcae17fcb573ULL },
	};
	unsigned char b[1100];
	size_t i, k;

	for (i = 0; i < sizeof(b); i++)
		b[i] = (unsigned char)(i * 37 + 11);
	for (k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
		fr_hash_u64 h = FR_FNV_OFFSET;

		EXPECT_EQ(v[k].len,
			  (size_t)fr_hash_range(&h, (uintptr_t)b, v[k].len, FR_IN_HASH_MAX,
						FR_HR_WORDS, inhash_rd, NULL));
		EXPECT_EQ(v[k].range, h) TH_LOG("%zu bytes: range %#llx", v[k].len,
						 (unsigned long long)h);
		EXPECT_EQ(v[k].words, fr_hash_words(FR_FNV_OFFSET, b, v[k].len))
			TH_LOG("%zu bytes", v[k].len);
	}
}

TEST_HARNESS_MAIN
