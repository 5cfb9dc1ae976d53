// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: what the commands do with a checkpoint, on arbitrary
 * bytes - `flightrec info`, `info --json`, `log`, `log --by-thread` and the
 * replay image build (`replay --ignore-cpu --save-image`, the code `replay`
 * and `gdb` run before the loader), in process, each on the input written
 * to a memfd.  They must return an exit status, never crash, leak, run
 * past the time limit or allocate without bound (fuzz.mk gives the
 * limits: -rss_limit_mb, -malloc_limit_mb, -timeout).  Built by
 * tests/fuzz.mk with clang -fsanitize=fuzzer,address,undefined against
 * the command sources (user/cmd, user/lib); seed corpus
 * tests/corpus/checkpoint.
 */
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#define CMD(name, usage, summary) int cmd_##name(int argc, char **argv);
#include "commands.h"
FLIGHTREC_COMMANDS(CMD)
#undef CMD

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int in_fd = -1;
static char in_path[64], img_path[PATH_MAX], dir[PATH_MAX];
static FILE *quiet;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	in_fd = memfd_create("fuzz-checkpoint", 0);
	snprintf(dir, sizeof(dir), "%s/fuzz-commands.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	quiet = fopen("/dev/null", "w");
	if (in_fd < 0 || !mkdtemp(dir) || !quiet) {
		perror("fuzz_commands: setup");
		exit(1);
	}
	snprintf(in_path, sizeof(in_path), "/proc/self/fd/%d", in_fd);
	snprintf(img_path, sizeof(img_path), "%s/image", dir);
	/* --save-image never runs it, but replay wants one to exist */
	if (!getenv("FLIGHTREC_LOADER"))
		setenv("FLIGHTREC_LOADER", "/bin/true", 1);
	return 0;
}

static int run(int (*fn)(int, char **), const char *a0, const char *a1,
	       const char *a2, const char *a3, const char *a4, const char *a5)
{
	char *av[] = { (char *)a0, (char *)a1, (char *)a2, (char *)a3, (char *)a4,
		       (char *)a5, NULL };
	FILE *out = stdout, *err = stderr;
	int ac = 0, r;

	while (av[ac])
		ac++;
	optind = 0;		/* getopt starts afresh for each command */
	stdout = quiet;
	stderr = quiet;
	r = fn(ac, av);
	fflush(quiet);
	stdout = out;
	stderr = err;
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (ftruncate(in_fd, 0) || pwrite(in_fd, data, size, 0) != (ssize_t)size)
		abort();
	run(cmd_info, "info", in_path, NULL, NULL, NULL, NULL);
	run(cmd_info, "info", "--json", in_path, NULL, NULL, NULL);
	run(cmd_log, "log", in_path, NULL, NULL, NULL, NULL);
	run(cmd_log, "log", "--by-thread", in_path, NULL, NULL, NULL);
	unlink(img_path);
	run(cmd_replay, "replay", "-q", "--ignore-cpu", "--save-image", img_path, in_path);
	unlink(img_path);
	return 0;
}
