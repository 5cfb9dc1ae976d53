// SPDX-License-Identifier: GPL-2.0
/*
 * Replaying a stranger's checkpoint (docs/security.md, issue 23 items 1, 2,
 * 4).  The checkpoints are real recordings of tests/progs/crash_null made
 * by the ptrace fixture (tests/tools/ptsnap), then made hostile by
 * tests/tools/craft_replay:
 *
 *   jump_into_loader      code that finds a `syscall` in the loader's text
 *                         and jumps there with mkdir(): blocked, exit 7, no
 *                         directory (replay and gdb)
 *   outbuf_in_window      an out-buffer aimed at the loader: exit 2, said so
 *   damaged_page          a page whose bytes are not those its hash is of:
 *                         exit 2 and the page's address from replay,
 *                         --save-image, gdb and info
 *   truncated_while_read  the checkpoint cut to nothing while replay has
 *                         it mapped: exit 2 and a message, not a SIGBUS
 *   out_dir_*             output files 0600 in a 0700 directory, never
 *                         through a symlink, a non-empty directory refused
 *                         without --force, the default directory private
 *   escaped_comm          a comm with terminal escapes: info, log and the
 *                         replay banner print \x1b, never the byte
 *   replay_in_namespaces  the loader of a running replay is in other mount
 *                         and network namespaces than ours, in an empty
 *                         root, the child that made them gone (also as nobody:
 *                         replay_in_namespaces_unprivileged; and where
 *                         they cannot be joined, made by the replay itself:
 *                         replay_in_namespaces_no_setns, setns() refused,
 *                         and _no_proc, no /proc to open them by)
 *   killed_replay_no_core a replay killed by SIGQUIT dumps no core
 *   empty_root            fr_empty_root(): no file system, no network
 *   out_dir_parents, numbers_refused, gdb_status_and_paths,
 *   completion_every_option
 *   info_json_and_extract, core_file
 *                         the command line (issue 27 item 6): --output makes
 *                         parents, numbers are checked, gdb exits with the
 *                         replay's status and takes any path, the bash
 *                         completion knows every option
 *
 * FLIGHTREC=path and FLIGHTREC_LOADER=path run another build (an older one,
 * to see these tests fail there).
 */
#include <errno.h>
#include <grp.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sched.h>
#include <stddef.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "kselftest_harness.h"
#include "fr_test.h"
#include "libflightrec.h"

static char flightrec[PATH_MAX + 64];
static char ptsnap[PATH_MAX + 64];
static char crafter[PATH_MAX + 64];

static void find_flightrec(void)
{
	snprintf(flightrec, sizeof(flightrec), "%s", fr_flightrec());
	snprintf(ptsnap, sizeof(ptsnap), "%s", fr_test_tool("ptsnap"));
	snprintf(crafter, sizeof(crafter), "%s", fr_test_tool("craft_replay"));
}

static int has(const char *dir, const char *name, const char *needle)
{
	char *s = fr_slurp(dir, name, NULL);
	int found = s && strstr(s, needle);

	free(s);
	return found;
}

static int has_byte(const char *dir, const char *name, char byte)
{
	size_t len = 0;
	char *s = fr_slurp(dir, name, &len);
	int found = s && memchr(s, byte, len);

	free(s);
	return found;
}

static mode_t mode_of(const char *dir, const char *name)
{
	char path[PATH_MAX + 128];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return lstat(path, &st) ? (mode_t)-1 : st.st_mode;
}

FIXTURE(sandbox) {
	char dir[512];
};

FIXTURE_SETUP(sandbox)
{
	find_flightrec();
	snprintf(self->dir, sizeof(self->dir), "/tmp/flightrec-sandbox.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	if (access(ptsnap, X_OK) || access(crafter, X_OK) ||
	    access(flightrec, X_OK))
		SKIP(return, "ptsnap, craft_replay or flightrec is not built");
	/* a real recording: crash_null from its marker to its SIGSEGV */
	ASSERT_EQ(128 + 11, fr_record_crash_null(self->dir));
}

FIXTURE_TEARDOWN(sandbox)
{
	if (self->dir[0] && !getenv("FR_KEEP"))
		fr_sh("rm -rf %s", self->dir);
}

static int craft(const char *dir, const char *mode, const char *arg, const char *out)
{
	return fr_sh("cd %s && %s %s '%s' cn.flrc %s", dir, crafter, mode, arg,
		     out);
}

/*
 * The application scans the loader's text for 0f 05 and jumps there with
 * mkdir(DIR/pwned, 0700) in its registers.  Syscall User Dispatch lets a
 * call from the loader's text through; the seccomp filter must not.
 */
TEST_F_TIMEOUT(sandbox, jump_into_loader, 120)
{
	char pwned[600];

	snprintf(pwned, sizeof(pwned), "%s/pwned", self->dir);
	ASSERT_EQ(0, craft(self->dir, "jump-loader", pwned, "jump.flrc"));
	EXPECT_EQ(FR_EXIT_BLOCKED, fr_sh("cd %s && %s replay jump.flrc --out jump.rep "
					 "> jump.rout 2> jump.rerr", self->dir, flightrec));
	EXPECT_TRUE(has(self->dir, "jump.rerr", "blocked system call mkdir (83) at rip 0x2f"));
	EXPECT_TRUE(has(self->dir, "jump.rerr", "(in the loader's text)"));
	EXPECT_FALSE(has(self->dir, "jump.rerr", "DIVERGED"));
	EXPECT_EQ(-1, access(pwned, F_OK));
	EXPECT_EQ(ENOENT, errno);
	if (!access(pwned, F_OK))
		rmdir(pwned);
	fr_sh("cat %s/jump.rerr >&2", self->dir);
}

/* The same under gdb: the filter holds there too, and gdb sees exit 7. */
TEST_F_TIMEOUT(sandbox, jump_into_loader_gdb, 180)
{
	char pwned[600];

	if (fr_sh("command -v gdb > /dev/null"))
		SKIP(return, "no gdb");
	snprintf(pwned, sizeof(pwned), "%s/pwned", self->dir);
	ASSERT_EQ(0, craft(self->dir, "jump-loader", pwned, "jump.flrc"));
	ASSERT_EQ(0, fr_sh("printf 'continue\\n' > %s/g.cmds", self->dir));
	fr_sh("cd %s && %s gdb jump.flrc --batch g.cmds --out g.rep > g.out 2>&1", self->dir,
	      flightrec);
	EXPECT_TRUE(has(self->dir, "g.out", "blocked system call mkdir (83)"));
	EXPECT_TRUE(has(self->dir, "g.out", "exited with code 07"));
	EXPECT_EQ(-1, access(pwned, F_OK));
	if (!access(pwned, F_OK))
		rmdir(pwned);
}

/* An out-buffer aimed at the loader's text: a damaged file, not a divergence. */
TEST_F_TIMEOUT(sandbox, outbuf_in_window, 120)
{
	ASSERT_EQ(0, craft(self->dir, "outbuf-window", "0x2f0000002000", "ob.flrc"));
	EXPECT_EQ(FR_EXIT_BADFILE, fr_sh("cd %s && %s replay -q ob.flrc --out ob.rep "
					 "> ob.rout 2> ob.rerr", self->dir, flightrec));
	EXPECT_TRUE(has(self->dir, "ob.rerr", "has an out-buffer at 0x2f0000002000-"));
	EXPECT_TRUE(has(self->dir, "ob.rerr", "in the loader's window"));
	EXPECT_FALSE(has(self->dir, "ob.rerr", "DIVERGED"));
}

/*
 * A page whose stored bytes are not those its hash is of.  flightrec replay
 * reads the checkpoint checking each page's frame and checks the bytes
 * when it loads the page (FLRC_CHECK_ON_LOAD): still exit 2 and the page's
 * address, from every command that builds a replay.
 */
TEST_F_TIMEOUT(sandbox, damaged_page, 180)
{
	char *addr, want[128];

	ASSERT_EQ(0, fr_sh("cd %s && %s bad-bytes - cn.flrc bb.flrc > bb.addr", self->dir,
			   crafter));
	addr = fr_slurp(self->dir, "bb.addr", NULL);
	ASSERT_NE(NULL, addr);
	*strchrnul(addr, '\n') = 0;
	snprintf(want, sizeof(want), "bb.flrc: page %s: content hash mismatch (damaged data)",
		 addr);
	free(addr);
	EXPECT_EQ(FR_EXIT_BADFILE, fr_sh("cd %s && %s replay -q bb.flrc --out bb.rep "
					 "> bb.rout 2> bb.rerr", self->dir, flightrec));
	EXPECT_TRUE(has(self->dir, "bb.rerr", want)) TH_LOG("want '%s'", want);
	EXPECT_FALSE(has(self->dir, "bb.rerr", "DIVERGED"));
	/* refused before anything is made: no output directory, no half image */
	EXPECT_EQ((mode_t)-1, mode_of(self->dir, "bb.rep"));
	EXPECT_EQ(FR_EXIT_BADFILE, fr_sh("cd %s && %s replay -q bb.flrc --save-image bb.img "
					 "2> bb.ierr", self->dir, flightrec));
	EXPECT_TRUE(has(self->dir, "bb.ierr", want));
	EXPECT_EQ((mode_t)-1, mode_of(self->dir, "bb.img"));
	if (!fr_sh("command -v gdb > /dev/null")) {
		ASSERT_EQ(0, fr_sh("printf 'continue\\n' > %s/g.cmds", self->dir));
		EXPECT_EQ(FR_EXIT_BADFILE, fr_sh("cd %s && %s gdb bb.flrc --batch g.cmds "
						 "--out bb.grep > bb.gout 2>&1", self->dir,
						 flightrec));
		EXPECT_TRUE(has(self->dir, "bb.gout", want));
		EXPECT_EQ((mode_t)-1, mode_of(self->dir, "bb.grep"));
	}
	/* info checks every page when it reads the file */
	EXPECT_EQ(FR_EXIT_BADFILE, fr_sh("cd %s && %s info bb.flrc > bb.info 2>&1", self->dir,
					 flightrec));
	EXPECT_TRUE(has(self->dir, "bb.info", "content hash mismatch (damaged data)"));
}

/*
 * flightrec replay maps the checkpoint (FLRC_MAP_FILE) instead of reading
 * it into fresh memory.  Cut to nothing while it is mapped (here under gdb,
 * when the first page is loaded), the file's pages are gone: a SIGBUS that
 * the reader's handler turns into a message and exit 2.  gdb cuts it with
 * a shell command: the static tool holds no truncate() for gdb to call.
 */
TEST_F_TIMEOUT(sandbox, truncated_while_read, 180)
{
	if (fr_sh("command -v gdb > /dev/null"))
		SKIP(return, "no gdb");
	ASSERT_EQ(0, fr_sh("cd %s && cp cn.flrc tr.flrc", self->dir));
	fr_sh("cd %s && gdb -nx -batch -ex 'set breakpoint pending on' "
	      "-ex 'handle SIGBUS nostop noprint pass' -ex 'set follow-fork-mode parent' "
	      "-ex 'break flrc_page_load' -ex run "
	      "-ex 'shell truncate -s 0 %s/tr.flrc && echo cut to 0' -ex delete -ex continue "
	      "--args %s replay -q tr.flrc --out tr.rep > tr.gout 2> tr.err", self->dir,
	      self->dir, flightrec);
	EXPECT_TRUE(has(self->dir, "tr.gout", "Breakpoint 1, ")) TH_LOG("no stop in flrc_page_load");
	EXPECT_TRUE(has(self->dir, "tr.gout", "cut to 0")) TH_LOG("truncate under gdb failed");
	EXPECT_TRUE(has(self->dir, "tr.gout", "exited with code 02"));
	EXPECT_TRUE(has(self->dir, "tr.err", "flightrec: tr.flrc: the file was truncated "
			"while it was being read"));
	EXPECT_FALSE(has(self->dir, "tr.gout", "SIGBUS"));
}

/* fd1.out is a symlink to a victim: refused; with --force replaced, not followed */
TEST_F_TIMEOUT(sandbox, out_dir_symlink, 120)
{
	char *victim;

	ASSERT_EQ(0, fr_sh("cd %s && mkdir out && printf precious > victim && "
			   "ln -s %s/victim out/fd1.out", self->dir, self->dir));
	EXPECT_EQ(FR_EXIT_FAIL, fr_sh("cd %s && %s replay -q cn.flrc --out out > r1.out "
				      "2> r1.err", self->dir, flightrec));
	EXPECT_TRUE(has(self->dir, "r1.err", "output directory out is not empty"));
	EXPECT_EQ(0, fr_sh("cd %s && %s replay -q cn.flrc --out out --force > r2.out "
			   "2> r2.err", self->dir, flightrec));
	victim = fr_slurp(self->dir, "victim", NULL);
	ASSERT_NE(NULL, victim);
	EXPECT_STREQ("precious", victim);
	free(victim);
	EXPECT_TRUE(S_ISREG(mode_of(self->dir, "out/fd1.out")));
	EXPECT_EQ(0600, mode_of(self->dir, "out/fd1.out") & 07777);
	EXPECT_EQ(0, fr_sh("cmp %s/cn.live %s/out/fd1.out", self->dir, self->dir));
	/* --out itself a symlink to a directory: not followed */
	ASSERT_EQ(0, fr_sh("cd %s && mkdir real && ln -s real link", self->dir));
	EXPECT_EQ(FR_EXIT_FAIL, fr_sh("cd %s && %s replay -q cn.flrc --out link > r3.out "
				      "2> r3.err", self->dir, flightrec));
	EXPECT_TRUE(has(self->dir, "r3.err", "never followed"));
	EXPECT_EQ(0, fr_sh("[ -z \"$(ls -A %s/real)\" ]", self->dir));
}

/* modes whatever the umask: directory 0700, files 0600, --save-image 0600 */
TEST_F_TIMEOUT(sandbox, out_dir_modes, 120)
{
	char *t;

	EXPECT_EQ(0, fr_sh("cd %s && umask 0 && %s replay -q cn.flrc --out new > r.out 2> r.err",
			   self->dir, flightrec));
	EXPECT_EQ(0700, mode_of(self->dir, "new") & 07777);
	EXPECT_EQ(0600, mode_of(self->dir, "new/fd1.out") & 07777);
	EXPECT_EQ(0, fr_sh("cd %s && umask 0 && %s replay -q cn.flrc --save-image cn.img",
			   self->dir, flightrec));
	EXPECT_EQ(0600, mode_of(self->dir, "cn.img") & 07777);
	/* an existing image, or a symlink where it goes: refused, target untouched */
	EXPECT_EQ(FR_EXIT_FAIL, fr_sh("cd %s && %s replay -q cn.flrc --save-image cn.img "
				      "2> s1.err", self->dir, flightrec));
	EXPECT_TRUE(has(self->dir, "s1.err", "File exists"));
	ASSERT_EQ(0, fr_sh("cd %s && printf precious > target && ln -s target img.lnk",
			   self->dir));
	EXPECT_EQ(FR_EXIT_FAIL, fr_sh("cd %s && %s replay -q cn.flrc --save-image img.lnk "
				      "2> s2.err", self->dir, flightrec));
	t = fr_slurp(self->dir, "target", NULL);
	ASSERT_NE(NULL, t);
	EXPECT_STREQ("precious", t);
	free(t);
}

/* no --out: a fresh private directory each time, its name printed */
TEST_F_TIMEOUT(sandbox, out_dir_default, 120)
{
	EXPECT_EQ(0, fr_sh("cd %s && %s replay -q cn.flrc > d1.out 2> d1.err && "
			   "%s replay -q cn.flrc > d2.out 2> d2.err", self->dir, flightrec,
			   flightrec));
	EXPECT_TRUE(has(self->dir, "d1.err", "output of the replayed program goes to cn.replay."));
	EXPECT_EQ(0, fr_sh("cd %s && [ $(ls -d cn.replay.* | wc -l) = 2 ] && "
			   "for d in cn.replay.*; do grep -qF \"goes to $d/\" d1.err d2.err && "
			   "[ $(stat -c %%a $d) = 700 ] && cmp -s cn.live $d/fd1.out || exit 1; done",
			   self->dir));
}

/* terminal escapes in comm and exe: escaped by info, log and the replay banner */
TEST_F_TIMEOUT(sandbox, escaped_comm, 120)
{
	ASSERT_EQ(0, craft(self->dir, "comm", "\\e]0;pwned\\a\\e[2Jx", "esc.flrc"));
	EXPECT_EQ(0, fr_sh("cd %s && %s info esc.flrc > info.out 2>&1", self->dir, flightrec));
	EXPECT_TRUE(has(self->dir, "info.out", "\\x1b]0;pwned\\x07\\x1b[2Jx"));
	EXPECT_FALSE(has_byte(self->dir, "info.out", '\033'));
	EXPECT_FALSE(has_byte(self->dir, "info.out", '\007'));
	EXPECT_EQ(0, fr_sh("cd %s && %s info --json esc.flrc > json.out 2>&1", self->dir,
			   flightrec));
	EXPECT_FALSE(has_byte(self->dir, "json.out", '\033'));
	EXPECT_EQ(0, fr_sh("cd %s && python3 -c 'import json; "
			   "d = json.load(open(\"json.out\", encoding=\"utf-8\")); "
			   "assert d[\"process\"][\"comm\"].startswith(\"\\\\x1b]0;pwned\"), d'",
			   self->dir));
	fr_sh("cd %s && %s log esc.flrc > log.out 2>&1", self->dir, flightrec);
	EXPECT_FALSE(has_byte(self->dir, "log.out", '\033'));
	EXPECT_EQ(0, fr_sh("cd %s && %s replay esc.flrc --out esc.rep > rep.out 2> rep.err",
			   self->dir, flightrec));
	EXPECT_TRUE(has(self->dir, "rep.err", "\\x1b]0;pwned"));
	EXPECT_FALSE(has_byte(self->dir, "rep.err", '\033'));
}

/*
 * The real thing in the VM: a process names itself with escapes
 * (PR_SET_NAME), the module records it; list (while it runs), info and the
 * replay banner print \x1b, never the byte.
 */
TEST_F_TIMEOUT(sandbox, escaped_name_module, 180)
{
	int i;

	/* on a host without the module: the rest of this file still runs */
	if (!fr_module_loaded() && !getenv("FR_VM"))
		SKIP(return, "the flightrec module is not loaded");
	FR_REQUIRE_MODULE();
	ASSERT_EQ(0, fr_sh("cd %s && mkdir rec && { %s record -o rec -- %s %s/go > en.live "
			   "2> en.liveerr; echo $? > en.rc; } > /dev/null 2>&1 &", self->dir,
			   flightrec, fr_prog("esc_name"), self->dir));
	for (i = 0; i < 200; i++) {
		fr_sh("%s list > %s/list.out 2>&1", flightrec, self->dir);
		if (has(self->dir, "list.out", "\\x1b]0;x\\x07\\x1b[31m"))
			break;
		usleep(100 * 1000);
	}
	EXPECT_TRUE(has(self->dir, "list.out", "\\x1b]0;x\\x07\\x1b[31m"))
		fr_sh("cat %s/list.out", self->dir);
	EXPECT_FALSE(has_byte(self->dir, "list.out", '\033'));
	ASSERT_EQ(0, fr_sh("touch %s/go", self->dir));
	for (i = 0; i < 300 && access(self->dir, F_OK) == 0; i++) {
		if (has(self->dir, "en.rc", "\n"))
			break;
		usleep(100 * 1000);
	}
	ASSERT_TRUE(has(self->dir, "en.rc", "139")) fr_sh("cat %s/en.rc %s/en.liveerr", self->dir,
						       self->dir);
	EXPECT_EQ(0, fr_sh("cd %s && %s info rec/*.flrc > info.out 2>&1", self->dir, flightrec));
	EXPECT_TRUE(has(self->dir, "info.out", "(\\x1b]0;x\\x07\\x1b[31m)"))
		fr_sh("head -6 %s/info.out", self->dir);
	EXPECT_FALSE(has_byte(self->dir, "info.out", '\033'));
	EXPECT_EQ(0, fr_sh("cd %s && %s replay rec/*.flrc --out en.rep > rep.out 2> rep.err",
			   self->dir, flightrec)) fr_sh("cat %s/rep.err", self->dir);
	EXPECT_TRUE(has(self->dir, "rep.err", "\\x1b]0;x\\x07\\x1b[31m:"));
	EXPECT_FALSE(has_byte(self->dir, "rep.err", '\033'));
	EXPECT_EQ(0, fr_sh("cmp %s/en.live %s/en.rep/fd1.out", self->dir, self->dir));
}

/*
 * flightrec replay itself puts the loader in other namespaces: while a
 * long replay (bc computing pi) runs, the loader's (the same process,
 * exec'd) mount and network namespaces are not ours, its root is an empty
 * directory, and the child that made the namespaces it joined is gone.
 */
/* setns() answers ENOSYS from now on (a kernel without it, or a policy) */
static int refuse_setns(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_setns, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

enum ns_case { NS_PLAIN, NS_NO_SETNS, NS_NO_PROC };

static void replay_ns_case(struct __test_metadata *_metadata, const char *dir, uid_t uid,
			   enum ns_case how)
{
	char self_mnt[64], self_net[64], path[64];
	int i, seen = 0, status;
	ssize_t n;
	pid_t pid;

	if (fr_sh("[ -x /usr/bin/bc ]"))
		SKIP(return, "no /usr/bin/bc");
	ASSERT_EQ(0, fr_sh("cd %s && echo 'scale=1500; 4*a(1)' > pi.bc && %s --skip 1 -q "
			   "-o bc.flrc -- /usr/bin/bc -lq pi.bc < /dev/null > bc.live 2>&1",
			   dir, ptsnap));
	n = readlink("/proc/self/ns/mnt", self_mnt, sizeof(self_mnt) - 1);
	ASSERT_GT(n, 0);
	self_mnt[n] = 0;
	n = readlink("/proc/self/ns/net", self_net, sizeof(self_net) - 1);
	ASSERT_GT(n, 0);
	self_net[n] = 0;
	if (uid)
		ASSERT_EQ(0, fr_sh("chown -R %u:%u %s", uid, uid, dir));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int err;

		if (chdir(dir))
			_exit(126);
		if (uid && (setgroups(0, NULL) || setgid(uid) || setuid(uid)))
			_exit(125);
		/* then the namespaces cannot be joined: they are made again */
		if (how == NS_NO_SETNS && (refuse_setns() || setns(0, 0) != -1 ||
					   errno != ENOSYS))
			_exit(123);
		/* a mount namespace of its own without /proc (the loader named) */
		if (how == NS_NO_PROC) {
			char ldr[PATH_MAX + 64], *slash;

			snprintf(ldr, sizeof(ldr), "%s", flightrec);
			slash = strrchr(ldr, '/');
			if (!getenv("FLIGHTREC_LOADER") && slash)
				snprintf(slash, sizeof(ldr) - (slash - ldr), "/loader/flightrec-loader");
			if (!getenv("FLIGHTREC_LOADER"))
				setenv("FLIGHTREC_LOADER", ldr, 1);
			/*
			 * An empty tmpfs over /proc, not an unmount: in the
			 * test VM the directory under it is the host's,
			 * whose /proc shows through 9p.
			 */
			if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
			    mount("none", "/proc", "tmpfs", MS_NOSUID | MS_NODEV, "size=4k") ||
			    !access("/proc/self", F_OK))
				_exit(122);
		}
		err = open("ns.err", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (err < 0 || dup2(err, 2) < 0)
			_exit(124);
		execl(flightrec, "flightrec", "replay", "bc.flrc", "--output", "bc.rep",
		      (char *)NULL);
		_exit(127);
	}
	/* until the loader runs (its name) and for a while in it */
	for (i = 0; i < 3000 && seen < 3; i++) {
		char mnt[64], net[64], comm[32] = "";
		ssize_t m, k;

		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		if (fr_read_file(path, comm, sizeof(comm)) <= 0)
			break;
		snprintf(path, sizeof(path), "/proc/%d/ns/mnt", pid);
		m = readlink(path, mnt, sizeof(mnt) - 1);
		snprintf(path, sizeof(path), "/proc/%d/ns/net", pid);
		k = readlink(path, net, sizeof(net) - 1);
		if (!strncmp(comm, "flightrec-loade", 15) && m > 0 && k > 0) {
			char kids[64] = "x";

			mnt[m] = 0;
			net[k] = 0;
			EXPECT_STRNE(self_mnt, mnt);
			EXPECT_STRNE(self_net, net);
			/* its root: the empty tmpfs it joined, nothing in it */
			EXPECT_EQ(0, fr_sh("[ -d /proc/%d/root/. ] && [ -z \"$(ls -A /proc/%d/root/)\" ]",
					   pid, pid)) fr_sh("ls -la /proc/%d/root/ >&2", pid);
			/* the child that made the namespaces is gone */
			snprintf(path, sizeof(path), "/proc/%d/task/%d/children", pid, pid);
			EXPECT_EQ(0, fr_read_file(path, kids, sizeof(kids)))
				TH_LOG("children: %s", kids);
			seen++;
		}
		usleep(2000);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_GT(seen, 0) TH_LOG("never saw the loader running");
	EXPECT_EQ(0, fr_sh("cmp %s/bc.live %s/bc.rep/fd1.out", dir, dir));
	EXPECT_FALSE(has(dir, "ns.err", "no namespace sandbox here"))
		fr_sh("cat %s/ns.err >&2", dir);
}

TEST_F_TIMEOUT(sandbox, replay_in_namespaces, 300)
{
	replay_ns_case(_metadata, self->dir, 0, NS_PLAIN);
}

TEST_F_TIMEOUT(sandbox, replay_in_namespaces_no_setns, 300)
{
	replay_ns_case(_metadata, self->dir, 0, NS_NO_SETNS);
}

/*
 * Without /proc, root's namespaces (mount and network: no id map to
 * write) are made all the same.  Where the kernel gives root a user
 * namespace, its id map needs /proc: nothing to test there.
 */
TEST_F_TIMEOUT(sandbox, replay_in_namespaces_no_proc, 300)
{
	if (!fr_sh("unshare -U true 2> /dev/null"))
		SKIP(return, "root gets a user namespace here, whose id map needs /proc");
	replay_ns_case(_metadata, self->dir, 0, NS_NO_PROC);
}

/*
 * The same as an unprivileged user (nobody): the namespaces are the
 * kernel's unprivileged user namespaces, where it has them.
 */
TEST_F_TIMEOUT(sandbox, replay_in_namespaces_unprivileged, 300)
{
	if (fr_sh("setpriv --reuid=65534 --regid=65534 --clear-groups unshare -U -r -m -n true "
		  "2> /dev/null"))
		SKIP(return, "this kernel allows no unprivileged user namespace "
		     "(kernel.unprivileged_userns_clone or a policy)");
	replay_ns_case(_metadata, self->dir, 65534, NS_PLAIN);
}

/* SIGQUIT to argv run in DIR/SUB with core files allowed; the wait status */
static int quit_in(const char *dir, const char *sub, char *const argv[], bool wait_loader)
{
	char path[PATH_MAX + 64], comm[32];
	int status, i;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	if (mkdir(path, 0700))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };

		if (chdir(path) || setrlimit(RLIMIT_CORE, &rl))
			_exit(126);
		/* the dumpable flag itself, not the empty root's read-only cwd */
		setenv("FLIGHTREC_NO_NAMESPACES", "1", 1);
		execv(argv[0], argv);
		_exit(127);
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	for (i = 0; wait_loader && i < 3000; i++) {	/* until it runs the program */
		if (fr_read_file(path, comm, sizeof(comm)) <= 0 ||
		    !strncmp(comm, "flightrec-loade", 15))
			break;
		usleep(10000);
	}
	usleep(500000);
	kill(pid, SIGQUIT);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

/*
 * A replay killed by a signal leaves no core file: a core holds the
 * application's memory (the loader is not dumpable outside gdb).  The
 * checkpoint spins (`jmp .` at its entry) until SIGQUIT comes; `sleep`
 * killed the same way shows that this system does write core files.
 */
TEST_F_TIMEOUT(sandbox, killed_replay_no_core, 120)
{
	char *const sleep_argv[] = { "/bin/sleep", "30", NULL };
	char *const replay_argv[] = { flightrec, "replay", "-q", "--out", "out",
				      "../spin.flrc", NULL };
	int status;

	ASSERT_EQ(0, craft(self->dir, "spin", "-", "spin.flrc"));
	status = quit_in(self->dir, "control", sleep_argv, false);
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGQUIT);
	if (!WCOREDUMP(status))
		SKIP(return, "a process killed by SIGQUIT leaves no core here (core_pattern, limits)");
	status = quit_in(self->dir, "run", replay_argv, true);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGQUIT)
		TH_LOG("replay status %#x", status);
	EXPECT_FALSE(WCOREDUMP(status));
	EXPECT_NE(0, fr_sh("ls %s/run | grep -q core", self->dir));
}

/* the one escaping helper, byte by byte */
/* issue 27.6: --output DIR makes its missing parents (0700), -o is its short form */
TEST_F_TIMEOUT(sandbox, out_dir_parents, 120)
{
	EXPECT_EQ(0, fr_sh("cd %s && umask 022 && %s replay -q cn.flrc --output a/b/c "
			   "> p1.out 2> p1.err", self->dir, flightrec)) {
		fr_sh("cat %s/p1.err >&2", self->dir);
	}
	EXPECT_EQ(0700, mode_of(self->dir, "a") & 07777);
	EXPECT_EQ(0700, mode_of(self->dir, "a/b") & 07777);
	EXPECT_EQ(0700, mode_of(self->dir, "a/b/c") & 07777);
	EXPECT_EQ(0, fr_sh("cmp %s/cn.live %s/a/b/c/fd1.out", self->dir, self->dir));
	EXPECT_EQ(0, fr_sh("cd %s && %s replay -q cn.flrc -o x//y/ > p2.out 2> p2.err && "
			   "cmp cn.live x/y/fd1.out", self->dir, flightrec));
	/* a parent that is a file: a clear error */
	ASSERT_EQ(0, fr_sh("cd %s && : > plain", self->dir));
	EXPECT_EQ(FR_EXIT_FAIL, fr_sh("cd %s && %s replay -q cn.flrc -o plain/d/e "
				      "> p3.out 2> p3.err", self->dir, flightrec));
	EXPECT_TRUE(has(self->dir, "p3.err", "cannot create directory plain/d: Not a directory"));
}

/* issue 27.6: a number that is not one is refused, not read as 0 */
TEST_F_TIMEOUT(sandbox, numbers_refused, 120)
{
	static const char *const bad[] = {
		"replay cn.flrc --from abc", "replay cn.flrc --from 1x",
		"replay cn.flrc --from -1", "gdb cn.flrc --from abc",
		"log cn.flrc --tid abc", "log cn.flrc --tid 0",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(FR_EXIT_USAGE, fr_sh("cd %s && FLIGHTREC_GDB=/bin/false %s %s "
					       "> n.out 2> n.err", self->dir, flightrec, bad[i]))
			TH_LOG("flightrec %s", bad[i]);
		EXPECT_TRUE(has(self->dir, "n.err", "abc") || has(self->dir, "n.err", "1x") ||
			    has(self->dir, "n.err", "-1") || has(self->dir, "n.err", "'0'"))
			TH_LOG("flightrec %s", bad[i]);
		EXPECT_EQ(-1, access("n.rep", F_OK));
	}
	EXPECT_TRUE(has(self->dir, "n.err", "--tid needs a thread id, not '0'"));
}

/*
 * issue 27.6: flightrec gdb exits with the replay's status (gdb's own is 0
 * after a batch run), and paths with spaces and quotes reach gdb whole.
 */
TEST_F_TIMEOUT(sandbox, gdb_status_and_paths, 300)
{
	char pwned[600];

	if (fr_sh("command -v gdb > /dev/null"))
		SKIP(return, "no gdb");
	ASSERT_EQ(0, fr_sh("printf 'continue\\ncontinue\\n' > %s/g.cmds", self->dir));
	/* the recorded crash happens again: 0 */
	ASSERT_EQ(0, fr_sh("cd %s && mkdir 'my \"dir' && cp cn.flrc 'my \"dir/c n.flrc'",
			   self->dir));
	EXPECT_EQ(0, fr_sh("cd %s && %s gdb 'my \"dir/c n.flrc' --batch g.cmds "
			   "--output 'out dir\\x' > g1.out 2>&1", self->dir, flightrec)) {
		fr_sh("tail -20 %s/g1.out >&2", self->dir);
	}
	EXPECT_TRUE(has(self->dir, "g1.out", "Program received signal SIGSEGV"));
	EXPECT_EQ(0, fr_sh("cmp %s/cn.live '%s/out dir\\x/fd1.out'", self->dir, self->dir));
	/* a replay the sandbox ends: its 7, not gdb's 0 */
	snprintf(pwned, sizeof(pwned), "%s/pwned", self->dir);
	ASSERT_EQ(0, craft(self->dir, "jump-loader", pwned, "jump.flrc"));
	EXPECT_EQ(FR_EXIT_BLOCKED, fr_sh("cd %s && %s gdb jump.flrc --batch g.cmds -o g2.rep "
					 "> g2.out 2>&1", self->dir, flightrec));
	EXPECT_EQ(-1, access(pwned, F_OK));
}

/*
 * issue 27.6: the bash completion offers every long option each command's
 * code accepts (read from its getopt table in user/cmd/), and nothing else.
 */
TEST_F_TIMEOUT(sandbox, completion_every_option, 300)
{
	const char *top = getenv("FR_TOP");
	char src[PATH_MAX];

	snprintf(src, sizeof(src), "%s", top ? top : "../..");
	if (fr_sh("command -v bash > /dev/null"))
		SKIP(return, "no bash");
	/* one bash for all the commands: each one is slow under TCG */
	EXPECT_EQ(0, fr_sh("cd %s && T=$(mktemp -d) && "
			   "for f in user/cmd/*.c; do awk '/^int cmd_/ { c = $2; sub(/^cmd_/, \"\", c);"
			   " sub(/\\(.*/, \"\", c) } /\\{ \"[a-z-]+\", (no|required|optional)_argument/ "
			   "{ match($0, /\"[a-z-]+\"/); o = substr($0, RSTART + 1, RLENGTH - 2);"
			   " if (o != \"help\") print c, \"--\" o }' $f; done | sort > $T/code && "
			   "[ -s $T/code ] && "
			   "PATH=$(dirname %s):$PATH bash -c '. user/bash-completion/flightrec; "
			   "for c in \"$@\"; do COMP_WORDS=(flightrec $c --); COMP_CWORD=2; "
			   "_flightrec flightrec; printf \"$c %%s\\n\" \"${COMPREPLY[@]}\"; done' _ "
			   "$(cut -d' ' -f1 $T/code | sort -u) | grep -v ' --help$' "
			   "| sort > $T/compl && diff $T/code $T/compl; r=$?; rm -rf $T; exit $r",
			   src, flightrec));
}

/*
 * issue 27.3: flightrec log shows the paths a call passed in where the
 * checkpoint's pages hold exactly what the kernel read (their hash is the
 * recorded in_hash), and never another path: side by side with strace on
 * the same program, every path the log shows is one strace shows for that
 * call, and ld.so's own constant paths are shown.  -e trace=SET filters as
 * strace's does, and an unknown name is refused.
 */
TEST_F_TIMEOUT(sandbox, log_paths_beside_strace, 300)
{
	if (fr_sh("command -v strace > /dev/null"))
		SKIP(return, "no strace (scripts/deps.sh installs it)");
	ASSERT_EQ(0, fr_sh("cd %s && %s --skip 0 -q -o cat.flrc -- /bin/cat /etc/hostname "
			   "> cat.live 2>&1", self->dir, ptsnap));
	ASSERT_EQ(0, fr_sh("cd %s && strace -qq -e trace=openat,access -o cat.strace "
			   "/bin/cat /etc/hostname > /dev/null", self->dir));
	ASSERT_EQ(0, fr_sh("cd %s && %s log --by-thread -e trace=openat,access cat.flrc > cat.log",
			   self->dir, flightrec));
	/* ld.so's constant strings, as strace prints them */
	EXPECT_TRUE(fr_file_contains(self->dir, "cat.log",
			     "openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 3"));
	EXPECT_TRUE(fr_file_contains(self->dir, "cat.strace",
			     "openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 3"));
	/* every quoted path of the log is in strace's lines (never a wrong one) */
	EXPECT_EQ(0, fr_sh("cd %s && grep -o '^[a-z]*(AT_FDCWD, \"[^\"]*\"\\|^access(\"[^\"]*\"' "
			   "cat.log | sort -u > shown && [ -s shown ] && "
			   "while read -r l; do grep -qF -- \"$l\" cat.strace || "
			   "{ echo \"not in strace: $l\"; exit 1; }; done < shown", self->dir));
	/* the filter: only those calls (and pseudo records) */
	EXPECT_NE(0, fr_sh("cd %s && grep -q '^read(\\|^mmap(' cat.log", self->dir));
	ASSERT_EQ(0, fr_sh("cd %s && %s log --by-thread -e 'trace=!openat' cat.flrc > nopen.log",
			   self->dir, flightrec));
	EXPECT_NE(0, fr_sh("cd %s && grep -q '^openat(' nopen.log", self->dir));
	EXPECT_EQ(0, fr_sh("cd %s && grep -q '^read(' nopen.log", self->dir));
	/* --json: json-c's document, the same calls and lines, in sequence order */
	ASSERT_EQ(0, fr_sh("cd %s && %s log --json -e trace=openat,access cat.flrc > cat.json && "
			   "%s log --merged -e trace=openat,access cat.flrc > cat.merged",
			   self->dir, flightrec, flightrec));
	EXPECT_EQ(0, fr_sh("cd %s && python3 -c '\n"
			   "import json\n"
			   "d = json.load(open(\"cat.json\", encoding=\"utf-8\"))\n"
			   "lines = [l.split(None, 2)[2].rstrip(\"\\n\") for l in open(\"cat.merged\")\n"
			   "         if l[:6].strip().isdigit()]\n"
			   "calls = d[\"calls\"]\n"
			   "assert [c[\"text\"] for c in calls] == lines, (calls[:2], lines[:2])\n"
			   "assert [c[\"seq\"] for c in calls] == sorted(c[\"seq\"] for c in calls)\n"
			   "o = [c for c in calls if c[\"name\"] == \"openat\"]\n"
			   "assert o and o[0][\"args\"][0] == \"0xffffff9c\", o[0]\n"
			   "assert d[\"end\"][\"kind\"] == \"exit\", d[\"end\"]\n"
			   "' 2> py.err", self->dir)) {
		fr_sh("cat %s/py.err >&2", self->dir);
	}
	/* interleaved by default (strace -f's order), as --merged; --by-thread groups */
	EXPECT_EQ(0, fr_sh("cd %s && %s log cat.flrc > d.log && %s log --merged cat.flrc > m.log && "
			   "cmp d.log m.log && grep -q '^ *[0-9][0-9]* [0-9][0-9]* openat(AT_FDCWD, ' d.log && "
			   "! grep -q '^== thread' d.log && grep -q '^== thread ' cat.log",
			   self->dir, flightrec, flightrec));
	EXPECT_EQ(FR_EXIT_USAGE, fr_sh("cd %s && %s log -e trace=nosuchcall cat.flrc "
				       "> bad.out 2> bad.err", self->dir, flightrec));
	EXPECT_TRUE(fr_file_contains(self->dir, "bad.err", "'nosuchcall' is neither a system call"));
	/*
	 * -y: descriptors with the path they were opened on, as strace -y
	 * shows them (strace resolves links: the same file, realpath'd)
	 */
	ASSERT_EQ(0, fr_sh("cd %s && strace -y -qq -o cat.ystrace /bin/cat /etc/hostname "
			   "> /dev/null && %s log -y cat.flrc > cat.ylog && "
			   "%s log cat.flrc > cat.nylog", self->dir, flightrec, flightrec));
	EXPECT_TRUE(fr_file_contains(self->dir, "cat.ylog", "close(3</etc/ld.so.cache>) = 0"));
	EXPECT_TRUE(fr_file_contains(self->dir, "cat.ystrace", "close(3</etc/ld.so.cache>)"));
	EXPECT_TRUE(fr_file_contains(self->dir, "cat.ylog",
			     "O_RDONLY|O_CLOEXEC) = 3</etc/ld.so.cache>"));
	EXPECT_FALSE(fr_file_contains(self->dir, "cat.nylog", "3</etc/ld.so.cache>"));
	EXPECT_EQ(0, fr_sh("cd %s && python3 -c '\n"
			   "import os, re\n"
			   "ours = set(re.findall(r\"\\b(\\d+)<(/[^>]*)>\", open(\"cat.ylog\").read()))\n"
			   "theirs = set(re.findall(r\"\\b(\\d+)<(/[^>]*)>\", open(\"cat.ystrace\").read()))\n"
			   "assert ours, \"no fd path shown\"\n"
			   "bad = [(n, p) for n, p in ours if (n, os.path.realpath(p)) not in theirs]\n"
			   "assert not bad, bad\n"
			   "' 2> py.err", self->dir)) {
		fr_sh("cat %s/py.err >&2", self->dir);
	}
	EXPECT_EQ(FR_EXIT_USAGE, fr_sh("cd %s && %s log -y 1 > /dev/null 2> y.err",
				       self->dir, flightrec));
	/*
	 * -r: every call line starts with the time since the previous one's
	 * entry, as strace -r; their sum is the span of the JSON's entry times
	 */
	ASSERT_EQ(0, fr_sh("cd %s && %s log -r cat.flrc > r.log && %s log --json cat.flrc > all.json",
			   self->dir, flightrec, flightrec));
	EXPECT_EQ(0, fr_sh("cd %s && python3 -c '\n"
			   "import json, re\n"
			   "calls = json.load(open(\"all.json\"))[\"calls\"]\n"
			   "t = [c[\"time_ns\"] for c in calls]\n"
			   "assert len(t) > 10 and t == sorted(t), t[:5]\n"
			   "lines = [l for l in open(\"r.log\") if re.match(r\" *[0-9]+[.][0-9]{6} +[0-9]+ [0-9]+ \", l)]\n"
			   "assert len(lines) == len(calls), (len(lines), len(calls))\n"
			   "us = sum(int(l.split()[0].replace(\".\", \"\")) for l in lines)\n"
			   "span = (t[-1] - t[0]) // 1000\n"
			   "assert abs(us - span) <= len(lines), (us, span)\n"
			   "' 2> py.err", self->dir)) {
		fr_sh("cat %s/py.err >&2", self->dir);
	}
}

/*
 * issue 27.4: info --json is made by json-c, holds the memory map and each
 * thread's registers with addresses as hex strings; extract gives the
 * bytes of memory as of an interval start: the code page of crash_null
 * is its file's bytes at the mapping's offset.
 */
TEST_F_TIMEOUT(sandbox, info_json_and_extract, 120)
{
	ASSERT_EQ(0, fr_sh("cd %s && %s info --json cn.flrc > j.out 2> j.err", self->dir,
			   flightrec));
	EXPECT_EQ(0, fr_sh("cd %s && python3 -c '\n"
			   "import json, sys\n"
			   "d = json.load(open(\"j.out\", encoding=\"utf-8\"))\n"
			   "e = d[\"end\"]\n"
			   "assert e[\"kind\"] == \"fault\" and e[\"signal\"] == \"SIGSEGV\", e\n"
			   "assert e[\"fault_addr\"] == \"0x8\", e\n"
			   "assert e[\"regs\"][\"rip\"].startswith(\"0x\") and len(e[\"regs\"]) == 23\n"
			   "m = [x for x in d[\"maps\"] if x.get(\"path\", \"\").endswith(\"/crash_null\")]\n"
			   "assert m and all(int(x[\"start\"], 16) < int(x[\"end\"], 16) for x in m), m\n"
			   "assert any(x[\"perms\"] == \"r-xp\" for x in m), m\n"
			   "t = d[\"threads\"]\n"
			   "assert t and t[0][\"tid\"] == e[\"tid\"] and len(t[0][\"regs\"]) == 23, t\n"
			   "assert d[\"tids\"] == [e[\"tid\"]]\n"
			   "x = [x for x in m if x[\"perms\"] == \"r-xp\"][0]\n"
			   "open(\"code.args\", \"w\").write(\"%%s %%d %%d\\n\" %% (x[\"start\"],\n"
			   "    int(x[\"end\"], 16) - int(x[\"start\"], 16), int(x[\"offset\"], 16)))\n"
			   "' 2> py.err", self->dir)) {
		fr_sh("cat %s/py.err >&2; head -c 600 %s/j.out >&2", self->dir, self->dir);
	}
	/* from a pipe: the size read, not stat()'s 0 */
	EXPECT_EQ(0, fr_sh("cd %s && cat cn.flrc | %s info /dev/stdin | head -1 | "
			   "grep -q \"format 1, $(stat -c %%s cn.flrc) bytes$\"", self->dir,
			   flightrec));
	/* the code as of the interval start is the program file's bytes */
	EXPECT_EQ(0, fr_sh("cd %s && read a l o < code.args && "
			   "%s extract cn.flrc $a $l --raw > code.bin && "
			   "dd if=%s bs=1 skip=$o count=$l 2>/dev/null | cmp - code.bin",
			   self->dir, flightrec, fr_prog("crash_null")));
	/* a page it never touched: ?? in the dump, refused with --raw */
	EXPECT_EQ(0, fr_sh("cd %s && %s extract cn.flrc 0x1000 16 > x.out && "
			   "grep -q '^0000000000001000:  ?? ?? ?? ?? ?? ?? ?? ??  ?? ' x.out",
			   self->dir, flightrec));
	EXPECT_EQ(FR_EXIT_FAIL, fr_sh("cd %s && %s extract cn.flrc 0x1000 16 --raw "
				      "> x.bin 2> x.err", self->dir, flightrec));
	EXPECT_TRUE(has(self->dir, "x.err", "0x1000: the checkpoint does not hold that page"));
	EXPECT_EQ(FR_EXIT_USAGE, fr_sh("cd %s && %s extract cn.flrc 0x1000 0 2> x.err",
				       self->dir, flightrec));
	EXPECT_EQ(FR_EXIT_FAIL, fr_sh("cd %s && %s extract cn.flrc 0x1000 1 --interval 99 "
				      "2> x.err", self->dir, flightrec));
	EXPECT_TRUE(has(self->dir, "x.err", "the file has no interval 99"));
}

/*
 * issue 27.5: replay --core writes an ELF core of the application at the
 * recorded end that gdb opens with the program: the crashing frame and its
 * caller with their source lines, the signal and address, the libraries
 * (NT_AUXV, NT_FILE).  0600, never over a file or through a symlink.
 */
TEST_F_TIMEOUT(sandbox, core_file, 180)
{
	if (fr_sh("command -v gdb > /dev/null && command -v readelf > /dev/null"))
		SKIP(return, "no gdb or readelf");
	ASSERT_EQ(0, fr_sh("cd %s && umask 0 && %s replay -q cn.flrc -o c.rep --core cn.core "
			   "> c.out 2> c.err", self->dir, flightrec)) {
		fr_sh("cat %s/c.err >&2", self->dir);
	}
	EXPECT_EQ(0600, mode_of(self->dir, "cn.core") & 07777);
	EXPECT_EQ(0, fr_sh("cd %s && readelf -h cn.core | grep -q 'Type:.*CORE' && "
			   "readelf -n cn.core > notes && for n in NT_PRSTATUS NT_FPREGSET "
			   "NT_PRPSINFO NT_SIGINFO NT_AUXV NT_FILE; do grep -q $n notes || "
			   "{ echo missing $n; exit 1; }; done", self->dir));
	EXPECT_EQ(0, fr_sh("cd %s && gdb -q -nx -batch -ex bt -ex 'p $_siginfo.si_signo' "
			   "-ex 'p $_siginfo._sifields._sigfault.si_addr' -ex 'info sharedlibrary' "
			   "%s cn.core > g.out 2>&1", self->dir, fr_prog("crash_null")));
	EXPECT_TRUE(has(self->dir, "g.out", "#0  0x"));
	EXPECT_TRUE(has(self->dir, "g.out", " in lookup (r=0x0) at progs/crash_null.c:32"));
	EXPECT_TRUE(has(self->dir, "g.out", " in main (argc=2, "));
	EXPECT_TRUE(has(self->dir, "g.out", "$1 = 11"));
	EXPECT_TRUE(has(self->dir, "g.out", "$2 = (void *) 0x8"));
	EXPECT_TRUE(has(self->dir, "g.out", "libc.so.6"));
	if (!has(self->dir, "g.out", " in lookup (r=0x0)"))
		fr_sh("cat %s/g.out >&2", self->dir);
	/* the same name again: refused, the first core untouched */
	EXPECT_EQ(FR_EXIT_FAIL, fr_sh("cd %s && cp cn.core keep && %s replay -q cn.flrc -o c2.rep "
				      "--core cn.core > c2.out 2> c2.err && exit 9; cmp -s cn.core keep "
				      "&& exit 1", self->dir, flightrec));
	EXPECT_TRUE(has(self->dir, "c2.err", "cannot create the core file cn.core: File exists"));
	ASSERT_EQ(0, fr_sh("cd %s && printf precious > target && ln -s target core.lnk", self->dir));
	EXPECT_EQ(FR_EXIT_FAIL, fr_sh("cd %s && %s replay -q cn.flrc -o c3.rep --core core.lnk "
				      "> c3.out 2> c3.err", self->dir, flightrec));
	/* --force replaces the link itself, never its target */
	EXPECT_EQ(0, fr_sh("cd %s && %s replay -q cn.flrc -o c4.rep --core core.lnk --force "
			   "> c4.out 2> c4.err && [ \"$(cat target)\" = precious ] && "
			   "[ ! -L core.lnk ] && [ -s core.lnk ]", self->dir, flightrec));
}

TEST(escape)
{
	char b[64], small[8];

	EXPECT_STREQ("plain /usr/bin/x-1.2", fr_escape("plain /usr/bin/x-1.2", b, sizeof(b)));
	EXPECT_STREQ("\\x1b]0;t\\x07\\x1b[2J\\x7f", fr_escape("\033]0;t\007\033[2J\177", b,
								 sizeof(b)));
	EXPECT_STREQ("a\\\\b\\x0a", fr_escape("a\\b\n", b, sizeof(b)));
	/* valid UTF-8 stays; invalid, overlong, surrogates and C1 controls do not */
	EXPECT_STREQ("caf\xc3\xa9 \xe2\x82\xac", fr_escape("caf\xc3\xa9 \xe2\x82\xac", b, sizeof(b)));
	EXPECT_STREQ("\\xff\\xc0\\xaf\\xed\\xa0\\x80\\xc2\\x9b",
		     fr_escape("\xff\xc0\xaf\xed\xa0\x80\xc2\x9b", b, sizeof(b)));
	/* cut with "...", after a whole piece, and only when something follows */
	EXPECT_STREQ("abcd...", fr_escape("abcdefghij", small, sizeof(small)));
	EXPECT_STREQ("abcdefg", fr_escape("abcdefg", small, sizeof(small)));
	EXPECT_STREQ("\\x1b...", fr_escape("\033\033\033", small, sizeof(small)));
	EXPECT_STREQ("(null)", fr_escape(NULL, b, sizeof(b)));
}

/* the namespaces replay runs in: an empty read-only root, no network */
TEST(empty_root)
{
	int status;
	pid_t pid = fork();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(9) };
		char err[256];
		int s;

		if (fr_empty_root(FR_ROOT_NET, err, sizeof(err)) < 0) {
			fprintf(stderr, "fr_empty_root: %s\n", err);
			_exit(77);
		}
		if (!access("/usr", F_OK) || !access("/proc/self", F_OK) || !access("/tmp", F_OK))
			_exit(1);
		if (!mkdir("/x", 0700) || errno != EROFS)
			_exit(2);
		sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		s = socket(AF_INET, SOCK_STREAM, 0);
		if (s < 0 || !connect(s, (struct sockaddr *)&sa, sizeof(sa)) ||
		    errno != ENETUNREACH)
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		SKIP(return, "no user namespaces here");
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
