// SPDX-License-Identifier: GPL-2.0
/*
 * portable_outside: the outside corpus (tests/outside/cases.h: strace's own
 * test programs and everyday process trees), recorded in the test VM from
 * exec to exit, replayed on this machine - another kernel, another CPU -
 * in an empty root (no /usr, no libc, no program binary: the loader and
 * the image only), as a user with nothing but the checkpoints would.
 *
 * tests/replay_outside.c exports each case that replayed in the VM to
 * FR_PORT_DIR/outside/NAME/ (every checkpoint of the tree, the live
 * output, each checkpoint's verdict there, and which replayed process wrote
 * the tree's stdout); scripts/check.sh runs this on the host after the VM
 * runs, once per kernel.  Each checkpoint must replay here from its first
 * interval, start-up included, to the same verdict ("exited with status
 * 0, as recorded"...), and the writer's output must be the live output,
 * byte for byte.  Where cpuid cannot fault here, this also tests the cpuid
 * sites the recording machine found (docs/replay.md, "The CPU check").
 * Without FR_PORT_DIR it skips; a case not exported (it failed or was
 * skipped in the VM, which replay_outside reports) skips with that reason.
 */
#include "kselftest_harness.h"
#include "fr_test.h"
#include "fr_port.h"
#include <dirent.h>

static char top[PATH_MAX];

FIXTURE(outside) {
	char dir[1024];
};

FIXTURE_VARIANT(outside) {
	const char *name;
};

#define STRACE(id, prog) \
	FIXTURE_VARIANT_ADD(outside, strace_##id) { .name = prog };
#define STRACE_XFAIL(id, prog, why) STRACE(id, prog)
#define TREE(id, cmd) \
	FIXTURE_VARIANT_ADD(outside, id) { .name = #id };
#define TREE_XFAIL(id, cmd, why) TREE(id, cmd)
#define THREADS(id, cmd) TREE(id, cmd)
#define EXEC(id, cmd) TREE(id, cmd)
#include "outside/cases.h"

/*
 * Known divergences of a replay on another CPU (replayed in the VM, on the
 * recording CPU, these are identical): reported as skipped, "XFAIL" and
 * the reason, when they fail, and "XPASS" in the log when they do not.
 */
static const struct {
	const char *name, *why;
} port_xfail[] = {
	/*
	 * None today.  tar_gzip was one until a sockaddr was hashed as the
	 * kernel reads it (issue 25, class 10, uapi/flightrec_inhash.h).
	 */
	{ NULL, NULL },
};

static const char *port_xfail_why(const char *name)
{
	for (size_t i = 0; port_xfail[i].name; i++)
		if (!strcmp(port_xfail[i].name, name))
			return port_xfail[i].why;
	return NULL;
}

FIXTURE_SETUP(outside)
{
	const char *t = getenv("FR_TOP"), *port = getenv("FR_PORT_DIR");

	snprintf(top, sizeof(top), "%s", t ? t : "../..");
	if (!port)
		SKIP(return, "FR_PORT_DIR is not set (scripts/check.sh sets it after the VM run)");
	snprintf(self->dir, sizeof(self->dir), "%s/outside/%s", port, variant->name);
	if (access(self->dir, F_OK))
		SKIP(return, "%s was not exported by the VM run (replay_outside: it failed or "
		     "skipped there)", variant->name);
}

FIXTURE_TEARDOWN(outside)
{
}

TEST_F_TIMEOUT(outside, replay_here, 600)
{
	char names[64][64], path[1024 + 160], end[512], wname[64] = "", wfile[64] = "";
	struct dirent *e;
	int n = 0, checked = 0;
	DIR *d;
	FILE *f;

	if (_metadata->skip)
		return;
	d = opendir(self->dir);
	ASSERT_NE(NULL, d);
	while ((e = readdir(d)) && n < 64) {
		size_t len = strlen(e->d_name);

		if (len > 5 && len < 64 && !strcmp(e->d_name + len - 5, ".flrc")) {
			memcpy(names[n], e->d_name, len - 5);
			names[n++][len - 5] = 0;
		}
	}
	closedir(d);
	ASSERT_LT(0, n) TH_LOG("no checkpoint in %s", self->dir);
	snprintf(path, sizeof(path), "%s/writer", self->dir);
	f = fopen(path, "r");
	if (f) {
		ASSERT_EQ(2, fscanf(f, "%63s %63s", wname, wfile));
		fclose(f);
	}
	for (int i = 0; i < n; i++) {
		const char *b = names[i];
		char img[1024 + 80], out[1024 + 80];
		int rc;

		snprintf(path, sizeof(path), "%.1000s/%.63s.end", self->dir, b);
		f = fopen(path, "r");
		ASSERT_NE(NULL, f);
		if (!fgets(end, sizeof(end), f))
			end[0] = 0;
		fclose(f);
		end[strcspn(end, "\n")] = 0;
		ASSERT_NE(0, end[0]) TH_LOG("%s: no verdict recorded in the VM", b);
		/* the images, made here by this machine's flightrec, through the execs */
		snprintf(out, sizeof(out), "%.1000s/%.63s.here", self->dir, b);
		rc = fr_replay_images_empty_root(top, self->dir, b);
		if (rc == 76)
			fr_sh("tail -3 %s/%s.imgerr", self->dir, b);
		if (rc == 77)
			SKIP(return, "no user namespace on this machine");
		EXPECT_EQ(0, rc) {
			TH_LOG("%s: loader status %d", b, rc);
			fr_sh("tail -4 %s/loader.err | sed 's/^/#     /'", out);
		}
		EXPECT_EQ(0, fr_sh("grep -qF -- \"$(cat %s/%s.end)\" %s/loader.err", self->dir, b,
				   out)) {
			TH_LOG("%s: want '%s'", b, end);
			fr_sh("tail -3 %s/loader.err | sed 's/^/#     /'", out);
		}
		if (!strcmp(b, wname)) {
			EXPECT_EQ(0, fr_sh("cmp %s/live %s/%s", self->dir, out, wfile))
				TH_LOG("%s: %s is not the live output", b, wfile);
		}
		fr_sh("rm -f %s", img);
		checked++;
	}
	TH_LOG("%d checkpoints replayed here from their first interval", checked);
	if (!_metadata->passed && port_xfail_why(variant->name)) {
		_metadata->passed = 1;
		SKIP(return, "XFAIL: a known divergence on another CPU: %s",
		     port_xfail_why(variant->name));
	}
	if (_metadata->passed && port_xfail_why(variant->name))
		TH_LOG("XPASS: identical here, although listed as a known divergence (%s)",
		       port_xfail_why(variant->name));
}

TEST_HARNESS_MAIN
