/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fr_port.h - replaying checkpoints of another machine here, as a user with
 * nothing but the checkpoint would: tests/replay_portable.c (the module's
 * test programs) and tests/portable_outside.c (the outside corpus).
 */
#ifndef FR_PORT_H
#define FR_PORT_H

#include <asm/prctl.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "fr_test.h"
#include "libflightrec.h"
#include "checkpoint.h"
#include "flightrec.h"

/*
 * Runs the replay image @img in an empty root (fr_empty_root(), what
 * `flightrec replay` itself uses): the application's output to
 * @out/fdN.out, the loader's messages to @out/loader.err.  The loader
 * (@top/user/loader/flightrec-loader) and the image are opened before and
 * run by fd.  Returns the loader's exit status, 77 when this machine has no
 * user namespace for us, 7x or 8x on a setup error.
 */
static inline int fr_replay_empty_root_as(const char *top, const char *img, const char *out,
					  bool next_image)
{
	char ldr[PATH_MAX + 64], dfd_s[16], ifd_s[16];
	int status, dfd, efd, ifd, lfd;
	pid_t pid;

	if (!next_image && fr_sh("rm -rf %s && mkdir -p %s", out, out))
		return 70;
	snprintf(ldr, sizeof(ldr), "%s/user/loader/flightrec-loader", top);
	pid = fork();
	if (pid < 0)
		return 71;
	if (pid == 0) {
		char err[PATH_MAX + 256], why[256];
		char *av[] = { "flightrec-loader", "-f", ifd_s, "-d", dfd_s,
			       next_image ? "-A" : NULL, NULL };

		snprintf(err, sizeof(err), "%s/loader.err", out);
		dfd = open(out, O_RDONLY | O_DIRECTORY);
		efd = open(err, O_WRONLY | O_CREAT | (next_image ? O_APPEND : O_TRUNC), 0600);
		ifd = open(img, O_RDONLY);
		lfd = open(ldr, O_RDONLY | O_CLOEXEC);
		if (dfd < 0 || efd < 0 || ifd < 0 || lfd < 0 || dup2(efd, 2) < 0)
			_exit(79);
		if (fr_empty_root(FR_ROOT_NET, why, sizeof(why)) < 0) {
			fprintf(stderr, "%s\n", why);
			_exit(77);
		}
		if (!access("/usr", F_OK) || !access("/lib", F_OK) || !access("/bin", F_OK))
			_exit(80);
		snprintf(dfd_s, sizeof(dfd_s), "%d", dfd);
		snprintf(ifd_s, sizeof(ifd_s), "%d", ifd);
		fexecve(lfd, av, environ);
		_exit(81);
	}
	if (waitpid(pid, &status, 0) != pid)
		return 72;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static inline int fr_replay_empty_root(const char *top, const char *img, const char *out)
{
	return fr_replay_empty_root_as(top, img, out, false);
}

/*
 * Checkpoint @dir/@name.flrc from its first interval, through every exec
 * it went through (a file of several images: docs/checkpoint-format.md),
 * as `flightrec replay` does it but each loader in fr_empty_root(): one
 * image file per image (@dir/@name.imgK, made by this machine's
 * flightrec), run in turn while the loader says it reached its exec
 * (FR_EXIT_EXEC), the later ones writing on in @out (-A).  Returns the last
 * loader's status, or fr_replay_empty_root()'s setup errors; 76 when an
 * image file could not be made.
 */
static inline int fr_replay_images_empty_root(const char *top, const char *dir,
					      const char *name)
{
	char path[PATH_MAX + 128], err[256], img[PATH_MAX + 128], out[PATH_MAX + 128];
	uint32_t first[FLIGHTREC_KEEP_MAX];
	const struct flrc *b;
	struct flrc *c;
	int n = 0, k, rc = 0;

	snprintf(path, sizeof(path), "%.1000s/%.63s.flrc", dir, name);
	if (flrc_read(path, &c, err, sizeof(err)))
		return 76;
	for (b = c; b && n < FLIGHTREC_KEEP_MAX; b = b->before_exec)
		first[n++] = flrc_first_interval(b);
	flrc_free(c);
	snprintf(out, sizeof(out), "%.1000s/%.63s.here", dir, name);
	for (k = n - 1; k >= 0; k--) {
		snprintf(img, sizeof(img), "%.1000s/%.63s.img%d", dir, name, k);
		if (fr_sh("cd %s && rm -f %s.img%d && %s/user/flightrec replay -q %s.flrc --force "
			  "--from %u --save-image %s.img%d 2> %s.imgerr", dir, name, k, top, name,
			  first[k], name, k, name))
			return 76;
		rc = fr_replay_empty_root_as(top, img, out, k != n - 1);
		fr_sh("rm -f %s", img);
		if (rc != FR_EXIT_EXEC)
			break;
	}
	return rc;
}

/* Whether this machine makes cpuid fault for a process that asks for it. */
static inline bool fr_cpuid_faults(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(syscall(SYS_arch_prctl, ARCH_SET_CPUID, 0) ? 1 : 0);
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

#endif /* FR_PORT_H */
