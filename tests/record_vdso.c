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

TEST_HARNESS_MAIN
