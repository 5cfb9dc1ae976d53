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
 * A machine that cannot make cpuid fault (ARCH_SET_CPUID: AMD before Zen 4
 * kernels that support it, many guests) shows the application its own CPU,
 * and the start-up code (ld.so, glibc's ifunc selection) then takes other
 * paths than the recording when the two CPUs differ.  There each checkpoint
 * replays from its first interval after the start-up (its output then the
 * tail of the live output), and one with no such interval is skipped.
 */
#include "kselftest_harness.h"
#include "fr_test.h"
#include "checkpoint.h"
#include "libflightrec.h"
#include <asm/prctl.h>
#include <sys/syscall.h>
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/utsname.h>

static char top[PATH_MAX];


/*
 * Replays @port/@name.img in an empty root (fr_empty_root(), what `flightrec
 * replay` itself uses): fd 1 output to @out/fd1.out, the loader's messages
 * to @out/loader.err.  The loader and the image are opened before and run
 * by fd.  Returns the loader's exit status, 77 when this machine has no
 * user namespace for us, 7x on a setup error.
 */
static int replay_empty_root(const char *port, const char *name, const char *out)
{
	char img[PATH_MAX + 16], ldr[PATH_MAX + 64], dfd_s[16], ifd_s[16];
	int status, dfd, efd, ifd, lfd;
	pid_t pid;

	if (fr_sh("rm -rf %s && mkdir -p %s", out, out))
		return 70;
	snprintf(img, sizeof(img), "%s/%s.img", port, name);
	snprintf(ldr, sizeof(ldr), "%s/user/loader/flightrec-loader", top);
	pid = fork();
	if (pid < 0)
		return 71;
	if (pid == 0) {
		char err[PATH_MAX + 16], why[256];
		char *av[] = { "flightrec-loader", "-f", ifd_s, "-d", dfd_s, NULL };

		snprintf(err, sizeof(err), "%s/loader.err", out);
		dfd = open(out, O_RDONLY | O_DIRECTORY);
		efd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		ifd = open(img, O_RDONLY);
		lfd = open(ldr, O_RDONLY | O_CLOEXEC);
		if (dfd < 0 || efd < 0 || ifd < 0 || lfd < 0 || dup2(efd, 2) < 0)
			_exit(79);
		if (fr_empty_root(FR_ROOT_NET, why, sizeof(why))) {
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

/* Whether this machine makes cpuid fault for a process that asks for it. */
static bool cpuid_faults(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(syscall(SYS_arch_prctl, ARCH_SET_CPUID, 0) ? 1 : 0);
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

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
	char out[PATH_MAX], live[PATH_MAX], end[256] = "", path[PATH_MAX], err[256];
	char from[32] = "";
	struct utsname u;
	long long tail = 0;
	int same, ended;
	struct flrc *c;
	size_t i;
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
	if (cpuid_faults()) {
		flrc_free(c);
	} else {
		/*
		 * The start-up ends where ld.so unmaps its cache (the program's
		 * first munmap): its library search before that follows this
		 * CPU (glibc-hwcaps), and a first interval cut short by the
		 * recording's start (a few ms) leaves it in the second one.
		 */
		uint32_t startup = c->hdr->intervals[0]->index;
		size_t k;

		for (i = 0; i < c->n_syscalls; i++)
			if (c->syscalls[i]->nr == SYS_munmap) {
				startup = c->syscalls[i]->interval;
				break;
			}
		for (k = 0; k < flrc_nr_intervals(c) && c->hdr->intervals[k]->index <= startup; k++)
			;
		if (k >= flrc_nr_intervals(c)) {
			flrc_free(c);
			SKIP(return, "this machine cannot make cpuid fault, and %s's checkpoint "
			     "holds no interval after its start-up (interval %u), which reads "
			     "the CPU's identification", name, startup);
		}
		snprintf(from, sizeof(from), "--from %u", c->hdr->intervals[k]->index);
		/* the bytes those intervals wrote to fd 1 (these programs use write) */
		for (i = 0; i < c->n_syscalls; i++) {
			const Flightrec__Syscall *sc = c->syscalls[i];

			if (sc->interval >= c->hdr->intervals[k]->index && sc->nr == SYS_write &&
			    sc->n_args && sc->args[0] == 1 && sc->ret > 0)
				tail += sc->ret;
		}
		flrc_free(c);
		TH_LOG("this machine cannot make cpuid fault: replaying %s %s", name, from);
	}
	/* the image, made here by this machine's flightrec */
	ASSERT_EQ(0, fr_sh("cd %s && %s/user/flightrec replay -q %s.flrc %s --force --save-image %s.img",
			dir, top, name, from, name));
	snprintf(out, sizeof(out), "%s/%s.port", dir, name);
	rc = replay_empty_root(dir, name, out);
	if (rc == 77)
		SKIP(return, "no user namespace on this machine");
	EXPECT_EQ(0, rc) fr_sh("tail -5 %s/loader.err", out);
	snprintf(live, sizeof(live), "%s/%s.live", dir, name);
	if (!from[0]) {
		same = fr_sh("cmp %s %s/fd1.out", live, out);
		EXPECT_EQ(0, same) fr_sh("tail -5 %s/loader.err", out);
	} else {
		/* what the replayed intervals wrote: the end of the live output */
		same = fr_sh("[ $(stat -c %%s %s/fd1.out) = %lld ] && "
			     "tail -c %lld %s | cmp - %s/fd1.out", out, tail, tail, live, out);
		EXPECT_EQ(0, same) fr_sh("ls -l %s/fd1.out; tail -5 %s/loader.err", out, out);
	}
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
PORTABLE(sq)
PORTABLE(gz)
PORTABLE(asig)
PORTABLE(tsc)
PORTABLE(cv)
PORTABLE(race)
PORTABLE(uafs)

/*
 * Last: at least one checkpoint replayed here in this run, so that a run
 * where every case skipped (no checkpoint of more than one interval on a
 * machine without cpuid faulting, none exported) does not pass as a
 * portability test.
 */
TEST_F(port, some_replayed)
{
	ASSERT_EQ(0, fr_sh("ls %s/*.replayed.%d > /dev/null 2>&1", self->dir, (int)getppid()))
		TH_LOG("no checkpoint of %s replayed on this kernel", self->dir);
	fr_sh("echo \"# replayed: $(cd %s && ls *.replayed.%d | sed 's/\\.replayed.*//' | tr '\\n' ' ')\"",
	      self->dir, (int)getppid());
}

TEST_HARNESS_MAIN
