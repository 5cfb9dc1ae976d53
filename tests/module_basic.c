// SPDX-License-Identifier: GPL-2.0
/*
 * module_basic - the module's user-visible surface exists and is locked down:
 * /proc/flightrec/control (root only, mode 0600) and the module parameters
 * ring_mb, interval_ms and keep.
 */
#include "kselftest_harness.h"
#include "fr_test.h"

#include <grp.h>
#include <sys/stat.h>

TEST(control_file_mode)
{
	struct stat st;

	FR_REQUIRE_MODULE();
	ASSERT_EQ(0, stat(FR_PROC_DIR, &st)) TH_LOG("%s: %m", FR_PROC_DIR);
	ASSERT_TRUE(S_ISDIR(st.st_mode));
	ASSERT_EQ(0, stat(FR_CONTROL, &st)) TH_LOG("%s: %m", FR_CONTROL);
	ASSERT_TRUE(S_ISREG(st.st_mode));
	EXPECT_EQ(0600, st.st_mode & 07777)
		TH_LOG("%s has mode %04o", FR_CONTROL, st.st_mode & 07777);
	EXPECT_EQ(0, st.st_uid);
	EXPECT_EQ(0, st.st_gid);
}

/* Mode 0600 is not the only guard, but an unprivileged user must not get in. */
TEST(control_denied_to_unprivileged)
{
	int status, fd;
	pid_t pid;

	FR_REQUIRE_MODULE();
	FR_REQUIRE_ROOT();
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(2);
		fd = open(FR_CONTROL, O_WRONLY);
		if (fd >= 0)
			_exit(1);
		_exit(errno == EACCES || errno == EPERM ? 0 : 3);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("uid 65534: open(%s, O_WRONLY) %s", FR_CONTROL,
		       WEXITSTATUS(status) == 1 ? "succeeded" :
		       WEXITSTATUS(status) == 2 ? "(could not drop privileges)" :
		       "failed with an unexpected errno");
}

static void check_param(struct __test_metadata *_metadata, const char *name)
{
	unsigned long long val;
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), FR_SYSFS_PARAMS "/%s", name);
	ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s: %m", path);
	EXPECT_TRUE(st.st_mode & S_IRUSR) TH_LOG("%s is not readable", path);
	EXPECT_FALSE(st.st_mode & (S_IWGRP | S_IWOTH))
		TH_LOG("%s is writable by non-root (mode %04o)", path,
		       st.st_mode & 07777);
	ASSERT_EQ(0, fr_read_param(name, &val)) TH_LOG("%s: not a number", path);
	EXPECT_LT(0, val) TH_LOG("%s is 0", path);
}

TEST(param_ring_mb)
{
	FR_REQUIRE_MODULE();
	check_param(_metadata, "ring_mb");
}

TEST(param_interval_ms)
{
	FR_REQUIRE_MODULE();
	check_param(_metadata, "interval_ms");
}

TEST(param_keep)
{
	FR_REQUIRE_MODULE();
	check_param(_metadata, "keep");
}

TEST_HARNESS_MAIN
