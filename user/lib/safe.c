// SPDX-License-Identifier: GPL-2.0
/*
 * Handling untrusted things safely: strings from a checkpoint printed on a
 * terminal, files the tools write, and the empty root replay runs in.
 * docs/security.md says why each rule is there.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include "libflightrec.h"

/* ------------------------------------------------------------------ */
/* Untrusted strings */

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	/* C1 controls (U+0080..U+009F) act like ESC on some terminals */
	if (cp >= 0x80 && cp <= 0x9f)
		return 0;
	return len;
}

/* The escaped form of the character at p[i] into tmp; its input length in *l. */
static size_t piece(const unsigned char *p, size_t i, size_t n, char tmp[8], size_t *l)
{
	*l = utf8_len(p + i, n - i);
	if (*l == 1 && p[i] >= 0x20 && p[i] != 0x7f && p[i] != '\\') {
		tmp[0] = (char)p[i];
		return 1;
	}
	if (*l == 1 && p[i] == '\\') {
		memcpy(tmp, "\\\\", 2);
		return 2;
	}
	if (*l > 1) {
		memcpy(tmp, p + i, *l);
		return *l;
	}
	*l = 1;
	return (size_t)snprintf(tmp, 8, "\\x%02x", p[i]);
}

const char *fr_escape_n(const char *s, size_t n, char *buf, size_t size)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, i, l, total = 0;
	char tmp[8];

	if (!size)
		return buf;
	if (!s) {
		snprintf(buf, size, "(null)");
		return buf;
	}
	for (i = 0; i < n && p[i]; i += l)
		total += piece(p, i, n, tmp, &l);
	for (i = 0; i < n && p[i]; i += l) {
		size_t tl = piece(p, i, n, tmp, &l);

		/*
		 * When the whole does not fit: room for this piece, "..." and
		 * the NUL, so that a cut string ends in "..." after a whole
		 * piece, never in half an escape or a character.
		 */
		if (total + 1 > size && o + tl + 3 + 1 > size) {
			if (o + 4 <= size) {
				memcpy(buf + o, "...", 3);
				o += 3;
			}
			break;
		}
		memcpy(buf + o, tmp, tl);
		o += tl;
	}
	buf[o] = 0;
	return buf;
}

const char *fr_escape(const char *s, char *buf, size_t size)
{
	return fr_escape_n(s, s ? strlen(s) : 0, buf, size);
}

char *fr_escape_dup(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	char *buf = malloc(4 * n + 8);	/* \xNN per byte at most, "(null)" */

	if (buf)
		fr_escape_n(s, n, buf, 4 * n + 8);
	return buf;
}

/* ------------------------------------------------------------------ */
/* Output files */

bool fr_parse_u64(const char *s, int base, uint64_t *v)
{
	unsigned long long n;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	n = strtoull(s, &end, base);
	if (errno || *end)
		return false;
	*v = n;
	return true;
}

uint64_t fr_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

bool fr_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *v)
{
	uint64_t n;

	if (!fr_parse_u64(s, 10, &n) || n < min || n > max)
		return false;
	*v = (uint32_t)n;
	return true;
}

int fr_mkdir_parents(const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	size_t i, n = strlen(path);

	if (n >= sizeof(dir)) {
		snprintf(err, errlen, "output path too long");
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(dir, path, n + 1);
	while (n > 1 && dir[n - 1] == '/')	/* "a/b/" names b */
		dir[--n] = 0;
	for (i = 1; i < n; i++) {
		if (dir[i] != '/' || dir[i - 1] == '/')
			continue;
		dir[i] = 0;
		if (mkdir(dir, 0700) && errno != EEXIST) {
			snprintf(err, errlen, "cannot create directory %s: %s", dir,
				 strerror(errno));
			return -1;
		}
		dir[i] = '/';
	}
	return 0;
}

int fr_out_dir(const char *path, int force, char *err, size_t errlen)
{
	struct dirent *de;
	int fd, dup_fd, nonempty = 0;
	DIR *d;

	if (fr_mkdir_parents(path, err, errlen))
		return -1;
	if (mkdir(path, 0700) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create output directory %s: %s", path,
			 strerror(errno));
		return -1;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		snprintf(err, errlen, "cannot open output directory %s: %s%s", path, strerror(e),
			 e == ELOOP || e == ENOTDIR ?
			 " (a symbolic link or not a directory: never followed)" : "");
		return -1;
	}
	dup_fd = dup(fd);
	d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	if (!d) {
		snprintf(err, errlen, "cannot read output directory %s: %s", path,
			 strerror(errno));
		if (dup_fd >= 0)
			close(dup_fd);
		close(fd);
		return -1;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			nonempty = 1;
	closedir(d);
	if (nonempty && !force) {
		snprintf(err, errlen, "output directory %s is not empty: refusing to write "
			 "into it (--force replaces the files replay writes, never following "
			 "a symbolic link)", path);
		close(fd);
		return -1;
	}
	return fd;
}

int fr_out_private_dir(const char *prefix, char *path, size_t pathlen, char *err,
		       size_t errlen)
{
	int fd;

	if (snprintf(path, pathlen, "%s.XXXXXX", prefix) >= (int)pathlen) {
		snprintf(err, errlen, "output directory name too long");
		return -1;
	}
	if (fr_mkdir_parents(path, err, errlen))
		return -1;
	if (!mkdtemp(path)) {	/* mode 0700, a new name */
		snprintf(err, errlen, "cannot create output directory %s: %s", path,
			 strerror(errno));
		return -1;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		snprintf(err, errlen, "cannot open output directory %s: %s", path,
			 strerror(errno));
	return fd;
}

int fr_out_file(int dirfd, const char *name, int force)
{
	int fd;

	if (force && unlinkat(dirfd, name, 0) && errno != ENOENT)
		return -1;
	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0)
		fchmod(fd, 0600);	/* whatever the umask */
	return fd;
}

/* ------------------------------------------------------------------ */
/* Helper programs */

const char *fr_helper_path(const char *env, const char *name, const char *build_rel)
{
	static char path[PATH_MAX + 64];
	const char *dirs[] = { build_rel, "../libexec/flightrec/", "../lib/flightrec/" };
	const char *e = getenv(env);
	char exe[PATH_MAX], *slash;
	ssize_t n;
	size_t i;

	if (e && *e)
		return e;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
				if (snprintf(path, sizeof(path), "%s/%s%s", exe, dirs[i],
					     i ? name : "") >= (int)sizeof(path))
					continue;
				if (!access(path, X_OK))
					return path;
			}
		}
	}
	snprintf(path, sizeof(path), "/usr/libexec/flightrec/%s", name);
	return access(path, X_OK) ? NULL : path;
}

/* ------------------------------------------------------------------ */
/* The empty root */

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), r = 0;
	size_t n = strlen(s);

	if (fd < 0)
		return -errno;
	if (write(fd, s, n) != (ssize_t)n)
		r = -errno;
	close(fd);
	return r;
}

static int fail(char *err, size_t errlen, const char *what)
{
	int e = errno;

	snprintf(err, errlen, "%s: %s", what, strerror(e));
	return -e;
}

static int empty_root_mounts(char *err, size_t errlen);

static void close_nsfds(int *nsfds)
{
	int i;

	for (i = 0; nsfds && i < FR_NS_FDS; i++) {
		if (nsfds[i] >= 0)
			close(nsfds[i]);
		nsfds[i] = -1;
	}
}

/*
 * The namespaces just made, while /proc is still there to open them by.
 * One that cannot be opened (no /proc) stays -1: the caller then cannot
 * join them, which is no reason to fail here.
 */
const int fr_ns_type[FR_NS_FDS] = { CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWNET };

static void open_nsfds(int *nsfds, int made)
{
	static const char *const name[FR_NS_FDS] = {
		"/proc/self/ns/user", "/proc/self/ns/mnt", "/proc/self/ns/net"
	};
	int i;

	for (i = 0; nsfds && i < FR_NS_FDS; i++)
		if (made & fr_ns_type[i])
			nsfds[i] = open(name[i], O_RDONLY | O_CLOEXEC);
}

int fr_empty_root(unsigned int flags, char *err, size_t errlen)
{
	return fr_empty_root_fds(flags, NULL, err, errlen);
}

int fr_empty_root_fds(unsigned int flags, int *nsfds, char *err, size_t errlen)
{
	int net = (flags & FR_ROOT_NET) ? CLONE_NEWNET : 0, made = CLONE_NEWUSER;
	uid_t uid = getuid();
	gid_t gid = getgid();
	char map[64];
	int r, e, i;

	for (i = 0; nsfds && i < FR_NS_FDS; i++)
		nsfds[i] = -1;
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS | net)) {
		/*
		 * A process with CAP_SYS_ADMIN can do without the user
		 * namespace: root inside a chroot, where the kernel refuses
		 * CLONE_NEWUSER (the test VM's rig is one).
		 */
		e = errno;
		if (unshare(CLONE_NEWNS | net)) {
			errno = e;
			return fail(err, errlen, "unshare(user, mount, network namespace)");
		}
		made = 0;
	} else {
		/* the same ids inside: files written through fds keep their owner */
		r = write_str("/proc/self/setgroups", "deny");
		if (r && r != -ENOENT) {
			errno = -r;
			return fail(err, errlen, "/proc/self/setgroups");
		}
		snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)uid, (unsigned)uid);
		r = write_str("/proc/self/uid_map", map);
		if (!r) {
			snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)gid, (unsigned)gid);
			r = write_str("/proc/self/gid_map", map);
		}
		if (r) {
			errno = -r;
			return fail(err, errlen, "uid_map/gid_map of the user namespace");
		}
	}
	made |= CLONE_NEWNS | net;
	open_nsfds(nsfds, made);
	r = empty_root_mounts(err, errlen);
	if (r < 0) {
		close_nsfds(nsfds);
		return r;
	}
	return made;
}

/* fr_empty_root_fds() once the namespaces are made: the empty root */
static int empty_root_mounts(char *err, size_t errlen)
{
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return fail(err, errlen, "making the mounts private");
	if (mount("none", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=4k,mode=0555"))
		return fail(err, errlen, "mounting an empty tmpfs");
	if (chdir("/tmp"))
		return fail(err, errlen, "entering the empty tmpfs");
	/*
	 * The tmpfs becomes / and the old root is detached: nothing to reach.
	 * Where the current root is no mount point (a chroot), pivot_root
	 * cannot work: chroot into the tmpfs instead (the loader's seccomp
	 * filter allows no chroot or open that could leave it).
	 */
	if (!syscall(SYS_pivot_root, ".", ".")) {
		if (umount2(".", MNT_DETACH))
			return fail(err, errlen, "detaching the old root");
	} else if (chroot(".")) {
		return fail(err, errlen, "pivot_root or chroot into the empty tmpfs");
	}
	if (chdir("/"))
		return fail(err, errlen, "chdir(/)");
	if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL))
		return fail(err, errlen, "making the empty root read-only");
	return 0;
}
