// SPDX-License-Identifier: GPL-2.0
/*
 * replay_module: the whole path with the real recorder.  Programs run under
 * `flightrec record` (the module records them from exec), the checkpoint it
 * writes is replayed by `flightrec replay`, and the replay must write the
 * same bytes and end the same way: the same fault at the same instruction,
 * or the same exit status.
 *
 * The rings are large enough (keep x interval_ms) to hold each run from its
 * first instruction, so the replayed output is the whole live output.
 *
 * With FR_PORT_DIR set (scripts/check.sh sets it for the VM run), every
 * checkpoint that replayed here is also left there with its live output and
 * the end replay must report, for tests/replay_portable.c to replay on the
 * host: another kernel, another CPU, an empty root.
 */
#include "kselftest_harness.h"
#include "fr_test.h"
#include "checkpoint.h"
#include "flightrec.h"
#include "libflightrec.h"
#include "syscalls.h"
#include "flightrec_inhash.h"
#include <stdarg.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <inttypes.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/futex.h>

static char top[PATH_MAX];


static int same_files(const char *a, const char *b)
{
	return fr_sh("cmp -s '%s' '%s'", a, b) == 0;
}

/* same_files() of two files in dir */
static int same_files2(const char *dir, const char *a, const char *b)
{
	return fr_sh("cd '%s' && cmp -s '%s' '%s'", dir, a, b) == 0;
}

FIXTURE(rm) {
	char dir[64];
};

FIXTURE_SETUP(rm)
{
	const char *t = getenv("FR_TOP");
	const char *only = getenv("FR_RM_ONLY");
	char word[80];

	/*
	 * FR_RM_ONLY=" NAME NAME ": only those cases (to repeat a few).  This
	 * harness runs the body after a SKIP in the setup: back to its setjmp.
	 */
	snprintf(word, sizeof(word), " %s ", _metadata->name);
	if (only && !strstr(only, word))
		SKIP(longjmp(_metadata->env, 1), "not in FR_RM_ONLY");
	FR_REQUIRE_MODULE();
	snprintf(top, sizeof(top), "%s", t ? t : "../..");
	ASSERT_EQ(0, fr_mkdtemp(self->dir, sizeof(self->dir)));
	ASSERT_EQ(0, fr_sh("head -c 100000 /dev/urandom > %s/data.bin", self->dir));
}

FIXTURE_TEARDOWN(rm)
{
	if (self->dir[0] && !getenv("FR_KEEP"))
		fr_sh("rm -rf %s", self->dir);
}

/*
 * Records CMD (a shell command line run in dir, its stdout to NAME.live),
 * returns record's exit status; the checkpoint is DIR/NAME/ *.flrc.
 */
static int record(const char *dir, const char *name, const char *opts, const char *cmd)
{
	return fr_sh("cd %s && mkdir -p %s && %s/user/flightrec record -o %s %s -- %s "
		  "> %s.live 2> %s.liveerr", dir, name, top, name, opts, cmd, name, name);
}

/* Replays the one checkpoint in DIR/NAME; output in NAME.rep, messages in NAME.rerr. */
static int replay(const char *dir, const char *name)
{
	return fr_sh("cd %s && f=$(ls -v %s/*.flrc | head -1) && [ -n \"$f\" ] && "
		  "%s/user/flightrec replay \"$f\" --out %s.rep > %s.rout 2> %s.rerr",
		  dir, name, top, name, name, name);
}

static int rerr_has(const char *dir, const char *name, const char *needle)
{
	return fr_sh("grep -qF -- '%s' %s/%s.rerr", needle, dir, name) == 0;
}

static void show(const char *dir, const char *name)
{
	fr_sh("echo '--- %s.liveerr'; tail -5 %s/%s.liveerr; echo '--- %s.rerr'; tail -8 %s/%s.rerr",
	   name, dir, name, name, dir, name);
}

/* The checkpoint, its live output and its expected end, for the host. */
static void export(const char *dir, const char *name, const char *end)
{
	const char *port = getenv("FR_PORT_DIR");

	if (!port)
		return;
	/* the checkpoint replay() took (a child the program forked has its own) */
	fr_sh("mkdir -p %s && f=$(ls -v %s/%s/*.flrc | head -1) && cp \"$f\" %s/%s.flrc && "
	   "cp %s/%s.live %s/%s.live && printf '%%s\\n' '%s' > %s/%s.end", port, dir, name,
	   port, name, dir, name, port, name, end, port, name);
}

static void check_output(struct __test_metadata *_metadata, const char *dir, const char *name)
{
	char live[256], rep[256];

	snprintf(live, sizeof(live), "%s/%s.live", dir, name);
	snprintf(rep, sizeof(rep), "%s/%s.rep/fd1.out", dir, name);
	if (fr_sh("test -s %s", live) == 0) {
		EXPECT_TRUE(same_files(live, rep)) {
			show(dir, name);
			fr_sh("ls -la %s/%s.rep; cmp %s %s | head -3", dir, name, live, rep);
		}
	}
}

/* A crash: record's status is the program's (128 + signal), replay reproduces it. */
static void crash(struct __test_metadata *_metadata, const char *dir, const char *name,
		  const char *prog, const char *args, int sig, const char *signame)
{
	char cmd[PATH_MAX + 512], want[64];
	struct flrc *c;
	char path[512], err[256];

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/%s %s", top, prog, args);
	ASSERT_EQ(128 + sig, record(dir, name, "--interval-ms 1000 --keep 16", cmd)) show(dir, name);
	ASSERT_EQ(0, fr_sh("ls %s/%s/*.flrc > /dev/null", dir, name)) TH_LOG("no checkpoint written");
	ASSERT_EQ(0, fr_sh("f=$(ls %s/%s/*.flrc) && test \"$(stat -c %%a $f)\" = 600", dir, name))
		TH_LOG("the checkpoint is not mode 0600");
	EXPECT_EQ(0, replay(dir, name)) show(dir, name);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ASSERT_EQ(0, fr_sh("cp %s/*.flrc %s/one.flrc 2>/dev/null || true", path, dir));
	snprintf(path, sizeof(path), "%s/one.flrc", dir);
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_NE(NULL, c->end);
	ASSERT_NE(NULL, c->end->regs);
	EXPECT_EQ((uint32_t)sig, c->end->signo);
	/*
	 * The module hashed the data each call passed in (paths, written
	 * bytes...); replay checked every hash and found no divergence.
	 */
	size_t hashed = 0;

	for (size_t k = 0; k < c->n_syscalls; k++)
		hashed += c->syscalls[k]->has_in_hash || c->syscalls[k]->has_in_hash_w;
	EXPECT_GE(hashed, 5) TH_LOG("%zu of %zu syscalls carry in_hash", hashed, c->n_syscalls);
	snprintf(want, sizeof(want), "reproduced %s at rip 0x%llx", signame,
		 (unsigned long long)c->end->regs->rip);
	EXPECT_TRUE(rerr_has(dir, name, want)) TH_LOG("want '%s'", want);
	EXPECT_TRUE(rerr_has(dir, name, "as recorded"));
	flrc_free(c);
	fr_sh("rm -f %s/one.flrc", dir);
	check_output(_metadata, dir, name);
	if (!_metadata->passed)
		return;
	export(dir, name, want);
}

TEST_F_TIMEOUT(rm, null_deref, 300)
{
	char args[128];

	snprintf(args, sizeof(args), "%s/data.bin", self->dir);
	crash(_metadata, self->dir, "null", "crash_null", args, SIGSEGV, "SIGSEGV");
}

TEST_F_TIMEOUT(rm, heap_overflow, 300)
{
	char args[128];

	snprintf(args, sizeof(args), "%s/data.bin", self->dir);
	/* glibc's malloc finds the damage and aborts */
	crash(_metadata, self->dir, "heap", "crash_heap", args, SIGABRT, "SIGABRT");
}

TEST_F_TIMEOUT(rm, division_by_zero, 300)
{
	char args[128];

	snprintf(args, sizeof(args), "%s/data.bin", self->dir);
	crash(_metadata, self->dir, "div", "crash_div", args, SIGFPE, "SIGFPE");
}

TEST_F_TIMEOUT(rm, abort, 300)
{
	char args[128];

	snprintf(args, sizeof(args), "%s/data.bin", self->dir);
	crash(_metadata, self->dir, "abrt", "crash_abort", args, SIGABRT, "SIGABRT");
}

/* A real program to its exit: the same output, the same status. */
static void real_program(struct __test_metadata *_metadata, const char *dir,
			 const char *name, const char *opts, const char *cmdline)
{
	char prog[256];
	int r;

	snprintf(prog, sizeof(prog), "%s", cmdline);
	*strchrnul(prog, ' ') = 0;
	if (fr_sh("test -x %s", prog))
		SKIP(return, "%s is not installed", prog);
	ASSERT_EQ(0, record(dir, name, opts, cmdline)) show(dir, name);
	r = replay(dir, name);
	EXPECT_EQ(0, r) show(dir, name);
	EXPECT_TRUE(rerr_has(dir, name, "exited with status 0")) show(dir, name);
	check_output(_metadata, dir, name);
	if (_metadata->passed)
		export(dir, name, "exited with status 0");
}

/* the stack grows over several intervals (and a thread's stack is used) */
TEST_F_TIMEOUT(rm, stack_growth, 300)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/stack_grow", top);
	real_program(_metadata, self->dir, "stack", "--at-exit --interval-ms 100 --keep 60",
		     cmd);
}

/*
 * Children that share the parent's memory until they exec (vfork,
 * posix_spawn): the parent's checkpoint replays (its children did not walk
 * its page tables as processes of their own), and each child has a
 * checkpoint of its own, from its exec, that replays too (issue 25, class 2).
 */
TEST_F_TIMEOUT(rm, vfork_exec, 300)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/vfork_exec /bin/true", top);
	real_program(_metadata, self->dir, "vfork", "--at-exit --interval-ms 1000 --keep 16",
		     cmd);
	EXPECT_EQ(0, fr_sh("test $(ls %s/vfork/*.flrc | wc -l) = 7", self->dir))
		fr_sh("ls %s/vfork; tail -3 %s/vfork.liveerr", self->dir, self->dir);
	EXPECT_EQ(0, fr_sh("cd %s && for f in $(ls -v vfork/*.flrc | tail -n +2); do "
			   "%s/user/flightrec replay $f --out ch.rep > /dev/null 2> ch.rerr && "
			   "grep -q 'exited with status 0 .*as recorded' ch.rerr || "
			   "{ echo $f; tail -3 ch.rerr; exit 1; }; done", self->dir, top));
}

/*
 * Replay across execve (issue 25, class 4).  exec_chain writes in its first
 * image, fails three execs (ENOENT: never parked; EACCES and ENOEXEC:
 * parked, then put back into the ring), execs itself and crashes in the
 * second image.  The checkpoint holds both images (and not record's own
 * child before its exec: START_AT_EXEC); a replay from the first interval
 * writes every line and reproduces the crash; the second image also
 * replays alone.  Before the change the checkpoint held the second image
 * only, and the replay wrote one line of three.
 */
TEST_F_TIMEOUT(rm, exec_chain, 300)
{
	char cmd[PATH_MAX + 64], path[256], err[256], want[96];
	const Flightrec__Header *h1;
	struct flrc *c;

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/exec_chain", top);
	ASSERT_EQ(128 + SIGSEGV, record(self->dir, "ec", "--interval-ms 50 --keep 32", cmd))
		show(self->dir, "ec");
	ASSERT_EQ(0, fr_sh("cd %s && grep -qx 'image 1: errors ENOENT, EACCES, ENOEXEC' ec.live",
			   self->dir)) fr_sh("cat %s/ec.live", self->dir);
	ASSERT_EQ(0, fr_sh("cd %s && cp $(ls ec/*.flrc) ec.flrc", self->dir));
	snprintf(path, sizeof(path), "%s/ec.flrc", self->dir);
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	/* two images: the one before the exec ends there, held at the call */
	ASSERT_NE(NULL, c->before_exec);
	EXPECT_EQ(NULL, c->before_exec->before_exec);
	h1 = c->before_exec->hdr;
	EXPECT_EQ(FLIGHTREC_END_EXEC, c->before_exec->end->kind);
	ASSERT_NE(NULL, c->before_exec->end->regs);
	EXPECT_EQ(__NR_execve, c->before_exec->end->regs->rax);
	EXPECT_EQ(h1->process->pid, c->hdr->process->pid);
	EXPECT_LT(h1->intervals[h1->n_intervals - 1]->index, c->hdr->intervals[0]->index);
	EXPECT_EQ(1, h1->process->n_argv) TH_LOG("image 1's argv: %zu words", h1->process->n_argv);
	EXPECT_EQ(3, c->hdr->process->n_argv);
	/* the failed ones are in image 1's log, with their errors */
	int failed = 0;

	for (size_t k = 0; k < c->before_exec->n_syscalls; k++) {
		const Flightrec__Syscall *s = c->before_exec->syscalls[k];

		if (s->nr == __NR_execve)
			failed |= s->ret == -ENOENT ? 1 : s->ret == -EACCES ? 2 :
				  s->ret == -ENOEXEC ? 4 : 8;
	}
	EXPECT_EQ(7, failed);
	EXPECT_EQ(FLIGHTREC_END_FAULT, c->end->kind);
	ASSERT_NE(NULL, c->end->regs);
	snprintf(want, sizeof(want), "reproduced SIGSEGV at rip 0x%llx",
		 (unsigned long long)c->end->regs->rip);
	uint32_t second = c->hdr->intervals[0]->index;

	flrc_free(c);
	EXPECT_EQ(0, fr_sh("cd %s && %s/user/flightrec info ec.flrc > ec.info && "
			   "grep -q '^== image 1 of 2, before an exec' ec.info && "
			   "grep -q '^end:       exec: execve, the next image follows' ec.info",
			   self->dir, top)) fr_sh("grep -e == -e end: %s/ec.info", self->dir);
	EXPECT_EQ(0, fr_sh("cd %s && %s/user/flightrec log ec.flrc | "
			   "grep -q 'calls execve: the next image follows'", self->dir, top));
	/* from the first interval: through the exec to the crash */
	EXPECT_EQ(0, replay(self->dir, "ec")) show(self->dir, "ec");
	EXPECT_TRUE(rerr_has(self->dir, "ec", "reached the exec: thread"));
	EXPECT_TRUE(rerr_has(self->dir, "ec", want)) TH_LOG("want '%s'", want);
	check_output(_metadata, self->dir, "ec");
	/* the image after the exec, alone */
	EXPECT_EQ(0, fr_sh("cd %s && %s/user/flightrec replay ec.flrc --from %u --out ec2.rep "
			   "2> ec2.rerr && grep -qF '%s' ec2.rerr && grep '^image 2' ec.live | "
			   "cmp - ec2.rep/fd1.out", self->dir, top, second, want))
		fr_sh("tail -3 %s/ec2.rerr", self->dir);
	/*
	 * Under gdb one image: the first one ends at its exec, status 8, and
	 * the replay said so at its start; the second reaches the crash.
	 */
	if (fr_sh("gdb --version > /dev/null 2>&1") == 0) {
		ASSERT_EQ(0, fr_sh("printf 'continue\\n' > %s/ec.cmds", self->dir));
		EXPECT_EQ(FR_EXIT_EXEC, fr_sh("cd %s && %s/user/flightrec gdb ec.flrc --batch "
					      "ec.cmds --out ecg.rep > ecg.out 2>&1",
					      self->dir, top)) fr_sh("tail -5 %s/ecg.out", self->dir);
		EXPECT_EQ(0, fr_sh("cd %s && grep -q 'is in image 1 of 2 .*--from %u replays "
				   "the next image' ecg.out && grep -q 'exited with code 010' ecg.out && "
				   "grep -qx 'image 1: start' ecg.rep/fd1.out", self->dir, second))
			fr_sh("tail -8 %s/ecg.out", self->dir);
		EXPECT_EQ(0, fr_sh("cd %s && %s/user/flightrec gdb ec.flrc --from %u --batch "
				   "ec.cmds --out ecg2.rep > ecg2.out 2>&1; "
				   "grep -q 'Program received signal SIGSEGV' ecg2.out",
				   self->dir, top, second)) fr_sh("tail -8 %s/ecg2.out", self->dir);
	}
	if (_metadata->passed)
		export(self->dir, "ec", want);
}

/*
 * Ten execs, one interval each (60 s intervals: each image's one ends at
 * its park, however slow the machine), a ring of 4 intervals: the
 * checkpoint keeps the last 4 images (each park trims the chain to keep -
 * 1 intervals, the freeze to keep over all images), and a replay from its
 * first interval goes through three execs to the crash, writing the last
 * four stages.  With 1 s intervals an image under load ran two, and the
 * count was the load's.
 */
TEST_F_TIMEOUT(rm, exec_many, 300)
{
	char cmd[PATH_MAX + 64], path[256], err[256];
	const struct flrc *b;
	struct flrc *c;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/exec_many", top);
	ASSERT_EQ(128 + SIGSEGV, record(self->dir, "em", "--interval-ms 60000 --keep 4", cmd))
		show(self->dir, "em");
	ASSERT_EQ(0, fr_sh("cd %s && cp $(ls em/*.flrc) em.flrc", self->dir));
	snprintf(path, sizeof(path), "%s/em.flrc", self->dir);
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	for (b = c; b; b = b->before_exec) {
		n++;
		EXPECT_EQ(1, b->hdr->n_intervals);
		EXPECT_EQ(b == c ? FLIGHTREC_END_FAULT : FLIGHTREC_END_EXEC, b->end->kind);
	}
	EXPECT_EQ(4, n);
	flrc_free(c);
	EXPECT_EQ(0, replay(self->dir, "em")) show(self->dir, "em");
	EXPECT_EQ(0, fr_sh("cd %s && [ $(grep -c 'reached the exec' em.rerr) = 3 ] && "
			   "tail -4 em.live | cmp - em.rep/fd1.out", self->dir))
		fr_sh("cd %s && cat em.rep/fd1.out; tail -3 em.rerr", self->dir);
	EXPECT_TRUE(rerr_has(self->dir, "em", "reproduced SIGSEGV"));
}

/* the FLIGHTREC_NR_PTRACE records of c, at most max; how many */
static size_t ptrace_recs(const struct flrc *c, const Flightrec__Syscall **r, size_t max)
{
	size_t k, n = 0;

	for (k = 0; k < c->n_syscalls; k++) {
		const Flightrec__Syscall *s = c->syscalls[k];

		if (FLIGHTREC_IS_EVENT(s->nr, s->flags, FLIGHTREC_NR_PTRACE) && n++ < max)
			r[n - 1] = s;
	}
	return n;
}

/* the long written by out k of s (a tracer's write), or -1 */
static long out_long(const Flightrec__Syscall *s, size_t k)
{
	long v = -1;

	if (k < s->n_out && s->out[k]->data.len == sizeof(v))
		memcpy(&v, s->out[k]->data.data, sizeof(v));
	return v;
}

/*
 * A tracer changes its traced child (issue 25, class 11).  ptrace_poke's
 * parent pokes the child's memory at its SIGSTOP's signal-delivery stop;
 * at the syscall-entry stop of getuid() turns the call into getpid()
 * (orig_rax) and writes two words, one with PTRACE_POKEDATA, one through
 * /proc/PID/mem; at the syscall-exit stop of getppid() sets its result
 * (PTRACE_SETREGS).  Both processes are recorded.  The child's checkpoint
 * holds one FLIGHTREC_NR_PTRACE record per stop, each placed where replay
 * applies it, and replays to the child's line, "as recorded".  Before, no
 * record said what the tracer did: the replayed child printed its own
 * values and diverged at its write ("different arguments").
 */
TEST_F_TIMEOUT(rm, ptrace_tracee, 300)
{
	static const char line[] = "child: stop_word 1111 entry_word 2222 mem_word 3333 "
				   "getuid gave pid yes ppid 4242";
	const Flightrec__Syscall *r[4];
	char cmd[PATH_MAX + 64], path[256], err[256], child[64] = "";
	struct flrc *c = NULL;
	int i;

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/ptrace_poke", top);
	ASSERT_EQ(0, record(self->dir, "pt", "--at-exit --interval-ms 1000 --keep 16", cmd))
		show(self->dir, "pt");
	ASSERT_EQ(0, fr_sh("cd %s && grep -qxF '%s' pt.live && "
			   "grep -qx 'parent: child exited 0' pt.live", self->dir, line))
		fr_sh("cat %s/pt.live %s/pt.liveerr", self->dir, self->dir);
	/* two checkpoints: the tracer's, and the tracee's with the records */
	ASSERT_EQ(2, fr_sh("exit $(ls %s/pt/*.flrc | wc -l)", self->dir));
	for (i = 1; i <= 2 && !child[0]; i++) {
		ASSERT_EQ(0, fr_sh("cd %s && cp \"$(ls pt/*.flrc | sed -n %dp)\" pt%d.flrc",
				   self->dir, i, i));
		snprintf(path, sizeof(path), "%s/pt%d.flrc", self->dir, i);
		ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
		if (ptrace_recs(c, r, 4))
			snprintf(child, sizeof(child), "pt%d", i);
		else
			flrc_free(c);
	}
	ASSERT_NE(0, child[0]) TH_LOG("no checkpoint holds a tracer's record");
	ASSERT_EQ(3, ptrace_recs(c, r, 4));
	/* the signal-delivery stop: a write, placed as it returned from tgkill */
	EXPECT_EQ(FLIGHTREC_PT_AT_RESUME, r[0]->args[0]);
	EXPECT_EQ(FLIGHTREC_PT_STOP_OTHER, r[0]->args[1]);
	EXPECT_EQ(FLIGHTREC_PT_AT_SYSCALL, r[0]->args[2]);
	ASSERT_EQ(1, r[0]->n_out);
	EXPECT_EQ(1, r[0]->out[0]->arg);
	EXPECT_EQ(1111, out_long(r[0], 0));
	/* the syscall-entry stop: registers (getuid made getpid), two writes */
	EXPECT_EQ(FLIGHTREC_PT_AT_ENTRY, r[1]->args[0]);
	EXPECT_EQ(FLIGHTREC_PT_STOP_SC_ENTRY, r[1]->args[1]);
	EXPECT_EQ(FLIGHTREC_PT_REGS, r[1]->args[2]);
	ASSERT_EQ(3, r[1]->n_out);
	ASSERT_EQ(sizeof(struct user_regs_struct), r[1]->out[0]->data.len);
	struct user_regs_struct u;

	memcpy(&u, r[1]->out[0]->data.data, sizeof(u));
	EXPECT_EQ(__NR_getpid, u.orig_rax);
	EXPECT_EQ(0, r[1]->out[0]->addr);
	EXPECT_EQ(2222, out_long(r[1], 1));
	EXPECT_EQ(3333, out_long(r[1], 2));
	EXPECT_EQ(r[1]->out[1]->addr + 8, r[0]->out[0]->addr);	/* entry_word, stop_word */
	EXPECT_EQ(r[1]->out[2]->addr + 8, r[1]->out[1]->addr);	/* mem_word, entry_word */
	/* the call the thread made is the tracer's: getpid, after the record */
	for (size_t k = 0; k < c->n_syscalls; k++)
		if (c->syscalls[k] == r[1] && k + 1 < c->n_syscalls)
			EXPECT_EQ(__NR_getpid, c->syscalls[k + 1]->nr);
	/* the syscall-exit stop: getppid's result set, placed after the call */
	EXPECT_EQ(FLIGHTREC_PT_AT_RESUME, r[2]->args[0]);
	EXPECT_EQ(FLIGHTREC_PT_STOP_SC_EXIT, r[2]->args[1]);
	EXPECT_EQ(FLIGHTREC_PT_REGS | FLIGHTREC_PT_AT_SYSCALL, r[2]->args[2]);
	ASSERT_EQ(1, r[2]->n_out);
	memcpy(&u, r[2]->out[0]->data.data, sizeof(u));
	EXPECT_EQ(4242, u.rax);
	EXPECT_EQ(__NR_getppid, u.orig_rax);
	flrc_free(c);
	EXPECT_EQ(0, fr_sh("cd %s && %s/user/flightrec log %s.flrc | grep -q "
			   "'<ptrace: tracer changed registers, at syscall-exit stop>'",
			   self->dir, top, child));
	/* the tracee replays to the tracer's values, as recorded */
	EXPECT_EQ(0, fr_sh("cd %s && %s/user/flightrec replay %s.flrc --out ptc.rep > /dev/null "
			   "2> ptc.rerr && grep -q 'exited with status 0 .*as recorded' ptc.rerr && "
			   "printf '%%s\\n' '%s' | cmp - ptc.rep/fd1.out", self->dir, top, child, line))
		fr_sh("tail -3 %s/ptc.rerr", self->dir);
	/* and so does the tracer (its ptrace calls answered from the log) */
	EXPECT_EQ(0, fr_sh("cd %s && for f in pt1 pt2; do [ $f = %s ] || "
			   "%s/user/flightrec replay $f.flrc --out ptp.rep > /dev/null 2> ptp.rerr; "
			   "done && grep -q 'exited with status 0 .*as recorded' ptp.rerr && "
			   "echo 'parent: child exited 0' | cmp - ptp.rep/fd1.out",
			   self->dir, child, top)) fr_sh("tail -3 %s/ptp.rerr", self->dir);
	/* the tracee for the host (tests/replay_portable.c) */
	if (_metadata->passed && getenv("FR_PORT_DIR"))
		fr_sh("p=%s && mkdir -p $p && cp %s/%s.flrc $p/ptrace_tracee.flrc && "
		      "printf '%%s\\n' '%s' > $p/ptrace_tracee.live && "
		      "echo 'exited with status 0' > $p/ptrace_tracee.end",
		      getenv("FR_PORT_DIR"), self->dir, child, line);
}

/*
 * One address, two lives (issue 25, class 8): a file mapped, read and
 * unmapped, another file mapped at its address, in the same interval and
 * in a later one.  Each life's bytes are what replay shows (the program
 * writes them): the second mapping of a later interval gets that
 * interval's page, not the first life's.
 */
TEST_F_TIMEOUT(rm, remap_two_lives, 300)
{
	const Flightrec__Syscall *m[8];
	char cmd[PATH_MAX + 64], path[256], err[256];
	struct flrc *c;
	size_t n = 0;

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/remap_life", top);
	ASSERT_EQ(0, record(self->dir, "life", "--at-exit --interval-ms 100 --keep 64", cmd))
		show(self->dir, "life");
	ASSERT_EQ(0, fr_sh("cd %s && f=$(ls -v life/*.flrc | head -1) && cp $f life.flrc",
			   self->dir));
	snprintf(path, sizeof(path), "%s/life.flrc", self->dir);
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	/* the four mappings of the two files: a, b over it, a, b later */
	for (size_t k = 0; k < c->n_syscalls && n < 8; k++) {
		const Flightrec__Syscall *s = c->syscalls[k];

		if (s->nr == SYS_mmap && s->n_args >= 3 && s->args[1] == 8192 &&
		    s->args[2] == PROT_READ && s->ret > 0)
			m[n++] = s;
	}
	ASSERT_EQ(4, n);
	EXPECT_EQ(m[0]->ret, m[1]->ret);
	EXPECT_EQ(m[2]->ret, m[3]->ret);
	/* the second life of the later case in a later interval than the first */
	EXPECT_LT(m[2]->interval, m[3]->interval);
	TH_LOG("mappings in intervals %u %u %u %u", m[0]->interval, m[1]->interval,
	       m[2]->interval, m[3]->interval);
	flrc_free(c);
	EXPECT_EQ(0, replay(self->dir, "life")) show(self->dir, "life");
	EXPECT_TRUE(rerr_has(self->dir, "life", "exited with status 0"));
	EXPECT_TRUE(rerr_has(self->dir, "life", "as recorded")) show(self->dir, "life");
	EXPECT_EQ(0, fr_sh("grep -c ' life: ALWHSDOZKVGRCNYJUFQBMXIT YJUFQBMXITEPALWHSDOZKVGR "
			   "75ac663fe78e150a$' %s/life.live | grep -qx 2", self->dir));
	check_output(_metadata, self->dir, "life");
}

/*
 * Writes longer than 4 KiB carry the hash of the bytes they pass in (up to
 * 64 KiB, FR_IN_HASH_MAX; a longer one all of it by the full rule), and
 * replay checks it: a replay writing
 * other bytes there diverges instead of ending "as recorded" (issue 25).
 */
TEST_F_TIMEOUT(rm, big_writes_hashed, 300)
{
	char cmd[PATH_MAX + 64], path[256], err[256];
	size_t lens[] = { 8192, 65536, 200 * 1024 };
	struct flrc *c;

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/big_writes", top);
	ASSERT_EQ(0, record(self->dir, "bigw", "--at-exit --interval-ms 1000 --keep 16", cmd))
		show(self->dir, "bigw");
	ASSERT_EQ(0, fr_sh("cd %s && cp $(ls -v bigw/*.flrc | head -1) bigw.flrc", self->dir));
	snprintf(path, sizeof(path), "%s/bigw.flrc", self->dir);
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	for (size_t i = 0; i < 3; i++) {
		const Flightrec__Syscall *w = NULL;

		for (size_t k = 0; k < c->n_syscalls && !w; k++)
			if (c->syscalls[k]->nr == SYS_write && c->syscalls[k]->n_args >= 3 &&
			    c->syscalls[k]->args[0] == 1 && c->syscalls[k]->args[2] == lens[i])
				w = c->syscalls[k];
		ASSERT_NE(NULL, w) TH_LOG("no write of %zu bytes", lens[i]);
		/* more than 64 KiB: the full rule's (big_writes_hashed_whole) */
		if (lens[i] > FR_IN_HASH_MAX) {
			EXPECT_TRUE(w->has_in_hash_full && !w->has_in_hash)
				TH_LOG("the write of %zu bytes has no in_hash_full", lens[i]);
		} else {	/* the words rule's (writes_hashed_by_words) */
			EXPECT_TRUE(w->has_in_hash_w && !w->has_in_hash)
				TH_LOG("the write of %zu bytes has no in_hash_w", lens[i]);
		}
	}
	flrc_free(c);
	EXPECT_EQ(0, replay(self->dir, "bigw")) show(self->dir, "bigw");
	EXPECT_TRUE(rerr_has(self->dir, "bigw", "exited with status 0"));
	EXPECT_TRUE(rerr_has(self->dir, "bigw", "as recorded")) show(self->dir, "bigw");
	EXPECT_EQ(0, fr_sh("test $(stat -c %%s %s/bigw.live) = %zu", self->dir,
			   lens[0] + lens[1] + lens[2]));
	check_output(_metadata, self->dir, "bigw");
}

static int read_mem(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	memcpy(buf, (const void *)(uintptr_t)addr, len);
	return 0;
}

/*
 * The record of the call number nr with args[2] == len in checkpoint c;
 * NULL when none.
 */
static const Flightrec__Syscall *find_call(const struct flrc *c, uint32_t nr, uint64_t len)
{
	for (size_t k = 0; k < c->n_syscalls; k++)
		if (c->syscalls[k]->nr == nr && c->syscalls[k]->n_args >= 3 &&
		    c->syscalls[k]->args[0] == 1 && c->syscalls[k]->args[2] == len)
			return c->syscalls[k];
	return NULL;
}

/*
 * Records `big_writes MODE < NAME.in`, NAME.in being n bytes of base64 (as
 * *data), and wants the live output equal to them; the checkpoint, read.
 */
static struct flrc *record_passed_in(struct __test_metadata *_metadata, const char *dir,
				     const char *name, const char *mode, size_t n, char **data)
{
	char cmd[PATH_MAX + 64], path[256], err[256];
	struct flrc *c;
	size_t len;

	ASSERT_EQ(0, fr_sh("cd %s && head -c %zu /dev/urandom | base64 -w 76 | head -c %zu > %s.in",
			   dir, n, n, name));
	snprintf(path, sizeof(path), "%s.in", name);
	*data = fr_slurp(dir, path, &len);
	ASSERT_NE(NULL, *data);
	ASSERT_EQ(n, len);
	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/big_writes %s < %s.in", top, mode, name);
	ASSERT_EQ(0, record(dir, name, "--at-exit --interval-ms 1000 --keep 16", cmd))
		show(dir, name);
	ASSERT_EQ(0, fr_sh("cmp %s/%s.live %s/%s.in", dir, name, dir, name));
	ASSERT_EQ(0, fr_sh("cd %s && cp $(ls -v %s/*.flrc | head -1) %s.flrc", dir, name, name));
	snprintf(path, sizeof(path), "%s/%s.flrc", dir, name);
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	return c;
}

/*
 * The records of `big_writes relay` of data (n bytes): the write of its
 * first half has hash wh, the writev of the rest (two iovecs) vh, by rule,
 * as the loader computes them; the last byte changed (the tail of the last
 * iovec, in an odd word or the bytes after the words), another hash.
 */
static void relay_hashes(struct __test_metadata *_metadata, char *data, size_t n, int rule,
			 uint64_t wh, uint64_t vh)
{
	const size_t half = n / 2, rest = n - half;
	uint64_t a[6] = { 1, (uintptr_t)data, half };
	struct iovec iov[2];

	EXPECT_EQ(fr_in_hash_rule(fr_syscall(SYS_write)->in, a, rule, half, read_mem, NULL), wh);
	iov[0].iov_base = data + half;
	iov[0].iov_len = rest / 2;
	iov[1].iov_base = data + half + rest / 2;
	iov[1].iov_len = rest - rest / 2;
	a[1] = (uintptr_t)iov;
	a[2] = 2;
	EXPECT_EQ(fr_in_hash_rule(fr_syscall(SYS_writev)->in, a, rule, rest, read_mem, NULL), vh);
	data[n - 1] ^= 0x20;
	EXPECT_NE(fr_in_hash_rule(fr_syscall(SYS_writev)->in, a, rule, rest, read_mem, NULL), vh);
	data[n - 1] ^= 0x20;
}

/*
 * SRC.flrc with byte off of its first read longer than off changed
 * (craft_replay out-byte), replayed as PREFIXoff: a divergence on the hash
 * of the data passed in, at the call named by `call` ("expected write(").
 */
static void diverges_at_byte(struct __test_metadata *_metadata, const char *dir,
			     const char *src, const char *prefix, long off, const char *call)
{
	char name[64];

	snprintf(name, sizeof(name), "%s%ld", prefix, off);
	ASSERT_EQ(0, fr_sh("cd %s && mkdir %s && cp %s.live %s.live && "
			   "%s out-byte %ld %s.flrc %s/x.flrc > /dev/null", dir, name, src,
			   name, fr_test_tool("craft_replay"), off, src, name));
	EXPECT_NE(0, replay(dir, name));
	EXPECT_TRUE(rerr_has(dir, name, "different data passed in (hash)")) {
		TH_LOG("a byte at %ld changed", off);
		show(dir, name);
	}
	EXPECT_TRUE(rerr_has(dir, name, call)) show(dir, name);
	EXPECT_FALSE(rerr_has(dir, name, "as recorded"));
}

/*
 * A write and a writev of 100 KiB each (issue 25: the first was checked on
 * its first 64 KiB only, the second, more than 64 KiB in its iovecs, not at
 * all): each record carries the full rule's hash of every byte it wrote,
 * exactly the hash of the bytes here.  A replay that reads one other byte
 * (the checkpoint's read answer changed: craft_replay out-byte) and writes
 * it diverges at that write, wherever the byte is; before, at 80000 and
 * 150000 it ended "as recorded" with other output.
 */
TEST_F_TIMEOUT(rm, big_writes_hashed_whole, 600)
{
	const size_t n = 200 * 1024, half = n / 2, rest = n - half;
	const struct {
		long off;
		const char *call;
	} bad[] = { { 30000, "expected write(" }, { 80000, "expected write(" },
		    { 150000, "expected writev(" } };
	const Flightrec__Syscall *w, *v;
	char *data;
	struct flrc *c;

	c = record_passed_in(_metadata, self->dir, "rel", "relay", n, &data);
	w = find_call(c, SYS_write, half);
	v = find_call(c, SYS_writev, 2);
	ASSERT_NE(NULL, w);
	ASSERT_NE(NULL, v);
	EXPECT_EQ((int64_t)half, w->ret);
	EXPECT_EQ((int64_t)rest, v->ret);
	EXPECT_TRUE(w->has_in_hash_full && !w->has_in_hash && !w->has_in_hash_sa);
	EXPECT_TRUE(v->has_in_hash_full && !v->has_in_hash && !v->has_in_hash_sa);
	EXPECT_NE(0, w->flags & FLIGHTREC_SC_IN_HASH_FULL);
	/* the hash of these bytes by the full rule, as the loader computes it */
	relay_hashes(_metadata, data, n, FR_IN_RULE_FULL, w->in_hash_full, v->in_hash_full);
	flrc_free(c);
	free(data);

	EXPECT_EQ(0, replay(self->dir, "rel")) show(self->dir, "rel");
	EXPECT_TRUE(rerr_has(self->dir, "rel", "as recorded")) show(self->dir, "rel");
	check_output(_metadata, self->dir, "rel");
	EXPECT_EQ(0, fr_sh("cd %s && %s/user/flightrec log rel.flrc | "
			   "grep -c 'hashed whole by the full rule (the 102400 bytes it took)' | "
			   "grep -qx 2", self->dir, top));

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		diverges_at_byte(_metadata, self->dir, "rel", "bad", bad[i].off, bad[i].call);
}

/*
 * Issue 28: a write of more than 64 bytes and a writev, hashed at entry
 * (at most 64 KiB) by the words rule (FR_IN_RULE_WORDS: 16 bytes a
 * multiply, where FNV-1a byte by byte was most of what recording added to
 * nginx's header writes).  Each record carries in_hash_w alone, with its
 * flag, exactly the hash of the bytes here by that rule and not the
 * sockaddr rule's; it replays as recorded, and a replay whose read answer
 * differs in one byte diverges at the write, or the writev, that wrote it.
 */
TEST_F_TIMEOUT(rm, writes_hashed_by_words, 300)
{
	const size_t n = 3000, half = n / 2, rest = n - half;
	const struct {
		long off;
		const char *call;
	} bad[] = { { 1000, "expected write(" }, { 2999, "expected writev(" } };
	const Flightrec__Syscall *w, *v;
	uint64_t a[6] = { 1 };
	char *data;
	size_t n_w = 0;
	struct flrc *c;

	c = record_passed_in(_metadata, self->dir, "wr", "relay", n, &data);
	for (size_t k = 0; k < c->n_syscalls; k++)	/* paths too (openat...) */
		n_w += c->syscalls[k]->has_in_hash_w;
	w = find_call(c, SYS_write, half);
	v = find_call(c, SYS_writev, 2);
	ASSERT_NE(NULL, w);
	ASSERT_NE(NULL, v);
	EXPECT_EQ((int64_t)half, w->ret);
	EXPECT_EQ((int64_t)rest, v->ret);
	EXPECT_TRUE(w->has_in_hash_w && !w->has_in_hash && !w->has_in_hash_sa &&
		    !w->has_in_hash_full);
	EXPECT_TRUE(v->has_in_hash_w && !v->has_in_hash && !v->has_in_hash_sa &&
		    !v->has_in_hash_full);
	EXPECT_EQ(FLIGHTREC_SC_IN_HASH_W, w->flags & (FLIGHTREC_SC_IN_HASH |
		  FLIGHTREC_SC_IN_HASH_SA | FLIGHTREC_SC_IN_HASH_FULL | FLIGHTREC_SC_IN_HASH_W));
	EXPECT_EQ(FLIGHTREC_SC_IN_HASH_W, v->flags & (FLIGHTREC_SC_IN_HASH |
		  FLIGHTREC_SC_IN_HASH_SA | FLIGHTREC_SC_IN_HASH_FULL | FLIGHTREC_SC_IN_HASH_W));
	a[1] = (uintptr_t)data;
	a[2] = half;
	EXPECT_NE(fr_in_hash_desc(fr_syscall(SYS_write)->in, a, FR_IN_RULE_SOCKADDR, read_mem,
				  NULL), w->in_hash_w);
	relay_hashes(_metadata, data, n, FR_IN_RULE_WORDS, w->in_hash_w, v->in_hash_w);
	flrc_free(c);
	free(data);

	EXPECT_EQ(0, replay(self->dir, "wr")) show(self->dir, "wr");
	EXPECT_TRUE(rerr_has(self->dir, "wr", "as recorded")) show(self->dir, "wr");
	check_output(_metadata, self->dir, "wr");
	/* flightrec log and info say which rule, and count them */
	EXPECT_EQ(0, fr_sh("cd %s && %s/user/flightrec log --json wr.flrc | "
			   "grep -oE '\"in_hash_rule\": ?\"words\"' | wc -l | grep -qx %zu && "
			   "%s/user/flightrec info wr.flrc | "
			   "grep -q '^  %zu with data passed in hashed by the words rule$'",
			   self->dir, top, n_w, top, n_w))
		TH_LOG("%zu records with in_hash_w", n_w);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		diverges_at_byte(_metadata, self->dir, "wr", "wbad", bad[i].off, bad[i].call);
}

/*
 * sendmmsg's messages (issue 25): no hash rule read them, so a replay that
 * sent other bytes went on, answered from the log (here the datagrams
 * received, printed as recorded: the same output).  Each sendmmsg now
 * carries the full rule's hash of the messages it sent, exactly that of
 * the bytes here, and a replay whose read answer differs in one byte
 * diverges at the sendmmsg.
 */
TEST_F_TIMEOUT(rm, sendmmsg_hashed, 300)
{
	const size_t n = 3000;
	const Flightrec__Syscall *s = NULL;
	struct mmsghdr mm[2];
	struct iovec iov[2];
	uint64_t a[6] = { 0 };
	struct flrc *c;
	char *data;

	c = record_passed_in(_metadata, self->dir, "mm", "mmsg", n, &data);
	for (size_t k = 0; k < c->n_syscalls && !s; k++)
		if (c->syscalls[k]->nr == SYS_sendmmsg)
			s = c->syscalls[k];
	ASSERT_NE(NULL, s);
	EXPECT_EQ(2, s->ret);
	EXPECT_TRUE(s->has_in_hash_full && !s->has_in_hash && !s->has_in_hash_sa);
	memset(mm, 0, sizeof(mm));
	iov[0].iov_base = data;
	iov[0].iov_len = n / 2;
	iov[1].iov_base = data + n / 2;
	iov[1].iov_len = n - n / 2;
	for (int i = 0; i < 2; i++) {
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	a[1] = (uintptr_t)mm;
	a[2] = 2;
	EXPECT_EQ(fr_in_hash_rule(fr_syscall(SYS_sendmmsg)->in, a, FR_IN_RULE_FULL, 2,
				  read_mem, NULL), s->in_hash_full);
	/* the second message counts: one byte of it, another hash */
	data[n - 1] ^= 0x20;
	EXPECT_NE(fr_in_hash_rule(fr_syscall(SYS_sendmmsg)->in, a, FR_IN_RULE_FULL, 2,
				  read_mem, NULL), s->in_hash_full);
	flrc_free(c);
	free(data);

	EXPECT_EQ(0, replay(self->dir, "mm")) show(self->dir, "mm");
	EXPECT_TRUE(rerr_has(self->dir, "mm", "as recorded")) show(self->dir, "mm");
	check_output(_metadata, self->dir, "mm");
	ASSERT_EQ(0, fr_sh("cd %s && mkdir mmbad && cp mm.live mmbad.live && "
			   "%s out-byte 2000 mm.flrc mmbad/x.flrc > /dev/null", self->dir,
			   fr_test_tool("craft_replay")));
	EXPECT_NE(0, replay(self->dir, "mmbad"));
	EXPECT_TRUE(rerr_has(self->dir, "mmbad", "different data passed in (hash)"))
		show(self->dir, "mmbad");
	EXPECT_TRUE(rerr_has(self->dir, "mmbad", "expected sendmmsg(")) show(self->dir, "mmbad");
}

/*
 * Syscall numbers outside the table (issue 25, class 1): each is in the
 * log and replay answers it from there, 0x10000 to 0x10003 (the numbers
 * of the recorder's own records) as the syscalls they are; the recording
 * is complete (nothing "may not replay").
 */
TEST_F_TIMEOUT(rm, unknown_numbers, 300)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/sc_unknown", top);
	real_program(_metadata, self->dir, "unk", "--at-exit --interval-ms 1000 --keep 16", cmd);
	EXPECT_FALSE(rerr_has(self->dir, "unk", "incomplete")) show(self->dir, "unk");
	EXPECT_EQ(0, fr_sh("grep -q '^syscall(0x10001) = -1 errno 38$' %s/unk.live && "
			   "grep -q '^syscall(0x10003) = -1 errno 38$' %s/unk.live",
			   self->dir, self->dir));
}

/*
 * Stack bytes a signal frame left, passed to write uninitialised (issue 25,
 * class 10): replay writes the frame the kernel wrote, byte for byte.
 */
TEST_F_TIMEOUT(rm, signal_frame_bytes, 300)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/stack_garbage", top);
	real_program(_metadata, self->dir, "garb", "--at-exit --interval-ms 1000 --keep 16", cmd);
	EXPECT_EQ(0, fr_sh("test $(stat -c %%s %s/garb.live) = 16000", self->dir));
}

/*
 * A recorded signal frame's FPU state is in the recording CPU's XSAVE
 * layout (its CPUID 0xd offsets), which need not be this CPU's (PKRU is at
 * 0xa80 on Intel and QEMU, 0x980 on AMD Zen).  craft_replay xsave-move
 * makes the recorded layout another one: AVX's upper halves elsewhere in
 * every frame, and leaf 0xd.2 saying so.  The replay must bring ymm8 back
 * from the recorded offset at rt_sigreturn; a restore at this CPU's
 * offsets gives zeros.
 */
TEST_F_TIMEOUT(rm, signal_frame_other_layout, 300)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/sig_avx", top);
	if (fr_sh("%s > /dev/null", cmd) == 4)
		SKIP(return, "no AVX here");
	ASSERT_EQ(0, record(self->dir, "avx", "--at-exit", cmd)) show(self->dir, "avx");
	ASSERT_EQ(0, replay(self->dir, "avx")) show(self->dir, "avx");
	check_output(_metadata, self->dir, "avx");
	ASSERT_EQ(0, fr_sh("cd %s && mkdir avx2 && f=$(ls -v avx/*.flrc | head -1) && "
			   "%s xsave-move - \"$f\" avx2/moved.flrc > avx2.off", self->dir,
			   fr_test_tool("craft_replay")));
	fr_sh("cp %s/avx.live %s/avx2.live", self->dir, self->dir);
	EXPECT_EQ(0, replay(self->dir, "avx2")) show(self->dir, "avx2");
	EXPECT_TRUE(rerr_has(self->dir, "avx2", "exited with status 0")) show(self->dir, "avx2");
	check_output(_metadata, self->dir, "avx2");
	EXPECT_EQ(0, fr_sh("grep -qx a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf "
			   "%s/avx2.rep/fd1.out", self->dir));
}

/*
 * Signals delivered while a call waits with a temporary mask (issue 25,
 * class 7): rt_sigsuspend, ppoll and pselect6 unblock the signal while they
 * wait, replay delivers it under that mask and the mask comes back after
 * the handler.
 */
TEST_F_TIMEOUT(rm, sigsuspend_mask, 300)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/sigsuspend_wait", top);
	real_program(_metadata, self->dir, "susp", "--at-exit --interval-ms 1000 --keep 16", cmd);
	EXPECT_EQ(0, fr_sh("grep -q '^pselect: -1 Interrupted system call, alrm 2 usr1 1, "
			   "ALRM blocked now 1 in handler 1$' %s/susp.live", self->dir));
}

/*
 * A thread's clear_child_tid word at an address that is not mapped
 * (set_tid_address takes any pointer; issue 25, class 9): the kernel's
 * clear at the thread's exit fails quietly, and so must replay's.
 */
TEST_F_TIMEOUT(rm, tid_address_unmapped, 300)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/tid_address", top);
	real_program(_metadata, self->dir, "tida", "--at-exit --interval-ms 1000 --keep 16", cmd);
	EXPECT_EQ(0, fr_sh("grep -q '^joined: yes$' %s/tida.live", self->dir));
}

TEST_F_TIMEOUT(rm, bc_pi, 600)
{
	ASSERT_EQ(0, fr_sh("echo 'scale=2000; 4*a(1)' > %s/pi.bc", self->dir));
	real_program(_metadata, self->dir, "bc", "--at-exit --interval-ms 1000 --keep 60",
		     "/usr/bin/bc -lq pi.bc < /dev/null");
}

TEST_F_TIMEOUT(rm, python3_script, 600)
{
	ASSERT_EQ(0, fr_sh("printf '%%s\\n' 'import hashlib, json' "
			"'d = {str(i): i * i for i in range(2000)}' "
			"'s = json.dumps(d, sort_keys=True)' "
			"'print(hashlib.sha256(s.encode()).hexdigest(), len(s))' > %s/s.py",
			self->dir));
	/*
	 * Several intervals (sqlite3's too): where cpuid cannot fault,
	 * replay_portable replays from the first one after the start-up.
	 */
	real_program(_metadata, self->dir, "py", "--at-exit --interval-ms 200 --keep 64",
		     "/usr/bin/python3 s.py");
}

/*
 * A program that prints what cpuid says: replay answers from the recording
 * (here and in replay_portable, on another CPU), where cpuid faults or,
 * where it cannot (this VM's CPU, most guests), at the cpuid instructions
 * the recording machine found in the code, which the checkpoint lists.
 */
TEST_F_TIMEOUT(rm, cpuid_values, 300)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/cpuid_sites", top);
	real_program(_metadata, self->dir, "cpuid", "--at-exit --interval-ms 1000 --keep 16", cmd);
	/* main()'s three, and ld.so's */
	EXPECT_EQ(0, fr_sh("cd %s && n=$(%s/user/flightrec info --json cpuid/*.flrc | "
			   "sed -n 's/.*\"cpuid_sites\": *\\([0-9]*\\).*/\\1/p') && "
			   "[ \"$n\" -gt 3 ]", self->dir, top)) show(self->dir, "cpuid");
}

TEST_F_TIMEOUT(rm, sqlite3_queries, 600)
{
	ASSERT_EQ(0, fr_sh("printf '%%s\\n' 'create table t(a integer primary key, b text);' "
			"'with recursive n(x) as (select 1 union all select x + 1 from n where x < 3000) insert into t select x, \"row\" || x from n;' "
			"'select count(*), max(b) from t;' "
			"'create index tb on t(b);' "
			"\"select a from t where b like 'row29%%' order by a limit 3;\" > %s/q.sql",
			self->dir));
	real_program(_metadata, self->dir, "sq", "--at-exit --interval-ms 50 --keep 64",
		     "/usr/bin/sqlite3 t.db < q.sql");
}

TEST_F_TIMEOUT(rm, gzip_24mb, 900)
{
	ASSERT_EQ(0, fr_sh("cd %s && (yes 'flightrec replays the last moments of a process' | "
			"head -c 25165824; head -c 65536 /dev/urandom | base64) > big && "
			"gzip -f big", self->dir));
	real_program(_metadata, self->dir, "gz", "--at-exit --interval-ms 2000 --keep 60",
		     "/usr/bin/gzip -dc big.gz");
}

/*
 * Signals at syscall boundaries (a sigqueue to itself with SA_SIGINFO, EINTR
 * without SA_RESTART, a restart with it) go through the recorded handlers at
 * the recorded places; the child that sent them replays nothing here.
 */
TEST_F_TIMEOUT(rm, async_signals, 300)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/async_signals", top);
	real_program(_metadata, self->dir, "asig", "--at-exit --interval-ms 1000 --keep 16",
		     cmd);
}

/* The program prints the TSC values it read: replay gives back the recorded ones. */
/*
 * Issue 25, class 10: bind, connect, sendto and sendmsg with a sockaddr_un
 * whose bytes after the path's NUL come from rdrand (not recorded: others
 * at replay).  The module hashes the path up to its NUL, as the kernel
 * reads it, and so does replay: as recorded (before, "different data
 * passed in (hash)" at the bind).  Exported: replayed on the host too.
 */
TEST_F_TIMEOUT(rm, sockaddr_tail, 300)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/sun_tail", top);
	real_program(_metadata, self->dir, "sun", "--at-exit --interval-ms 1000 --keep 16", cmd);
	EXPECT_FALSE(rerr_has(self->dir, "sun", "different data passed in"));
	EXPECT_EQ(0, fr_sh("grep -qx ok %s/sun.live", self->dir));
}

/*
 * Issue 25, class 11: sched_getcpu() reads the rseq area's cpu_id, which the
 * kernel writes on the way back to user space.  The program moves itself to
 * each CPU with sched_setaffinity() and prints it; the module notes the CPU
 * on a record when it changed, replay writes it there: the same output
 * (before, the loader wrote CPU 0 at rseq's registration and never again).
 * Exported: replayed on the host too.
 */
TEST_F_TIMEOUT(rm, rseq_cpu, 300)
{
	char cmd[PATH_MAX + 64], path[PATH_MAX], err[256];
	struct flrc *c;
	size_t i, noted = 0;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU: nothing moves");
	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/rseq_cpu", top);
	real_program(_metadata, self->dir, "rseq", "--at-exit --interval-ms 1000 --keep 16", cmd);
	EXPECT_EQ(0, fr_sh("grep -qx 'rseq registered: yes' %s/rseq.live", self->dir));
	EXPECT_EQ(0, fr_sh("grep -qx 'on cpu 0: sched_getcpu 0' %s/rseq.live && "
			   "grep -qx 'on cpu 1: sched_getcpu 1' %s/rseq.live", self->dir, self->dir))
		fr_sh("cat %s/rseq.live", self->dir);
	EXPECT_NE(0, fr_sh("grep -q mismatch %s/rseq.live", self->dir));
	/* the CPU is noted where it changed: at least at each move of the first round */
	ASSERT_EQ(0, fr_sh("cd %s && ls rseq/*.flrc | head -1 > rseq.name", self->dir));
	{
		char *name = fr_slurp(self->dir, "rseq.name", NULL);

		ASSERT_NE(NULL, name);
		name[strcspn(name, "\n")] = 0;
		snprintf(path, sizeof(path), "%s/%s", self->dir, name);
		free(name);
	}
	ASSERT_EQ(0, flrc_read(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	for (i = 0; i < c->n_syscalls; i++)
		noted += c->syscalls[i]->has_rseq_cpu;
	EXPECT_GE(noted, 2) TH_LOG("%zu records note the rseq CPU", noted);
	flrc_free(c);
	/* flightrec log shows each note, in its text and in its JSON */
	ASSERT_EQ(0, fr_sh("cd %s && %s/user/flightrec log %s > rseq.log && "
			   "%s/user/flightrec log --json %s > rseq.json", self->dir, top, path,
			   top, path));
	EXPECT_EQ(0, fr_sh("cd %s && test $(grep -c '# .*rseq area: cpu [0-9]' rseq.log) -eq %zu && "
			   "grep -q '# .*rseq area: cpu 1' rseq.log", self->dir, noted))
		fr_sh("grep -c 'rseq area' %s/rseq.log", self->dir);
	EXPECT_EQ(0, fr_sh("cd %s && test $(grep -c '\"rseq\": {' rseq.json) -eq %zu",
			   self->dir, noted));
	EXPECT_EQ(0, fr_sh("%s/user/flightrec info --json %s | grep -qE '\"rseq_notes\": ?%zu,?$'",
			   top, path, noted));
}

/*
 * Issue 25, class 11: the program's own seccomp filter traps getppid
 * (SECCOMP_RET_TRAP) and its SIGSYS handler sets the result.  Recorded: the
 * signal (SYNC, si_code SYS_SECCOMP) and no record of the call.  Replay
 * delivers the signal where the program makes the call (before, "a system
 * call where the recording faulted").  Exported: replayed on the host too.
 */
TEST_F_TIMEOUT(rm, seccomp_trap, 300)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/seccomp_trap", top);
	real_program(_metadata, self->dir, "scmp", "--at-exit --interval-ms 1000 --keep 16", cmd);
	EXPECT_EQ(0, fr_sh("grep -qx 'getppid -> 4242 (SIGSYS for nr 110 code 1)' %s/scmp.live && "
			   "grep -qx 'again -> 4242' %s/scmp.live", self->dir, self->dir))
		fr_sh("cat %s/scmp.live", self->dir);
}

TEST_F_TIMEOUT(rm, rdtsc_values, 300)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/rdtsc_values", top);
	real_program(_metadata, self->dir, "tsc", "--at-exit --interval-ms 1000 --keep 16",
		     cmd);
	EXPECT_FALSE(rerr_has(self->dir, "tsc", "not recorded"));
	/*
	 * Again with the recorded rdtsc/rdtscp sites patched to ud2, as the
	 * loader does where rdtsc does not trap: the same values, one site
	 * per instruction of the program and of ld.so that ran.
	 */
	EXPECT_EQ(0, fr_sh("cd %s && %s/user/flightrec replay tsc/*.flrc --patch-rdtsc "
			   "--out tsc.prep > tsc.prout 2> tsc.prerr", self->dir, top))
		fr_sh("tail -5 %s/tsc.prerr", self->dir);
	EXPECT_EQ(0, fr_sh("grep -q 'patch-rdtsc: the loader patches' %s/tsc.prerr && "
			   "grep -q 'the [1-9][0-9]* recorded rdtsc sites answer' %s/tsc.prerr && "
			   "grep -q 'exited with status 0' %s/tsc.prerr",
			   self->dir, self->dir, self->dir))
		fr_sh("tail -5 %s/tsc.prerr", self->dir);
	EXPECT_FALSE(fr_sh("grep -q 'not recorded' %s/tsc.prerr", self->dir) == 0);
	EXPECT_TRUE(same_files2(self->dir, "tsc.live", "tsc.prep/fd1.out"));
}

/*
 * Records tests/bin/progs/PROG DIR/data.bin from exec, which ends with
 * signal sig, into DIR/NAME.flrc and reads it (NULL on failure, logged).
 */
static struct flrc *record_crash(struct __test_metadata *_metadata, const char *dir,
				 const char *name, const char *prog, int sig)
{
	char cmd[PATH_MAX + 512], err[256];
	struct flrc *c;

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/%s %s/data.bin", top, prog, dir);
	if (record(dir, name, "--interval-ms 1000 --keep 16", cmd) != 128 + sig) {
		show(dir, name);
		return NULL;
	}
	if (fr_sh("cp %s/%s/*.flrc %s/%s.flrc", dir, name, dir, name))
		return NULL;
	snprintf(cmd, sizeof(cmd), "%s/%s.flrc", dir, name);
	if (flrc_read(cmd, &c, err, sizeof(err))) {
		TH_LOG("%s", err);
		return NULL;
	}
	return c;
}

/*
 * flightrec gdb on a checkpoint that starts at exec: ld.so reads the TSC
 * before main, and replay answers those rdtsc from the log through a trap
 * (SIGSEGV under CR4.TSD) or a patched ud2 (SIGILL).  gdb must pass those
 * to the loader and stop only at the recorded crash, in both modes.
 */
TEST_F_TIMEOUT(rm, gdb_from_exec, 600)
{
	static const char *const modes[] = { "", "--patch-rdtsc" };
	size_t k, tsc = 0;
	struct flrc *c;
	int i;

	if (fr_sh("gdb --version > /dev/null 2>&1"))
		SKIP(return, "no gdb");
	c = record_crash(_metadata, self->dir, "gx", "crash_null", SIGSEGV);
	ASSERT_NE(NULL, c);
	for (k = 0; k < c->n_syscalls; k++)
		tsc += c->syscalls[k]->nr == FLIGHTREC_NR_RDTSC;
	flrc_free(c);
	ASSERT_GE(tsc, 1) TH_LOG("no rdtsc recorded: nothing for gdb to pass on");
	ASSERT_EQ(0, fr_sh("printf 'continue\\nbt\\ncontinue\\n' > %s/gx.cmds", self->dir));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, fr_sh("cd %s && %s/user/flightrec gdb gx.flrc %s --symbols "
				   "%s/tests/bin/progs/crash_null --batch gx.cmds --out gx.rep%d "
				   "> gx%d.gdb 2>&1", self->dir, top, modes[i], top, i, i))
			fr_sh("tail -20 %s/gx%d.gdb", self->dir, i);
		/* one stop only: the recorded crash, not an rdtsc */
		EXPECT_EQ(0, fr_sh("test $(grep -c 'Program received signal' %s/gx%d.gdb) = 1 && "
				   "grep -q 'Program received signal SIGSEGV, Segmentation fault' "
				   "%s/gx%d.gdb", self->dir, i, self->dir, i))
			fr_sh("cat %s/gx%d.gdb", self->dir, i);
		EXPECT_EQ(0, fr_sh("grep -q 'stopped at the first instruction of interval' "
				   "%s/gx%d.gdb && grep -q 'in lookup (r=0x0) at' %s/gx%d.gdb && "
				   "grep -q 'in main (argc=2' %s/gx%d.gdb && "
				   "grep -q 'reproduced SIGSEGV at rip' %s/gx%d.gdb", self->dir, i,
				   self->dir, i, self->dir, i, self->dir, i))
			fr_sh("cat %s/gx%d.gdb", self->dir, i);
	}
	EXPECT_EQ(0, fr_sh("grep -q 'patch-rdtsc: the loader patches' %s/gx1.gdb", self->dir));
}

/*
 * A process that aborts sent itself SIGABRT: plain replay reports it and
 * exits 0; under flightrec gdb the signal arrives for real, so gdb stops at
 * it at the recorded instruction (in raise, under abort), and the next
 * continue lets the default action end the process.
 */
TEST_F_TIMEOUT(rm, gdb_abort_stops, 300)
{
	unsigned long long rip;
	struct flrc *c;

	if (fr_sh("gdb --version > /dev/null 2>&1"))
		SKIP(return, "no gdb");
	c = record_crash(_metadata, self->dir, "ga", "crash_abort", SIGABRT);
	ASSERT_NE(NULL, c);
	ASSERT_NE(NULL, c->end);
	ASSERT_NE(NULL, c->end->regs);
	EXPECT_EQ((uint32_t)SIGABRT, c->end->signo);
	rip = c->end->regs->rip;
	flrc_free(c);
	ASSERT_EQ(0, fr_sh("printf 'continue\\nprint/x $pc\\ncontinue\\n' > %s/ga.cmds",
			   self->dir));
	ASSERT_EQ(0, fr_sh("cd %s && %s/user/flightrec gdb ga.flrc --batch ga.cmds --out ga.gdbrep "
			   "> ga.gdb 2>&1", self->dir, top))
		fr_sh("tail -20 %s/ga.gdb", self->dir);
	EXPECT_EQ(0, fr_sh("grep -q 'reproduced SIGABRT at rip %#llx' %s/ga.gdb && "
			   "grep -q 'Program received signal SIGABRT, Aborted' %s/ga.gdb && "
			   "grep -q '^$1 = %#llx$' %s/ga.gdb && "
			   "grep -q 'Program terminated with signal SIGABRT' %s/ga.gdb",
			   rip, self->dir, self->dir, rip, self->dir, self->dir))
		fr_sh("cat %s/ga.gdb", self->dir);
	/* plain replay: reported, exit 0, no signal */
	EXPECT_EQ(0, replay(self->dir, "ga")) show(self->dir, "ga");
	EXPECT_TRUE(rerr_has(self->dir, "ga", "reproduced SIGABRT"));
}

/*
 * Threads that talk through a mutex and condition variables, recorded in
 * serial mode: which consumer gets which number is decided between
 * syscalls, and replay decides it the same way.
 */
TEST_F_TIMEOUT(rm, threads_condvar_serial, 300)
{
	static const char *const names[] = { "cv", "cv1", "cv2" };
	char cmd[PATH_MAX + 64];
	int i;

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/threads_cv", top);
	for (i = 0; i < 3 && _metadata->passed; i++)
		real_program(_metadata, self->dir, names[i],
			     "--serial --at-exit --interval-ms 1000 --keep 16", cmd);
}

/* Threads racing on a counter between syscalls, recorded in serial mode. */
TEST_F_TIMEOUT(rm, threads_race_serial, 300)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/threads_race 4 200", top);
	real_program(_metadata, self->dir, "race", "--serial --at-exit --interval-ms 1000 --keep 16",
		     cmd);
}

/*
 * A use-after-free between two threads (issue 25, class 5, the flagship
 * case; tests/progs/uaf_threads.c): a worker calls through a handler that
 * the main thread freed and whose chunk it got back from malloc for its
 * own data, after UAF_ROUNDS hand-overs through a mutex and two condition
 * variables.  The stale function pointer is the new record's first word,
 * 0x1000 + UAF_ROUNDS: the call jumps there, and rip and the fault address
 * are both that number.
 *
 * At the crash the main thread is inside pthread_cond_wait's futex wait,
 * entered (and numbered) before the worker's last call: the mutex it
 * released on its way in is what the worker took.  The checkpoint holds
 * that call as unfinished (FLIGHTREC_SC_UNFINISHED); without it replay let
 * the worker run first, which found the mutex held and diverged at a futex
 * (WAKE recorded, WAIT replayed), with and without --serial.
 */
#define UAF_ROUNDS	6
#define UAF_TARGET	(0x1000 + UAF_ROUNDS)

/* What the program writes: the same every run. */
static void uaf_expected(char *buf, size_t size)
{
	size_t n = 0;
	long i;

	for (i = 1; i <= UAF_ROUNDS; i++)
		n += (size_t)snprintf(buf + n, size - n,
				      "worker: square(%ld) = %ld, call %ld\nmain: round %ld gave %ld\n",
				      i + 10, (i + 10) * (i + 10), i, i, (i + 10) * (i + 10));
	snprintf(buf + n, size - n, "main: switched to stats mode\n");
}

/*
 * Records uaf_threads with opts; checks the live run (status, output) and
 * the checkpoint's end and unfinished calls.  Returns the checkpoint (in
 * DIR/NAME.flrc), or NULL after a failed assertion.
 */
static struct flrc *uaf_record(struct __test_metadata *_metadata, const char *dir,
			       const char *name, const char *opts)
{
	char cmd[PATH_MAX + 128], want[1024], err[256], *live;
	uint32_t main_tid;
	struct flrc *c;
	size_t len;

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/uaf_threads %d 60", top, UAF_ROUNDS);
	EXPECT_EQ(128 + SIGSEGV, record(dir, name, opts, cmd)) {
		show(dir, name);
		return NULL;
	}
	uaf_expected(want, sizeof(want));
	snprintf(cmd, sizeof(cmd), "%s.live", name);
	live = fr_slurp(dir, cmd, &len);
	EXPECT_NE(NULL, live);
	if (!live)
		return NULL;
	EXPECT_EQ(strlen(want), len);
	EXPECT_EQ(0, memcmp(want, live, len < strlen(want) ? len : strlen(want)))
		TH_LOG("live output:\n%.*s", (int)len, live);
	free(live);
	if (!_metadata->passed)
		return NULL;
	EXPECT_EQ(0, fr_sh("test $(ls %s/%s/*.flrc | wc -l) = 1 && cp %s/%s/*.flrc %s/%s.flrc",
			   dir, name, dir, name, dir, name)) {
		fr_sh("ls -l %s/%s", dir, name);
		return NULL;
	}
	snprintf(cmd, sizeof(cmd), "%s/%s.flrc", dir, name);
	EXPECT_EQ(0, flrc_read(cmd, &c, err, sizeof(err))) {
		TH_LOG("%s", err);
		return NULL;
	}
	main_tid = c->hdr->process->pid;
	EXPECT_EQ(FLIGHTREC_END_FAULT, c->end->kind);
	EXPECT_EQ((uint32_t)SIGSEGV, c->end->signo);
	EXPECT_EQ(SEGV_MAPERR, c->end->si_code);
	EXPECT_EQ(UAF_TARGET, c->end->fault_addr);
	EXPECT_NE(NULL, c->end->regs);
	if (c->end->regs)
		EXPECT_EQ(UAF_TARGET, c->end->regs->rip);
	EXPECT_NE(main_tid, c->end->tid);	/* the worker crashed */
	EXPECT_GE(c->n_syscalls, 2);
	/* a few intervals: the crash is not in the first one */
	EXPECT_LT(c->syscalls[0]->interval, c->syscalls[c->n_syscalls - 1]->interval);
	if (!_metadata->passed) {
		flrc_free(c);
		return NULL;
	}
	return c;
}

/*
 * The checkpoint holds the main thread's condvar wait as the one call
 * unfinished at the crash, and the worker's last call, its mutex unlock's
 * wake (the mutex that pthread_cond_wait's contended lock took).  In
 * serial mode the worker ran only once main had entered that wait (it
 * passed the token there), so the wait comes just before the wake, which
 * is the last record.  Free-running, either order is legal: the worker may
 * have entered its wake before main entered its wait (CI's 6.12 boot
 * recorded that), or crashed while main was still on its way to the wait
 * (then none is unfinished).  And every interval says whether it was
 * recorded in serial mode (replay's race report needs to know).
 */
static void uaf_unfinished(struct __test_metadata *_metadata, const struct flrc *c,
			   bool serial)
{
	uint32_t main_tid = c->hdr->process->pid, worker_tid = 0;
	size_t k, unfinished = 0, last = 0;

	EXPECT_GE(c->hdr->n_intervals, 2);
	for (k = 0; k < c->hdr->n_intervals; k++)
		EXPECT_EQ(serial ? FLIGHTREC_IF_SERIAL : 0,
			  c->hdr->intervals[k]->flags & FLIGHTREC_IF_SERIAL);

	for (k = 0; k < c->n_syscalls; k++) {
		const Flightrec__Syscall *sc = c->syscalls[k];

		if (sc->tid != main_tid)
			worker_tid = sc->tid;
		if (!(sc->flags & FLIGHTREC_SC_UNFINISHED))
			continue;
		unfinished++;
		last = k;
		EXPECT_EQ(main_tid, sc->tid);
		EXPECT_EQ(__NR_futex, sc->nr);
		EXPECT_EQ(FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME,
			  sc->args[1]);
	}
	if (serial) {
		EXPECT_EQ(1, unfinished);
	} else {
		EXPECT_GE(1, unfinished);
	}
	EXPECT_EQ(worker_tid, c->end->tid);
	if (unfinished == 1) {
		size_t w = c->n_syscalls;
		const Flightrec__Syscall *wake;

		/* the worker's last call */
		while (w > 0 && c->syscalls[w - 1]->tid != worker_tid)
			w--;
		ASSERT_GT(w, 0);
		w--;
		if (serial) {
			EXPECT_EQ(c->n_syscalls - 2, last);
			EXPECT_EQ(c->n_syscalls - 1, w);
		} else {
			/* the wait then the wake, or the wake then the wait */
			EXPECT_TRUE((last == c->n_syscalls - 2 && w == c->n_syscalls - 1) ||
				    (w == c->n_syscalls - 2 && last == c->n_syscalls - 1)) {
				TH_LOG("%zu records: main's wait at %zu, the worker's last call at %zu",
				       c->n_syscalls, last, w);
			}
		}
		wake = c->syscalls[w];
		EXPECT_EQ(__NR_futex, wake->nr);
		EXPECT_EQ(FUTEX_WAKE | FUTEX_PRIVATE_FLAG, wake->args[1]);
	}
}

static size_t uaf_n_unfinished(const struct flrc *c)
{
	size_t k, n = 0;

	for (k = 0; k < c->n_syscalls; k++)
		n += !!(c->syscalls[k]->flags & FLIGHTREC_SC_UNFINISHED);
	return n;
}

TEST_F_TIMEOUT(rm, uaf_threads_serial, 300)
{
	char want[128];
	struct flrc *c;

	c = uaf_record(_metadata, self->dir, "uafs",
		       "--serial --interval-ms 100 --keep 60");
	ASSERT_NE(NULL, c);
	EXPECT_EQ(0, replay(self->dir, "uafs")) show(self->dir, "uafs");
	snprintf(want, sizeof(want), "reproduced SIGSEGV at rip %#x (addr %#x), as recorded",
		 UAF_TARGET, UAF_TARGET);
	EXPECT_TRUE(rerr_has(self->dir, "uafs", want)) {
		TH_LOG("want '%s'", want);
		show(self->dir, "uafs");
	}
	/* byte for byte, and not empty */
	EXPECT_EQ(0, fr_sh("cmp %s/uafs.live %s/uafs.rep/fd1.out", self->dir, self->dir));
	uaf_unfinished(_metadata, c, true);
	flrc_free(c);
	if (_metadata->passed)
		export(self->dir, "uafs", want);
}

/*
 * The same without --serial: the threads ran user code at the same time
 * when recorded.  Replay must reproduce the crash with the same output, or
 * stop with a race report: the thread that diverged and the call, and the
 * other thread whose user code ran at the same time when recorded
 * (race_note() in the loader), having written no byte the program did not
 * write; never hang (the time limit), never "as recorded" with other
 * output.  Either outcome is said in the log (the count over runs is in
 * docs/replay.md).
 */
TEST_F_TIMEOUT(rm, uaf_threads_free_running, 300)
{
	char want[128];
	struct flrc *c;
	int r;

	c = uaf_record(_metadata, self->dir, "uaff", "--interval-ms 100 --keep 60");
	ASSERT_NE(NULL, c);
	r = fr_sh("cd %s && timeout %u %s/user/flightrec replay uaff.flrc --out uaff.rep "
		  "> uaff.rout 2> uaff.rerr", self->dir, 120 * fr_timeout_scale(), top);
	snprintf(want, sizeof(want), "reproduced SIGSEGV at rip %#x (addr %#x), as recorded",
		 UAF_TARGET, UAF_TARGET);
	if (r == 0) {
		EXPECT_TRUE(rerr_has(self->dir, "uaff", want)) show(self->dir, "uaff");
		EXPECT_EQ(0, fr_sh("cmp %s/uaff.live %s/uaff.rep/fd1.out", self->dir, self->dir));
		EXPECT_FALSE(rerr_has(self->dir, "uaff", "race:"));
		TH_LOG("outcome: reproduced");
	} else {
		uint32_t tids[2] = { c->hdr->process->pid, c->end->tid };
		char line[3][160];
		int k, named = 0;

		EXPECT_EQ(FR_EXIT_DIVERGED, r) show(self->dir, "uaff");
		/*
		 * The race, named: the thread that diverged, at which call,
		 * and the other thread whose user code ran at the same time
		 * when recorded.
		 */
		for (k = 0; k < 2; k++) {
			snprintf(line[0], sizeof(line[0]), "DIVERGED: thread %u, seq ", tids[k]);
			snprintf(line[1], sizeof(line[1]), "  race: thread %u ran user code from ",
				 tids[!k]);
			snprintf(line[2], sizeof(line[2]), "  race: not a --serial recording: "
				 "thread %u, user code from ", tids[k]);
			if (rerr_has(self->dir, "uaff", line[0]) &&
			    rerr_has(self->dir, "uaff", line[1]) &&
			    rerr_has(self->dir, "uaff", line[2]))
				named++;
		}
		EXPECT_EQ(1, named) show(self->dir, "uaff");
		EXPECT_TRUE(rerr_has(self->dir, "uaff", "  expected "));
		EXPECT_FALSE(rerr_has(self->dir, "uaff", "as recorded"));
		/* what it wrote is what the program wrote, up to there */
		EXPECT_EQ(0, fr_sh("cd %s && f=uaff.rep/fd1.out && { ! test -e $f || "
				   "head -c $(stat -c %%s $f) uaff.live | cmp -s - $f; }", self->dir));
		fr_sh("grep -A5 DIVERGED %s/uaff.rerr", self->dir);
		TH_LOG("outcome: divergence reported");
	}
	uaf_unfinished(_metadata, c, false);
	TH_LOG("unfinished calls at the crash: %s", uaf_n_unfinished(c) ? "main's wait" : "none");
	flrc_free(c);
}

/*
 * Serial mode preempts a thread that computes without system calls while
 * another waits for the token (tests/progs/preempt_spin: the main thread
 * reads the worker's progress after a sleep).  The recording says where:
 * a FLIGHTREC_NR_PREEMPT record of the worker with its user registers,
 * numbered between the main thread's sleep and its read, in an interval
 * flagged FLIGHTREC_IF_PREEMPTED.  Replay stops the worker at that
 * instruction (the first time it is there with those registers), so the
 * main thread reads the same progress and checksum: the output is byte
 * for byte the live one, and the replay ends "as recorded".  Before the
 * record, the worker's whole run to its exit was one segment, replayed
 * after the main thread's read: the replayed main thread found the worker
 * not started and slept again ("expected write, got clock_nanosleep").  `flightrec log` shows the record,
 * `flightrec info` the interval as preempted.
 */
TEST_F_TIMEOUT(rm, preempt_serial, 300)
{
	char cmd[PATH_MAX + 64], err[256];
	uint32_t main_tid;
	struct flrc *c;
	size_t k, n = 0;

	snprintf(cmd, sizeof(cmd), "%s/tests/bin/progs/preempt_spin 20", top);
	ASSERT_EQ(0, record(self->dir, "pre", "--serial --at-exit", cmd)) show(self->dir, "pre");
	ASSERT_EQ(0, fr_sh("test $(ls %s/pre/*.flrc | wc -l) = 1 && cp %s/pre/*.flrc %s/pre.flrc",
			   self->dir, self->dir, self->dir)) fr_sh("ls -l %s/pre", self->dir);
	snprintf(cmd, sizeof(cmd), "%s/pre.flrc", self->dir);
	ASSERT_EQ(0, flrc_read(cmd, &c, err, sizeof(err))) TH_LOG("%s", err);
	main_tid = c->hdr->process->pid;
	for (k = 0; k < c->n_syscalls; k++) {
		const Flightrec__Syscall *s = c->syscalls[k];
		struct user_regs_struct r;
		uint32_t ivf = 0;
		size_t i;

		if (!FLIGHTREC_IS_EVENT(s->nr, s->flags, FLIGHTREC_NR_PREEMPT))
			continue;
		n++;
		EXPECT_NE(main_tid, s->tid) TH_LOG("seq %" PRIu64 ": the main thread only sleeps",
						   s->seq);
		EXPECT_EQ(0, s->ret);
		ASSERT_EQ(1, s->n_out);
		EXPECT_EQ(0, s->out[0]->arg);
		EXPECT_EQ(0, s->out[0]->addr);
		ASSERT_EQ(sizeof(r), s->out[0]->data.len);
		memcpy(&r, s->out[0]->data.data, sizeof(r));
		ASSERT_LE(5, s->n_args);
		EXPECT_EQ(s->args[4], r.rip);
		EXPECT_EQ(0x33, r.cs);		/* 64-bit user code */
		for (i = 0; i < c->hdr->n_intervals; i++)
			if (c->hdr->intervals[i]->index == s->interval)
				ivf = c->hdr->intervals[i]->flags;
		EXPECT_EQ(FLIGHTREC_IF_PREEMPTED | FLIGHTREC_IF_SERIAL,
			  ivf & (FLIGHTREC_IF_PREEMPTED | FLIGHTREC_IF_SERIAL))
			TH_LOG("interval %u flags %#x", s->interval, ivf);
	}
	EXPECT_LE(1, n) TH_LOG("no preemption recorded");
	flrc_free(c);
	EXPECT_EQ(0, replay(self->dir, "pre")) show(self->dir, "pre");
	EXPECT_EQ(0, fr_sh("grep -q 'exited with status 0 (thread [0-9]*, seq [0-9]*), as recorded' "
			   "%s/pre.rerr", self->dir)) show(self->dir, "pre");
	EXPECT_EQ(0, fr_sh("grep -q '^progress [1-9][0-9]* sum ' %s/pre.live && "
			   "cmp %s/pre.live %s/pre.rep/fd1.out", self->dir, self->dir, self->dir))
		fr_sh("head %s/pre.live %s/pre.rep/fd1.out", self->dir, self->dir);
	EXPECT_EQ(0, fr_sh("%s/user/flightrec log %s/pre.flrc | "
			   "grep -q '<preempt in user code at rip 0x[0-9a-f]* rsp 0x'",
			   top, self->dir));
	EXPECT_EQ(0, fr_sh("%s/user/flightrec info %s/pre.flrc | grep -q '  serial  preempted$'",
			   top, self->dir));
	if (_metadata->passed)
		export(self->dir, "pre", "exited with status 0");
}

TEST_HARNESS_MAIN
