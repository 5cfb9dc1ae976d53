// SPDX-License-Identifier: GPL-2.0
/*
 * record_vdso: the vDSO calls that answer without entering the kernel are
 * taken away from a recorded process.  getrandom (x86 vDSO from 6.11, so
 * on 6.12 and not on 6.1) fills buffers from [vvar] state with no syscall,
 * which no log could replay: a recorded process finds it answering -ENOSYS
 * (and its C library then makes the syscall), an unrecorded one has it
 * working.
 */
#include "kselftest_harness.h"
#include "fr_test.h"
#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

static int run_prog(struct __test_metadata *_metadata, bool recorded)
{
	char *argv[] = { (char *)fr_prog("vdso_getrandom"), NULL };
	char out[256];
	int status, gate = -1;
	pid_t pid;

	if (!recorded) {
		EXPECT_EQ(0, fr_run(argv, out, sizeof(out), &status));
		TH_LOG("unrecorded: %s", out);
	} else {
		pid = fr_spawn_gated(argv, &gate);
		EXPECT_GT(pid, 0);
		if (pid <= 0)
			return -1;
		EXPECT_EQ(0, fr_control("register %d", pid));
		EXPECT_EQ(0, fr_gate_open(gate));
		EXPECT_EQ(0, fr_wait_timeout(pid, &status, 60000));
	}
	EXPECT_TRUE(WIFEXITED(status));
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(getrandom_unrecorded_works)
{
	int rc = run_prog(_metadata, false);

	if (rc == 2)
		SKIP(return, "this kernel's vDSO has no getrandom (before 6.11)");
	EXPECT_EQ(0, rc);
}

TEST(getrandom_recorded_enosys)
{
	int rc;

	FR_REQUIRE_MODULE();
	rc = run_prog(_metadata, true);
	if (rc == 2)
		SKIP(return, "this kernel's vDSO has no getrandom (before 6.11)");
	EXPECT_EQ(38, rc);
}

/*
 * The vDSO is patched only while no thread of the process is inside the
 * bytes that change (issue 24.8): a thread stopped a few bytes into
 * __vdso_clock_gettime (here by ptrace, single-stepped there; an interrupt
 * or another CPU does the same on its own) would resume in the middle of
 * the new instructions.  Before, the first boundary patched the function
 * with the thread there, and it died when it went on (SIGSEGV).
 */
TEST(patched_with_a_thread_inside)
{
	char *argv[] = { (char *)fr_prog("vdso_spin"), NULL };
	struct user_regs_struct regs;
	unsigned long entry = 0;
	int in[2], out[2], status, st;
	char line[128];
	ssize_t n;
	pid_t pid, tid = 0;

	FR_REQUIRE_MODULE();
	FR_REQUIRE_ROOT();
	ASSERT_EQ(0, pipe(in));
	ASSERT_EQ(0, pipe(out));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		/* it runs until the test closes its stdin */
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	n = read(out[0], line, sizeof(line) - 1);
	ASSERT_GT(n, 0);
	line[n] = 0;
	ASSERT_EQ(2, sscanf(line, "%lx %d", &entry, &tid)) TH_LOG("%s", line);
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, tid, 0, 0));
	ASSERT_EQ(0, ptrace(PTRACE_INTERRUPT, tid, 0, 0));
	ASSERT_EQ(tid, waitpid(tid, &st, __WALL));
	/*
	 * To the entry by an execute breakpoint (DR0), then one instruction
	 * further.  Not by single steps from wherever it stopped: a thread
	 * stopped in the vDSO's seqcount retry loop and stepped an
	 * instruction per millisecond sees the timekeeper's update between
	 * every read and its check, and never leaves the loop (the debug
	 * kernel, under emulation: 6,465 steps in 30 s, one run in three).
	 */
	ASSERT_EQ(0, ptrace(PTRACE_POKEUSER, tid,
			    offsetof(struct user, u_debugreg[0]), entry));
	ASSERT_EQ(0, ptrace(PTRACE_POKEUSER, tid,
			    offsetof(struct user, u_debugreg[7]), 1));	/* L0, execute */
	ASSERT_EQ(0, ptrace(PTRACE_CONT, tid, 0, 0));
	ASSERT_EQ(tid, waitpid(tid, &st, __WALL));
	ASSERT_TRUE(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP) TH_LOG("status %#x", st);
	ASSERT_EQ(0, ptrace(PTRACE_POKEUSER, tid,
			    offsetof(struct user, u_debugreg[7]), 0));
	ASSERT_EQ(0, ptrace(PTRACE_GETREGS, tid, 0, &regs));
	ASSERT_EQ(entry, regs.rip) TH_LOG("the thread stopped at %#llx, not %#lx",
					  regs.rip, entry);
	ASSERT_EQ(0, ptrace(PTRACE_SINGLESTEP, tid, 0, 0));
	ASSERT_EQ(tid, waitpid(tid, &st, __WALL));
	ASSERT_EQ(0, ptrace(PTRACE_GETREGS, tid, 0, &regs));
	TH_LOG("thread %d stopped at __vdso_clock_gettime+%llu", tid, regs.rip - entry);
	ASSERT_TRUE(regs.rip > entry && regs.rip < entry + 8)
		TH_LOG("the first instruction is not inside the patched 8 bytes");
	/* recorded meanwhile: boundaries every 20 ms, the first one patches */
	ASSERT_EQ(0, fr_control("register %d interval_ms=20", pid));
	usleep(500000);
	ASSERT_EQ(0, ptrace(PTRACE_DETACH, tid, 0, 0));
	/* it goes on spinning, recorded, then ends */
	usleep(500000);
	close(in[1]);
	ASSERT_EQ(0, fr_wait_timeout(pid, &status, 60000));
	close(out[0]);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("vdso_spin: status %#x (signal %d)", status,
		       WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

TEST_HARNESS_MAIN
