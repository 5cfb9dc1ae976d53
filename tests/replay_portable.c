// SPDX-License-Identifier: GPL-2.0
/*
 * replay_portable: checkpoints the module recorded in the test VM (Debian
 * 6.1 under QEMU) replay on this machine - another kernel, another CPU -
 * inside an empty root: a private mount namespace whose root is an empty
 * tmpfs holding only the loader and the image (no /usr, no libc, no program
 * binary).  The output must be byte-identical to the live run's and the end
 * the same (the fault at the same rip, or the exit status).
 *
 * tests/replay_module.c leaves each checkpoint that replayed in the VM in
 * FR_PORT_DIR (NAME.flrc, NAME.live, NAME.end); scripts/check.sh runs this
 * on the host after the VM runs, once per kernel that recorded, and, with
 * two kernels, in the VM of each on the other's checkpoints (recorded on
 * 6.12, replayed on 6.1, and the reverse).  Every checkpoint must come from
 * another kernel than the one replaying it (its Header.system.release is
 * not this machine's uname release), or the test is no portability test
 * and fails.  Without FR_PORT_DIR it skips.
 *
 * Every checkpoint replays from its first interval, start-up included.  The
 * start-up code (ld.so, glibc's ifunc selection) reads the CPU with cpuid:
 * where cpuid can fault (ARCH_SET_CPUID) the loader answers it from the
 * recorded leaves; where it cannot (AMD before Zen 4, many guests, this
 * rig's host) the loader patches the cpuid instructions the recording
 * machine found in the code (ProcessInfo.cpuid_sites, user/lib/x86sites.c).
 */
#include "kselftest_harness.h"
#include "fr_test.h"
#include "checkpoint.h"
#include "libflightrec.h"
#include "fr_port.h"
#include <asm/prctl.h>
#include <sys/syscall.h>
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/utsname.h>

static char top[PATH_MAX];


FIXTURE(port) {
	const char *dir;
};

FIXTURE_SETUP(port)
{
	const char *t = getenv("FR_TOP");

	snprintf(top, sizeof(top), "%s", t ? t : "../..");
	self->dir = getenv("FR_PORT_DIR");
	if (!self->dir)
		SKIP(return, "FR_PORT_DIR is not set (scripts/check.sh sets it after the VM run)");
}

FIXTURE_TEARDOWN(port)
{
}

static void portable(struct __test_metadata *_metadata, const char *dir, const char *name)
{
	char out[PATH_MAX], live[PATH_MAX], img[PATH_MAX + 16], end[256] = "", path[PATH_MAX], err[256];
	struct utsname u;
	int same, ended;
	struct flrc *c;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s.end", dir, name);
	f = fopen(path, "r");
	if (!f)
		SKIP(return, "%s was not exported by the VM run (its test failed or skipped there)",
		     name);
	if (!fgets(end, sizeof(end), f))
		end[0] = 0;
	fclose(f);
	end[strcspn(end, "\n")] = 0;
	ASSERT_NE(0, end[0]);
	snprintf(path, sizeof(path), "%s/%s.flrc", dir, name);
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	/* recorded on one kernel, replayed on another */
	ASSERT_EQ(0, uname(&u));
	ASSERT_NE(NULL, c->hdr->system->release) flrc_free(c);
	ASSERT_STRNE(u.release, c->hdr->system->release) {
		TH_LOG("this machine runs the kernel that recorded %s: not a portability test",
		       name);
		flrc_free(c);
	}
	TH_LOG("%s: recorded on %s, replayed on %s", name, c->hdr->system->release, u.release);
	/*
	 * From the first interval, start-up included, whatever this CPU: where
	 * cpuid can fault the loader answers it from the recorded leaves, and
	 * where it cannot it patches the cpuid instructions the recording
	 * machine found in the code (ProcessInfo.cpuid_sites).
	 */
	TH_LOG("cpuid %s here; %zu cpuid sites recorded",
	       fr_cpuid_faults() ? "faults" : "cannot fault", c->hdr->process->n_cpuid_sites);
	flrc_free(c);
	/* the image, made here by this machine's flightrec */
	ASSERT_EQ(0, fr_sh("cd %s && %s/user/flightrec replay -q %s.flrc --force --save-image %s.img",
			dir, top, name, name));
	snprintf(out, sizeof(out), "%s/%s.port", dir, name);
	snprintf(img, sizeof(img), "%s/%s.img", dir, name);
	rc = fr_replay_empty_root(top, img, out);
	if (rc == 77)
		SKIP(return, "no user namespace on this machine");
	EXPECT_EQ(0, rc) fr_sh("tail -5 %s/loader.err", out);
	snprintf(live, sizeof(live), "%s/%s.live", dir, name);
	same = fr_sh("cmp %s %s/fd1.out", live, out);
	EXPECT_EQ(0, same) fr_sh("tail -5 %s/loader.err", out);
	ended = fr_sh("grep -qF -- '%s' %s/loader.err", end, out);
	EXPECT_EQ(0, ended) TH_LOG("want '%s'", end);
	/* for port.some_replayed: this run (the harness is the parent) replayed it */
	if (!rc && !same && !ended)
		fr_sh("touch %s/%s.replayed.%d", dir, name, (int)getppid());
}

#define PORTABLE(name) \
	TEST_F_TIMEOUT(port, name, 300) { portable(_metadata, self->dir, #name); }

/* the names replay_module.c exports */
PORTABLE(null)
PORTABLE(heap)
PORTABLE(div)
PORTABLE(abrt)
PORTABLE(stack)
PORTABLE(bc)
PORTABLE(py)
PORTABLE(cpuid)
PORTABLE(sq)
PORTABLE(gz)
PORTABLE(asig)
PORTABLE(tsc)
PORTABLE(cv)
PORTABLE(race)
PORTABLE(uafs)
PORTABLE(sun)
PORTABLE(rseq)
PORTABLE(scmp)
PORTABLE(ptrace_tracee)

/*
 * Last: at least one checkpoint replayed here in this run, so that a run
 * where every case skipped (none exported) does not pass as a portability
 * test.
 */
TEST_F(port, some_replayed)
{
	ASSERT_EQ(0, fr_sh("ls %s/*.replayed.%d > /dev/null 2>&1", self->dir, (int)getppid()))
		TH_LOG("no checkpoint of %s replayed on this kernel", self->dir);
	fr_sh("echo \"# replayed: $(cd %s && ls *.replayed.%d | sed 's/\\.replayed.*//' | tr '\\n' ' ')\"",
	      self->dir, (int)getppid());
}

TEST_HARNESS_MAIN
