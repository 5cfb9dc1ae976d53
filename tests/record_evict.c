// SPDX-License-Identifier: GPL-2.0
/*
 * record_evict: what the ring_mb cap evicts from the probes (issue 24.4).
 * A binary of its own: on the debug kernel it is the one to run before and
 * after a change to the eviction path, in minutes (record_process takes
 * half an hour there).
 */
#include "kselftest_harness.h"
#include "fr_test.h"
#include "fr_dump.h"
#include <fcntl.h>

FIXTURE(evict) {
	struct fr_client *c;
	char err[256];
	/* ring_mb as it was, put back by the teardown even after a failure */
	unsigned long long ring_mb;
	pid_t child;
};

FIXTURE_SETUP(evict)
{
	FR_REQUIRE_MODULE();
	ASSERT_EQ(0, frd_open(&self->c, self->err, sizeof(self->err))) TH_LOG("%s", self->err);
}

FIXTURE_TEARDOWN(evict)
{
	char val[32];

	fr_kill_wait(self->child);
	if (self->ring_mb) {
		snprintf(val, sizeof(val), "%llu", self->ring_mb);
		fr_write_file(FR_SYSFS_PARAMS "/ring_mb", val, strlen(val));
	}
	if (self->c)
		fr_client_close(self->c);
}

/*
 * The cap evicts from the syscall probe (issue 24.4): a getpid() record
 * charged at the cap drops the oldest interval there, with preemption off,
 * and that interval holds a 6 MiB read's record, which is vmalloc'd (over
 * the largest kmalloc).  vfree() may sleep: on the debug kernel
 * (DEBUG_ATOMIC_SLEEP) freeing it there is "BUG: sleeping function called
 * from invalid context", which this test looks for in the kernel log (and
 * the rig's scan fails it too).  The module hands such blocks to a worker.
 */
TEST_F_TIMEOUT(evict, vmalloc_freed_outside_probe, 300)
{
	char *argv[] = { (char *)fr_prog("big_reads"), "8", "6", "20000", NULL };
	uint64_t dropped = 0;
	int gate = -1, status, kmsg, bad = 0;
	char rec[8192];
	ssize_t n;
	pid_t pid;

	FR_REQUIRE_ROOT();
	/* the kernel log from here on: /dev/kmsg, past its end */
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_GE(kmsg, 0);
	ASSERT_LE(0, lseek(kmsg, 0, SEEK_END));
	ASSERT_EQ(0, fr_read_param("ring_mb", &self->ring_mb));
	ASSERT_EQ(0, fr_write_file(FR_SYSFS_PARAMS "/ring_mb", "16", 2));
	pid = fr_spawn_gated(argv, &gate);
	ASSERT_GT(pid, 0);
	self->child = pid;
	ASSERT_EQ(0, fr_client_register(self->c, pid, 100, 64, 0, self->err,
					sizeof(self->err))) TH_LOG("%s", self->err);
	ASSERT_EQ(0, fr_gate_open(gate));
	/* the dropped count, while the process is still registered */
	while (waitpid(pid, &status, WNOHANG) == 0) {
		frd_proc_dropped(self->c, pid, &dropped);
		usleep(20000);
	}
	self->child = 0;
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("big_reads: status 0x%x", status);
	EXPECT_GT(dropped, 0) TH_LOG("the cap evicted nothing: this proved nothing");
	/* one record per read; EPIPE: some were overwritten, read on */
	while ((n = read(kmsg, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;
		rec[n] = 0;
		if (strstr(rec, "sleeping function called from invalid context") ||
		    strstr(rec, "vfree")) {
			TH_LOG("kernel log: %s", rec);
			bad++;
		}
	}
	close(kmsg);
	EXPECT_EQ(0, bad);
}

TEST_HARNESS_MAIN
