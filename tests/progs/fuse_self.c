// SPDX-License-Identifier: GPL-2.0
/*
 * fuse_self MNT: a FUSE daemon that maps a file of its own filesystem
 * (record_process.fuse_daemon_dumped, issue 24 #9).
 *
 * It mounts a filesystem of one file, MNT/lib.so, whose bytes are its own
 * executable's, opened with FOPEN_DIRECT_IO: a read of it is a request to
 * this process, never served from the page cache.  A thread serves
 * /dev/fuse; the main thread maps MNT/lib.so (PROT_READ, MAP_PRIVATE, never
 * touched, so none of its pages is cached) and then sleeps 10 ms at a time.  A recorder that
 * reads the file while this process's threads are stopped waits for itself.
 *
 * The kernel protocol is spoken directly (<linux/fuse.h>): six requests.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define FILE_INO	2
#define FILE_NAME	"lib.so"

static int fuse_fd;
static char *file_data;
static size_t file_size;

static void reply(uint64_t unique, int error, const void *data, size_t len)
{
	struct fuse_out_header h = {
		.len = sizeof(h) + (error ? 0 : len),
		.error = error,
		.unique = unique,
	};
	struct iovec iov[2] = {
		{ &h, sizeof(h) },
		{ (void *)data, error ? 0 : len },
	};

	/* ENOENT: the request was interrupted; nothing to do */
	if (writev(fuse_fd, iov, 2) < 0 && errno != ENOENT)
		perror("fuse_self: reply");
}

static void attr(struct fuse_attr *a, uint64_t ino)
{
	memset(a, 0, sizeof(*a));
	a->ino = ino;
	a->nlink = 1;
	if (ino == FUSE_ROOT_ID) {
		a->mode = S_IFDIR | 0755;
		a->nlink = 2;
	} else {
		a->mode = S_IFREG | 0755;
		a->size = file_size;
		a->blocks = (file_size + 511) / 512;
	}
	a->blksize = 4096;
}

static void *serve(void *arg)
{
	static char buf[FUSE_MIN_READ_BUFFER + (1 << 20)];

	(void)arg;
	for (;;) {
		struct fuse_in_header *in = (void *)buf;
		void *body = buf + sizeof(*in);
		ssize_t n = read(fuse_fd, buf, sizeof(buf));

		if (n < 0 && (errno == EINTR || errno == ENOENT || errno == EAGAIN))
			continue;
		if (n < (ssize_t)sizeof(*in))
			exit(n < 0 && errno == ENODEV ? 0 : 3);	/* unmounted */
		switch (in->opcode) {
		case FUSE_INIT: {
			const struct fuse_init_in *ii = body;
			struct fuse_init_out o = {
				.major = FUSE_KERNEL_VERSION,
				.minor = 31,
				.max_readahead = ii->max_readahead,
				.max_write = 4096,
			};

			reply(in->unique, 0, &o, sizeof(o));
			break;
		}
		case FUSE_LOOKUP: {
			struct fuse_entry_out o = { 0 };

			if (in->nodeid != FUSE_ROOT_ID || strcmp(body, FILE_NAME)) {
				reply(in->unique, -ENOENT, NULL, 0);
				break;
			}
			o.nodeid = FILE_INO;
			o.generation = 1;
			o.entry_valid = 3600;
			o.attr_valid = 3600;
			attr(&o.attr, FILE_INO);
			reply(in->unique, 0, &o, sizeof(o));
			break;
		}
		case FUSE_GETATTR: {
			struct fuse_attr_out o = { .attr_valid = 3600 };

			attr(&o.attr, in->nodeid);
			reply(in->unique, 0, &o, sizeof(o));
			break;
		}
		case FUSE_OPEN: {
			struct fuse_open_out o = { .fh = 1, .open_flags = FOPEN_DIRECT_IO };

			reply(in->unique, in->nodeid == FILE_INO ? 0 : -EISDIR, &o, sizeof(o));
			break;
		}
		case FUSE_READ: {
			const struct fuse_read_in *r = body;
			size_t off = r->offset < file_size ? r->offset : file_size;
			size_t len = file_size - off < r->size ? file_size - off : r->size;

			reply(in->unique, 0, file_data + off, len);
			break;
		}
		case FUSE_FLUSH:
		case FUSE_RELEASE:
			reply(in->unique, 0, NULL, 0);
			break;
		case FUSE_FORGET:
		case FUSE_BATCH_FORGET:
		case FUSE_INTERRUPT:
			break;		/* no reply */
		default:
			reply(in->unique, -ENOSYS, NULL, 0);
			break;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	char opts[128], path[4096];
	struct stat st;
	pthread_t th;
	void *map;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: fuse_self MNT\n");
		return 2;
	}
	fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror("fuse_self: /proc/self/exe");
		return 1;
	}
	file_size = st.st_size;
	file_data = malloc(file_size);
	if (!file_data || pread(fd, file_data, file_size, 0) != (ssize_t)file_size) {
		perror("fuse_self: read /proc/self/exe");
		return 1;
	}
	close(fd);

	fuse_fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fuse_fd < 0) {
		perror("fuse_self: /dev/fuse");
		return 4;
	}
	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40000,user_id=0,group_id=0",
		 fuse_fd);
	if (mount("fuse_self", argv[1], "fuse", MS_NOSUID | MS_NODEV, opts)) {
		perror("fuse_self: mount");
		return 4;
	}
	if (pthread_create(&th, NULL, serve, NULL)) {
		fprintf(stderr, "fuse_self: pthread_create failed\n");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/" FILE_NAME, argv[1]);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	map = mmap(NULL, file_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		perror("fuse_self: mmap");
		return 1;
	}
	close(fd);
	printf("ready %p\n", map);
	fflush(stdout);
	/* short sleeps: the recorder starts and cuts at a return to user space */
	for (;;)
		usleep(10000);
}
