// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec-sites - the helper that finds the cpuid instructions of the code
 * files a checkpoint maps (x86sites.h; the scan is x86scan.c, with capstone).
 *
 *   flightrec-sites --serve     answer requests on the socket at fd 0
 *   flightrec-sites FILE...     print each file's sites (for a person)
 *
 * flightrec starts it at its first checkpoint (x86sites.c), so that the
 * command itself, which every user runs, does not carry capstone (issue 28,
 * item 4).  The code it disassembles is the recorded program's: untrusted
 * input.  Before reading any request it closes every other descriptor and
 * installs a seccomp filter: from then on it can only receive descriptors,
 * read and map them (not executable), allocate memory, answer and exit.
 * Any other system call kills it (SECCOMP_RET_KILL_PROCESS), which its
 * client reports.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include "x86sites.h"

/*
 * A sanitizer build ends without LeakSanitizer's check at exit: it runs in
 * a thread that ptraces this one, which the sandbox forbids (the helper
 * would end by SIGSYS), and the environment's ASAN_OPTIONS can turn it on
 * whatever this program says; ASan's _exit() runs it too.  The scan's own
 * leaks are checked in a process without the sandbox:
 * checkpoint_rw.cpuid_sites_of_code runs fr_cpuid_scan in the test itself.
 */
#ifdef __SANITIZE_ADDRESS__
#define SERVE_END(r)	syscall(SYS_exit_group, (r))	/* _exit runs it too */
#else
#define SERVE_END(r)	return (r)
#endif

#define ALLOW(nr) \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

static int sandbox(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		/*
		 * Exact numbers only: an x32 call (bit 30 set) matches none
		 * and is killed.  mmap and mprotect: never executable.
		 */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mmap, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mprotect, 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args) + 2 * 8),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		ALLOW(__NR_recvmsg),
		ALLOW(__NR_sendmsg),
		ALLOW(__NR_sendto),
		ALLOW(__NR_write),
		ALLOW(__NR_fstat),
		ALLOW(__NR_newfstatat),
		ALLOW(__NR_close),
		ALLOW(__NR_munmap),
		ALLOW(__NR_mremap),
		ALLOW(__NR_madvise),
		ALLOW(__NR_brk),
		ALLOW(__NR_sysinfo),	/* qsort's size check */
		ALLOW(__NR_exit_group),
		ALLOW(__NR_exit),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	};
	struct sock_fprog prog = {
		.len = (unsigned short)(sizeof(f) / sizeof(f[0])),
		.filter = f,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
		return -errno;
	return 0;
}

/* @len bytes to the client; false when it is gone */
static int put(const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(0, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		p += n;
		len -= (size_t)n;
	}
	return 1;
}

static int serve(void)
{
	for (;;) {
		union {
			char buf[CMSG_SPACE(sizeof(int))];
			struct cmsghdr align;
		} u;
		char req;
		struct iovec iov = { .iov_base = &req, .iov_len = 1 };
		struct msghdr mh = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
		};
		struct fr_sites_reply r;
		struct fr_sites s = { 0 };
		struct cmsghdr *cm;
		int fd = -1, ok;
		ssize_t n;

		n = recvmsg(0, &mh, MSG_CMSG_CLOEXEC);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0;	/* end of file: the client is done */
		cm = CMSG_FIRSTHDR(&mh);
		if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS &&
		    cm->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(&fd, CMSG_DATA(cm), sizeof(int));
		memset(&r, 0, sizeof(r));
		if (req != 'S' || fd < 0 || (mh.msg_flags & MSG_CTRUNC)) {
			r.err = -EPROTO;
			snprintf(r.why, sizeof(r.why), "a request without a file");
		} else {
			r.err = fr_cpuid_scan(fd, &s, r.why, sizeof(r.why));
			if (!r.err)
				memset(r.why, 0, sizeof(r.why));
		}
		if (fd >= 0)
			close(fd);
		r.n = (uint32_t)s.n;
		r.unverified = s.unverified;
		ok = put(&r, sizeof(r)) && (!s.n || put(s.off, s.n * sizeof(*s.off)));
		fr_sites_free(&s);
		if (!ok)
			return 1;
	}
}

int main(int argc, char **argv)
{
	int i, fd, err, ret = 0;

	if (argc == 2 && !strcmp(argv[1], "--serve")) {
		/* nothing but the socket at 0 and stderr for the sandbox's reason */
		if (syscall(SYS_close_range, 3, ~0u, 0) < 0 && errno != ENOSYS) {
			perror("flightrec-sites: close_range");
			return 1;
		}
		err = sandbox();
		if (err) {
			fprintf(stderr, "flightrec-sites: cannot install the seccomp filter: %s\n",
				strerror(-err));
			return 1;
		}
		SERVE_END(serve());
	}
	if (argc < 2 || argv[1][0] == '-') {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: flightrec-sites FILE...    the cpuid instructions of each "
			"ELF file's code\n"
			"       flightrec-sites --serve    flightrec's helper (requests on fd 0)\n");
		return argc < 2 || strcmp(argv[1], "--help") ? 2 : 0;
	}
	for (i = 1; i < argc; i++) {
		struct fr_sites s;
		char why[256];
		size_t k;

		fd = open(argv[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "flightrec-sites: %s: %s\n", argv[i], strerror(errno));
			ret = 1;
			continue;
		}
		err = fr_cpuid_scan(fd, &s, why, sizeof(why));
		close(fd);
		if (err) {
			fprintf(stderr, "flightrec-sites: %s: %s\n", argv[i], why);
			ret = 1;
			continue;
		}
		printf("%s: %zu cpuid, %zu unverified", argv[i], s.n, s.unverified);
		for (k = 0; k < s.n; k++)
			printf(" %#llx", (unsigned long long)s.off[k]);
		printf("\n");
		fr_sites_free(&s);
	}
	return ret;
}
